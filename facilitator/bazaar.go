package facilitator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Bounds of a bazaar declaration.
const (
	// MaxBazaarSchema bounds each of input_schema and output_schema.
	MaxBazaarSchema = 16 << 10
	// maxBazaarDepth bounds how deeply a schema nests.
	maxBazaarDepth = 32
	// maxBazaarTags and maxBazaarTag bound the tags, as upstream's
	// discovery does (five of at most 32 characters).
	maxBazaarTags, maxBazaarTag = 5, 32
	// maxBazaarPath bounds the listed path.
	maxBazaarPath = 512
	// maxBazaarDeclaration bounds the whole extension's JSON: it travels
	// base64-encoded in PAYMENT-REQUIRED, and upstream clients echo it in
	// PAYMENT-SIGNATURE, both held to x402.MaxHeaderSize (16 KiB) with
	// the offers, the resource and the signature beside it.
	maxBazaarDeclaration = 8 << 10
)

// Bazaar declares a paid route discoverable (the bazaar extension
// of x402): its 402 carries extensions.bazaar, the route's input and
// output as JSON Schema, and the embedded facilitator lists it at GET
// /discovery/resources. The schemas are given inline, at most 16 KiB
// each; references ($ref, $id, $schema and the like) are refused, so
// nothing is ever fetched from a URL.
type Bazaar struct {
	// The path of the resource, such as /weather, that the discovery list
	// shows with the route's origin; required.
	Path string `json:"path"`
	// The method the resource is called with: GET, HEAD or DELETE (query
	// input), or POST, PUT or PATCH (body input). Default: GET, or POST
	// with body_type.
	Method string `json:"method,omitempty"`
	// The body's encoding, for a body method: json, form-data or text.
	// Default: json for a body method; none for a query method.
	BodyType string `json:"body_type,omitempty"`
	// The JSON Schema of the input: of the query parameters (an object's
	// properties) for a query method, of the body for a body method.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	// The JSON Schema of the answer's JSON.
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	// An example input, a JSON object: query parameters for a query
	// method, the body for a body method. It must satisfy input_schema,
	// since discovery clients validate the declaration with it.
	InputExample json.RawMessage `json:"input_example,omitempty"`
	// An example answer, a JSON object that satisfies output_schema.
	OutputExample json.RawMessage `json:"output_example,omitempty"`
	// A category, such as "weather", at most 32 printable ASCII
	// characters.
	Category string `json:"category,omitempty"`
	// Up to five tags, each at most 32 printable ASCII characters.
	Tags []string `json:"tags,omitempty"`
}

// isBodyMethod reports whether m carries its input in a body.
func isBodyMethod(m string) bool { return m == "POST" || m == "PUT" || m == "PATCH" }

// method is the declared method, or its default.
func (b *Bazaar) method() string {
	switch {
	case b.Method != "":
		return strings.ToUpper(b.Method)
	case b.BodyType != "":
		return "POST"
	}
	return "GET"
}

// bodyType is the declared body type, json by default for a body method.
func (b *Bazaar) bodyType() string {
	if b.BodyType == "" && isBodyMethod(b.method()) {
		return "json"
	}
	return b.BodyType
}

// printable reports whether s is 1 to max printable ASCII characters.
func printable(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// Validate checks the declaration; origin is the route's.
func (b *Bazaar) Validate(origin string) error {
	var errs []error
	if origin == "" {
		errs = append(errs, errors.New("x402 bazaar needs the route's origin, so that the discovery list shows an absolute URL (request headers are never used for it)"))
	}
	if !printable(b.Path, maxBazaarPath) || !strings.HasPrefix(b.Path, "/") || strings.ContainsAny(b.Path, "?#\\ ") {
		errs = append(errs, fmt.Errorf("x402 bazaar path %q: want an absolute path such as /weather, at most %d characters, no query", b.Path, maxBazaarPath))
	}
	m := b.method()
	switch m {
	case "GET", "HEAD", "DELETE":
		if b.BodyType != "" {
			errs = append(errs, fmt.Errorf("x402 bazaar body_type needs a body method (POST, PUT, PATCH), not %s", m))
		}
	case "POST", "PUT", "PATCH":
	default:
		errs = append(errs, fmt.Errorf("x402 bazaar method %q: want GET, HEAD, DELETE, POST, PUT or PATCH", b.Method))
	}
	switch b.BodyType {
	case "", "json", "form-data", "text":
	default:
		errs = append(errs, fmt.Errorf("x402 bazaar body_type %q: want json, form-data or text", b.BodyType))
	}
	for _, s := range []struct {
		name string
		raw  json.RawMessage
	}{{"input_schema", b.InputSchema}, {"output_schema", b.OutputSchema}} {
		if len(s.raw) > 0 {
			if err := checkSchema(s.raw); err != nil {
				errs = append(errs, fmt.Errorf("x402 bazaar %s: %w", s.name, err))
			}
		}
	}
	for _, s := range []struct {
		name string
		raw  json.RawMessage
	}{{"input_example", b.InputExample}, {"output_example", b.OutputExample}} {
		if len(s.raw) > 0 {
			if err := checkExample(s.raw); err != nil {
				errs = append(errs, fmt.Errorf("x402 bazaar %s: %w", s.name, err))
			}
		}
	}
	if b.Category != "" && !printable(b.Category, maxBazaarTag) {
		errs = append(errs, fmt.Errorf("x402 bazaar category: want at most %d printable ASCII characters", maxBazaarTag))
	}
	if len(b.Tags) > maxBazaarTags {
		errs = append(errs, fmt.Errorf("x402 bazaar tags: at most %d", maxBazaarTags))
	}
	for _, t := range b.Tags {
		if !printable(t, maxBazaarTag) {
			errs = append(errs, fmt.Errorf("x402 bazaar tag %q: want 1 to %d printable ASCII characters", t, maxBazaarTag))
		}
	}
	if len(errs) == 0 {
		if ext, err := b.Extension(); err != nil {
			errs = append(errs, fmt.Errorf("x402 bazaar: %w", err))
		} else if len(ext) > maxBazaarDeclaration {
			errs = append(errs, fmt.Errorf("x402 bazaar: the declaration is %d bytes of JSON, more than the %d allowed (it travels in the PAYMENT-REQUIRED header, and clients echo it in PAYMENT-SIGNATURE)", len(ext), maxBazaarDeclaration))
		}
	}
	return errors.Join(errs...)
}

// checkSchema checks that raw is a JSON object of at most 16 KiB, nested
// at most 32 deep, without references: $ref, $dynamicRef, $recursiveRef,
// $id, $schema and the anchors are refused, so a validator never fetches
// a URL. (Even a local "#/…" reference is refused: the schema is nested in
// the declaration's own, so it would resolve against the wrong root.)
func checkSchema(raw json.RawMessage) error {
	if len(raw) > MaxBazaarSchema {
		return fmt.Errorf("%d bytes, more than the %d allowed", len(raw), MaxBazaarSchema)
	}
	if !json.Valid(raw) {
		return errors.New("not JSON (give the schema inline, not a URL)")
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return errors.New("want a JSON object (a JSON Schema), given inline")
	}
	return walkSchema(v, 0)
}

// checkExample checks that raw is a JSON object of at most 16 KiB.
func checkExample(raw json.RawMessage) error {
	if len(raw) > MaxBazaarSchema {
		return fmt.Errorf("%d bytes, more than the %d allowed", len(raw), MaxBazaarSchema)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return errors.New("want a JSON object, given inline")
	}
	return nil
}

// walkSchema checks the references of one schema node.
func walkSchema(v any, depth int) error {
	if depth > maxBazaarDepth {
		return fmt.Errorf("nested more than %d deep", maxBazaarDepth)
	}
	switch n := v.(type) {
	case map[string]any:
		for k, c := range n {
			switch k {
			case "$ref", "$dynamicRef", "$recursiveRef", "$id", "$schema", "$anchor", "$dynamicAnchor", "$recursiveAnchor":
				return fmt.Errorf("%s is not allowed: give every subschema inline (nothing is fetched, and a \"#\" reference would resolve against the whole declaration, not this schema)", k)
			}
			if err := walkSchema(c, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for _, c := range n {
			if err := walkSchema(c, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// schemaObject is raw's members, or none.
func schemaObject(raw json.RawMessage) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(raw) > 0 {
		json.Unmarshal(raw, &m) // checked by validate
	}
	return m
}

// withType is schema's members with "type" set to "object" unless the
// schema says otherwise, as upstream's declareDiscoveryExtension builds
// them.
func withType(raw json.RawMessage) map[string]json.RawMessage {
	m := schemaObject(raw)
	if _, ok := m["type"]; !ok {
		m["type"] = json.RawMessage(`"object"`)
	}
	return m
}

// Extension builds the bazaar extension, {"info":…,"schema":…}, that the
// route's 402 carries: info describes the call (and category and tags),
// schema is the JSON Schema that info and the call's input and output
// follow, in the shape of @x402/extensions' declareDiscoveryExtension.
func (b *Bazaar) Extension() (json.RawMessage, error) {
	m := b.method()
	type obj = map[string]any
	input := obj{"type": "http", "method": m}
	inputProps := obj{
		"type":   obj{"type": "string", "const": "http"},
		"method": obj{"type": "string", "enum": []string{m}},
	}
	required := []string{"type", "method"}
	example := json.RawMessage(`{}`)
	if len(b.InputExample) > 0 {
		example = b.InputExample
	}
	if isBodyMethod(m) {
		input["bodyType"], input["body"] = b.bodyType(), example
		inputProps["bodyType"] = obj{"type": "string", "enum": []string{"json", "form-data", "text"}}
		body := json.RawMessage(`{}`)
		if len(b.InputSchema) > 0 {
			body = b.InputSchema
		}
		inputProps["body"] = body
		required = append(required, "bodyType", "body")
	} else {
		input["queryParams"] = example
		inputProps["queryParams"] = withType(b.InputSchema)
	}
	info := obj{"input": input}
	props := obj{"input": obj{"type": "object", "properties": inputProps, "required": required, "additionalProperties": false}}
	if len(b.OutputSchema) > 0 || len(b.OutputExample) > 0 {
		output := obj{"type": "json"}
		if len(b.OutputExample) > 0 {
			output["example"] = b.OutputExample
		}
		info["output"] = output
		props["output"] = obj{
			"type":       "object",
			"properties": obj{"type": obj{"type": "string"}, "example": withType(b.OutputSchema)},
			"required":   []string{"type"},
		}
	}
	if b.Category != "" {
		info["category"] = b.Category
	}
	if len(b.Tags) > 0 {
		info["tags"] = b.Tags
	}
	return json.Marshal(obj{
		"info": info,
		"schema": obj{
			"$schema":    "https://json-schema.org/draft/2020-12/schema",
			"type":       "object",
			"properties": props,
			"required":   []string{"input"},
		},
	})
}

// Entry is the route's item in the discovery list, at origin.
func (b *Bazaar) Entry(origin, description, mimeType string, accepts []x402.PaymentRequirements, ext json.RawMessage) *DiscoveryResource {
	return &DiscoveryResource{
		Resource: strings.TrimRight(origin, "/") + b.Path, Type: "http", X402Version: x402.Version,
		Accepts: accepts, Description: description, MimeType: mimeType, Tags: b.Tags,
		Extensions: map[string]json.RawMessage{"bazaar": ext},
	}
}

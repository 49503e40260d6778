package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// JSON-RPC 2.0 error codes this package answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
	codeInternal       = -32603
	// codeRetry is the answer to a paid call whose settlement is not
	// known yet: the client retries with the same payment (the HTTP
	// paywall's 503). A tool result would make an x402 client pay again.
	codeRetry = -32002
)

// Keys of _meta that carry x402.
const (
	// MetaPayment is the key of a tools/call's _meta that carries the
	// payment, a PaymentPayload.
	MetaPayment = "x402/payment"
	// MetaPaymentResponse is the key of a tools/call result's _meta that
	// carries the settlement, a SettleResponse.
	MetaPaymentResponse = "x402/payment-response"
)

// message is one JSON-RPC message of a POST body, as far as the gate
// needs to judge it.
type message struct {
	raw    json.RawMessage            // the message as the client sent it
	fields map[string]json.RawMessage // its top-level members
	id     json.RawMessage            // the request's id; nil for a notification or a response
	method string                     // "" for a response
	// tool is the name a tools/call calls; "" for every other message.
	tool string
	// params are a tools/call's members, and meta its _meta's.
	params, meta map[string]json.RawMessage
	// payment is _meta["x402/payment"] as sent; nil without one.
	payment json.RawMessage
}

// wireKeys are the members whose spelling decides how a message is
// judged. A member whose name differs from one of them only in case is
// refused, since a decoder that matches names without regard to case
// (Go's encoding/json does) would read it as that member.
var wireKeys = map[string][]string{
	"message": {"jsonrpc", "id", "method", "params", "result", "error"},
	"params":  {"name", "_meta", "arguments"},
	"_meta":   {MetaPayment},
}

// errDecode is a body or message this package refuses to judge, so never
// forwards.
type errDecode struct {
	code int
	msg  string
}

func (e *errDecode) Error() string { return e.msg }

// decodeBody reads a POST body: one message, or a batch (an array of
// them). A body that is not JSON, a member named twice, or a member of
// the envelope named in another case is refused as a whole: the upstream
// might read it otherwise than this decoder does.
func decodeBody(body []byte) (msgs []*message, batch bool, err error) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return nil, false, &errDecode{codeParseError, "the body is not valid JSON"}
	}
	if len(body) > 0 && body[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return nil, true, &errDecode{codeParseError, "the batch is not a JSON array"}
		}
		if len(items) == 0 {
			return nil, true, &errDecode{codeInvalidRequest, "an empty batch"}
		}
		for _, it := range items {
			m, err := decodeMessage(it)
			if err != nil {
				return nil, true, err
			}
			msgs = append(msgs, m)
		}
		return msgs, true, nil
	}
	m, err := decodeMessage(body)
	if err != nil {
		return nil, false, err
	}
	return []*message{m}, false, nil
}

// decodeMessage reads one JSON-RPC message.
func decodeMessage(raw json.RawMessage) (*message, error) {
	fields, err := decodeObject(raw, "message")
	if err != nil {
		return nil, err
	}
	m := &message{raw: raw, fields: fields}
	if id, ok := fields["id"]; ok && !bytes.Equal(bytes.TrimSpace(id), []byte("null")) {
		m.id = id
	}
	if method, ok := fields["method"]; ok {
		if err := json.Unmarshal(method, &m.method); err != nil {
			return nil, &errDecode{codeInvalidRequest, "method is not a string"}
		}
	}
	if m.method != "tools/call" {
		return m, nil
	}
	params, ok := fields["params"]
	if !ok {
		return nil, &errDecode{codeInvalidParams, "tools/call without params"}
	}
	if m.params, err = decodeObject(params, "params"); err != nil {
		return nil, err
	}
	name, ok := m.params["name"]
	if !ok {
		return nil, &errDecode{codeInvalidParams, "tools/call without a name"}
	}
	if err := json.Unmarshal(name, &m.tool); err != nil {
		return nil, &errDecode{codeInvalidParams, "the tool name is not a string"}
	}
	if meta, ok := m.params["_meta"]; ok && !bytes.Equal(bytes.TrimSpace(meta), []byte("null")) {
		if m.meta, err = decodeObject(meta, "_meta"); err != nil {
			return nil, err
		}
		if p, ok := m.meta[MetaPayment]; ok && !bytes.Equal(bytes.TrimSpace(p), []byte("null")) {
			m.payment = p
		}
	}
	return m, nil
}

// decodeObject reads a JSON object's members, refusing one named twice
// and, for what names a level of the message, a case variant of the
// names that level's members are judged by.
func decodeObject(raw json.RawMessage, what string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, &errDecode{codeInvalidRequest, fmt.Sprintf("%s is not a JSON object", what)}
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, &errDecode{codeParseError, fmt.Sprintf("%s: %v", what, err)}
		}
		key := tok.(string) // a member's name, since the object is valid JSON
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, &errDecode{codeParseError, fmt.Sprintf("%s: %v", what, err)}
		}
		if _, dup := out[key]; dup {
			return nil, &errDecode{codeInvalidRequest, fmt.Sprintf("%s names %q twice", what, key)}
		}
		for _, k := range wireKeys[what] {
			if key != k && strings.EqualFold(key, k) {
				return nil, &errDecode{codeInvalidRequest, fmt.Sprintf("%s member %q is %q in another case", what, key, k)}
			}
		}
		out[key] = v
	}
	return out, nil
}

// withoutPayment is the message with _meta["x402/payment"] taken out
// (and _meta with it when nothing else is left), for the upstream: an
// unsettled authorization stays spendable until it expires, so it must
// not reach the upstream's logs.
func (m *message) withoutPayment() (json.RawMessage, error) {
	if m.payment == nil && m.meta == nil {
		return m.raw, nil
	}
	meta := make(map[string]json.RawMessage, len(m.meta))
	for k, v := range m.meta {
		if k != MetaPayment {
			meta[k] = v
		}
	}
	params := make(map[string]json.RawMessage, len(m.params))
	for k, v := range m.params {
		params[k] = v
	}
	delete(params, "_meta")
	if len(meta) > 0 {
		b, err := json.Marshal(meta)
		if err != nil {
			return nil, err
		}
		params["_meta"] = b
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	fields := make(map[string]json.RawMessage, len(m.fields))
	for k, v := range m.fields {
		fields[k] = v
	}
	fields["params"] = p
	return json.Marshal(fields)
}

// response is a JSON-RPC response as the gate judges it.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// toolSucceeded reports whether a tools/call's response is a success: a
// result (no JSON-RPC error) whose isError is not true. Only a success is
// charged.
func toolSucceeded(resp json.RawMessage) bool {
	fields, err := decodeObject(resp, "response")
	if err != nil {
		return false
	}
	if e, ok := fields["error"]; ok && !bytes.Equal(bytes.TrimSpace(e), []byte("null")) {
		return false
	}
	result, ok := fields["result"]
	if !ok {
		return false
	}
	res, err := decodeObject(result, "result")
	if err != nil {
		return false
	}
	for k, v := range res {
		if strings.EqualFold(k, "isError") && !bytes.Equal(bytes.TrimSpace(v), []byte("false")) {
			return false // true, or anything but false: not charged
		}
	}
	return true
}

// sameID reports whether two JSON-RPC ids are the same value.
func sameID(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	switch xv := x.(type) {
	case string:
		yv, ok := y.(string)
		return ok && xv == yv
	case float64:
		yv, ok := y.(float64)
		return ok && xv == yv
	}
	return false
}

// responseID is a response message's id, or nil when msg is not a
// response (a notification or a request of the server's).
func responseID(msg []byte) json.RawMessage {
	fields, err := decodeObject(msg, "response")
	if err != nil {
		return nil
	}
	if _, ok := fields["method"]; ok {
		return nil
	}
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	if !hasResult && !hasError {
		return nil
	}
	return fields["id"]
}

// withResultMeta is a response with key set to value in its result's
// _meta.
func withResultMeta(resp json.RawMessage, key string, value any) (json.RawMessage, error) {
	fields, err := decodeObject(resp, "response")
	if err != nil {
		return nil, err
	}
	res, err := decodeObject(fields["result"], "result")
	if err != nil {
		return nil, err
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := res["_meta"]; ok && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if meta, err = decodeObject(raw, "_meta"); err != nil {
			return nil, err
		}
	}
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	meta[key] = v
	if res["_meta"], err = json.Marshal(meta); err != nil {
		return nil, err
	}
	if fields["result"], err = json.Marshal(res); err != nil {
		return nil, err
	}
	return json.Marshal(fields)
}

// errorMessage is a JSON-RPC error response.
func errorMessage(id json.RawMessage, code int, msg string, data any) json.RawMessage {
	if id == nil {
		id = json.RawMessage("null")
	}
	e := struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}{code, msg, data}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, e})
	return b
}

// resultMessage is a JSON-RPC response carrying result.
func resultMessage(id json.RawMessage, result any) (json.RawMessage, error) {
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

var (
	errNoResult      = errors.New("the MCP server sent no response to the call")
	errEventTooLarge = errors.New("mcp: an event of the stream exceeds the bound")
)

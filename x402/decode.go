package x402

import (
	"encoding/json"
	"strings"
	"unsafe"
)

// A facilitator decodes a verify or settle body, and then its exact
// payload, on every request; encoding/json takes two passes over each (it
// checks the whole input before decoding it) and allocates every string
// apart. ParseVerifyRequest and ParseExactPayload decode the form clients
// write (fields named as the wire types name them, strings of printable
// ASCII without escapes, whole numbers) in one pass, with their strings
// slices of one copy of the input, and hand anything else to encoding/json.
// Either way the result, and the error, are those of json.Unmarshal into a
// new value.

// ParseVerifyRequest decodes the body of a verify or settle request, as
// json.Unmarshal does.
func ParseVerifyRequest(data []byte) (*VerifyRequest, error) {
	return parseVerifyRequest(newFastJSON(data))
}

// ParseVerifyRequestOwning is ParseVerifyRequest for a body the request
// may keep: its strings and raw fields are views of data rather than
// copies, so the caller must never change data again. A facilitator that
// reads each body into a new buffer saves copying it.
func ParseVerifyRequestOwning(data []byte) (*VerifyRequest, error) {
	d := &fastJSON{data: data, owned: true}
	if len(data) > 0 {
		d.str = unsafe.String(&data[0], len(data))
	}
	return parseVerifyRequest(d)
}

// parseVerifyRequest decodes d's data in one pass, or with encoding/json.
func parseVerifyRequest(d *fastJSON) (*VerifyRequest, error) {
	r := new(VerifyRequest)
	if d.document(func() bool { return d.verifyRequest(r) }) {
		return r, nil
	}
	r = new(VerifyRequest)
	if err := json.Unmarshal(d.data, r); err != nil {
		return nil, err
	}
	return r, nil
}

// ParseExactPayload decodes the payload of an exact payment, as
// json.Unmarshal does.
func ParseExactPayload(data []byte) (*ExactPayload, error) {
	p := new(ExactPayload)
	d := newFastJSON(data)
	if d.document(func() bool { return d.exactPayload(p) }) {
		return p, nil
	}
	p = new(ExactPayload)
	if err := json.Unmarshal(data, p); err != nil {
		return nil, err
	}
	return p, nil
}

// The JSON names of the fields fastJSON decodes, by type. A key that is none
// of them but equals one of them in another letter case is one that
// encoding/json would decode into that field: fastJSON gives up on it.
var (
	verifyRequestFields       = []string{"x402Version", "paymentPayload", "paymentRequirements", "resource"}
	paymentPayloadFields      = []string{"x402Version", "resource", "accepted", "payload", "extensions"}
	resourceFields            = []string{"url", "description", "mimeType"}
	paymentRequirementsFields = []string{"scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds", "extra"}
	extraFields               = []string{"name", "version", "entryPoint", "entryPointVersion", "factory", "settlement", "sponsorUrl", "assetTransferMethod", "facilitatorAddress", "receiverAuthorizer", "withdrawDelay", "minDeposit", "channelState", "voucherState"}
	exactPayloadFields        = []string{"signature", "authorization"}
	exactAuthorizationFields  = []string{"from", "to", "value", "validAfter", "validBefore", "nonce"}
)

// maxFastDepth is how deeply nested a value fastJSON skips may be.
const maxFastDepth = 64

// fastJSON reads JSON in the form clients write, and gives up (false) on
// anything else, leaving it to encoding/json.
type fastJSON struct {
	data  []byte
	str   string // data as a string: decoded strings are slices of it
	i     int
	depth int
	// owned is set when the result may keep data: str is then data
	// itself, and raw fields are slices of it.
	owned bool
}

func newFastJSON(data []byte) *fastJSON {
	return &fastJSON{data: data, str: string(data)}
}

// document reads one value with value and then nothing but white space.
func (d *fastJSON) document(value func() bool) bool {
	d.ws()
	if !value() {
		return false
	}
	d.ws()
	return d.i == len(d.data)
}

func (d *fastJSON) ws() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *fastJSON) next() byte {
	if d.i < len(d.data) {
		return d.data[d.i]
	}
	return 0
}

// literal reads lit if it is next.
func (d *fastJSON) literal(lit string) bool {
	if strings.HasPrefix(d.str[d.i:], lit) {
		d.i += len(lit)
		return true
	}
	return false
}

// string reads a string of printable ASCII without escapes.
func (d *fastJSON) string() (string, bool) {
	if d.next() != '"' {
		return "", false
	}
	start := d.i + 1
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			d.i = j + 1
			return d.str[start:j], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", false
		}
	}
	return "", false
}

// stringField reads a string field: null leaves it as it is.
func (d *fastJSON) stringField(s *string) bool {
	if d.literal("null") {
		return true
	}
	v, ok := d.string()
	if ok {
		*s = v
	}
	return ok
}

// intField reads an int field of at most 9 digits: null leaves it as it
// is, and a fraction or exponent is left to encoding/json (which refuses
// it).
func (d *fastJSON) intField(n *int) bool {
	if d.literal("null") {
		return true
	}
	neg := d.next() == '-'
	if neg {
		d.i++
	}
	start, v := d.i, 0
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		v = v*10 + int(d.data[d.i]-'0')
		d.i++
	}
	digits := d.i - start
	if digits == 0 || digits > 9 || (digits > 1 && d.data[start] == '0') {
		return false
	}
	if c := d.next(); c == '.' || c == 'e' || c == 'E' {
		return false
	}
	if neg {
		v = -v
	}
	*n = v
	return true
}

// rawField reads any value into a json.RawMessage field, as a copy.
func (d *fastJSON) rawField(m *json.RawMessage) bool {
	start := d.i
	if !d.skip() {
		return false
	}
	if d.owned {
		*m = json.RawMessage(d.data[start:d.i:d.i]) // an append cannot write into data
		return true
	}
	*m = append(json.RawMessage(nil), d.data[start:d.i]...)
	return true
}

// object reads an object, calling field with each key and the reader at
// its value.
func (d *fastJSON) object(field func(key string) bool) bool {
	if d.next() != '{' {
		return false
	}
	if d.depth++; d.depth > maxFastDepth {
		return false
	}
	d.i++
	d.ws()
	if d.next() == '}' {
		d.i++
		d.depth--
		return true
	}
	for {
		key, ok := d.string()
		if !ok {
			return false
		}
		d.ws()
		if d.next() != ':' {
			return false
		}
		d.i++
		d.ws()
		if !field(key) {
			return false
		}
		d.ws()
		switch d.next() {
		case ',':
			d.i++
			d.ws()
		case '}':
			d.i++
			d.depth--
			return true
		default:
			return false
		}
	}
}

// structField reads an object into a struct field with fields: null
// leaves it as it is.
func (d *fastJSON) structField(fields func(key string) bool) bool {
	if d.literal("null") {
		return true
	}
	return d.object(fields)
}

// other skips the value of a key that names none of fields, and gives up
// on one that names a field in another letter case.
func (d *fastJSON) other(key string, fields []string) bool {
	for _, f := range fields {
		if strings.EqualFold(key, f) {
			return false
		}
	}
	return d.skip()
}

// skip reads any value.
func (d *fastJSON) skip() bool {
	switch c := d.next(); {
	case c == '{':
		return d.object(func(string) bool { return d.skip() })
	case c == '[':
		return d.array()
	case c == '"':
		_, ok := d.string()
		return ok
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return false
}

func (d *fastJSON) array() bool {
	if d.depth++; d.depth > maxFastDepth {
		return false
	}
	d.i++ // [
	d.ws()
	if d.next() == ']' {
		d.i++
		d.depth--
		return true
	}
	for {
		if !d.skip() {
			return false
		}
		d.ws()
		switch d.next() {
		case ',':
			d.i++
			d.ws()
		case ']':
			d.i++
			d.depth--
			return true
		default:
			return false
		}
	}
}

// number reads a JSON number.
func (d *fastJSON) number() bool {
	if d.next() == '-' {
		d.i++
	}
	switch c := d.next(); {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return false
	}
	if d.next() == '.' {
		d.i++
		if d.digits() == 0 {
			return false
		}
	}
	if c := d.next(); c == 'e' || c == 'E' {
		d.i++
		if c := d.next(); c == '+' || c == '-' {
			d.i++
		}
		if d.digits() == 0 {
			return false
		}
	}
	return true
}

func (d *fastJSON) digits() int {
	start := d.i
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i - start
}

func (d *fastJSON) verifyRequest(r *VerifyRequest) bool {
	return d.object(func(key string) bool {
		switch key {
		case "x402Version":
			return d.intField(&r.X402Version)
		case "paymentPayload":
			return d.paymentPayload(&r.PaymentPayload)
		case "paymentRequirements":
			return d.paymentRequirements(&r.PaymentRequirements)
		case "resource":
			return d.resourceField(&r.Resource)
		}
		return d.other(key, verifyRequestFields)
	})
}

func (d *fastJSON) paymentPayload(p *PaymentPayload) bool {
	return d.structField(func(key string) bool {
		switch key {
		case "x402Version":
			return d.intField(&p.X402Version)
		case "resource":
			return d.resourceField(&p.Resource)
		case "accepted":
			return d.paymentRequirements(&p.Accepted)
		case "payload":
			return d.rawField(&p.Payload)
		case "extensions":
			return d.rawField(&p.Extensions)
		}
		return d.other(key, paymentPayloadFields)
	})
}

// resourceField reads a resource or null into *r, as json.Unmarshal does
// into a *Resource field.
func (d *fastJSON) resourceField(r **Resource) bool {
	if d.literal("null") {
		*r = nil
		return true
	}
	if *r == nil {
		*r = new(Resource)
	}
	return d.resource(*r)
}

func (d *fastJSON) resource(r *Resource) bool {
	return d.object(func(key string) bool {
		switch key {
		case "url":
			return d.stringField(&r.URL)
		case "description":
			return d.stringField(&r.Description)
		case "mimeType":
			return d.stringField(&r.MimeType)
		}
		return d.other(key, resourceFields)
	})
}

func (d *fastJSON) paymentRequirements(r *PaymentRequirements) bool {
	return d.structField(func(key string) bool {
		switch key {
		case "scheme":
			return d.stringField(&r.Scheme)
		case "network":
			return d.stringField(&r.Network)
		case "amount":
			return d.stringField(&r.Amount)
		case "asset":
			return d.stringField(&r.Asset)
		case "payTo":
			return d.stringField(&r.PayTo)
		case "maxTimeoutSeconds":
			return d.intField(&r.MaxTimeoutSeconds)
		case "extra":
			if d.literal("null") {
				r.Extra = nil
				return true
			}
			if r.Extra == nil {
				r.Extra = new(Extra)
			}
			return d.extra(r.Extra)
		}
		return d.other(key, paymentRequirementsFields)
	})
}

func (d *fastJSON) extra(e *Extra) bool {
	return d.object(func(key string) bool {
		switch key {
		case "name":
			return d.stringField(&e.Name)
		case "version":
			return d.stringField(&e.Version)
		case "entryPoint":
			return d.stringField(&e.EntryPoint)
		case "entryPointVersion":
			return d.stringField(&e.EntryPointVersion)
		case "factory":
			return d.stringField(&e.Factory)
		case "settlement":
			return d.stringField(&e.Settlement)
		case "sponsorUrl":
			return d.stringField(&e.SponsorURL)
		case "assetTransferMethod":
			return d.stringField(&e.AssetTransferMethod)
		case "facilitatorAddress":
			return d.stringField(&e.FacilitatorAddress)
		case "receiverAuthorizer":
			return d.stringField(&e.ReceiverAuthorizer)
		case "withdrawDelay":
			return d.intField(&e.WithdrawDelay)
		case "minDeposit":
			return d.stringField(&e.MinDeposit)
		case "channelState", "voucherState":
			// Only in a corrective 402, never in a payment: left to
			// encoding/json.
			return false
		}
		return d.other(key, extraFields)
	})
}

func (d *fastJSON) exactPayload(p *ExactPayload) bool {
	return d.object(func(key string) bool {
		switch key {
		case "signature":
			return d.stringField(&p.Signature)
		case "authorization":
			return d.structField(func(key string) bool { return d.exactAuthorization(&p.Authorization, key) })
		}
		return d.other(key, exactPayloadFields)
	})
}

func (d *fastJSON) exactAuthorization(a *ExactAuthorization, key string) bool {
	switch key {
	case "from":
		return d.stringField(&a.From)
	case "to":
		return d.stringField(&a.To)
	case "value":
		return d.stringField(&a.Value)
	case "validAfter":
		return d.stringField(&a.ValidAfter)
	case "validBefore":
		return d.stringField(&a.ValidBefore)
	case "nonce":
		return d.stringField(&a.Nonce)
	}
	return d.other(key, exactAuthorizationFields)
}

package mcp

import "encoding/json"

// DecodeForTest decodes body and returns each tools/call as it would go
// upstream, without its payment.
func DecodeForTest(body []byte) ([]json.RawMessage, error) {
	msgs, _, err := decodeBody(body)
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	for _, m := range msgs {
		if m.method != "tools/call" {
			continue
		}
		b, err := m.withoutPayment()
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

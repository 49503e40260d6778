package mcp

import (
	"encoding/json"
	"net/http"

	"github.com/caddy-x402/caddy-x402/x402"
)

// recorder takes the gate's own answers (a challenge, a refusal, a 503),
// which this package translates into MCP's, and the settlement's
// PAYMENT-RESPONSE.
type recorder struct {
	header http.Header
	status int
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (c *recorder) Header() http.Header { return c.header }

func (c *recorder) WriteHeader(status int) {
	if c.status == 0 && status >= 200 {
		c.status = status
	}
}

// Write drops the body: the gate's answers are read from its headers.
func (c *recorder) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return len(b), nil
}

// paymentResponse is the settlement the gate wrote, if any.
func (c *recorder) paymentResponse() (*x402.SettleResponse, bool) {
	v := c.header.Get(x402.HeaderPaymentResponse)
	if v == "" {
		return nil, false
	}
	res, err := x402.DecodePaymentResponse(v)
	if err != nil {
		return nil, false
	}
	return res, true
}

// toolResult is an MCP CallToolResult as this package writes it.
type toolResult struct {
	Content           []textContent              `json:"content"`
	StructuredContent any                        `json:"structuredContent,omitempty"`
	IsError           bool                       `json:"isError,omitempty"`
	Meta              map[string]json.RawMessage `json:"_meta,omitempty"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// paymentRequired is the transport's answer to a call that must pay: a
// tool result with isError, the PaymentRequired in structuredContent and,
// as JSON text, in content[0].text; with the failed settlement in
// _meta["x402/payment-response"] when there was one.
func paymentRequired(id json.RawMessage, pr *x402.PaymentRequired, settled *x402.SettleResponse) json.RawMessage {
	text, _ := json.Marshal(pr)
	res := toolResult{Content: []textContent{{Type: "text", Text: string(text)}}, StructuredContent: json.RawMessage(text), IsError: true}
	if settled != nil {
		if b, err := json.Marshal(settled); err == nil {
			res.Meta = map[string]json.RawMessage{MetaPaymentResponse: b}
		}
	}
	msg, err := resultMessage(id, res)
	if err != nil {
		return errorMessage(id, codeInternal, "the payment challenge could not be encoded", nil)
	}
	return msg
}

// answer translates the gate's answer to call id: a challenge (no
// payment, or one refused, or a settlement that failed) into the
// payment-required result, with its error replaced by reason when set; a
// 503 into a JSON-RPC error to retry with the same payment.
func (c *recorder) answer(id json.RawMessage, reason string) json.RawMessage {
	if v := c.header.Get(x402.HeaderPaymentRequired); v != "" {
		if pr, err := x402.DecodePaymentRequired(v); err == nil {
			if reason != "" {
				pr.Error = reason
			}
			settled, _ := c.paymentResponse()
			return paymentRequired(id, pr, settled)
		}
	}
	if c.status == http.StatusServiceUnavailable {
		return errorMessage(id, codeRetry, "the payment could not be verified or settled yet; retry the call with the same payment",
			map[string]any{"retryAfter": 1})
	}
	return errorMessage(id, codeInternal, "the call could not be priced or charged", nil)
}

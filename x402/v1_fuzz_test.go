package x402

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func FuzzDecodePaymentPayloadV1(f *testing.F) {
	seedGolden(f, "payment_payload_v1", "payment_payload_exact")
	f.Fuzz(func(t *testing.T, value string) {
		p, err := DecodePaymentPayloadV1(value)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("decoded but invalid: %v", err)
		}
		// A v1 network converts, or is refused, without panicking; a
		// converted payment has v2's version and a CAIP-2 network.
		if v2, err := p.V2(PaymentRequirements{}); err == nil {
			if v2.X402Version != Version {
				t.Fatalf("converted to version %d", v2.X402Version)
			}
			if _, err := ParseNetwork(v2.Accepted.Network); err != nil {
				t.Fatalf("converted to network %q: %v", v2.Accepted.Network, err)
			}
		}
	})
}

func FuzzParseVerifyRequestV1(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "verify_request_v1.input.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"x402Version":1,"paymentPayload":null,"paymentRequirements":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := ParseVerifyRequestV1(body)
		if err != nil {
			return
		}
		// What converts is a valid v2 request, which encodes.
		if err := req.Validate(); err != nil {
			t.Fatalf("converted but invalid: %v", err)
		}
		if _, err := json.Marshal(req); err != nil {
			t.Fatal(err)
		}
	})
}

package x402

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGoldenRoundTrip decodes each input (with unknown fields, null
// extensions and upstream-only names), encodes it again, and compares with
// the golden file; decoding the golden file must reproduce it exactly.
func TestGoldenRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		new  func() any
	}{
		{"payment_required", func() any { return new(PaymentRequired) }},
		{"payment_payload_exact", func() any { return new(PaymentPayload) }},
		{"payment_payload_aanative", func() any { return new(PaymentPayload) }},
		{"verify_request", func() any { return new(VerifyRequest) }},
		{"verify_response_invalid", func() any { return new(VerifyResponse) }},
		{"settle_response_success", func() any { return new(SettleResponse) }},
		{"settle_response_upstream_failure", func() any { return new(SettleResponse) }},
		{"supported", func() any { return new(Supported) }},
		{"health", func() any { return new(Health) }},
		{"payment_required_v1", func() any { return new(PaymentRequiredV1) }},
		{"payment_payload_v1", func() any { return new(PaymentPayloadV1) }},
		{"verify_request_v1", func() any { return new(VerifyRequestV1) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", "golden")
			input, err := os.ReadFile(filepath.Join(dir, tc.name+".input.json"))
			if err != nil {
				t.Fatal(err)
			}
			v := tc.new()
			if err := json.Unmarshal(input, v); err != nil {
				t.Fatalf("decoding input: %v", err)
			}
			got, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			goldenPath := filepath.Join(dir, tc.name+".golden.json")
			if *update {
				if err := os.WriteFile(goldenPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("encoded:\n%s\nwant (golden):\n%s", got, want)
			}
			again := tc.new()
			if err := json.Unmarshal(want, again); err != nil {
				t.Fatal(err)
			}
			regot, _ := json.MarshalIndent(again, "", "  ")
			if !bytes.Equal(append(regot, '\n'), want) {
				t.Fatalf("golden does not round-trip:\n%s", regot)
			}
		})
	}
}

func TestSettleResponseAliases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   SettleResponse
		want map[string]any
	}{
		{
			name: "success writes transaction",
			in:   SettleResponse{Success: true, X402Version: 2, Network: "eip155:1", TransactionHash: "0xab"},
			want: map[string]any{"transaction": "0xab", "transactionHash": "0xab"},
		},
		{
			name: "failure writes empty transaction and both error names",
			in:   SettleResponse{X402Version: 2, Network: "eip155:1", ErrorCode: ErrorVerifyFailed, Message: "verify_failed"},
			want: map[string]any{"transaction": "", "errorCode": "verify_failed", "errorReason": "verify_failed", "message": "verify_failed", "errorMessage": "verify_failed", "success": false},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw, err := json.Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if m[k] != v {
					t.Errorf("%s = %#v, want %#v (in %s)", k, m[k], v, raw)
				}
			}
			var back SettleResponse
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if back != tc.in {
				t.Errorf("round trip = %+v, want %+v", back, tc.in)
			}
		})
	}
}

func TestNullExtensionsAccepted(t *testing.T) {
	t.Parallel()
	var p PaymentPayload
	raw := `{"x402Version":2,"accepted":{"scheme":"exact","network":"eip155:1","amount":"1","asset":"0x0000000000000000000000000000000000000001","payTo":"0x0000000000000000000000000000000000000002"},"payload":{},"extensions":null}`
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
}

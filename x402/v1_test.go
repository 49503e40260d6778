package x402

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestV1Networks: every chain x402 1.2.0 names maps to its CAIP-2 id and
// back; chains it does not name (the devnet's 31337, Ethereum mainnet,
// Optimism), malformed ids and non-EVM names have no mapping.
func TestV1Networks(t *testing.T) {
	t.Parallel()
	named := map[string]string{
		"base": "eip155:8453", "base-sepolia": "eip155:84532", "avalanche": "eip155:43114", "avalanche-fuji": "eip155:43113",
		"polygon": "eip155:137", "polygon-amoy": "eip155:80002", "sei": "eip155:1329", "sei-testnet": "eip155:1328",
		"iotex": "eip155:4689", "abstract": "eip155:2741", "abstract-testnet": "eip155:11124", "peaq": "eip155:3338",
		"story": "eip155:1514", "educhain": "eip155:41923", "skale-base-sepolia": "eip155:324705682",
	}
	if got := NetworksV1(); len(got) != len(named) {
		t.Fatalf("NetworksV1 = %v, want the %d of x402 1.2.0", got, len(named))
	}
	for name, caip := range named {
		if got, ok := NetworkFromV1(name); !ok || got != caip {
			t.Errorf("NetworkFromV1(%q) = %q %v, want %q", name, got, ok, caip)
		}
		if got, ok := NetworkV1Name(caip); !ok || got != name {
			t.Errorf("NetworkV1Name(%q) = %q %v, want %q", caip, got, ok, name)
		}
	}
	for _, caip := range []string{"eip155:31337", "eip155:1", "eip155:10", "eip155:084532", "base-sepolia", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", ""} {
		if got, ok := NetworkV1Name(caip); ok {
			t.Errorf("NetworkV1Name(%q) = %q, want none", caip, got)
		}
	}
	for _, name := range []string{"solana", "solana-devnet", "ethereum", "eip155:84532", "Base", ""} {
		if got, ok := NetworkFromV1(name); ok {
			t.Errorf("NetworkFromV1(%q) = %q, want none", name, got)
		}
	}
}

// TestV1Offer: only exact offers on a network v1 names have a v1 form,
// which carries the price as maxAmountRequired and the resource's URL,
// description and media type.
func TestV1Offer(t *testing.T) {
	t.Parallel()
	base := PaymentRequirements{Scheme: SchemeExact, Network: "eip155:84532", Amount: "10000", Asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
		PayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", MaxTimeoutSeconds: 60, Extra: &Extra{Name: "USDC", Version: "2"}}
	res := &Resource{URL: "https://api.example.com/paid", Description: "d", MimeType: "text/plain"}
	v1, ok := base.V1(res)
	if !ok || !reflect.DeepEqual(v1, PaymentRequirementsV1{Scheme: "exact", Network: "base-sepolia", MaxAmountRequired: "10000", Resource: res.URL, Description: "d", MimeType: "text/plain",
		PayTo: base.PayTo, MaxTimeoutSeconds: 60, Asset: base.Asset, Extra: base.Extra}) {
		t.Fatalf("%+v %v", v1, ok)
	}
	if back, err := v1.V2(); err != nil || !reflect.DeepEqual(back, base) {
		t.Fatalf("back to v2: %+v %v", back, err)
	}
	for name, mutate := range map[string]func(*PaymentRequirements){
		"aa-native":    func(o *PaymentRequirements) { o.Scheme = SchemeAANative },
		"devnet":       func(o *PaymentRequirements) { o.Network = "eip155:31337" },
		"mainnet":      func(o *PaymentRequirements) { o.Network = "eip155:1" },
		"not a CAIP-2": func(o *PaymentRequirements) { o.Network = "base-sepolia" },
	} {
		o := base
		mutate(&o)
		if v, ok := o.V1(res); ok {
			t.Errorf("%s: has a v1 form %+v", name, v)
		}
	}
}

// TestV1VerifyRequest: a v1 verify body converts to the v2 request the
// facilitator verifies: the requirements mapped (maxAmountRequired is the
// amount, the network its CAIP-2 id), the payment as having accepted them
// under its own scheme and network, the merchant's resource kept. Bodies
// that are not v1, name unknown networks or lack a payload are refused.
func TestV1VerifyRequest(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "verify_request_v1.input.json"))
	if err != nil {
		t.Fatal(err)
	}
	req, err := ParseVerifyRequestV1(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := PaymentRequirements{Scheme: "exact", Network: "eip155:84532", Amount: "10000", Asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
		PayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", MaxTimeoutSeconds: 60, Extra: &Extra{Name: "USDC", Version: "2"}}
	if req.X402Version != Version || !reflect.DeepEqual(req.PaymentRequirements, want) || !reflect.DeepEqual(req.PaymentPayload.Accepted, want) || req.PaymentPayload.X402Version != Version ||
		req.Resource == nil || req.Resource.URL != "https://api.example.com/paid/report" || req.Resource.MimeType != "application/json" {
		t.Fatalf("%+v", req)
	}
	var ex ExactPayload
	if err := json.Unmarshal(req.PaymentPayload.Payload, &ex); err != nil || ex.Authorization.Value != "10000" {
		t.Fatalf("payload %s: %v", req.PaymentPayload.Payload, err)
	}

	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		json.Unmarshal(raw, &m)
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	payload := func(m map[string]any) map[string]any { return m["paymentPayload"].(map[string]any) }
	reqs := func(m map[string]any) map[string]any { return m["paymentRequirements"].(map[string]any) }

	// Paid on another network than required: converted, and left for the
	// facilitator to refuse as a network mismatch.
	other, err := ParseVerifyRequestV1(edit(func(m map[string]any) { payload(m)["network"] = "base" }))
	if err != nil || other.PaymentPayload.Accepted.Network != "eip155:8453" || other.PaymentRequirements.Network != "eip155:84532" {
		t.Fatalf("other network: %+v %v", other, err)
	}

	refused := []struct {
		name string
		body []byte
		want string
	}{
		{"not JSON", []byte(`{"x402Version":1,`), "unexpected end"},
		{"version 2", edit(func(m map[string]any) { m["x402Version"] = 2 }), "x402Version is 2"},
		{"payment version 2", edit(func(m map[string]any) { payload(m)["x402Version"] = 2 }), "x402Version is 2"},
		{"unknown payment network", edit(func(m map[string]any) { payload(m)["network"] = "solana" }), `"solana"`},
		{"unknown required network", edit(func(m map[string]any) { reqs(m)["network"] = "eip155:84532" }), "not an x402 v1 EVM network"},
		{"no payload", edit(func(m map[string]any) { delete(payload(m), "payload") }), "payload must be a JSON object"},
		{"no scheme", edit(func(m map[string]any) { delete(payload(m), "scheme") }), "scheme is missing"},
		{"amount not a number", edit(func(m map[string]any) { reqs(m)["maxAmountRequired"] = "0x10" }), "amount"},
		{"zero amount", edit(func(m map[string]any) { reqs(m)["maxAmountRequired"] = "0" }), "greater than zero"},
		{"bad payTo", edit(func(m map[string]any) { reqs(m)["payTo"] = "0x1234" }), "payTo"},
	}
	for _, tc := range refused {
		if _, err := ParseVerifyRequestV1(tc.body); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to say %q", tc.name, err, tc.want)
		}
	}
}

// TestDecodePaymentPayloadV1: an X-PAYMENT value decodes in either base64
// alphabet; what does not is a typed error: too large, or malformed (not
// base64, not JSON, another version, no scheme, network or payload).
func TestDecodePaymentPayloadV1(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "payment_payload_v1.input.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawURLEncoding} {
		p, err := DecodePaymentPayloadV1(enc.EncodeToString(raw))
		if err != nil || p.X402Version != 1 || p.Scheme != "exact" || p.Network != "base-sepolia" {
			t.Fatalf("%+v %v", p, err)
		}
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	tests := []struct {
		name, value string
		tooLarge    bool
	}{
		{"empty", "", false},
		{"not base64", "%%%", false},
		{"not JSON", b64("{"), false},
		{"an array", b64("[]"), false},
		{"version 2", b64(`{"x402Version":2,"scheme":"exact","network":"base","payload":{}}`), false},
		{"no version", b64(`{"scheme":"exact","network":"base","payload":{}}`), false},
		{"no network", b64(`{"x402Version":1,"scheme":"exact","payload":{}}`), false},
		{"payload a string", b64(`{"x402Version":1,"scheme":"exact","network":"base","payload":"x"}`), false},
		{"too large", strings.Repeat("A", MaxHeaderSize+1), true},
	}
	for _, tc := range tests {
		_, err := DecodePaymentPayloadV1(tc.value)
		var tl *HeaderTooLargeError
		if tc.tooLarge && !errors.As(err, &tl) || !tc.tooLarge && !errors.Is(err, ErrMalformedHeader) {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
}

// TestSettleResponseV1: the v1 receipt names the network as v1 does and
// carries the fields v1 clients read.
func TestSettleResponseV1(t *testing.T) {
	t.Parallel()
	res := SettleResponse{Success: true, X402Version: Version, Network: "eip155:84532", TransactionHash: "0xab", Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}
	raw, _ := json.Marshal(res.V1())
	var got map[string]any
	json.Unmarshal(raw, &got)
	if got["x402Version"] != 1.0 || got["network"] != "base-sepolia" || got["transaction"] != "0xab" || got["success"] != true || got["payer"] != res.Payer {
		t.Fatalf("%s", raw)
	}
	if res.Network != "eip155:84532" {
		t.Fatal("V1 changed its receiver")
	}
	unnamed := SettleResponse{Network: "eip155:31337", ErrorCode: ErrorVerifyFailed}
	if v := unnamed.V1(); v.Network != "eip155:31337" || v.X402Version != 1 {
		t.Fatalf("%+v", v)
	}
}

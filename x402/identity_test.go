package x402

import (
	"context"
	"encoding/json"
	"testing"
)

func TestPaymentID(t *testing.T) {
	t.Parallel()
	const (
		asset = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"
		from  = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
		nonce = "0x0badf00d0000000000000000000000000000000000000000000000000000beef"
	)
	exact := func(assetV, fromV, nonceV, sig, indent string) *PaymentPayload {
		inner := map[string]any{"signature": sig, "authorization": map[string]string{
			"from": fromV, "to": "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "value": "10000",
			"validAfter": "0", "validBefore": "99999999999", "nonce": nonceV}}
		raw, _ := json.MarshalIndent(inner, "", indent)
		return &PaymentPayload{X402Version: Version, Payload: raw, Accepted: PaymentRequirements{
			Scheme: SchemeExact, Network: "eip155:31337", Asset: assetV, PayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Amount: "10000"}}
	}
	aa := func(rh string) *PaymentPayload {
		raw, _ := json.Marshal(map[string]any{"userOp": map[string]string{"sender": from}, "settlementCallSpec": map[string]string{"requestHash": rh}})
		return &PaymentPayload{X402Version: Version, Payload: raw, Accepted: PaymentRequirements{Scheme: SchemeAANative, Network: "eip155:31337"}}
	}
	base, err := PaymentID(exact(asset, from, nonce, "0x1b", ""))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    *PaymentPayload
		same bool
	}{
		{"re-indented JSON", exact(asset, from, nonce, "0x1b", "    "), true},
		{"v rewritten (27 to 0)", exact(asset, from, nonce, "0x00", "\t"), true},
		{"addresses and nonce in other letter case", exact("0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9", "0x70997970C51812DC3A010C7D01B50E0D17DC79C8", "0x0BADF00D0000000000000000000000000000000000000000000000000000BEEF", "0x1b", ""), true},
		{"another nonce", exact(asset, from, "0x0badf00d0000000000000000000000000000000000000000000000000000beee", "0x1b", ""), false},
		{"another payer", exact(asset, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", nonce, "0x1b", ""), false},
		{"another token", exact("0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9", from, nonce, "0x1b", ""), false},
		{"aa-native with the nonce as request hash", aa(nonce), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			id, err := PaymentID(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if (id == base) != tt.same {
				t.Fatalf("same identity = %v, want %v", id == base, tt.same)
			}
		})
	}

	t.Run("aa-native request hash in any case and padding", func(t *testing.T) {
		t.Parallel()
		a, err1 := PaymentID(aa("0x00000000000000000000000000000000000000000000000000000000000000ab"))
		b, err2 := PaymentID(aa("0xAB"))
		if err1 != nil || err2 != nil || a != b {
			t.Fatalf("ids differ or fail: %v %v", err1, err2)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		t.Parallel()
		for _, p := range []*PaymentPayload{
			exact(asset, from, "nonce", "0x1b", ""),
			exact(asset, "0x12", nonce, "0x1b", ""),
			aa(""),
			{Accepted: PaymentRequirements{Scheme: "upto"}, Payload: json.RawMessage(`{}`)},
			{Accepted: PaymentRequirements{Scheme: SchemeExact}, Payload: json.RawMessage(`[1]`)},
		} {
			if _, err := PaymentID(p); err == nil {
				t.Errorf("PaymentID(%s) = nil error", p.Payload)
			}
		}
	})
}

// A payment through Permit2, exact's or upto's, is Permit2's nonce of its
// payer: the same however it is re-encoded (letter case, v, a witness
// field rewritten), and the same for exact and upto, since Permit2 uses
// the nonce once for both.
func TestPaymentIDPermit2(t *testing.T) {
	t.Parallel()
	permit := func(scheme, fromV, nonceV, sig string, extra map[string]any) *PaymentPayload {
		auth := map[string]any{"from": fromV, "nonce": nonceV, "spender": "0x4020615294c913F045dc10f0a5cdEbd86c280001",
			"deadline": "99999999999", "permitted": map[string]string{"token": "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9", "amount": "50000"},
			"witness": map[string]any{"to": "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "validAfter": "0"}}
		for k, v := range extra {
			auth[k] = v
		}
		raw, _ := json.Marshal(map[string]any{"signature": sig, "permit2Authorization": auth})
		return &PaymentPayload{X402Version: Version, Payload: raw, Accepted: PaymentRequirements{Scheme: scheme, Network: "eip155:31337"}}
	}
	const from = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	base, err := PaymentID(permit(SchemeUpto, from, "12345", "0x1b", nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		p    *PaymentPayload
		same bool
	}{
		{"payer in lower case, v 0", permit(SchemeUpto, "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", "12345", "0x00", nil), true},
		{"another deadline", permit(SchemeUpto, from, "12345", "0x1b", map[string]any{"deadline": "5"}), true},
		{"exact through Permit2, same nonce", permit(SchemeExact, from, "12345", "0x1b", nil), true},
		{"another nonce", permit(SchemeUpto, from, "12346", "0x1b", nil), false},
		{"another payer", permit(SchemeUpto, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "12345", "0x1b", nil), false},
	} {
		id, err := PaymentID(tt.p)
		if err != nil || (id == base) != tt.same {
			t.Errorf("%s: same identity %v (%v), want %v", tt.name, id == base, err, tt.same)
		}
	}
	for _, p := range []*PaymentPayload{
		permit(SchemeUpto, "0x12", "12345", "0x1b", nil),
		permit(SchemeUpto, from, "0x", "0x1b", nil),
		permit(SchemeExact, from, "-1", "0x1b", nil),
	} {
		if _, err := PaymentID(p); err == nil {
			t.Errorf("PaymentID(%s) = nil error", p.Payload)
		}
	}
}

func TestIdempotencyKeyContext(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if IdempotencyKey(ctx) != "" {
		t.Fatal("empty context has a key")
	}
	if got := IdempotencyKey(WithIdempotencyKey(ctx, "k1")); got != "k1" {
		t.Fatalf("key = %q", got)
	}
}

func FuzzPaymentID(f *testing.F) {
	f.Add("exact", `{"authorization":{"from":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","nonce":"0x01"}}`)
	f.Add("aa-native", `{"settlementCallSpec":{"requestHash":"0xab"}}`)
	f.Add("upto", `{"permit2Authorization":{"from":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","nonce":"7"}}`)
	f.Fuzz(func(t *testing.T, scheme, payload string) {
		p := &PaymentPayload{Accepted: PaymentRequirements{Scheme: scheme, Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"}, Payload: json.RawMessage(payload)}
		PaymentID(p) // must not panic
	})
}

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
	f.Fuzz(func(t *testing.T, scheme, payload string) {
		p := &PaymentPayload{Accepted: PaymentRequirements{Scheme: scheme, Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"}, Payload: json.RawMessage(payload)}
		PaymentID(p) // must not panic
	})
}

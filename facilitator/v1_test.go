package facilitator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/x402"
)

// v1Request is req as an x402 v1 merchant (x402-express 0.x) sends it:
// the payment {x402Version:1, scheme, network, payload} and v1
// requirements, networks by their v1 names.
func v1Request(t *testing.T, req *x402.VerifyRequest) map[string]any {
	t.Helper()
	reqs, ok := req.PaymentRequirements.V1(&x402.Resource{URL: "https://merchant.example/paid", Description: "report", MimeType: "application/json"})
	if !ok {
		t.Fatalf("requirements %+v have no v1 form", req.PaymentRequirements)
	}
	name, _ := x402.NetworkV1Name(req.PaymentPayload.Accepted.Network)
	var body map[string]any
	raw, _ := json.Marshal(x402.VerifyRequestV1{
		X402Version:         1,
		PaymentPayload:      x402.PaymentPayloadV1{X402Version: 1, Scheme: req.PaymentPayload.Accepted.Scheme, Network: name, Payload: req.PaymentPayload.Payload},
		PaymentRequirements: reqs,
	})
	json.Unmarshal(raw, &body)
	return body
}

// TestV1Facilitator: /verify and /settle take x402 v1 bodies and hold them
// to the requirements as v2 ones are: a valid one verifies and settles
// (the answer naming the network base-sepolia, as v1 does); a payment on
// another network than required, requirements for less than signed,
// another payee or token, and bodies that are not v1 are refused; and the
// authorization settled as v1 is a replay as v1 or v2 afterwards.
func TestV1Facilitator(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{chainID: 84532})
	merchant := e.chain.Accounts[3].Address
	payer := e.chain.Accounts[1]
	req := e.pay(payer, merchant, 10_000)
	body := v1Request(t, req)

	var vres x402.VerifyResponse
	if resp := e.post("verify", body, &vres); resp.StatusCode != http.StatusOK || !vres.IsValid || !strings.EqualFold(vres.Payer, payer.Address.Hex()) {
		t.Fatalf("verify: %d %+v", resp.StatusCode, vres)
	}

	edit := func(f func(payment, reqs map[string]any)) map[string]any {
		var m map[string]any
		raw, _ := json.Marshal(body)
		json.Unmarshal(raw, &m)
		f(m["paymentPayload"].(map[string]any), m["paymentRequirements"].(map[string]any))
		return m
	}
	refused := []struct {
		name   string
		body   map[string]any
		status int
		reason x402.InvalidReason
	}{
		{"paid on another network", edit(func(p, _ map[string]any) { p["network"] = "base" }), 200, x402.ReasonNetworkMismatch},
		{"required on another network", edit(func(p, r map[string]any) { p["network"], r["network"] = "base", "base" }), 200, x402.ReasonNetworkMismatch},
		{"asks less than signed", edit(func(_, r map[string]any) { r["maxAmountRequired"] = "9999" }), 200, x402.ReasonAmountMismatch},
		{"asks more than signed", edit(func(_, r map[string]any) { r["maxAmountRequired"] = "10001" }), 200, x402.ReasonAmountMismatch},
		{"another payee", edit(func(_, r map[string]any) { r["payTo"] = e.chain.Accounts[4].Address.Hex() }), 200, x402.ReasonInvalidInnerPayload},
		{"another token", edit(func(_, r map[string]any) { r["asset"] = "0x1111111111111111111111111111111111111111" }), 200, x402.ReasonAssetNotAllowed},
		{"another scheme", edit(func(p, r map[string]any) { p["scheme"], r["scheme"] = "upto", "upto" }), 200, x402.ReasonSchemeMismatch},
		{"not a v1 network", edit(func(p, _ map[string]any) { p["network"] = "eip155:84532" }), 400, x402.ReasonMalformedRequest},
		{"payment of version 2", edit(func(p, _ map[string]any) { p["x402Version"] = 2 }), 400, x402.ReasonMalformedRequest},
		{"no payload", edit(func(p, _ map[string]any) { delete(p, "payload") }), 400, x402.ReasonMalformedRequest},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			var res x402.VerifyResponse
			if resp := e.post("verify", tc.body, &res); resp.StatusCode != tc.status || res.IsValid || res.InvalidReason != tc.reason {
				t.Fatalf("verify: %d %+v, want %d %s", resp.StatusCode, res, tc.status, tc.reason)
			}
			var sres x402.SettleResponse
			if resp := e.post("settle", tc.body, &sres); resp.StatusCode != tc.status || sres.Success || !strings.HasPrefix(sres.Message, string(tc.reason)) {
				t.Fatalf("settle: %d %+v, want %d %s", resp.StatusCode, sres, tc.status, tc.reason)
			}
		})
	}

	var settled map[string]any
	if resp := e.postAs(testSettleKey, "v1-settle", "settle", body, &settled); resp.StatusCode != http.StatusOK || settled["success"] != true ||
		settled["network"] != "base-sepolia" || settled["x402Version"] != 1.0 || len(settled["transaction"].(string)) != 66 {
		t.Fatalf("settle: %d %v", resp.StatusCode, settled)
	}
	if got := e.balance(merchant); got.Int64() == 0 {
		t.Fatal("the merchant was not paid")
	}
	// The same authorization again, as v1 or as v2, under another
	// idempotency key: a replay, never a second receipt.
	for name, again := range map[string]any{"v1": body, "v2": req} {
		var res x402.SettleResponse
		if resp := e.postAs(testSettleKey, "another-"+name, "settle", again, &res); res.Success || !strings.Contains(res.Message, string(x402.ReasonReplay)) {
			t.Fatalf("%s again: %d %+v", name, resp.StatusCode, res)
		}
	}
}

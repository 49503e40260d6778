package facilitator

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/caddy-x402/caddy-x402/x402"
)

func TestHandlerBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	valid, _ := json.Marshal(e.pay(e.chain.Accounts[1], e.chain.Accounts[2].Address, 1))
	tests := []struct {
		name, method, path, contentType, body string
		status                                int
		want                                  string // a substring of the JSON body
	}{
		{"verify empty body", "POST", "/verify", "application/json", "", 400, `"invalidReason":"malformed_request"`},
		{"verify not json", "POST", "/verify", "application/json", "<html>hi</html>", 400, `"invalidReason":"malformed_request"`},
		{"verify truncated", "POST", "/verify", "application/json", string(valid[:len(valid)/2]), 400, `"invalidReason":"malformed_request"`},
		{"verify wrong types", "POST", "/verify", "application/json", `{"paymentPayload":[],"paymentRequirements":1}`, 400, `"isValid":false`},
		{"verify missing requirements", "POST", "/verify", "application/json", `{"paymentPayload":{"x402Version":2}}`, 400, `paymentPayload`},
		{"verify x402Version 1", "POST", "/verify", "application/json", strings.Replace(string(valid), `"x402Version":2`, `"x402Version":1`, 1), 400, `x402Version is 1`},
		{"verify wrong content type", "POST", "/verify", "text/plain", string(valid), 415, `"invalidReason":"malformed_request"`},
		{"verify oversized", "POST", "/verify", "application/json", `{"pad":"` + strings.Repeat("x", MaxBodySize) + `"}`, 413, `body over 65536 bytes`},
		{"verify GET", "GET", "/verify", "", "", 405, `"error":"method_not_allowed"`},
		{"settle empty", "POST", "/settle", "application/json", "", 400, `"errorCode":"verify_failed"`},
		{"settle garbage", "POST", "/settle", "application/json", "\x00\xff\xfe", 400, `"transaction":""`},
		{"settle oversized", "POST", "/settle", "application/json", strings.Repeat("[", MaxBodySize+1), 413, `"success":false`},
		{"settle GET", "GET", "/settle", "", "", 405, `method_not_allowed`},
		{"health POST", "POST", "/health", "application/json", "{}", 405, `method_not_allowed`},
		{"unknown route", "GET", "/nope", "", "", 404, `"error":"not_found"`},
		{"health", "GET", "/health", "", "", 200, `"status":"ok","network":"eip155:31337","service":"caddy-x402-facilitator"`},
		{"health under a prefix", "GET", "/x402/health", "", "", 200, `"status":"ok"`},
		{"supported", "GET", "/supported", "", "", 200, `"schemes":[{"scheme":"exact","networks":["eip155:31337"],"assets":["` + e.chain.Token.Address.Hex() + `"]},{"scheme":"upto","networks":["eip155:31337"],"assets":["` + e.chain.Token.Address.Hex() + `"]}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, e.srv.URL+tc.path, strings.NewReader(tc.body))
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Errorf("status = %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("content type %q", ct)
			}
			if !json.Valid(body) {
				t.Fatalf("body is not JSON: %s", body)
			}
			if !strings.Contains(string(body), tc.want) {
				t.Errorf("body lacks %s:\n%s", tc.want, body)
			}
		})
	}
}

func TestSupportedShapes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	got, err := e.client.Supported(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := e.svc.Supported(context.Background())
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		t.Fatalf("client %s != service %s", gj, wj)
	}
	if len(got.Schemes) != 2 || len(got.Schemes[0].Networks) < 1 || len(got.Schemes[0].Assets) < 1 {
		t.Fatalf("schemes = %+v", got.Schemes)
	}
	if len(got.Kinds) != 2 || got.Kinds[0].X402Version != 2 || got.Kinds[0].Scheme != "exact" || got.Kinds[0].Network != e.network {
		t.Fatalf("kinds = %+v", got.Kinds)
	}
	if got.Signers["eip155:*"][0] != e.chain.Accounts[0].Address.Hex() {
		t.Fatalf("signers = %v", got.Signers)
	}
	h, err := e.client.Health(context.Background())
	if err != nil || h.Status != "ok" || h.Network != e.network || h.Version == "" {
		t.Fatalf("health = %+v, %v", h, err)
	}
}

func TestClientAgainstDeadServer(t *testing.T) {
	t.Parallel()
	c := &Client{BaseURL: "http://127.0.0.1:1"}
	req := &x402.VerifyRequest{PaymentRequirements: x402.PaymentRequirements{Network: "eip155:1"}}
	if _, err := c.Verify(context.Background(), req); err == nil {
		t.Error("verify against a dead server succeeded")
	}
	res, err := c.Settle(context.Background(), req)
	if err == nil || res.ErrorCode != x402.ErrorBundlerUnreachable || SettleStatus(res) != http.StatusServiceUnavailable {
		t.Errorf("settle against a dead server = %+v, %v", res, err)
	}
	if _, err := c.Health(context.Background()); err == nil {
		t.Error("health against a dead server succeeded")
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	if err := (Config{}).Validate(); err == nil {
		t.Fatal("empty config accepted")
	} else {
		for _, want := range []string{"not a CAIP-2 id", "chain connection", "settler key", "no assets", "settlement records"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
	}
}

func TestNewRefusesWrongChain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	cfg := e.cfg
	cfg.Network = "eip155:8453"
	cfg.Chain, cfg.Records = e.rpc, e.st
	if _, err := New(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "serves chain 31337") {
		t.Fatalf("New on the wrong chain: %v", err)
	}
}

// TestReadBody reads bodies whatever size they announce.
func TestReadBody(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("0123456789", 100)
	for _, size := range []int64{-1, 0, 1, 999, 1000, 1001, MaxBodySize + 1} {
		got, err := readBody(iotest.OneByteReader(strings.NewReader(body)), size)
		if err != nil || string(got) != body {
			t.Errorf("announced %d: %d bytes, %v", size, len(got), err)
		}
	}
	if _, err := readBody(iotest.ErrReader(io.ErrUnexpectedEOF), 10); err != io.ErrUnexpectedEOF {
		t.Errorf("a failing body: %v", err)
	}
}

// TestValidAnswer: the /verify answer joined from bytes is what
// encoding/json writes of it, and every other answer is left to
// encoding/json.
func TestValidAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		res    x402.VerifyResponse
		joined bool
	}{
		{"valid", x402.VerifyResponse{IsValid: true, Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}, true},
		{"valid lowercase", x402.VerifyResponse{IsValid: true, Payer: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"}, true},
		{"no payer", x402.VerifyResponse{IsValid: true}, false},
		{"payer not an address", x402.VerifyResponse{IsValid: true, Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79<8"}, false},
		{"payer with a control byte", x402.VerifyResponse{IsValid: true, Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79\x108"}, false},
		{"payer too short", x402.VerifyResponse{IsValid: true, Payer: "0x7099"}, false},
		{"invalid", x402.VerifyResponse{InvalidReason: x402.ReasonReplay, InvalidMessage: "used <twice>", Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}, false},
		{"with a message", x402.VerifyResponse{IsValid: true, InvalidMessage: "x", Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}, false},
		{"with extra", x402.VerifyResponse{IsValid: true, Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", Extra: &x402.ChannelState{}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body, ok := validAnswer(&tt.res)
			if ok != tt.joined {
				t.Fatalf("joined %v, want %v", ok, tt.joined)
			}
			if !ok {
				return
			}
			want, err := json.Marshal(&tt.res)
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != string(want)+"\n" {
				t.Fatalf("joined %q, encoding/json %q", body, want)
			}
		})
	}
}

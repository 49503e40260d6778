package caddymodule

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestBundlerRefusedAtStart: a bundler_url whose eth_supportedEntryPoints
// lists none of the network's EntryPoints (here v0.8's alone) stops Caddy
// at start, naming the bundler by its host (its path holds the provider's
// key) and what it serves. caddy validate, which asks no bundler, accepts
// the config.
func TestBundlerRefusedAtStart(t *testing.T) {
	const v08 = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108"
	var asked atomic.Int64
	bundler := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.Method != "eth_supportedEntryPoints" {
			http.Error(w, "unexpected", http.StatusBadRequest)
			return
		}
		asked.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":["%s"]}`, req.ID, v08)
	}))
	defer bundler.Close()
	cf := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:%d
		bundler_url %s/v2/31337/rpc?apikey=SECRET-KEY
	}
}

http://127.0.0.1:%d {
	x402_facilitator
}
`, freePort(t), bundler.URL, freePort(t))
	if err := validateCaddyfile(t, cf); err != nil || asked.Load() != 0 {
		t.Fatalf("caddy validate: %v, with %d questions to the bundler", err, asked.Load())
	}
	_, err := runCaddyfile(t, cf)
	host := strings.TrimPrefix(bundler.URL, "http://")
	want := "the bundler at " + host + " (bundler_url) serves EntryPoint " + v08 + " only, not this network's EntryPoint"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("caddy run: %v; want a refusal saying %q", err, want)
	}
	if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "/v2/") {
		t.Fatalf("the refusal shows the bundler's URL: %v", err)
	}
	t.Log(err)
}

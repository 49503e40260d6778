package caddymodule

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

const limitsCaddyfile = `{
	servers {
		trusted_proxies static 127.0.0.1/8
		client_ip_headers X-Forwarded-For
	}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		store_path {{store}}
	}
}

http://127.0.0.1:{{paymaster}} {
	x402_paymaster {
		max_batch 2
		project demo {
			balance 10
			calls_per_minute 3
		}
	}
}

http://127.0.0.1:{{txapi}} {
	x402_txapi {
		faucet_per_client 2
	}
}
`

// The limits of issue 23 through Caddy, on its devnet. The paymaster's
// max_batch refuses a longer batch whole (-32602), and calls_per_minute
// holds the public demo key to its rate (-32504, 429). The faucet counts
// an IPv6 client by its /64 as Caddy determines the client (behind a
// trusted proxy, from X-Forwarded-For): two draws of a /64, then the
// /64's other addresses are refused and another /64 still draws.
func TestLimitsThroughCaddy(t *testing.T) {
	ports := map[string]int{"chain": freePort(t), "paymaster": freePort(t), "txapi": freePort(t)}
	cf := limitsCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.ReplaceAll(cf, "{{store}}", filepath.Join(t.TempDir(), "x402.db"))
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	pm := fmt.Sprintf("http://127.0.0.1:%d/", ports["paymaster"])
	post := func(url string, body any, header map[string]string) (int, http.Header, []byte) {
		t.Helper()
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", url, bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, out
	}
	call := func(id int, method string) map[string]any {
		return map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": []any{}}
	}
	key := map[string]string{"X-API-Key": DevPaymasterKey}
	type rpcAnswer struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}

	// A batch of three is over max_batch 2: one error, nothing counted.
	status, _, body := post(pm, []any{call(1, "pm_entrypoints"), call(2, "pm_entrypoints"), call(3, "pm_entrypoints")}, key)
	var one rpcAnswer
	if err := json.Unmarshal(body, &one); err != nil || status != 200 || one.Error == nil || one.Error.Code != -32602 {
		t.Fatalf("batch of 3: %d %s, want one -32602 error", status, body)
	}
	// Two in a batch and one alone are the key's three calls a minute.
	status, _, body = post(pm, []any{call(1, "pm_entrypoints"), call(2, "pm_entrypoints")}, key)
	var two []rpcAnswer
	if err := json.Unmarshal(body, &two); err != nil || status != 200 || len(two) != 2 || two[0].Error != nil || two[1].Error != nil {
		t.Fatalf("batch of 2: %d %s", status, body)
	}
	if status, _, body = post(pm, call(3, "pm_entrypoints"), key); status != 200 || strings.Contains(string(body), "error") {
		t.Fatalf("third call: %d %s", status, body)
	}
	status, header, body := post(pm, call(4, "pm_entrypoints"), key)
	var fourth rpcAnswer
	if err := json.Unmarshal(body, &fourth); err != nil || status != http.StatusTooManyRequests || fourth.Error == nil || fourth.Error.Code != -32504 || header.Get("Retry-After") == "" {
		t.Fatalf("fourth call: %d %s, want 429 with -32504 and Retry-After", status, body)
	}

	faucet := fmt.Sprintf("http://127.0.0.1:%d/api/v1/userFaucet", ports["txapi"])
	for i, tc := range []struct {
		forwarded string
		status    int
	}{
		{"2001:db8:aa:1::1", 201},
		{"2001:db8:aa:1::2", 201},
		{"2001:db8:aa:1::3", 429},
		{"2001:db8:aa:1:ffff:ffff:ffff:ffff", 429},
		{"2001:db8:aa:2::1", 201},
	} {
		k, _ := crypto.GenerateKey()
		to := crypto.PubkeyToAddress(k.PublicKey).Hex()
		status, _, body := post(faucet, map[string]string{"name": "dev", "address": to, "amount": "1", "gasPrice": "1.5"}, map[string]string{"X-Forwarded-For": tc.forwarded})
		if status != tc.status || (status == 429 && !strings.Contains(string(body), "faucet_client_limit")) {
			t.Fatalf("draw %d from %s: %d %s, want %d", i, tc.forwarded, status, body, tc.status)
		}
	}
}

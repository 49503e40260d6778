package caddymodule

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// refusalsCaddyfile has two paid routes, one of a path prefix and one of
// an exact path, and the dashboard that shows their refusals.
const refusalsCaddyfile = `{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
		}
		respond "paid content"
	}
	handle /api/v1/report {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
		}
		respond "paid report"
	}
	handle /dashboard/* {
		x402_dashboard {
			path_prefix /dashboard/
			allow_anonymous
		}
	}
}
`

// TestRefusalsByConfiguredRoute: refused payments are counted by the route
// the merchant configured, never by the request's path. 250 forged
// payments to made-up paths under /paid/ are one counter, "/paid/*" of the
// site; a forged payment to the other route is still counted under its own
// route, not pushed into "(other routes)" (issue 40, item 6: 200 made-up
// paths took every counter for good).
func TestRefusalsByConfiguredRoute(t *testing.T) {
	old := refusalFlush
	t.Cleanup(func() { refusalFlush = old }) // after Caddy stopped
	refusalFlush = 100 * time.Millisecond
	api := fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	cf := strings.NewReplacer("{{chain}}", fmt.Sprint(freePort(t)), "{{api}}", strings.TrimPrefix(api, "http://127.0.0.1:")).Replace(refusalsCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 2)
	// forged is a payment for path whose signature is not its payer's.
	forged := func(path string) string {
		t.Helper()
		resp, _ := httpGet(t, api+path, nil)
		challenge, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
		}
		p, err := (&client.Transport{Key: payer}).Pay(challenge, &challenge.Accepts[0])
		if err != nil {
			t.Fatal(err)
		}
		var ex x402.ExactPayload
		json.Unmarshal(p.Payload, &ex)
		sig := hexutil.MustDecode(ex.Signature)
		sig[10] ^= 0xff
		ex.Signature = hexutil.Encode(sig)
		p.Payload, _ = json.Marshal(ex)
		h, _ := x402.EncodeHeader(p)
		return h
	}
	junk := forged("/paid/junk")
	const made = store.MaxRefusalCounters + 50
	for i := range made {
		resp, body := httpGet(t, fmt.Sprintf("%s/paid/junk-%d", api, i), map[string]string{x402.HeaderPaymentSignature: junk})
		if resp.StatusCode != http.StatusPaymentRequired {
			t.Fatalf("forged payment %d: %d %s", i, resp.StatusCode, body)
		}
	}
	if resp, body := httpGet(t, api+"/api/v1/report", map[string]string{x402.HeaderPaymentSignature: forged("/api/v1/report")}); resp.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("the forged payment of the report: %d %s", resp.StatusCode, body)
	}

	// The refused page lists the counters by route, and the last
	// refusals.
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, page := httpGet(t, api+"/dashboard/refused", nil)
		if resp.StatusCode == 200 && strings.Contains(page, "127.0.0.1/paid/*") && strings.Contains(page, "127.0.0.1/api/v1/report") {
			if strings.Contains(page, "junk") || strings.Contains(page, `<td class="wrap">`+html.EscapeString(store.OtherRoute)) {
				t.Fatalf("the refused page names a request's path, or counts a configured route among the others:\n%s", page)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the refused page has not both routes after 30 s (waiting for the flush): %d\n%s", resp.StatusCode, page)
		}
		time.Sleep(100 * time.Millisecond) // polling for the refusals' flush
	}
}

package caddymodule

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPaywallTemplate runs a paid route with paywall_template in Caddy: a
// browser gets the merchant's page, with the route's price and the paying
// script under the response's policy; a template that is missing, too
// big or not a template stops the configuration from loading.
func TestPaywallTemplate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("shop.html", `<!doctype html><title>Shop</title>{{.Style}}<h1>Buy {{.Resource.Description}}</h1>`+
		`{{range .Offers}}<p class="mine">{{.Price}} {{.Token}} on {{.NetworkName}}</p>{{end}}<div id="x402-pay"></div>{{.Script}}`)
	port := freePort(t)
	caddyfile := func(template string) string {
		return fmt.Sprintf(`{
	x402 {
		network eip155:8453
		facilitator_url http://127.0.0.1:9
		asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USD Coin" 2 6
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.25 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
		description "the shop's report"
		paywall_template %s
	}
	respond "paid"
}
`, port, template)
	}

	for _, tc := range []struct{ name, file, want string }{
		{"missing", filepath.Join(dir, "nope.html"), "x402 paywall_template: open"},
		{"not a template", write("bad.html", "{{.Offers"), "paywall page template: template: paywall_template:1: unclosed action"},
		{"too big", write("big.html", strings.Repeat("x", 1<<20+1)), "over 1048576 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := validateCaddyfile(t, caddyfile(tc.file)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}

	if _, err := runCaddyfile(t, caddyfile(good)); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/report", port), nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page, csp := string(body), resp.Header.Get("Content-Security-Policy")
	nonce, _, _ := strings.Cut(strings.TrimPrefix(csp[strings.Index(csp, "script-src 'nonce-"):], "script-src 'nonce-"), "'")
	if resp.StatusCode != 402 || resp.Header.Get("Cache-Control") != "no-store" || nonce == "" ||
		!strings.Contains(page, "<h1>Buy the shop&#39;s report</h1>") || !strings.Contains(page, `<p class="mine">0.25 USDC on Base</p>`) ||
		!strings.Contains(page, `<script nonce="`+nonce+`" data-paywall=`) {
		t.Fatalf("%d, policy %q:\n%s", resp.StatusCode, csp, page)
	}
}

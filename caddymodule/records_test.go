package caddymodule

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

const recordsCaddyfile = `{
	admin 127.0.0.1:{{admin}}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		store_path {{store}}
	}
}

http://127.0.0.1:{{upstream}} {
	respond "paid content"
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
			description "the daily report"
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
	handle /remote/* {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
			facilitator_url http://127.0.0.1:{{facilitator}}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
}

http://127.0.0.1:{{facilitator}} {
	x402_facilitator
}

http://127.0.0.1:{{dashboard}} {
	route {
		x402_dashboard {
			allow_anonymous
		}
	}
}
`

// TestRecordsNameThePaidRoute: a payment whose payload claims another
// resource (https://evil.example/other) is listed, in the admin API's
// payments, its CSV export and the dashboard, under the route it paid
// for, as the paywall described it; the payer's claim appears nowhere. A
// route settling through a remote facilitator without a key has nothing
// recorded, rather than the payer's claim. The same Caddy's admin API
// refuses a change not declared JSON, and its dashboard lists no
// directory.
func TestRecordsNameThePaidRoute(t *testing.T) {
	ports := map[string]int{}
	for _, name := range []string{"admin", "chain", "upstream", "api", "facilitator", "dashboard"} {
		ports[name] = freePort(t)
	}
	cf := strings.ReplaceAll(recordsCaddyfile, "{{store}}", filepath.Join(t.TempDir(), "x402.db"))
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "records.Caddyfile"})
	if err != nil {
		t.Fatalf("adapting: %v", err)
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	t.Cleanup(func() { caddy.Stop() })
	api := fmt.Sprintf("http://127.0.0.1:%d", ports["api"])
	admin := fmt.Sprintf("http://127.0.0.1:%d", ports["admin"])
	dash := fmt.Sprintf("http://127.0.0.1:%d", ports["dashboard"])
	payer, err := devnet.DeriveKey(devnet.TestMnemonic, 1)
	if err != nil {
		t.Fatal(err)
	}
	const claimed = "https://evil.example/other"

	get := func(t *testing.T, url string, header ...string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", url, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(body)
	}
	// pay pays for path with a payment whose payload names claimed as its
	// resource, and returns the settlement's transaction.
	pay := func(t *testing.T, path string) string {
		t.Helper()
		resp, _ := get(t, api+path)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != http.StatusPaymentRequired || err != nil {
			t.Fatalf("GET %s unpaid: %d %v", path, resp.StatusCode, err)
		}
		var offer *x402.PaymentRequirements
		for i := range pr.Accepts {
			if pr.Accepts[i].Scheme == x402.SchemeExact {
				offer = &pr.Accepts[i]
			}
		}
		if offer == nil {
			t.Fatalf("no exact offer: %+v", pr.Accepts)
		}
		p, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(10_000)}).Pay(pr, offer)
		if err != nil {
			t.Fatal(err)
		}
		p.Resource = &x402.Resource{URL: claimed, Description: "what the payer says"}
		h, _ := x402.EncodeHeader(p)
		resp, body := get(t, api+path, x402.HeaderPaymentSignature, h)
		receipt, ok, err := client.Receipt(resp)
		if resp.StatusCode != http.StatusOK || body != "paid content" || !ok || err != nil || !receipt.Success {
			t.Fatalf("GET %s paid: %d %q %+v %v", path, resp.StatusCode, body, receipt, err)
		}
		return receipt.TransactionHash
	}
	local := pay(t, "/paid/report")
	remote := pay(t, "/remote/report")

	t.Run("admin API payments", func(t *testing.T) {
		resp, body := get(t, admin+"/x402/payments?limit=1000")
		var page struct {
			Payments []struct{ Resource, Description, Transaction, Status string }
		}
		if err := json.Unmarshal([]byte(body), &page); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%d %v\n%s", resp.StatusCode, err, body)
		}
		found := 0
		for _, p := range page.Payments {
			switch p.Transaction {
			case local:
				found++
				if p.Resource != api+"/paid/report" || p.Description != "the daily report" || p.Status != "settled" {
					t.Errorf("the local route's payment is listed as %+v", p)
				}
			case remote:
				found++
				if p.Resource != "" || p.Description != "" || p.Status != "settled" {
					t.Errorf("the anonymous remote route's payment is listed as %+v", p)
				}
			}
		}
		if found != 2 || strings.Contains(body, "evil.example") {
			t.Fatalf("%d of 2 payments found, or the payer's claim is listed:\n%s", found, body)
		}
	})
	t.Run("CSV export", func(t *testing.T) {
		resp, body := get(t, admin+"/x402/payments.csv")
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil || resp.StatusCode != http.StatusOK || len(rows) < 3 {
			t.Fatalf("%d %v\n%s", resp.StatusCode, err, body)
		}
		col := map[string]int{}
		for i, name := range rows[0] {
			col[name] = i
		}
		found := false
		for _, row := range rows[1:] {
			if row[col["transaction"]] == local {
				found = true
				if row[col["resource"]] != api+"/paid/report" {
					t.Errorf("the CSV lists the local payment under %q", row[col["resource"]])
				}
			}
		}
		if !found || strings.Contains(body, "evil.example") {
			t.Fatalf("the payment is missing, or the payer's claim is listed:\n%s", body)
		}
	})
	t.Run("dashboard payments page", func(t *testing.T) {
		resp, body := get(t, dash+"/payments")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, api+"/paid/report") || !strings.Contains(body, "the daily report") || strings.Contains(body, "evil.example") {
			t.Fatalf("%d\n%s", resp.StatusCode, body)
		}
	})
	t.Run("dashboard static files only", func(t *testing.T) {
		if resp, body := get(t, dash+"/static/"); resp.StatusCode != http.StatusNotFound || strings.Contains(body, `href="app.js"`) {
			t.Fatalf("GET /static/: %d\n%s", resp.StatusCode, body)
		}
		if resp, _ := get(t, dash+"/static/style.css"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") {
			t.Fatalf("GET /static/style.css: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	})
	t.Run("admin API wants JSON", func(t *testing.T) {
		for _, tc := range []struct {
			ct     string
			status int
			code   string
		}{
			{"", http.StatusUnsupportedMediaType, "unsupported_media_type"},
			{"text/plain", http.StatusUnsupportedMediaType, "unsupported_media_type"},
			{"application/x-www-form-urlencoded", http.StatusUnsupportedMediaType, "unsupported_media_type"},
			// Declared JSON, it reaches the route: this Caddy runs no
			// paymaster, so there are no keys to make.
			{"application/json", http.StatusNotFound, "no_paymaster"},
		} {
			req, _ := http.NewRequest("POST", admin+"/x402/keys", strings.NewReader(`{"project":"demo","scopes":["paymaster:read"]}`))
			if tc.ct != "" {
				req.Header.Set("Content-Type", tc.ct)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var e struct{ Code, Message string }
			err = json.NewDecoder(resp.Body).Decode(&e)
			resp.Body.Close()
			if err != nil || resp.StatusCode != tc.status || e.Code != tc.code {
				t.Errorf("POST /x402/keys as %q: %d %+v %v, want %d %s", tc.ct, resp.StatusCode, e, err, tc.status, tc.code)
			}
		}
	})
}

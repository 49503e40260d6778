package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/x402"
)

// logRedactCaddyfile has the default `log` directive, with no format or
// filter, on the paid site, the facilitator and API site, and the
// paymaster site; Caddy's own log goes to a file too.
const logRedactCaddyfile = `{
	admin 127.0.0.1:{{admin}}
	log {
		output file {{caddylog}}
	}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
	}
}

http://:{{upstream}} {
	bind 127.0.0.1
	respond /paid/report ` + "`" + `{"report":"paid content"}` + "`" + `
}

http://:{{api}} {
	x402_path_guard
	bind 127.0.0.1
	log {
		output file {{apilog}}
	}
	handle /dead/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		reverse_proxy 127.0.0.1:{{dead}}
	}
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
}

http://:{{facilitator}} {
	bind 127.0.0.1
	log {
		output file {{faclog}}
	}
	handle /api/v1/* {
		x402_txapi
	}
	handle {
		x402_facilitator
	}
}

http://:{{paymaster}} {
	bind 127.0.0.1
	log {
		output file {{pmlog}}
	}
	x402_paymaster {
		project demo {
			balance 100
		}
	}
}
`

// logEntry is one line of a JSON log.
type logEntry struct {
	Level   string `json:"level"`
	Logger  string `json:"logger"`
	Msg     string `json:"msg"`
	Status  int    `json:"status"`
	Size    int    `json:"size"`
	Read    int    `json:"bytes_read"`
	Request struct {
		Method  string              `json:"method"`
		URI     string              `json:"uri"`
		Headers map[string][]string `json:"headers"`
	} `json:"request"`
	RespHeaders map[string][]string `json:"resp_headers"`

	raw  string
	keys []string // the entry's top-level keys, and the request's as request.<key>
}

// readLog parses a JSON log file.
func readLog(t *testing.T, path string) []logEntry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var entries []logEntry
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var e logEntry
		var shape map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%s: %v: %s", path, err, line)
		}
		json.Unmarshal([]byte(line), &shape)
		for k := range shape {
			e.keys = append(e.keys, k)
		}
		var req map[string]json.RawMessage
		json.Unmarshal(shape["request"], &req)
		for k := range req {
			e.keys = append(e.keys, "request."+k)
		}
		e.raw = line
		entries = append(entries, e)
	}
	return entries
}

// accessEntry is the access-log entry of the request to uri that has the
// header (empty: none of the secret headers) and the status.
func accessEntry(t *testing.T, entries []logEntry, uri, header string, status int) logEntry {
	t.Helper()
	for _, e := range entries {
		if e.Msg != "handled request" || !strings.HasPrefix(e.Logger, "http.log.access.") || e.Request.URI != uri || e.Status != status {
			continue
		}
		_, has := e.Request.Headers[header]
		if header == "" {
			has = !hasSecret(e.Request.Headers)
		}
		if has {
			return e
		}
	}
	t.Fatalf("no access-log entry for %s with %q and status %d", uri, header, status)
	return logEntry{}
}

func TestLogRedactsSecrets(t *testing.T) {
	ports := map[string]int{}
	for _, name := range []string{"admin", "chain", "upstream", "api", "dead", "facilitator", "paymaster"} {
		ports[name] = freePort(t)
	}
	dir := t.TempDir()
	files := map[string]string{}
	cf := logRedactCaddyfile
	for _, name := range []string{"caddylog", "apilog", "faclog", "pmlog"} {
		files[name] = filepath.Join(dir, name+".log")
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", files[name])
	}
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	cf = strings.ReplaceAll(cf, "{{merchant}}", merchant.Hex())
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "logredact.Caddyfile"})
	if err != nil {
		t.Fatalf("adapting: %v", err)
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()

	e := &e2e{t: t, api: fmt.Sprintf("http://127.0.0.1:%d", ports["api"])}
	payer := mustKey(t, 1)
	var secrets []string // every secret value sent
	signatures := func(header string) {
		p, err := x402.DecodePaymentPayload(header)
		if err != nil {
			t.Fatal(err)
		}
		var inner struct {
			Signature string `json:"signature"`
		}
		if err := json.Unmarshal(p.Payload, &inner); err != nil || len(inner.Signature) < 130 {
			t.Fatalf("payload signature %q: %v", inner.Signature, err)
		}
		secrets = append(secrets, header, strings.TrimPrefix(inner.Signature, "0x"))
	}

	// Caddy logs a request without a secret header itself.
	if resp, _ := e.get("/paid/report", ""); resp.StatusCode != 402 {
		t.Fatalf("unpaid: %d", resp.StatusCode)
	}
	paid := e.payment(payer, nil)
	signatures(paid)
	if resp, body := e.get("/paid/report", paid); resp.StatusCode != 200 || !strings.Contains(body, "paid content") {
		t.Fatalf("paid: %d %q", resp.StatusCode, body)
	}
	// The upstream is down: the error is answered and logged by the x402
	// handler, not handed to Caddy's error log.
	dead := e.payment(payer, nil)
	signatures(dead)
	resp, body := e.get("/dead/report", dead)
	if resp.StatusCode != http.StatusBadGateway || resp.Header.Get(x402.HeaderPaymentResponse) != "" ||
		body != `{"error":"the upstream failed; the payment was not charged"}`+"\n" {
		t.Errorf("dead upstream: %d %q", resp.StatusCode, body)
	}

	pmURL := fmt.Sprintf("http://127.0.0.1:%d", ports["paymaster"])
	secrets = append(secrets, DevPaymasterKey)
	for _, header := range []string{"", "X-Paymaster-Api-Key"} {
		pm := &paymaster.Client{URL: pmURL, APIKey: DevPaymasterKey, Header: header}
		if eps, err := pm.EntryPoints(context.Background()); err != nil || len(eps) != 3 { // v0.6, v0.7 and v0.8
			t.Fatalf("pm_entrypoints with %q: %v %v", header, eps, err)
		}
	}
	if resp, err := http.Get(pmURL + "/health"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("paymaster health: %v", err)
	} else {
		resp.Body.Close()
	}

	facURL := fmt.Sprintf("http://127.0.0.1:%d", ports["facilitator"])
	const apiKey = "x402-logredact-test-api-key-7f3a9c1e"
	secrets = append(secrets, apiKey)
	for _, path := range []string{"/supported", "/api/v1/transactions/unknown"} {
		req, _ := http.NewRequest("GET", facURL+path, nil)
		req.Header["x-api-key"] = []string{apiKey} // sent as is; Caddy canonicalizes it
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}

	// Stopping waits for the handlers, which write the entries, to return.
	if err := caddy.Stop(); err != nil {
		t.Fatal(err)
	}

	t.Run("no secret in any log", func(t *testing.T) {
		for name, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			logs := strings.ToLower(string(data))
			for _, s := range secrets {
				if strings.Contains(logs, strings.ToLower(s)) {
					t.Errorf("%s contains the secret %.16s…", name, s)
				}
			}
		}
	})
	t.Run("paid site", func(t *testing.T) {
		entries := readLog(t, files["apilog"])
		own := accessEntry(t, entries, "/paid/report", "", 402)
		for _, e := range []logEntry{
			accessEntry(t, entries, "/paid/report", "Payment-Signature", 200),
			accessEntry(t, entries, "/dead/report", "Payment-Signature", 502),
		} {
			if got := e.Request.Headers["Payment-Signature"]; len(got) != 1 || got[0] != "REDACTED" {
				t.Errorf("%s: Payment-Signature is %q", e.Request.URI, got)
			}
			if e.Logger != own.Logger || e.Request.Method != "GET" || e.Size == 0 || len(e.RespHeaders) == 0 {
				t.Errorf("entry unlike Caddy's: %s\nCaddy's: %s", e.raw, own.raw)
			}
			if !sameKeys(e.keys, own.keys) {
				t.Errorf("fields %v, Caddy's %v", e.keys, own.keys)
			}
		}
		if e := accessEntry(t, entries, "/paid/report", "Payment-Signature", 200); len(e.RespHeaders["Payment-Response"]) != 1 {
			t.Errorf("the paid entry lacks the receipt: %s", e.raw)
		}
		if e := accessEntry(t, entries, "/dead/report", "Payment-Signature", 502); e.Level != "error" {
			t.Errorf("a 502 logged at %s", e.Level)
		}
	})
	t.Run("paymaster site", func(t *testing.T) {
		entries := readLog(t, files["pmlog"])
		own := accessEntry(t, entries, "/health", "", 200)
		for _, header := range []string{"X-Api-Key", "X-Paymaster-Api-Key"} {
			e := accessEntry(t, entries, "/", header, 200)
			if got := e.Request.Headers[header]; len(got) != 1 || got[0] != "REDACTED" {
				t.Errorf("%s is %q", header, got)
			}
			if e.Logger != own.Logger || e.Request.Method != "POST" || e.Read == 0 || e.Size == 0 || !sameKeys(e.keys, own.keys) {
				t.Errorf("entry unlike Caddy's: %s\nCaddy's: %s", e.raw, own.raw)
			}
		}
	})
	t.Run("facilitator and API site", func(t *testing.T) {
		entries := readLog(t, files["faclog"])
		for _, e := range []logEntry{
			accessEntry(t, entries, "/supported", "X-Api-Key", 200),
			accessEntry(t, entries, "/api/v1/transactions/unknown", "X-Api-Key", 404),
		} {
			if got := e.Request.Headers["X-Api-Key"]; len(got) != 1 || got[0] != "REDACTED" {
				t.Errorf("%s: X-Api-Key is %q", e.Request.URI, got)
			}
		}
	})
	t.Run("the upstream error is logged redacted", func(t *testing.T) {
		for _, e := range readLog(t, files["caddylog"]) {
			if strings.HasPrefix(e.Logger, "http.log.error") {
				t.Errorf("Caddy's error log has the paid request: %s", e.raw)
			}
			if e.Msg == "x402 upstream failed" {
				// The paywall took the payment off the request before the
				// upstream ran; were it there, it would show as REDACTED.
				if got := e.Request.Headers["Payment-Signature"]; e.Level != "error" || e.Request.URI != "/dead/report" || (len(got) != 0 && (len(got) != 1 || got[0] != "REDACTED")) {
					t.Errorf("upstream failure logged as %s", e.raw)
				}
				return
			}
		}
		t.Error("the upstream failure is not logged")
	})
}

// sameKeys reports whether a and b hold the same keys.
func sameKeys(a, b []string) bool {
	seen := map[string]int{}
	for _, k := range a {
		seen[k]++
	}
	for _, k := range b {
		seen[k]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

func TestLogRedactHelpers(t *testing.T) {
	t.Parallel()
	t.Run("secret headers", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			header http.Header
			want   bool
		}{
			{http.Header{"Payment-Signature": {"x"}}, true},
			{http.Header{"PAYMENT-SIGNATURE": {"x"}}, true},
			{http.Header{"x-api-key": {"x"}}, true},
			{http.Header{"X-Paymaster-Api-Key": {"x"}}, true},
			{http.Header{"Sign-In-With-X": {"x"}}, true},
			{http.Header{"Payment-Response": {"x"}, "Authorization": {"x"}}, false},
			{nil, false},
		} {
			if got := hasSecret(tc.header); got != tc.want {
				t.Errorf("hasSecret(%v) = %v", tc.header, got)
			}
		}
		r, _ := http.NewRequest("GET", "http://example.com/a", nil)
		r.Header["PAYMENT-SIGNATURE"] = []string{"secret"}
		r.Header.Set("X-Api-Key", "secret")
		r.Header.Set("Accept", "text/plain")
		c := redactedRequest(r)
		if c.Header["PAYMENT-SIGNATURE"][0] != "REDACTED" || c.Header.Get("X-Api-Key") != "REDACTED" || c.Header.Get("Accept") != "text/plain" {
			t.Errorf("redacted %v", c.Header)
		}
		if r.Header.Get("X-Api-Key") != "secret" {
			t.Error("the request itself was changed")
		}
	})
	t.Run("logger names", func(t *testing.T) {
		t.Parallel()
		logs := &caddyhttp.ServerLogConfig{
			DefaultLoggerName: "dflt",
			LoggerNames:       map[string]caddyhttp.StringArray{"a.example.com": {"a", "b"}, "*.example.com": {"wild"}},
			SkipHosts:         []string{"skip.example.org"},
		}
		for _, tc := range []struct {
			host string
			want []string
			logs bool
		}{
			{"a.example.com:443", []string{"a", "b"}, true},
			{"A.Example.com", []string{"a", "b"}, true},
			{"x.example.com", []string{"wild"}, true},
			{"other.org", []string{"dflt"}, true},
			{"skip.example.org", []string{"dflt"}, false},
			{"[::1]:8080", []string{"dflt"}, true},
		} {
			r, _ := http.NewRequest("GET", "http://placeholder/", nil)
			r.Host = tc.host
			if got := loggerNames(logs, r); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("%s: names %v, want %v", tc.host, got, tc.want)
			}
			if got := logsHost(logs, tc.host); got != tc.logs {
				t.Errorf("%s: logged %v", tc.host, got)
			}
		}
		unmapped := &caddyhttp.ServerLogConfig{LoggerNames: logs.LoggerNames, SkipUnmappedHosts: true}
		if logsHost(unmapped, "other.org") || !logsHost(unmapped, "x.example.com") {
			t.Error("skip_unmapped_hosts")
		}
	})
}

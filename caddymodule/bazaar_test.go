package caddymodule

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/x402"
)

const bazaarCaddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
	}
}

http://127.0.0.1:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /weather {
		x402 0.01 {
			pay_to {{merchant}}
			origin http://127.0.0.1:{{site}}
			description "Weather by city"
			mime_type application/json
			bazaar {
				path /weather
				input_schema ` + "`" + `{"properties":{"city":{"type":"string"}},"required":["city"]}` + "`" + `
				input_example ` + "`" + `{"city":"Lisbon"}` + "`" + `
				output_schema ` + "`" + `{"description":"{{pad}}","properties":{"temperature":{"type":"number"}},"required":["temperature"]}` + "`" + `
				output_example ` + "`" + `{"temperature":21.5}` + "`" + `
				category weather
				tags forecast climate
			}
		}
		respond ` + "`" + `{"temperature":21.5}` + "`" + `
	}
	handle /translate {
		x402 0.02 {
			pay_to {{merchant}}
			origin http://127.0.0.1:{{site}}
			bazaar {
				path /translate
				body_type json
				input_schema ` + "`" + `{"type":"object","properties":{"text":{"type":"string","maxLength":100}},"required":["text"]}` + "`" + `
				input_example ` + "`" + `{"text":"hello"}` + "`" + `
			}
		}
		respond "bonjour"
	}
	handle /plain {
		x402 0.01 {
			pay_to {{merchant}}
		}
		respond "plain"
	}
	handle /facilitator/* {
		x402_facilitator
	}
	handle {
		respond "free"
	}
}
`

// bazaarPad brings /weather's declaration near the 8 KiB bound, so the
// upstream payer, which echoes it in PAYMENT-SIGNATURE, is tested at the
// size the bound allows.
var bazaarPad = strings.Repeat("a long description of the answer. ", 200)

var interopOnce sync.Once

// interopModules returns interop/ with its npm packages installed, or
// skips without Node.js.
func interopModules(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; .ci/run installs it")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "interop"))
	interopOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@x402", "extensions")); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--silent")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	})
	return dir
}

// getJSON does method url with the headers and decodes the JSON answer
// into v; it fails unless the answer is JSON.
func getJSON(t *testing.T, method, url string, v any, header ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" || json.Unmarshal(body, v) != nil {
		t.Fatalf("%s %s: want JSON, got %d %q %q", method, url, resp.StatusCode, ct, body)
	}
	return resp
}

// TestBazaarDiscovery: through Caddy on the devnet, upstream's bazaar
// client (@x402/extensions 2.27.0) lists the two discoverable routes at
// GET /discovery/resources, filters and pages them, and validates the
// bazaar extension of each listing and of each 402 with upstream's own
// validator; the RFC 9728 metadata names the site and its paid routes;
// garbage queries are answered JSON 400. Not parallel: Caddy runs one
// config at a time.
func TestBazaarDiscovery(t *testing.T) {
	dir := interopModules(t)
	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"
	cf := strings.NewReplacer("{{chain}}", fmt.Sprint(ports["chain"]), "{{site}}", fmt.Sprint(ports["site"]),
		"{{merchant}}", merchant, "{{pad}}", bazaarPad).Replace(bazaarCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("loading: %v", err)
	}
	site := fmt.Sprintf("http://127.0.0.1:%d", ports["site"])

	t.Run("upstream bazaar client", func(t *testing.T) {
		cmd := exec.Command("node", "bazaar.mjs")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "FACILITATOR_URL="+site+"/facilitator", "QUERY_URL="+site+"/weather",
			"BODY_URL="+site+"/translate", "PAY_TO="+merchant)
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("bazaar.mjs: %v\n%s\n%s", err, out, stderr)
		}
		var seen struct {
			Total int
			GET   struct {
				Method   string
				Input    struct{ QueryParams map[string]string }
				Output   struct{ Example map[string]float64 }
				Category string
				Tags     []string
			}
			POST struct {
				Method string
				Input  struct {
					BodyType string
					Body     map[string]string
				}
			}
		}
		if err := json.Unmarshal(out, &seen); err != nil {
			t.Fatalf("bazaar.mjs printed %q: %v", out, err)
		}
		g, p := seen.GET, seen.POST
		if seen.Total != 2 || g.Method != "GET" || g.Input.QueryParams["city"] != "Lisbon" || g.Output.Example["temperature"] != 21.5 ||
			g.Category != "weather" || strings.Join(g.Tags, ",") != "forecast,climate" ||
			p.Method != "POST" || p.Input.BodyType != "json" || p.Input.Body["text"] != "hello" {
			t.Fatalf("upstream saw %s", out)
		}
	})

	t.Run("upstream payer echoes the declaration and pays", func(t *testing.T) {
		var pr x402.PaymentRequired
		getJSON(t, "GET", site+"/weather", &pr)
		if n := len(pr.Extensions); n < 7<<10 || n > 8<<10+16 {
			t.Fatalf("the declaration is %d bytes, want it near the 8 KiB bound", n)
		}
		cmd := exec.Command("node", "pay.mjs", site+"/weather")
		cmd.Dir = nodePayer(t)
		cmd.Env = append(os.Environ(), "X402_KEY=0x"+fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 6))))
		out, err := cmd.Output()
		var res struct {
			Status  int                 `json:"status"`
			Body    string              `json:"body"`
			Receipt x402.SettleResponse `json:"receipt"`
		}
		if err != nil || json.Unmarshal(out, &res) != nil || res.Status != 200 || !res.Receipt.Success ||
			!strings.Contains(res.Body, "21.5") || !strings.EqualFold(res.Receipt.Payer, crypto.PubkeyToAddress(mustKey(t, 6).PublicKey).Hex()) {
			t.Fatalf("node payer: %v %s", err, out)
		}
	})

	t.Run("a route without bazaar is neither declared nor listed", func(t *testing.T) {
		var pr x402.PaymentRequired
		// Its 402 declares other extensions (payment-identifier), never
		// bazaar.
		var ext map[string]json.RawMessage
		if resp := getJSON(t, "GET", site+"/plain", &pr); resp.StatusCode != 402 || (len(pr.Extensions) != 0 && json.Unmarshal(pr.Extensions, &ext) != nil) || ext["bazaar"] != nil {
			t.Fatalf("want a 402 without a bazaar extension, got %d %s", resp.StatusCode, pr.Extensions)
		}
		var list facilitator.DiscoveryResources
		getJSON(t, "GET", site+"/facilitator/discovery/resources?limit=100", &list)
		for _, it := range list.Items {
			if strings.HasSuffix(it.Resource, "/plain") {
				t.Fatalf("/plain is listed: %+v", it)
			}
		}
	})

	t.Run("RFC 9728 metadata", func(t *testing.T) {
		tests := []struct{ path, resource string }{
			{"/.well-known/oauth-protected-resource", site},
			{"/.well-known/oauth-protected-resource/weather", site + "/weather"},
		}
		for _, tc := range tests {
			var md map[string]any
			resp := getJSON(t, "GET", site+tc.path, &md, "X-Forwarded-Host", "evil.example", "X-Forwarded-Proto", "https")
			res, _ := md["x402_resources"].([]any)
			bearer, isList := md["bearer_methods_supported"].([]any)
			if resp.StatusCode != 200 || md["resource"] != tc.resource || !isList || len(bearer) != 0 ||
				md["x402_payment_required_header"] != "PAYMENT-REQUIRED" || md["x402_payment_header"] != "PAYMENT-SIGNATURE" ||
				md["x402_challenge_status"] != 402.0 || md["x402_version"] != 2.0 ||
				len(res) != 2 || res[0] != site+"/translate" || res[1] != site+"/weather" ||
				resp.Header.Get("Cache-Control") != "public, max-age=300" {
				t.Fatalf("GET %s: %d %v %v", tc.path, resp.StatusCode, resp.Header, md)
			}
		}
		// Only that path: a longer name is the site's own.
		resp, err := http.Get(site + "/.well-known/oauth-protected-resourcex")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != "free" {
			t.Fatalf("GET /.well-known/oauth-protected-resourcex: %d %q", resp.StatusCode, body)
		}
		var refused map[string]any
		if resp := getJSON(t, "POST", site+"/.well-known/oauth-protected-resource", &refused); resp.StatusCode != 405 ||
			refused["error"] != "method_not_allowed" || resp.Header.Get("Allow") != "GET, HEAD" {
			t.Fatalf("POST: %d %v", resp.StatusCode, refused)
		}
	})

	t.Run("garbage queries answer JSON 400", func(t *testing.T) {
		for _, q := range []string{
			"limit=abc", "limit=0", "limit=101", "limit=-1", "offset=-1", "offset=x", "offset=99999999999999999999",
			"type=ftp", "type=", "payTo=nobody", "limit=1&limit=2", "network=" + strings.Repeat("a", 300), "%zz",
		} {
			var got map[string]string
			resp := getJSON(t, "GET", site+"/facilitator/discovery/resources?"+q, &got, "Accept", "text/html")
			if resp.StatusCode != 400 || got["error"] != "invalid_request" || got["message"] == "" {
				t.Fatalf("?%s: %d %v", q, resp.StatusCode, got)
			}
		}
		var got map[string]string
		if resp := getJSON(t, "POST", site+"/facilitator/discovery/resources", &got); resp.StatusCode != 405 || got["error"] != "method_not_allowed" {
			t.Fatalf("POST: %d %v", resp.StatusCode, got)
		}
		var page facilitator.DiscoveryResources
		if resp := getJSON(t, "GET", site+"/facilitator/discovery/resources?offset=5", &page); resp.StatusCode != 200 ||
			page.Items == nil || len(page.Items) != 0 || page.Pagination.Total != 2 || page.Pagination.Offset != 5 {
			t.Fatalf("past the end: %d %+v", resp.StatusCode, page)
		}
	})
}

// TestBazaarRefused: a bazaar block that is too big, not JSON, a URL, or
// refers outside itself is refused when the config loads (by the
// Caddyfile adapter or by Validate), with a message that names it.
func TestBazaarRefused(t *testing.T) {
	t.Parallel()
	big := `{"description":"` + strings.Repeat("a", 16<<10) + `"}`
	okSchema := json.RawMessage(`{"properties":{"q":{"type":"string"}}}`)
	tests := []struct {
		name string
		b    BazaarConfig
		want string
	}{
		{"oversized input schema", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(big)}, "more than the 16384 allowed"},
		{"oversized output schema", BazaarConfig{Path: "/a", OutputSchema: json.RawMessage(big)}, "output_schema"},
		{"declaration over 8 KiB", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(`{"description":"` + strings.Repeat("i", 4500) + `"}`),
			OutputSchema: json.RawMessage(`{"description":"` + strings.Repeat("o", 4500) + `"}`)}, "more than the 8192 allowed"},
		{"oversized example", BazaarConfig{Path: "/a", InputExample: json.RawMessage(big)}, "input_example"},
		{"a URL to fetch", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(`"https://evil.example/schema.json"`)}, "want a JSON object"},
		{"external $ref", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(`{"properties":{"q":{"$ref":"https://evil.example/s.json"}}}`)}, "$ref is not allowed"},
		{"relative $ref", BazaarConfig{Path: "/a", OutputSchema: json.RawMessage(`{"items":[{"$ref":"other.json#/x"}]}`)}, "$ref is not allowed"},
		{"local $ref", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(`{"properties":{"q":{"$ref":"#/$defs/t"}},"$defs":{"t":{}}}`)}, "$ref is not allowed"},
		{"$id", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(`{"$id":"https://evil.example/"}`)}, "$id is not allowed"},
		{"$schema", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(`{"$schema":"https://evil.example/meta"}`)}, "$schema is not allowed"},
		{"$dynamicRef", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(`{"$dynamicRef":"https://evil.example/"}`)}, "$dynamicRef is not allowed"},
		{"too deep", BazaarConfig{Path: "/a", InputSchema: json.RawMessage(strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40))}, "nested more than"},
		{"example not an object", BazaarConfig{Path: "/a", InputSchema: okSchema, InputExample: json.RawMessage(`[1]`)}, "input_example: want a JSON object"},
		{"no path", BazaarConfig{InputSchema: okSchema}, "bazaar path"},
		{"relative path", BazaarConfig{Path: "weather"}, "bazaar path"},
		{"path with query", BazaarConfig{Path: "/w?x=1"}, "bazaar path"},
		{"bad method", BazaarConfig{Path: "/a", Method: "CONNECT"}, "bazaar method"},
		{"body on GET", BazaarConfig{Path: "/a", Method: "GET", BodyType: "json"}, "body_type needs a body method"},
		{"bad body type", BazaarConfig{Path: "/a", BodyType: "xml"}, "body_type \"xml\""},
		{"six tags", BazaarConfig{Path: "/a", Tags: []string{"a", "b", "c", "d", "e", "f"}}, "at most 5"},
		{"long tag", BazaarConfig{Path: "/a", Tags: []string{strings.Repeat("t", 33)}}, "bazaar tag"},
		{"control in category", BazaarConfig{Path: "/a", Category: "a\nb"}, "bazaar category"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &Handler{PayTo: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65", Price: "0.01", Origin: "https://shop.example", Bazaar: &tc.b}
			err := h.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error with %q, got %v", tc.want, err)
			}
		})
	}
	t.Run("no origin", func(t *testing.T) {
		t.Parallel()
		h := &Handler{PayTo: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65", Price: "0.01", Bazaar: &BazaarConfig{Path: "/a"}}
		if err := h.Validate(); err == nil || !strings.Contains(err.Error(), "needs the route's origin") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a valid declaration passes", func(t *testing.T) {
		t.Parallel()
		h := &Handler{PayTo: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65", Price: "0.01", Origin: "https://shop.example",
			Bazaar: &BazaarConfig{Path: "/a", InputSchema: okSchema, Tags: []string{"x"}, Category: "c"}}
		if err := h.Validate(); err != nil {
			t.Fatal(err)
		}
	})

	caddyfileTests := []struct{ name, block, want string }{
		{"oversized schema", "input_schema `" + big + "`", "more than the 16384 allowed"},
		{"a URL instead of a schema", "input_schema https://evil.example/schema.json", "not JSON"},
		{"truncated JSON", "output_schema `{\"a\":`", "not JSON"},
		{"unknown option", "schema_url https://evil.example/", `unknown x402 bazaar option "schema_url"`},
		{"an argument", "}\n\t\tbazaar on {", "wrong argument count"},
	}
	for _, tc := range caddyfileTests {
		t.Run("Caddyfile "+tc.name, func(t *testing.T) {
			t.Parallel()
			cf := "{\n\tx402 {\n\t\tnetwork devnet\n\t}\n}\n:8080 {\n\tx402_path_guard\n\tx402 0.01 {\n\t\tpay_to 0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65\n\t\torigin https://shop.example\n\t\tbazaar {\n\t\t\tpath /a\n\t\t\t" +
				tc.block + "\n\t\t}\n\t}\n}\n"
			_, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "Caddyfile"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error with %q, got %v", tc.want, err)
			}
		})
	}
}

package caddymodule

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// v1Caddyfile is a paid site for x402 v1 and v2 clients at once: the x402
// app on a chain ({{network}}), one paid route of 0.01 tokens.
const v1Caddyfile = `{
	x402 {
		{{network}}
		store_path {{store}}
	}
}

http://127.0.0.1:{{port}} {
	x402_path_guard
	log {
		output file {{accesslog}}
	}
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
			description "v1 report"
			mime_type text/plain
		}
		respond "paid content"
	}
	respond /free "free content"
	handle /metrics {
		metrics
	}
}
`

// v1Site runs v1Caddyfile with the app's chain given by network (the
// lines of the x402 global option that name it) and returns the site's
// URL and the path of its access log.
func v1Site(t *testing.T, network string, merchant common.Address) (site, accessLog string) {
	t.Helper()
	port := freePort(t)
	accessLog = filepath.Join(t.TempDir(), "access.log")
	cf := strings.NewReplacer(
		"{{network}}", network,
		"{{accesslog}}", accessLog,
		"{{store}}", filepath.Join(t.TempDir(), "x402.db"),
		"{{port}}", fmt.Sprint(port),
		"{{merchant}}", merchant.Hex(),
	).Replace(v1Caddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("caddy run: %v", err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", port), accessLog
}

// v1Interop returns interop/ with the v1 clients installed (npm ci when
// they are missing), or skips without Node.js.
func v1Interop(t *testing.T) string {
	t.Helper()
	dir := interopModules(t)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "x402-fetch")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--silent")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	return dir
}

// v1ClientResult is what interop/v1-clients.mjs reports of one client.
type v1ClientResult struct {
	Status  int    `json:"status"`
	Body    string `json:"body"`
	Error   string `json:"error"`
	Receipt *struct {
		Success     bool   `json:"success"`
		Transaction string `json:"transaction"`
		Network     string `json:"network"`
		Payer       string `json:"payer"`
	} `json:"receipt"`
	V2Receipt bool   `json:"v2Receipt"`
	Payment   string `json:"payment"`
}

// v1Clients runs interop/v1-clients.mjs against url, with x402-fetch
// paying from fetchKey and x402-axios from axiosKey.
func v1Clients(t *testing.T, dir, url string, fetchKey, axiosKey uint32) (challenge map[string]any, fetch, axios v1ClientResult) {
	t.Helper()
	hexKey := func(i uint32) string {
		k, _ := devnet.DeriveKey(devnet.TestMnemonic, i)
		return "0x" + common.Bytes2Hex(crypto.FromECDSA(k))
	}
	cmd := exec.Command("node", "v1-clients.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "URL="+url, "FETCH_KEY="+hexKey(fetchKey), "AXIOS_KEY="+hexKey(axiosKey))
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	var got struct {
		Challenge struct {
			Status int            `json:"status"`
			Body   map[string]any `json:"body"`
		} `json:"challenge"`
		Fetch v1ClientResult `json:"fetch"`
		Axios v1ClientResult `json:"axios"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %s: %v", out, err)
	}
	t.Logf("v1 clients: %s", out)
	if got.Challenge.Status != http.StatusPaymentRequired {
		t.Fatalf("the unpaid request got %d", got.Challenge.Status)
	}
	return got.Challenge.Body, got.Fetch, got.Axios
}

// TestV1Clients: upstream's x402 v1 clients, x402-fetch 1.2.0 and
// x402-axios 0.7.2 from npm, pay a route of Caddy on a devnet standing for
// base-sepolia (chain id 84532), as a real chain (rpc, settler_key,
// asset): each gets the content and an X-PAYMENT-RESPONSE naming the
// network base-sepolia, and the merchant is paid once a payment. The
// authorization x402-fetch sent, presented again as v2 (PAYMENT-SIGNATURE)
// or as v1, is refused as a replay; so is a v2 payment (with a
// payment identifier) presented again as v1. A v1 payment is held to the
// path guard like any other, garbage in X-PAYMENT is a JSON 4xx, v1
// payments count as settled in caddy_x402_payments_total, and the access
// log shows X-PAYMENT as REDACTED. Not parallel: Caddy runs one config at
// a time.
func TestV1Clients(t *testing.T) {
	dir := v1Interop(t)
	chain := startChain(t, 84532)
	settler, _ := devnet.DeriveKey(devnet.TestMnemonic, 8)
	t.Setenv("X402_V1_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(settler)))
	t.Setenv("X402_V1_RPC", chain.URL)
	merchant := chain.Accounts[3].Address
	site, accessLog := v1Site(t, fmt.Sprintf("network eip155:84532\n\t\trpc {env.X402_V1_RPC}\n\t\tsettler_key {env.X402_V1_SETTLER_KEY}\n\t\tasset %s %q %s 6",
		chain.Token.Address.Hex(), chain.Token.Name, chain.Token.Version), merchant)
	eth, err := ethclient.Dial(chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, api: site, admin: site, token: chain.Token.Address} // the site serves /metrics
	paid := big.NewInt(0)
	before := e.balance(merchant)
	const price = 10_000

	challenge, fetch, axios := v1Clients(t, dir, site+"/paid/report", 1, 2)
	t.Run("the 402 body is the v1 challenge", func(t *testing.T) {
		accepts, _ := challenge["accepts"].([]any)
		if challenge["x402Version"] != 1.0 || len(accepts) != 1 {
			t.Fatalf("%v", challenge)
		}
		offer := accepts[0].(map[string]any)
		if offer["network"] != "base-sepolia" || offer["maxAmountRequired"] != "10000" || offer["resource"] != site+"/paid/report" ||
			offer["description"] != "v1 report" || offer["mimeType"] != "text/plain" || !strings.EqualFold(offer["asset"].(string), chain.Token.Address.Hex()) {
			t.Fatalf("%v", offer)
		}
	})
	for name, r := range map[string]v1ClientResult{"x402-fetch": fetch, "x402-axios": axios} {
		t.Run(name+" pays", func(t *testing.T) {
			if r.Status != http.StatusOK || r.Body != "paid content" || r.Receipt == nil || !r.Receipt.Success || r.Receipt.Network != "base-sepolia" ||
				len(r.Receipt.Transaction) != 66 || !r.V2Receipt || r.Payment == "" {
				t.Fatalf("%+v", r)
			}
			if _, err := waitReceipt(eth, r.Receipt.Transaction); err != nil {
				t.Fatal(err)
			}
		})
		if r.Status == http.StatusOK {
			paid.Add(paid, big.NewInt(price))
		}
	}

	// The offer as v2 clients see it, to present v1 authorizations as v2.
	resp, _ := e.get("/paid/report", "")
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 1 {
		t.Fatalf("PAYMENT-REQUIRED: %v %+v", err, pr)
	}
	offer := pr.Accepts[0]
	if offer.Network != "eip155:84532" || pr.Error != "" {
		t.Fatalf("%+v", pr)
	}
	v1Of := func(p *x402.PaymentPayload) string {
		h, err := x402.EncodeHeader(&x402.PaymentPayloadV1{X402Version: 1, Scheme: p.Accepted.Scheme, Network: "base-sepolia", Payload: p.Payload})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	refusedAsReplay := func(t *testing.T, resp *http.Response, body string) {
		t.Helper()
		if resp.StatusCode != http.StatusPaymentRequired || !strings.Contains(body, string(x402.ReasonReplay)) || strings.Contains(body, "paid content") {
			t.Fatalf("%d %s, want 402 replay", resp.StatusCode, body)
		}
	}

	t.Run("x402-fetch's authorization again as v2 and as v1", func(t *testing.T) {
		v1, err := x402.DecodePaymentPayloadV1(fetch.Payment)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v1.V2(offer)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := e.get("/paid/report", header(t, p))
		refusedAsReplay(t, resp, body)
		resp, body = e.get("/paid/report", "", x402.HeaderXPayment, fetch.Payment)
		refusedAsReplay(t, resp, body)
	})

	t.Run("a v2 payment with an identifier again as v1", func(t *testing.T) {
		key, _ := devnet.DeriveKey(devnet.TestMnemonic, 4)
		p, err := (&client.Transport{Key: key, MaxAmount: big.NewInt(price)}).Pay(pr, &offer)
		if err != nil {
			t.Fatal(err)
		}
		p.Extensions = json.RawMessage(`{"payment-identifier":{"info":{"required":false,"id":"pay_v1_e2e_0123456789"}}}`)
		if resp, body := e.get("/paid/report", header(t, p)); resp.StatusCode != http.StatusOK || body != "paid content" {
			t.Fatalf("as v2: %d %s", resp.StatusCode, body)
		}
		paid.Add(paid, big.NewInt(price))
		resp, body := e.get("/paid/report", "", x402.HeaderXPayment, v1Of(p))
		refusedAsReplay(t, resp, body)
	})

	t.Run("the path guard refuses a v1 payment's bypass paths", func(t *testing.T) {
		key, _ := devnet.DeriveKey(devnet.TestMnemonic, 5)
		p, err := (&client.Transport{Key: key, MaxAmount: big.NewInt(price)}).Pay(pr, &offer)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/paid%2Freport", "/free;/../paid/report", `/paid\report`} {
			req, _ := http.NewRequest("GET", site+"/x", nil)
			req.URL.Opaque = path // sent as written
			req.Header.Set(x402.HeaderXPayment, v1Of(p))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("%s: %d, want 400 from the path guard", path, resp.StatusCode)
			}
		}
		// Refused before it was verified, the payment is still whole.
		if resp, body := e.get("/paid/report", "", x402.HeaderXPayment, v1Of(p)); resp.StatusCode != http.StatusOK || body != "paid content" {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		paid.Add(paid, big.NewInt(price))
	})

	t.Run("garbage in X-PAYMENT", func(t *testing.T) {
		for _, v := range []string{"%%%", "e30=", strings.Repeat("A", x402.MaxHeaderSize+1)} {
			resp, body := e.get("/paid/report", "", x402.HeaderXPayment, v)
			var got struct {
				X402Version int    `json:"x402Version"`
				Error       string `json:"error"`
			}
			if resp.StatusCode/100 != 4 || resp.StatusCode == http.StatusPaymentRequired || json.Unmarshal([]byte(body), &got) != nil ||
				got.X402Version != 1 || !strings.HasPrefix(got.Error, string(x402.ReasonMalformedRequest)) {
				t.Fatalf("%.20q: %d %s", v, resp.StatusCode, body)
			}
		}
	})

	if got := new(big.Int).Sub(e.balance(merchant), before); got.Cmp(paid) != 0 {
		t.Fatalf("the merchant got %s, want %s: one payment, one response", got, paid)
	}

	t.Run("v1 payments are counted as payments", func(t *testing.T) {
		want := float64(new(big.Int).Div(paid, big.NewInt(price)).Int64())
		settled := map[string]string{"network": "eip155:84532", "scheme": "exact", "asset": chain.Token.Address.Hex(), "result": "settled"}
		got := e.metrics().sum("caddy_x402_payments_total", settled)
		for deadline := time.Now().Add(10 * time.Second); got != want && time.Now().Before(deadline); got = e.metrics().sum("caddy_x402_payments_total", settled) {
			time.Sleep(20 * time.Millisecond) // polling for the last handler to count
		}
		if got != want {
			t.Fatalf("caddy_x402_payments_total%v = %v, want %v", settled, got, want)
		}
	})

	t.Run("the access log shows X-PAYMENT as REDACTED", func(t *testing.T) {
		logged, err := os.ReadFile(accessLog)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(logged), `"X-Payment":["REDACTED"]`) {
			t.Fatalf("no redacted X-PAYMENT in the access log:\n%s", logged)
		}
		for _, p := range []string{fetch.Payment, axios.Payment} {
			if p != "" && strings.Contains(string(logged), p[:64]) {
				t.Fatal("the access log holds a payment")
			}
		}
	})
}

// TestV1ClientsOnV2OnlyRoute: on the devnet's own chain (31337), which x402
// v1 does not name, the 402's body stays v2 and its error tells a v1
// client that the route speaks x402 v2 only and names the network;
// upstream's v1 clients then stop before paying (they validate the
// network against their list) and send no X-PAYMENT. Not parallel: Caddy
// runs one config at a time.
func TestV1ClientsOnV2OnlyRoute(t *testing.T) {
	dir := v1Interop(t)
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	site, _ := v1Site(t, fmt.Sprintf("network devnet\n\t\tdevnet_addr 127.0.0.1:%d", freePort(t)), merchant)
	challenge, fetch, axios := v1Clients(t, dir, site+"/paid/report", 1, 2)
	msg, _ := challenge["error"].(string)
	if challenge["x402Version"] != 2.0 || !strings.Contains(msg, "x402 v2 only") || !strings.Contains(msg, "eip155:31337") {
		t.Fatalf("%v", challenge)
	}
	for name, r := range map[string]v1ClientResult{"x402-fetch": fetch, "x402-axios": axios} {
		if r.Error == "" || r.Payment != "" || r.Status == http.StatusOK {
			t.Errorf("%s: %+v, want it to stop without paying", name, r)
		}
	}
}

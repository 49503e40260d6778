package caddymodule

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/siwx"
	"github.com/caddy-x402/caddy-x402/x402"
)

const accessCaddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /window/* {
		x402 0.01 {
			pay_to {{merchant}}
			access 1h
			access_key {env.X402_TEST_ACCESS_KEY} {env.X402_TEST_ACCESS_KEY_OLD}
		}
		reverse_proxy {{upstream}}
	}
	handle /budget/* {
		x402 0.01 {
			pay_to {{merchant}}
			description "three requests"
			access 1h {
				requests 3
			}
			access_key {env.X402_TEST_ACCESS_KEY}
		}
		reverse_proxy {{upstream}}
	}
	handle /each/* {
		x402 0.01 {
			pay_to {{other}}
		}
		reverse_proxy {{upstream}}
	}
	handle /free/* {
		reverse_proxy {{upstream}}
	}
}
`

// TestAccessWindowsEndToEnd: through Caddy on the devnet, a route with
// `access 1h` sells windows. @x402/fetch with @x402/extensions'
// sign-in-with-x client pays once, then is served ten more times within
// the window by signing the fresh challenge of each 402, without paying;
// the proof it sent last is refused when replayed. A browser-like Go
// client with a cookie jar pays once and is served by the cookie; the
// cookie is refused from another origin, and on a route with `requests 3`
// it serves two requests after the paid one. The merchant is paid once per
// window and the upstream never sees a proof. The key stays a placeholder
// in the adapted config. The test logs, not asserts, the latency of a
// request in a window against paying each time, and the gas of each.
// Not parallel: Caddy runs one config at a time.
func TestAccessWindowsEndToEnd(t *testing.T) {
	dir := interopClients(t)
	const key = "an access key of more than thirty-two bytes, for the test"
	t.Setenv("X402_TEST_ACCESS_KEY", key)
	t.Setenv("X402_TEST_ACCESS_KEY_OLD", "the previous access key, also 32 bytes or more")
	var hits atomic.Int64
	var leaked atomic.Value
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Sign-In-With-X") != "" || strings.Contains(r.Header.Get("Cookie"), "x402_access_") {
			leaked.Store(r.Header.Clone())
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"report":"`+paidMarker+`"}`)
	}))
	defer upstream.Close()

	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	cf := accessCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{other}}", crypto.PubkeyToAddress(mustKey(t, 8).PublicKey).Hex(), "{{upstream}}", strings.TrimPrefix(upstream.URL, "http://")).Replace(cf)
	cfgJSON := adaptCaddyfile(t, cf)
	if strings.Contains(string(cfgJSON), key) || !strings.Contains(string(cfgJSON), "{env.X402_TEST_ACCESS_KEY}") {
		t.Fatalf("the adapted config does not keep the key a placeholder: %s", cfgJSON)
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9")}
	merchantBefore := e.balance(merchant)
	paidOnce := func(t *testing.T, windows int64) {
		t.Helper()
		if d := new(big.Int).Sub(e.balance(merchant), merchantBefore); d.Int64() != windows*10_000 {
			t.Fatalf("the merchant got %s, want %d (one payment per window)", d, windows*10_000)
		}
	}

	t.Run("sign-in-with-x", func(t *testing.T) {
		payer := mustKey(t, 6)
		const rounds = 10
		cmd := exec.Command("node", "sign-in-with-x.mjs")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "URL="+e.api+"/window/report", fmt.Sprintf("ROUNDS=%d", rounds),
			"X402_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(payer)))
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
		}
		type answer struct {
			Status  int                  `json:"status"`
			Body    string               `json:"body"`
			Receipt *x402.SettleResponse `json:"receipt"`
		}
		var got struct {
			First  answer
			Later  []answer
			Replay *struct {
				Status int
				Error  string
			}
			Proof    map[string]any
			Requests []struct {
				Paid   bool
				Status int
				Error  string
				SignIn bool
			}
			Millis []float64
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("script output %s: %v", out, err)
		}
		if got.First.Status != 200 || !strings.Contains(got.First.Body, paidMarker) || got.First.Receipt == nil || !got.First.Receipt.Success {
			t.Fatalf("the first request: %+v", got.First)
		}
		receipt, err := waitReceipt(eth, got.First.Receipt.TransactionHash)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Later) != rounds {
			t.Fatalf("%d later answers", len(got.Later))
		}
		for i, a := range got.Later {
			if a.Status != 200 || !strings.Contains(a.Body, paidMarker) || a.Receipt != nil {
				t.Fatalf("request %d in the window: %+v", i+2, a)
			}
		}
		// What the client sent: an unpaid request and a refused sign-in
		// (no window yet), the payment; then, each round, an unpaid
		// request and an accepted sign-in. One payment in all.
		paid := 0
		for _, r := range got.Requests {
			if r.Paid {
				paid++
			}
		}
		if paid != 1 || len(got.Requests) != 3+2*rounds || !got.Requests[1].SignIn || got.Requests[1].Status != 402 ||
			!strings.Contains(got.Requests[1].Error, "no access window") || !got.Requests[2].Paid || !got.Requests[4].SignIn || got.Requests[4].Status != 200 {
			t.Fatalf("the client's requests: %+v", got.Requests)
		}
		if got.Replay == nil || got.Replay.Status != 402 || !strings.Contains(got.Replay.Error, "nonce was used") {
			t.Fatalf("the last proof replayed: %+v", got.Replay)
		}
		if got.Proof["domain"] != strings.TrimPrefix(e.api, "http://") || got.Proof["uri"] != e.api+"/window/report" || got.Proof["chainId"] != "eip155:31337" {
			t.Fatalf("the proof the client signed: %v", got.Proof)
		}
		if n := hits.Load(); n != 1+rounds {
			t.Fatalf("the upstream served %d times, want %d", n, 1+rounds)
		}
		paidOnce(t, 1)
		slices.Sort(got.Millis)
		t.Logf("sign-in-with-x (@x402/fetch: 402, sign, retry): median %.1f ms over %d requests in the window, 0 gas; the window's payment used %d gas",
			got.Millis[len(got.Millis)/2], len(got.Millis), receipt.GasUsed)
	})

	// browser is a client with a cookie jar that pays 402s with key.
	browser := func(key uint32) *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{Jar: jar, Transport: &client.Transport{Key: mustKey(t, key), MaxAmount: big.NewInt(10_000)}}
	}
	fetch := func(t *testing.T, c *http.Client, url string, header ...string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", url, nil)
		for i := 0; i+1 < len(header); i += 2 {
			if header[i] == "Host" {
				req.Host = header[i+1]
			} else {
				req.Header.Set(header[i], header[i+1])
			}
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(body)
	}

	t.Run("cookie", func(t *testing.T) {
		b := browser(5)
		resp, body := fetch(t, b, e.api+"/window/report")
		if resp.StatusCode != 200 || resp.Header.Get(x402.HeaderPaymentResponse) == "" || !strings.Contains(body, paidMarker) {
			t.Fatalf("paying: %d %s", resp.StatusCode, body)
		}
		paidOnce(t, 2)
		cookies := b.Jar.Cookies(resp.Request.URL)
		if len(cookies) != 1 {
			t.Fatalf("cookies %v", cookies)
		}
		// The cookie is scoped to the route's paths: a browser does not
		// send it to a free route, and a free route's upstream does not
		// get it (nor a sign-in proof) even when a client sends it there.
		if c := paid(resp.Cookies()); c == nil || c.Path != "/window" {
			t.Fatalf("the access cookie %+v, want Path=/window", c)
		}
		free, _ := url.Parse(e.api + "/free/x")
		if got := b.Jar.Cookies(free); len(got) != 0 {
			t.Fatalf("a browser sends %v to a free route", got)
		}
		freeBefore := hits.Load()
		if resp, _ := fetch(t, http.DefaultClient, e.api+"/free/x", "Cookie", cookies[0].Name+"="+cookies[0].Value+"; theme=dark", "Sign-In-With-X", "a proof"); resp.StatusCode != 200 || hits.Load() != freeBefore+1 {
			t.Fatalf("the free route: %d", resp.StatusCode)
		}
		plain := &http.Client{Jar: b.Jar} // no payer: a payment cannot slip in
		before := hits.Load()
		var took []time.Duration
		for range 20 {
			began := time.Now()
			resp, body := fetch(t, plain, e.api+"/window/other/path")
			took = append(took, time.Since(began))
			if resp.StatusCode != 200 || resp.Header.Get(x402.HeaderPaymentResponse) != "" || !strings.Contains(body, paidMarker) {
				t.Fatalf("in the window: %d %s", resp.StatusCode, body)
			}
		}
		if hits.Load() != before+20 {
			t.Fatalf("the upstream served %d of 20", hits.Load()-before)
		}
		paidOnce(t, 2)
		// From another origin (another Host of the same server), the
		// cookie is refused with a fresh 402.
		c := cookies[0]
		resp, _ = fetch(t, http.DefaultClient, e.api+"/window/report", "Host", fmt.Sprintf("localhost:%d", ports["site"]), "Cookie", c.Name+"="+c.Value)
		if pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired)); resp.StatusCode != 402 || err != nil || !strings.Contains(pr.Error, "access_denied") {
			t.Fatalf("the cookie from another origin: %d %v", resp.StatusCode, err)
		}
		slices.Sort(took)

		// Sign-in-with-x signed in Go: a 402 for a fresh nonce, then the
		// signed retry (two round trips, one signature).
		var signTook []time.Duration
		for range 20 {
			began := time.Now()
			resp, _ := fetch(t, http.DefaultClient, e.api+"/window/report")
			proof := signInProof(t, resp, mustKey(t, 5))
			resp, _ = fetch(t, http.DefaultClient, e.api+"/window/report", "Sign-In-With-X", proof)
			signTook = append(signTook, time.Since(began))
			if resp.StatusCode != 200 {
				t.Fatalf("a Go sign-in: %d", resp.StatusCode)
			}
		}
		slices.Sort(signTook)

		// Paying each time, on a route without windows.
		payer := &http.Client{Transport: &client.Transport{Key: mustKey(t, 5), MaxAmount: big.NewInt(10_000)}}
		var paidTook []time.Duration
		var gas []uint64
		for range 5 {
			began := time.Now()
			resp, _ := fetch(t, payer, e.api+"/each/report")
			paidTook = append(paidTook, time.Since(began))
			res, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
			if resp.StatusCode != 200 || err != nil {
				t.Fatalf("paying each time: %d %v", resp.StatusCode, err)
			}
			r, err := waitReceipt(eth, res.TransactionHash)
			if err != nil {
				t.Fatal(err)
			}
			gas = append(gas, r.GasUsed)
		}
		slices.Sort(paidTook)
		t.Logf("in the window, 0 gas: cookie median %v over %d (one round trip); sign-in-with-x signed in Go median %v over %d (402, sign, retry). "+
			"Paying each time (402, sign, paid retry, settled on the devnet, which seals at once): median %v over %d, %d gas each",
			took[len(took)/2], len(took), signTook[len(signTook)/2], len(signTook), paidTook[len(paidTook)/2], len(paidTook), gas[0])
	})

	t.Run("budget", func(t *testing.T) {
		b := browser(4)
		plain := &http.Client{Jar: b.Jar}
		if resp, _ := fetch(t, b, e.api+"/budget/report"); resp.StatusCode != 200 || resp.Header.Get(x402.HeaderPaymentResponse) == "" {
			t.Fatalf("paying: %d", resp.StatusCode)
		}
		for i, want := range []int{200, 200, 402} {
			if resp, _ := fetch(t, plain, e.api+"/budget/report"); resp.StatusCode != want {
				t.Fatalf("request %d of a window of 3: %d, want %d", i+2, resp.StatusCode, want)
			}
		}
		// The route's cookie is its own: /window/ does not take it.
		if resp, _ := fetch(t, plain, e.api+"/window/report"); resp.StatusCode != 402 {
			t.Fatalf("the budget route's cookie on another route: %d", resp.StatusCode)
		}
		paidOnce(t, 3)
	})

	if h := leaked.Load(); h != nil {
		t.Fatalf("a proof reached the upstream: %v", h)
	}
}

// paid is the access cookie among cookies, or nil.
func paid(cookies []*http.Cookie) *http.Cookie {
	for _, c := range cookies {
		if strings.HasPrefix(c.Name, "x402_access_") {
			return c
		}
	}
	return nil
}

// signInProof answers the sign-in-with-x challenge of a 402 as
// @x402/extensions' client does, signed by key.
func signInProof(t *testing.T, resp *http.Response, key *ecdsa.PrivateKey) string {
	t.Helper()
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatal(err)
	}
	var ext map[string]siwx.Declaration
	if err := json.Unmarshal(pr.Extensions, &ext); err != nil {
		t.Fatal(err)
	}
	d := ext[siwx.Extension]
	if len(d.SupportedChains) == 0 {
		t.Fatalf("no sign-in-with-x declaration: %s", pr.Extensions)
	}
	stmt := d.Info.Statement
	p := siwx.Payload{
		Domain: d.Info.Domain, Address: crypto.PubkeyToAddress(key.PublicKey).Hex(), Statement: &stmt, URI: d.Info.URI,
		Version: d.Info.Version, ChainID: d.SupportedChains[0].ChainID, Type: d.SupportedChains[0].Type,
		Nonce: d.Info.Nonce, IssuedAt: d.Info.IssuedAt, ExpirationTime: d.Info.ExpirationTime, Resources: d.Info.Resources,
	}
	sig, err := crypto.Sign(accounts.TextHash([]byte(p.Message())), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	p.Signature = "0x" + common.Bytes2Hex(sig)
	raw, _ := json.Marshal(p)
	return base64.StdEncoding.EncodeToString(raw)
}

// TestAccessCaddyfile: the access options parse, and are refused when
// malformed: a duration that is not one, access_key alone, a literal key.
func TestAccessCaddyfile(t *testing.T) {
	t.Parallel()
	const head = "x402 0.01 {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n"
	var h Handler
	if err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(head + " access 1h {\n requests 100\n route reports\n }\n access_key {env.NEW} {env.OLD}\n}")); err != nil {
		t.Fatal(err)
	}
	if a := h.Access; a == nil || time.Duration(a.Duration) != time.Hour || a.Requests != 100 || a.Route != "reports" || len(a.Keys) != 2 {
		t.Fatalf("parsed %+v", h.Access)
	}
	if err := h.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, input, want string }{
		{"no duration", head + " access\n}", "duration"},
		{"a bad duration", head + " access soon\n}", `access "soon"`},
		{"zero requests", head + " access 1h {\n requests 0\n }\n}", "positive whole number"},
		{"unknown option", head + " access 1h {\n colour blue\n }\n}", `unknown x402 access option "colour"`},
		{"no key", head + " access_key\n}", "wrong argument count"},
	} {
		var h Handler
		if err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(c.input)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct{ name, input, want string }{
		{"access_key alone", head + " access_key {env.K}\n}", "access 1h"},
		{"a literal key", head + " access 1h\n access_key s3cr3t-0123456789abcdef0123456789abcdef\n}", "placeholder"},
		{"a price per request", "x402 {vars.price} {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n access 1h\n}", "fixed price"},
	} {
		var h Handler
		if err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(c.input)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := h.Validate(); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

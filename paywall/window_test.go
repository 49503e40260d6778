package paywall_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/siwx"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// storeWindows is the paywall's windows over a real store's.
type storeWindows struct{ ws *store.AccessWindows }

func (s storeWindows) Open(_ context.Context, scope, payer string, d time.Duration, budget int64, tx string) (time.Time, error) {
	w, err := s.ws.Open(scope, payer, d, budget, tx, time.Now())
	return w.Expires, err
}

func (s storeWindows) Use(_ context.Context, scope, payer string) (time.Time, bool, error) {
	w, ok, err := s.ws.Use(scope, payer, time.Now())
	return w.Expires, ok, err
}

func (s storeWindows) Live(_ context.Context, scope, payer string) (bool, error) {
	w, ok, err := s.ws.Lookup(scope, payer)
	return ok && w.Live(time.Now()), err
}

func (s storeWindows) UseNonce(_ context.Context, nonce string, until time.Time) (bool, error) {
	return s.ws.UseNonce(nonce, until, time.Now())
}

func openWindows(t testing.TB) storeWindows {
	t.Helper()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "windows.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w, err := st.Bucket(store.AccessWindowBucket)
	if err != nil {
		t.Fatal(err)
	}
	n, err := st.Bucket(store.SignInNonceBucket)
	if err != nil {
		t.Fatal(err)
	}
	return storeWindows{store.NewAccessWindows(w, n)}
}

// recoverEth is siwx.Recover with go-ethereum.
func recoverEth(hash [32]byte, sig [65]byte) ([20]byte, error) {
	pub, err := crypto.SigToPub(hash[:], sig[:])
	if err != nil {
		return [20]byte{}, err
	}
	return crypto.PubkeyToAddress(*pub), nil
}

var (
	keyA = []byte("an access key of thirty-two bytes, at least")
	keyB = []byte("another access key, also of 32+ bytes")
)

// signIn answers the sign-in challenge of a 402 as @x402/extensions'
// client does, signed by key, after edit changes the payload.
func signIn(t testing.TB, resp *http.Response, key *ecdsa.PrivateKey, edit func(p *siwx.Payload)) string {
	t.Helper()
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatal(err)
	}
	var ext map[string]siwx.Declaration
	if err := json.Unmarshal(pr.Extensions, &ext); err != nil {
		t.Fatal(err)
	}
	d, ok := ext[siwx.Extension]
	if !ok || len(d.SupportedChains) == 0 {
		t.Fatalf("no sign-in-with-x declaration in %s", pr.Extensions)
	}
	stmt := d.Info.Statement
	p := siwx.Payload{
		Domain: d.Info.Domain, Address: crypto.PubkeyToAddress(key.PublicKey).Hex(), Statement: &stmt, URI: d.Info.URI,
		Version: d.Info.Version, ChainID: d.SupportedChains[0].ChainID, Type: d.SupportedChains[0].Type,
		Nonce: d.Info.Nonce, IssuedAt: d.Info.IssuedAt, ExpirationTime: d.Info.ExpirationTime, Resources: d.Info.Resources,
	}
	if edit != nil {
		edit(&p)
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

// fetchWith requests url with the headers given (name, value pairs; Host sets
// the Host).
func fetchWith(t *testing.T, url string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// TestAccessWindow: a paid request opens its payer's window and sets the
// cookie; within the window the payer is served without paying, by a
// sign-in-with-x proof of a fresh 402 or by the cookie, and the merchant
// is paid once. Every other proof gets a fresh 402 that says why, and
// never reaches the handler: a used nonce, a proof for another resource
// or origin, a signature by another key, another payer without a window,
// a forged or re-addressed cookie, a cookie of another origin or route,
// and an expired cookie. Neither proof reaches the handler when served.
func TestAccessWindow(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	windows := openWindows(t)
	var served atomic.Int32
	var leaked atomic.Value
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		if r.Header.Get(siwx.Header) != "" || strings.Contains(r.Header.Get("Cookie"), "x402_access_") {
			leaked.Store(r.Header.Clone())
		}
		report(w, r)
	})
	access := func(route string) func(c *paywall.Config) {
		return func(c *paywall.Config) {
			c.Access = &paywall.Access{Duration: time.Hour, Route: route, Windows: windows, Recover: recoverEth, Keys: [][]byte{keyA}}
		}
	}
	srv := e.serve(upstream, access("reports"))
	other := e.serve(upstream, access("other-route"))
	payer, stranger := e.chain.Accounts[1], e.chain.Accounts[3]
	merchantBefore := e.balance(e.merchant)

	// The 402 declares sign-in-with-x for this origin, this resource and
	// the route's chain, with a fresh nonce each time.
	first, _ := fetchWith(t, srv.URL+"/r")
	var ext map[string]siwx.Declaration
	pr, _ := x402.DecodePaymentRequired(first.Header.Get(x402.HeaderPaymentRequired))
	json.Unmarshal(pr.Extensions, &ext)
	d := ext[siwx.Extension]
	host := strings.TrimPrefix(srv.URL, "http://")
	if d.Info.Domain != host || d.Info.URI != srv.URL+"/r" || len(d.SupportedChains) != 1 || d.SupportedChains[0].ChainID != e.offer.Network ||
		d.SupportedChains[0].Type != "eip191" || len(d.Info.Nonce) != 32 || d.Info.IssuedAt == "" || d.Info.ExpirationTime == "" {
		t.Fatalf("declaration %+v", d)
	}

	// A sign-in before paying is refused: no window. Its nonce is not
	// spent (nothing is written for a payer without a window).
	early := signIn(t, first, payer.Key, nil)
	if resp, _ := fetchWith(t, srv.URL+"/r", siwx.Header, early); resp.StatusCode != 402 ||
		!strings.Contains(challengeError(t, resp), "no access window") {
		t.Fatalf("sign-in before paying: %d %q", resp.StatusCode, challengeError(t, resp))
	}

	// Pay once: the window opens and the cookie is set.
	paid, body := fetchWith(t, srv.URL+"/r", x402.HeaderPaymentSignature, e.paidHeader(payer.Key, e.offer))
	if paid.StatusCode != 200 || !strings.Contains(body, "paid content") {
		t.Fatalf("paid: %d %s", paid.StatusCode, body)
	}
	var cookie *http.Cookie
	for _, c := range paid.Cookies() {
		if strings.HasPrefix(c.Name, "x402_access_") {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Secure || cookie.Path != "/r" ||
		cookie.MaxAge < 3500 || !strings.HasPrefix(cookie.Value, strings.ToLower(payer.Address.Hex())+".") {
		t.Fatalf("cookie %+v (Secure is off only on http to a loopback host)", cookie)
	}
	withCookie := func(c *http.Cookie) string { return c.Name + "=" + c.Value + "; theme=dark" }

	fresh := func() *http.Response { resp, _ := fetchWith(t, srv.URL+"/r"); return resp }
	replayed := signIn(t, fresh(), payer.Key, nil)
	good := []struct {
		name    string
		headers []string
	}{
		{"a sign-in proof", []string{siwx.Header, replayed}},
		{"the sign-in refused before paying", []string{siwx.Header, early}},
		{"another fresh sign-in proof", []string{siwx.Header, signIn(t, fresh(), payer.Key, nil)}},
		{"the cookie", []string{"Cookie", withCookie(cookie)}},
	}
	for _, c := range good {
		before := served.Load()
		resp, body := fetchWith(t, srv.URL+"/r", c.headers...)
		if resp.StatusCode != 200 || !strings.Contains(body, "paid content") || served.Load() != before+1 {
			t.Fatalf("%s: %d %s", c.name, resp.StatusCode, body)
		}
	}

	forged := *cookie
	forged.Value = cookie.Value[:len(cookie.Value)-4] + "AAAA"
	readdressed := *cookie
	readdressed.Value = strings.ToLower(stranger.Address.Hex()) + cookie.Value[42:]
	renamed := *cookie // route 1's cookie under route 2's name
	renamed.Name = "x402_access_" + cookieSuffix("other-route")
	expired := *cookie
	expired.Value = strings.ToLower(payer.Address.Hex()) + ".1000000000." + cookie.Value[strings.LastIndex(cookie.Value, ".")+1:]
	strangerKey, _ := crypto.GenerateKey()
	bad := []struct {
		name, url string
		headers   []string
		why       string
	}{
		{"a used nonce", srv.URL + "/r", []string{siwx.Header, replayed}, "nonce was used"},
		{"a proof for another resource", srv.URL + "/other", []string{siwx.Header, signIn(t, fresh(), payer.Key, nil)}, "not this resource"},
		{"a proof for another origin", srv.URL + "/r", []string{"Host", "localhost:" + strings.Split(host, ":")[1], siwx.Header, signIn(t, fresh(), payer.Key, nil)}, "not of this origin"},
		{"a proof naming another domain", srv.URL + "/r", []string{siwx.Header, signIn(t, fresh(), payer.Key, func(p *siwx.Payload) { p.Domain = "evil.example" })}, "domain"},
		{"a proof signed by another key", srv.URL + "/r", []string{siwx.Header, signIn(t, fresh(), strangerKey, func(p *siwx.Payload) { p.Address = payer.Address.Hex() })}, "signature"},
		{"a proof from another chain", srv.URL + "/r", []string{siwx.Header, signIn(t, fresh(), payer.Key, func(p *siwx.Payload) { p.ChainID = "eip155:1" })}, "chain"},
		{"an old proof", srv.URL + "/r", []string{siwx.Header, signIn(t, fresh(), payer.Key, func(p *siwx.Payload) {
			p.IssuedAt, p.ExpirationTime = time.Now().Add(-10*time.Minute).UTC().Format(time.RFC3339), ""
		})}, "five minutes"},
		{"another payer's proof", srv.URL + "/r", []string{siwx.Header, signIn(t, fresh(), stranger.Key, nil)}, "no access window"},
		{"a proof for another route", other.URL + "/r", []string{siwx.Header, signIn(t, func() *http.Response { r, _ := fetchWith(t, other.URL+"/r"); return r }(), payer.Key, nil)}, "no access window"},
		{"a forged cookie", srv.URL + "/r", []string{"Cookie", withCookie(&forged)}, "not signed"},
		{"a cookie naming another payer", srv.URL + "/r", []string{"Cookie", withCookie(&readdressed)}, "not signed"},
		{"a cookie of another origin", srv.URL + "/r", []string{"Host", "localhost:" + strings.Split(host, ":")[1], "Cookie", withCookie(cookie)}, "not signed"},
		{"a cookie of another route", other.URL + "/r", []string{"Cookie", withCookie(&renamed)}, "not signed"},
		{"a cookie with its end moved", srv.URL + "/r", []string{"Cookie", withCookie(&expired)}, "not signed"},
	}
	for _, c := range bad {
		before := served.Load()
		resp, _ := fetchWith(t, c.url, c.headers...)
		if resp.StatusCode != 402 || served.Load() != before {
			t.Fatalf("%s: %d, handler ran %d times", c.name, resp.StatusCode, served.Load()-before)
		}
		if msg := challengeError(t, resp); !strings.Contains(msg, "access_denied") || !strings.Contains(msg, c.why) {
			t.Fatalf("%s: 402 says %q, want %q", c.name, msg, c.why)
		}
		// The refusal is a fresh challenge: a new nonce to sign.
		var again map[string]siwx.Declaration
		pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if json.Unmarshal(pr.Extensions, &again); again[siwx.Extension].Info.Nonce == "" || again[siwx.Extension].Info.Nonce == d.Info.Nonce {
			t.Fatalf("%s: the 402 has no fresh nonce: %s", c.name, pr.Extensions)
		}
	}
	if h := leaked.Load(); h != nil {
		t.Fatalf("a proof reached the handler: %v", h)
	}
	if got := e.balance(e.merchant).Int64() - merchantBefore.Int64(); got != price {
		t.Fatalf("the merchant got %d for one payment and its window, want %d", got, price)
	}
}

// cookieSuffix is the suffix of a route's cookie name, as the paywall
// makes it from the route's name.
func cookieSuffix(route string) string {
	sum := sha256.Sum256([]byte(route))
	return hex.EncodeToString(sum[:6])
}

// TestAccessWindowBudgetAndExpiry: a window of three requests serves the
// paid one and two more, then refuses; a window that ended refuses the
// cookie and the sign-in alike, and a new payment opens a new one.
func TestAccessWindowBudgetAndExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	windows := openWindows(t)
	srv := e.serve(report, func(c *paywall.Config) {
		c.Access = &paywall.Access{Duration: time.Hour, Requests: 3, Route: "budget", Windows: windows, Recover: recoverEth, Keys: [][]byte{keyA}}
	})
	short := e.serve(report, func(c *paywall.Config) {
		c.Access = &paywall.Access{Duration: 2 * time.Second, Route: "short", Windows: windows, Recover: recoverEth, Keys: [][]byte{keyA}}
	})
	payer := e.chain.Accounts[1]
	paid, _ := fetchWith(t, srv.URL+"/r", x402.HeaderPaymentSignature, e.paidHeader(payer.Key, e.offer))
	if paid.StatusCode != 200 || len(paid.Cookies()) != 1 {
		t.Fatalf("paid: %d %v", paid.StatusCode, paid.Cookies())
	}
	c := paid.Cookies()[0]
	for i, want := range []int{200, 200, 402} {
		if resp, _ := fetchWith(t, srv.URL+"/r", "Cookie", c.Name+"="+c.Value); resp.StatusCode != want {
			t.Fatalf("request %d of the window: %d, want %d", i+2, resp.StatusCode, want)
		}
	}
	challenge, _ := fetchWith(t, srv.URL+"/r")
	if resp, _ := fetchWith(t, srv.URL+"/r", siwx.Header, signIn(t, challenge, payer.Key, nil)); resp.StatusCode != 402 {
		t.Fatalf("a sign-in past the budget: %d", resp.StatusCode)
	}

	paid, _ = fetchWith(t, short.URL+"/r", x402.HeaderPaymentSignature, e.paidHeader(payer.Key, e.offer))
	if paid.StatusCode != 200 {
		t.Fatalf("paid: %d", paid.StatusCode)
	}
	c = paid.Cookies()[0]
	challenge, _ = fetchWith(t, short.URL+"/r")
	proof := signIn(t, challenge, payer.Key, nil)
	time.Sleep(2100 * time.Millisecond) // the window ends
	for _, h := range [][]string{{"Cookie", c.Name + "=" + c.Value}, {siwx.Header, proof}} {
		if resp, _ := fetchWith(t, short.URL+"/r", h...); resp.StatusCode != 402 || !strings.Contains(challengeError(t, resp), "access_denied") {
			t.Fatalf("%s after the window: %d", h[0], resp.StatusCode)
		}
	}
	if paid, _ = fetchWith(t, short.URL+"/r", x402.HeaderPaymentSignature, e.paidHeader(payer.Key, e.offer)); paid.StatusCode != 200 {
		t.Fatalf("paying again: %d", paid.StatusCode)
	}
	c = paid.Cookies()[0]
	if resp, _ := fetchWith(t, short.URL+"/r", "Cookie", c.Name+"="+c.Value); resp.StatusCode != 200 {
		t.Fatalf("the new window: %d", resp.StatusCode)
	}
}

// TestAccessKeyRotation: during a rotation (the new key first, the old
// one after it) a cookie signed with the old key is still honoured and
// new cookies are signed with the new key; once the old key is dropped,
// its cookies are refused.
func TestAccessKeyRotation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	windows := openWindows(t)
	with := func(keys ...[]byte) *httptest.Server {
		return e.serve(report, func(c *paywall.Config) {
			c.Access = &paywall.Access{Duration: time.Hour, Route: "rotated", Windows: windows, Keys: keys}
		})
	}
	before, during, after := with(keyA), with(keyB, keyA), with(keyB)
	payer := e.chain.Accounts[1]
	paid, _ := fetchWith(t, before.URL+"/r", x402.HeaderPaymentSignature, e.paidHeader(payer.Key, e.offer))
	old := paid.Cookies()[0]
	// The servers differ by port, so the cookie is re-signed for each
	// origin as its own server would; here the same origin is kept by
	// sending the first server's Host.
	hostOf := strings.TrimPrefix(before.URL, "http://")
	for _, c := range []struct {
		name string
		srv  *httptest.Server
		want int
	}{
		{"the old key's cookie during the rotation", during, 200},
		{"the old key's cookie after it", after, 402},
	} {
		if resp, _ := fetchWith(t, c.srv.URL+"/r", "Host", hostOf, "Cookie", old.Name+"="+old.Value); resp.StatusCode != c.want {
			t.Fatalf("%s: %d, want %d", c.name, resp.StatusCode, c.want)
		}
	}
	req, _ := http.NewRequest("GET", during.URL+"/r", nil)
	req.Host = hostOf
	req.Header.Set(x402.HeaderPaymentSignature, e.paidHeader(payer.Key, e.offer))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	renewed := resp.Cookies()[0]
	if r, _ := fetchWith(t, after.URL+"/r", "Host", hostOf, "Cookie", renewed.Name+"="+renewed.Value); r.StatusCode != 200 {
		t.Fatalf("the new key's cookie after the rotation: %d", r.StatusCode)
	}
}

// TestAccessConfigValidate: a window needs a duration and a store, and a
// cookie key of at least 32 bytes.
func TestAccessConfigValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		access paywall.Access
	}{
		{"no duration", paywall.Access{Windows: storeWindows{}}},
		{"no store", paywall.Access{Duration: time.Hour}},
		{"a short key", paywall.Access{Duration: time.Hour, Windows: storeWindows{}, Keys: [][]byte{[]byte("short")}}},
		{"negative requests", paywall.Access{Duration: time.Hour, Windows: storeWindows{}, Requests: -1}},
	} {
		cfg := paywall.Config{Accepts: []x402.PaymentRequirements{{Scheme: "exact", Network: "eip155:1", Amount: "1", Asset: "0x0000000000000000000000000000000000000001", PayTo: "0x0000000000000000000000000000000000000002"}},
			Facilitator: nil, Access: &c.access}
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "access") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// BenchmarkAccessWindow measures the paywall's work on a request served
// from a window, with its windows in a bbolt store on disk: with the
// cookie (an HMAC and a read of the window, or with a budget a durable
// write that spends one request of it), and with sign-in-with-x (the 402
// that issues the challenge, then the signature's recovery, the read and
// the durable write of the nonce; the client's signing is not timed). Compare
// BenchmarkPaidRequest, the paywall's own work on a paid request, which
// adds the facilitator's verification and the settlement on chain.
func BenchmarkAccessWindow(b *testing.B) {
	windows := openWindows(b)
	handler := func(requests int64) http.Handler {
		pw, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{benchOffer}, Facilitator: accepting{},
			Access: &paywall.Access{Duration: time.Hour, Requests: requests, Route: "bench", Windows: windows, Recover: recoverEth, Keys: [][]byte{keyA}}})
		if err != nil {
			b.Fatal(err)
		}
		return pw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "paid content") }))
	}
	h := handler(0)
	serve := func(header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/report", nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	paid := serve(x402.HeaderPaymentSignature, signedPayment(b, benchOffer))
	cookie := paid.Result().Cookies()
	if paid.Code != 200 || len(cookie) != 1 {
		b.Fatalf("paid: %d %v", paid.Code, cookie)
	}
	b.Run("cookie", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if rec := serve("Cookie", cookie[0].Name+"="+cookie[0].Value); rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
	b.Run("cookie with a budget", func(b *testing.B) {
		h = handler(1 << 40)
		defer func() { h = handler(0) }()
		paid := serve(x402.HeaderPaymentSignature, signedPayment(b, benchOffer))
		c := paid.Result().Cookies()[0]
		b.ReportAllocs()
		for b.Loop() {
			if rec := serve("Cookie", c.Name+"="+c.Value); rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
	b.Run("sign-in-with-x", func(b *testing.B) {
		key, _ := crypto.GenerateKey()
		payer := strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex())
		if _, err := windows.ws.Open("bench|http://example.com", payer, time.Hour, 0, "0x", time.Now()); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			challenge := serve().Result()
			b.StopTimer()
			proof := signIn(b, challenge, key, nil)
			b.StartTimer()
			if rec := serve(siwx.Header, proof); rec.Code != 200 {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}

package paywall_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

const price = 10_000 // 0.01 dUSD

type env struct {
	t        *testing.T
	chain    *devnet.Devnet
	eth      *ethclient.Client
	fac      *facilitator.Service
	merchant common.Address
	offer    x402.PaymentRequirements
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOn(t, 0)
}

// newEnvOn is newEnv on a devnet with chainID (0: the devnet's default),
// which stands for the real chain of that id.
func newEnvOn(t *testing.T, chainID uint64) *env {
	t.Helper()
	d, err := devnet.Start(context.Background(), devnet.Config{Addr: "127.0.0.1:0", ChainID: chainID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	network := x402.FormatNetwork(d.ChainID.Uint64())
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	chain, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(chain.Close)
	fac, err := facilitator.New(context.Background(), facilitator.Config{
		Network: network, Chain: chain, Records: st, SettlerKey: d.Accounts[0].Key,
		Assets:         []facilitator.Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}},
		ReceiptTimeout: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fac.Close() })
	merchant := d.Accounts[2].Address
	return &env{t: t, chain: d, eth: eth, fac: fac, merchant: merchant, offer: x402.PaymentRequirements{
		Scheme: x402.SchemeExact, Network: network, Amount: big.NewInt(price).String(),
		Asset: d.Token.Address.Hex(), PayTo: merchant.Hex(),
		Extra: &x402.Extra{Name: d.Token.Name, Version: d.Token.Version},
	}}
}

// serve puts handler behind a paywall on an HTTP server.
func (e *env) serve(handler http.Handler, mutate func(*paywall.Config)) *httptest.Server {
	e.t.Helper()
	cfg := paywall.Config{
		Accepts: []x402.PaymentRequirements{e.offer}, Facilitator: e.fac,
		Description: "a paid report", MimeType: "application/json",
		AssetDecimals: map[string]uint8{strings.ToLower(e.offer.Asset): 6},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	pw, err := paywall.New(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	srv := httptest.NewServer(pw.Handler(handler))
	e.t.Cleanup(srv.Close)
	return srv
}

func (e *env) payer(key *ecdsa.PrivateKey) *http.Client {
	return &http.Client{Transport: &client.Transport{Key: key, MaxAmount: big.NewInt(price)}}
}

func (e *env) balance(who common.Address) *big.Int {
	e.t.Helper()
	token := contracts.NewDevUSD()
	to := e.chain.Token.Address
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: token.PackBalanceOf(who)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	v, _ := token.UnpackBalanceOf(out)
	return v
}

var report = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Upstream", "yes")
	io.WriteString(w, `{"report":"paid content"}`)
})

func TestChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := e.serve(report, nil)

	req, _ := http.NewRequest("GET", srv.URL+"/paid/report?day=1", nil)
	req.Header.Set("X-Forwarded-Host", "evil.example")
	req.Header.Set("X-Forwarded-Proto", "https")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("unpaid: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatal(err)
	}
	var fromBody x402.PaymentRequired
	if err := json.Unmarshal(body, &fromBody); err != nil {
		t.Fatal(err)
	}
	if pr.Accepts[0].Amount != "10000" || pr.Accepts[0].MaxTimeoutSeconds != 60 || fromBody.Accepts[0].PayTo != e.offer.PayTo || pr.Accepts[0].Extra.Name != "Devnet USD" {
		t.Fatalf("challenge = %+v", pr)
	}
	if want := srv.URL + "/paid/report?day=1"; pr.Resource.URL != want {
		t.Fatalf("resource URL %q, want %q (client X-Forwarded-* must not be trusted)", pr.Resource.URL, want)
	}
	if !strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "PAYMENT-REQUIRED, PAYMENT-RESPONSE") {
		t.Fatalf("CORS expose = %q", resp.Header.Get("Access-Control-Expose-Headers"))
	}

	// A browser gets a page, with the same header.
	req, _ = http.NewRequest("GET", srv.URL+"/paid/report", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 402 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(page), "0.01 Devnet USD") || resp.Header.Get(x402.HeaderPaymentRequired) == "" {
		t.Fatalf("browser: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), page)
	}

	// The configured origin wins over the Host.
	srv2 := e.serve(report, func(c *paywall.Config) { c.Origin = "https://api.example.com" })
	resp, _ = http.Get(srv2.URL + "/x")
	resp.Body.Close()
	pr, _ = x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if pr.Resource.URL != "https://api.example.com/x" {
		t.Fatalf("resource URL with origin = %q", pr.Resource.URL)
	}
}

func TestPaidRequestSettles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var calls atomic.Int32
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		report(w, r)
	}), nil)
	payer := e.chain.Accounts[1]
	before, merchantBefore := e.balance(payer.Address), e.balance(e.merchant)

	resp, err := e.payer(payer.Key).Get(srv.URL + "/paid/report")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != `{"report":"paid content"}` || resp.Header.Get("X-Upstream") != "yes" {
		t.Fatalf("paid: %d %s", resp.StatusCode, body)
	}
	receipt, ok, err := client.Receipt(resp)
	if !ok || err != nil || !receipt.Success || receipt.Payer != payer.Address.Hex() {
		t.Fatalf("PAYMENT-RESPONSE = %+v, %v", receipt, err)
	}
	r, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(receipt.TransactionHash))
	if err != nil || r.Status != 1 {
		t.Fatalf("on-chain receipt %v %v", r, err)
	}
	if got := new(big.Int).Sub(e.balance(e.merchant), merchantBefore); got.Int64() != price {
		t.Fatalf("merchant got %s, want %d", got, price)
	}
	if got := new(big.Int).Sub(before, e.balance(payer.Address)); got.Int64() != price {
		t.Fatalf("payer paid %s, want %d", got, price)
	}
	if calls.Load() != 1 {
		t.Fatalf("upstream called %d times", calls.Load())
	}
}

// paidHeader returns a valid PAYMENT-SIGNATURE for the env's offer.
func (e *env) paidHeader(key *ecdsa.PrivateKey, offer x402.PaymentRequirements) string {
	e.t.Helper()
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(price)}
	p, err := tr.Pay(&x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{offer}}, &offer)
	if err != nil {
		e.t.Fatal(err)
	}
	h, err := x402.EncodeHeader(p)
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

func do(t *testing.T, url, header string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if header != "" {
		req.Header.Set(x402.HeaderPaymentSignature, header)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

func challengeError(t *testing.T, resp *http.Response) string {
	t.Helper()
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatalf("no challenge on %d: %v", resp.StatusCode, err)
	}
	return pr.Error
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	failing := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream broke", http.StatusInternalServerError)
	}), nil)
	srv := e.serve(report, nil)
	payer := e.chain.Accounts[3]

	t.Run("upstream 500 is not charged", func(t *testing.T) {
		before := e.balance(payer.Address)
		h := e.paidHeader(payer.Key, e.offer)
		resp, body := do(t, failing.URL, h)
		if resp.StatusCode != 500 || !strings.Contains(body, "upstream broke") || resp.Header.Get(x402.HeaderPaymentResponse) != "" {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
		if e.balance(payer.Address).Cmp(before) != 0 {
			t.Fatal("payer was charged for a failed upstream")
		}
		// The unspent payment still buys one response elsewhere.
		if resp, _ := do(t, srv.URL, h); resp.StatusCode != 200 {
			t.Fatalf("reusing the unspent payment: %d", resp.StatusCode)
		}
	})
	t.Run("replayed payment", func(t *testing.T) {
		h := e.paidHeader(payer.Key, e.offer)
		if resp, _ := do(t, srv.URL, h); resp.StatusCode != 200 {
			t.Fatalf("first use: %d", resp.StatusCode)
		}
		before := e.balance(e.merchant)
		resp, body := do(t, srv.URL, h)
		if resp.StatusCode != 402 || !strings.HasPrefix(challengeError(t, resp), "replay") || strings.Contains(body, "paid content") {
			t.Fatalf("replay: %d %s", resp.StatusCode, body)
		}
		if e.balance(e.merchant).Cmp(before) != 0 {
			t.Fatal("a replay moved money")
		}
	})
	tampered := []struct {
		name   string
		mutate func(o *x402.PaymentRequirements)
		reason string
	}{
		{"amount", func(o *x402.PaymentRequirements) { o.Amount = "1" }, "amount_mismatch"},
		{"payTo", func(o *x402.PaymentRequirements) { o.PayTo = e.chain.Accounts[9].Address.Hex() }, "invalid_inner_payload"},
		{"asset", func(o *x402.PaymentRequirements) { o.Asset = e.chain.Contracts.Settlement.Hex() }, "asset_not_allowed"},
		{"network", func(o *x402.PaymentRequirements) { o.Network = "eip155:1" }, "network_mismatch"},
		{"scheme", func(o *x402.PaymentRequirements) { o.Scheme = "upto" }, "scheme_mismatch"},
	}
	for _, tc := range tampered {
		t.Run("tampered "+tc.name, func(t *testing.T) {
			o := e.offer
			tc.mutate(&o)
			resp, _ := do(t, srv.URL, e.paidHeader(payer.Key, o))
			if got := challengeError(t, resp); resp.StatusCode != 402 || !strings.HasPrefix(got, tc.reason) {
				t.Fatalf("%d %q, want %s", resp.StatusCode, got, tc.reason)
			}
		})
	}
	t.Run("oversized header", func(t *testing.T) {
		resp, body := do(t, srv.URL, strings.Repeat("A", x402.MaxHeaderSize+1))
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge || !json.Valid([]byte(body)) {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
	})
	t.Run("garbage header", func(t *testing.T) {
		for _, h := range []string{"!!!", base64.StdEncoding.EncodeToString([]byte("{not json")), base64.StdEncoding.EncodeToString([]byte(`{"x402Version":2}`))} {
			resp, body := do(t, srv.URL, h)
			if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(body, "malformed_request") {
				t.Fatalf("%q: %d %s", h, resp.StatusCode, body)
			}
		}
	})
}

// fund gives a fresh key ETH for gas and exactly amount tokens.
func (e *env) fund(amount int64) *ecdsa.PrivateKey {
	e.t.Helper()
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	token := contracts.NewDevUSD()
	e.send(e.chain.Accounts[0].Key, e.chain.Token.Address, token.PackTransfer(addr, big.NewInt(amount)), nil)
	e.send(e.chain.Accounts[0].Key, addr, nil, big.NewInt(1e17))
	return key
}

func (e *env) send(key *ecdsa.PrivateKey, to common.Address, data []byte, value *big.Int) {
	e.t.Helper()
	ctx := context.Background()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, _ := e.eth.PendingNonceAt(ctx, from)
	if value == nil {
		value = new(big.Int)
	}
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &to, Data: data, Value: value, Gas: 100_000,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	// The pool takes in a new block in the background: until it has, a
	// transaction that spends what the last one gave (gas just funded) is
	// judged against the state before it. Send again until the pool has
	// caught up, for as long as a lost transaction would take to notice.
	for deadline := time.Now().Add(time.Minute); ; {
		err := e.eth.SendTransaction(ctx, tx)
		if err == nil {
			break
		}
		if !strings.Contains(err.Error(), "insufficient funds") || time.Now().After(deadline) {
			e.t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if r, err := e.chain.Wait(ctx, tx.Hash()); err != nil || r.Status != 1 {
		e.t.Fatalf("tx: %v %v", r, err)
	}
}

// A settlement that fails after the handler ran drops the handler's answer
// and returns 402 with the failure in PAYMENT-RESPONSE.
func TestSettleFailureDropsTheResponse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.fund(price)
	addr := crypto.PubkeyToAddress(key.PublicKey)
	token := contracts.NewDevUSD()
	// The handler spends the payer's tokens while the request is served, so
	// the verified payment can no longer settle.
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.send(key, e.chain.Token.Address, token.PackTransfer(e.chain.Accounts[8].Address, big.NewInt(price)), nil)
		w.Header().Set("X-Secret", "upstream")
		io.WriteString(w, "SECRET UPSTREAM BODY")
	}), nil)
	resp, body := do(t, srv.URL, e.paidHeader(key, e.offer))
	if resp.StatusCode != 402 || strings.Contains(body, "SECRET") || resp.Header.Get("X-Secret") != "" {
		t.Fatalf("%d %q (headers %v)", resp.StatusCode, body, resp.Header)
	}
	res, ok, err := client.Receipt(resp)
	if !ok || err != nil || res.Success || res.ErrorCode != x402.ErrorVerifyFailed || !strings.Contains(res.Message, "insufficient balance") {
		t.Fatalf("PAYMENT-RESPONSE = %+v %v", res, err)
	}
	if e.balance(addr).Sign() != 0 || e.balance(e.merchant).Cmp(e.balance(e.chain.Accounts[2].Address)) != 0 {
		t.Fatal("unexpected balances")
	}
}

// When settlement's outcome cannot be known (the chain is gone), the answer
// is 503 with Retry-After, never 402, and nothing is served.
func TestTransientSettlementIs503(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.chain.Close()
		io.WriteString(w, "SECRET")
	}), nil)
	resp, body := do(t, srv.URL, e.paidHeader(e.chain.Accounts[1].Key, e.offer))
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || strings.Contains(body, "SECRET") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
}

func TestSettleBefore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	payer := e.chain.Accounts[4]
	before := e.balance(e.merchant)
	var paidBeforeHandler bool
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paidBeforeHandler = new(big.Int).Sub(e.balance(e.merchant), before).Int64() == price
		io.WriteString(w, "done")
	}), func(c *paywall.Config) { c.SettleBefore = true })
	resp, err := e.payer(payer.Key).Post(srv.URL, "text/plain", strings.NewReader("order"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !paidBeforeHandler || resp.Header.Get(x402.HeaderPaymentResponse) == "" {
		t.Fatalf("%d, paid before handler: %v", resp.StatusCode, paidBeforeHandler)
	}
}

// A large body streams after settlement: the client reads the first chunk
// while the handler has not written the rest.
func TestStreamingAfterSettlement(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	firstRead := make(chan struct{})
	const chunk, chunks = 256 << 10, 16 // 4 MiB
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := []byte(strings.Repeat("x", chunk))
		w.Write(buf)
		http.NewResponseController(w).Flush()
		select {
		case <-firstRead:
		case <-time.After(10 * time.Second):
			t.Error("the first chunk did not reach the client before the handler finished: buffered")
		}
		for i := 1; i < chunks; i++ {
			w.Write(buf)
		}
	}), nil)
	resp, err := e.payer(e.chain.Accounts[5].Key).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get(x402.HeaderPaymentResponse) == "" {
		t.Fatalf("status %d", resp.StatusCode)
	}
	first := make([]byte, chunk)
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatal(err)
	}
	close(firstRead)
	rest, _ := io.Copy(io.Discard, resp.Body)
	if total := int64(chunk) + rest; total != chunk*chunks {
		t.Fatalf("read %d bytes, want %d", total, chunk*chunks)
	}
}

// Two requests with the same payment at once: one response, one transfer.
func TestConcurrentReuse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	release, reached := make(chan struct{}), make(chan struct{}, 4)
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		<-release
		io.WriteString(w, "ok")
	}), nil)
	h := e.paidHeader(e.chain.Accounts[6].Key, e.offer)
	before := e.balance(e.merchant)
	var (
		wg    sync.WaitGroup
		codes = make([]int, 4)
		done  = make(chan struct{}, 4)
	)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := do(t, srv.URL, h)
			codes[i] = resp.StatusCode
			done <- struct{}{}
		}()
	}
	// One request holds the payment in the upstream; the other three are
	// refused while it does.
	<-reached
	for range 3 {
		<-done
	}
	close(release)
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == 200 {
			ok++
		} else if c != 402 {
			t.Errorf("status %d", c)
		}
	}
	if ok != 1 {
		t.Fatalf("statuses %v: want exactly one 200", codes)
	}
	if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != price {
		t.Fatalf("merchant got %s", got)
	}
}

func TestParsePrice(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		dec  uint8
		want string
	}{
		{"0.01", 6, "10000"}, {"1", 6, "1000000"}, {"1.5", 6, "1500000"}, {".5", 6, "500000"},
		{"0.000001", 6, "1"}, {"0.0000001", 6, ""}, {"0", 6, ""}, {"-1", 6, ""}, {"1e3", 6, ""},
		{"", 6, ""}, {"1.2.3", 6, ""}, {"12", 0, "12"}, {"0.1", 18, "100000000000000000"},
	}
	for _, tc := range tests {
		got, err := paywall.ParsePrice(tc.in, tc.dec)
		if (tc.want == "") != (err != nil) || got != tc.want {
			t.Errorf("ParsePrice(%q, %d) = %q, %v; want %q", tc.in, tc.dec, got, err, tc.want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	if _, err := paywall.New(paywall.Config{}); err == nil || !strings.Contains(err.Error(), "no offers") {
		t.Fatalf("empty config: %v", err)
	}
	if _, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{{Scheme: "exact"}}, Origin: "api.example.com"}); err == nil {
		t.Fatal("bad offer and origin accepted")
	}
	// A window is sold at one price: a per-request price would sell it at
	// the cheapest request's.
	err := (&paywall.Config{
		Accepts: []x402.PaymentRequirements{{Scheme: "exact", Network: "eip155:31337", Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9", PayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", MaxTimeoutSeconds: 60}},
		Pricer:  func(*http.Request) (paywall.Quote, error) { return paywall.Quote{}, nil },
		Access:  &paywall.Access{Duration: time.Hour},
	}).Validate()
	if err == nil || !strings.Contains(err.Error(), "access windows need a fixed price") {
		t.Fatalf("access windows with a Pricer: %v", err)
	}
}

// A next handler that fails without writing (Caddy's reverse_proxy with a
// dead upstream) is not charged: the error goes back to the caller.
func TestServeNextErrorIsNotCharged(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pw, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{e.offer}, Facilitator: e.fac})
	if err != nil {
		t.Fatal(err)
	}
	payer := e.chain.Accounts[7]
	before := e.balance(payer.Address)
	broken := errors.New("upstream unreachable")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := pw.ServeNext(w, r, func(http.ResponseWriter, *http.Request) error { return broken }); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	resp, body := do(t, srv.URL, e.paidHeader(payer.Key, e.offer))
	if resp.StatusCode != http.StatusBadGateway || resp.Header.Get(x402.HeaderPaymentResponse) != "" || !strings.Contains(body, "unreachable") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if e.balance(payer.Address).Cmp(before) != 0 {
		t.Fatal("charged for a failed upstream")
	}
}

// Two routes with the same price and payee, sharing a Guard: one payment
// presented to both at once buys one response.
func TestGuardAcrossRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	release, reached := make(chan struct{}), make(chan struct{}, 2)
	guard := new(paywall.Guard)
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		<-release
		io.WriteString(w, "ok")
	})
	a := e.serve(slow, func(c *paywall.Config) { c.Guard = guard })
	b := e.serve(slow, func(c *paywall.Config) { c.Guard = guard })
	h := e.paidHeader(e.chain.Accounts[8].Key, e.offer)
	before := e.balance(e.merchant)
	var (
		wg    sync.WaitGroup
		codes [2]int
		done  = make(chan struct{}, 2)
	)
	for i, srv := range []*httptest.Server{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := do(t, srv.URL, h)
			codes[i] = resp.StatusCode
			done <- struct{}{}
		}()
	}
	// One route holds the payment in its upstream; the other refuses it
	// meanwhile.
	<-reached
	<-done
	close(release)
	wg.Wait()
	if !(codes[0] == 200 && codes[1] == 402 || codes[0] == 402 && codes[1] == 200) {
		t.Fatalf("statuses %v: want one 200 and one 402", codes)
	}
	if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != price {
		t.Fatalf("merchant got %s", got)
	}
}

// A handler that answers 101 to a request that asked for no upgrade, and
// takes the connection, is settled first, as any success is: 101 is
// final, not an informational status that passes through unpaid.
func TestSwitchingProtocolsIsSettled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusSwitchingProtocols)
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		buf.WriteString("the paid content")
		buf.Flush()
		conn.Close()
	}), nil)
	payer := e.chain.Accounts[6]
	before := e.balance(payer.Address)
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set(x402.HeaderPaymentSignature, e.paidHeader(payer.Key, e.offer))
	if resp, err := http.DefaultClient.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if paid := new(big.Int).Sub(before, e.balance(payer.Address)); paid.Int64() != price {
		t.Fatalf("the payer paid %s for a response that switched protocols, want %d", paid, price)
	}
}

package paywall_test

// The browser tests drive the paywall page in a real headless Chromium
// against a paywall on the real devnet, with a test wallet: an EIP-1193
// provider injected before the page's scripts, announced by EIP-6963 and
// set as window.ethereum, which hands every request to Go (a chromedp
// binding). Go answers as a wallet does: it signs typed data with a devnet
// key, reads the chain through the devnet's RPC, and switches networks. It
// needs Debian's chromium (apt-get install chromium) and skips without it,
// unless X402_TEST_BROWSER=1 says it must run.

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// chromium is the Chromium to drive: /usr/bin/chromium or chromium on
// PATH. Without one the test skips, or fails under X402_TEST_BROWSER=1.
func chromium(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("X402_TEST_BROWSER") == "1" {
		t.Fatal("X402_TEST_BROWSER=1 but there is no /usr/bin/chromium and no chromium on PATH: apt-get install chromium")
	}
	t.Skip("no Chromium (/usr/bin/chromium or chromium on PATH): apt-get install chromium to run the browser test; X402_TEST_BROWSER=1 makes its absence a failure")
	return ""
}

// pageBrowser is one headless Chromium.
type pageBrowser struct {
	ctx   context.Context
	shots string // the screenshots' directory
}

func newPageBrowser(t *testing.T) *pageBrowser {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1280, 800),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	dir := filepath.Join("..", "artifacts", "paywall")
	if base := os.Getenv("X402_ARTIFACTS_DIR"); base != "" {
		dir = filepath.Join(base, "paywall")
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	t.Logf("screenshots in %s", abs)
	return &pageBrowser{ctx: bctx, shots: abs}
}

// tab is one tab, with a wallet or none.
type tab struct {
	ctx      context.Context
	shots    string
	mu       sync.Mutex
	requests []seen
	bytes    map[network.RequestID]float64 // encoded bytes received, by request
}

// seen is a request the tab made.
type seen struct {
	id      network.RequestID
	url     string
	payment string // its PAYMENT-SIGNATURE
}

func (b *pageBrowser) tab(t *testing.T, w *testWallet) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	tb := &tab{ctx: ctx, shots: b.shots, bytes: map[network.RequestID]float64{}}
	if w != nil {
		tb.do(t, chromedp.ExposeFunc("x402TestWallet", w.handle))
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: strings.Replace(providerJS, "WALLET", fmt.Sprint(w != nil), 1),
	}); err != nil {
		t.Fatal(err)
	}
	tb.do(t, chromedp.EmulateViewport(1280, 800))
	sent, done := chromedp.Events(ctx, network.RequestWillBeSent), chromedp.Events(ctx, network.LoadingFinished)
	go func() {
		for ev, err := range sent {
			if err != nil {
				return
			}
			pay, _ := ev.Request.Headers[x402.HeaderPaymentSignature].(string)
			tb.mu.Lock()
			tb.requests = append(tb.requests, seen{ev.RequestID, ev.Request.URL, pay})
			tb.mu.Unlock()
		}
	}()
	go func() {
		for ev, err := range done {
			if err != nil {
				return
			}
			tb.mu.Lock()
			tb.bytes[ev.RequestID] = ev.EncodedDataLength
			tb.mu.Unlock()
		}
	}()
	return tb
}

func (tb *tab) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func tabValue[T any](t *testing.T, tb *tab, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// open loads url and wants the paywall's 402.
func (tb *tab) open(t *testing.T, url string) {
	t.Helper()
	resp := tabValue(t, tb, chromedp.NavigateResponse(url))
	if resp.Status != http.StatusPaymentRequired {
		t.Fatalf("GET %s: %d, want 402", url, resp.Status)
	}
}

// settled are the page's states that wait for nothing.
var settled = map[string]bool{"no-wallet": true, "refused": true, "error": true, "declined": true, "low-balance": true,
	"wrong-network": true, "ready": true, "paid": true, "unpaid": true, "unpayable": true}

// state waits until the page's state is want (any settled state fails) and
// returns the status line's text.
func (tb *tab) state(t *testing.T, want string) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got := tabValue(t, tb, chromedp.Evaluate[[]string](`[document.getElementById('x402-pay').getAttribute('data-state') || '', (document.getElementById('x402-status') || {}).textContent || '']`))
		if got[0] == want {
			return got[1]
		}
		if (settled[got[0]] && got[0] != "ready") || time.Now().After(deadline) {
			t.Fatalf("the page is %q (%q), want %q", got[0], got[1], want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// has reports whether an element matches sel now.
func (tb *tab) has(t *testing.T, sel string) bool {
	t.Helper()
	return tabValue(t, tb, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector(%q) !== null`, sel)))
}

// text is the text of the element sel.
func (tb *tab) text(t *testing.T, sel string) string {
	t.Helper()
	return strings.TrimSpace(tabValue(t, tb, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ''`, sel))))
}

// shot saves the page at desktop and at phone width, and checks that it
// broke no Content-Security-Policy rule and does not scroll sideways on a
// phone.
func (tb *tab) shot(t *testing.T, name string) {
	t.Helper()
	if csp := tabValue(t, tb, chromedp.Evaluate[[]string](`window.__csp`)); len(csp) > 0 {
		t.Errorf("%s: Content-Security-Policy violations: %q", name, csp)
	}
	save := func(suffix string) {
		png := tabValue(t, tb, chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(tb.shots, name+"-"+suffix+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	save("desktop")
	tb.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	widths := tabValue(t, tb, chromedp.Evaluate[[]int](`[document.documentElement.clientWidth, document.documentElement.scrollWidth]`))
	save("phone")
	tb.do(t, chromedp.EmulateViewport(1280, 800))
	if widths[0] != 390 || widths[1] > widths[0] {
		t.Errorf("%s at phone width: viewport %d px, page %d px wide; want 390 and no sideways scrolling", name, widths[0], widths[1])
	}
}

// shotDark saves the page at desktop width in the dark color scheme.
func (tb *tab) shotDark(t *testing.T, name string) {
	t.Helper()
	dark := func(on bool) {
		params := emulation.SetEmulatedMediaParams{}
		if on {
			params.Features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}
		}
		if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, params); err != nil {
			t.Fatal(err)
		}
	}
	dark(true)
	defer dark(false)
	if err := os.WriteFile(filepath.Join(tb.shots, name+"-dark.png"), tabValue(t, tb, chromedp.FullScreenshot(100)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// seen returns the requests the tab made so far.
func (tb *tab) seen() ([]seen, map[network.RequestID]float64) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	b := make(map[network.RequestID]float64, len(tb.bytes))
	for k, v := range tb.bytes {
		b[k] = v
	}
	return append([]seen(nil), tb.requests...), b
}

// payments counts the PAYMENT-SIGNATURE headers the server got, by value.
type payments struct {
	mu   sync.Mutex
	seen []string
}

func (p *payments) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get(x402.HeaderPaymentSignature); v != "" {
			p.mu.Lock()
			p.seen = append(p.seen, v)
			p.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

func (p *payments) list() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// slowSettle is the embedded facilitator, except that its first
// settlement's outcome is not known (in_flight, which the paywall answers
// with 503) and its second waits until the test lets it go.
type slowSettle struct {
	paywall.Facilitator
	first   atomic.Bool
	arrived chan struct{} // the second settlement has started
	release chan struct{} // lets it run
}

func (s *slowSettle) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	if !s.first.Swap(true) {
		return &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network,
			ErrorCode: x402.ErrorInFlight, Message: "the settlement's receipt has not come yet"}, nil
	}
	select {
	case s.arrived <- struct{}{}:
	default:
	}
	<-s.release
	return s.Facilitator.Settle(ctx, req)
}

func (s *slowSettle) Served(ctx context.Context, req *x402.SettleRequest) error {
	return s.Facilitator.(paywall.Responder).Served(ctx, req)
}

// TestPaywallPageInBrowser pays with the page, from a wallet, on the
// devnet, and looks at each of the page's states: no wallet, ready, paid,
// refused, balance too low, wrong network, and settlement pending.
func TestPaywallPageInBrowser(t *testing.T) {
	b := newPageBrowser(t)
	e := newEnv(t)
	devnetID := e.chain.ChainID.Uint64()
	report := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"report":"paid content","quarter":"Q3","revenue":[12,15,19]}`)
	})
	serveOffers := func(offers []x402.PaymentRequirements, fac paywall.Facilitator, wallets map[string]paywall.WalletNetwork, content http.Handler, template ...string) (*httptest.Server, *payments) {
		pw, err := paywall.New(paywall.Config{
			PageTemplate: strings.Join(template, ""),
			Accepts:      offers, Facilitator: fac,
			Description: "The quarterly report", MimeType: "application/json",
			AssetDecimals:  map[string]uint8{strings.ToLower(e.offer.Asset): 6},
			WalletNetworks: wallets,
		})
		if err != nil {
			t.Fatal(err)
		}
		p := new(payments)
		srv := httptest.NewServer(p.wrap(pw.Handler(content)))
		t.Cleanup(srv.Close)
		return srv, p
	}
	serve := func(fac paywall.Facilitator, wallets map[string]paywall.WalletNetwork, content http.Handler, template ...string) (*httptest.Server, *payments) {
		return serveOffers([]x402.PaymentRequirements{e.offer}, fac, wallets, content, template...)
	}
	srv, paid := serve(e.fac, map[string]paywall.WalletNetwork{x402.FormatNetwork(devnetID): {Name: "Devnet", RPCURL: e.chain.URL}}, report)
	url := srv.URL + "/reports/q3"

	t.Run("no wallet", func(t *testing.T) {
		tb := b.tab(t, nil)
		tb.open(t, url)
		msg := tb.state(t, "no-wallet")
		if !strings.Contains(msg, "No browser wallet") {
			t.Errorf("status %q", msg)
		}
		// Without a wallet, nothing that needs one can be clicked.
		if !tabValue(t, tb, chromedp.Evaluate[bool](`document.getElementById('x402-connect').disabled`)) {
			t.Error("Connect wallet is clickable with no wallet to connect")
		}
		for sel, want := range map[string]string{"h1": "The quarterly report", "#x402-offers": "0.01 Devnet USD on Devnet", "#x402-payee": "Paid to 127.0.0.1:"} {
			if got := tb.text(t, sel); !strings.Contains(got, want) {
				t.Errorf("%s = %q, want %q", sel, got, want)
			}
		}
		// The page is the whole transfer: one request, within the budget.
		reqs, sizes := tb.seen()
		if len(reqs) != 1 || reqs[0].url != url {
			t.Errorf("the page made requests %+v; want only itself", reqs)
		} else {
			t.Logf("the page's transfer: %.0f bytes (budget %d)", sizes[reqs[0].id], pageBudget)
			if sizes[reqs[0].id] > pageBudget {
				t.Errorf("the page's transfer is %.0f bytes, over the %d-byte budget", sizes[reqs[0].id], pageBudget)
			}
		}
		tb.shot(t, "1-no-wallet")
	})

	t.Run("connect, switch, pay, see the content", func(t *testing.T) {
		key := e.fund(3 * price)
		payer := crypto.PubkeyToAddress(key.PublicKey)
		// On Ethereum, without the devnet: the page adds it, with the RPC
		// URL of the configuration, and the wallet switches.
		w := newTestWallet(e, key, 1)
		before, merchant := e.balance(payer), e.balance(e.merchant)
		tb := b.tab(t, w)
		tb.open(t, url)
		tb.shot(t, "2-offer")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		msg := tb.state(t, "ready")
		if acct := tb.text(t, "#x402-account"); !strings.Contains(acct, "balance 0.03 Devnet USD") || !strings.Contains(msg, "0.01 Devnet USD") {
			t.Errorf("account %q, status %q", acct, msg)
		}
		if ws := w.state(); len(ws.added) != 1 || !strings.Contains(string(ws.added[0]), `"rpcUrls":["`+e.chain.URL+`"]`) || ws.chain != devnetID {
			t.Errorf("wallet_addEthereumChain: %s; the wallet is on %d", ws.added, ws.chain)
		}
		tb.shot(t, "3-ready")
		tb.shotDark(t, "3-ready")
		// The card alone, as docs/images/paywall.png shows it.
		if png := tabValue(t, tb, chromedp.Screenshot(chromedp.CSS("main"))); len(png) > 0 {
			os.WriteFile(filepath.Join(tb.shots, "readme-paywall.png"), png, 0o644)
		}
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		msg = tb.state(t, "paid")
		if !strings.Contains(msg, "Paid 0.01 Devnet USD on Devnet: transaction 0x") {
			t.Errorf("status %q", msg)
		}
		if got := tb.text(t, "#x402-result pre"); !strings.Contains(got, `"report": "paid content"`) {
			t.Errorf("the content shown: %q", got)
		}
		tb.shot(t, "4-paid")
		tb.shotDark(t, "4-paid")
		if got := new(big.Int).Sub(before, e.balance(payer)); got.Int64() != price || w.state().signed != 1 || len(paid.list()) != 1 {
			t.Errorf("the payer paid %s with %d signatures and %d paid requests; want %d, once", got, w.state().signed, len(paid.list()), price)
		}
		if got := new(big.Int).Sub(e.balance(e.merchant), merchant); got.Int64() != price {
			t.Errorf("the merchant got %s, want %d", got, price)
		}
		reqs, _ := tb.seen()
		for _, r := range reqs {
			if !strings.HasPrefix(r.url, srv.URL+"/") {
				t.Errorf("a request elsewhere than the page's origin: %s", r.url)
			}
		}
	})

	t.Run("a window: pay once, reload and see the content without paying", func(t *testing.T) {
		// The route sells an hour of access: the paid answer sets the
		// access cookie, and a reload of the page within the hour is
		// served the content, with no 402, no signature and no payment.
		pw, err := paywall.New(paywall.Config{
			Accepts: []x402.PaymentRequirements{e.offer}, Facilitator: e.fac,
			Description: "The quarterly report", MimeType: "application/json",
			AssetDecimals:  map[string]uint8{strings.ToLower(e.offer.Asset): 6},
			WalletNetworks: map[string]paywall.WalletNetwork{x402.FormatNetwork(devnetID): {Name: "Devnet", RPCURL: e.chain.URL}},
			Access:         &paywall.Access{Duration: time.Hour, Route: "page-window", Windows: openWindows(t), Recover: recoverEth, Keys: [][]byte{keyA}},
		})
		if err != nil {
			t.Fatal(err)
		}
		windowPaid := new(payments)
		wsrv := httptest.NewServer(windowPaid.wrap(pw.Handler(report)))
		t.Cleanup(wsrv.Close)
		wurl := wsrv.URL + "/reports/q3"
		key := e.fund(3 * price)
		payer := crypto.PubkeyToAddress(key.PublicKey)
		w := newTestWallet(e, key, devnetID, devnetID)
		before := e.balance(payer)
		tb := b.tab(t, w)
		tb.open(t, wurl)
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		tb.state(t, "ready")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		tb.state(t, "paid")
		tb.do(t, chromedp.Navigate(wurl))
		var body string
		body = tabValue(t, tb, chromedp.Text(chromedp.CSS("body")))
		if !strings.Contains(body, `"report":"paid content"`) {
			t.Errorf("the reload within the window shows %q, want the content", body)
		}
		if got := new(big.Int).Sub(before, e.balance(payer)); got.Int64() != price || w.state().signed != 1 || len(windowPaid.list()) != 1 {
			t.Errorf("pay once and reload: the payer paid %s with %d signatures and %d paid requests; want %d, once", got, w.state().signed, len(windowPaid.list()), price)
		}
	})

	t.Run("refusing to sign", func(t *testing.T) {
		key := e.fund(price)
		payer := crypto.PubkeyToAddress(key.PublicKey)
		w := newTestWallet(e, key, devnetID)
		w.refuseSign = true
		before, calls := e.balance(payer), len(paid.list())
		tb := b.tab(t, w)
		tb.open(t, url)
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		tb.state(t, "ready")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		if msg := tb.state(t, "refused"); !strings.Contains(msg, "You declined to sign: nothing was paid") {
			t.Errorf("status %q", msg)
		}
		tb.shot(t, "5-refused")
		if ws := w.state(); ws.refused != 1 || ws.signed != 0 || len(paid.list()) != calls || e.balance(payer).Cmp(before) != 0 {
			t.Errorf("refused %d, signed %d, paid requests %d (were %d), balance %s (was %s)", ws.refused, ws.signed, len(paid.list()), calls, e.balance(payer), before)
		}
	})

	t.Run("balance too low", func(t *testing.T) {
		key := e.fund(price / 2)
		w := newTestWallet(e, key, devnetID)
		tb := b.tab(t, w)
		tb.open(t, url)
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		if msg := tb.state(t, "low-balance"); !strings.Contains(msg, "balance is too low: 0.005 Devnet USD, and this costs 0.01 Devnet USD") {
			t.Errorf("status %q", msg)
		}
		tb.shot(t, "6-low-balance")
		if w.count("eth_signTypedData_v4") != 0 {
			t.Error("the page asked to sign with too low a balance")
		}
	})

	t.Run("wrong network", func(t *testing.T) {
		w := newTestWallet(e, e.fund(price), 1, devnetID)
		w.refuseSwitch = true
		tb := b.tab(t, w)
		tb.open(t, url)
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		if msg := tb.state(t, "wrong-network"); !strings.Contains(msg, "You declined to switch networks. Switch Test Wallet to Devnet to pay.") {
			t.Errorf("status %q", msg)
		}
		tb.shot(t, "7-wrong-network")
		if w.count("eth_signTypedData_v4") != 0 {
			t.Error("the page asked to sign on the wrong network")
		}
	})

	t.Run("settlement pending: the same payment again", func(t *testing.T) {
		slow := &slowSettle{Facilitator: e.fac, arrived: make(chan struct{}, 1), release: make(chan struct{})}
		srv, paid := serve(slow, nil, report)
		key := e.fund(price)
		payer := crypto.PubkeyToAddress(key.PublicKey)
		w := newTestWallet(e, key, devnetID)
		before := e.balance(payer)
		tb := b.tab(t, w)
		tb.open(t, srv.URL+"/reports/q3")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		tb.state(t, "ready")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		select {
		case <-slow.arrived: // the page got 503 and tried again
		case <-time.After(time.Minute):
			t.Fatal("the page did not try again after 503")
		}
		if msg := tb.state(t, "pending"); !strings.Contains(msg, "same payment") {
			t.Errorf("status %q", msg)
		}
		tb.shot(t, "8-pending")
		close(slow.release)
		tb.state(t, "paid")
		got := paid.list()
		if len(got) != 2 || got[0] != got[1] || w.state().signed != 1 {
			t.Errorf("%d paid requests (the same payment: %v) with %d signatures; want 2 with one", len(got), len(got) == 2 && got[0] == got[1], w.state().signed)
		}
		if spent := new(big.Int).Sub(before, e.balance(payer)); spent.Int64() != price {
			t.Errorf("the payer paid %s, want %d once", spent, price)
		}
		tb.shot(t, "9-paid-after-pending")
	})

	t.Run("a file is offered as a download", func(t *testing.T) {
		pdf := []byte("%PDF-1.4 the paid report")
		srv, _ := serve(e.fac, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("Content-Disposition", `attachment; filename="q3-report.pdf"`)
			w.Write(pdf)
		}))
		tb := b.tab(t, newTestWallet(e, e.fund(price), devnetID))
		tb.open(t, srv.URL+"/reports/q3.pdf")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		tb.state(t, "ready")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		tb.state(t, "paid")
		if got := tb.text(t, "#x402-download"); got != "Download q3-report.pdf (24 bytes)" {
			t.Errorf("the download link: %q", got)
		}
		tb.shot(t, "10-download")
		// The visitor clicks it and gets the file: the paid bytes.
		dir := t.TempDir()
		if _, err := chromedp.CallBrowser(tb.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: new(true),
		}); err != nil {
			t.Fatal(err)
		}
		progress := chromedp.BrowserEvents(tb.ctx, browser.DownloadProgress)
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-download")))
		for ev, err := range progress {
			if err != nil {
				t.Fatal(err)
			}
			if ev.State == browser.DownloadProgressStateCanceled {
				t.Fatal("the download was canceled")
			}
			if ev.State == browser.DownloadProgressStateCompleted {
				break
			}
		}
		if got, err := os.ReadFile(filepath.Join(dir, "q3-report.pdf")); err != nil || string(got) != string(pdf) {
			t.Errorf("the file downloaded: %q, %v", got, err)
		}
	})

	t.Run("a merchant's template, the script in its head", func(t *testing.T) {
		srv, _ := serve(e.fac, nil, report, `<!doctype html><html><head><meta name="viewport" content="width=device-width">{{.Script}}`+
			`<style nonce="{{.Nonce}}">body{font-family:serif;background:#fdf6e3;padding:1rem}</style></head>`+
			`<body><h1>The Shop</h1><p>{{.Resource.Description}}: {{range .Offers}}{{.Price}} {{.Token}}{{end}}</p></body></html>`)
		key := e.fund(price)
		payer := crypto.PubkeyToAddress(key.PublicKey)
		before := e.balance(payer)
		tb := b.tab(t, newTestWallet(e, key, devnetID))
		tb.open(t, srv.URL+"/reports/q3")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		tb.state(t, "ready")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		tb.state(t, "paid")
		if got := tb.text(t, "#x402-result pre"); !strings.Contains(got, `"report": "paid content"`) {
			t.Errorf("the content shown: %q", got)
		}
		tb.shot(t, "11-template-paid")
		if spent := new(big.Int).Sub(before, e.balance(payer)); spent.Int64() != price {
			t.Errorf("the payer paid %s, want %d", spent, price)
		}
	})

	t.Run("a payment the server refuses: 402, pay again", func(t *testing.T) {
		key := e.fund(price)
		payer := crypto.PubkeyToAddress(key.PublicKey)
		w := newTestWallet(e, key, devnetID)
		tb := b.tab(t, w)
		tb.open(t, url)
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		tb.state(t, "ready")
		// The tokens leave after the page read the balance: the signed
		// payment no longer verifies.
		e.send(key, e.chain.Token.Address, contracts.NewDevUSD().PackTransfer(e.chain.Accounts[8].Address, big.NewInt(price)), nil)
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		if msg := tb.state(t, "declined"); !strings.Contains(msg, "The payment was not accepted: invalid_inner_payload: insufficient balance") || !strings.Contains(msg, "Nothing was charged") {
			t.Errorf("status %q", msg)
		}
		// The balance shown is read again.
		for deadline := time.Now().Add(time.Minute); !strings.Contains(tb.text(t, "#x402-account"), "balance 0 Devnet USD"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the account line: %q", tb.text(t, "#x402-account"))
			}
		}
		tb.shot(t, "12-declined")
		if e.balance(payer).Sign() != 0 || w.state().signed != 1 {
			t.Errorf("balance %s, %d signatures", e.balance(payer), w.state().signed)
		}
	})

	t.Run("two offers, the second chosen", func(t *testing.T) {
		second := e.offer
		second.PayTo, second.Amount = e.chain.Accounts[3].Address.Hex(), fmt.Sprint(2*price)
		srv, _ := serveOffers([]x402.PaymentRequirements{e.offer, second}, e.fac, nil, report)
		key := e.fund(2 * price)
		payer := crypto.PubkeyToAddress(key.PublicKey)
		before, merchant2 := e.balance(payer), e.balance(e.chain.Accounts[3].Address)
		tb := b.tab(t, newTestWallet(e, key, devnetID))
		tb.open(t, srv.URL+"/reports/q3")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-connect")))
		tb.state(t, "ready")
		tb.do(t, chromedp.Click(chromedp.CSS(`#x402-offers input[value="1"]`)))
		if msg := tb.state(t, "ready"); !strings.Contains(msg, "0.02 Devnet USD") || tb.text(t, "#x402-pay-button") != "Pay 0.02 Devnet USD" {
			t.Errorf("status %q, button %q", msg, tb.text(t, "#x402-pay-button"))
		}
		tb.shot(t, "13-two-offers")
		tb.do(t, chromedp.Click(chromedp.CSS("#x402-pay-button")))
		tb.state(t, "paid")
		if spent, got := new(big.Int).Sub(before, e.balance(payer)), new(big.Int).Sub(e.balance(e.chain.Accounts[3].Address), merchant2); spent.Int64() != 2*price || got.Int64() != 2*price {
			t.Errorf("the payer paid %s and the second offer's payee got %s; want %d", spent, got, 2*price)
		}
	})

	t.Run("a POST is left to x402 clients", func(t *testing.T) {
		w := newTestWallet(e, e.fund(price), devnetID)
		tb := b.tab(t, w)
		tb.do(t, chromedp.Navigate("about:blank"))
		resp, err := chromedp.RunResponse(tb.ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
			`const f = document.createElement('form'); f.method = 'post'; f.action = %q; document.body.append(f); f.submit()`, url)))
		if err != nil || resp.Status != http.StatusPaymentRequired {
			t.Fatalf("POST: %v %v", resp, err)
		}
		if msg := tb.state(t, "unpayable"); !strings.Contains(msg, "not for a POST request: use an x402 client") {
			t.Errorf("status %q", msg)
		}
		if tb.has(t, "#x402-connect:not([hidden])") || w.count("eth_requestAccounts") != 0 {
			t.Error("the page offers to pay a POST")
		}
		tb.shot(t, "14-post")
	})
}

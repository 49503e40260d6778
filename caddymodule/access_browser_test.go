package caddymodule

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/x402"
)

// headlessChromium starts /usr/bin/chromium (or chromium on PATH) headless
// and returns a tab. Without Chromium the test skips, or fails under
// X402_TEST_BROWSER=1.
func headlessChromium(t *testing.T) context.Context {
	t.Helper()
	exe := "/usr/bin/chromium"
	if _, err := os.Stat(exe); err != nil {
		if exe, err = exec.LookPath("chromium"); err != nil {
			if os.Getenv("X402_TEST_BROWSER") == "1" {
				t.Fatal("X402_TEST_BROWSER=1 but there is no Chromium: apt-get install chromium")
			}
			t.Skip("no Chromium: apt-get install chromium to run the browser test; X402_TEST_BROWSER=1 makes its absence a failure")
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// TestAccessWindowBrowser: in headless Chromium, through Caddy on the
// devnet, a page pays once (a same-origin fetch with a PAYMENT-SIGNATURE
// signed in Go, as a wallet would sign it); the paid response's access
// cookie is kept by the browser and hidden from the page's script
// (HttpOnly); loading the route then serves it from the window, without
// paying. A link to it from another site (localhost, another port) gets
// the 402 page: the cookie is SameSite=Strict. The merchant is paid once.
// Not parallel: Caddy runs one config at a time.
func TestAccessWindowBrowser(t *testing.T) {
	tab := headlessChromium(t)
	t.Setenv("X402_TEST_ACCESS_KEY", "an access key of more than thirty-two bytes, for the test")
	t.Setenv("X402_TEST_ACCESS_KEY_OLD", "the previous access key, also 32 bytes or more")
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><p id="report">`+paidMarker+`</p>`)
	}))
	defer upstream.Close()
	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	cf := accessCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{other}}", merchant.Hex(), "{{upstream}}", strings.TrimPrefix(upstream.URL, "http://")).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9")}
	before := e.balance(merchant)
	route := e.api + "/window/report"

	// Unpaid, the browser gets the 402 page.
	resp, err := chromedp.Run(tab, chromedp.NavigateResponse(route))
	if err != nil || resp.Status != http.StatusPaymentRequired {
		t.Fatalf("unpaid: %v %v", resp, err)
	}
	// The page pays with a payment signed for the route's offer.
	challenge, _ := e.get("/window/report", "")
	pr, err := x402.DecodePaymentRequired(challenge.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		t.Fatal(err)
	}
	payment, err := (&client.Transport{Key: mustKey(t, 3), MaxAmount: big.NewInt(10_000)}).Pay(pr, &pr.Accepts[0])
	if err != nil {
		t.Fatal(err)
	}
	sig, _ := x402.EncodeHeader(payment)
	type paid struct {
		Status  int    `json:"status"`
		Receipt bool   `json:"receipt"`
		Cookies string `json:"cookies"`
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[paid](fmt.Sprintf(`(async () => {
		const r = await fetch(%q, {headers: {"PAYMENT-SIGNATURE": %q}});
		await r.text();
		return {status: r.status, receipt: r.headers.has("PAYMENT-RESPONSE"), cookies: document.cookie};
	})()`, route, sig), chromedp.EvalAwaitPromise))
	if err != nil || got.Status != 200 || !got.Receipt || strings.Contains(got.Cookies, "x402_access_") {
		t.Fatalf("paying from the page: %+v %v (the access cookie must be HttpOnly)", got, err)
	}

	// Loading the route is served from the window.
	resp, err = chromedp.Run(tab, chromedp.NavigateResponse(route))
	if err != nil || resp.Status != http.StatusOK {
		t.Fatalf("in the window: %v %v", resp, err)
	}
	if text, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#report"))); err != nil || text != paidMarker {
		t.Fatalf("the page in the window: %q %v", text, err)
	}

	// A link from another site: SameSite=Strict keeps the cookie home.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><a id="go" href="%s">the report</a>`, route)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	if _, err := chromedp.Run(tab, chromedp.NavigateResponse(otherURL)); err != nil {
		t.Fatal(err)
	}
	resp, err = chromedp.RunResponse(tab, chromedp.Click(chromedp.CSS("#go")))
	if err != nil || resp.Status != http.StatusPaymentRequired {
		t.Fatalf("following a link from another site: %v %v", resp, err)
	}
	// Back home, the window serves again.
	if resp, err = chromedp.Run(tab, chromedp.NavigateResponse(route)); err != nil || resp.Status != http.StatusOK {
		t.Fatalf("in the window again: %v %v", resp, err)
	}
	if d := new(big.Int).Sub(e.balance(merchant), before); d.Int64() != 10_000 {
		t.Fatalf("the merchant got %s, want 10000 (once)", d)
	}
}

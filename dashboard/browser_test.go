package dashboard

// The merchant's pages in a real headless Chromium, at desktop (1280 px)
// and phone (390 px) widths: the dashboard in an outage, a payment's
// page, and the webhooks' test and resend. It needs Debian's chromium
// (apt-get install chromium) and skips without it, unless
// X402_TEST_BROWSER=1 says it must run. Screenshots go to
// $X402_ARTIFACTS_DIR/dashboard-merchant (or artifacts/ at the
// repository's root).

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/webhook"
)

// chromium is the Chromium to drive, or the test skips (fails under
// X402_TEST_BROWSER=1).
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
	t.Skip("no Chromium: apt-get install chromium to run the browser test; X402_TEST_BROWSER=1 makes its absence a failure")
	return ""
}

// tab is a Chromium tab on a dashboard served by a test server.
type tab struct {
	ctx   context.Context
	base  string
	shots string
	n     int
}

func newTab(t *testing.T, web http.Handler) *tab {
	t.Helper()
	exe := chromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		web.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ActorKey{}, "admin")))
	}))
	t.Cleanup(srv.Close)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1280, 800),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	dir := filepath.Join("..", "artifacts", "dashboard-merchant")
	if base := os.Getenv("X402_ARTIFACTS_DIR"); base != "" {
		dir = filepath.Join(base, "dashboard-merchant")
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	return &tab{ctx: bctx, base: srv.URL, shots: abs}
}

func run[T any](t *testing.T, b *tab, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (b *tab) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// open loads a page and wants a 200.
func (b *tab) open(t *testing.T, path string) {
	t.Helper()
	if resp := run(t, b, chromedp.NavigateResponse(b.base+path)); resp.Status != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.Status)
	}
}

// click clicks sel and waits for the page it leads to.
func (b *tab) click(t *testing.T, sel string) {
	t.Helper()
	resp, err := chromedp.RunResponse(b.ctx, chromedp.Click(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
	if resp.Status != http.StatusOK {
		t.Fatalf("clicking %s led to %d", sel, resp.Status)
	}
}

func (b *tab) text(t *testing.T, sel string) string {
	t.Helper()
	return strings.TrimSpace(run(t, b, chromedp.Text(chromedp.CSS(sel))))
}

// rows is the text of the cells of a table's body rows.
func (b *tab) rows(t *testing.T, table string) [][]string {
	t.Helper()
	return run(t, b, chromedp.Evaluate[[][]string](fmt.Sprintf(
		`Array.from(document.querySelectorAll(%q), r => Array.from(r.cells, c => c.textContent.trim()))`, table+" tbody tr")))
}

func (b *tab) shot(t *testing.T, name string) {
	t.Helper()
	png := run(t, b, chromedp.FullScreenshot(100))
	b.n++
	if err := os.WriteFile(filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.n, name)), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shotBoth saves the page at desktop and phone widths and checks its
// layout: at 1280 px no table is wider than its box (nothing clipped or
// scrolled away); at 390 px the page does not scroll sideways and every
// cell of the stacked tables (amount and status among them) is on the
// screen.
func (b *tab) shotBoth(t *testing.T, name string) {
	t.Helper()
	if wide := run(t, b, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".table-wrap"), w => w.scrollWidth > w.clientWidth ? w.firstElementChild.id || "a table" : "").filter(Boolean)`)); len(wide) > 0 {
		t.Errorf("%s at 1280 px: %q wider than its box", name, wide)
	}
	b.shot(t, name+"-desktop")
	b.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	widths := run(t, b, chromedp.Evaluate[[]int](`[document.documentElement.clientWidth, document.documentElement.scrollWidth]`))
	off := run(t, b, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("table.stack tbody td[data-label]"), c => {
		const r = c.getBoundingClientRect();
		return r.width > 0 && (r.left < 0 || r.right > document.documentElement.clientWidth + 1) ? c.dataset.label + ": " + c.textContent.trim().slice(0, 30) : "";
	}).filter(Boolean)`))
	b.shot(t, name+"-phone")
	b.do(t, chromedp.EmulateViewport(1280, 800))
	if widths[0] != 390 || widths[1] > widths[0] {
		t.Errorf("%s at 390 px: the page is %d px wide, want no sideways scrolling", name, widths[1])
	}
	if len(off) > 0 {
		t.Errorf("%s at 390 px: cells off the screen: %q", name, off)
	}
}

// TestMerchantBrowser drives the merchant's pages: in an outage (every
// page from the store, with the banner), then a payment's page (payer,
// route, amount, the transaction's explorer link, its delivery), then
// the webhooks page's test event and a resend, at both widths.
func TestMerchantBrowser(t *testing.T) {
	t.Parallel()
	f := newMerchantFixture(t, anOutage(), true)
	var keys []common.Hash
	for i, amount := range []int64{10_000, 2_500_000, 990_000} {
		created := time.Now().UTC().Add(-time.Duration(i+1) * time.Hour)
		f.settle(created, payerOne, amount, "", fmt.Sprintf("https://shop.example/paid/report-%d", i))
		var key common.Hash
		copy(key[:], crypto32(payerOne, created))
		keys = append(keys, key)
	}
	b := newTab(t, f.web)

	// The outage: every page answers from the store, with the banner.
	for _, page := range []struct{ path, name string }{{"/", "outage-overview"}, {"/payments", "outage-payments"}, {"/refused", "outage-refused"}} {
		b.open(t, page.path)
		if got := b.text(t, "#outage"); !strings.Contains(got, "does not answer") || !strings.Contains(got, "2026-11-28 09:30:00") || !strings.Contains(got, "503") {
			t.Errorf("%s: the banner says %q", page.path, got)
		}
		b.shotBoth(t, page.name)
	}
	if rows := b.rows(t, "#refusals"); len(rows) != 3 || !strings.Contains(rows[0][1], "the signature is not the payer") {
		t.Errorf("the last refusals in words: %q", rows)
	}
	f.mu.Lock()
	f.outage = nil
	f.mu.Unlock()

	// A payment's page, from the payments list.
	ev := webhook.Event{ID: webhook.EventID(webhook.EventSettled, "eip155:31337", keys[0].Hex()), Type: webhook.EventSettled, Time: time.Now().UTC(), Network: "eip155:31337", Transaction: keys[0].Hex(), Amount: "10000"}
	if err := f.webhookSender.Enqueue(ev); err != nil {
		t.Fatal(err)
	}
	f.delivered(t, 1)
	f.next(t)
	b.open(t, "/payments")
	b.click(t, `a.payment-link[href="/payments/`+keys[0].Hex()+`"]`)
	if got := b.text(t, "#payment-payer"); got != payerOne.Hex() {
		t.Errorf("the payment's payer: %q", got)
	}
	if got := b.text(t, "#payment-amount"); got != "0.01 USDC" {
		t.Errorf("the payment's amount: %q", got)
	}
	if href := run(t, b, chromedp.Evaluate[string](`document.querySelector("#payment-tx a.explorer").href`)); !strings.HasPrefix(href, "https://sepolia.basescan.org/tx/0x") {
		t.Errorf("the explorer link: %q", href)
	}
	if rows := b.rows(t, "#payment-deliveries"); len(rows) != 1 || !strings.Contains(rows[0][1], ev.ID) || rows[0][2] != "delivered" {
		t.Errorf("the payment's deliveries: %q", rows)
	}
	b.shotBoth(t, "payment")

	// Resend from the payment's page: the same event id again.
	b.click(t, "#payment-deliveries button.resend")
	if got := b.text(t, ".done"); !strings.Contains(got, "same event and event id") {
		t.Errorf("after the resend: %q", got)
	}
	if got := f.next(t); got.ID != ev.ID {
		t.Errorf("the resend sent %s, want %s", got.ID, ev.ID)
	}

	// The webhooks page: a test event.
	b.open(t, "/webhooks")
	b.click(t, "#test-webhook button")
	if got := f.next(t); got.Type != webhook.EventTest || got.Amount != "" {
		t.Errorf("the test event: %+v", got)
	}
	f.delivered(t, 2)
	b.open(t, "/webhooks")
	rows := b.rows(t, "#deliveries")
	if len(rows) != 2 || !strings.HasPrefix(rows[0][1], "test") || !strings.HasPrefix(rows[0][3], "delivered") || !strings.Contains(rows[1][3], "resent 1×") {
		t.Errorf("the deliveries: %q", rows)
	}
	b.shotBoth(t, "webhooks")
	b.open(t, "/")
	b.shotBoth(t, "overview")
	t.Logf("screenshots in %s", b.shots)
}

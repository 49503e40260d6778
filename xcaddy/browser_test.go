package main

// The browser test drives the operator's dashboard in a real headless
// Chromium against the real demo: Caddyfile.example run by the built
// binary, on free ports, with its devnet, paymaster, paid API and admin
// endpoint. It needs Debian's chromium (apt-get install chromium) and
// skips without it, unless X402_TEST_BROWSER=1 says it must run. It does
// not need PostgreSQL.

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The demo dashboard's documented credentials (Caddyfile.example).
const dashboardUser, dashboardPassword = "admin", "x402-demo-local-only"

// keyPattern is a paymaster API key; its first 12 characters are its ID.
var keyPattern = regexp.MustCompile(`^pmk_[0-9a-f]{64}$`)

// The viewports the pages are looked at in: a desktop browser, and a phone
// (an emulated mobile viewport, so the pages' viewport meta tag applies).
func desktopViewport() chromedp.Action[chromedp.Void] { return chromedp.EmulateViewport(1280, 800) }

func phoneViewport() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
}

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

// demo is Caddyfile.example running in a caddy process, on free ports.
type demo struct {
	bin       string
	dashboard string // http://localhost:port, behind basic_auth
	api       string // the paid API
	paymaster string // the paymaster's JSON-RPC
	chain     string // the devnet's JSON-RPC
	admin     string // host:port of Caddy's admin endpoint
	env       []string
	log       *lockedBuffer
	hooks     *hookReceiver // the demo's webhook
}

// startDemo runs Caddyfile.example, with every port replaced by a free one
// and the admin endpoint on a free port, and waits until the dashboard, the
// paymaster and the paid API answer.
func startDemo(t *testing.T) *demo {
	t.Helper()
	bin := caddyBinary(t)
	example, err := os.ReadFile(filepath.Join("..", "Caddyfile.example"))
	if err != nil {
		t.Fatal(err)
	}
	cf := string(example)
	ports := map[string]int{}
	// In two passes, so that a free port that starts with one of the
	// demo's (43385) is not replaced again.
	for _, port := range []string{"8080", "9000", "4021", "4338", "4339"} {
		ports[port] = freePort(t)
		cf = strings.ReplaceAll(cf, ":"+port, ":{{port "+port+"}}")
	}
	for port, free := range ports {
		cf = strings.ReplaceAll(cf, "{{port "+port+"}}", fmt.Sprint(free))
	}
	chain, chain2, admin := freePort(t), freePort(t), freePort(t)
	cf = strings.Replace(cf, "devnet_addr 127.0.0.1:8545\n", fmt.Sprintf("devnet_addr 127.0.0.1:%d\n", chain), 1)
	cf = strings.Replace(cf, "devnet_addr 127.0.0.1:8546\n", fmt.Sprintf("devnet_addr 127.0.0.1:%d\n", chain2), 1)
	cf = strings.Replace(cf, "{\n", fmt.Sprintf("{\n\tadmin 127.0.0.1:%d\n", admin), 1)
	dashboard := fmt.Sprintf("http://localhost:%d", ports["4339"])
	if !strings.Contains(cf, fmt.Sprintf("devnet_addr 127.0.0.1:%d\n", chain2)) || !strings.Contains(cf, dashboard) || !strings.Contains(cf, "basic_auth") {
		t.Fatal("Caddyfile.example no longer has `network devnet` and the dashboard on http://localhost:4339 behind basic_auth; update this test")
	}
	hooks := newHookReceiver(t)
	cf = hooks.withWebhook(cf)
	dir := t.TempDir()
	path := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(path, []byte(cf), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &demo{
		bin:       bin,
		dashboard: dashboard,
		api:       fmt.Sprintf("http://localhost:%d", ports["8080"]),
		paymaster: fmt.Sprintf("http://127.0.0.1:%d", ports["4338"]),
		chain:     fmt.Sprintf("http://127.0.0.1:%d", chain),
		admin:     fmt.Sprintf("127.0.0.1:%d", admin),
		env:       append(os.Environ(), "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "HOME="+dir, "X402_DEMO_WEBHOOK_SECRET="+demoWebhookSecret),
		hooks:     hooks,
		log:       new(lockedBuffer),
	}
	cmd := exec.Command(bin, "run", "--config", path, "--adapter", "caddyfile")
	cmd.Env = d.env
	done := startProcess(t, cmd, "the demo", d.log)
	ready := []func() bool{
		func() bool { return d.get(d.dashboard+"/", true) == http.StatusOK },
		func() bool { return d.get(d.paymaster+"/health", false) == http.StatusOK },
		func() bool { return d.get(d.api+"/free", false) == http.StatusOK },
		func() bool { return d.get("http://"+d.admin+"/x402/keys", false) == http.StatusOK },
	}
	deadline := time.Now().Add(90 * time.Second)
	for len(ready) > 0 {
		if ready[0]() {
			ready = ready[1:]
			continue
		}
		select {
		case <-done:
			t.Fatalf("the demo exited: %s", tail(d.log.String(), 40))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo did not start: %s", tail(d.log.String(), 40))
		}
		time.Sleep(100 * time.Millisecond) // polling for the demo to start
	}
	return d
}

// get is the status of a GET of u (with the dashboard's credentials if
// auth), or 0 if it failed.
func (d *demo) get(u string, auth bool) int {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if auth {
		req.SetBasicAuth(dashboardUser, dashboardPassword)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// adminGet GETs a path of the x402 admin API and returns its body.
func (d *demo) adminGet(t *testing.T, path string) (int, []byte) {
	t.Helper()
	resp, err := http.Get("http://" + d.admin + "/x402/" + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// adminKey is a key as GET /x402/keys lists it, or nil.
func (d *demo) adminKey(t *testing.T, id string) *struct {
	ID       string `json:"id"`
	Project  string `json:"project"`
	Disabled bool   `json:"disabled"`
} {
	t.Helper()
	status, body := d.adminGet(t, "keys")
	var list struct {
		Keys []struct {
			ID       string `json:"id"`
			Project  string `json:"project"`
			Disabled bool   `json:"disabled"`
		} `json:"keys"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &list) != nil {
		t.Fatalf("GET /x402/keys: %d %s", status, body)
	}
	for i := range list.Keys {
		if list.Keys[i].ID == id {
			return &list.Keys[i]
		}
	}
	return nil
}

// rpcAnswer is the paymaster's answer to one JSON-RPC call.
type rpcAnswer struct {
	status     int
	retryAfter string
	Result     json.RawMessage `json:"result"`
	Error      *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call posts one JSON-RPC call to the paymaster with key in X-API-Key.
func (d *demo) call(t *testing.T, key, method string, params ...any) rpcAnswer {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, d.paymaster, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := rpcAnswer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s: %d %s", method, resp.StatusCode, raw)
	}
	return a
}

// works reports an error unless a's call succeeded.
func (a rpcAnswer) works() error {
	if a.Error != nil || a.status != http.StatusOK || len(a.Result) == 0 {
		return fmt.Errorf("refused: HTTP %d, %+v", a.status, a.Error)
	}
	return nil
}

// sponsored reports an error unless a is a sponsored UserOperation: its gas
// fields filled in and its paymasterAndData the devnet's paymaster, a
// validity window and a signature (20 + 64 + 65 bytes).
func (a rpcAnswer) sponsored() error {
	if err := a.works(); err != nil {
		return err
	}
	var op x402.UserOperation
	if err := json.Unmarshal(a.Result, &op); err != nil {
		return fmt.Errorf("the sponsored operation %s: %w", a.Result, err)
	}
	pmd, err := hexutil.Decode(op.PaymasterAndData)
	if err != nil || len(pmd) != 20+64+65 || common.BytesToAddress(pmd[:20]) != devnetContract(2) || op.CallGasLimit == "" || op.VerificationGasLimit == "" || op.PreVerificationGas == "" {
		return fmt.Errorf("not a sponsored operation: %s", a.Result)
	}
	return nil
}

// refused reports an error unless a is a JSON-RPC error with code.
func (a rpcAnswer) refused(code int) error {
	if a.Error == nil || a.Error.Code != code {
		return fmt.Errorf("got HTTP %d, result %s, error %+v; want error %d", a.status, a.Result, a.Error, code)
	}
	return nil
}

// The devnet's contracts, where its genesis puts them: test account #0
// deploys the EntryPoint, the account factory, the paymaster, the token
// and the settlement contract with its nonces 0 to 4.
func devnetContract(nonce uint64) common.Address {
	key, err := devnet.DeriveKey(devnet.TestMnemonic, 0)
	if err != nil {
		panic(err) // a constant mnemonic
	}
	return crypto.CreateAddress(crypto.PubkeyToAddress(key.PublicKey), nonce)
}

// sponsorable is a UserOperation for the paymaster to complete and sponsor:
// the first operation of a fresh owner's counterfactual SimpleAccount
// (initCode deploys it), whose call approves and settles 1 atom of dUSD to
// the demo's merchant; the gas fields are left to the paymaster.
func (d *demo) sponsorable(t *testing.T) x402.UserOperation {
	t.Helper()
	factory, token, settlement := devnetContract(1), devnetContract(3), devnetContract(4)
	owner, _ := crypto.GenerateKey()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	f := contracts.NewSimpleAccountFactory()
	rc, err := rpc.Dial(d.chain)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var out hexutil.Bytes
	if err := rc.Call(&out, "eth_call", map[string]any{"to": factory, "data": hexutil.Bytes(f.PackGetAddress(ownerAddr, big.NewInt(0)))}, "latest"); err != nil {
		t.Fatal(err)
	}
	sender, err := f.UnpackGetAddress(out)
	if err != nil {
		t.Fatal(err)
	}
	merchant, _ := devnet.DeriveKey(devnet.TestMnemonic, 2)
	var requestHash [32]byte
	crand.Read(requestHash[:])
	callData := contracts.NewSimpleAccount().PackExecuteBatch(
		[]common.Address{token, settlement},
		[][]byte{
			contracts.NewDevUSD().PackApprove(settlement, big.NewInt(1)),
			contracts.NewX402Settlement().PackSettle(crypto.PubkeyToAddress(merchant.PublicKey), token, big.NewInt(1), requestHash),
		},
	)
	return x402.UserOperation{
		Sender: sender.Hex(), Nonce: "0x0", Signature: "0x",
		InitCode: hexutil.Encode(append(factory.Bytes(), f.PackCreateAccount(ownerAddr, big.NewInt(0))...)),
		CallData: hexutil.Encode(callData),
	}
}

// sponsor asks the paymaster to sponsor op with key.
func (d *demo) sponsor(t *testing.T, key string, op x402.UserOperation) rpcAnswer {
	t.Helper()
	return d.call(t, key, "pm_sponsor_userop", op, devnetContract(0).Hex(), map[string]any{"type": 0})
}

// browser is one Chromium tab on the demo's dashboard, with the dashboard's
// credentials, as a browser that the operator logged in with sends them.
type browser struct {
	ctx     context.Context
	demo    *demo
	shots   string      // the screenshots' directory
	n       int         // screenshots taken
	dialogs chan string // the messages of the dialogs accepted
}

// newBrowser starts Chromium with DESIGN §10's flags and opens a tab.
func newBrowser(t *testing.T, d *demo, exe string) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1280, 800),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx, desktopViewport()); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(dashboardUser+":"+dashboardPassword))
	if _, err := chromedp.Call(bctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Authorization": auth}}); err != nil {
		t.Fatal(err)
	}
	b := &browser{ctx: bctx, demo: d, shots: artifactsDir(t), dialogs: make(chan string, 16)}
	// The Rotate and Disable buttons ask confirm(): the operator says yes.
	dialogs := chromedp.Events(bctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			select {
			case b.dialogs <- ev.Message:
			default:
			}
			chromedp.Call(bctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	return b
}

// artifactsDir is where the screenshots go: $X402_ARTIFACTS_DIR/dashboard,
// or artifacts/dashboard at the repository's root; emptied first.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "artifacts", "dashboard")
	if base := os.Getenv("X402_ARTIFACTS_DIR"); base != "" {
		dir = filepath.Join(base, "dashboard")
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	return abs
}

// do runs actions in the tab.
func (b *browser) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// value runs one action in the tab and returns its value.
func value[T any](t *testing.T, b *browser, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// open loads a page of the dashboard and wants a 200.
func (b *browser) open(t *testing.T, path string) {
	t.Helper()
	resp := value(t, b, chromedp.NavigateResponse(b.demo.dashboard+path))
	if resp.Status != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.Status)
	}
}

// submit clicks the submit button of a form and returns the response of the
// page it leads to, once loaded (after a redirect, the page redirected to).
func (b *browser) submit(t *testing.T, form string) *network.Response {
	t.Helper()
	resp, err := chromedp.RunResponse(b.ctx, chromedp.Click(chromedp.CSS(form+` button[type="submit"]`)))
	if err != nil {
		t.Fatalf("submitting %s: %v", form, err)
	}
	return resp
}

// fill sets the fields of a form.
func (b *browser) fill(t *testing.T, form string, fields map[string]string) {
	t.Helper()
	for name, v := range fields {
		b.do(t, chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`%s [name=%q]`, form, name)), v))
	}
}

func (b *browser) text(t *testing.T, sel string) string {
	t.Helper()
	return strings.TrimSpace(value(t, b, chromedp.Text(chromedp.CSS(sel))))
}

// html is the page's source as the browser has it now.
func (b *browser) html(t *testing.T) string {
	t.Helper()
	return value(t, b, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
}

// has reports whether an element matches sel now.
func (b *browser) has(t *testing.T, sel string) bool {
	t.Helper()
	return value(t, b, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector(%q) !== null`, sel)))
}

// rows is the text of the cells of a table's body rows.
func (b *browser) rows(t *testing.T, table string) [][]string {
	t.Helper()
	return value(t, b, chromedp.Evaluate[[][]string](fmt.Sprintf(
		`Array.from(document.querySelectorAll(%q), r => Array.from(r.cells, c => c.textContent.trim()))`, table+" tbody tr")))
}

// dialog is the message of the next dialog the page opened.
func (b *browser) dialog(t *testing.T) string {
	t.Helper()
	select {
	case m := <-b.dialogs:
		return m
	case <-b.ctx.Done():
		t.Fatal("no dialog")
		return ""
	}
}

// shot saves a full-page screenshot of the page as it is, at the viewport
// it has (desktop unless told otherwise).
func (b *browser) shot(t *testing.T, name string) {
	t.Helper()
	png := value(t, b, chromedp.FullScreenshot(100))
	b.n++
	if err := os.WriteFile(filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.n, name)), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shotBoth saves the page at desktop and at phone width. It also checks
// the layout: at desktop width every table fits its box, and at phone
// width the page does not scroll sideways (wide tables scroll inside their
// own box).
func (b *browser) shotBoth(t *testing.T, name string) {
	t.Helper()
	if wide := value(t, b, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".table-wrap"), w => w.scrollWidth > w.clientWidth ? w.firstElementChild.id || "a table" : "").filter(Boolean)`)); len(wide) > 0 {
		t.Errorf("%s at desktop width: %q wider than the page", name, wide)
	}
	b.shot(t, name+"-desktop")
	b.do(t, phoneViewport())
	widths := value(t, b, chromedp.Evaluate[[]int](`[document.documentElement.clientWidth, document.documentElement.scrollWidth]`))
	b.shot(t, name+"-phone")
	b.do(t, desktopViewport())
	if widths[0] != 390 || widths[1] > widths[0] {
		t.Errorf("%s at phone width: viewport %d px, page %d px wide; want 390 and no sideways scrolling", name, widths[0], widths[1])
	}
}

// TestDashboardBrowser is issue 13's browser test: an operator's session in
// Chromium against the running demo, one step after another, each step
// building on the previous ones. Every step saves screenshots.
func TestDashboardBrowser(t *testing.T) {
	exe := chromium(t)
	d := startDemo(t)
	s := &session{d: d, b: newBrowser(t, d, exe)}
	for _, step := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"a project made in the browser is stored and funded, and its key is shown once", s.createProjectAndKey},
		{"the key works for JSON-RPC", s.keyWorks},
		{"rotating in the browser refuses the old key and shows the new one once", s.rotate},
		{"a limit changed in the browser holds the next sponsorships", s.limit},
		{"forged posts are refused and change nothing", s.forgedPosts},
		{"disabling in the browser stops sponsorship", s.disable},
		{"a payment shows on the payments page with its mined transaction, and in the CSV", s.pay},
		{"a tampered payment is refused and counted by reason and route", s.refused},
		{"the payment is on the revenue page per route and payer, in dUSD and USD", s.revenue},
		{"the webhook gets the settled payment, signed, and the page and audit log show it", s.webhooks},
		{"wrong or no credentials get 401", s.credentials},
		{"caddy x402 key create works while the demo runs and is audited", s.cliKey},
		{"the pages at desktop and phone width", s.pages},
	} {
		if !t.Run(step.name, step.run) {
			t.Fatalf("step %q failed; the later steps build on it", step.name)
		}
	}
	for _, secret := range s.secrets {
		if strings.Contains(d.log.String(), secret[12:]) {
			t.Errorf("the demo's log has the key %s…", secret[:12])
		}
	}
	t.Logf("screenshots in %s", s.b.shots)
}

// session is what the steps of TestDashboardBrowser share: the demo, the
// browser, and the keys made so far.
type session struct {
	d              *demo
	b              *browser
	key, keyID     string   // made in the browser, then rotated away
	rotated, newID string   // its replacement, disabled later
	secrets        []string // every key made, which the demo's log must not have
}

// createProjectAndKey creates project browser-test (testnet, the form's
// default limits) and records a top-up of 1 ETH, then a key with the
// default scopes (paymaster:read and paymaster:sponsor). The key is in the
// answer once: a reload neither shows it nor posts the form again, and
// /keys, /audit and the admin API's GET /x402/keys name its ID only.
func (s *session) createProjectAndKey(t *testing.T) {
	b, d := s.b, s.d
	b.open(t, "/projects")
	b.fill(t, "#create-project", map[string]string{"name": "browser-test", "network": "testnet"})
	if resp := b.submit(t, "#create-project"); resp.Status != http.StatusOK || !strings.HasSuffix(resp.URL, "/projects/browser-test?done=created") {
		t.Fatalf("creating the project: %d %s", resp.Status, resp.URL)
	}
	if got := b.text(t, "#balance"); got != "0 ETH" {
		t.Errorf("a new project's balance: %q", got)
	}
	if status, body := d.adminGet(t, "projects/browser-test"); status != http.StatusOK || !strings.Contains(string(body), `"testnet"`) {
		t.Fatalf("the admin API does not have the project: %d %s", status, body)
	}
	b.fill(t, "#topup", map[string]string{"amount": "1", "note": "browser test"})
	if resp := b.submit(t, "#topup"); resp.Status != http.StatusOK || !strings.HasSuffix(resp.URL, "?done=topup") {
		t.Fatalf("recording the top-up: %d %s", resp.Status, resp.URL)
	}
	if got := b.text(t, "#balance"); got != "1 ETH" {
		t.Errorf("the balance after a top-up of 1 ETH: %q", got)
	}
	if rows := b.rows(t, "#topups"); len(rows) != 1 || rows[0][1] != "1 ETH" || rows[0][2] != "browser test" {
		t.Errorf("the top-ups: %q", rows)
	}
	b.shot(t, "project-funded")

	b.open(t, "/keys?project=browser-test")
	if got := value(t, b, chromedp.Value(chromedp.CSS(`#create-key select[name="project"]`))); got != "browser-test" {
		t.Fatalf("the key form's project: %q", got)
	}
	scopes := value(t, b, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#create-key input[name="scope"]:checked'), c => c.value)`))
	if !slices.Equal(scopes, []string{"paymaster:read", "paymaster:sponsor"}) {
		t.Fatalf("the scopes checked by default: %q", scopes)
	}
	if resp := b.submit(t, "#create-key"); resp.Status != http.StatusOK {
		t.Fatalf("creating the key: %d", resp.Status)
	}
	b.do(t, chromedp.WaitVisible(chromedp.CSS("#key-shown")))
	s.key = b.text(t, "#new-key")
	if !keyPattern.MatchString(s.key) {
		t.Fatalf("the key shown: %q", s.key)
	}
	s.keyID, s.secrets = s.key[:12], append(s.secrets, s.key)
	if got := b.text(t, "#key-shown strong"); !strings.Contains(got, s.keyID) || !strings.Contains(got, "browser-test") || !strings.Contains(got, "paymaster:sponsor") {
		t.Errorf("the key's caption: %q", got)
	}
	b.shotBoth(t, "keys-key-shown")

	// Reloading shows the list, not the key, and does not post the form
	// again.
	b.do(t, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#keys")))
	if loc := value(t, b, chromedp.Location()); loc != d.dashboard+"/keys" {
		t.Errorf("after the reload the page is %s, want /keys", loc)
	}
	if b.has(t, "#key-shown") || strings.Contains(b.html(t), s.key) {
		t.Fatal("the key is shown again after a reload")
	}
	ours := 0
	for _, r := range b.rows(t, "#keys") {
		if r[1] == "browser-test" {
			ours++
		}
	}
	if ours != 1 {
		t.Fatalf("browser-test has %d keys after the reload, want 1 (the reload posted the form again?)", ours)
	}
	b.shot(t, "keys-after-reload")
	for _, path := range []string{"/keys", "/audit"} {
		b.open(t, path)
		if html := b.html(t); strings.Contains(html, s.key) || strings.Contains(html, s.key[12:]) {
			t.Fatalf("%s shows the key", path)
		} else if !strings.Contains(html, s.keyID) {
			t.Errorf("%s does not name the key's ID %s", path, s.keyID)
		}
	}
	if _, body := d.adminGet(t, "keys"); strings.Contains(string(body), s.key[12:]) || !strings.Contains(string(body), s.keyID) {
		t.Fatalf("GET /x402/keys shows the key, or not its ID: %s", body)
	}
}

// keyWorks calls pm_supported_tokens and pm_entrypoints with the key over
// JSON-RPC, and sees its last use on /keys.
func (s *session) keyWorks(t *testing.T) {
	b, d := s.b, s.d
	a := d.call(t, s.key, "pm_supported_tokens")
	if err := a.works(); err != nil {
		t.Fatalf("pm_supported_tokens: %v", err)
	}
	var tokens struct {
		FreeGas bool `json:"freeGas"`
		Native  struct {
			Paymaster string `json:"paymaster"`
		} `json:"native"`
	}
	if json.Unmarshal(a.Result, &tokens) != nil || !tokens.FreeGas || common.HexToAddress(tokens.Native.Paymaster) != devnetContract(2) {
		t.Fatalf("pm_supported_tokens: %s", a.Result)
	}
	var eps []string
	if a := d.call(t, s.key, "pm_entrypoints"); a.works() != nil || json.Unmarshal(a.Result, &eps) != nil || len(eps) != 2 || common.HexToAddress(eps[0]) != devnetContract(0) {
		t.Fatalf("pm_entrypoints: %s %+v", a.Result, a.Error)
	}
	if err := d.call(t, "pmk_"+strings.Repeat("0", 64), "pm_supported_tokens").refused(-32501); err != nil {
		t.Fatalf("an unknown key: %v", err)
	}
	b.open(t, "/keys")
	if used := b.text(t, fmt.Sprintf(`tr[data-key=%q] td.last-used`, s.keyID)); used == "never" {
		t.Errorf("the key's last use after a request: %q", used)
	}
	b.shot(t, "keys-used")
}

// rotate rotates the key with its button (and the confirmation): the old
// key is refused on its next request, the new one, shown once, works.
func (s *session) rotate(t *testing.T) {
	b, d := s.b, s.d
	b.open(t, "/keys")
	if resp := b.submit(t, fmt.Sprintf(`tr[data-key=%q] form:has(.rotate)`, s.keyID)); resp.Status != http.StatusOK {
		t.Fatalf("rotating: %d", resp.Status)
	}
	if m := b.dialog(t); !strings.Contains(m, "Rotate "+s.keyID) {
		t.Errorf("the confirmation asked %q", m)
	}
	b.do(t, chromedp.WaitVisible(chromedp.CSS("#key-shown")))
	s.rotated = b.text(t, "#new-key")
	if !keyPattern.MatchString(s.rotated) || s.rotated == s.key {
		t.Fatalf("the rotated key shown: %q", s.rotated)
	}
	s.newID, s.secrets = s.rotated[:12], append(s.secrets, s.rotated)
	if got := b.text(t, fmt.Sprintf(`tr[data-key=%q] td.key-status`, s.keyID)); !strings.Contains(got, "disabled") || !strings.Contains(got, s.newID) {
		t.Errorf("the old key's status: %q", got)
	}
	b.shot(t, "key-rotated")
	if err := d.call(t, s.key, "pm_supported_tokens").refused(-32501); err != nil {
		t.Fatalf("the old key after rotation: %v", err)
	}
	if err := d.call(t, s.rotated, "pm_supported_tokens").works(); err != nil {
		t.Fatalf("the new key: %v", err)
	}
	b.do(t, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#keys")))
	if b.has(t, "#key-shown") || strings.Contains(b.html(t), s.rotated) {
		t.Fatal("the rotated key is shown again after a reload")
	}
}

// limit sets tx_per_minute to 1 on the project's page. Before, one sender
// had two real UserOperations sponsored; after, a new sender's first is
// sponsored and its second refused for the rate (-32504, HTTP 429 with
// Retry-After), and so is the first sender's third.
func (s *session) limit(t *testing.T) {
	b, d := s.b, s.d
	// Under the default 30 a minute, one sender gets two operations
	// sponsored.
	before := d.sponsorable(t)
	for i := range 2 {
		if err := d.sponsor(t, s.rotated, before).sponsored(); err != nil {
			t.Fatalf("operation %d under the default limits: %v", i+1, err)
		}
	}
	b.open(t, "/projects/browser-test")
	if got := value(t, b, chromedp.Value(chromedp.CSS(`#limits [name="tx_per_minute"]`))); got != "30" {
		t.Fatalf("the form's transactions per minute: %q", got)
	}
	b.fill(t, "#limits", map[string]string{"tx_per_minute": "1"})
	if resp := b.submit(t, "#limits"); resp.Status != http.StatusOK || !strings.HasSuffix(resp.URL, "?done=limits") {
		t.Fatalf("saving the limits: %d %s", resp.Status, resp.URL)
	}
	if got := b.text(t, "main .done"); !strings.Contains(got, "Limits saved") {
		t.Errorf("the confirmation: %q", got)
	}
	if got := value(t, b, chromedp.Value(chromedp.CSS(`#limits [name="tx_per_minute"]`))); got != "1" {
		t.Errorf("the saved transactions per minute: %q", got)
	}
	b.shot(t, "limits-saved")
	rateLimitedOp := d.sponsorable(t)
	if err := d.sponsor(t, s.rotated, rateLimitedOp).sponsored(); err != nil {
		t.Fatalf("a new sender's first operation: %v", err)
	}
	a := d.sponsor(t, s.rotated, rateLimitedOp)
	if err := a.refused(int(x402.RPCThrottled)); err != nil || a.status != http.StatusTooManyRequests || a.retryAfter == "" || !strings.Contains(a.Error.Message, "1 sponsored operations per minute") {
		t.Fatalf("the same sender's second operation: %v (HTTP %d, Retry-After %q)", err, a.status, a.retryAfter)
	}
	if err := d.sponsor(t, s.rotated, before).refused(int(x402.RPCThrottled)); err != nil {
		t.Fatalf("the first sender, with two operations in the last minute: %v", err)
	}
}

// forgedPosts has the logged-in browser open pages of another site
// (127.0.0.1, cross-site) and of another origin of the same site
// (localhost on another port) that post forms to the dashboard as soon as
// they load: to create a project and to disable the active key. Each is
// refused with 403 and changes nothing. On the dashboard's own page, a form
// whose token is missing or wrong is refused too.
func (s *session) forgedPosts(t *testing.T) {
	b, d := s.b, s.d
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		forgedPage.Execute(w, map[string]any{"Action": d.dashboard + r.URL.Query().Get("to"), "Name": r.URL.Query().Get("name")})
	}))
	defer attacker.Close()
	forgedProjectFor := map[string]string{}
	port := attacker.Listener.Addr().(*net.TCPAddr).Port
	for _, origin := range []string{fmt.Sprintf("http://127.0.0.1:%d", port), fmt.Sprintf("http://localhost:%d", port)} {
		site := "cross-site"
		if strings.HasPrefix(origin, "http://localhost:") {
			site = "same-site"
		}
		for _, forged := range []struct{ what, to, name string }{
			{"create a project", "/projects", "forged-" + strings.ReplaceAll(site, "-", "")},
			{"disable a key", "/keys/" + s.newID + "/disable", ""},
		} {
			page := origin + "/?" + url.Values{"to": {forged.to}, "name": {forged.name}}.Encode()
			resp := value(t, b, chromedp.WaitEvent(network.ResponseReceived, func(ev network.EventResponseReceived) bool {
				return ev.Type == network.ResourceTypeDocument && ev.Response.URL == d.dashboard+forged.to
			}, navigateTo(page)))
			b.do(t, chromedp.WaitVisible(chromedp.CSS("main .error")))
			if msg := b.text(t, "main .error"); resp.Response.Status != http.StatusForbidden || !strings.Contains(msg, "Cross-origin request refused") {
				t.Errorf("a %s page's post to %s: %d %q", site, forged.to, resp.Response.Status, msg)
			}
			b.shot(t, "forged-"+site+"-"+strings.ReplaceAll(forged.what, " ", "-"))
			if forged.name != "" {
				forgedProjectFor[site] = forged.name
			}
		}
	}
	for site, name := range forgedProjectFor {
		if status, _ := d.adminGet(t, "projects/"+name); status != http.StatusNotFound {
			t.Errorf("the %s forgery made project %s (GET: %d)", site, name, status)
		}
	}
	if k := d.adminKey(t, s.newID); k == nil || k.Disabled {
		t.Errorf("the forged disable disabled key %s: %+v", s.newID, k)
	}
	if err := d.call(t, s.rotated, "pm_supported_tokens").works(); err != nil {
		t.Errorf("the key after the forged disable: %v", err)
	}

	// From the dashboard's own page, a form whose token is missing
	// or wrong is refused too.
	for _, tc := range []struct{ name, script string }{
		{"no-token", `document.querySelector('#create-project [name="csrf"]').remove()`},
		{"wrong-token", `document.querySelector('#create-project [name="csrf"]').value = "forged"`},
	} {
		b.open(t, "/projects")
		b.fill(t, "#create-project", map[string]string{"name": tc.name})
		b.do(t, chromedp.Evaluate[chromedp.Void](tc.script))
		resp := b.submit(t, "#create-project")
		if msg := b.text(t, "main .error"); resp.Status != http.StatusForbidden || !strings.Contains(msg, "token is missing or wrong") {
			t.Errorf("a same-origin post with %s: %d %q", tc.name, resp.Status, msg)
		}
		b.shot(t, "same-origin-"+tc.name)
		if status, _ := d.adminGet(t, "projects/"+tc.name); status != http.StatusNotFound {
			t.Errorf("the post with %s made its project (GET: %d)", tc.name, status)
		}
	}
}

// disable disables the key with its button: pm_sponsor_userop and
// pm_supported_tokens refuse it from then on.
func (s *session) disable(t *testing.T) {
	b, d := s.b, s.d
	b.open(t, "/keys")
	resp := b.submit(t, fmt.Sprintf(`tr[data-key=%q] form:has(.disable)`, s.newID))
	if resp.Status != http.StatusOK || !strings.HasSuffix(resp.URL, "/keys?done=disabled") {
		t.Fatalf("disabling: %d %s", resp.Status, resp.URL)
	}
	if m := b.dialog(t); !strings.Contains(m, "Disable "+s.newID) {
		t.Errorf("the confirmation asked %q", m)
	}
	if got := b.text(t, fmt.Sprintf(`tr[data-key=%q] td.key-status`, s.newID)); got != "disabled" {
		t.Errorf("the key's status: %q", got)
	}
	if b.has(t, fmt.Sprintf(`tr[data-key=%q] button`, s.newID)) {
		t.Error("a disabled key still has buttons")
	}
	b.shot(t, "key-disabled")
	if err := d.sponsor(t, s.rotated, d.sponsorable(t)).refused(-32501); err != nil {
		t.Fatalf("pm_sponsor_userop with the disabled key: %v", err)
	}
	if err := d.call(t, s.rotated, "pm_supported_tokens").refused(-32501); err != nil {
		t.Fatalf("pm_supported_tokens with the disabled key: %v", err)
	}
}

// pay pays /paid/report of the demo with the Go payer (exact): the
// payments page shows the payment, settled, with its transaction, which is
// mined with status 1 on the devnet; the page's CSV export has it; the
// overview counts it.
func (s *session) pay(t *testing.T) {
	b, d := s.b, s.d
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 1)
	c := &http.Client{Timeout: 2 * time.Minute, Transport: &client.Transport{Key: payer, MaxAmount: big.NewInt(50_000), Schemes: []string{"exact"}}}
	resp, err := c.Get(d.api + "/paid/report")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	receipt, ok, err := client.Receipt(resp)
	if resp.StatusCode != http.StatusOK || !ok || err != nil || !receipt.Success || !strings.Contains(string(body), "the paid report") {
		t.Fatalf("paying /paid/report: %d %s %+v %v", resp.StatusCode, body, receipt, err)
	}
	paidTransaction := common.HexToHash(receipt.TransactionHash)

	eth, err := ethclient.Dial(d.chain)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mined, err := eth.TransactionReceipt(ctx, paidTransaction)
	if err != nil || mined.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("the payment's transaction %s on the devnet: %+v %v", paidTransaction, mined, err)
	}

	// The payment's record is written as it settles: reload until
	// the page has it settled.
	var row []string
	for deadline := time.Now().Add(30 * time.Second); row == nil; {
		b.open(t, "/payments")
		for _, r := range b.rows(t, "#payments") {
			if len(r) == 8 && strings.EqualFold(r[6], paidTransaction.Hex()) && r[2] == "settled" {
				row = r
			}
		}
		if row == nil && time.Now().After(deadline) {
			t.Fatalf("the payments page does not show %s settled: %q", paidTransaction.Hex(), b.rows(t, "#payments"))
		}
		if row == nil {
			time.Sleep(200 * time.Millisecond) // polling for the record
		}
	}
	if !strings.Contains(row[3], "/paid/report") || !strings.EqualFold(row[4], crypto.PubkeyToAddress(payer.PublicKey).Hex()) || row[5] != "exact" {
		t.Errorf("the payment's row: %q", row)
	}
	b.shotBoth(t, "payments")

	// The page's export link, fetched by the page.
	type fetched struct {
		Status int    `json:"status"`
		Type   string `json:"type"`
		Body   string `json:"body"`
	}
	got := value(t, b, chromedp.Evaluate[fetched](`(async () => {
		const r = await fetch(document.querySelector("form.filters a[download]").href);
		return {status: r.status, type: r.headers.get("Content-Type"), body: await r.text()};
	})()`, chromedp.EvalAwaitPromise))
	records, err := csv.NewReader(strings.NewReader(got.Body)).ReadAll()
	if got.Status != http.StatusOK || !strings.HasPrefix(got.Type, "text/csv") || err != nil || len(records) < 2 {
		t.Fatalf("the CSV export: %d %s %v\n%s", got.Status, got.Type, err, got.Body)
	}
	found := false
	for _, rec := range records[1:] {
		found = found || slices.ContainsFunc(rec, func(f string) bool { return strings.EqualFold(f, paidTransaction.Hex()) })
	}
	if !found {
		t.Fatalf("the CSV export has no row with %s:\n%s", paidTransaction.Hex(), got.Body)
	}

	b.open(t, "/")
	if got := b.text(t, "#day-settled"); got != "1" {
		t.Errorf("payments settled in the last 24 h: %q", got)
	}
	b.shotBoth(t, "overview")
}

// credentials checks that the dashboard answers 401 without credentials and
// with wrong ones, to a GET and to a POST.
func (s *session) credentials(t *testing.T) {
	d := s.d
	for _, tc := range []struct {
		name, user, password string
		auth                 bool
	}{
		{"no credentials", "", "", false},
		{"wrong password", dashboardUser, "wrong", true},
		{"wrong user", "root", dashboardPassword, true},
	} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			req, _ := http.NewRequest(method, d.dashboard+"/projects", strings.NewReader("name=unauthorized"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.auth {
				req.SetBasicAuth(tc.user, tc.password)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic") {
				t.Errorf("%s %s: %d %q", method, tc.name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
		}
	}
	if status := d.get(d.dashboard+"/projects", true); status != http.StatusOK {
		t.Errorf("with the credentials: %d", status)
	}
}

// cliKey runs `caddy x402 key create --project demo --address <admin>`
// with the built binary while the demo runs: it prints a key that works,
// and that /keys lists and the audit log records with actor "cli".
func (s *session) cliKey(t *testing.T) {
	b, d := s.b, s.d
	cmd := exec.Command(d.bin, "x402", "key", "create", "--project", "demo", "--address", d.admin)
	cmd.Env = d.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("caddy x402 key create: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	secret, _, _ := strings.Cut(stdout.String(), "\n")
	if !keyPattern.MatchString(secret) {
		t.Fatalf("caddy x402 key create printed %q", stdout.String())
	}
	cliID := secret[:12]
	s.secrets = append(s.secrets, secret)
	if err := d.call(t, secret, "pm_supported_tokens").works(); err != nil {
		t.Errorf("the CLI's key: %v", err)
	}
	b.open(t, "/keys")
	if got := b.text(t, fmt.Sprintf(`tr[data-key=%q] td:nth-child(2)`, cliID)); got != "demo" {
		t.Errorf("the CLI's key %s on /keys: project %q", cliID, got)
	}
	if status := b.text(t, fmt.Sprintf(`tr[data-key=%q] td.key-status`, cliID)); status != "active" {
		t.Errorf("the CLI's key's status: %q", status)
	}
	b.open(t, "/audit")
	var entry []string
	for _, r := range b.rows(t, "#audit") {
		if len(r) == 5 && r[2] == "key.create" && r[3] == cliID {
			entry = r
		}
	}
	if entry == nil || !strings.HasPrefix(entry[1], "cli") {
		t.Fatalf("the audit log's entry of the CLI's key %s: %q in %q", cliID, entry, b.rows(t, "#audit"))
	}
	b.shot(t, "audit-cli-key")
}

// pages saves the pages not yet taken at both widths (the overview,
// payments and keys were, in their steps).
func (s *session) pages(t *testing.T) {
	b := s.b
	for _, p := range []struct{ path, name string }{
		{"/projects", "projects"},
		{"/projects/browser-test", "project"},
		{"/keys", "keys"},
		{"/audit", "audit"},
		{"/", "overview"},
		{"/payments?state=failed", "payments-failed"},
	} {
		b.open(t, p.path)
		b.shotBoth(t, p.name)
	}
}

// navigateTo starts loading a URL without waiting for the page to load:
// the forged page submits itself and leaves at once.
func navigateTo(u string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.Navigate, page.NavigateParams{URL: u})
		return err
	})
}

// forgedPage is another site's page that posts a form to the dashboard as
// soon as it loads, in the browser of an operator who is logged in.
var forgedPage = template.Must(template.New("forged").Parse(`<!doctype html>
<title>Win a prize</title>
<form method="post" action="{{.Action}}">
<input type="hidden" name="csrf" value="guessed">
{{if .Name}}<input type="hidden" name="name" value="{{.Name}}">
<input type="hidden" name="network" value="testnet">
<input type="hidden" name="tx_per_minute" value="100000">
<input type="hidden" name="max_in_flight" value="100000">
<input type="hidden" name="daily_gas_cap" value="1000">{{end}}
</form>
<script>document.forms[0].submit()</script>
`))

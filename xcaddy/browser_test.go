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
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

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

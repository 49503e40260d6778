package main

import (
	"bytes"
	"context"
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
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

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
	if a := d.call(t, s.key, "pm_entrypoints"); a.works() != nil || json.Unmarshal(a.Result, &eps) != nil || len(eps) != 3 || common.HexToAddress(eps[0]) != devnetContract(0) {
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

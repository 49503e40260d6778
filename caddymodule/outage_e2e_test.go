package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// settledRecord writes a settled payment of 0.01 USDC on Base Sepolia
// into the store at path, as the facilitator would have before an
// outage, and returns its key.
func settledRecord(t *testing.T, path string) common.Hash {
	t.Helper()
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	created := time.Now().UTC().Add(-time.Hour)
	key := crypto.Keccak256Hash([]byte("a payment before the outage"))
	rec := store.Record{
		Key: key, State: store.StateClaimed, Scheme: "exact", Network: "eip155:84532",
		Payer: common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), PayTo: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
		Asset: common.HexToAddress("0x036CbD53842c5426634e7929541eC2318f3dCF7e"), Amount: big.NewInt(10_000),
		Resource: "http://127.0.0.1/paid/report", Created: created, Updated: created,
	}
	if _, ok, err := st.Claim(rec); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, crypto.Keccak256Hash([]byte("its transaction")), []byte{1}, created.Add(time.Second)
	if err := st.Submit(&rec); err != nil {
		t.Fatal(err)
	}
	rec.State, rec.Updated = store.StateSettled, created.Add(2*time.Second)
	rec.Response = &x402.SettleResponse{Success: true, Network: rec.Network, TransactionHash: rec.TxHash.Hex()}
	if err := st.Finish(&rec); err != nil {
		t.Fatal(err)
	}
	return key
}

var csrfToken = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// TestDashboardChainDown: with the chain's RPC down from the start, the
// dashboard serves every page from the store the network keeps open
// (its payments, a payment's page, the webhooks, the audit log), with
// the banner saying what is down (the RPC's host, never its URL's path),
// since when, and what payers get; a test webhook is kept for when the
// chain is back; the admin API answers from the same store. It
// answered a plain-text 503 on every page (issue 41).
func TestDashboardChainDown(t *testing.T) {
	rpcPort, api, dash := freePort(t), freePort(t), freePort(t)
	t.Setenv("X402_OUTAGE_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	t.Setenv("X402_OUTAGE_WEBHOOK_SECRET", "0123456789abcdef0123456789abcdef")
	dir := filepath.ToSlash(t.TempDir())
	key := settledRecord(t, dir+"/x402.db")
	cf := fmt.Sprintf(`{
	log {
		output file %s/caddy.log
		level ERROR
	}
	x402 {
		network eip155:84532
		rpc http://127.0.0.1:%d/v2/SECRETAPIKEY
		settler_key {env.X402_OUTAGE_SETTLER_KEY}
		asset 0x036CbD53842c5426634e7929541eC2318f3dCF7e "USDC" 2 6
		store_path %s/x402.db
		webhook http://127.0.0.1:%d/events {
			secret {env.X402_OUTAGE_WEBHOOK_SECRET}
		}
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	handle /paid/* {
		x402 {
			pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
			price $0.01
		}
		respond "paid content"
	}
}
http://127.0.0.1:%d {
	x402_dashboard {
		allow_anonymous
	}
}
`, dir, rpcPort, dir, rpcPort, api, dash)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("Caddy did not start with its chain down: %v", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", dash)
	client := &http.Client{Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) string {
		t.Helper()
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s with the chain down: %d %s", path, resp.StatusCode, body)
		}
		return string(body)
	}
	for _, path := range []string{"/", "/payments", "/payments/" + key.Hex(), "/revenue", "/refused", "/webhooks", "/audit"} {
		body := get(path)
		for _, want := range []string{`id="outage"`, "The chain&#39;s RPC (127.0.0.1) does not answer", "Down since", "503 Service Unavailable", "Base Sepolia"} {
			if !strings.Contains(body, want) {
				t.Errorf("GET %s: no %q", path, want)
			}
		}
		if strings.Contains(body, "SECRETAPIKEY") {
			t.Fatalf("GET %s shows the RPC URL's path", path)
		}
	}
	if body := get("/payments"); !strings.Contains(body, key.Hex()) || !strings.Contains(body, "0.01 USDC") {
		t.Error("the payments page does not show the payment made before the outage")
	}
	if body := get("/payments/" + key.Hex()); !strings.Contains(body, "https://sepolia.basescan.org/tx/") {
		t.Error("the payment's page has no explorer link")
	}

	// A test webhook, kept for when the chain is back.
	m := csrfToken.FindStringSubmatch(get("/webhooks"))
	if m == nil {
		t.Fatal("the webhooks page has no form token")
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/webhooks/test", strings.NewReader(url.Values{"csrf": {m[1]}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the test webhook with the chain down: %d", resp.StatusCode)
	}
	if body := get("/webhooks"); !strings.Contains(body, `class="event-type">test<`) || !strings.Contains(body, "pending") {
		t.Error("the test webhook is not kept as pending")
	}

	// The admin API, over the same store.
	admin, err := adminAPI(context.Background())
	if err != nil {
		t.Fatalf("the admin API with the chain down: %v", err)
	}
	for _, tc := range []struct {
		method, path string
		status       int
		want         string
	}{
		{http.MethodGet, "/x402/payments", http.StatusOK, key.Hex()},
		{http.MethodGet, "/x402/overview", http.StatusOK, `"outage":{`},
		{http.MethodPost, "/x402/webhooks/test", http.StatusAccepted, `"type":"test"`},
	} {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		admin.ServeHTTP(w, r)
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%s %s with the chain down: %d %s, want %d with %s", tc.method, tc.path, w.Code, w.Body, tc.status, tc.want)
		}
	}
}

// TestDashboardOutageWords: what the dashboard says of a failed start holds no
// part of the error's text nor of the RPC URL but its host; a refusal's
// message keeps the hosts of its URLs only.
func TestDashboardOutageWords(t *testing.T) {
	t.Parallel()
	refused := &url.Error{Op: "Post", URL: "https://rpc.example/v2/KEY", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"refused", refused, "the RPC refused the connection"},
		{"another failure", errors.New("chain id 1 at https://rpc.example/v2/KEY, want 84532"), "see Caddy's log for the error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := startOutage(tc.err, "https://rpc.example/v2/KEY?token=x", time.Unix(1, 0))
			if o.Detail != tc.want || strings.Contains(o.What+o.Detail+o.Payers, "KEY") || o.Payers == "" {
				t.Errorf("%+v, want detail %q and no key", o, tc.want)
			}
		})
	}
	for _, tc := range []struct{ in, want string }{
		{"holds 0, the payment needs 10000", "holds 0, the payment needs 10000"},
		{`Post "https://base.g.alchemy.com/v2/KEY": refused`, `Post "https://base.g.alchemy.com/…": refused`},
	} {
		if got := refusalMessage(tc.in); got != tc.want {
			t.Errorf("refusalMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDashboardNetworkNames: networks are named for people; a devnet
// says so, and which real chain its chain id stands in for.
func TestDashboardNetworkNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		plan chainPlan
		want string
	}{
		{chainPlan{network: "eip155:8453"}, "Base"},
		{chainPlan{network: "eip155:84532"}, "Base Sepolia"},
		{chainPlan{network: "eip155:777"}, "eip155:777"},
		{chainPlan{network: "eip155:31337", devnet: true}, "Devnet"},
		{chainPlan{network: "eip155:84532", devnet: true}, "Devnet as Base Sepolia"},
	} {
		if got := networkName(&tc.plan); got != tc.want {
			t.Errorf("networkName(%s, devnet %v) = %q, want %q", tc.plan.network, tc.plan.devnet, got, tc.want)
		}
	}
}

// TestDashboardChainGoesDown: a chain that started and then stops
// answering is shown the same way: the overview reads its balances while
// it answers, and the banner (the RPC's host, what payers get) comes up
// once it does not.
func TestDashboardChainGoesDown(t *testing.T) {
	old := healthEvery
	t.Cleanup(func() { healthEvery = old }) // after Caddy stopped, below
	healthEvery = 0                         // every page asks
	t.Setenv("X402_GOESDOWN_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	chain := startChain(t, 84532)
	tok := chain.Token
	dash := freePort(t)
	dir := filepath.ToSlash(t.TempDir())
	cf := fmt.Sprintf(`{
	log {
		output file %s/caddy.log
		level ERROR
	}
	x402 {
		network eip155:84532
		rpc %s
		settler_key {env.X402_GOESDOWN_SETTLER_KEY}
		asset %s "%s" "%s" 6
		store_path %s/x402.db
	}
}
http://127.0.0.1:%d {
	x402_dashboard {
		allow_anonymous
	}
}
`, dir, chain.URL, tok.Address.Hex(), tok.Name, tok.Version, dir, dash)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	overview := func() string {
		t.Helper()
		resp, body := httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/", dash), nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the overview: %d %s", resp.StatusCode, body)
		}
		return body
	}
	if body := overview(); strings.Contains(body, `id="outage"`) || !strings.Contains(body, `id="settler-balance"`) {
		t.Fatal("with the chain up: a banner, or no balance")
	}
	chain.Close()
	for deadline := time.Now().Add(30 * time.Second); ; {
		body := overview()
		if strings.Contains(body, `id="outage"`) {
			if !strings.Contains(body, "The chain&#39;s RPC (127.0.0.1) does not answer") || !strings.Contains(body, "503 Service Unavailable") || !strings.Contains(body, "not read while the chain is down") {
				t.Errorf("the banner once the chain stopped answering: %s", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("waiting for the banner after the chain stopped: none in 30 s")
		}
		time.Sleep(200 * time.Millisecond) // polling for the dashboard's health probe
	}
}

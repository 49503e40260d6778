package dashboard

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// fixture is a dashboard over a real store, a real paymaster and a devnet.
type fixture struct {
	t     *testing.T
	d     *Dashboard
	st    store.Backend
	svc   *paymaster.Service
	chain *devnet.Devnet
	api   http.Handler
	web   http.Handler
	token common.Address
}

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureOn(t, st)
}

// newFixtureOn is a fixture over st, which it closes at the end.
func newFixtureOn(t *testing.T, st store.Backend) *fixture {
	t.Helper()
	t.Cleanup(func() { st.Close() })
	chain, err := devnet.Start(context.Background(), devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	rc, err := rpc.Dial(chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	bucket := func(name string) store.KV {
		b, err := st.Bucket(name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	svc, err := paymaster.New(paymaster.Config{
		ChainID: chain.ChainID, EntryPoint: chain.Contracts.EntryPoint, Paymaster: chain.Contracts.Paymaster,
		Signer: chain.PaymasterSigner.Key, Chain: rc, Keys: bucket("paymaster_keys"), Ledger: bucket("paymaster_ledger"),
		KeyUsage: bucket("paymaster_key_usage"), ProjectStore: bucket("paymaster_projects"),
		Projects:       []paymaster.Project{{Name: "demo", Balance: ether(10)}},
		TokenPaymaster: chain.Contracts.TokenPaymaster,
		Tokens:         []paymaster.Token{{Address: chain.Contracts.Token, Price: big.NewRat(3000, 1)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	settler := chain.Accounts[0].Address
	d, err := New(Config{
		Payments: st, Audit: bucket("x402_audit"), Sponsorship: svc, Network: "eip155:31337",
		Assets: []Asset{{Address: chain.Contracts.Token, Symbol: "dUSD", Decimals: 6, USD: true}},
		Secret: bytes.Repeat([]byte{7}, 32),
		Balances: func(ctx context.Context) (Balances, error) {
			var bal hexutil.Big
			if err := rc.CallContext(ctx, &bal, "eth_getBalance", settler, "latest"); err != nil {
				return Balances{}, err
			}
			return Balances{Settler: settler, SettlerBalance: bal.ToInt()}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, d: d, st: st, svc: svc, chain: chain, api: d.API("/x402/"), web: d.Web("/"), token: chain.Contracts.Token}
}

// call makes an admin API request as "tester" and decodes the answer.
func (f *fixture) call(method, path, body string, v any) int {
	f.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, "/x402"+path, rd)
	if method != http.MethodGet {
		r.Header.Set("Content-Type", "application/json")
	}
	r = r.WithContext(context.WithValue(r.Context(), ActorKey{}, "tester"))
	w := httptest.NewRecorder()
	f.api.ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") && !strings.HasPrefix(ct, "text/csv") && !strings.HasPrefix(ct, "application/yaml") {
		f.t.Fatalf("%s %s answered Content-Type %q:\n%s", method, path, ct, w.Body)
	}
	if v != nil {
		if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
			f.t.Fatalf("%s %s: decoding %q: %v", method, path, w.Body, err)
		}
	}
	return w.Code
}

// settle stores a settlement record through the state machine: claimed,
// submitted, then settled or failed.
func (f *fixture) settle(created time.Time, payer common.Address, amount int64, fail x402.ErrorCode, resource string) common.Hash {
	f.t.Helper()
	var key common.Hash
	copy(key[:], crypto32(payer, created))
	rec := store.Record{
		Key: key, State: store.StateClaimed, Scheme: "exact", Network: "eip155:31337", Payer: payer,
		PayTo: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"), Asset: f.token, Amount: big.NewInt(amount),
		Resource: resource, Created: created, Updated: created,
	}
	if _, ok, err := f.st.Claim(rec); err != nil || !ok {
		f.t.Fatalf("claim: %v %v", ok, err)
	}
	rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, common.BytesToHash(key[:]), []byte{1}, created.Add(time.Millisecond)
	if err := f.st.Submit(&rec); err != nil {
		f.t.Fatal(err)
	}
	rec.State, rec.Updated = store.StateSettled, created.Add(20*time.Millisecond)
	rec.Response = &x402.SettleResponse{Success: true, Network: rec.Network, TransactionHash: rec.TxHash.Hex()}
	if fail != "" {
		rec.State = store.StateFailed
		rec.Response = &x402.SettleResponse{Network: rec.Network, ErrorCode: fail}
	}
	if err := f.st.Finish(&rec); err != nil {
		f.t.Fatal(err)
	}
	return rec.TxHash
}

func crypto32(a common.Address, t time.Time) []byte {
	b := make([]byte, 32)
	copy(b, a[:])
	big.NewInt(t.UnixNano()).FillBytes(b[20:])
	return b
}

func TestAdminAPIProjectsAndKeys(t *testing.T) {
	t.Parallel()
	f := newFixture(t)

	var p ProjectView
	if code := f.call("POST", "/projects", `{"name":"shop","network":"testnet","limits":{"txPerMinute":5,"maxInFlight":3,"dailyGasCap":"1000000000000000000"}}`, &p); code != http.StatusCreated {
		t.Fatalf("create: %d %+v", code, p)
	}
	if p.Name != "shop" || p.Configured || p.Funded != "0" || p.Limits.TxPerMinute != 5 {
		t.Fatalf("created %+v", p)
	}
	if code := f.call("POST", "/projects/shop/topups", `{"amount":"2000000000000000000","note":"invoice 1"}`, &p); code != http.StatusOK || p.Funded != "2000000000000000000" || len(p.TopUps) != 1 || p.TopUps[0].Note != "invoice 1" {
		t.Fatalf("top-up: %d %+v", code, p)
	}
	if code := f.call("PATCH", "/projects/shop", `{"limits":{"txPerMinute":1,"maxInFlight":3,"dailyGasCap":"1000000000000000000","maxFeePerGas":"2000000000"}}`, &p); code != http.StatusOK || p.Limits.TxPerMinute != 1 || p.Limits.MaxFeePerGas != "2000000000" {
		t.Fatalf("patch: %d %+v", code, p)
	}

	var nk NewKeyView
	if code := f.call("POST", "/keys", `{"project":"shop","scopes":["paymaster:sponsor"]}`, &nk); code != http.StatusCreated || !strings.HasPrefix(nk.Key, "pmk_") || nk.Record.Network != "testnet" {
		t.Fatalf("create key: %d %+v", code, nk)
	}
	if _, err := f.svc.Keys().Authorize(nk.Key, paymaster.ScopeSponsor); err != nil {
		t.Fatalf("the new key does not authorize: %v", err)
	}
	// Listings never show the key, nor its hash.
	for _, path := range []string{"/keys", "/keys?project=shop", "/audit", "/projects"} {
		r := httptest.NewRequest("GET", "/x402"+path, nil)
		w := httptest.NewRecorder()
		f.api.ServeHTTP(w, r)
		if strings.Contains(w.Body.String(), nk.Key) || strings.Contains(w.Body.String(), nk.Key[12:]) {
			t.Fatalf("GET %s shows the key:\n%s", path, w.Body)
		}
	}

	var rot NewKeyView
	if code := f.call("POST", "/keys/"+nk.Record.ID+"/rotate", "", &rot); code != http.StatusOK || rot.Key == nk.Key || rot.Replaces != nk.Record.ID {
		t.Fatalf("rotate: %d %+v", code, rot)
	}
	if _, err := f.svc.Keys().Authorize(nk.Key, paymaster.ScopeSponsor); err == nil {
		t.Fatal("the rotated key still works")
	}
	if _, err := f.svc.Keys().Authorize(rot.Key, paymaster.ScopeSponsor); err != nil {
		t.Fatalf("the replacement does not work: %v", err)
	}
	var keys struct{ Keys []KeyView }
	f.call("GET", "/keys?project=shop", "", &keys)
	if len(keys.Keys) != 2 || keys.Keys[1].ReplacedBy != rot.Record.ID || !keys.Keys[1].Disabled {
		t.Fatalf("keys after rotation: %+v", keys.Keys)
	}
	if code := f.call("POST", "/keys/"+rot.Record.ID+"/disable", "", nil); code != http.StatusOK {
		t.Fatalf("disable: %d", code)
	}
	if _, err := f.svc.Keys().Authorize(rot.Key, paymaster.ScopeRead); err == nil {
		t.Fatal("the disabled key still works")
	}
	var e apiError
	if code := f.call("POST", "/keys/"+rot.Record.ID+"/disable", "", &e); code != http.StatusConflict {
		t.Fatalf("disabling twice: %d %+v", code, e)
	}

	var audit struct{ Entries []Entry }
	f.call("GET", "/audit", "", &audit)
	var actions []string
	for _, a := range audit.Entries {
		if a.Actor != "tester" {
			t.Errorf("entry %+v: actor %q, want tester", a, a.Actor)
		}
		actions = append(actions, a.Action)
	}
	want := []string{ActionKeyDisable, ActionKeyRotate, ActionKeyCreate, ActionProjectLimits, ActionProjectTopUp, ActionProjectCreate}
	if strings.Join(actions, " ") != strings.Join(want, " ") {
		t.Fatalf("audit actions (newest first) %v, want %v", actions, want)
	}
}

// TestAdminAPIRefusals: every bad request is answered with JSON and the
// code a program can branch on; nothing changes.
func TestAdminAPIRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	limits := `"limits":{"txPerMinute":5,"maxInFlight":3,"dailyGasCap":"1000"}`
	tests := []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"unknown field", "POST", "/projects", `{"name":"a","network":"testnet",` + limits + `,"admin":true}`, 400, "bad_request"},
		{"trailing data", "POST", "/projects", `{"name":"a","network":"testnet",` + limits + `} {}`, 400, "bad_request"},
		{"not JSON", "POST", "/projects", `name=a`, 400, "bad_request"},
		{"not an object for a call without arguments", "POST", "/keys/pmk_00000000/rotate", `[]`, 400, "bad_request"},
		{"arguments for a call without any", "POST", "/keys/pmk_00000000/disable", `{"id":"pmk_1"}`, 400, "bad_request"},
		{"oversized", "POST", "/projects", `{"name":"` + strings.Repeat("a", 70<<10) + `"}`, 400, "bad_request"},
		{"bad name", "POST", "/projects", `{"name":"Bad Name!","network":"testnet",` + limits + `}`, 400, "bad_request"},
		{"bad network", "POST", "/projects", `{"name":"a","network":"moonnet",` + limits + `}`, 400, "bad_request"},
		{"negative wei", "POST", "/projects", `{"name":"a","network":"testnet","limits":{"txPerMinute":5,"maxInFlight":3,"dailyGasCap":"-1"}}`, 400, "bad_request"},
		{"zero rate", "POST", "/projects", `{"name":"a","network":"testnet","limits":{"txPerMinute":0,"maxInFlight":3,"dailyGasCap":"1"}}`, 400, "bad_request"},
		{"configured name", "POST", "/projects", `{"name":"demo","network":"testnet",` + limits + `}`, 409, "conflict"},
		{"configured limits", "PATCH", "/projects/demo", `{` + limits + `}`, 409, "conflict"},
		{"unknown project", "GET", "/projects/nope", ``, 404, "not_found"},
		{"unknown project top-up", "POST", "/projects/nope/topups", `{"amount":"1"}`, 404, "not_found"},
		{"top-up zero", "POST", "/projects/demo/topups", `{"amount":"0"}`, 400, "bad_request"},
		{"top-up decimal", "POST", "/projects/demo/topups", `{"amount":"1.5"}`, 400, "bad_request"},
		{"key of unknown project", "POST", "/keys", `{"project":"nope","scopes":["paymaster:read"]}`, 404, "not_found"},
		{"key with bad scope", "POST", "/keys", `{"project":"demo","scopes":["root"]}`, 400, "bad_request"},
		{"key without scopes", "POST", "/keys", `{"project":"demo","scopes":[]}`, 400, "bad_request"},
		{"rotate unknown", "POST", "/keys/pmk_00000000/rotate", ``, 404, "not_found"},
		{"rotate by secret", "POST", "/keys/pmk_" + strings.Repeat("0", 64) + "/rotate", ``, 404, "not_found"},
		{"bad cursor", "GET", "/payments?after=zz", ``, 400, "bad_request"},
		{"bad state", "GET", "/payments?state=paid", ``, 400, "bad_request"},
		{"bad payer", "GET", "/payments?payer=0x12", ``, 400, "bad_request"},
		{"bad limit", "GET", "/payments?limit=5000", ``, 400, "bad_request"},
		{"bad audit cursor", "GET", "/audit?after=%00", ``, 400, "bad_request"},
		{"unknown route", "GET", "/nothing", ``, 404, "not_found"},
		{"wrong method", "DELETE", "/projects/demo", ``, 404, "not_found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var e apiError
			if code := f.call(tc.method, tc.path, tc.body, &e); code != tc.status || e.Code != tc.code || e.Message == "" {
				t.Fatalf("%s %s: %d %+v, want %d %s", tc.method, tc.path, code, e, tc.status, tc.code)
			}
		})
	}
	var audit struct{ Entries []Entry }
	f.call("GET", "/audit", "", &audit)
	if len(audit.Entries) != 0 {
		t.Fatalf("refused requests wrote the audit log: %+v", audit.Entries)
	}
}

func TestPaymentsListingAndCSV(t *testing.T) {
	t.Parallel()
	testPaymentsListing(t, newFixture(t))
}

// TestDashboardOnPostgres: a fleet's dashboard reads the same from
// PostgreSQL, and its forms' changes are shared by the replicas' store.
func TestDashboardOnPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t, "the dashboard over a fleet's store")
	open := func() store.Backend {
		st, err := postgres.Open(context.Background(), postgres.Config{URL: url, Schema: pgtest.Schema(t, url, "dashboard")})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	testPaymentsListing(t, newFixtureOn(t, open()))
}

func testPaymentsListing(t *testing.T, f *fixture) {
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	payer := common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	other := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")
	var txs []common.Hash
	for i := range 5 {
		txs = append(txs, f.settle(base.Add(time.Duration(i)*time.Minute), payer, 10_000, "", "http://localhost:8080/paid/report"))
	}
	f.settle(base.Add(10*time.Minute), other, 20_000, x402.ErrorCode("transaction_failed"), "=HYPERLINK(\"http://evil\")")

	var page struct {
		Payments []Payment
		Next     string
	}
	if code := f.call("GET", "/payments?limit=2", "", &page); code != 200 || len(page.Payments) != 2 || page.Next == "" {
		t.Fatalf("first page: %d %+v", code, page)
	}
	if page.Payments[0].Payer != other || page.Payments[0].Status != "failed" || page.Payments[0].Error != "transaction_failed" {
		t.Fatalf("newest first: %+v", page.Payments[0])
	}
	seen := 2
	for next := page.Next; next != ""; {
		var p struct {
			Payments []Payment
			Next     string
		}
		f.call("GET", "/payments?limit=2&after="+url.QueryEscape(next), "", &p)
		seen += len(p.Payments)
		next = p.Next
	}
	if seen != 6 {
		t.Fatalf("the pages held %d payments, want 6", seen)
	}
	var settled struct{ Payments []Payment }
	f.call("GET", "/payments?state=settled&payer="+payer.Hex(), "", &settled)
	if len(settled.Payments) != 5 || settled.Payments[0].Display != "0.01 dUSD" || settled.Payments[4].Transaction != txs[0].Hex() || settled.Payments[0].LatencyMS != 20 {
		t.Fatalf("settled by payer: %+v", settled.Payments)
	}

	r := httptest.NewRequest("GET", "/x402/payments.csv", nil)
	w := httptest.NewRecorder()
	f.api.ServeHTTP(w, r)
	rows, err := csv.NewReader(w.Body).ReadAll()
	if err != nil || len(rows) != 7 {
		t.Fatalf("CSV: %v, %d rows", err, len(rows))
	}
	if rows[1][1] != `'=HYPERLINK("http://evil")` {
		t.Fatalf("a formula in the resource reached the CSV as %q", rows[1][1])
	}

	var o struct {
		Balances   map[string]string
		LowBalance bool
		Day, Week  Window
	}
	f.call("GET", "/overview", "", &o)
	if o.Day.Settled != 5 || o.Day.Failed != 1 || o.Week.Settled != 5 || o.Day.Failures["transaction_failed"] != 1 ||
		len(o.Day.Revenue) != 1 || o.Day.Revenue[0].Display != "0.05 dUSD" || o.Day.LatencyP50MS != 20 || o.Balances["settlerBalance"] != "10000000000000000000000" || o.LowBalance {
		t.Fatalf("overview: %+v", o)
	}
}

// webClient drives the web app as a browser does: same-origin fetch
// metadata, the user set by the authentication in front.
type webClient struct {
	f    *fixture
	user string
}

func (c webClient) do(method, path string, form url.Values, site string) *httptest.ResponseRecorder {
	var rd io.Reader
	if form != nil {
		rd = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequest(method, "http://dash.test"+path, rd)
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if site != "" {
		r.Header.Set("Sec-Fetch-Site", site)
	}
	r = r.WithContext(context.WithValue(r.Context(), ActorKey{}, c.user))
	w := httptest.NewRecorder()
	c.f.web.ServeHTTP(w, r)
	return w
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func TestWebForms(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := webClient{f: f, user: "admin"}
	page := c.do("GET", "/projects", nil, "none")
	if page.Code != 200 {
		t.Fatalf("GET /projects: %d\n%s", page.Code, page.Body)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options"} {
		if page.Header().Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	m := csrfRE.FindStringSubmatch(page.Body.String())
	if m == nil {
		t.Fatal("the projects page has no CSRF token")
	}
	token := m[1]
	create := url.Values{"csrf": {token}, "name": {"web"}, "network": {"testnet"}, "tx_per_minute": {"10"}, "max_in_flight": {"5"}, "daily_gas_cap": {"0.5"}}

	// Forged requests change nothing.
	forged := []struct {
		name string
		form url.Values
		site string
		user string
	}{
		{"cross-site", create, "cross-site", "admin"},
		{"same-site subdomain", create, "same-site", "admin"},
		{"no token", url.Values{"name": {"web"}, "network": {"testnet"}, "tx_per_minute": {"10"}, "max_in_flight": {"5"}, "daily_gas_cap": {"0.5"}}, "same-origin", "admin"},
		{"another user's token", create, "same-origin", "mallory"},
	}
	for _, tc := range forged {
		w := webClient{f: f, user: tc.user}.do("POST", "/projects", tc.form, tc.site)
		if w.Code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", tc.name, w.Code)
		}
	}
	if _, err := f.svc.DescribeProject(context.Background(), "web"); err == nil {
		t.Fatal("a forged request created the project")
	}

	if w := c.do("POST", "/projects", create, "same-origin"); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/projects/web?done=created" {
		t.Fatalf("create: %d %s\n%s", w.Code, w.Header().Get("Location"), w.Body)
	}
	if w := c.do("POST", "/projects/web/topups", url.Values{"csrf": {token}, "amount": {"1.25"}, "note": {"first"}}, "same-origin"); w.Code != http.StatusSeeOther {
		t.Fatalf("top-up: %d\n%s", w.Code, w.Body)
	}
	if w := c.do("POST", "/projects/web/limits", url.Values{"csrf": {token}, "tx_per_minute": {"1"}, "max_in_flight": {"5"}, "daily_gas_cap": {"0.5"}, "max_fee_per_gas": {"3"}}, "same-origin"); w.Code != http.StatusSeeOther {
		t.Fatalf("limits: %d\n%s", w.Code, w.Body)
	}
	info, err := f.svc.DescribeProject(context.Background(), "web")
	if err != nil || info.Limits.TxPerMinute != 1 || info.Limits.MaxFeePerGas.Cmp(big.NewInt(3e9)) != 0 || info.Funded.Cmp(new(big.Int).Mul(big.NewInt(125), big.NewInt(1e16))) != 0 {
		t.Fatalf("after the forms: %+v %v", info, err)
	}
	if w := c.do("POST", "/projects/web/limits", url.Values{"csrf": {token}, "tx_per_minute": {"x"}}, "same-origin"); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "transactions per minute") {
		t.Fatalf("bad limits: %d\n%s", w.Code, w.Body)
	}
	detail := c.do("GET", "/projects/web?done=topup", nil, "none")
	if detail.Code != 200 || !strings.Contains(detail.Body.String(), "1.25 ETH") || !strings.Contains(detail.Body.String(), "<svg") {
		t.Fatalf("project page: %d\n%s", detail.Code, detail.Body)
	}

	// A key is shown in the answer to its creation only.
	created := c.do("POST", "/keys", url.Values{"csrf": {token}, "project": {"web"}, "scope": {"paymaster:read", "paymaster:sponsor"}}, "same-origin")
	key := regexp.MustCompile(`pmk_[0-9a-f]{64}`).FindString(created.Body.String())
	if created.Code != 200 || key == "" || !strings.Contains(created.Body.String(), `data-replace-url="/keys"`) {
		t.Fatalf("create key: %d\n%s", created.Code, created.Body)
	}
	if created.Header().Get("Cache-Control") != "no-store" {
		t.Fatal("the page with the key may be cached")
	}
	for _, path := range []string{"/keys", "/keys?project=web", "/audit", "/"} {
		if w := c.do("GET", path, nil, "none"); w.Code != 200 || strings.Contains(w.Body.String(), key) {
			t.Fatalf("GET %s: %d; shows the key: %v", path, w.Code, strings.Contains(w.Body.String(), key))
		}
	}
	id := key[:12]
	rotated := c.do("POST", "/keys/"+id+"/rotate", url.Values{"csrf": {token}}, "same-origin")
	fresh := regexp.MustCompile(`pmk_[0-9a-f]{64}`).FindString(rotated.Body.String())
	if rotated.Code != 200 || fresh == "" || fresh == key {
		t.Fatalf("rotate: %d\n%s", rotated.Code, rotated.Body)
	}
	if _, err := f.svc.Keys().Authorize(key, paymaster.ScopeRead); err == nil {
		t.Fatal("the rotated key still works")
	}
	if w := c.do("POST", "/keys/"+fresh[:12]+"/disable", url.Values{"csrf": {token}}, "same-origin"); w.Code != http.StatusSeeOther {
		t.Fatalf("disable: %d\n%s", w.Code, w.Body)
	}
	if _, err := f.svc.Keys().Authorize(fresh, paymaster.ScopeRead); err == nil {
		t.Fatal("the disabled key still works")
	}
	audit := c.do("GET", "/audit", nil, "none").Body.String()
	for _, a := range []string{ActionProjectCreate, ActionProjectTopUp, ActionProjectLimits, ActionKeyCreate, ActionKeyRotate, ActionKeyDisable} {
		if !strings.Contains(audit, a) {
			t.Errorf("the audit page lacks %s", a)
		}
	}
	if strings.Count(audit, "<td>admin</td>") != 6 {
		t.Errorf("the audit page does not name the user on every entry:\n%s", audit)
	}
}

// TestWebPages renders every page, with data and without, and checks that
// what the payer controls is escaped.
func TestWebPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.settle(time.Now().UTC().Add(-time.Minute), common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), 10_000, "", `http://x/<script>alert(1)</script>`)
	c := webClient{f: f, user: "admin"}
	for _, path := range []string{"/", "/payments", "/payments?state=settled&scheme=exact", "/projects", "/projects/demo", "/keys", "/audit", "/static/style.css", "/static/app.js"} {
		w := c.do("GET", path, nil, "none")
		if w.Code != 200 {
			t.Fatalf("GET %s: %d\n%s", path, w.Code, w.Body)
		}
		if strings.Contains(w.Body.String(), "<script>alert") {
			t.Fatalf("GET %s: the payer's resource is not escaped", path)
		}
	}
	for path, status := range map[string]int{"/nothing": 404, "/projects/nope": 404, "/payments?payer=zz": 400, "/payments.csv?state=x": 400} {
		if w := c.do("GET", path, nil, "none"); w.Code != status || !strings.Contains(w.Header().Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: %d %s, want %d as a page", path, w.Code, w.Header().Get("Content-Type"), status)
		}
	}
	if w := c.do("GET", "/payments.csv", nil, "none"); w.Code != 200 || !strings.Contains(w.Body.String(), "0.01 dUSD") {
		t.Fatalf("CSV: %d\n%s", w.Code, w.Body)
	}
}

func TestWebUnderPrefix(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	web := f.d.Web("/dashboard")
	r := httptest.NewRequest("GET", "/dashboard/keys", nil)
	w := httptest.NewRecorder()
	web.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `href="/dashboard/static/style.css"`) || !strings.Contains(w.Body.String(), `action="/dashboard/keys"`) {
		t.Fatalf("%d\n%s", w.Code, w.Body)
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{}); err == nil || !strings.Contains(err.Error(), "Payments") || !strings.Contains(err.Error(), "Secret") {
		t.Fatalf("empty config: %v", err)
	}
}

// The projects page shows the tokens accepted for gas, their price with
// the markup, and what the TokenPaymaster has collected.
func TestWebGasTokens(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// 2.5 dUSD collected: sent to the TokenPaymaster as gas payments are.
	tok := contracts.NewDevUSD()
	tpm := f.chain.Contracts.TokenPaymaster
	key := f.chain.Accounts[1].Key
	rc, err := rpc.Dial(f.chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	eth := ethclient.NewClient(rc)
	nonce, _ := eth.PendingNonceAt(context.Background(), f.chain.Accounts[1].Address)
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(f.chain.ChainID), &types.DynamicFeeTx{
		ChainID: f.chain.ChainID, Nonce: nonce, To: &f.chain.Contracts.Token, Data: tok.PackTransfer(tpm, big.NewInt(2_500_000)),
		Gas: 100_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := eth.SendTransaction(context.Background(), tx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.chain.Wait(context.Background(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
	page := webClient{f: f, user: "admin"}.do("GET", "/projects", nil, "none")
	body := page.Body.String()
	for _, want := range []string{"Gas paid in tokens", `id="gas-tokens"`, "dUSD", "1, 2", "3150.000000", "5%", "fixed", "2.5 dUSD"} {
		if !strings.Contains(body, want) {
			t.Errorf("GET /projects: no %q", want)
		}
	}
}

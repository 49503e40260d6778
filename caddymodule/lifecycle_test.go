package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"text/template"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/txapi"
	"github.com/caddy-x402/caddy-x402/x402"
)

// lifecycleCaddyfile has every x402 module: the app on the devnet, paid
// routes in both schemes, the facilitator, the developer API and the
// paymaster. Its options are those a reload test changes.
var lifecycleCaddyfile = template.Must(template.New("").Parse(`{
	x402 {
		network devnet
		devnet_addr {{.DevnetAddr}}
		store_path {{.StorePath}}
		paymaster_url http://127.0.0.1:{{.Ports.paymaster}}
		sponsor_url http://127.0.0.1:{{.Ports.facilitator}}/sponsor
		receipt_timeout {{.ReceiptTimeout}}
{{- if .Retention}}
		settlement_retention {{.Retention}}
{{- end}}
		sponsor_limits {
			per_client 1000
			per_client_outstanding {{.PerClientOutstanding}}
			per_sender 1000
			max_outstanding 1000
		}
	}
}

http://127.0.0.1:{{.Ports.upstream}} {
	respond "paid content"
}

http://127.0.0.1:{{.Ports.api}} {
	x402_path_guard
	handle /paid/* {
		x402 {{.Price}} {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
			schemes exact aa-native
		}
		reverse_proxy 127.0.0.1:{{.Ports.upstream}}
	}
{{- if .Gone}}
	handle /gone/* {
		x402 0.02 {
			pay_to 0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65
			schemes aa-native
		}
		reverse_proxy 127.0.0.1:{{.Ports.upstream}}
	}
{{- end}}
}

http://127.0.0.1:{{.Ports.facilitator}} {
	handle /api/v1/* {
		x402_txapi {
			max_value {{.MaxValue}}
		}
	}
	handle {
		x402_facilitator
	}
}

http://127.0.0.1:{{.Ports.paymaster}} {
	x402_paymaster {
		project demo {
			balance {{.Balance}}
			tx_per_minute 1000
			max_in_flight 1000
		}
	}
}
`))

// lifecycleConfig fills lifecycleCaddyfile.
type lifecycleConfig struct {
	Ports                map[string]int
	DevnetAddr           string
	StorePath            string
	ReceiptTimeout       string
	Retention            string // settlement_retention, if set
	PerClientOutstanding int
	Price                string
	Gone                 bool // whether the /gone route is there
	MaxValue             string
	Balance              string
}

func (c lifecycleConfig) caddyfile(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	if err := lifecycleCaddyfile.Execute(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// baseLifecycleConfig is lifecycleCaddyfile's config on free ports.
func baseLifecycleConfig(t *testing.T) lifecycleConfig {
	ports := map[string]int{}
	for _, name := range []string{"chain", "upstream", "api", "facilitator", "paymaster"} {
		ports[name] = freePort(t)
	}
	return lifecycleConfig{
		Ports: ports, DevnetAddr: fmt.Sprintf("127.0.0.1:%d", ports["chain"]), StorePath: filepath.Join(t.TempDir(), "x402.db"),
		ReceiptTimeout: "30s", PerClientOutstanding: 1000, Price: "0.01", Gone: true, MaxValue: "0.1", Balance: "100",
	}
}

// chains are the shared chains in the usage pool.
func chains() []*sharedChain {
	var out []*sharedChain
	pool.Range(func(_, v any) bool {
		if c, ok := v.(*sharedChain); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}

// poolSize is the number of values in the usage pool.
func poolSize() int {
	n := 0
	pool.Range(func(any, any) bool { n++; return true })
	return n
}

// TestValidateTouchesNothing: `caddy adapt` and `caddy validate` of a
// config with every x402 module open no port, take no store lock and send
// nothing: they succeed while the devnet's port and the store are held by
// someone else (a running Caddy), and a real chain's RPC sees no request.
func TestValidateTouchesNothing(t *testing.T) {
	t.Run("devnet", func(t *testing.T) {
		cfg := baseLifecycleConfig(t)
		// A running Caddy holds the devnet's port and the store's lock.
		l, err := net.Listen("tcp", cfg.DevnetAddr)
		if err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(store.Config{Path: cfg.StorePath})
		if err != nil {
			t.Fatal(err)
		}
		before := poolSize()
		if err := validateCaddyfile(t, cfg.caddyfile(t)); err != nil {
			t.Fatalf("caddy validate: %v", err)
		}
		if n := poolSize(); n != before {
			t.Fatalf("the usage pool holds %d values after validate, %d before", n, before)
		}
		st.Close()
		l.Close()
		// Nothing was left running on the port, and nothing was written.
		if l, err := net.Listen("tcp", cfg.DevnetAddr); err != nil {
			t.Fatalf("the devnet's port is taken after validate: %v", err)
		} else {
			l.Close()
		}
		if network, _ := readStore(t, cfg.StorePath); network != "" {
			t.Fatalf("validate claimed the store for %q", network)
		}
	})
	t.Run("real chain", func(t *testing.T) {
		var calls atomic.Int64
		rpc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			http.Error(w, "no", http.StatusServiceUnavailable)
		}))
		defer rpc.Close()
		settler, _ := devnet.DeriveKey(devnet.TestMnemonic, 8)
		t.Setenv("X402_TEST_SETTLER", fmt.Sprintf("%x", crypto.FromECDSA(settler)))
		storePath := filepath.Join(t.TempDir(), "base.db")
		cf := fmt.Sprintf(`{
	x402 {
		network eip155:8453
		rpc %s
		settler_key {env.X402_TEST_SETTLER}
		store_path %s
		asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USD Coin" 2 6
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid"
}
`, rpc.URL, storePath, freePort(t))
		adaptCaddyfile(t, cf)
		if err := validateCaddyfile(t, cf); err != nil {
			t.Fatalf("caddy validate: %v", err)
		}
		if n := calls.Load(); n != 0 {
			t.Fatalf("validate sent the RPC %d requests", n)
		}
		if _, err := os.Stat(storePath); err == nil {
			t.Fatal("validate created the store")
		}
	})
}

// reloadTest is a running lifecycleCaddyfile and what the tests of its
// reloads use.
type reloadTest struct {
	t         *testing.T
	cfg       lifecycleConfig
	chain     *sharedChain // the one shared chain
	paymaster *paymaster.Service
	txapi     *txapi.Service
	eth       *ethclient.Client
	http      *http.Client      // without keep-alive
	payer     *client.Transport // exact
	sponsee   *client.Transport // aa-native, test account #1's smart account
	merchant  common.Address
}

func (r *reloadTest) url(port, path string) string {
	return fmt.Sprintf("http://127.0.0.1:%d%s", r.cfg.Ports[port], path)
}

// reload loads cfg over the running config.
func (r *reloadTest) reload(cfg lifecycleConfig) error {
	r.t.Helper()
	_, err := runCaddyfile(r.t, cfg.caddyfile(r.t))
	if err == nil {
		r.cfg = cfg
	}
	return err
}

// sameServices fails unless the pool holds one shared chain, the one that
// ran before, still open, and the paymaster and txapi services that ran
// before: a reload started no second facilitator or service.
func (r *reloadTest) sameServices(t *testing.T) {
	t.Helper()
	got := chains()
	if len(got) != 1 || got[0] != r.chain || !got[0].opened.Load() {
		t.Fatalf("the pool holds %d shared chains (the same: %v); want the one that ran", len(got), len(got) == 1 && got[0] == r.chain)
	}
	if pooledService[*paymaster.Service, paymasterTunables](t) != r.paymaster {
		t.Fatal("a second paymaster service runs")
	}
	if pooledService[*txapi.Service, txapiTunables](t) != r.txapi {
		t.Fatal("a second txapi service runs")
	}
}

// challenge is the 402 of path on the paid site.
func (r *reloadTest) challenge(t *testing.T, path string) *x402.PaymentRequired {
	t.Helper()
	resp, err := r.http.Get(r.url("api", path))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if resp.StatusCode != http.StatusPaymentRequired || err != nil {
		t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
	}
	return pr
}

// offer is the challenge's offer of scheme.
func offer(t *testing.T, pr *x402.PaymentRequired, scheme string) *x402.PaymentRequirements {
	t.Helper()
	for i := range pr.Accepts {
		if pr.Accepts[i].Scheme == scheme {
			return &pr.Accepts[i]
		}
	}
	t.Fatalf("no %s offer in %+v", scheme, pr.Accepts)
	return nil
}

// pays pays for /paid/report with the exact scheme and checks that the
// merchant was paid amount on the chain that ran from the start.
func (r *reloadTest) pays(t *testing.T, amount int64) {
	t.Helper()
	before := r.balance(t)
	resp, err := (&http.Client{Transport: r.payer}).Get(r.url("api", "/paid/report"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if res, ok, _ := client.Receipt(resp); resp.StatusCode != http.StatusOK || !ok || !res.Success {
		t.Fatalf("paying: %d %q", resp.StatusCode, body)
	}
	if got := new(big.Int).Sub(r.balance(t), before); got.Int64() != amount {
		t.Fatalf("the merchant got %s, want %d", got, amount)
	}
}

func (r *reloadTest) balance(t *testing.T) *big.Int {
	t.Helper()
	e := &e2e{t: t, eth: r.eth, token: wellknown.GenesisContracts().Token}
	return e.balance(r.merchant)
}

// sponsor asks /sponsor, through the aa-native payer, to sponsor a payment
// of the offer of path; nil if it was sponsored.
func (r *reloadTest) sponsor(t *testing.T, pr *x402.PaymentRequired) error {
	t.Helper()
	_, err := r.sponsee.PayAANative(context.Background(), pr, offer(t, pr, x402.SchemeAANative))
	return err
}

// TestReload runs lifecycleCaddyfile and reloads it with one kind of option
// changed at a time: each reload keeps the one facilitator and devnet (no
// second one, no clash on the port or the store), and its new value is in
// force. A reload that changes what a running service cannot (a fixed
// option, or the store under a settler) is refused, naming it, and the
// old config keeps serving.
func TestReload(t *testing.T) {
	base := baseLifecycleConfig(t)
	if _, err := runCaddyfile(t, base.caddyfile(t)); err != nil {
		t.Fatalf("running: %v", err)
	}
	eth, err := ethclient.Dial("http://" + base.DevnetAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	// A reload closes the old servers' connections; a POST on one would
	// fail rather than be retried.
	fresh := redial{&http.Transport{DisableKeepAlives: true}}
	r := &reloadTest{
		t: t, cfg: base, eth: eth, merchant: common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906"),
		http:    &http.Client{Transport: fresh},
		payer:   &client.Transport{Base: fresh, Key: mustKey(t, 1), MaxAmount: big.NewInt(100_000)},
		sponsee: &client.Transport{Base: fresh, Key: mustKey(t, 1), MaxAmount: big.NewInt(100_000), Schemes: []string{x402.SchemeAANative}, RPC: "http://" + base.DevnetAddr},
	}
	if got := chains(); len(got) != 1 {
		t.Fatalf("%d shared chains", len(got))
	}
	r.chain = chains()[0]
	r.paymaster = pooledService[*paymaster.Service, paymasterTunables](t)
	r.txapi = pooledService[*txapi.Service, txapiTunables](t)
	r.pays(t, 10_000)
	entries := poolSize()

	t.Run("an unchanged config", func(t *testing.T) {
		if err := r.reload(base); err != nil {
			t.Fatal(err)
		}
		r.sameServices(t)
		r.pays(t, 10_000)
	})
	t.Run("a paid route's price", func(t *testing.T) {
		cfg := base
		cfg.Price = "0.03"
		if err := r.reload(cfg); err != nil {
			t.Fatal(err)
		}
		r.sameServices(t)
		if got := offer(t, r.challenge(t, "/paid/report"), x402.SchemeExact).Amount; got != "30000" {
			t.Fatalf("the offer after the reload asks %s", got)
		}
		r.pays(t, 30_000)
		// The old price is no longer an offer of this server.
		if r.chain.offers.Issued(x402.SchemeExact, r.merchant, wellknown.GenesisContracts().Token, big.NewInt(10_000)) {
			t.Fatal("the old price is still issued")
		}
	})
	t.Run("a removed route's merchant is not sponsored", func(t *testing.T) {
		if err := r.reload(base); err != nil {
			t.Fatal(err)
		}
		gone := r.challenge(t, "/gone/report")
		if err := r.sponsor(t, gone); err != nil {
			t.Fatalf("sponsoring /gone before it is removed: %v", err)
		}
		cfg := base
		cfg.Gone = false
		if err := r.reload(cfg); err != nil {
			t.Fatal(err)
		}
		r.sameServices(t)
		if err := r.sponsor(t, gone); err == nil || !strings.Contains(err.Error(), "(-32602)") {
			t.Fatalf("sponsoring /gone after it was removed: %v, want -32602", err)
		}
		// The route that stays is still sponsored.
		if err := r.sponsor(t, r.challenge(t, "/paid/report")); err != nil {
			t.Fatalf("sponsoring /paid: %v", err)
		}
	})
	// Options that bound sponsorship: each reload's new value refuses a
	// sponsorship that the old one granted, and the old value back grants
	// it again.
	for _, tc := range []struct {
		name    string
		change  func(*lifecycleConfig)
		refusal string
	}{
		// The client has an outstanding sponsorship: a limit of one
		// refuses the next.
		{"app options", func(c *lifecycleConfig) { c.ReceiptTimeout, c.PerClientOutstanding = "20s", 1 }, "(-32504)"},
		{"a paymaster project's limit", func(c *lifecycleConfig) { c.Balance = "0.000000000000000001" }, "sponsorship refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := r.reload(base); err != nil {
				t.Fatal(err)
			}
			paid := r.challenge(t, "/paid/report")
			if err := r.sponsor(t, paid); err != nil {
				t.Fatal(err)
			}
			cfg := base
			tc.change(&cfg)
			if err := r.reload(cfg); err != nil {
				t.Fatal(err)
			}
			r.sameServices(t)
			if err := r.sponsor(t, paid); err == nil || !strings.Contains(err.Error(), tc.refusal) {
				t.Fatalf("sponsoring after the reload: %v, want %q", err, tc.refusal)
			}
			if err := r.reload(base); err != nil {
				t.Fatal(err)
			}
			if err := r.sponsor(t, paid); err != nil {
				t.Fatalf("sponsoring with the old value back: %v", err)
			}
		})
	}
	t.Run("settlement_retention", func(t *testing.T) {
		pruner := func() *store.Pruner {
			run, err := r.chain.running()
			if err != nil {
				t.Fatal(err)
			}
			return run.pruner
		}
		if err := r.reload(base); err != nil {
			t.Fatal(err)
		}
		first := pruner()
		if first == nil {
			t.Fatal("no pruner with the default retention")
		}
		for _, tc := range []struct {
			retention string
			running   bool
		}{{"off", false}, {"24h", true}, {"", true}} {
			cfg := base
			cfg.Retention = tc.retention
			if err := r.reload(cfg); err != nil {
				t.Fatal(err)
			}
			r.sameServices(t)
			if p := pruner(); (p != nil) != tc.running || p == first {
				t.Fatalf("settlement_retention %q: pruner %p (the first was %p), want running %v and a new one", tc.retention, p, first, tc.running)
			}
		}
	})
	t.Run("a txapi option", func(t *testing.T) {
		if err := r.reload(base); err != nil {
			t.Fatal(err)
		}
		send := func(value string) (int, string) {
			req, _ := http.NewRequest(http.MethodPost, r.url("facilitator", "/api/v1/transactions"),
				strings.NewReader(`{"name":"reload","data":{"to":"0x2222222222222222222222222222222222222222","value":"`+value+`"}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-API-Key", DevTxAPIKey)
			resp, err := r.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return resp.StatusCode, string(body)
		}
		if code, body := send("0.06"); code != http.StatusCreated {
			t.Fatalf("0.06 under max_value 0.1: %d %s", code, body)
		}
		cfg := base
		cfg.MaxValue = "0.05"
		if err := r.reload(cfg); err != nil {
			t.Fatal(err)
		}
		r.sameServices(t)
		if code, body := send("0.06"); code != http.StatusBadRequest || !strings.Contains(body, "value_too_large") {
			t.Fatalf("0.06 over max_value 0.05: %d %s", code, body)
		}
	})
	t.Run("an option that needs a restart", func(t *testing.T) {
		if err := r.reload(base); err != nil {
			t.Fatal(err)
		}
		cfg := base
		cfg.DevnetAddr = fmt.Sprintf("127.0.0.1:%d", freePort(t))
		err := r.reload(cfg)
		if err == nil || !strings.Contains(err.Error(), "devnet_addr, which a reload cannot change: restart Caddy") {
			t.Fatalf("reload: %v", err)
		}
		r.sameServices(t)
		r.pays(t, 10_000)
	})
	t.Run("another store for the same settler", func(t *testing.T) {
		cfg := base
		cfg.StorePath = filepath.Join(t.TempDir(), "other.db")
		err := r.reload(cfg)
		if err == nil || !strings.Contains(err.Error(), "already settles") {
			t.Fatalf("reload: %v", err)
		}
		if _, err := os.Stat(cfg.StorePath); err == nil {
			t.Fatal("the refused reload created its store")
		}
		r.sameServices(t)
		r.pays(t, 10_000)
	})
	t.Run("many reloads leave nothing behind", func(t *testing.T) {
		holds, _ := pool.References(metricsKey)
		m := pooledMetrics(t)
		for i := range 10 {
			cfg := base
			cfg.Price = []string{"0.03", "0.01"}[i%2]
			if err := r.reload(cfg); err != nil {
				t.Fatal(err)
			}
		}
		r.sameServices(t)
		if n := poolSize(); n != entries {
			t.Fatalf("the usage pool holds %d values after 10 reloads, %d before", n, entries)
		}
		if got, _ := pool.References(metricsKey); got != holds || holds != 2 {
			t.Fatalf("holds on the metrics: %d, then %d after 10 reloads; want the 2 paid routes'", holds, got)
		}
		if pooledMetrics(t) != m {
			t.Fatal("the reloads made new collectors")
		}
		before := settledCount(t, m)
		r.pays(t, 10_000)
		// Counted when the handler returns, which may be just after the
		// client has read the response.
		got := settledCount(t, m)
		for deadline := time.Now().Add(10 * time.Second); got != before+1 && time.Now().Before(deadline); got = settledCount(t, m) {
			time.Sleep(20 * time.Millisecond) // polling for the handler to count
		}
		if got != before+1 {
			t.Fatalf("settled payments: %v, then %v", before, got)
		}
	})
}

// redial repeats a request whose connection failed while it was being
// made. Caddy opens new listening sockets on a reload and closes the old
// ones, which resets the connections still queued on them; such a request
// was never sent, so it may be repeated whatever its method.
type redial struct{ base http.RoundTripper }

func (t redial) RoundTrip(r *http.Request) (*http.Response, error) {
	for tries := 1; ; tries++ {
		resp, err := t.base.RoundTrip(r)
		var op *net.OpError
		if err == nil || tries == 5 || !errors.As(err, &op) || op.Op != "dial" {
			return resp, err
		}
		r = r.Clone(r.Context())
		if r.GetBody != nil {
			if r.Body, err = r.GetBody(); err != nil {
				return nil, err
			}
		}
	}
}

// pooledService is the one pooled handler service with tunables T.
func pooledService[S any, T tunables[S, T]](t *testing.T) S {
	t.Helper()
	var found []S
	pool.Range(func(_, v any) bool {
		if p, ok := v.(*pooled[S, T]); ok {
			if svc, err := p.running(); err == nil {
				found = append(found, svc)
			}
		}
		return true
	})
	if len(found) != 1 {
		t.Fatalf("%d running services", len(found))
	}
	return found[0]
}

// pooledMetrics is the collectors in the usage pool.
func pooledMetrics(t *testing.T) *metrics {
	t.Helper()
	var m *metrics
	pool.Range(func(k, v any) bool {
		if k == metricsKey {
			m = v.(*metrics)
		}
		return true
	})
	if m == nil {
		t.Fatal("no metrics in the pool")
	}
	return m
}

// settledCount is the sum of caddy_x402_payments_total{result="settled"}.
func settledCount(t *testing.T, m *metrics) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.payments)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, f := range families {
		for _, series := range f.GetMetric() {
			for _, l := range series.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == resultSettled {
					sum += series.GetCounter().GetValue()
				}
			}
		}
	}
	return sum
}

// TestOneServiceOneConfig: two handlers of one config with the same
// identity share one service, so they must agree on its options.
func TestOneServiceOneConfig(t *testing.T) {
	const cf = `{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:0
	}
}
http://127.0.0.1:%d {
	handle /a/* {
		x402_txapi {
			max_value %s
		}
	}
	handle /b/* {
		x402_txapi {
			max_value 0.1
		}
	}
}
`
	if err := validateCaddyfile(t, fmt.Sprintf(cf, freePort(t), "0.1")); err != nil {
		t.Fatalf("two handlers with the same options: %v", err)
	}
	err := validateCaddyfile(t, fmt.Sprintf(cf, freePort(t), "0.2"))
	if err == nil || !strings.Contains(err.Error(), "two x402_txapi handlers of this config share one service but not its options (max_value)") {
		t.Fatalf("two handlers with other options: %v", err)
	}
}

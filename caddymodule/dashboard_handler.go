package caddymodule

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

func init() {
	caddy.RegisterModule(new(DashboardHandler))
}

// DashboardHandler is http.handlers.x402_dashboard: the operator's web
// app (overview, payments, projects, keys, audit log) over the x402 app's
// store and paymaster. In an app of several networks it serves the
// primary network's at its path prefix and each other network's overview
// and payments under <prefix>networks/<caip-2 id>/, with a switch between
// them on every page. It has no authentication of its own: put it behind
// basic_auth (or another authentication handler) in the same route. The
// authenticated user is written to the audit log.
type DashboardHandler struct {
	// The settler's balance, in ETH, under which the overview warns.
	// Default: 0.05.
	LowBalance string `json:"low_balance,omitempty"`
	// The path under which the dashboard is served on its site. Default: /.
	// Use it with handle_path-free routes such as `handle /dashboard/*`.
	PathPrefix string `json:"path_prefix,omitempty"`
	// Serves requests that no authentication handler authenticated
	// ({http.auth.user.id} is empty), for a dashboard that another layer
	// guards (a VPN, forward_auth without a user). By default they are
	// refused with 403: a dashboard put on a site without basic_auth by
	// mistake manages nobody's keys.
	AllowAnonymous bool `json:"allow_anonymous,omitempty"`

	app *App
	low *big.Int
	log *zap.Logger
	mu  sync.Mutex
	web map[*sharedChain]builtWeb // each network's web app, made on first use
}

// builtWeb is a network's web app and the run (nil while the chain does
// not start) and store it was made for.
type builtWeb struct {
	run   *chainRun
	store store.Backend
	web   http.Handler
}

// CaddyModule returns the Caddy module information.
func (*DashboardHandler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402_dashboard", New: func() caddy.Module { return new(DashboardHandler) }}
}

// Provision finds the x402 app's embedded chain and store.
func (h *DashboardHandler) Provision(ctx caddy.Context) error {
	app, err := embeddedApp(ctx, "x402_dashboard")
	if err != nil {
		return err
	}
	h.app, h.log = app, ctx.Logger()
	if err := h.Validate(); err != nil {
		return err
	}
	if h.LowBalance != "" {
		h.low, _ = x402.ParseDecimal(h.LowBalance, 18)
	}
	return nil
}

// Validate checks the configuration. It has no side effects.
func (h *DashboardHandler) Validate() error {
	if h.LowBalance != "" {
		if _, err := x402.ParseDecimal(h.LowBalance, 18); err != nil {
			return fmt.Errorf("x402_dashboard low_balance: %w", err)
		}
	}
	if h.PathPrefix != "" && h.PathPrefix[0] != '/' {
		return fmt.Errorf("x402_dashboard path_prefix %q must start with /", h.PathPrefix)
	}
	return nil
}

// ServeHTTP serves the web app, with the user that authentication put in
// {http.auth.user.id} as the actor of its changes.
func (h *DashboardHandler) ServeHTTP(w http.ResponseWriter, r *http.Request, _ caddyhttp.Handler) error {
	user := ""
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		user, _ = repl.GetString("http.auth.user.id")
	}
	if user == "" && !h.AllowAnonymous {
		http.Error(w, "x402_dashboard: no authenticated user; put basic_auth (or another authentication handler) before x402_dashboard in its route, or set allow_anonymous if another layer guards it", http.StatusForbidden)
		return nil
	}
	chain, base := h.route(r.URL.Path)
	if chain == nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		http.Error(w, "x402_dashboard: no such network", http.StatusNotFound)
		return nil
	}
	web, err := h.webApp(r.Context(), chain, base)
	if err != nil {
		h.log.Error("the dashboard cannot run", zap.String("network", chain.plan.network), zap.Error(err))
		http.Error(w, "the dashboard is not available: the x402 facilitator did not start", http.StatusServiceUnavailable)
		return nil
	}
	web.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), dashboard.ActorKey{}, user)))
	return nil
}

// prefix is the dashboard's path prefix, ending in /.
func (h *DashboardHandler) prefix() string {
	p := cmp.Or(h.PathPrefix, "/")
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// networkBase is the path of a network's dashboard: the prefix for the
// primary network, <prefix>networks/<id>/ for the others.
func (h *DashboardHandler) networkBase(c *sharedChain) string {
	if c == h.app.chain {
		return h.prefix()
	}
	return h.prefix() + "networks/" + c.plan.network + "/"
}

// route is the network whose dashboard serves path, and that dashboard's
// base, or nil for a network the app does not have.
func (h *DashboardHandler) route(path string) (*sharedChain, string) {
	rest, ok := strings.CutPrefix(path, h.prefix()+"networks/")
	if !ok || len(h.app.chains) < 2 {
		return h.app.chain, h.prefix()
	}
	id, _, _ := strings.Cut(rest, "/")
	for _, c := range h.app.chains[1:] {
		if c.plan.network == id {
			return c, h.networkBase(c)
		}
	}
	return nil, ""
}

// webApp returns the web app of a network's running chain, made on first
// use; while the chain does not start, the web app over the store it
// keeps (keptStore), with a banner that says what is down.
func (h *DashboardHandler) webApp(ctx context.Context, c *sharedChain, base string) (http.Handler, error) {
	run, st, err := c.runOrKept(ctx)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if b, ok := h.web[c]; ok && b.run == run && b.store == st {
		return b.web, nil
	}
	links := h.links(c)
	links.merchant = h.app.merchantView(c, st)
	d, err := newDashboard(c, st, run, h.low, h.log, links)
	if err != nil {
		return nil, err
	}
	if h.web == nil {
		h.web = map[*sharedChain]builtWeb{}
	}
	web := d.Web(base)
	h.web[c] = builtWeb{run: run, store: st, web: web}
	return web, nil
}

// links are the network switch's entries, and the primary dashboard's
// base for a secondary network's pages; none for an app of one network.
func (h *DashboardHandler) links(c *sharedChain) dashboardLinks {
	if len(h.app.chains) < 2 {
		return dashboardLinks{}
	}
	var l dashboardLinks
	for _, other := range h.app.chains {
		l.networks = append(l.networks, dashboard.NetworkLink{Network: other.plan.network, Name: networkName(other.plan), Base: h.networkBase(other)})
	}
	if c != h.app.chain {
		l.adminBase = h.prefix()
	}
	return l
}

// networkName is a network's name on the dashboard: the well-known
// chain's name, else its CAIP-2 id; the embedded dev chain is "Devnet",
// or "Devnet as Base Sepolia" where its chain id stands in for a real
// chain's.
func networkName(p *chainPlan) string {
	name := dashboard.NetworkName(p.network)
	switch {
	case !p.devnet:
		return name
	case name != p.network:
		return "Devnet as " + name
	}
	return "Devnet"
}

// dashboardLinks are what a network's dashboard links to of the others.
type dashboardLinks struct {
	networks  []dashboard.NetworkLink
	adminBase string
	merchant  func(*dashboard.Config) // the merchant's pages (merchant.go)
}

// newDashboard makes the dashboard of a chain over its store: its
// payments and audit log, the paymaster that runs on it, and the
// balances read from its chain. run is nil while the chain does not
// start: the pages then show the store, with the outage's banner.
func newDashboard(c *sharedChain, st store.Backend, run *chainRun, low *big.Int, log *zap.Logger, links dashboardLinks) (*dashboard.Dashboard, error) {
	audit, err := dashboard.OpenAudit(st)
	if err != nil {
		return nil, err
	}
	secret, err := dashboard.FormSecret(st)
	if err != nil {
		return nil, err
	}
	inForce := c.assetsInForce()
	assets := make([]dashboard.Asset, len(inForce))
	for i, a := range inForce {
		sym := a.Name
		if a.symbol() != "" {
			sym = a.symbol() // USDC, from the table of well-known tokens
		}
		if c.plan.devnet && common.HexToAddress(a.Address) == wellknown.GenesisContracts().Token {
			sym = wellknown.TokenSymbol
		}
		assets[i] = dashboard.Asset{Address: common.HexToAddress(a.Address), Symbol: sym, Decimals: a.Decimals, USD: a.usdPegged()}
	}
	settler := crypto.PubkeyToAddress(c.plan.settler.PublicKey)
	cfg := dashboard.Config{
		Payments: st, Audit: audit, Assets: assets, Network: c.plan.network, NetworkName: networkName(c.plan),
		LowBalance: low, Secret: secret, Logger: log, Networks: links.networks, AdminBase: links.adminBase,
	}
	if run != nil && run.claimer != nil {
		cfg.Channels = channelDesk{run.claimer}
	}
	if run != nil {
		probe := &healthProbe{}
		cfg.Sponsorship = runSponsorship{run}
		cfg.Balances = func(ctx context.Context) (dashboard.Balances, error) { return balances(ctx, run, settler) }
		cfg.Outage = func(ctx context.Context) *dashboard.Outage { return probe.outage(ctx, run) }
	} else {
		cfg.Balances = func(context.Context) (dashboard.Balances, error) {
			return dashboard.Balances{Settler: settler}, errors.New("the chain does not run")
		}
		cfg.Outage = func(context.Context) *dashboard.Outage {
			_, o := c.kept.offline()
			return o
		}
	}
	if links.merchant != nil {
		links.merchant(&cfg)
	}
	return dashboard.New(cfg)
}

// balances reads the settler's balance and the paymaster's deposit in one
// batch.
func balances(ctx context.Context, run *chainRun, settler common.Address) (dashboard.Balances, error) {
	b := dashboard.Balances{Settler: settler}
	var bal hexutil.Big
	batch := []rpc.BatchElem{{Method: "eth_getBalance", Args: []any{settler, "latest"}, Result: &bal}}
	ref := run.sponsor.Load()
	var deposit hexutil.Bytes
	if ref != nil {
		ep := contracts.NewEntryPoint()
		batch = append(batch, rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": ref.entryPoint, "data": hexutil.Bytes(ep.PackBalanceOf(ref.paymaster))}, "latest"}, Result: &deposit})
	}
	if err := run.chain.BatchCallContext(ctx, batch); err != nil {
		return b, err
	}
	for _, e := range batch {
		if e.Error != nil {
			return b, e.Error
		}
	}
	b.SettlerBalance = bal.ToInt()
	if ref != nil {
		d, err := contracts.NewEntryPoint().UnpackBalanceOf(deposit)
		if err != nil {
			return b, fmt.Errorf("decoding the paymaster's deposit: %w", err)
		}
		b.Paymaster, b.Deposit = ref.paymaster, d
	}
	return b, nil
}

// sponsorRef is the paymaster that runs on a chain, for the dashboard.
type sponsorRef struct {
	svc                   *paymaster.Service
	entryPoint, paymaster common.Address
}

// sponsorSlot holds the paymaster of a chain run; nil when none runs.
type sponsorSlot = atomic.Pointer[sponsorRef]

// runSponsorship is the paymaster of a run as the dashboard sees it: the
// one running now, looked up on every call, since a reload may start one.
type runSponsorship struct{ run *chainRun }

func (s runSponsorship) svc() (*paymaster.Service, error) {
	if ref := s.run.sponsor.Load(); ref != nil {
		return ref.svc, nil
	}
	return nil, dashboard.ErrNoPaymaster
}

func (s runSponsorship) DescribeProjects(ctx context.Context) ([]paymaster.ProjectInfo, error) {
	svc, err := s.svc()
	if err != nil {
		return nil, err
	}
	return svc.DescribeProjects(ctx)
}

func (s runSponsorship) DescribeProject(ctx context.Context, name string) (paymaster.ProjectInfo, error) {
	svc, err := s.svc()
	if err != nil {
		return paymaster.ProjectInfo{}, err
	}
	return svc.DescribeProject(ctx, name)
}

func (s runSponsorship) CreateProject(name, network string, l paymaster.Limits) error {
	svc, err := s.svc()
	if err != nil {
		return err
	}
	return svc.CreateProject(name, network, l)
}

func (s runSponsorship) EditProject(name string, l paymaster.Limits) error {
	svc, err := s.svc()
	if err != nil {
		return err
	}
	return svc.EditProject(name, l)
}

func (s runSponsorship) TopUp(name string, amount *big.Int, note string) error {
	svc, err := s.svc()
	if err != nil {
		return err
	}
	return svc.TopUp(name, amount, note)
}

func (s runSponsorship) CreateKey(project string, scopes []string) (string, *paymaster.Key, error) {
	svc, err := s.svc()
	if err != nil {
		return "", nil, err
	}
	return svc.CreateKey(project, scopes)
}

func (s runSponsorship) Keys() *paymaster.Keys {
	if svc, err := s.svc(); err == nil {
		return svc.Keys()
	}
	return s.run.keys
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*DashboardHandler)(nil)
	_ caddy.Validator             = (*DashboardHandler)(nil)
	_ caddyhttp.MiddlewareHandler = (*DashboardHandler)(nil)
	_ dashboard.Sponsorship       = runSponsorship{}
)

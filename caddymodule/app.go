package caddymodule

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/caddyauth"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
)

func init() {
	caddy.RegisterModule(new(App))
}

// NetworkDevnet is the network value that runs the embedded dev chain.
const NetworkDevnet = "devnet"

// App is the x402 app: the chain, the settler key, the store and the
// allowlisted assets that the x402 handlers of every site share.
//
// Provisioning the app, as `caddy validate` does, opens nothing: the chain
// connection, the store, the facilitator (and the devnet, if used) start
// when Caddy starts the app. They live in a usage pool keyed by the
// network, the store and the settler, so that a config reload keeps them,
// and their settler nonces, rather than start a second copy. A reload puts
// new receipt_timeout and sponsor_limits in force in the running
// facilitator; the other options (rpc, devnet_addr, assets, the aa-native
// contracts and URLs) need a restart of Caddy, and a reload that changes
// them is refused.
//
// Options that name a place or an address (network, rpc, devnet_addr,
// store_path, the asset addresses, facilitator_url, the aa-native contract
// addresses and URLs) may be {env.*} or {file.*} placeholders, resolved
// when the config is loaded. The keys (settler_key, paymaster_key,
// facilitator_key) must be placeholders.
type App struct {
	// The network of an app that takes payments on one chain: the options
	// of NetworkConfig written at the top level (network, rpc, settler_key,
	// assets and the rest) are its shorthand. Exclusive with networks.
	NetworkConfig
	// The networks of an app that takes payments on several chains, one
	// entry each; none may repeat another's network. The first is the
	// primary network: the store of its facilitator holds the API keys
	// (facilitator, paymaster), the payment-identifier index and the
	// dashboard's admin, and x402_paymaster, x402_txapi and aa-native
	// serve it. Exclusive with the top-level network options. Unset by
	// default.
	Networks []NetworkConfig `json:"networks,omitempty"`
	// The merchant's webhooks: each payment its routes settled, and each
	// whose settlement transaction failed, is POSTed to them, signed, at
	// least once: the store writes the outcome in the commit that
	// records it, and the deliveries, retried for about a day, are kept
	// in the primary network's store. Unset by default.
	Webhooks []WebhookConfig `json:"webhooks,omitempty"`
	// The PostgreSQL URL of a store that several Caddy replicas share (a
	// fleet). It holds the settlement records, the settler key's nonce
	// journal and delivery lease, the paymaster's keys and ledger, and the
	// transaction API's records, budgets and faucet times, so that one
	// payment pays for one response and every limit holds across the
	// replicas. It must be an {env.*} or {file.*} placeholder, since the URL
	// holds the password. Unset by default: the store is then the bbolt file
	// of store_path, for one instance; the two are exclusive. Not for
	// network devnet, whose chain lives in one process's memory: a fleet on
	// a dev chain runs it apart and names its rpc and CAIP-2 id. With
	// several networks, each keeps its tables in a schema of its own (see
	// NetworkConfig.DatabaseSchema).
	Database string `json:"database,omitempty"`
	// The most connections this replica's pool opens to the database, for
	// each network. Default: 10. Each replica also holds up to three more
	// (the delivery lease, the journal's notifications, a migration), so
	// the server's max_connections must exceed replicas × networks × (this
	// + 3).
	DatabaseMaxConns int `json:"database_max_conns,omitempty"`
	// With database (store postgres): how long a payment that a replica
	// claimed and then stopped settling (it died before storing its
	// transaction) waits before another replica settles it; its payer's
	// retries get 503 meanwhile. It must exceed the longest settle from
	// claim to stored transaction (bounded by the settle's timeout, 2m).
	// Default: 5m.
	ClaimTakeover caddy.Duration `json:"claim_takeover,omitempty"`
	// How long a settlement waits for its receipt before the request is
	// answered 503 (the settlement stays pending). Default: 30s.
	ReceiptTimeout caddy.Duration `json:"receipt_timeout,omitempty"`
	// How long the store keeps a settlement record once it is final (settled
	// or failed); older ones are deleted every hour, with their place in the
	// dashboard's listings and reports. Default: 30 days; the least is 24
	// hours, and a negative value keeps them for ever (Caddyfile: off). The
	// chain keeps every settlement's transaction for good, and it, not the
	// record, is what refuses a settled payment presented again (see
	// store.FinalPruner). A record takes about 2 KB, so 30 days at 1
	// payment/s is about 5 GB.
	SettlementRetention caddy.Duration `json:"settlement_retention,omitempty"`
	// The URL of a remote facilitator to verify and settle with instead of
	// the embedded one; no chain, key or store is needed here then. Unset by
	// default: the facilitator is embedded.
	FacilitatorURL string `json:"facilitator_url,omitempty"`
	// The remote facilitator's API key (scope facilitator:settle), sent as
	// Authorization: Bearer with /settle; without one, a facilitator settles
	// only the payments of its own paid routes. It is an {env.*} or {file.*}
	// placeholder, never a literal. Unset by default.
	FacilitatorKey string `json:"facilitator_key,omitempty"`
	// Who is paid, as the browser paywall page names them beside the
	// site's host, such as "Acme Reports". Unset by default: the page
	// names the host alone.
	MerchantName string `json:"merchant_name,omitempty"`
	// Bounds on anonymous sponsorship through /sponsor, which needs no
	// credential. Defaults: 30 a minute and 10 outstanding per client
	// address, 10 a minute per smart account, 40 outstanding in all (keep it
	// under the paymaster project's max_in_flight), each valid for 2
	// minutes.
	SponsorLimits *SponsorLimitsConfig `json:"sponsor_limits,omitempty"`
	// The bound and penalty of the routes serving on broadcast, over them
	// all (see SiteBroadcastConfig). Unset by default.
	ServeOnBroadcast *SiteBroadcastConfig `json:"serve_on_broadcast,omitempty"`

	chains    []*sharedChain // each network's embedded facilitator; none with FacilitatorURL
	chain     *sharedChain   // the primary network's: chains[0], or nil
	merchant  *merchant      // refusals and webhooks, from Start on
	router    *networkRouter // over chains, when there are several
	chainKeys []string       // chains' keys in the pool, while held
	// The background starts of networks that did not start with the
	// config, stopped by Cleanup; nil until one is needed.
	retries  *retrier
	tunables chainTunables        // what this config puts in force in every chain; see tunablesOf
	plans    []*chainPlan         // this config's plan of each of chains
	services []heldService        // the handlers' pooled services, to start
	catalog  *facilitator.Catalog // the discoverable routes, for /discovery/resources
	log      *zap.Logger
	ctx      caddy.Context // the config's, for the start log of announce
	// ledger is the routes' payments served on broadcast; see exposure.
	// ledgerBounds puts this config's bounds in force in it, and
	// exposureHold is its key in the usage pool while held.
	ledger       *paywall.Exposure
	ledgerBounds func()
	exposureHold string
}

// heldService is a pooled service that a handler of the app's config holds.
type heldService struct {
	svc      any // the pooled value
	tunables any // what the handler asks for
	start    func() error
}

// CaddyModule returns the Caddy module information.
func (*App) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "x402", New: func() caddy.Module { return new(App) }}
}

// Provision resolves the configuration and takes a hold on the shared
// chain and facilitator of each network, without starting them. It checks
// the configuration first, since the holds' identities are built from it.
func (a *App) Provision(ctx caddy.Context) error {
	a.log, a.ctx = ctx.Logger(), ctx
	a.catalog = new(facilitator.Catalog)
	if err := a.expand(); err != nil {
		return err
	}
	if err := a.resolveAssets(); err != nil {
		return err
	}
	if err := a.Validate(); err != nil {
		return err
	}
	if a.FacilitatorURL != "" {
		return nil
	}
	nets := a.networks()
	for i, n := range nets {
		plan, err := a.plan(n, len(nets) > 1, i == 0)
		if err != nil {
			return err
		}
		v, _, err := pool.LoadOrNew(plan.key(), func() (caddy.Destructor, error) { return newSharedChain(plan), nil })
		if err != nil {
			return err
		}
		c := v.(*sharedChain)
		a.chains, a.chainKeys, a.plans = append(a.chains, c), append(a.chainKeys, plan.key()), append(a.plans, plan)
		if err := c.check(plan.fixed); err != nil {
			return err
		}
	}
	a.chain = a.chains[0]
	if len(a.chains) > 1 {
		a.router = &networkRouter{chains: a.chains}
	}
	if reg := ctx.GetMetricsRegistry(); reg != nil {
		if err := reg.Register(reorgCollector{a.chains}); err != nil {
			a.log.Warn("not exporting caddy_x402_settlement_reorgs_total", zap.Error(err))
		}
	}
	a.tunables = chainTunables{ReceiptTimeout: a.ReceiptTimeout, SettlementRetention: cmp.Or(a.SettlementRetention, caddy.Duration(defaultSettlementRetention))}
	if a.SponsorLimits != nil {
		a.tunables.SponsorLimits = *a.SponsorLimits
	}
	return nil
}

// hold registers a pooled service that a handler of this config holds, to
// be started with the app. Two handlers of one config that hold the same
// service must ask for the same tunables.
func (a *App) hold(what string, svc, tunables any, start func() error) error {
	for _, h := range a.services {
		if h.svc != svc {
			continue
		}
		if changed := changedOptions(h.tunables, tunables); len(changed) > 0 {
			return fmt.Errorf("two %s handlers of this config share one service but not its options (%s); give them the same", what, strings.Join(changed, ", "))
		}
		return nil
	}
	a.services = append(a.services, heldService{svc: svc, tunables: tunables, start: start})
	return nil
}

// Start opens each network's shared chain and facilitator, and the
// handlers' services, if an earlier config has not, and puts this
// config's tunables in force in them.
func (a *App) Start() error {
	if a.ledgerBounds != nil {
		a.ledgerBounds()
	}
	for i, c := range a.chains {
		err := c.start(a.tunablesOf(i), a.log)
		if err == nil {
			if err := c.checkTokens(); err != nil {
				return err // a wrong configuration, on any network
			}
		}
		if err != nil && unreachable(err) && !c.opened.Load() {
			// The chain does not answer (an open chain's new rpc that
			// does not is a reload's error): Caddy starts without it, as a
			// sidecar must (its free routes serve), the network's
			// payments answer 503, and it is opened again in the
			// background until it starts or this config is unloaded.
			// The primary network's services start with it.
			a.log.Warn("a network's chain does not answer: its paid routes answer 503 with Retry-After (JSON, payers are not charged) until it does; retrying",
				zap.String("network", c.plan.network), zap.String("rpc_host", cmp.Or(rpcHost(a.plans[i].rpc), "(none: the embedded devnet)")),
				zap.Duration("retry_every", networkRetry), zap.String("error", chainError(err)))
			a.retry(c, i)
			continue
		}
		if err != nil {
			return err
		}
	}
	if err := a.startMerchant(); err != nil {
		return err
	}
	if a.chain == nil {
		a.announce()
		return nil
	}
	if _, err := a.chain.running(); err != nil {
		a.startServices() // they fail at once, so their requests answer 503 until the retry starts them
		a.announce()
		return nil
	}
	for _, h := range a.services {
		if err := h.start(); err != nil {
			return err
		}
	}
	a.announce()
	return nil
}

// startServices starts the handlers' services, logging what fails.
func (a *App) startServices() {
	for _, h := range a.services {
		if err := h.start(); err != nil {
			a.log.Warn("a service did not start", zap.Error(err))
		}
	}
}

// Stop leaves the shared resources running: Caddy stops its apps in no
// fixed order, so the http app may still be finishing requests that settle
// through them. The last Cleanup of a config that holds them closes them.
func (*App) Stop() error { return nil }

// Cleanup releases this config's holds on the shared chains and
// facilitators; the last holder closes them.
func (a *App) Cleanup() error {
	a.stopMerchant()
	if r := a.retries; r != nil {
		r.stop()
		r.wg.Wait()
	}
	errs := []error{release(&a.exposureHold)}
	for i := range a.chainKeys {
		errs = append(errs, release(&a.chainKeys[i]))
	}
	return errors.Join(errs...)
}

// facilitator is what verifies and settles for a route: the embedded
// service (of each network), or a remote one.
func (a *App) facilitator(url string) (facilitator.Facilitator, error) {
	if url == "" {
		url = a.FacilitatorURL
	}
	if url != "" {
		c := &facilitator.Client{BaseURL: url}
		if a.FacilitatorKey != "" {
			key, err := secret("facilitator_key", a.FacilitatorKey)
			if err != nil {
				return nil, err
			}
			c.APIKey = key
		}
		return c, nil
	}
	if a.chain == nil {
		return nil, errors.New("the x402 app has no embedded facilitator")
	}
	if a.router != nil {
		return a.ownFacilitator(a.router), nil
	}
	return a.ownFacilitator(a.chain), nil
}

// embeddedApp returns the x402 app for a handler that needs its embedded
// chain and store.
func embeddedApp(ctx caddy.Context, handler string) (*App, error) {
	appIface, err := ctx.App("x402")
	if err != nil {
		return nil, err
	}
	app := appIface.(*App)
	if app.chain == nil {
		return nil, fmt.Errorf("%s needs the x402 app's embedded chain and store (not facilitator_url)", handler)
	}
	return app, nil
}

// Interface guards.
var (
	_ caddy.App          = (*App)(nil)
	_ caddy.Provisioner  = (*App)(nil)
	_ caddy.Validator    = (*App)(nil)
	_ caddy.CleanerUpper = (*App)(nil)
)

// demoDashboardPassword is the documented password of the demo's
// dashboard (Caddyfile.example's basic_auth user admin). The start log
// names it only when a config's basic_auth hash is of this password, so
// that a newcomer running the demo sees how to log in, and nobody else's
// password is ever shown.
const demoDashboardPassword = "x402-demo-local-only"

// siteParts are the x402 handlers one server runs.
type siteParts struct {
	paid, facilitator, paymaster, txapi, dashboard bool
	paidRoutes                                     int
	auth                                           []*caddyauth.HTTPBasicAuth
}

// walk notes the x402 handlers of routes, into subroutes.
func (p *siteParts) walk(routes caddyhttp.RouteList) {
	for _, r := range routes {
		for _, h := range r.Handlers {
			switch v := h.(type) {
			case *Handler:
				p.paid = true
				p.paidRoutes++
			case *FacilitatorHandler:
				p.facilitator = true
			case *PaymasterHandler:
				p.paymaster = true
			case *TxAPIHandler:
				p.txapi = true
			case *DashboardHandler:
				p.dashboard = true
			case *caddyauth.Authentication:
				for _, prov := range v.Providers {
					if b, ok := prov.(*caddyauth.HTTPBasicAuth); ok {
						p.auth = append(p.auth, b)
					}
				}
			case *caddyhttp.Subroute:
				p.walk(v.Routes)
			}
		}
	}
}

// describe says what the server serves, for people.
func (p *siteParts) describe() []string {
	var out []string
	if p.paid {
		out = append(out, fmt.Sprintf("a paid API (%d paid route%s)", p.paidRoutes, map[bool]string{true: "", false: "s"}[p.paidRoutes == 1]))
	}
	if p.facilitator {
		out = append(out, "the facilitator (/health, /supported, /verify, /settle)")
	}
	if p.txapi {
		out = append(out, "the developer API (/api/v1/)")
	}
	if p.paymaster {
		out = append(out, "the paymaster (JSON-RPC)")
	}
	if p.dashboard {
		d := "the dashboard"
		switch user := p.demoLogin(); {
		case user != "":
			d += fmt.Sprintf(" (the demo's login: user %s, password %s)", user, demoDashboardPassword)
		case len(p.auth) > 0:
			d += " (behind basic_auth)"
		}
		out = append(out, d)
	}
	return out
}

// demoLogin is the basic_auth user whose password is the demo's, or "".
func (p *siteParts) demoLogin() string {
	for _, b := range p.auth {
		if b.Hash == nil {
			continue
		}
		// Provisioning moves the accounts from AccountList into Accounts.
		for _, acct := range slices.Concat(b.AccountList, slices.Collect(maps.Values(b.Accounts))) {
			hashed := []byte(acct.Password)
			if !strings.HasPrefix(acct.Password, "$") {
				dec, err := base64.StdEncoding.DecodeString(acct.Password)
				if err != nil {
					continue
				}
				hashed = dec
			}
			if ok, err := b.Hash.Compare(hashed, []byte(demoDashboardPassword)); err == nil && ok {
				return acct.Username
			}
		}
	}
	return ""
}

// serverURL is where people reach srv: its scheme, the first host its
// routes match (localhost when none), and the port it listens on (left
// out when it is the scheme's).
func serverURL(srv *caddyhttp.Server) string {
	scheme := "http"
	if len(srv.TLSConnPolicies) > 0 {
		scheme = "https"
	}
	host := "localhost"
hosts:
	for _, r := range srv.Routes {
		for _, set := range r.MatcherSets {
			for _, m := range set {
				if hm, ok := m.(*caddyhttp.MatchHost); ok && len(*hm) > 0 && !strings.ContainsAny((*hm)[0], "*{") {
					host = (*hm)[0]
					break hosts
				}
			}
		}
	}
	port := ""
	if len(srv.Listen) > 0 {
		addr := srv.Listen[0]
		if i := strings.Index(addr, "/"); i >= 0 {
			addr = addr[i+1:] // tcp/:8080
		}
		if _, p, err := net.SplitHostPort(addr); err == nil {
			port = p
		}
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		return scheme + "://" + net.JoinHostPort(host, port)
	}
	return scheme + "://" + host
}

// announce logs, once the apps have started, one line for people per
// server that runs an x402 handler: where it is and what it serves (on
// the demo, the dashboard's login too).
func (a *App) announce() {
	if a.ctx.Context == nil {
		return
	}
	appIface, err := a.ctx.App("http")
	if err != nil {
		return
	}
	httpApp, ok := appIface.(*caddyhttp.App)
	if !ok {
		return
	}
	names := make([]string, 0, len(httpApp.Servers))
	for name := range httpApp.Servers {
		names = append(names, name)
	}
	slices.SortFunc(names, func(x, y string) int {
		return cmp.Compare(serverURL(httpApp.Servers[x]), serverURL(httpApp.Servers[y]))
	})
	for _, name := range names {
		srv := httpApp.Servers[name]
		var parts siteParts
		parts.walk(srv.Routes)
		if d := parts.describe(); len(d) > 0 {
			a.log.Info(fmt.Sprintf("x402: %s serves %s", serverURL(srv), strings.Join(d, ", ")), zap.String("server", name))
		}
	}
}

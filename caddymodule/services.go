package caddymodule

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/facilitator"
)

// serviceHandler is what x402_paymaster and x402_txapi have in common: a
// plain http.Handler service kept in the usage pool under its identity,
// opened by the x402 app's Start with the running chain and store, given
// a reload's tunables in place, and served behind the access log's
// redaction of API keys.
type serviceHandler[S http.Handler, T tunables[S, T]] struct {
	key    string // the service's key in the pool, while held
	svc    *pooled[S, T]
	access accessLog
}

// opener opens a handler's service on the running chain, with t in force;
// it returns what closes what it opened.
type opener[S, T any] func(run *chainRun, t T) (S, func() error, error)

// provision takes a hold on the service of key, created unopened if no
// config holds it, and has app open it with open, or put t in force in
// it, when app starts. fixed are the options a reload cannot change, as
// for pooled.check. Nothing is opened here.
func (h *serviceHandler[S, T]) provision(ctx caddy.Context, app *App, handler, key string, fixed any, t T, open opener[S, T]) error {
	h.access = newAccessLog(ctx)
	v, _, err := pool.LoadOrNew(key, func() (caddy.Destructor, error) { return newPooled[S, T]("the "+handler+" service", fixed), nil })
	if err != nil {
		return err
	}
	h.key, h.svc = key, v.(*pooled[S, T])
	if err := h.svc.check(fixed); err != nil {
		return err
	}
	svc := h.svc
	return app.hold(handler, svc, t, func() error {
		return svc.start(t, func(t T) (S, func() error, error) {
			run, err := app.chain.running()
			if err != nil {
				var zero S
				return zero, nil, err
			}
			return open(run, t)
		})
	})
}

// serve serves r with the running service. A request that comes before
// any config started it (Caddy may start the http app first) waits for
// the start; if the start fails, it is answered 503.
func (h *serviceHandler[S, T]) serve(w http.ResponseWriter, r *http.Request) error {
	return h.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		svc, err := h.svc.wait(r.Context())
		if err != nil {
			// Answered here, not returned: Caddy's error log would record
			// the request's API key.
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"unavailable","message":"the service is not running; retry"}` + "\n"))
			return nil
		}
		svc.ServeHTTP(w, r)
		return nil
	})
}

// cleanup releases the hold on the service; the last holder closes it.
func (h *serviceHandler[S, T]) cleanup() error { return release(&h.key) }

// clientIP is the request's client address as Caddy determined it (its
// trusted_proxies setting decides whether a forwarded address counts).
func clientIP(r *http.Request) string {
	if ip, ok := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string); ok && ip != "" {
		return ip
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func init() {
	caddy.RegisterModule(new(FacilitatorHandler))
}

// FacilitatorHandler is http.handlers.x402_facilitator: it serves the x402
// app's embedded facilitator (of every network of the app: /supported
// lists them all, and /verify and /settle go to the payment's network's)
// at /health, /supported, /verify and /settle
// (matched on the last path segment, so it can sit under any prefix). It
// answers every request itself; other paths get a JSON 404.
type FacilitatorHandler struct {
	// The anonymous /verify requests one client address (an IPv6 client
	// by its /64) may make a minute; -1 is no limit. Default 1200. A
	// caller with a facilitator API key is not counted.
	VerifiesPerMinute int `json:"verifies_per_minute,omitempty"`
	// The anonymous /verify requests all clients together may make a
	// second; -1 is no limit. Default 500.
	AnonymousVerifiesPerSecond int `json:"anonymous_verifies_per_second,omitempty"`

	handler *facilitator.Handler
	access  accessLog
}

// CaddyModule returns the Caddy module information.
func (*FacilitatorHandler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402_facilitator", New: func() caddy.Module { return new(FacilitatorHandler) }}
}

// Provision takes the x402 app's embedded facilitator, which the app
// starts.
func (f *FacilitatorHandler) Provision(ctx caddy.Context) error {
	f.access = newAccessLog(ctx)
	appIface, err := ctx.App("x402")
	if err != nil {
		return err
	}
	app := appIface.(*App)
	if app.chain == nil {
		return errors.New("x402_facilitator: the x402 app uses a remote facilitator (facilitator_url); there is no embedded one to serve")
	}
	// One network's facilitator, or, in an app of several, the router
	// that sends each payment to its network's (the API keys are the
	// primary network's store's).
	var (
		fac    facilitator.Facilitator = app.chain
		offers facilitator.Offers      = &app.chain.offers
	)
	if app.router != nil {
		fac, offers = app.router, app.router
	}
	f.handler = &facilitator.Handler{
		Facilitator: fac, Network: app.networkID(), Logger: ctx.Logger(),
		Offers: offers, AuthorizeSettle: app.chain.authorizeSettle, ClientIP: clientIP,
		Catalog:           app.catalog,
		VerifiesPerMinute: f.VerifiesPerMinute, AnonymousVerifiesPerSecond: f.AnonymousVerifiesPerSecond,
	}
	return nil
}

// Validate checks the budgets: positive, or -1 for none.
func (f *FacilitatorHandler) Validate() error {
	if f.VerifiesPerMinute < -1 || f.AnonymousVerifiesPerSecond < -1 {
		return errors.New("x402_facilitator: a verify budget is a positive whole number, or -1 for no limit")
	}
	return nil
}

// ServeHTTP serves the facilitator's routes. Requests that carry an API
// key or a payment header are logged with it shown as REDACTED.
func (f *FacilitatorHandler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	return f.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		f.handler.ServeHTTP(w, r)
		return nil
	})
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*FacilitatorHandler)(nil)
	_ caddy.Validator             = (*FacilitatorHandler)(nil)
	_ caddyhttp.MiddlewareHandler = (*FacilitatorHandler)(nil)
)

func init() {
	caddy.RegisterModule(AdminAPI{})
}

// AdminAPI is admin.api.x402: the x402 admin API (payments, usage,
// projects, keys, audit log) on Caddy's admin endpoint under /x402/, so
// the admin endpoint's access controls guard it. Its routes and shapes
// are in dashboard/openapi.yaml, served at /x402/openapi.yaml. It serves
// the x402 app of the running config, whichever that is.
type AdminAPI struct{}

// CaddyModule returns the Caddy module information.
func (AdminAPI) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "admin.api.x402", New: func() caddy.Module { return new(AdminAPI) }}
}

// adminPrefix is where the admin API answers on the admin endpoint.
const adminPrefix = "/x402/"

// Routes returns the admin API's one route.
func (AdminAPI) Routes() []caddy.AdminRoute {
	return []caddy.AdminRoute{{Pattern: adminPrefix, Handler: caddy.AdminHandlerFunc(serveAdmin)}}
}

// serveAdmin answers an admin request with the API of the running
// config's x402 app.
func serveAdmin(w http.ResponseWriter, r *http.Request) error {
	api, err := adminAPI(r.Context())
	if err != nil {
		// The shape of the admin API's every error (dashboard's apiError).
		edge.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"code": "unavailable", "message": err.Error()})
		return nil
	}
	who := "admin-api"
	if strings.HasPrefix(r.UserAgent(), cliUserAgent) {
		who = "cli"
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil && host != "" {
		who += " (" + host + ")"
	}
	api.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), dashboard.ActorKey{}, who)))
	return nil
}

// errNoX402 is the admin API's answer when the running config has no
// embedded x402 facilitator.
var errNoX402 = errors.New("the running config has no x402 app with an embedded facilitator and store")

func adminAPI(ctx context.Context) (http.Handler, error) {
	appIface, err := caddy.ActiveContext().AppIfConfigured("x402")
	if err != nil {
		return nil, errNoX402
	}
	app, ok := appIface.(*App)
	if !ok || app.chain == nil {
		return nil, errNoX402
	}
	run, st, err := app.chain.runOrKept(ctx)
	if err != nil {
		return nil, err
	}
	if run == nil {
		// The chain does not start: the API over the store it keeps
		// (payments, refusals, webhooks, the audit log), made per call.
		d, err := newDashboard(app.chain, st, nil, nil, app.log.Named("admin"), dashboardLinks{merchant: app.merchantView(app.chain, st)})
		if err != nil {
			return nil, err
		}
		return d.API(adminPrefix), nil
	}
	run.adminMu.Lock()
	defer run.adminMu.Unlock()
	if run.admin == nil {
		// The revenue and refusals of the run; made once per run, so its
		// explorer and webhooks are those of the config that made it.
		d, err := newDashboard(app.chain, run.store, run, nil, app.log.Named("admin"), dashboardLinks{merchant: app.merchantView(app.chain, run.store)})
		if err != nil {
			return nil, err
		}
		run.admin = d.API(adminPrefix)
	}
	return run.admin, nil
}

// Interface guards.
var _ caddy.AdminRouter = AdminAPI{}

// The life of what outlives a config: the chain, the facilitator and the
// handlers' services.
//
// Caddy provisions a config before it runs it, and `caddy validate`
// provisions one it never runs, so a pooled service does no I/O when it is
// provisioned. Provision takes a hold on it in the usage pool, keyed by
// its identity (what must not run twice: a settler key, a store file, a
// port), and checks that the config asks for nothing a reload cannot
// change. The x402 app's Start opens it, once for every config that holds
// it, and puts the config's tunables in force; the last Cleanup closes it.
// Closing waits for Cleanup rather than Stop because Caddy stops its apps
// in no fixed order: the http app may still be finishing requests that
// settle through the service when the x402 app is stopped.

// pool holds what survives config reloads: the chain and facilitator, the
// handlers' services and the metrics.
var pool = caddy.NewUsagePool()

// release gives up a hold taken with pool.LoadOrNew under *key, if one is
// held, and forgets it: Caddy may clean a module up twice. The last hold's
// release destructs the value.
func release(key *string) error {
	if *key == "" {
		return nil
	}
	k := *key
	*key = ""
	_, err := pool.Delete(k)
	return err
}

// tunables are the options of a pooled service that a config reload may
// change while it runs. Their JSON object names them in errors (see
// changedOptions).
type tunables[S, T any] interface {
	// apply puts the tunables in force in s, in place of old: the swap of
	// a reload, in one call.
	apply(s S, old T) error
}

// pooled is a service of the usage pool: S is the running service, T its
// tunables. Its zero value is not usable; see newPooled.
type pooled[S any, T tunables[S, T]] struct {
	what  string // names the service in errors
	fixed any    // options a reload cannot change, as the first holder set them

	// opened is open, readable without mu by other services' start.
	opened atomic.Bool

	starting sync.Mutex    // held by start
	mu       sync.Mutex    // guards what follows
	ready    chan struct{} // closed when an open ends, opened or failed
	open     bool
	svc      S
	err      error        // why the last open failed
	tunables T            // in force while open
	close    func() error // releases what open took
}

// newPooled returns a service that is not open yet. fixed is a struct of
// the options that a reload cannot change, with json tags naming them.
func newPooled[S any, T tunables[S, T]](what string, fixed any) *pooled[S, T] {
	return &pooled[S, T]{what: what, fixed: fixed, ready: make(chan struct{})}
}

// check refuses a config whose fixed options are not those the service
// was created with: a reload cannot change them. It has no effect.
func (p *pooled[S, T]) check(fixed any) error {
	if changed := changedOptions(p.fixed, fixed); len(changed) > 0 {
		return fmt.Errorf("%s runs with a different %s, which a reload cannot change: restart Caddy to apply the change", p.what, strings.Join(changed, ", "))
	}
	return nil
}

// start opens the service with t if no config has yet, or else puts t in
// force in it. open returns the service and what closes it.
func (p *pooled[S, T]) start(t T, open func(T) (S, func() error, error)) error {
	_, err := p.startOrApply(t, open, true)
	return err
}

// startClosed opens the service with t if no config has yet, and reports
// whether it did; a service already open is left as it is.
func (p *pooled[S, T]) startClosed(t T, open func(T) (S, func() error, error)) (bool, error) {
	return p.startOrApply(t, open, false)
}

// startOrApply is start, which puts t in force in an open service only if
// apply.
func (p *pooled[S, T]) startOrApply(t T, open func(T) (S, func() error, error), apply bool) (bool, error) {
	p.starting.Lock() // one start at a time; requests take mu meanwhile
	defer p.starting.Unlock()
	p.mu.Lock()
	if p.open {
		svc, old := p.svc, p.tunables
		p.mu.Unlock()
		changed := changedOptions(old, t)
		if !apply || len(changed) == 0 {
			return false, nil
		}
		// Requests go on meanwhile, with what is in force: an apply may
		// ask the chain. starting keeps other starts out, and the
		// caller's config holds the service, so it is not destructed.
		if err := t.apply(svc, old); err != nil {
			return false, fmt.Errorf("%s: putting the new %s in force: %w", p.what, strings.Join(changed, ", "), err)
		}
		p.mu.Lock()
		p.tunables = t
		p.mu.Unlock()
		return false, nil
	}
	p.err = nil // requests wait for this start
	p.mu.Unlock()

	svc, closer, err := open(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		// Requests waiting for this start fail, and so do those that come
		// before another.
		p.err = fmt.Errorf("starting %s: %w", p.what, err)
		close(p.ready)
		p.ready = make(chan struct{})
		return false, p.err
	}
	p.open, p.svc, p.tunables, p.close = true, svc, t, closer
	p.opened.Store(true)
	close(p.ready)
	return true, nil
}

// errNotStarted answers a request that reaches a pooled service before any
// config started it.
var errNotStarted = errors.New("not started")

// wait returns the running service, waiting for it to start if no config
// has yet (Caddy may start the http app before the x402 app). It fails at
// once if the last start failed.
func (p *pooled[S, T]) wait(ctx context.Context) (S, error) {
	p.mu.Lock()
	if p.open || p.err != nil {
		p.mu.Unlock()
		return p.running()
	}
	ready := p.ready
	p.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		var zero S
		return zero, fmt.Errorf("waiting for %s to start: %w", p.what, ctx.Err())
	}
	return p.running()
}

// running returns the service if it is open.
func (p *pooled[S, T]) running() (S, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.open {
		var zero S
		if p.err != nil {
			return zero, p.err
		}
		return zero, fmt.Errorf("%s: %w", p.what, errNotStarted)
	}
	return p.svc, nil
}

// Destruct closes the service, if it was opened, once the last config
// that holds it is cleaned up.
func (p *pooled[S, T]) Destruct() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.open {
		return nil
	}
	p.open = false
	p.opened.Store(false)
	p.ready = make(chan struct{})
	var zero S
	p.svc = zero
	if err := p.close(); err != nil {
		return fmt.Errorf("closing %s: %w", p.what, err)
	}
	return nil
}

// changedOptions names the options that differ between two values of one
// type, by their JSON names: the keys of their JSON objects whose values
// differ (a key one of them leaves out stands for its zero value).
func changedOptions(a, b any) []string {
	ma, mb := jsonFields(a), jsonFields(b)
	var changed []string
	for k, va := range ma {
		if vb, ok := mb[k]; !ok || !bytes.Equal(va, vb) {
			changed = append(changed, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	return changed
}

// jsonFields is v's JSON object, by key.
func jsonFields(v any) map[string]json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encoding options: %v", err)) // only config structs come here
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(fmt.Sprintf("options %s are not a JSON object: %v", raw, err))
	}
	return m
}

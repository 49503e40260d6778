package caddymodule

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/pathguard"
	"github.com/caddy-x402/caddy-x402/paywall"
)

func init() {
	caddy.RegisterModule(new(PathGuard))
}

// PathGuard is http.handlers.x402_path_guard, the Caddy adapter of
// pathguard.Guard: it refuses, with a JSON 400, a request whose path could
// reach a paid resource past the paid route's matcher, and answers the
// site's RFC 9728 metadata. It goes first in every site that has a paid
// route (x402), ahead of any routing; a site with x402 and no guard in
// front of its routes is refused when the config loads (pathcover.go).
// pathguard.Guard's documentation has the rule.
//
// The guard answers here, not with a returned error: Caddy's error log
// would record the request's headers, a payment among them, and
// handle_errors could answer HTML.
type PathGuard struct {
	// AllowPathParams lets ";" through (raw or %3B), for an upstream that
	// needs path parameters, such as a servlet container's ;jsessionid.
	// With it, list a site's free paths explicitly and make its catch-all
	// paid, so that a path the paid matcher misses is not free. Off by
	// default: ";" is refused.
	AllowPathParams bool `json:"allow_path_params,omitempty"`

	guard  pathguard.Guard
	access accessLog
}

// CaddyModule returns the Caddy module information.
func (*PathGuard) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers." + pathGuardName, New: func() caddy.Module { return new(PathGuard) }}
}

// Provision sets the rule up, with the x402 app's discoverable routes (if
// any) for the metadata.
func (g *PathGuard) Provision(ctx caddy.Context) error {
	log := ctx.Logger()
	g.access = newAccessLog(ctx)
	g.guard = pathguard.Guard{
		Rule: pathguard.Rule{AllowParams: g.AllowPathParams},
		Refused: func(r *http.Request, why pathguard.Refusal) {
			log.Debug("path refused", zap.String("reason", string(why)), zap.String("host", r.Host))
		},
	}
	app, err := ctx.AppIfConfigured("x402")
	if err != nil {
		return nil // no x402 app: the metadata lists no routes
	}
	if a, ok := app.(*App); ok && a.catalog != nil {
		g.guard.Resources = a.catalog.Resources
	}
	return nil
}

// ServeHTTP answers r if the guard does, else passes it on.
func (g *PathGuard) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	if !g.guard.Answers(r) {
		// The access proofs are the paywall's alone: no free route of the
		// site, nor its upstream, sees them (paywall.HoldProofs).
		return next.ServeHTTP(w, paywall.HoldProofs(r))
	}
	return g.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		g.guard.ServeHTTP(w, r)
		return nil
	})
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*PathGuard)(nil)
	_ caddyhttp.MiddlewareHandler = (*PathGuard)(nil)
)

// Whether every paid route of a server has x402_path_guard in front of its
// site's routes.
//
// The Caddyfile cannot put the guard there by itself: a directive nested in
// `handle` only adds to that handle's subroute, and nothing a directive or
// a global option returns reaches the top of its site. So the guard is a
// directive of its own, and a paid route refuses to load without it, in
// `caddy validate` as in `caddy run`.

// The module names the check looks for.
const (
	pathGuardName = "x402_path_guard"
	paywallName   = "x402"
)

// routeShape is what the check needs of a route, whether Caddy has
// provisioned it yet or not.
type routeShape struct {
	matchers []string // the module names of its matchers, every set
	handlers []handlerShape
}

// handlerShape is what the check needs of a handler: its module name, and
// the routes it runs (a subroute's, or an invoked named route), and a
// subroute's error routes.
type handlerShape struct {
	name   string
	routes []routeShape
	errors []routeShape
}

// guards reports whether rt runs the guard before anything else, for every
// request that reaches it.
func (rt routeShape) guards() bool {
	return len(rt.matchers) == 0 && len(rt.handlers) > 0 && rt.handlers[0].name == pathGuardName
}

// hostOnly reports whether rt chooses requests by host alone, as a
// Caddyfile site without a path in its address does.
func (rt routeShape) hostOnly() bool {
	for _, m := range rt.matchers {
		if m != "host" {
			return false
		}
	}
	return true
}

// paywalls counts the paywalls in list, and those of them that a request
// can reach without passing a guard. A guard counts if it is the first
// route of a site's route list, without matchers: then every request for
// the site passes it before any path is matched. A site's route list is
// the server's, or the subroute of a route chosen by host alone with no
// route chosen by anything else ahead of it (a Caddyfile site block).
func paywalls(list []routeShape, guarded, site bool) (all, unguarded int) {
	if site && len(list) > 0 && list[0].guards() {
		guarded = true
	}
	for _, rt := range list {
		for _, h := range rt.handlers {
			if h.name == paywallName {
				all++
				if !guarded {
					unguarded++
				}
			}
			a, u := paywalls(h.routes, guarded, site && rt.hostOnly() && h.name == "subroute")
			all, unguarded = all+a, unguarded+u
			// A subroute's error routes run after its routes failed,
			// past whatever guard they passed.
			a, u = paywalls(h.errors, guarded, false)
			all, unguarded = all+a, unguarded+u
		}
		if !rt.hostOnly() {
			site = false // the routes after this one are chosen by path, or more
		}
	}
	return all, unguarded
}

// checkPathGuard refuses the config of srv, the server a paywall is being
// provisioned in, if one of its paid routes has no guard in front of its
// site. It only reads srv.
func checkPathGuard(srv *caddyhttp.Server) error {
	if srv == nil {
		return nil // not in an HTTP server: nothing routes around it
	}
	s := newShaper(srv)
	all, n := paywalls(s.routes(srv.Routes), false, true)
	if srv.Errors != nil {
		a, u := paywalls(s.routes(srv.Errors.Routes), false, true)
		all, n = all+a, n+u
	}
	switch {
	case s.err != nil:
		return fmt.Errorf("x402: reading the routes of server %s: %w", srv.Name(), s.err)
	case all == 0:
		// The paywall being provisioned is somewhere the check does not
		// look (or Caddy changed how it provisions routes): refuse rather
		// than serve a route nobody checked.
		return fmt.Errorf("x402: the paid route is not among the routes of server %s that x402 can check "+
			"(its site's routes, subroutes such as handle and route, their error routes, and invoked named routes); "+
			"put x402 in one of those", srv.Name())
	case n == 0:
		return nil
	}
	return fmt.Errorf("x402: server %s has %d paid route(s) (x402) without x402_path_guard in front of their site's routes, "+
		"so a path such as /paid;x/report or /paid%%5Creport could miss the paid route and reach a free one; "+
		"add the line `x402_path_guard` to each site block that has x402 "+
		"(in JSON: first in the site's routes, a route without matchers whose first handler is {\"handler\":\"x402_path_guard\"}); "+
		"a site address with a path (example.com/paid/*) cannot be guarded, use handle /paid/* in its site instead", srv.Name(), n)
}

// shaper reads a server's routes into shapes. Caddy provisions a server's
// routes in order and drops their JSON once loaded: the routes before the
// one being provisioned are modules, that one and the rest still JSON.
type shaper struct {
	named   map[string]*caddyhttp.Route
	invoked map[string]bool // named routes being read, against cycles
	err     error
}

func newShaper(srv *caddyhttp.Server) *shaper {
	return &shaper{named: srv.NamedRoutes, invoked: map[string]bool{}}
}

// routes shapes a provisioned or unprovisioned route list.
func (s *shaper) routes(list caddyhttp.RouteList) []routeShape {
	out := make([]routeShape, 0, len(list))
	for i := range list {
		out = append(out, s.route(&list[i]))
	}
	return out
}

func (s *shaper) route(r *caddyhttp.Route) routeShape {
	var rt routeShape
	if len(r.MatcherSetsRaw) > 0 {
		for _, set := range r.MatcherSetsRaw {
			for name := range set {
				rt.matchers = append(rt.matchers, name)
			}
		}
	} else {
		for _, set := range r.MatcherSets {
			for _, m := range set {
				rt.matchers = append(rt.matchers, moduleName(m))
			}
		}
	}
	if len(r.HandlersRaw) > 0 {
		for _, raw := range r.HandlersRaw {
			rt.handlers = append(rt.handlers, s.rawHandler(raw))
		}
		return rt
	}
	for _, h := range r.Handlers {
		hs := handlerShape{name: moduleName(h)}
		switch h := h.(type) {
		case *caddyhttp.Subroute:
			hs.routes = s.routes(h.Routes)
			if h.Errors != nil {
				hs.errors = s.routes(h.Errors.Routes)
			}
		case *caddyhttp.Invoke:
			hs.routes = s.invoke(h.Name)
		}
		rt.handlers = append(rt.handlers, hs)
	}
	return rt
}

// moduleName is v's Caddy module name, or "?" if it is not a module, which
// the check treats as a matcher or handler it does not know.
func moduleName(v any) string {
	if name := caddy.GetModuleName(v); name != "" {
		return name
	}
	return "?"
}

// rawRoute and rawHandler are the parts of a route's JSON the check reads.
type rawRoute struct {
	Match  []map[string]json.RawMessage `json:"match"`
	Handle []json.RawMessage            `json:"handle"`
}

type rawHandler struct {
	Handler string            `json:"handler"`
	Routes  []json.RawMessage `json:"routes"`
	Errors  *struct {
		Routes []json.RawMessage `json:"routes"`
	} `json:"errors"`
	Name string `json:"name"`
}

func (s *shaper) rawHandler(raw json.RawMessage) handlerShape {
	var h rawHandler
	if err := json.Unmarshal(raw, &h); err != nil {
		s.err = err
		return handlerShape{name: "?"}
	}
	hs := handlerShape{name: h.Handler}
	switch h.Handler {
	case "subroute":
		for _, r := range h.Routes {
			hs.routes = append(hs.routes, s.rawRoute(r))
		}
		if h.Errors != nil {
			for _, r := range h.Errors.Routes {
				hs.errors = append(hs.errors, s.rawRoute(r))
			}
		}
	case "invoke":
		hs.routes = s.invoke(h.Name)
	}
	return hs
}

func (s *shaper) rawRoute(raw json.RawMessage) routeShape {
	var r rawRoute
	if err := json.Unmarshal(raw, &r); err != nil {
		s.err = err
		return routeShape{}
	}
	var rt routeShape
	for _, set := range r.Match {
		for name := range set {
			rt.matchers = append(rt.matchers, name)
		}
	}
	for _, h := range r.Handle {
		rt.handlers = append(rt.handlers, s.rawHandler(h))
	}
	return rt
}

// invoke shapes the named route that an invoke handler runs: as a route
// list of one, reached where the invoke is.
func (s *shaper) invoke(name string) []routeShape {
	r, ok := s.named[name]
	if !ok || r == nil || s.invoked[name] {
		return nil
	}
	s.invoked[name] = true
	defer delete(s.invoked, name)
	return []routeShape{s.route(r)}
}

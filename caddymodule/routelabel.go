package caddymodule

import (
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// The route a paid request is counted under, in the refusal counters and
// the served-unpaid records: the route the merchant configured (its host
// and path matchers, as written), never the request's own path. A payer
// chooses the path of its request within the route (`/paid/<anything>`),
// so counting by it would let anyone fill the bounded counters with made-up
// paths and push the real routes' refusals out (issue 40, item 6).

// maxRouteLabel bounds a route's label, in bytes.
const maxRouteLabel = 120

// unmatchedRoute is the label of a request whose handler was not found in
// its server's routes (an invoked named route, a config being replaced).
const unmatchedRoute = "(unmatched route)"

// routeName is a route's label, worked out once.
type routeName struct {
	once  sync.Once
	label string
}

// routeLabel is the label of h's route in r's server: the host and path
// patterns of the matchers on the way to h, such as "example.com/paid/*".
// It is worked out once, on the first request, when Caddy has provisioned
// every route.
func (h *Handler) routeLabel(r *http.Request) string {
	rn := h.route
	if rn == nil {
		rn = new(routeName) // a handler Caddy did not provision: not kept
	}
	rn.once.Do(func() {
		rn.label = unmatchedRoute
		srv, _ := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
		if srv == nil {
			return
		}
		if hosts, paths, ok := findHandler(srv.Routes, h, nil, nil); ok {
			rn.label = labelOf(hosts, paths)
		}
	})
	return rn.label
}

// findHandler looks for h in routes and the subroutes below them, and
// returns the host and path patterns of the innermost route matchers on
// the way. The patterns of a route (of one matcher set or of several) are
// alternatives.
func findHandler(routes caddyhttp.RouteList, h *Handler, hosts, paths []string) ([]string, []string, bool) {
	for _, rt := range routes {
		var rh, rp []string
		for _, set := range rt.MatcherSets {
			for _, m := range set {
				switch m := m.(type) {
				case *caddyhttp.MatchHost:
					rh = append(rh, *m...)
				case caddyhttp.MatchHost:
					rh = append(rh, m...)
				case *caddyhttp.MatchPath:
					rp = append(rp, *m...)
				case caddyhttp.MatchPath:
					rp = append(rp, m...)
				}
			}
		}
		// A nested route's matchers narrow the outer ones: the innermost
		// win.
		if len(rh) == 0 {
			rh = hosts
		}
		if len(rp) == 0 {
			rp = paths
		}
		for _, handler := range rt.Handlers {
			if handler == caddyhttp.MiddlewareHandler(h) {
				return rh, rp, true
			}
			if sub, ok := handler.(*caddyhttp.Subroute); ok {
				if fh, fp, ok := findHandler(sub.Routes, h, rh, rp); ok {
					return fh, fp, true
				}
			}
		}
	}
	return nil, nil, false
}

// labelOf writes hosts and paths as one label, such as
// "example.com/paid/*"; no path matcher is "/*".
func labelOf(hosts, paths []string) string {
	path := "/*"
	if len(paths) > 0 {
		path = strings.Join(slices.Compact(paths), ",")
	}
	label := path
	if len(hosts) > 0 {
		label = strings.Join(slices.Compact(hosts), ",") + path
	}
	if len(label) > maxRouteLabel {
		label = label[:maxRouteLabel]
	}
	return label
}

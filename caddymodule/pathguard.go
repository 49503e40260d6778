package caddymodule

import (
	"encoding/json"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
)

func init() {
	caddy.RegisterModule(new(PathGuard))
}

// PathGuard is http.handlers.x402_path_guard: it refuses, with a JSON 400,
// a request whose path could reach a paid resource past the paid route's
// matcher. It goes first in every site that has a paid route (x402), ahead
// of any routing; a site with x402 and no guard in front of its routes is
// refused when the config loads.
//
// Caddy's path matcher sees the path decoded and cleaned, but an upstream
// may read the request target another way: servlet containers drop ";"
// path parameters, some servers read "\" as "/" or decode "%2F". So
// /paid;x/report misses `handle /paid/*` in Caddy, reaches a free route,
// and is served /paid/report upstream. The guard refuses any path that
// holds, raw, percent-encoded or double-encoded (%255C): a ";" path
// parameter, a backslash, an encoded slash (%2F), a "." or ".." segment, a
// control character (%00-%1F, %7F), or a line separator (U+0085, U+2028,
// U+2029); and a path that is not valid percent-encoded UTF-8. The query
// string is not looked at. The answer is
//
//	{"error":"path_refused","reason":"path_parameter","message":"…"}
//
// with reason one of path_parameter, backslash, encoded_slash,
// dot_segment, control_character, line_separator, bad_encoding.
//
// A path that passes and is /.well-known/oauth-protected-resource, or
// below it, is answered by the guard with the site's RFC 9728
// protected-resource metadata (see docs/discovery.md).
type PathGuard struct {
	// AllowPathParams lets ";" through (raw or %3B), for an upstream that
	// needs path parameters, such as a servlet container's ;jsessionid.
	// With it, list a site's free paths explicitly and make its catch-all
	// paid, so that a path the paid matcher misses is not free. Off by
	// default: ";" is refused.
	AllowPathParams bool `json:"allow_path_params,omitempty"`

	rule    pathRule
	log     *zap.Logger
	access  accessLog
	catalog *facilitator.Catalog // the x402 app's discoverable routes, if any
}

// CaddyModule returns the Caddy module information.
func (*PathGuard) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers." + pathGuardName, New: func() caddy.Module { return new(PathGuard) }}
}

// Provision sets the rule up.
func (g *PathGuard) Provision(ctx caddy.Context) error {
	g.log = ctx.Logger()
	g.access = newAccessLog(ctx)
	g.rule = pathRule{allowParams: g.AllowPathParams}
	app, err := ctx.AppIfConfigured("x402")
	if err != nil {
		return nil // no x402 app: the metadata lists no routes
	}
	if a, ok := app.(*App); ok {
		g.catalog = a.catalog
	}
	return nil
}

// pathRefusedBody is the JSON of a refusal.
type pathRefusedBody struct {
	Error   string      `json:"error"`
	Reason  pathRefusal `json:"reason"`
	Message string      `json:"message"`
}

// ServeHTTP refuses r if its path breaks the rule, else passes it on.
func (g *PathGuard) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	why := g.rule.check(r)
	if why == "" {
		if suffix, ok := metadataPath(r); ok {
			return g.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
				g.serveMetadata(w, r, suffix)
				return nil
			})
		}
		// The access proofs are the paywall's alone: no free route of the
		// site, nor its upstream, sees them (paywall.HoldProofs).
		return next.ServeHTTP(w, paywall.HoldProofs(r))
	}
	// Answered here, not returned as an error: Caddy's error log would
	// record the request's headers, a payment among them, and
	// handle_errors could answer HTML.
	return g.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		g.log.Debug("path refused", zap.String("reason", string(why)), zap.String("host", r.Host))
		body, _ := json.Marshal(pathRefusedBody{Error: "path_refused", Reason: why, Message: pathRefusalMessages[why]})
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(append(body, '\n'))
		return nil
	})
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*PathGuard)(nil)
	_ caddyhttp.MiddlewareHandler = (*PathGuard)(nil)
)

package caddymodule

import (
	"errors"
	"net"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/caddy-x402/caddy-x402/facilitator"
)

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

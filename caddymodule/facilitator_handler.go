package caddymodule

import (
	"errors"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/caddy-x402/caddy-x402/facilitator"
)

func init() {
	caddy.RegisterModule(new(FacilitatorHandler))
}

// FacilitatorHandler is http.handlers.x402_facilitator: it serves the x402
// app's embedded facilitator at /health, /supported, /verify and /settle
// (matched on the last path segment, so it can sit under any prefix). It
// answers every request itself; other paths get a JSON 404.
type FacilitatorHandler struct {
	handler *facilitator.Handler
}

// CaddyModule returns the Caddy module information.
func (*FacilitatorHandler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402_facilitator", New: func() caddy.Module { return new(FacilitatorHandler) }}
}

// Provision takes the x402 app's embedded facilitator.
func (f *FacilitatorHandler) Provision(ctx caddy.Context) error {
	appIface, err := ctx.App("x402")
	if err != nil {
		return err
	}
	app := appIface.(*App)
	if app.shared == nil {
		return errors.New("x402_facilitator: the x402 app uses a remote facilitator (facilitator_url); there is no embedded one to serve")
	}
	f.handler = &facilitator.Handler{Facilitator: app.shared.fac, Network: app.networkID(), Logger: ctx.Logger()}
	return nil
}

// ServeHTTP serves the facilitator's routes.
func (f *FacilitatorHandler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	f.handler.ServeHTTP(w, r)
	return nil
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*FacilitatorHandler)(nil)
	_ caddyhttp.MiddlewareHandler = (*FacilitatorHandler)(nil)
)

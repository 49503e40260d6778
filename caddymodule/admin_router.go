package caddymodule

import (
	"context"

	"errors"
	"net"
	"net/http"
	"strings"

	"github.com/caddyserver/caddy/v2"

	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/edge"
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

package caddymodule

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/caddyauth"
	"go.uber.org/zap"
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

package caddymodule

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// TestDashboardRefusesAnonymous: without an authentication handler before
// it, the dashboard answers 403 and never reaches the store.
func TestDashboardRefusesAnonymous(t *testing.T) {
	t.Parallel()
	h := &DashboardHandler{} // no app: reaching it would panic
	for _, user := range []string{"", "-"} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		repl := caddy.NewReplacer()
		if user != "" {
			repl.Set("http.auth.user.id", "") // authentication ran but set nobody
		}
		r = r.WithContext(context.WithValue(r.Context(), caddy.ReplacerCtxKey, repl))
		w := httptest.NewRecorder()
		if err := h.ServeHTTP(w, r, nil); err != nil {
			t.Fatal(err)
		}
		if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "basic_auth") {
			t.Fatalf("anonymous request: %d %s", w.Code, w.Body)
		}
	}
}

func TestDashboardCaddyfile(t *testing.T) {
	t.Parallel()
	var h DashboardHandler
	d := caddyfile.NewTestDispenser("x402_dashboard {\n low_balance 0.5\n path_prefix /dash/\n allow_anonymous\n}")
	if err := h.UnmarshalCaddyfile(d); err != nil {
		t.Fatal(err)
	}
	if h.LowBalance != "0.5" || h.PathPrefix != "/dash/" || !h.AllowAnonymous || h.Validate() != nil {
		t.Fatalf("%q %q %v", h.LowBalance, h.PathPrefix, h.AllowAnonymous)
	}
	for _, bad := range []string{"x402_dashboard {\n low_balance lots\n}", "x402_dashboard {\n path_prefix dash\n}"} {
		var h DashboardHandler
		if err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(bad)); err != nil {
			continue
		}
		if h.Validate() == nil {
			t.Errorf("%q validated", bad)
		}
	}
	var extra DashboardHandler
	if err := extra.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402_dashboard {\n allow_anonymous yes\n}")); err == nil {
		t.Error("allow_anonymous took an argument")
	}
}

package caddymodule

import (
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp/caddyauth"
	"golang.org/x/crypto/bcrypt"
)

// TestAnnounceNamesOnlyTheDemoLogin: the start log names the dashboard's
// login only when its basic_auth password is the demo's documented one;
// any other password is never shown, only that basic_auth guards it.
func TestAnnounceNamesOnlyTheDemoLogin(t *testing.T) {
	t.Parallel()
	hash := func(pw string) string {
		h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
		if err != nil {
			t.Fatal(err)
		}
		return string(h)
	}
	tests := []struct{ name, password, want string }{
		{"the demo's", demoDashboardPassword, "the dashboard (the demo's login: user admin, password " + demoDashboardPassword + ")"},
		{"another", "correct horse battery staple", "the dashboard (behind basic_auth)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			auth := &caddyauth.HTTPBasicAuth{Hash: caddyauth.BcryptHash{}, Accounts: map[string]caddyauth.Account{"admin": {Username: "admin", Password: hash(tc.password)}}}
			p := siteParts{dashboard: true, auth: []*caddyauth.HTTPBasicAuth{auth}}
			got := strings.Join(p.describe(), ", ")
			if got != tc.want || (tc.password != demoDashboardPassword && strings.Contains(got, tc.password)) {
				t.Fatalf("describe = %q, want %q", got, tc.want)
			}
		})
	}
}

package paywall

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/caddy-x402/caddy-x402/siwx"
)

// TestCookiePath: the access cookie is scoped to the route's paths: the
// configured path, or the first segment of the paid request's path; never
// the whole host unless the route is the root.
func TestCookiePath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		configured, request, want string
	}{
		{"", "/paid/report", "/paid"},
		{"", "/paid/a/b?x=1", "/paid"},
		{"", "/report", "/report"},
		{"", "/", "/"},
		{"/api/v1/paid", "/api/v1/paid/x", "/api/v1/paid"},
	} {
		a := &Access{CookiePath: tc.configured}
		r := httptest.NewRequest(http.MethodGet, tc.request, nil)
		if got := a.cookiePath(r); got != tc.want {
			t.Errorf("CookiePath %q, request %s: %q, want %q", tc.configured, tc.request, got, tc.want)
		}
	}
}

// TestHoldProofs: in front of a site, the access cookies of every route
// and the sign-in header leave the request's headers (a free route and its
// upstream never see them), and a paywall down the chain still reads its
// own; the request HoldProofs was given is left as it was.
func TestHoldProofs(t *testing.T) {
	t.Parallel()
	p := &Paywall{cfg: Config{Access: &Access{Route: "reports"}}}
	name := p.cookieName()
	r := httptest.NewRequest(http.MethodGet, "/free", nil)
	r.Header.Set("Cookie", name+"=payer.1.mac; theme=dark; x402_access_0123456789ab=other")
	r.Header.Set(siwx.Header, "proof")
	held := HoldProofs(r)
	if got := held.Header.Get("Cookie"); got != "theme=dark" {
		t.Fatalf("the held request's cookies: %q, want only theme=dark", got)
	}
	if held.Header.Get(siwx.Header) != "" {
		t.Fatal("the sign-in header was passed on")
	}
	if r.Header.Get(siwx.Header) != "proof" || len(r.Cookies()) != 3 {
		t.Fatalf("the original request was changed: %v", r.Header)
	}
	signIn, cookie := p.proofs(held)
	if signIn != "proof" || cookie == nil || cookie.Value != "payer.1.mac" {
		t.Fatalf("the paywall reads %q %+v, want its proofs", signIn, cookie)
	}
	// Held twice (nested sites), the proofs are still there.
	if signIn, cookie := p.proofs(HoldProofs(held)); signIn != "proof" || cookie == nil {
		t.Fatalf("held twice: %q %+v", signIn, cookie)
	}
	// A request without proofs is passed on as it is.
	plain := httptest.NewRequest(http.MethodGet, "/free", nil)
	plain.Header.Set("Cookie", "theme=dark")
	if HoldProofs(plain) != plain {
		t.Fatal("a request without proofs was copied")
	}
	// What the protected handler gets holds no proof either.
	if out := withoutProofs(r); out.Header.Get(siwx.Header) != "" || out.Header.Get("Cookie") != "theme=dark" {
		t.Fatalf("withoutProofs: %v", out.Header)
	}
}

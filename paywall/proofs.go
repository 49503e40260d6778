package paywall

import (
	"cmp"
	"context"
	"net/http"
	"strings"

	"github.com/caddy-x402/caddy-x402/siwx"
)

// Access proofs (the access cookies and the SIGN-IN-WITH-X header) are a
// window's bearer credentials: whoever holds one is served from its
// payer's window. They are for the paywall alone, and never reach a
// protected handler, a free route, or their upstreams.
//
// A paywall removes them from the requests it passes on (withoutProofs).
// In front of a whole site, HoldProofs removes them from every request, so
// that a free route never sees them either (a browser sends a cookie to
// every path under its Path, and to every port of its host), and keeps
// them in the request's context, where the paywall of a paid route reads
// them.

// accessCookiePrefix begins the name of every route's access cookie.
const accessCookiePrefix = "x402_access_"

// heldProofsKey is the context key of the proofs HoldProofs took.
type heldProofsKey struct{}

// heldProofs are the access proofs HoldProofs took from a request.
type heldProofs struct {
	signIn  string
	cookies []*http.Cookie
}

// HoldProofs returns r without its access proofs: the access cookies of
// every route (named x402_access_…) and the SIGN-IN-WITH-X header. They
// are kept in the returned request's context, where a Paywall down the
// chain reads them; nothing else can. A request without proofs is
// returned as it is.
func HoldProofs(r *http.Request) *http.Request {
	signIn := r.Header.Get(siwx.Header)
	var held, kept []*http.Cookie
	for _, c := range r.Cookies() {
		if strings.HasPrefix(c.Name, accessCookiePrefix) {
			held = append(held, c)
		} else {
			kept = append(kept, c)
		}
	}
	if signIn == "" && len(held) == 0 {
		return r
	}
	h := &heldProofs{signIn: signIn, cookies: held}
	if prev, ok := r.Context().Value(heldProofsKey{}).(*heldProofs); ok {
		h.signIn = cmp.Or(h.signIn, prev.signIn)
		h.cookies = append(h.cookies, prev.cookies...)
	}
	r2 := r.WithContext(context.WithValue(r.Context(), heldProofsKey{}, h))
	r2.Header = r.Header.Clone()
	r2.Header.Del(siwx.Header)
	setCookies(r2.Header, kept)
	return r2
}

// proofs are r's sign-in header and this route's access cookie, from its
// headers or from what HoldProofs took.
func (p *Paywall) proofs(r *http.Request) (signIn string, cookie *http.Cookie) {
	name := p.cookieName()
	signIn = r.Header.Get(siwx.Header)
	cookie, _ = r.Cookie(name)
	if h, ok := r.Context().Value(heldProofsKey{}).(*heldProofs); ok {
		signIn = cmp.Or(signIn, h.signIn)
		for _, c := range h.cookies {
			if cookie == nil && c.Name == name {
				cookie = c
			}
		}
	}
	return signIn, cookie
}

// withoutProofs is r without its sign-in header and access cookies, which
// the protected handler has no use for and must not log.
func withoutProofs(r *http.Request) *http.Request {
	var kept []*http.Cookie
	found := false
	for _, c := range r.Cookies() {
		if strings.HasPrefix(c.Name, accessCookiePrefix) {
			found = true
		} else {
			kept = append(kept, c)
		}
	}
	if r.Header.Get(siwx.Header) == "" && !found {
		return r
	}
	r2 := r.Clone(r.Context())
	r2.Header.Del(siwx.Header)
	setCookies(r2.Header, kept)
	return r2
}

// setCookies makes h's Cookie header the cookies kept.
func setCookies(h http.Header, kept []*http.Cookie) {
	h.Del("Cookie")
	if len(kept) == 0 {
		return
	}
	parts := make([]string, len(kept))
	for i, c := range kept {
		parts[i] = c.Name + "=" + c.Value
	}
	h.Set("Cookie", strings.Join(parts, "; "))
}

// cookiePath is the Path of the access cookie set on the paid response to
// r: CookiePath, or the first segment of r's path.
func (a *Access) cookiePath(r *http.Request) string {
	if a.CookiePath != "" {
		return a.CookiePath
	}
	path := r.URL.Path
	if path == "" || path == "/" {
		return "/"
	}
	if i := strings.IndexByte(path[1:], '/'); i >= 0 {
		return path[:i+1]
	}
	return path
}

package pathguard

import (
	"net/http"

	"github.com/caddy-x402/caddy-x402/edge"
)

// Guard refuses, with a JSON 400, a request whose path could reach a paid
// resource past the paid route's matcher, and answers the site's RFC 9728
// metadata. It goes first in every site that has a paid route, ahead of
// any routing.
//
// A router sees the path decoded and cleaned, but an upstream may read the
// request target another way: servlet containers drop ";" path
// parameters, some servers read "\" as "/" or decode "%2F". So
// /paid;x/report misses a /paid/* route, reaches a free route, and is
// served /paid/report upstream. The guard refuses any path that holds,
// raw, percent-encoded or double-encoded (%255C): a ";" path parameter, a
// backslash, an encoded slash (%2F), a "." or ".." segment, a control
// character (%00-%1F, %7F), or a line separator (U+0085, U+2028, U+2029);
// and a path that is not valid percent-encoded UTF-8. The query string is
// not looked at. The answer is
//
//	{"error":"path_refused","reason":"path_parameter","message":"…"}
//
// with reason one of the Refusal values.
//
// A path that passes and is /.well-known/oauth-protected-resource, or
// below it, is answered with the site's protected-resource metadata
// (see docs/discovery.md).
type Guard struct {
	// Rule is what is refused.
	Rule Rule
	// Resources, if set, lists the paid resources of an origin (such as
	// https://shop.example) for the metadata's x402_resources.
	Resources func(origin string) []string
	// Refused, if set, is told of each refusal (to log it).
	Refused func(r *http.Request, why Refusal)
}

// Body is the JSON of a refusal.
type Body struct {
	Error   string  `json:"error"`
	Reason  Refusal `json:"reason,omitempty"`
	Message string  `json:"message"`
}

// Answers reports whether the guard answers r itself (a refusal or the
// metadata) rather than passing it on. It costs one Rule.Check.
func (g *Guard) Answers(r *http.Request) bool {
	if g.Rule.Check(r) != "" {
		return true
	}
	_, ok := metadataPath(r)
	return ok
}

// ServeHTTP answers r when Answers(r) holds; otherwise it writes nothing.
func (g *Guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.serve(w, r)
}

// serve answers r if the guard answers it, and reports whether it did.
func (g *Guard) serve(w http.ResponseWriter, r *http.Request) bool {
	why := g.Rule.Check(r)
	if why == "" {
		suffix, ok := metadataPath(r)
		if ok {
			g.serveMetadata(w, r, suffix)
		}
		return ok
	}
	if g.Refused != nil {
		g.Refused(r, why)
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	edge.WriteJSON(w, http.StatusBadRequest, Body{Error: "path_refused", Reason: why, Message: why.Message()})
	return true
}

// Handler returns next behind the guard.
func (g *Guard) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.serve(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}

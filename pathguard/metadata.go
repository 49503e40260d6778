package pathguard

import (
	"net/http"
	"strings"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// wellKnownPath is where RFC 9728 publishes a protected resource's
// metadata.
const wellKnownPath = "/.well-known/oauth-protected-resource"

// resourceMetadata is the RFC 9728 protected-resource metadata of a paid
// site. Of RFC 9728's fields it has resource and bearer_methods_supported
// (empty: x402 takes no bearer token); authorization_servers is absent,
// since no OAuth server issues anything. The x402_* fields are extensions
// (RFC 9728 section 2 allows them) that say how to pay instead: the
// challenge is the PAYMENT-REQUIRED header of a 402, the payment goes in
// PAYMENT-SIGNATURE.
type resourceMetadata struct {
	Resource      string   `json:"resource"`
	BearerMethods []string `json:"bearer_methods_supported"`
	X402Version   int      `json:"x402_version"`
	ChallengeHdr  string   `json:"x402_payment_required_header"`
	PaymentHdr    string   `json:"x402_payment_header"`
	ChallengeCode int      `json:"x402_challenge_status"`
	PaidResources []string `json:"x402_resources,omitempty"`
}

// metadataPath reports whether r asks for the metadata:
// /.well-known/oauth-protected-resource, or below it for a resource with a
// path (RFC 9728 section 3.1), whose path it returns.
func metadataPath(r *http.Request) (string, bool) {
	if !strings.HasPrefix(r.URL.Path, wellKnownPath) {
		return "", false // every other request: no escaping work
	}
	suffix, ok := strings.CutPrefix(r.URL.EscapedPath(), wellKnownPath)
	if !ok || (suffix != "" && suffix[0] != '/') {
		return "", false
	}
	return suffix, true
}

// serveMetadata answers a request for the site's metadata: for GET or
// HEAD, the metadata of the resource at the request's own scheme and Host,
// as the paywall's 402 names it (client X-Forwarded-* headers are not
// used), plus suffix. x402_resources lists the discoverable routes
// (bazaar) of this origin, from g.Resources. Nothing in it is secret.
func (g *Guard) serveMetadata(w http.ResponseWriter, r *http.Request, suffix string) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		edge.WriteJSON(w, http.StatusMethodNotAllowed, Body{Error: "method_not_allowed", Message: "GET only"})
		return
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	origin := scheme + "://" + r.Host
	md := resourceMetadata{
		Resource: origin + strings.TrimSuffix(suffix, "/"), BearerMethods: []string{},
		X402Version: x402.Version, ChallengeHdr: x402.HeaderPaymentRequired,
		PaymentHdr: x402.HeaderPaymentSignature, ChallengeCode: http.StatusPaymentRequired,
	}
	if g.Resources != nil {
		md.PaidResources = g.Resources(origin)
	}
	// Public and the same for everyone; it changes with the config.
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Access-Control-Allow-Origin", "*")
	edge.WriteJSON(w, http.StatusOK, md)
}

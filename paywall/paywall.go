// Package paywall is the merchant side of x402 as plain net/http middleware:
// it answers unpaid requests with 402 and a PAYMENT-REQUIRED challenge,
// verifies the PAYMENT-SIGNATURE of paid ones, lets the protected handler
// run, settles when that handler answers with success, and adds
// PAYMENT-RESPONSE.
//
// It depends only on the wire package and on a two-method Facilitator, so
// an in-process facilitator.Service and a remote facilitator.Client both
// fit, and it runs with or without Caddy.
//
// x402 v1 clients pay the same routes: they read the 402's JSON body,
// which is the v1 challenge where v1 can pay an offer, and pay in
// X-PAYMENT, which the paywall converts to the v2 payment it is and holds
// to the same offer, guard and replay key (see v1.go).
//
// Money rules: nothing is served without a settled payment, nothing is
// settled without being served, and one payment pays for one response. By
// default settlement happens when the protected handler writes its status:
// only a 2xx or 3xx is settled; an error answer passes through unpaid; if
// settlement fails the handler's answer is dropped and the client gets 402
// (or 503 when the outcome is not known yet, so it retries instead of paying
// again). With SettleBefore the payment is settled before the handler runs,
// for handlers that must not run twice.
//
// A batch-settlement payment (payment channels) is charged off chain,
// against its channel's state, which Config.Channels keeps: held per
// channel for the request, charged when the response is decided, and
// committed once it was served (see channel.go).
//
// Each request is classified once, before anything is verified (an unpaid
// request, a refused one, a CORS preflight, the use of an access window,
// or a payment; see walk.go), and then walks one straight path for its
// kind. Its steps return refusals rather than writing them, and every
// refusal is written in one place (challenge.go).
//
// # The browser page
//
// A browser's navigation gets its 402 as a page that pays with the
// visitor's wallet (EIP-6963 or window.ethereum, eth_signTypedData_v4) and
// repeats the request with PAYMENT-SIGNATURE: one response, its script and
// style inline under a per-response CSP nonce, nothing else loaded (see
// page.go, and Config.PageTemplate for a merchant's own).
//
// # Tracing
//
// A paid request that reaches the facilitator records two OpenTelemetry
// spans, children of the span its context carries (the server span of
// Caddy's tracing directive, or of any otelhttp handler):
//
//   - x402.verify: the facilitator's verification of the payment;
//   - x402.settle: its settlement, when the protected handler succeeded
//     (or before it runs, with SettleBefore).
//
// Both carry x402.scheme, x402.network, x402.asset, x402.amount and
// x402.pay_to (the offer paid), x402.payer once known, and x402.result:
// valid, invalid or unavailable for x402.verify; settled or failed for
// x402.settle, which also carries x402.transaction (the settlement's
// transaction hash) and, for aa-native, x402.user_op_hash. A span that did
// not succeed has status Error described by the spec's reason or error
// code, which is also its x402.reason and its exception event; messages
// are not recorded, and neither is anything of the payment header, its
// signatures or any key.
//
// The spans are made with the tracer provider of the span in the request's
// context, so they join its trace and go to its exporter; with no span
// there (no tracing configured) they are no-ops that allocate nothing. The
// global provider is not used. An in-process facilitator.Service adds its
// own spans beneath these.
package paywall

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Facilitator verifies and settles payments. facilitator.Service and
// facilitator.Client implement it.
type Facilitator interface {
	Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error)
	Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error)
}

// Responder is a Facilitator that wants to know when a paid response was
// written, such as the embedded facilitator (facilitator.Service.Served):
// until then, a process that dies between settling and answering leaves
// the payment to its payer's retry rather than spending it on a response
// that never left. The paywall calls Served with the settle's context once
// the protected handler has returned.
type Responder interface {
	Served(ctx context.Context, req *x402.SettleRequest) error
}

// Config configures a Paywall.
type Config struct {
	// Accepts are the offers of the protected resource; at least one.
	// MaxTimeoutSeconds defaults to 60.
	Accepts []x402.PaymentRequirements
	// Facilitator verifies and settles.
	Facilitator Facilitator
	// Origin is scheme://host[:port] of the resource URL in challenges. When
	// empty, the request's Host is used with http or https as the
	// connection is. Client X-Forwarded-* headers are never trusted.
	Origin string
	// Description and MimeType describe the resource in challenges.
	Description, MimeType string
	// ClaimShared marks every payment in use in the Guard's SharedGuard
	// while the protected handler runs, not only upto's, so that the work
	// of one payment is done once in a fleet: for handlers whose work a
	// payment presented to several replicas at once must not buy twice
	// (a tool call behind package paywall/mcp).
	ClaimShared bool
	// Resource, when set, is the resource URL of every challenge and
	// payment record instead of Origin and the request's path, such as
	// mcp://tool/<name> for a tool that package paywall/mcp charges for.
	Resource string
	// Extensions is the challenge's extensions object, such as
	// {"bazaar":{…}}, sent as it is in every 402; nil sends none.
	Extensions json.RawMessage
	// AssetDecimals maps lowercase asset addresses to their decimals, so the
	// browser paywall page can show prices in whole tokens.
	AssetDecimals map[string]uint8
	// PageTemplate, when set, is the source of an html/template that
	// renders the browser paywall page instead of the default one, given
	// PageData; it must include {{.Script}} for the page to pay. A
	// template that fails to render shows the default page.
	PageTemplate string
	// WalletNetworks describe networks to the browser page's wallets, by
	// CAIP-2 id, adding to or replacing the built-in ones (see
	// WalletNetwork): their names, and the public RPC URL a wallet that
	// does not know a network is asked to add.
	WalletNetworks map[string]WalletNetwork
	// MerchantName is who is paid, as the browser paywall page names them
	// beside the site's host, such as "Acme Reports". Empty names the
	// site's host alone.
	MerchantName string
	// USDAssets holds the lowercase addresses of the assets pegged 1:1 to
	// the US dollar, whose prices may be written in dollars ("$0.01", see
	// ParseAssetPrice). Nil holds none.
	USDAssets map[string]bool
	// AssetSymbols maps lowercase asset addresses to the tokens' symbols,
	// such as USDC, which the browser paywall page shows instead of their
	// addresses.
	AssetSymbols map[string]string
	// SettleBefore settles before the protected handler runs, for handlers
	// that are not idempotent. By default settlement happens when the
	// handler answers with success.
	SettleBefore bool
	// Pricer, when set, prices each request (see Pricer): the offers'
	// Amount is then left empty and set per request.
	Pricer Pricer
	// Hooks observe paid requests, and may refuse them (see Hooks).
	Hooks Hooks
	// Timeout bounds verification and settlement; default 60 s.
	Timeout time.Duration
	// Channels keeps the batch-settlement channels of the offers of that
	// scheme (see channel.go); nil refuses their payments.
	Channels Channels
	// Logger receives what the paywall cannot answer to the client (a
	// served request's charge that was not committed); nil logs nothing.
	Logger *slog.Logger
	// Guard refuses a payment while another request is using it. Share one
	// Guard among every paywall of a process, so a payment presented to
	// two routes at once pays for one response; nil gives this paywall its
	// own.
	Guard *Guard
	// PaymentIDs, when set, declares the payment-identifier extension in
	// the 402 and honours the identifiers of payments (see payid.go):
	// the same identifier and payment get the original settlement result
	// without paying again, another payment under it gets 409.
	PaymentIDs PaymentIdentifiers
	// Access, when set, makes a settled payment buy its payer a window of
	// access to the route (see window.go).
	Access *Access
	// Broadcast, when set, serves a paid request once its settlement is
	// broadcast rather than mined, within bounds (see Broadcast). Nil, the
	// default, serves after inclusion.
	Broadcast *Broadcast
	// Usage meters the responses of upto offers (see Usage); required
	// when an offer's scheme is upto.
	Usage *Usage
}

// Guard tracks the payments in use by requests in flight. It is safe for
// concurrent use; its zero value is ready.
type Guard struct {
	mu    sync.Mutex
	inUse map[[32]byte]struct{}
	// Shared, if set, also marks an upto payment in use across the
	// processes of a fleet while its response is served (and so does any
	// payment of a paywall with Config.ClaimShared). An exact or
	// aa-native payment needs none otherwise: it is settled before its response,
	// through the store every replica shares, which hands the receipt to
	// one request. An upto payment is settled after its response, so
	// without it two replicas could each serve one payment in full.
	Shared SharedGuard
}

// SharedGuard marks payments in use across the processes of a fleet
// (caddymodule keeps it in the store, as store.Leases).
type SharedGuard interface {
	// Claim marks key in use until until; false if it already is.
	Claim(ctx context.Context, key [32]byte, until time.Time) (bool, error)
	// Release ends the claim of key.
	Release(ctx context.Context, key [32]byte) error
}

// sharedLease is how long an upto payment stays claimed in a
// SharedGuard if its process dies before releasing it: longer than any
// response it can pay for, since its permit's deadline passes first.
const sharedLease = 24 * time.Hour

// claim marks a payment in use; false if it already is.
func (g *Guard) claim(key [32]byte) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, busy := g.inUse[key]; busy {
		return false
	}
	if g.inUse == nil {
		g.inUse = make(map[[32]byte]struct{})
	}
	g.inUse[key] = struct{}{}
	return true
}

func (g *Guard) release(key [32]byte) {
	g.mu.Lock()
	delete(g.inUse, key)
	g.mu.Unlock()
}

// Validate reports what is wrong with the configuration.
func (c *Config) Validate() error {
	var errs []error
	if len(c.Accepts) == 0 {
		errs = append(errs, errors.New("no offers: a paid route needs at least one accepted payment"))
	}
	for i := range c.Accepts {
		o := c.Accepts[i]
		if c.Pricer != nil && o.Amount == "" {
			o.Amount = "1" // priced per request
		}
		if err := o.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("offer %d: %w", i, err))
		}
	}
	if c.Facilitator == nil {
		errs = append(errs, errors.New("facilitator is missing"))
	}
	if c.PageTemplate != "" {
		if _, err := parsePageTemplate(c.PageTemplate); err != nil {
			errs = append(errs, err)
		}
	}
	if c.Origin != "" && !strings.HasPrefix(c.Origin, "http://") && !strings.HasPrefix(c.Origin, "https://") {
		errs = append(errs, fmt.Errorf("origin %q: want http:// or https:// and a host", c.Origin))
	}
	if c.Access != nil {
		errs = append(errs, c.Access.validate())
		if c.Pricer != nil {
			errs = append(errs, errors.New("access windows need a fixed price: a window bought at one request's price (Pricer) would serve requests priced higher"))
		}
	}
	if c.Broadcast != nil {
		errs = append(errs, c.Broadcast.validate())
		if c.Access != nil {
			errs = append(errs, errors.New("broadcast: a route with access windows serves after inclusion (a window must not open on an unsettled payment)"))
		}
		if slices.ContainsFunc(c.Accepts, func(o x402.PaymentRequirements) bool { return o.Scheme == x402.SchemeUpto }) {
			errs = append(errs, errors.New("broadcast: an upto route settles after its response, never before it; serving on broadcast does not apply"))
		}
	}
	if slices.ContainsFunc(c.Accepts, func(o x402.PaymentRequirements) bool { return o.Scheme == x402.SchemeUpto }) {
		if c.Usage == nil {
			errs = append(errs, errors.New("an upto offer needs Usage, which meters its responses"))
		} else {
			errs = append(errs, c.Usage.Validate())
		}
	}
	return errors.Join(errs...)
}

// Paywall guards one resource. It is safe for concurrent use.
type Paywall struct {
	cfg Config
	// extensions are the 402's: Config.Extensions, with the
	// payment-identifier declaration when Config.PaymentIDs is set, made
	// once rather than for every challenge.
	extensions json.RawMessage
	// template is Config.PageTemplate's, parsed; nil for the default page.
	template *template.Template
	// exposure, budget and perPayer are Config.Broadcast's ledger, this
	// route's bound and in-flight amounts in it, and its count per payer.
	exposure *Exposure
	budget   routeBudget
	perPayer int
	// challengeBytes is the 402 as cut bytes, for a fixed price; nil renders
	// each 402 (challengebytes.go).
	challengeBytes *challengeBytes
}

// New returns a Paywall.
func New(cfg Config) (*Paywall, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Accepts = append([]x402.PaymentRequirements(nil), cfg.Accepts...)
	for i := range cfg.Accepts {
		if cfg.Accepts[i].MaxTimeoutSeconds == 0 {
			cfg.Accepts[i].MaxTimeoutSeconds = 60
		}
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.Guard == nil {
		cfg.Guard = new(Guard)
	}
	p := &Paywall{cfg: cfg, extensions: cfg.Extensions}
	if cfg.PageTemplate != "" {
		p.template, _ = parsePageTemplate(cfg.PageTemplate) // checked by Validate
	}
	if cfg.PaymentIDs != nil {
		p.extensions = withPaymentIdentifier(cfg.Extensions)
	}
	if b := cfg.Broadcast; b != nil {
		p.exposure, p.budget.limit, p.perPayer = cmp.Or(b.Exposure, new(Exposure)), b.MaxInFlight, cmp.Or(b.MaxPerPayer, 1)
		p.budget.name = b.Route
	}
	p.challengeBytes = newChallengeBytes(p)
	return p, nil
}

// Handler returns next behind the paywall.
func (p *Paywall) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.Serve(w, r, next)
	})
}

// Serve handles one request: it answers it itself (402, 400, 431, 503) or
// runs next behind the settlement gate. It reports whether next ran.
func (p *Paywall) Serve(w http.ResponseWriter, r *http.Request, next http.Handler) bool {
	ran := false
	p.ServeNext(w, r, func(w http.ResponseWriter, r *http.Request) error {
		ran = true
		next.ServeHTTP(w, r)
		return nil
	})
	return ran
}

// match finds the offer of r a payment accepted. It compares scheme, network,
// asset, amount and payTo (not the whole object, which clients may
// re-serialize), and for aa-native offers of several EntryPoints (v0.6 and
// v0.7) the accepted extra.entryPoint when it has one, and names the first
// field that matches no offer.
func (p *Paywall) match(r *http.Request, accepted *x402.PaymentRequirements) (*x402.PaymentRequirements, *x402.Error) {
	return narrow(p.pricedOf(r).accepts, "accepted", []offerCheck{ // the amounts of this request
		{x402.ReasonSchemeMismatch, "scheme", func(o *x402.PaymentRequirements) bool { return o.Scheme == accepted.Scheme }},
		{x402.ReasonNetworkMismatch, "network", func(o *x402.PaymentRequirements) bool { return o.Network == accepted.Network }},
		{x402.ReasonAssetNotAllowed, "asset", func(o *x402.PaymentRequirements) bool { return strings.EqualFold(o.Asset, accepted.Asset) }},
		{x402.ReasonAmountMismatch, "amount", func(o *x402.PaymentRequirements) bool { return sameAmount(o.Amount, accepted.Amount) }},
		{x402.ReasonInvalidInnerPayload, "payTo", func(o *x402.PaymentRequirements) bool { return strings.EqualFold(o.PayTo, accepted.PayTo) }},
		{x402.ReasonInvalidInnerPayload, "extra.entryPoint", func(o *x402.PaymentRequirements) bool {
			return accepted.Extra == nil || accepted.Extra.EntryPoint == "" || o.Extra == nil || o.Extra.EntryPoint == "" ||
				strings.EqualFold(o.Extra.EntryPoint, accepted.Extra.EntryPoint)
		}},
	})
}

// offerCheck is one field a payment must share with the offer it pays, and
// the reason it is refused with when no offer does.
type offerCheck struct {
	reason x402.InvalidReason
	field  string
	same   func(o *x402.PaymentRequirements) bool
}

// narrow applies the checks in order to the offers, keeping those that
// pass, and returns the first left; when a check leaves none, the refusal
// names its field (as "<what> <field> matches none of the offers").
func narrow(accepts []x402.PaymentRequirements, what string, checks []offerCheck) (*x402.PaymentRequirements, *x402.Error) {
	candidates := make([]*x402.PaymentRequirements, len(accepts))
	for i := range accepts {
		candidates[i] = &accepts[i]
	}
	for _, c := range checks {
		var kept []*x402.PaymentRequirements
		for _, o := range candidates {
			if c.same(o) {
				kept = append(kept, o)
			}
		}
		if len(kept) == 0 {
			return nil, x402.Invalid(c.reason, "%s %s matches none of the offers", what, c.field)
		}
		candidates = kept
	}
	return candidates[0], nil
}

func sameAmount(a, b string) bool {
	x, err1 := x402.ParseAmount(a)
	y, err2 := x402.ParseAmount(b)
	return err1 == nil && err2 == nil && x.Cmp(y) == 0
}

// newIdempotencyKey names one paid request's settle.
func newIdempotencyKey() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// isUpgrade reports whether r asks to switch protocols or tunnel.
func isUpgrade(r *http.Request) bool {
	if r.Method == http.MethodConnect {
		return true
	}
	if r.Header.Get("Upgrade") == "" {
		return false
	}
	for _, v := range r.Header.Values("Connection") {
		for _, tok := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "upgrade") {
				return true
			}
		}
	}
	return false
}

// preflight answers a CORS preflight of a paid route: 204, allowing the
// requested method and headers (PAYMENT-SIGNATURE or X-PAYMENT among them) from any
// origin. Payments are bearer values, not cookies, so no credentials are
// allowed and any origin may ask.
func preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE")
	allowed := x402.HeaderPaymentSignature + ", " + x402.HeaderXPayment + ", Content-Type"
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" && len(req) <= 1024 {
		allowed = req
	}
	h.Set("Access-Control-Allow-Headers", allowed)
	h.Set("Access-Control-Max-Age", "600")
	h.Add("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// unavailable answers 503: the payment's fate is not known, so the client
// must retry rather than pay again.
func unavailable(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintf(w, "{\"error\":%q}\n", msg)
}

package caddymodule

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/paywall/mcp"
	"github.com/caddy-x402/caddy-x402/x402"
)

func init() {
	caddy.RegisterModule(new(Handler))
}

// Handler is the x402 paywall, http.handlers.x402: requests to the routes
// it guards must be paid with x402, and are passed on (typically to
// reverse_proxy) only once the payment verifies; the payment is settled when
// the upstream answers with success.
//
// Placeholders set for the rest of the route: {http.x402.payer} (the
// payer's address) and {http.x402.scheme} (exact or aa-native) once the
// payment verifies, and {http.x402.tx} (the settlement's transaction hash)
// once it is settled (by default after the upstream answered, so the
// upstream never sees it; with settle_before, before).
//
// A site with a paid route must run x402_path_guard ahead of its routes,
// so that no spelling of a paid path can reach a free route (see
// PathGuard); a config without it is refused when it loads.
//
// Options that name an address or a URL (pay_to, asset, origin,
// facilitator_url) may be {env.*} or {file.*} placeholders, resolved when
// the config is loaded. A mixed-case address must carry a valid EIP-55
// checksum.
//
// Each payment is logged as an "x402 settlement" line, at info level, by
// the logger http.handlers.x402: scheme, success, tx, payer, amount,
// asset, network, host, uri, error_code and took, and for a priced tool of
// an MCP route resource (mcp://tool/<name>).
//
// A payment is kept out of Caddy's access and error logs. The handler
// writes the access-log entry of a request that carries one itself, with
// PAYMENT-SIGNATURE shown as REDACTED. Fields that log_append adds are
// not in that entry, so the placeholders do not reach the access log (the
// "x402 settlement" log line has the payer, amount and transaction).
//
// If the upstream of a paid request fails before answering, the handler
// answers the error itself (its status, with a JSON error body) and logs
// it, rather than return it: Caddy's error log would record the request's
// headers. So handle_errors does not see upstream errors of requests that
// carry a payment.
type Handler struct {
	// The merchant's address that receives the payments, required. A
	// mixed-case address must carry a valid EIP-55 checksum, so that a typo
	// is refused rather than paid to.
	PayTo string `json:"pay_to"`
	// The price in whole tokens, such as "0.01", converted to atomic units
	// with each asset's decimals, or in US dollars, such as "$0.01", when
	// every offered asset is pegged 1:1 to the dollar (USDC: see package
	// tokens). Exactly one of price and amount is required. It may be a
	// placeholder, such as {vars.price} set by map, resolved for each
	// request: the 402 then carries that request's price and a payment
	// must accept exactly it. A placeholder that resolves empty or to no
	// valid price answers 500, never free. Only exact is offered at such a
	// price.
	Price string `json:"price,omitempty"`
	// The price in atomic units of the asset, such as "10000". Exactly one
	// of price and amount is required. It may be a placeholder, as price.
	Amount string `json:"amount,omitempty"`
	// The networks whose payments the route accepts, each one of the x402
	// app's, by CAIP-2 id (devnet names the embedded dev chain). The 402
	// offers one accept per network, asset and scheme. Default: every
	// network of the x402 app.
	Networks []string `json:"networks,omitempty"`
	// The tokens accepted, by address or by name (usdc), each an asset of
	// one of the route's networks. Default: every asset of the route's
	// networks.
	Assets []string `json:"assets,omitempty"`
	// The payment schemes offered: exact, and aa-native when the x402 app
	// has the aa-native contracts and sponsor_url (aa-native is offered on
	// the network that has them, the app's first). Default: ["exact"].
	Schemes []string `json:"schemes,omitempty"`
	// Upto, when set, makes the route's offers upto: the price is the
	// maximum a payer signs for, and each response is charged for what
	// it used (see UptoConfig). Needs the embedded facilitator.
	Upto *UptoConfig `json:"upto,omitempty"`
	// A description of the resource, shown to payers. Empty by default.
	Description string `json:"description,omitempty"`
	// The resource's media type, shown to payers. Empty by default.
	MimeType string `json:"mime_type,omitempty"`
	// The scheme://host of the resource URL shown to payers. Default: the
	// request's own Host (client X-Forwarded-* headers are not trusted).
	Origin string `json:"origin,omitempty"`
	// How long a payment may take to settle. Default: 60s.
	MaxTimeout caddy.Duration `json:"max_timeout,omitempty"`
	// Settles the payment before the request is passed on, for upstreams
	// that must not run twice. By default settlement happens when the
	// upstream answers 2xx or 3xx, and an error answer is not charged.
	SettleBefore bool `json:"settle_before,omitempty"`
	// Asks an HTTP service for the price of each request, instead of price
	// and amount.
	PriceService *PriceServiceConfig `json:"price_service,omitempty"`
	// The URL of a remote facilitator that this route uses instead of the
	// x402 app's. By default the route uses the x402 app's facilitator.
	FacilitatorURL string `json:"facilitator_url,omitempty"`
	// Declares the route discoverable (x402's bazaar extension): its 402
	// carries extensions.bazaar, and the embedded facilitator lists it at
	// GET /discovery/resources. Needs origin. Off by default.
	Bazaar *BazaarConfig `json:"bazaar,omitempty"`
	// The path of an html/template file that renders the browser paywall
	// page (the 402 a browser's navigation gets) instead of the default
	// page, given the same data (paywall.PageData); it must include
	// {{.Script}} for the page to pay. Read when the configuration is
	// loaded. Empty by default: the default page.
	PaywallTemplate string `json:"paywall_template,omitempty"`
	// Makes a payment buy its payer a window of access to the route (see
	// AccessConfig). Off by default: one payment pays for one response.
	Access *AccessConfig `json:"access,omitempty"`
	// Serves a paid request once its settlement is broadcast rather than
	// mined, within bounds (see BroadcastConfig). Off by default: the
	// response waits for the settlement's inclusion.
	ServeOnBroadcast *BroadcastConfig `json:"serve_on_broadcast,omitempty"`
	// Puts the route in front of an MCP server, charging for the calls of
	// its priced tools only (see MCPConfig). The route then has no price
	// of its own.
	MCP *MCPConfig `json:"mcp,omitempty"`

	app     *App // this config's x402 app, once provisioned
	paywall *paywall.Paywall
	metrics *metrics
	network string // the network label of the metrics for requests without an offer
	// metricsHold is metricsKey while the handler holds the metrics.
	metricsHold string
	log         *zap.Logger
	offered     []issuedOffer // what was added to the facilitators' offer sets, to remove it
	issued      []x402.PaymentRequirements
	listed      *facilitator.DiscoveryResource // in app.catalog, to remove it
	decimals    map[string]uint8               // of the offered assets, by lowercase address
	usd         map[string]bool                // the offered assets pegged to the dollar, by lowercase address
	access      accessLog
	route       *routeName // the route's label in the refusal counters (routeLabel)
	hosts       *hostSet   // the hosts of the route's server with a label of their own
	// resource is the paywall's resource URL, mcp://tool/<name> for a
	// priced tool of an MCP route; empty for an HTTP route.
	resource string
	mcp      *mcp.Handler // an MCP route's paywall
	tools    []*Handler   // an MCP route's priced tools
}

// CaddyModule returns the Caddy module information.
func (*Handler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402", New: func() caddy.Module { return new(Handler) }}
}

// Provision builds the route's offers from the x402 app's network and
// assets, issues them to the app's embedded facilitator, and builds the
// paywall. It checks the configuration first, since the offers are built
// from it.
func (h *Handler) Provision(ctx caddy.Context) error {
	h.log = ctx.Logger()
	h.access = newAccessLog(ctx)
	h.route = new(routeName)
	h.hosts = new(hostSet)
	appIface, err := ctx.App("x402")
	if err != nil {
		return fmt.Errorf("loading the x402 app: %w", err)
	}
	h.app = appIface.(*App)
	if err := h.expand(); err != nil {
		return err
	}
	if err := h.Validate(); err != nil {
		return err
	}
	srv, _ := ctx.Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
	if err := checkPathGuard(srv); err != nil {
		return err
	}
	if h.MCP != nil {
		return h.provisionMCP(ctx)
	}
	if h.metrics, err = holdMetrics(ctx.GetMetricsRegistry()); err != nil {
		return err
	}
	h.metricsHold = metricsKey
	if slices.Contains(h.Schemes, x402.SchemeBatchSettlement) {
		if err := holdChannelMetrics().register(ctx.GetMetricsRegistry()); err != nil {
			return err
		}
	}
	fac, err := h.app.facilitator(h.FacilitatorURL)
	if err != nil {
		return err
	}
	offers, decimals, err := h.offers()
	if err != nil {
		return err
	}
	h.network = h.networkLabel()
	var guard *paywall.Guard
	var payIDs paywall.PaymentIdentifiers
	if c := h.app.chain; c != nil {
		guard = &c.guard // one for every route of this server
		payIDs = &c.payIDs
		// The embedded facilitator of each network settles and sponsors,
		// for callers without a credential, only what the routes offer on
		// it; an offer is withdrawn when its route is unloaded.
		for _, o := range offers {
			for _, n := range h.app.offerable() {
				if n.network == o.Network && n.chain != nil {
					n.chain.offers.Add(o)
					h.offered = append(h.offered, issuedOffer{&n.chain.offers, o})
				}
			}
		}
	}
	h.issued, h.decimals = offers, decimals
	var symbols map[string]string
	h.usd, symbols = h.assetInfo()
	extensions, err := h.discoverable(offers)
	if err != nil {
		return err
	}
	extensions = withEIP2612GasSponsoring(extensions, offers)
	var usage *paywall.Usage
	if h.Upto != nil {
		if usage, err = h.Upto.usage(offers, decimals, h.usd); err != nil {
			return err
		}
	}
	access, err := h.accessWindows()
	if err != nil {
		return err
	}
	var pricer paywall.Pricer
	// Its offers have no amount until a request comes, so the offer set
	// above keeps none of them: an uncredentialed caller of the embedded
	// facilitator settles only fixed prices.
	switch {
	case h.PriceService != nil:
		s, err := h.priceService()
		if err != nil {
			return err
		}
		pricer = s.Pricer()
	case h.perRequest():
		pricer = h.quote
	}
	page, err := h.pageTemplate()
	if err != nil {
		return err
	}
	broadcast, err := h.broadcast()
	if err != nil {
		return err
	}
	h.paywall, err = paywall.New(paywall.Config{
		Pricer: pricer, Resource: h.resource, ClaimShared: h.resource != "", // an MCP tool call runs once a payment, fleet-wide
		Accepts: offers, Facilitator: fac, Origin: h.Origin, Guard: guard, PaymentIDs: payIDs, Access: access,
		Description: h.Description, MimeType: h.MimeType, SettleBefore: h.SettleBefore, PageTemplate: page,
		WalletNetworks: h.walletNetworks(),
		MerchantName:   h.app.MerchantName,
		Extensions:     extensions,
		AssetDecimals:  decimals,
		Usage:          usage,
		USDAssets:      h.usd,
		AssetSymbols:   symbols,
		Broadcast:      broadcast,
		Hooks:          paywall.Hooks{AfterVerify: h.verified, AfterSettle: h.settled, OnSettleFailure: h.settled, AfterBroadcast: h.broadcastFinal},
		Channels:       h.channels(),
		Logger:         slog.New(zapslog.NewHandler(h.log.Core())),
	})
	return err
}

// channels is the batch-settlement channels of the route's networks: the
// embedded facilitator's, none with a remote one.
func (h *Handler) channels() paywall.Channels {
	switch {
	case h.FacilitatorURL != "" || h.app.FacilitatorURL != "" || h.app.chain == nil:
		return nil
	case h.app.router != nil:
		return h.app.router
	}
	return h.app.chain
}

// expand resolves the placeholders of the options that take them.
func (h *Handler) expand() error {
	vals := []configValue{
		{"x402 pay_to", &h.PayTo}, {"x402 origin", &h.Origin}, {"x402 facilitator_url", &h.FacilitatorURL},
	}
	if h.PriceService != nil {
		vals = append(vals, configValue{"x402 price_service", &h.PriceService.URL})
	}
	for i := range h.Assets {
		vals = append(vals, configValue{"x402 asset", &h.Assets[i]})
	}
	return expand(vals...)
}

// Validate checks the configuration, and, once provisioned, that the x402
// app has the assets and schemes it asks for. It has no side effects.
func (h *Handler) Validate() error {
	var errs []error
	if h.PayTo == "" {
		errs = append(errs, errors.New("x402 needs pay_to, the address that receives payments"))
	} else if addr, err := configAddress("x402 pay_to", h.PayTo); err != nil {
		errs = append(errs, err)
	} else if addr == (common.Address{}) {
		errs = append(errs, errors.New("x402 pay_to is the zero address, whose payments no one can spend: give the merchant's address"))
	}
	switch {
	case h.MCP != nil:
		errs = append(errs, h.MCP.validate(h))
	case h.PriceService != nil:
		if h.Price != "" || h.Amount != "" {
			errs = append(errs, errors.New("x402 takes a price, an amount or a price_service, not two"))
		}
		if u := h.PriceService.URL; !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			errs = append(errs, fmt.Errorf("x402 price_service %q: want an http:// or https:// URL", u))
		}
		if h.PriceService.Cache < 0 || h.PriceService.Timeout < 0 {
			errs = append(errs, errors.New("x402 price_service cache and timeout must not be negative"))
		}
		if slices.Contains(h.Schemes, x402.SchemeAANative) {
			errs = append(errs, errors.New("x402: aa-native needs a fixed price (its sponsor pays gas only for the routes' fixed offers); a price_service offers exact only"))
		}
	case h.Price == "" && h.Amount == "":
		errs = append(errs, errors.New("x402 needs a price (whole tokens, such as 0.01) or an amount (atomic units)"))
	case h.Price != "" && h.Amount != "":
		errs = append(errs, errors.New("x402 takes a price or an amount, not both"))
	case h.perRequest():
		if slices.Contains(h.Schemes, x402.SchemeAANative) {
			errs = append(errs, errors.New("x402: aa-native needs a fixed price (its sponsor pays gas only for the routes' fixed offers); a placeholder price offers exact only"))
		}
	case h.Amount != "":
		if _, err := x402.ParseAmount(h.Amount); err != nil {
			errs = append(errs, fmt.Errorf("x402 amount: %w", err))
		}
	}
	nets, err := h.networks()
	errs = append(errs, err)
	if h.Upto != nil {
		errs = append(errs, h.Upto.validate(h))
		if h.app != nil && slices.ContainsFunc(nets, func(n netOffer) bool { return n.chain == nil }) {
			errs = append(errs, errors.New("x402 upto needs the embedded facilitator, whose settler the payer names as the one that may settle"))
		}
	}
	for _, s := range h.Schemes {
		switch s {
		case x402.SchemeExact:
		case x402.SchemeUpto:
			if h.Upto == nil {
				errs = append(errs, errors.New("x402 scheme upto needs the upto option (upto per_byte|per_second|usage_header …), which says what a response is charged"))
			}
		case x402.SchemeAANative:
			if h.app != nil && !slices.ContainsFunc(nets, func(n netOffer) bool { return len(n.aa) > 0 }) {
				errs = append(errs, errors.New("x402: aa-native needs the x402 app's aa-native contracts and sponsor_url (on its first network, among the route's)"))
			}
		case x402.SchemeBatchSettlement:
			if h.app != nil && !slices.ContainsFunc(nets, func(n netOffer) bool { return n.chain != nil && n.chain.plan.batch != nil }) {
				errs = append(errs, errors.New("x402: batch-settlement needs the embedded facilitator and a network with the batch_settlement option"))
			}
			if h.PriceService != nil || h.perRequest() || h.Access != nil || h.SettleBefore || (h.Upto != nil && len(h.Schemes) != 1) {
				errs = append(errs, errors.New("x402: batch-settlement takes a fixed price (the most a call is charged; the upto option meters less), without access windows or settle_before, and alone with upto (a voucher is charged after serving)"))
			}
		default:
			errs = append(errs, fmt.Errorf("x402: scheme %q is not supported (exact, aa-native, batch-settlement; upto with the upto option)", s))
		}
	}
	for _, want := range h.Assets {
		if _, err := configAddress("x402 asset", want); err != nil && isAddressLike(want) {
			errs = append(errs, err)
		} else if h.app != nil && !slices.ContainsFunc(nets, func(n netOffer) bool { return hasAsset(n.assets, want) }) {
			errs = append(errs, fmt.Errorf("x402: asset %s is not among the assets of the route's networks", want))
		}
	}
	if h.Price != "" && !h.perRequest() && h.app != nil {
	prices:
		for _, n := range nets {
			for _, a := range n.assets {
				if _, err := priceOf(h.Price, a); err != nil {
					errs = append(errs, fmt.Errorf("x402 price, in %s: %w", assetName(a), err))
					break prices
				}
			}
		}
	}
	if h.MaxTimeout < 0 {
		errs = append(errs, errors.New("x402 max_timeout must not be negative"))
	}
	if h.Origin != "" && !strings.HasPrefix(h.Origin, "http://") && !strings.HasPrefix(h.Origin, "https://") {
		errs = append(errs, fmt.Errorf("x402 origin %q: want http:// or https:// and a host", h.Origin))
	}
	if h.Bazaar != nil {
		errs = append(errs, h.Bazaar.Validate(h.Origin))
	}
	if h.Access != nil {
		errs = append(errs, h.Access.validate(h.PriceService != nil || h.perRequest()))
	}
	if h.ServeOnBroadcast != nil {
		errs = append(errs, h.ServeOnBroadcast.validate(h))
	}
	return errors.Join(errs...)
}

// verified is the paywall's AfterVerify hook: the verify histogram, the
// request's observation, and the payer and scheme placeholders.
func (h *Handler) verified(r *http.Request, e *paywall.Event) {
	res, scheme := e.Verify, e.Offer.Scheme
	if res == nil {
		return // the facilitator did not answer: the paywall answers 503
	}
	h.metrics.verify.WithLabelValues(scheme).Observe(e.Took.Seconds())
	if obs := observationOf(r); obs != nil {
		obs.verified, obs.valid = true, res.IsValid
		obs.offer = e.Offer // priced for this request
	}
	if !res.IsValid {
		h.app.merchant.refused(r, e, h.routeLabel(r))
		return
	}
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		repl.Set("http.x402.payer", res.Payer)
		repl.Set("http.x402.scheme", scheme)
	}
}

// settled is the paywall's AfterSettle and OnSettleFailure hook: the
// settle histogram, the request's result, the tx placeholder and the
// settlement log line.
func (h *Handler) settled(r *http.Request, e *paywall.Event) {
	res, scheme, took := e.Settle, e.Offer.Scheme, e.Took
	switch {
	case h.FacilitatorURL != "" || h.app.FacilitatorURL != "":
		// A remote facilitator's settlement: no store of ours finished it.
		h.app.merchant.remoteSettlement(r, e)
	case res.Success && res.TransactionHash == "" && scheme == x402.SchemeBatchSettlement:
		// A voucher, charged off chain: no settlement, so no outbox entry
		// to wake the webhooks for (the claims that settle it are the
		// claimer's events).
	case !e.Broadcast: // else the outcome goes to the webhooks from broadcastFinal
		h.app.merchant.settlement(r, e)
	}
	h.metrics.settle.WithLabelValues(scheme).Observe(took.Seconds())
	result := resultSettled
	switch {
	case res.Success:
		if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
			repl.Set("http.x402.tx", res.TransactionHash)
		}
	case res.ErrorCode.Transient() || res.ErrorCode == x402.ErrorInFlight || res.ErrorCode == x402.ErrorInternal:
		result = resultUnavailable
	default:
		result = resultSettleFailed
	}
	amount, asset := res.Amount, res.Asset
	if x := res.Extra; x != nil && x.ChargedAmount != "" {
		amount = x.ChargedAmount // a channel's charge: a voucher has no amount of its own
	}
	if obs := observationOf(r); obs != nil {
		obs.result = result
		if o := obs.offer; o != nil {
			amount, asset = cmp.Or(amount, o.Amount), cmp.Or(asset, o.Asset)
		}
	}
	uri := r.RequestURI
	if orig, ok := r.Context().Value(caddyhttp.OriginalRequestCtxKey).(http.Request); ok {
		uri = orig.RequestURI // as the access log shows it, whatever rewrites did
	}
	fields := []zap.Field{zap.String("scheme", scheme), zap.Bool("success", res.Success),
		zap.String("tx", res.TransactionHash), zap.String("payer", res.Payer),
		zap.String("amount", amount), zap.String("asset", asset), zap.String("network", res.Network),
		zap.String("host", r.Host), zap.String("uri", uri),
		zap.String("error_code", string(res.ErrorCode)), zap.Duration("took", took)}
	if h.resource != "" {
		fields = append(fields, zap.String("resource", h.resource)) // an MCP tool's
	}
	h.log.Info("x402 settlement", fields...)
	if e.Overage != nil {
		// The upstream reported more than the payer's maximum bought: it
		// was served, and the merchant bears the difference.
		labels := h.labels(r, nil)
		h.metrics.overage.WithLabelValues(labels[0], labels[1]).Add(float64(e.Overage.Uint64()))
		h.log.Warn("x402 upto: the upstream reported usage above what the payer's maximum bought; not charged",
			zap.String("overage_units", e.Overage.String()), zap.String("header", h.Upto.Header),
			zap.String("host", r.Host), zap.String("uri", uri), zap.String("tx", res.TransactionHash))
	}
}

// Cleanup withdraws the route's offers from the embedded facilitator and
// releases its hold on the metrics.
func (h *Handler) Cleanup() error {
	var errs []error
	for _, t := range h.tools {
		errs = append(errs, t.Cleanup())
	}
	h.tools = nil
	for _, o := range h.offered {
		o.set.Remove(o.offer)
	}
	h.offered = nil
	if h.listed != nil {
		h.app.catalog.Remove(h.listed)
		h.listed = nil
	}
	// The collectors stay usable by requests still running.
	return errors.Join(append(errs, release(&h.metricsHold))...)
}

// ServeHTTP guards the rest of the route.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	if h.mcp != nil {
		return h.serveMCP(w, r, next)
	}
	return h.observe(w, r, func(w http.ResponseWriter, r *http.Request) error {
		return h.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
			return h.paywall.ServeNext(w, r, func(w http.ResponseWriter, r *http.Request) error {
				if obs := observationOf(r); obs != nil {
					obs.upstream = true
				}
				return serveUpstream(w, r, next, h.log)
			})
		})
	})
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddy.Validator             = (*Handler)(nil)
	_ caddy.CleanerUpper          = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
)

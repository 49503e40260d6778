package caddymodule

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
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
// Options that name an address or a URL (pay_to, asset, origin,
// facilitator_url) may be {env.*} or {file.*} placeholders, resolved when
// the config is loaded. A mixed-case address must carry a valid EIP-55
// checksum.
//
// Each payment is logged as an "x402 settlement" line, at info level, by
// the logger http.handlers.x402: scheme, success, tx, payer, amount,
// asset, network, host, uri, error_code and took.
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
	// PayTo is the merchant's address that receives payments. Required. A
	// mixed-case address must carry a valid EIP-55 checksum, so that a typo
	// is refused rather than paid to.
	PayTo string `json:"pay_to"`
	// Price is the price in whole tokens, such as "0.01", converted with
	// each asset's decimals. One of Price and Amount is required.
	Price string `json:"price,omitempty"`
	// Amount is the price in atomic units of the asset, such as "10000".
	Amount string `json:"amount,omitempty"`
	// Assets are the token addresses accepted; default: every asset of the
	// x402 app.
	Assets []string `json:"assets,omitempty"`
	// Schemes are the payment schemes offered; default ["exact"].
	Schemes []string `json:"schemes,omitempty"`
	// Description describes the resource to payers.
	Description string `json:"description,omitempty"`
	// MimeType is the resource's media type, shown to payers.
	MimeType string `json:"mime_type,omitempty"`
	// Origin is scheme://host of the resource URL shown to payers; default:
	// the request's own Host (client X-Forwarded-* headers are not trusted).
	Origin string `json:"origin,omitempty"`
	// MaxTimeout is how long a payment may take to settle; default 60s.
	MaxTimeout caddy.Duration `json:"max_timeout,omitempty"`
	// SettleBefore settles before the request is passed on, for upstreams
	// that must not run twice. By default settlement happens when the
	// upstream answers 2xx or 3xx, and an error answer is not charged.
	SettleBefore bool `json:"settle_before,omitempty"`
	// FacilitatorURL uses a remote facilitator for this route instead of
	// the x402 app's.
	FacilitatorURL string `json:"facilitator_url,omitempty"`

	paywall *paywall.Paywall
	metrics *metrics
	network string // the network label of the metrics
	// holdsMetrics is whether Cleanup must release the metrics.
	holdsMetrics bool
	log          *zap.Logger
	offered      *facilitator.OfferSet // where issued was added, to remove it
	issued       []x402.PaymentRequirements
	access       accessLog
}

// CaddyModule returns the Caddy module information.
func (*Handler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402", New: func() caddy.Module { return new(Handler) }}
}

// Provision builds the route's offers from the x402 app's network and
// assets, and its paywall.
func (h *Handler) Provision(ctx caddy.Context) error {
	h.log = ctx.Logger()
	h.access = newAccessLog(ctx)
	appIface, err := ctx.App("x402")
	if err != nil {
		return fmt.Errorf("loading the x402 app: %w", err)
	}
	app := appIface.(*App)
	if err := h.expand(); err != nil {
		return err
	}
	if h.metrics, err = holdMetrics(ctx.GetMetricsRegistry()); err != nil {
		return err
	}
	h.holdsMetrics = true
	h.network = app.networkID()
	fac, err := app.facilitator(h.FacilitatorURL)
	if err != nil {
		return err
	}
	offers, decimals, err := h.offers(app)
	if err != nil {
		return err
	}
	var guard *paywall.Guard
	if app.shared != nil {
		guard = &app.shared.guard // one for every route of this server
		// The embedded facilitator settles and sponsors, for callers
		// without a credential, only what the routes offer; an offer is
		// withdrawn when its route is unloaded.
		app.shared.offers.Add(offers...)
		h.offered = &app.shared.offers
	}
	h.issued = offers
	h.paywall, err = paywall.New(paywall.Config{
		Accepts: offers, Facilitator: fac, Origin: h.Origin, Guard: guard,
		Description: h.Description, MimeType: h.MimeType, SettleBefore: h.SettleBefore,
		AssetDecimals: decimals,
		Hooks:         paywall.Hooks{Verified: h.verified, Settled: h.settled},
	})
	return err
}

// expand resolves the placeholders of the options that take them.
func (h *Handler) expand() error {
	vals := []configValue{
		{"x402 pay_to", &h.PayTo}, {"x402 origin", &h.Origin}, {"x402 facilitator_url", &h.FacilitatorURL},
	}
	for i := range h.Assets {
		vals = append(vals, configValue{"x402 asset", &h.Assets[i]})
	}
	return expand(vals...)
}

// offers is every (scheme, asset) pair of the route.
func (h *Handler) offers(app *App) ([]x402.PaymentRequirements, map[string]uint8, error) {
	if (h.Price == "") == (h.Amount == "") {
		return nil, nil, errors.New("x402: set exactly one of price (whole tokens) and amount (atomic units)")
	}
	if _, err := configAddress("x402 pay_to", h.PayTo); err != nil {
		return nil, nil, err
	}
	schemes := h.Schemes
	if len(schemes) == 0 {
		schemes = []string{x402.SchemeExact}
	}
	for _, s := range schemes {
		switch s {
		case x402.SchemeExact:
		case x402.SchemeAANative:
			if app.aaExtra() == nil {
				return nil, nil, errors.New("x402: aa-native needs the x402 app's aa-native contracts and sponsor_url")
			}
		default:
			return nil, nil, fmt.Errorf("x402: scheme %q is not supported (exact, aa-native)", s)
		}
	}
	known := app.assets()
	chosen := known
	if len(h.Assets) > 0 {
		chosen = nil
		for _, want := range h.Assets {
			if _, err := configAddress("x402 asset", want); err != nil {
				return nil, nil, err
			}
			found := false
			for _, a := range known {
				if strings.EqualFold(a.Address, want) {
					chosen, found = append(chosen, a), true
				}
			}
			if !found {
				return nil, nil, fmt.Errorf("x402: asset %s is not among the x402 app's assets", want)
			}
		}
	}
	timeout := int(time.Duration(h.MaxTimeout) / time.Second)
	if timeout <= 0 {
		timeout = 60
	}
	var offers []x402.PaymentRequirements
	decimals := map[string]uint8{}
	for _, a := range chosen {
		d := a.Decimals
		if d == 0 {
			d = 6
		}
		decimals[strings.ToLower(a.Address)] = d
		amount := h.Amount
		if h.Price != "" {
			var err error
			if amount, err = paywall.ParsePrice(h.Price, d); err != nil {
				return nil, nil, fmt.Errorf("x402 price: %w", err)
			}
		}
		for _, s := range schemes {
			extra := &x402.Extra{Name: a.Name, Version: a.Version}
			if s == x402.SchemeAANative {
				extra = app.aaExtra()
			}
			offers = append(offers, x402.PaymentRequirements{
				Scheme: s, Network: app.networkID(), Amount: amount, Asset: a.Address, PayTo: h.PayTo,
				MaxTimeoutSeconds: timeout, Extra: extra,
			})
		}
	}
	return offers, decimals, nil
}

func (h *Handler) verified(r *http.Request, scheme string, res *x402.VerifyResponse, took time.Duration) {
	h.metrics.verify.WithLabelValues(scheme).Observe(took.Seconds())
	if obs := observationOf(r); obs != nil {
		obs.verified, obs.valid = true, res.IsValid
	}
	if !res.IsValid {
		return
	}
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		repl.Set("http.x402.payer", res.Payer)
		repl.Set("http.x402.scheme", scheme)
	}
}

func (h *Handler) settled(r *http.Request, scheme string, res *x402.SettleResponse, took time.Duration) {
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
	h.log.Info("x402 settlement", zap.String("scheme", scheme), zap.Bool("success", res.Success),
		zap.String("tx", res.TransactionHash), zap.String("payer", res.Payer),
		zap.String("amount", amount), zap.String("asset", asset), zap.String("network", res.Network),
		zap.String("host", r.Host), zap.String("uri", uri),
		zap.String("error_code", string(res.ErrorCode)), zap.Duration("took", took))
}

// Cleanup withdraws the route's offers from the embedded facilitator and
// releases its hold on the metrics.
func (h *Handler) Cleanup() error {
	if h.offered != nil {
		h.offered.Remove(h.issued...)
	}
	if h.holdsMetrics {
		h.holdsMetrics = false // the collectors stay usable by requests still running
		if _, err := pool.Delete(metricsKey); err != nil {
			return err
		}
	}
	return nil
}

// ServeHTTP guards the rest of the route.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	return h.observe(w, r, func(w http.ResponseWriter, r *http.Request) error {
		return h.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
			return h.paywall.ServeNext(w, r, func(w http.ResponseWriter, r *http.Request) error {
				return serveUpstream(w, r, next, h.log)
			})
		})
	})
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddy.CleanerUpper          = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
)

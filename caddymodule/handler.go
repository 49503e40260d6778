package caddymodule

import (
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
// Placeholders set for the rest of the route: {http.x402.payer},
// {http.x402.scheme} (after verification) and {http.x402.tx} (after
// settlement).
//
// A payment is kept out of Caddy's access and error logs. The handler
// writes the access-log entry of a request that carries one itself, with
// PAYMENT-SIGNATURE shown as REDACTED. Fields that log_append adds are
// not in that entry, so the placeholders do not reach the access log (the
// "x402 settlement" log line has the payer and the transaction).
//
// If the upstream of a paid request fails before answering, the handler
// answers the error itself (its status, with a JSON error body) and logs
// it, rather than return it: Caddy's error log would record the request's
// headers. So handle_errors does not see upstream errors of requests that
// carry a payment.
type Handler struct {
	// PayTo is the merchant's address that receives payments. Required.
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
	// Description and MimeType describe the resource to payers.
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mime_type,omitempty"`
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
	log     *zap.Logger
	offered *facilitator.OfferSet // where issued was added, to remove it
	issued  []x402.PaymentRequirements
	access  accessLog
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
	if h.metrics, err = metricsFor(ctx.GetMetricsRegistry()); err != nil {
		return err
	}
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
		h.offered, h.issued = &app.shared.offers, offers
	}
	h.paywall, err = paywall.New(paywall.Config{
		Accepts: offers, Facilitator: fac, Origin: h.Origin, Guard: guard,
		Description: h.Description, MimeType: h.MimeType, SettleBefore: h.SettleBefore,
		AssetDecimals: decimals,
		Hooks:         paywall.Hooks{Verified: h.verified, Settled: h.settled},
	})
	return err
}

// offers is every (scheme, asset) pair of the route.
func (h *Handler) offers(app *App) ([]x402.PaymentRequirements, map[string]uint8, error) {
	if (h.Price == "") == (h.Amount == "") {
		return nil, nil, errors.New("x402: set exactly one of price (whole tokens) and amount (atomic units)")
	}
	if _, err := x402.ParseAddress(h.PayTo); err != nil {
		return nil, nil, fmt.Errorf("x402 pay_to: %w", err)
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
	if !res.IsValid {
		h.metrics.payments.WithLabelValues(scheme, "invalid").Inc()
		return
	}
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		repl.Set("http.x402.payer", res.Payer)
		repl.Set("http.x402.scheme", scheme)
	}
}

func (h *Handler) settled(r *http.Request, scheme string, res *x402.SettleResponse, took time.Duration) {
	h.metrics.settle.WithLabelValues(scheme).Observe(took.Seconds())
	result := "settled"
	switch {
	case res.Success:
		if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
			repl.Set("http.x402.tx", res.TransactionHash)
		}
	case res.ErrorCode.Transient() || res.ErrorCode == x402.ErrorInFlight || res.ErrorCode == x402.ErrorInternal:
		result = "unavailable"
	default:
		result = "settle_failed"
	}
	h.metrics.payments.WithLabelValues(scheme, result).Inc()
	h.log.Info("x402 settlement", zap.String("scheme", scheme), zap.Bool("success", res.Success),
		zap.String("tx", res.TransactionHash), zap.String("payer", res.Payer),
		zap.String("error_code", string(res.ErrorCode)), zap.Duration("took", took))
}

// Cleanup withdraws the route's offers from the embedded facilitator.
func (h *Handler) Cleanup() error {
	if h.offered != nil {
		h.offered.Remove(h.issued...)
	}
	return nil
}

// ServeHTTP guards the rest of the route.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	if r.Header.Get(x402.HeaderPaymentSignature) != "" {
		h.metrics.inFlight.Inc()
		defer h.metrics.inFlight.Dec()
	}
	return h.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		return h.paywall.ServeNext(w, r, func(w http.ResponseWriter, r *http.Request) error {
			return serveUpstream(w, r, next, h.log)
		})
	})
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*Handler)(nil)
	_ caddy.CleanerUpper          = (*Handler)(nil)
	_ caddyhttp.MiddlewareHandler = (*Handler)(nil)
)

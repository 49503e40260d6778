package caddymodule

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// perRequest reports whether the route's price or amount is a placeholder,
// resolved for each request.
func (h *Handler) perRequest() bool {
	return strings.Contains(h.Price, "{") || strings.Contains(h.Amount, "{")
}

// maxResolvedPrice bounds a resolved price: no valid price is longer, and
// a longer value (a header, say) is not worth logging.
const maxResolvedPrice = 100

// quote is the paywall's Pricer of a route whose price is a placeholder: it
// resolves the placeholder with the request's replacer (so map, vars,
// matchers and headers can set it) and checks that it is a price for every
// offered asset. An unknown placeholder, an empty value or one that is not
// a price is an error, logged with the route's option and the reason (a
// value over 100 bytes, which may come from the client, is not quoted),
// and the paywall answers 500.
func (h *Handler) quote(r *http.Request) (paywall.Quote, error) {
	q, err := h.resolve(r)
	if err != nil {
		h.log.Error("x402 price", zap.String("price", h.Price), zap.String("amount", h.Amount),
			zap.String("uri", r.RequestURI), zap.Error(err))
	}
	return q, err
}

func (h *Handler) resolve(r *http.Request) (paywall.Quote, error) {
	repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer)
	if !ok {
		return paywall.Quote{}, errors.New("no replacer to resolve the price with")
	}
	template := h.Price
	if template == "" {
		template = h.Amount
	}
	v, err := repl.ReplaceOrErr(template, true, true)
	if err != nil {
		return paywall.Quote{}, fmt.Errorf("resolving the placeholder: %w", err)
	}
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return paywall.Quote{}, errors.New("the placeholder resolved empty")
	case len(v) > maxResolvedPrice:
		return paywall.Quote{}, fmt.Errorf("the placeholder resolved to %d bytes, not a price", len(v))
	}
	q := paywall.Quote{Price: v}
	if h.Price == "" {
		q = paywall.Quote{Amount: v}
	}
	if err := h.checkQuote(q); err != nil {
		return paywall.Quote{}, err
	}
	return q, nil
}

// PriceServiceConfig asks an HTTP service for the price of each request to
// a route (see paywall.PriceService for the query and the answer). It
// fails closed: when the service is down, slow or answers no valid price,
// the route charges Fallback, or answers 503 with Retry-After when there
// is none; never free.
type PriceServiceConfig struct {
	// The URL the queries are POSTed to, required. A placeholder
	// ({env.*}, {file.*}) is resolved when the config is loaded.
	URL string `json:"url"`
	// The request headers sent with each query, and part of the cache
	// key. None by default.
	Headers []string `json:"headers,omitempty"`
	// How long an answer is kept for the same method, path and headers.
	// Default: 0, ask for every request.
	Cache caddy.Duration `json:"cache,omitempty"`
	// How long a query may take. Default: 2s.
	Timeout caddy.Duration `json:"timeout,omitempty"`
	// The price in whole tokens charged when the service fails. Default:
	// none, so the route answers 503.
	Fallback string `json:"fallback,omitempty"`
}

// parsePriceService reads `price_service <url> { … }`.
func (h *Handler) parsePriceService(d *caddyfile.Dispenser) error {
	var s PriceServiceConfig
	if !d.Args(&s.URL) || d.NextArg() {
		return d.Err("price_service takes a URL, then an optional block")
	}
	if err := parseBlock(d, d.Nesting(), "price_service option", map[string]option{
		"headers": listOption(&s.Headers), "header": listOption(&s.Headers),
		"cache": durationOption(&s.Cache), "timeout": durationOption(&s.Timeout),
		"fallback": stringOption(&s.Fallback),
	}); err != nil {
		return err
	}
	h.PriceService = &s
	return nil
}

// checkQuote checks that q is a price, or an amount, for every offered
// asset.
func (h *Handler) checkQuote(q paywall.Quote) error {
	if q.Price == "" {
		amount, err := x402.ParseAmount(q.Amount)
		if err == nil && amount.Sign() == 0 {
			err = errors.New("amount must be greater than zero")
		}
		return err
	}
	for _, o := range h.issued {
		d, ok := h.decimals[strings.ToLower(o.Asset)]
		if !ok {
			return fmt.Errorf("asset %s has no decimals", o.Asset)
		}
		if _, err := paywall.ParseAssetPrice(q.Price, d, h.usd[strings.ToLower(o.Asset)]); err != nil {
			return err
		}
	}
	return nil
}

// priceService builds the route's paywall.PriceService, from a provisioned
// handler.
func (h *Handler) priceService() (*paywall.PriceService, error) {
	c := h.PriceService
	s := &paywall.PriceService{
		URL: c.URL, Headers: c.Headers, Cache: time.Duration(c.Cache), Timeout: time.Duration(c.Timeout),
		Valid: h.checkQuote, Failed: h.priceServiceFailed,
	}
	if c.Fallback != "" {
		s.Fallback = &paywall.Quote{Price: c.Fallback}
		if err := h.checkQuote(*s.Fallback); err != nil {
			return nil, fmt.Errorf("x402 price_service fallback: %w", err)
		}
	}
	return s, nil
}

// priceServiceFailed logs a failed price query: a warning when the
// fallback priced the request, an error when it was answered 503. The
// service's URL is not logged, as its path or query may carry a secret.
func (h *Handler) priceServiceFailed(r *http.Request, err error) {
	fields := []zap.Field{zap.String("uri", r.RequestURI), zap.Bool("fallback", h.PriceService.Fallback != ""), zap.Error(err)}
	if h.PriceService.Fallback != "" {
		h.log.Warn("x402 price_service", fields...)
		return
	}
	h.log.Error("x402 price_service", fields...)
}

package caddymodule

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/caddyserver/caddy/v2"
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
	if h.Price == "" {
		amount, err := x402.ParseAmount(v)
		if err == nil && amount.Sign() == 0 {
			err = errors.New("amount must be greater than zero")
		}
		if err != nil {
			return paywall.Quote{}, err
		}
		return paywall.Quote{Amount: v}, nil
	}
	for _, o := range h.issued {
		d, ok := h.decimals[strings.ToLower(o.Asset)]
		if !ok {
			return paywall.Quote{}, fmt.Errorf("asset %s has no decimals", o.Asset)
		}
		if _, err := paywall.ParsePrice(v, d); err != nil {
			return paywall.Quote{}, err
		}
	}
	return paywall.Quote{Price: v}, nil
}

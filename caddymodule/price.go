package caddymodule

import (
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/dustin/go-humanize"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
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

// UptoConfig makes a route's offers x402 `upto`: the route's price is the
// maximum a payer signs for (through Permit2), and each response is
// charged for what it used, at Price per unit, never above it. See
// docs/upto.md.
type UptoConfig struct {
	// Per is what is counted: byte (body bytes delivered), second (whole
	// seconds, begun, of the response), or header (the whole number the
	// upstream sets in Header, which the client never sees).
	Per string `json:"per"`
	// Header is the upstream's usage header, with per header.
	Header string `json:"header,omitempty"`
	// Price is the price of one unit, in whole tokens (such as 0.000001),
	// at least one atomic unit of every asset of the route.
	Price string `json:"price"`
	// Hold is the largest response held until it is settled, so that its
	// PAYMENT-RESPONSE goes in a header, which fetch clients read (a
	// longer or flushed response streams, with the settlement in a
	// trailer), such as 64KiB or 0 for none. Default: 64KiB.
	Hold string `json:"hold,omitempty"`
}

// defaultHold is the default of UptoConfig.Hold, in bytes.
const defaultHold = 64 << 10

// hold is Hold in bytes.
func (u *UptoConfig) hold() (int, error) {
	if u.Hold == "" {
		return defaultHold, nil
	}
	n, err := humanize.ParseBytes(u.Hold)
	if err != nil || n > 16<<20 {
		return 0, fmt.Errorf("x402 upto hold %q: want a size of at most 16MiB, such as 64KiB, or 0", u.Hold)
	}
	return int(n), nil
}

// validate checks an upto route: a fixed maximum, no other scheme.
func (u *UptoConfig) validate(h *Handler) error {
	var errs []error
	if h.perRequest() || h.PriceService != nil {
		errs = append(errs, errors.New("x402 upto needs a fixed price, the maximum a payer signs for"))
	}
	channel := h.channelMetered()
	if s := h.Schemes; len(s) > 0 && !channel && (len(s) != 1 || s[0] != x402.SchemeUpto) {
		errs = append(errs, errors.New("x402 upto offers the upto scheme only (or batch-settlement alone); leave schemes out"))
	}
	if h.SettleBefore {
		errs = append(errs, errors.New("x402 upto settles after the response, by what it used; settle_before does not apply"))
	}
	if h.Access != nil {
		errs = append(errs, errors.New("x402 upto buys one response; access windows need a fixed price per payment"))
	}
	switch u.Per {
	case paywall.UsageBytes, paywall.UsageSeconds:
	case paywall.UsageHeader:
		if strings.TrimSpace(u.Header) == "" {
			errs = append(errs, errors.New("x402 upto usage_header needs the header's name"))
		}
	default:
		errs = append(errs, fmt.Errorf("x402 upto per %q: want byte, second or header", u.Per))
	}
	if _, err := u.hold(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// channelMetered reports whether the route charges its channel payments
// by usage: schemes batch-settlement alone, with the upto option.
func (h *Handler) channelMetered() bool {
	return h.Upto != nil && len(h.Schemes) == 1 && h.Schemes[0] == x402.SchemeBatchSettlement
}

// usage is the paywall's meter of an upto route: the price of a unit in
// each asset the route offers.
func (u *UptoConfig) usage(offers []x402.PaymentRequirements, decimals map[string]uint8, usd map[string]bool) (*paywall.Usage, error) {
	hold, err := u.hold()
	if err != nil {
		return nil, err
	}
	us := &paywall.Usage{Per: u.Per, Header: u.Header, Prices: map[string]*big.Int{}, Hold: hold}
	for _, o := range offers {
		asset := strings.ToLower(o.Asset)
		amount, err := paywall.ParseAssetPrice(u.Price, decimals[asset], usd[asset])
		if err != nil {
			return nil, fmt.Errorf("x402 upto price %q in %s: %w", u.Price, o.Asset, err)
		}
		v, _ := x402.ParseAmount(amount)
		if v == nil || v.Sign() == 0 {
			return nil, fmt.Errorf("x402 upto price %q is less than one atomic unit of %s", u.Price, o.Asset)
		}
		us.Prices[asset] = v
	}
	return us, nil
}

// settler is the address the chain's facilitator settles from: the one an
// upto payer names in its witness.
func (c *sharedChain) settler() common.Address {
	return crypto.PubkeyToAddress(c.plan.settler.PublicKey)
}

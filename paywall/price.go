package paywall

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// ParsePrice converts a price in whole tokens, such as "0.01", into atomic
// units of a token with the given decimals ("10000" for 6 decimals). It
// refuses signs, exponents, zero, and more fractional digits than the token
// has, rather than round a price.
func ParsePrice(price string, decimals uint8) (string, error) {
	return ParseAssetPrice(price, decimals, false)
}

// ParseAssetPrice converts a price into atomic units of a token with the
// given decimals: in whole tokens, such as "0.01", or, for a token pegged
// 1:1 to the US dollar (usd), in dollars, such as "$0.01", the way
// merchants write prices. A price in dollars of a token that is not
// pegged is refused, as a price in dollars would be a guess at its rate.
func ParseAssetPrice(price string, decimals uint8, usd bool) (string, error) {
	number, dollars := strings.CutPrefix(price, "$")
	if dollars && !usd {
		return "", fmt.Errorf("price %q is in US dollars, but the token is not one known to be pegged 1:1 to the dollar; give the price in whole tokens (such as %q) or an amount in atomic units", price, number)
	}
	v, err := x402.ParseDecimal(number, decimals)
	if err != nil {
		return "", fmt.Errorf("price %w", err)
	}
	// The amount must be one a payment can carry (a uint256 above zero):
	// a price too large for it would make an offer no payer can meet.
	if _, err := x402.ParseAmount(v.String()); err != nil {
		return "", fmt.Errorf("price %q: %w", price, err)
	}
	return v.String(), nil
}

// Quote is the price of one request, as a Pricer answers it: exactly one of
// Price and Amount.
type Quote struct {
	// Price is in whole tokens, such as "0.01", converted to atomic units
	// with each offered asset's decimals (Config.AssetDecimals), or in US
	// dollars, such as "$0.01", when every offered asset is pegged to the
	// dollar (Config.USDAssets).
	Price string
	// Amount is in atomic units of every offered asset, such as "10000".
	Amount string
	// Description, when not empty, describes the resource in this
	// request's challenge instead of Config.Description.
	Description string
}

// Pricer prices one request. It runs once for every request that reaches
// the paywall, before the challenge is written or a payment is matched,
// so the 402 carries the price of this request and a payment must accept
// exactly that price. An error, or a Quote that is empty, zero or does not
// parse, refuses the request: 503 with Retry-After if the error wraps
// ErrPriceUnavailable, 500 otherwise. Nothing is ever served at no price.
type Pricer func(r *http.Request) (Quote, error)

// ErrPriceUnavailable is what a Pricer's error wraps when the price is not
// known for now (a price service is down): the request is answered 503 with
// Retry-After rather than 500.
var ErrPriceUnavailable = errors.New("the price is not available")

// priced is one request's offers and description, kept in its context.
type priced struct {
	accepts     []x402.PaymentRequirements
	description string
}

type pricedKey struct{}

// price resolves the offers of r with the Pricer, if there is one, and
// returns r carrying them, or the refusal of a request whose price is not
// known: 503 for now, 500 otherwise.
func (p *Paywall) price(r *http.Request) (*http.Request, *refusal) {
	if p.cfg.Pricer == nil {
		return r, nil
	}
	pr, err := p.quote(r)
	if err != nil {
		if errors.Is(err, ErrPriceUnavailable) {
			return r, unavailableNow("the price of this request is not available right now; retry")
		}
		return r, &refusal{form: formError, status: http.StatusInternalServerError, msg: "the price of this request could not be determined"}
	}
	return r.WithContext(context.WithValue(r.Context(), pricedKey{}, pr)), nil
}

// quote runs the Pricer and prices every offer with its answer.
func (p *Paywall) quote(r *http.Request) (*priced, error) {
	q, err := p.cfg.Pricer(r)
	if err != nil {
		return nil, err
	}
	q.Price, q.Amount = strings.TrimSpace(q.Price), strings.TrimSpace(q.Amount)
	if (q.Price == "") == (q.Amount == "") {
		return nil, errors.New("a quote needs exactly one of a price and an amount")
	}
	accepts := append([]x402.PaymentRequirements(nil), p.cfg.Accepts...)
	for i := range accepts {
		amount := q.Amount
		if q.Price != "" {
			key := strings.ToLower(accepts[i].Asset)
			d, ok := p.cfg.AssetDecimals[key]
			if !ok {
				return nil, fmt.Errorf("asset %s has no decimals to convert the price %q", accepts[i].Asset, q.Price)
			}
			if amount, err = ParseAssetPrice(q.Price, d, p.cfg.USDAssets[key]); err != nil {
				return nil, err
			}
		}
		v, err := x402.ParseAmount(amount)
		if err != nil {
			return nil, fmt.Errorf("amount: %w", err)
		}
		if v.Sign() == 0 {
			return nil, errors.New("amount: must be greater than zero")
		}
		accepts[i].Amount = v.String()
	}
	return &priced{accepts: accepts, description: cmp.Or(q.Description, p.cfg.Description)}, nil
}

// pricedOf is r's priced offers: those the Pricer set for it, or the
// configured ones. A request that was not priced on a paywall with a
// Pricer (Challenge called from outside ServeNext) is priced now, and gets
// no offer at all if that fails, so it cannot be paid at a wrong price.
func (p *Paywall) pricedOf(r *http.Request) *priced {
	if pr, ok := r.Context().Value(pricedKey{}).(*priced); ok {
		return pr
	}
	if p.cfg.Pricer == nil {
		return &priced{accepts: p.cfg.Accepts, description: p.cfg.Description}
	}
	pr, err := p.quote(r)
	if err != nil {
		return &priced{description: p.cfg.Description}
	}
	return pr
}

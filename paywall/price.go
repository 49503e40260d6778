package paywall

import (
	"fmt"

	"github.com/caddy-x402/caddy-x402/x402"
)

// ParsePrice converts a price in whole tokens, such as "0.01", into atomic
// units of a token with the given decimals ("10000" for 6 decimals). It
// refuses signs, exponents, zero, and more fractional digits than the token
// has, rather than round a price.
func ParsePrice(price string, decimals uint8) (string, error) {
	v, err := x402.ParseDecimal(price, decimals)
	if err != nil {
		return "", fmt.Errorf("price %w", err)
	}
	return v.String(), nil
}

package paywall

import (
	"fmt"
	"math/big"
	"strings"
)

// ParsePrice converts a price in whole tokens, such as "0.01", into atomic
// units of a token with the given decimals ("10000" for 6 decimals). It
// refuses signs, exponents, zero, and more fractional digits than the token
// has, rather than round a price.
func ParsePrice(price string, decimals uint8) (string, error) {
	whole, frac, _ := strings.Cut(price, ".")
	if whole == "" && frac == "" || strings.Count(price, ".") > 1 {
		return "", fmt.Errorf("price %q: want a decimal number such as 0.01", price)
	}
	for _, part := range []string{whole, frac} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return "", fmt.Errorf("price %q: want a decimal number such as 0.01", price)
			}
		}
	}
	if len(frac) > int(decimals) {
		return "", fmt.Errorf("price %q has more than %d decimal places, the token's precision", price, decimals)
	}
	v, ok := new(big.Int).SetString(whole+frac+strings.Repeat("0", int(decimals)-len(frac)), 10)
	if !ok || v.Sign() == 0 {
		return "", fmt.Errorf("price %q: must be greater than zero", price)
	}
	return v.String(), nil
}

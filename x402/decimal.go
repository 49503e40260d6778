package x402

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// ErrDecimal is wrapped by every ParseDecimal refusal.
var ErrDecimal = errors.New("not a decimal amount")

// ParseDecimal converts a decimal amount in whole units, such as "0.01",
// into atomic units of something with the given decimals (10000 for a
// 6-decimal token, "0.01" ETH to 10^16 wei). It refuses signs, exponents,
// zero, and more fractional digits than the unit has, rather than round.
func ParseDecimal(s string, decimals uint8) (*big.Int, error) {
	whole, frac, _ := strings.Cut(s, ".")
	ok := (whole != "" || frac != "") && strings.Count(s, ".") <= 1 && len(s) <= 100
	for _, c := range whole + frac {
		ok = ok && c >= '0' && c <= '9'
	}
	if !ok {
		return nil, fmt.Errorf("%w: %q: want a positive decimal number such as 0.01", ErrDecimal, s)
	}
	if len(frac) > int(decimals) {
		return nil, fmt.Errorf("%w: %q has more than %d decimal places", ErrDecimal, s, decimals)
	}
	v, _ := new(big.Int).SetString(whole+frac+strings.Repeat("0", int(decimals)-len(frac)), 10)
	if v.Sign() == 0 {
		return nil, fmt.Errorf("%w: %q must be greater than zero", ErrDecimal, s)
	}
	return v, nil
}

// FormatDecimal is the inverse of ParseDecimal: atomic units as a decimal
// in whole units, without trailing zeros ("0.01", "25.5", "3").
func FormatDecimal(v *big.Int, decimals uint8) string {
	s := new(big.Int).Abs(v).String()
	d := int(decimals)
	if len(s) <= d {
		s = strings.Repeat("0", d-len(s)+1) + s
	}
	whole, frac := s[:len(s)-d], strings.TrimRight(s[len(s)-d:], "0")
	if v.Sign() < 0 {
		whole = "-" + whole
	}
	if frac == "" {
		return whole
	}
	return whole + "." + frac
}

package dashboard

import (
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// formatUnits is v in whole units of something with decimals; nil is 0.
func formatUnits(v *big.Int, decimals uint8) string {
	if v == nil {
		return "0"
	}
	return x402.FormatDecimal(v, decimals)
}

// parseUnits reads a decimal amount in whole units, such as an ETH amount
// of a form; empty is nil when optional.
func parseUnits(field, s string, decimals uint8, optional bool) (*big.Int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if optional {
			return nil, nil
		}
		return nil, badRequest("%s is required", field)
	}
	v, err := x402.ParseDecimal(s, decimals)
	if err != nil {
		return nil, badRequest("%s: %v", field, err)
	}
	return v, nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// templateFuncs are the helpers of the page templates.
var templateFuncs = map[string]any{
	"eth": func(v *big.Int) string { return formatUnits(v, 18) },
	// units shows an amount of a token of decimals; "?" if unknown.
	"units": func(v *big.Int, decimals int) string {
		if v == nil || decimals < 0 || decimals > 255 {
			return "?"
		}
		return formatUnits(v, uint8(decimals))
	},
	// percent shows basis points as a percentage.
	"percent": func(bps int) string { return formatUnits(big.NewInt(int64(bps)), 2) + "%" },
	// ethShort is for reading, not for forms: at most 6 decimals, cut.
	"ethShort": func(v *big.Int) string {
		s := formatUnits(v, 18)
		if whole, frac, ok := strings.Cut(s, "."); ok && len(frac) > 6 {
			return whole + "." + strings.TrimRight(frac[:6], "0")
		}
		return s
	},
	"ethOpt": func(v *big.Int) string {
		if v == nil {
			return ""
		}
		return formatUnits(v, 18)
	},
	"gwei": func(v *big.Int) string {
		if v == nil {
			return ""
		}
		return formatUnits(v, 9)
	},
	// pair passes two values to a partial template, as .A and .B.
	"pair": func(a, b any) struct{ A, B any } { return struct{ A, B any }{a, b} },
	// earners passes a revenue table to the "earners" partial.
	"earners": func(id, label string, list []Earner, payer bool, explorer string) any {
		return struct {
			ID, Label string
			List      []Earner
			Payer     bool
			Explorer  string
		}{id, label, list, payer, explorer}
	},
	"datetime": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") },
	"date":     func(t time.Time) string { return t.UTC().Format(time.DateOnly) },
}

package caddymodule

import (
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// gas_token blocks parse into GasTokenConfig, and a bad one is refused
// naming the option.
func TestGasTokenCaddyfile(t *testing.T) {
	t.Parallel()
	const tok = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"
	tests := []struct {
		name, in string
		markup   int // -1: the default
		types    []int
		err      string
	}{
		{"fixed price", "gas_token " + tok + " {\n price 3000\n}", -1, nil, ""},
		{"feed, markup, types", "gas_token " + tok + " {\n price_feed 0x1000000000000000000000000000000000000001\n max_age 1h\n markup 2.5%\n types 2\n}", 250, []int{2}, ""},
		{"no markup", "gas_token " + tok + " {\n price 0.5\n markup 0%\n}", 0, nil, ""},
		{"no price", "gas_token " + tok + " {\n markup 1%\n}", 0, nil, "either price"},
		{"both prices", "gas_token " + tok + " {\n price 1\n price_feed 0x1000000000000000000000000000000000000001\n}", 0, nil, "either price"},
		{"negative price", "gas_token " + tok + " {\n price -1\n}", 0, nil, "positive decimal"},
		{"bad markup", "gas_token " + tok + " {\n price 1\n markup 5\n}", 0, nil, "percentage"},
		{"type 3", "gas_token " + tok + " {\n price 1\n types 3\n}", 0, nil, "want 1 and/or 2"},
		{"not an address", "gas_token dUSD {\n price 1\n}", 0, nil, "token address"},
		{"rate validity", "gas_token " + tok + " {\n price 1\n rate_validity 2m\n}", -1, nil, ""},
		{"rate validity too long", "gas_token " + tok + " {\n price 1\n rate_validity 2h\n}", 0, nil, "rate_validity 2h0m0s: want 2m0s to 1h0m0s"},
		{"rate validity too short", "gas_token " + tok + " {\n price 1\n rate_validity 1m\n}", 0, nil, "rate_validity 1m0s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := new(PaymasterHandler)
			d := caddyfile.NewTestDispenser("x402_paymaster {\n project demo {\n balance 1\n }\n " + tc.in + "\n}")
			err := h.UnmarshalCaddyfile(d)
			if err == nil {
				if len(h.GasTokens) != 1 {
					t.Fatalf("gas tokens %+v", h.GasTokens)
				}
				_, err = h.GasTokens[0].token()
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := h.GasTokens[0].token()
			if (tc.markup < 0) != (got.MarkupBps == nil) || (got.MarkupBps != nil && *got.MarkupBps != tc.markup) || len(got.Types) != len(tc.types) {
				t.Fatalf("token %+v, want markup %d, types %v", got, tc.markup, tc.types)
			}
		})
	}
}

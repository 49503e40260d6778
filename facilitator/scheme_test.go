package facilitator

import (
	"context"
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The scheme table decides what /supported lists and what decode takes:
// exact and upto, or exact, upto and aa-native, in that order, aa-native's
// kind with its contracts in extra, then aa-native's kind on EntryPoint
// v0.7 (the env's paymaster serves both); a scheme not in the table is
// scheme_mismatch.
func TestSchemeTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		aa      bool
		schemes []string
		kinds   []string
	}{
		{"exact", false, []string{x402.SchemeExact, x402.SchemeUpto}, []string{x402.SchemeExact, x402.SchemeUpto}},
		{"exact and aa-native", true, []string{x402.SchemeExact, x402.SchemeUpto, x402.SchemeAANative}, []string{x402.SchemeExact, x402.SchemeUpto, x402.SchemeAANative, x402.SchemeAANative}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envOptions{aaNative: tc.aa})
			sup, err := e.client.Supported(context.Background())
			if err != nil || len(sup.Schemes) != len(tc.schemes) || len(sup.Kinds) != len(tc.kinds) {
				t.Fatalf("/supported = %+v %v", sup, err)
			}
			for i, name := range tc.schemes {
				if sup.Schemes[i].Scheme != name || sup.Kinds[i].Scheme != tc.kinds[i] || len(sup.Schemes[i].Assets) != 1 {
					t.Fatalf("/supported lists %+v %+v, want %v", sup.Schemes, sup.Kinds, tc.schemes)
				}
			}
			if tc.aa {
				k6, k7 := sup.Kinds[2], sup.Kinds[3] // after exact and upto
				if k6.Extra == nil || k6.Extra.Settlement != e.chain.Contracts.Settlement.Hex() || k6.Extra.EntryPoint != e.chain.Contracts.EntryPoint.Hex() ||
					k7.Extra == nil || k7.Extra.EntryPoint != e.chain.Contracts.EntryPointV07.Hex() || k7.Extra.EntryPointVersion != "0.7" {
					t.Fatalf("aa-native's kinds: %+v %+v", k6.Extra, k7.Extra)
				}
			}
			if sup.Kinds[0].Extra != nil {
				t.Fatalf("exact's kind has extra %+v", sup.Kinds[0].Extra)
			}
			req := e.pay(e.chain.Accounts[1], e.chain.Accounts[2].Address, 1000)
			req.PaymentRequirements.Scheme, req.PaymentPayload.Accepted.Scheme = "deferred", "deferred"
			v, err := e.svc.Verify(context.Background(), req)
			if err != nil || v.IsValid || v.InvalidReason != x402.ReasonSchemeMismatch || !strings.Contains(v.InvalidMessage, strings.Join(tc.schemes, " and ")) {
				t.Fatalf("verify of an unknown scheme: %+v %v", v, err)
			}
		})
	}
}

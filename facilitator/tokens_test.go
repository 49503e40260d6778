package facilitator

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestTokenCheckedBeforeFirstPayment: a node that answers the chain id
// but not the token's reads when the facilitator starts leaves the token
// unchecked, and the facilitator starts. The first payment in it reads
// the token first: while the node still does not answer, the payment is
// unavailable (503), never verified unchecked; once it answers, a token
// whose configured EIP-712 name is wrong has its payment refused
// (asset_not_allowed, nothing settled) and TokenMismatches names the right
// values, while a token configured right takes its payment.
func TestTokenCheckedBeforeFirstPayment(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, tokenName string
		refused         bool
	}{
		{"wrong name", "Devnet USDX", true},
		{"right name", "Devnet USD", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envOptions{})
			down := new(atomic.Bool)
			down.Store(true)
			proxy := rpcProxy(t, e.chain.URL, func(w http.ResponseWriter, body []byte) bool {
				if down.Load() && bytes.Contains(body, []byte(`"eth_call"`)) {
					http.Error(w, "bad gateway", http.StatusBadGateway)
					return true
				}
				return false
			})
			e.stop()
			e.rpcURL = proxy
			e.cfg.Assets = []Asset{{Address: e.chain.Token.Address, Name: tc.tokenName, Version: "1", Decimals: 6}}
			e.start()
			if err := e.svc.TokenMismatches(); err != nil {
				t.Fatalf("a token the chain did not answer for is a mismatch: %v", err)
			}

			merchant := e.chain.Accounts[2].Address
			pay := func() *x402.VerifyRequest {
				req := e.requirements(merchant, 1000)
				req.Extra.Name = tc.tokenName // as the offer names it
				a := e.newAuth(e.chain.Accounts[1], merchant, 1000)
				a.name = tc.tokenName
				return request(req, a, sign(t, e.chain.Accounts[1].Key, a))
			}
			res, err := e.svc.Verify(context.Background(), pay())
			if !errors.Is(err, ErrUnavailable) || res.IsValid {
				t.Fatalf("verifying while the token cannot be read: %+v, %v; want unavailable", res, err)
			}

			down.Store(false)
			before := e.balance(merchant)
			req := pay()
			res, err = e.svc.Verify(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.refused {
				if !res.IsValid {
					t.Fatalf("a token configured right: %+v", res)
				}
				return
			}
			if res.IsValid || res.InvalidReason != x402.ReasonAssetNotAllowed || !strings.Contains(res.InvalidMessage, "disagrees with the token on chain") {
				t.Fatalf("verify: %+v, want asset_not_allowed", res)
			}
			set, err := e.svc.Settle(context.Background(), req)
			if err != nil || set.Success || set.TransactionHash != "" {
				t.Fatalf("settle: %+v, %v; want refused without a transaction", set, err)
			}
			if after := e.balance(merchant); after.Cmp(before) != 0 {
				t.Fatalf("the merchant's balance moved: %s, then %s", before, after)
			}
			err = e.svc.TokenMismatches()
			var m *exact.TokenMismatch
			if !errors.As(err, &m) || !strings.Contains(err.Error(), `give: asset `+e.chain.Token.Address.Hex()+` "Devnet USD" "1" 6`) {
				t.Fatalf("TokenMismatches: %v", err)
			}
		})
	}
}

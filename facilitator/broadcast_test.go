package facilitator

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// TestBroadcastAnnounced: a settle whose context asks (x402.WithBroadcast)
// is told once its transaction is accepted by the node, before the block
// that mines it, with a successful provisional answer naming that
// transaction; the settle still returns the final outcome, the same
// transaction. A settle that fails before broadcast announces nothing.
func TestBroadcastAnnounced(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{blockPeriod: time.Second, aaNative: true})
	merchant := e.chain.Accounts[2].Address
	tests := []struct {
		name string
		req  func() *x402.VerifyRequest
		paid bool
	}{
		{"exact", func() *x402.VerifyRequest { return e.pay(e.chain.Accounts[1], merchant, 1000) }, true},
		{"aa-native", func() *x402.VerifyRequest {
			req, _ := e.aaPay(e.chain.Accounts[3].Key, e.aaRequirements(merchant, 1000))
			return req
		}, true},
		{"not valid", func() *x402.VerifyRequest {
			req := e.pay(e.chain.Accounts[1], merchant, 1000)
			req.PaymentRequirements.PayTo = e.chain.Accounts[4].Address.Hex()
			return req
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A block sealed between the node accepting the transaction
			// and the announcement reading the head mines it at that
			// head: on a loaded machine that can happen, and a new
			// payment tries again.
			for attempt := 0; ; attempt++ {
				req := tc.req()
				var announced []*x402.SettleResponse
				var head uint64
				ctx := x402.WithBroadcast(context.Background(), func(r *x402.SettleResponse) {
					announced = append(announced, r)
					head, _ = e.eth.BlockNumber(context.Background())
				})
				res, _ := e.svc.Settle(ctx, req)
				if !tc.paid {
					if res.Success || len(announced) != 0 {
						t.Fatalf("settled %+v, announced %+v", res, announced)
					}
					return
				}
				if !res.Success || len(announced) != 1 {
					t.Fatalf("settled %+v, announced %d times", res, len(announced))
				}
				a := announced[0]
				if !a.Success || a.TransactionHash != res.TransactionHash || a.Payer != res.Payer || a.Network != res.Network || a.Amount != res.Amount || a.UserOpHash != res.UserOpHash {
					t.Fatalf("announced %+v, settled %+v", a, res)
				}
				receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
				if err == nil && receipt.BlockNumber.Uint64() == head && attempt < 3 {
					continue
				}
				if err != nil || receipt.BlockNumber.Uint64() <= head {
					t.Fatalf("announced at block %d; mined: %v %v", head, receipt, err)
				}
				return
			}
		})
	}
}

package facilitator

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Someone who sees a payment's signed operation in the facilitator's
// bundle, waiting in the mempool, puts it in a handleOps of its own with a
// higher tip: the operation runs there (the payer pays the merchant), and
// the facilitator's bundle reverts on its used nonce. The facilitator
// finds the other bundle by the operation's UserOperationEvent and
// answers the payment settled by it; the merchant is paid once, and the
// payer, who did nothing wrong, is not refused afterwards.
func TestAANativeIncludedByAnotherBundle(t *testing.T) {
	t.Parallel()
	for _, v07 := range []bool{false, true} {
		name := "v0.6"
		if v07 {
			name = "v0.7"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envOptions{aaNative: true, blockPeriod: time.Second})
			ctx := context.Background()
			merchant, thief := e.chain.Accounts[5].Address, e.chain.Accounts[8]
			const price = 4_000
			var (
				pay  *x402.VerifyRequest
				res  x402.SettleResponse
				them *types.Transaction
			)
			for attempt := 0; ; attempt++ {
				before := e.balance(merchant)
				var bundle []byte
				if v07 {
					pay = e.aaPayV07(e.chain.Accounts[2].Key, e.aaRequirementsV07(merchant, price))
					var p struct {
						UserOp ep07.UserOperationHex `json:"userOp"`
					}
					if err := json.Unmarshal(pay.PaymentPayload.Payload, &p); err != nil {
						t.Fatal(err)
					}
					op, err := p.UserOp.Decode(false)
					if err != nil {
						t.Fatal(err)
					}
					bundle = ep07.NewEntryPoint().PackHandleOps([]ep07.PackedUserOperation{op.Pack()}, thief.Address)
				} else {
					var op contracts.UserOperation
					pay, op = e.aaPayOp(e.chain.Accounts[2].Key, e.aaRequirements(merchant, price))
					bundle = contracts.NewEntryPoint().PackHandleOps([]contracts.UserOperation{op}, thief.Address)
				}
				ep := e.chain.Contracts.EntryPoint
				if v07 {
					ep = e.chain.Contracts.EntryPointV07
				}
				res, _ = e.settleRacing(pay, func() {
					tn, _ := e.eth.PendingNonceAt(ctx, thief.Address)
					them, _ = types.SignNewTx(thief.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
						ChainID: e.chain.ChainID, Nonce: tn, To: &ep, Data: bundle, Gas: 1_000_000,
						GasTipCap: big.NewInt(50e9), GasFeeCap: big.NewInt(50e9 + 1e11),
					})
					if err := e.eth.SendTransaction(ctx, them); err != nil {
						t.Fatal(err)
					}
				})
				r, err := e.chain.Wait(ctx, them.Hash())
				if err != nil {
					t.Fatal(err)
				}
				if res.TransactionHash != them.Hash().Hex() && attempt < 4 {
					// The facilitator's bundle was mined first; the
					// other one then reverted on the used nonce.
					if r.Status == types.ReceiptStatusSuccessful {
						t.Fatalf("a second bundle of the same operation succeeded: %+v", r)
					}
					continue
				}
				if r.Status != types.ReceiptStatusSuccessful {
					t.Fatalf("the other bundle: %+v", r)
				}
				if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != price {
					t.Fatalf("the merchant got %s, want %d once", got, price)
				}
				break
			}
			if !res.Success || res.TransactionHash != them.Hash().Hex() {
				t.Fatalf("settle of an operation another bundle included: %+v, want success in %s", res, them.Hash().Hex())
			}
			// It paid for one response.
			var again x402.SettleResponse
			if e.post("settle", pay, &again); again.Success || again.ErrorCode != x402.ErrorVerifyFailed {
				t.Fatalf("the same payment again: %+v, want a replay", again)
			}
			// The payer is not in the penalty box.
			next := e.aaRequirements(merchant, price)
			if v07 {
				next = e.aaRequirementsV07(merchant, price)
			}
			var v x402.VerifyResponse
			if v07 {
				e.post("verify", e.aaPayV07(e.chain.Accounts[2].Key, next), &v)
			} else {
				p, _ := e.aaPay(e.chain.Accounts[2].Key, next)
				e.post("verify", p, &v)
			}
			if !v.IsValid {
				t.Fatalf("the payer's next payment: %+v", v)
			}
		})
	}
}

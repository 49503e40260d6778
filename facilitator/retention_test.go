package facilitator

import (
	"context"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Deleting a settled payment's record (settlement_retention) reopens no
// replay: the token refuses the authorization the settlement used, so
// the payment presented again neither verifies nor settles, and moves
// nothing.
func TestPrunedPaymentIsNotSettledAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	merchant := e.chain.Accounts[9].Address
	req := e.pay(e.chain.Accounts[3], merchant, 1_500)
	if res, err := e.svc.Settle(ctx, req); err != nil || !res.Success {
		t.Fatalf("settle: %+v, %v", res, err)
	}
	before := e.balance(merchant)
	if n, err := e.st.PruneFinal(ctx, time.Now().Add(time.Hour), 256); err != nil || n == 0 {
		t.Fatalf("pruned %d records: %v", n, err)
	}
	if v, err := e.svc.Verify(ctx, req); err != nil || v.IsValid || v.InvalidReason != x402.ReasonReplay {
		t.Fatalf("verify after pruning: %+v, %v", v, err)
	}
	if res, err := e.svc.Settle(ctx, req); err == nil && res.Success {
		t.Fatalf("settled again after pruning: %+v", res)
	}
	if got := e.balance(merchant); got.Cmp(before) != 0 {
		t.Fatalf("merchant balance %s after the replay, was %s", got, before)
	}
}

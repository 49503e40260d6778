package batchsettle_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// TestTimedWithdrawal: the payer's escape hatch. A withdrawal cannot be
// finished before the channel's delay; the receiver still claims its
// vouchers during it; a cooperative refund shrinks it; once the delay has
// passed the payer gets exactly the unclaimed balance, even having asked
// for more than was left.
func TestTimedWithdrawal(t *testing.T) {
	t.Parallel()
	h := ownHarness(t)
	payerAcct, receiver, authorizer := h.d.Accounts[8], h.d.Accounts[9], h.d.Accounts[9]
	settlement := h.d.Contracts.BatchSettlement
	// The payer sends its own withdrawal transactions, so it is a funded
	// account; the receiver is its own receiver authorizer and claims
	// directly.
	payer := payerAcct.Key
	cfg := h.config(payer, authorizer.Key, receiver.Address, 2)
	id := h.dom.ChannelID(cfg)
	h.send(payer, settlement, h.depositCall(payer, cfg, big.NewInt(10_000), big.NewInt(1)))
	before := h.balanceOf(payerAcct.Address)

	r := h.send(payer, settlement, h.bs.PackInitiateWithdraw(cfg, big.NewInt(10_000)))
	h.logGas("initiateWithdraw", r)
	h.wantRevert("a second withdrawal", payerAcct.Address, settlement, h.bs.PackInitiateWithdraw(cfg, big.NewInt(1)),
		batchsettle.X402BatchSettlementWithdrawalAlreadyPendingErrorID())
	h.wantRevert("finishing before the delay", payerAcct.Address, settlement, h.bs.PackFinalizeWithdraw(cfg),
		batchsettle.X402BatchSettlementWithdrawDelayNotElapsedErrorID())
	pending, err := h.bs.UnpackPendingWithdrawals(h.call(settlement, h.bs.PackPendingWithdrawals(id)))
	if err != nil || pending.Amount.Int64() != 10_000 || pending.InitiatedAt.Sign() == 0 {
		t.Fatalf("pending withdrawal %+v (%v)", pending, err)
	}

	// The receiver side claims what it served while the withdrawal waits,
	// and refunds 1000, which shrinks the withdrawal by as much.
	h.send(receiver.Key, settlement, h.bs.PackClaim([]batchsettle.VoucherClaim{h.voucher(payer, cfg, 2500)}))
	h.send(receiver.Key, settlement, h.bs.PackRefund(cfg, big.NewInt(1000)))
	pending, err = h.bs.UnpackPendingWithdrawals(h.call(settlement, h.bs.PackPendingWithdrawals(id)))
	if err != nil || pending.Amount.Int64() != 9000 {
		t.Fatalf("pending withdrawal after a refund of 1000: %+v (%v), want 9000", pending, err)
	}

	// The chain moves to one second before the delay ends (AdjustTime
	// seals a block stamped that much after its parent).
	head, err := h.c.HeaderByNumber(h.ctx(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.d.AdjustTime(time.Duration(pending.InitiatedAt.Uint64()+batchsettle.MinWithdrawDelay-1-head.Time) * time.Second); err != nil {
		t.Fatal(err)
	}
	h.wantRevert("finishing a second early", payerAcct.Address, settlement, h.bs.PackFinalizeWithdraw(cfg),
		batchsettle.X402BatchSettlementWithdrawDelayNotElapsedErrorID())
	if err := h.d.AdjustTime(time.Second); err != nil {
		t.Fatal(err)
	}
	r = h.sealNow(h.submit(payer, settlement, h.bs.PackFinalizeWithdraw(cfg)))
	h.logGas("finalizeWithdraw", r)
	// 10,000 deposited, 2,500 claimed, 1,000 refunded: 6,500 comes back
	// now, not the 9,000 asked.
	got := new(big.Int).Sub(h.balanceOf(payerAcct.Address), before)
	if got.Int64() != 1000+6500 {
		t.Errorf("the payer got %v back in all, want 7500 (1000 refunded, 6500 withdrawn)", got)
	}
	if bal, claimed := h.channel(id); bal.Int64() != 2500 || claimed.Int64() != 2500 {
		t.Errorf("after the withdrawal: balance %v, claimed %v; want 2500 and 2500", bal, claimed)
	}
	if n := count(r, settlement, event("ChannelClosed")); n != 0 {
		t.Errorf("a channel with claims logged ChannelClosed")
	}
	h.wantRevert("finishing twice", payerAcct.Address, settlement, h.bs.PackFinalizeWithdraw(cfg),
		batchsettle.X402BatchSettlementWithdrawalNotPendingErrorID())
}

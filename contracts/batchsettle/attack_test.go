package batchsettle_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// TestClaimAttacks: what a payer, a receiver or a stranger may try against
// a funded channel, each refused by the contract (or, for a replay, a
// no-op), and the channel's accounting unchanged by any of it.
func TestClaimAttacks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	relay, funder, receiver := h.d.Accounts[5], h.d.Accounts[6], h.d.Accounts[7]
	settlement := h.d.Contracts.BatchSettlement
	payer, authorizer, other := newKey(t), newKey(t), newKey(t)
	cfg := h.config(payer, authorizer, receiver.Address, 1)
	id := h.dom.ChannelID(cfg)
	h.fund(funder, big.NewInt(2000), addr(payer))
	depositCall := h.depositCall(payer, cfg, big.NewInt(1000), big.NewInt(7))
	h.send(relay.Key, settlement, depositCall)

	// A claim the contract accepts, to replay below.
	good := h.voucher(payer, cfg, 300)
	goodCall := h.claimCall(authorizer, []batchsettle.VoucherClaim{good})
	h.send(relay.Key, settlement, goodCall)

	over := h.voucher(payer, cfg, 1500) // signed above the deposit
	ceiling := h.voucher(payer, cfg, 400)
	ceiling.TotalClaimed = big.NewInt(500) // claimed above what the payer signed
	forged := h.voucher(other, cfg, 400)   // not the payer's key
	otherCfg := h.config(payer, other, receiver.Address, 1)
	mixed := []batchsettle.VoucherClaim{h.voucher(payer, cfg, 400), h.voucher(payer, otherCfg, 400)}

	for _, tc := range []struct {
		name string
		from common.Address
		to   common.Address
		data []byte
		want common.Hash
	}{
		{"a voucher over the deposit", relay.Address, settlement,
			h.claimCall(authorizer, []batchsettle.VoucherClaim{over}), batchsettle.X402BatchSettlementClaimExceedsBalanceErrorID()},
		{"a claim above the voucher's ceiling", relay.Address, settlement,
			h.claimCall(authorizer, []batchsettle.VoucherClaim{ceiling}), batchsettle.X402BatchSettlementClaimExceedsCeilingErrorID()},
		{"a voucher signed by another key", relay.Address, settlement,
			h.claimCall(authorizer, []batchsettle.VoucherClaim{forged}), batchsettle.X402BatchSettlementInvalidSignatureErrorID()},
		{"a claim batch signed by another authorizer", relay.Address, settlement,
			h.claimCall(other, []batchsettle.VoucherClaim{h.voucher(payer, cfg, 400)}), batchsettle.X402BatchSettlementInvalidSignatureErrorID()},
		{"rows of two receiver authorizers", relay.Address, settlement,
			h.claimCall(authorizer, mixed), batchsettle.X402BatchSettlementNotReceiverAuthorizerErrorID()},
		{"an empty batch", relay.Address, settlement,
			h.claimCall(authorizer, nil), batchsettle.X402BatchSettlementEmptyBatchErrorID()},
		{"a claim by a stranger", relay.Address, settlement,
			h.bs.PackClaim([]batchsettle.VoucherClaim{h.voucher(payer, cfg, 400)}), batchsettle.X402BatchSettlementNotAuthorizedToClaimErrorID()},
		{"a refund by a stranger", relay.Address, settlement,
			h.bs.PackRefund(cfg, big.NewInt(1)), batchsettle.X402BatchSettlementNotAuthorizedToRefundErrorID()},
		{"a zero refund", receiver.Address, settlement,
			h.bs.PackRefund(cfg, new(big.Int)), batchsettle.X402BatchSettlementZeroRefundErrorID()},
		{"a withdrawal started by a stranger", relay.Address, settlement,
			h.bs.PackInitiateWithdraw(cfg, big.NewInt(1)), batchsettle.X402BatchSettlementInvalidChannelErrorID()},
		{"a withdrawal above the unclaimed balance", addr(payer), settlement,
			h.bs.PackInitiateWithdraw(cfg, big.NewInt(701)), batchsettle.X402BatchSettlementWithdrawAmountExceedsAvailableErrorID()},
		{"a finalization with nothing pending", addr(payer), settlement,
			h.bs.PackFinalizeWithdraw(cfg), batchsettle.X402BatchSettlementWithdrawalNotPendingErrorID()},
		{"a withdraw delay under 15 minutes", relay.Address, settlement,
			h.bs.PackDeposit(withDelay(cfg, batchsettle.MinWithdrawDelay-1), big.NewInt(1), h.d.Contracts.ERC3009DepositCollector, nil),
			batchsettle.X402BatchSettlementWithdrawDelayOutOfRangeErrorID()},
		{"a withdraw delay over 30 days", relay.Address, settlement,
			h.bs.PackDeposit(withDelay(cfg, batchsettle.MaxWithdrawDelay+1), big.NewInt(1), h.d.Contracts.ERC3009DepositCollector, nil),
			batchsettle.X402BatchSettlementWithdrawDelayOutOfRangeErrorID()},
		{"the collector called directly", relay.Address, h.d.Contracts.ERC3009DepositCollector,
			batchsettle.NewERC3009DepositCollector().PackCollect(addr(payer), h.d.Token.Address, big.NewInt(1000), id,
				batchsettle.ERC3009CollectorData(new(big.Int), big.NewInt(time.Now().Add(time.Hour).Unix()), big.NewInt(8), nil)),
			batchsettle.ERC3009DepositCollectorOnlyX402BatchSettlementErrorID()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := *h
			h.t = t
			h.wantRevert(tc.name, tc.from, tc.to, tc.data, tc.want)
		})
	}

	// A replayed deposit authorization: the token refuses the used nonce.
	if _, err := h.c.EstimateGas(h.ctx(), callMsg(relay.Address, settlement, depositCall)); err == nil {
		t.Error("a replayed deposit authorization would be accepted")
	}
	// A replayed claim is mined and changes nothing.
	r := h.send(relay.Key, settlement, goodCall)
	if n := count(r, settlement, event("Claimed")); n != 0 {
		t.Errorf("a replayed claim logged %d claims", n)
	}
	if bal, claimed := h.channel(id); bal.Int64() != 1000 || claimed.Int64() != 300 {
		t.Errorf("after the attacks: balance %v, claimed %v; want 1000 and 300", bal, claimed)
	}
}

func callMsg(from, to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{From: from, To: &to, Data: data}
}

// withDelay is cfg with another withdraw delay.
func withDelay(cfg batchsettle.ChannelConfig, delay int64) batchsettle.ChannelConfig {
	cfg.WithdrawDelay = big.NewInt(delay)
	return cfg
}

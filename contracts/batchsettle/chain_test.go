package batchsettle_test

import (
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// upstreamGas is upstream's forge gas snapshot
// (contracts/evm/snapshots/X402BatchSettlementGasTest.json), execution gas
// without the transaction's intrinsic 21,000 and calldata; forge runs each
// test in one transaction, so slots its setup touched are warm there and
// cold here.
var upstreamGas = map[string]uint64{
	"deposit_erc3009_first": 111_738,
	"claim_10_channels":     192_043,
	"settle_receiver_token": 31_204,
	"refund_with_signature": 53_670,
	"refund_full":           43_859,
}

// logGas reports a transaction's gas beside upstream's figure.
func (h *harness) logGas(name string, r *types.Receipt) {
	h.t.Helper()
	exec := h.execGas(r)
	if up, ok := upstreamGas[name]; ok {
		h.t.Logf("gas %-28s receipt %7d, execution %7d (upstream's snapshot %7d, %.2f×)", name, r.GasUsed, exec, up, float64(exec)/float64(up))
		return
	}
	h.t.Logf("gas %-28s receipt %7d, execution %7d", name, r.GasUsed, exec)
}

// event is the id of the settlement contract's event name.
func event(name string) common.Hash {
	return batchsettle.NewX402BatchSettlement().GetABI().Events[name].ID
}

// count is how many logs of r the settlement contract emitted with event id.
func count(r *types.Receipt, at common.Address, id common.Hash) int {
	n := 0
	for _, l := range r.Logs {
		if l.Address == at && len(l.Topics) > 0 && l.Topics[0] == id {
			n++
		}
	}
	return n
}

// TestChannelLifecycle runs the scheme on the devnet: ten payers with no ETH
// each deposit through EIP-3009 (the facilitator sends and pays the gas),
// sign vouchers off-chain, the receiver authorizer's one signature claims
// all ten channels in one transaction, one settle sweeps them to the
// receiver, and the payers get their unclaimed balance back by a signed
// and by a direct cooperative refund.
func TestChannelLifecycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	facilitator, funder, receiver, authorizer := h.d.Accounts[1], h.d.Accounts[2], h.d.Accounts[3], h.d.Accounts[4]
	const channels, deposit = 10, 1_000_000
	settlement := h.d.Contracts.BatchSettlement

	payers := make([]*ecdsa.PrivateKey, channels)
	addrs := make([]common.Address, channels)
	cfgs := make([]batchsettle.ChannelConfig, channels)
	for i := range payers {
		payers[i] = newKey(t)
		addrs[i] = addr(payers[i])
		cfgs[i] = h.config(payers[i], authorizer.Key, receiver.Address, 0)
	}
	h.fund(funder, big.NewInt(deposit), addrs...)

	// Deposits: signed by the payers, sent by the facilitator, one block.
	var hashes []common.Hash
	for i := range payers {
		hashes = append(hashes, h.submit(facilitator.Key, settlement, h.depositCall(payers[i], cfgs[i], big.NewInt(deposit), big.NewInt(int64(i)))))
	}
	for i, x := range hashes {
		r := h.wait(x)
		if i == 0 {
			h.logGas("deposit_erc3009_first", r)
		}
		if n := count(r, settlement, event("ChannelCreated")); n != 1 {
			t.Errorf("deposit %d: %d ChannelCreated events, want 1", i, n)
		}
	}
	for i, p := range addrs {
		if eth, err := h.c.BalanceAt(h.ctx(), p, nil); err != nil || eth.Sign() != 0 {
			t.Errorf("payer %d holds %v ETH (%v): the deposit was not gasless", i, eth, err)
		}
		if bal, claimed := h.channel(h.dom.ChannelID(cfgs[i])); bal.Int64() != deposit || claimed.Sign() != 0 {
			t.Errorf("channel %d: balance %v, claimed %v", i, bal, claimed)
		}
		if b := h.balanceOf(p); b.Sign() != 0 {
			t.Errorf("payer %d kept %v tokens", i, b)
		}
	}
	if b := h.balanceOf(h.d.Contracts.ERC3009DepositCollector); b.Sign() != 0 {
		t.Errorf("the collector kept %v tokens", b)
	}

	// Vouchers: five a payer, off-chain; only the latest is claimed, and
	// each recovers to its payer without a node.
	claims := make([]batchsettle.VoucherClaim, channels)
	for i := range payers {
		for k := int64(1); k <= 5; k++ {
			claims[i] = h.voucher(payers[i], cfgs[i], 100*k)
		}
		signer, err := batchsettle.Recover(h.dom.VoucherDigest(h.dom.ChannelID(cfgs[i]), claims[i].Voucher.MaxClaimableAmount), claims[i].Signature)
		if err != nil || signer != addrs[i] {
			t.Errorf("voucher %d recovers to %s (%v), want %s", i, signer, err, addrs[i])
		}
	}
	r := h.send(facilitator.Key, settlement, h.claimCall(authorizer.Key, claims))
	h.logGas("claimWithSignature_10", r)
	if n := count(r, settlement, event("Claimed")); n != channels {
		t.Errorf("%d Claimed events, want %d", n, channels)
	}
	// The next vouchers, claimed by the receiver authorizer itself, as
	// upstream's snapshot does.
	for i := range payers {
		claims[i] = h.voucher(payers[i], cfgs[i], 1000)
	}
	r = h.send(authorizer.Key, settlement, h.bs.PackClaim(claims))
	h.logGas("claim_10_channels", r)
	for i := range cfgs {
		if _, claimed := h.channel(h.dom.ChannelID(cfgs[i])); claimed.Int64() != 1000 {
			t.Errorf("channel %d: claimed %v, want 1000", i, claimed)
		}
	}

	// The sweep: one transfer of everything claimed.
	before := h.balanceOf(receiver.Address)
	r = h.send(facilitator.Key, settlement, h.bs.PackSettle(receiver.Address, h.d.Token.Address))
	h.logGas("settle_receiver_token", r)
	if got := new(big.Int).Sub(h.balanceOf(receiver.Address), before); got.Int64() != channels*1000 {
		t.Errorf("the receiver got %v, want %d", got, channels*1000)
	}
	r = h.send(facilitator.Key, settlement, h.bs.PackSettle(receiver.Address, h.d.Token.Address))
	if n := count(r, settlement, event("Settled")); n != 0 {
		t.Errorf("a second sweep settled again (%d events)", n)
	}

	// A signed refund, relayed by the facilitator, then its replay.
	id0 := h.dom.ChannelID(cfgs[0])
	refundSig, err := batchsettle.Sign(h.dom.RefundDigest(id0, big.NewInt(0), big.NewInt(400_000)), authorizer.Key)
	if err != nil {
		t.Fatal(err)
	}
	refund := h.bs.PackRefundWithSignature(cfgs[0], big.NewInt(400_000), big.NewInt(0), refundSig)
	r = h.send(facilitator.Key, settlement, refund)
	h.logGas("refund_with_signature", r)
	if b := h.balanceOf(addrs[0]); b.Int64() != 400_000 {
		t.Errorf("payer 0 got %v back, want 400000", b)
	}
	h.wantRevert("a replayed refund", facilitator.Address, settlement, refund, batchsettle.X402BatchSettlementInvalidRefundNonceErrorID())
	nonce, err := h.bs.UnpackRefundNonce(h.call(settlement, h.bs.PackRefundNonce(id0)))
	if err != nil || nonce.Int64() != 1 {
		t.Errorf("refund nonce %v (%v), want 1", nonce, err)
	}

	// A direct refund of more than is left returns exactly the unclaimed
	// balance; the claimed 1000 stays for the receiver.
	r = h.send(receiver.Key, settlement, h.bs.PackRefund(cfgs[1], big.NewInt(deposit)))
	h.logGas("refund_full", r)
	if b := h.balanceOf(addrs[1]); b.Int64() != deposit-1000 {
		t.Errorf("payer 1 got %v back, want %d", b, deposit-1000)
	}
	if bal, claimed := h.channel(h.dom.ChannelID(cfgs[1])); bal.Int64() != 1000 || claimed.Int64() != 1000 {
		t.Errorf("channel 1 after the refund: balance %v, claimed %v", bal, claimed)
	}
}

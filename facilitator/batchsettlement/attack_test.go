package batchsettlement

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// TestDepositFrontRun: a deposit's authorization copied from the payload
// by someone else only funds the channel the payer chose. Sent first by
// the front-runner, it funds that channel (the facilitator's own send then
// fails, and nothing is lost); put into a deposit for a channel of another
// receiver, it reverts, since its ERC-3009 nonce binds the channel id.
func TestDepositFrontRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	facilitator, receiver, authorizer, thief := e.d.Accounts[1], e.d.Accounts[2], e.d.Accounts[3], e.d.Accounts[8]
	key := newKey(t)
	e.send(e.d.Accounts[5].Key, e.d.Token.Address, contracts.NewDevUSD().PackTransfer(crypto.PubkeyToAddress(key.PublicKey), big.NewInt(5_000)))
	p := e.payer(key, receiver.Address, authorizer.Address, 4)
	req := e.request(p.deposit(5_000, 100, 0, time.Now().Add(time.Hour).Unix()), e.requirements(receiver.Address, authorizer.Address))
	pay, err := e.s.Decode(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.s.Verify(e.ctx(), pay, req); err != nil {
		t.Fatal(err)
	}
	s := e.s.Settlement(pay)

	// The thief's channel: the same authorization, another receiver.
	dep := pay.Mechanism.(*Payment)
	stolen := dep.Config
	stolen.Receiver = thief.Address
	_, data := e.s.collectorData(dep)
	steal := e.bs.PackDeposit(stolen, dep.Deposit.Amount, e.d.Contracts.ERC3009DepositCollector, data)
	if _, err := e.c.EstimateGas(e.ctx(), ethereum.CallMsg{From: thief.Address, To: &s.To, Data: steal}); err == nil {
		t.Fatal("the authorization deposits into another receiver's channel")
	}

	// The front-run: the thief sends the payer's own deposit first.
	e.send(thief.Key, s.To, s.Data)
	if _, err := e.c.EstimateGas(e.ctx(), ethereum.CallMsg{From: facilitator.Address, To: &s.To, Data: s.Data}); err == nil {
		t.Error("the deposit would be taken twice")
	}
	if code, v := e.verify(e.request(p.voucher(TypeVoucher, 5_000), e.requirements(receiver.Address, authorizer.Address))); code != "" || v.Snapshot.Balance.Int64() != 5_000 {
		t.Fatalf("after the front-run the payer's channel verifies %q with %+v; want its 5000", code, v)
	}
}

// TestWithdrawingPayer: a payer that starts a timed withdrawal and keeps
// paying. Its vouchers still verify (the receiver may claim them until the
// delay ends), and every answer's snapshot carries withdrawRequestedAt, so
// the server claims at once; the claim lands, and the withdrawal then
// returns only what is unclaimed.
func TestWithdrawingPayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	facilitator, receiver, authorizer, payerAcct := e.d.Accounts[1], e.d.Accounts[2], e.d.Accounts[3], e.d.Accounts[9]
	p := e.payer(payerAcct.Key, receiver.Address, authorizer.Address, 5)
	req := e.requirements(receiver.Address, authorizer.Address)
	depReq := e.request(p.deposit(2_000, 100, 0, time.Now().Add(time.Hour).Unix()), req)
	pay, err := e.s.Decode(depReq)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.s.Verify(e.ctx(), pay, depReq); err != nil {
		t.Fatal(err)
	}
	s := e.s.Settlement(pay)
	e.send(facilitator.Key, s.To, s.Data)
	e.send(payerAcct.Key, e.d.Contracts.BatchSettlement, e.bs.PackInitiateWithdraw(p.cfg, big.NewInt(2_000)))

	code, v := e.verify(e.request(p.voucher(TypeVoucher, 300), req))
	if code != "" || v.Snapshot.WithdrawRequestedAt == 0 {
		t.Fatalf("a voucher during a withdrawal: %q, snapshot %+v; want it valid, with withdrawRequestedAt", code, v)
	}
	claim := p.voucher(TypeVoucher, 300)["voucher"].(map[string]any)["signature"].(string)
	e.send(receiver.Key, e.d.Contracts.BatchSettlement, e.bs.PackClaim([]batchsettle.VoucherClaim{{
		Voucher:   batchsettle.X402BatchSettlementVoucher{Channel: p.cfg, MaxClaimableAmount: big.NewInt(300)},
		Signature: mustHex(t, claim), TotalClaimed: big.NewInt(300),
	}}))
	ch, err := e.bs.UnpackChannels(mustCall(t, e, e.d.Contracts.BatchSettlement, e.bs.PackChannels(p.id())))
	if err != nil || ch.TotalClaimed.Int64() != 300 {
		t.Fatalf("channel %+v (%v): the claim during the withdrawal did not land", ch, err)
	}
	// The payer's voucher above what stays unclaimed is refused.
	if code, _ := e.verify(e.request(p.voucher(TypeVoucher, 2_001), req)); code != CodeCumulativeExceedsBalance {
		t.Errorf("a voucher above the balance during a withdrawal: %q", code)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hexutil.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

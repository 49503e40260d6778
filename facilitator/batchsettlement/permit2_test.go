package batchsettlement

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
)

// TestPermit2Deposit: a deposit through Permit2 and the Permit2 collector
// verifies, and its Settlement, sent by the facilitator's key, is accepted
// by the devnet's Permit2 (an independent check of the witness digest);
// the same permit sent again is refused on chain.
func TestPermit2Deposit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	facilitator, receiver, authorizer, payerAcct := e.d.Accounts[1], e.d.Accounts[2], e.d.Accounts[3], e.d.Accounts[6]
	// A Permit2 payer has approved Permit2 once, as for exact's Permit2.
	e.send(payerAcct.Key, e.d.Token.Address, contracts.NewDevUSD().PackApprove(e.d.Contracts.Permit2, big.NewInt(1_000_000)))
	p := e.payer(payerAcct.Key, receiver.Address, authorizer.Address, 3)
	a := &Permit2Authorization{
		From: p.cfg.Payer, Token: e.d.Token.Address, Spender: e.d.Contracts.Permit2DepositCollector,
		Amount: big.NewInt(7_000), Nonce: big.NewInt(time.Now().UnixNano()), Deadline: big.NewInt(time.Now().Add(time.Hour).Unix()),
		Witness: p.id(),
	}
	digest, err := e.s.permit2Digest(a)
	if err != nil {
		t.Fatal(err)
	}
	payload := p.voucher(TypeDeposit, 100)
	payload["deposit"] = map[string]any{"amount": "7000", "authorization": map[string]any{"permit2Authorization": map[string]any{
		"from": a.From.Hex(), "permitted": map[string]any{"token": a.Token.Hex(), "amount": a.Amount.String()},
		"spender": a.Spender.Hex(), "nonce": a.Nonce.String(), "deadline": a.Deadline.String(),
		"witness": map[string]any{"channelId": p.id().Hex()}, "signature": sign(t, digest, payerAcct.Key),
	}}}
	r := e.requirements(receiver.Address, authorizer.Address)
	r.Extra.AssetTransferMethod = "permit2"
	req := e.request(payload, r)
	if code, _ := e.verify(req); code != "" {
		t.Fatalf("the Permit2 deposit was refused: %s", code)
	}
	pay, err := e.s.Decode(req)
	if err != nil {
		t.Fatal(err)
	}
	s := e.s.Settlement(pay)
	if o := e.s.Outcome(nil, e.send(facilitator.Key, s.To, s.Data)); o.Verdict != scheme.Paid {
		t.Fatalf("outcome %+v", o)
	}
	ch, err := e.bs.UnpackChannels(mustCall(t, e, e.d.Contracts.BatchSettlement, e.bs.PackChannels(p.id())))
	if err != nil || ch.Balance.Int64() != 7_000 {
		t.Fatalf("channel %+v (%v), want a balance of 7000", ch, err)
	}
	if _, err := e.c.EstimateGas(e.ctx(), ethereum.CallMsg{From: facilitator.Address, To: &s.To, Data: s.Data}); err == nil {
		t.Error("the same permit would deposit twice")
	}
	// Its snapshot now says so.
	if code, _ := e.verify(e.request(p.voucher(TypeVoucher, 7_000), e.requirements(receiver.Address, authorizer.Address))); code != "" {
		t.Errorf("a voucher for the whole deposit: %s", code)
	}
}

func mustCall(t *testing.T, e *env, to common.Address, data []byte) []byte {
	t.Helper()
	out, err := e.c.CallContract(e.ctx(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

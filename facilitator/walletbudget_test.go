package facilitator

import (
	"context"
	"crypto/rand"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/x402"
)

// gaspriceWalletInit deploys a contract whose isValidSignature (any
// calldata) returns the ERC-1271 magic value when tx.gasprice is 0, as in
// every eth_call and estimate that sets no fee, and burns all its gas
// otherwise, as in a mined transaction:
//
//	GASPRICE ISZERO PUSH1 ok JUMPI
//	loop: JUMPDEST PUSH1 loop JUMP
//	ok:   JUMPDEST PUSH4 0x1626ba7e PUSH1 0xe0 SHL PUSH0 MSTORE PUSH1 0x20 PUSH0 RETURN
const gaspriceWalletInit = "0x6018600a5f3960185ff3" + "3a15600957" + "5b600556" + "5b631626ba7e60e01b5f5260205ff3"

// A contract wallet that accepts its signature when simulated and refuses
// it when mined passes verification, and its settlement reverts at the
// settler's cost and none of its own; a fresh wallet escapes the penalty
// box. The hour's budget of such reverts (Config.WalletReverts) bounds
// them: past it, payments whose signature a contract checks are refused
// before anything is sent, while an EOA's payment still settles.
func TestWalletRevertBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.stop()
	e.cfg.WalletReverts = 2
	e.start()
	merchant, settler := e.chain.Accounts[2].Address, e.svc.Settler()
	const price = 10_000
	junk := func() []byte { b := make([]byte, 66); rand.Read(b); return b }
	ctx := context.Background()
	pay := func() *x402.VerifyRequest {
		w := e.deploy(gaspriceWalletInit, nil)
		e.fundTokens(w, price)
		a := e.newAuth(e.chain.Accounts[1], merchant, price)
		a.from = w
		return request(e.requirements(merchant, price), a, junk())
	}
	for i := range 2 {
		var sr x402.SettleResponse
		e.post("settle", pay(), &sr)
		r, err := e.eth.TransactionReceipt(ctx, common.HexToHash(sr.TransactionHash))
		if sr.Success || err != nil || r.Status != types.ReceiptStatusFailed {
			t.Fatalf("wallet %d: %+v (%v), want a settlement reverted on chain", i, sr, err)
		}
	}
	nonce, _ := e.eth.PendingNonceAt(ctx, settler)
	req := pay()
	var vr x402.VerifyResponse
	if e.post("verify", req, &vr); vr.IsValid || !strings.Contains(vr.InvalidMessage, "too many of their settlements reverted") {
		t.Fatalf("a third wallet past the budget: verify %+v", vr)
	}
	var sr x402.SettleResponse
	if e.post("settle", req, &sr); sr.Success {
		t.Fatalf("a third wallet past the budget: settle %+v", sr)
	}
	if after, _ := e.eth.PendingNonceAt(ctx, settler); after != nonce {
		t.Fatalf("the settler sent %d transactions past the budget", after-nonce)
	}
	var eoa x402.SettleResponse
	if e.post("settle", e.pay(e.chain.Accounts[3], merchant, price), &eoa); !eoa.Success {
		t.Fatalf("an EOA's payment past the wallets' budget: %+v", eoa)
	}
}

// The budget counts contract-wallet reverts of the last hour only, at most
// the budget's worth of them, and not EOAs'; -1 refuses none.
func TestWalletsPaused(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_800_000_000, 0)
	p := &payers{walletBudget: 3}
	for i := range 5 {
		key := common.Hash{byte(i)}
		p.reserve(key, common.Address{byte(i)}, common.Address{0xaa}, big.NewInt(1), i%2 == 0) // contracts: 0, 2, 4
		p.reverted(key, common.Address{byte(i)}, t0.Add(time.Duration(i)*time.Minute))
		p.release(key)
	}
	if until, paused := p.walletsPaused(t0.Add(5 * time.Minute)); !paused || !until.Equal(t0.Add(time.Hour)) {
		t.Fatalf("after 3 wallet reverts: paused %v until %v", paused, until)
	}
	if _, paused := p.walletsPaused(t0.Add(time.Hour)); paused {
		t.Fatal("still paused once the oldest revert left the hour")
	}
	if len(p.walletReverts) > 3 {
		t.Fatalf("%d reverts remembered, budget 3", len(p.walletReverts))
	}
	off := &payers{walletBudget: -1}
	off.reserve(common.Hash{1}, common.Address{1}, common.Address{0xaa}, big.NewInt(1), true)
	off.reverted(common.Hash{1}, common.Address{1}, t0)
	if _, paused := off.walletsPaused(t0); paused {
		t.Fatal("paused with the budget off")
	}
}

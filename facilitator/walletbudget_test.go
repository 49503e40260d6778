package facilitator

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

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
// the budget's worth of them, and not EOAs'; -1 refuses none. A class past
// its own budget is refused whatever the global one says; a payer or a
// class that settled before is not refused for others' reverts.
func TestWalletsPaused(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_800_000_000, 0)
	class := func(i int) common.Hash { return common.Hash{0xc0, byte(i)} }
	p := &payers{wallets: walletBudget{budget: 3}}
	for i := range 5 {
		key := common.Hash{byte(i)}
		p.reserve(key, common.Address{byte(i)}, common.Address{0xaa}, big.NewInt(1), i%2 == 0, class(i)) // contracts: 0, 2, 4
		p.reverted(key, common.Address{byte(i)}, t0.Add(time.Duration(i)*time.Minute))
		p.release(key)
	}
	fresh, newClass := common.Address{0xf0}, class(9)
	if until, paused := p.walletsPaused(fresh, newClass, t0.Add(5*time.Minute)); !paused || !until.Equal(t0.Add(time.Hour)) {
		t.Fatalf("after 3 wallet reverts: paused %v until %v", paused, until)
	}
	if _, paused := p.walletsPaused(fresh, newClass, t0.Add(time.Hour)); paused {
		t.Fatal("still paused once the oldest revert left the hour")
	}
	if len(p.wallets.reverts) > 3 {
		t.Fatalf("%d reverts remembered, budget 3", len(p.wallets.reverts))
	}

	// One class past its own budget: its new wallets are refused, other
	// classes are not, and a payer that settled before is not.
	q := &payers{wallets: walletBudget{budget: 100}}
	rogue, honest := class(1), class(2)
	settledBefore := common.Address{0x5e}
	q.reserve(common.Hash{0x50}, settledBefore, common.Address{0xaa}, big.NewInt(1), true, rogue)
	q.settled(common.Hash{0x50}, settledBefore, t0)
	q.release(common.Hash{0x50})
	for i := range walletClassReverts {
		key := common.Hash{0x60, byte(i)}
		q.reserve(key, common.Address{0x60, byte(i)}, common.Address{0xaa}, big.NewInt(1), true, rogue)
		q.reverted(key, common.Address{0x60, byte(i)}, t0.Add(time.Minute))
		q.release(key)
	}
	if _, paused := q.walletsPaused(fresh, rogue, t0.Add(2*time.Minute)); !paused {
		t.Fatal("a new wallet of a class past its budget is not refused")
	}
	if _, paused := q.walletsPaused(fresh, honest, t0.Add(2*time.Minute)); paused {
		t.Fatal("another class is refused for the rogue class's reverts")
	}
	if _, paused := q.walletsPaused(settledBefore, rogue, t0.Add(2*time.Minute)); paused {
		t.Fatal("a payer that settled before is refused for others' reverts")
	}

	// The global budget spent: new classes are refused, a class that
	// settled before is not.
	r := &payers{wallets: walletBudget{budget: 2}}
	r.reserve(common.Hash{0x70}, common.Address{0x70}, common.Address{0xaa}, big.NewInt(1), true, honest)
	r.settled(common.Hash{0x70}, common.Address{0x70}, t0)
	r.release(common.Hash{0x70})
	for i := range 2 {
		key := common.Hash{0x80, byte(i)}
		r.reserve(key, common.Address{0x80, byte(i)}, common.Address{0xaa}, big.NewInt(1), true, class(10+i))
		r.reverted(key, common.Address{0x80, byte(i)}, t0)
		r.release(key)
	}
	if _, paused := r.walletsPaused(fresh, newClass, t0); !paused {
		t.Fatal("a new class is not refused past the global budget")
	}
	if _, paused := r.walletsPaused(fresh, honest, t0); paused {
		t.Fatal("a new wallet of a class that settled before is refused past the global budget")
	}

	off := &payers{wallets: walletBudget{budget: -1}}
	off.reserve(common.Hash{1}, common.Address{1}, common.Address{0xaa}, big.NewInt(1), true, class(1))
	off.reverted(common.Hash{1}, common.Address{1}, t0)
	if _, paused := off.walletsPaused(fresh, newClass, t0); paused {
		t.Fatal("paused with the budget off")
	}
}

// Smart-wallet payers nobody can switch off (issue 40, item 3). Rogue
// wallets of one code accept their signature in every simulation and burn
// their gas once mined: three of their settlements revert at the
// settler's cost, and then new wallets of that code are refused before
// anything is sent. Meanwhile honest wallets of other kinds, a deployed
// ERC-1271 wallet, a counterfactual ERC-6492 wallet and an EIP-7702
// account, each settle, before and after. (Before, one budget of 20 reverts
// an hour covered every contract wallet: twenty throwaway rogues switched
// them all off for an hour.) Past the global budget too, spent by rogue
// wallets of many codes, the honest payers that settled before still
// settle.
func TestHonestWalletsThroughRogueReverts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.stop()
	e.cfg.WalletReverts = walletClassReverts + 2
	e.start()
	merchant, settler := e.chain.Accounts[2].Address, e.svc.Settler()
	const price = 10_000
	ctx := context.Background()
	junk := func() []byte { b := make([]byte, 66); rand.Read(b); return b }
	// rogue is a payment of a fresh rogue wallet; variant makes its code
	// another (a byte after the code that runs), as an attacker deploying
	// many implementations would.
	rogue := func(variant byte) *x402.VerifyRequest {
		init := gaspriceWalletInit
		if variant != 0 {
			init = "0x6019600a5f3960195ff3" + gaspriceWalletInit[len("0x6018600a5f3960185ff3"):] + fmt.Sprintf("%02x", variant)
		}
		w := e.deploy(init, nil)
		e.fundTokens(w, price)
		a := e.newAuth(e.chain.Accounts[1], merchant, price)
		a.from = w
		return request(e.requirements(merchant, price), a, junk())
	}
	reverts := func(req *x402.VerifyRequest, what string) {
		t.Helper()
		var sr x402.SettleResponse
		e.post("settle", req, &sr)
		r, err := e.eth.TransactionReceipt(ctx, common.HexToHash(sr.TransactionHash))
		if sr.Success || err != nil || r.Status != types.ReceiptStatusFailed {
			t.Fatalf("%s: %+v (%v), want a settlement reverted on chain", what, sr, err)
		}
	}
	refusedUnsent := func(req *x402.VerifyRequest, what string) {
		t.Helper()
		nonce, _ := e.eth.PendingNonceAt(ctx, settler)
		var sr x402.SettleResponse
		if e.post("settle", req, &sr); sr.Success || !strings.Contains(sr.Message, "too many of their settlements reverted") {
			t.Fatalf("%s: %+v, want refused", what, sr)
		}
		if after, _ := e.eth.PendingNonceAt(ctx, settler); after != nonce {
			t.Fatalf("%s: the settler sent %d transactions", what, after-nonce)
		}
	}

	// The honest payers, each able to sign again.
	owner1271, _ := crypto.GenerateKey()
	wallet1271, deploy := e.ownerWallet(crypto.PubkeyToAddress(owner1271.PublicKey))
	e.exec(e.chain.Accounts[3].Key, e.chain.Contracts.WalletFactory, deploy)
	e.fundTokens(wallet1271, 3*price)
	owner6492, _ := crypto.GenerateKey()
	wallet6492, deploy6492 := e.ownerWallet(crypto.PubkeyToAddress(owner6492.PublicKey))
	e.fundTokens(wallet6492, 3*price)
	account7702 := e.fundPayer(3 * price)
	e.delegate(account7702.Key)
	honest := []struct {
		name string
		from common.Address
		sign func(a auth) []byte
	}{
		{"an ERC-1271 wallet", wallet1271, func(a auth) []byte { return ecdsaSign(t, owner1271, digest(t, a)) }},
		{"an ERC-6492 wallet", wallet6492, func(a auth) []byte {
			return wrap6492(e.chain.Contracts.WalletFactory, deploy6492, ecdsaSign(t, owner6492, digest(t, a)))
		}},
		{"an EIP-7702 account", account7702.Address, func(a auth) []byte { return sign(t, account7702.Key, a) }},
	}
	pays := func(when string) {
		t.Helper()
		for _, h := range honest {
			a := e.newAuth(e.chain.Accounts[1], merchant, price)
			a.from = h.from
			e.settleOnce(request(e.requirements(merchant, price), a, h.sign(a)), h.from, merchant)
			t.Logf("%s settled %s", h.name, when)
		}
	}

	// Rogue wallets of one code spend their class's budget, then are
	// refused; the honest wallets, paying for the first time, settle.
	for i := range walletClassReverts {
		reverts(rogue(0), fmt.Sprintf("rogue wallet %d", i))
	}
	refusedUnsent(rogue(0), "a rogue wallet past its class's budget")
	pays("after a rogue class spent its budget")

	// Rogue wallets of other codes spend the global budget: wallets of
	// classes that never settled are refused, the honest payers are not.
	reverts(rogue(1), "a rogue wallet of another code")
	reverts(rogue(2), "a rogue wallet of a third code")
	refusedUnsent(rogue(3), "a rogue wallet of a fourth code past the global budget")
	pays("after the global budget was spent")
}

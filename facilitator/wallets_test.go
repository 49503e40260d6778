package facilitator

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// exec sends a call from key with room for a deployment, and waits for it
// to succeed.
func (e *env) exec(key *ecdsa.PrivateKey, to common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	ctx := context.Background()
	nonce, err := e.eth.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		e.t.Fatal(err)
	}
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &to, Data: data, Gas: 2_000_000,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e9 + 1e11),
	})
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	r, err := e.chain.Wait(ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("a call to %s: %+v %v", to, r, err)
	}
	return r
}

// fundTokens gives who tokens from a funded account.
func (e *env) fundTokens(who common.Address, tokens int64) {
	e.t.Helper()
	e.exec(e.chain.Accounts[3].Key, e.chain.Token.Address, contracts.NewDevUSD().PackTransfer(who, big.NewInt(tokens)))
}

// digest is the EIP-712 hash of a, what a wallet's owner signs.
func digest(t testing.TB, a auth) []byte {
	t.Helper()
	hash, _, err := apitypes.TypedDataAndHash(contracts.TransferAuthorization{
		From: a.from, To: a.to, Value: a.value, ValidAfter: a.validAfter, ValidBefore: a.validBefore, Nonce: a.nonce,
	}.TypedData(contracts.TokenDomain{Name: a.name, Version: a.version, ChainID: a.chainID, Token: a.token}))
	if err != nil {
		t.Fatal(err)
	}
	return hash
}

// ecdsaSign signs hash with key as r ‖ s ‖ v, v in {27, 28}.
func ecdsaSign(t testing.TB, key *ecdsa.PrivateKey, hash []byte) []byte {
	t.Helper()
	sig, err := crypto.Sign(hash, key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

// wrap6492 wraps sig in ERC-6492 with a factory call.
func wrap6492(factory common.Address, data, sig []byte) []byte {
	typ := func(s string) abi.Type { t, _ := abi.NewType(s, "", nil); return t }
	out, _ := abi.Arguments{{Type: typ("address")}, {Type: typ("bytes")}, {Type: typ("bytes")}}.Pack(factory, data, sig)
	return append(out, common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")...)
}

// ownerWallet is an OwnerWallet of the devnet's factory: its address, and
// the factory call that deploys it.
func (e *env) ownerWallet(owner common.Address) (common.Address, []byte) {
	e.t.Helper()
	var salt [32]byte
	rand.Read(salt[:])
	f := contracts.NewOwnerWalletFactory()
	out, err := e.eth.CallContract(context.Background(), callMsg(e.chain.Contracts.WalletFactory, f.PackGetAddress(owner, salt)), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	addr, err := f.UnpackGetAddress(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return addr, f.PackCreateWallet(owner, salt)
}

// delegate makes key's EOA an EIP-7702 account running the devnet's
// EOADelegate, with a SetCodeTx that another account sends.
func (e *env) delegate(key *ecdsa.PrivateKey) { e.delegateTo(key, e.chain.Contracts.EOADelegate) }

// delegateTo makes key's EOA an EIP-7702 account running code's code.
func (e *env) delegateTo(key *ecdsa.PrivateKey, code common.Address) {
	e.t.Helper()
	ctx := context.Background()
	eoa := crypto.PubkeyToAddress(key.PublicKey)
	own, _ := e.eth.PendingNonceAt(ctx, eoa)
	auth, err := types.SignSetCode(key, types.SetCodeAuthorization{
		ChainID: *uint256.MustFromBig(e.chain.ChainID), Address: code, Nonce: own,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	sponsor := e.chain.Accounts[7]
	nonce, _ := e.eth.PendingNonceAt(ctx, sponsor.Address)
	tx, err := types.SignNewTx(sponsor.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.SetCodeTx{
		ChainID: uint256.MustFromBig(e.chain.ChainID), Nonce: nonce, To: sponsor.Address, Gas: 100_000,
		GasTipCap: uint256.NewInt(1e9), GasFeeCap: uint256.NewInt(1e9 + 1e11), AuthList: []types.SetCodeAuthorization{auth},
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	if r, err := e.chain.Wait(ctx, tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("delegating: %+v %v", r, err)
	}
	got, _ := e.eth.CodeAt(ctx, eoa, nil)
	if want := append([]byte{0xef, 0x01, 0x00}, code.Bytes()...); string(got) != string(want) {
		e.t.Fatalf("code of the delegated EOA = %x", got)
	}
}

// settleOnce settles req, checks that the payer paid payTo exactly the
// price, once, and that settling it again is replay; it returns the
// settlement's gas.
func (e *env) settleOnce(req *x402.VerifyRequest, payer, payTo common.Address) uint64 {
	e.t.Helper()
	amount, _ := x402.ParseAmount(req.PaymentRequirements.Amount)
	payerBefore, payToBefore := e.balance(payer), e.balance(payTo)
	if v, err := e.client.Verify(context.Background(), req); err != nil || !v.IsValid || v.Payer != payer.Hex() {
		e.t.Fatalf("verify = %+v, %v", v, err)
	}
	var res x402.SettleResponse
	e.post("settle", req, &res)
	if !res.Success || res.Payer != payer.Hex() {
		e.t.Fatalf("settle = %+v", res)
	}
	if n := e.transfers(res.TransactionHash, payer, payTo); n != 1 {
		e.t.Fatalf("%d transfers in the settlement, want 1", n)
	}
	var again x402.SettleResponse
	e.post("settle", req, &again)
	if again.Success || !strings.HasPrefix(again.Message, "replay") {
		e.t.Fatalf("settling again = %+v", again)
	}
	if got, want := e.balance(payer), new(big.Int).Sub(payerBefore, amount); got.Cmp(want) != 0 {
		e.t.Fatalf("payer balance %s, want %s", got, want)
	}
	if got, want := e.balance(payTo), new(big.Int).Add(payToBefore, amount); got.Cmp(want) != 0 {
		e.t.Fatalf("payTo balance %s, want %s", got, want)
	}
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
	if err != nil {
		e.t.Fatal(err)
	}
	return receipt.GasUsed
}

// TestWalletPayers settles an exact payment from each kind of payer: an
// EOA, a deployed ERC-1271 wallet, an undeployed wallet with an ERC-6492
// signature (deployed by the settlement), and an EIP-7702 delegated EOA
// signing with its key. Each pays exactly the price, once, and the gas of
// each settlement is logged (docs/exact.md has the figures).
func TestWalletPayers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[2].Address
	const price = 10_000
	type payer struct {
		from common.Address
		sign func(a auth) []byte
	}
	tests := []struct {
		name  string
		setup func(t *testing.T) payer
	}{
		{"eoa", func(t *testing.T) payer {
			p := e.fundPayer(price)
			return payer{p.Address, func(a auth) []byte { return sign(t, p.Key, a) }}
		}},
		{"erc1271 deployed", func(t *testing.T) payer {
			owner, _ := crypto.GenerateKey()
			wallet, deploy := e.ownerWallet(crypto.PubkeyToAddress(owner.PublicKey))
			e.exec(e.chain.Accounts[3].Key, e.chain.Contracts.WalletFactory, deploy)
			e.fundTokens(wallet, price)
			return payer{wallet, func(a auth) []byte { return ecdsaSign(t, owner, digest(t, a)) }}
		}},
		{"erc6492 counterfactual", func(t *testing.T) payer {
			owner, _ := crypto.GenerateKey()
			wallet, deploy := e.ownerWallet(crypto.PubkeyToAddress(owner.PublicKey))
			e.fundTokens(wallet, price)
			return payer{wallet, func(a auth) []byte {
				return wrap6492(e.chain.Contracts.WalletFactory, deploy, ecdsaSign(t, owner, digest(t, a)))
			}}
		}},
		{"eip7702 key", func(t *testing.T) payer {
			p := e.fundPayer(price)
			e.delegate(p.Key)
			return payer{p.Address, func(a auth) []byte { return sign(t, p.Key, a) }}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.setup(t)
			a := e.newAuth(e.chain.Accounts[1], merchant, price)
			a.from = p.from
			gas := e.settleOnce(request(e.requirements(merchant, price), a, p.sign(a)), p.from, merchant)
			t.Logf("settlement gas, %s: %d", tc.name, gas)
			if tc.name == "erc6492 counterfactual" {
				if code, _ := e.eth.CodeAt(context.Background(), p.from, nil); len(code) == 0 {
					t.Fatal("the settlement did not deploy the wallet")
				}
			}
		})
	}
}

// rogueWallet deploys a RogueWallet through a RogueFactory, in mode, and
// funds it.
func (e *env) rogueWallet(factory common.Address, mode uint8, tokens int64) common.Address {
	e.t.Helper()
	var salt [32]byte
	rand.Read(salt[:])
	f, w := contracts.NewRogueFactory(), contracts.NewRogueWallet()
	e.exec(e.chain.Accounts[3].Key, factory, f.PackCreate(salt))
	out, err := e.eth.CallContract(context.Background(), callMsg(factory, f.PackGetAddress(salt)), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	wallet, _ := f.UnpackGetAddress(out)
	e.exec(e.chain.Accounts[3].Key, wallet, w.PackSetMode(mode))
	e.fundTokens(wallet, tokens)
	return wallet
}

// Rogue wallet modes (RogueWallet.Mode).
const (
	approveAll uint8 = iota
	refuseAll
	burnGas
)

// TestWalletAttacks presents payments from misbehaving wallets and
// factories. Each is refused with a structured reason before the settler
// sends anything (its nonce does not move), and no balance changes; the
// wallet that approves any signature pays, from its own funds, once per
// authorization.
func TestWalletAttacks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[2].Address
	settler := e.chain.Accounts[0].Address
	const price = 10_000
	rogue := e.deploy(contracts.RogueFactoryMetaData.Bin, nil)
	rf := contracts.NewRogueFactory()
	junk := func() []byte { b := make([]byte, 65); rand.Read(b); return b }

	// payment builds a payment from `from` signed with sig(a).
	payment := func(from common.Address, sig func(a auth) []byte) *x402.VerifyRequest {
		a := e.newAuth(e.chain.Accounts[1], merchant, price)
		a.from = from
		return request(e.requirements(merchant, price), a, sig(a))
	}
	// counterfactual is an undeployed OwnerWallet, funded, whose owner signs,
	// wrapped in ERC-6492 with the given factory call.
	counterfactual := func(t *testing.T, factory func(ownData []byte) (common.Address, []byte)) (common.Address, *x402.VerifyRequest) {
		owner, _ := crypto.GenerateKey()
		wallet, own := e.ownerWallet(crypto.PubkeyToAddress(owner.PublicKey))
		e.fundTokens(wallet, price)
		to, data := factory(own)
		return wallet, payment(wallet, func(a auth) []byte { return wrap6492(to, data, ecdsaSign(t, owner, digest(t, a))) })
	}

	tests := []struct {
		name    string
		build   func(t *testing.T) (common.Address, *x402.VerifyRequest)
		reason  x402.InvalidReason
		message string
	}{
		{"factory deploys another wallet", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			return counterfactual(t, func([]byte) (common.Address, []byte) {
				_, other := e.ownerWallet(common.HexToAddress("0x1234"))
				return e.chain.Contracts.WalletFactory, other
			})
		}, x402.ReasonInvalidInnerPayload, "did not deploy a wallet"},
		{"factory deploys nothing", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			return counterfactual(t, func([]byte) (common.Address, []byte) { return rogue, rf.PackNothing() })
		}, x402.ReasonInvalidInnerPayload, "did not deploy a wallet"},
		{"factory reverts", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			return counterfactual(t, func([]byte) (common.Address, []byte) { return rogue, rf.PackFail() })
		}, x402.ReasonInvalidInnerPayload, "RogueFactory: no"},
		{"factory burns gas", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			return counterfactual(t, func([]byte) (common.Address, []byte) { return rogue, rf.PackBurn() })
		}, x402.ReasonInvalidInnerPayload, "more than the 300000 gas"},
		{"wallet burns gas", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			w := e.rogueWallet(rogue, burnGas, price)
			return w, payment(w, func(auth) []byte { return junk() })
		}, x402.ReasonSignatureInvalid, ""},
		{"wallet refuses", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			w := e.rogueWallet(rogue, refuseAll, price)
			return w, payment(w, func(auth) []byte { return junk() })
		}, x402.ReasonSignatureInvalid, ""},
		{"undeployed wallet without ERC-6492", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			owner, _ := crypto.GenerateKey()
			wallet, _ := e.ownerWallet(crypto.PubkeyToAddress(owner.PublicKey))
			e.fundTokens(wallet, price)
			return wallet, payment(wallet, func(a auth) []byte { return ecdsaSign(t, owner, digest(t, a)) })
		}, x402.ReasonSignatureInvalid, "needs an ERC-6492 signature"},
		{"eip7702 account, another key", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			p := e.fundPayer(price)
			e.delegate(p.Key)
			other, _ := crypto.GenerateKey()
			return p.Address, payment(p.Address, func(a auth) []byte { return ecdsaSign(t, other, digest(t, a)) })
		}, x402.ReasonSignatureInvalid, ""},
		{"ERC-6492 suffix on garbage", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			p := e.fundPayer(price)
			return p.Address, payment(p.Address, func(auth) []byte {
				return append(junk(), common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")...)
			})
		}, x402.ReasonSignatureInvalid, "ERC-6492"},
		{"signature too long", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			p := e.fundPayer(price)
			return p.Address, payment(p.Address, func(auth) []byte { return make([]byte, 5000) })
		}, x402.ReasonSignatureInvalid, ""},
		{"wallet short of funds", func(t *testing.T) (common.Address, *x402.VerifyRequest) {
			w := e.rogueWallet(rogue, approveAll, price-1)
			return w, payment(w, func(auth) []byte { return junk() })
		}, x402.ReasonInvalidInnerPayload, "insufficient balance"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			payer, req := tc.build(t)
			nonce, _ := e.eth.PendingNonceAt(context.Background(), settler)
			payerBefore, merchantBefore := e.balance(payer), e.balance(merchant)
			e.refused(req, tc.reason, tc.message)
			if after, _ := e.eth.PendingNonceAt(context.Background(), settler); after != nonce {
				t.Fatalf("the settler sent %d transactions", after-nonce)
			}
			if e.balance(payer).Cmp(payerBefore) != 0 || e.balance(merchant).Cmp(merchantBefore) != 0 {
				t.Fatal("a balance moved")
			}
		})
	}

	// A wallet that approves any signature pays for anyone who signs in
	// its name: that is its owner's problem. It pays from its own funds,
	// exactly the price, once per authorization.
	t.Run("wallet approves anything", func(t *testing.T) {
		w := e.rogueWallet(rogue, approveAll, 2*price)
		e.settleOnce(payment(w, func(auth) []byte { return junk() }), w, merchant)
		e.settleOnce(payment(w, func(auth) []byte { return junk() }), w, merchant)
		if b := e.balance(w); b.Sign() != 0 {
			t.Fatalf("wallet holds %s after two payments of its whole balance", b)
		}
		e.refused(payment(w, func(auth) []byte { return junk() }), x402.ReasonInvalidInnerPayload, "insufficient balance")
	})

	// An EIP-7702 account whose delegate answers ERC-1271 for signatures
	// that are not its key's (here RogueWallet's code, approving all: its
	// mode is the account's own storage, zero) pays through the contract
	// path, once.
	t.Run("eip7702 delegate's ERC-1271", func(t *testing.T) {
		p := e.fundPayer(price)
		e.delegateTo(p.Key, e.rogueWallet(rogue, refuseAll, 0))
		gas := e.settleOnce(payment(p.Address, func(auth) []byte { return junk() }), p.Address, merchant)
		t.Logf("settlement gas, eip7702 through its delegate's ERC-1271: %d", gas)
	})

	// A wallet valid at verify and invalid at settle: settle checks again
	// and refuses before it sends anything; nothing is settled or served.
	t.Run("wallet changes its mind", func(t *testing.T) {
		w := e.rogueWallet(rogue, approveAll, price)
		req := payment(w, func(auth) []byte { return junk() })
		if v, err := e.client.Verify(context.Background(), req); err != nil || !v.IsValid {
			t.Fatalf("verify = %+v, %v", v, err)
		}
		e.exec(e.chain.Accounts[3].Key, w, contracts.NewRogueWallet().PackSetMode(refuseAll))
		nonce, _ := e.eth.PendingNonceAt(context.Background(), settler)
		e.refused(req, x402.ReasonSignatureInvalid, "")
		if after, _ := e.eth.PendingNonceAt(context.Background(), settler); after != nonce || e.balance(w).Int64() != price {
			t.Fatal("the refused settlement was sent or moved funds")
		}
	})
}

// refused settles req and checks that it is refused for reason, with msg
// in its message.
func (e *env) refused(req *x402.VerifyRequest, reason x402.InvalidReason, msg string) {
	e.t.Helper()
	var res x402.SettleResponse
	e.post("settle", req, &res)
	if res.Success || res.ErrorCode != x402.ErrorVerifyFailed || !strings.HasPrefix(res.Message, string(reason)) ||
		!strings.Contains(res.Message, msg) || res.TransactionHash != "" {
		e.t.Fatalf("settle = %+v, want %s (%q)", res, reason, msg)
	}
}

// TestWalletGasBudget: a wallet payment whose deployment and transfer take
// more gas than WalletGas is refused before anything is sent.
func TestWalletGasBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.stop()
	e.cfg.WalletGas = 60_000
	e.start()
	merchant := e.chain.Accounts[2].Address
	owner, _ := crypto.GenerateKey()
	wallet, deploy := e.ownerWallet(crypto.PubkeyToAddress(owner.PublicKey))
	e.fundTokens(wallet, 10_000)
	a := e.newAuth(e.chain.Accounts[1], merchant, 10_000)
	a.from = wallet
	req := request(e.requirements(merchant, 10_000), a, wrap6492(e.chain.Contracts.WalletFactory, deploy, ecdsaSign(t, owner, digest(t, a))))
	nonce, _ := e.eth.PendingNonceAt(context.Background(), e.chain.Accounts[0].Address)
	e.refused(req, x402.ReasonInvalidInnerPayload, "more than the 60000 gas")
	if after, _ := e.eth.PendingNonceAt(context.Background(), e.chain.Accounts[0].Address); after != nonce {
		t.Fatal("the settler sent a transaction")
	}
}

// TestWithinGas: an estimate (with the sender's quarter margin) over a
// settlement's MaxGas is cut to it while the estimate itself fits, and
// refused beyond; zero bounds nothing.
func TestWithinGas(t *testing.T) {
	t.Parallel()
	tests := []struct {
		gas, max, want uint64
		refused        bool
	}{
		{100_000, 0, 100_000, false},
		{100_000, 100_000, 100_000, false},
		{125_000, 100_000, 100_000, false}, // 100,000 estimated, margin cut
		{125_001, 100_000, 0, true},
		{1 << 40, 300_000, 0, true},
	}
	for _, tc := range tests {
		got, err := withinGas(tc.gas, tc.max)
		if got != tc.want || (err != nil) != tc.refused || (err != nil && !strings.Contains(estimateRefusal(err), "more gas")) {
			t.Errorf("withinGas(%d, %d) = %d, %v", tc.gas, tc.max, got, err)
		}
	}
}

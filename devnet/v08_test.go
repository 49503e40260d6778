package devnet

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/contracts/ep08"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
)

func TestEntryPointV08Predeployed(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	want, got := wellknown.GenesisContracts(), c.Contracts
	if got.EntryPointV08 != ep08.Address || got.EntryPointV08 != want.EntryPointV08 || got.AccountFactoryV08 != want.AccountFactoryV08 ||
		got.PaymasterV08 != want.PaymasterV08 || got.TokenPaymasterV08 != want.TokenPaymasterV08 || got.Simple7702Account != want.Simple7702Account {
		t.Fatalf("v0.8 contracts %+v, wellknown.GenesisContracts %+v", got, want)
	}
	for _, addr := range []common.Address{ep08.Address, ep08.SenderCreatorAddress, got.AccountFactoryV08, got.AccountImplementationV08, got.PaymasterV08, got.TokenPaymasterV08, got.Simple7702Account} {
		if code, err := c.client.CodeAt(ctx, addr, nil); err != nil || len(code) == 0 {
			t.Errorf("no code at %s: %v", addr, err)
		}
	}
	ep := ep08.NewEntryPoint()
	creator, _ := ep.UnpackSenderCreator(c.call(ep08.Address, ep.PackSenderCreator()))
	sep, _ := ep.UnpackGetDomainSeparatorV4(c.call(ep08.Address, ep.PackGetDomainSeparatorV4()))
	typeHash, _ := ep.UnpackGetPackedUserOpTypeHash(c.call(ep08.Address, ep.PackGetPackedUserOpTypeHash()))
	if creator != ep08.SenderCreatorAddress || sep != ep08.DomainSeparator(ep08.Address, c.ChainID) || typeHash != ep08.PackedUserOpTypeHash {
		t.Errorf("senderCreator %s, domain separator %x, type hash %x; want %s, %x, %x", creator, sep, typeHash,
			ep08.SenderCreatorAddress, ep08.DomainSeparator(ep08.Address, c.ChainID), ep08.PackedUserOpTypeHash)
	}
	// The patched immutables: the separator is the cached one (no
	// recomputation), and the SenderCreator serves the canonical EntryPoint.
	code, _ := c.client.CodeAt(ctx, ep08.Address, nil)
	creatorCode, _ := c.client.CodeAt(ctx, ep08.SenderCreatorAddress, nil)
	if !containsAddress(code, ep08.Address) || !containsAddress(creatorCode, ep08.Address) || !containsAddress(code, ep08.SenderCreatorAddress) {
		t.Error("EntryPoint v0.8's or its SenderCreator's immutables do not name the canonical addresses")
	}
	pm := ep08.NewVerifyingPaymasterV08()
	signer, _ := pm.UnpackVerifyingSigner(c.call(got.PaymasterV08, pm.PackVerifyingSigner()))
	deposit, _ := ep.UnpackBalanceOf(c.call(ep08.Address, ep.PackBalanceOf(got.PaymasterV08)))
	tpm := ep08.NewTokenPaymasterV08()
	towner, _ := tpm.UnpackOwner(c.call(got.TokenPaymasterV08, tpm.PackOwner()))
	info, _ := ep.UnpackGetDepositInfo(c.call(ep08.Address, ep.PackGetDepositInfo(got.TokenPaymasterV08)))
	if signer != c.PaymasterSigner.Address || deposit.Cmp(DefaultPaymasterDeposit) != 0 || towner != c.Accounts[0].Address || !info.Staked {
		t.Errorf("v0.8 paymaster signer %s deposit %s, token paymaster owner %s staked %v", signer, deposit, towner, info.Staked)
	}
	for _, a := range got.SmartAccountsV08 {
		if b := c.tokenBalance(a); b.Cmp(DefaultAccountTokens) != 0 {
			t.Errorf("v0.8 smart account %s holds %s, want %s", a, b, DefaultAccountTokens)
		}
	}
}

// TestEIP7702UserOperationV08 is a payment from an EOA that delegates to
// Simple7702Account in the bundle that carries its operation: the
// authorization rides in the set-code transaction of handleOps, the
// operation's initCode is the 0x7702 marker, and the off-chain EIP-712
// userOpHash is the EntryPoint's getUserOpHash (asked before the bundle,
// with the delegation as a state override, and after it). A second
// payment needs no authorization.
func TestEIP7702UserOperationV08(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	var (
		ep         = ep08.NewEntryPoint()
		account    = ep08.NewSimple7702Account()
		token      = contracts.NewDevUSD()
		settlement = contracts.NewX402Settlement()
		bundler    = c.Accounts[0]
		merchant   = c.Accounts[3].Address
		eoaKey     = c.Accounts[4].Key
		eoa        = c.Accounts[4].Address
		amount     = big.NewInt(1_250_000)
	)
	pay := func(requestHash [32]byte) []byte {
		return account.PackExecuteBatch([]ep08.BaseAccountCall{
			{Target: c.Token.Address, Value: new(big.Int), Data: token.PackApprove(c.Contracts.Settlement, amount)},
			{Target: c.Contracts.Settlement, Value: new(big.Int), Data: settlement.PackSettle(merchant, c.Token.Address, amount, requestHash)},
		})
	}
	own, err := c.client.PendingNonceAt(ctx, eoa)
	if err != nil {
		t.Fatal(err)
	}
	auth, err := types.SignSetCode(eoaKey, types.SetCodeAuthorization{ChainID: *uint256.MustFromBig(c.ChainID), Address: c.Contracts.Simple7702Account, Nonce: own})
	if err != nil {
		t.Fatal(err)
	}
	first := randomHash(t)
	op, hash := c.userOpV08(eoa, big.NewInt(0), pay(first), c.Contracts.Simple7702Account, eoaKey)
	r := c.sendSetCode(bundler.Key, ep08.Address, ep.PackHandleOps([]ep08.PackedUserOperation{ep08.PackedUserOperation(op.Pack())}, bundler.Address), []types.SetCodeAuthorization{auth})
	c.checkOpV08(r, hash, eoa, first)
	if code, _ := c.client.CodeAt(ctx, eoa, nil); string(code) != string(ep08.Delegation(c.Contracts.Simple7702Account)) {
		t.Fatalf("EOA code %x after the bundle, want the delegation", code)
	}
	second := randomHash(t)
	op, hash = c.userOpV08(eoa, big.NewInt(1), pay(second), c.Contracts.Simple7702Account, eoaKey)
	r2 := c.send(bundler.Key, ep08.Address, ep.PackHandleOps([]ep08.PackedUserOperation{ep08.PackedUserOperation(op.Pack())}, bundler.Address), 2_000_000)
	c.checkOpV08(r2, hash, eoa, second)
	if got, want := c.tokenBalance(eoa), new(big.Int).Sub(DefaultAccountTokens, new(big.Int).Mul(amount, big.NewInt(2))); got.Cmp(want) != 0 {
		t.Fatalf("EOA balance %s, want %s", got, want)
	}
	t.Logf("sponsored settlement gas, v0.8 EIP-7702 account: with its authorization %d, delegated %d", r.GasUsed, r2.GasUsed)
}

// userOpV08 builds a v0.8 operation of the EIP-7702 sender eoa delegating
// to delegate, sponsored by VerifyingPaymasterV08 (its off-chain hash
// checked against getHash) and signed by key over the off-chain userOpHash,
// checked against getUserOpHash run with the delegation as a state
// override.
func (c *chain) userOpV08(eoa common.Address, nonce *big.Int, callData []byte, delegate common.Address, key *ecdsa.PrivateKey) (ep07.UserOperation, common.Hash) {
	c.t.Helper()
	head, err := c.client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	op := ep07.UserOperation{
		Sender: eoa, Nonce: nonce, Factory: ep08.EIP7702Marker, CallData: callData,
		CallGasLimit: big.NewInt(200_000), VerificationGasLimit: big.NewInt(150_000), PreVerificationGas: big.NewInt(90_000),
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), MaxPriorityFeePerGas: tip,
		Paymaster: c.Contracts.PaymasterV08, PaymasterVerificationGasLimit: big.NewInt(60_000), PaymasterPostOpGasLimit: big.NewInt(0),
	}
	validUntil := uint64(time.Now().Add(10 * time.Minute).Unix())
	pmHash := ep07.VerifyingPaymasterHash(op, c.Contracts.PaymasterV08, c.ChainID, validUntil, 0)
	op.PaymasterData = ep07.VerifyingPaymasterData(validUntil, 0, make([]byte, 65))
	pm := ep08.NewVerifyingPaymasterV08()
	onchain, err := pm.UnpackGetHash(c.call(c.Contracts.PaymasterV08, pm.PackGetHash(ep08.PackedUserOperation(op.Pack()), big.NewInt(int64(validUntil)), new(big.Int))))
	if err != nil || onchain != pmHash {
		c.t.Fatalf("off-chain v0.8 paymaster hash %x != getHash %x (%v)", pmHash, onchain, err)
	}
	sig, err := contracts.SignHash(pmHash, c.PaymasterSigner.Key)
	if err != nil {
		c.t.Fatal(err)
	}
	op.PaymasterData = ep07.VerifyingPaymasterData(validUntil, 0, sig)

	hash := ep08.UserOpHash(op, delegate, ep08.Address, c.ChainID)
	ep := ep08.NewEntryPoint()
	var out hexutil.Bytes
	err = c.client.Client().CallContext(context.Background(), &out, "eth_call",
		map[string]any{"to": ep08.Address, "data": hexutil.Bytes(ep.PackGetUserOpHash(ep08.PackedUserOperation(op.Pack())))}, "latest",
		map[common.Address]map[string]any{eoa: {"code": hexutil.Bytes(ep08.Delegation(delegate))}})
	if err != nil {
		c.t.Fatal(err)
	}
	if onchainOp, err := ep.UnpackGetUserOpHash(out); err != nil || onchainOp != hash {
		c.t.Fatalf("off-chain v0.8 userOpHash %x != getUserOpHash %x (%v)", hash, onchainOp, err)
	}
	// Signed as Simple7702Account checks: the raw hash, by the EOA's key.
	if op.Signature, err = crypto.Sign(hash.Bytes(), key); err != nil {
		c.t.Fatal(err)
	}
	op.Signature[64] += 27
	return op, hash
}

// checkOpV08 checks that r is a successful bundle whose operation hash
// succeeded under VerifyingPaymasterV08 and settled requestHash for payer.
func (c *chain) checkOpV08(r *types.Receipt, hash common.Hash, payer common.Address, requestHash [32]byte) {
	c.t.Helper()
	ep, settlement := ep08.NewEntryPoint(), contracts.NewX402Settlement()
	var ok, settled bool
	for _, l := range r.Logs {
		if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == ep08.Address {
			ok = ev.UserOpHash == hash && ev.Success && ev.Paymaster == c.Contracts.PaymasterV08 && ev.Sender == payer
		}
		if ev, err := settlement.UnpackSettledEvent(l); err == nil && l.Address == c.Contracts.Settlement {
			settled = ev.RequestHash == requestHash && ev.Payer == payer
		}
	}
	if r.Status != types.ReceiptStatusSuccessful || !ok || !settled {
		c.t.Fatalf("bundle status %d, UserOperationEvent ok %v, Settled %v", r.Status, ok, settled)
	}
}

// sendSetCode sends input to `to` from key in a set-code transaction
// carrying auths, and waits for its receipt.
func (c *chain) sendSetCode(key *ecdsa.PrivateKey, to common.Address, input []byte, auths []types.SetCodeAuthorization) *types.Receipt {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	nonce, err := c.client.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		c.t.Fatal(err)
	}
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.ChainID), &types.SetCodeTx{
		ChainID: uint256.MustFromBig(c.ChainID), Nonce: nonce, To: to, Data: input, Gas: 2_000_000,
		GasTipCap: uint256.NewInt(1e9), GasFeeCap: uint256.MustFromBig(new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(1e9))),
		AuthList: auths,
	})
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.client.SendTransaction(ctx, tx); err != nil {
		c.t.Fatalf("sending: %v", err)
	}
	receipt, err := c.Wait(ctx, tx.Hash())
	if err != nil {
		c.t.Fatalf("waiting for %s: %v", tx.Hash(), err)
	}
	return receipt
}

package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
)

func TestEntryPointV07Predeployed(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	want := wellknown.GenesisContracts()
	got := c.Contracts
	if got.EntryPointV07 != ep07.Address || got.EntryPointV07 != want.EntryPointV07 ||
		got.AccountFactoryV07 != want.AccountFactoryV07 || got.PaymasterV07 != want.PaymasterV07 || got.TokenPaymasterV07 != want.TokenPaymasterV07 {
		t.Fatalf("v0.7 contracts %+v, wellknown.GenesisContracts %+v", got, want)
	}
	for _, addr := range []common.Address{ep07.Address, ep07.SenderCreatorAddress, got.AccountFactoryV07, got.AccountImplementationV07, got.PaymasterV07, got.TokenPaymasterV07} {
		if code, err := c.client.CodeAt(ctx, addr, nil); err != nil || len(code) == 0 {
			t.Errorf("no code at %s: %v", addr, err)
		}
	}
	// The EntryPoint's immutable SenderCreator is the canonical one, the
	// address EntryPointSimulations assumes.
	code, _ := c.client.CodeAt(ctx, ep07.Address, nil)
	if !containsAddress(code, ep07.SenderCreatorAddress) {
		t.Error("EntryPoint v0.7's code does not hold the canonical SenderCreator")
	}
	pm := ep07.NewVerifyingPaymaster()
	signer, _ := pm.UnpackVerifyingSigner(c.call(got.PaymasterV07, pm.PackVerifyingSigner()))
	ep := ep07.NewEntryPoint()
	deposit, _ := ep.UnpackBalanceOf(c.call(ep07.Address, ep.PackBalanceOf(got.PaymasterV07)))
	if signer != c.PaymasterSigner.Address || deposit.Cmp(DefaultPaymasterDeposit) != 0 {
		t.Errorf("v0.7 paymaster signer %s deposit %s, want %s and %s", signer, deposit, c.PaymasterSigner.Address, DefaultPaymasterDeposit)
	}
	// The token paymaster: the same signer, deposit and stake, owned by
	// account #0 like v0.6's.
	tpm := ep07.NewTokenPaymasterV07()
	tsigner, _ := tpm.UnpackVerifyingSigner(c.call(got.TokenPaymasterV07, tpm.PackVerifyingSigner()))
	towner, _ := tpm.UnpackOwner(c.call(got.TokenPaymasterV07, tpm.PackOwner()))
	tdeposit, _ := ep.UnpackBalanceOf(c.call(ep07.Address, ep.PackBalanceOf(got.TokenPaymasterV07)))
	info, _ := ep.UnpackGetDepositInfo(c.call(ep07.Address, ep.PackGetDepositInfo(got.TokenPaymasterV07)))
	if tsigner != c.PaymasterSigner.Address || towner != c.Accounts[0].Address || tdeposit.Cmp(DefaultPaymasterDeposit) != 0 || !info.Staked {
		t.Errorf("v0.7 token paymaster signer %s owner %s deposit %s staked %v, want %s, %s, %s, staked",
			tsigner, towner, tdeposit, info.Staked, c.PaymasterSigner.Address, c.Accounts[0].Address, DefaultPaymasterDeposit)
	}
	if len(got.SmartAccountsV07) != len(c.Accounts) {
		t.Fatalf("%d v0.7 smart accounts for %d accounts", len(got.SmartAccountsV07), len(c.Accounts))
	}
	for _, a := range got.SmartAccountsV07 {
		if b := c.tokenBalance(a); b.Cmp(DefaultAccountTokens) != 0 {
			t.Errorf("v0.7 smart account %s holds %s, want %s", a, b, DefaultAccountTokens)
		}
	}
}

func containsAddress(code []byte, a common.Address) bool {
	for i := 0; i+20 <= len(code); i++ {
		if common.BytesToAddress(code[i:i+20]) == a {
			return true
		}
	}
	return false
}

// userOpV07 builds an unsigned v0.7 operation for the devnet's gas prices,
// sponsored by the v0.7 VerifyingPaymaster with the off-chain hash checked
// against getHash, and signs it with the off-chain userOpHash checked
// against getUserOpHash.
func (c *chain) userOpV07(sender common.Address, nonce *big.Int, factory common.Address, factoryData, callData []byte, owner *ecdsa.PrivateKey) (ep07.UserOperation, common.Hash) {
	c.t.Helper()
	head, err := c.client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	op := ep07.UserOperation{
		Sender: sender, Nonce: nonce, Factory: factory, FactoryData: factoryData, CallData: callData,
		CallGasLimit: big.NewInt(200_000), VerificationGasLimit: big.NewInt(500_000), PreVerificationGas: big.NewInt(60_000),
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), MaxPriorityFeePerGas: tip,
		Paymaster: c.Contracts.PaymasterV07, PaymasterVerificationGasLimit: big.NewInt(100_000), PaymasterPostOpGasLimit: big.NewInt(0),
	}
	validUntil, validAfter := uint64(time.Now().Add(10*time.Minute).Unix()), uint64(0)
	hash := ep07.VerifyingPaymasterHash(op, c.Contracts.PaymasterV07, c.ChainID, validUntil, validAfter)
	pm := ep07.NewVerifyingPaymaster()
	op.PaymasterData = ep07.VerifyingPaymasterData(validUntil, validAfter, make([]byte, 65))
	onchain, err := pm.UnpackGetHash(c.call(c.Contracts.PaymasterV07, pm.PackGetHash(op.Pack(), big.NewInt(int64(validUntil)), big.NewInt(int64(validAfter)))))
	if err != nil || onchain != hash {
		c.t.Fatalf("off-chain v0.7 paymaster hash %x != on-chain getHash %x (%v)", hash, onchain, err)
	}
	sig, err := contracts.SignHash(hash, c.PaymasterSigner.Key)
	if err != nil {
		c.t.Fatal(err)
	}
	op.PaymasterData = ep07.VerifyingPaymasterData(validUntil, validAfter, sig)

	userOpHash := ep07.UserOpHash(op, ep07.Address, c.ChainID)
	ep := ep07.NewEntryPoint()
	onchainOp, err := ep.UnpackGetUserOpHash(c.call(ep07.Address, ep.PackGetUserOpHash(op.Pack())))
	if err != nil || onchainOp != userOpHash {
		c.t.Fatalf("off-chain v0.7 userOpHash %x != on-chain %x (%v)", userOpHash, onchainOp, err)
	}
	if op.Signature, err = contracts.SignHash(userOpHash, owner); err != nil {
		c.t.Fatal(err)
	}
	return op, userOpHash
}

// simulateV07 runs EntryPointSimulations.simulateValidation in the
// EntryPoint's place, through an eth_call state override.
func (c *chain) simulateV07(op ep07.UserOperation) (ep07.Validation, error) {
	c.t.Helper()
	call, override := ep07.SimulateValidationCall(op, ep07.Address)
	var out hexutil.Bytes
	err := c.client.Client().CallContext(context.Background(), &out, "eth_call", call, "latest", override)
	var de rpc.DataError
	if errors.As(err, &de) {
		s, _ := de.ErrorData().(string)
		return ep07.ParseSimulation(nil, common.FromHex(s))
	}
	if err != nil {
		return ep07.Validation{}, err
	}
	return ep07.ParseSimulation(out, nil)
}

// TestSponsoredUserOperationSettlesV07 is TestSponsoredUserOperationSettles
// for EntryPoint v0.7: a v0.7 SimpleAccount created by its first operation
// pays through X402Settlement, sponsored by the v0.7 VerifyingPaymaster;
// then a second payment from the deployed account. It logs the gas of
// both, beside v0.6's for the same two payments.
func TestSponsoredUserOperationSettlesV07(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	var (
		ep         = ep07.NewEntryPoint()
		factory    = ep07.NewSimpleAccountFactory()
		account    = ep07.NewSimpleAccount()
		token      = contracts.NewDevUSD()
		settlement = contracts.NewX402Settlement()
		bundler    = c.Accounts[0]
		merchant   = c.Accounts[3].Address
		amount     = big.NewInt(1_500_000)
		ownerKey   = c.Accounts[2].Key
		owner      = c.Accounts[2].Address
	)
	sender, err := factory.UnpackGetAddress(c.call(c.Contracts.AccountFactoryV07, factory.PackGetAddress(owner, new(big.Int))))
	if err != nil || sender != c.Contracts.SmartAccountsV07[2] {
		t.Fatalf("v0.7 account of %s = %s, %v; genesis funded %s", owner, sender, err, c.Contracts.SmartAccountsV07[2])
	}
	pay := func(requestHash [32]byte) []byte {
		return account.PackExecuteBatch(
			[]common.Address{c.Token.Address, c.Contracts.Settlement}, nil,
			[][]byte{token.PackApprove(c.Contracts.Settlement, amount), settlement.PackSettle(merchant, c.Token.Address, amount, requestHash)},
		)
	}
	// A paymaster signature over other gas fails in simulation (the
	// EntryPoint would refuse it with AA34 in handleOps).
	bad, _ := c.userOpV07(sender, big.NewInt(0), c.Contracts.AccountFactoryV07, factory.PackCreateAccount(owner, new(big.Int)), pay(randomHash(t)), ownerKey)
	bad.PaymasterVerificationGasLimit = big.NewInt(100_001)
	if v, err := c.simulateV07(bad); err != nil || !v.Paymaster.SigFailed {
		t.Fatalf("simulating an operation whose paymaster signature covers other gas: %+v, %v; want the paymaster's signature failed", v, err)
	}
	// An operation from an account without code or factory is FailedOp AA20.
	bad.Factory, bad.FactoryData = common.Address{}, nil
	if _, err := c.simulateV07(bad); !errors.Is(err, ep07.ErrFailedOp) || !strings.Contains(err.Error(), "AA20") {
		t.Fatalf("simulating an operation of an undeployed account without factory: %v, want FailedOp AA20", err)
	}
	settle := func(op ep07.UserOperation, userOpHash common.Hash, requestHash [32]byte) *types.Receipt {
		t.Helper()
		if v, err := c.simulateV07(op); err != nil || v.Account.SigFailed || v.Paymaster.SigFailed || v.Paymaster.ValidUntil == 0 {
			t.Fatalf("simulateValidation: %+v, %v", v, err)
		}
		receipt := c.send(bundler.Key, ep07.Address, ep.PackHandleOps([]ep07.PackedUserOperation{op.Pack()}, bundler.Address), 2_000_000)
		if receipt.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("handleOps failed: %+v", receipt)
		}
		var ok, settled bool
		for _, l := range receipt.Logs {
			if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == ep07.Address {
				ok = ev.UserOpHash == userOpHash && ev.Success && ev.Paymaster == c.Contracts.PaymasterV07
			}
			if ev, err := settlement.UnpackSettledEvent(l); err == nil && l.Address == c.Contracts.Settlement {
				settled = ev.RequestHash == requestHash && ev.Payer == sender && ev.Merchant == merchant && ev.Amount.Cmp(amount) == 0
			}
		}
		if !ok || !settled {
			t.Fatalf("UserOperationEvent ok %v, Settled %v", ok, settled)
		}
		return receipt
	}

	first := randomHash(t)
	op, hash := c.userOpV07(sender, big.NewInt(0), c.Contracts.AccountFactoryV07, factory.PackCreateAccount(owner, new(big.Int)), pay(first), ownerKey)
	created := settle(op, hash, first)
	second := randomHash(t)
	op, hash = c.userOpV07(sender, big.NewInt(1), common.Address{}, nil, pay(second), ownerKey)
	deployed := settle(op, hash, second)

	twice := new(big.Int).Mul(amount, big.NewInt(2))
	if got, want := c.tokenBalance(merchant), new(big.Int).Add(DefaultAccountTokens, twice); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance = %s, want %s", got, want)
	}
	if got, want := c.tokenBalance(sender), new(big.Int).Sub(DefaultAccountTokens, twice); got.Cmp(want) != 0 {
		t.Fatalf("account balance = %s, want %s", got, want)
	}
	if eth, _ := c.client.BalanceAt(context.Background(), sender, nil); eth.Sign() != 0 {
		t.Fatalf("account holds %s wei; gas should have been sponsored", eth)
	}

	// The same payments in v0.6, for the gas figures.
	v6 := func(nonce int64, initCode []byte, requestHash [32]byte) uint64 {
		a6 := contracts.NewSimpleAccount()
		op := c.userOp(c.Contracts.SmartAccounts[2], big.NewInt(nonce), initCode, a6.PackExecuteBatch(
			[]common.Address{c.Token.Address, c.Contracts.Settlement},
			[][]byte{token.PackApprove(c.Contracts.Settlement, amount), settlement.PackSettle(merchant, c.Token.Address, amount, requestHash)}))
		c.sponsor(&op)
		c.sign(&op, ownerKey)
		r := c.send(bundler.Key, c.Contracts.EntryPoint, contracts.NewEntryPoint().PackHandleOps([]contracts.UserOperation{op}, bundler.Address), 2_000_000)
		if r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("v0.6 handleOps failed")
		}
		return r.GasUsed
	}
	f6 := contracts.NewSimpleAccountFactory()
	created6 := v6(0, append(c.Contracts.AccountFactory.Bytes(), f6.PackCreateAccount(owner, new(big.Int))...), randomHash(t))
	deployed6 := v6(1, nil, randomHash(t))
	t.Logf("sponsored settlement gas, v0.6 / v0.7: creating the account %d / %d, deployed account %d / %d",
		created6, created.GasUsed, deployed6, deployed.GasUsed)
}

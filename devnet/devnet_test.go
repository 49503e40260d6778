package devnet

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
)

// chain is a running devnet and an HTTP ethclient on its RPC.
type chain struct {
	*Devnet
	t      *testing.T
	client *ethclient.Client
}

func start(t *testing.T, cfg Config) *chain {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	began := time.Now()
	d, err := Start(ctx, cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("devnet started in %v at %s", time.Since(began), d.URL)
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	client, err := ethclient.DialContext(ctx, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return &chain{Devnet: d, t: t, client: client}
}

func (c *chain) call(to common.Address, input []byte) []byte {
	c.t.Helper()
	out, err := c.client.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: input}, nil)
	if err != nil {
		c.t.Fatalf("eth_call to %s: %v", to, err)
	}
	return out
}

// revertData returns the revert data of a call that must revert.
func (c *chain) revertData(from, to common.Address, input []byte) []byte {
	c.t.Helper()
	_, err := c.client.CallContract(context.Background(), ethereum.CallMsg{From: from, To: &to, Data: input}, nil)
	var de rpc.DataError
	if !errors.As(err, &de) {
		c.t.Fatalf("call did not revert with data: %v", err)
	}
	s, _ := de.ErrorData().(string)
	data, derr := hexutil.Decode(s)
	if derr != nil || len(data) < 4 {
		c.t.Fatalf("revert data %q: %v", s, derr)
	}
	return data
}

// send signs and sends a transaction with a fixed gas limit (so a reverting
// transaction is still mined) and returns its receipt.
func (c *chain) send(key *ecdsa.PrivateKey, to common.Address, input []byte, gas uint64) *types.Receipt {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := c.client.PendingNonceAt(ctx, from)
	if err != nil {
		c.t.Fatal(err)
	}
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.ChainID), &types.DynamicFeeTx{
		ChainID: c.ChainID, Nonce: nonce, To: &to, Data: input, Gas: gas,
		GasTipCap: tip, GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
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

// lookUp returns the error of a receipt lookup of hash once the node can
// tell: go-ethereum answers "transaction indexing is in progress" for an
// unknown transaction until its indexer has caught up with a new head,
// which takes a moment on a loaded machine (the product classifies it
// with package sender's Indexing, above this package).
func (c *chain) lookUp(hash common.Hash) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		_, err := c.client.TransactionReceipt(ctx, hash)
		if err == nil || !strings.Contains(err.Error(), "transaction indexing is in progress") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (c *chain) tokenBalance(who common.Address) *big.Int {
	c.t.Helper()
	token := contracts.NewDevUSD()
	v, err := token.UnpackBalanceOf(c.call(c.Token.Address, token.PackBalanceOf(who)))
	if err != nil {
		c.t.Fatal(err)
	}
	return v
}

func randomHash(t *testing.T) [32]byte {
	var h [32]byte
	if _, err := rand.Read(h[:]); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestConfigDefaultsAndValidate(t *testing.T) {
	t.Parallel()
	d := Config{}.withDefaults()
	if d.ChainID != 31337 || d.Addr != "127.0.0.1:8545" || d.Accounts != 10 || d.Mnemonic != TestMnemonic || d.BlockPeriod != 0 {
		t.Fatalf("defaults = %+v", d)
	}
	bad := []Config{
		{Addr: "nonsense"},
		{Addr: "127.0.0.1:99999"},
		{BlockPeriod: 500 * time.Millisecond},
		{Accounts: 11},
		{AccountETH: big.NewInt(-1)},
		{GasLimit: 1000},
	}
	for _, cfg := range bad {
		if err := cfg.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", cfg)
		}
	}
	if _, err := Start(context.Background(), Config{BlockPeriod: time.Millisecond}); err == nil {
		t.Error("Start accepted an invalid config")
	}
}

func TestPredeployedState(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	deployer := c.Accounts[0].Address

	id, err := c.client.ChainID(ctx)
	if err != nil || id.Uint64() != 31337 {
		t.Fatalf("chain id = %v, %v", id, err)
	}
	// Contracts sit at the deployer's first create addresses, as a script
	// deploying them in order would put them.
	for i, addr := range []common.Address{c.Contracts.EntryPoint, c.Contracts.AccountFactory, c.Contracts.Paymaster, c.Contracts.Token, c.Contracts.Settlement, c.Contracts.Batch, c.Contracts.TokenPaymaster, c.Contracts.PermitToken} {
		if want := crypto.CreateAddress(deployer, uint64(i)); addr != want {
			t.Errorf("contract %d at %s, want %s", i, addr, want)
		}
		code, err := c.client.CodeAt(ctx, addr, nil)
		if err != nil || len(code) == 0 {
			t.Errorf("no code at %s: %v", addr, err)
		}
	}
	// Permit2 and x402's proxies are at their canonical addresses.
	for _, addr := range []common.Address{contracts.Permit2Address, contracts.ExactPermit2ProxyAddress, contracts.UptoPermit2ProxyAddress} {
		if code, err := c.client.CodeAt(ctx, addr, nil); err != nil || len(code) == 0 {
			t.Errorf("no code at %s: %v", addr, err)
		}
	}
	// Code that does not link the chain reads them from package wellknown.
	want := wellknown.GenesisContracts()
	if got := c.Contracts; got.EntryPoint != want.EntryPoint || got.AccountFactory != want.AccountFactory ||
		got.Paymaster != want.Paymaster || got.Token != want.Token || got.Settlement != want.Settlement || got.Batch != want.Batch ||
		got.TokenPaymaster != want.TokenPaymaster || got.PermitToken != want.PermitToken || got.Permit2 != want.Permit2 ||
		got.ExactPermit2Proxy != want.ExactPermit2Proxy || got.UptoPermit2Proxy != want.UptoPermit2Proxy ||
		got.WalletFactory != want.WalletFactory || got.EOADelegate != want.EOADelegate || got.Multicall3 != want.Multicall3 {
		t.Errorf("contracts %+v, wellknown.GenesisContracts %+v", got, want)
	}
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if skew := time.Now().Unix() - int64(head.Time); head.Number.Sign() != 0 || skew < 0 || skew > 60 {
		t.Errorf("latest block %s has time %d, %ds from now; calls need a current block time", head.Number, head.Time, skew)
	}
	if n, _ := c.client.NonceAt(ctx, deployer, nil); n != 8 {
		t.Errorf("deployer nonce = %d, want 8 (so its next deployment does not collide)", n)
	}

	token := contracts.NewDevUSD()
	t.Run("token", func(t *testing.T) {
		name, _ := token.UnpackName(c.call(c.Token.Address, token.PackName()))
		symbol, _ := token.UnpackSymbol(c.call(c.Token.Address, token.PackSymbol()))
		version, _ := token.UnpackVersion(c.call(c.Token.Address, token.PackVersion()))
		decimals, _ := token.UnpackDecimals(c.call(c.Token.Address, token.PackDecimals()))
		owner, _ := token.UnpackOwner(c.call(c.Token.Address, token.PackOwner()))
		if name != "Devnet USD" || symbol != "dUSD" || version != "1" || decimals != 6 || owner != deployer {
			t.Fatalf("token = %q %q %q %d owner %s", name, symbol, version, decimals, owner)
		}
		dom, err := token.UnpackEip712Domain(c.call(c.Token.Address, token.PackEip712Domain()))
		if err != nil {
			t.Fatal(err)
		}
		if dom.Name != "Devnet USD" || dom.Version != "1" || dom.ChainId.Uint64() != 31337 || dom.VerifyingContract != c.Token.Address {
			t.Fatalf("eip712Domain = %+v", dom)
		}
	})
	t.Run("balances", func(t *testing.T) {
		for i, a := range c.Accounts {
			if got := c.tokenBalance(a.Address); got.Cmp(DefaultAccountTokens) != 0 {
				t.Errorf("account %d token balance = %s, want %s", i, got, DefaultAccountTokens)
			}
			eth, err := c.client.BalanceAt(ctx, a.Address, nil)
			if err != nil || eth.Cmp(DefaultAccountETH) != 0 {
				t.Errorf("account %d ETH = %s, want %s (%v)", i, eth, DefaultAccountETH, err)
			}
		}
		f := contracts.NewSimpleAccountFactory()
		for i, a := range c.Accounts {
			sa, _ := f.UnpackGetAddress(c.call(c.Contracts.AccountFactory, f.PackGetAddress(a.Address, big.NewInt(0))))
			if sa != c.Contracts.SmartAccounts[i] || c.tokenBalance(sa).Cmp(DefaultAccountTokens) != 0 {
				t.Errorf("smart account %d = %s (factory says %s), balance %s", i, c.Contracts.SmartAccounts[i], sa, c.tokenBalance(sa))
			}
			if code, _ := c.client.CodeAt(ctx, sa, nil); len(code) != 0 {
				t.Errorf("smart account %d is deployed already", i)
			}
		}
		wf := contracts.NewOwnerWalletFactory()
		for i, a := range c.Accounts {
			w, _ := wf.UnpackGetAddress(c.call(c.Contracts.WalletFactory, wf.PackGetAddress(a.Address, [32]byte{})))
			if w != c.Contracts.Wallets[i] || c.tokenBalance(w).Cmp(DefaultAccountTokens) != 0 {
				t.Errorf("wallet %d = %s (factory says %s), balance %s", i, c.Contracts.Wallets[i], w, c.tokenBalance(w))
			}
			if code, _ := c.client.CodeAt(ctx, w, nil); len(code) != 0 {
				t.Errorf("wallet %d is deployed already", i)
			}
		}
		if got := c.tokenBalance(c.PaymasterSigner.Address); got.Sign() != 0 {
			t.Errorf("paymaster signer holds %s tokens", got)
		}
	})
	t.Run("paymaster", func(t *testing.T) {
		ep := contracts.NewEntryPoint()
		for _, pm := range []common.Address{c.Contracts.Paymaster, c.Contracts.TokenPaymaster} {
			info, err := ep.UnpackGetDepositInfo(c.call(c.Contracts.EntryPoint, ep.PackGetDepositInfo(pm)))
			if err != nil {
				t.Fatal(err)
			}
			if info.Deposit.Cmp(DefaultPaymasterDeposit) != 0 || !info.Staked || info.Stake.Cmp(DefaultPaymasterStake) != 0 {
				t.Fatalf("deposit info of %s = %+v", pm, info)
			}
		}
		epBalance, _ := c.client.BalanceAt(ctx, c.Contracts.EntryPoint, nil)
		if want := new(big.Int).Add(DefaultPaymasterDeposit, DefaultPaymasterStake); epBalance.Cmp(new(big.Int).Mul(want, big.NewInt(2))) != 0 {
			t.Fatalf("EntryPoint holds %s wei, want twice %s", epBalance, want)
		}
		tpm := contracts.NewTokenPaymaster()
		tsigner, _ := tpm.UnpackVerifyingSigner(c.call(c.Contracts.TokenPaymaster, tpm.PackVerifyingSigner()))
		towner, _ := tpm.UnpackOwner(c.call(c.Contracts.TokenPaymaster, tpm.PackOwner()))
		if tsigner != c.PaymasterSigner.Address || towner != deployer {
			t.Fatalf("token paymaster signer %s owner %s, want %s and %s", tsigner, towner, c.PaymasterSigner.Address, deployer)
		}
		pm := contracts.NewVerifyingPaymaster()
		signer, _ := pm.UnpackVerifyingSigner(c.call(c.Contracts.Paymaster, pm.PackVerifyingSigner()))
		if signer != c.PaymasterSigner.Address {
			t.Fatalf("verifyingSigner = %s, want %s", signer, c.PaymasterSigner.Address)
		}
	})
	t.Run("factory and settlement", func(t *testing.T) {
		f := contracts.NewSimpleAccountFactory()
		impl, _ := f.UnpackAccountImplementation(c.call(c.Contracts.AccountFactory, f.PackAccountImplementation()))
		if impl != c.Contracts.AccountImplementation || impl == (common.Address{}) {
			t.Fatalf("accountImplementation = %s, want %s", impl, c.Contracts.AccountImplementation)
		}
		s := contracts.NewX402Settlement()
		allowed, _ := s.UnpackIsTokenAllowed(c.call(c.Contracts.Settlement, s.PackIsTokenAllowed(c.Token.Address)))
		owner, _ := s.UnpackOwner(c.call(c.Contracts.Settlement, s.PackOwner()))
		if !allowed || owner != deployer {
			t.Fatalf("settlement allows token: %v, owner %s", allowed, owner)
		}
	})
}

// authorization is an EIP-3009 TransferWithAuthorization.
type authorization struct {
	from, to                       common.Address
	value, validAfter, validBefore *big.Int
	nonce                          [32]byte
}

// signAuthorization signs with geth's EIP-712 implementation, as a wallet does.
func signAuthorization(t *testing.T, c *chain, key *ecdsa.PrivateKey, a authorization) []byte {
	t.Helper()
	sig, err := contracts.TransferAuthorization{
		From: a.from, To: a.to, Value: a.value, ValidAfter: a.validAfter, ValidBefore: a.validBefore, Nonce: a.nonce,
	}.Sign(contracts.TokenDomain{Name: c.Token.Name, Version: c.Token.Version, ChainID: c.ChainID, Token: c.Token.Address}, key)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func TestTransferWithAuthorization(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	token := contracts.NewDevUSD()
	payer, payee, relayer := c.Accounts[1], c.Accounts[2], c.Accounts[0]
	now := time.Now().Unix()
	a := authorization{
		from: payer.Address, to: payee.Address, value: big.NewInt(12_345_678),
		validAfter: big.NewInt(now - 60), validBefore: big.NewInt(now + 600), nonce: randomHash(t),
	}
	sig := signAuthorization(t, c, payer.Key, a)
	var r, s [32]byte
	copy(r[:], sig[:32])
	copy(s[:], sig[32:64])
	input := token.PackTransferWithAuthorization0(a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, sig[64], r, s)

	receipt := c.send(relayer.Key, c.Token.Address, input, 200_000)
	if receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transferWithAuthorization failed: %+v", receipt)
	}
	t.Logf("transferWithAuthorization gas used: %d", receipt.GasUsed)

	var sawTransfer, sawUsed bool
	for _, l := range receipt.Logs {
		if ev, err := token.UnpackTransferEvent(l); err == nil {
			sawTransfer = ev.From == a.from && ev.To == a.to && ev.Value.Cmp(a.value) == 0
		}
		if ev, err := token.UnpackAuthorizationUsedEvent(l); err == nil {
			sawUsed = ev.Authorizer == a.from && ev.Nonce == a.nonce
		}
	}
	if !sawTransfer || !sawUsed {
		t.Fatalf("logs: Transfer %v, AuthorizationUsed %v", sawTransfer, sawUsed)
	}
	wantPayer := new(big.Int).Sub(DefaultAccountTokens, a.value)
	wantPayee := new(big.Int).Add(DefaultAccountTokens, a.value)
	if got := c.tokenBalance(payer.Address); got.Cmp(wantPayer) != 0 {
		t.Fatalf("payer balance = %s, want %s", got, wantPayer)
	}
	if got := c.tokenBalance(payee.Address); got.Cmp(wantPayee) != 0 {
		t.Fatalf("payee balance = %s, want %s", got, wantPayee)
	}
	used, _ := token.UnpackAuthorizationState(c.call(c.Token.Address, token.PackAuthorizationState(a.from, a.nonce)))
	if !used {
		t.Fatal("authorizationState is false after use")
	}

	// Replaying the same authorization reverts, in a call and on chain.
	rev, err := token.UnpackError(c.revertData(relayer.Address, c.Token.Address, input))
	if e, ok := rev.(*contracts.DevUSDAuthorizationAlreadyUsed); err != nil || !ok || e.Nonce != a.nonce {
		t.Fatalf("replay revert = %#v, %v", rev, err)
	}
	if replay := c.send(relayer.Key, c.Token.Address, input, 200_000); replay.Status != types.ReceiptStatusFailed {
		t.Fatal("replayed authorization was mined successfully")
	}
	if got := c.tokenBalance(payee.Address); got.Cmp(wantPayee) != 0 {
		t.Fatalf("payee balance after replay = %s, want %s", got, wantPayee)
	}

	// The bytes overload takes the same signature form.
	b := a
	b.nonce = randomHash(t)
	sigB := signAuthorization(t, c, payer.Key, b)
	if rc := c.send(relayer.Key, c.Token.Address, token.PackTransferWithAuthorization(b.from, b.to, b.value, b.validAfter, b.validBefore, b.nonce, sigB), 200_000); rc.Status != types.ReceiptStatusSuccessful {
		t.Fatal("bytes-signature transferWithAuthorization failed")
	}

	// A signature by someone else, and a high-s signature, are refused.
	forged := signAuthorization(t, c, c.Accounts[3].Key, authorization{from: a.from, to: a.to, value: a.value, validAfter: a.validAfter, validBefore: a.validBefore, nonce: randomHash(t)})
	highS := append([]byte(nil), sigB...)
	sv := new(big.Int).SetBytes(highS[32:64])
	new(big.Int).Sub(crypto.S256().Params().N, sv).FillBytes(highS[32:64])
	highS[64] = 27 + 28 - highS[64] // the negated s pairs with the other parity
	for name, input := range map[string][]byte{
		"forged": token.PackTransferWithAuthorization(a.from, a.to, a.value, a.validAfter, a.validBefore, randomHash(t), forged),
		"high s": token.PackTransferWithAuthorization(b.from, b.to, b.value, b.validAfter, b.validBefore, randomHash(t), highS),
	} {
		rev, err := token.UnpackError(c.revertData(relayer.Address, c.Token.Address, input))
		if _, ok := rev.(*contracts.DevUSDInvalidSignature); err != nil || !ok {
			t.Errorf("%s: revert = %#v, %v; want InvalidSignature", name, rev, err)
		}
	}
}

// userOp builds an unsigned UserOperation for the devnet's gas prices.
func (c *chain) userOp(sender common.Address, nonce *big.Int, initCode, callData []byte) contracts.UserOperation {
	c.t.Helper()
	head, err := c.client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	return contracts.UserOperation{
		Sender: sender, Nonce: nonce, InitCode: initCode, CallData: callData,
		CallGasLimit: big.NewInt(200_000), VerificationGasLimit: big.NewInt(1_000_000), PreVerificationGas: big.NewInt(60_000),
		MaxFeePerGas: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), MaxPriorityFeePerGas: tip,
		PaymasterAndData: []byte{}, Signature: []byte{},
	}
}

// sponsor signs op for the VerifyingPaymaster, computing the paymaster hash
// off-chain and checking it against the contract's own getHash.
func (c *chain) sponsor(op *contracts.UserOperation) {
	c.t.Helper()
	pm := contracts.NewVerifyingPaymaster()
	senderNonce, err := pm.UnpackSenderNonce(c.call(c.Contracts.Paymaster, pm.PackSenderNonce(op.Sender)))
	if err != nil {
		c.t.Fatal(err)
	}
	validUntil, validAfter := uint64(time.Now().Add(10*time.Minute).Unix()), uint64(0)
	hash, err := contracts.VerifyingPaymasterHash(*op, c.Contracts.Paymaster, c.ChainID, senderNonce, validUntil, validAfter)
	if err != nil {
		c.t.Fatal(err)
	}
	final := *op
	final.PaymasterAndData = contracts.PaymasterAndData(c.Contracts.Paymaster, validUntil, validAfter, make([]byte, 65))
	onchain, err := pm.UnpackGetHash(c.call(c.Contracts.Paymaster, pm.PackGetHash(final, big.NewInt(int64(validUntil)), big.NewInt(int64(validAfter)))))
	if err != nil {
		c.t.Fatal(err)
	}
	if onchain != hash {
		c.t.Fatalf("off-chain paymaster hash %x != on-chain getHash %x", hash, onchain)
	}
	sig, err := contracts.SignHash(hash, c.PaymasterSigner.Key)
	if err != nil {
		c.t.Fatal(err)
	}
	op.PaymasterAndData = contracts.PaymasterAndData(c.Contracts.Paymaster, validUntil, validAfter, sig)
}

// sign signs op for its owner, computing the UserOperation hash off-chain and
// checking it against the EntryPoint's getUserOpHash.
func (c *chain) sign(op *contracts.UserOperation, owner *ecdsa.PrivateKey) common.Hash {
	c.t.Helper()
	hash := contracts.UserOpHash(*op, c.Contracts.EntryPoint, c.ChainID)
	ep := contracts.NewEntryPoint()
	onchain, err := ep.UnpackGetUserOpHash(c.call(c.Contracts.EntryPoint, ep.PackGetUserOpHash(*op)))
	if err != nil {
		c.t.Fatal(err)
	}
	if onchain != hash {
		c.t.Fatalf("off-chain userOpHash %x != on-chain %x", hash, onchain)
	}
	if op.Signature, err = contracts.SignHash(hash, owner); err != nil {
		c.t.Fatal(err)
	}
	return hash
}

func TestSponsoredUserOperationSettles(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	var (
		ep         = contracts.NewEntryPoint()
		factory    = contracts.NewSimpleAccountFactory()
		account    = contracts.NewSimpleAccount()
		token      = contracts.NewDevUSD()
		settlement = contracts.NewX402Settlement()
		bundler    = c.Accounts[0]
		funder     = c.Accounts[1]
		merchant   = c.Accounts[3].Address
		amount     = big.NewInt(1_500_000)
		salt       = big.NewInt(0)
		ctx        = context.Background()
	)
	owner, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	sender, err := factory.UnpackGetAddress(c.call(c.Contracts.AccountFactory, factory.PackGetAddress(ownerAddr, salt)))
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := c.client.CodeAt(ctx, sender, nil); len(code) != 0 {
		t.Fatal("counterfactual account already deployed")
	}
	// Fund the not-yet-deployed account with tokens (no ETH: gas is sponsored).
	if rc := c.send(funder.Key, c.Token.Address, token.PackTransfer(sender, big.NewInt(5_000_000)), 100_000); rc.Status != 1 {
		t.Fatal("funding the account failed")
	}

	requestHash := randomHash(t)
	callData := account.PackExecuteBatch(
		[]common.Address{c.Token.Address, c.Contracts.Settlement},
		[][]byte{
			token.PackApprove(c.Contracts.Settlement, amount),
			settlement.PackSettle(merchant, c.Token.Address, amount, requestHash),
		},
	)
	initCode := append(c.Contracts.AccountFactory.Bytes(), factory.PackCreateAccount(ownerAddr, salt)...)
	op := c.userOp(sender, big.NewInt(0), initCode, callData)
	c.sponsor(&op)
	userOpHash := c.sign(&op, owner)

	// simulateValidation always reverts in v0.6; a good op reverts with
	// ValidationResult, not FailedOp.
	sim, err := ep.UnpackError(c.revertData(common.Address{}, c.Contracts.EntryPoint, ep.PackSimulateValidation(op)))
	if vr, ok := sim.(*contracts.EntryPointValidationResult); err != nil || !ok || vr.ReturnInfo.SigFailed {
		t.Fatalf("simulateValidation = %#v, %v", sim, err)
	}

	depositBefore, _ := ep.UnpackBalanceOf(c.call(c.Contracts.EntryPoint, ep.PackBalanceOf(c.Contracts.Paymaster)))
	receipt := c.send(bundler.Key, c.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, bundler.Address), 2_000_000)
	if receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("handleOps failed: %+v", receipt)
	}
	t.Logf("handleOps with account creation gas used: %d", receipt.GasUsed)

	var (
		deployed, settled bool
		opEvent           *contracts.EntryPointUserOperationEvent
	)
	for _, l := range receipt.Logs {
		if ev, err := ep.UnpackAccountDeployedEvent(l); err == nil {
			deployed = ev.Sender == sender && ev.Factory == c.Contracts.AccountFactory && ev.Paymaster == c.Contracts.Paymaster
		}
		if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil {
			opEvent = ev
		}
		if ev, err := settlement.UnpackSettledEvent(l); err == nil {
			settled = ev.RequestHash == requestHash && ev.Payer == sender && ev.Merchant == merchant && ev.Amount.Cmp(amount) == 0
		}
	}
	if !deployed || !settled || opEvent == nil || !opEvent.Success || opEvent.UserOpHash != userOpHash || opEvent.Paymaster != c.Contracts.Paymaster {
		t.Fatalf("events: deployed %v, settled %v, op %+v", deployed, settled, opEvent)
	}
	t.Logf("UserOperation actual gas used: %s, cost %s wei", opEvent.ActualGasUsed, opEvent.ActualGasCost)

	if got, want := c.tokenBalance(merchant), new(big.Int).Add(DefaultAccountTokens, amount); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance = %s, want %s", got, want)
	}
	if got := c.tokenBalance(sender); got.Cmp(big.NewInt(3_500_000)) != 0 {
		t.Fatalf("account balance = %s, want 3500000", got)
	}
	if code, _ := c.client.CodeAt(ctx, sender, nil); len(code) == 0 {
		t.Fatal("account not deployed")
	}
	isSettled, _ := settlement.UnpackIsSettled(c.call(c.Contracts.Settlement, settlement.PackIsSettled(requestHash)))
	if !isSettled {
		t.Fatal("isSettled is false")
	}
	depositAfter, _ := ep.UnpackBalanceOf(c.call(c.Contracts.EntryPoint, ep.PackBalanceOf(c.Contracts.Paymaster)))
	if paid := new(big.Int).Sub(depositBefore, depositAfter); paid.Cmp(opEvent.ActualGasCost) != 0 {
		t.Fatalf("paymaster paid %s, want the op's gas cost %s", paid, opEvent.ActualGasCost)
	}
	if eth, _ := c.client.BalanceAt(ctx, sender, nil); eth.Sign() != 0 {
		t.Fatalf("account holds %s wei; gas should have been sponsored", eth)
	}

	// The same requestHash cannot settle twice: the second op (deployed
	// account, no initCode) is included but its execution reverts with
	// AlreadySettled, and no tokens move.
	again := c.userOp(sender, big.NewInt(1), nil, callData)
	c.sponsor(&again)
	againHash := c.sign(&again, owner)
	receipt = c.send(bundler.Key, c.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{again}, bundler.Address), 2_000_000)
	if receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatal("second handleOps failed as a transaction")
	}
	var reason error
	for _, l := range receipt.Logs {
		if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil && ev.UserOpHash == againHash && ev.Success {
			t.Fatal("second settlement of the same requestHash succeeded")
		}
		if ev, err := ep.UnpackUserOperationRevertReasonEvent(l); err == nil && ev.UserOpHash == againHash {
			if len(ev.RevertReason) < 4 {
				t.Fatalf("revert reason %x", ev.RevertReason)
			}
			rev, err := settlement.UnpackError(ev.RevertReason)
			if e, ok := rev.(*contracts.X402SettlementAlreadySettled); err != nil || !ok || e.RequestHash != requestHash {
				t.Fatalf("revert reason = %#v, %v", rev, err)
			}
			reason = errors.New("AlreadySettled")
		}
	}
	if reason == nil {
		t.Fatal("no UserOperationRevertReason for the second settlement")
	}
	if got, want := c.tokenBalance(merchant), new(big.Int).Add(DefaultAccountTokens, amount); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance after replay = %s, want %s", got, want)
	}
}

func TestBlockPeriod(t *testing.T) {
	t.Parallel()
	c := start(t, Config{BlockPeriod: time.Second})
	ctx := context.Background()
	first, err := c.client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		n, err := c.client.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n >= first+2 {
			return // blocks are sealed without transactions
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("no blocks sealed with a 1 s period")
}

func TestAdjustTime(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	before, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AdjustTime(time.Hour); err != nil {
		t.Fatal(err)
	}
	after, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if after.Time < before.Time+3600 {
		t.Fatalf("block time moved from %d to %d, want +3600", before.Time, after.Time)
	}
}

func TestPortInUse(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	addr := c.URL[len("http://"):]
	_, err := Start(context.Background(), Config{Addr: addr})
	if err == nil {
		t.Fatal("second devnet started on a busy port")
	}
	t.Logf("busy port: %v", err)
}

// transfer signs and sends a transfer of 1 wei with nonce, and returns it
// without waiting for it to be mined.
func (c *chain) transfer(ctx context.Context, key *ecdsa.PrivateKey, to common.Address, nonce uint64) (*types.Transaction, error) {
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, err
	}
	tip := big.NewInt(1_000_000_000)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.ChainID), &types.DynamicFeeTx{
		ChainID: c.ChainID, Nonce: nonce, To: &to, Value: big.NewInt(1), Gas: 21_000,
		GasTipCap: tip, GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
	})
	if err != nil {
		return nil, err
	}
	return tx, c.client.SendTransaction(ctx, tx)
}

// manualClock is a clock that moves only when the test moves it. After
// hands each timer to the test on timers, so the test sees the sealer
// wait, and fires it itself.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers chan manualTimer
}

// manualTimer is a timer the sealer started: it waits d.
type manualTimer struct {
	d    time.Duration
	fire chan time.Time
}

func newManualClock() *manualClock {
	// Buffered, so that a timer the test does not take cannot hold the
	// sealer (and Close, which waits for it).
	return &manualClock{timers: make(chan manualTimer, 16)}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *manualClock) After(d time.Duration) <-chan time.Time {
	t := manualTimer{d: d, fire: make(chan time.Time, 1)}
	c.timers <- t
	return t.fire
}

// The on-demand sealer never seals on a parent stamped more than
// MaxClockLead after its clock: with the chain pushed past the lead, a
// transaction waits for exactly the excess, no block is sealed while it
// waits, and the block sealed once the clock has moved is stamped
// MaxClockLead plus one second ahead, no more. The clock is the test's, so
// nothing here depends on how fast the machine is.
func TestClockLeadIsBounded(t *testing.T) {
	t.Parallel()
	clk := newManualClock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := startWith(ctx, Config{Addr: "127.0.0.1:0"}, options{clk: clk})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	client, err := ethclient.DialContext(ctx, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	c := &chain{Devnet: d, t: t, client: client}

	genesis, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	clk.set(time.Unix(int64(genesis.Time), 0))
	// A block stamped an hour past the lead, as a burst of blocks or a
	// test's AdjustTime leaves the chain.
	const ahead = MaxClockLead + time.Hour
	if err := d.AdjustTime(ahead); err != nil {
		t.Fatal(err)
	}
	parent, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if parent.Time != genesis.Time+uint64(ahead/time.Second) {
		t.Fatalf("adjusted block at %d, want %d", parent.Time, genesis.Time+uint64(ahead/time.Second))
	}
	for i, want := range []time.Duration{time.Hour, time.Second, time.Second} {
		tx, err := c.transfer(ctx, c.Accounts[2].Key, c.Accounts[3].Address, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		mined := make(chan *types.Receipt, 1)
		go func() {
			if r, err := d.Wait(ctx, tx.Hash()); err == nil {
				mined <- r
			}
		}()
		var timer manualTimer
		select {
		case timer = <-clk.timers:
		case r := <-mined:
			t.Fatalf("transaction %d mined in block %d at %d without waiting; clock at %d", i, r.BlockNumber, parent.Time, clk.Now().Unix())
		case <-ctx.Done():
			t.Fatalf("transaction %d: the sealer neither sealed nor waited", i)
		}
		if timer.d != want {
			t.Fatalf("transaction %d: the sealer waits %v on a parent %v ahead, want %v",
				i, timer.d, time.Unix(int64(parent.Time), 0).Sub(clk.Now()), want)
		}
		// The sealer is waiting on the timer: nothing is sealed meanwhile.
		if head, err := client.HeaderByNumber(ctx, nil); err != nil || head.Hash() != parent.Hash() {
			t.Fatalf("transaction %d: head %v (%v) while the sealer waits, want block %d", i, head.Number, err, parent.Number)
		}
		now := clk.Now().Add(timer.d)
		clk.set(now)
		timer.fire <- now
		var r *types.Receipt
		select {
		case r = <-mined:
		case <-ctx.Done():
			t.Fatalf("transaction %d not mined once the clock moved", i)
		}
		block, err := client.HeaderByHash(ctx, r.BlockHash)
		if err != nil {
			t.Fatal(err)
		}
		if block.ParentHash != parent.Hash() {
			t.Fatalf("transaction %d mined in block %d, want the one after %d", i, block.Number, parent.Number)
		}
		if lead := time.Unix(int64(block.Time), 0).Sub(now); lead != MaxClockLead+time.Second {
			t.Fatalf("transaction %d: block stamped %v ahead of the clock, want %v", i, lead, MaxClockLead+time.Second)
		}
		parent = block
	}
}

// Reorg replaces the latest blocks: kept transactions are mined again in
// a block of another hash, dropped ones are gone until sent again.
func TestReorg(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	to := c.Accounts[5].Address
	for _, depth := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("keep/depth=%d", depth), func(t *testing.T) {
			receipt := c.send(c.Accounts[1].Key, to, nil, 21_000)
			for range depth - 1 { // bury it, so the reorg replaces depth blocks
				c.send(c.Accounts[2].Key, to, nil, 21_000)
			}
			head, _ := c.client.BlockNumber(ctx)
			replaced, err := c.Reorg(depth, true)
			if err != nil {
				t.Fatal(err)
			}
			if uint64(len(replaced)) != depth || !slices.Contains(replaced, receipt.BlockHash) {
				t.Fatalf("replaced %v, want %d blocks with %s", replaced, depth, receipt.BlockHash)
			}
			after, err := c.client.TransactionReceipt(ctx, receipt.TxHash)
			if err != nil {
				t.Fatalf("the kept transaction is not mined again: %v", err)
			}
			if after.BlockHash == receipt.BlockHash {
				t.Fatalf("still in block %s", after.BlockHash)
			}
			if now, _ := c.client.BlockNumber(ctx); now != head+1 {
				t.Fatalf("head %d after replacing %d blocks of %d, want %d", now, depth, head, head+1)
			}
		})
	}
	t.Run("drop", func(t *testing.T) {
		before, _ := c.client.BalanceAt(ctx, to, nil)
		tx := c.send(c.Accounts[3].Key, to, nil, 21_000)
		if _, err := c.Reorg(1, false); err != nil {
			t.Fatal(err)
		}
		if err := c.lookUp(tx.TxHash); !errors.Is(err, ethereum.NotFound) {
			t.Fatalf("the dropped transaction: %v, want not found", err)
		}
		if after, _ := c.client.BalanceAt(ctx, to, nil); after.Cmp(before) != 0 {
			t.Fatalf("balance %s after the reorg, want %s", after, before)
		}
		// The chain goes on: new transactions are mined.
		c.send(c.Accounts[6].Key, to, nil, 21_000)
	})
	t.Run("subscription", func(t *testing.T) {
		rc := c.Attach()
		defer rc.Close()
		heads := make(chan *types.Header, 8)
		sub, err := rc.EthSubscribe(ctx, heads, "newHeads")
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		c.send(c.Accounts[4].Key, to, nil, 21_000)
		select {
		case h := <-heads:
			if h.Number.Sign() <= 0 {
				t.Fatalf("head %v", h.Number)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no new head on the in-process connection")
		}
	})
}

// A burst of transactions, far more events than the seal loop's channel
// holds, is mined: the loop drains the pool's events while it seals (it
// used to stop reading them, and the pool's feed and the sealing waited on
// each other for ever). Six accounts send 200 transactions each, every
// account's in one JSON-RPC batch, all at once; the test then waits for
// every account's nonce to reach 200. It used to send them one request at
// a time and wait for each receipt within 2 minutes, which a loaded
// machine with the race detector did not always manage (twice in a
// -count=3 run): that timed the machine, not the loop.
func TestSealOnDemandUnderLoad(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rc, err := rpc.DialContext(ctx, c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	const perAccount = 200
	tip := big.NewInt(1_000_000_000)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), tip)
	to := c.Accounts[9].Address
	senders := c.Accounts[1:7]
	var wg sync.WaitGroup
	for _, a := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			batch := make([]rpc.BatchElem, perAccount)
			for n := range uint64(perAccount) {
				tx, err := types.SignNewTx(a.Key, types.LatestSignerForChainID(c.ChainID), &types.DynamicFeeTx{
					ChainID: c.ChainID, Nonce: n, To: &to, Gas: 21_000, GasTipCap: tip, GasFeeCap: feeCap,
				})
				if err != nil {
					t.Error(err)
					return
				}
				raw, err := tx.MarshalBinary()
				if err != nil {
					t.Error(err)
					return
				}
				batch[n] = rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Encode(raw)}, Result: new(common.Hash)}
			}
			if err := rc.BatchCallContext(ctx, batch); err != nil {
				t.Errorf("sending %s's batch: %v", a.Address, err)
				return
			}
			for n, e := range batch {
				if e.Error != nil {
					t.Errorf("%s's transaction %d: %v", a.Address, n, e.Error)
					return
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, a := range senders {
		for pause := 5 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
			n, err := c.client.NonceAt(ctx, a.Address, nil)
			if err == nil && n == perAccount {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %d of %d transactions mined (%v)", a.Address, n, perAccount, err)
			case <-time.After(pause):
			}
		}
	}
}

// The backstop seals what no announcement did. The sealer here is deaf:
// it drops every announcement of the pool, as a wake-up was lost when
// geth's block builder, starved of CPU, sealed an empty block for it, or
// when a transaction reached a fresh devnet before the sealer subscribed.
// Each transaction must be mined all the same, on a fresh chain and on one
// with blocks, one at a time and several at once; the wait for each is
// bounded and says what it waited for. Without the backstop the first
// transaction is never mined.
func TestBackstopSealsLostWakeUps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// rounds of concurrent transactions, from as many accounts.
		rounds, concurrent int
	}{
		{"one transaction on a fresh chain", 1, 1},
		{"one at a time", 4, 1},
		{"several at once", 2, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			d, err := startWith(ctx, Config{Addr: "127.0.0.1:0"}, options{clk: wallClock{}, deaf: true})
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			t.Cleanup(func() { d.Close() })
			client, err := ethclient.DialContext(ctx, d.URL)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(client.Close)
			c := &chain{Devnet: d, t: t, client: client}
			for round := range tc.rounds {
				txs := make([]*types.Transaction, tc.concurrent)
				for i := range txs {
					if txs[i], err = c.transfer(ctx, c.Accounts[1+i].Key, c.Accounts[9].Address, uint64(round)); err != nil {
						t.Fatal(err)
					}
				}
				for _, tx := range txs {
					wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
					r, err := d.Wait(wctx, tx.Hash())
					wcancel()
					if err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
					if r.Status != types.ReceiptStatusSuccessful {
						t.Fatalf("round %d: transaction %s failed", round, tx.Hash())
					}
				}
			}
			if d.sealer.rescues.Load() == 0 {
				t.Fatal("mined with no backstop seal, by a deaf sealer")
			}
		})
	}
}

// Wait is bounded and says what it waited for: a transaction the pool
// cannot execute (its nonce leaves a gap) is never mined, and Wait gives
// up when its context ends, or the devnet closes, naming the transaction
// and where the pool holds it.
func TestWaitIsBounded(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gap, err := c.transfer(ctx, c.Accounts[4].Key, c.Accounts[9].Address, 5)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		hash common.Hash
		want []string
	}{
		{"queued", gap.Hash(), []string{gap.Hash().Hex(), "not mined after", "queued", "1 queued transactions", "head block 0"}},
		{"unknown", common.HexToHash("0x01"), []string{"not mined after", "does not hold it"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Subtests start when a parallel slot frees, long after the
			// test's set-up on a loaded machine: their bounds start here.
			wctx, wcancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer wcancel()
			_, err := c.Wait(wctx, tc.hash)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Wait: %v, want a deadline exceeded", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Wait: %q does not say %q", err, w)
				}
			}
		})
	}
	t.Run("closed", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		other, err := Start(ctx, Config{Addr: "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() {
			_, err := other.Wait(ctx, gap.Hash())
			waited <- err
		}()
		other.Close()
		select {
		case err := <-waited:
			if !errors.Is(err, errClosed) {
				t.Fatalf("Wait on a closed devnet: %v, want %v", err, errClosed)
			}
		case <-ctx.Done():
			t.Fatal("Wait did not end when the devnet closed")
		}
	})
}

// BenchmarkTransactionToReceipt is the on-demand sealer's latency: one
// transfer sent and its receipt read, one at a time, as a test's set-up
// does; the backstop's seals are reported, and should be none (compare
// with benchstat across changes to the sealer). The sealer's clock is an hour ahead, so
// that a block a transaction does not meet MaxClockLead's pacing.
func BenchmarkTransactionToReceipt(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d, err := startWith(ctx, Config{Addr: "127.0.0.1:0"}, options{clk: laterClock{time.Hour}})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	client, err := ethclient.DialContext(ctx, d.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	c := &chain{Devnet: d, client: client}
	var nonce uint64
	for b.Loop() {
		tx, err := c.transfer(ctx, d.Accounts[1].Key, d.Accounts[9].Address, nonce)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Wait(ctx, tx.Hash()); err != nil {
			b.Fatal(err)
		}
		nonce++
	}
	// Rescues on an idle machine: none.
	b.ReportMetric(float64(d.sealer.rescues.Load()), "rescues")
}

// laterClock is the wall clock moved by a duration.
type laterClock struct{ by time.Duration }

func (c laterClock) Now() time.Time                       { return time.Now().Add(c.by) }
func (laterClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// A transaction the next block cannot take, but the one after can, is
// mined: its fee cap is below the next block's base fee and above the
// base fee after an empty block. Its announcement spends itself on an
// empty block, and the sealer used to stop there (it read "nothing
// included" as "nothing includable"), leaving it pending for good: the
// lost seal, deterministic. The backstop sees it includable on the new
// head and seals it in the block after.
func TestSealsWhatAnEmptyBlockMadeIncludable(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.backend.BlockChain().Config()
	next := eip1559.CalcBaseFee(cfg, head)
	empty := &types.Header{
		Number: new(big.Int).Add(head.Number, big.NewInt(1)), Time: head.Time + 1,
		GasLimit: head.GasLimit, BaseFee: next,
	}
	after := eip1559.CalcBaseFee(cfg, empty)
	tip := ethconfig.Defaults.Miner.GasPrice
	feeCap := new(big.Int).Add(after, tip)
	if feeCap.Cmp(new(big.Int).Add(next, tip)) >= 0 {
		t.Fatalf("base fee %s then %s after an empty block: no fee cap between them", next, after)
	}
	tx, err := types.SignNewTx(c.Accounts[7].Key, types.LatestSignerForChainID(c.ChainID), &types.DynamicFeeTx{
		ChainID: c.ChainID, Nonce: 0, To: &c.Accounts[9].Address, Gas: 21_000, GasTipCap: tip, GasFeeCap: feeCap,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	r, err := c.Wait(wctx, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if want := head.Number.Uint64() + 2; r.BlockNumber.Uint64() != want {
		t.Fatalf("mined in block %d, want %d, after an empty one", r.BlockNumber, want)
	}
}

package devnet

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
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
	// Permit2, x402's proxies and the batch-settlement contracts are at
	// their canonical addresses.
	for _, addr := range []common.Address{contracts.Permit2Address, contracts.ExactPermit2ProxyAddress, contracts.UptoPermit2ProxyAddress,
		contracts.BatchSettlementAddress, contracts.ERC3009DepositCollectorAddress, contracts.Permit2DepositCollectorAddress} {
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

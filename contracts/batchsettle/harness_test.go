package batchsettle_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/devnet"
)

// The chain tests share one devnet, started on first use and closed by
// TestMain, which seals on demand. Every test signs with keys of its own, so
// they run in parallel. The timed withdrawal moves its chain's clock past
// the withdraw delay, which would hold every other test's transactions
// until the wall clock caught up (a devnet runs at most MaxClockLead ahead
// of it), so it has a devnet of its own (see sealNow).
var shared struct {
	once sync.Once
	d    *devnet.Devnet
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.d != nil {
		if err := shared.d.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the devnet:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// opTimeout bounds every chain operation of a test: a devnet seals within a
// second, and within seconds on a loaded machine.
const opTimeout = 2 * time.Minute

// harness is a test's view of the shared devnet.
type harness struct {
	t   *testing.T
	d   *devnet.Devnet
	c   *ethclient.Client
	dom batchsettle.Domain
	bs  *batchsettle.X402BatchSettlement
	tok contracts.TokenDomain
	dev *contracts.DevUSD
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
		defer cancel()
		shared.d, shared.err = devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	})
	if shared.err != nil {
		t.Fatalf("starting the devnet: %v", shared.err)
	}
	return harnessOn(t, shared.d)
}

// ownHarness starts a devnet of the test's own, closed when it ends.
func ownHarness(t *testing.T) *harness {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatalf("starting the devnet: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("closing the devnet: %v", err)
		}
	})
	return harnessOn(t, d)
}

func harnessOn(t *testing.T, d *devnet.Devnet) *harness {
	t.Helper()
	c, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &harness{
		t: t, d: d, c: c,
		dom: batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement),
		bs:  batchsettle.NewX402BatchSettlement(),
		tok: contracts.TokenDomain{Name: d.Token.Name, Version: d.Token.Version, ChainID: d.ChainID, Token: d.Token.Address},
		dev: contracts.NewDevUSD(),
	}
}

func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	h.t.Cleanup(cancel)
	return ctx
}

// sendMu serializes the nonce reads and sends of every test, so that two
// tests sending from one funded account never take the same nonce. The
// pool counts a transaction in the account's pending nonce a moment after
// it took it, so the nonces sent are also kept here.
var (
	sendMu sync.Mutex
	sent   = map[common.Address]uint64{}
)

// submit sends a call from key without waiting for it.
func (h *harness) submit(key *ecdsa.PrivateKey, to common.Address, data []byte) common.Hash {
	h.t.Helper()
	ctx := h.ctx()
	from := crypto.PubkeyToAddress(key.PublicKey)
	sendMu.Lock()
	defer sendMu.Unlock()
	nonce, err := h.c.PendingNonceAt(ctx, from)
	if err != nil {
		h.t.Fatal(err)
	}
	nonce = max(nonce, sent[from])
	gas, err := h.c.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Data: data})
	if err != nil {
		h.t.Fatalf("estimating a call of %x to %s: %v", data[:min(4, len(data))], to, err)
	}
	tip := big.NewInt(params.GWei)
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(h.d.ChainID), &types.DynamicFeeTx{
		ChainID: h.d.ChainID, Nonce: nonce, To: &to, Data: data, Gas: gas + gas/4,
		GasTipCap: tip, GasFeeCap: new(big.Int).Mul(tip, big.NewInt(100)),
	})
	if err := h.c.SendTransaction(ctx, tx); err != nil {
		h.t.Fatal(err)
	}
	sent[from] = nonce + 1
	return tx.Hash()
}

// wait returns the receipt of a successful transaction.
func (h *harness) wait(hash common.Hash) *types.Receipt {
	h.t.Helper()
	r, err := h.d.Wait(h.ctx(), hash)
	if err != nil {
		h.t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		h.t.Fatalf("transaction %s reverted", hash)
	}
	return r
}

// sealNow returns the successful receipt of a transaction on a devnet whose
// clock was moved past MaxClockLead, where the on-demand sealer waits for
// the wall clock: it seals blocks itself until the transaction is in one.
func (h *harness) sealNow(hash common.Hash) *types.Receipt {
	h.t.Helper()
	for range 100 {
		h.d.Seal()
		if r, err := h.c.TransactionReceipt(h.ctx(), hash); err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				h.t.Fatalf("transaction %s reverted", hash)
			}
			return r
		}
	}
	h.t.Fatalf("transaction %s not in any of 100 blocks sealed", hash)
	return nil
}

// send sends a call from key and returns its successful receipt.
func (h *harness) send(key *ecdsa.PrivateKey, to common.Address, data []byte) *types.Receipt {
	h.t.Helper()
	return h.wait(h.submit(key, to, data))
}

// execGas is what a transaction's execution cost beyond its intrinsic gas
// (21,000 and its calldata), the figure forge's gas snapshots report.
func (h *harness) execGas(r *types.Receipt) uint64 {
	h.t.Helper()
	tx, _, err := h.c.TransactionByHash(h.ctx(), r.TxHash)
	if err != nil {
		h.t.Fatal(err)
	}
	intrinsic, err := core.IntrinsicGas(tx.Data(), nil, nil, common.Address{}, tx.To(), nil, params.Rules{IsHomestead: true, IsIstanbul: true, IsShanghai: true})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.GasUsed - intrinsic
}

// revert returns the selector of the custom error a call from `from` reverts
// with; the test fails if it does not revert.
func (h *harness) revert(from, to common.Address, data []byte) [4]byte {
	h.t.Helper()
	_, err := h.c.CallContract(h.ctx(), ethereum.CallMsg{From: from, To: &to, Data: data}, nil)
	var de rpc.DataError
	if !errors.As(err, &de) {
		h.t.Fatalf("call did not revert with data: %v", err)
	}
	s, _ := de.ErrorData().(string)
	b, derr := hexutil.Decode(s)
	if derr != nil || len(b) < 4 {
		h.t.Fatalf("revert data %q: %v", s, derr)
	}
	return [4]byte(b[:4])
}

// wantRevert fails unless a call reverts with the error whose id is want.
func (h *harness) wantRevert(what string, from, to common.Address, data []byte, want common.Hash) {
	h.t.Helper()
	if got := h.revert(from, to, data); got != [4]byte(want[:4]) {
		h.t.Errorf("%s: reverted with %x, want %x", what, got, want[:4])
	}
}

func (h *harness) call(to common.Address, data []byte) []byte {
	h.t.Helper()
	out, err := h.c.CallContract(h.ctx(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		h.t.Fatalf("eth_call to %s: %v", to, err)
	}
	return out
}

// channel reads a channel's balance and claimed total.
func (h *harness) channel(id common.Hash) (balance, claimed *big.Int) {
	h.t.Helper()
	out, err := h.bs.UnpackChannels(h.call(h.d.Contracts.BatchSettlement, h.bs.PackChannels(id)))
	if err != nil {
		h.t.Fatal(err)
	}
	return out.Balance, out.TotalClaimed
}

func (h *harness) balanceOf(a common.Address) *big.Int {
	h.t.Helper()
	b, err := h.dev.UnpackBalanceOf(h.call(h.d.Token.Address, h.dev.PackBalanceOf(a)))
	if err != nil {
		h.t.Fatal(err)
	}
	return b
}

// newKey is a fresh key: a payer with no ETH, or an authorizer.
func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func addr(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// fund gives each payer `amount` tokens from funded account `from`, in one
// block.
func (h *harness) fund(from devnet.Account, amount *big.Int, payers ...common.Address) {
	h.t.Helper()
	var hashes []common.Hash
	for _, p := range payers {
		hashes = append(hashes, h.submit(from.Key, h.d.Token.Address, h.dev.PackTransfer(p, amount)))
	}
	for _, x := range hashes {
		h.wait(x)
	}
}

// depositCall is the deposit of `amount` into cfg's channel through the
// ERC-3009 collector, signed by the payer's key: gasless for the payer,
// whoever sends it pays the gas.
func (h *harness) depositCall(payer *ecdsa.PrivateKey, cfg batchsettle.ChannelConfig, amount, salt *big.Int) []byte {
	h.t.Helper()
	id := h.dom.ChannelID(cfg)
	auth := batchsettle.ReceiveAuthorization{
		From: cfg.Payer, To: h.d.Contracts.ERC3009DepositCollector, Value: amount,
		ValidAfter: new(big.Int), ValidBefore: big.NewInt(time.Now().Add(24 * time.Hour).Unix()),
		Nonce: batchsettle.DepositNonce(id, salt),
	}
	digest, err := auth.Digest(h.tok)
	if err != nil {
		h.t.Fatal(err)
	}
	sig, err := batchsettle.Sign(digest, payer)
	if err != nil {
		h.t.Fatal(err)
	}
	data := batchsettle.ERC3009CollectorData(auth.ValidAfter, auth.ValidBefore, salt, sig)
	return h.bs.PackDeposit(cfg, amount, h.d.Contracts.ERC3009DepositCollector, data)
}

// voucher is the payer key's voucher for cfg's channel up to max, claimed
// in full.
func (h *harness) voucher(key *ecdsa.PrivateKey, cfg batchsettle.ChannelConfig, max int64) batchsettle.VoucherClaim {
	h.t.Helper()
	sig, err := batchsettle.Sign(h.dom.VoucherDigest(h.dom.ChannelID(cfg), big.NewInt(max)), key)
	if err != nil {
		h.t.Fatal(err)
	}
	return batchsettle.VoucherClaim{
		Voucher:   batchsettle.X402BatchSettlementVoucher{Channel: cfg, MaxClaimableAmount: big.NewInt(max)},
		Signature: sig, TotalClaimed: big.NewInt(max),
	}
}

// claimCall is claimWithSignature of claims, signed by the authorizer key.
func (h *harness) claimCall(authorizer *ecdsa.PrivateKey, claims []batchsettle.VoucherClaim) []byte {
	h.t.Helper()
	data, err := h.dom.ClaimWithSignature(claims, authorizer)
	if err != nil {
		h.t.Fatal(err)
	}
	return data
}

// config is a channel of payer to receiver, vouchers signed by the payer's
// own key (payerAuthorizer), claims and refunds by authorizer.
func (h *harness) config(payer, authorizer *ecdsa.PrivateKey, receiver common.Address, salt byte) batchsettle.ChannelConfig {
	return batchsettle.ChannelConfig{
		Payer: addr(payer), PayerAuthorizer: addr(payer), Receiver: receiver, ReceiverAuthorizer: addr(authorizer),
		Token: h.d.Token.Address, WithdrawDelay: big.NewInt(batchsettle.MinWithdrawDelay), Salt: [32]byte{31: salt},
	}
}

package batchsettlement

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The package's chain tests share one devnet, started on first use and
// closed by TestMain; each test signs with keys of its own.
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

// opTimeout bounds each chain operation of a test.
const opTimeout = 2 * time.Minute

// env is a test's devnet, its client and a scheme over it.
type env struct {
	t   *testing.T
	d   *devnet.Devnet
	c   *ethclient.Client
	s   *Scheme
	dom batchsettle.Domain
	bs  *batchsettle.X402BatchSettlement
}

func newEnv(t *testing.T) *env {
	t.Helper()
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
		defer cancel()
		shared.d, shared.err = devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	})
	if shared.err != nil {
		t.Fatalf("starting the devnet: %v", shared.err)
	}
	d := shared.d
	c, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	s, err := New(Config{
		ChainID: d.ChainID, Chain: c,
		Assets: []Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}, {Address: d.Contracts.PermitToken}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, d: d, c: c, s: s, dom: batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement), bs: batchsettle.NewX402BatchSettlement()}
}

func (e *env) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	e.t.Cleanup(cancel)
	return ctx
}

// sendMu keeps two tests from taking one nonce of a shared account; the
// pool counts a transaction in the pending nonce a moment after it took
// it, so the nonces sent are also kept here.
var (
	sendMu sync.Mutex
	sent   = map[common.Address]uint64{}
)

// send sends a call from key and returns its receipt, which must succeed.
func (e *env) send(key *ecdsa.PrivateKey, to common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	ctx := e.ctx()
	from := crypto.PubkeyToAddress(key.PublicKey)
	sendMu.Lock()
	nonce, err := e.c.PendingNonceAt(ctx, from)
	if err != nil {
		sendMu.Unlock()
		e.t.Fatal(err)
	}
	nonce = max(nonce, sent[from])
	gas, err := e.c.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Data: data})
	if err != nil {
		sendMu.Unlock()
		e.t.Fatalf("estimating a call to %s: %v", to, err)
	}
	tip := big.NewInt(params.GWei)
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(e.d.ChainID), &types.DynamicFeeTx{
		ChainID: e.d.ChainID, Nonce: nonce, To: &to, Data: data, Gas: gas + gas/4,
		GasTipCap: tip, GasFeeCap: new(big.Int).Mul(tip, big.NewInt(100)),
	})
	err = e.c.SendTransaction(ctx, tx)
	if err == nil {
		sent[from] = nonce + 1
	}
	sendMu.Unlock()
	if err != nil {
		e.t.Fatal(err)
	}
	r, err := e.d.Wait(ctx, tx.Hash())
	if err != nil {
		e.t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("transaction %s reverted", tx.Hash())
	}
	return r
}

// payer is a client of the scheme: its key signs its vouchers and
// deposits, as upstream's client does, into the payload's wire form.
type payer struct {
	e   *env
	key *ecdsa.PrivateKey
	cfg batchsettle.ChannelConfig
}

func (e *env) payer(key *ecdsa.PrivateKey, receiver, authorizer common.Address, salt byte) *payer {
	return &payer{e: e, key: key, cfg: batchsettle.ChannelConfig{
		Payer: crypto.PubkeyToAddress(key.PublicKey), PayerAuthorizer: crypto.PubkeyToAddress(key.PublicKey),
		Receiver: receiver, ReceiverAuthorizer: authorizer, Token: e.d.Token.Address,
		WithdrawDelay: big.NewInt(900), Salt: [32]byte{31: salt},
	}}
}

func (p *payer) id() common.Hash { return p.e.dom.ChannelID(p.cfg) }

func sign(t *testing.T, digest common.Hash, key *ecdsa.PrivateKey) string {
	t.Helper()
	sig, err := batchsettle.Sign(digest, key)
	if err != nil {
		t.Fatal(err)
	}
	return hexutil.Encode(sig)
}

// wireConfig is the channel config as upstream's client writes it.
func (p *payer) wireConfig() map[string]any {
	c := p.cfg
	return map[string]any{
		"payer": c.Payer.Hex(), "payerAuthorizer": c.PayerAuthorizer.Hex(), "receiver": c.Receiver.Hex(),
		"receiverAuthorizer": c.ReceiverAuthorizer.Hex(), "token": c.Token.Hex(), "withdrawDelay": c.WithdrawDelay.Int64(),
		"salt": hexutil.Encode(c.Salt[:]),
	}
}

// voucher is a voucher payload for max, signed by the payer's key.
func (p *payer) voucher(typ string, max int64) map[string]any {
	return map[string]any{
		"type": typ, "channelConfig": p.wireConfig(),
		"voucher": map[string]any{
			"channelId": p.id().Hex(), "maxClaimableAmount": fmt.Sprint(max),
			"signature": sign(p.e.t, p.e.dom.VoucherDigest(p.id(), big.NewInt(max)), p.key),
		},
	}
}

// deposit is a deposit payload of amount through EIP-3009, valid from
// validAfter to validBefore (unix seconds), with a voucher for max.
func (p *payer) deposit(amount, max int64, validAfter, validBefore int64) map[string]any {
	e := p.e
	salt := big.NewInt(time.Now().UnixNano())
	auth := batchsettle.ReceiveAuthorization{
		From: p.cfg.Payer, To: e.d.Contracts.ERC3009DepositCollector, Value: big.NewInt(amount),
		ValidAfter: big.NewInt(validAfter), ValidBefore: big.NewInt(validBefore), Nonce: batchsettle.DepositNonce(p.id(), salt),
	}
	digest, err := auth.Digest(contracts.TokenDomain{Name: e.d.Token.Name, Version: e.d.Token.Version, ChainID: e.d.ChainID, Token: e.d.Token.Address})
	if err != nil {
		e.t.Fatal(err)
	}
	v := p.voucher(TypeDeposit, max)
	v["deposit"] = map[string]any{"amount": fmt.Sprint(amount), "authorization": map[string]any{"erc3009Authorization": map[string]any{
		"validAfter": fmt.Sprint(validAfter), "validBefore": fmt.Sprint(validBefore),
		"salt": hexutil.Encode(common.BigToHash(salt).Bytes()), "signature": sign(e.t, digest, p.key),
	}}}
	return v
}

// requirements is the merchant's offer of a channel to receiver.
func (e *env) requirements(receiver, authorizer common.Address) x402.PaymentRequirements {
	return x402.PaymentRequirements{
		Scheme: x402.SchemeBatchSettlement, Network: x402.FormatNetwork(e.d.ChainID.Uint64()), Amount: "100",
		Asset: e.d.Token.Address.Hex(), PayTo: receiver.Hex(), MaxTimeoutSeconds: 3600,
		Extra: &x402.Extra{ReceiverAuthorizer: authorizer.Hex(), WithdrawDelay: 900, Name: e.d.Token.Name, Version: e.d.Token.Version},
	}
}

// request is a verify request of payload for r, which the payer accepted
// as it is.
func (e *env) request(payload map[string]any, r x402.PaymentRequirements) *x402.VerifyRequest {
	e.t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		e.t.Fatal(err)
	}
	acc := r
	if r.Extra != nil {
		x := *r.Extra
		acc.Extra = &x
	}
	return &x402.VerifyRequest{
		PaymentPayload:      x402.PaymentPayload{X402Version: x402.Version, Accepted: acc, Payload: raw},
		PaymentRequirements: r,
	}
}

// verify decodes and verifies req; it returns the refusal's code, "" if
// the payment verified, and fails on any other error.
func (e *env) verify(req *x402.VerifyRequest) (Code, *Payment) {
	e.t.Helper()
	pay, err := e.s.Decode(req)
	if err == nil {
		err = e.s.Verify(e.ctx(), pay, req)
	}
	if err == nil {
		return "", pay.Mechanism.(*Payment)
	}
	r, ok := err.(*Refusal)
	if !ok {
		e.t.Fatalf("not a refusal: %v", err)
	}
	return r.Code, nil
}

package facilitator

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// env is a devnet with a facilitator on it, served over HTTP.
type env struct {
	t       testing.TB
	chain   *devnet.Devnet
	eth     *ethclient.Client
	svc     *Service
	srv     *httptest.Server
	client  *Client
	cfg     Config
	network string
	// rpcURL and storePath are what start connects the service to: the
	// chain's RPC (or a proxy in front of it) and its store file. start
	// opens both and stop closes them, as a restart of Caddy would.
	rpcURL, storePath string
	inProcess         bool
	st                *store.Store
	rpc               *rpc.Client
	// offers are the paid routes of the facilitator's server: what
	// anonymous callers may settle and have sponsored.
	offers *OfferSet
	// pm is the paymaster of an aa-native env.
	pm *paymaster.Service
}

// testSettleKey is the facilitator API key the env's own HTTP calls use,
// as a remote merchant would: it may settle payments to anyone.
const testSettleKey = "test-settle-key"

type envOptions struct {
	blockPeriod    time.Duration
	receiptTimeout time.Duration
	aaNative       bool // run a paymaster and enable aa-native
	// gasTokens has that paymaster accept dUSD for gas (types 1 and 2)
	// through the devnet's token paymasters, which aa-native accepts.
	gasTokens bool
	// v08 adds the devnet's EntryPoint v0.8 (EIP-7702 senders delegated
	// to its Simple7702Account accepted) to that paymaster and aa-native.
	v08 bool
	// chainID, settler and externalBundler set up the external-bundler
	// interop test: a real bundler needs a chain id other than 31337.
	chainID         uint64
	settler         int
	externalBundler bool
	// inProcess connects the service to the devnet in process (as Caddy
	// does with its embedded devnet), not over HTTP.
	inProcess bool
	// batch turns batched settlement on, with the devnet's X402Batch.
	batch *Batching
}

func newEnv(t *testing.T, o envOptions) *env { return newEnvB(t, o) }

// newEnvB is newEnv for tests and benchmarks.
func newEnvB(t testing.TB, o envOptions) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0", BlockPeriod: o.blockPeriod, ChainID: o.chainID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	e := &env{t: t, chain: d, eth: eth, network: x402.FormatNetwork(d.ChainID.Uint64()), offers: new(OfferSet),
		rpcURL: d.URL, storePath: filepath.Join(t.TempDir(), "facilitator.db"), inProcess: o.inProcess}
	e.cfg = Config{
		Network:        e.network,
		SettlerKey:     d.Accounts[o.settler].Key,
		Assets:         []Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}},
		ReceiptTimeout: o.receiptTimeout,
		Offers:         e.offers,
	}
	if o.batch != nil {
		b := *o.batch
		b.Contract = d.Contracts.Batch
		e.cfg.Batch = &b
	}
	if o.aaNative {
		e.cfg.AANative = e.startPaymaster(o.gasTokens)
		if o.v08 {
			e.addV08()
		}
	}
	if o.externalBundler {
		e.cfg.AANative.BundlerURL = e.startBundler()
	}
	e.start()
	return e
}

// start (re)starts the service and its HTTP server on the env's config,
// opening the store file and the chain connection as Caddy's app does.
func (e *env) start() {
	e.t.Helper()
	svc, err := e.open(e.cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.svc = svc
	e.srv = httptest.NewServer(&Handler{Facilitator: svc, Network: e.network, Offers: e.offers, AuthorizeSettle: testAuthorize})
	e.client = &Client{BaseURL: e.srv.URL, APIKey: testSettleKey}
	e.t.Cleanup(func() { e.stop() })
}

// open starts a service on cfg with the env's store file and chain,
// which stop closes.
func (e *env) open(cfg Config) (*Service, error) {
	e.t.Helper()
	st, err := store.Open(store.Config{Path: e.storePath})
	if err != nil {
		return nil, err
	}
	var client *rpc.Client
	if e.inProcess {
		client = e.chain.Attach()
	} else if client, err = rpc.Dial(e.rpcURL); err != nil {
		st.Close()
		return nil, err
	}
	cfg.Records, cfg.Chain = st, client
	svc, err := New(context.Background(), cfg)
	if err != nil {
		client.Close()
		st.Close()
		return nil, err
	}
	e.st, e.rpc = st, client
	return svc, nil
}

func (e *env) stop() {
	if e.srv != nil {
		e.srv.Close()
		e.srv = nil
	}
	if e.svc != nil {
		e.svc.Close()
		e.svc = nil
	}
	if e.rpc != nil {
		e.rpc.Close()
		e.rpc = nil
	}
	if e.st != nil {
		e.st.Close()
		e.st = nil
	}
}

func (e *env) requirements(payTo common.Address, amount int64) x402.PaymentRequirements {
	return x402.PaymentRequirements{
		Scheme: x402.SchemeExact, Network: e.network, Amount: big.NewInt(amount).String(),
		Asset: e.chain.Token.Address.Hex(), PayTo: payTo.Hex(), MaxTimeoutSeconds: 60,
		Extra: &x402.Extra{Name: e.chain.Token.Name, Version: e.chain.Token.Version},
	}
}

// auth is an EIP-3009 authorization to sign.
type auth struct {
	from, to                       common.Address
	value, validAfter, validBefore *big.Int
	nonce                          [32]byte
	// domain overrides, for signatures from the wrong domain
	name, version string
	chainID       *big.Int
	token         common.Address
}

func (e *env) newAuth(payer devnet.Account, to common.Address, value int64) auth {
	var nonce [32]byte
	rand.Read(nonce[:])
	now := time.Now().Unix()
	return auth{
		from: payer.Address, to: to, value: big.NewInt(value),
		validAfter: big.NewInt(now - 600), validBefore: big.NewInt(now + 600), nonce: nonce,
		name: e.chain.Token.Name, version: e.chain.Token.Version, chainID: e.chain.ChainID, token: e.chain.Token.Address,
	}
}

// sign signs a with geth's EIP-712 implementation, as a wallet does.
func sign(t testing.TB, key *ecdsa.PrivateKey, a auth) []byte {
	t.Helper()
	sig, err := contracts.TransferAuthorization{
		From: a.from, To: a.to, Value: a.value, ValidAfter: a.validAfter, ValidBefore: a.validBefore, Nonce: a.nonce,
	}.Sign(contracts.TokenDomain{Name: a.name, Version: a.version, ChainID: a.chainID, Token: a.token}, key)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// request builds a verify/settle request for a signed authorization.
func request(req x402.PaymentRequirements, a auth, sig []byte) *x402.VerifyRequest {
	payload, _ := json.Marshal(x402.ExactPayload{
		Signature: hexutil.Encode(sig),
		Authorization: x402.ExactAuthorization{
			From: a.from.Hex(), To: a.to.Hex(), Value: a.value.String(),
			ValidAfter: a.validAfter.String(), ValidBefore: a.validBefore.String(), Nonce: hexutil.Encode(a.nonce[:]),
		},
	})
	return &x402.VerifyRequest{
		X402Version:         2,
		PaymentPayload:      x402.PaymentPayload{X402Version: 2, Accepted: req, Payload: payload},
		PaymentRequirements: req,
	}
}

// pay builds a valid payment of amount from payer to payTo.
func (e *env) pay(payer devnet.Account, payTo common.Address, amount int64) *x402.VerifyRequest {
	a := e.newAuth(payer, payTo, amount)
	return request(e.requirements(payTo, amount), a, sign(e.t, payer.Key, a))
}

// testAuthorize accepts testSettleKey.
func testAuthorize(secret string) (string, error) {
	if secret != testSettleKey {
		return "", errors.New("unknown key")
	}
	return "test", nil
}

// post sends a JSON body to a route, as a merchant holding testSettleKey,
// and decodes the answer into out.
func (e *env) post(route string, body any, out any) *http.Response {
	e.t.Helper()
	return e.postAs(testSettleKey, "", route, body, out)
}

// postAs is post with a bearer key ("" for none) and an idempotency key
// ("" for none).
func (e *env) postAs(bearer, idempotency, route string, body any, out any) *http.Response {
	e.t.Helper()
	raw, ok := body.([]byte)
	if !ok {
		raw, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/"+route, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	if idempotency != "" {
		req.Header.Set(x402.HeaderIdempotencyKey, idempotency)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("%s answered %d with content type %q: %s", route, resp.StatusCode, ct, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			e.t.Fatalf("%s answered %d with %s: %v", route, resp.StatusCode, data, err)
		}
	}
	return resp
}

func (e *env) balance(who common.Address) *big.Int {
	e.t.Helper()
	token := contracts.NewDevUSD()
	out, err := e.eth.CallContract(context.Background(), callMsg(e.chain.Token.Address, token.PackBalanceOf(who)), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	v, err := token.UnpackBalanceOf(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

// settlePending settles the payments pay makes, attempt by attempt, until
// one is left pending: 503 receipt_timeout with its transaction sent. On a
// chain sealing every period, a settlement sent just before a block is
// sealed is mined within a short receipt timeout, so a test that needs a
// pending settlement pays again; every attempt before the last settled.
func (e *env) settlePending(pay func(attempt int) *x402.VerifyRequest) (*x402.VerifyRequest, x402.SettleResponse, *http.Response) {
	e.t.Helper()
	for attempt := 0; ; attempt++ {
		req := pay(attempt)
		var out x402.SettleResponse
		resp := e.post("settle", req, &out)
		if out.ErrorCode == x402.ErrorReceiptTimeout {
			return req, out, resp
		}
		if resp.StatusCode != http.StatusOK || !out.Success || attempt == 4 {
			e.t.Fatalf("settle %d, expected to stay pending: %d %+v", attempt, resp.StatusCode, out)
		}
	}
}

// settleRacing posts a settle of pay and, once the settler has broadcast
// its transaction, runs frontRun (a transaction meant to be mined before
// it); it returns the settle's answer and the settler's nonce before it.
func (e *env) settleRacing(pay *x402.VerifyRequest, frontRun func()) (x402.SettleResponse, uint64) {
	e.t.Helper()
	ctx, settler := context.Background(), e.svc.Settler()
	nonceBefore, _ := e.eth.PendingNonceAt(ctx, settler)
	done := make(chan x402.SettleResponse, 1)
	go func() {
		var r x402.SettleResponse
		e.post("settle", pay, &r)
		done <- r
	}()
	deadline := time.Now().Add(20 * time.Second)
	for n, _ := e.eth.PendingNonceAt(ctx, settler); n == nonceBefore; n, _ = e.eth.PendingNonceAt(ctx, settler) {
		if time.Now().After(deadline) {
			e.t.Fatal("the settlement was never broadcast")
		}
		time.Sleep(5 * time.Millisecond) // polling for the broadcast
	}
	frontRun()
	return <-done, nonceBefore
}

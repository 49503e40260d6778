package claimer

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap/zaptest"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// opTimeout bounds each chain operation and each wait of a test.
const opTimeout = 2 * time.Minute

// env is a test's devnet (its own, so that tests move its clock and
// nonces freely), a facilitator.Service with the batch-settlement scheme
// on it, the merchant's store and a clock both read.
type env struct {
	t     *testing.T
	d     *devnet.Devnet
	eth   *ethclient.Client
	svc   *facilitator.Service
	st    store.Backend
	clock *clock
	dom   batchsettle.Domain
	bs    *batchsettle.X402BatchSettlement
	// authorizer is the merchant's receiver authorizer (devnet account 3,
	// which has ETH for the tests' direct calls); receiver is a fresh
	// address, so its token balance is what the claims paid it.
	authorizer *ecdsa.PrivateKey
	receiver   common.Address
	// proxy, when set, sees the facilitator's RPC requests.
	proxy *rpcProxy
	// ahead is set once a test moved the chain's clock forward.
	ahead bool
}

// clock is the tests' clock: the wall clock, moved forward by a test.
type clock struct{ ahead atomic.Int64 }

func (c *clock) Now() time.Time       { return time.Now().Add(time.Duration(c.ahead.Load())) }
func (c *clock) Move(d time.Duration) { c.ahead.Add(int64(d)) }
func (e *env) ctx() context.Context   { return ctxFor(e.t) }
func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	t.Cleanup(cancel)
	return ctx
}

// envOptions shape an env.
type envOptions struct {
	// proxy puts an rpcProxy between the facilitator and the chain.
	proxy bool
	// st is the merchant's store; default a bbolt file of the test's.
	st store.Backend
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	ctx := ctxFor(t)
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	e := &env{t: t, d: d, eth: eth, clock: new(clock), dom: batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement),
		bs: batchsettle.NewX402BatchSettlement(), authorizer: d.Accounts[3].Key, receiver: crypto.PubkeyToAddress(newKey(t).PublicKey)}
	url := d.URL
	if o.proxy {
		e.proxy = &rpcProxy{target: d.URL}
		srv := httptest.NewServer(e.proxy)
		t.Cleanup(srv.Close)
		url = srv.URL
	}
	records, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "facilitator.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { records.Close() })
	rc, err := rpc.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	e.svc, err = facilitator.New(ctx, facilitator.Config{
		Network: x402.FormatNetwork(d.ChainID.Uint64()), Chain: rc, SettlerKey: d.Accounts[1].Key,
		Assets:  []facilitator.Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}},
		Records: records, BatchSettlement: &facilitator.BatchSettlement{}, Now: e.clock.Now,
		Logger: zaptest.NewLogger(t).Named("facilitator"),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.svc.Close() })
	e.st = o.st
	if e.st == nil {
		st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "merchant.db")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		e.st = st
	}
	return e
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// config is a claimer's configuration on the env, with settle counted by
// s and events sent to events (unbounded only by the test's own size).
func (e *env) config(s Settler, events *eventLog) Config {
	return Config{
		Store: e.st, Settler: s, Chain: e.eth, ChainID: e.d.ChainID, Settlement: e.d.Contracts.BatchSettlement,
		Authorizer: e.authorizer, OnEvent: events.add, Logger: zaptest.NewLogger(e.t).Named("claimer"), Now: e.clock.Now,
	}
}

func (e *env) claimer(cfg Config) *Claimer {
	e.t.Helper()
	c, err := New(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.Close() })
	return c
}

// counter is a Settler that counts the settles that sent a transaction.
type counter struct {
	Settler
	mu  sync.Mutex
	txs []common.Hash
}

func (c *counter) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	resp, err := c.Settler.Settle(ctx, req)
	if err == nil && resp.TransactionHash != "" {
		c.mu.Lock()
		c.txs = append(c.txs, common.HexToHash(resp.TransactionHash))
		c.mu.Unlock()
	}
	return resp, err
}

func (c *counter) sent() []common.Hash {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]common.Hash(nil), c.txs...)
}

// eventLog keeps a claimer's events and tells a waiter of each.
type eventLog struct {
	mu     sync.Mutex
	events []Event
	added  chan struct{}
	// refuse is how many events to come it does not keep (a webhook's
	// store that fails).
	refuse int
}

func newEventLog() *eventLog { return &eventLog{added: make(chan struct{}, 1)} }

// errNotKept is what eventLog answers for an event it refuses.
var errNotKept = errors.New("the event was not kept")

func (l *eventLog) add(e Event) error {
	l.mu.Lock()
	if l.refuse > 0 {
		l.refuse--
		l.mu.Unlock()
		return errNotKept
	}
	l.events = append(l.events, e)
	l.mu.Unlock()
	select {
	case l.added <- struct{}{}:
	default:
	}
	return nil
}

func (l *eventLog) of(kind EventKind) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Event
	for _, e := range l.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// wait waits, at most opTimeout, for an event of kind.
func (l *eventLog) wait(t *testing.T, kind EventKind) Event {
	t.Helper()
	deadline := time.After(opTimeout)
	for {
		if got := l.of(kind); len(got) > 0 {
			return got[0]
		}
		select {
		case <-l.added:
		case <-deadline:
			t.Fatalf("no %s event within %v; events: %+v", kind, opTimeout, l.of(""))
		}
	}
}

// send sends a call from key and waits for its receipt, which must
// succeed.
func (e *env) send(key *ecdsa.PrivateKey, to common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	r := e.trySend(key, to, data)
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("transaction %s to %s reverted", r.TxHash, to)
	}
	return r
}

// trySend sends a call from key, with a fixed gas limit (it may revert),
// and waits for its receipt.
func (e *env) trySend(key *ecdsa.PrivateKey, to common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	ctx := e.ctx()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := e.eth.PendingNonceAt(ctx, from)
	if err != nil {
		e.t.Fatal(err)
	}
	tip := big.NewInt(params.GWei)
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(e.d.ChainID), &types.DynamicFeeTx{
		ChainID: e.d.ChainID, Nonce: nonce, To: &to, Data: data, Gas: 1_000_000,
		GasTipCap: tip, GasFeeCap: new(big.Int).Mul(tip, big.NewInt(100)),
	})
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	if e.ahead {
		// The chain's clock runs ahead of the wall clock, past what the
		// on-demand sealer waits out: seal at once.
		e.d.Seal()
	}
	r, err := e.d.Wait(ctx, tx.Hash())
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// balance is a's token balance.
func (e *env) balance(a common.Address) *big.Int {
	e.t.Helper()
	dusd := contracts.NewDevUSD()
	out, err := e.eth.CallContract(e.ctx(), ethereum.CallMsg{To: &e.d.Token.Address, Data: dusd.PackBalanceOf(a)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	b, err := dusd.UnpackBalanceOf(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// onChain is channel id's state on chain.
func (e *env) onChain(id common.Hash) (balance, claimed *big.Int) {
	e.t.Helper()
	out, err := e.eth.CallContract(e.ctx(), ethereum.CallMsg{To: &e.d.Contracts.BatchSettlement, Data: e.bs.PackChannels(id)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	ch, err := e.bs.UnpackChannels(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return ch.Balance, ch.TotalClaimed
}

// channel is a payer's channel to the env's receiver, as the server
// keeps it.
type channel struct {
	e     *env
	payer devnet.Account
	cfg   batchsettle.ChannelConfig
	id    common.Hash
	// charged is what the server has charged; vouchers are cumulative.
	charged int64
}

// open deposits deposit into a channel of the devnet's account i (which
// signs its vouchers as its own payer authorizer; salt tells its channels
// apart), mirrors it into the merchant's store and serves requests that
// charge charged in all.
func (e *env) open(i int, salt byte, deposit, charged int64) *channel {
	e.t.Helper()
	return e.openAs(i, salt, deposit, charged, e.d.Accounts[i].Address)
}

// openAs is open with the channel's payer authorizer; zero has the payer
// itself sign, which the contract checks with SignatureChecker.
func (e *env) openAs(i int, salt byte, deposit, charged int64, payerAuthorizer common.Address) *channel {
	e.t.Helper()
	p := e.d.Accounts[i]
	c := &channel{e: e, payer: p, cfg: batchsettle.ChannelConfig{
		Payer: p.Address, PayerAuthorizer: payerAuthorizer, Receiver: e.receiver,
		ReceiverAuthorizer: crypto.PubkeyToAddress(e.authorizer.PublicKey), Token: e.d.Token.Address,
		WithdrawDelay: big.NewInt(batchsettle.MinWithdrawDelay), Salt: common.Hash{31: salt},
	}}
	c.id = e.dom.ChannelID(c.cfg)
	salt256 := big.NewInt(time.Now().UnixNano())
	auth := batchsettle.ReceiveAuthorization{
		From: p.Address, To: e.d.Contracts.ERC3009DepositCollector, Value: big.NewInt(deposit),
		ValidAfter: new(big.Int), ValidBefore: big.NewInt(time.Now().Add(time.Hour).Unix()), Nonce: batchsettle.DepositNonce(c.id, salt256),
	}
	digest, err := auth.Digest(contracts.TokenDomain{Name: e.d.Token.Name, Version: e.d.Token.Version, ChainID: e.d.ChainID, Token: e.d.Token.Address})
	if err != nil {
		e.t.Fatal(err)
	}
	sig, err := batchsettle.Sign(digest, p.Key)
	if err != nil {
		e.t.Fatal(err)
	}
	e.send(p.Key, e.d.Contracts.BatchSettlement, e.bs.PackDeposit(c.cfg, big.NewInt(deposit), e.d.Contracts.ERC3009DepositCollector,
		batchsettle.ERC3009CollectorData(auth.ValidAfter, auth.ValidBefore, salt256, sig)))
	cs := e.channels()
	if _, err := cs.Sync(c.id, store.ChannelSnapshot{Balance: big.NewInt(deposit), TotalClaimed: new(big.Int), RefundNonce: new(big.Int), Config: &store.ChannelConfig{
		Payer: c.cfg.Payer, PayerAuthorizer: c.cfg.PayerAuthorizer, Receiver: c.cfg.Receiver, ReceiverAuthorizer: c.cfg.ReceiverAuthorizer,
		Token: c.cfg.Token, WithdrawDelay: c.cfg.WithdrawDelay.Uint64(), Salt: c.cfg.Salt,
	}}, e.clock.Now()); err != nil {
		e.t.Fatal(err)
	}
	if charged > 0 {
		c.serve(charged)
	}
	return c
}

// serve serves one request of the channel at price, as the server does:
// Begin with the payer's voucher for the charged total plus the price,
// then Commit.
func (c *channel) serve(price int64) { c.serveSigned(price, c.payer.Key) }

// serveSigned is serve with the voucher signed by key.
func (c *channel) serveSigned(price int64, key *ecdsa.PrivateKey) {
	e := c.e
	e.t.Helper()
	max := big.NewInt(c.charged + price)
	sig, err := batchsettle.Sign(e.dom.VoucherDigest(c.id, max), key)
	if err != nil {
		e.t.Fatal(err)
	}
	cs := e.channels()
	now := e.clock.Now()
	if _, err := cs.Begin(c.id, store.Voucher{Max: max, Signature: sig}, big.NewInt(price), "request", now, time.Minute); err != nil {
		e.t.Fatal(err)
	}
	if _, err := cs.Commit(c.id, "request", big.NewInt(price), now); err != nil {
		e.t.Fatal(err)
	}
	c.charged += price
}

// channels is the merchant's store of channels.
func (e *env) channels() *store.Channels {
	e.t.Helper()
	kv, err := e.st.Bucket(store.ChannelBucket)
	if err != nil {
		e.t.Fatal(err)
	}
	return store.NewChannels(kv)
}

// rpcProxy forwards JSON-RPC requests to target; before forwarding the
// first eth_sendRawTransaction after arm, it runs the armed function.
type rpcProxy struct {
	target string
	mu     sync.Mutex
	armed  func(tx *types.Transaction)
}

func (p *rpcProxy) arm(fn func(tx *types.Transaction)) {
	p.mu.Lock()
	p.armed = fn
	p.mu.Unlock()
}

func (p *rpcProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	type call struct {
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	var calls []call
	if json.Unmarshal(body, &calls) != nil {
		var one call
		json.Unmarshal(body, &one)
		calls = []call{one}
	}
	for _, msg := range calls {
		if msg.Method != "eth_sendRawTransaction" || len(msg.Params) != 1 {
			continue
		}
		p.mu.Lock()
		fn := p.armed
		p.armed = nil
		p.mu.Unlock()
		var raw string
		tx := new(types.Transaction)
		if fn != nil && json.Unmarshal(msg.Params[0], &raw) == nil && tx.UnmarshalBinary(common.FromHex(raw)) == nil {
			fn(tx)
		}
	}
	resp, err := http.Post(p.target, "application/json", bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

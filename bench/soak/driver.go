package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// fundAmount is what each payer gets: 1,000 dUSD, far more than a run
// spends at 0.01 a payment.
var fundAmount = big.NewInt(1_000_000_000)

// payer is one paying key: an EOA for exact, or the smart account of a key
// for aa-native.
type payer struct {
	key    *ecdsa.PrivateKey
	addr   common.Address // what pays: the EOA or the smart account
	tr     *client.Transport
	scheme string
	start  *big.Int // token balance before the load
}

// driver is one soak run.
type driver struct {
	cfg  *config
	http *http.Client
	rpc  *rpc.Client
	eth  *ethclient.Client

	// From the paid route's offers.
	amount     *big.Int
	token      common.Address
	settlement common.Address
	factory    common.Address
	entryPoint common.Address

	exact []*payer
	aa    chan *payer // an account pays once at a time: its nonce is sequential
	aaAll []*payer

	startBlock    uint64
	merchantStart *big.Int
	settler       common.Address
	settlerStart  *big.Int
	refusedSettle string // a well-formed settle body for another merchant

	began    time.Time
	picks    []op // the mix, one entry per unit of weight
	tally    *tally
	ledger   *ledger
	ring     *ring
	lat      latencies
	samples  []sample
	idle     [2]sample     // before and after the load
	idleWait time.Duration // how long after the load idle came back
}

func newDriver(ctx context.Context, cfg *config) (*driver, error) {
	tr := &http.Transport{
		MaxIdleConns:        4 * cfg.Concurrency,
		MaxIdleConnsPerHost: 2 * cfg.Concurrency,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	// client.PayAANative dials the chain for each payment with
	// go-ethereum's default HTTP client, which uses http.DefaultTransport
	// (2 idle connections per host): share this pool instead, so that the
	// payers do not re-dial the devnet for every call.
	http.DefaultTransport = tr
	c, err := rpc.DialContext(ctx, cfg.RPC)
	if err != nil {
		return nil, err
	}
	d := &driver{
		cfg:    cfg,
		http:   &http.Client{Transport: tr, Timeout: 2 * time.Minute},
		rpc:    c,
		eth:    ethclient.NewClient(c),
		tally:  newTally(),
		ledger: newLedger(),
		ring:   &ring{items: make([]replayable, 512)},
	}
	for o, w := range cfg.Mix {
		for range w {
			d.picks = append(d.picks, o)
		}
	}
	slices.Sort(d.picks)
	return d, nil
}

func (d *driver) close() { d.rpc.Close() }

// setup reads the offers, makes and funds the payers, and records the
// balances and block the checks start from.
func (d *driver) setup(ctx context.Context) error {
	pr, err := d.challengeOnce(ctx, d.cfg.API+pathPaid)
	if err != nil {
		return err
	}
	exact, aa := offer(pr, x402.SchemeExact), offer(pr, x402.SchemeAANative)
	if exact == nil || aa == nil || aa.Extra == nil {
		return fmt.Errorf("%s must offer exact and aa-native; it offers %+v", pathPaid, pr.Accepts)
	}
	if common.HexToAddress(exact.PayTo) != d.cfg.PayTo || common.HexToAddress(aa.PayTo) != d.cfg.PayTo {
		return fmt.Errorf("the offers pay %s, not -pay-to %s", exact.PayTo, d.cfg.PayTo)
	}
	d.amount, _ = x402.ParseAmount(exact.Amount)
	d.token = common.HexToAddress(exact.Asset)
	d.settlement = common.HexToAddress(aa.Extra.Settlement)
	d.factory = common.HexToAddress(aa.Extra.Factory)
	d.entryPoint = common.HexToAddress(aa.Extra.EntryPoint)

	for range d.cfg.ExactPayers {
		key, _ := crypto.GenerateKey()
		d.exact = append(d.exact, &payer{key: key, addr: crypto.PubkeyToAddress(key.PublicKey), scheme: x402.SchemeExact,
			tr: &client.Transport{Key: key, MaxAmount: d.amount}})
	}
	f := contracts.NewSimpleAccountFactory()
	var calls [][]byte
	for range d.cfg.AAPayers {
		key, _ := crypto.GenerateKey()
		d.aaAll = append(d.aaAll, &payer{key: key, scheme: x402.SchemeAANative,
			tr: &client.Transport{Key: key, MaxAmount: d.amount, Schemes: []string{x402.SchemeAANative}, RPC: d.cfg.RPC, Base: d.http.Transport}})
		calls = append(calls, f.PackGetAddress(crypto.PubkeyToAddress(key.PublicKey), new(big.Int)))
	}
	outs, err := d.calls(ctx, d.factory, calls)
	if err != nil {
		return fmt.Errorf("deriving the smart accounts: %w", err)
	}
	d.aa = make(chan *payer, len(d.aaAll))
	for i, p := range d.aaAll {
		if p.addr, err = f.UnpackGetAddress(outs[i]); err != nil {
			return err
		}
		d.aa <- p
	}

	settler, err := devnet.DeriveKey(devnet.TestMnemonic, 0)
	if err != nil {
		return err
	}
	d.settler = crypto.PubkeyToAddress(settler.PublicKey)
	if err := d.fund(ctx, d.payers()); err != nil {
		return fmt.Errorf("funding the payers: %w", err)
	}
	balances, err := d.balances(ctx, append(d.payers(), d.cfg.PayTo))
	if err != nil {
		return err
	}
	for i, p := range d.allPayers() {
		if p.start = balances[i]; p.start.Cmp(fundAmount) < 0 {
			return fmt.Errorf("payer %s holds %s after funding", p.addr, p.start)
		}
	}
	d.merchantStart = balances[len(balances)-1]
	if d.merchantStart.Sign() != 0 {
		return fmt.Errorf("the merchant %s is not fresh: it holds %s", d.cfg.PayTo, d.merchantStart)
	}
	if d.settlerStart, err = d.eth.BalanceAt(ctx, d.settler, nil); err != nil {
		return err
	}
	if d.startBlock, err = d.eth.BlockNumber(ctx); err != nil {
		return err
	}
	if d.refusedSettle, err = d.foreignSettleBody(pr, exact); err != nil {
		return err
	}
	d.idle[0] = d.sample(ctx, "idle, before")
	d.saveGoroutines(ctx, "idle, before")
	return nil
}

// allPayers is every payer, exact first.
func (d *driver) allPayers() []*payer { return append(slices.Clone(d.exact), d.aaAll...) }

// payers are the addresses of allPayers.
func (d *driver) payers() []common.Address {
	var out []common.Address
	for _, p := range d.allPayers() {
		out = append(out, p.addr)
	}
	return out
}

// fund sends each address fundAmount of the token from devnet test account
// #1, in one burst of consecutive nonces, and waits for the last.
func (d *driver) fund(ctx context.Context, to []common.Address) error {
	key, err := devnet.DeriveKey(devnet.TestMnemonic, 1)
	if err != nil {
		return err
	}
	chainID, err := d.eth.ChainID(ctx)
	if err != nil {
		return err
	}
	nonce, err := d.eth.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		return err
	}
	tok := contracts.NewDevUSD()
	signer := types.LatestSignerForChainID(chainID)
	var last common.Hash
	for i, a := range to {
		tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: nonce + uint64(i), To: &d.token, Data: tok.PackTransfer(a, fundAmount),
			Gas: 100_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
		})
		if err != nil {
			return err
		}
		if err := d.eth.SendTransaction(ctx, tx); err != nil {
			return err
		}
		last = tx.Hash()
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		r, err := d.eth.TransactionReceipt(wctx, last)
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				return errors.New("the last funding transfer reverted")
			}
			return nil
		}
		select {
		case <-wctx.Done():
			return fmt.Errorf("waiting for the funding transfers: %w", wctx.Err())
		case <-time.After(50 * time.Millisecond): // polling for the receipt
		}
	}
}

// calls makes eth_calls to one contract in batches.
func (d *driver) calls(ctx context.Context, to common.Address, data [][]byte) ([][]byte, error) {
	out := make([]hexutil.Bytes, len(data))
	batch := make([]rpc.BatchElem, len(data))
	for i := range data {
		batch[i] = rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": to, "data": hexutil.Bytes(data[i])}, "latest"}, Result: &out[i]}
	}
	for chunk := range slices.Chunk(batch, 100) {
		if err := d.rpc.BatchCallContext(ctx, chunk); err != nil {
			return nil, err
		}
		for _, e := range chunk {
			if e.Error != nil {
				return nil, e.Error
			}
		}
	}
	res := make([][]byte, len(out))
	for i := range out {
		res[i] = out[i]
	}
	return res, nil
}

// balances reads the token balances of addrs in batches.
func (d *driver) balances(ctx context.Context, addrs []common.Address) ([]*big.Int, error) {
	tok := contracts.NewDevUSD()
	var data [][]byte
	for _, a := range addrs {
		data = append(data, tok.PackBalanceOf(a))
	}
	outs, err := d.calls(ctx, d.token, data)
	if err != nil {
		return nil, fmt.Errorf("reading balances: %w", err)
	}
	res := make([]*big.Int, len(outs))
	for i, o := range outs {
		if res[i], err = tok.UnpackBalanceOf(o); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// challengeOnce fetches a route's 402 challenge, for setup.
func (d *driver) challengeOnce(ctx context.Context, url string) (*x402.PaymentRequired, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired {
		return nil, fmt.Errorf("GET %s: %d, want 402", url, resp.StatusCode)
	}
	return x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
}

// offer is pr's offer of scheme, or nil.
func offer(pr *x402.PaymentRequired, scheme string) *x402.PaymentRequirements {
	for i := range pr.Accepts {
		if pr.Accepts[i].Scheme == scheme {
			return &pr.Accepts[i]
		}
	}
	return nil
}

// drain waits for Caddy to finish the payments under way (the workers have
// returned, but a request they gave up on may still be settling), closes
// the driver's idle connections, and waits (at most maxIdleWait) for
// Caddy's goroutines and file descriptors to come back to within idleBack
// of their idle state before the load, as its own idle connections time
// out. The last sample is the idle sample after the load.
func (d *driver) drain() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		m, err := d.metrics(ctx)
		if err != nil || m.sum("caddy_x402_payments_in_flight", nil) == 0 {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond): // polling the in-flight gauge
			continue
		}
		break
	}
	d.http.Transport.(*http.Transport).CloseIdleConnections()
	began := time.Now()
	before := d.idle[0]
	defer d.saveGoroutines(context.Background(), "idle, after")
	for {
		s := d.sample(context.Background(), "idle, after")
		d.idle[1], d.idleWait = s, time.Since(began)
		if s.err != nil || (s.goroutines <= before.goroutines+idleBack && s.fds <= before.fds+idleBack) || d.idleWait > maxIdleWait {
			return
		}
		time.Sleep(time.Second) // polling for idle connections to time out
	}
}

// ids of payments, for the ledger: an exact payment's authorization nonce,
// or an aa-native payment's request hash.
func paymentID(p *x402.PaymentPayload) (common.Hash, error) {
	switch p.Accepted.Scheme {
	case x402.SchemeExact:
		var ex x402.ExactPayload
		if err := json.Unmarshal(p.Payload, &ex); err != nil {
			return common.Hash{}, err
		}
		return common.HexToHash(ex.Authorization.Nonce), nil
	case x402.SchemeAANative:
		var aa x402.AANativePayload
		if err := json.Unmarshal(p.Payload, &aa); err != nil {
			return common.Hash{}, err
		}
		return common.HexToHash(aa.SettlementCallSpec.RequestHash), nil
	}
	return common.Hash{}, fmt.Errorf("scheme %q", p.Accepted.Scheme)
}

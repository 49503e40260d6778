package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// phase is the part of the run a request belongs to.
type phase int

const (
	phaseWarmup     phase = iota // untimed: connections, caches, the chain's first blocks
	phaseSequential              // one request at a time: the headline figure
	phaseConcurrent              // batches sent at once: the second figure
)

// headerBenchID names each request, so that the access log's line for it
// can be found.
const headerBenchID = "X-Bench-Id"

// driver sends the requests and keeps what it saw.
type driver struct {
	cfg   *config
	http  *http.Client
	eth   *ethclient.Client
	offer x402.PaymentRequirements
	// challenge is the paid route's 402, read once; payments are signed
	// for it.
	challenge *x402.PaymentRequired
	amount    *big.Int
	payers    []*client.Transport
	addrs     []common.Address // of the payers
	loadStart string           // the load average when the run began

	mu      sync.Mutex
	samples []sample
	// maxLead is the chain's largest lead over the wall clock seen right
	// after a request (or batch): the devnet paces its sealing only past
	// devnet.MaxClockLead.
	maxLead time.Duration
	paced   time.Duration // time spent waiting for the chain's clock
	seq     int           // request ids
	turn    int           // whose turn it is to pay, round the payers
}

// sample is one timed request and what its answer said.
type sample struct {
	phase phase
	batch int // in phaseConcurrent
	id    string
	paid  bool
	payer int // index into driver.payers, for a paid request
	took  time.Duration
	tx    common.Hash // the settlement's, for a paid request
	err   error       // what was wrong with the answer, if anything
}

func newDriver(ctx context.Context, cfg *config) (*driver, error) {
	eth, err := ethclient.DialContext(ctx, cfg.RPC)
	if err != nil {
		return nil, fmt.Errorf("dialing %s: %w", cfg.RPC, err)
	}
	d := &driver{
		cfg: cfg, eth: eth, loadStart: loadavg(),
		http: &http.Client{
			Timeout: time.Minute,
			Transport: &http.Transport{
				MaxIdleConnsPerHost: 2 * max(cfg.Concurrency, 1),
				IdleConnTimeout:     5 * time.Minute,
			},
		},
	}
	if err := d.readChallenge(ctx); err != nil {
		d.close()
		return nil, err
	}
	for i := range cfg.Payers {
		key, err := devnet.DeriveKey(devnet.TestMnemonic, uint32(i+1))
		if err != nil {
			d.close()
			return nil, err
		}
		d.payers = append(d.payers, &client.Transport{Key: key, MaxAmount: d.amount})
		d.addrs = append(d.addrs, crypto.PubkeyToAddress(key.PublicKey))
		if d.addrs[i] == common.HexToAddress(d.offer.PayTo) {
			d.close()
			return nil, fmt.Errorf("payer #%d %s is the merchant; lower -payers", i+1, d.addrs[i])
		}
	}
	return d, nil
}

func (d *driver) close() {
	d.eth.Close()
	d.http.CloseIdleConnections()
}

// readChallenge asks the paid route once, unpaid, and keeps its exact
// offer.
func (d *driver) readChallenge(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.cfg.API+d.cfg.PaidPath, nil)
	if err != nil {
		return err
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return fmt.Errorf("asking for the challenge: %w", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired {
		return fmt.Errorf("GET %s unpaid: %s, want 402", d.cfg.PaidPath, resp.Status)
	}
	d.challenge, err = x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		return fmt.Errorf("decoding the challenge: %w", err)
	}
	for _, o := range d.challenge.Accepts {
		if o.Scheme == x402.SchemeExact {
			d.offer = o
			d.amount, err = x402.ParseAmount(o.Amount)
			return err
		}
	}
	return fmt.Errorf("the challenge of %s offers no exact payment", d.cfg.PaidPath)
}

// sign signs a fresh payment by payer and encodes it as a
// PAYMENT-SIGNATURE value.
func (d *driver) sign(payer int) (string, error) {
	payload, err := d.payers[payer].Pay(d.challenge, &d.offer)
	if err != nil {
		return "", fmt.Errorf("signing a payment: %w", err)
	}
	return x402.EncodeHeader(payload)
}

// nextPayer takes the payers in turn.
func (d *driver) nextPayer() int {
	d.turn++
	return d.turn % len(d.payers)
}

// sequential sends n paid requests and n free ones, one at a time, one of
// each every interval, in alternating order.
func (d *driver) sequential(ctx context.Context, ph phase, n int) error {
	next := time.Now()
	for i := range n {
		if err := d.waitTurn(ctx, next, d.cfg.MaxLead); err != nil {
			return err
		}
		// Signed now, so that the wait does not eat into its validity,
		// and before its timer starts.
		payer := d.nextPayer()
		payment, err := d.sign(payer)
		if err != nil {
			return err
		}
		next = time.Now().Add(d.interval())
		if i%2 == 0 {
			d.record(d.send(ctx, ph, 0, "", -1))
			d.record(d.send(ctx, ph, 0, payment, payer))
		} else {
			d.record(d.send(ctx, ph, 0, payment, payer))
			d.record(d.send(ctx, ph, 0, "", -1))
		}
		if _, err := d.lead(ctx); err != nil {
			return err
		}
	}
	return nil
}

// concurrent sends batches of c paid requests at once, each batch followed
// by c free requests at once, one batch every interval. An untimed batch
// first opens the connections. A batch may take up to c blocks, a second
// of chain time each, so it waits for the chain's lead to fall below
// MaxLead less c seconds (at least a second).
func (d *driver) concurrent(ctx context.Context, batches, c int) error {
	limit := max(d.cfg.MaxLead-time.Duration(c)*time.Second, time.Second)
	next := time.Now()
	for b := -1; b < batches; b++ {
		ph := phaseConcurrent
		if b < 0 {
			ph = phaseWarmup
		}
		if err := d.waitTurn(ctx, next, limit); err != nil {
			return err
		}
		payments := make([]string, c)
		payer := make([]int, c)
		for i := range payments {
			payer[i] = d.nextPayer()
			var err error
			if payments[i], err = d.sign(payer[i]); err != nil {
				return err
			}
		}
		next = time.Now().Add(d.interval())
		d.burst(ctx, ph, b, payments, payer)
		if _, err := d.lead(ctx); err != nil {
			return err
		}
		d.burst(ctx, ph, b, make([]string, c), payer)
	}
	return nil
}

// burst sends one request per payment at once ("" is a free request) and
// records them.
func (d *driver) burst(ctx context.Context, ph phase, batch int, payments []string, payer []int) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, p := range payments {
		wg.Go(func() {
			<-start
			if p == "" {
				d.record(d.send(ctx, ph, batch, "", -1))
			} else {
				d.record(d.send(ctx, ph, batch, p, payer[i]))
			}
		})
	}
	close(start)
	wg.Wait()
}

// interval is the time to the next request (or batch): Interval, spread
// uniformly by ±Jitter of itself, so that requests fall at every phase of
// the server's periodic work (the facilitator's finality check runs every
// second) rather than at one.
func (d *driver) interval() time.Duration {
	j := d.cfg.Jitter * (2*rand.Float64() - 1)
	return time.Duration(float64(d.cfg.Interval) * (1 + j))
}

// waitTurn waits until next, then while the chain's clock leads the wall
// clock by limit or more.
func (d *driver) waitTurn(ctx context.Context, next time.Time, limit time.Duration) error {
	if err := sleep(ctx, time.Until(next)); err != nil {
		return err
	}
	began := time.Now()
	for {
		lead, err := d.lead(ctx)
		if err != nil {
			return err
		}
		if lead < limit {
			d.paced += time.Since(began)
			return nil
		}
		if err := sleep(ctx, lead-limit+100*time.Millisecond); err != nil {
			return err
		}
	}
}

// lead is how far the chain's head block is ahead of the wall clock.
func (d *driver) lead(ctx context.Context) (time.Duration, error) {
	head, err := d.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("reading the chain's head: %w", err)
	}
	lead := time.Until(time.Unix(int64(head.Time), 0))
	d.mu.Lock()
	d.maxLead = max(d.maxLead, lead)
	d.mu.Unlock()
	return lead, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// send sends one request, with payment as its PAYMENT-SIGNATURE unless it
// is "" (free), and times it from before the request is written until the
// answer's body is read.
func (d *driver) send(ctx context.Context, ph phase, batch int, payment string, payer int) sample {
	d.mu.Lock()
	d.seq++
	s := sample{phase: ph, batch: batch, id: strconv.Itoa(d.seq), paid: payment != "", payer: payer}
	d.mu.Unlock()
	path := d.cfg.FreePath
	if s.paid {
		path = d.cfg.PaidPath
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.cfg.API+path, nil)
	if err != nil {
		s.err = err
		return s
	}
	req.Header.Set(headerBenchID, s.id)
	if s.paid {
		req.Header.Set(x402.HeaderPaymentSignature, payment)
	}
	began := time.Now()
	resp, err := d.http.Do(req)
	if err != nil {
		s.took, s.err = time.Since(began), err
		return s
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	s.took = time.Since(began)
	switch {
	case err != nil:
		s.err = fmt.Errorf("reading the body: %w", err)
	case resp.StatusCode != http.StatusOK:
		s.err = fmt.Errorf("%s, want 200", resp.Status)
	case s.paid:
		s.tx, s.err = settled(resp)
	}
	return s
}

// settled reads the transaction of a paid answer's PAYMENT-RESPONSE.
func settled(resp *http.Response) (common.Hash, error) {
	res, ok, err := client.Receipt(resp)
	switch {
	case err != nil:
		return common.Hash{}, fmt.Errorf("decoding PAYMENT-RESPONSE: %w", err)
	case !ok:
		return common.Hash{}, errors.New("a paid 200 without PAYMENT-RESPONSE")
	case !res.Success:
		return common.Hash{}, fmt.Errorf("PAYMENT-RESPONSE says not settled: %s", res.ErrorCode)
	}
	b, err := hexutil.Decode(res.TransactionHash)
	if err != nil || len(b) != common.HashLength {
		return common.Hash{}, fmt.Errorf("PAYMENT-RESPONSE names no transaction: %q", res.TransactionHash)
	}
	return common.BytesToHash(b), nil
}

func (d *driver) record(s sample) {
	d.mu.Lock()
	d.samples = append(d.samples, s)
	d.mu.Unlock()
}

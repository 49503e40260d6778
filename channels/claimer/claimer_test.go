package claimer

import (
	"errors"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
)

// TestConfigValidate: every impossible setting is reported, each naming
// its field.
func TestConfigValidate(t *testing.T) {
	t.Parallel()
	good := Config{Store: new(fakeStore), Settler: fakeSettler{}, Chain: fakeChain{}, ChainID: big.NewInt(1), Authorizer: newKey(t)}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		ok   bool
	}{
		{"the defaults", func(*Config) {}, true},
		{"all strategies", func(c *Config) { c.Interval, c.Threshold, c.Poll = time.Hour, big.NewInt(1), 5*time.Minute }, true},
		{"no store", func(c *Config) { c.Store = nil }, false},
		{"no settler", func(c *Config) { c.Settler = nil }, false},
		{"no chain", func(c *Config) { c.Chain = nil }, false},
		{"no chain id", func(c *Config) { c.ChainID = nil }, false},
		{"no authorizer", func(c *Config) { c.Authorizer = nil }, false},
		{"a zero threshold", func(c *Config) { c.Threshold = new(big.Int) }, false},
		{"a poll past a third of the shortest withdraw delay", func(c *Config) { c.Poll = 6 * time.Minute }, false},
		{"too many rows", func(c *Config) { c.MaxRows = 257 }, false},
		{"a lease shorter than a settle", func(c *Config) { c.Lease, c.Timeout = time.Minute, 2*time.Minute }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := good
			tc.edit(&c)
			if err := c.Validate(); (err == nil) != tc.ok {
				t.Fatalf("Validate() = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// TestPeriodicClaim: with the periodic strategy, one round claims every
// channel with something unclaimed in one transaction, which pays the
// receiver exactly what was charged; the store counts each channel as
// claimed and swept, the report says so per channel and per payer, and
// the next round in the same period sends nothing. It logs the gas per
// claimed channel.
func TestPeriodicClaim(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	chans := []*channel{e.open(5, 1, 10_000, 300), e.open(6, 1, 10_000, 1_250), e.open(7, 1, 10_000, 7)}
	chans[0].serve(200) // two requests: 500 in all
	events := newEventLog()
	s := &counter{Settler: e.svc}
	cfg := e.config(s, events)
	cfg.Interval = time.Hour
	c := e.claimer(cfg)

	res, err := c.Round(e.ctx())
	if err != nil || res.Claims != 1 || res.Channels != 3 || res.Failed != 0 {
		t.Fatalf("round: %+v, %v; want one claim of 3 channels", res, err)
	}
	if got := e.balance(e.receiver); got.Int64() != 500+1_250+7 {
		t.Errorf("the receiver holds %v, want the 1757 charged", got)
	}
	cs := e.channels()
	for _, ch := range chans {
		if _, claimed := e.onChain(ch.id); claimed.Int64() != ch.charged {
			t.Errorf("channel %s: %v claimed on chain, want %d", ch.id, claimed, ch.charged)
		}
		got, _, err := cs.Get(ch.id)
		if err != nil || got.Swept == nil || got.Swept.Int64() != ch.charged || got.Claims != 1 || got.Unclaimed().Sign() != 0 {
			t.Errorf("channel %s in the store: %+v, %v", ch.id, got, err)
		}
	}
	claimed := events.of(EventClaimed)
	if len(claimed) != 1 || claimed[0].Amount.Int64() != 1_757 || len(claimed[0].Channels) != 3 || claimed[0].Reason != "periodic" {
		t.Errorf("claimed events %+v", claimed)
	}
	if swept := events.of(EventSwept); len(swept) != 1 || swept[0].Amount.Int64() != 1_757 || swept[0].Tx != claimed[0].Tx {
		t.Errorf("swept events %+v", swept)
	}
	rep, err := c.Report()
	if err != nil || len(rep.Channels) != 3 || len(rep.Payers) != 3 {
		t.Fatalf("report %+v, %v", rep, err)
	}
	for _, p := range rep.Payers {
		if p.Unclaimed.Sign() != 0 || p.Claimed.Cmp(p.Swept) != 0 || p.Channels != 1 {
			t.Errorf("payer %s: %+v", p.Payer, p)
		}
	}
	receipt, err := e.eth.TransactionReceipt(e.ctx(), s.sent()[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a claim and sweep of 3 channels used %d gas, %d a channel", receipt.GasUsed, receipt.GasUsed/3)

	chans[1].serve(50)
	if res, err := c.Round(e.ctx()); err != nil || res.Claims != 0 {
		t.Errorf("a second round within the period: %+v, %v; want no claim", res, err)
	}
	if n := len(s.sent()); n != 1 {
		t.Errorf("%d transactions sent, want 1", n)
	}
}

// TestThreshold: a receiver's unclaimed total below the threshold sends
// nothing; a commit that takes it to the threshold, told by Notify, has
// the running claimer claim it.
func TestThreshold(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	a, b := e.open(5, 1, 10_000, 100), e.open(6, 1, 10_000, 150)
	events := newEventLog()
	s := &counter{Settler: e.svc}
	cfg := e.config(s, events)
	cfg.Threshold, cfg.Poll = big.NewInt(300), MaxPoll
	c := e.claimer(cfg)
	if res, err := c.Round(e.ctx()); err != nil || res.Claims != 0 || len(s.sent()) != 0 {
		t.Fatalf("below the threshold: %+v, %v, %d transactions; want none", res, err, len(s.sent()))
	}
	c.Start()
	b.serve(50) // 300 in all
	c.Notify(b.id)
	ev := events.wait(t, EventClaimed)
	if ev.Amount.Int64() != 300 || ev.Reason != "threshold" || len(s.sent()) != 1 {
		t.Fatalf("claimed %+v with %d transactions; want 300, once, for the threshold", ev, len(s.sent()))
	}
	if got := e.balance(e.receiver); got.Int64() != 300 {
		t.Errorf("the receiver holds %v, want 300", got)
	}
	if _, claimed := e.onChain(a.id); claimed.Int64() != 100 {
		t.Errorf("channel a: %v claimed, want its 100", claimed)
	}
}

// TestWithdrawalClaimedBeforeDelay: a payer that starts a timed
// withdrawal on chain and sends no more requests (the server never sees
// it) has its channel claimed by the next round, with no other strategy
// on, before the delay ends: the withdrawal then returns only the rest.
func TestWithdrawalClaimedBeforeDelay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ch := e.open(5, 1, 1_000, 400)
	idle := e.open(6, 1, 1_000, 100) // no withdrawal, no strategy: left alone
	payerBefore := e.balance(ch.payer.Address)
	r := e.send(ch.payer.Key, e.d.Contracts.BatchSettlement, e.bs.PackInitiateWithdraw(ch.cfg, big.NewInt(600)))
	began := e.blockTime(r)

	events := newEventLog()
	s := &counter{Settler: e.svc}
	c := e.claimer(e.config(s, events))
	res, err := c.Round(e.ctx())
	if err != nil || res.Claims != 1 || res.Channels != 1 {
		t.Fatalf("round: %+v, %v; want the withdrawing channel claimed", res, err)
	}
	if w := events.of(EventWithdrawal); len(w) != 1 || w[0].Channels[0].ID != ch.id || w[0].Amount.Int64() != 400 {
		t.Errorf("withdrawal events %+v", w)
	}
	if ev := events.of(EventClaimed); len(ev) != 1 || ev[0].Reason != "withdrawal" || ev[0].Amount.Int64() != 400 {
		t.Errorf("claimed events %+v", ev)
	}
	receipt, err := e.eth.TransactionReceipt(e.ctx(), s.sent()[0])
	if err != nil {
		t.Fatal(err)
	}
	if at := e.blockTime(receipt); at >= began+batchsettle.MinWithdrawDelay {
		t.Errorf("claimed at %d, after the delay ended at %d", at, began+batchsettle.MinWithdrawDelay)
	}
	if _, claimed := e.onChain(idle.id); claimed.Sign() != 0 {
		t.Errorf("the channel with no withdrawal was claimed (%v)", claimed)
	}
	// The delay passes; the withdrawal returns what was not claimed.
	if err := e.d.AdjustTime(batchsettle.MinWithdrawDelay * time.Second); err != nil {
		t.Fatal(err)
	}
	e.ahead = true
	e.send(ch.payer.Key, e.d.Contracts.BatchSettlement, e.bs.PackFinalizeWithdraw(ch.cfg))
	if got := new(big.Int).Sub(e.balance(ch.payer.Address), payerBefore); got.Int64() != 600 {
		t.Errorf("the withdrawal returned %v, want the 600 not charged", got)
	}
	if got := e.balance(e.receiver); got.Int64() != 400 {
		t.Errorf("the receiver holds %v, want the 400 charged", got)
	}
}

// blockTime is the time of r's block.
func (e *env) blockTime(r *types.Receipt) int64 {
	e.t.Helper()
	h, err := e.eth.HeaderByHash(e.ctx(), r.BlockHash)
	if err != nil {
		e.t.Fatal(err)
	}
	return int64(h.Time)
}

// TestRevertedClaim: a claim whose transaction reverts (one channel's
// balance is refunded between the facilitator's checks and the block)
// marks nothing claimed; the next round, once the facilitator lets the
// authorizer claim again, claims the others and reports the drained
// channel as unclaimable.
func TestRevertedClaim(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{proxy: true})
	good := []*channel{e.open(5, 1, 1_000, 100), e.open(6, 1, 1_000, 200)}
	bad := e.open(7, 1, 1_000, 300)
	events := newEventLog()
	s := &counter{Settler: e.svc}
	cfg := e.config(s, events)
	cfg.Interval = time.Hour
	c := e.claimer(cfg)

	var drained sync.Once
	e.proxy.arm(func(tx *types.Transaction) {
		// The receiver authorizer refunds the bad channel's whole balance
		// before the claim's transaction arrives.
		drained.Do(func() {
			e.send(e.authorizer, e.d.Contracts.BatchSettlement, e.bs.PackRefund(bad.cfg, big.NewInt(1_000)))
		})
	})
	res, err := c.Round(e.ctx())
	if err != nil || res.Claims != 0 || res.Failed != 1 {
		t.Fatalf("round with the drained channel: %+v, %v; want one failed claim", res, err)
	}
	failed := events.of(EventFailed)
	if len(failed) != 1 || failed[0].Tx == (common.Hash{}) || len(failed[0].Channels) != 3 {
		t.Fatalf("failed events %+v; want the reverted claim's", failed)
	}
	cs := e.channels()
	for _, ch := range append(good, bad) {
		if got, _, _ := cs.Get(ch.id); got.Claims != 0 || got.Unclaimed().Int64() != ch.charged {
			t.Errorf("channel %s marked claimed after a revert: %+v", ch.id, got)
		}
	}

	e.clock.Move(2 * time.Minute) // the facilitator's refusal after a revert ends
	res, err = c.Round(e.ctx())
	if err != nil || res.Claims != 1 || res.Channels != 2 {
		t.Fatalf("the next round: %+v, %v; want the two good channels claimed", res, err)
	}
	if ev := events.of(EventClaimed); len(ev) != 1 || ev[0].Reason != "retry" || ev[0].Amount.Int64() != 300 {
		t.Errorf("claimed events %+v", ev)
	}
	if got := e.balance(e.receiver); got.Int64() != 300 {
		t.Errorf("the receiver holds %v, want 300", got)
	}
	lost := events.of(EventFailed)
	if len(lost) != 2 || lost[1].Channels[0].ID != bad.id || lost[1].Tx != (common.Hash{}) {
		t.Errorf("failed events %+v; want the drained channel reported", lost)
	}
}

// TestFleetClaimsOnce: two claimers over two handles of one PostgreSQL
// store run a round at the same moment: one claim transaction is sent.
func TestFleetClaimsOnce(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t, "the claimer's fleet test")
	schema := pgtest.Schema(t, url, "claimer_test_")
	var handles []store.Backend
	for range 2 {
		st, err := postgres.Open(ctxFor(t), postgres.Config{URL: url, Schema: schema, MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		handles = append(handles, st)
	}
	e := newEnv(t, envOptions{st: handles[0]})
	for i := range 3 {
		e.open(5+i, 1, 1_000, int64(100*(i+1)))
	}
	s := &counter{Settler: e.svc}
	var claimers []*Claimer
	for _, st := range handles {
		cfg := e.config(s, newEventLog())
		cfg.Store, cfg.Interval = st, time.Hour
		claimers = append(claimers, e.claimer(cfg))
	}
	var wg sync.WaitGroup
	results := make([]Result, 2)
	errs := make([]error, 2)
	start := make(chan struct{})
	for i, c := range claimers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = c.Round(e.ctx())
		}()
	}
	close(start)
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if n := len(s.sent()); n != 1 || results[0].Claims+results[1].Claims != 1 {
		t.Fatalf("%d transactions, rounds %+v; want one claim", n, results)
	}
	if got := e.balance(e.receiver); got.Int64() != 600 {
		t.Errorf("the receiver holds %v, want 600", got)
	}
}

// TestOperatorRefund: the operator's refund of a channel claims what was
// charged and returns exactly the rest, in one transaction: the receiver
// keeps exactly what was charged. A refund of more than the rest is
// refused, and nothing moves; one during a claim round waits its turn.
func TestOperatorRefund(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ch := e.open(5, 1, 1_000, 300)
	events := newEventLog()
	c := e.claimer(e.config(e.svc, events))
	payerBefore := e.balance(ch.payer.Address)
	// While another replica's round runs, the refund waits its turn.
	kv, err := e.st.Bucket(LeaseBucket)
	if err != nil {
		t.Fatal(err)
	}
	leases := store.NewLeases(kv)
	if ok, err := leases.Take(roundKey, e.clock.Now().Add(time.Minute), e.clock.Now()); !ok || err != nil {
		t.Fatalf("taking the round's lease: %v, %v", ok, err)
	}
	if _, err := c.Refund(e.ctx(), ch.id, nil); !errors.Is(err, ErrBusy) {
		t.Fatalf("a refund during a round: %v", err)
	}
	if err := leases.Drop(roundKey); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Refund(e.ctx(), ch.id, big.NewInt(701)); !errors.Is(err, ErrRefundTooLarge) {
		t.Fatalf("a refund of 701 of 700: %v", err)
	}
	partial, err := c.Refund(e.ctx(), ch.id, big.NewInt(200))
	if err != nil || partial.Amount.Int64() != 200 || partial.Claimed.Int64() != 300 {
		t.Fatalf("a refund of 200: %+v, %v", partial, err)
	}
	ch.serve(100) // the server serves on: 400 charged
	full, err := c.Refund(e.ctx(), ch.id, nil)
	if err != nil || full.Amount.Int64() != 400 || full.Claimed.Int64() != 100 {
		t.Fatalf("the full refund: %+v, %v; want 400 back and 100 claimed", full, err)
	}
	if got := new(big.Int).Sub(e.balance(ch.payer.Address), payerBefore); got.Int64() != 600 {
		t.Errorf("the payer got %v back, want the 600 not charged", got)
	}
	if got := e.balance(e.receiver); got.Int64() != 400 {
		t.Errorf("the receiver holds %v, want the 400 charged", got)
	}
	if balance, claimed := e.onChain(ch.id); balance.Int64() != 400 || claimed.Int64() != 400 {
		t.Errorf("the channel holds %v with %v claimed; want 400 and 400", balance, claimed)
	}
	if got := full.Channel; got.Hold != nil || got.Swept.Int64() != 400 || got.RefundNonce.Int64() != 2 {
		t.Errorf("the channel in the store: %+v", got)
	}
	if _, err := c.Refund(e.ctx(), ch.id, nil); !errors.Is(err, ErrNothingToRefund) {
		t.Errorf("a refund of an emptied channel: %v", err)
	}
	if r := events.of(EventRefunded); len(r) != 2 {
		t.Errorf("refunded events %+v", r)
	}
}

// TestRefusedRowIsolated: a channel whose voucher the facilitator refuses
// (signed by another key than its payer's, which the claimer cannot check
// itself for a payer with no payer authorizer) does not keep the others
// from being claimed in the same round: the refused claim is split until
// the channel is alone, and reported.
func TestRefusedRowIsolated(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	var good []*channel
	for i := range 4 {
		good = append(good, e.openAs(5+i, 1, 1_000, int64(10*(i+1)), common.Address{}))
	}
	bad := e.openAs(9, 1, 1_000, 0, common.Address{})
	bad.serveSigned(500, newKey(t))
	events := newEventLog()
	s := &counter{Settler: e.svc}
	cfg := e.config(s, events)
	cfg.Interval = time.Hour
	c := e.claimer(cfg)
	res, err := c.Round(e.ctx())
	if err != nil || res.Channels != 4 || res.Failed != 1 {
		t.Fatalf("round: %+v, %v; want the 4 good channels claimed and 1 failure", res, err)
	}
	if got := e.balance(e.receiver); got.Int64() != 100 {
		t.Errorf("the receiver holds %v, want the 100 the good channels were charged", got)
	}
	failed := events.of(EventFailed)
	if len(failed) != 1 || len(failed[0].Channels) != 1 || failed[0].Channels[0].ID != bad.id || failed[0].Tx != (common.Hash{}) {
		t.Errorf("failed events %+v; want the bad channel alone, with no transaction", failed)
	}
	if got, _, _ := e.channels().Get(bad.id); got.Claims != 0 || got.Unclaimed().Int64() != 500 {
		t.Errorf("the refused channel in the store: %+v", got)
	}
	t.Logf("%d claim transactions for %d good channels", len(s.sent()), len(good))
}

// TestClaimGas logs the gas of a claim and sweep of 1 and of 10 channels,
// and what each channel past the first adds.
func TestClaimGas(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	s := &counter{Settler: e.svc}
	cfg := e.config(s, newEventLog())
	cfg.Threshold = big.NewInt(1)
	c := e.claimer(cfg)
	gas := map[int]uint64{}
	for i, n := range []int{1, 10} {
		for j := range n {
			e.open(5+j%5, byte(10*i+j), 1_000, 100)
		}
		res, err := c.Round(e.ctx())
		if err != nil || res.Channels != n || res.Claims != 1 {
			t.Fatalf("round of %d channels: %+v, %v", n, res, err)
		}
		sent := s.sent()
		r, err := e.eth.TransactionReceipt(e.ctx(), sent[len(sent)-1])
		if err != nil {
			t.Fatal(err)
		}
		gas[n] = r.GasUsed
	}
	t.Logf("claim and sweep: 1 channel %d gas, 10 channels %d gas (%d a channel); each channel past the first adds %d",
		gas[1], gas[10], gas[10]/10, (gas[10]-gas[1])/9)
}

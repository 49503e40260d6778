package claimer

import (
	"context"
	"errors"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// dying is a Settler of a claimer that dies around a settle: with sent
// set, after the facilitator settled it (the transaction mined, its
// answer lost with the process); without, before it was sent. It counts
// the transactions the facilitator mined for it.
type dying struct {
	Settler
	sent bool
	mu   sync.Mutex
	txs  []common.Hash
}

var errDied = errors.New("the claimer died")

func (d *dying) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	if !d.sent {
		return nil, errDied
	}
	resp, err := d.Settler.Settle(ctx, req)
	if err == nil && resp.TransactionHash != "" {
		d.mu.Lock()
		d.txs = append(d.txs, common.HexToHash(resp.TransactionHash))
		d.mu.Unlock()
	}
	return nil, errDied
}

// TestClaimJournal: a claim whose claimer died before its outcome was
// recorded and told (before the facilitator got it, or after it mined
// it), or whose events were not kept, is resolved by the next round, of a
// new claimer over the same store: the claim is mined once, counted once
// in each channel, and its claimed event carries its transaction; the
// journal ends empty.
func TestClaimJournal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// sent: the first claimer dies after the facilitator mined its
		// claim; died: it dies at all (else its events are refused once).
		sent, died bool
	}{
		{name: "died before sending", died: true},
		{name: "died after mining", died: true, sent: true},
		{name: "events not kept"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envOptions{})
			chans := []*channel{e.open(5, 1, 10_000, 300), e.open(6, 1, 10_000, 1_250)}
			settler := e.d.Accounts[1].Address
			nonce0, err := e.eth.NonceAt(e.ctx(), settler, nil)
			if err != nil {
				t.Fatal(err)
			}
			first, second := newEventLog(), newEventLog()
			var d *dying
			cfg := e.config(e.svc, first)
			cfg.Interval = 0
			if tc.died {
				d = &dying{Settler: e.svc, sent: tc.sent}
				cfg.Settler = d
			} else {
				first.refuse = 1 // the claimed event
				second = first
			}
			for _, ch := range chans {
				ch.serve(50)
			}
			// A withdrawal makes both due now, whatever the strategies.
			c1 := e.claimer(cfg)
			c1.retry[chans[0].id], c1.retry[chans[1].id] = true, true
			if _, err := c1.Round(e.ctx()); err != nil {
				t.Fatal(err)
			}
			if n := len(first.of(EventClaimed)); n != 0 {
				t.Fatalf("%d claimed events told before the claim was resolved", n)
			}
			if got := e.journaled(); got != 1 {
				t.Fatalf("%d journal entries after the first round, want 1", got)
			}
			c2 := c1
			if tc.died {
				c2 = e.claimer(e.config(e.svc, second)) // a new process: no memory of the claim
			}
			if _, err := c2.Round(e.ctx()); err != nil {
				t.Fatal(err)
			}
			claimed := second.of(EventClaimed)
			if len(claimed) != 1 || claimed[0].Amount.Int64() != 350+1_300 || len(claimed[0].Channels) != 2 {
				t.Fatalf("claimed events %+v, want one of 1650 over 2 channels", claimed)
			}
			nonce1, err := e.eth.NonceAt(e.ctx(), settler, nil)
			if err != nil {
				t.Fatal(err)
			}
			if nonce1 != nonce0+1 {
				t.Errorf("the settler sent %d transactions, want the one claim", nonce1-nonce0)
			}
			if d != nil && tc.sent && (len(d.txs) != 1 || d.txs[0] != claimed[0].Tx) {
				t.Errorf("the claimed event's tx %s, the one mined before the claimer died %v", claimed[0].Tx, d.txs)
			}
			if got := e.balance(e.receiver); got.Int64() != 1_650 {
				t.Errorf("the receiver holds %v, want 1650", got)
			}
			for _, ch := range chans {
				got, _, err := e.channels().Get(ch.id)
				if err != nil || got.Claims != 1 || got.Swept.Int64() != ch.charged || got.ClaimTx != claimed[0].Tx || got.Unclaimed().Sign() != 0 {
					t.Errorf("channel %s in the store: %+v, %v; want one claim of %d", ch.id, got, err, ch.charged)
				}
			}
			if got := e.journaled(); got != 0 {
				t.Errorf("%d journal entries left", got)
			}
			// Nothing is left to claim or tell.
			if res, err := c2.Round(e.ctx()); err != nil || res.Claims != 0 || len(second.of(EventClaimed)) != 1 {
				t.Errorf("a round after: %+v, %v; %d claimed events", res, err, len(second.of(EventClaimed)))
			}
		})
	}
}

// TestRefundJournal: an operator's refund whose claimer died after the
// facilitator mined it is resolved by the next round of a new claimer,
// while the refund's hold of the channel lasts: recorded once, told with
// its transaction, the hold let go; the payer got back exactly the
// refund.
func TestRefundJournal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ch := e.open(5, 1, 1_000, 300)
	payerBefore := e.balance(ch.payer.Address)
	d := &dying{Settler: e.svc, sent: true}
	c1 := e.claimer(e.config(d, newEventLog()))
	if _, err := c1.Refund(e.ctx(), ch.id, nil); !errors.Is(err, errDied) {
		t.Fatalf("the refund of a dying claimer: %v", err)
	}
	got, _, err := e.channels().Get(ch.id)
	if err != nil || got.Hold == nil || got.Hold.Owner != refundHold {
		t.Fatalf("the channel after the refund's claimer died: %+v, %v; want it held by the refund", got, err)
	}
	events := newEventLog()
	c2 := e.claimer(e.config(e.svc, events))
	if _, err := c2.Round(e.ctx()); err != nil {
		t.Fatal(err)
	}
	refunded := events.of(EventRefunded)
	if len(refunded) != 1 || refunded[0].Amount.Int64() != 700 || len(d.txs) != 1 || refunded[0].Tx != d.txs[0] {
		t.Fatalf("refunded events %+v, the mined refund %v", refunded, d.txs)
	}
	if cl := events.of(EventClaimed); len(cl) != 1 || cl[0].Amount.Int64() != 300 || cl[0].Tx != d.txs[0] {
		t.Errorf("claimed events %+v", cl)
	}
	if got := new(big.Int).Sub(e.balance(ch.payer.Address), payerBefore); got.Int64() != 700 {
		t.Errorf("the payer got %v back, want 700", got)
	}
	got, _, err = e.channels().Get(ch.id)
	if err != nil || got.Hold != nil || got.Claims != 1 || got.Swept.Int64() != 300 || got.RefundNonce.Int64() != 1 {
		t.Errorf("the channel in the store: %+v, %v", got, err)
	}
	if n := e.journaled(); n != 0 {
		t.Errorf("%d journal entries left", n)
	}
}

// TestRefundJournalHoldEnded: a refund whose claimer died before the
// facilitator got it, found after the refund's hold ended (the channel
// may have served requests since), is not sent: it is told as failed,
// and nothing moves.
func TestRefundJournalHoldEnded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ch := e.open(5, 1, 1_000, 300)
	c1 := e.claimer(e.config(&dying{Settler: e.svc}, newEventLog()))
	if _, err := c1.Refund(e.ctx(), ch.id, nil); !errors.Is(err, errDied) {
		t.Fatalf("the refund of a dying claimer: %v", err)
	}
	e.clock.Move(2 * DefaultTimeout) // past the hold's lease
	ch.serve(100)                    // a request served since
	events := newEventLog()
	cfg := e.config(e.svc, events)
	c2 := e.claimer(cfg)
	if _, err := c2.Round(e.ctx()); err != nil {
		t.Fatal(err)
	}
	if r := events.of(EventRefunded); len(r) != 0 {
		t.Fatalf("refunded events %+v", r)
	}
	failed := events.of(EventFailed)
	if len(failed) != 1 || failed[0].Amount.Int64() != 700 {
		t.Fatalf("failed events %+v, want the interrupted refund of 700", failed)
	}
	if balance, _ := e.onChain(ch.id); balance.Int64() != 1_000 {
		t.Errorf("the channel holds %v, want the 1000 deposited", balance)
	}
	if n := e.journaled(); n != 0 {
		t.Errorf("%d journal entries left", n)
	}
}

// journaled counts the claimer's journal entries.
func (e *env) journaled() int {
	e.t.Helper()
	kv, err := e.st.Bucket(JournalBucket)
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	if err := kv.ForEach(func(_, _ []byte) error { n++; return nil }); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// TestOperatorRefundWaitsForCommit: a refund asked while a served
// request's charge waits for its commit (the server commits it with the
// channel's next request, or alone within its commit delay) waits for
// the commit, then refunds what is left after it.
func TestOperatorRefundWaitsForCommit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ch := e.open(5, 1, 1_000, 300)
	cs := e.channels()
	max := big.NewInt(400)
	sig, err := batchsettle.Sign(e.dom.VoucherDigest(ch.id, max), ch.payer.Key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.Begin(ch.id, store.Voucher{Max: max, Signature: sig}, big.NewInt(100), "request", e.clock.Now(), time.Minute); err != nil {
		t.Fatal(err)
	}
	committed := make(chan error, 1)
	go func() {
		time.Sleep(100 * time.Millisecond) // the server's commit delay
		_, err := cs.Commit(ch.id, "request", big.NewInt(100), e.clock.Now())
		committed <- err
	}()
	c := e.claimer(e.config(e.svc, newEventLog()))
	got, err := c.Refund(e.ctx(), ch.id, nil)
	if err != nil || got.Amount.Int64() != 600 || got.Claimed.Int64() != 400 {
		t.Fatalf("a refund while a charge waits for its commit: %+v, %v; want 600 back, 400 claimed", got, err)
	}
	if err := <-committed; err != nil {
		t.Fatal(err)
	}
}

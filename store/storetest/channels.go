package storetest

import (
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
)

// runChannels checks a server's batch-settlement channels (store.Channels)
// on the backend's key-value spaces: the requests of a channel are
// serialized under concurrency across handles; a charge is committed only
// by the request that holds the channel, after serving, and at most its
// price; a voucher must be the charged total plus the price and within the
// deposit; an expired hold gives way and its voucher is kept; the chain's
// state is mirrored; and channels survive a reopen.
func runChannels(t *testing.T, b Backend) {
	open := func(t *testing.T, s store.Backend) *store.Channels {
		t.Helper()
		return store.NewChannels(bucket(t, s, store.ChannelBucket))
	}
	id := common.Hash{0xc1}
	funded := store.ChannelSnapshot{Balance: big.NewInt(1000), TotalClaimed: big.NewInt(0), RefundNonce: big.NewInt(0)}
	v := func(max int64) store.Voucher {
		return store.Voucher{Max: big.NewInt(max), Signature: []byte{byte(max)}}
	}
	price := big.NewInt(100)

	t.Run("channels serve one request at a time across handles", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []*store.Channels{open(t, s)}
		if b.Second != nil {
			handles = append(handles, open(t, b.Second(t, s)))
		}
		if _, err := handles[0].Sync(id, funded, t0); err != nil {
			t.Fatal(err)
		}
		var held, busy atomic.Int64
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := handles[i%len(handles)].Begin(id, v(100), price, fmt.Sprint("req", i), t0, time.Minute)
				switch {
				case err == nil:
					held.Add(1)
				case errors.Is(err, store.ErrChannelBusy):
					busy.Add(1)
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if held.Load() != 1 || busy.Load() != 19 {
			t.Fatalf("%d requests held the channel and %d were refused as busy; want 1 and 19", held.Load(), busy.Load())
		}
	})

	t.Run("a charge is committed only after serving", func(t *testing.T) {
		t.Parallel()
		cs := open(t, b.Open(t))
		if _, err := cs.Begin(id, v(100), price, "a", t0, time.Minute); !errors.Is(err, store.ErrNoChannel) {
			t.Fatalf("began a channel with no record: %v", err)
		}
		must(t, err2(cs.Sync(id, funded, t0)))
		c, err := cs.Begin(id, v(100), price, "a", t0, time.Minute)
		if err != nil || c.Charged.Sign() != 0 || !c.Held(t0) {
			t.Fatalf("begun %+v, %v", c, err)
		}
		// Not served: nothing charged, and the same voucher pays again.
		if c, err = cs.Abort(id, "a"); err != nil || c.Charged.Sign() != 0 || c.Hold != nil {
			t.Fatalf("aborted %+v, %v", c, err)
		}
		must(t, err2(cs.Begin(id, v(100), price, "b", t0, time.Minute)))
		if _, err := cs.Commit(id, "a", big.NewInt(10), t0); !errors.Is(err, store.ErrNotHeld) {
			t.Fatalf("a request that does not hold the channel committed: %v", err)
		}
		if _, err := cs.Commit(id, "b", big.NewInt(101), t0); !errors.Is(err, store.ErrOverPrice) {
			t.Fatalf("a charge above the price committed: %v", err)
		}
		c, err = cs.Commit(id, "b", big.NewInt(60), t0.Add(time.Second))
		if err != nil || c.Charged.Int64() != 60 || c.Voucher == nil || c.Voucher.Max.Int64() != 100 || c.Hold != nil {
			t.Fatalf("committed %+v, %v", c, err)
		}
		// The next voucher must be the charged total plus the price.
		for _, max := range []int64{100, 200, 159} {
			if c, err := cs.Begin(id, v(max), price, "c", t0, time.Minute); !errors.Is(err, store.ErrCumulativeMismatch) || c.Charged.Int64() != 60 {
				t.Fatalf("a voucher of %d: %v, with the channel %+v for the corrective 402", max, err, c)
			}
		}
		must(t, err2(cs.Begin(id, v(160), price, "c", t0, time.Minute)))
	})

	t.Run("an early hold decides as Begin and is durable once waited for", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		cs := open(t, s)
		if _, durable, err := cs.BeginEarly(id, v(100), price, "a", t0, time.Minute); !errors.Is(err, store.ErrNoChannel) || durable != nil {
			t.Fatalf("began a channel with no record early: %v", err)
		}
		must(t, err2(cs.Sync(id, funded, t0)))
		c, durable, err := cs.BeginEarly(id, v(100), price, "a", t0, time.Minute)
		if err != nil || durable == nil || c.Hold == nil || c.Hold.Owner != "a" || c.Charged.Sign() != 0 {
			t.Fatalf("begun early %+v, %v", c, err)
		}
		// Another request of the channel, on this handle or another, sees
		// the hold once it is decided, written or not.
		other := cs
		if b.Second != nil {
			other = open(t, b.Second(t, s))
		}
		if _, d, err := other.BeginEarly(id, v(100), price, "b", t0, time.Minute); !errors.Is(err, store.ErrChannelBusy) || d != nil {
			t.Fatalf("a second request of a held channel: %v", err)
		}
		if err := durable(); err != nil {
			t.Fatalf("the hold was not written: %v", err)
		}
		got, ok, err := other.Get(id)
		if err != nil || !ok || got.Hold == nil || got.Hold.Owner != "a" || got.Hold.Voucher.Max.Int64() != 100 {
			t.Fatalf("the written hold is %+v (%v, %v)", got.Hold, ok, err)
		}
		must(t, err2(cs.Commit(id, "a", price, t0)))
		// Refusals come with no write to wait for, and the channel for
		// the corrective 402.
		if c, d, err := cs.BeginEarly(id, v(100), price, "c", t0, time.Minute); !errors.Is(err, store.ErrCumulativeMismatch) || d != nil || c.Charged.Int64() != 100 {
			t.Fatalf("a replayed voucher began early: %+v, %v", c, err)
		}
		if _, d, err := cs.BeginEarly(id, v(1100), big.NewInt(1000), "c", t0, time.Minute); !errors.Is(err, store.ErrOverDeposit) || d != nil {
			t.Fatalf("a voucher above the deposit began early: %v", err)
		}
	})

	t.Run("the next hold commits the last served request in the same write", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		cs := open(t, s)
		must(t, err2(cs.Sync(id, funded, t0)))
		must(t, err2(cs.Begin(id, v(100), price, "a", t0, time.Minute)))
		// "a" was served and charged 40 (metered); its commit rides on the
		// next hold, whose voucher builds on the 40.
		prior := &store.PriorCommit{Owner: "a", Charge: big.NewInt(40), At: t0.Add(time.Second)}
		// A refusal writes neither.
		if c, d, err := cs.BeginEarlyAfter(prior, id, v(200), price, "b", t0, time.Minute); !errors.Is(err, store.ErrCumulativeMismatch) || d != nil || c.Charged.Int64() != 40 {
			t.Fatalf("a mismatched voucher after a prior commit: %+v, %v", c, err)
		}
		if got, _, err := cs.Get(id); err != nil || got.Hold == nil || got.Hold.Owner != "a" || got.Charged.Sign() != 0 {
			t.Fatalf("a refusal wrote the prior commit: %+v, %v", got, err)
		}
		c, durable, err := cs.BeginEarlyAfter(prior, id, v(140), price, "b", t0.Add(2*time.Second), time.Minute)
		if err != nil || durable == nil {
			t.Fatalf("the next hold after a prior commit: %v", err)
		}
		must(t, durable())
		other := cs
		if b.Second != nil {
			other = open(t, b.Second(t, s))
		}
		got, _, err := other.Get(id)
		if err != nil || got.Charged.Int64() != 40 || got.Voucher == nil || got.Voucher.Max.Int64() != 100 || got.Hold == nil || got.Hold.Owner != "b" || c.Charged.Int64() != 40 {
			t.Fatalf("after the next hold: %+v, %v", got, err)
		}
		// A prior whose hold another request took over is skipped.
		c, durable, err = cs.BeginEarlyAfter(&store.PriorCommit{Owner: "a", Charge: price, At: t0}, id, v(240), price, "c", t0.Add(3*time.Second), time.Minute)
		if err != nil || durable == nil || c.Charged.Int64() != 140 || c.Hold.Owner != "c" {
			t.Fatalf("a stale prior: %+v, %v (the live hold b builds on, charged 140)", c, err)
		}
		must(t, durable())
	})

	t.Run("nothing is served past the deposit", func(t *testing.T) {
		t.Parallel()
		cs := open(t, b.Open(t))
		must(t, err2(cs.Sync(id, store.ChannelSnapshot{Balance: big.NewInt(150), TotalClaimed: big.NewInt(0), RefundNonce: big.NewInt(0)}, t0)))
		must(t, err2(cs.Begin(id, v(100), price, "a", t0, time.Minute)))
		must(t, err2(cs.Commit(id, "a", price, t0)))
		if _, err := cs.Begin(id, v(200), price, "b", t0, time.Minute); !errors.Is(err, store.ErrOverDeposit) {
			t.Fatalf("a voucher of 200 on a deposit of 150: %v", err)
		}
		// A top-up seen on chain lets it through.
		must(t, err2(cs.Sync(id, store.ChannelSnapshot{Balance: big.NewInt(1150), TotalClaimed: big.NewInt(0), RefundNonce: big.NewInt(0)}, t0)))
		must(t, err2(cs.Begin(id, v(200), price, "b", t0, time.Minute)))
	})

	t.Run("an expired hold gives way and its voucher is kept", func(t *testing.T) {
		t.Parallel()
		cs := open(t, b.Open(t))
		must(t, err2(cs.Sync(id, funded, t0)))
		must(t, err2(cs.Begin(id, v(100), price, "dead", t0, time.Minute)))
		if _, err := cs.Begin(id, v(100), price, "b", t0.Add(30*time.Second), time.Minute); !errors.Is(err, store.ErrChannelBusy) {
			t.Fatalf("a live hold gave way: %v", err)
		}
		c, err := cs.Begin(id, v(100), price, "b", t0.Add(2*time.Minute), time.Minute)
		if err != nil || c.Uncommitted == nil || c.Uncommitted.Max.Int64() != 100 || c.Hold.Owner != "b" {
			t.Fatalf("took over %+v, %v", c, err)
		}
		if _, err := cs.Commit(id, "dead", price, t0.Add(3*time.Minute)); !errors.Is(err, store.ErrNotHeld) {
			t.Fatalf("the dead request committed after it lost the channel: %v", err)
		}
		if c, err = cs.Commit(id, "b", price, t0.Add(2*time.Minute)); err != nil || c.Uncommitted != nil || c.Charged.Int64() != 100 {
			t.Fatalf("committed %+v, %v", c, err)
		}
	})

	t.Run("a hold whose charge the payer builds on is charged and gives way", func(t *testing.T) {
		t.Parallel()
		cs := open(t, b.Open(t))
		cfg := &store.ChannelConfig{Payer: common.Address{1}, Receiver: common.Address{2}, Token: common.Address{3}, WithdrawDelay: 900, Salt: common.Hash{4}}
		withCfg := funded
		withCfg.Config = cfg
		must(t, err2(cs.Sync(id, withCfg, t0)))
		must(t, err2(cs.Begin(id, v(100), price, "dead", t0, time.Minute)))
		// The process died after serving: the payer read its charge (100)
		// in the response and pays the next request at 200, before the
		// hold expired too.
		c, err := cs.Begin(id, v(200), price, "b", t0.Add(time.Second), time.Minute)
		if err != nil || c.Charged.Int64() != 100 || c.Voucher == nil || c.Voucher.Max.Int64() != 100 || c.Uncommitted != nil {
			t.Fatalf("took over %+v, %v", c, err)
		}
		if _, err := cs.Commit(id, "dead", price, t0.Add(time.Second)); !errors.Is(err, store.ErrNotHeld) {
			t.Fatalf("the request that lost the hold committed: %v", err)
		}
		if c, err = cs.Commit(id, "b", price, t0.Add(2*time.Second)); err != nil || c.Charged.Int64() != 200 {
			t.Fatalf("committed %+v, %v", c, err)
		}
		// The configuration is kept from the first payment that named it.
		other := *cfg
		other.Salt = common.Hash{5}
		withCfg.Config = &other
		if c, err = cs.Sync(id, withCfg, t0); err != nil || c.Config == nil || *c.Config != *cfg {
			t.Fatalf("config %+v, %v", c.Config, err)
		}
	})

	t.Run("a live metered hold gives way only to its commit", func(t *testing.T) {
		t.Parallel()
		cs := open(t, b.Open(t))
		metered := cs.Metered()
		must(t, err2(cs.Sync(id, funded, t0)))
		must(t, err2(metered.Begin(id, v(100), price, "a", t0, time.Minute)))
		// A voucher on the full price (a client that missed the charge)
		// does not take over a live metered hold: its charge may be less.
		if _, err := metered.Begin(id, v(200), price, "b", t0.Add(time.Second), time.Minute); !errors.Is(err, store.ErrChannelBusy) {
			t.Fatalf("a voucher built on a live metered hold's price: %v", err)
		}
		c, err := cs.Commit(id, "a", big.NewInt(30), t0.Add(time.Second))
		if err != nil || c.Charged.Int64() != 30 {
			t.Fatalf("committed %+v, %v", c, err)
		}
		// Once committed, the full-price voucher is the corrective 402's.
		if c, err := metered.Begin(id, v(200), price, "b", t0.Add(2*time.Second), time.Minute); !errors.Is(err, store.ErrCumulativeMismatch) || c.Charged.Int64() != 30 {
			t.Fatalf("a full-price voucher after a charge of 30: %+v, %v", c, err)
		}
		// An expired metered hold (its process died) is charged its price
		// when the payer's voucher builds on it, as any other.
		must(t, err2(metered.Begin(id, v(130), price, "dead", t0.Add(3*time.Second), time.Minute)))
		if c, err := metered.Begin(id, v(230), price, "c", t0.Add(2*time.Minute), time.Minute); err != nil || c.Charged.Int64() != 130 {
			t.Fatalf("a voucher built on an expired metered hold: %+v, %v", c, err)
		}
	})

	t.Run("the chain's state is mirrored and claims catch up", func(t *testing.T) {
		t.Parallel()
		cs := open(t, b.Open(t))
		must(t, err2(cs.Sync(id, funded, t0)))
		must(t, err2(cs.Begin(id, v(100), price, "a", t0, time.Minute)))
		must(t, err2(cs.Commit(id, "a", price, t0)))
		c, err := cs.Sync(id, store.ChannelSnapshot{Balance: big.NewInt(1000), TotalClaimed: big.NewInt(100), WithdrawRequestedAt: 1_800_000_060, RefundNonce: big.NewInt(2)}, t0.Add(time.Minute))
		if err != nil || c.Charged.Int64() != 100 || c.Unclaimed().Sign() != 0 || c.WithdrawRequestedAt != 1_800_000_060 || c.RefundNonce.Int64() != 2 {
			t.Fatalf("synced %+v, %v", c, err)
		}
		// A channel whose records were lost starts from what was claimed.
		other := common.Hash{0xc2}
		if c, err = cs.Sync(other, store.ChannelSnapshot{Balance: big.NewInt(500), TotalClaimed: big.NewInt(300), RefundNonce: big.NewInt(0)}, t0); err != nil || c.Charged.Int64() != 300 {
			t.Fatalf("a channel new to the server: %+v, %v", c, err)
		}
		n := 0
		must(t, cs.Each(func(store.Channel) error { n++; return nil }))
		must(t, cs.Delete(other))
		if _, ok, err := cs.Get(other); ok || err != nil || n != 2 {
			t.Fatalf("listed %d channels; after a delete: %v, %v", n, ok, err)
		}
	})

	t.Run("a mined claim is mirrored and counted", func(t *testing.T) {
		t.Parallel()
		cs := open(t, b.Open(t))
		tx1, tx2 := common.Hash{0xc1}, common.Hash{0xc2}
		if _, err := cs.Claimed(id, tx1, funded, big.NewInt(1), t0); !errors.Is(err, store.ErrNoChannel) {
			t.Fatalf("a claim of a channel with no record: %v", err)
		}
		must(t, err2(cs.Sync(id, funded, t0)))
		must(t, err2(cs.Begin(id, v(100), price, "a", t0, time.Minute)))
		must(t, err2(cs.Commit(id, "a", price, t0)))
		after := store.ChannelSnapshot{Balance: big.NewInt(1000), TotalClaimed: big.NewInt(100), RefundNonce: big.NewInt(0)}
		c, err := cs.Claimed(id, tx1, after, big.NewInt(100), t0.Add(time.Minute))
		if err != nil || c.Swept.Int64() != 100 || c.Claims != 1 || !c.ClaimedAt.Equal(t0.Add(time.Minute)) || c.Unclaimed().Sign() != 0 || c.TotalClaimed.Int64() != 100 || c.ClaimTx != tx1 {
			t.Fatalf("after a claim %+v, %v", c, err)
		}
		// The same claim recorded again (its claimer died after recording
		// it and resolved it anew) is counted once.
		c, err = cs.Claimed(id, tx1, after, big.NewInt(100), t0.Add(90*time.Second))
		if err != nil || c.Swept.Int64() != 100 || c.Claims != 1 || !c.ClaimedAt.Equal(t0.Add(time.Minute)) {
			t.Fatalf("the same claim recorded twice: %+v, %v", c, err)
		}
		after.TotalClaimed = big.NewInt(150)
		c, err = cs.Claimed(id, tx2, after, big.NewInt(50), t0.Add(2*time.Minute))
		if err != nil || c.Swept.Int64() != 150 || c.Claims != 2 || c.Charged.Int64() != 150 {
			t.Fatalf("after a second claim %+v, %v", c, err)
		}
		if got, _, err := cs.Get(id); err != nil || got.Swept.Int64() != 150 || got.Claims != 2 {
			t.Fatalf("read back %+v, %v", got, err)
		}
	})

	if b.Reopen != nil {
		t.Run("channels survive a reopen", func(t *testing.T) {
			t.Parallel()
			s := b.Open(t)
			cs := open(t, s)
			must(t, err2(cs.Sync(id, funded, t0)))
			must(t, err2(cs.Begin(id, v(100), price, "a", t0, time.Minute)))
			must(t, err2(cs.Commit(id, "a", big.NewInt(70), t0)))
			must(t, err2(cs.Begin(id, v(170), price, "b", t0, time.Minute)))
			c, ok, err := open(t, b.Reopen(t, s)).Get(id)
			if err != nil || !ok || c.Charged.Int64() != 70 || c.Voucher.Max.Int64() != 100 || c.Hold == nil || c.Hold.Owner != "b" {
				t.Fatalf("after a reopen %+v, %v, %v", c, ok, err)
			}
		})
	}
}

// err2 is the error of a two-value call, for must.
func err2[T any](_ T, err error) error { return err }

// Package storetest is the conformance suite of stores: every
// store.Backend must pass Run. It checks what the money rules rest on: a
// replay key is claimed once under concurrency, records move only along the
// state machine, a payment is finished once and consumed by one owner,
// records survive a reopen, and a key-value space's Update is atomic (the
// paymaster's and the transaction API's counters rest on it). It also
// checks the operator's listing and summaries (store.Reporter): order,
// pages and cursors, filters, windows, bounds and totals on a known data
// set, which a bbolt file and a PostgreSQL database must answer alike;
// the bound on a response lost to a crash (a dead consumer gives way once,
// within the payment's validity window); and the retention of final records (store.FinalPruner): what is pruned and
// what is never, the limit, and prunes beside claims and other prunes.
package storetest

import (
	"errors"
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Backend opens the store under test. Open returns a fresh, empty store
// for one test, closed when the test ends; Reopen closes s and opens the
// same data again (a restart), and may be nil for a backend that cannot.
// Second, if set, opens another handle on s's data that is open at the
// same time (a second replica of a fleet), so the suite checks claims and
// updates across handles too.
type Backend struct {
	Open   func(t *testing.T) store.Backend
	Reopen func(t *testing.T, s store.Backend) store.Backend
	Second func(t *testing.T, s store.Backend) store.Backend
}

func record(key byte) store.Record {
	now := time.Unix(1_800_000_000, 0).UTC()
	return store.Record{
		Key: common.Hash{key}, PayloadHash: common.Hash{0xee, key}, State: store.StateClaimed,
		Scheme: x402.SchemeExact, Network: "eip155:31337",
		Payer: common.Address{1}, PayTo: common.Address{2}, Asset: common.Address{3}, Amount: big.NewInt(10_000),
		Created: now, Updated: now,
	}
}

func submitted(r store.Record, tx byte) store.Record {
	r.State, r.TxHash, r.RawTx = store.StateSubmitted, common.Hash{tx}, []byte{tx}
	return r
}

func settled(r store.Record) store.Record {
	r.State = store.StateSettled
	r.Response = &x402.SettleResponse{X402Version: 2, Success: true, Network: r.Network, TransactionHash: r.TxHash.Hex()}
	return r
}

// Run runs the suite against b.
func Run(t *testing.T, b Backend) {
	runKV(t, b)
	runPaymentIDs(t, b)
	runAccessWindows(t, b)
	runChannels(t, b)
	runLeases(t, b)
	runReport(t, b)
	runPrune(t, b)
	runOutbox(t, b)
	t.Run("claims are exclusive under concurrency", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []store.Backend{s}
		if b.Second != nil {
			handles = append(handles, b.Second(t, s))
		}
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			winners int
		)
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := record(7)
				r.PayloadHash = common.Hash{byte(i)}
				got, ok, err := handles[i%len(handles)].Claim(r)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if ok {
					winners++
				} else if got == nil || got.Key != r.Key {
					t.Errorf("a lost claim returned %+v", got)
				}
			}()
		}
		wg.Wait()
		if winners != 1 {
			t.Fatalf("%d claims of one key won, want 1", winners)
		}
	})

	t.Run("the state machine", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		illegal := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, store.ErrTransition) {
				t.Errorf("%s: %v, want ErrTransition", what, err)
			}
		}
		r := record(1)
		mustClaim(t, s, r)
		f := settled(submitted(r, 1))
		illegal("claimed → settled", s.Finish(&f))
		sub := submitted(r, 1)
		must(t, s.Submit(&sub))
		again := submitted(r, 2)
		must(t, s.Submit(&again)) // signed again after its nonce was taken
		if ok, err := s.Resubmit(r.Key, common.Hash{1}, common.Hash{3}, []byte{3}); err != nil || ok {
			t.Errorf("resubmit of a transaction the record no longer holds: %v %v", ok, err)
		}
		if ok, err := s.Resubmit(r.Key, common.Hash{2}, common.Hash{3}, []byte{3}); err != nil || !ok {
			t.Errorf("resubmit: %v %v", ok, err)
		}
		if got := get(t, s, r.Key); got.TxHash != (common.Hash{3}) || string(got.RawTx) != "\x03" {
			t.Errorf("after resubmit: %+v", got)
		}
		fin := settled(submitted(r, 3))
		must(t, s.Finish(&fin))
		illegal("settled → submitted", s.Submit(&sub))
		illegal("settled → released", s.Release(r.Key))
		if ok, _ := s.Resubmit(r.Key, common.Hash{3}, common.Hash{4}, nil); ok {
			t.Error("resubmitted a final record")
		}
		if got := get(t, s, r.Key); got.State != store.StateSettled || got.Response == nil || !got.Response.Success {
			t.Errorf("the final record: %+v", got)
		}

		c := record(2)
		mustClaim(t, s, c)
		must(t, s.Release(c.Key))
		if got := get(t, s, c.Key); got != nil {
			t.Errorf("a released claim stays: %+v", got)
		}
		must(t, s.Release(c.Key)) // releasing nothing is fine
		d := record(3)
		mustClaim(t, s, d)
		ds := submitted(d, 9)
		must(t, s.Submit(&ds))
		must(t, s.Release(d.Key))
		n := submitted(record(4), 1)
		illegal("submit without a claim", s.Submit(&n))
	})

	t.Run("one finish and one consumer per payment", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		r := record(5)
		mustClaim(t, s, r)
		sub := submitted(r, 5)
		must(t, s.Submit(&sub))
		var (
			wg                  sync.WaitGroup
			mu                  sync.Mutex
			finished, consumers int
		)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f := settled(sub)
				err := s.Finish(&f)
				if err != nil && !errors.Is(err, store.ErrTransition) {
					t.Error(err)
				}
				_, ok, cerr := s.Consume(r.Key, fmt.Sprint("owner-", i))
				if cerr != nil {
					t.Error(cerr)
				}
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					finished++
				}
				if ok {
					consumers++
				}
			}()
		}
		wg.Wait()
		if finished != 1 || consumers != 1 {
			t.Fatalf("%d finishes and %d consumers of one payment, want 1 and 1", finished, consumers)
		}
		got := get(t, s, r.Key)
		if _, ok, _ := s.Consume(r.Key, got.Consumer); !ok {
			t.Error("the consumer's retry is refused")
		}
		p := record(6)
		mustClaim(t, s, p)
		if _, ok, _ := s.Consume(p.Key, "owner"); ok {
			t.Error("consumed a record that is not settled")
		}
	})

	t.Run("a stale claim is reclaimed once", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []store.Backend{s}
		if b.Second != nil {
			handles = append(handles, b.Second(t, s))
		}
		r := record(30) // claimed at 1_800_000_000
		mustClaim(t, s, r)
		fresh := r
		fresh.Updated = r.Updated.Add(time.Hour)
		if ok, err := s.Reclaim(&fresh, r.Updated); err != nil || ok {
			t.Fatalf("reclaimed a claim that is not stale: %v %v", ok, err)
		}
		other := fresh
		other.PayloadHash = common.Hash{0x99}
		if ok, _ := s.Reclaim(&other, fresh.Updated); ok {
			t.Fatal("reclaimed a claim for another payment")
		}
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			wins int
		)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mine := r
				mine.Updated = r.Updated.Add(time.Duration(i+1) * time.Minute)
				ok, err := handles[i%len(handles)].Reclaim(&mine, r.Updated.Add(time.Second))
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d processes reclaimed one stale claim, want 1", wins)
		}
		sub := submitted(r, 30)
		must(t, s.Submit(&sub))
		late := r
		late.Updated = r.Updated.Add(48 * time.Hour)
		if ok, _ := s.Reclaim(&late, late.Updated); ok {
			t.Fatal("reclaimed a submitted record")
		}
		if ok, err := s.Reclaim(&late, late.Updated); err != nil || ok {
			t.Fatalf("reclaim of a missing or moved record: %v %v", ok, err)
		}
	})

	t.Run("unfinished lists what a restart must reconcile", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		a, c, d := record(10), record(11), record(12)
		c.Reserve = big.NewInt(123_456) // the price and gas paid in the token
		for _, r := range []store.Record{a, c, d} {
			mustClaim(t, s, r)
		}
		cs, ds := submitted(c, 11), submitted(d, 12)
		must(t, s.Submit(&cs))
		must(t, s.Submit(&ds))
		df := settled(ds)
		must(t, s.Finish(&df))
		recs, err := s.Unfinished()
		must(t, err)
		states := map[common.Hash]store.State{}
		for _, r := range recs {
			states[r.Key] = r.State
			if want := map[common.Hash]*big.Int{c.Key: c.Reserve}[r.Key]; (r.Reserve == nil) != (want == nil) || (want != nil && r.Reserve.Cmp(want) != 0) {
				t.Errorf("unfinished %x reserves %v, want %v", r.Key[:1], r.Reserve, want)
			}
		}
		if len(states) != 2 || states[a.Key] != store.StateClaimed || states[c.Key] != store.StateSubmitted {
			t.Fatalf("unfinished: %v", states)
		}
	})

	t.Run("a claim may carry its transaction", func(t *testing.T) {
		// A process alone on its store signs before it claims, and claims
		// with the record submitted: one commit, then the usual finish.
		t.Parallel()
		s := b.Open(t)
		r := submitted(record(13), 13)
		if _, ok, err := s.Claim(r); err != nil || !ok {
			t.Fatalf("claim of a submitted record: %v %v", ok, err)
		}
		if got, ok, err := s.Claim(record(13)); err != nil || ok || got.State != store.StateSubmitted || got.TxHash != r.TxHash {
			t.Fatalf("a second claim: %+v %v %v", got, ok, err)
		}
		recs, err := s.Unfinished()
		must(t, err)
		if len(recs) != 1 || recs[0].Key != r.Key || recs[0].State != store.StateSubmitted {
			t.Fatalf("unfinished: %+v", recs)
		}
		f := settled(r)
		must(t, s.Finish(&f))
	})

	if b.Reopen != nil {
		runHandover(t, b)
		t.Run("a consumer that died before answering gives way", func(t *testing.T) {
			t.Parallel()
			s := b.Open(t)
			r := record(40)
			r.ServeBy = time.Now().Add(time.Hour)
			mustClaim(t, s, r)
			sub := submitted(r, 40)
			must(t, s.Submit(&sub))
			fin := settled(sub)
			must(t, s.Finish(&fin))
			if _, ok, err := s.Consume(r.Key, "a"); err != nil || !ok {
				t.Fatalf("the first consumer: %v %v", ok, err)
			}
			if b.Second != nil {
				if _, ok, err := b.Second(t, s).Consume(r.Key, "b"); err != nil || ok {
					t.Fatalf("another replica took the receipt of a live consumer: %v %v", ok, err)
				}
			}
			s = b.Reopen(t, s) // a's process is gone, its response unwritten
			if _, ok, err := s.Consume(r.Key, "b"); err != nil || !ok {
				t.Fatalf("the payer's retry after its consumer died: %v %v", ok, err)
			}
			must(t, s.Serve(r.Key, "c")) // not the consumer: nothing
			must(t, s.Serve(r.Key, "b"))
			s = b.Reopen(t, s)
			if _, ok, err := s.Consume(r.Key, "c"); err != nil || ok {
				t.Fatalf("a served payment bought a second response: %v %v", ok, err)
			}
			if got, ok, err := s.Consume(r.Key, "b"); err != nil || !ok || !got.Served {
				t.Fatalf("the consumer's own retry: %+v %v %v", got, ok, err)
			}
		})

		t.Run("records survive a reopen", func(t *testing.T) {
			t.Parallel()
			s := b.Open(t)
			p, f := record(20), record(21)
			mustClaim(t, s, p)
			mustClaim(t, s, f)
			ps, fs := submitted(p, 20), submitted(f, 21)
			must(t, s.Submit(&ps))
			must(t, s.Submit(&fs))
			ff := settled(fs)
			must(t, s.Finish(&ff))
			if _, ok, _ := s.Consume(f.Key, "owner"); !ok {
				t.Fatal("consume")
			}
			s = b.Reopen(t, s)
			if got := get(t, s, p.Key); got == nil || got.State != store.StateSubmitted || got.TxHash != (common.Hash{20}) || string(got.RawTx) != "\x14" {
				t.Fatalf("the pending record after a reopen: %+v", got)
			}
			if got := get(t, s, f.Key); got == nil || got.State != store.StateSettled || got.Consumer != "owner" || !got.Response.Success {
				t.Fatalf("the settled record after a reopen: %+v", got)
			}
			if _, ok, _ := s.Claim(record(20)); ok {
				t.Fatal("a reopened store let a held key be claimed again")
			}
		})
	}
}

// runKV checks the key-value spaces.
func runKV(t *testing.T, b Backend) {
	t.Run("buckets keep their entries apart and in key order", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		x, y := bucket(t, s, "conformance_x"), bucket(t, s, "conformance_y")
		if v, err := x.Get([]byte("missing")); err != nil || v != nil {
			t.Fatalf("a missing key: %q %v", v, err)
		}
		for _, k := range []string{"b", "a", "c"} {
			must(t, x.Put([]byte(k), []byte("x"+k)))
		}
		must(t, y.Put([]byte("a"), []byte("ya")))
		must(t, x.Delete([]byte("c")))
		must(t, x.Delete([]byte("never")))
		var got []string
		must(t, x.ForEach(func(k, v []byte) error {
			got = append(got, string(k)+"="+string(v))
			return nil
		}))
		if fmt.Sprint(got) != "[a=xa b=xb]" {
			t.Fatalf("entries of x: %v", got)
		}
		if v, _ := y.Get([]byte("a")); string(v) != "ya" {
			t.Fatalf("y's a: %q", v)
		}
		stop := errors.New("stop")
		n := 0
		if err := x.ForEach(func(k, v []byte) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
			t.Fatalf("ForEach does not stop at fn's error: %v after %d", err, n)
		}
		again := bucket(t, s, "conformance_x")
		if v, _ := again.Get([]byte("b")); string(v) != "xb" {
			t.Fatalf("the bucket opened again lost b: %q", v)
		}
	})

	t.Run("update is atomic under concurrency", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []store.KV{bucket(t, s, "conformance_counter")}
		if b.Second != nil {
			handles = append(handles, bucket(t, b.Second(t, s), "conformance_counter"))
		}
		const writers, limit = 100, 30
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			granted int
		)
		full := errors.New("full")
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := handles[i%len(handles)].Update([]byte("n"), func(old []byte) ([]byte, error) {
					n := 0
					if old != nil {
						fmt.Sscan(string(old), &n)
					}
					if n >= limit {
						return nil, full
					}
					return []byte(fmt.Sprint(n + 1)), nil
				})
				if err != nil && !errors.Is(err, full) {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					granted++
				}
			}()
		}
		wg.Wait()
		v, err := handles[0].Get([]byte("n"))
		must(t, err)
		if granted != limit || string(v) != fmt.Sprint(limit) {
			t.Fatalf("%d of %d updates granted under a limit of %d, counter %q", granted, writers, limit, v)
		}
	})

	t.Run("update that returns nil or fails writes nothing", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		x := bucket(t, s, "conformance_nil")
		must(t, x.Update([]byte("k"), func(old []byte) ([]byte, error) {
			if old != nil {
				t.Errorf("old of a missing key: %q", old)
			}
			return nil, nil
		}))
		if v, _ := x.Get([]byte("k")); v != nil {
			t.Fatalf("a nil update wrote %q", v)
		}
		must(t, x.Put([]byte("k"), []byte("1")))
		boom := errors.New("boom")
		if err := x.Update([]byte("k"), func([]byte) ([]byte, error) { return []byte("2"), boom }); !errors.Is(err, boom) {
			t.Fatalf("a failed update returned %v", err)
		}
		if v, _ := x.Get([]byte("k")); string(v) != "1" {
			t.Fatalf("a failed update left %q", v)
		}
		must(t, x.Update([]byte("k"), func(old []byte) ([]byte, error) {
			old[0] = '9' // a copy: changing it changes nothing stored
			return nil, nil
		}))
		if v, _ := x.Get([]byte("k")); string(v) != "1" {
			t.Fatalf("fn's copy of the value aliased the stored one: %q", v)
		}
	})

	if b.Reopen != nil {
		t.Run("buckets survive a reopen", func(t *testing.T) {
			t.Parallel()
			s := b.Open(t)
			must(t, bucket(t, s, "conformance_durable").Put([]byte("k"), []byte("v")))
			s = b.Reopen(t, s)
			if v, _ := bucket(t, s, "conformance_durable").Get([]byte("k")); string(v) != "v" {
				t.Fatalf("after a reopen: %q", v)
			}
		})
	}
}

func bucket(t *testing.T, s store.Backend, name string) store.KV {
	t.Helper()
	kv, err := s.Bucket(name)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustClaim(t *testing.T, s store.Backend, r store.Record) {
	t.Helper()
	if _, ok, err := s.Claim(r); err != nil || !ok {
		t.Fatalf("claim %s: %v %v", r.Key, ok, err)
	}
}

func get(t *testing.T, s store.Backend, key common.Hash) *store.Record {
	t.Helper()
	r, err := s.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

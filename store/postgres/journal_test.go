package postgres

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/store"
)

// wait bounds how long a test waits for an event before it fails; the
// tests wait on channels, never for a time.
const wait = 15 * time.Second

// settler signs a journal's transactions.
type settler struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	chain *big.Int
}

func newSettler(t *testing.T, chain int64) settler {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return settler{key: key, addr: crypto.PubkeyToAddress(key.PublicKey), chain: big.NewInt(chain)}
}

// tx signs a transfer with nonce and a tip of tip wei, so that versions of
// one nonce differ.
func (s settler) tx(t *testing.T, nonce uint64, tip int64) *types.Transaction {
	t.Helper()
	tx, err := types.SignNewTx(s.key, types.LatestSignerForChainID(s.chain), &types.DynamicFeeTx{
		ChainID: s.chain, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(1e9),
		Gas: 21_000, To: &common.Address{0xaa}, Value: big.NewInt(1),
	})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// sign is a sign function of Append.
func (s settler) sign(t *testing.T) func(uint64) (*types.Transaction, error) {
	return func(nonce uint64) (*types.Transaction, error) { return s.tx(t, nonce, 1), nil }
}

func entries(t *testing.T, s *Store, from common.Address) []store.JournalEntry {
	t.Helper()
	es, err := s.Entries(t.Context(), from, 0)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func nonces(es []store.JournalEntry) []uint64 {
	var out []uint64
	for _, e := range es {
		out = append(out, e.Nonce)
	}
	return out
}

// Replicas appending at once for one settler get distinct nonces, from the
// floor up with no gap.
func TestJournalAppendConcurrent(t *testing.T) {
	t.Parallel()
	hs := handles(t, 3)
	st := newSettler(t, 31337)
	const perHandle, floor = 50, 7
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		got []uint64
	)
	for _, h := range hs {
		for range perHandle {
			wg.Go(func() {
				tx, err := h.Append(t.Context(), st.addr, floor, st.sign(t))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				got = append(got, tx.Nonce())
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	slices.Sort(got)
	var want []uint64
	for n := range uint64(len(hs) * perHandle) {
		want = append(want, floor+n)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("nonces handed out: %v, want %d..%d once each", got, want[0], want[len(want)-1])
	}
	es := entries(t, hs[1], st.addr)
	if !slices.Equal(nonces(es), want) {
		t.Fatalf("journal nonces: %v", nonces(es))
	}
	for _, e := range es {
		if e.Tx.Nonce() != e.Nonce || e.Void || len(e.Previous) != 0 {
			t.Fatalf("entry %d: %+v", e.Nonce, e)
		}
	}
}

func TestJournal(t *testing.T) {
	t.Parallel()
	testURL(t)
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s *Store, st settler)
	}{
		{"a failed sign takes no nonce", func(t *testing.T, s *Store, st settler) {
			boom := errors.New("boom")
			_, err := s.Append(t.Context(), st.addr, 3, func(uint64) (*types.Transaction, error) { return nil, boom })
			if !errors.Is(err, boom) {
				t.Fatalf("Append: %v, want sign's error", err)
			}
			if es := entries(t, s, st.addr); len(es) != 0 {
				t.Fatalf("a failed sign stored %v", nonces(es))
			}
			tx, err := s.Append(t.Context(), st.addr, 3, st.sign(t))
			if err != nil || tx.Nonce() != 3 {
				t.Fatalf("the next Append: %v %v, want nonce 3", tx, err)
			}
		}},
		{"the floor moves the next nonce up, never down", func(t *testing.T, s *Store, st settler) {
			for _, step := range []struct{ floor, want uint64 }{{0, 0}, {0, 1}, {10, 10}, {0, 11}, {5, 12}} {
				tx, err := s.Append(t.Context(), st.addr, step.floor, st.sign(t))
				if err != nil {
					t.Fatal(err)
				}
				if tx.Nonce() != step.want {
					t.Fatalf("floor %d: nonce %d, want %d", step.floor, tx.Nonce(), step.want)
				}
			}
		}},
		{"settlers are independent", func(t *testing.T, s *Store, st settler) {
			other := newSettler(t, 31337)
			for range 2 {
				if _, err := s.Append(t.Context(), st.addr, 0, st.sign(t)); err != nil {
					t.Fatal(err)
				}
			}
			tx, err := s.Append(t.Context(), other.addr, 0, other.sign(t))
			if err != nil || tx.Nonce() != 0 {
				t.Fatalf("another settler's first nonce: %v %v", tx, err)
			}
		}},
		{"a transaction of another chain is refused", func(t *testing.T, s *Store, st settler) {
			if _, err := s.Append(t.Context(), st.addr, 0, st.sign(t)); err != nil {
				t.Fatal(err)
			}
			moved := settler{key: st.key, addr: st.addr, chain: big.NewInt(1)}
			if _, err := s.Append(t.Context(), st.addr, 0, moved.sign(t)); err == nil {
				t.Fatal("appended a transaction of chain 1 to a journal of chain 31337")
			}
			if es := entries(t, s, st.addr); len(es) != 1 {
				t.Fatalf("entries: %v", nonces(es))
			}
		}},
		{"a sign with the wrong nonce is refused", func(t *testing.T, s *Store, st settler) {
			_, err := s.Append(t.Context(), st.addr, 0, func(uint64) (*types.Transaction, error) { return st.tx(t, 5, 1), nil })
			if err == nil {
				t.Fatal("stored a transaction under another nonce")
			}
		}},
		{"replace and void compare the stored hash", func(t *testing.T, s *Store, st settler) {
			ctx := t.Context()
			first, err := s.Append(ctx, st.addr, 0, st.sign(t))
			if err != nil {
				t.Fatal(err)
			}
			second, third := st.tx(t, 0, 2), st.tx(t, 0, 3)
			steps := []struct {
				name string
				do   func() (bool, error)
				ok   bool
			}{
				{"replace a hash the entry does not hold", func() (bool, error) { return s.Replace(ctx, st.addr, second.Hash(), third) }, false},
				{"replace", func() (bool, error) { return s.Replace(ctx, st.addr, first.Hash(), second) }, true},
				{"replace the replaced", func() (bool, error) { return s.Replace(ctx, st.addr, first.Hash(), third) }, false},
				{"void the replaced", func() (bool, error) { return s.Void(ctx, st.addr, 0, first.Hash()) }, false},
				{"void another nonce", func() (bool, error) { return s.Void(ctx, st.addr, 1, second.Hash()) }, false},
				{"void", func() (bool, error) { return s.Void(ctx, st.addr, 0, second.Hash()) }, true},
				{"void again", func() (bool, error) { return s.Void(ctx, st.addr, 0, second.Hash()) }, true},
			}
			for _, step := range steps {
				ok, err := step.do()
				if err != nil || ok != step.ok {
					t.Fatalf("%s: %v %v, want %v", step.name, ok, err, step.ok)
				}
			}
			e := entries(t, s, st.addr)[0]
			if e.Tx.Hash() != second.Hash() || !e.Void || !slices.Equal(e.Previous, []common.Hash{first.Hash()}) {
				t.Fatalf("after void: tx %s void %v previous %v", e.Tx.Hash(), e.Void, e.Previous)
			}
			if ok, err := s.Replace(ctx, st.addr, second.Hash(), third); err != nil || !ok {
				t.Fatalf("fill a void nonce: %v %v", ok, err)
			}
			e = entries(t, s, st.addr)[0]
			if e.Tx.Hash() != third.Hash() || e.Void || !slices.Equal(e.Previous, []common.Hash{first.Hash(), second.Hash()}) {
				t.Fatalf("after the filler: tx %s void %v previous %v", e.Tx.Hash(), e.Void, e.Previous)
			}
			if e.Created.After(e.Updated) || e.Created.IsZero() {
				t.Fatalf("created %v, updated %v", e.Created, e.Updated)
			}
		}},
		{"entries from a nonce, and prune below one", func(t *testing.T, s *Store, st settler) {
			ctx := t.Context()
			for range 5 {
				if _, err := s.Append(ctx, st.addr, 0, st.sign(t)); err != nil {
					t.Fatal(err)
				}
			}
			es, err := s.Entries(ctx, st.addr, 3)
			if err != nil || !slices.Equal(nonces(es), []uint64{3, 4}) {
				t.Fatalf("entries since 3: %v %v", nonces(es), err)
			}
			if err := s.Prune(ctx, st.addr, 2); err != nil {
				t.Fatal(err)
			}
			if got := nonces(entries(t, s, st.addr)); !slices.Equal(got, []uint64{2, 3, 4}) {
				t.Fatalf("after pruning below 2: %v", got)
			}
			if err := s.Prune(ctx, st.addr, 5); err != nil {
				t.Fatal(err)
			}
			if es := entries(t, s, st.addr); len(es) != 0 {
				t.Fatalf("after pruning everything: %v", nonces(es))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, openStore(t, freshConfig(t)), newSettler(t, 31337))
		})
	}
}

// An Append in one replica wakes a listener in another; the channel closes
// when the listener's context ends.
func TestAppendedWakesAnotherReplica(t *testing.T) {
	t.Parallel()
	hs := handles(t, 2)
	st := newSettler(t, 31337)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ch, err := hs[1].Appended(ctx, st.addr)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := hs[0].Append(t.Context(), st.addr, 0, st.sign(t))
	if err != nil {
		t.Fatal(err)
	}
	receive(t, ch, "the wake-up of an Append")
	if _, err := hs[0].Replace(t.Context(), st.addr, tx.Hash(), st.tx(t, 0, 2)); err != nil {
		t.Fatal(err)
	}
	receive(t, ch, "the wake-up of a Replace")
	cancel()
	closed(t, ch)
}

// A listener whose connection is killed reconnects and wakes its reader,
// since it may have missed notifications; then it hears Appends again. A
// store's Close ends it.
func TestAppendedReconnects(t *testing.T) {
	t.Parallel()
	hs := handles(t, 2)
	st := newSettler(t, 31337)
	ch, err := hs[1].Appended(t.Context(), st.addr)
	if err != nil {
		t.Fatal(err)
	}
	terminate(t, hs[0], `application_name = $1`, "x402 listener "+hs[1].schema)
	receive(t, ch, "the wake-up after reconnecting")
	if _, err := hs[0].Append(t.Context(), st.addr, 0, st.sign(t)); err != nil {
		t.Fatal(err)
	}
	receive(t, ch, "the wake-up of an Append after reconnecting")
	hs[1].Close()
	closed(t, ch)
}

// receive waits for a wake-up on ch.
func receive(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case _, ok := <-ch:
		if !ok {
			t.Fatalf("waiting for %s: the channel closed", what)
		}
	case <-time.After(wait):
		t.Fatalf("no %s within %s", what, wait)
	}
}

// closed waits for ch to close, draining it.
func closed(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatalf("the channel is still open after %s", wait)
		}
	}
}

// terminate kills the backends of pg_stat_activity that match where (with
// arg) and waits until they are gone; exactly one must match.
func terminate(t *testing.T, s *Store, where string, arg any) {
	t.Helper()
	var n int
	err := s.pool.QueryRow(t.Context(), `SELECT count(*) FROM (
		SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE `+where+`) AS killed`, arg).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("terminated %d backends, want 1", n)
	}
}

package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// prunerGoroutines counts the goroutines of Pruners.
func prunerGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return bytes.Count(buf, []byte("caddy-x402/store.(*Pruner).loop"))
}

// prunersLeft waits until no goroutine of a Pruner is left, up to a few
// seconds, and returns how many are: a loop that Close waited for may
// still be returning from its last deferred call.
func prunersLeft() int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := prunerGoroutines()
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		runtime.Gosched()
	}
}

// TestMain fails the package if a Pruner's goroutine outlives the tests,
// every one of which closes its Pruners.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if n := prunersLeft(); n > 0 {
			fmt.Fprintf(os.Stderr, "%d goroutines of a Pruner outlived the tests\n", n)
			code = 1
		}
	}
	os.Exit(code)
}

// prunes is a FinalPruner that reports each call, and blocks in the
// calls from the blockFrom-th on (if set) until their context ends.
type prunes struct {
	calls     chan time.Time
	blockFrom int
	err       error
	n         int // calls so far
}

func (p *prunes) PruneFinal(ctx context.Context, before time.Time, limit int) (int, error) {
	select {
	case p.calls <- before:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	if p.n++; p.blockFrom > 0 && p.n >= p.blockFrom {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	return 3, p.err
}

func TestPrunerConfig(t *testing.T) {
	t.Parallel()
	st := &prunes{}
	for _, tc := range []struct {
		name string
		cfg  store.PrunerConfig
		ok   bool
	}{
		{"the minimum retention", store.PrunerConfig{Store: st, Retention: store.MinRetention}, true},
		{"an interval", store.PrunerConfig{Store: st, Retention: 30 * 24 * time.Hour, Interval: time.Minute}, true},
		{"no store", store.PrunerConfig{Retention: store.MinRetention}, false},
		{"no retention", store.PrunerConfig{Store: st}, false},
		{"a retention too short", store.PrunerConfig{Store: st, Retention: store.MinRetention - time.Second}, false},
		{"a negative interval", store.PrunerConfig{Store: st, Retention: store.MinRetention, Interval: -time.Second}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := store.NewPruner(tc.cfg)
			if (err == nil) != tc.ok {
				t.Fatalf("NewPruner: %v", err)
			}
			if p != nil {
				must(t, p.Close())
			}
		})
	}
}

// A pass deletes the final records older than the retention, and logs how
// many.
func TestPrunerPass(t *testing.T) {
	t.Parallel()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Unix(1_800_000_000, 0).UTC()
	rec := func(key byte, age time.Duration, state store.State) store.Record {
		r := store.Record{Key: common.Hash{key}, State: state, Scheme: x402.SchemeExact, Created: now.Add(-age - time.Second), Updated: now.Add(-age)}
		if state.Final() {
			r.Response = &x402.SettleResponse{Success: state == store.StateSettled}
		}
		return r
	}
	for _, r := range []store.Record{
		rec(1, 25*time.Hour, store.StateSettled),
		rec(2, 48*time.Hour, store.StateFailed),
		rec(3, 23*time.Hour, store.StateSettled),
		rec(4, 100*time.Hour, store.StateSubmitted),
	} {
		if _, ok, err := st.Claim(r); err != nil || !ok {
			t.Fatal(ok, err)
		}
	}
	core, logs := observer.New(zapcore.InfoLevel)
	p, err := store.NewPruner(store.PrunerConfig{Store: st, Retention: 24 * time.Hour, Logger: zap.New(core), Now: func() time.Time { return now }})
	must(t, err)
	defer p.Close()
	if n, err := p.Prune(t.Context()); err != nil || n != 2 {
		t.Fatalf("a pass pruned %d, %v; want 2", n, err)
	}
	for key, kept := range map[byte]bool{1: false, 2: false, 3: true, 4: true} {
		if r, err := st.Get(common.Hash{key}); err != nil || (r != nil) != kept {
			t.Errorf("record %d: %+v %v, want kept %v", key, r, err, kept)
		}
	}
	if n, err := p.Prune(t.Context()); err != nil || n != 0 {
		t.Fatalf("a second pass pruned %d, %v", n, err)
	}
	entries := logs.All()
	if len(entries) != 1 || entries[0].ContextMap()["records"] != int64(2) ||
		!entries[0].ContextMap()["final_before"].(time.Time).Equal(now.Add(-24*time.Hour)) {
		t.Fatalf("logged %+v", entries)
	}
}

// The loop prunes when it starts and then every interval, logs its
// failures, and Close ends it, a pass under way included: no goroutine is
// left.
func TestPrunerLoop(t *testing.T) {
	// Not parallel: it counts every Pruner goroutine of the process.
	st := &prunes{calls: make(chan time.Time), blockFrom: 4, err: errors.New("the store is gone")}
	now := time.Unix(1_800_000_000, 0).UTC()
	core, logs := observer.New(zapcore.InfoLevel)
	p, err := store.NewPruner(store.PrunerConfig{Store: st, Retention: 48 * time.Hour, Interval: time.Millisecond,
		Logger: zap.New(core), Now: func() time.Time { return now }})
	must(t, err)
	p.Start()
	p.Start() // one loop
	for range 3 {
		if before := <-st.calls; !before.Equal(now.Add(-48 * time.Hour)) {
			t.Fatalf("pruned before %v", before)
		}
	}
	if n := prunerGoroutines(); n != 1 {
		t.Fatalf("%d loops run", n)
	}
	if warned := logs.FilterMessage("pruning final settlement records").Len(); warned == 0 {
		t.Fatal("a failed pass was not logged")
	}
	<-st.calls // the fourth, blocked until Close
	must(t, p.Close())
	must(t, p.Close())
	if n := prunersLeft(); n != 0 {
		t.Fatalf("%d goroutines of the Pruner outlived Close", n)
	}
	p.Start() // after Close: nothing
	if n := prunersLeft(); n != 0 {
		t.Fatalf("Start after Close started %d loops", n)
	}
}

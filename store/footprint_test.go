package store_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/storetest"
)

// settleAll runs payments from..to-1 (storetest.Payment) through their
// life on s from 8 goroutines, so commits are batched as under load.
func settleAll(tb testing.TB, s store.Settlements, from, to int, created time.Time) {
	tb.Helper()
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range work {
				storetest.Settle(tb, s, storetest.Payment(i, created.Add(time.Duration(i)*time.Millisecond)))
			}
		})
	}
	for i := from; i < to; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}

// highWater is the size the store file at path needs: its pages in use or
// free, up to the highest one allocated. The file itself is that, rounded
// up to bbolt's growth steps.
func highWater(tb testing.TB, path string) int64 {
	tb.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var size int64
	db.View(func(tx *bolt.Tx) error {
		size = tx.Size()
		return nil
	})
	return size
}

// BenchmarkPaymentFootprint reports what one paid request adds to a bbolt
// store file: settled payments alternately exact and aa-native, as the
// facilitator stored them on the devnet (storetest.Payment), each claimed
// with its transaction, settled and served. Run it with a fixed count, such
// as -benchtime=20000x; file-B/payment is the file's high-water mark per
// payment.
func BenchmarkPaymentFootprint(b *testing.B) {
	path := filepath.Join(b.TempDir(), "x402.db")
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	settleAll(b, st, 0, b.N, time.Unix(1_800_000_000, 0).UTC())
	b.StopTimer()
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(highWater(b, path))/float64(b.N), "file-B/payment")
}

// fileSize is the size of the file at path.
func fileSize(tb testing.TB, path string) int64 {
	tb.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return fi.Size()
}

// bbolt never shrinks its file, but the pages of pruned records go to its
// freelist and new records are written into them. A store that keeps two
// rounds of payments, pruning the oldest round before it takes a new one,
// stops growing: after the first prune, which needs room for the pages
// its first batch rewrites, more rounds leave the file's high-water mark
// and size where they were. Without the prunes each round grows them.
func TestPrunedPagesAreReused(t *testing.T) {
	t.Parallel()
	const (
		n      = 1000 // payments a round
		rounds = 6
	)
	t0 := time.Unix(1_800_000_000, 0).UTC()
	hour := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Hour) }
	for _, prune := range []bool{true, false} {
		t.Run(fmt.Sprint("prune ", prune), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "x402.db")
			var mark, size int64 // after the third round
			for round := range rounds {
				st, err := store.Open(store.Config{Path: path})
				if err != nil {
					t.Fatal(err)
				}
				if prune && round >= 2 {
					if got, err := st.PruneFinal(t.Context(), hour(round-1), n); err != nil || got != n {
						t.Fatalf("round %d pruned %d, %v; want %d", round, got, err, n)
					}
				}
				settleAll(t, st, round*n, (round+1)*n, hour(round)) // in round's hour
				must(t, st.Close())
				m, sz := highWater(t, path), fileSize(t, path)
				t.Logf("round %d: high-water mark %d B, file %d B", round, m, sz)
				if round == 2 {
					mark, size = m, sz
				}
				if round == rounds-1 {
					switch {
					case prune && (m > mark+mark/50 || sz > size):
						t.Fatalf("with prunes, %d more rounds grew the high-water mark from %d to %d B and the file from %d to %d B", rounds-3, mark, m, size, sz)
					case !prune && m < mark+mark/2:
						t.Fatalf("without prunes, %d more rounds grew the high-water mark only from %d to %d B", rounds-3, mark, m)
					}
				}
			}
		})
	}
}

// Compact gives the free pages of pruned records back to the file system
// and keeps every record and bucket entry.
func TestCompact(t *testing.T) {
	t.Parallel()
	const n = 1000
	t0 := time.Unix(1_800_000_000, 0).UTC()
	path := filepath.Join(t.TempDir(), "x402.db")
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	settleAll(t, st, 0, n, t0)
	kv, err := st.Bucket("paymaster_keys")
	must(t, err)
	must(t, kv.Put([]byte("k"), []byte("v")))
	// The last tenth stays.
	if got, err := st.PruneFinal(t.Context(), t0.Add((n*9/10+200)*time.Millisecond), n); err != nil || got != n*9/10 {
		t.Fatalf("pruned %d, %v", got, err)
	}
	if _, _, err := store.Compact(path); err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("compacting an open store: %v", err)
	}
	must(t, st.Close())

	before, after, err := store.Compact(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("compacted %d B to %d B", before, after)
	if after >= before/4 {
		t.Fatalf("compacted %d B to %d B, want less than a quarter", before, after)
	}
	if after != fileSize(t, path) {
		t.Fatalf("Compact says %d B, the file has %d B", after, fileSize(t, path))
	}
	sum, err := store.Check(path)
	if err != nil || sum.Settlements != n/10 || sum.Buckets["paymaster_keys"] != 1 {
		t.Fatalf("the compacted store: %+v %v", sum, err)
	}
	st, err = store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if r, err := st.Get(storetest.Payment(n-1, t0).Key); err != nil || r == nil || r.State != store.StateSettled || !r.Served {
		t.Fatalf("a kept payment after the compaction: %+v %v", r, err)
	}
	if _, _, err := store.Compact(filepath.Join(t.TempDir(), "missing.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("compacting a missing file: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

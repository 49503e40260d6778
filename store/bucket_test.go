package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Update is an atomic read-modify-write: 100 concurrent increments of one
// counter give 100; a failing fn, or a nil result, changes nothing.
func TestBucketUpdate(t *testing.T) {
	t.Parallel()
	_, b := openBucket(t, "counters")
	incr := func(old []byte) ([]byte, error) {
		n, _ := strconv.Atoi(string(old))
		return []byte(strconv.Itoa(n + 1)), nil
	}
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.Update([]byte("n"), incr); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if v, _ := b.Get([]byte("n")); string(v) != "100" {
		t.Fatalf("counter = %s, want 100", v)
	}
	boom := errors.New("boom")
	if err := b.Update([]byte("n"), func([]byte) ([]byte, error) { return []byte("0"), boom }); !errors.Is(err, boom) {
		t.Fatalf("a failing fn: %v", err)
	}
	if v, _ := b.Get([]byte("n")); string(v) != "100" {
		t.Fatalf("a failing fn changed the value to %s", v)
	}
	if err := b.Update([]byte("n"), func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if v, _ := b.Get([]byte("n")); string(v) != "100" {
		t.Fatalf("a nil result changed the value to %s", v)
	}
}

// UpdateEarly answers once fn decided and is durable once waited for:
// 100 concurrent early increments mixed with plain ones give 200, each
// early one waited for after another writer may have queued behind it; a
// failing or empty fn writes nothing and leaves nothing to wait for; and a
// panicking fn lets the writer go, so the next update runs.
func TestBucketUpdateEarly(t *testing.T) {
	t.Parallel()
	_, kv := openBucket(t, "counters")
	b := kv.(EarlyKV)
	incr := func(old []byte) ([]byte, error) {
		n, _ := strconv.Atoi(string(old))
		return []byte(strconv.Itoa(n + 1)), nil
	}
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			durable, err := b.UpdateEarly([]byte("n"), incr)
			if err != nil {
				t.Error(err)
				return
			}
			if err := durable(); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if err := b.Update([]byte("n"), incr); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if v, _ := b.Get([]byte("n")); string(v) != "200" {
		t.Fatalf("counter = %s, want 200", v)
	}
	refused := errors.New("refused")
	for _, fn := range []func([]byte) ([]byte, error){
		func([]byte) ([]byte, error) { return []byte("x"), refused },
		func([]byte) ([]byte, error) { return nil, nil },
	} {
		if durable, err := b.UpdateEarly([]byte("n"), fn); durable != nil || (err != nil && !errors.Is(err, refused)) {
			t.Fatalf("a refused or empty early update: %v, durable %v", err, durable != nil)
		}
	}
	func() {
		defer func() { recover() }()
		b.UpdateEarly([]byte("n"), func([]byte) ([]byte, error) { panic("fn") })
	}()
	if err := b.Update([]byte("n"), incr); err != nil {
		t.Fatal(err)
	}
	if v, _ := b.Get([]byte("n")); string(v) != "201" {
		t.Fatalf("counter = %s after a refused, an empty and a panicking early update and one more increment, want 201", v)
	}
}

// TestBucketUpdateEarlyGrouped: early updates that arrive while the
// store's writer is busy share one commit; each is decided in order (a
// refusal and a panic among them write nothing and reach their callers
// alone), and every written one is durable and read back.
func TestBucketUpdateEarlyGrouped(t *testing.T) {
	t.Parallel()
	st, kv := openBucket(t, "holds")
	b := kv.(EarlyKV)
	// A plain write holds bbolt's one writer while the updates arrive.
	release, holding := make(chan struct{}), make(chan struct{})
	go func() {
		b.Update([]byte("busy"), func([]byte) ([]byte, error) {
			close(holding)
			<-release
			return []byte("1"), nil
		})
	}()
	<-holding
	const n = 20
	refused := errors.New("refused")
	type result struct {
		i        int
		err      error
		panicked bool
	}
	results := make(chan result, n)
	var queued sync.WaitGroup
	for i := range n {
		queued.Add(1)
		go func() {
			r := result{i: i}
			defer func() {
				if p := recover(); p != nil {
					r.panicked = true
				}
				results <- r
			}()
			key := []byte(fmt.Sprintf("k%02d", i))
			queued.Done()
			durable, err := b.UpdateEarly(key, func(old []byte) ([]byte, error) {
				switch i {
				case 3:
					return nil, refused
				case 4:
					panic("a broken update")
				}
				return []byte(strconv.Itoa(i)), nil
			})
			if err == nil {
				err = durable()
			}
			r.err = err
		}()
	}
	queued.Wait()
	// The first update waits for the writer; the others queue behind it.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		st.early.mu.Lock()
		got := len(st.early.queue)
		st.early.mu.Unlock()
		if got == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d updates queued after 10 s", got, n)
		}
	}
	close(release)
	for range n {
		r := <-results
		switch {
		case r.i == 3 && !errors.Is(r.err, refused), r.i == 4 && !r.panicked:
			t.Errorf("update %d: %+v", r.i, r)
		case r.i != 3 && r.i != 4 && (r.err != nil || r.panicked):
			t.Errorf("update %d: %+v", r.i, r)
		}
	}
	for i := range n {
		v, err := b.Get([]byte(fmt.Sprintf("k%02d", i)))
		want := strconv.Itoa(i)
		if i == 3 || i == 4 {
			want = ""
		}
		if err != nil || string(v) != want {
			t.Errorf("k%02d = %q, %v; want %q", i, v, err, want)
		}
	}
	if c := st.early.commits.Load(); c != 1 {
		t.Errorf("%d commits for %d updates that queued behind one writer, want one", c, n)
	}
}

// An empty bucket, once read, is answered without a transaction until the
// store writes; every kind of write (through the bucket, early, or a
// write of the store's own that puts into the bucket directly, as a
// settlement puts its outbox entry) is seen by the next read, and so are
// writes that race with reads.
func TestBucketEmptyRead(t *testing.T) {
	t.Parallel()
	writes := []struct {
		name  string
		write func(st *Store, b *Bucket, key []byte) error
	}{
		{"Put", func(_ *Store, b *Bucket, key []byte) error { return b.Put(key, []byte("v")) }},
		{"Update", func(_ *Store, b *Bucket, key []byte) error {
			return b.Update(key, func([]byte) ([]byte, error) { return []byte("v"), nil })
		}},
		{"UpdateEarly", func(_ *Store, b *Bucket, key []byte) error {
			durable, err := b.UpdateEarly(key, func([]byte) ([]byte, error) { return []byte("v"), nil })
			if err != nil {
				return err
			}
			return durable()
		}},
		{"the store's own write", func(st *Store, b *Bucket, key []byte) error {
			return st.write(func(tx *bolt.Tx) error { return tx.Bucket(b.name).Put(key, []byte("v")) })
		}},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			st, kv := openBucket(t, "box")
			b := kv.(*Bucket)
			key := []byte("payer")
			for range 2 {
				if v, err := b.Get(key); v != nil || err != nil {
					t.Fatalf("an empty bucket: %q, %v", v, err)
				}
			}
			txs := st.db.Stats().TxN
			if v, _ := b.Get(key); v != nil || st.db.Stats().TxN != txs {
				t.Fatalf("a read of a bucket found empty: %q, %d transactions, want none", v, st.db.Stats().TxN-txs)
			}
			if err := w.write(st, b, key); err != nil {
				t.Fatal(err)
			}
			if v, err := b.Get(key); string(v) != "v" || err != nil {
				t.Fatalf("after the write: %q, %v", v, err)
			}
			if err := b.Delete(key); err != nil {
				t.Fatal(err)
			}
			if v, err := b.Get(key); v != nil || err != nil {
				t.Fatalf("after the delete: %q, %v", v, err)
			}
		})
	}

	t.Run("racing reads", func(t *testing.T) {
		t.Parallel()
		st, kv := openBucket(t, "box")
		stop := make(chan struct{})
		var readers sync.WaitGroup
		for range 4 {
			readers.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					kv.Get([]byte("other"))
				}
			})
		}
		// Each key is written into a bucket emptied just before, while
		// the readers keep finding it empty: the writer's own read after
		// the write must see it.
		for i := range 200 {
			key := []byte(strconv.Itoa(i))
			if err := writes[i%len(writes)].write(st, kv.(*Bucket), key); err != nil {
				t.Fatal(err)
			}
			if v, err := kv.Get(key); string(v) != "v" || err != nil {
				t.Fatalf("key %d (%s) after its write: %q, %v", i, writes[i%len(writes)].name, v, err)
			}
			if err := kv.Delete(key); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		readers.Wait()
	})
}

// openBucket opens a store in a temporary directory, closed when the test
// ends, and its bucket name.
func openBucket(t *testing.T, name string) (*Store, KV) {
	t.Helper()
	st, err := Open(Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kv, err := st.Bucket(name)
	if err != nil {
		t.Fatal(err)
	}
	return st, kv
}

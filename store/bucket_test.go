package store

import (
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// Update is an atomic read-modify-write: 100 concurrent increments of one
// counter give 100; a failing fn, or a nil result, changes nothing.
func TestBucketUpdate(t *testing.T) {
	t.Parallel()
	st, err := Open(Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := st.Bucket("counters")
	if err != nil {
		t.Fatal(err)
	}
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

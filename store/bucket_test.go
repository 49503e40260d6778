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

// UpdateEarly answers once fn decided and is durable once waited for:
// 100 concurrent early increments mixed with plain ones give 200, each
// early one waited for after another writer may have queued behind it; a
// failing or empty fn writes nothing and leaves nothing to wait for; and a
// panicking fn lets the writer go, so the next update runs.
func TestBucketUpdateEarly(t *testing.T) {
	t.Parallel()
	st, err := Open(Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kv, err := st.Bucket("counters")
	if err != nil {
		t.Fatal(err)
	}
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

package postgres

import (
	"bytes"
	"fmt"
	"testing"
)

// ForEach walks a space larger than a page in key order, holds no
// connection while fn runs (fn reads the store through a pool of one), and
// skips an Update's placeholder.
func TestForEach(t *testing.T) {
	t.Parallel()
	cfg := freshConfig(t)
	cfg.MaxConns = 1
	s := openStore(t, cfg)
	kv, err := s.Bucket("walk")
	if err != nil {
		t.Fatal(err)
	}
	const n = 2*forEachPage + 17
	for i := range n {
		if err := kv.Put(fmt.Appendf(nil, "k%04d", i), fmt.Appendf(nil, "v%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.pool.Exec(t.Context(), `INSERT INTO kv (bucket, key, value) VALUES ('walk', 'k0000x', NULL)`); err != nil {
		t.Fatal(err)
	}
	if v, err := kv.Get([]byte("k0000x")); err != nil || v != nil {
		t.Fatalf("a placeholder reads as %q %v", v, err)
	}
	var prev []byte
	seen := 0
	err = kv.ForEach(func(k, v []byte) error {
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			return fmt.Errorf("%s after %s", k, prev)
		}
		prev = k
		got, err := kv.Get(k)
		if err != nil || !bytes.Equal(got, v) {
			return fmt.Errorf("Get(%s) during the walk: %q %v, want %q", k, got, err, v)
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != n {
		t.Fatalf("walked %d entries, want %d", seen, n)
	}
}

// Put of an empty value stores it (NULL is reserved for placeholders), and
// the settlements' name is refused, as bbolt refuses it.
func TestBucketEdges(t *testing.T) {
	t.Parallel()
	s := openStore(t, freshConfig(t))
	for _, name := range []string{"", reservedBucket} {
		if _, err := s.Bucket(name); err == nil {
			t.Errorf("Bucket(%q) succeeded", name)
		}
	}
	kv, err := s.Bucket("edges")
	if err != nil {
		t.Fatal(err)
	}
	if err := kv.Put([]byte("empty"), nil); err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := kv.ForEach(func(k, v []byte) error { n++; return nil }); err != nil || n != 1 {
		t.Fatalf("an empty value is not listed: %d %v", n, err)
	}
}

package store_test

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/storetest"
)

// The bbolt store passes the conformance suite every backend must pass.
func TestConformance(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		paths = map[store.Backend]string{}
	)
	open := func(t *testing.T, path string) store.Backend {
		s, err := store.Open(store.Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	storetest.Run(t, storetest.Backend{
		Open: func(t *testing.T) store.Backend {
			path := filepath.Join(t.TempDir(), "x402.db")
			s := open(t, path)
			mu.Lock()
			paths[s] = path
			mu.Unlock()
			return s
		},
		Reopen: func(t *testing.T, s store.Backend) store.Backend {
			mu.Lock()
			path := paths[s]
			mu.Unlock()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			again := open(t, path)
			mu.Lock()
			paths[again] = path
			mu.Unlock()
			return again
		},
	})
}

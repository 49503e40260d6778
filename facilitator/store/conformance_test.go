package store_test

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/caddy-x402/caddy-x402/facilitator/store"
	"github.com/caddy-x402/caddy-x402/facilitator/store/storetest"
)

// The bbolt store passes the conformance suite every backend must pass.
func TestConformance(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		paths = map[store.Settlements]string{}
	)
	open := func(t *testing.T, path string) store.Settlements {
		s, err := store.Open(store.Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	storetest.Run(t, storetest.Backend{
		Open: func(t *testing.T) store.Settlements {
			path := filepath.Join(t.TempDir(), "x402.db")
			s := open(t, path)
			mu.Lock()
			paths[s] = path
			mu.Unlock()
			return s
		},
		Reopen: func(t *testing.T, s store.Settlements) store.Settlements {
			mu.Lock()
			path := paths[s]
			mu.Unlock()
			if err := s.(*store.Store).Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, path)
		},
	})
}

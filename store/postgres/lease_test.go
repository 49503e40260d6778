package postgres

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
)

// backendPID is the database backend that holds l's lock: the connection a
// test kills to make a replica lose its lease.
func backendPID(l store.Lease) uint32 { return l.(*lease).pid }

func lead(t *testing.T, s *Store, from common.Address) (store.Lease, bool) {
	t.Helper()
	l, ok, err := s.Lead(t.Context(), from)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Cleanup(l.Release)
	}
	return l, ok
}

// lost waits for l to be lost.
func lost(t *testing.T, l store.Lease) {
	t.Helper()
	closed(t, l.Lost())
}

// One replica at a time leads a settler's delivery; a released or lost
// lease passes to another.
func TestLead(t *testing.T) {
	t.Parallel()
	hs := handles(t, 3)
	a, b := newSettler(t, 31337).addr, newSettler(t, 31337).addr

	first, ok := lead(t, hs[0], a)
	if !ok {
		t.Fatal("the first Lead was refused")
	}
	for i, h := range hs {
		if _, ok := lead(t, h, a); ok {
			t.Fatalf("handle %d leads %s too", i, a)
		}
	}
	if _, ok := lead(t, hs[1], b); !ok {
		t.Fatal("the lease of another settler was refused")
	}
	select {
	case <-first.Lost():
		t.Fatal("a held lease is lost")
	default:
	}

	first.Release()
	first.Release() // idempotent
	lost(t, first)
	second, ok := lead(t, hs[1], a)
	if !ok {
		t.Fatal("no Lead after the holder released its lease")
	}

	// Failover: the holder's connection dies.
	terminate(t, hs[2], `pid = $1`, int64(backendPID(second)))
	lost(t, second)
	third, ok := lead(t, hs[2], a)
	if !ok {
		t.Fatal("no Lead after the holder's connection died")
	}
	if _, ok := lead(t, hs[0], a); ok {
		t.Fatal("two leases after a failover")
	}
	second.Release() // releasing a lost lease is fine

	// Closing the store gives its leases up.
	hs[2].Close()
	lost(t, third)
	if _, ok := lead(t, hs[0], a); !ok {
		t.Fatal("no Lead after the holder's store closed")
	}
	third.Release()
}

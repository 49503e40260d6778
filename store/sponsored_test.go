package store

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Sponsored counts per payer and in all, per window, under concurrency:
// 40 concurrent takes for one payer with a limit of 5 grant exactly 5; the
// total refuses a fresh payer once reached, and gives the payer's count
// back; a window's end lets the payer in again.
func TestSponsored(t *testing.T) {
	t.Parallel()
	st, err := Open(Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := OpenSponsored(st)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	lim := SponsoredLimits{PerPayer: 5, Total: 7, Window: time.Hour}
	var granted atomic.Int64
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, _, err := s.Take("0xAAAA", lim, t0)
			if err != nil {
				t.Error(err)
			}
			if ok {
				granted.Add(1)
			}
		}()
	}
	wg.Wait()
	if granted.Load() != 5 {
		t.Fatalf("granted %d to one payer, want its limit of 5", granted.Load())
	}
	if ok, ends, _ := s.Take("0xaaaa", lim, t0.Add(time.Minute)); ok || !ends.Equal(t0.Add(time.Hour)) {
		t.Fatalf("a sixth for the payer (its address in another case): %v, window ends %v", ok, ends)
	}
	for i, want := range []bool{true, true, false} {
		if ok, _, err := s.Take("0xBBBB", lim, t0); err != nil || ok != want {
			t.Fatalf("take %d of a second payer with 5 of a total of 7 used: %v %v, want %v", i, ok, err, want)
		}
	}
	// The refused take gave the second payer's count back: 2 of its 5 are
	// used, whatever the total.
	noTotal := SponsoredLimits{PerPayer: 5, Window: time.Hour}
	for i, want := range []bool{true, true, true, false} {
		if ok, _, err := s.Take("0xBBBB", noTotal, t0); err != nil || ok != want {
			t.Fatalf("take %d of the second payer without a total: %v %v, want %v", i, ok, err, want)
		}
	}
	// A new window lets both in again.
	for _, payer := range []string{"0xAAAA", "0xBBBB"} {
		if ok, _, err := s.Take(payer, lim, t0.Add(time.Hour)); err != nil || !ok {
			t.Fatalf("%s after the window: %v %v", payer, ok, err)
		}
	}
	if ok, _, err := s.Take("0xCCCC", SponsoredLimits{Window: time.Hour}, t0); err != nil || !ok {
		t.Fatalf("no limits: %v %v", ok, err)
	}
	// A count given back (its deposit sent nothing) is taken again; the
	// payer's and the total's.
	one := SponsoredLimits{PerPayer: 1, Total: 1, Window: time.Hour}
	t1 := t0.Add(3 * time.Hour)
	if ok, _, err := s.Take("0xDDDD", one, t1); err != nil || !ok {
		t.Fatalf("the first take: %v %v", ok, err)
	}
	if ok, _, _ := s.Take("0xEEEE", one, t1); ok {
		t.Fatal("a take past the total")
	}
	if err := s.Return("0xdddd", one, t1); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := s.Take("0xDDDD", one, t1); err != nil || !ok {
		t.Fatalf("a take after the count was given back: %v %v", ok, err)
	}
	// Giving back more than was taken counts from zero, not below.
	for range 3 {
		if err := s.Return("0xDDDD", one, t1); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []bool{true, false} {
		if ok, _, err := s.Take("0xEEEE", one, t1); err != nil || ok != want {
			t.Fatalf("take %d after three returns: %v %v, want %v", i, ok, err, want)
		}
	}
}

package paywall

import (
	"math/big"
	"sync"
	"testing"
	"time"
)

// TestExposureBounds: a payment is reserved only within every bound (the
// payer's count, the route's and the site's amount per asset, an asset
// bounded somewhere), and not for a payer in the penalty box.
func TestExposureBounds(t *testing.T) {
	t.Parallel()
	const usd, other = "eip155:1/0xa", "eip155:1/0xb"
	tests := []struct {
		name      string
		site      map[string]*big.Int
		route     map[string]*big.Int
		perPayer  int
		held      []int64 // amounts already reserved, by other payers
		payerHeld int     // payments of the payer already reserved
		asset     string
		amount    int64
		want      bool
	}{
		{"within the route's bound", nil, map[string]*big.Int{usd: big.NewInt(100)}, 1, []int64{50}, 0, usd, 50, true},
		{"past the route's bound", nil, map[string]*big.Int{usd: big.NewInt(100)}, 1, []int64{50}, 0, usd, 51, false},
		{"within the site's bound", map[string]*big.Int{usd: big.NewInt(100)}, nil, 1, []int64{99}, 0, usd, 1, true},
		{"past the site's bound", map[string]*big.Int{usd: big.NewInt(100)}, map[string]*big.Int{usd: big.NewInt(1000)}, 1, []int64{99}, 0, usd, 2, false},
		{"an asset bounded nowhere", nil, map[string]*big.Int{usd: big.NewInt(100)}, 1, nil, 0, other, 1, false},
		{"the payer's count reached", nil, map[string]*big.Int{usd: big.NewInt(100)}, 1, nil, 1, usd, 1, false},
		{"the payer's count not reached", nil, map[string]*big.Int{usd: big.NewInt(100)}, 2, nil, 1, usd, 1, true},
		{"a zero bound", nil, map[string]*big.Int{usd: big.NewInt(0)}, 1, nil, 0, usd, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := &Exposure{MaxInFlight: tc.site}
			route := &routeBudget{limit: tc.route}
			for i, a := range tc.held {
				if e.reserve(route, 1, string(rune('a'+i)), tc.asset, big.NewInt(a)) == nil {
					t.Fatal("setting up: refused")
				}
			}
			for range tc.payerHeld {
				if e.reserve(route, tc.perPayer, "0xPayer", tc.asset, big.NewInt(0)) == nil {
					t.Fatal("setting up the payer: refused")
				}
			}
			if got := e.reserve(route, tc.perPayer, "0xpayer", tc.asset, big.NewInt(tc.amount)) != nil; got != tc.want {
				t.Fatalf("reserved = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestExposurePenalty: a payer whose payment was served unpaid waits for
// inclusion (is not reserved) for Penalty, on every route of the ledger;
// a paid release boxes nobody.
func TestExposurePenalty(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	e := &Exposure{MaxInFlight: map[string]*big.Int{"a": big.NewInt(10)}, Penalty: time.Hour, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }}
	r1, r2 := &routeBudget{}, &routeBudget{}
	e.reserve(r1, 1, "0xA", "a", big.NewInt(1)).release(false)
	res := e.reserve(r1, 1, "0xA", "a", big.NewInt(1))
	res.release(true)
	res.release(false) // once only
	if !e.Boxed("0xa") || e.reserve(r2, 1, "0xa", "a", big.NewInt(1)) != nil {
		t.Fatal("an unpaid payer is served on broadcast on another route")
	}
	if e.reserve(r2, 1, "0xB", "a", big.NewInt(1)) == nil {
		t.Fatal("another payer is boxed too")
	}
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	if e.Boxed("0xA") || e.reserve(r1, 1, "0xA", "a", big.NewInt(1)) == nil {
		t.Fatal("the penalty does not end")
	}
}

// TestExposureConcurrent: reservations from many goroutines never pass
// the bound, and once all are released the ledger holds nothing.
func TestExposureConcurrent(t *testing.T) {
	t.Parallel()
	e := &Exposure{MaxInFlight: map[string]*big.Int{"a": big.NewInt(10)}}
	route := &routeBudget{limit: map[string]*big.Int{"a": big.NewInt(7)}}
	var wg sync.WaitGroup
	var mu sync.Mutex
	held, most := 0, 0
	for i := range 64 {
		wg.Go(func() {
			for j := range 50 {
				r := e.reserve(route, 3, string(rune('a'+i%8)), "a", big.NewInt(1))
				if r == nil {
					continue
				}
				mu.Lock()
				held++
				most = max(most, held)
				mu.Unlock()
				mu.Lock()
				held--
				mu.Unlock()
				r.release(j%7 == 100) // never unpaid
			}
		})
	}
	wg.Wait()
	amount, payers := e.inFlightOf("a")
	if most > 7 || amount.Sign() != 0 || payers != 0 || len(route.inFlight) != 0 {
		t.Fatalf("most held %d (bound 7); left %s held by %d payers, route %v", most, amount, payers, route.inFlight)
	}
}

package facilitator

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// payerN is the n-th of many distinct payer addresses.
func payerN(n int) common.Address {
	var a common.Address
	binary.BigEndian.PutUint64(a[12:], uint64(n)+1)
	return a
}

// A million distinct payers whose settlements revert, one after another,
// never make the penalty box hold more than its bound, and the payers it
// keeps are the latest, still refused. (Before: it held every payer for a
// day, and swept all of them on each revert.)
func TestPenaltyBoxBoundedOverAMillionPayers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		limit  int // 0: the default
		payers int
	}{
		{"default bound", 0, 1_000_000},
		{"small bound", 1000, 100_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := &payers{maxStrikes: tc.limit}
			bound := p.strikeLimit()
			now := time.Unix(1_700_000_000, 0)
			most := 0
			payers := tc.payers
			for i := range payers {
				now = now.Add(time.Millisecond) // a thousand reverts a second
				p.reverted(common.Hash{}, payerN(i), now)
				most = max(most, len(p.strikes))
			}
			if most > bound {
				t.Fatalf("the penalty box held %d payers, over its bound of %d", most, bound)
			}
			if len(p.strikes) < bound*3/4 {
				t.Fatalf("the penalty box holds %d payers after a million, want at least %d", len(p.strikes), bound*3/4)
			}
			// The latest payer is still refused; the first is long gone.
			if _, refused := p.refusedUntil(payerN(payers-1), now); !refused {
				t.Fatal("the latest payer whose settlement reverted is not refused")
			}
			if _, kept := p.strikes[payerN(0)]; kept {
				t.Fatal("the first payer is still held")
			}
		})
	}
}

// When the penalty box is full, payers no longer refused make room first:
// a refused payer stays refused however many clean payers are held, and a
// repeat offender who is kept has its penalty doubled. Only when every
// payer held is refused does one leave early, the one released soonest.
func TestPenaltyBoxEvictsCleanPayersFirst(t *testing.T) {
	t.Parallel()
	p := &payers{maxStrikes: 4}
	t0 := time.Unix(1_700_000_000, 0)
	clean := []common.Address{payerN(1), payerN(2), payerN(3)}
	target, x, y, z, w := payerN(10), payerN(11), payerN(12), payerN(13), payerN(14)
	for _, a := range clean {
		p.reverted(common.Hash{}, a, t0) // refused for a minute
	}
	t1 := t0.Add(2 * time.Minute) // the three are clean again
	p.reverted(common.Hash{}, target, t1)
	for i, a := range []common.Address{x, y, z} {
		p.reverted(common.Hash{}, a, t1.Add(time.Duration(i+1)*time.Second))
	}
	if len(p.strikes) != 4 {
		t.Fatalf("the box holds %d, want its bound of 4", len(p.strikes))
	}
	for _, a := range clean {
		if _, kept := p.strikes[a]; kept {
			t.Fatalf("clean payer %s was kept while refused payers were dropped", a)
		}
	}
	for _, a := range []common.Address{target, x, y, z} {
		if _, refused := p.refusedUntil(a, t1.Add(5*time.Second)); !refused {
			t.Fatalf("payer %s escaped its penalty", a)
		}
	}
	// A repeat offender kept in the box is refused twice as long.
	p.reverted(common.Hash{}, x, t1.Add(90*time.Second))
	if until, _ := p.refusedUntil(x, t1.Add(90*time.Second)); until != t1.Add(90*time.Second+2*time.Minute) {
		t.Fatalf("a second revert refuses until %v, want two minutes", until)
	}
	// All four refused: a fifth payer makes the one released soonest
	// (target, refused until t1+1m) leave, and no other.
	p.reverted(common.Hash{}, w, t1.Add(10*time.Second))
	if _, kept := p.strikes[target]; kept {
		t.Fatal("with every payer refused, the one released soonest was not the one to leave")
	}
	for _, a := range []common.Address{x, y, z, w} {
		if _, refused := p.refusedUntil(a, t1.Add(10*time.Second)); !refused {
			t.Fatalf("payer %s escaped its penalty", a)
		}
	}
}

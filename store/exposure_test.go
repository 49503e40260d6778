package store

import (
	"encoding/binary"
	"math/big"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func openExposure(t *testing.T) *Exposure {
	t.Helper()
	st, err := Open(Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kv, err := st.Bucket(ExposureBucket)
	if err != nil {
		t.Fatal(err)
	}
	return NewExposure(kv)
}

func holdOf(n uint64, payer string, amount int64, expires time.Time) Hold {
	var id [8]byte
	binary.BigEndian.PutUint64(id[:], n)
	return Hold{ID: id, Payer: payer, Asset: "eip155:31337/0xtoken", Route: "r1", Amount: big.NewInt(amount), Expires: expires}
}

// TestExposureBounds: each bound refuses the reservation that would pass
// it and leaves nothing held by the refused one; a release gives the
// room back; a payer served unpaid is boxed on every copy of the ledger.
func TestExposureBounds(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	later := now.Add(time.Minute)
	tests := []struct {
		name  string
		lim   ExposureLimits
		first []Hold
		next  Hold
		want  bool
	}{
		{"per payer", ExposureLimits{PerPayer: 1, Site: big.NewInt(100)},
			[]Hold{holdOf(1, "0xA", 10, later)}, holdOf(2, "0xa", 10, later), false},
		{"per payer, another payer", ExposureLimits{PerPayer: 1, Site: big.NewInt(100)},
			[]Hold{holdOf(1, "0xA", 10, later)}, holdOf(2, "0xB", 10, later), true},
		{"site bound", ExposureLimits{PerPayer: 5, Site: big.NewInt(25)},
			[]Hold{holdOf(1, "0xA", 10, later), holdOf(2, "0xB", 10, later)}, holdOf(3, "0xC", 10, later), false},
		{"site bound, exactly", ExposureLimits{PerPayer: 5, Site: big.NewInt(30)},
			[]Hold{holdOf(1, "0xA", 10, later), holdOf(2, "0xB", 10, later)}, holdOf(3, "0xC", 10, later), true},
		{"route bound", ExposureLimits{PerPayer: 5, Route: big.NewInt(15)},
			[]Hold{holdOf(1, "0xA", 10, later)}, holdOf(2, "0xB", 10, later), false},
		{"expired holds count nothing", ExposureLimits{PerPayer: 1, Site: big.NewInt(10)},
			[]Hold{holdOf(1, "0xA", 10, now)}, holdOf(2, "0xA", 10, later), true},
		{"negative amount", ExposureLimits{PerPayer: 1, Site: big.NewInt(10)},
			nil, holdOf(2, "0xA", -1, later), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := openExposure(t)
			for _, h := range tt.first {
				if ok, err := e.Reserve(h, ExposureLimits{PerPayer: 10, Site: big.NewInt(1000), Route: big.NewInt(1000)}, now.Add(-time.Second)); err != nil || !ok {
					t.Fatalf("setting up %x: %v %v", h.ID, ok, err)
				}
			}
			ok, err := e.Reserve(tt.next, tt.lim, now)
			if err != nil || ok != tt.want {
				t.Fatalf("Reserve = %v, %v; want %v", ok, err, tt.want)
			}
			if ok {
				return
			}
			// The refused reservation left nothing: releasing the first
			// holds makes room for it.
			for _, h := range tt.first {
				if err := e.Release(h, time.Time{}, now); err != nil {
					t.Fatal(err)
				}
			}
			if tt.next.Amount.Sign() < 0 {
				return
			}
			if ok, err := e.Reserve(tt.next, tt.lim, now); err != nil || !ok {
				t.Fatalf("after the release, Reserve = %v, %v; want true", ok, err)
			}
		})
	}
}

// TestExposureBox: a release as unpaid boxes the payer until the given
// time; a longer penalty stands; a boxed payer is refused; a box that
// ended lets it in; Prune then removes what holds nothing.
func TestExposureBox(t *testing.T) {
	t.Parallel()
	e := openExposure(t)
	now := time.Unix(1_800_000_000, 0)
	lim := ExposureLimits{PerPayer: 2, Site: big.NewInt(100)}
	h := holdOf(1, "0xA", 10, now.Add(time.Minute))
	if ok, err := e.Reserve(h, lim, now); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := e.Release(h, now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if err := e.Release(holdOf(9, "0xa", 10, now), now.Add(time.Minute), now); err != nil {
		t.Fatal(err)
	}
	if until, boxed, err := e.BoxedUntil("0xa", now); err != nil || !boxed || !until.Equal(now.Add(time.Hour)) {
		t.Fatalf("BoxedUntil = %v, %v, %v; want the hour's penalty", until, boxed, err)
	}
	if ok, _ := e.Reserve(holdOf(2, "0xA", 10, now.Add(2*time.Hour)), lim, now.Add(time.Minute)); ok {
		t.Fatal("a boxed payer was reserved")
	}
	after := now.Add(time.Hour + time.Second)
	if ok, err := e.Reserve(holdOf(3, "0xA", 10, after.Add(time.Minute)), lim, after); !ok || err != nil {
		t.Fatalf("after its penalty: %v %v", ok, err)
	}
	if n, err := e.Prune(after.Add(2 * time.Minute)); err != nil || n != 2 {
		t.Fatalf("Prune = %d, %v; want the payer's and the asset's keys", n, err)
	}
}

// TestExposureConcurrent: 50 reservations at once of a bound that admits
// 7 admit 7, and the amount held is the bound's.
func TestExposureConcurrent(t *testing.T) {
	t.Parallel()
	e := openExposure(t)
	now := time.Unix(1_800_000_000, 0)
	lim := ExposureLimits{PerPayer: 1, Site: big.NewInt(70)}
	var ok atomic.Int32
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			payer := string(rune('A'+i%26)) + string(rune('a'+i/26))
			got, err := e.Reserve(holdOf(uint64(i), payer, 10, now.Add(time.Minute)), lim, now)
			if err != nil {
				t.Error(err)
			}
			if got {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 7 {
		t.Fatalf("%d reservations admitted; want 7", ok.Load())
	}
	v, _ := e.kv.Get(assetKey("eip155:31337/0xtoken"))
	if s := decodeHolds(v, now).sum(); s.Int64() != 70 {
		t.Fatalf("held %s; want 70", s)
	}
}

// FuzzDecodeHolds: any value decodes without a panic, and what decodes
// encodes to a value that decodes the same.
func FuzzDecodeHolds(f *testing.F) {
	f.Add([]byte{})
	f.Add(holdList{boxed: time.Unix(5, 0), holds: []heldAmount{{id: [8]byte{1}, expires: 1 << 62, amount: big.NewInt(300)}}}.encode())
	f.Fuzz(func(t *testing.T, v []byte) {
		now := time.Unix(0, 0)
		l := decodeHolds(v, now)
		again := decodeHolds(l.encode(), now)
		if len(again.holds) != len(l.holds) || again.sum().Cmp(l.sum()) != 0 || !again.boxed.Equal(l.boxed) {
			t.Fatalf("round trip changed %x", v)
		}
	})
}

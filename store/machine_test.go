package store

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Every transition of the state machine, legal and not, from each stored
// state.
func TestTransitions(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "x402.db"))
	defer s.Close()
	submitted := func(r Record) Record {
		r.State, r.TxHash, r.RawTx = StateSubmitted, common.Hash{0x77}, []byte{1}
		return r
	}
	final := func(r Record, st State) Record {
		r.State, r.Response = st, &x402.SettleResponse{X402Version: 2, Success: st == StateSettled}
		return r
	}
	type step func(*Store, Record) error
	var (
		submit  step = func(s *Store, r Record) error { r = submitted(r); return s.Submit(&r) }
		settle  step = func(s *Store, r Record) error { r = final(submitted(r), StateSettled); return s.Finish(&r) }
		fail    step = func(s *Store, r Record) error { r = final(submitted(r), StateFailed); return s.Finish(&r) }
		release step = func(s *Store, r Record) error { return s.Release(r.Key) }
	)
	tests := []struct {
		name  string
		setup []step // from claimed
		do    step
		ok    bool
		want  State // stored state after, "" for none
	}{
		{"claimed → submitted", nil, submit, true, StateSubmitted},
		{"claimed → settled", nil, settle, false, StateClaimed},
		{"claimed → released", nil, release, true, ""},
		{"submitted → submitted (signed again)", []step{submit}, submit, true, StateSubmitted},
		{"submitted → settled", []step{submit}, settle, true, StateSettled},
		{"submitted → failed", []step{submit}, fail, true, StateFailed},
		{"submitted → released", []step{submit}, release, true, ""},
		{"settled → submitted", []step{submit, settle}, submit, false, StateSettled},
		{"settled → failed", []step{submit, settle}, fail, false, StateSettled},
		{"settled → released", []step{submit, settle}, release, false, StateSettled},
		{"failed → settled", []step{submit, fail}, settle, false, StateFailed},
		{"failed → released", []step{submit, fail}, release, false, StateFailed},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := record(byte(0x10 + i))
			if _, ok, err := s.Claim(r); err != nil || !ok {
				t.Fatalf("claim: %v %v", ok, err)
			}
			for _, st := range tc.setup {
				if err := st(s, r); err != nil {
					t.Fatalf("setup: %v", err)
				}
			}
			err := tc.do(s, r)
			if tc.ok != (err == nil) || (!tc.ok && !errors.Is(err, ErrTransition)) {
				t.Fatalf("err = %v, want ok %v (or ErrTransition)", err, tc.ok)
			}
			got, err := s.Get(r.Key)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && got != nil:
				t.Fatalf("record stays: %s", got.State)
			case tc.want != "" && (got == nil || got.State != tc.want):
				t.Fatalf("stored %+v, want %s", got, tc.want)
			}
		})
	}
	t.Run("a record that is not there", func(t *testing.T) {
		r := submitted(record(0x99))
		if err := s.Submit(&r); !errors.Is(err, ErrTransition) {
			t.Fatalf("submit without a claim: %v", err)
		}
		if err := s.Release(r.Key); err != nil {
			t.Fatalf("releasing nothing: %v", err)
		}
	})
	t.Run("submit needs a transaction", func(t *testing.T) {
		r := record(0x98)
		s.Claim(r)
		r.State = StateSubmitted
		if err := s.Submit(&r); !errors.Is(err, ErrTransition) {
			t.Fatalf("submit without a transaction: %v", err)
		}
	})
}

// Finishing races: of concurrent finishes of one submitted record, one
// wins and the rest are ErrTransition; the record is final once.
func TestFinishOnce(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "x402.db"))
	defer s.Close()
	r := record(1)
	s.Claim(r)
	r.State, r.TxHash = StateSubmitted, common.Hash{1}
	if err := s.Submit(&r); err != nil {
		t.Fatal(err)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins int
	)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := r
			f.State, f.Response, f.Consumer = StateSettled, &x402.SettleResponse{X402Version: 2, Success: true}, string(rune('a'+i))
			err := s.Finish(&f)
			if err != nil && !errors.Is(err, ErrTransition) {
				t.Error(err)
			}
			mu.Lock()
			wins += map[bool]int{true: 1}[err == nil]
			mu.Unlock()
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d finishes won, want 1", wins)
	}
}

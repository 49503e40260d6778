package store

import (
	"math/big"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func record(key byte) Record {
	return Record{
		Key: common.Hash{key}, PayloadHash: common.Hash{0xee, key}, State: StateClaimed,
		Scheme: x402.SchemeExact, Network: "eip155:31337",
		Payer: common.Address{1}, PayTo: common.Address{2}, Asset: common.Address{3}, Amount: big.NewInt(10_000),
		Created: time.Unix(1_800_000_000, 0).UTC(), Updated: time.Unix(1_800_000_000, 0).UTC(),
	}
}

func TestClaimIsExclusiveUnderConcurrency(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "x402.db"))
	defer s.Close()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners int
	)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rec := record(7)
			rec.PayloadHash = common.Hash{byte(i)}
			got, claimed, err := s.Claim(rec)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if claimed {
				winners++
			} else if got.Key != rec.Key {
				t.Errorf("existing record has key %s", got.Key)
			}
		}(i)
	}
	wg.Wait()
	if winners != 1 {
		t.Fatalf("%d claims won the same key, want 1", winners)
	}
}

func TestRecordsSurviveReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sub", "x402.db")
	s := open(t, path)
	pending := record(1)
	pending.State = StateSubmitted
	pending.TxHash = common.Hash{0xaa}
	pending.RawTx = []byte{1, 2, 3}
	if _, ok, err := s.Claim(pending); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	done := record(2)
	if _, _, err := s.Claim(done); err != nil {
		t.Fatal(err)
	}
	done.State = StateSettled
	done.Response = &x402.SettleResponse{Success: true, X402Version: 2, Network: "eip155:31337", TransactionHash: "0xbb"}
	if err := s.put(&done); err != nil {
		t.Fatal(err)
	}
	released := record(3)
	if _, _, err := s.Claim(released); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(released.Key); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, path)
	defer s.Close()
	unfinished, err := s.Unfinished()
	if err != nil {
		t.Fatal(err)
	}
	if len(unfinished) != 1 || unfinished[0].TxHash != pending.TxHash || string(unfinished[0].RawTx) != "\x01\x02\x03" || unfinished[0].Amount.Cmp(big.NewInt(10_000)) != 0 {
		t.Fatalf("unfinished = %+v", unfinished)
	}
	got, err := s.Get(done.Key)
	if err != nil || got == nil || got.State != StateSettled || got.Response.TransactionHash != "0xbb" {
		t.Fatalf("settled record = %+v, %v", got, err)
	}
	if got, _ := s.Get(released.Key); got != nil {
		t.Fatalf("deleted record came back: %+v", got)
	}
	// A second Get is served by the cache and is the same record.
	s.cache.Wait()
	again, _ := s.Get(done.Key)
	if again.Response.TransactionHash != "0xbb" {
		t.Fatalf("cached record = %+v", again)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	if _, err := Open(Config{}); err == nil {
		t.Error("empty path accepted")
	}
	path := filepath.Join(t.TempDir(), "x402.db")
	s := open(t, path)
	defer s.Close()
	if _, err := Open(Config{Path: path}); err == nil {
		t.Error("a locked store opened twice")
	}
}

func TestBucket(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	s := open(t, path)
	if _, err := s.Bucket("settlements"); err == nil {
		t.Fatal("the settlements bucket was handed out")
	}
	b, err := s.Bucket("keys")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := b.Get([]byte("a")); err != nil || v != nil {
		t.Fatalf("missing key: %q %v", v, err)
	}
	b.Put([]byte("a"), []byte("1"))
	b.Put([]byte("b"), []byte("2"))
	b.Delete([]byte("b"))
	s.Close()
	s = open(t, path)
	defer s.Close()
	b, _ = s.Bucket("keys")
	var seen []string
	b.ForEach(func(k, v []byte) error { seen = append(seen, string(k)+"="+string(v)); return nil })
	if len(seen) != 1 || seen[0] != "a=1" {
		t.Fatalf("after reopen: %v", seen)
	}
}

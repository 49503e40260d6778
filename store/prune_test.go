package store

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/caddy-x402/caddy-x402/x402"
)

// layBulk stores recs, indexed, in one transaction: laying out thousands
// of records without a commit each.
func layBulk(t *testing.T, s *Store, recs []Record) {
	t.Helper()
	err := s.db.Update(func(tx *bolt.Tx) error {
		for i := range recs {
			raw, err := encode(&recs[i])
			if err != nil {
				return err
			}
			if err := tx.Bucket(settlementsBucket).Put(recs[i].Key[:], raw); err != nil {
				return err
			}
			if err := reindex(tx, nil, &recs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// numbered is record i of a bulk layout, in state, created i milliseconds
// after the suite's time.
func numbered(i int, state State) Record {
	r := record(0)
	binary.BigEndian.PutUint32(r.Key[:], uint32(i))
	r.State, r.Created = state, r.Created.Add(time.Duration(i)*time.Millisecond)
	r.Updated = r.Created
	if state.Final() {
		r.Response = &x402.SettleResponse{X402Version: 2, Success: state == StateSettled}
	}
	return r
}

// txID is the id of the store's last write transaction.
func txID(t *testing.T, s *Store) int {
	t.Helper()
	var id int
	if err := s.db.View(func(tx *bolt.Tx) error {
		id = tx.ID()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return id
}

// A prune commits every pruneBatch records, so other writers get in
// between; and a run of more than pruneScan records it keeps is crossed
// in several transactions, resuming where the last one stopped.
func TestPruneWorksInShortTransactions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		kept, pruned int
		commits      int // of the prune
	}{
		{"pruned records", 0, 1000, 4},                                // 256, 256, 256, 232
		{"a long run of kept records first", 2*pruneScan + 10, 10, 1}, // 4096 read, 4096 read (no commit), 20 read
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := open(t, filepath.Join(t.TempDir(), "x402.db"))
			defer s.Close()
			var recs []Record
			for i := range tc.kept {
				recs = append(recs, numbered(i, StateClaimed))
			}
			for i := range tc.pruned {
				recs = append(recs, numbered(tc.kept+i, StateSettled))
			}
			layBulk(t, s, recs)
			before := txID(t, s)
			n, err := s.PruneFinal(t.Context(), recs[len(recs)-1].Created.Add(time.Second), 1<<30)
			if err != nil || n != tc.pruned {
				t.Fatalf("pruned %d, %v; want %d", n, err, tc.pruned)
			}
			if got := txID(t, s) - before; got != tc.commits {
				t.Fatalf("the prune made %d commits, want %d", got, tc.commits)
			}
			sum, err := s.Unfinished()
			if err != nil || len(sum) != tc.kept {
				t.Fatalf("%d unfinished records left, %v; want %d", len(sum), err, tc.kept)
			}
		})
	}
}

// A pruned record is gone from the cache of final records too, and the
// time index holds one entry per record after a prune, so Open does not
// rebuild it.
func TestPruneDropsCachedRecordsAndIndexEntries(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	s := open(t, path)
	r := numbered(1, StateSettled)
	layBulk(t, s, []Record{r, numbered(2, StateSettled), numbered(3, StateClaimed)})
	if got, err := s.Get(r.Key); err != nil || got == nil {
		t.Fatalf("get: %+v %v", got, err)
	}
	s.cache.Wait() // the record is cached
	if _, ok := s.cachedGet(string(r.Key[:])); !ok {
		t.Fatal("the final record was not cached")
	}
	if n, err := s.PruneFinal(t.Context(), r.Created.Add(time.Hour), 10); err != nil || n != 2 {
		t.Fatalf("pruned %d, %v; want 2", n, err)
	}
	if got, err := s.Get(r.Key); err != nil || got != nil {
		t.Fatalf("a pruned record is still read: %+v %v", got, err)
	}
	counts := func() (records, index int) {
		s.db.View(func(tx *bolt.Tx) error {
			records, index = tx.Bucket(settlementsBucket).Stats().KeyN, tx.Bucket(createdBucket).Stats().KeyN
			return nil
		})
		return records, index
	}
	if records, index := counts(); records != 1 || index != 1 {
		t.Fatalf("%d records and %d index entries, want 1 and 1", records, index)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// A record written before final records were trimmed keeps its signed
// transaction, and reads as it did; it is trimmed when it is next
// written.
func TestOldRecordsReadWithTheirTransaction(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "x402.db"))
	defer s.Close()
	raw, err := os.ReadFile("storetest/testdata/settled-exact.json")
	if err != nil {
		t.Fatal(err)
	}
	old, err := decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	old.Served = false
	raw, err = json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(settlementsBucket).Put(old.Key[:], raw); err != nil {
			return err
		}
		return reindex(tx, nil, old)
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(old.Key)
	if err != nil || got == nil || len(got.RawTx) != len(old.RawTx) || got.State != StateSettled {
		t.Fatalf("the old record reads as %+v, %v", got, err)
	}
	if err := s.Serve(old.Key, old.Consumer); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(old.Key); err != nil || len(got.RawTx) != 0 || !got.Served || got.TxHash != old.TxHash {
		t.Fatalf("the old record rewritten: %+v, %v", got, err)
	}
}

// A process that opened the store file and waited for its lock while a
// restore or a compaction renamed a new file over it does not use the old
// one.
func TestOpenRefusesAReplacedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x402.db")
	s := open(t, path)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Rename(path+backupSuffix, path); err != nil {
		t.Fatal(err)
	}
	if err := checkFile(f, path, true, false); err != errReplaced {
		t.Fatalf("checking a replaced file: %v", err)
	}
	again, err := Open(Config{Path: path})
	if err != nil {
		t.Fatalf("opening the new file: %v", err)
	}
	again.Close()
}

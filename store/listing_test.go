package store

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	bolt "go.etcd.io/bbolt"

	"github.com/caddy-x402/caddy-x402/x402"
)

// checkIndex fails t unless db's time index holds exactly one entry per
// record, under the record's Created and key.
func checkIndex(t *testing.T, db *bolt.DB) {
	t.Helper()
	err := db.View(func(tx *bolt.Tx) error {
		var want, got [][]byte
		if err := tx.Bucket(settlementsBucket).ForEach(func(_, raw []byte) error {
			r, err := decode(raw)
			want = append(want, indexKey(r))
			return err
		}); err != nil {
			return err
		}
		if err := tx.Bucket(createdBucket).ForEach(func(k, _ []byte) error {
			got = append(got, bytes.Clone(k))
			return nil
		}); err != nil {
			return err
		}
		slices.SortFunc(want, bytes.Compare)
		if !slices.EqualFunc(got, want, bytes.Equal) {
			t.Errorf("the index holds %d entries %x,\nwant %d %x", len(got), got, len(want), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// listed is every record of s's listing, newest first.
func listed(t *testing.T, s *Store) []common.Hash {
	t.Helper()
	var out []common.Hash
	q := Query{Limit: 3}
	for {
		p, err := s.List(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Records {
			out = append(out, r.Key)
		}
		if p.Next == "" {
			return out
		}
		q.After = p.Next
	}
}

// Every write keeps the time index at one entry per record: claims, moves,
// a reclaim, releases, a claim again at another time, consumers and
// replaced transactions, and put over a record with another Created.
func TestIndexFollowsWrites(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "x402.db"))
	defer s.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	at := func(key byte, d time.Duration) Record {
		r := record(key)
		r.Created = r.Created.Add(d)
		r.Updated = r.Created
		return r
	}
	for i := range byte(6) {
		if _, ok, err := s.Claim(at(i, time.Duration(i)*time.Minute)); err != nil || !ok {
			t.Fatalf("claim %d: %v %v", i, ok, err)
		}
	}
	checkIndex(t, s.db)

	sub := at(1, time.Minute)
	sub.State, sub.TxHash, sub.RawTx = StateSubmitted, common.Hash{1}, []byte{1}
	must(s.Submit(&sub))
	fin := sub
	fin.State, fin.Response = StateSettled, &x402.SettleResponse{Success: true}
	must(s.Finish(&fin))
	if _, ok, err := s.Consume(fin.Key, "owner"); err != nil || !ok {
		t.Fatalf("consume: %v %v", ok, err)
	}
	must(s.Serve(fin.Key, "owner"))
	sub2 := at(2, 2*time.Minute)
	sub2.State, sub2.TxHash = StateSubmitted, common.Hash{2}
	must(s.Submit(&sub2))
	if ok, err := s.Resubmit(sub2.Key, common.Hash{2}, common.Hash{3}, []byte{3}); err != nil || !ok {
		t.Fatalf("resubmit: %v %v", ok, err)
	}
	fresh := at(3, 3*time.Minute)
	fresh.Updated = fresh.Updated.Add(time.Hour)
	if ok, err := s.Reclaim(&fresh, fresh.Created.Add(time.Second)); err != nil || !ok {
		t.Fatalf("reclaim: %v %v", ok, err)
	}
	must(s.Release(common.Hash{4}))
	must(s.Release(sub2.Key))
	checkIndex(t, s.db)

	// Claimed again later; a record put back at another time.
	if _, ok, err := s.Claim(at(4, time.Hour)); err != nil || !ok {
		t.Fatalf("claim again: %v %v", ok, err)
	}
	moved := at(5, -time.Hour)
	must(s.put(&moved))
	checkIndex(t, s.db)
	want := []common.Hash{{4}, {3}, {1}, {0}, {5}}
	if got := listed(t, s); !slices.Equal(got, want) {
		t.Fatalf("listed %x, want %x", got, want)
	}
}

// A store file without a sound time index (written before it existed, or
// by such a binary since) gets it rebuilt at Open, and lists every record.
func TestIndexIsRebuiltAtOpen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		damage func(tx *bolt.Tx) error
	}{
		{"missing", func(tx *bolt.Tx) error { return tx.DeleteBucket(createdBucket) }},
		{"an entry missing", func(tx *bolt.Tx) error {
			k, _ := tx.Bucket(createdBucket).Cursor().First()
			return tx.Bucket(createdBucket).Delete(k)
		}},
		{"a record claimed without an entry", func(tx *bolt.Tx) error {
			raw, err := encode(&Record{Key: common.Hash{9}, State: StateClaimed, Created: time.Unix(1_700_000_000, 0)})
			if err != nil {
				return err
			}
			return tx.Bucket(settlementsBucket).Put(common.Hash{9}.Bytes(), raw)
		}},
		{"an entry of a released record", func(tx *bolt.Tx) error {
			return tx.Bucket(createdBucket).Put(indexKey(&Record{Key: common.Hash{8}, Created: time.Unix(1_900_000_000, 0)}), []byte{})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "x402.db")
			s := open(t, path)
			var want []common.Hash
			for i := range byte(5) {
				r := record(i)
				r.Created = r.Created.Add(time.Duration(i) * time.Second)
				if _, _, err := s.Claim(r); err != nil {
					t.Fatal(err)
				}
				want = append([]common.Hash{r.Key}, want...)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(tc.damage); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}

			s = open(t, path)
			defer s.Close()
			checkIndex(t, s.db)
			got := listed(t, s)
			if tc.name == "a record claimed without an entry" {
				want = append(want, common.Hash{9}) // created in 2023
			}
			if !slices.Equal(got, want) {
				t.Fatalf("listed %x, want %x", got, want)
			}
		})
	}
}

// A file whose index must be rebuilt is refused as damaged, with the way
// back, if a record in it does not decode: Open does not start over a
// store it cannot list.
func TestIndexRebuildRefusesAnUndecodableRecord(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	s := open(t, path)
	if _, _, err := s.Claim(record(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(createdBucket); err != nil {
			return err
		}
		return tx.Bucket(settlementsBucket).Put(common.Hash{2}.Bytes(), []byte("{not json"))
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(Config{Path: path})
	if err == nil {
		s.Close()
		t.Fatal("opened a store whose index cannot be built")
	}
	if _, ok := errors.AsType[*damageError](err); !ok || !strings.Contains(err.Error(), "store restore") {
		t.Fatalf("Open: %v, want a damage error that names the way back", err)
	}
}

// The index bucket is the store's own: no service may open it as a
// key-value space.
func TestIndexBucketIsReserved(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "x402.db"))
	defer s.Close()
	if _, err := s.Bucket(string(createdBucket)); err == nil {
		t.Fatal("the index bucket was handed out")
	}
}

// A cursor's bytes sort as its times, then its keys, for times before 1970
// and far from it as well.
func TestCursorOrder(t *testing.T) {
	t.Parallel()
	times := []time.Time{
		{},
		time.Unix(math.MinInt64/4, 0),
		time.Unix(-1, 999_999_999),
		time.Unix(0, 0),
		time.Unix(0, 1),
		time.Unix(1_800_000_000, 0),
		time.Unix(1_800_000_000, 999_999_999),
		time.Unix(math.MaxInt64/4, 0),
	}
	var cursors []Cursor
	for _, ts := range times {
		for _, k := range []common.Hash{{1}, {2}} {
			cursors = append(cursors, Cursor{Created: ts, Key: k})
		}
	}
	for i, a := range cursors {
		for j, b := range cursors {
			if got, want := bytes.Compare(a.bytes(), b.bytes()), cmpCursor(a, b); got != want {
				t.Errorf("cursors %d and %d compare %d, want %d", i, j, got, want)
			}
		}
		back, err := DecodeCursor(a.String())
		if err != nil || !back.Created.Equal(a.Created) || back.Key != a.Key {
			t.Errorf("cursor %d decodes to %v %v", i, back, err)
		}
	}
}

func cmpCursor(a, b Cursor) int {
	if c := a.Created.Compare(b.Created); c != 0 {
		return c
	}
	return bytes.Compare(a.Key[:], b.Key[:])
}

// percentile interpolates as PostgreSQL's percentile_cont does.
func TestPercentile(t *testing.T) {
	t.Parallel()
	s := time.Second
	for _, tc := range []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"none", nil, 0.5, 0},
		{"one", []time.Duration{s}, 0.99, s},
		{"two, half way", []time.Duration{s, 3 * s}, 0.5, 2 * s},
		{"odd count, median", []time.Duration{s, 2 * s, 9 * s}, 0.5, 2 * s},
		{"99th of five", []time.Duration{s, 2 * s, 3 * s, 4 * s, 5 * s}, 0.99, 4960 * time.Millisecond},
		{"the last", []time.Duration{s, 2 * s}, 1, 2 * s},
		{"the first", []time.Duration{s, 2 * s}, 0, s},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := percentile(tc.sorted, tc.p); got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

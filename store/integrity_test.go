package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	bolt "go.etcd.io/bbolt"
)

// populate fills a new store at path with enough settlement records to need
// a branch page, plus a paymaster key, and closes it.
func populate(t *testing.T, path string) {
	t.Helper()
	s := open(t, path)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				rec := record(0)
				rec.Key = common.Hash{byte(g), byte(i)}
				rec.State = StateSubmitted
				rec.RawTx = bytes.Repeat([]byte{byte(i)}, 300)
				if _, _, err := s.Claim(rec); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	b, err := s.Bucket("paymaster_keys")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Put([]byte("pmk_1"), []byte(`{"project":"demo"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// layout is where a populated store keeps the pages the tests damage.
type layout struct {
	pageSize int64
	freelist int64 // the freelist page of the newest meta page
	root     int64 // the root bucket's page, a leaf
	branch   int64 // the settlements bucket's root, a branch page
	leaf     int64 // the first leaf under it
}

// layoutOf reads the layout with bbolt's public API and, where it has
// none, the documented on-disk format.
func layoutOf(t *testing.T, path string) layout {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var l layout
	l.pageSize = int64(db.Info().PageSize)
	err = db.View(func(tx *bolt.Tx) error {
		l.branch = int64(tx.Bucket(settlementsBucket).Root())
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u16 := func(off int64) uint16 { return binary.NativeEndian.Uint16(raw[off:]) }
	u64 := func(off int64) uint64 { return binary.NativeEndian.Uint64(raw[off:]) }
	if flags := u16(l.branch*l.pageSize + 8); flags != 0x01 {
		t.Fatalf("the settlements root is not a branch page (flags %#x): populate more records", flags)
	}
	l.leaf = int64(u64(l.branch*l.pageSize + 16 + 8))
	// Meta pages: a 16-byte page header, then magic, version, page size,
	// flags, root bucket (16 bytes), freelist, high-water mark, txid.
	meta := int64(0)
	if u64(l.pageSize+16+48) > u64(16+48) {
		meta = l.pageSize
	}
	l.freelist = int64(u64(meta + 16 + 32))
	l.root = int64(u64(meta + 16 + 16))
	if flags := u16(l.root*l.pageSize + 8); flags != 0x02 {
		t.Fatalf("the root bucket's page is not a leaf (flags %#x)", flags)
	}
	return l
}

func writeAt(t *testing.T, path string, off int64, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(data, off); err != nil {
		t.Fatal(err)
	}
}

func randomBytes(n int64, seed uint64) []byte {
	b := make([]byte, n)
	rand.NewChaCha8([32]byte{byte(seed)}).Read(b)
	return b
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(raw)
}

// damages are the ways a store file is found broken. Each must be refused
// with an error that names the file, says what is wrong and how to
// recover, without a panic and without touching the file.
var damages = []struct {
	name   string
	damage func(t *testing.T, path string, l layout)
	want   string
}{
	{"truncated to half", func(t *testing.T, path string, _ layout) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, fi.Size()/2); err != nil {
			t.Fatal(err)
		}
	}, "truncated"},
	{"truncated inside the meta pages", func(t *testing.T, path string, l layout) {
		if err := os.Truncate(path, l.pageSize+100); err != nil {
			t.Fatal(err)
		}
	}, "truncated"},
	{"zero length", func(t *testing.T, path string, _ layout) {
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
	}, "exists but is empty"},
	{"meta page 0 overwritten", func(t *testing.T, path string, l layout) {
		writeAt(t, path, 0, randomBytes(l.pageSize, 1))
	}, "meta page 0"},
	{"meta page 1 overwritten", func(t *testing.T, path string, l layout) {
		writeAt(t, path, l.pageSize, randomBytes(l.pageSize, 2))
	}, "meta page 1"},
	{"meta checksum off by one bit", func(t *testing.T, path string, l layout) {
		writeAt(t, path, l.pageSize+16+40, []byte{0x80}) // high-water mark of meta 1
	}, "meta page 1: checksum mismatch"},
	{"freelist page overwritten", func(t *testing.T, path string, l layout) {
		writeAt(t, path, l.freelist*l.pageSize, randomBytes(l.pageSize, 3))
	}, "page "},
	{"branch page overwritten", func(t *testing.T, path string, l layout) {
		writeAt(t, path, l.branch*l.pageSize, randomBytes(l.pageSize, 4))
	}, "page "},
	{"leaf page overwritten", func(t *testing.T, path string, l layout) {
		writeAt(t, path, l.leaf*l.pageSize, randomBytes(l.pageSize, 5))
	}, "page "},
	{"leaf element points far outside its page", func(t *testing.T, path string, l layout) {
		// The first element's pos field: page header, then flags, pos.
		writeAt(t, path, l.leaf*l.pageSize+16+4, []byte{0, 0, 0, 0x7f})
	}, "outside"},
	{"branch page points at itself", func(t *testing.T, path string, l layout) {
		var id [8]byte
		binary.NativeEndian.PutUint64(id[:], uint64(l.branch))
		writeAt(t, path, l.branch*l.pageSize+16+8, id[:])
	}, "referenced twice"},
	{"root bucket holds a plain key", func(t *testing.T, path string, l layout) {
		// The flags of the root's first element, paymaster_keys.
		writeAt(t, path, l.root*l.pageSize+16, []byte{0, 0, 0, 0})
	}, "not a bucket"},
	{"not a store file", func(t *testing.T, path string, _ layout) {
		if err := os.WriteFile(path, bytes.Repeat([]byte("not a bbolt file\n"), 1000), 0o600); err != nil {
			t.Fatal(err)
		}
	}, "not a store file"},
}

func TestOpenRefusesDamagedFile(t *testing.T) {
	t.Parallel()
	for _, tt := range damages {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "x402.db")
			populate(t, path)
			tt.damage(t, path, layoutOf(t, path))
			before := fileHash(t, path)

			s, err := Open(Config{Path: path})
			if err == nil {
				s.Close()
				t.Fatal("a damaged store opened")
			}
			msg := err.Error()
			for _, want := range []string{path, tt.want, "caddy x402 store restore --store " + path} {
				if !strings.Contains(msg, want) {
					t.Errorf("error does not say %q:\n%s", want, msg)
				}
			}
			if fileHash(t, path) != before {
				t.Error("opening changed the damaged file")
			}
		})
	}
}

func TestOpenCreatesOnlyAMissingFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "new", "x402.db")
	s := open(t, path)
	if _, ok, err := s.Claim(record(1)); err != nil || !ok {
		t.Fatalf("claim in a new store: %v %v", ok, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	if got, err := s.Get(common.Hash{1}); err != nil || got == nil {
		t.Fatalf("the record of a new store did not survive: %+v %v", got, err)
	}
}

func TestOpenLockedIsNotDamage(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	populate(t, path)
	s := open(t, path)
	defer s.Close()
	_, err := Open(Config{Path: path})
	if err == nil || !strings.Contains(err.Error(), "locked by another process") || strings.Contains(err.Error(), "damaged") {
		t.Fatalf("opening a store in use: %v", err)
	}
}

// Every shape bbolt writes must pass: overflow pages, nested and inline
// buckets, a freelist left by deletes, many commits.
func TestOpenAcceptsEverySoundShape(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	populate(t, path)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("shapes"))
			if err != nil {
				return err
			}
			if err := b.Put([]byte{byte(i)}, bytes.Repeat([]byte{byte(i)}, 3*4096+i)); err != nil { // overflow pages
				return err
			}
			nested, err := b.CreateBucketIfNotExists([]byte("nested"))
			if err != nil {
				return err
			}
			if err := nested.Put([]byte{byte(i)}, bytes.Repeat([]byte{1}, 500)); err != nil {
				return err
			}
			inline, err := b.CreateBucketIfNotExists([]byte("inline"))
			if err != nil {
				return err
			}
			if err := inline.Put([]byte("k"), []byte{byte(i)}); err != nil {
				return err
			}
			if i%3 == 2 {
				return tx.Bucket(settlementsBucket).Delete(common.Hash{byte(i % 8), byte(i)}.Bytes())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	sum, err := Check(path)
	if err != nil || sum.Settlements != 310 || sum.Buckets["shapes"] == 0 {
		t.Fatalf("Check = %+v, %v", sum, err)
	}
	s := open(t, path)
	defer s.Close()
	if got, err := s.Get(common.Hash{7, 39}); err != nil || got == nil {
		t.Fatalf("a record of the sound store: %+v %v", got, err)
	}
}

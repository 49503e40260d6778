package store

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	bolt "go.etcd.io/bbolt"
)

// populated is what populate writes, as Check reports it.
var populated = Summary{Settlements: 320, Unfinished: 320, Buckets: map[string]int{"paymaster_keys": 1}}

func sameSummary(a, b Summary) bool {
	return a.Settlements == b.Settlements && a.Unfinished == b.Unfinished && maps.Equal(a.Buckets, b.Buckets)
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustNotExist(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists (%v)", path, err)
	}
}

func TestCloseWritesCheckedBackup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x402.db")
	populate(t, path)
	got, err := Check(path + ".bak")
	if err != nil || !sameSummary(got, populated) {
		t.Fatalf("backup after close: %+v, %v", got, err)
	}

	// The next clean shutdown replaces it with the newer state.
	s := open(t, path)
	done := record(0xff)
	done.State = StateSettled
	if err := s.put(&done); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	b := open(t, path+".bak")
	defer b.Close()
	if r, err := b.Get(done.Key); err != nil || r == nil || r.State != StateSettled {
		t.Fatalf("the backup lacks the last write: %+v %v", r, err)
	}
	if unfinished, err := b.Unfinished(); err != nil || len(unfinished) != 320 {
		t.Fatalf("the backup holds %d unfinished records, %v", len(unfinished), err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func TestCloseReportsAFailedBackupAndStillCloses(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	// A directory where the backup goes cannot be replaced by it.
	if err := os.MkdirAll(filepath.Join(path+".bak", "keep"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	if _, _, err := s.Claim(record(1)); err != nil {
		t.Fatal(err)
	}
	err := s.Close()
	if err == nil || !strings.Contains(err.Error(), "writing backup "+path+".bak") {
		t.Fatalf("close with an unwritable backup: %v", err)
	}
	if _, err := os.Stat(filepath.Join(path+".bak", "keep")); err != nil {
		t.Fatalf("what stood at the backup's place was touched: %v", err)
	}
	s = open(t, path) // the file was closed and unlocked all the same
	defer s.Close()
	if r, err := s.Get(common.Hash{1}); err != nil || r == nil {
		t.Fatalf("record after a failed backup: %+v %v", r, err)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	t.Run("sound", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "x402.db")
		populate(t, path)
		got, err := Check(path)
		if err != nil || !sameSummary(got, populated) {
			t.Fatalf("Check = %+v, %v; want %+v", got, err, populated)
		}
	})
	t.Run("missing file is not created", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "typo.db")
		if _, err := Check(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Fatalf("checking a missing file: %v", err)
		}
		mustNotExist(t, path)
	})
	t.Run("in use", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "x402.db")
		s := open(t, path)
		defer s.Close()
		if _, err := Check(path); err == nil || !strings.Contains(err.Error(), "locked by another process") {
			t.Fatalf("checking a store in use: %v", err)
		}
	})
	t.Run("undecodable record", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "x402.db")
		populate(t, path)
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(settlementsBucket).Put([]byte{0xab}, []byte("{not json"))
		})
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		_, err = Check(path)
		if err == nil || !strings.Contains(err.Error(), "settlement ab") || !strings.Contains(err.Error(), "caddy x402 store restore") {
			t.Fatalf("checking a store with a broken record: %v", err)
		}
	})
	for _, tt := range damages {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "x402.db")
			populate(t, path)
			tt.damage(t, path, layoutOf(t, path))
			before := fileHash(t, path)
			_, err := Check(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check of a damaged file: %v", err)
			}
			if fileHash(t, path) != before {
				t.Error("Check changed the file")
			}
		})
	}
}

func TestBackup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x402.db")
	populate(t, path)

	dst := filepath.Join(dir, "copy.db")
	if err := os.WriteFile(dst, []byte("older backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Backup(path, dst); err != nil {
		t.Fatal(err)
	}
	if got, err := Check(dst); err != nil || !sameSummary(got, populated) {
		t.Fatalf("the backup: %+v, %v", got, err)
	}

	if err := Backup(path, path); err == nil {
		t.Error("a store was backed up over itself")
	}
	missing := filepath.Join(dir, "typo.db")
	if err := Backup(missing, filepath.Join(dir, "typo.bak")); err == nil {
		t.Error("a missing store was backed up")
	}
	mustNotExist(t, missing)
	mustNotExist(t, filepath.Join(dir, "typo.bak"))

	if err := os.Truncate(path, 4096*3); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.bak")
	if err := Backup(path, bad); err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Errorf("backing up a damaged store: %v", err)
	}
	mustNotExist(t, bad)
}

func TestRestore(t *testing.T) {
	t.Parallel()
	t.Run("damaged store from its backup", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "x402.db")
		populate(t, path)
		fi, _ := os.Stat(path)
		if err := os.Truncate(path, fi.Size()/2); err != nil {
			t.Fatal(err)
		}
		damagedHash := fileHash(t, path)

		aside, err := Restore(path, path+".bak")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(aside, path+".corrupt-") || fileHash(t, aside) != damagedHash {
			t.Fatalf("the damaged file was not kept: %q", aside)
		}
		if got, err := Check(path); err != nil || !sameSummary(got, populated) {
			t.Fatalf("after restore: %+v, %v", got, err)
		}
		s := open(t, path)
		defer s.Close()
		if r, err := s.Get(common.Hash{7, 39}); err != nil || r == nil || r.State != StateSubmitted || len(r.RawTx) != 300 {
			t.Fatalf("restored record: %+v %v", r, err)
		}
	})
	t.Run("missing store", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		backup := filepath.Join(dir, "x402.db.bak")
		populate(t, filepath.Join(dir, "old.db"))
		copyFile(t, filepath.Join(dir, "old.db"), backup)
		path := filepath.Join(dir, "new", "x402.db")
		aside, err := Restore(path, backup)
		if err != nil || aside != "" {
			t.Fatalf("Restore = %q, %v", aside, err)
		}
		if got, err := Check(path); err != nil || !sameSummary(got, populated) {
			t.Fatalf("after restore: %+v, %v", got, err)
		}
	})
	refusals := []struct {
		name    string
		prepare func(t *testing.T, path, backup string) (cleanup func())
		want    string
	}{
		{"damaged backup", func(t *testing.T, _, backup string) func() {
			if err := os.Truncate(backup, 4096*3); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}, "is damaged"},
		{"empty backup", func(t *testing.T, _, backup string) func() {
			if err := os.Truncate(backup, 0); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}, "exists but is empty"},
		{"missing backup", func(t *testing.T, _, backup string) func() {
			if err := os.Remove(backup); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}, "no such file"},
		{"store in use", func(t *testing.T, path, _ string) func() {
			s := open(t, path)
			return func() { s.Close() }
		}, "locked by another process"},
		{"backup is the store", func(t *testing.T, path, backup string) func() {
			if err := os.Remove(backup); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(path, backup); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}, "the backup is the store file itself"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path, backup := filepath.Join(dir, "x402.db"), filepath.Join(dir, "x402.db.bak")
			populate(t, path)
			cleanup := tt.prepare(t, path, backup)
			before := fileHash(t, path)
			_, err := Restore(path, backup)
			cleanup()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Restore: %v, want %q", err, tt.want)
			}
			if fileHash(t, path) != before {
				t.Error("a refused restore changed the store")
			}
			if asides, _ := filepath.Glob(path + ".*-*"); len(asides) != 0 {
				t.Errorf("a refused restore left files: %v", asides)
			}
		})
	}
}

package caddymodule

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/storetest"
)

func runStore(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := storeCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// newStore writes a store with one pending settlement and one API key.
func newStore(t *testing.T, path string) {
	t.Helper()
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Claim(store.Record{Key: common.Hash{1}, State: store.StateSubmitted, Amount: big.NewInt(1)}); err != nil {
		t.Fatal(err)
	}
	b, err := st.Bucket("paymaster_keys")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Put([]byte("pmk_1"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestStoreCommandRecovers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x402.db")
	newStore(t, path)

	out, err := runStore(t, "check", "--store", path)
	if err != nil || !strings.Contains(out, path+": ok") || !strings.Contains(out, "(1 unfinished)") || !strings.Contains(out, "paymaster_keys") {
		t.Fatalf("check: %v\n%s", err, out)
	}

	backup := filepath.Join(dir, "manual.bak")
	if out, err := runStore(t, "backup", "--store", path, "--to", backup); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	if sum, err := store.Check(backup); err != nil || sum.Settlements != 1 || sum.Buckets["paymaster_keys"] != 1 {
		t.Fatalf("the backup: %+v %v", sum, err)
	}
	if _, err := runStore(t, "backup", "--store", path, "--to", backup); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("backup over an existing file: %v", err)
	}
	if out, err := runStore(t, "backup", "--store", path, "--to", backup, "--force"); err != nil {
		t.Fatalf("backup --force: %v\n%s", err, out)
	}

	// Damage the first meta page: check fails, naming the file and the way back.
	if err := os.WriteFile(path, make([]byte, 4096), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runStore(t, "check", "--store", path); err == nil ||
		!strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "caddy x402 store restore --store "+path) {
		t.Fatalf("check of a damaged store: %v", err)
	}

	out, err = runStore(t, "restore", "--store", path, "--from", backup)
	if err != nil || !strings.Contains(out, "kept as "+path+".corrupt-") {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if r, err := st.Get(common.Hash{1}); err != nil || r == nil || r.State != store.StateSubmitted {
		t.Fatalf("the restored record: %+v %v", r, err)
	}
	// Caddy holds the store now: restore refuses.
	if _, err := runStore(t, "restore", "--store", path, "--from", backup); err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("restore of a store in use: %v", err)
	}
}

func TestStoreCommandRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "x402.db")
	newStore(t, path)
	typo := filepath.Join(dir, "x402.bd")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"check without --store", []string{"check"}, "--store is required"},
		{"backup without --to", []string{"backup", "--store", path}, "--to is required"},
		{"restore without --from", []string{"restore", "--store", path}, "--from is required"},
		{"check of a missing store", []string{"check", "--store", typo}, "file does not exist"},
		{"backup of a missing store", []string{"backup", "--store", typo, "--to", typo + ".bak"}, "file does not exist"},
		{"restore from a missing backup", []string{"restore", "--store", path, "--from", typo}, "no such file"},
		{"arguments", []string{"check", "--store", path, "extra"}, "unknown command"},
	}
	t.Run("each", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				if out, err := runStore(t, tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("%v: %v, want %q\n%s", tt.args, err, tt.want, out)
				}
			})
		}
	})
	for _, p := range []string{typo, typo + ".bak"} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a refused command created %s", p)
		}
	}
}

// compact gives back the pages of pruned records: the file shrinks, and
// what is left, the unfinished record and the API key, is still there.
func TestStoreCommandCompacts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	newStore(t, path)
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	created := time.Now().Add(-48 * time.Hour)
	for i := range 3000 {
		storetest.Settle(t, st, storetest.Payment(i, created))
	}
	for {
		n, err := st.PruneFinal(context.Background(), time.Now().Add(-24*time.Hour), 256)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	grown, _ := os.Stat(path)

	out, err := runStore(t, "compact", "--store", path)
	if err != nil || !strings.Contains(out, "compacted "+path) {
		t.Fatalf("compact: %v\n%s", err, out)
	}
	after, _ := os.Stat(path)
	if after.Size() >= grown.Size()/2 {
		t.Fatalf("the store is %d bytes after compact, %d before", after.Size(), grown.Size())
	}
	if sum, err := store.Check(path); err != nil || sum.Settlements != 1 || sum.Unfinished != 1 || sum.Buckets["paymaster_keys"] != 1 {
		t.Fatalf("the compacted store: %+v %v", sum, err)
	}
}

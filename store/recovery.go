package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Summary is what Check found in a sound store file.
type Summary struct {
	// Settlements counts the settlement records; Unfinished counts those
	// not yet settled or failed, which a restart reconciles with the chain.
	Settlements, Unfinished int
	// Buckets counts the keys of each other bucket (the paymaster's API
	// keys, the faucet's timestamps), by bucket name; the settlements'
	// time index, which Open rebuilds if need be, is not one of them.
	Buckets map[string]int
}

// Check verifies the store file at path without changing it: the checks
// Open makes (meta pages, size, page structure, bbolt's consistency check),
// and that every settlement record decodes. It opens the file read-only, so
// it fails on a file a running Caddy holds, and on a missing file rather
// than create one.
func Check(path string) (Summary, error) {
	db, err := openBolt(path, true)
	if err != nil {
		return Summary{}, err
	}
	defer db.Close()
	sum := Summary{Buckets: make(map[string]int)}
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if b == nil {
				return fmt.Errorf("the root holds %x, which is not a bucket", name)
			}
			if string(name) == string(createdBucket) {
				return nil // the settlements' index, rebuilt by Open if need be
			}
			if string(name) != string(settlementsBucket) {
				sum.Buckets[string(name)] = b.Stats().KeyN
				return nil
			}
			return b.ForEach(func(k, raw []byte) error {
				r, err := decode(raw)
				if err != nil {
					return fmt.Errorf("settlement %x: %w", k, err)
				}
				sum.Settlements++
				if !r.State.Final() {
					sum.Unfinished++
				}
				return nil
			})
		})
	})
	if err != nil {
		return Summary{}, damaged(path, err)
	}
	return sum, nil
}

// Backup writes a consistent copy of the store file at path to dst. The
// copy is checked as Open would check it before it replaces any file at
// dst. The store must not be open in another process; a running Caddy
// writes its own backup, path + ".bak", each time it closes the store.
func Backup(path, dst string) error {
	if sameFile(path, dst) {
		return fmt.Errorf("backing up store %s: the backup would overwrite the store", path)
	}
	db, err := openBolt(path, true)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := writeCopy(db, dst); err != nil {
		return fmt.Errorf("backing up store %s to %s: %w", path, dst, err)
	}
	return nil
}

// Restore puts a copy of the backup src in place of the store file at
// path, once the copy has passed the checks Open makes. The file it
// replaces, damaged or not, is first copied to path + ".corrupt-" + the UTC
// time, which Restore returns ("" if there was no file). The store file is
// replaced in one rename, so it never goes missing. Restore refuses while
// another process, such as a running Caddy, holds the store.
func Restore(path, src string) (aside string, err error) {
	if sameFile(path, src) {
		return "", fmt.Errorf("restoring store %s: the backup is the store file itself", path)
	}
	cur, err := os.OpenFile(path, os.O_RDWR, 0)
	switch {
	case err == nil:
		defer cur.Close()
		if err := lockFile(cur, true, lockTimeout); err != nil {
			if errors.Is(err, berrors.ErrTimeout) {
				return "", fmt.Errorf("restoring store %s: locked by another process; stop Caddy first: %w", path, err)
			}
			return "", fmt.Errorf("restoring store %s: %w", path, err)
		}
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("restoring store %s: creating its directory: %w", path, err)
		}
	default:
		return "", fmt.Errorf("restoring store %s: %w", path, err)
	}

	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".restore-*")
	if err != nil {
		return "", fmt.Errorf("restoring store %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := copyInto(tmp, src); err != nil {
		return "", fmt.Errorf("restoring store %s: copying %s: %w", path, src, err)
	}
	if err := verifyFile(tmp.Name()); err != nil {
		return "", fmt.Errorf("restoring store %s: backup %s %w", path, src, reason(err))
	}
	if cur != nil {
		aside = path + ".corrupt-" + time.Now().UTC().Format("20060102T150405Z")
		f, err := os.OpenFile(aside, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return "", fmt.Errorf("restoring store %s: keeping the old file: %w", path, err)
		}
		if err := copyInto(f, path); err != nil {
			os.Remove(aside)
			return "", fmt.Errorf("restoring store %s: keeping the old file as %s: %w", path, aside, err)
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("restoring store %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return aside, fmt.Errorf("restoring store %s: %w", path, err)
	}
	return aside, nil
}

// writeCopy writes a consistent copy of db to dst through a temporary file
// beside it, which is synced and checked before it is renamed over dst: dst
// is always either its old self or a complete, sound copy.
func writeCopy(db *bolt.DB, dst string) error {
	tmp, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	err = db.View(func(tx *bolt.Tx) error {
		_, err := tx.WriteTo(tmp)
		return err
	})
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the copy: %w", err)
	}
	if err := verifyFile(tmp.Name()); err != nil {
		return fmt.Errorf("the copy %w", reason(err))
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return err
	}
	return syncDir(filepath.Dir(dst))
}

// verifyFile makes Open's checks on the file at path, read-only.
func verifyFile(path string) error {
	db, err := openBolt(path, true)
	if err != nil {
		return err
	}
	return db.Close()
}

// copyInto copies the file src into dst, syncs dst and closes it.
func copyInto(dst *os.File, src string) error {
	in, err := os.Open(src)
	if err != nil {
		dst.Close()
		return err
	}
	defer in.Close()
	_, err = io.Copy(dst, in)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes a rename in dir durable. Windows cannot sync a directory,
// and needs not.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// compactTxSize is how many bytes Compact copies per write transaction of
// the new file.
const compactTxSize = 64 << 20

// Compact rewrites the store file at path without its free pages, and
// returns the file's size before and after. bbolt never shrinks its file:
// the pages of pruned (or otherwise deleted) records stay in it, free, and
// later writes reuse them. Compact gives them back to the file system,
// after a retention was first set on a store that had grown for a long
// time, say.
//
// It copies every bucket of the store into a new file beside it, checks
// the copy as Open would and that it holds as many entries in each
// bucket, then renames it over path, so the store file is never missing
// or partial. It needs free space for the copy. Like Restore it refuses a
// damaged file, and refuses while another process, such as a running
// Caddy, holds the store.
func Compact(path string) (before, after int64, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: %w", path, err)
	}
	before = fi.Size()
	src, err := openBolt(path, false) // locked for writing: no one else has it open
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, 0, fmt.Errorf("compacting store %s: %w", path, err)
		}
		return 0, 0, err
	}
	defer src.Close()

	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".compact-*")
	if err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: %w", path, err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	dst, err := bolt.Open(tmp.Name(), 0o600, &bolt.Options{Timeout: lockTimeout})
	if err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: %w", path, err)
	}
	err = bolt.Compact(dst, src, compactTxSize)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: copying: %w", path, err)
	}
	if err := sameCounts(src, tmp.Name()); err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: the copy %w", path, reason(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: %w", path, err)
	}
	if fi, err = os.Stat(path); err != nil {
		return 0, 0, fmt.Errorf("compacting store %s: %w", path, err)
	}
	return before, fi.Size(), nil
}

// sameCounts opens the file at path with Open's checks and reports
// whether its buckets hold as many entries as src's.
func sameCounts(src *bolt.DB, path string) error {
	db, err := openBolt(path, true)
	if err != nil {
		return err
	}
	defer db.Close()
	want, err := bucketCounts(src)
	if err != nil {
		return err
	}
	got, err := bucketCounts(db)
	if err != nil {
		return err
	}
	if !maps.Equal(got, want) {
		return fmt.Errorf("holds %v entries per bucket, not %v", got, want)
	}
	return nil
}

// bucketCounts is the number of entries of each bucket of db.
func bucketCounts(db *bolt.DB) (map[string]int, error) {
	out := map[string]int{}
	err := db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			out[string(name)] = b.Stats().KeyN
			return nil
		})
	})
	return out, err
}

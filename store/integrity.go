package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// lockTimeout bounds the wait for a store file another process holds.
const lockTimeout = time.Second

// backupSuffix names the backup Close writes beside the store file.
const backupSuffix = ".bak"

// damageError reports a store file that must not be used: damaged, or empty
// where a store was expected. Its message names the file and the way back.
type damageError struct {
	path   string
	reason error  // reads after "store file <path> " or "backup <path> "
	backup string // the shutdown backup beside the file, if there is one
}

func newDamageError(path string, reason error) *damageError {
	e := &damageError{path: path, reason: reason}
	if fi, err := os.Stat(path + backupSuffix); err == nil && fi.Mode().IsRegular() {
		e.backup = fmt.Sprintf("%s (written at the clean shutdown of %s)", path+backupSuffix, fi.ModTime().UTC().Format(time.RFC3339))
	}
	return e
}

func damaged(path string, reason error) *damageError {
	return newDamageError(path, fmt.Errorf("is damaged: %w", reason))
}

var errEmpty = errors.New("exists but is empty")

// errReplaced is returned by openBolt when the file at its path was
// replaced while it waited for the file's lock; opening it again works.
var errReplaced = errors.New("the file was replaced while it was being opened (by a restore or a compaction); open it again")

func (e *damageError) Error() string {
	kept := "it was not opened and is left as it is"
	if errors.Is(e.reason, errEmpty) {
		kept = "a new store started over it would silently lose every record, so it is left as it is " +
			"(delete it to start a new store on purpose)"
	}
	from := e.backup
	if from == "" {
		from = "<backup file>"
	}
	return fmt.Sprintf("store file %s %v; %s; to recover, run: caddy x402 store restore --store %s --from %s",
		e.path, e.reason, kept, e.path, from)
}

func (e *damageError) Unwrap() error { return e.reason }

// reason returns what is wrong with a file that failed its check, without
// the advice to restore it, for errors about files other than the store.
func reason(err error) error {
	if de, ok := errors.AsType[*damageError](err); ok {
		return de.reason
	}
	return err
}

// openBolt opens the bbolt file at path and refuses it, with a
// *damageError, if it fails inspect or bbolt's consistency check. Only a
// missing file is created, and only for writing: an existing empty file is
// refused, never initialized.
//
// The file is locked before anything is read, so a store in use by another
// process is reported as locked, not damaged.
func openBolt(path string, readOnly bool) (*bolt.DB, error) {
	_, err := os.Stat(path)
	existed := err == nil
	switch {
	case errors.Is(err, fs.ErrNotExist) && readOnly:
		return nil, fmt.Errorf("opening store %s: %w", path, fs.ErrNotExist)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("opening store %s: %w", path, err)
	}
	openFile := func(name string, flag int, mode os.FileMode) (*os.File, error) {
		if existed {
			flag &^= os.O_CREATE // a file deleted since is not recreated empty
		}
		f, err := os.OpenFile(name, flag, mode)
		if err != nil {
			return nil, err
		}
		if err := checkFile(f, path, existed, readOnly); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	var db *bolt.DB
	err = guard(func() (err error) {
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: lockTimeout, ReadOnly: readOnly, OpenFile: openFile})
		return err
	})
	switch _, isDamage := errors.AsType[*damageError](err); {
	case isDamage:
		return nil, err
	case errors.Is(err, errPanicked):
		return nil, damaged(path, err)
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("opening store %s: locked by another process (is Caddy running on it?): %w", path, err)
	case err != nil:
		return nil, fmt.Errorf("opening store %s: %w", path, err)
	}
	if err := guard(func() error { return db.View(checkTx) }); err != nil {
		db.Close()
		return nil, damaged(path, err)
	}
	return db, nil
}

// checkFile locks f, the file at path, and inspects it before bbolt reads it.
func checkFile(f *os.File, path string, existed, readOnly bool) error {
	if err := lockFile(f, !readOnly, lockTimeout); err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	// Restore and Compact rename a new file over the store while they hold
	// the old one's lock: a process that waited for that lock holds a file
	// that is no longer the store.
	if cur, err := os.Stat(path); err != nil || !os.SameFile(fi, cur) {
		return errReplaced
	}
	if fi.Size() == 0 {
		if existed || readOnly {
			return newDamageError(path, errEmpty)
		}
		return nil // just created: bbolt initializes it
	}
	if err := inspect(f, fi.Size()); err != nil {
		return damaged(path, err)
	}
	return nil
}

// checkTx runs bbolt's consistency check (freelist, reachability, key
// order) and returns the first problem it finds.
func checkTx(tx *bolt.Tx) error {
	var (
		first error
		more  int
	)
	for err := range tx.Check() { // drained, so its goroutine ends
		if first == nil {
			first = err
		} else {
			more++
		}
	}
	if more > 0 {
		return fmt.Errorf("%w (and %d more problems)", first, more)
	}
	return first
}

var errPanicked = errors.New("bbolt panicked")

// guard runs fn and returns a panic, or a memory fault in the mapped file,
// as an error. bbolt asserts its invariants by panicking; inspect leaves it
// little to assert, and guard is the last line.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanicked, r)
		}
	}()
	return fn()
}

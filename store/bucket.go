package store

import (
	"fmt"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// Bucket is the bbolt store's KV: a bucket of the store file.
type Bucket struct {
	db    *bolt.DB
	store *Store // for its write
	name  []byte
	// emptyAt is 1 more than the store's written count when a read found
	// the bucket empty (zero: never). Most buckets a verification reads
	// are empty almost always (the penalty box holds only the payers whose
	// settlements reverted in the last hour), and only this process can
	// write the file, so until the store writes again such a read needs
	// no transaction.
	emptyAt atomic.Uint64
}

var _ EarlyKV = (*Bucket)(nil)

// Bucket returns the named bucket, creating it if needed.
func (s *Store) Bucket(name string) (KV, error) {
	if name == string(settlementsBucket) || name == string(createdBucket) {
		return nil, fmt.Errorf("bucket %q is reserved", name)
	}
	if err := s.update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists([]byte(name))
		return err
	}); err != nil {
		return nil, fmt.Errorf("creating bucket %s: %w", name, err)
	}
	return &Bucket{db: s.db, store: s, name: []byte(name)}, nil
}

// Get returns the value of key, or nil if there is none. A bucket found
// empty is not read again until the store writes (Bucket.emptyAt).
func (b *Bucket) Get(key []byte) ([]byte, error) {
	written := b.store.written.Load()
	if b.emptyAt.Load() == written+1 {
		return nil, nil
	}
	var out []byte
	empty := false
	err := b.db.View(func(tx *bolt.Tx) error {
		bk := tx.Bucket(b.name)
		if v := bk.Get(key); v != nil {
			out = append([]byte(nil), v...)
		} else {
			first, _ := bk.Cursor().First()
			empty = first == nil
		}
		return nil
	})
	if err == nil && empty {
		b.emptyAt.Store(written + 1)
	}
	return out, err
}

// Put durably sets key to value.
func (b *Bucket) Put(key, value []byte) error {
	return b.store.write(func(tx *bolt.Tx) error { return tx.Bucket(b.name).Put(key, value) })
}

// Delete durably removes key; removing a missing key is no error.
func (b *Bucket) Delete(key []byte) error {
	return b.store.write(func(tx *bolt.Tx) error { return tx.Bucket(b.name).Delete(key) })
}

// ForEach calls fn for every entry, in key order, until fn fails.
func (b *Bucket) ForEach(fn func(key, value []byte) error) error {
	return b.db.View(func(tx *bolt.Tx) error { return tx.Bucket(b.name).ForEach(fn) })
}

// Update atomically replaces the value of key with what fn makes of a copy
// of the current one (nil if there is none): a read-modify-write that no
// other writer of the store can interleave with. fn returning nil, or
// failing, leaves key as it was; a failure is returned. fn may run more
// than once.
func (b *Bucket) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	return b.store.update(func(tx *bolt.Tx) error {
		bk := tx.Bucket(b.name)
		var old []byte
		if v := bk.Get(key); v != nil {
			old = append([]byte(nil), v...)
		}
		next, err := fn(old)
		if err != nil || next == nil {
			return err
		}
		return bk.Put(key, next)
	})
}

// UpdateEarly implements EarlyKV: fn runs in a write transaction shared
// with the early updates of the store that arrive while the last one is
// being committed, and is decided there; the transaction is committed
// (written and synced) in another goroutine, once for all of them
// (earlyWriter).
func (b *Bucket) UpdateEarly(key []byte, fn func(old []byte) ([]byte, error)) (func() error, error) {
	return b.store.early.update(b.db, &earlyUpdate{bucket: b.name, key: key, fn: fn})
}

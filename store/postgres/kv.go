package postgres

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/caddy-x402/caddy-x402/store"
)

// reservedBucket is the name the bbolt store keeps for its settlements;
// it is refused here too, so a configuration valid on one backend is valid
// on the other.
const reservedBucket = "settlements"

// forEachPage is how many entries ForEach reads per query.
const forEachPage = 256

// bucket is one named key-value space: the rows of kv with its name.
type bucket struct {
	s    *Store
	name string
}

var _ store.KV = (*bucket)(nil)

// Bucket returns the named key-value space. Spaces are rows of one table,
// so there is nothing to create.
func (s *Store) Bucket(name string) (store.KV, error) {
	if name == "" {
		return nil, errors.New("bucket name is empty")
	}
	if name == reservedBucket {
		return nil, fmt.Errorf("bucket %q is reserved", name)
	}
	return &bucket{s: s, name: name}, nil
}

// Get returns the value of key, or nil if there is none.
func (b *bucket) Get(key []byte) ([]byte, error) {
	ctx, cancel := op()
	defer cancel()
	var v []byte
	err := b.s.pool.QueryRow(ctx, `SELECT value FROM kv WHERE bucket = $1 AND key = $2 AND value IS NOT NULL`, b.name, key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s/%x: %w", b.name, key, err)
	}
	return v, nil
}

// Put durably sets key to value.
func (b *bucket) Put(key, value []byte) error {
	if value == nil {
		value = []byte{} // NULL is Update's placeholder, not a value
	}
	ctx, cancel := op()
	defer cancel()
	if _, err := b.s.pool.Exec(ctx, `INSERT INTO kv (bucket, key, value) VALUES ($1, $2, $3)
		ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value`, b.name, key, value); err != nil {
		return fmt.Errorf("writing %s/%x: %w", b.name, key, err)
	}
	return nil
}

// Delete durably removes key; removing a missing key is no error.
func (b *bucket) Delete(key []byte) error {
	ctx, cancel := op()
	defer cancel()
	if _, err := b.s.pool.Exec(ctx, `DELETE FROM kv WHERE bucket = $1 AND key = $2`, b.name, key); err != nil {
		return fmt.Errorf("deleting %s/%x: %w", b.name, key, err)
	}
	return nil
}

// ForEach calls fn for every entry, in key order (bytewise, as bbolt's),
// until fn fails, and returns fn's error. It reads a page of entries at a
// time and holds no connection while fn runs, so fn may read the store;
// an entry written during the walk may or may not be seen.
func (b *bucket) ForEach(fn func(key, value []byte) error) error {
	var after []byte
	first := true
	for {
		ctx, cancel := op()
		rows, err := b.s.pool.Query(ctx, `SELECT key, value FROM kv
			WHERE bucket = $1 AND value IS NOT NULL AND ($2 OR key > $3)
			ORDER BY key LIMIT $4`, b.name, first, after, forEachPage)
		if err != nil {
			cancel()
			return fmt.Errorf("listing %s: %w", b.name, err)
		}
		type entry struct{ key, value []byte }
		page, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (entry, error) {
			var e entry
			err := row.Scan(&e.key, &e.value)
			return e, err
		})
		cancel()
		if err != nil {
			return fmt.Errorf("listing %s: %w", b.name, err)
		}
		for _, e := range page {
			if err := fn(e.key, e.value); err != nil {
				return err
			}
		}
		if len(page) < forEachPage {
			return nil
		}
		first, after = false, page[len(page)-1].key
	}
}

// Update atomically replaces the value of key with what fn makes of the
// current one (nil if there is none), across every process sharing the
// database. In one transaction, one statement inserts a placeholder row (a
// NULL value) if the key has none, or else locks the key's row (INSERT …
// ON CONFLICT DO UPDATE, which PostgreSQL makes atomic): a writer that
// finds no row waits through the primary key on the other's uncommitted
// placeholder, and one that finds a row waits on its lock, so a missing key
// is serialized as well as an existing one, with no lock outside the
// database. fn returning nil, or failing, rolls the transaction back,
// placeholder included; a failure is returned. fn runs once per call here;
// callers must still let it run more than once, as store.KV says.
func (b *bucket) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	ctx, cancel := op()
	defer cancel()
	var fnErr error
	err := inTx(ctx, b.s.pool, func(tx pgx.Tx) error {
		fnErr = nil
		var old []byte
		if err := tx.QueryRow(ctx, `INSERT INTO kv (bucket, key, value) VALUES ($1, $2, NULL)
			ON CONFLICT (bucket, key) DO UPDATE SET value = kv.value
			RETURNING value`, b.name, key).Scan(&old); err != nil {
			return err
		}
		next, err := fn(old)
		if err != nil {
			fnErr = err
			return errRollback
		}
		if next == nil {
			return errRollback
		}
		_, err = tx.Exec(ctx, `UPDATE kv SET value = $3 WHERE bucket = $1 AND key = $2`, b.name, key, next)
		return err
	})
	switch {
	case fnErr != nil:
		return fnErr
	case errors.Is(err, errRollback):
		return nil
	case err != nil:
		return fmt.Errorf("updating %s/%x: %w", b.name, key, err)
	}
	return nil
}

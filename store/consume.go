package store

import (
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	bolt "go.etcd.io/bbolt"
)

// Consume hands a settled payment's response to owner, atomically: if the
// record has no consumer yet, or its consumer died with its response
// unwritten and a handover is left (Consumed), owner becomes it. It
// returns the record and whether owner is its consumer. A settled payment
// pays for one response, so only its consumer (and the consumer's
// retries, which present the same owner) may be given the receipt; anyone
// else presenting the payment gets replay. The validity window is read
// against this process's wall clock.
func (s *Store) Consume(key common.Hash, owner string) (*Record, bool, error) {
	if owner == "" {
		return nil, false, fmt.Errorf("consuming %s: no owner", key)
	}
	var (
		rec *Record
		ok  bool
	)
	err := s.write(func(tx *bolt.Tx) error {
		rec, ok = nil, false // Batch may run this more than once
		b := tx.Bucket(settlementsBucket)
		raw := b.Get(key[:])
		if raw == nil {
			return fmt.Errorf("no record")
		}
		r, err := decode(raw)
		if err != nil {
			return err
		}
		rec = r
		var changed bool
		if ok, changed = Consumed(r, owner, s.instance, time.Now(), s.alive); !changed {
			return nil
		}
		raw, err = encode(r)
		if err != nil {
			return err
		}
		return b.Put(key[:], raw)
	})
	if err != nil {
		return nil, false, fmt.Errorf("consuming %s: %w", key, err)
	}
	// Dropped rather than updated: the cache may drop a set, and a stale
	// record without its consumer must not outlive this write.
	s.uncache(string(key[:]))
	return rec, ok, nil
}

// alive reports whether instance is this handle: a file is held by one
// process at a time, so any other instance's process is gone.
func (s *Store) alive(instance string) bool { return instance == s.instance }

// Instance names this handle (see Settlements.Instance).
func (s *Store) Instance() string { return s.instance }

// Alive reports whether instance is this handle (see alive).
func (s *Store) Alive(instance string) (bool, error) { return s.alive(instance), nil }

// Serve records that owner wrote the response key's payment bought.
func (s *Store) Serve(key common.Hash, owner string) error {
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket(settlementsBucket)
		raw := b.Get(key[:])
		if raw == nil {
			return nil
		}
		r, err := decode(raw)
		if err != nil {
			return err
		}
		if r.State != StateSettled || r.Consumer != owner || r.Served {
			return nil
		}
		r.Served = true
		if raw, err = encode(r); err != nil {
			return err
		}
		return b.Put(key[:], raw)
	})
	if err != nil {
		return fmt.Errorf("recording the response of %s: %w", key, err)
	}
	s.uncache(string(key[:]))
	return nil
}

// Resubmit records that the transaction of a submitted settlement was
// replaced (the same nonce, higher fees): if the record of key is still
// submitted with transaction old, it takes replacement's hash and raw
// bytes, atomically. It reports whether it did; a record that moved on (it
// is final, or holds another transaction) is left as it is.
func (s *Store) Resubmit(key, old, replacement common.Hash, raw []byte) (bool, error) {
	done := false
	err := s.write(func(tx *bolt.Tx) error {
		done = false // Batch may run this more than once
		b := tx.Bucket(settlementsBucket)
		v := b.Get(key[:])
		if v == nil {
			return nil
		}
		r, err := decode(v)
		if err != nil {
			return err
		}
		if r.State != StateSubmitted || r.TxHash != old {
			return nil
		}
		r.TxHash, r.RawTx = replacement, append([]byte(nil), raw...)
		if v, err = encode(r); err != nil {
			return err
		}
		done = true
		return b.Put(key[:], v)
	})
	if err != nil {
		return false, fmt.Errorf("recording the replacement of %s: %w", old, err)
	}
	s.uncache(string(key[:]))
	return done, nil
}

package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	bolt "go.etcd.io/bbolt"
)

// The settlement state machine, defined here and nowhere else:
//
//	(none) --Claim--> claimed --Submit--> submitted --Finish--> settled | failed
//	                  |  ^  |                |  ^
//	                  +--+  |                |  |   Reclaim: a stale claim taken over
//	                     |                   +--+ Submit (signed again), Resubmit (fees replaced)
//	                     +--Release--> (none) <--Release--+
//
// A record is claimed before anything is signed; submitted when its signed
// transaction (or its operation, handed to an external bundler) is stored,
// before broadcast; final once its transaction is mined. It is released
// (deleted, so the payment may be settled again) only from claimed or
// submitted, when nothing it sent can be mined. A settled record's
// consumer (the request its one response goes to) is set by Consume, and
// changes only when that consumer's process died before recording its
// response (Serve): at most MaxHandovers times, within the payment's
// validity window, counted in the write that hands it over (Consumed).
// Each transition is one atomic write that checks the stored state; any
// other change is ErrTransition. Claim stores the record it is given (the
// facilitator claims with StateClaimed; tests lay out other states with
// it).

// ErrTransition is an illegal change of a settlement record's state.
var ErrTransition = errors.New("illegal settlement state transition")

// ErrUnfunded refuses a funded claim (a fleet store's ClaimFunded): the
// payer's balance does not cover the payment and its other settlements in
// flight, those of every process sharing the store.
var ErrUnfunded = errors.New("the payer's balance does not cover this payment and its settlements in flight")

// next lists the states a stored record may move to by a write.
var next = map[State][]State{
	StateClaimed:   {StateSubmitted},
	StateSubmitted: {StateSubmitted, StateSettled, StateFailed},
}

// CanMove reports whether a stored record in state from may be overwritten
// by one in state to: the rule every backend's Submit and Finish apply
// under the stored record's lock.
func CanMove(from, to State) bool { return slices.Contains(next[from], to) }

// CheckSubmit reports whether rec may be given to Submit: its state is
// submitted and it holds a transaction or an operation.
func CheckSubmit(rec *Record) error {
	if rec.State != StateSubmitted || (rec.TxHash == (common.Hash{}) && rec.UserOpHash == (common.Hash{})) {
		return fmt.Errorf("%w: submitting %s needs state submitted and a transaction or operation", ErrTransition, rec.Key)
	}
	return nil
}

// CheckFinish reports whether rec may be given to Finish: its state is
// final and it holds its response.
func CheckFinish(rec *Record) error {
	if !rec.State.Final() || rec.Response == nil {
		return fmt.Errorf("%w: finishing %s needs a final state and a response", ErrTransition, rec.Key)
	}
	return nil
}

// CheckReclaim reports whether stored may be taken over by rec under
// Reclaim with stale: stored is claimed and older than stale, and rec is a
// claim of the same payment.
func CheckReclaim(stored, rec *Record, stale time.Time) bool {
	return stored.State == StateClaimed && stored.Updated.Before(stale) &&
		rec.State == StateClaimed && rec.Key == stored.Key && rec.PayloadHash == stored.PayloadHash
}

// MaxHandovers bounds Record.Handovers: after a crash between a response
// and its record (Served), the payment may buy one response more, no
// other.
const MaxHandovers = 1

// DefaultServeWindow is the validity window of a record that has no
// ServeBy (written before it existed): the paywall's default
// maxTimeoutSeconds.
const DefaultServeWindow = 60 * time.Second

// ServeDeadline is the end of r's validity window: ServeBy, or
// DefaultServeWindow after Created for a record without it.
func (r *Record) ServeDeadline() time.Time {
	if r.ServeBy.IsZero() {
		return r.Created.Add(DefaultServeWindow)
	}
	return r.ServeBy
}

// CanHandOver reports whether r's receipt may still be handed to a new
// consumer at now if its consumer died with its response unwritten: r is
// settled and not served, its handovers are not used up, and its validity
// window is open. It does not ask whether the consumer is alive.
func CanHandOver(r *Record, now time.Time) bool {
	return r.State == StateSettled && !r.Served && r.Handovers < MaxHandovers && now.Before(r.ServeDeadline())
}

// CanConsume reports whether owner may be handed the receipt of r at now:
// r is settled, and owner is its consumer, or it has none, or its consumer
// never wrote its response, the process that held it is gone (alive
// reports whether the store handle of an instance is still open), and
// CanHandOver. The last lets the payer's retry be served after a replica
// died between settling and answering, without letting a payment buy a
// second response while its first is being written; and since the dead
// replica may have written its response just before it died (it records
// Served after the response left), that retry is bounded: once, within
// the payment's validity window.
func CanConsume(r *Record, owner string, now time.Time, alive func(instance string) bool) bool {
	if r.State != StateSettled {
		return false
	}
	switch {
	case r.Consumer == "" || r.Consumer == owner:
		return true
	case r.ConsumerInstance == "" || !CanHandOver(r, now):
		return false
	}
	return !alive(r.ConsumerInstance)
}

// Consumed is the transition Consume makes on r, the stored record, under
// its lock: if owner may consume r at now (CanConsume), owner becomes its
// consumer in process instance, and a takeover from a consumer that died
// counts a handover. It reports whether owner is r's consumer, and whether
// r changed and must be written back in the same write.
func Consumed(r *Record, owner, instance string, now time.Time, alive func(instance string) bool) (ok, changed bool) {
	if !CanConsume(r, owner, now, alive) {
		return false, false
	}
	if r.Consumer == owner {
		return true, false
	}
	if r.Consumer != "" {
		r.Handovers++
	}
	r.Consumer, r.ConsumerInstance = owner, instance
	return true, true
}

// NewInstance names a store handle for ConsumerInstance: random, so that a
// process's name is never reused.
func NewInstance() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CheckRelease reports whether a stored record in state from may be
// released.
func CheckRelease(from State) error {
	if from.Final() {
		return fmt.Errorf("%w: releasing a %s record", ErrTransition, from)
	}
	return nil
}

// transition writes rec over its stored record if the stored record's
// state may move to rec's, and a final one's outbox entry (OutboxEntry)
// in the same commit.
func (s *Store) transition(rec *Record) error {
	raw, err := encode(rec)
	if err != nil {
		return err
	}
	outKey, outValue, err := OutboxEntry(rec)
	if err != nil {
		return err
	}
	err = s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket(settlementsBucket)
		v := b.Get(rec.Key[:])
		if v == nil {
			return fmt.Errorf("%w: no record to move to %s", ErrTransition, rec.State)
		}
		stored, err := decode(v)
		if err != nil {
			return err
		}
		if !CanMove(stored.State, rec.State) {
			return fmt.Errorf("%w: %s to %s", ErrTransition, stored.State, rec.State)
		}
		if err := b.Put(rec.Key[:], raw); err != nil {
			return err
		}
		if outKey != nil {
			// The outcome the merchant is told of, in the same commit.
			out, err := tx.CreateBucketIfNotExists([]byte(OutboxBucket))
			if err != nil {
				return err
			}
			if err := out.Put(outKey, outValue); err != nil {
				return err
			}
		}
		return reindex(tx, stored, rec)
	})
	if err != nil {
		return fmt.Errorf("moving %s: %w", rec.Key, err)
	}
	s.cached(rec)
	return nil
}

// Submit durably records rec as submitted: its signed transaction (TxHash
// and RawTx), or for an external bundler its operation (UserOpHash), is
// stored before it is broadcast. The stored record must be claimed, or
// submitted (a transaction signed again after its nonce was taken).
func (s *Store) Submit(rec *Record) error {
	if err := CheckSubmit(rec); err != nil {
		return err
	}
	return s.transition(rec)
}

// Finish durably records the final outcome of a submitted settlement:
// rec's state is settled or failed, with its response.
func (s *Store) Finish(rec *Record) error {
	if err := CheckFinish(rec); err != nil {
		return err
	}
	if rec.Consumer != "" && rec.ConsumerInstance == "" {
		rec.ConsumerInstance = s.instance
	}
	return s.transition(rec)
}

// Reclaim takes over a stale claim (see Settlements.Reclaim).
func (s *Store) Reclaim(rec *Record, stale time.Time) (bool, error) {
	raw, err := encode(rec)
	if err != nil {
		return false, err
	}
	done := false
	err = s.write(func(tx *bolt.Tx) error {
		done = false // Batch may run this more than once
		b := tx.Bucket(settlementsBucket)
		v := b.Get(rec.Key[:])
		if v == nil {
			return nil
		}
		stored, err := decode(v)
		if err != nil {
			return err
		}
		if !CheckReclaim(stored, rec, stale) {
			return nil
		}
		if err := b.Put(rec.Key[:], raw); err != nil {
			return err
		}
		done = true
		return reindex(tx, stored, rec)
	})
	if err != nil {
		return false, fmt.Errorf("reclaiming %s: %w", rec.Key, err)
	}
	s.cached(rec)
	return done, nil
}

// Release deletes a claimed or submitted record whose settlement sent
// nothing that can be mined, so the payment can be settled by a later
// attempt. A final record is never released; a missing one is fine.
func (s *Store) Release(key common.Hash) error {
	s.uncache(string(key[:]))
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket(settlementsBucket)
		v := b.Get(key[:])
		if v == nil {
			return nil
		}
		stored, err := decode(v)
		if err != nil {
			return err
		}
		if err := CheckRelease(stored.State); err != nil {
			return err
		}
		if err := b.Delete(key[:]); err != nil {
			return err
		}
		return reindex(tx, stored, nil)
	})
	if err != nil {
		return fmt.Errorf("releasing %s: %w", key, err)
	}
	return nil
}

package store

import (
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Settlements is the durable record of settlements: the seam every backend
// implements (the bbolt Store here; PostgreSQL for fleets). Its
// transitions are the state machine of machine.go, and storetest.Run is the
// conformance suite a backend must pass: exclusive claims under
// concurrency, legal and illegal transitions, one finish and one consumer
// per payment, and records that survive a reopen.
type Settlements interface {
	// Claim takes rec.Key for rec if no record holds it: (rec, true).
	// Otherwise it returns the record that holds it and false. rec is
	// claimed, or submitted with its transaction: a process alone on its
	// store signs first and claims with the signed transaction, in one
	// write (a fleet claims first, so that two replicas never sign one
	// payment).
	Claim(rec Record) (*Record, bool, error)
	// Get returns the record of key, or nil.
	Get(key common.Hash) (*Record, error)
	// Submit moves a claimed (or submitted) record to submitted, with its
	// transaction or operation stored before broadcast.
	Submit(rec *Record) error
	// Resubmit replaces a submitted record's transaction old with
	// replacement, if it still holds old.
	Resubmit(key, old, replacement common.Hash, raw []byte) (bool, error)
	// Finish moves a submitted record to settled or failed.
	Finish(rec *Record) error
	// Reclaim takes over the claim of rec.Key if its record is claimed
	// and was last updated before stale: a claim whose settle stopped
	// before it stored a transaction (its process died). It stores rec
	// (claimed, with a new Updated) and reports true; any other record is
	// left as it is, and Reclaim reports false. Of several processes
	// reclaiming one key at once, one wins.
	Reclaim(rec *Record, stale time.Time) (bool, error)
	// Release deletes a claimed or submitted record.
	Release(key common.Hash) error
	// Consume makes owner the consumer of a settled record if it may be
	// (CanConsume: it has none, or its consumer's response was never
	// written, that consumer's process is gone, no handover was made yet
	// and the payment's validity window is open), and reports whether
	// owner is its consumer. The consumer's process is this handle's. A
	// handover is counted (Record.Handovers) in the same atomic write that
	// makes owner the consumer (Consumed).
	Consume(key common.Hash, owner string) (*Record, bool, error)
	// Alive reports whether the store handle (the process) named
	// instance is open: whether a consumer of that instance may still be
	// writing its response.
	Alive(instance string) (bool, error)
	// Instance names this handle, as Consume writes it in a record's
	// ConsumerInstance.
	Instance() string
	// Serve records that owner, the consumer of key's settled record,
	// wrote its response: the payment is spent for good. It does nothing
	// for anyone else.
	Serve(key common.Hash, owner string) error
	// Unfinished lists the records that are not final.
	Unfinished() ([]*Record, error)
}

var _ Settlements = (*Store)(nil)

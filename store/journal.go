package store

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Journal is the shared record of a settler's nonces and signed
// transactions, for the senders of several processes (a fleet's replicas)
// that sign with one settler key. A store shared by processes implements
// it (the PostgreSQL store); the bbolt store, which one process holds, does
// not, and its sender hands out nonces in memory.
//
// Nonces are allocated in the journal, and each signed transaction is
// stored with its nonce in the same database transaction, before anyone
// broadcasts it. So any replica can broadcast again a transaction another
// replica signed, and fill the nonce of one that was given up, even after
// that replica died. One replica at a time holds the settler's lease and
// delivers the journal's transactions to the node, in nonce order.
type Journal interface {
	// Append allocates the lowest nonce of from that is at least floor and
	// above every nonce the journal holds for from, calls sign with it, and
	// stores the signed transaction under its nonce, atomically: a nonce is
	// never handed out twice, across processes, and a transaction is stored
	// before Append returns it. If sign fails, nothing is stored, the nonce
	// is not taken, and sign's error is returned.
	Append(ctx context.Context, from common.Address, floor uint64, sign func(nonce uint64) (*types.Transaction, error)) (*types.Transaction, error)
	// Replace stores tx in place of the transaction with hash old under
	// tx's nonce (a fee replacement, or a no-op filler of a void nonce), if
	// the entry still holds old; it reports whether it did.
	Replace(ctx context.Context, from common.Address, old common.Hash, tx *types.Transaction) (bool, error)
	// Void gives up the transaction with hash hash under nonce, if the
	// entry still holds it: it must not be broadcast (again), and the
	// deliverer fills the nonce with a no-op transfer. It reports whether
	// it did.
	Void(ctx context.Context, from common.Address, nonce uint64, hash common.Hash) (bool, error)
	// Entries returns from's entries with nonces at or above since, in
	// nonce order.
	Entries(ctx context.Context, from common.Address, since uint64) ([]JournalEntry, error)
	// Prune deletes from's entries below nonce (mined, so no longer
	// needed).
	Prune(ctx context.Context, from common.Address, below uint64) error
	// Lead makes this process the deliverer of from's transactions if no
	// other process is: it returns the lease and true, or nil and false
	// when another holds it. A lease is lost when the process dies or
	// loses its database connection; another process's Lead then succeeds.
	Lead(ctx context.Context, from common.Address) (Lease, bool, error)
	// Appended returns a channel that receives (best effort, coalesced)
	// when any process appends or replaces an entry of from, so the
	// deliverer need not poll. It is closed when ctx ends.
	Appended(ctx context.Context, from common.Address) (<-chan struct{}, error)
}

// JournalEntry is one nonce of the journal.
type JournalEntry struct {
	// Nonce is the transaction's nonce.
	Nonce uint64
	// Tx is the signed transaction that holds the nonce now: the latest of
	// its versions.
	Tx *types.Transaction
	// Previous are the hashes of the versions Tx replaced, oldest first:
	// any of them may be the one mined.
	Previous []common.Hash
	// Void is set when Tx was given up and must not be broadcast; the
	// nonce waits for a filler (Replace).
	Void bool
	// Created is when the nonce was allocated; Updated, when Tx last
	// changed.
	Created, Updated time.Time
}

// Lease is the right to deliver a settler's transactions. Lost is closed
// when the lease is gone (Release, a lost connection, a database
// restart); its holder must stop delivering then. Release gives it up; it
// is idempotent.
type Lease interface {
	Lost() <-chan struct{}
	Release()
}

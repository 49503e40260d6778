package store

import (
	"context"
	"time"
)

// FinalPruner deletes old final settlement records: the retention every
// Backend has, which a Pruner runs in the background. Without it a store
// grows by every payment for ever.
//
// # What is deleted
//
// PruneFinal deletes final records (settled or failed: State.Final) that
// were created and last updated before its cutoff, oldest first (by
// Created, then Key), with everything that indexes them: the bbolt store's
// time index, the PostgreSQL store's row and its index entries. A final
// record's Updated is when it became final, since handing it to its
// consumer and serving it do not change it. A claimed or submitted record
// is never deleted, however old, and neither is anything beside the
// records: the key-value spaces (the paymaster's keys and ledger, the
// transaction API's state) and the PostgreSQL journal of settler
// transactions and its leases are left alone.
//
// # Replays
//
// A pruned record's replay key is free again: Get returns nil and Claim
// takes it. So once its record is gone, a payment presented again is
// refused by the chain, as it would be at any other facilitator, and the
// facilitator checks the chain before it claims (verification):
//   - a settled exact payment used its EIP-3009 authorization, which the
//     token marks used for ever (authorizationState), so the facilitator
//     refuses it as replay, and the token would revert it anyway;
//   - an aa-native operation that was included used its nonce in the
//     EntryPoint, whether it succeeded or reverted, so it can never be
//     included again;
//   - a failed exact payment transferred nothing: presented again while
//     its authorization is valid, it is verified and settled afresh, as a
//     new payment. Nothing is paid or served twice.
//
// What a final record adds is the facilitator's memory of the payment:
// its receipt handed again to its consumer's retries, a failed payment's
// original answer, the retry of a payer whose consumer died before
// answering. Those come within minutes of the settlement. So records are
// pruned by age, not by the payment's validity window (validBefore is not
// stored, and a payer may sign one that ends centuries from now): the
// cutoff must be at least MinRetention in the past, far beyond those
// retries, the facilitator's receipt timeouts and the blocks its finality
// watcher follows. Pruner enforces that; PruneFinal takes any cutoff, for
// tests.
//
// # Listings and reports
//
// A pruned record is gone from List and Summarize: the listing ends at
// the oldest record kept, and a summary whose window reaches back past the
// retention counts what is left. No totals of pruned periods are kept:
// the summary's latency percentiles cannot be kept without the records,
// the dashboard's overview covers 7 days, and the chain keeps every
// transfer.
//
// # Space
//
// Neither backend gives space back to the file system. The bbolt store
// keeps the pages of pruned records in its freelist and writes new records
// into them, so a store under steady traffic stops growing once it holds a
// retention period's records; Compact, with Caddy stopped, rewrites the
// file without the free pages. PostgreSQL reuses the space of deleted rows
// once (auto)vacuum has processed them; VACUUM FULL gives it back.
type FinalPruner interface {
	// PruneFinal deletes at most limit final records created and last
	// updated before before, and returns how many it deleted. It works in
	// write transactions of at most a few hundred records, so it never
	// holds the store's writers back for long (bbolt has one writer at a
	// time), and checks ctx between them: a cancelled call returns what it
	// deleted so far with ctx's error. Several processes may prune one
	// PostgreSQL store at once: each record is deleted by one of them.
	// limit must be positive.
	PruneFinal(ctx context.Context, before time.Time, limit int) (int, error)
}

// MinRetention is the shortest retention a Pruner accepts: how long a
// final record is kept at least. It is far longer than a payment's retries
// and the facilitator's receipt timeouts and reorganisation watch (see
// FinalPruner), and as long as the dashboard's shortest chart.
const MinRetention = 24 * time.Hour

// pruneBatch bounds the records one write transaction of PruneFinal
// deletes: a few milliseconds of a bbolt writer's time (about 256 random
// leaf pages rewritten, and one fsync).
const pruneBatch = 256

// pruneScan bounds the time-index entries one bbolt write transaction of
// PruneFinal reads, so that a long run of records it keeps (unfinished, or
// finished after the cutoff) is crossed in several transactions.
const pruneScan = 4096

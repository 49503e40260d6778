package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/jackc/pgx/v5"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// journalChannel is the LISTEN/NOTIFY channel of every journal of the
// database; a notification's payload names the schema and the address.
const journalChannel = "x402_journal"

// payload is the notification of a change to from's journal.
func (s *Store) payload(from common.Address) string { return s.schema + "/" + from.Hex() }

// nonceArg is n as a bigint, which holds every nonce a chain accepts in
// practice (EIP-2681 caps them below 2^64-1; a settler reaching 2^63 is not
// a case to serve).
func nonceArg(n uint64) (int64, error) {
	if n > math.MaxInt64 {
		return 0, fmt.Errorf("nonce %d is beyond the journal's range", n)
	}
	return int64(n), nil
}

// Append allocates from's next nonce, at least floor and above every nonce
// of from in the journal, calls sign with it and stores the signed
// transaction, in one database transaction: a transaction-scoped advisory
// lock of from serializes the Appends of every replica, and the nonce is
// read and the row inserted under it. If sign fails, the transaction rolls
// back, no nonce is taken and sign's error is returned. A transaction of a
// chain other than the one from's journal holds is refused: one database
// serves a settler key on one chain.
func (s *Store) Append(ctx context.Context, from common.Address, floor uint64, sign func(nonce uint64) (*types.Transaction, error)) (*types.Transaction, error) {
	var (
		signed  *types.Transaction
		signErr error
	)
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		signed, signErr = nil, nil
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey("journal", s.schema, from.Hex())); err != nil {
			return fmt.Errorf("locking the journal: %w", err)
		}
		var (
			last    *int64
			chainID *string
		)
		err := tx.QueryRow(ctx, `SELECT nonce, chain_id::text FROM settler_txs WHERE address = $1 ORDER BY nonce DESC LIMIT 1`,
			from[:]).Scan(&last, &chainID)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("reading the last nonce: %w", err)
		}
		nonce := floor
		if last != nil && uint64(*last)+1 > nonce {
			nonce = uint64(*last) + 1
		}
		n, err := nonceArg(nonce)
		if err != nil {
			return err
		}
		t, err := sign(nonce)
		if err != nil {
			signErr = err
			return errRollback
		}
		if t == nil {
			return errors.New("sign returned no transaction")
		}
		if t.Nonce() != nonce {
			return fmt.Errorf("sign returned a transaction with nonce %d for nonce %d", t.Nonce(), nonce)
		}
		if chainID != nil && *chainID != t.ChainId().String() {
			return fmt.Errorf("the journal of %s holds transactions of chain %s, not %s: one database serves a settler key on one chain", from, *chainID, t.ChainId())
		}
		raw, err := t.MarshalBinary()
		if err != nil {
			return fmt.Errorf("encoding the transaction: %w", err)
		}
		h := t.Hash()
		if _, err := tx.Exec(ctx, `INSERT INTO settler_txs (address, nonce, chain_id, hash, raw) VALUES ($1, $2, $3::numeric, $4, $5)`,
			from[:], n, t.ChainId().String(), h[:], raw); err != nil {
			return fmt.Errorf("storing the transaction: %w", err)
		}
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, journalChannel, s.payload(from)); err != nil {
			return fmt.Errorf("notifying: %w", err)
		}
		signed = t
		return nil
	})
	if signErr != nil {
		return nil, signErr
	}
	if err != nil {
		return nil, fmt.Errorf("appending to the journal of %s: %w", from, err)
	}
	return signed, nil
}

// Replace stores tx in place of the transaction with hash old under tx's
// nonce, if the entry still holds old, and reports whether it did; old
// joins the entry's previous hashes and the entry is no longer void. The
// compare and set is one UPDATE, which PostgreSQL applies under the row's
// lock, rechecking the hash.
func (s *Store) Replace(ctx context.Context, from common.Address, old common.Hash, tx *types.Transaction) (bool, error) {
	n, err := nonceArg(tx.Nonce())
	if err != nil {
		return false, fmt.Errorf("replacing %s: %w", old, err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return false, fmt.Errorf("replacing %s: encoding the transaction: %w", old, err)
	}
	h := tx.Hash()
	done, err := s.compareAndSet(ctx, from, `UPDATE settler_txs SET
			hash = $4, raw = $5, void = false, updated = now(),
			previous = CASE WHEN hash = $4 THEN previous ELSE array_append(previous, hash) END
		WHERE address = $1 AND nonce = $2 AND hash = $3`, from[:], n, old[:], h[:], raw)
	if err != nil {
		return false, fmt.Errorf("replacing %s: %w", old, err)
	}
	return done, nil
}

// Void gives up the transaction with hash hash under nonce, if the entry
// still holds it, and reports whether it did (also when it was void
// already).
func (s *Store) Void(ctx context.Context, from common.Address, nonce uint64, hash common.Hash) (bool, error) {
	n, err := nonceArg(nonce)
	if err != nil {
		return false, fmt.Errorf("voiding %s: %w", hash, err)
	}
	done, err := s.compareAndSet(ctx, from, `UPDATE settler_txs SET void = true, updated = now()
		WHERE address = $1 AND nonce = $2 AND hash = $3`, from[:], n, hash[:])
	if err != nil {
		return false, fmt.Errorf("voiding %s: %w", hash, err)
	}
	return done, nil
}

// compareAndSet runs update, whose WHERE clause is the comparison, and
// notifies from's listeners in the same transaction if it changed a row.
func (s *Store) compareAndSet(ctx context.Context, from common.Address, update string, args ...any) (bool, error) {
	done := false
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		done = false
		tag, err := tx.Exec(ctx, update, args...)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, journalChannel, s.payload(from)); err != nil {
			return fmt.Errorf("notifying: %w", err)
		}
		done = true
		return nil
	})
	return done, err
}

// Entries returns from's entries with nonces at or above since, in nonce
// order.
func (s *Store) Entries(ctx context.Context, from common.Address, since uint64) ([]store.JournalEntry, error) {
	if since > math.MaxInt64 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT nonce, raw, previous, void, created, updated FROM settler_txs
		WHERE address = $1 AND nonce >= $2 ORDER BY nonce`, from[:], int64(since))
	if err != nil {
		return nil, fmt.Errorf("reading the journal of %s: %w", from, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.JournalEntry, error) {
		var (
			e        store.JournalEntry
			nonce    int64
			raw      []byte
			previous [][]byte
		)
		if err := row.Scan(&nonce, &raw, &previous, &e.Void, &e.Created, &e.Updated); err != nil {
			return e, err
		}
		e.Nonce = uint64(nonce)
		e.Tx = new(types.Transaction)
		if err := e.Tx.UnmarshalBinary(raw); err != nil {
			return e, fmt.Errorf("decoding the transaction of nonce %d: %w", nonce, err)
		}
		for _, p := range previous {
			e.Previous = append(e.Previous, common.BytesToHash(p))
		}
		return e, nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the journal of %s: %w", from, err)
	}
	return out, nil
}

// Prune deletes from's entries below nonce below.
func (s *Store) Prune(ctx context.Context, from common.Address, below uint64) error {
	b, err := nonceArg(below)
	if err != nil {
		return fmt.Errorf("pruning the journal of %s: %w", from, err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM settler_txs WHERE address = $1 AND nonce < $2`, from[:], b); err != nil {
		return fmt.Errorf("pruning the journal of %s: %w", from, err)
	}
	return nil
}

// Appended returns a channel that receives, coalesced, when any process
// appends, replaces or voids an entry of from. A dedicated connection
// LISTENs for the journal's notifications; when it is lost, it reconnects
// and sends once, since changes made meanwhile were not notified. The
// channel is closed when ctx ends or the store closes. Each call holds one
// connection, outside the pool's bound, so a deliverer calls it once.
func (s *Store) Appended(ctx context.Context, from common.Address) (<-chan struct{}, error) {
	conn, err := s.dedicated(ctx, "x402 listener "+s.schema, "LISTEN "+journalChannel)
	if err != nil {
		return nil, fmt.Errorf("listening to the journal of %s: %w", from, err)
	}
	ch := make(chan struct{}, 1)
	wake := func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	want := s.payload(from)
	lctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.ctx, cancel)
	err = s.goroutine(func() {
		defer close(ch)
		defer stop()
		defer cancel()
		backoff := newBackoff()
		for {
			n, err := conn.WaitForNotification(lctx)
			if err == nil {
				backoff.reset()
				if n.Payload == want {
					wake()
				}
				continue
			}
			closeConn(conn)
			if lctx.Err() != nil {
				return
			}
			s.log.Warn("lost the journal listener's connection; reconnecting", zap.Stringer("address", from), zap.Error(err))
			for {
				if !backoff.wait(lctx) {
					return
				}
				conn, err = s.dedicated(lctx, "x402 listener "+s.schema, "LISTEN "+journalChannel)
				if err == nil {
					break
				}
				if lctx.Err() != nil {
					return
				}
				s.log.Warn("reconnecting the journal listener", zap.Stringer("address", from), zap.Error(err))
			}
			wake() // changes made while the connection was down were not notified
		}
	})
	if err != nil {
		cancel()
		stop()
		closeConn(conn)
		return nil, err
	}
	return ch, nil
}

// dedicated takes a connection out of the pool for the caller to hold (a
// lease's or a listener's), names it for pg_stat_activity and runs setup
// on it.
func (s *Store) dedicated(ctx context.Context, name, setup string) (*pgx.Conn, error) {
	pc, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	conn := pc.Hijack()
	if _, err := conn.Exec(ctx, `SELECT set_config('application_name', $1, false)`, name); err != nil {
		closeConn(conn)
		return nil, err
	}
	if setup != "" {
		if _, err := conn.Exec(ctx, setup); err != nil {
			closeConn(conn)
			return nil, err
		}
	}
	return conn, nil
}

// closeConn closes a dedicated connection, waiting a second at most for
// the server to hear of it.
func closeConn(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	conn.Close(ctx)
}

// backoff spaces out reconnections: 250 ms, doubling up to 5 s.
type backoff struct{ next time.Duration }

func newBackoff() *backoff { return &backoff{next: 250 * time.Millisecond} }

func (b *backoff) reset() { b.next = 250 * time.Millisecond }

// wait sleeps for the next delay; it reports false if ctx ended first.
func (b *backoff) wait(ctx context.Context) bool {
	t := time.NewTimer(b.next)
	defer t.Stop()
	b.next = min(2*b.next, 5*time.Second)
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/caddy-x402/caddy-x402/store"
)

// claimAttempts bounds Claim's loop: each lost round means the record that
// held the key was released in between, which takes a settlement's whole
// life, so a second round is already rare.
const claimAttempts = 10

// encode is the JSON of r as the bbolt store writes it: a final record
// without its signed transaction (store.Trimmed).
func encode(r *store.Record) ([]byte, error) { return json.Marshal(store.Trimmed(r)) }

func decode(b []byte) (*store.Record, error) {
	var r store.Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decoding record: %w", err)
	}
	return &r, nil
}

// consumer is the consumer column of r: NULL until a settle is handed its
// receipt.
func consumer(r *store.Record) *string {
	if r.Consumer == "" {
		return nil
	}
	return &r.Consumer
}

// columns are the values of the columns that repeat rec's fields, in the
// order of recordColumns: from $2 on, after the key.
func columns(rec *store.Record, raw []byte) []any {
	var amount pgtype.Numeric
	if rec.Amount != nil {
		amount = pgtype.Numeric{Int: new(big.Int).Set(rec.Amount), Valid: true}
	}
	var reason *string
	if rec.Response != nil && rec.Response.ErrorCode != "" {
		r := string(rec.Response.ErrorCode)
		reason = &r
	}
	return []any{
		string(rec.State), raw, consumer(rec), rec.Created, rec.Updated,
		rec.Scheme, rec.Payer[:], rec.PayTo[:], rec.Asset[:], amount, reason,
	}
}

// recordColumns are the columns columns fills, numbered from $2.
const recordColumns = `state, record, consumer, created, updated, scheme, payer, pay_to, asset, amount, error_reason`

// Claim durably takes rec.Key for rec if no record holds it, and returns
// (rec, true); if a record holds it, that record is returned with false.
// The primary key decides between replicas claiming one key at once: one
// insert wins and the others read the winner's record.
func (s *Store) Claim(rec store.Record) (*store.Record, bool, error) {
	raw, err := encode(&rec)
	if err != nil {
		return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
	}
	ctx, cancel := op()
	defer cancel()
	for range claimAttempts {
		tag, err := s.pool.Exec(ctx, `INSERT INTO settlements (key, `+recordColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			ON CONFLICT (key) DO NOTHING`, append([]any{rec.Key[:]}, columns(&rec, raw)...)...)
		if err != nil {
			return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
		}
		if tag.RowsAffected() == 1 {
			return &rec, true, nil
		}
		// Another record holds the key. This is a new statement, so it
		// sees that record even if it committed after the insert began.
		existing, err := s.get(ctx, rec.Key)
		if err != nil {
			return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
		}
		if existing != nil {
			return existing, false, nil
		}
		// Released between the two statements: try again.
	}
	return nil, false, fmt.Errorf("claiming %s: the key was claimed and released %d times in a row", rec.Key, claimAttempts)
}

// ClaimFunded claims rec.Key for rec as Claim does, but only if balance
// covers rec.Amount and the amounts of the payer's other settlements in
// rec.Asset still in flight (claimed or submitted) in the store, those of
// every replica: otherwise store.ErrUnfunded, and nothing is written. The
// sum and the insert are one transaction under an advisory lock of the
// payer and asset, so replicas claiming payments of one payer at once
// serialize: N replicas broadcast at most what the balance covers, where
// each one counting only its own in-flight settlements broadcast one each.
func (s *Store) ClaimFunded(rec store.Record, balance *big.Int) (*store.Record, bool, error) {
	if balance == nil || rec.Amount == nil {
		return s.Claim(rec)
	}
	raw, err := encode(&rec)
	if err != nil {
		return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
	}
	ctx, cancel := op()
	defer cancel()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey("funds", s.schema, rec.Payer.Hex(), rec.Asset.Hex())); err != nil {
		return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
	}
	var pending pgtype.Numeric
	err = tx.QueryRow(ctx, `SELECT coalesce(sum(amount), 0) FROM settlements
		WHERE payer = $1 AND asset = $2 AND state IN ('claimed', 'submitted') AND key <> $3`,
		rec.Payer[:], rec.Asset[:], rec.Key[:]).Scan(&pending)
	if err != nil {
		return nil, false, fmt.Errorf("claiming %s: summing the payer's settlements in flight: %w", rec.Key, err)
	}
	inFlight := new(big.Int)
	if pending.Valid && pending.Int != nil {
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(pending.Exp)), nil)
		if pending.Exp >= 0 {
			inFlight.Mul(pending.Int, scale)
		} else {
			inFlight.Quo(pending.Int, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-pending.Exp)), nil))
		}
	}
	if new(big.Int).Add(inFlight, rec.Amount).Cmp(balance) > 0 {
		return nil, false, store.ErrUnfunded
	}
	tag, err := tx.Exec(ctx, `INSERT INTO settlements (key, `+recordColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (key) DO NOTHING`, append([]any{rec.Key[:]}, columns(&rec, raw)...)...)
	if err != nil {
		return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
	}
	if tag.RowsAffected() == 0 {
		existing, err := s.get(ctx, rec.Key)
		if err != nil || existing == nil {
			return nil, false, fmt.Errorf("claiming %s: the key is held, but its record was not read: %v", rec.Key, err)
		}
		return existing, false, nil
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
	}
	return &rec, true, nil
}

// Get returns the record of key, or nil if there is none.
func (s *Store) Get(key common.Hash) (*store.Record, error) {
	ctx, cancel := op()
	defer cancel()
	rec, err := s.get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", key, err)
	}
	return rec, nil
}

func (s *Store) get(ctx context.Context, key common.Hash) (*store.Record, error) {
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT record FROM settlements WHERE key = $1`, key[:]).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decode(raw)
}

// locked reads the record of key in tx and locks its row until tx ends; it
// returns nil if there is none.
func locked(ctx context.Context, tx pgx.Tx, key common.Hash) (*store.Record, error) {
	var raw []byte
	err := tx.QueryRow(ctx, `SELECT record FROM settlements WHERE key = $1 FOR UPDATE`, key[:]).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decode(raw)
}

// write stores rec over its row in tx.
func write(ctx context.Context, tx pgx.Tx, rec *store.Record) error {
	raw, err := encode(rec)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE settlements SET (`+recordColumns+`) = ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		WHERE key = $1`, append([]any{rec.Key[:]}, columns(rec, raw)...)...)
	return err
}

// transition writes rec over its stored record if the stored record's
// state may move to rec's, under the row's lock, and a final one's outbox
// entry (store.OutboxEntry) in the same transaction.
func (s *Store) transition(rec *store.Record) error {
	outKey, outValue, err := store.OutboxEntry(rec)
	if err != nil {
		return fmt.Errorf("moving %s: %w", rec.Key, err)
	}
	ctx, cancel := op()
	defer cancel()
	err = inTx(ctx, s.pool, func(tx pgx.Tx) error {
		stored, err := locked(ctx, tx, rec.Key)
		if err != nil {
			return err
		}
		if stored == nil {
			return fmt.Errorf("%w: no record to move to %s", store.ErrTransition, rec.State)
		}
		if !store.CanMove(stored.State, rec.State) {
			return fmt.Errorf("%w: %s to %s", store.ErrTransition, stored.State, rec.State)
		}
		if err := write(ctx, tx, rec); err != nil {
			return err
		}
		if outKey == nil {
			return nil
		}
		// The outcome the merchant is told of, in the same commit.
		_, err = tx.Exec(ctx, `INSERT INTO kv (bucket, key, value) VALUES ($1, $2, $3)
			ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value`, store.OutboxBucket, outKey, outValue)
		return err
	})
	if err != nil {
		return fmt.Errorf("moving %s: %w", rec.Key, err)
	}
	return nil
}

// Submit durably records rec as submitted: its signed transaction, or its
// operation, is stored before it is broadcast. The stored record must be
// claimed, or submitted (a transaction signed again).
func (s *Store) Submit(rec *store.Record) error {
	if err := store.CheckSubmit(rec); err != nil {
		return err
	}
	return s.transition(rec)
}

// Finish durably records the final outcome of a submitted settlement: rec's
// state is settled or failed, with its response. Of several replicas
// finishing one record, one succeeds and the others get
// store.ErrTransition.
func (s *Store) Finish(rec *store.Record) error {
	if err := store.CheckFinish(rec); err != nil {
		return err
	}
	if rec.Consumer != "" && rec.ConsumerInstance == "" {
		rec.ConsumerInstance = s.instance
	}
	return s.transition(rec)
}

// Serve records that owner wrote the response key's payment bought, under
// the record's row lock.
func (s *Store) Serve(key common.Hash, owner string) error {
	ctx, cancel := op()
	defer cancel()
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		r, err := locked(ctx, tx, key)
		if err != nil || r == nil || r.State != store.StateSettled || r.Consumer != owner || r.Served {
			return err
		}
		r.Served = true
		return write(ctx, tx, r)
	})
	if err != nil {
		return fmt.Errorf("recording the response of %s: %w", key, err)
	}
	return nil
}

// Release deletes a claimed or submitted record whose settlement sent
// nothing that can be mined, so a later attempt can settle the payment. A
// final record is never released; a missing one is fine.
func (s *Store) Release(key common.Hash) error {
	ctx, cancel := op()
	defer cancel()
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		stored, err := locked(ctx, tx, key)
		if err != nil || stored == nil {
			return err
		}
		if err := store.CheckRelease(stored.State); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM settlements WHERE key = $1`, key[:])
		return err
	})
	if err != nil {
		return fmt.Errorf("releasing %s: %w", key, err)
	}
	return nil
}

// Reclaim takes over a stale claim: under the record's row lock, a
// claimed record last updated before stale is replaced by rec. Of
// replicas reclaiming one key at once, the first to lock the row wins; the
// others find a fresh claim.
func (s *Store) Reclaim(rec *store.Record, stale time.Time) (bool, error) {
	ctx, cancel := op()
	defer cancel()
	done := false
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		done = false
		stored, err := locked(ctx, tx, rec.Key)
		if err != nil || stored == nil || !store.CheckReclaim(stored, rec, stale) {
			return err
		}
		if err := write(ctx, tx, rec); err != nil {
			return err
		}
		done = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("reclaiming %s: %w", rec.Key, err)
	}
	return done, nil
}

// Resubmit records that a submitted settlement's transaction old was
// replaced (the same nonce, higher fees) by replacement, if the record is
// still submitted with old. It reports whether it did.
func (s *Store) Resubmit(key, old, replacement common.Hash, raw []byte) (bool, error) {
	ctx, cancel := op()
	defer cancel()
	done := false
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		done = false
		r, err := locked(ctx, tx, key)
		if err != nil || r == nil {
			return err
		}
		if r.State != store.StateSubmitted || r.TxHash != old {
			return nil
		}
		r.TxHash, r.RawTx = replacement, append([]byte(nil), raw...)
		if err := write(ctx, tx, r); err != nil {
			return err
		}
		done = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("recording the replacement of %s: %w", old, err)
	}
	return done, nil
}

// Consume makes owner the consumer of a settled record if it may be
// (store.Consumed), and reports whether owner is its consumer, with the
// record. Under the row's lock, one owner wins across replicas; the
// winner's retries win again; and the handover from a consumer that died is
// counted in the same write, so two replicas never both take it.
func (s *Store) Consume(key common.Hash, owner string) (*store.Record, bool, error) {
	if owner == "" {
		return nil, false, fmt.Errorf("consuming %s: no owner", key)
	}
	ctx, cancel := op()
	defer cancel()
	var (
		rec *store.Record
		ok  bool
	)
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		rec, ok = nil, false
		r, err := locked(ctx, tx, key)
		if err != nil {
			return err
		}
		if r == nil {
			return errors.New("no record")
		}
		rec = r
		var (
			aliveErr error
			changed  bool
		)
		ok, changed = store.Consumed(r, owner, s.instance, time.Now(), func(instance string) bool {
			alive, err := s.alive(ctx, tx, instance)
			aliveErr = err
			return alive || err != nil
		})
		if aliveErr != nil || !changed {
			return aliveErr
		}
		return write(ctx, tx, r)
	})
	if err != nil {
		return nil, false, fmt.Errorf("consuming %s: %w", key, err)
	}
	return rec, ok, nil
}

// Unfinished returns every record that is claimed or submitted: what a
// restart must reconcile against the chain. With several replicas, each
// one's list includes the others' settlements in progress.
func (s *Store) Unfinished() ([]*store.Record, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT record FROM settlements WHERE state IN ('claimed', 'submitted') ORDER BY key`)
	if err != nil {
		return nil, fmt.Errorf("listing unfinished records: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*store.Record, error) {
		var raw []byte
		if err := row.Scan(&raw); err != nil {
			return nil, err
		}
		return decode(raw)
	})
	if err != nil {
		return nil, fmt.Errorf("listing unfinished records: %w", err)
	}
	return out, nil
}

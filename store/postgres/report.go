package postgres

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/caddy-x402/caddy-x402/store"
)

// ceilMicro is the first microsecond at or after t: created (which holds
// microseconds) is at or after t exactly when it is at or after
// ceilMicro(t), so windows keep the records the bbolt store keeps.
func ceilMicro(t time.Time) time.Time {
	if c := t.Truncate(time.Microsecond); c.Before(t) {
		return c.Add(time.Microsecond)
	}
	return t
}

// List returns one page of the records q selects, newest first, from the
// index on (created, key), or on (payer, …) or (pay_to, …) when q names
// one. The cursor is the last row's created column and key.
func (s *Store) List(ctx context.Context, q store.Query) (store.Page, error) {
	if err := q.Validate(); err != nil {
		return store.Page{}, err
	}
	limit := q.PageSize()
	var (
		conds []string
		args  []any
	)
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if len(q.States) > 0 {
		states := make([]string, len(q.States))
		for i, st := range q.States {
			states[i] = string(st)
		}
		conds = append(conds, "state = ANY("+arg(states)+"::text[])")
	}
	if q.Scheme != "" {
		conds = append(conds, "scheme = "+arg(q.Scheme))
	}
	if q.Payer != nil {
		conds = append(conds, "payer = "+arg(q.Payer.Bytes()))
	}
	if q.PayTo != nil {
		conds = append(conds, "pay_to = "+arg(q.PayTo.Bytes()))
	}
	if !q.Since.IsZero() {
		conds = append(conds, "created >= "+arg(ceilMicro(q.Since)))
	}
	if !q.Until.IsZero() {
		conds = append(conds, "created < "+arg(ceilMicro(q.Until)))
	}
	if q.After != "" {
		c, _ := store.DecodeCursor(q.After) // checked by Validate
		conds = append(conds, "(created, key) < ("+arg(c.Created)+"::timestamptz, "+arg(c.Key.Bytes())+"::bytea)")
	}
	sql := `SELECT created, key, record FROM settlements`
	if len(conds) > 0 {
		sql += ` WHERE ` + strings.Join(conds, " AND ")
	}
	sql += ` ORDER BY created DESC, key DESC LIMIT ` + arg(limit+1)

	type row struct {
		cursor store.Cursor
		rec    *store.Record
	}
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return store.Page{}, fmt.Errorf("listing settlements: %w", err)
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var (
			created  time.Time
			key, raw []byte
		)
		if err := r.Scan(&created, &key, &raw); err != nil {
			return row{}, err
		}
		rec, err := decode(raw)
		if err != nil {
			return row{}, fmt.Errorf("settlement %x: %w", key, err)
		}
		return row{store.Cursor{Created: created, Key: common.BytesToHash(key)}, rec}, nil
	})
	if err != nil {
		return store.Page{}, fmt.Errorf("listing settlements: %w", err)
	}
	var page store.Page
	for i, r := range got {
		if i == limit {
			page.Next = got[limit-1].cursor.String()
			break
		}
		page.Records = append(page.Records, r.rec)
	}
	return page, nil
}

// Summarize counts and totals the records created in q's window in SQL,
// grouped by step and asset, in one snapshot of the table.
func (s *Store) Summarize(ctx context.Context, q store.SummaryQuery) (store.Report, error) {
	if err := q.Validate(); err != nil {
		return store.Report{}, err
	}
	since, until := ceilMicro(q.Since), ceilMicro(q.Until)
	var rep store.Report
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		rep = store.Report{Steps: q.Steps(), Failures: map[string]int{}}

		// A step's number counts from q.Since exactly, in nanoseconds, as
		// the bbolt store does.
		rows, err := tx.Query(ctx, `SELECT
				div((extract(epoch FROM created) - $3::bigint) * 1000000000 - $4::bigint, $5::bigint)::bigint,
				asset, count(*), coalesce(sum(amount), 0)::text
			FROM settlements
			WHERE state = 'settled' AND created >= $1 AND created < $2
			GROUP BY 1, 2 ORDER BY 1, 2`,
			since, until, q.Since.Unix(), int64(q.Since.Nanosecond()), int64(q.Step))
		if err != nil {
			return fmt.Errorf("totalling the steps: %w", err)
		}
		var (
			step, count int64
			asset       []byte
			sum         string
		)
		_, err = pgx.ForEachRow(rows, []any{&step, &asset, &count, &sum}, func() error {
			if step < 0 || step >= int64(len(rep.Steps)) {
				return fmt.Errorf("step %d is outside the window", step)
			}
			amount, ok := new(big.Int).SetString(sum, 10)
			if !ok {
				return fmt.Errorf("the sum %q is not an integer", sum)
			}
			rep.Steps[step].Assets = append(rep.Steps[step].Assets,
				store.AssetTotal{Asset: common.BytesToAddress(asset), Count: int(count), Amount: amount})
			return nil
		})
		if err != nil {
			return fmt.Errorf("totalling the steps: %w", err)
		}

		var latency []pgtype.Interval
		if err := tx.QueryRow(ctx, `SELECT
				count(*) FILTER (WHERE state = 'settled'),
				count(*) FILTER (WHERE state = 'failed'),
				count(*) FILTER (WHERE state IN ('claimed', 'submitted')),
				percentile_cont(ARRAY[0.5, 0.99]::float8[]) WITHIN GROUP (ORDER BY updated - created)
					FILTER (WHERE state = 'settled')
			FROM settlements
			WHERE created >= $1 AND created < $2`, since, until,
		).Scan(&rep.Settled, &rep.Failed, &rep.Pending, &latency); err != nil {
			return fmt.Errorf("counting the outcomes: %w", err)
		}
		if len(latency) == 2 {
			rep.LatencyP50, rep.LatencyP99 = duration(latency[0]), duration(latency[1])
		}

		rows, err = tx.Query(ctx, `SELECT coalesce(nullif(error_reason, ''), $3), count(*)
			FROM settlements
			WHERE state = 'failed' AND created >= $1 AND created < $2
			GROUP BY 1`, since, until, store.UnknownFailure)
		if err != nil {
			return fmt.Errorf("counting the failures: %w", err)
		}
		var reason string
		_, err = pgx.ForEachRow(rows, []any{&reason, &count}, func() error {
			rep.Failures[reason] = int(count)
			return nil
		})
		if err != nil {
			return fmt.Errorf("counting the failures: %w", err)
		}
		return nil
	})
	if err != nil {
		return store.Report{}, fmt.Errorf("summarizing settlements: %w", err)
	}
	return rep, nil
}

// duration is an interval of timestamps' difference as a time.Duration
// (such an interval has no months; a month would count 30 days).
func duration(iv pgtype.Interval) time.Duration {
	if !iv.Valid {
		return 0
	}
	return time.Duration(iv.Microseconds)*time.Microsecond +
		time.Duration(iv.Days)*24*time.Hour + time.Duration(iv.Months)*30*24*time.Hour
}

var _ store.Reporter = (*Store)(nil)

package postgres

import (
	"context"
	"fmt"
	"time"
)

// pruneBatch bounds the rows one statement of PruneFinal deletes, each
// statement being a transaction of its own.
const pruneBatch = 256

// PruneFinal deletes at most limit final records created and last updated
// before before, oldest first (see store.FinalPruner), in statements of at
// most pruneBatch rows. Each statement locks the rows it deletes with FOR
// UPDATE SKIP LOCKED, so replicas pruning at once delete disjoint rows,
// and a row that a transition holds (a consumer being set) is left for a
// later pass rather than waited for. A statement that deletes fewer rows
// than it asked for ends the call: the rest, if any, is locked by another
// replica's prune or by a transition.
func (s *Store) PruneFinal(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, fmt.Errorf("pruning settlements: limit %d is not positive", limit)
	}
	total := 0
	for total < limit {
		n := min(pruneBatch, limit-total)
		// The settlements_created index gives the oldest rows first.
		tag, err := s.pool.Exec(ctx, `DELETE FROM settlements WHERE key IN (
			SELECT key FROM settlements
			WHERE state IN ('settled', 'failed') AND created < $1 AND updated < $1
			ORDER BY created, key
			LIMIT $2
			FOR UPDATE SKIP LOCKED)`, before, n)
		if err != nil {
			return total, fmt.Errorf("pruning settlements: %w", err)
		}
		total += int(tag.RowsAffected())
		if tag.RowsAffected() < int64(n) {
			break
		}
	}
	return total, nil
}

package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// PruneFinal deletes at most limit final records created and last updated
// before before, with their time-index entries (see FinalPruner). It walks
// the time index from its oldest entry up to before, in write
// transactions of at most pruneBatch deletions and pruneScan entries read,
// each resuming where the last one stopped. Index entries that list no
// record are deleted on the way.
func (s *Store) PruneFinal(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, fmt.Errorf("pruning settlements: limit %d is not positive", limit)
	}
	bound := appendTime(nil, before) // index entries below it were created before before
	var (
		after []byte // the last index entry read, where the next transaction goes on
		total int
	)
	for total < limit {
		if err := ctx.Err(); err != nil {
			return total, fmt.Errorf("pruning settlements: %w", err)
		}
		var (
			pruned [][]byte // the keys of the records deleted
			done   bool
		)
		err := s.update(func(tx *bolt.Tx) error {
			records, idx := tx.Bucket(settlementsBucket), tx.Bucket(createdBucket)
			idx.FillPercent = indexFill
			c := idx.Cursor()
			var k []byte
			if after == nil {
				k, _ = c.First()
			} else if k, _ = c.Seek(after); bytes.Equal(k, after) {
				k, _ = c.Next()
			}
			var unindex [][]byte
			for read := 0; ; k, _ = c.Next() {
				if k == nil || bytes.Compare(k, bound) >= 0 {
					done = true
					break
				}
				if read == pruneScan || len(pruned) == min(pruneBatch, limit-total) {
					break
				}
				read++
				after = bytes.Clone(k)
				r, err := indexed(records, k)
				switch {
				case err != nil:
					return err
				case r == nil:
					unindex = append(unindex, after)
				case r.State.Final() && r.Updated.Before(before):
					unindex = append(unindex, after)
					pruned = append(pruned, bytes.Clone(r.Key[:]))
				}
			}
			if len(unindex) == 0 {
				return errNothingToPrune // rolled back: no commit, no fsync
			}
			// Deleted once the cursor is done with the bucket: a bbolt
			// cursor skips the entry after one it deletes.
			for _, k := range unindex {
				if err := idx.Delete(k); err != nil {
					return err
				}
			}
			for _, k := range pruned {
				if err := records.Delete(k); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil && err != errNothingToPrune {
			return total, fmt.Errorf("pruning settlements: %w", err)
		}
		for _, k := range pruned {
			s.uncache(string(k))
		}
		total += len(pruned)
		if done {
			break
		}
	}
	return total, nil
}

// errNothingToPrune rolls back a transaction of PruneFinal that found
// nothing to delete.
var errNothingToPrune = errors.New("nothing to prune")

var _ FinalPruner = (*Store)(nil)

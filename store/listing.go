package store

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	bolt "go.etcd.io/bbolt"
)

// createdBucket indexes the settlement records by time for List and
// Summarize: one empty value per record, keyed by the record's Cursor
// bytes (its Created time, then its key), so the bucket's key order is the
// listing's. Every write that creates, deletes or changes the Created of a
// record updates it in the same transaction; Open builds it for a file
// written before it existed.
var createdBucket = []byte("settlements_by_created")

// indexFill is how full a write leaves the pages of createdBucket, whose
// keys come in time order: filled to bbolt's default of half, its pages
// would stay half empty, as nothing is ever inserted before them. A little
// room is left for the records of one batched commit, which arrive slightly
// out of order.
const indexFill = 0.9

// indexKey is r's key in createdBucket.
func indexKey(r *Record) []byte { return Cursor{Created: r.Created, Key: r.Key}.bytes() }

// reindex keeps createdBucket in step with a write in tx that replaces
// stored (nil if there was no record) with rec (nil if the record is
// deleted).
func reindex(tx *bolt.Tx, stored, rec *Record) error {
	var old, cur []byte
	if stored != nil {
		old = indexKey(stored)
	}
	if rec != nil {
		cur = indexKey(rec)
	}
	if bytes.Equal(old, cur) {
		return nil
	}
	idx := tx.Bucket(createdBucket)
	idx.FillPercent = indexFill
	if old != nil {
		if err := idx.Delete(old); err != nil {
			return fmt.Errorf("unindexing %s: %w", stored.Key, err)
		}
	}
	if cur != nil {
		if err := idx.Put(cur, []byte{}); err != nil {
			return fmt.Errorf("indexing %s: %w", rec.Key, err)
		}
	}
	return nil
}

// ensureIndex builds createdBucket from the settlement records if it is
// missing (a file written before it existed) or does not count one entry
// per record (a file an older binary wrote to since). A record that does
// not decode makes the file at path damaged, as Check would find it.
func ensureIndex(tx *bolt.Tx, path string) error {
	records := tx.Bucket(settlementsBucket)
	if idx := tx.Bucket(createdBucket); idx != nil {
		if idx.Stats().KeyN == records.Stats().KeyN {
			return nil
		}
		if err := tx.DeleteBucket(createdBucket); err != nil {
			return err
		}
	}
	idx, err := tx.CreateBucket(createdBucket)
	if err != nil {
		return err
	}
	return records.ForEach(func(k, raw []byte) error {
		r, err := decode(raw)
		if err != nil {
			return damaged(path, fmt.Errorf("settlement %x: %w", k, err))
		}
		return idx.Put(indexKey(r), []byte{})
	})
}

// ctxEvery is how many index entries a walk reads between checks of its
// context.
const ctxEvery = 1024

// indexed returns the record an entry k of createdBucket points to, or nil
// if k is stale: no longer the index key of a stored record.
func indexed(records *bolt.Bucket, k []byte) (*Record, error) {
	if len(k) != cursorSize {
		return nil, nil
	}
	raw := records.Get(k[timeKeySize:])
	if raw == nil {
		return nil, nil
	}
	r, err := decode(raw)
	if err != nil {
		return nil, fmt.Errorf("settlement %x: %w", k[timeKeySize:], err)
	}
	if !bytes.Equal(indexKey(r), k) {
		return nil, nil
	}
	return r, nil
}

// List returns one page of the records q selects, newest first, walking
// the time index backwards from the cursor or Until.
func (s *Store) List(ctx context.Context, q Query) (Page, error) {
	if err := q.Validate(); err != nil {
		return Page{}, err
	}
	limit := q.PageSize()
	var bound, since []byte // keys below bound and at or above since
	if q.After != "" {
		c, _ := DecodeCursor(q.After) // checked by Validate
		bound = c.bytes()
	}
	if !q.Until.IsZero() {
		if u := appendTime(nil, q.Until); bound == nil || bytes.Compare(u, bound) < 0 {
			bound = u
		}
	}
	if !q.Since.IsZero() {
		since = appendTime(nil, q.Since)
	}
	var page Page
	err := s.db.View(func(tx *bolt.Tx) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		records := tx.Bucket(settlementsBucket)
		c := tx.Bucket(createdBucket).Cursor()
		var k []byte
		switch {
		case bound == nil:
			k, _ = c.Last()
		default:
			if k, _ = c.Seek(bound); k == nil {
				k, _ = c.Last()
			} else {
				k, _ = c.Prev()
			}
		}
		for n := 0; k != nil; k, _ = c.Prev() {
			if since != nil && bytes.Compare(k, since) < 0 {
				break
			}
			if n++; n%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			r, err := indexed(records, k)
			if err != nil {
				return err
			}
			if r == nil || !q.keeps(r) {
				continue
			}
			if len(page.Records) == limit {
				last := page.Records[limit-1]
				page.Next = Cursor{Created: last.Created, Key: last.Key}.String()
				break
			}
			page.Records = append(page.Records, r)
		}
		return nil
	})
	if err != nil {
		return Page{}, fmt.Errorf("listing settlements: %w", err)
	}
	return page, nil
}

// Summarize counts and totals the records created in q's window, walking
// the time index over it.
func (s *Store) Summarize(ctx context.Context, q SummaryQuery) (Report, error) {
	if err := q.Validate(); err != nil {
		return Report{}, err
	}
	rep := Report{Steps: q.Steps(), Failures: map[string]int{}}
	totals := make([]map[common.Address]*AssetTotal, len(rep.Steps))
	var latencies []time.Duration
	since, until := appendTime(nil, q.Since), appendTime(nil, q.Until)
	err := s.db.View(func(tx *bolt.Tx) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		records := tx.Bucket(settlementsBucket)
		c := tx.Bucket(createdBucket).Cursor()
		n := 0
		for k, _ := c.Seek(since); k != nil && bytes.Compare(k, until) < 0; k, _ = c.Next() {
			if n++; n%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			r, err := indexed(records, k)
			if err != nil {
				return err
			}
			if r == nil {
				continue
			}
			switch r.State {
			case StateSettled:
				rep.Settled++
				latencies = append(latencies, r.Updated.Sub(r.Created))
				i := int(r.Created.Sub(q.Since) / q.Step)
				if totals[i] == nil {
					totals[i] = map[common.Address]*AssetTotal{}
				}
				t := totals[i][r.Asset]
				if t == nil {
					t = &AssetTotal{Asset: r.Asset, Amount: new(big.Int)}
					totals[i][r.Asset] = t
				}
				t.Count++
				if r.Amount != nil {
					t.Amount.Add(t.Amount, r.Amount)
				}
			case StateFailed:
				rep.Failed++
				reason := UnknownFailure
				if r.Response != nil && r.Response.ErrorCode != "" {
					reason = string(r.Response.ErrorCode)
				}
				rep.Failures[reason]++
			default:
				rep.Pending++
			}
		}
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("summarizing settlements: %w", err)
	}
	for i, m := range totals {
		for _, t := range m {
			rep.Steps[i].Assets = append(rep.Steps[i].Assets, *t)
		}
		slices.SortFunc(rep.Steps[i].Assets, func(a, b AssetTotal) int { return bytes.Compare(a.Asset[:], b.Asset[:]) })
	}
	slices.Sort(latencies)
	rep.LatencyP50, rep.LatencyP99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
	return rep, nil
}

// percentile is PostgreSQL's percentile_cont of sorted: the value at
// fraction p of the way from the first to the last, interpolated between
// the two nearest; zero for none.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	pos := p * float64(len(sorted)-1)
	lo := int(pos)
	frac := pos - float64(lo)
	if frac == 0 || lo+1 >= len(sorted) {
		return sorted[lo]
	}
	return sorted[lo] + time.Duration(math.Round(frac*float64(sorted[lo+1]-sorted[lo])))
}

var _ Reporter = (*Store)(nil)

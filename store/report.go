package store

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Reporter lists and summarizes settlement records for the operator's
// dashboard. Every Backend is one; both answer from their own records, by
// the records' Created and Updated times, so a bbolt file and a PostgreSQL
// database holding the same records give the same answers (PostgreSQL keeps
// those times to the microsecond). Pruned records (FinalPruner) are gone
// from both: a window that reaches back past the retention covers only the
// records left.
type Reporter interface {
	// List returns one page of the records q selects, newest first.
	List(ctx context.Context, q Query) (Page, error)
	// Summarize counts and totals the records created in q's window.
	Summarize(ctx context.Context, q SummaryQuery) (Report, error)
}

// DefaultPageSize is the page size of a Query whose Limit is 0, and
// MaxPageSize the largest page a Query gets.
const (
	DefaultPageSize = 50
	MaxPageSize     = 1000
)

// MaxSteps bounds the steps of a SummaryQuery.
const MaxSteps = 1000

// Query selects settlement records for a listing, newest first: by
// Created, then by Key, both descending.
type Query struct {
	// States keeps the records in these states; empty keeps all.
	States []State
	// Scheme keeps the records of this scheme; empty keeps all.
	Scheme string
	// Payer and PayTo keep the records of this payer, or payee; nil keeps
	// all.
	Payer, PayTo *common.Address
	// Since and Until keep the records created in [Since, Until); a zero
	// time leaves its end open.
	Since, Until time.Time
	// After is a Page.Next: the page continues after the record that ended
	// the previous one (even if that record was released since). Empty
	// starts at the newest record.
	After string
	// Limit is the page size: 0 means DefaultPageSize, and more than
	// MaxPageSize is cut to MaxPageSize. Negative is an error.
	Limit int
}

// Validate reports what is wrong with q: a negative limit, an unknown
// state, an empty window or a cursor that is not a Page.Next.
func (q Query) Validate() error {
	if q.Limit < 0 {
		return fmt.Errorf("listing settlements: negative limit %d", q.Limit)
	}
	for _, s := range q.States {
		if !s.valid() {
			return fmt.Errorf("listing settlements: unknown state %q", s)
		}
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && !q.Until.After(q.Since) {
		return fmt.Errorf("listing settlements: until %s is not after since %s", q.Until.Format(time.RFC3339Nano), q.Since.Format(time.RFC3339Nano))
	}
	if q.After != "" {
		if _, err := DecodeCursor(q.After); err != nil {
			return fmt.Errorf("listing settlements: %w", err)
		}
	}
	return nil
}

// PageSize is the number of records a page of q holds at most.
func (q Query) PageSize() int {
	switch {
	case q.Limit == 0:
		return DefaultPageSize
	case q.Limit > MaxPageSize:
		return MaxPageSize
	}
	return q.Limit
}

// keeps reports whether r passes q's filters other than the window and the
// cursor.
func (q Query) keeps(r *Record) bool {
	return (len(q.States) == 0 || slices.Contains(q.States, r.State)) &&
		(q.Scheme == "" || r.Scheme == q.Scheme) &&
		(q.Payer == nil || r.Payer == *q.Payer) &&
		(q.PayTo == nil || r.PayTo == *q.PayTo)
}

// valid reports whether s is one of the four states.
func (s State) valid() bool {
	return s == StateClaimed || s == StateSubmitted || s.Final()
}

// Page is one page of a listing.
type Page struct {
	// Records are the page's records, newest first.
	Records []*Record
	// Next continues the listing as the next Query's After; it is empty on
	// the last page. It is opaque, and safe in a URL query.
	Next string
}

// SummaryQuery selects the window a Report covers, and its steps.
type SummaryQuery struct {
	// Since and Until are the window: records created in [Since, Until).
	// Both are required.
	Since, Until time.Time
	// Step is the length of each of the report's steps, counted from
	// Since; the last one may reach past Until. It must be positive, and
	// the window must hold at most MaxSteps of them.
	Step time.Duration
}

// Validate reports what is wrong with q.
func (q SummaryQuery) Validate() error {
	switch {
	case q.Since.IsZero() || q.Until.IsZero():
		return errors.New("summarizing settlements: since and until are required")
	case !q.Until.After(q.Since):
		return fmt.Errorf("summarizing settlements: until %s is not after since %s", q.Until.Format(time.RFC3339Nano), q.Since.Format(time.RFC3339Nano))
	case q.Step <= 0:
		return fmt.Errorf("summarizing settlements: step %s is not positive", q.Step)
	}
	window := q.Until.Sub(q.Since)
	if window == time.Duration(1<<63-1) {
		return errors.New("summarizing settlements: the window is too long")
	}
	if n := (window-1)/q.Step + 1; n > MaxSteps {
		return fmt.Errorf("summarizing settlements: %s in steps of %s makes %d steps, more than %d", window, q.Step, n, MaxSteps)
	}
	return nil
}

// Steps returns q's steps, empty, in order: what a Report starts from. q
// must be valid.
func (q SummaryQuery) Steps() []Step {
	n := int((q.Until.Sub(q.Since)-1)/q.Step + 1)
	out := make([]Step, n)
	for i := range out {
		out[i].Start = q.Since.Add(time.Duration(i) * q.Step)
	}
	return out
}

// Report sums up the settlement records created in a SummaryQuery's
// window, for the operator's dashboard.
type Report struct {
	// Steps are the window's steps, in order, one per SummaryQuery.Step
	// from Since, including those with nothing settled.
	Steps []Step
	// Failures counts the failed records by the error code of their
	// response; a record without one counts as "unknown".
	Failures map[string]int
	// Settled, Failed and Pending count the records by outcome; pending
	// ones are claimed or submitted.
	Settled, Failed, Pending int
	// LatencyP50 and LatencyP99 are percentiles of the settled records'
	// time from claim to settlement (Updated − Created), interpolated
	// between the two nearest as PostgreSQL's percentile_cont does; zero
	// if nothing settled.
	LatencyP50, LatencyP99 time.Duration
}

// Step is one step of a Report.
type Step struct {
	// Start is when the step begins; it ends where the next one begins.
	Start time.Time
	// Assets totals the settled records created in the step, per asset,
	// sorted by asset.
	Assets []AssetTotal
}

// AssetTotal is what settled in one asset.
type AssetTotal struct {
	// Asset is the token.
	Asset common.Address
	// Count is the number of settled records, and Amount the sum of their
	// amounts in the asset's atomic units.
	Count  int
	Amount *big.Int
}

// UnknownFailure is the Report.Failures key of failed records whose
// response names no error code.
const UnknownFailure = "unknown"

// Cursor is the position of a record in the listing's order: its Created
// time and its Key. Page.Next is a Cursor's String.
type Cursor struct {
	Created time.Time
	Key     common.Hash
}

// cursorSize is the length of an encoded cursor: the time (seconds and
// nanoseconds) and the key.
const cursorSize = timeKeySize + common.HashLength

// timeKeySize is the length of an encoded time.
const timeKeySize = 12

// cursorEncoding writes a cursor in a URL without escapes; Strict makes
// each cursor's text unique.
var cursorEncoding = base64.RawURLEncoding.Strict()

// String encodes c for a Page.Next.
func (c Cursor) String() string { return cursorEncoding.EncodeToString(c.bytes()) }

// bytes is c in the order of the listing: bytes.Compare of two cursors'
// bytes orders them as their times, then their keys. The bbolt store's
// time index is keyed by it.
func (c Cursor) bytes() []byte {
	b := appendTime(make([]byte, 0, cursorSize), c.Created)
	return append(b, c.Key[:]...)
}

// appendTime appends t as 12 bytes that sort as the times do: its Unix
// seconds with the sign bit flipped, then its nanoseconds, big-endian.
func appendTime(b []byte, t time.Time) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(t.Unix())^(1<<63))
	return binary.BigEndian.AppendUint32(b, uint32(t.Nanosecond()))
}

// errCursor is a Query.After that no listing made.
var errCursor = errors.New("the cursor is not one a listing returned")

// DecodeCursor decodes a Page.Next.
func DecodeCursor(s string) (Cursor, error) {
	// The length first: the decoder skips line breaks, which would make
	// two texts of one cursor.
	if len(s) != cursorEncoding.EncodedLen(cursorSize) {
		return Cursor{}, errCursor
	}
	b, err := cursorEncoding.DecodeString(s)
	if err != nil || len(b) != cursorSize {
		return Cursor{}, errCursor
	}
	return cursorOf(b)
}

// cursorOf decodes a cursor's bytes.
func cursorOf(b []byte) (Cursor, error) {
	if len(b) != cursorSize {
		return Cursor{}, errCursor
	}
	sec := int64(binary.BigEndian.Uint64(b) ^ (1 << 63))
	nsec := binary.BigEndian.Uint32(b[8:])
	if nsec >= uint32(time.Second) {
		return Cursor{}, errCursor
	}
	return Cursor{Created: time.Unix(sec, int64(nsec)).UTC(), Key: common.BytesToHash(b[timeKeySize:])}, nil
}

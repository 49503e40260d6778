package storetest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// t0 is the time the report tests' records are created around.
var t0 = time.Unix(1_800_000_000, 0).UTC()

// at is a record of key created at t0 + d, in state, updated when it was
// created.
func at(key common.Hash, d time.Duration, state store.State) store.Record {
	r := record(0)
	r.Key, r.PayloadHash, r.State = key, common.Hash{0xee, key[0], key[1]}, state
	r.Created = t0.Add(d)
	r.Updated = r.Created
	switch state {
	case store.StateSubmitted:
		r.TxHash, r.RawTx = common.Hash{0x7a, key[0], key[1]}, []byte{key[0]}
	case store.StateSettled:
		r.TxHash = common.Hash{0x7a, key[0], key[1]}
		r.Response = &x402.SettleResponse{X402Version: 2, Success: true, Network: r.Network, TransactionHash: r.TxHash.Hex()}
	case store.StateFailed:
		r.Response = &x402.SettleResponse{X402Version: 2, Network: r.Network}
	}
	return r
}

// lay stores recs (in any state: Claim stores what it is given), from
// several goroutines so that a bbolt store commits them in few batches.
// Every other record goes through the second handle, if there is one.
func lay(t *testing.T, handles []store.Backend, recs []store.Record) {
	t.Helper()
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range work {
				r := recs[i]
				if _, ok, err := handles[i%len(handles)].Claim(r); err != nil || !ok {
					t.Errorf("laying out %s: %v %v", r.Key, ok, err)
				}
			}
		})
	}
	for i := range recs {
		work <- i
	}
	close(work)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
}

// newestFirst sorts recs in the listing's order.
func newestFirst(recs []store.Record) []store.Record {
	out := slices.Clone(recs)
	slices.SortFunc(out, func(a, b store.Record) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return bytes.Compare(b.Key[:], a.Key[:])
	})
	return out
}

// listAll pages through q's listing with q.Limit, checking each page's
// size and cursor, and returns the records.
func listAll(t *testing.T, s store.Backend, q store.Query) []*store.Record {
	t.Helper()
	size := q.Limit
	if size == 0 {
		size = store.DefaultPageSize
	}
	var out []*store.Record
	for pages := 0; ; pages++ {
		if pages > 10_000 {
			t.Fatal("the listing does not end")
		}
		p, err := s.List(t.Context(), q)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		out = append(out, p.Records...)
		if p.Next == "" {
			if len(p.Records) > size {
				t.Fatalf("the last page holds %d records, more than %d", len(p.Records), size)
			}
			return out
		}
		if len(p.Records) != size {
			t.Fatalf("page %d holds %d records, want %d as it is not the last", pages, len(p.Records), size)
		}
		if strings.ContainsFunc(p.Next, func(r rune) bool { return !strings.ContainsRune(urlSafe, r) }) {
			t.Fatalf("the cursor %q needs escaping in a URL query", p.Next)
		}
		q.After = p.Next
	}
}

// urlSafe are the characters a URL query carries unescaped.
const urlSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"

// sameKeys fails t unless got holds the records of want's keys, in order.
func sameKeys(t *testing.T, what string, got []*store.Record, want []store.Record) {
	t.Helper()
	g, w := make([]common.Hash, len(got)), make([]common.Hash, len(want))
	for i, r := range got {
		g[i] = r.Key
	}
	for i, r := range want {
		w[i] = r.Key
	}
	if !slices.Equal(g, w) {
		t.Fatalf("%s: got %d records %x,\nwant %d %x", what, len(g), short(g), len(w), short(w))
	}
}

// short is the first two bytes of each key, to keep failures readable.
func short(ks []common.Hash) [][]byte {
	out := make([][]byte, len(ks))
	for i, k := range ks {
		out[i] = k[:2]
	}
	return out
}

// runReport checks the operator's listing and summaries (store.Reporter).
func runReport(t *testing.T, b Backend) {
	t.Run("the listing pages newest first", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		handles := []store.Backend{s}
		if b.Second != nil {
			handles = append(handles, b.Second(t, s))
		}
		var recs []store.Record
		for i := range 23 {
			// Three records a minute, so that pages break between records
			// of one time; keys out of the order of creation.
			r := at(common.Hash{byte(i * 37), byte(i)}, time.Duration(i/3)*time.Minute, store.StateSettled)
			r.Amount = big.NewInt(int64(i + 1))
			recs = append(recs, r)
		}
		lay(t, handles, recs)
		want := newestFirst(recs)
		for _, limit := range []int{1, 2, 3, 4, 22, 23, 24, 0} {
			got := listAll(t, s, store.Query{Limit: limit})
			sameKeys(t, fmt.Sprint("limit ", limit), got, want)
			for i, r := range got {
				if r.Amount.Cmp(want[i].Amount) != 0 || !r.Created.Equal(want[i].Created) || r.State != store.StateSettled {
					t.Fatalf("limit %d: record %d is %+v, want %+v", limit, i, r, want[i])
				}
			}
		}
		if len(handles) > 1 {
			sameKeys(t, "the second handle", listAll(t, handles[1], store.Query{Limit: 5}), want)
		}
		if b.Reopen != nil {
			s = b.Reopen(t, s)
			sameKeys(t, "after a reopen", listAll(t, s, store.Query{Limit: 5}), want)
		}
	})

	t.Run("a listing's page size is bounded", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		var recs []store.Record
		for i := range store.MaxPageSize + 2 {
			recs = append(recs, at(common.Hash{byte(i >> 8), byte(i)}, time.Duration(i)*time.Second, store.StateClaimed))
		}
		lay(t, []store.Backend{s}, recs)
		want := newestFirst(recs)
		for _, tc := range []struct {
			limit, size int
		}{
			{0, store.DefaultPageSize},
			{1, 1},
			{store.MaxPageSize, store.MaxPageSize},
			{store.MaxPageSize + 1, store.MaxPageSize},
			{1 << 40, store.MaxPageSize},
		} {
			p, err := s.List(t.Context(), store.Query{Limit: tc.limit})
			if err != nil {
				t.Fatalf("limit %d: %v", tc.limit, err)
			}
			sameKeys(t, fmt.Sprint("limit ", tc.limit), p.Records, want[:tc.size])
			if p.Next == "" {
				t.Fatalf("limit %d: no cursor, with more records to come", tc.limit)
			}
		}
		p, err := s.List(t.Context(), store.Query{Limit: store.MaxPageSize})
		must(t, err)
		last, err := s.List(t.Context(), store.Query{Limit: store.MaxPageSize, After: p.Next})
		must(t, err)
		sameKeys(t, "the page after a full one", last.Records, want[store.MaxPageSize:])
		if last.Next != "" {
			t.Fatalf("the last page has a cursor %q", last.Next)
		}
		if _, err := s.List(t.Context(), store.Query{Limit: -1}); err == nil {
			t.Fatal("a negative limit is accepted")
		}
	})

	t.Run("a listing filters", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		payerA, payerB, payerC := common.Address{0xa1}, common.Address{0xb1}, common.Address{0xc1}
		payeeA, payeeB := common.Address{0xa2}, common.Address{0xb2}
		states := []store.State{store.StateClaimed, store.StateSubmitted, store.StateSettled, store.StateFailed}
		var recs []store.Record
		for i := range 24 {
			r := at(common.Hash{0x10, byte(i)}, time.Duration(i)*time.Minute, states[i%4])
			r.Payer = []common.Address{payerA, payerB}[i/4%2]
			r.PayTo = []common.Address{payeeA, payeeB}[i/8%2]
			if i%3 == 0 {
				r.Scheme = x402.SchemeAANative
			}
			recs = append(recs, r)
		}
		lay(t, []store.Backend{s}, recs)
		for _, tc := range []struct {
			name string
			q    store.Query
			keep func(r store.Record) bool
		}{
			{"nothing", store.Query{}, func(store.Record) bool { return true }},
			{"settled", store.Query{States: []store.State{store.StateSettled}},
				func(r store.Record) bool { return r.State == store.StateSettled }},
			{"pending", store.Query{States: []store.State{store.StateClaimed, store.StateSubmitted}},
				func(r store.Record) bool { return !r.State.Final() }},
			{"scheme", store.Query{Scheme: x402.SchemeAANative},
				func(r store.Record) bool { return r.Scheme == x402.SchemeAANative }},
			{"payer", store.Query{Payer: &payerA},
				func(r store.Record) bool { return r.Payer == payerA }},
			{"payee", store.Query{PayTo: &payeeB},
				func(r store.Record) bool { return r.PayTo == payeeB }},
			{"a payer nobody is", store.Query{Payer: &payerC}, func(store.Record) bool { return false }},
			{"since, inclusive", store.Query{Since: t0.Add(5 * time.Minute)},
				func(r store.Record) bool { return !r.Created.Before(t0.Add(5 * time.Minute)) }},
			{"until, exclusive", store.Query{Until: t0.Add(5 * time.Minute)},
				func(r store.Record) bool { return r.Created.Before(t0.Add(5 * time.Minute)) }},
			{"a window", store.Query{Since: t0.Add(3 * time.Minute), Until: t0.Add(17 * time.Minute)},
				func(r store.Record) bool {
					return !r.Created.Before(t0.Add(3*time.Minute)) && r.Created.Before(t0.Add(17*time.Minute))
				}},
			{"a window between records", store.Query{Since: t0.Add(3*time.Minute + time.Second), Until: t0.Add(4*time.Minute - time.Second)},
				func(store.Record) bool { return false }},
			{"everything at once",
				store.Query{
					States: []store.State{store.StateSettled, store.StateClaimed}, Scheme: x402.SchemeExact,
					Payer: &payerB, PayTo: &payeeA, Since: t0.Add(time.Minute), Until: t0.Add(20 * time.Minute),
				},
				func(r store.Record) bool {
					return (r.State == store.StateSettled || r.State == store.StateClaimed) && r.Scheme == x402.SchemeExact &&
						r.Payer == payerB && r.PayTo == payeeA &&
						!r.Created.Before(t0.Add(time.Minute)) && r.Created.Before(t0.Add(20*time.Minute))
				}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				var want []store.Record
				for _, r := range newestFirst(recs) {
					if tc.keep(r) {
						want = append(want, r)
					}
				}
				for _, limit := range []int{2, 0} {
					q := tc.q
					q.Limit = limit
					sameKeys(t, fmt.Sprint("limit ", limit), listAll(t, s, q), want)
				}
			})
		}
	})

	t.Run("a listing refuses what no listing made", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		recs := []store.Record{at(common.Hash{1}, 0, store.StateClaimed), at(common.Hash{2}, time.Second, store.StateClaimed)}
		lay(t, []store.Backend{s}, recs)
		p, err := s.List(t.Context(), store.Query{Limit: 1})
		if err != nil || p.Next == "" {
			t.Fatalf("the first page: %+v %v", p, err)
		}
		valid := store.Cursor{Created: t0, Key: common.Hash{1}}.String()
		raw, err := base64.RawURLEncoding.DecodeString(valid)
		must(t, err)
		binary.BigEndian.PutUint32(raw[8:], uint32(time.Second)) // nanoseconds
		overflow := base64.RawURLEncoding.EncodeToString(raw)
		for _, tc := range []struct {
			name string
			q    store.Query
		}{
			{"not base64", store.Query{After: "not a cursor!"}},
			{"too short", store.Query{After: p.Next[:len(p.Next)-4]}},
			{"too long", store.Query{After: p.Next + "AAAA"}},
			{"padded", store.Query{After: p.Next + "="}},
			{"standard base64", store.Query{After: strings.NewReplacer("-", "+", "_", "/").Replace(valid) + "+/"}},
			{"nanoseconds past a second", store.Query{After: overflow}},
			{"an unknown state", store.Query{States: []store.State{"lost"}}},
			{"until before since", store.Query{Since: t0, Until: t0.Add(-time.Second)}},
			{"until at since", store.Query{Since: t0, Until: t0}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				if p, err := s.List(t.Context(), tc.q); err == nil {
					t.Fatalf("listed %d records", len(p.Records))
				}
			})
		}
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := s.List(ctx, store.Query{}); err == nil {
			t.Fatal("listed with a cancelled context")
		}
		if _, err := s.Summarize(ctx, store.SummaryQuery{Since: t0, Until: t0.Add(time.Hour), Step: time.Minute}); err == nil {
			t.Fatal("summarized with a cancelled context")
		}
	})

	t.Run("a listing follows the state machine", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		released := at(common.Hash{1}, 0, store.StateClaimed)
		moved := at(common.Hash{2}, time.Minute, store.StateClaimed)
		finished := at(common.Hash{3}, 2*time.Minute, store.StateClaimed)
		reclaimed := at(common.Hash{4}, 3*time.Minute, store.StateClaimed)
		newest := at(common.Hash{5}, 4*time.Minute, store.StateClaimed)
		failed := at(common.Hash{6}, 30*time.Second, store.StateClaimed)
		for _, r := range []store.Record{released, moved, finished, reclaimed, newest, failed} {
			mustClaim(t, s, r)
		}
		ff := submitted(failed, 6)
		must(t, s.Submit(&ff))
		ff.State, ff.Response = store.StateFailed, &x402.SettleResponse{X402Version: 2, Network: ff.Network, ErrorCode: x402.ErrorUserOpFailed}
		must(t, s.Finish(&ff))
		must(t, s.Release(released.Key))
		sub := submitted(moved, 2)
		must(t, s.Submit(&sub))
		fs := submitted(finished, 3)
		must(t, s.Submit(&fs))
		fin := settled(fs)
		fin.Updated = fin.Created.Add(time.Second)
		must(t, s.Finish(&fin))
		fresh := reclaimed
		fresh.Updated = reclaimed.Updated.Add(time.Hour)
		if ok, err := s.Reclaim(&fresh, reclaimed.Updated.Add(time.Minute)); err != nil || !ok {
			t.Fatalf("reclaim: %v %v", ok, err)
		}
		got := listAll(t, s, store.Query{Limit: 2})
		sameKeys(t, "the listing", got, []store.Record{newest, reclaimed, finished, moved, failed})
		if got[1].Updated.Equal(reclaimed.Updated) || got[2].State != store.StateSettled || got[3].State != store.StateSubmitted || got[4].State != store.StateFailed {
			t.Fatalf("the listing holds stale records: %+v", got)
		}
		if p, err := s.List(t.Context(), store.Query{States: []store.State{store.StateFailed, store.StateSettled}}); err != nil {
			t.Fatal(err)
		} else {
			sameKeys(t, "the finished records", p.Records, []store.Record{finished, failed})
		}
		rep, err := s.Summarize(t.Context(), store.SummaryQuery{Since: t0, Until: t0.Add(time.Hour), Step: time.Hour})
		must(t, err)
		sameReport(t, rep, store.Report{
			Steps:    []store.Step{{Start: t0, Assets: []store.AssetTotal{{Asset: finished.Asset, Count: 1, Amount: finished.Amount}}}},
			Failures: map[string]int{string(x402.ErrorUserOpFailed): 1},
			Settled:  1, Failed: 1, Pending: 3,
			LatencyP50: time.Second, LatencyP99: time.Second,
		})

		// A page goes on after its last record, even once that record is
		// released.
		p, err := s.List(t.Context(), store.Query{Limit: 1})
		must(t, err)
		sameKeys(t, "the first page", p.Records, []store.Record{newest})
		must(t, s.Release(newest.Key))
		next, err := s.List(t.Context(), store.Query{Limit: 1, After: p.Next})
		must(t, err)
		sameKeys(t, "the page after a released record", next.Records, []store.Record{reclaimed})

		// A released key claimed again lists once, at its new time.
		again := at(released.Key, 10*time.Minute, store.StateClaimed)
		mustClaim(t, s, again)
		got = listAll(t, s, store.Query{Limit: 3})
		sameKeys(t, "after a claim again", got, []store.Record{again, reclaimed, finished, moved, failed})
		if !got[0].Created.Equal(again.Created) {
			t.Fatalf("the record claimed again was created %v, want %v", got[0].Created, again.Created)
		}
	})

	t.Run("summaries count and total by step", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		x, y := common.Address{0x0a}, common.Address{0x0b}
		big2_70 := new(big.Int).Lsh(big.NewInt(1), 70)
		n := byte(0)
		rec := func(d time.Duration, state store.State, asset common.Address, amount *big.Int, latency time.Duration, reason x402.ErrorCode) store.Record {
			n++
			r := at(common.Hash{0x20, n}, d, state)
			r.Asset, r.Amount, r.Updated = asset, amount, r.Created.Add(latency)
			if reason != "" {
				r.Response.ErrorCode = reason
			}
			return r
		}
		const (
			settledS, failedS   = store.StateSettled, store.StateFailed
			claimedS, submitted = store.StateClaimed, store.StateSubmitted
		)
		recs := []store.Record{
			rec(time.Minute, settledS, y, big.NewInt(100), time.Second, ""),
			rec(2*time.Minute, settledS, x, big.NewInt(200), 2*time.Second, ""),
			rec(2*time.Minute, settledS, x, big.NewInt(300), 3*time.Second, ""),
			rec(10*time.Minute, settledS, y, big.NewInt(7), 6*time.Second, ""),
			rec(25*time.Minute, settledS, x, big2_70, 4*time.Second, ""),
			rec(time.Hour-time.Microsecond, settledS, y, big.NewInt(5), 5*time.Second, ""),
			rec(5*time.Minute, failedS, x, big.NewInt(1), 0, x402.ErrorUserOpFailed),
			rec(30*time.Minute, failedS, x, big.NewInt(1), 0, x402.ErrorUserOpFailed),
			rec(40*time.Minute, failedS, y, big.NewInt(1), 0, ""),
			rec(45*time.Minute, failedS, y, big.NewInt(1), 0, x402.ErrorReceiptTimeout),
			rec(15*time.Minute, submitted, x, big.NewInt(1), 0, ""),
			rec(50*time.Minute, claimedS, x, big.NewInt(1), 0, ""),
			// Outside the window.
			rec(-time.Second, settledS, x, big.NewInt(1000), time.Hour, ""),
			rec(-time.Microsecond, failedS, x, big.NewInt(1000), 0, x402.ErrorInternal),
			rec(time.Hour, settledS, y, big.NewInt(1000), time.Hour, ""),
			rec(time.Hour, claimedS, y, big.NewInt(1000), 0, ""),
		}
		lay(t, []store.Backend{s}, recs)
		total := func(asset common.Address, count int, amount *big.Int) store.AssetTotal {
			return store.AssetTotal{Asset: asset, Count: count, Amount: amount}
		}
		for _, tc := range []struct {
			name string
			q    store.SummaryQuery
			want store.Report
		}{
			{
				"an hour in steps of ten minutes",
				store.SummaryQuery{Since: t0, Until: t0.Add(time.Hour), Step: 10 * time.Minute},
				store.Report{
					Steps: []store.Step{
						{Start: t0, Assets: []store.AssetTotal{total(x, 2, big.NewInt(500)), total(y, 1, big.NewInt(100))}},
						{Start: t0.Add(10 * time.Minute), Assets: []store.AssetTotal{total(y, 1, big.NewInt(7))}},
						{Start: t0.Add(20 * time.Minute), Assets: []store.AssetTotal{total(x, 1, big2_70)}},
						{Start: t0.Add(30 * time.Minute)},
						{Start: t0.Add(40 * time.Minute)},
						{Start: t0.Add(50 * time.Minute), Assets: []store.AssetTotal{total(y, 1, big.NewInt(5))}},
					},
					Failures: map[string]int{string(x402.ErrorUserOpFailed): 2, string(x402.ErrorReceiptTimeout): 1, store.UnknownFailure: 1},
					Settled:  6, Failed: 4, Pending: 2,
					// Latencies 1 to 6 s: 3.5 s half way, 5.95 s at 99 %.
					LatencyP50: 3500 * time.Millisecond, LatencyP99: 5950 * time.Millisecond,
				},
			},
			{
				"the last step reaches past until",
				store.SummaryQuery{Since: t0, Until: t0.Add(25 * time.Minute), Step: 10 * time.Minute},
				store.Report{
					Steps: []store.Step{
						{Start: t0, Assets: []store.AssetTotal{total(x, 2, big.NewInt(500)), total(y, 1, big.NewInt(100))}},
						{Start: t0.Add(10 * time.Minute), Assets: []store.AssetTotal{total(y, 1, big.NewInt(7))}},
						{Start: t0.Add(20 * time.Minute)},
					},
					Failures: map[string]int{string(x402.ErrorUserOpFailed): 1},
					Settled:  4, Failed: 1, Pending: 1,
					// Latencies 1, 2, 3 and 6 s.
					LatencyP50: 2500 * time.Millisecond, LatencyP99: 5910 * time.Millisecond,
				},
			},
			{
				"steps align to since",
				store.SummaryQuery{Since: t0.Add(30 * time.Second), Until: t0.Add(20*time.Minute + 30*time.Second), Step: 10 * time.Minute},
				store.Report{
					Steps: []store.Step{
						{Start: t0.Add(30 * time.Second), Assets: []store.AssetTotal{total(x, 2, big.NewInt(500)), total(y, 2, big.NewInt(107))}},
						{Start: t0.Add(10*time.Minute + 30*time.Second)},
					},
					Failures: map[string]int{string(x402.ErrorUserOpFailed): 1},
					Settled:  4, Failed: 1, Pending: 1,
					LatencyP50: 2500 * time.Millisecond, LatencyP99: 5910 * time.Millisecond,
				},
			},
			{
				"one settlement",
				store.SummaryQuery{Since: t0.Add(time.Minute), Until: t0.Add(time.Minute + time.Microsecond), Step: time.Hour},
				store.Report{
					Steps:    []store.Step{{Start: t0.Add(time.Minute), Assets: []store.AssetTotal{total(y, 1, big.NewInt(100))}}},
					Failures: map[string]int{},
					Settled:  1, LatencyP50: time.Second, LatencyP99: time.Second,
				},
			},
			{
				"nothing",
				store.SummaryQuery{Since: t0.Add(24 * time.Hour), Until: t0.Add(27 * time.Hour), Step: time.Hour},
				store.Report{
					Steps:    []store.Step{{Start: t0.Add(24 * time.Hour)}, {Start: t0.Add(25 * time.Hour)}, {Start: t0.Add(26 * time.Hour)}},
					Failures: map[string]int{},
				},
			},
		} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				got, err := s.Summarize(t.Context(), tc.q)
				if err != nil {
					t.Fatal(err)
				}
				sameReport(t, got, tc.want)
			})
		}
	})

	t.Run("summaries refuse a window they cannot step through", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		for _, tc := range []struct {
			name string
			q    store.SummaryQuery
			ok   bool
		}{
			{"no step", store.SummaryQuery{Since: t0, Until: t0.Add(time.Hour)}, false},
			{"a negative step", store.SummaryQuery{Since: t0, Until: t0.Add(time.Hour), Step: -time.Minute}, false},
			{"no since", store.SummaryQuery{Until: t0, Step: time.Hour}, false},
			{"no until", store.SummaryQuery{Since: t0, Step: time.Hour}, false},
			{"until at since", store.SummaryQuery{Since: t0, Until: t0, Step: time.Minute}, false},
			{"until before since", store.SummaryQuery{Since: t0, Until: t0.Add(-time.Hour), Step: time.Minute}, false},
			{"too many steps", store.SummaryQuery{Since: t0, Until: t0.Add(store.MaxSteps*time.Minute + 1), Step: time.Minute}, false},
			{"a window too long to measure", store.SummaryQuery{Since: time.Unix(0, 0), Until: time.Unix(1<<40, 0), Step: time.Duration(1<<63 - 1)}, false},
			{"as many steps as may be", store.SummaryQuery{Since: t0, Until: t0.Add(store.MaxSteps * time.Minute), Step: time.Minute}, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				rep, err := s.Summarize(t.Context(), tc.q)
				if tc.ok {
					if err != nil || len(rep.Steps) != store.MaxSteps {
						t.Fatalf("%d steps, %v", len(rep.Steps), err)
					}
					return
				}
				if err == nil {
					t.Fatalf("summarized in %d steps", len(rep.Steps))
				}
			})
		}
	})
}

// sameReport fails t unless got is want.
func sameReport(t *testing.T, got, want store.Report) {
	t.Helper()
	if got.Settled != want.Settled || got.Failed != want.Failed || got.Pending != want.Pending {
		t.Errorf("settled, failed, pending: %d %d %d, want %d %d %d", got.Settled, got.Failed, got.Pending, want.Settled, want.Failed, want.Pending)
	}
	if got.LatencyP50 != want.LatencyP50 || got.LatencyP99 != want.LatencyP99 {
		t.Errorf("latency p50, p99: %v %v, want %v %v", got.LatencyP50, got.LatencyP99, want.LatencyP50, want.LatencyP99)
	}
	if !maps.Equal(got.Failures, want.Failures) || got.Failures == nil {
		t.Errorf("failures: %v, want %v", got.Failures, want.Failures)
	}
	if len(got.Steps) != len(want.Steps) {
		t.Fatalf("%d steps, want %d", len(got.Steps), len(want.Steps))
	}
	for i, g := range got.Steps {
		w := want.Steps[i]
		if !g.Start.Equal(w.Start) {
			t.Errorf("step %d starts at %v, want %v", i, g.Start, w.Start)
		}
		if len(g.Assets) != len(w.Assets) {
			t.Errorf("step %d: %v, want %v", i, g.Assets, w.Assets)
			continue
		}
		for j, a := range g.Assets {
			if wa := w.Assets[j]; a.Asset != wa.Asset || a.Count != wa.Count || a.Amount == nil || a.Amount.Cmp(wa.Amount) != 0 {
				t.Errorf("step %d, asset %d: %v, want %v", i, j, a, wa)
			}
		}
	}
}

package store

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// RefusalsSpace is the named space that keeps the refused payments: the
// payments that failed verification, which never reach the settlement
// records.
const RefusalsSpace = "x402_refusals"

// The bounds of what the refusals keep, whatever an attacker sends: at
// most MaxRefusalCounters distinct (reason, route) counters (the rest are
// counted under OtherRoute), the last MaxRecentRefusals refusals, and
// strings cut to MaxRefusalField bytes.
const (
	MaxRefusalCounters = 200
	MaxRecentRefusals  = 100
	MaxRefusalField    = 200
	// OtherRoute is the route of the refusals counted once the counters
	// are full.
	OtherRoute = "(other routes)"
)

var (
	refusalCountsKey = []byte("counts")
	refusalRecentKey = []byte("recent")
)

// Refusal is one refused payment.
type Refusal struct {
	Time time.Time `json:"time"`
	// Reason is the verification's reason code (x402.InvalidReason).
	Reason string `json:"reason"`
	// Route is the path of the paid route the payment was for.
	Route string `json:"route"`
	// Payer is the address the payment claimed to be from, if the
	// facilitator named one.
	Payer   string `json:"payer,omitempty"`
	Scheme  string `json:"scheme,omitempty"`
	Network string `json:"network,omitempty"`
	// Amount and Asset are the offer's price, in base units.
	Amount string `json:"amount,omitempty"`
	Asset  string `json:"asset,omitempty"`
	// Message is the facilitator's readable reason (its invalidMessage),
	// such as "holds 0, the payment needs 10000": cut to MaxRefusalField
	// bytes, control characters removed.
	Message string `json:"message,omitempty"`
}

// RefusalCount counts the refusals of one reason on one route.
type RefusalCount struct {
	Reason string    `json:"reason"`
	Route  string    `json:"route"`
	Count  int64     `json:"count"`
	Last   time.Time `json:"last"`
}

// RefusalSummary is what the refusals space holds: counters by reason and
// route, most first, and the last refusals, newest first.
type RefusalSummary struct {
	Counts []RefusalCount `json:"counts"`
	Recent []Refusal      `json:"recent"`
}

// Refusals keeps refused payments in a store's RefusalsSpace. Record only
// adds to memory, so a flood of refusals costs no disk writes; Flush
// writes what was recorded since the last flush in two atomic updates,
// merged with what other replicas wrote. It is safe for concurrent use.
type Refusals struct {
	kv      KV
	mu      sync.Mutex
	pending map[[2]string]*RefusalCount
	recent  []Refusal
}

// OpenRefusals opens the refusals kept in s.
func OpenRefusals(s Spaces) (*Refusals, error) {
	kv, err := s.Bucket(RefusalsSpace)
	if err != nil {
		return nil, fmt.Errorf("opening the refusals: %w", err)
	}
	return &Refusals{kv: kv, pending: map[[2]string]*RefusalCount{}}, nil
}

// clipField cuts s to MaxRefusalField bytes, on a rune boundary.
func clipField(s string) string {
	if len(s) <= MaxRefusalField {
		return s
	}
	s = s[:MaxRefusalField]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// Record adds a refusal in memory, until the next Flush.
func (r *Refusals) Record(f Refusal) {
	f.Reason, f.Route, f.Payer = clipField(cmp.Or(f.Reason, "unknown")), clipField(f.Route), clipField(f.Payer)
	f.Scheme, f.Network, f.Amount, f.Asset = clipField(f.Scheme), clipField(f.Network), clipField(f.Amount), clipField(f.Asset)
	f.Message = clipField(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, f.Message))
	r.mu.Lock()
	defer r.mu.Unlock()
	k := [2]string{f.Reason, f.Route}
	c := r.pending[k]
	if c == nil {
		if len(r.pending) >= MaxRefusalCounters {
			k = [2]string{f.Reason, OtherRoute}
			c = r.pending[k]
		}
		if c == nil {
			c = &RefusalCount{Reason: k[0], Route: k[1]}
			r.pending[k] = c
		}
	}
	c.Count++
	if f.Time.After(c.Last) {
		c.Last = f.Time
	}
	r.recent = append(r.recent, f)
	if len(r.recent) > MaxRecentRefusals {
		r.recent = slices.Delete(r.recent, 0, len(r.recent)-MaxRecentRefusals)
	}
}

// Flush writes the refusals recorded since the last flush. On failure
// they are kept for the next.
func (r *Refusals) Flush() error {
	r.mu.Lock()
	pending, recent := r.pending, r.recent
	r.pending, r.recent = map[[2]string]*RefusalCount{}, nil
	r.mu.Unlock()
	if len(pending) == 0 && len(recent) == 0 {
		return nil
	}
	err := r.kv.Update(refusalCountsKey, func(old []byte) ([]byte, error) {
		var counts []RefusalCount
		if old != nil {
			if err := json.Unmarshal(old, &counts); err != nil {
				counts = nil // a damaged value starts over rather than blocking every flush
			}
		}
		return json.Marshal(mergeCounts(counts, pending))
	})
	if err == nil {
		err = r.kv.Update(refusalRecentKey, func(old []byte) ([]byte, error) {
			var list []Refusal
			if old != nil {
				if err := json.Unmarshal(old, &list); err != nil {
					list = nil
				}
			}
			list = append(list, recent...)
			slices.SortStableFunc(list, func(a, b Refusal) int { return a.Time.Compare(b.Time) })
			if len(list) > MaxRecentRefusals {
				list = list[len(list)-MaxRecentRefusals:]
			}
			return json.Marshal(list)
		})
	}
	if err != nil {
		r.mu.Lock()
		for k, c := range pending { // keep them for the next flush
			r.merge(k, c)
		}
		r.recent = append(recent, r.recent...)
		if len(r.recent) > MaxRecentRefusals {
			r.recent = r.recent[len(r.recent)-MaxRecentRefusals:]
		}
		r.mu.Unlock()
		return fmt.Errorf("writing the refusals: %w", err)
	}
	return nil
}

// merge adds c to the pending counter k; r.mu is held.
func (r *Refusals) merge(k [2]string, c *RefusalCount) {
	if p := r.pending[k]; p != nil {
		p.Count += c.Count
		if c.Last.After(p.Last) {
			p.Last = c.Last
		}
		return
	}
	if len(r.pending) >= MaxRefusalCounters {
		k[1] = OtherRoute
		c = &RefusalCount{Reason: k[0], Route: OtherRoute, Count: c.Count, Last: c.Last}
		if p := r.pending[k]; p != nil {
			p.Count += c.Count
			return
		}
	}
	r.pending[k] = c
}

// mergeCounts adds pending to the stored counters, keeping at most
// MaxRefusalCounters of them.
func mergeCounts(counts []RefusalCount, pending map[[2]string]*RefusalCount) []RefusalCount {
	idx := make(map[[2]string]int, len(counts))
	for i, c := range counts {
		idx[[2]string{c.Reason, c.Route}] = i
	}
	add := func(k [2]string, c *RefusalCount) bool {
		if i, ok := idx[k]; ok {
			counts[i].Count += c.Count
			if c.Last.After(counts[i].Last) {
				counts[i].Last = c.Last
			}
			return true
		}
		if len(counts) >= MaxRefusalCounters && k[1] != OtherRoute {
			return false
		}
		idx[k] = len(counts)
		counts = append(counts, RefusalCount{Reason: k[0], Route: k[1], Count: c.Count, Last: c.Last})
		return true
	}
	for k, c := range pending {
		if !add(k, c) {
			add([2]string{k[0], OtherRoute}, c)
		}
	}
	return counts
}

// Summary reads the stored refusals.
func (r *Refusals) Summary() (RefusalSummary, error) {
	s := RefusalSummary{Counts: []RefusalCount{}, Recent: []Refusal{}}
	if v, err := r.kv.Get(refusalCountsKey); err != nil {
		return s, err
	} else if v != nil {
		if err := json.Unmarshal(v, &s.Counts); err != nil {
			return s, fmt.Errorf("reading the refusal counters: %w", err)
		}
	}
	if v, err := r.kv.Get(refusalRecentKey); err != nil {
		return s, err
	} else if v != nil {
		if err := json.Unmarshal(v, &s.Recent); err != nil {
			return s, fmt.Errorf("reading the last refusals: %w", err)
		}
	}
	slices.SortStableFunc(s.Counts, func(a, b RefusalCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Route, b.Route))
	})
	slices.Reverse(s.Recent)
	return s, nil
}

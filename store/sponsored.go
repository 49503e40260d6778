package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// SponsoredBucket names the key-value space that counts the
// batch-settlement transactions a merchant's facilitator sends on payers'
// behalf (see [Sponsored]).
const SponsoredBucket = "batch-settlement-sponsored"

// SponsoredLimits bound the channel transactions a merchant pays the gas
// of on payers' behalf (deposits and cooperative refunds), per Window: at
// most PerPayer for one payer and Total for all of them. Zero is no limit.
type SponsoredLimits struct {
	PerPayer, Total int
	Window          time.Duration
}

// Sponsored counts the channel transactions a merchant sponsors, across a
// fleet when its store is shared: each count is one atomic update of the
// store, so that no replica, and no number of them, lets a payer past its
// limit.
type Sponsored struct{ kv KV }

// OpenSponsored opens the sponsored-transaction counts of s.
func OpenSponsored(s Spaces) (*Sponsored, error) {
	kv, err := s.Bucket(SponsoredBucket)
	if err != nil {
		return nil, fmt.Errorf("opening the sponsored channel transactions: %w", err)
	}
	return &Sponsored{kv: kv}, nil
}

// windowCount is one key's count in the window that began at Start.
type windowCount struct {
	Start time.Time `json:"start"`
	N     int       `json:"n"`
}

// Take counts one sponsored transaction of payer at now if neither payer's
// count nor the total in the window reached its limit. It reports whether
// it did and, when it did not, when the window that refused it ends.
func (s *Sponsored) Take(payer string, lim SponsoredLimits, now time.Time) (bool, time.Time, error) {
	payerKey := []byte("payer/" + strings.ToLower(payer))
	ok, ends, err := s.take(payerKey, lim.PerPayer, lim.Window, now, 1)
	if err != nil || !ok {
		return false, ends, err
	}
	ok, ends, err = s.take([]byte("total"), lim.Total, lim.Window, now, 1)
	if err != nil || !ok {
		s.take(payerKey, 0, lim.Window, now, -1) // the payer's count is given back
		return false, ends, err
	}
	return true, time.Time{}, nil
}

// Return gives back one sponsored transaction of payer taken at now's
// window (Take): the deposit or refund it counted sent nothing (refused
// before it was sent, or by the facilitator without a transaction), so it
// cost no gas. A window that ended gives nothing back.
func (s *Sponsored) Return(payer string, lim SponsoredLimits, now time.Time) error {
	if lim.PerPayer > 0 { // Take counts only what has a limit
		if _, _, err := s.take([]byte("payer/"+strings.ToLower(payer)), 0, lim.Window, now, -1); err != nil {
			return err
		}
	}
	if lim.Total > 0 {
		_, _, err := s.take([]byte("total"), 0, lim.Window, now, -1)
		return err
	}
	return nil
}

// take adds delta to key's count in the window at now, unless limit (0:
// none) would be passed.
func (s *Sponsored) take(key []byte, limit int, window time.Duration, now time.Time, delta int) (bool, time.Time, error) {
	if limit <= 0 && delta > 0 {
		return true, time.Time{}, nil
	}
	ok, ends := true, time.Time{}
	err := s.kv.Update(key, func(old []byte) ([]byte, error) {
		var c windowCount
		if old != nil {
			if err := json.Unmarshal(old, &c); err != nil {
				return nil, fmt.Errorf("sponsored channel transactions: %w", err)
			}
		}
		if old == nil || !now.Before(c.Start.Add(window)) {
			if delta < 0 {
				return nil, nil // a window that ended gives nothing back
			}
			c = windowCount{Start: now.UTC()}
		}
		if delta > 0 && c.N+delta > limit {
			ok, ends = false, c.Start.Add(window)
			return nil, nil
		}
		c.N = max(0, c.N+delta)
		return json.Marshal(c)
	})
	return ok, ends, err
}

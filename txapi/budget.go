package txapi

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"

	"go.uber.org/zap"
)

// walletKey is the key of the budget bucket that holds walletDay.
var walletKey = []byte("wallet")

// walletDay is what the wallet spent on one UTC day, in wei: in all and
// per API key. It is one document, so a charge checks both budgets and
// takes from both in one atomic Update, which every replica sharing the
// store serializes: no charge slips between another's check and its write,
// and a key's and the total budget never disagree. Its size is the number
// of keys that spent that day.
type walletDay struct {
	Day   string              `json:"day"` // YYYY-MM-DD
	Total *big.Int            `json:"total"`
	Keys  map[string]*big.Int `json:"keys"`
}

// decodeWalletDay reads the stored document as the one of day: a document
// of an earlier day is over and starts afresh, and one of a later day (a
// replica whose clock runs ahead began it) is kept, so the day never goes
// back and a lagging clock spends from the newer day.
func decodeWalletDay(raw []byte, day string) (*walletDay, error) {
	w := new(walletDay)
	if raw != nil {
		if err := json.Unmarshal(raw, w); err != nil {
			return nil, fmt.Errorf("decoding the wallet's daily spending: %w", err)
		}
	}
	if w.Day < day {
		*w = walletDay{Day: day}
	}
	if w.Total == nil {
		w.Total = new(big.Int)
	}
	if w.Keys == nil {
		w.Keys = map[string]*big.Int{}
	}
	return w, nil
}

// spent is what keyID spent on the document's day.
func (w *walletDay) spent(keyID string) *big.Int {
	if v := w.Keys[keyID]; v != nil {
		return v
	}
	return new(big.Int)
}

// charge takes amount from the key's and the wallet's daily budgets, or
// refuses if either would be exceeded, in one Update of walletKey. It
// returns the refund of the charge, for a transaction that then never
// reached the node.
func (s *Service) charge(keyID string, amount *big.Int) (refund func(), _ *apiError) {
	cfg := s.conf()
	now := cfg.Now()
	var (
		day  string
		over bool
	)
	err := s.budget.Update(walletKey, func(old []byte) ([]byte, error) {
		w, err := decodeWalletDay(old, utcDay(now))
		if err != nil {
			return nil, err
		}
		day, over = w.Day, false
		key := new(big.Int).Add(w.spent(keyID), amount)
		total := new(big.Int).Add(w.Total, amount)
		if key.Cmp(cfg.KeyDailyBudget) > 0 || total.Cmp(cfg.DailyBudget) > 0 {
			over = true
			return nil, nil
		}
		w.Keys[keyID], w.Total = key, total
		return json.Marshal(w)
	})
	if err != nil {
		s.log.Error("charging the daily budget", zap.Error(err))
		return nil, fail(http.StatusInternalServerError, "internal_error", "the budget could not be read")
	}
	if over {
		e := fail(http.StatusTooManyRequests, "budget_exhausted", "the wallet's daily budget for this key or overall is spent; it renews at 00:00 UTC")
		e.retryAfter = untilTomorrow(now)
		return nil, e
	}
	return func() { s.refund(day, keyID, amount) }, nil
}

// refund gives a charge of amount back to keyID and to the total of day.
// A charge of a day that is over stays where it is. A failure is logged
// and the charge stays: the budget then counts a transaction that was not
// sent, which errs on the safe side.
func (s *Service) refund(day, keyID string, amount *big.Int) {
	err := s.budget.Update(walletKey, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, nil
		}
		var w walletDay
		if err := json.Unmarshal(old, &w); err != nil {
			return nil, fmt.Errorf("decoding the wallet's daily spending: %w", err)
		}
		if w.Day != day || w.Total == nil {
			return nil, nil
		}
		w.Total = subFloor(w.Total, amount)
		if key := subFloor(w.spent(keyID), amount); key.Sign() > 0 {
			w.Keys[keyID] = key
		} else {
			delete(w.Keys, keyID)
		}
		return json.Marshal(&w)
	})
	if err != nil {
		s.log.Error("refunding the daily budget", zap.Error(err))
	}
}

// subFloor is a-b, or zero if b is the larger.
func subFloor(a, b *big.Int) *big.Int {
	d := new(big.Int).Sub(a, b)
	if d.Sign() < 0 {
		d.SetInt64(0)
	}
	return d
}

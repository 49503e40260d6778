package txapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/time/rate"
)

// ErrForbidden is wrapped by an Authorize error for a valid key that lacks
// the txapi:send scope (403, not 401).
var ErrForbidden = errors.New("the key lacks the txapi:send scope")

// HeaderAPIKey carries the API key of the routes that spend the wallet.
const HeaderAPIKey = "X-API-Key"

// authorize admits a request to a route that spends the wallet: a valid
// key with the txapi:send scope, within its rate. It returns the key's id.
func (s *Service) authorize(r *http.Request) (string, *apiError) {
	secret := r.Header.Get(HeaderAPIKey)
	if secret == "" {
		if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			secret = strings.TrimSpace(v)
		}
	}
	if secret == "" || s.conf().Authorize == nil {
		return "", fail(http.StatusUnauthorized, "unauthorized", "this route spends the service wallet: send an API key with the txapi:send scope in the X-API-Key header")
	}
	id, err := s.conf().Authorize(secret)
	switch {
	case errors.Is(err, ErrForbidden):
		return "", fail(http.StatusForbidden, "forbidden", "the key lacks the scope txapi:send")
	case err != nil:
		s.log.Info("txapi key refused", zap.Error(err))
		return "", fail(http.StatusUnauthorized, "unauthorized", "the API key is unknown, revoked or rotated")
	}
	s.limitMu.Lock()
	l, ok := s.keyRates[id]
	if !ok {
		l = rate.NewLimiter(rate.Limit(float64(s.conf().KeyRate)/60), s.conf().KeyRate)
		s.keyRates[id] = l
	}
	s.limitMu.Unlock()
	if r := l.Reserve(); r.Delay() > 0 {
		wait := r.Delay()
		r.Cancel()
		e := fail(http.StatusTooManyRequests, "rate_limited", "this key may make %d requests a minute", s.conf().KeyRate)
		e.retryAfter = wait
		return "", e
	}
	return id, nil
}

// spend is the most a transaction can take from the wallet: its value and
// its gas at the fee cap.
func spend(value *big.Int, gas uint64, feeCap *big.Int) *big.Int {
	cost := new(big.Int).Mul(new(big.Int).SetUint64(gas), feeCap)
	return cost.Add(cost, value)
}

// dayKey names a UTC day's counter in the budget bucket.
func dayKey(now time.Time, what string) []byte {
	return []byte("day/" + now.UTC().Format(time.DateOnly) + "/" + what)
}

// untilTomorrow is the wait until the next UTC day.
func untilTomorrow(now time.Time) time.Duration {
	day := now.UTC().Truncate(24 * time.Hour)
	return day.Add(24 * time.Hour).Sub(now)
}

func (s *Service) readWei(key []byte) (*big.Int, error) {
	raw, err := s.budget.Get(key)
	if err != nil {
		return nil, err
	}
	v := new(big.Int)
	if raw != nil {
		v.SetString(string(raw), 10)
	}
	return v, nil
}

// charge takes amount from the key's and the wallet's daily budgets, or
// refuses if either would be exceeded. The caller holds sendMu, so checks
// and writes do not interleave.
func (s *Service) charge(keyID string, amount *big.Int) *apiError {
	now := s.conf().Now()
	total, keyKey := dayKey(now, "total"), dayKey(now, "key/"+keyID)
	spentTotal, err1 := s.readWei(total)
	spentKey, err2 := s.readWei(keyKey)
	if err := errors.Join(err1, err2); err != nil {
		s.log.Error("reading the daily budget", zap.Error(err))
		return fail(http.StatusInternalServerError, "internal_error", "the budget could not be read")
	}
	if new(big.Int).Add(spentKey, amount).Cmp(s.conf().KeyDailyBudget) > 0 || new(big.Int).Add(spentTotal, amount).Cmp(s.conf().DailyBudget) > 0 {
		e := fail(http.StatusTooManyRequests, "budget_exhausted", "the wallet's daily budget for this key or overall is spent; it renews at 00:00 UTC")
		e.retryAfter = untilTomorrow(now)
		return e
	}
	err1 = s.budget.Put(total, []byte(spentTotal.Add(spentTotal, amount).String()))
	err2 = s.budget.Put(keyKey, []byte(spentKey.Add(spentKey, amount).String()))
	if err := errors.Join(err1, err2); err != nil {
		s.log.Error("writing the daily budget", zap.Error(err))
		return fail(http.StatusInternalServerError, "internal_error", "the budget could not be written")
	}
	return nil
}

// clientOf names the request's client for the faucet's per-client limit.
func (s *Service) clientOf(r *http.Request) string {
	if s.conf().ClientIP != nil {
		return s.conf().ClientIP(r)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// admitFaucet checks the faucet's per-client limit and daily budget and,
// if both allow, counts the request. The caller holds faucMu.
func (s *Service) admitFaucet(client string) *apiError {
	now := s.conf().Now()
	if today := now.UTC().Format(time.DateOnly); s.pruned != today {
		s.prune(now)
		s.pruned = today
	}
	clientKey := []byte("faucet/client/" + client)
	var times []time.Time
	if raw, err := s.budget.Get(clientKey); err != nil {
		return fail(http.StatusInternalServerError, "internal_error", "the faucet's records could not be read")
	} else if raw != nil {
		json.Unmarshal(raw, &times)
	}
	kept := times[:0]
	for _, t := range times {
		if now.Sub(t) < s.conf().FaucetCooldown {
			kept = append(kept, t)
		}
	}
	if len(kept) >= s.conf().FaucetPerClient {
		e := fail(http.StatusTooManyRequests, "faucet_client_limit", "this client made %d faucet requests in %v", len(kept), s.conf().FaucetCooldown)
		e.retryAfter = kept[0].Add(s.conf().FaucetCooldown).Sub(now)
		return e
	}
	dayCount := dayKey(now, "faucet")
	n := 0
	if raw, err := s.budget.Get(dayCount); err != nil {
		return fail(http.StatusInternalServerError, "internal_error", "the faucet's records could not be read")
	} else if raw != nil {
		fmt.Sscan(string(raw), &n)
	}
	if n >= s.conf().FaucetDaily {
		e := fail(http.StatusTooManyRequests, "faucet_budget_exhausted", "the faucet served its %d requests for today; it renews at 00:00 UTC", s.conf().FaucetDaily)
		e.retryAfter = untilTomorrow(now)
		return e
	}
	raw, _ := json.Marshal(append(kept, now))
	err1 := s.budget.Put(clientKey, raw)
	err2 := s.budget.Put(dayCount, []byte(fmt.Sprint(n+1)))
	if err := errors.Join(err1, err2); err != nil {
		s.log.Error("writing the faucet's records", zap.Error(err))
		return fail(http.StatusInternalServerError, "internal_error", "the faucet's records could not be written")
	}
	return nil
}

// gasCeiling is the network's gas price ceiling: three times the latest
// base fee plus 2 gwei, as the paymaster derives its own.
func gasCeiling(baseFee *big.Int) *big.Int {
	c := new(big.Int).Mul(baseFee, big.NewInt(3))
	return c.Add(c, new(big.Int).Mul(big.NewInt(2), gwei))
}

// prune drops counters that can no longer refuse anything: daily ones of
// days before yesterday, and clients whose last faucet request is older
// than the cooldown. It runs once a day, so the bucket stays bounded by
// recent callers.
func (s *Service) prune(now time.Time) {
	yesterday := now.UTC().Add(-24 * time.Hour).Format(time.DateOnly)
	var stale [][]byte
	err := s.budget.ForEach(func(k, v []byte) error {
		key := string(k)
		switch {
		case strings.HasPrefix(key, "day/"):
			if day, _, _ := strings.Cut(key[len("day/"):], "/"); day < yesterday {
				stale = append(stale, append([]byte(nil), k...))
			}
		case strings.HasPrefix(key, "faucet/client/"):
			var times []time.Time
			if json.Unmarshal(v, &times) != nil || len(times) == 0 || now.Sub(times[len(times)-1]) >= s.conf().FaucetCooldown {
				stale = append(stale, append([]byte(nil), k...))
			}
		}
		return nil
	})
	for _, k := range stale {
		err = errors.Join(err, s.budget.Delete(k))
	}
	if err != nil {
		s.log.Warn("pruning the txapi counters", zap.Error(err))
	}
}

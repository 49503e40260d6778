package txapi

import (
	"errors"
	"math/big"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/time/rate"

	"github.com/caddy-x402/caddy-x402/clientaddr"
)

// ErrForbidden is wrapped by an Authorize error for a valid key that lacks
// the txapi:send scope (403, not 401).
var ErrForbidden = errors.New("the key lacks the txapi:send scope")

// HeaderAPIKey carries the API key of the routes that spend the wallet.
const HeaderAPIKey = "X-API-Key"

// authorize admits a request to a route that spends the wallet: a valid
// key with the txapi:send scope, within its rate. It returns the key's id.
//
// The rate is the one limit kept in the process: it smooths a key's bursts
// at each replica, while the daily budgets, kept in the store, bound what
// the key spends across the fleet.
func (s *Service) authorize(r *http.Request) (string, *apiError) {
	secret := r.Header.Get(HeaderAPIKey)
	if secret == "" {
		if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			secret = strings.TrimSpace(v)
		}
	}
	cfg := s.conf()
	if secret == "" || cfg.Authorize == nil {
		return "", fail(http.StatusUnauthorized, "unauthorized", "this route spends the service wallet: send an API key with the txapi:send scope in the X-API-Key header")
	}
	id, err := cfg.Authorize(secret)
	switch {
	case errors.Is(err, ErrForbidden):
		return "", fail(http.StatusForbidden, "forbidden", "the key lacks the scope txapi:send")
	case err != nil:
		s.log.Info("txapi key refused", zap.Error(err))
		return "", fail(http.StatusUnauthorized, "unauthorized", "the API key is unknown, revoked or rotated")
	}
	s.limitMu.Lock()
	l, ok := s.keyRates[id]
	switch {
	case !ok:
		l = rate.NewLimiter(rate.Limit(float64(cfg.KeyRate)/60), cfg.KeyRate)
		s.keyRates[id] = l
	case l.Burst() != cfg.KeyRate: // SetLimits changed the rate
		l.SetLimit(rate.Limit(float64(cfg.KeyRate) / 60))
		l.SetBurst(cfg.KeyRate)
	}
	s.limitMu.Unlock()
	if r := l.Reserve(); r.Delay() > 0 {
		wait := r.Delay()
		r.Cancel()
		e := fail(http.StatusTooManyRequests, "rate_limited", "this key may make %d requests a minute", cfg.KeyRate)
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

// utcDay names now's UTC day, YYYY-MM-DD, which sorts as the days do.
func utcDay(now time.Time) string { return now.UTC().Format(time.DateOnly) }

// untilTomorrow is the wait until the next UTC day.
func untilTomorrow(now time.Time) time.Duration {
	day := now.UTC().Truncate(24 * time.Hour)
	return day.Add(24 * time.Hour).Sub(now)
}

// clientOf names the request's client for the faucet's per-client limit:
// its address as clientaddr.Key counts it, so that an IPv6 client counts
// by its /64 and cannot draw again from each of its 2^64 addresses.
func (s *Service) clientOf(r *http.Request) string {
	if s.conf().ClientIP != nil {
		return clientaddr.Key(s.conf().ClientIP(r))
	}
	return clientaddr.FromRequest(r)
}

// gasCeiling is the network's gas price ceiling: three times the latest
// base fee plus 2 gwei, as the paymaster derives its own.
func gasCeiling(baseFee *big.Int) *big.Int {
	c := new(big.Int).Mul(baseFee, big.NewInt(3))
	return c.Add(c, new(big.Int).Mul(big.NewInt(2), gwei))
}

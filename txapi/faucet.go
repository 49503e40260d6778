package txapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"
)

// faucetKey is the key of the faucet bucket that holds faucetState.
var faucetKey = []byte("limits")

// faucetState is everything the faucet's limits count, in one document:
// the draws of the last FaucetCooldown per address and per client, and the
// draws of the UTC day. A request is checked against the three limits and
// counted in all of them in one atomic Update, which every replica sharing
// the store serializes, so no limit can be passed by a race and no count
// taken for a request that another limit refuses. Draws older than the
// cooldown in force are dropped as the document is written, which bounds
// it by the draws of one cooldown (at most about FaucetDaily a day); a
// cooldown lengthened by SetLimits does not bring dropped draws back.
type faucetState struct {
	Day       string                       `json:"day"`   // YYYY-MM-DD
	Count     int                          `json:"count"` // draws of Day
	Addresses map[common.Address]time.Time `json:"addresses"`
	Clients   map[string][]time.Time       `json:"clients"`
}

// decodeFaucetState reads the stored document as of now: a count of an
// earlier day starts afresh (one of a later day, begun by a replica whose
// clock runs ahead, is kept), and draws older than cooldown are dropped.
func decodeFaucetState(raw []byte, now time.Time, cooldown time.Duration) (*faucetState, error) {
	f := new(faucetState)
	if raw != nil {
		if err := json.Unmarshal(raw, f); err != nil {
			return nil, fmt.Errorf("decoding the faucet's limits: %w", err)
		}
	}
	if day := utcDay(now); f.Day < day {
		f.Day, f.Count = day, 0
	}
	if f.Addresses == nil {
		f.Addresses = map[common.Address]time.Time{}
	}
	if f.Clients == nil {
		f.Clients = map[string][]time.Time{}
	}
	expired := func(t time.Time) bool { return now.Sub(t) >= cooldown }
	for a, t := range f.Addresses {
		if expired(t) {
			delete(f.Addresses, a)
		}
	}
	for c, times := range f.Clients {
		if times = slices.DeleteFunc(times, expired); len(times) == 0 {
			delete(f.Clients, c)
		} else {
			f.Clients[c] = times
		}
	}
	return f, nil
}

// admitFaucet checks a draw for to by client against the faucet's limits,
// the address's cooldown first, then the client's and the day's counts,
// and counts it if all three allow, in one Update of faucetKey. It returns
// the release of the draw, for a transaction that then never reached the
// node.
func (s *Service) admitFaucet(now time.Time, to common.Address, client string) (release func(), _ *apiError) {
	cfg := s.conf()
	now = now.UTC()
	var (
		day     string
		refusal *apiError
	)
	err := s.faucet.Update(faucetKey, func(old []byte) ([]byte, error) {
		f, err := decodeFaucetState(old, now, cfg.FaucetCooldown)
		if err != nil {
			return nil, err
		}
		day, refusal = f.Day, nil
		if last, ok := f.Addresses[to]; ok {
			next := last.Add(cfg.FaucetCooldown)
			refusal = fail(http.StatusTooManyRequests, "faucet_cooldown", "%s drew from the faucet at %s; one request per %v", to.Hex(), last.UTC().Format(time.RFC3339), cfg.FaucetCooldown)
			refusal.NextAllowed, refusal.retryAfter = next.UTC().Format(time.RFC3339), next.Sub(now)
			return nil, nil
		}
		if times := f.Clients[client]; len(times) >= cfg.FaucetPerClient {
			refusal = fail(http.StatusTooManyRequests, "faucet_client_limit", "this client made %d faucet requests in %v", len(times), cfg.FaucetCooldown)
			refusal.retryAfter = slices.MinFunc(times, time.Time.Compare).Add(cfg.FaucetCooldown).Sub(now)
			return nil, nil
		}
		if f.Count >= cfg.FaucetDaily {
			refusal = fail(http.StatusTooManyRequests, "faucet_budget_exhausted", "the faucet served its %d requests for today; it renews at 00:00 UTC", cfg.FaucetDaily)
			refusal.retryAfter = untilTomorrow(now)
			return nil, nil
		}
		f.Addresses[to] = now
		f.Clients[client] = append(f.Clients[client], now)
		f.Count++
		return json.Marshal(f)
	})
	if err != nil {
		s.log.Error("admitting a faucet request", zap.Error(err))
		return nil, fail(http.StatusInternalServerError, "internal_error", "the faucet's records could not be read")
	}
	if refusal != nil {
		return nil, refusal
	}
	return func() { s.releaseFaucet(day, now, to, client) }, nil
}

// releaseFaucet takes back the draw admitFaucet counted at now: the
// address's cooldown, one draw of the client and, if day is still the
// document's day, one of the day. A failure is logged and the draw stays
// counted, which errs on the safe side.
func (s *Service) releaseFaucet(day string, now time.Time, to common.Address, client string) {
	err := s.faucet.Update(faucetKey, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, nil
		}
		var f faucetState
		if err := json.Unmarshal(old, &f); err != nil {
			return nil, fmt.Errorf("decoding the faucet's limits: %w", err)
		}
		if t, ok := f.Addresses[to]; ok && t.Equal(now) {
			delete(f.Addresses, to)
		}
		times := f.Clients[client]
		if i := slices.IndexFunc(times, now.Equal); i >= 0 {
			if times = slices.Delete(times, i, i+1); len(times) == 0 {
				delete(f.Clients, client)
			} else {
				f.Clients[client] = times
			}
		}
		if f.Day == day && f.Count > 0 {
			f.Count--
		}
		return json.Marshal(&f)
	})
	if err != nil {
		s.log.Error("releasing a faucet draw", zap.Error(err))
	}
}

package paymaster

import (
	"encoding/json"
	"fmt"
	"time"
)

// DefaultCallsPerMinute is a project's calls per minute per API key unless
// Project.CallsPerMinute says otherwise.
const DefaultCallsPerMinute = 120

// callRateVersion is written into every call-rate record; a record of
// another version is refused rather than misread.
const callRateVersion = 1

// callRateKey is the ledger key of an API key's call rate. It is keyed by
// the key's public ID, so a rotated key starts afresh and a key's rate is
// one record shared by every Service on the ledger (replicas on one
// database count together).
func callRateKey(keyID string) []byte { return []byte("calls/" + keyID) }

// callRate is an API key's call rate in the ledger, kept as a generic cell
// rate algorithm: one instant, so the record has a fixed size whatever the
// rate. At a rate of n per minute each call moves Theoretical on by a
// minute/n from the later of itself and now, and a call is admitted while
// Theoretical stays within a minute of now. A key may thus make n calls
// in a burst, then n a minute.
type callRate struct {
	V int `json:"v"`
	// Theoretical is when the key's calls so far would have been spaced
	// out at its rate (unix nanoseconds).
	Theoretical int64 `json:"tat"`
}

// takeCalls counts n calls of the API key keyID against perMinute, in one
// atomic update of the ledger, and returns how many are admitted (the
// first of the n) and, if not all, how long until the next one would be.
// Admitted calls count whatever they then answer, a refusal as much as a
// sponsorship; calls it refuses are not counted (they reach no chain), so
// a refused flood writes nothing.
func (s *Service) takeCalls(keyID string, perMinute, n int, now time.Time) (admitted int, wait time.Duration, err error) {
	if perMinute <= 0 {
		perMinute = DefaultCallsPerMinute
	}
	interval := int64(time.Minute) / int64(perMinute)
	at := now.UnixNano()
	err = s.ledger.Update(callRateKey(keyID), func(old []byte) ([]byte, error) {
		r := callRate{V: callRateVersion}
		if old != nil {
			if err := json.Unmarshal(old, &r); err != nil {
				return nil, fmt.Errorf("decoding a key's call rate: %w", err)
			}
			if r.V != callRateVersion {
				return nil, fmt.Errorf("a key's call rate record has version %d; this paymaster reads version %d", r.V, callRateVersion)
			}
		}
		tat := max(r.Theoretical, at)
		room := max(at+int64(time.Minute)-tat, 0)
		admitted = int(min(int64(n), room/interval))
		wait = 0
		next := tat + int64(admitted)*interval
		if admitted < n {
			wait = time.Duration(next + interval - int64(time.Minute) - at)
		}
		if admitted == 0 {
			return nil, nil
		}
		r.Theoretical = next
		return json.Marshal(&r)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("counting API key %s's calls: %w", keyID, err)
	}
	return admitted, wait, nil
}

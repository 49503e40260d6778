package store

import (
	"encoding/binary"
	"time"
)

// PaymentsInUseBucket names the key-value space of the payments in use
// across a fleet (see [Leases]).
const PaymentsInUseBucket = "payments-in-use"

// Leases marks keys taken until a time, in a key-value space every process
// of a fleet shares (a PostgreSQL store's Update is atomic across them):
// the paywall takes a lease on a payment while its response is served, so
// that no other replica serves the same payment meanwhile. A lease a
// crashed process left ends by itself.
type Leases struct {
	kv KV
}

// NewLeases returns the leases kept in kv.
func NewLeases(kv KV) *Leases { return &Leases{kv: kv} }

// Take leases key until until. It reports false, and changes nothing, if
// key is leased at now.
func (l *Leases) Take(key []byte, until, now time.Time) (bool, error) {
	taken := false
	err := l.kv.Update(key, func(old []byte) ([]byte, error) {
		taken = false
		if leased(old, now) {
			return nil, nil
		}
		taken = true
		return binary.BigEndian.AppendUint64(nil, uint64(until.UnixNano())), nil
	})
	return taken && err == nil, err
}

// Drop ends the lease of key.
func (l *Leases) Drop(key []byte) error { return l.kv.Delete(key) }

// Prune deletes the leases that ended before now and returns how many.
func (l *Leases) Prune(now time.Time) (int, error) {
	return pruneKV(l.kv, func(v []byte) bool { return !leased(v, now) })
}

// leased reports whether v, a lease's end, is after now.
func leased(v []byte, now time.Time) bool {
	return len(v) == 8 && now.Before(time.Unix(0, int64(binary.BigEndian.Uint64(v))))
}

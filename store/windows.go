package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// AccessWindowBucket names the key-value space of paid access windows (see
// [AccessWindows]).
const AccessWindowBucket = "access-windows"

// SignInNonceBucket names the key-value space of the sign-in nonces that
// were used (see [AccessWindows.UseNonce]).
const SignInNonceBucket = "sign-in-nonces"

// AccessWindow is what one payer bought on one route: access until Expires,
// for at most Budget requests in all (0: no limit), of which Used were made.
type AccessWindow struct {
	// Payer is the payer's address, lowercase hex.
	Payer string `json:"payer"`
	// Scope names the route and its origin.
	Scope string `json:"scope"`
	// Opened is when the window was opened by a settled payment.
	Opened time.Time `json:"opened"`
	// Expires is when it ends.
	Expires time.Time `json:"expires"`
	// Budget is how many requests it serves in all, the paid ones
	// included; 0 is no limit.
	Budget int64 `json:"budget,omitempty"`
	// Used is how many it served: the paid ones, and the others as Use
	// spends them (the paywall spends them only under a budget).
	Used int64 `json:"used"`
	// Transaction is the hash of the last settlement that opened or
	// extended it.
	Transaction string `json:"tx,omitempty"`
}

// Live reports whether w serves a request at now.
func (w AccessWindow) Live(now time.Time) bool {
	return now.Before(w.Expires) && (w.Budget == 0 || w.Used < w.Budget)
}

// AccessWindows keeps paid access windows, and the sign-in nonces that
// were used, in two key-value spaces of any Backend (a bbolt file for one
// instance, a fleet's PostgreSQL database shared by its replicas), so that
// windows survive restarts and hold on every replica. Each method is one
// atomic KV.Update, so a budget is never overspent and a nonce never used
// twice, whichever replica is asked.
type AccessWindows struct {
	windows, nonces KV
}

// NewAccessWindows returns the windows kept in windows and the used nonces
// kept in nonces.
func NewAccessWindows(windows, nonces KV) *AccessWindows {
	return &AccessWindows{windows: windows, nonces: nonces}
}

// windowKey is the key of (scope, payer): a hash, so every key has one
// length.
func windowKey(scope, payer string) []byte {
	h := sha256.Sum256([]byte(scope + "\x00" + payer))
	return h[:]
}

func decodeWindow(b []byte) (AccessWindow, error) {
	var w AccessWindow
	if err := json.Unmarshal(b, &w); err != nil {
		return w, fmt.Errorf("access window: %w", err)
	}
	return w, nil
}

// Open records a settled payment of payer on scope at now, served as one
// request of the window: a live window is extended by d and its budget
// raised by budget; otherwise a new one opens, until now+d with budget
// requests (0: no limit), the paid one used. It returns the window.
func (a *AccessWindows) Open(scope, payer string, d time.Duration, budget int64, tx string, now time.Time) (AccessWindow, error) {
	var got AccessWindow
	err := a.windows.Update(windowKey(scope, payer), func(old []byte) ([]byte, error) {
		w := AccessWindow{Payer: payer, Scope: scope, Opened: now.UTC(), Expires: now.Add(d).UTC(), Budget: budget}
		if old != nil {
			prev, err := decodeWindow(old)
			if err != nil {
				return nil, err
			}
			if prev.Live(now) && prev.Payer == payer && prev.Scope == scope {
				w = prev
				w.Expires = w.Expires.Add(d)
				if w.Budget != 0 {
					w.Budget += budget
				}
			}
		}
		w.Used++
		w.Transaction = tx
		got = w
		return json.Marshal(w)
	})
	return got, err
}

// Use spends one request of payer's window on scope at now. It returns the
// window and true if the window was live (and is now one request further
// spent), or false and nothing spent.
func (a *AccessWindows) Use(scope, payer string, now time.Time) (AccessWindow, bool, error) {
	var got AccessWindow
	ok := false
	err := a.windows.Update(windowKey(scope, payer), func(old []byte) ([]byte, error) {
		ok = false
		if old == nil {
			return nil, nil
		}
		w, err := decodeWindow(old)
		if err != nil {
			return nil, err
		}
		got = w
		if !w.Live(now) || w.Payer != payer || w.Scope != scope {
			return nil, nil
		}
		w.Used++
		got, ok = w, true
		return json.Marshal(w)
	})
	if err != nil {
		return AccessWindow{}, false, err
	}
	return got, ok, nil
}

// Lookup returns payer's window on scope, live or not, if there is one.
func (a *AccessWindows) Lookup(scope, payer string) (AccessWindow, bool, error) {
	b, err := a.windows.Get(windowKey(scope, payer))
	if err != nil || b == nil {
		return AccessWindow{}, false, err
	}
	w, err := decodeWindow(b)
	return w, err == nil, err
}

// UseNonce marks a sign-in nonce used, remembered until until. It reports
// false, and changes nothing, if the nonce was used already and is still
// remembered at now.
func (a *AccessWindows) UseNonce(nonce string, until, now time.Time) (bool, error) {
	k := sha256.Sum256([]byte(nonce))
	fresh := false
	err := a.nonces.Update(k[:], func(old []byte) ([]byte, error) {
		fresh = false
		if len(old) == 8 && now.Before(time.Unix(0, int64(binary.BigEndian.Uint64(old)))) {
			return nil, nil
		}
		fresh = true
		return binary.BigEndian.AppendUint64(nil, uint64(until.UnixNano())), nil
	})
	return fresh && err == nil, err
}

// Prune deletes the windows that ended before now (expired, or their
// budget spent) and the nonces no longer remembered, and returns how many
// entries it deleted.
func (a *AccessWindows) Prune(now time.Time) (int, error) {
	n, err := pruneKV(a.windows, func(v []byte) bool {
		w, err := decodeWindow(v)
		return err != nil || !w.Live(now)
	})
	if err != nil {
		return n, err
	}
	m, err := a.PruneNonces(now)
	return n + m, err
}

// PruneNonces deletes the sign-in nonces no longer remembered at now, and
// returns how many it deleted. Each sign-in to a window without a request
// budget writes one, so they are pruned far more often than windows.
func (a *AccessWindows) PruneNonces(now time.Time) (int, error) {
	return pruneKV(a.nonces, func(v []byte) bool {
		return len(v) != 8 || !now.Before(time.Unix(0, int64(binary.BigEndian.Uint64(v))))
	})
}

// pruneKV deletes the entries of kv that dead reports, checking each again
// before it goes, since it may have been written meanwhile.
func pruneKV(kv KV, dead func(v []byte) bool) (int, error) {
	var old [][]byte
	if err := kv.ForEach(func(k, v []byte) error {
		if dead(v) {
			old = append(old, bytes.Clone(k))
		}
		return nil
	}); err != nil {
		return 0, err
	}
	n := 0
	for _, k := range old {
		b, err := kv.Get(k)
		if err != nil {
			return n, err
		}
		if b == nil || !dead(b) {
			continue
		}
		if err := kv.Delete(k); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

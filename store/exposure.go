package store

import (
	"encoding/binary"
	"errors"
	"math/big"
	"slices"
	"strings"
	"time"
)

// ExposureBucket names the key-value space of the serve-on-broadcast
// ledger that the replicas of a fleet share (see [Exposure]).
const ExposureBucket = "x402_exposure"

// MaxExposureHolds bounds the holds one key of an [Exposure] keeps (one
// payer's, one asset's, one route's asset's): past it, a reservation is
// refused (the payment then waits for inclusion), so that the value the
// fleet rewrites stays small.
const MaxExposureHolds = 2048

// Exposure is the part of the serve-on-broadcast ledger that the replicas
// of a fleet share, in a key-value space whose Update is atomic across
// them (a PostgreSQL store's): how many payments of each payer were served
// on broadcast and are not final, the amount of each asset (site-wide and
// per route) they stand for, and the payers in the penalty box. A
// reservation is one hold in each of the keys it counts in, taken in turn
// with a bound checked in the same atomic update, and given back if a
// later one refuses; so no key's bound is passed, whatever the replicas do
// at once. A hold ends by itself at its expiry: a replica that died with
// payments in flight frees their share then.
type Exposure struct {
	kv KV
}

// NewExposure returns the ledger kept in kv.
func NewExposure(kv KV) *Exposure { return &Exposure{kv: kv} }

// Hold is one payment's share of an Exposure.
type Hold struct {
	// ID names the hold; random, unique to the payment.
	ID [8]byte
	// Payer is the payer's address; compared in lower case.
	Payer string
	// Asset names the asset (network and token, as paywall.AssetKey).
	Asset string
	// Route names the route, the same on every replica; empty when the
	// route has no bound of its own.
	Route string
	// Amount is the payment's amount, in the asset's atomic units.
	Amount *big.Int
	// Expires is when the hold ends by itself.
	Expires time.Time
}

// ExposureLimits are the bounds a reservation must fit: PerPayer holds of
// one payer at most, and, where not nil, the site's and the route's
// amount of the asset in flight.
type ExposureLimits struct {
	PerPayer int
	Site     *big.Int
	Route    *big.Int
}

// errRefused stops an update whose bound would be passed.
var errRefused = errors.New("refused")

// Reserve takes h if every bound of lim allows it at now and its payer is
// not in the penalty box. It reports false, with nothing held, otherwise.
func (e *Exposure) Reserve(h Hold, lim ExposureLimits, now time.Time) (bool, error) {
	if h.Amount == nil || h.Amount.Sign() < 0 || lim.PerPayer <= 0 {
		return false, nil
	}
	type counted struct {
		key   []byte
		bound *big.Int // nil: the payer's key, bounded by count
	}
	keys := []counted{{key: payerKey(h.Payer)}}
	if lim.Site != nil {
		keys = append(keys, counted{assetKey(h.Asset), lim.Site})
	}
	if lim.Route != nil && h.Route != "" {
		keys = append(keys, counted{routeKey(h.Route, h.Asset), lim.Route})
	}
	for i, k := range keys {
		err := e.kv.Update(k.key, func(old []byte) ([]byte, error) {
			l := decodeHolds(old, now)
			if k.bound == nil {
				if now.Before(l.boxed) || len(l.holds) >= lim.PerPayer {
					return nil, errRefused
				}
				return l.with(h.ID, h.Expires, nil).encode(), nil
			}
			if len(l.holds) >= MaxExposureHolds || new(big.Int).Add(l.sum(), h.Amount).Cmp(k.bound) > 0 {
				return nil, errRefused
			}
			return l.with(h.ID, h.Expires, h.Amount).encode(), nil
		})
		if err != nil {
			for _, taken := range keys[:i] {
				e.drop(taken.key, h.ID, time.Time{}, now) // best effort: the hold ends by itself otherwise
			}
			if errors.Is(err, errRefused) {
				return false, nil
			}
			return false, err
		}
	}
	return true, nil
}

// Release gives h back. A payer whose payment was served unpaid goes to
// the penalty box until boxUntil (zero: it was paid), unless a longer
// penalty stands.
func (e *Exposure) Release(h Hold, boxUntil, now time.Time) error {
	errs := []error{e.drop(payerKey(h.Payer), h.ID, boxUntil, now)}
	errs = append(errs, e.drop(assetKey(h.Asset), h.ID, time.Time{}, now))
	if h.Route != "" {
		errs = append(errs, e.drop(routeKey(h.Route, h.Asset), h.ID, time.Time{}, now))
	}
	return errors.Join(errs...)
}

// BoxedUntil is the end of payer's penalty, and whether it is after now.
func (e *Exposure) BoxedUntil(payer string, now time.Time) (time.Time, bool, error) {
	v, err := e.kv.Get(payerKey(payer))
	if err != nil {
		return time.Time{}, false, err
	}
	l := decodeHolds(v, now)
	return l.boxed, now.Before(l.boxed), nil
}

// Prune deletes the keys that hold nothing at now (no live hold, no
// penalty) and returns how many.
func (e *Exposure) Prune(now time.Time) (int, error) {
	return pruneKV(e.kv, func(v []byte) bool {
		l := decodeHolds(v, now)
		return len(l.holds) == 0 && !now.Before(l.boxed)
	})
}

// drop removes the hold id from key, and boxes its payer until boxUntil
// if that is later than a penalty standing.
func (e *Exposure) drop(key []byte, id [8]byte, boxUntil, now time.Time) error {
	return e.kv.Update(key, func(old []byte) ([]byte, error) {
		if old == nil && boxUntil.IsZero() {
			return nil, nil // nothing held, nothing to box
		}
		l := decodeHolds(old, now)
		l.holds = slices.DeleteFunc(l.holds, func(h heldAmount) bool { return h.id == id })
		if boxUntil.After(l.boxed) {
			l.boxed = boxUntil
		}
		return l.encode(), nil
	})
}

// payerKey is the key of payer's holds and penalty.
func payerKey(payer string) []byte { return []byte("payer/" + strings.ToLower(payer)) }

// assetKey is the key of the site's holds of asset.
func assetKey(asset string) []byte { return []byte("asset/" + asset) }

// routeKey is the key of route's holds of asset.
func routeKey(route, asset string) []byte { return []byte("route/" + route + "/" + asset) }

// holdList is a key's value: the end of a penalty (payer keys only) and
// the live holds, each an id, an expiry and an amount.
//
// Encoded as the penalty's end (8 bytes, unix nanoseconds, big-endian),
// then per hold its id (8 bytes), its expiry (8 bytes, unix nanoseconds),
// the length of its amount (1 byte) and the amount (big-endian).
type holdList struct {
	boxed time.Time
	holds []heldAmount
}

type heldAmount struct {
	id      [8]byte
	expires int64
	amount  *big.Int
}

// decodeHolds reads v, leaving out the holds expired at now. Bytes that do
// not decode end the list (a value this version did not write holds
// nothing it can count).
func decodeHolds(v []byte, now time.Time) holdList {
	var l holdList
	if len(v) < 8 {
		return l
	}
	if t := int64(binary.BigEndian.Uint64(v)); t > 0 {
		l.boxed = time.Unix(0, t)
	}
	v = v[8:]
	for len(v) >= 17 {
		n := int(v[16])
		if len(v) < 17+n {
			break
		}
		h := heldAmount{expires: int64(binary.BigEndian.Uint64(v[8:16])), amount: new(big.Int).SetBytes(v[17 : 17+n])}
		copy(h.id[:], v[:8])
		if now.UnixNano() < h.expires {
			l.holds = append(l.holds, h)
		}
		v = v[17+n:]
	}
	return l
}

// with returns l with one more hold.
func (l holdList) with(id [8]byte, expires time.Time, amount *big.Int) holdList {
	if amount == nil {
		amount = new(big.Int)
	}
	l.holds = append(l.holds, heldAmount{id: id, expires: expires.UnixNano(), amount: amount})
	return l
}

// sum is the amount l holds.
func (l holdList) sum() *big.Int {
	s := new(big.Int)
	for _, h := range l.holds {
		s.Add(s, h.amount)
	}
	return s
}

func (l holdList) encode() []byte {
	var boxed uint64
	if !l.boxed.IsZero() {
		boxed = uint64(l.boxed.UnixNano())
	}
	out := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(l.holds)*25), boxed)
	for _, h := range l.holds {
		a := h.amount.Bytes()
		if len(a) > 255 {
			continue // no token amount is this long; Reserve's bound refuses it first
		}
		out = append(out, h.id[:]...)
		out = binary.BigEndian.AppendUint64(out, uint64(h.expires))
		out = append(out, byte(len(a)))
		out = append(out, a...)
	}
	return out
}

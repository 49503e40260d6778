package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"
)

// PaymentIDBucket names the key-value space of the payment-identifier
// extension's index (see [PaymentIDs]).
const PaymentIDBucket = "payment-ids"

// PaymentIDEntry is what one client-supplied payment identifier is bound
// to: the payment (its x402.PaymentID identity) that first used it, when,
// and, once that payment's response was served, the settlement result the
// payer got.
type PaymentIDEntry struct {
	// Payment is the identity of the bound payment.
	Payment [32]byte `json:"payment"`
	// Bound is when the identifier was bound; the entry expires a
	// retention after it.
	Bound time.Time `json:"bound"`
	// Served reports whether the bound payment's response was served.
	Served bool `json:"served,omitempty"`
	// Result is the settlement response served with it (JSON), once
	// Served.
	Result json.RawMessage `json:"result,omitempty"`
}

// PaymentIDs is the index of the payment-identifier extension, kept in a
// key-value space of any Backend (so a bbolt file and a fleet's PostgreSQL
// database alike): a payer's identifier, scoped by the payer so that no
// one can take another payer's identifier, maps to the one payment that
// used it. Entries expire after a retention, like settlement records, and
// Prune deletes them, so the index is bounded by the payments of one
// retention. Its methods are safe for concurrent use, and across the
// processes of a fleet, since they rest on KV.Update.
type PaymentIDs struct {
	kv  KV
	ttl time.Duration
}

// NewPaymentIDs returns the index kept in kv, whose entries expire ttl
// after they were bound.
func NewPaymentIDs(kv KV, ttl time.Duration) *PaymentIDs {
	return &PaymentIDs{kv: kv, ttl: ttl}
}

// paymentIDKey is the key of (scope, id): a hash, so every key has one
// length whatever the identifier's.
func paymentIDKey(scope, id string) []byte {
	h := sha256.Sum256([]byte(scope + "\x00" + id))
	return h[:]
}

func decodeEntry(b []byte) (PaymentIDEntry, error) {
	var e PaymentIDEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return e, fmt.Errorf("payment identifier entry: %w", err)
	}
	return e, nil
}

func (p *PaymentIDs) expired(e PaymentIDEntry, now time.Time) bool {
	return !now.Before(e.Bound.Add(p.ttl))
}

// Bind binds (scope, id) to payment at now, unless it is bound, and not
// expired, already. It returns the entry that is bound afterwards: its
// Payment is payment when the identifier was free or already bound to this
// payment, and another payment's otherwise (a conflict; nothing changed).
func (p *PaymentIDs) Bind(scope, id string, payment [32]byte, now time.Time) (PaymentIDEntry, error) {
	var got PaymentIDEntry
	err := p.kv.Update(paymentIDKey(scope, id), func(old []byte) ([]byte, error) {
		if old != nil {
			e, err := decodeEntry(old)
			if err != nil {
				return nil, err
			}
			if !p.expired(e, now) {
				got = e
				return nil, nil
			}
		}
		got = PaymentIDEntry{Payment: payment, Bound: now.UTC()}
		return json.Marshal(got)
	})
	return got, err
}

// Lookup returns the unexpired entry of (scope, id), if there is one.
func (p *PaymentIDs) Lookup(scope, id string, now time.Time) (PaymentIDEntry, bool, error) {
	b, err := p.kv.Get(paymentIDKey(scope, id))
	if err != nil || b == nil {
		return PaymentIDEntry{}, false, err
	}
	e, err := decodeEntry(b)
	if err != nil {
		return e, false, err
	}
	if p.expired(e, now) {
		return PaymentIDEntry{}, false, nil
	}
	return e, true, nil
}

// Serve records that payment, bound to (scope, id), was served with
// result. It changes nothing if the identifier is bound to another payment.
func (p *PaymentIDs) Serve(scope, id string, payment [32]byte, result json.RawMessage) error {
	err := p.kv.Update(paymentIDKey(scope, id), func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, nil
		}
		e, err := decodeEntry(old)
		if err != nil {
			return nil, err
		}
		if e.Payment != payment {
			return nil, nil
		}
		e.Served, e.Result = true, append(json.RawMessage(nil), result...)
		return json.Marshal(e)
	})
	return err
}

// Release frees (scope, id) if payment holds it and was not served: the
// payment was not settled, so the payer may use the identifier again. The
// entry is expired in place (one atomic update), and Prune deletes it.
func (p *PaymentIDs) Release(scope, id string, payment [32]byte) error {
	return p.kv.Update(paymentIDKey(scope, id), func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, nil
		}
		e, err := decodeEntry(old)
		if err != nil {
			return nil, err
		}
		if e.Payment != payment || e.Served {
			return nil, nil
		}
		e.Bound = time.Time{}
		return json.Marshal(e)
	})
}

// Prune deletes the entries expired at now and returns how many.
func (p *PaymentIDs) Prune(now time.Time) (int, error) {
	var old [][]byte
	err := p.kv.ForEach(func(k, v []byte) error {
		e, err := decodeEntry(v)
		if err != nil || p.expired(e, now) {
			old = append(old, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, k := range old {
		b, err := p.kv.Get(k)
		if err != nil {
			return n, err
		}
		if b == nil {
			continue
		}
		if e, err := decodeEntry(b); err == nil && !p.expired(e, now) {
			continue // bound again meanwhile
		}
		if err := p.kv.Delete(k); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

package store

import (
	"fmt"
	"time"
)

// The features that keep state beside the ledger each open their own
// named space of a store here, so that no caller spells a space's name.
// The names predate one style (payment-ids beside x402_refusals): they
// stay as deployed stores and a fleet's replicas, old and new, know them
// (see docs/store.md#spaces).

// Spaces is what opens a store's named key-value spaces: a Backend, or
// anything with its Bucket method.
type Spaces interface {
	Bucket(name string) (KV, error)
}

// OpenAccessWindows opens the paid access windows of s and the sign-in
// nonces they were used with.
func OpenAccessWindows(s Spaces) (*AccessWindows, error) {
	w, err := s.Bucket(AccessWindowBucket)
	if err != nil {
		return nil, fmt.Errorf("opening the access windows: %w", err)
	}
	n, err := s.Bucket(SignInNonceBucket)
	if err != nil {
		return nil, fmt.Errorf("opening the sign-in nonces: %w", err)
	}
	return NewAccessWindows(w, n), nil
}

// OpenPaymentIDs opens the payment-identifier index of s, whose entries
// expire ttl after they were written.
func OpenPaymentIDs(s Spaces, ttl time.Duration) (*PaymentIDs, error) {
	kv, err := s.Bucket(PaymentIDBucket)
	if err != nil {
		return nil, fmt.Errorf("opening the payment identifiers: %w", err)
	}
	return NewPaymentIDs(kv, ttl), nil
}

// OpenLeases opens the leases of the payments in use of s.
func OpenLeases(s Spaces) (*Leases, error) {
	kv, err := s.Bucket(PaymentsInUseBucket)
	if err != nil {
		return nil, fmt.Errorf("opening the payments in use: %w", err)
	}
	return NewLeases(kv), nil
}

// OpenExposure opens the serve-on-broadcast ledger of s.
func OpenExposure(s Spaces) (*Exposure, error) {
	kv, err := s.Bucket(ExposureBucket)
	if err != nil {
		return nil, fmt.Errorf("opening the serve-on-broadcast ledger: %w", err)
	}
	return NewExposure(kv), nil
}

package caddymodule

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
)

// paymentIDRetention is how long a payment identifier stays bound: far
// longer than a client retries a payment (its validity window is minutes),
// and short enough that the index holds one day's paid requests.
const paymentIDRetention = 24 * time.Hour

// paymentIDPruneEvery is how often, at most, binding an identifier also
// deletes the expired ones.
const paymentIDPruneEvery = time.Hour

// chainPaymentIDs is the paywall's payment-identifier index in the store of
// the embedded facilitator (a bbolt file, or a fleet's PostgreSQL database,
// which every replica shares). Each call waits until a config has started
// the chain, as the facilitator's calls do.
type chainPaymentIDs struct {
	chain     *sharedChain
	lastPrune atomic.Int64 // unix nanoseconds
}

var _ paywall.PaymentIdentifiers = (*chainPaymentIDs)(nil)

func (c *chainPaymentIDs) index(ctx context.Context) (*store.PaymentIDs, error) {
	run, err := c.chain.wait(ctx)
	if err != nil {
		return nil, err
	}
	kv, err := run.store.Bucket(store.PaymentIDBucket)
	if err != nil {
		return nil, err
	}
	return store.NewPaymentIDs(kv, paymentIDRetention), nil
}

func entry(e store.PaymentIDEntry) paywall.PaymentIDEntry {
	return paywall.PaymentIDEntry{Payment: e.Payment, Served: e.Served, Result: e.Result}
}

// Lookup implements paywall.PaymentIdentifiers.
func (c *chainPaymentIDs) Lookup(ctx context.Context, scope, id string) (*paywall.PaymentIDEntry, error) {
	ids, err := c.index(ctx)
	if err != nil {
		return nil, err
	}
	e, ok, err := ids.Lookup(scope, id, time.Now())
	if err != nil || !ok {
		return nil, err
	}
	out := entry(e)
	return &out, nil
}

// Bind implements paywall.PaymentIdentifiers; at most once an hour it also
// prunes the expired identifiers, so the index stays bounded.
func (c *chainPaymentIDs) Bind(ctx context.Context, scope, id string, payment [32]byte) (paywall.PaymentIDEntry, error) {
	ids, err := c.index(ctx)
	if err != nil {
		return paywall.PaymentIDEntry{}, err
	}
	now := time.Now()
	if last := c.lastPrune.Load(); now.UnixNano()-last > int64(paymentIDPruneEvery) && c.lastPrune.CompareAndSwap(last, now.UnixNano()) {
		ids.Prune(now) // a failure leaves the expired entries to the next prune
	}
	e, err := ids.Bind(scope, id, payment, now)
	return entry(e), err
}

// Serve implements paywall.PaymentIdentifiers.
func (c *chainPaymentIDs) Serve(ctx context.Context, scope, id string, payment [32]byte, result json.RawMessage) error {
	ids, err := c.index(ctx)
	if err != nil {
		return err
	}
	return ids.Serve(scope, id, payment, result)
}

// Release implements paywall.PaymentIdentifiers.
func (c *chainPaymentIDs) Release(ctx context.Context, scope, id string, payment [32]byte) error {
	ids, err := c.index(ctx)
	if err != nil {
		return err
	}
	return ids.Release(scope, id, payment)
}

// inUsePruneEvery is how often, at most, claiming a payment also deletes
// the leases that ended (those a stopped process left).
const inUsePruneEvery = time.Hour

// chainInUse marks upto payments in use across a fleet, as leases in the
// store of the embedded facilitator (store.Leases), which every replica
// shares: the paywall's Guard.Shared.
type chainInUse struct {
	chain     *sharedChain
	lastPrune atomic.Int64 // unix nanoseconds
}

var _ paywall.SharedGuard = (*chainInUse)(nil)

func (c *chainInUse) leases(ctx context.Context) (*store.Leases, *zap.Logger, error) {
	run, err := c.chain.wait(ctx)
	if err != nil {
		return nil, nil, err
	}
	kv, err := run.store.Bucket(store.PaymentsInUseBucket)
	if err != nil {
		run.log.Error("opening the payments in use", zap.Error(err))
		return nil, nil, err
	}
	return store.NewLeases(kv), run.log, nil
}

// Claim implements paywall.SharedGuard.
func (c *chainInUse) Claim(ctx context.Context, key [32]byte, until time.Time) (bool, error) {
	l, log, err := c.leases(ctx)
	if err != nil {
		return false, err
	}
	now := time.Now()
	if last := c.lastPrune.Load(); now.UnixNano()-last > int64(inUsePruneEvery) && c.lastPrune.CompareAndSwap(last, now.UnixNano()) {
		l.Prune(now) // a failure leaves the ended leases to the next prune
	}
	ok, err := l.Take(key[:], until, now)
	if err != nil {
		log.Error("marking an upto payment in use", zap.Error(err))
	}
	return ok, err
}

// Release implements paywall.SharedGuard.
func (c *chainInUse) Release(ctx context.Context, key [32]byte) error {
	l, log, err := c.leases(ctx)
	if err != nil {
		return err
	}
	if err := l.Drop(key[:]); err != nil {
		// The lease ends by itself; until then the payment is refused.
		log.Error("releasing an upto payment in use", zap.Error(err))
		return err
	}
	return nil
}

package caddymodule

import (
	"context"
	"math/big"
	"sync/atomic"
	"time"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
)

// exposurePruneEvery is how often, at most, a reservation in the shared
// serve-on-broadcast ledger also deletes its keys that hold nothing.
const exposurePruneEvery = time.Hour

// chainExposure keeps the serve-on-broadcast ledger's shared part in the
// store of the primary network's facilitator (store.Exposure), which every
// replica of a fleet shares: paywall.Exposure.Shared. A fleet's bounds and
// penalty box then hold across its replicas, a reload and a restart.
type chainExposure struct {
	chain     *sharedChain
	lastPrune atomic.Int64 // unix nanoseconds
}

var _ paywall.SharedExposure = (*chainExposure)(nil)

func (c *chainExposure) ledger(ctx context.Context) (*store.Exposure, error) {
	run, err := c.chain.wait(ctx)
	if err != nil {
		return nil, err
	}
	kv, err := run.store.Bucket(store.ExposureBucket)
	if err != nil {
		return nil, err
	}
	return store.NewExposure(kv), nil
}

// Reserve implements paywall.SharedExposure.
func (c *chainExposure) Reserve(ctx context.Context, h paywall.SharedHold, perPayer int, site, route *big.Int) (bool, error) {
	e, err := c.ledger(ctx)
	if err != nil {
		return false, err
	}
	now := time.Now()
	if last := c.lastPrune.Load(); now.UnixNano()-last > int64(exposurePruneEvery) && c.lastPrune.CompareAndSwap(last, now.UnixNano()) {
		e.Prune(now) // a failure leaves the empty keys to the next prune
	}
	return e.Reserve(store.Hold(h), store.ExposureLimits{PerPayer: perPayer, Site: site, Route: route}, now)
}

// Release implements paywall.SharedExposure.
func (c *chainExposure) Release(ctx context.Context, h paywall.SharedHold, boxUntil time.Time) error {
	e, err := c.ledger(ctx)
	if err != nil {
		return err
	}
	return e.Release(store.Hold(h), boxUntil, time.Now())
}

// Boxed implements paywall.SharedExposure.
func (c *chainExposure) Boxed(ctx context.Context, payer string) (bool, error) {
	e, err := c.ledger(ctx)
	if err != nil {
		return false, err
	}
	_, boxed, err := e.BoxedUntil(payer, time.Now())
	return boxed, err
}

package caddymodule

// The paywall's shared state kept in the store of the x402 app's embedded
// facilitator (a bbolt file, or a fleet's PostgreSQL database, which
// every replica shares): access windows, payment identifiers, the leases
// of payments in use and the serve-on-broadcast ledger. Each opens its
// space with the store's Open function and waits until a config has
// started the chain, as the facilitator's calls do.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// pruneClock is when a space was last pruned, so that it is pruned at most
// once an interval, by one caller at a time.
type pruneClock struct{ last atomic.Int64 } // unix nanoseconds

// due reports whether a prune is due at now, every being the interval,
// and if so takes it: a concurrent caller is told it is not.
func (p *pruneClock) due(now time.Time, every time.Duration) bool {
	last := p.last.Load()
	return now.UnixNano()-last > int64(every) && p.last.CompareAndSwap(last, now.UnixNano())
}

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
	chain *sharedChain
	prune pruneClock
}

var _ paywall.PaymentIdentifiers = (*chainPaymentIDs)(nil)

func (c *chainPaymentIDs) index(ctx context.Context) (*store.PaymentIDs, error) {
	run, err := c.chain.wait(ctx)
	if err != nil {
		return nil, err
	}
	return store.OpenPaymentIDs(run.store, paymentIDRetention)
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
	if c.prune.due(now, paymentIDPruneEvery) {
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
	chain *sharedChain
	prune pruneClock
}

var _ paywall.SharedGuard = (*chainInUse)(nil)

func (c *chainInUse) leases(ctx context.Context) (*store.Leases, *zap.Logger, error) {
	run, err := c.chain.wait(ctx)
	if err != nil {
		return nil, nil, err
	}
	l, err := store.OpenLeases(run.store)
	if err != nil {
		run.log.Error("opening the payments in use", zap.Error(err))
		return nil, nil, err
	}
	return l, run.log, nil
}

// Claim implements paywall.SharedGuard.
func (c *chainInUse) Claim(ctx context.Context, key [32]byte, until time.Time) (bool, error) {
	l, log, err := c.leases(ctx)
	if err != nil {
		return false, err
	}
	now := time.Now()
	if c.prune.due(now, inUsePruneEvery) {
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

// exposurePruneEvery is how often, at most, a reservation in the shared
// serve-on-broadcast ledger also deletes its keys that hold nothing.
const exposurePruneEvery = time.Hour

// chainExposure keeps the serve-on-broadcast ledger's shared part in the
// store of the primary network's facilitator (store.Exposure), which every
// replica of a fleet shares: paywall.Exposure.Shared. A fleet's bounds and
// penalty box then hold across its replicas, a reload and a restart.
type chainExposure struct {
	chain *sharedChain
	prune pruneClock
}

var _ paywall.SharedExposure = (*chainExposure)(nil)

func (c *chainExposure) ledger(ctx context.Context) (*store.Exposure, error) {
	run, err := c.chain.wait(ctx)
	if err != nil {
		return nil, err
	}
	return store.OpenExposure(run.store)
}

// Reserve implements paywall.SharedExposure.
func (c *chainExposure) Reserve(ctx context.Context, h paywall.SharedHold, perPayer int, site, route *big.Int) (bool, error) {
	e, err := c.ledger(ctx)
	if err != nil {
		return false, err
	}
	now := time.Now()
	if c.prune.due(now, exposurePruneEvery) {
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

// accessPruneEvery is how often, at most, opening a window also deletes
// the windows that ended and the nonces no longer remembered.
const accessPruneEvery = time.Hour

// noncePruneEvery is how often, at most, a sign-in also deletes the
// nonces no longer remembered: a payer signing in with a fresh nonce on
// every request to a window without a request budget writes one each, so
// they would otherwise pile up for an hour.
const noncePruneEvery = 5 * time.Minute

// chainWindows is the paywall's access windows in the store of the x402
// app's embedded facilitator (a bbolt file, or a fleet's PostgreSQL
// database, which every replica shares). Each call waits until a config
// has started the chain, as the facilitator's calls do.
type chainWindows struct {
	chain *sharedChain
	prune pruneClock
	// noncePrune is when UseNonce last pruned the nonces.
	noncePrune pruneClock
}

var _ paywall.AccessWindows = (*chainWindows)(nil)

func (c *chainWindows) windows(ctx context.Context) (*store.AccessWindows, error) {
	run, err := c.chain.wait(ctx)
	if err != nil {
		return nil, err
	}
	return store.OpenAccessWindows(run.store)
}

// Open implements paywall.AccessWindows; at most once an hour it also
// prunes, so the spaces stay bounded by the live windows.
func (c *chainWindows) Open(ctx context.Context, scope, payer string, d time.Duration, budget int64, tx string) (time.Time, error) {
	ws, err := c.windows(ctx)
	if err != nil {
		return time.Time{}, err
	}
	now := time.Now()
	if c.prune.due(now, accessPruneEvery) {
		ws.Prune(now) // a failure leaves the ended entries to the next prune
	}
	w, err := ws.Open(scope, payer, d, budget, tx, now)
	return w.Expires, err
}

// Use implements paywall.AccessWindows.
func (c *chainWindows) Use(ctx context.Context, scope, payer string) (time.Time, bool, error) {
	ws, err := c.windows(ctx)
	if err != nil {
		return time.Time{}, false, err
	}
	w, ok, err := ws.Use(scope, payer, time.Now())
	return w.Expires, ok, err
}

// Live implements paywall.AccessWindows.
func (c *chainWindows) Live(ctx context.Context, scope, payer string) (bool, error) {
	ws, err := c.windows(ctx)
	if err != nil {
		return false, err
	}
	w, ok, err := ws.Lookup(scope, payer)
	return ok && w.Live(time.Now()), err
}

// UseNonce implements paywall.AccessWindows.
func (c *chainWindows) UseNonce(ctx context.Context, nonce string, until time.Time) (bool, error) {
	ws, err := c.windows(ctx)
	if err != nil {
		return false, err
	}
	now := time.Now()
	if c.noncePrune.due(now, noncePruneEvery) {
		ws.PruneNonces(now) // a failure leaves them to the next prune
	}
	return ws.UseNonce(nonce, until, now)
}

// What the store must not mix up: the network it serves, and the devnet's
// public paymaster key.
//
// The documented dev key is public. Written to a store, it would stay valid
// when the same store_path later serves a real chain, so it is held in
// memory on the devnet only, and a store refuses to serve a network other
// than the one it was created for.

// metaBucket holds what a store records of itself: the app's own space.
// Each service names and opens its own (paymaster.OpenStorage,
// dashboard.OpenAudit, the transaction API's New).
const metaBucket = "meta"

// metaStore is the part of a store bucket (*store.Bucket) that claimStore
// uses.
type metaStore interface {
	Get(key []byte) ([]byte, error)
	Put(key, value []byte) error
}

// claimStore records in a store without a network the one it now serves
// ("devnet", or the CAIP-2 id of a real chain, and the chain id), and
// refuses a store created for another network: a dev chain's store holds
// settlements and keys anyone could have made, and must never serve a real
// chain. path names the file in the error.
func claimStore(meta metaStore, path, network, caip2 string) error {
	id, err := x402.ParseNetwork(caip2)
	if err != nil {
		return err
	}
	chainID := strconv.FormatUint(id, 10)
	gotNetwork, err := meta.Get([]byte("network"))
	if err != nil {
		return fmt.Errorf("reading the network of store %s: %w", path, err)
	}
	gotChain, err := meta.Get([]byte("chain_id"))
	if err != nil {
		return fmt.Errorf("reading the network of store %s: %w", path, err)
	}
	if gotNetwork == nil && gotChain == nil {
		// A new store, or one made before stores recorded their network.
		if err := meta.Put([]byte("network"), []byte(network)); err != nil {
			return fmt.Errorf("recording the network of store %s: %w", path, err)
		}
		if err := meta.Put([]byte("chain_id"), []byte(chainID)); err != nil {
			return fmt.Errorf("recording the network of store %s: %w", path, err)
		}
		return nil
	}
	if string(gotNetwork) == network && string(gotChain) == chainID {
		return nil
	}
	if string(gotNetwork) == NetworkDevnet {
		return fmt.Errorf("store %s was created for the dev chain (chain id %s): its settlements and keys are the demo's, and it cannot serve %s; set store_path to another file", path, gotChain, describeNetwork(network, chainID))
	}
	return fmt.Errorf("store %s was created for network %s (chain id %s) and cannot serve %s; set store_path to another file", path, gotNetwork, gotChain, describeNetwork(network, chainID))
}

// describeNetwork names a network for an error.
func describeNetwork(network, chainID string) string {
	if network == NetworkDevnet {
		return "the dev chain (chain id " + chainID + ")"
	}
	return network + " (chain id " + chainID + ")"
}

// keyRecord is the store key (the secret's hash) and the record under which
// paymaster.Keys keeps a key that it imported.
func keyRecord(secret, project string, scopes []string) (hash, rec []byte, err error) {
	mem := memKeyStore{}
	if err := (&paymaster.Keys{Store: mem}).Import(secret, project, "testnet", scopes); err != nil {
		return nil, nil, err
	}
	for k, v := range mem {
		return []byte(k), v, nil
	}
	return nil, nil, errors.New("importing a key wrote no record")
}

// keyDeleter is the part of the keys bucket (*store.Bucket) that
// removeKeyRecord uses.
type keyDeleter interface {
	Get(key []byte) ([]byte, error)
	Delete(key []byte) error
}

// removeKeyRecord deletes the stored record of a key's secret, if there is
// one. Versions before this one imported the devnet's documented key into
// the store.
func removeKeyRecord(keys keyDeleter, secret string) (bool, error) {
	hash, _, err := keyRecord(secret, "", nil)
	if err != nil {
		return false, err
	}
	v, err := keys.Get(hash)
	if err != nil || v == nil {
		return false, err
	}
	return true, keys.Delete(hash)
}

// errDevKey refuses a change of the devnet's public dev key: an invalid
// argument to the dashboard and the admin API.
var errDevKey = fmt.Errorf("%w: the devnet's public dev key is held in memory and cannot be rotated or disabled", paymaster.ErrInvalid)

// devKeyStore is the paymaster's key store on the devnet: the store's keys,
// and the dev key's record answered from memory. The dev key is never
// written, so no store keeps it.
type devKeyStore struct {
	paymaster.KeyStore
	hash, rec []byte
}

// newDevKeyStore adds the dev key secret, for project with scopes, to keys.
func newDevKeyStore(keys paymaster.KeyStore, secret, project string, scopes []string) (*devKeyStore, error) {
	hash, rec, err := keyRecord(secret, project, scopes)
	if err != nil {
		return nil, err
	}
	return &devKeyStore{KeyStore: keys, hash: hash, rec: rec}, nil
}

// Get returns the dev key's record from memory, and any other from the
// store.
func (s *devKeyStore) Get(key []byte) ([]byte, error) {
	if bytes.Equal(key, s.hash) {
		return slices.Clone(s.rec), nil
	}
	return s.KeyStore.Get(key)
}

// Put refuses to write the dev key's record, and writes any other.
func (s *devKeyStore) Put(key, value []byte) error {
	if bytes.Equal(key, s.hash) {
		return errDevKey
	}
	return s.KeyStore.Put(key, value)
}

// Update changes a stored key's record atomically, if the store can, and
// refuses to change the dev key's.
func (s *devKeyStore) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	if bytes.Equal(key, s.hash) {
		return errDevKey
	}
	if u, ok := s.KeyStore.(interface {
		Update(key []byte, fn func(old []byte) ([]byte, error)) error
	}); ok {
		return u.Update(key, fn)
	}
	old, err := s.KeyStore.Get(key)
	if err != nil {
		return err
	}
	v, err := fn(old)
	if err != nil || v == nil {
		return err
	}
	return s.KeyStore.Put(key, v)
}

// ForEach calls fn for every stored key, then for the dev key.
func (s *devKeyStore) ForEach(fn func(key, value []byte) error) error {
	if err := s.KeyStore.ForEach(func(k, v []byte) error {
		if bytes.Equal(k, s.hash) {
			return nil // a record an earlier version stored; memory wins
		}
		return fn(k, v)
	}); err != nil {
		return err
	}
	return fn(slices.Clone(s.hash), slices.Clone(s.rec))
}

// memKeyStore is a KeyStore in memory.
type memKeyStore map[string][]byte

// Get returns the value of key, or nil.
func (m memKeyStore) Get(key []byte) ([]byte, error) { return m[string(key)], nil }

// Put sets key to a copy of value.
func (m memKeyStore) Put(key, value []byte) error {
	m[string(key)] = slices.Clone(value)
	return nil
}

// Delete removes key.
func (m memKeyStore) Delete(key []byte) error {
	delete(m, string(key))
	return nil
}

// ForEach calls fn for every entry, in key order.
func (m memKeyStore) ForEach(fn func(key, value []byte) error) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := fn([]byte(k), m[k]); err != nil {
			return err
		}
	}
	return nil
}

// Interface guards.
var (
	_ paymaster.KeyStore = (*devKeyStore)(nil)
	_ paymaster.KeyStore = memKeyStore(nil)
)

package caddymodule

// What the store must not mix up: the network it serves, and the devnet's
// public paymaster key.
//
// The documented dev key is public. Written to a store, it would stay valid
// when the same store_path later serves a real chain, so it is held in
// memory on the devnet only, and a store refuses to serve a network other
// than the one it was created for.

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/x402"
)

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

package paymaster

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Scopes of an API key.
const (
	// ScopeRead covers pm_entrypoints and pm_supported_tokens.
	ScopeRead = "paymaster:read"
	// ScopeSponsor covers pm_sponsor_userop (and implies read).
	ScopeSponsor = "paymaster:sponsor"
	// ScopeSettle lets a remote merchant settle its own payments through
	// the facilitator's POST /settle (Authorization: Bearer).
	ScopeSettle = "facilitator:settle"
	// ScopeTxAPI covers POST /api/v1/transactions and /api/v1/sendMessage,
	// which spend the developer API's wallet.
	ScopeTxAPI = "txapi:send"
)

// Scopes lists every scope a key can carry.
var Scopes = []string{ScopeRead, ScopeSponsor, ScopeSettle, ScopeTxAPI}

// Errors of [Keys.Authorize].
var (
	// ErrInvalidKey: the key is missing, unknown, revoked or rotated.
	ErrInvalidKey = errors.New("invalid API key: missing, unknown, revoked or rotated")
	// ErrScope: the key lacks the scope.
	ErrScope = errors.New("the API key lacks the scope")
)

// KeyStore keeps API key records. A *store.Bucket of the facilitator's
// store has these methods.
type KeyStore interface {
	Get(key []byte) ([]byte, error)
	Put(key, value []byte) error
	ForEach(fn func(key, value []byte) error) error
}

// Key is an API key's record. The key itself is never stored: records are
// found by its SHA-256.
type Key struct {
	// ID is the key's public name: its first characters, for listing and
	// rotation.
	ID string `json:"id"`
	// Project is the project the key belongs to.
	Project string `json:"project"`
	// Network is the project's network: "testnet" or "mainnet".
	Network string `json:"network"`
	// Scopes are the key's scopes.
	Scopes []string `json:"scopes"`
	// Disabled keys are refused; rotation and revocation disable.
	Disabled bool `json:"disabled,omitempty"`
	// Created is when the key was made.
	Created time.Time `json:"created"`
}

// Has reports whether the key has scope; sponsor implies read.
func (k *Key) Has(scope string) bool {
	return slices.Contains(k.Scopes, scope) || (scope == ScopeRead && slices.Contains(k.Scopes, ScopeSponsor))
}

// Keys manages API keys in a KeyStore.
type Keys struct {
	Store KeyStore
	Now   func() time.Time
}

func hashKey(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return []byte(hex.EncodeToString(sum[:]))
}

// keyPrefix starts every key, so one is recognizable in a config or a leak
// scanner.
const keyPrefix = "pmk_"

// Create makes a key for a project and returns the secret, which is shown
// once and never stored.
func (ks *Keys) Create(project, network string, scopes []string) (secret string, rec *Key, err error) {
	if project == "" {
		return "", nil, errors.New("a key needs a project")
	}
	if network != "testnet" && network != "mainnet" {
		return "", nil, fmt.Errorf("network %q: want testnet or mainnet", network)
	}
	if len(scopes) == 0 {
		return "", nil, errors.New("a key needs at least one scope")
	}
	for _, s := range scopes {
		if !slices.Contains(Scopes, s) {
			return "", nil, fmt.Errorf("scope %q: want one of %s", s, strings.Join(Scopes, ", "))
		}
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", nil, err
	}
	secret = keyPrefix + hex.EncodeToString(raw[:])
	now := time.Now
	if ks.Now != nil {
		now = ks.Now
	}
	rec = &Key{ID: secret[:len(keyPrefix)+8], Project: project, Network: network, Scopes: scopes, Created: now().UTC()}
	if err := ks.put(secret, rec); err != nil {
		return "", nil, err
	}
	return secret, rec, nil
}

// Import stores a key whose secret the caller chose, such as the
// documented development key of the devnet. Existing records are kept.
func (ks *Keys) Import(secret, project, network string, scopes []string) error {
	if v, err := ks.Store.Get(hashKey(secret)); err != nil || v != nil {
		return err
	}
	return ks.put(secret, &Key{ID: idOf(secret), Project: project, Network: network, Scopes: scopes, Created: time.Now().UTC()})
}

func idOf(secret string) string {
	if len(secret) > len(keyPrefix)+8 {
		return secret[:len(keyPrefix)+8]
	}
	return secret
}

func (ks *Keys) put(secret string, rec *Key) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return ks.Store.Put(hashKey(secret), raw)
}

// Lookup returns the record of a secret, or nil if it is unknown. Disabled
// records are returned too; the caller refuses them.
func (ks *Keys) Lookup(secret string) (*Key, error) {
	raw, err := ks.Store.Get(hashKey(secret))
	if err != nil || raw == nil {
		return nil, err
	}
	var rec Key
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("decoding a key record: %w", err)
	}
	return &rec, nil
}

// Authorize returns the record of an enabled key that has scope. It wraps
// ErrInvalidKey or ErrScope when the key may not be used for scope; other
// errors are the store's.
func (ks *Keys) Authorize(secret, scope string) (*Key, error) {
	if secret == "" {
		return nil, ErrInvalidKey
	}
	rec, err := ks.Lookup(secret)
	switch {
	case err != nil:
		return nil, err
	case rec == nil || rec.Disabled:
		return nil, ErrInvalidKey
	case !rec.Has(scope):
		return nil, fmt.Errorf("%w %s (key %s)", ErrScope, scope, rec.ID)
	}
	return rec, nil
}

// List returns every key record.
func (ks *Keys) List() ([]Key, error) {
	var out []Key
	err := ks.Store.ForEach(func(_, v []byte) error {
		var rec Key
		if err := json.Unmarshal(v, &rec); err != nil {
			return err
		}
		out = append(out, rec)
		return nil
	})
	slices.SortFunc(out, func(a, b Key) int { return a.Created.Compare(b.Created) })
	return out, err
}

// find returns the stored hash and record of a key ID.
func (ks *Keys) find(id string) ([]byte, *Key, error) {
	var (
		hash  []byte
		found *Key
	)
	err := ks.Store.ForEach(func(k, v []byte) error {
		var rec Key
		if err := json.Unmarshal(v, &rec); err != nil {
			return err
		}
		if rec.ID == id || (strings.HasPrefix(id, keyPrefix) && string(hashKey(id)) == string(k)) {
			hash, found = append([]byte(nil), k...), &rec
		}
		return nil
	})
	if err == nil && found == nil {
		err = fmt.Errorf("no key %q", id)
	}
	return hash, found, err
}

// Revoke disables a key (by ID) at once.
func (ks *Keys) Revoke(id string) error {
	hash, rec, err := ks.find(id)
	if err != nil {
		return err
	}
	rec.Disabled = true
	raw, _ := json.Marshal(rec)
	return ks.Store.Put(hash, raw)
}

// Rotate disables a key and makes a new one for the same project and
// scopes; the old key stops working at once.
func (ks *Keys) Rotate(id string) (string, *Key, error) {
	_, rec, err := ks.find(id)
	if err != nil {
		return "", nil, err
	}
	if err := ks.Revoke(id); err != nil {
		return "", nil, err
	}
	return ks.Create(rec.Project, rec.Network, rec.Scopes)
}

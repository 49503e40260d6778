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
	"sync"
	"time"

	"go.uber.org/zap"
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

// Errors of [Keys.Authorize], [Keys.Revoke] and [Keys.Rotate].
var (
	// ErrInvalidKey: the key is missing, unknown, revoked or rotated, or
	// belongs to another network than the Keys serve.
	ErrInvalidKey = errors.New("invalid API key: missing, unknown, revoked or rotated")
	// ErrScope: the key lacks the scope.
	ErrScope = errors.New("the API key lacks the scope")
	// ErrUnknownKey: no key has the ID given to Revoke or Rotate.
	ErrUnknownKey = errors.New("unknown API key")
)

// networkError refuses a key of another network; it is an ErrInvalidKey.
type networkError struct{ id, network, want string }

func (e *networkError) Error() string {
	return fmt.Sprintf("invalid API key: key %s belongs to a %s project; this service is on %s", e.id, e.network, e.want)
}

// Is makes errors.Is(err, ErrInvalidKey) hold.
func (e *networkError) Is(target error) bool { return target == ErrInvalidKey }

// scopeError refuses a key without the scope; it is an ErrScope.
type scopeError struct{ id, scope string }

func (e *scopeError) Error() string {
	return fmt.Sprintf("the API key %s lacks the %s scope", e.id, e.scope)
}

// Is makes errors.Is(err, ErrScope) hold.
func (e *scopeError) Is(target error) bool { return target == ErrScope }

// KeyStore keeps API key records. A *store.Bucket of the facilitator's
// store has these methods. If it also has Update (as store.KV does),
// Revoke and Rotate change a record atomically.
type KeyStore interface {
	Get(key []byte) ([]byte, error)
	Put(key, value []byte) error
	ForEach(fn func(key, value []byte) error) error
}

// keyUpdater is a KeyStore with an atomic Update.
type keyUpdater interface {
	Update(key []byte, fn func(old []byte) ([]byte, error)) error
}

// Key is an API key's record. The key itself is never stored: records are
// found by its SHA-256, which is no field of the record either.
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
	// DisabledAt is when the key was revoked or rotated out; zero for an
	// enabled key (and for one disabled by an earlier version).
	DisabledAt time.Time `json:"disabledAt,omitzero"`
	// ReplacedBy is the ID of the key that rotation made in its place.
	ReplacedBy string `json:"replacedBy,omitempty"`
	// LastUsed is when the key last authorized a request, as recorded in
	// Keys.Usage (to within a minute); zero if it never did or usage is
	// not recorded. List fills it in; it is not part of the stored record.
	LastUsed time.Time `json:"lastUsed,omitzero"`
}

// Has reports whether the key has scope; sponsor implies read.
func (k *Key) Has(scope string) bool {
	return slices.Contains(k.Scopes, scope) || (scope == ScopeRead && slices.Contains(k.Scopes, ScopeSponsor))
}

// maxUsageThrottle bounds how many keys' last writes of usage a Keys
// remembers; beyond it, the uses of keys it does not remember go
// unrecorded until older entries age out.
const maxUsageThrottle = 10_000

// keyUsage is a key's record in Keys.Usage.
type keyUsage struct {
	LastUsed time.Time `json:"lastUsed"`
}

// Keys manages API keys in a KeyStore. Its zero value with a Store is
// usable; it is safe for concurrent use.
type Keys struct {
	// Store keeps the key records.
	Store KeyStore
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Usage, if set, is where Authorize records when each key was last
	// used: at most once a minute per key in this process, in the request
	// (one atomic update), without failing it if the write fails. Nil
	// records nothing.
	Usage KV
	// Network, if set, is the only network whose keys Authorize accepts.
	Network string
	// Logger receives failures to record usage; nil logs nothing.
	Logger *zap.Logger

	mu sync.Mutex
	// written holds, per key (by hash), when this process last wrote its
	// use; at most maxUsageThrottle entries.
	written map[string]time.Time
}

func hashKey(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return []byte(hex.EncodeToString(sum[:]))
}

// keyPrefix starts every key, so one is recognizable in a config or a leak
// scanner.
const keyPrefix = "pmk_"

func (ks *Keys) now() time.Time {
	if ks.Now != nil {
		return ks.Now()
	}
	return time.Now()
}

// Create makes a key for a project and returns the secret, which is shown
// once and never stored. Invalid arguments are errors wrapping ErrInvalid;
// the project's existence is not checked (Service.CreateKey checks it).
func (ks *Keys) Create(project, network string, scopes []string) (secret string, rec *Key, err error) {
	secret, rec, err = ks.newKey(project, network, scopes)
	if err != nil {
		return "", nil, err
	}
	if err := ks.put(secret, rec); err != nil {
		return "", nil, fmt.Errorf("storing a new key: %w", err)
	}
	return secret, rec, nil
}

// newKey makes a key's secret and record, without storing them.
func (ks *Keys) newKey(project, network string, scopes []string) (string, *Key, error) {
	if project == "" {
		return "", nil, invalidf("a key needs a project")
	}
	if err := validateNetwork(network); err != nil {
		return "", nil, err
	}
	if len(scopes) == 0 {
		return "", nil, invalidf("a key needs at least one scope")
	}
	for _, s := range scopes {
		if !slices.Contains(Scopes, s) {
			return "", nil, invalidf("scope %q: want one of %s", s, strings.Join(Scopes, ", "))
		}
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", nil, err
	}
	secret := keyPrefix + hex.EncodeToString(raw[:])
	rec := &Key{ID: secret[:len(keyPrefix)+8], Project: project, Network: network, Scopes: slices.Clone(scopes), Created: ks.now().UTC()}
	return secret, rec, nil
}

// Import stores a key whose secret the caller chose, such as the
// documented development key of the devnet. Existing records are kept.
func (ks *Keys) Import(secret, project, network string, scopes []string) error {
	if v, err := ks.Store.Get(hashKey(secret)); err != nil || v != nil {
		return err
	}
	return ks.put(secret, &Key{ID: idOf(secret), Project: project, Network: network, Scopes: scopes, Created: ks.now().UTC()})
}

func idOf(secret string) string {
	if len(secret) > len(keyPrefix)+8 {
		return secret[:len(keyPrefix)+8]
	}
	return secret
}

func (ks *Keys) put(secret string, rec *Key) error {
	stored := *rec
	stored.LastUsed = time.Time{}
	raw, err := json.Marshal(stored)
	if err != nil {
		return err
	}
	return ks.Store.Put(hashKey(secret), raw)
}

// Lookup returns the record of a secret, or nil if it is unknown. Disabled
// records are returned too; the caller refuses them.
func (ks *Keys) Lookup(secret string) (*Key, error) {
	return ks.lookup(hashKey(secret))
}

func (ks *Keys) lookup(hash []byte) (*Key, error) {
	raw, err := ks.Store.Get(hash)
	if err != nil || raw == nil {
		return nil, err
	}
	var rec Key
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("decoding a key record: %w", err)
	}
	return &rec, nil
}

// Authorize returns the record of an enabled key that has scope, and
// records its use (see Usage). It wraps ErrInvalidKey or ErrScope when the
// key may not be used for scope, ErrInvalidKey also for a key of another
// network than Network; other errors are the store's.
func (ks *Keys) Authorize(secret, scope string) (*Key, error) {
	if secret == "" {
		return nil, ErrInvalidKey
	}
	hash := hashKey(secret)
	rec, err := ks.lookup(hash)
	switch {
	case err != nil:
		return nil, err
	case rec == nil || rec.Disabled:
		return nil, ErrInvalidKey
	case ks.Network != "" && rec.Network != ks.Network:
		return nil, &networkError{id: rec.ID, network: rec.Network, want: ks.Network}
	case !rec.Has(scope):
		return nil, &scopeError{id: rec.ID, scope: scope}
	}
	ks.recordUse(hash, rec.ID)
	return rec, nil
}

// recordUse writes that a key was used now, unless this process wrote it
// less than a minute ago. A failure is logged, never returned.
func (ks *Keys) recordUse(hash []byte, id string) {
	if ks.Usage == nil {
		return
	}
	now := ks.now()
	if !ks.due(string(hash), now) {
		return
	}
	at := now.UTC()
	err := ks.Usage.Update(hash, func(old []byte) ([]byte, error) {
		var u keyUsage
		if old != nil && json.Unmarshal(old, &u) == nil && !at.After(u.LastUsed) {
			return nil, nil // another process recorded a later use
		}
		return json.Marshal(keyUsage{LastUsed: at})
	})
	if err != nil && ks.Logger != nil {
		ks.Logger.Warn("recording an API key's use", zap.String("key_id", id), zap.Error(err))
	}
}

// due reports whether a key's use at now is to be written, and if so
// notes it as written.
func (ks *Keys) due(hash string, now time.Time) bool {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if at, ok := ks.written[hash]; ok && now.Sub(at) < time.Minute && !now.Before(at) {
		return false
	}
	if ks.written == nil {
		ks.written = map[string]time.Time{}
	}
	if _, ok := ks.written[hash]; !ok && len(ks.written) >= maxUsageThrottle {
		for h, at := range ks.written {
			if now.Sub(at) >= time.Minute || now.Before(at) {
				delete(ks.written, h)
			}
		}
		if len(ks.written) >= maxUsageThrottle {
			return false
		}
	}
	ks.written[hash] = now
	return true
}

// List returns every key record, oldest first, with LastUsed filled in.
// No record holds anything secret.
func (ks *Keys) List() ([]Key, error) {
	return ks.list(func(*Key) bool { return true })
}

// ListProject returns the key records of one project, as List does.
func (ks *Keys) ListProject(project string) ([]Key, error) {
	return ks.list(func(k *Key) bool { return k.Project == project })
}

func (ks *Keys) list(keep func(*Key) bool) ([]Key, error) {
	used := map[string]time.Time{}
	if ks.Usage != nil {
		if err := ks.Usage.ForEach(func(k, v []byte) error {
			var u keyUsage
			if json.Unmarshal(v, &u) == nil {
				used[string(k)] = u.LastUsed
			}
			return nil
		}); err != nil {
			return nil, fmt.Errorf("reading the keys' usage: %w", err)
		}
	}
	var out []Key
	err := ks.Store.ForEach(func(k, v []byte) error {
		var rec Key
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("decoding a key record: %w", err)
		}
		if keep(&rec) {
			rec.LastUsed = used[string(k)]
			out = append(out, rec)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing keys: %w", err)
	}
	slices.SortFunc(out, func(a, b Key) int { return a.Created.Compare(b.Created) })
	return out, nil
}

// find returns the stored hash and record of a key ID (or of a whole
// secret).
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
		err = fmt.Errorf("key %q: %w", id, ErrUnknownKey)
	}
	return hash, found, err
}

// change rewrites the record under hash with fn, atomically if the store
// has Update.
func (ks *Keys) change(hash []byte, fn func(*Key) (bool, error)) error {
	apply := func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, ErrUnknownKey
		}
		var rec Key
		if err := json.Unmarshal(old, &rec); err != nil {
			return nil, fmt.Errorf("decoding a key record: %w", err)
		}
		changed, err := fn(&rec)
		if err != nil || !changed {
			return nil, err
		}
		rec.LastUsed = time.Time{}
		return json.Marshal(rec)
	}
	if u, ok := ks.Store.(keyUpdater); ok {
		return u.Update(hash, apply)
	}
	old, err := ks.Store.Get(hash)
	if err != nil {
		return err
	}
	v, err := apply(old)
	if err != nil || v == nil {
		return err
	}
	return ks.Store.Put(hash, v)
}

// Revoke disables a key (by ID) at once. Revoking a disabled key changes
// nothing; an unknown ID is an error wrapping ErrUnknownKey.
func (ks *Keys) Revoke(id string) error {
	hash, _, err := ks.find(id)
	if err != nil {
		return fmt.Errorf("revoking a key: %w", err)
	}
	now := ks.now().UTC()
	if err := ks.change(hash, func(rec *Key) (bool, error) {
		if rec.Disabled {
			return false, nil
		}
		rec.Disabled, rec.DisabledAt = true, now
		return true, nil
	}); err != nil {
		return fmt.Errorf("revoking key %s: %w", id, err)
	}
	return nil
}

// Rotate disables a key and makes a new one for the same project, network
// and scopes, returning its secret; the old key stops working at once and
// its record names its successor (ReplacedBy). A disabled key is not
// rotated (an error wrapping ErrInvalid): create a new one instead. The
// old key is disabled before the new one is stored, so a failure between
// leaves no key working rather than two.
func (ks *Keys) Rotate(id string) (string, *Key, error) {
	hash, rec, err := ks.find(id)
	if err != nil {
		return "", nil, fmt.Errorf("rotating a key: %w", err)
	}
	disabled := invalidf("key %s is disabled already; create a new key for project %s instead", rec.ID, rec.Project)
	if rec.Disabled {
		return "", nil, disabled
	}
	secret, next, err := ks.newKey(rec.Project, rec.Network, rec.Scopes)
	if err != nil {
		return "", nil, fmt.Errorf("rotating key %s: %w", rec.ID, err)
	}
	now := ks.now().UTC()
	if err := ks.change(hash, func(r *Key) (bool, error) {
		if r.Disabled {
			return false, disabled // rotated or revoked meanwhile
		}
		r.Disabled, r.DisabledAt, r.ReplacedBy = true, now, next.ID
		return true, nil
	}); err != nil {
		return "", nil, fmt.Errorf("rotating key %s: %w", rec.ID, err)
	}
	if err := ks.put(secret, next); err != nil {
		return "", nil, fmt.Errorf("rotating key %s: it is disabled, but its successor could not be stored: %w", rec.ID, err)
	}
	return secret, next, nil
}

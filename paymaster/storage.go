package paymaster

import (
	"fmt"

	"github.com/caddy-x402/caddy-x402/store"
)

// The paymaster's spaces in the x402 store. A fleet's replicas share them,
// so that a key, a project created in the dashboard and the ledger's
// counters are the same on every replica.
const (
	// keysSpace holds the API key records (Keys).
	keysSpace = "paymaster_keys"
	// keyUsageSpace holds when each API key was last used.
	keyUsageSpace = "paymaster_key_usage"
	// projectsSpace holds the projects created at run time, in the
	// dashboard or the admin API.
	projectsSpace = "paymaster_projects"
	// ledgerSpace holds the projects' counters: charges, daily spend,
	// reservations, rate windows and suspensions.
	ledgerSpace = "paymaster_ledger"
)

// Spaces opens a store's named key-value spaces; store.Backend has it.
type Spaces interface {
	Bucket(name string) (store.KV, error)
}

// Storage is the paymaster's part of a store, each space opened under the
// name the paymaster gives it. Config takes its fields.
type Storage struct {
	// Keys holds the API key records.
	Keys store.KV
	// KeyUsage holds when each key was last used.
	KeyUsage store.KV
	// Projects holds the projects created at run time.
	Projects store.KV
	// Ledger holds the projects' counters.
	Ledger store.KV
}

// OpenStorage opens the paymaster's spaces of s.
func OpenStorage(s Spaces) (*Storage, error) {
	var st Storage
	for _, sp := range []struct {
		name string
		kv   *store.KV
	}{
		{keysSpace, &st.Keys}, {keyUsageSpace, &st.KeyUsage},
		{projectsSpace, &st.Projects}, {ledgerSpace, &st.Ledger},
	} {
		kv, err := s.Bucket(sp.name)
		if err != nil {
			return nil, fmt.Errorf("opening the paymaster's %s: %w", sp.name, err)
		}
		*sp.kv = kv
	}
	return &st, nil
}

// Apply sets cfg's Keys, KeyUsage, ProjectStore and Ledger to these spaces.
func (st *Storage) Apply(cfg *Config) {
	cfg.Keys, cfg.KeyUsage, cfg.ProjectStore, cfg.Ledger = st.Keys, st.KeyUsage, st.Projects, st.Ledger
}

// OpenKeys opens the API keys kept in s, with their usage records: for the
// facilitator's authorization of remote merchants and for tools that
// manage keys while no Service runs (caddy x402 key).
func OpenKeys(s Spaces) (*Keys, error) {
	st, err := OpenStorage(s)
	if err != nil {
		return nil, err
	}
	return &Keys{Store: st.Keys, Usage: st.KeyUsage}, nil
}

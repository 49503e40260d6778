package dashboard

import (
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/caddy-x402/caddy-x402/store"
)

// The dashboard's spaces in the x402 store, shared by a fleet's replicas.
const (
	// auditSpace holds the audit log: the operator's changes to projects
	// and keys, from the dashboard, the admin API and caddy x402 key.
	auditSpace = "x402_audit"
	// dashboardSpace holds what the dashboard keeps of itself: the key of
	// its forms' tokens.
	dashboardSpace = "x402_dashboard"
)

// formSecretKey names the forms' secret in dashboardSpace.
var formSecretKey = []byte("form_secret")

// Spaces opens a store's named key-value spaces; store.Backend has it.
type Spaces interface {
	Bucket(name string) (store.KV, error)
}

// OpenAudit opens the audit log kept in s, for Config.Audit and for tools
// that change keys while no dashboard runs (caddy x402 key).
func OpenAudit(s Spaces) (store.KV, error) {
	kv, err := s.Bucket(auditSpace)
	if err != nil {
		return nil, fmt.Errorf("opening the audit log: %w", err)
	}
	return kv, nil
}

// FormSecret is the key of the forms' tokens kept in s (Config.Secret),
// made at random the first time and kept, so that every replica of a fleet
// accepts the forms another one served.
func FormSecret(s Spaces) ([]byte, error) {
	b, err := s.Bucket(dashboardSpace)
	if err != nil {
		return nil, fmt.Errorf("opening the dashboard's space: %w", err)
	}
	if err := b.Update(formSecretKey, func(old []byte) ([]byte, error) {
		if len(old) >= 32 {
			return nil, nil // keep it
		}
		s := make([]byte, 32)
		_, err := rand.Read(s)
		return s, err
	}); err != nil {
		return nil, fmt.Errorf("making the dashboard's form secret: %w", err)
	}
	secret, err := b.Get(formSecretKey)
	if err != nil || len(secret) < 32 {
		return nil, errors.Join(errors.New("reading the dashboard's form secret"), err)
	}
	return secret, nil
}

package dashboard

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/caddy-x402/caddy-x402/paymaster"
)

// Sponsorship is the paymaster's side of the dashboard: its projects and
// their API keys. *paymaster.Service has these methods.
type Sponsorship interface {
	DescribeProjects(ctx context.Context) ([]paymaster.ProjectInfo, error)
	DescribeProject(ctx context.Context, name string) (paymaster.ProjectInfo, error)
	CreateProject(name, network string, l paymaster.Limits) error
	EditProject(name string, l paymaster.Limits) error
	TopUp(name string, amount *big.Int, note string) error
	CreateKey(project string, scopes []string) (string, *paymaster.Key, error)
	Keys() *paymaster.Keys
}

// GasTokens is what a Sponsorship that accepts gas paid in tokens also
// has; *paymaster.Service has it.
type GasTokens interface {
	GasTokens(ctx context.Context) []paymaster.GasToken
}

// sponsorship returns the paymaster, or ErrNoPaymaster.
func (d *Dashboard) sponsorship() (Sponsorship, error) {
	if d.cfg.Sponsorship == nil {
		return nil, ErrNoPaymaster
	}
	return d.cfg.Sponsorship, nil
}

// Every change below is done, then written to the audit log. A change
// whose audit entry cannot be written is still done (it cannot be undone
// safely); the failure is logged and returned.

// createProject creates a project in the store.
func (d *Dashboard) createProject(who, name, network string, l paymaster.Limits) error {
	s, err := d.sponsorship()
	if err != nil {
		return err
	}
	if err := s.CreateProject(name, network, l); err != nil {
		return sponsorshipError(err)
	}
	return d.record(who, ActionProjectCreate, name, network+"; "+describeLimits(l))
}

// updateLimits changes a stored project's limits.
func (d *Dashboard) updateLimits(who, name string, l paymaster.Limits) error {
	s, err := d.sponsorship()
	if err != nil {
		return err
	}
	if err := s.EditProject(name, l); err != nil {
		return sponsorshipError(err)
	}
	return d.record(who, ActionProjectLimits, name, describeLimits(l))
}

// topUp records a balance top-up of a project.
func (d *Dashboard) topUp(who, name string, wei *big.Int, note string) error {
	s, err := d.sponsorship()
	if err != nil {
		return err
	}
	if err := s.TopUp(name, wei, note); err != nil {
		return sponsorshipError(err)
	}
	detail := formatUnits(wei, 18) + " ETH"
	if note != "" {
		detail += "; " + note
	}
	return d.record(who, ActionProjectTopUp, name, detail)
}

// createKey makes a key; the secret is returned once.
func (d *Dashboard) createKey(who, project string, scopes []string) (string, *paymaster.Key, error) {
	s, err := d.sponsorship()
	if err != nil {
		return "", nil, err
	}
	secret, rec, err := s.CreateKey(project, scopes)
	if err != nil {
		return "", nil, sponsorshipError(err)
	}
	return secret, rec, d.record(who, ActionKeyCreate, rec.ID, project+"; "+strings.Join(rec.Scopes, ","))
}

// rotateKey disables a key and makes its replacement.
func (d *Dashboard) rotateKey(who, id string) (string, *paymaster.Key, error) {
	s, err := d.sponsorship()
	if err != nil {
		return "", nil, err
	}
	if err := d.knownKey(s, id); err != nil {
		return "", nil, err
	}
	secret, rec, err := s.Keys().Rotate(id)
	if err != nil {
		return "", nil, sponsorshipError(err)
	}
	return secret, rec, d.record(who, ActionKeyRotate, id, "replaced by "+rec.ID)
}

// disableKey disables a key.
func (d *Dashboard) disableKey(who, id string) error {
	s, err := d.sponsorship()
	if err != nil {
		return err
	}
	if err := d.knownKey(s, id); err != nil {
		return err
	}
	if err := s.Keys().Revoke(id); err != nil {
		return sponsorshipError(err)
	}
	return d.record(who, ActionKeyDisable, id, "")
}

// knownKey checks that id is the public ID of an enabled key: the admin
// API and the pages name keys by ID only, never by secret.
func (d *Dashboard) knownKey(s Sponsorship, id string) error {
	keys, err := s.Keys().List()
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.ID == id {
			if k.Disabled {
				return fmt.Errorf("%w: key %s is already disabled", ErrConflict, id)
			}
			return nil
		}
	}
	return fmt.Errorf("key %q: %w", clip(id), ErrNotFound)
}

// record writes an audit entry.
func (d *Dashboard) record(who, action, target, detail string) error {
	if _, err := d.audit.add(who, action, target, detail); err != nil {
		d.log.Error("the change was made but not written to the audit log", errField(err))
		return fmt.Errorf("%w: %v", errAudit, err)
	}
	return nil
}

// describeLimits is limits in words, for the audit log.
func describeLimits(l paymaster.Limits) string {
	s := fmt.Sprintf("%d tx/min per sender, %d in flight, daily cap %s ETH", l.TxPerMinute, l.MaxInFlight, ethOrDefault(l.DailyGasCap, "the balance"))
	s += ", fee ceiling " + gweiOrDefault(l.MaxFeePerGas, "from the network")
	s += ", largest operation " + ethOrDefault(l.MaxOpCost, "1% of the cap")
	return s
}

func ethOrDefault(v *big.Int, def string) string {
	if v == nil {
		return def
	}
	return formatUnits(v, 18)
}

func gweiOrDefault(v *big.Int, def string) string {
	if v == nil {
		return def
	}
	return formatUnits(v, 9) + " gwei"
}

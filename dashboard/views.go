package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/caddy-x402/caddy-x402/paymaster"
)

// The admin API's JSON shapes. Amounts are decimal strings in wei.

// LimitsView is a project's limits.
type LimitsView struct {
	TxPerMinute int `json:"txPerMinute"`
	MaxInFlight int `json:"maxInFlight"`
	// DailyGasCap is required when a project is created or edited.
	DailyGasCap string `json:"dailyGasCap"`
	// MaxFeePerGas and MaxOpCost are optional: empty derives them (from
	// the network's fees; 1% of the daily cap).
	MaxFeePerGas string `json:"maxFeePerGas,omitempty"`
	MaxOpCost    string `json:"maxOpCost,omitempty"`
}

func (v LimitsView) limits() (paymaster.Limits, error) {
	l := paymaster.Limits{TxPerMinute: v.TxPerMinute, MaxInFlight: v.MaxInFlight}
	if l.TxPerMinute < 1 || l.TxPerMinute > 100_000 || l.MaxInFlight < 1 || l.MaxInFlight > 100_000 {
		return l, badRequest("limits: txPerMinute and maxInFlight must be from 1 to 100000")
	}
	var err error
	if l.DailyGasCap, err = parseWei("limits.dailyGasCap", v.DailyGasCap, false); err != nil {
		return l, err
	}
	if l.MaxFeePerGas, err = parseWei("limits.maxFeePerGas", v.MaxFeePerGas, true); err != nil {
		return l, err
	}
	if l.MaxOpCost, err = parseWei("limits.maxOpCost", v.MaxOpCost, true); err != nil {
		return l, err
	}
	return l, nil
}

func limitsView(l paymaster.Limits) LimitsView {
	opt := func(v *big.Int) string {
		if v == nil {
			return ""
		}
		return v.String()
	}
	return LimitsView{TxPerMinute: l.TxPerMinute, MaxInFlight: l.MaxInFlight, DailyGasCap: amountString(l.DailyGasCap), MaxFeePerGas: opt(l.MaxFeePerGas), MaxOpCost: opt(l.MaxOpCost)}
}

// ProjectView is a project with its usage.
type ProjectView struct {
	Name    string `json:"name"`
	Network string `json:"network"`
	// Configured projects are defined in the Caddyfile; their limits are
	// edited there.
	Configured bool       `json:"configured"`
	Limits     LimitsView `json:"limits"`
	Created    time.Time  `json:"created,omitzero"`
	UsageView
	TopUps []TopUpView `json:"topUps"`
}

// UsageView is a project's spend.
type UsageView struct {
	Name string `json:"name"`
	// Funded is all that was put into the project; Balance what is left.
	Funded     string `json:"funded"`
	Balance    string `json:"balance"`
	SpentToday string `json:"spentToday"`
	InFlight   int    `json:"inFlight"`
	// History is the spend per UTC day, oldest first.
	History []DayView `json:"history"`
}

// DayView is one UTC day's spend.
type DayView struct {
	Day   string `json:"day"`
	Spent string `json:"spent"`
}

// TopUpView is a recorded top-up.
type TopUpView struct {
	Time   time.Time `json:"time"`
	Amount string    `json:"amount"`
	Note   string    `json:"note,omitempty"`
}

func usageView(p paymaster.ProjectInfo) UsageView {
	u := UsageView{Name: p.Name, Funded: amountString(p.Funded), Balance: amountString(p.Balance), SpentToday: amountString(p.SpentToday), InFlight: p.InFlight, History: []DayView{}}
	for _, h := range p.Daily {
		u.History = append(u.History, DayView{Day: h.Day.Format(time.DateOnly), Spent: amountString(h.Spent)})
	}
	return u
}

func projectView(p paymaster.ProjectInfo) ProjectView {
	v := ProjectView{Name: p.Name, Network: p.Network, Configured: p.Configured, Limits: limitsView(p.Limits), Created: p.Created, UsageView: usageView(p), TopUps: []TopUpView{}}
	for _, t := range p.TopUps {
		v.TopUps = append(v.TopUps, TopUpView{Time: t.At, Amount: amountString(t.Amount), Note: t.Note})
	}
	return v
}

// KeyView is an API key's record: never its secret, nor its hash.
type KeyView struct {
	ID         string    `json:"id"`
	Project    string    `json:"project"`
	Network    string    `json:"network"`
	Scopes     []string  `json:"scopes"`
	Disabled   bool      `json:"disabled"`
	ReplacedBy string    `json:"replacedBy,omitempty"`
	Created    time.Time `json:"created"`
	LastUsed   time.Time `json:"lastUsed,omitzero"`
}

// ViewKey is a key's record as the admin API shows it.
func ViewKey(k paymaster.Key) KeyView {
	return KeyView{ID: k.ID, Project: k.Project, Network: k.Network, Scopes: k.Scopes, Disabled: k.Disabled, ReplacedBy: k.ReplacedBy, Created: k.Created, LastUsed: k.LastUsed}
}

// NewKeyView answers a key's creation or rotation: Key is the secret,
// shown this once.
type NewKeyView struct {
	Key      string  `json:"key"`
	Record   KeyView `json:"record"`
	Replaces string  `json:"replaces,omitempty"`
}

// MarshalJSON writes the balances with amounts as decimal strings.
func (b Balances) MarshalJSON() ([]byte, error) {
	v := struct {
		Settler        string `json:"settler"`
		SettlerBalance string `json:"settlerBalance"`
		Paymaster      string `json:"paymaster,omitempty"`
		Deposit        string `json:"deposit,omitempty"`
	}{Settler: b.Settler.Hex(), SettlerBalance: amountString(b.SettlerBalance)}
	if b.Deposit != nil {
		v.Paymaster, v.Deposit = b.Paymaster.Hex(), b.Deposit.String()
	}
	return json.Marshal(v)
}

// sponsorshipError gives the paymaster's refusals their place among the
// dashboard's errors.
func sponsorshipError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, paymaster.ErrUnknownProject), errors.Is(err, paymaster.ErrUnknownKey):
		return fmt.Errorf("%w: %v", ErrNotFound, err)
	case errors.Is(err, paymaster.ErrConfiguredProject), errors.Is(err, paymaster.ErrProjectExists), errors.Is(err, paymaster.ErrNoProjectStore):
		return fmt.Errorf("%w: %v", ErrConflict, err)
	case errors.Is(err, paymaster.ErrInvalid):
		return fmt.Errorf("%w: %v", errBadRequest, err)
	}
	return err
}

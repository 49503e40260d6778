// Package dashboard is the operator's side of caddy-x402: a JSON admin API
// and a server-rendered web app over the same operations. Both show what
// the store holds (every settlement, its revenue and latency, failures by
// code) and manage the paymaster's projects and API keys: create a project
// scoped to testnet or mainnet, edit its limits, record balance top-ups,
// and create, rotate and disable keys, whose value is shown once. Every
// change is written to an audit log.
//
// The package is plain net/http. Caddy mounts the API on its admin
// endpoint under /x402/ (so the admin endpoint's own access controls guard
// it), and serves the web app from the x402_dashboard handler, which a
// Caddyfile puts behind basic_auth. The web app refuses cross-origin
// state-changing requests and checks a per-user token in every form.
package dashboard

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/webhook"
)

// Payments lists and summarizes the settlement records; every store
// backend has these methods.
type Payments interface {
	List(ctx context.Context, q store.Query) (store.Page, error)
	Summarize(ctx context.Context, q store.SummaryQuery) (store.Report, error)
}

// Asset is a token that payments are made in, for display.
type Asset struct {
	// Address is the token contract.
	Address common.Address
	// Symbol names it on the pages, such as "USDC".
	Symbol string
	// Decimals is its number of decimals.
	Decimals uint8
	// USD is set for a token pegged to the US dollar, whose amounts are
	// also shown in USD; New sets it with USDPegged.
	USD bool
}

// Balances are the operator's balances on chain.
type Balances struct {
	// Settler is the address that pays the gas of exact settlements, and
	// SettlerBalance its ETH balance in wei.
	Settler        common.Address
	SettlerBalance *big.Int
	// Paymaster is the VerifyingPaymaster contract, and Deposit its
	// deposit at the EntryPoint in wei, which sponsored gas is paid from;
	// zero values when no paymaster runs.
	Paymaster common.Address
	Deposit   *big.Int
}

// Config configures a Dashboard. Payments, Audit and Balances are
// required; Sponsorship is nil when no paymaster runs, and the projects and
// keys are then not shown.
type Config struct {
	// Payments is the store's settlement records.
	Payments Payments
	// Channels is the merchant's batch-settlement channels; nil when no
	// network takes them.
	Channels ChannelDesk
	// Audit keeps the audit log, and the secret of the forms' tokens.
	Audit AuditStore
	// Sponsorship is the paymaster's projects and keys; nil if none runs.
	Sponsorship Sponsorship
	// Balances reads the settler's and the paymaster's balances.
	Balances func(ctx context.Context) (Balances, error)
	// Assets are the tokens of the payments, to format amounts; an
	// unknown token's amounts are shown in base units.
	Assets []Asset
	// Network is the CAIP-2 id of the chain, shown on the pages.
	Network string
	// Networks are the dashboards of every network of an app of several,
	// this one's among them, for the pages' network switch; empty for one
	// network.
	Networks []NetworkLink
	// AdminBase, when set, makes this the dashboard of a network other
	// than the primary one: it shows that network's overview and payments
	// only, and its pages link to the projects, keys and audit log of the
	// primary network's dashboard, at AdminBase (a path ending in /),
	// since the API keys and the audit log live in the primary's store.
	AdminBase string
	// LowBalance is the settler balance, in wei, below which the overview
	// warns; default 0.05 ETH.
	LowBalance *big.Int
	// Secret keys the web forms' tokens; at least 32 bytes. Replicas that
	// serve one dashboard must share it.
	Secret []byte
	// Refusals reads the payments refused before settlement (failed
	// verification): counters by reason and route, and the last ones; nil
	// shows none.
	Refusals func() (store.RefusalSummary, error)
	// Deliveries lists the webhook deliveries, newest first; nil when no
	// webhook is configured, and the page is then not shown.
	Deliveries func() ([]webhook.Delivery, error)
	// Explorer is the block explorer of the network, such as
	// https://basescan.org: transactions link to <Explorer>/tx/<hash> and
	// addresses to <Explorer>/address/<address>. Empty links none.
	Explorer string
	// HasPaymaster reports whether a paymaster runs, for the navigation:
	// the projects and keys pages are linked only then. Nil: whether
	// Sponsorship is set.
	HasPaymaster func() bool
	// Outage says what of the payment path is down (the chain, its RPC,
	// the facilitator), for a banner on every page and in the overview's
	// JSON; nil, or a func that returns nil, when all is up. It is called
	// once per page, so it must answer fast (from a cache).
	Outage func(ctx context.Context) *Outage
	// NetworkName names the network on the pages, such as "Base
	// Sepolia", with the CAIP-2 id on hover; empty shows NetworkName's
	// name of Network.
	NetworkName string
	// Webhooks sends test events and resends deliveries; nil when no
	// webhook is configured.
	Webhooks Webhooks
	// Records reads one settlement record by its key, for the page of a
	// payment; nil: Payments, if it has a Get method.
	Records Records
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
}

// Outage is what of the payment path is down, as the banner on every
// page says it.
type Outage struct {
	// What is down, in a sentence.
	What string `json:"what"`
	// Since is when it was first seen down.
	Since time.Time `json:"since"`
	// Payers is what the payers are told meanwhile, in a sentence.
	Payers string `json:"payers"`
	// Detail is the kind of failure, such as "the RPC refused the
	// connection"; never the error's text, which may hold a URL with a
	// key.
	Detail string `json:"detail,omitempty"`
}

// NetworkLink is one network's dashboard, for the network switch.
type NetworkLink struct {
	// Network is the CAIP-2 id.
	Network string
	// Name is the network's name, such as "Base"; empty shows
	// NetworkName(Network).
	Name string
	// Base is the path of its dashboard, ending in /.
	Base string
}

// Validate reports what is wrong with the configuration.
func (c *Config) Validate() error {
	var errs []error
	if c.Payments == nil {
		errs = append(errs, errors.New("dashboard: Payments is required"))
	}
	if c.Audit == nil {
		errs = append(errs, errors.New("dashboard: Audit is required"))
	}
	if c.Balances == nil {
		errs = append(errs, errors.New("dashboard: Balances is required"))
	}
	if len(c.Secret) < 32 {
		errs = append(errs, errors.New("dashboard: Secret must have at least 32 bytes"))
	}
	if c.LowBalance != nil && c.LowBalance.Sign() < 0 {
		errs = append(errs, errors.New("dashboard: LowBalance must not be negative"))
	}
	return errors.Join(errs...)
}

// Dashboard serves the admin API and the web app. It is safe for
// concurrent use.
type Dashboard struct {
	cfg    Config
	audit  *audit
	log    *zap.Logger
	assets map[common.Address]Asset
}

// New returns a Dashboard. It does no I/O.
func New(cfg Config) (*Dashboard, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.LowBalance == nil {
		cfg.LowBalance = new(big.Int).Mul(big.NewInt(5), big.NewInt(1e16)) // 0.05 ETH
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	if cfg.NetworkName == "" {
		cfg.NetworkName = NetworkName(cfg.Network)
	}
	cfg.Networks = slices.Clone(cfg.Networks)
	for i, n := range cfg.Networks {
		if n.Name == "" {
			cfg.Networks[i].Name = NetworkName(n.Network)
		}
	}
	if cfg.Records == nil {
		cfg.Records, _ = cfg.Payments.(Records)
	}
	d := &Dashboard{cfg: cfg, audit: &audit{store: cfg.Audit, now: cfg.Now}, log: log, assets: make(map[common.Address]Asset, len(cfg.Assets))}
	for _, a := range cfg.Assets {
		a.USD = a.USD || USDPegged(a)
		d.assets[a.Address] = a
	}
	return d, nil
}

// Records reads a settlement record by its key; every store backend
// has this method.
type Records interface {
	Get(key common.Hash) (*store.Record, error)
}

// outage is what is down now, or nil.
func (d *Dashboard) outage(ctx context.Context) *Outage {
	if d.cfg.Outage == nil {
		return nil
	}
	return d.cfg.Outage(ctx)
}

// ActorKey is the request context key under which an adapter puts the
// name of who makes a request (the authenticated user), for the audit log.
type ActorKey struct{}

// actor is who makes r, for the audit log.
func actor(r *http.Request, fallback string) string {
	if a, ok := r.Context().Value(ActorKey{}).(string); ok && a != "" {
		return a
	}
	return fallback
}

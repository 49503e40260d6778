// Package paymaster is the gas sponsor: a JSON-RPC 2.0 service that signs
// ERC-4337 v0.6 UserOperations for the on-chain VerifyingPaymaster, so that
// smart accounts pay for nothing but what they buy (type 0), or for the
// TokenPaymaster, so that they pay their gas in an accepted ERC-20 at a
// rate signed into the operation (types 1 and 2; Config.Tokens).
//
// Access is by API key (header X-API-Key, or the legacy second element of
// params), each belonging to a project on testnet or mainnet with scopes
// paymaster:read and paymaster:sponsor; a Service serves one network
// (Config.Network) and refuses the keys and projects of the other. Every
// project has limits: sponsored operations per minute per sender,
// operations in flight, a daily gas cap and a funded balance, and a
// ceiling on maxFeePerGas. Breaching a limit is error -32504; a
// configuration problem (scope, network, balance, the paymaster's
// EntryPoint deposit) is -32501.
//
// Projects are configured (Config.Projects, from the Caddyfile) or stored
// (created, edited and topped up at run time through CreateProject,
// EditProject and TopUp, in Config.ProjectStore, for an operator's
// dashboard); a stored project's definition is read on every request, so
// an edit applies at once on every Service sharing the store.
//
// The counters live in a ledger (Config.Ledger): a record per project and
// one for the service, each changed by one atomic update, so restarts and
// reloads keep them and Services sharing a ledger keep them exact. A
// sponsored operation is charged its maximum cost at once, and refunded
// the unused part when its UserOperationEvent appears in the EntryPoint's
// logs, or all of it when its validity window ends without one.
//
// A pm_sponsor_userop call whose request context carries an OpenTelemetry
// span (the server span of Caddy's tracing directive) records a child
// span, x402.paymaster.sponsor, with that span's tracer provider (never
// the global one). It carries x402.paymaster.project, x402.sender,
// x402.result (sponsored or refused) and, once sponsored,
// x402.user_op_hash; a refusal's status and x402.reason are its JSON-RPC
// code alone. The API key, its id and the paymaster's signature are never
// recorded. [Client] passes the caller's trace on in a W3C traceparent
// header, so a facilitator's sponsorship and the paymaster's share a
// trace.
package paymaster

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// ServiceName is the service field of /health.
const ServiceName = "caddy-x402-paymaster"

// Version is reported by /health.
var Version = "v0.1.0-dev"

// Chain is the chain access the paymaster needs; *rpc.Client has it.
type Chain interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
}

// Networks a project, a key and a Service belong to.
const (
	NetworkTestnet = "testnet"
	NetworkMainnet = "mainnet"
)

// Project is a configured sponsorship account with its own limits. Its
// counters live in the Service's ledger under its name, and its limits are
// read from the configuration in force on every request, so new limits
// (SetProjects, on a config reload) apply at once to the counters as they
// stand. It is on the Service's network.
type Project struct {
	// Name identifies the project; keys, and its ledger record, belong to
	// it.
	Name string
	// TxPerMinute is how many operations per minute one sender may have
	// sponsored; default 30.
	TxPerMinute int
	// MaxInFlight is how many sponsored operations may be pending at once:
	// signed, and neither seen on chain nor expired; default 50.
	MaxInFlight int
	// CallsPerMinute is how many JSON-RPC calls one API key of the project
	// may make per minute, every method, whatever their outcome; default
	// 120. A key may make them in a burst, then at that rate. It is
	// checked before any chain read, so a key (on the devnet, the public
	// demo key) cannot make the paymaster read the chain faster than its
	// rate by sponsoring for many senders, or by calls that are refused.
	// A facilitator's key carries every sponsorship of /sponsor: give its
	// project a rate above what its payers need.
	CallsPerMinute int
	// Balance is the project's funding in wei: all that has been put into
	// it, not what is left. Each operation is charged its maximum cost when
	// it is sponsored and refunded the unused part once it lands (all of it
	// if it expires); what is left is Balance less what the ledger has
	// charged since it began. Restarts keep the charges, so raising Balance
	// by x tops the project up by x, and lowering it takes x back (below
	// what was charged, nothing more is sponsored). Top-ups recorded with
	// TopUp add to it. Required.
	Balance *big.Int
	// DailyGasCap bounds the wei charged per UTC day; default the funding
	// (Balance plus top-ups).
	DailyGasCap *big.Int
	// MaxFeePerGas is the highest maxFeePerGas sponsored; nil derives it
	// from the network: three times the latest base fee plus 5 gwei.
	MaxFeePerGas *big.Int
	// MaxOpCost bounds one operation's maximum cost in wei (every gas
	// limit at maxFeePerGas); default 1% of DailyGasCap, so no single
	// operation can take more than that of a day's budget.
	MaxOpCost *big.Int
}

// Config configures a Service.
type Config struct {
	// ChainID is the chain's id.
	ChainID *big.Int
	// EntryPoints are the ERC-4337 EntryPoints sponsored on, of any
	// version, each with its paymasters (whose signer is Signer); the
	// first answers pm_supported_tokens without an entryPoint. Empty, the
	// one v0.6 EntryPoint that EntryPoint, Paymaster and TokenPaymaster
	// name. See entrypoints.go.
	EntryPoints []EntryPointConfig
	// EntryPoint is the one ERC-4337 v0.6 EntryPoint, when EntryPoints is
	// empty.
	EntryPoint common.Address
	// Paymaster is its VerifyingPaymaster contract.
	Paymaster common.Address
	// Signer is the VerifyingPaymaster's verifyingSigner, and the
	// TokenPaymaster's. Never logged.
	Signer *ecdsa.PrivateKey
	// TokenPaymaster is the TokenPaymaster contract (contracts/src) of
	// types 1 and 2, gas paid in an ERC-20, on EntryPoint, when
	// EntryPoints is empty; zero offers type 0 only there.
	TokenPaymaster common.Address
	// Tokens are the ERC-20s accepted for gas (types 1 and 2), with their
	// prices; SetTokens replaces them. They need TokenPaymaster or
	// TokenPaymasterV07.
	Tokens []Token
	// Chain is the chain's JSON-RPC.
	Chain Chain
	// Network is the network the Service sponsors on, "testnet" or
	// "mainnet"; default "testnet". Keys and stored projects of the other
	// network are refused; configured projects are on this one.
	Network string
	// Keys is where API keys are kept.
	Keys KeyStore
	// KeyUsage, if set, is where Keys.Authorize records when each key was
	// last used (at most once a minute per key and process); nil records
	// nothing.
	KeyUsage KV
	// Projects are the configured sponsorship accounts.
	Projects []Project
	// ProjectStore, if set, keeps the projects created at run time
	// (CreateProject), one record per name. Services sharing it see a
	// project, and an edit of its limits, at their next request. Nil
	// allows configured projects only.
	ProjectStore KV
	// Ledger keeps the projects' counters (charges, daily spend,
	// reservations, rate windows), the failure suspensions and how far
	// the EntryPoint's logs have been read, so that restarts and reloads
	// keep them. Services may share one (a reload's overlap, replicas on
	// one database): each change is an atomic Update. Nil keeps them in
	// memory for the Service's life.
	Ledger LedgerStore
	// Validity is how long a sponsorship stays valid; default 10 minutes.
	Validity time.Duration
	// MaxVerificationGas bounds verificationGasLimit of an operation from a
	// deployed account; default 300,000. MaxDeployVerificationGas bounds it
	// for one that deploys its account (initCode); default 700,000.
	MaxVerificationGas, MaxDeployVerificationGas uint64
	// MaxCallGas bounds callGasLimit; default 1,000,000.
	MaxCallGas uint64
	// BodyTimeout bounds the reading of a request body; default 10 s.
	BodyTimeout time.Duration
	// MaxBatch is the most calls one JSON-RPC batch may hold; default 10.
	// A longer batch is refused whole, before any of its calls runs, with
	// error -32602.
	MaxBatch int
	// FailurePause is how long sponsorship stops for a sender, and for every
	// account of its owner, after one of its sponsored operations failed
	// in execution (its tokens moved away between the check and the
	// bundle, at the paymaster's cost); default 24 h.
	FailurePause time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
}

// Validate reports what is wrong with the configuration.
func (c *Config) Validate() error {
	var errs []error
	if c.ChainID == nil || c.ChainID.Sign() <= 0 {
		errs = append(errs, errors.New("chain id is missing"))
	}
	if len(c.EntryPoints) > 0 {
		errs = append(errs, validateEntryPoints(c.EntryPoints)...)
		if c.EntryPoint != (common.Address{}) || c.Paymaster != (common.Address{}) || c.TokenPaymaster != (common.Address{}) {
			errs = append(errs, errors.New("give EntryPoints or the single EntryPoint's fields (EntryPoint, Paymaster, TokenPaymaster), not both"))
		}
	} else {
		if c.EntryPoint == (common.Address{}) || c.Paymaster == (common.Address{}) {
			errs = append(errs, errors.New("entry point and paymaster addresses are required"))
		}
	}
	if c.Signer == nil {
		errs = append(errs, errors.New("signer key is missing"))
	}
	if c.Chain == nil || c.Keys == nil {
		errs = append(errs, errors.New("chain and key store are required"))
	}
	if c.MaxBatch < 0 {
		errs = append(errs, errors.New("max batch must not be negative (0 is the default, 10)"))
	}
	if c.Network != "" && c.Network != NetworkTestnet && c.Network != NetworkMainnet {
		errs = append(errs, fmt.Errorf("network %q: want %s or %s", c.Network, NetworkTestnet, NetworkMainnet))
	}
	if err := validateProjects(c.Projects); err != nil {
		errs = append(errs, err)
	}
	if err := validateTokens(c.Tokens, c.entryPoints()); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// validateEntryPoints reports what is wrong with a list of EntryPoints.
func validateEntryPoints(eps []EntryPointConfig) []error {
	var errs []error
	seen := map[common.Address]bool{}
	for i, d := range eps {
		if d.EntryPoint == nil {
			errs = append(errs, fmt.Errorf("entry point %d is missing", i))
			continue
		}
		if d.Paymaster == (common.Address{}) {
			errs = append(errs, fmt.Errorf("entry point %s (v%s) needs its paymaster's address", d.EntryPoint.Address(), d.EntryPoint.Version()))
		}
		if seen[d.EntryPoint.Address()] {
			errs = append(errs, fmt.Errorf("entry point %s is listed twice", d.EntryPoint.Address()))
		}
		seen[d.EntryPoint.Address()] = true
	}
	return errs
}

func validateProjects(projects []Project) error {
	var errs []error
	seen := map[string]bool{}
	for _, p := range projects {
		if p.Name == "" || seen[p.Name] {
			errs = append(errs, fmt.Errorf("project %q: names must be unique and non-empty", p.Name))
		}
		seen[p.Name] = true
		if p.Balance == nil || p.Balance.Sign() < 0 {
			errs = append(errs, fmt.Errorf("project %q: a funded balance (wei) is required", p.Name))
		}
		if p.TxPerMinute < 0 || p.MaxInFlight < 0 || p.CallsPerMinute < 0 {
			errs = append(errs, fmt.Errorf("project %q: limits must not be negative", p.Name))
		}
		for _, v := range []*big.Int{p.DailyGasCap, p.MaxFeePerGas, p.MaxOpCost} {
			if v != nil && v.Sign() < 0 {
				errs = append(errs, fmt.Errorf("project %q: amounts must not be negative", p.Name))
				break
			}
		}
	}
	return errors.Join(errs...)
}

// Service is the paymaster. It is safe for concurrent use. Its counters
// live in Config.Ledger, so a restart keeps them, and an adapter keeps one
// Service across config reloads, handing it new limits with SetProjects.
type Service struct {
	cfg    Config
	keys   *Keys
	signer common.Address
	log    *zap.Logger
	// eps are the EntryPoints sponsored on, with their paymasters.
	eps     []EntryPointConfig
	account *contracts.SimpleAccount
	ledger  LedgerStore

	validity atomic.Int64 // a time.Duration; SetValidity swaps it
	maxBatch atomic.Int64 // SetMaxBatch swaps it

	mu       sync.Mutex // guards projects
	projects map[string]*project

	tokens atomic.Pointer[[]Token] // with defaults; SetTokens swaps them
	metas  metaCache

	// refreshMu makes one refresh run at a time; it guards polled, when
	// the EntryPoint's logs were last read.
	refreshMu sync.Mutex
	polled    time.Time
}

// New returns a Service. It does no I/O: the ledger and the chain are
// first read by the first request.
func New(cfg Config) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("paymaster config: %w", err)
	}
	if cfg.Validity == 0 {
		cfg.Validity = 10 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxVerificationGas == 0 {
		cfg.MaxVerificationGas = 300_000
	}
	if cfg.MaxDeployVerificationGas == 0 {
		cfg.MaxDeployVerificationGas = 700_000
	}
	if cfg.MaxCallGas == 0 {
		cfg.MaxCallGas = 1_000_000
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = 10 * time.Second
	}
	if cfg.FailurePause <= 0 {
		cfg.FailurePause = 24 * time.Hour
	}
	if cfg.Network == "" {
		cfg.Network = NetworkTestnet
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	ledger := cfg.Ledger
	if ledger == nil {
		ledger = &memLedger{}
	}
	s := &Service{
		cfg: cfg, keys: &Keys{Store: cfg.Keys, Now: cfg.Now, Usage: cfg.KeyUsage, Network: cfg.Network, Logger: log}, signer: crypto.PubkeyToAddress(cfg.Signer.PublicKey), log: log,
		eps: cfg.entryPoints(), account: contracts.NewSimpleAccount(), ledger: ledger,
	}
	if err := s.SetProjects(cfg.Projects); err != nil {
		return nil, fmt.Errorf("paymaster config: %w", err)
	}
	if err := s.SetTokens(cfg.Tokens); err != nil {
		return nil, fmt.Errorf("paymaster config: %w", err)
	}
	s.SetValidity(cfg.Validity)
	s.SetMaxBatch(cfg.MaxBatch)
	return s, nil
}

// DefaultMaxBatch is the most calls a JSON-RPC batch may hold unless
// Config.MaxBatch says otherwise.
const DefaultMaxBatch = 10

// SetMaxBatch changes the most calls one JSON-RPC batch may hold, for the
// requests that arrive from now on; 0 is the default, DefaultMaxBatch.
func (s *Service) SetMaxBatch(n int) {
	if n <= 0 {
		n = DefaultMaxBatch
	}
	s.maxBatch.Store(int64(n))
}

// SetValidity changes how long a sponsorship stays valid, for the
// sponsorships signed from now on; 0 is the default, 10 minutes.
func (s *Service) SetValidity(d time.Duration) {
	if d <= 0 {
		d = 10 * time.Minute
	}
	s.validity.Store(int64(d))
}

// SetProjects replaces the projects and their limits, as a config reload
// does. Their counters stay in the ledger under their names, and the next
// request holds them to the new limits; a project left out is refused
// until it is configured again, when its counters are as it left them.
func (s *Service) SetProjects(projects []Project) error {
	if err := validateProjects(projects); err != nil {
		return fmt.Errorf("paymaster projects: %w", err)
	}
	m := make(map[string]*project, len(projects))
	for _, p := range projects {
		m[p.Name] = newProject(p, s.cfg.Network)
	}
	s.mu.Lock()
	s.projects = m
	s.mu.Unlock()
	return nil
}

// project returns a configured project in force, or nil.
func (s *Service) project(name string) *project {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.projects[name]
}

// configuredNames lists the configured projects, in order.
func (s *Service) configuredNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.projects))
	for n := range s.projects {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// projectNames lists the projects whose operations this Service releases:
// the configured ones and the stored ones on its network, in order.
func (s *Service) projectNames() ([]string, error) {
	names := s.configuredNames()
	if s.cfg.ProjectStore == nil {
		return names, nil
	}
	stored, err := s.storedProjects()
	if err != nil {
		return names, err
	}
	for _, p := range stored {
		if p.network == s.cfg.Network && !slices.Contains(names, p.cfg.Name) {
			names = append(names, p.cfg.Name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// Keys manages the service's API keys.
func (s *Service) Keys() *Keys { return s.keys }

// Usage is a project's counters, for operators and tests.
type Usage struct {
	// InFlight is how many sponsored operations are pending.
	InFlight int
	// Balance is what is left of the project's funding; it is negative if
	// the funding was lowered below what has been charged.
	Balance *big.Int
	// SpentToday is what was charged in the current UTC day.
	SpentToday *big.Int
}

// Usage returns a project's counters, after releasing operations that
// landed or expired.
func (s *Service) Usage(ctx context.Context, name string) (Usage, error) {
	now := s.cfg.Now()
	s.refresh(ctx, now, true)
	p, err := s.lookup(name)
	if err != nil {
		return Usage{}, err
	}
	if p == nil {
		return Usage{}, fmt.Errorf("project %q: %w", name, ErrUnknownProject)
	}
	l, err := s.loadProject(name)
	if err != nil {
		return Usage{}, err
	}
	l.roll(now)
	return Usage{InFlight: len(l.Reservations), Balance: l.balance(p.cfg.Balance), SpentToday: l.Spent}, nil
}

// project is a project's definition: a configured Project, or a stored
// one read for a request. It is never changed: SetProjects replaces it,
// and a stored one is read anew.
type project struct {
	// cfg holds the limits as given, TxPerMinute and MaxInFlight with
	// their defaults applied; the amounts' defaults depend on the funding
	// (see limits). Balance is never nil: a stored project's is 0.
	cfg     Project
	network string
	// stored projects are in the project store, with when they were made
	// and last edited.
	stored           bool
	created, updated time.Time
}

// newProject is the definition of p on network, with defaults applied.
// The caller keeps its values: they are copied.
func newProject(p Project, network string) *project {
	p.Balance, p.DailyGasCap, p.MaxFeePerGas, p.MaxOpCost = cloneInt(p.Balance), cloneInt(p.DailyGasCap), cloneInt(p.MaxFeePerGas), cloneInt(p.MaxOpCost)
	if p.Balance == nil {
		p.Balance = new(big.Int)
	}
	if p.TxPerMinute == 0 {
		p.TxPerMinute = 30
	}
	if p.MaxInFlight == 0 {
		p.MaxInFlight = 50
	}
	if p.CallsPerMinute == 0 {
		p.CallsPerMinute = DefaultCallsPerMinute
	}
	return &project{cfg: p, network: network}
}

// limits are p's limits in force over the counters l, with the defaults
// applied: the daily cap is the funding, the per-operation cap 1% of the
// daily cap. MaxFeePerGas stays nil when it is derived from the network.
func (p *project) limits(l *projectLedger) Limits {
	daily := p.cfg.DailyGasCap
	if daily == nil {
		daily = l.funded(p.cfg.Balance)
	}
	maxOp := p.cfg.MaxOpCost
	if maxOp == nil {
		maxOp = new(big.Int).Div(daily, big.NewInt(100))
	}
	return Limits{TxPerMinute: p.cfg.TxPerMinute, MaxInFlight: p.cfg.MaxInFlight, CallsPerMinute: p.cfg.CallsPerMinute, DailyGasCap: daily, MaxFeePerGas: p.cfg.MaxFeePerGas, MaxOpCost: maxOp}
}

func cloneInt(x *big.Int) *big.Int {
	if x == nil {
		return nil
	}
	return new(big.Int).Set(x)
}

// rpcClient is the type of Chain the adapters pass; named for the guard.
var _ Chain = (*rpc.Client)(nil)

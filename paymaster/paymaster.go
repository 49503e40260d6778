// Package paymaster is the gas sponsor: a JSON-RPC 2.0 service that signs
// ERC-4337 v0.6 UserOperations for the on-chain VerifyingPaymaster, so that
// smart accounts pay for nothing but what they buy.
//
// Access is by API key (header X-API-Key, or the legacy second element of
// params), each belonging to a project on testnet or mainnet with scopes
// paymaster:read and paymaster:sponsor. Every project has limits: sponsored
// operations per minute per sender, operations in flight, a daily gas cap
// and a funded balance, and a ceiling on maxFeePerGas. Breaching a limit is
// error -32504; a configuration problem (scope, balance, the paymaster's
// EntryPoint deposit) is -32501.
package paymaster

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
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

// Project is a sponsorship account with its own limits.
type Project struct {
	// Name identifies the project; keys belong to it.
	Name string
	// TxPerMinute is how many operations per minute one sender may have
	// sponsored; default 30.
	TxPerMinute int
	// MaxInFlight is how many sponsored operations may be pending at once:
	// signed, and neither seen on chain nor expired; default 50.
	MaxInFlight int
	// Balance is the funded sponsorship balance in wei. Each operation
	// reserves its maximum cost and is refunded the unused part once it
	// lands. Required.
	Balance *big.Int
	// DailyGasCap bounds the wei sponsored per UTC day; default Balance.
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
	// EntryPoint is the supported ERC-4337 v0.6 EntryPoint.
	EntryPoint common.Address
	// Paymaster is the VerifyingPaymaster contract.
	Paymaster common.Address
	// Signer is the VerifyingPaymaster's verifyingSigner. Never logged.
	Signer *ecdsa.PrivateKey
	// Chain is the chain's JSON-RPC.
	Chain Chain
	// Keys is where API keys are kept.
	Keys KeyStore
	// Projects are the sponsorship accounts.
	Projects []Project
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
	if c.EntryPoint == (common.Address{}) || c.Paymaster == (common.Address{}) {
		errs = append(errs, errors.New("entry point and paymaster addresses are required"))
	}
	if c.Signer == nil {
		errs = append(errs, errors.New("signer key is missing"))
	}
	if c.Chain == nil || c.Keys == nil {
		errs = append(errs, errors.New("chain and key store are required"))
	}
	seen := map[string]bool{}
	for _, p := range c.Projects {
		if p.Name == "" || seen[p.Name] {
			errs = append(errs, fmt.Errorf("project %q: names must be unique and non-empty", p.Name))
		}
		seen[p.Name] = true
		if p.Balance == nil || p.Balance.Sign() < 0 {
			errs = append(errs, fmt.Errorf("project %q: a funded balance (wei) is required", p.Name))
		}
		if p.TxPerMinute < 0 || p.MaxInFlight < 0 {
			errs = append(errs, fmt.Errorf("project %q: limits must not be negative", p.Name))
		}
	}
	return errors.Join(errs...)
}

// Service is the paymaster. It is safe for concurrent use; its counters
// live as long as it does, so an adapter keeps one across config reloads.
type Service struct {
	cfg     Config
	keys    *Keys
	signer  common.Address
	log     *zap.Logger
	ep      *contracts.EntryPoint
	pm      *contracts.VerifyingPaymaster
	account *contracts.SimpleAccount

	mu        sync.Mutex
	projects  map[string]*project
	lastBlock uint64
	polled    time.Time
	// failed holds, per sender and per owner, when a sponsored operation
	// of theirs last failed in execution.
	failed map[common.Address]time.Time
}

// New returns a Service.
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
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	s := &Service{
		cfg: cfg, keys: &Keys{Store: cfg.Keys, Now: cfg.Now}, signer: crypto.PubkeyToAddress(cfg.Signer.PublicKey), log: log,
		ep: contracts.NewEntryPoint(), pm: contracts.NewVerifyingPaymaster(), account: contracts.NewSimpleAccount(), projects: map[string]*project{},
		failed: map[common.Address]time.Time{},
	}
	for _, p := range cfg.Projects {
		if p.TxPerMinute == 0 {
			p.TxPerMinute = 30
		}
		if p.MaxInFlight == 0 {
			p.MaxInFlight = 50
		}
		if p.DailyGasCap == nil {
			p.DailyGasCap = new(big.Int).Set(p.Balance)
		}
		maxOp := p.MaxOpCost
		if maxOp == nil {
			maxOp = new(big.Int).Div(p.DailyGasCap, big.NewInt(100))
		}
		s.projects[p.Name] = &project{
			cfg: p, maxOpCost: maxOp, balance: new(big.Int).Set(p.Balance), spent: new(big.Int),
			senders: map[common.Address][]time.Time{}, inFlight: map[common.Hash][]flight{},
		}
	}
	return s, nil
}

// Keys manages the service's API keys.
func (s *Service) Keys() *Keys { return s.keys }

// Usage is a project's counters, for operators and tests.
type Usage struct {
	InFlight   int
	Balance    *big.Int
	SpentToday *big.Int
}

// Usage returns a project's counters, after releasing operations that
// landed or expired.
func (s *Service) Usage(ctx context.Context, name string) (Usage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.polled = time.Time{}
	s.refresh(ctx, s.cfg.Now())
	p, ok := s.projects[name]
	if !ok {
		return Usage{}, false
	}
	return Usage{InFlight: p.pending(), Balance: new(big.Int).Set(p.balance), SpentToday: new(big.Int).Set(p.spent)}, true
}

// project is a project's live counters.
type project struct {
	cfg       Project
	maxOpCost *big.Int
	balance   *big.Int
	spent     *big.Int // today's reserved and used wei
	day       string
	senders   map[common.Address][]time.Time
	// inFlight holds every reservation by operation hash; the same operation
	// sponsored twice holds two.
	inFlight map[common.Hash][]flight
}

// pending counts the reservations in flight.
func (p *project) pending() int {
	n := 0
	for _, fs := range p.inFlight {
		n += len(fs)
	}
	return n
}

// flight is a sponsored operation not yet seen on chain.
type flight struct {
	validUntil    time.Time
	cost          *big.Int
	sender, owner common.Address
}

// admit checks every limit for an operation of maximum cost and, if
// reserve is set and all pass, takes the reservation; nothing is taken
// otherwise. The caller holds s.mu.
func (p *project) admit(sender, owner common.Address, hash common.Hash, cost *big.Int, validUntil, now time.Time, reserve bool) *Error {
	if day := now.UTC().Format(time.DateOnly); day != p.day {
		p.day, p.spent = day, new(big.Int)
	}
	recent := p.senders[sender][:0]
	for _, t := range p.senders[sender] {
		if now.Sub(t) < time.Minute {
			recent = append(recent, t)
		}
	}
	p.senders[sender] = recent
	if len(recent) >= p.cfg.TxPerMinute {
		wait := time.Minute - now.Sub(recent[0])
		return &Error{Code: codeThrottled, RetryAfter: wait, Message: fmt.Sprintf("rate limit: %d sponsored operations per minute per sender; %s may retry in %ds", p.cfg.TxPerMinute, sender, int(wait.Seconds())+1)}
	}
	if p.pending() >= p.cfg.MaxInFlight {
		return &Error{Code: codeThrottled, RetryAfter: 5 * time.Second, Message: fmt.Sprintf("limit: %d sponsored operations in flight; retry when some land", p.cfg.MaxInFlight)}
	}
	if p.balance.Cmp(cost) < 0 {
		return &Error{Code: codePaymasterRejected, Message: fmt.Sprintf("project %s's sponsorship balance (%s wei) is below the operation's maximum cost (%s wei); fund the project", p.cfg.Name, p.balance, cost)}
	}
	if new(big.Int).Add(p.spent, cost).Cmp(p.cfg.DailyGasCap) > 0 {
		return &Error{Code: codeThrottled, Message: fmt.Sprintf("daily gas cap of %s wei reached for project %s", p.cfg.DailyGasCap, p.cfg.Name)}
	}
	if !reserve {
		return nil
	}
	p.senders[sender] = append(p.senders[sender], now)
	p.inFlight[hash] = append(p.inFlight[hash], flight{validUntil: validUntil, cost: cost, sender: sender, owner: owner})
	p.balance.Sub(p.balance, cost)
	p.spent.Add(p.spent, cost)
	return nil
}

// userOperationEvent is the topic of EntryPoint v0.6's UserOperationEvent.
var userOperationEvent = crypto.Keccak256Hash([]byte("UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)"))

// refresh releases in-flight operations that landed (refunding the unused
// part of their reservation) or expired (refunding all of it). It reads the
// EntryPoint's logs at most every 250 ms. The caller holds s.mu.
func (s *Service) refresh(ctx context.Context, now time.Time) {
	for _, p := range s.projects {
		for h, fs := range p.inFlight {
			kept := fs[:0]
			for _, f := range fs {
				if now.After(f.validUntil) {
					p.balance.Add(p.balance, f.cost)
					p.spent.Sub(p.spent, f.cost)
				} else {
					kept = append(kept, f)
				}
			}
			if len(kept) == 0 {
				delete(p.inFlight, h)
			} else {
				p.inFlight[h] = kept
			}
		}
	}
	if now.Sub(s.polled) < 250*time.Millisecond {
		return
	}
	s.polled = now
	for a, at := range s.failed {
		if now.Sub(at) >= s.cfg.FailurePause {
			delete(s.failed, a)
		}
	}
	var head string
	if err := s.cfg.Chain.CallContext(ctx, &head, "eth_blockNumber"); err != nil {
		return
	}
	latest, ok := new(big.Int).SetString(head, 0)
	if !ok || latest.Uint64() <= s.lastBlock {
		return
	}
	from := s.lastBlock + 1
	if s.lastBlock == 0 {
		from = latest.Uint64() // start from now; older operations were never ours
	}
	var logs []struct {
		Topics []common.Hash `json:"topics"`
		Data   string        `json:"data"`
	}
	filter := map[string]any{
		"address":   s.cfg.EntryPoint,
		"fromBlock": fmt.Sprintf("0x%x", from),
		"toBlock":   fmt.Sprintf("0x%x", latest.Uint64()),
		"topics":    []any{userOperationEvent, nil, nil, common.BytesToHash(s.cfg.Paymaster.Bytes())},
	}
	if err := s.cfg.Chain.CallContext(ctx, &logs, "eth_getLogs", filter); err != nil {
		s.log.Debug("reading UserOperationEvent logs", zap.Error(err))
		return
	}
	s.lastBlock = latest.Uint64()
	for _, l := range logs {
		if len(l.Topics) < 2 {
			continue
		}
		data := common.FromHex(l.Data)
		var actual *big.Int
		success := true
		if len(data) >= 96 {
			// nonce, success, actualGasCost, actualGasUsed
			success = new(big.Int).SetBytes(data[32:64]).Sign() != 0
			actual = new(big.Int).SetBytes(data[64:96])
		}
		for _, p := range s.projects {
			if fs, ok := p.inFlight[l.Topics[1]]; ok {
				// One of the identical reservations landed; the others can
				// never land (the nonce is used) and wait out their window.
				f := fs[0]
				if !success {
					// Its execution failed after validation passed: the
					// paymaster paid for nothing. Its sender and owner are
					// not sponsored again for a while.
					s.failed[f.sender], s.failed[f.owner] = now, now
					s.log.Info("a sponsored operation failed in execution", zap.Stringer("sender", f.sender), zap.Stringer("owner", f.owner))
				}
				if len(fs) == 1 {
					delete(p.inFlight, l.Topics[1])
				} else {
					p.inFlight[l.Topics[1]] = fs[1:]
				}
				if actual != nil && actual.Cmp(f.cost) <= 0 {
					unused := new(big.Int).Sub(f.cost, actual)
					p.balance.Add(p.balance, unused)
					p.spent.Sub(p.spent, unused)
				}
			}
		}
	}
}

// rpcClient is the type of Chain the adapters pass; named for the guard.
var _ Chain = (*rpc.Client)(nil)

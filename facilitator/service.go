// Package facilitator verifies and settles x402 payments: the service behind
// the spec's /health, /supported, /verify and /settle.
//
// [Service] does the work in process; [Handler] serves it over HTTP; and
// [Client] speaks that HTTP and has the same methods, so a merchant's
// middleware can use an embedded facilitator or a remote one alike.
//
// Settlement is idempotent per replay key and safe across restarts. The key
// is claimed durably before anything is broadcast, the signed transaction is
// stored before it is sent, and on start-up every unfinished record is
// reconciled against the chain. A duplicate settle returns the original
// receipt. A concurrent duplicate gets in_flight. A settlement whose outcome
// is not yet known is reported as transient (503), never as a failure, so
// that a payer is never asked to pay twice.
//
// # Tracing
//
// Called with a context that carries an OpenTelemetry span (Caddy's
// tracing directive's server span, or the merchant's x402.verify and
// x402.settle spans when the facilitator is embedded), the service records
// child spans with that span's tracer provider, never the global one:
//
//   - x402.facilitator.verify: Verify;
//   - x402.facilitator.settle: Settle, with its steps as children:
//     x402.facilitator.claim (the durable claim of the payment's replay
//     key), x402.facilitator.submit (signing, storing and broadcasting the
//     transaction, or handing the operation to the bundler, whose
//     x402.bundle span is its child) and x402.facilitator.receipt (waiting
//     for the receipt and recording the outcome);
//   - x402.facilitator.sponsor: SponsorOperation (/sponsor), with
//     x402.sender and, once sponsored, x402.user_op_hash.
//
// Verify and settle spans carry x402.scheme, x402.network, x402.asset,
// x402.amount and x402.pay_to (the requirements), x402.payer and
// x402.result; settle spans and their steps add x402.transaction and, for
// aa-native, x402.user_op_hash. A span that did not succeed has status
// Error described by a code alone (the spec's invalid reason or error
// code, or a JSON-RPC code for sponsorship), also in x402.reason, and
// x402.invalid_reason when a settle failed verification: never a node's
// text, a signature or a key. Without a span in the context nothing is
// recorded.
//
// [Client] passes the caller's trace on to a remote facilitator in a W3C
// traceparent header, so that the remote facilitator's spans join the
// merchant's trace.
package facilitator

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// ServiceName is the service field of /health.
const ServiceName = "caddy-x402-facilitator"

// Version is the facilitator's version, reported by /health.
var Version = "v0.1.0-dev"

// Asset is an allowlisted token.
type Asset = exact.Asset

// Config configures a Service.
type Config struct {
	// Network is the CAIP-2 id of the chain, such as "eip155:8453". The RPC
	// must serve that chain.
	Network string
	// Chain is the chain's JSON-RPC connection, which must serve Network.
	// Its owner (the Caddy app) closes it after the service.
	Chain *rpc.Client
	// SettlerKey signs settlement transactions and pays their gas. It is
	// never logged or returned.
	SettlerKey *ecdsa.PrivateKey
	// Assets are the allowlisted tokens: those with an EIP-712 name and
	// version (EIP-3009 tokens) are paid with exact and aa-native, those
	// without with aa-native only.
	Assets []Asset
	// Records are the settlement records, from the store the Caddy app
	// opens and closes after the service (a store.Backend).
	Records store.Settlements
	// Journal, if set, is the nonce journal the settler key shares with
	// the other replicas of a fleet (the PostgreSQL store); nil hands out
	// nonces in memory, for a settler key that this process alone uses.
	Journal store.Journal
	// ClaimTakeover is how old a claim must be before another process of
	// a fleet takes it over (store.Settlements.Reclaim): a claim whose
	// settle stopped before it stored its transaction, because its replica
	// died. It must be longer than any settle takes from its claim to its
	// stored transaction (an estimate and a signature, bounded by the
	// settle's own timeout, 2 minutes by default), so that a live
	// replica's claim is never taken from it. Default 5 minutes. Without a
	// Journal the store is this process's alone, and a claim that no settle
	// of this process is running is taken over at once.
	ClaimTakeover time.Duration
	// ReceiptTimeout is how long Settle waits for a receipt before answering
	// receipt_timeout (the record stays pending); default 30 s.
	ReceiptTimeout time.Duration
	// RPCTimeout bounds each verification's chain reads; default 10 s.
	RPCTimeout time.Duration
	// WalletGas bounds the gas a contract wallet's exact payment may make
	// the settler spend on the payer's code (its ERC-6492 deployment and
	// ERC-1271 check); default exact.DefaultWalletGas.
	WalletGas uint64
	// WalletReverts is how many settlements of contract-wallet payments
	// (scheme.Payment.Contract) may revert on chain in an hour. The
	// wallet's code can accept a signature when simulated and refuse it
	// when mined, so each such revert costs the settler gas and the payer
	// nothing, and a fresh wallet escapes the penalty box; past the
	// budget, contract-wallet payments are refused until the oldest revert
	// of the hour is an hour old. EOA payments are not affected. Default
	// 20; -1 refuses none.
	WalletReverts int
	// Confirmations is how many blocks must be on top of a settlement's
	// block before it is reported final: 0 reports it as soon as it is
	// mined. At that depth its receipt is read again, and a settlement a
	// reorganisation moved or took out of the chain is waited for again
	// (see finality.go). A settle whose confirmations take longer than
	// ReceiptTimeout answers receipt_timeout, and its retry waits on. The
	// right value is the depth the chain's reorganisations stay within: 0
	// on the devnet, which never reorganises unless told to; a few blocks
	// on chains whose sequencer or fork choice can reorganise.
	Confirmations uint64
	// FinalityCheck is how often the finality watcher compares the blocks
	// of finished settlements with the chain; default 1 s.
	FinalityCheck time.Duration
	// Batch, if set, settles exact payments that arrive together in one
	// X402Batch transaction (see batch.go); nil sends one transaction a
	// payment.
	Batch *Batching
	// AANative enables the aa-native scheme; nil leaves it off.
	AANative *AANative
	// BatchSettlement enables the batch-settlement scheme (payment
	// channels) over the assets with an EIP-712 domain; nil leaves it
	// off.
	BatchSettlement *BatchSettlement
	// Offers are the payments this server's paywalls ask for: /sponsor
	// sponsors only settlements that pay one of them. Nil sponsors none.
	Offers Offers
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// BatchSettlement configures the batch-settlement scheme. Its assets are
// Config.Assets' EIP-3009 tokens.
type BatchSettlement struct {
	// Settlement, ERC3009Collector and Permit2Collector are the contracts;
	// zero is their canonical address, where upstream's audited
	// deployment is on a real chain and the devnet puts ours.
	Settlement, ERC3009Collector, Permit2Collector common.Address
}

// AANative configures the aa-native scheme. Its assets are Config.Assets.
type AANative struct {
	// EntryPoints are the EntryPoints settled on, of any version, each
	// with its factory, paymasters and, optionally, its own external
	// bundler; the first is the default offer's (and /sponsor's when a
	// request names none). Empty, EntryPoint, Factory, Paymaster and
	// TokenPaymaster name the one (v0.6) EntryPoint. See bundlers.go.
	EntryPoints []AAEntryPoint
	// Settlement is X402Settlement, the same for every EntryPoint.
	Settlement common.Address
	// EntryPoint, Factory and Paymaster are the v0.6 EntryPoint, its
	// SimpleAccountFactory and its VerifyingPaymaster, when EntryPoints
	// is empty.
	EntryPoint, Factory, Paymaster common.Address
	// TokenPaymaster, if set, is the v0.6 EntryPoint's token paymaster
	// (gas paid by the payer in an ERC-20, sponsorship types 1 and 2),
	// whose operations are settled beside the VerifyingPaymaster's, when
	// EntryPoints is empty.
	TokenPaymaster common.Address
	// Sponsor forwards sponsorship requests to the paymaster with the
	// facilitator's server-side key; nil turns /sponsor off.
	Sponsor Sponsor
	// SponsorLimits bound anonymous sponsorship through /sponsor; zero
	// values take the defaults.
	SponsorLimits SponsorLimits
	// MaxBundle and BundleWait shape the built-in bundler's bundles;
	// defaults 50 operations and 50 ms.
	MaxBundle  int
	BundleWait time.Duration
	// BundlerURL, if set, is the network's external ERC-4337 bundler
	// (ERC-7769 JSON-RPC), which New asks which EntryPoints it serves
	// (eth_supportedEntryPoints): it submits the operations of every
	// EntryPoint it lists that has no bundler of its own; the built-in
	// bundlers submit the rest. New refuses a bundler that would submit
	// nothing, and takes one that does not answer (unreachable, or without
	// the method) to serve the first EntryPoint, with a warning. The
	// EntryPoints settled are the configuration's whatever it answers. See
	// routeBundlers.
	BundlerURL string
}

// AAEntryPoint is one EntryPoint aa-native settles on: its contracts and,
// optionally, its own external bundler.
type AAEntryPoint struct {
	aanative.EntryPointConfig
	// BundlerURL, if set, is this EntryPoint's own external bundler
	// (ERC-7769), ahead of AANative.BundlerURL. New refuses it if it
	// answers eth_supportedEntryPoints without this EntryPoint.
	BundlerURL string
}

// Validate reports what is wrong with the configuration.
func (c Config) Validate() error {
	var errs []error
	if _, err := x402.ParseNetwork(c.Network); err != nil {
		errs = append(errs, err)
	}
	if c.Chain == nil {
		errs = append(errs, errors.New("chain connection is missing"))
	}
	if c.SettlerKey == nil {
		errs = append(errs, errors.New("settler key is missing"))
	}
	if len(c.Assets) == 0 {
		errs = append(errs, errors.New("no assets are allowlisted"))
	}
	if c.Records == nil {
		errs = append(errs, errors.New("settlement records are missing"))
	}
	if a := c.AANative; a != nil && len(a.EntryPoints) > 0 && (a.EntryPoint != (common.Address{}) || a.Factory != (common.Address{}) || a.Paymaster != (common.Address{}) || a.TokenPaymaster != (common.Address{})) {
		errs = append(errs, errors.New("aa-native: give EntryPoints or the single EntryPoint's fields (EntryPoint, Factory, Paymaster, TokenPaymaster), not both"))
	}
	if c.ReceiptTimeout < 0 || c.RPCTimeout < 0 || c.ClaimTakeover < 0 {
		errs = append(errs, errors.New("timeouts must not be negative"))
	}
	return errors.Join(errs...)
}

// Service is an in-process facilitator. It is safe for concurrent use.
type Service struct {
	cfg      Config
	chainID  *big.Int
	rpc      *rpc.Client
	eth      *ethclient.Client
	store    store.Settlements
	sender   *sender.Sender
	batch    *batcher // nil without Config.Batch
	pace     pace     // the chain's block period (inclusion.go)
	bundlers map[common.Address]*bundler.BuiltIn
	// externals and bundlers are each EntryPoint's external and built-in
	// bundler, by its address (settle_userop.go).
	externals map[common.Address]*bundler.External
	log       *zap.Logger

	// tab is the allowlist's scheme table in force; tabMu serializes
	// SetAssets.
	tab   atomic.Pointer[schemeTable]
	tabMu sync.Mutex

	sponsors sponsorBudget
	tunable  struct {
		sync.Mutex
		receiptTimeout time.Duration
		sponsorLimits  SponsorLimits
	}
	payers *payers

	mu       sync.Mutex
	inFlight map[common.Hash]struct{}
	// txKeys are the settlements each unfinished transaction carries (a
	// bundle carries several), so a replacement is recorded in all.
	txKeys map[common.Hash][]common.Hash

	// culprits are the operations that reverted recent bundles, by
	// transaction (see culprit); culpritMu serializes their lookups.
	culpritMu sync.Mutex
	culprits  map[common.Hash]*bundler.Culprit

	final     finality // the finality watcher's
	stopFinal context.CancelFunc
	wg        sync.WaitGroup
}

// New connects to the chain, checks that it is the configured network,
// asks aa-native's external bundlers which EntryPoints they serve (see
// routeBundlers), and reconciles unfinished settlements.
func New(ctx context.Context, cfg Config) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("facilitator config: %w", err)
	}
	if cfg.ReceiptTimeout == 0 {
		cfg.ReceiptTimeout = 30 * time.Second
	}
	if cfg.RPCTimeout == 0 {
		cfg.RPCTimeout = 10 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	id, _ := x402.ParseNetwork(cfg.Network)
	chainID := new(big.Int).SetUint64(id)

	client := cfg.Chain
	eth := ethclient.NewClient(client)
	checkCtx, cancel := context.WithTimeout(ctx, cfg.RPCTimeout)
	got, err := eth.ChainID(checkCtx)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("reading the chain id: %w", err)
	}
	if got.Cmp(chainID) != 0 {
		return nil, fmt.Errorf("the RPC serves chain %s, but the network is %s", got, cfg.Network)
	}
	// The tokens are read before anything else is set up: one that
	// disagrees with its configuration has its payments refused (and the
	// caller, TokenMismatches), and one the chain did not answer for is
	// read again before its first payment.
	ledger := &payers{wallets: walletBudget{budget: cfg.WalletReverts}, shared: openBucket(cfg.Records, PenaltiesBucket, "the shared penalty box", log), log: log,
		sharedWallets: openSharedWallets(cfg.Records, log)}
	cfg.Logger = log
	tab, err := newSchemeTable(&cfg, chainID, client, cfg.Assets, ledger.committed)
	if err != nil {
		return nil, err
	}
	checkCtx, cancel = context.WithTimeout(ctx, cfg.RPCTimeout)
	tab.tokens.checkAll(checkCtx)
	err = tab.checkContracts(checkCtx)
	cancel()
	if err != nil {
		return nil, err
	}
	// The sender replaces a stuck transaction (higher fees, same nonce) and
	// tells the service first, which records it in every settlement the
	// transaction carries; s is set before anything is sent.
	var s *Service
	snd, err := sender.New(sender.Config{Backend: eth, Batcher: client, Key: cfg.SettlerKey, ChainID: chainID, Logger: log, Journal: cfg.Journal,
		Replace: func(old, replacement *types.Transaction) error { return s.replaced(old, replacement) }})
	if err != nil {
		return nil, err
	}
	s = &Service{
		cfg: cfg, chainID: chainID, rpc: client, eth: eth, store: cfg.Records, sender: snd, log: log, payers: ledger,
		inFlight: make(map[common.Hash]struct{}), txKeys: make(map[common.Hash][]common.Hash),
	}
	s.tab.Store(tab)
	// Batches are of EIP-3009 payments: none without an asset of exact
	// (which a reload may add).
	if cfg.Batch != nil {
		s.batch = s.startBatching(ctx, *cfg.Batch)
	}
	if a := cfg.AANative; a != nil {
		a.SponsorLimits.defaults()
		s.bundlers = a.builtInBundlers(snd, eth, client, cfg.Now, log)
		if err := s.dialBundlers(ctx, a); err != nil {
			s.Close()
			return nil, err
		}
	}
	s.tunable.receiptTimeout = cfg.ReceiptTimeout
	if cfg.AANative != nil {
		s.tunable.sponsorLimits = cfg.AANative.SponsorLimits
	}
	s.reconcile(ctx)
	fctx, stop := context.WithCancel(context.Background())
	s.stopFinal = stop
	s.wg.Add(1)
	go s.watchFinality(fctx, cmp.Or(cfg.FinalityCheck, time.Second))
	return s, nil
}

// Close stops the service's background work (the bundler, the sender's
// repair loop). No goroutine of the service outlives it. The store and the
// chain connection are the caller's, to close afterwards.
func (s *Service) Close() error {
	if s.stopFinal != nil {
		s.stopFinal()
	}
	s.wg.Wait()
	for _, x := range s.externals {
		x.Close()
	}
	for _, b := range s.bundlers {
		b.Close()
	}
	if s.batch != nil {
		s.batch.close()
	}
	return s.sender.Close()
}

// Settler is the address that submits settlements and pays their gas.
func (s *Service) Settler() common.Address { return s.sender.Address() }

// storeHealth is a store that can tell whether it is reachable: the
// PostgreSQL store of a fleet. A bbolt file, held open, needs no check.
type storeHealth interface {
	Health(ctx context.Context) error
}

// Health reports the service's status and its dependencies': ok when the
// chain answers and, for a store in a database, the database does;
// otherwise degraded (an error), with the dependency that failed marked
// unreachable. The checks run at once, each within 2 s.
func (s *Service) Health(ctx context.Context) (*x402.Health, error) {
	h := &x402.Health{Status: "ok", Network: s.cfg.Network, Service: ServiceName, Version: Version, Dependencies: map[string]string{"chain": "ok"}}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var dbErr error
	db, hasDB := s.store.(storeHealth)
	done := make(chan struct{})
	if hasDB {
		h.Dependencies["database"] = "ok"
		go func() {
			defer close(done)
			dbErr = db.Health(ctx)
		}()
	} else {
		close(done)
	}
	_, chainErr := s.eth.BlockNumber(ctx)
	<-done
	var errs []error
	if chainErr != nil {
		h.Dependencies["chain"] = "unreachable"
		errs = append(errs, fmt.Errorf("chain unreachable: %w", chainErr))
	}
	if dbErr != nil {
		h.Dependencies["database"] = "unreachable"
		errs = append(errs, fmt.Errorf("database unreachable: %w", dbErr))
	}
	if len(errs) > 0 {
		h.Status = "degraded"
	}
	return h, errors.Join(errs...)
}

// Supported lists what this facilitator settles, in the spec's form and
// upstream's: each scheme of its table, in registration order.
func (s *Service) Supported(context.Context) (*x402.Supported, error) {
	tab := s.table()
	assets := make([]string, 0, len(tab.assets))
	for _, a := range tab.assets {
		assets = append(assets, a.Address.Hex())
	}
	sup := &x402.Supported{
		X402Version: x402.Version,
		Schemes:     make([]x402.SupportedScheme, 0, len(tab.order)),
		Kinds:       make([]x402.SupportedKind, 0, len(tab.order)),
		Extensions:  []string{},
		Signers:     map[string][]string{"eip155:*": {s.sender.Address().Hex()}},
	}
	for _, sch := range tab.order {
		kind := x402.SupportedKind{X402Version: x402.Version, Scheme: sch.Name(), Network: s.cfg.Network}
		if ex, ok := sch.(extraOffer); ok {
			kind.Extra = ex.Extra("")
		}
		sup.Schemes = append(sup.Schemes, x402.SupportedScheme{Scheme: sch.Name(), Networks: []string{s.cfg.Network}, Assets: assets})
		sup.Kinds = append(sup.Kinds, kind)
		if ex, ok := sch.(extraOffers); ok {
			// aa-native on every further EntryPoint: a kind of its own.
			for _, extra := range ex.Extras("")[1:] {
				more := kind
				more.Extra = extra
				sup.Kinds = append(sup.Kinds, more)
			}
		}
	}
	// x402 v1 clients and servers pay the schemes v1 has (exact) on the
	// networks v1 names, which /verify and /settle take in v1 bodies.
	for _, sch := range tab.order {
		if v1, ok := sch.(scheme.V1); ok {
			if kind, ok := v1.KindV1(s.cfg.Network); ok {
				sup.Kinds = append(sup.Kinds, kind)
			}
		}
	}
	return sup, nil
}

// extraOffers is a scheme that offers once per extra (aa-native, once per
// EntryPoint); the first is Extra's.
type extraOffers interface {
	Extras(sponsorURL string) []*x402.Extra
}

// extraOffer is a scheme whose offers carry an extra field that /supported
// advertises (aa-native's contracts).
type extraOffer interface {
	Extra(sponsorURL string) *x402.Extra
}

// SetReceiptTimeout changes how long a settle waits for its receipt, for
// the settles that start from now on (a config reload's new value).
func (s *Service) SetReceiptTimeout(d time.Duration) {
	if d <= 0 {
		d = 30 * time.Second
	}
	s.tunable.Lock()
	s.tunable.receiptTimeout = d
	s.tunable.Unlock()
}

// SetSponsorLimits changes the anonymous budget of /sponsor; zero values
// take the defaults. Counts already taken stay.
func (s *Service) SetSponsorLimits(l SponsorLimits) {
	l.defaults()
	s.tunable.Lock()
	s.tunable.sponsorLimits = l
	s.tunable.Unlock()
}

func (s *Service) receiptTimeout() time.Duration {
	s.tunable.Lock()
	defer s.tunable.Unlock()
	return s.tunable.receiptTimeout
}

func (s *Service) sponsorLimits() *SponsorLimits {
	s.tunable.Lock()
	defer s.tunable.Unlock()
	l := s.tunable.sponsorLimits
	return &l
}

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
package facilitator

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/facilitator/store"
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
	// RPCURL is the chain's JSON-RPC endpoint.
	RPCURL string
	// SettlerKey signs settlement transactions and pays their gas. It is
	// never logged or returned.
	SettlerKey *ecdsa.PrivateKey
	// Assets are the allowlisted tokens of the exact scheme.
	Assets []Asset
	// Records are the settlement records, injected by the owner of the
	// store (the Caddy app), which also closes them. Nil opens the bbolt
	// file at StorePath, which the service then owns.
	Records store.Settlements
	// StorePath is the bbolt file of settlement records, when Records is
	// nil.
	StorePath string
	// ReceiptTimeout is how long Settle waits for a receipt before answering
	// receipt_timeout (the record stays pending); default 30 s.
	ReceiptTimeout time.Duration
	// RPCTimeout bounds each verification's chain reads; default 10 s.
	RPCTimeout time.Duration
	// AANative enables the aa-native scheme; nil leaves it off.
	AANative *AANative
	// Offers are the payments this server's paywalls ask for: /sponsor
	// sponsors only settlements that pay one of them. Nil sponsors none.
	Offers Offers
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// AANative configures the aa-native scheme. Its assets are Config.Assets.
type AANative struct {
	// EntryPoint, Factory, Settlement and Paymaster are the contracts.
	EntryPoint, Factory, Settlement, Paymaster common.Address
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
	// BundlerURL, if set, submits operations to that external ERC-4337
	// bundler (ERC-7769 JSON-RPC) instead of the built-in one.
	BundlerURL string
}

// Validate reports what is wrong with the configuration.
func (c Config) Validate() error {
	var errs []error
	if _, err := x402.ParseNetwork(c.Network); err != nil {
		errs = append(errs, err)
	}
	if c.RPCURL == "" {
		errs = append(errs, errors.New("RPC URL is missing"))
	}
	if c.SettlerKey == nil {
		errs = append(errs, errors.New("settler key is missing"))
	}
	if len(c.Assets) == 0 {
		errs = append(errs, errors.New("no assets are allowlisted"))
	}
	if c.StorePath == "" && c.Records == nil {
		errs = append(errs, errors.New("store path is missing"))
	}
	if c.ReceiptTimeout < 0 || c.RPCTimeout < 0 {
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
	owned    *store.Store // the store file the service opened, or nil
	sender   *sender.Sender
	exact    *exact.Scheme
	aa       *aanative.Scheme
	bundler  *bundler.BuiltIn
	external *bundler.External
	log      *zap.Logger

	sponsors sponsorBudget
	payers   *payers

	mu       sync.Mutex
	inFlight map[common.Hash]struct{}
	// txKeys are the settlements each unfinished transaction carries (a
	// bundle carries several), so a replacement is recorded in all.
	txKeys map[common.Hash][]common.Hash
}

// New connects to the chain, checks that it is the configured network,
// opens the store and reconciles unfinished settlements.
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

	client, err := rpc.DialContext(ctx, cfg.RPCURL)
	if err != nil {
		return nil, fmt.Errorf("dialing the chain: %w", err)
	}
	eth := ethclient.NewClient(client)
	checkCtx, cancel := context.WithTimeout(ctx, cfg.RPCTimeout)
	got, err := eth.ChainID(checkCtx)
	cancel()
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("reading the chain id: %w", err)
	}
	if got.Cmp(chainID) != 0 {
		client.Close()
		return nil, fmt.Errorf("the RPC serves chain %s, but the network is %s", got, cfg.Network)
	}
	ledger := new(payers)
	ex, err := exact.New(exact.Config{ChainID: chainID, Assets: cfg.Assets, Chain: client, Now: cfg.Now, Committed: ledger.committed})
	if err != nil {
		client.Close()
		return nil, err
	}
	// The sender replaces a stuck transaction (higher fees, same nonce) and
	// tells the service first, which records it in every settlement the
	// transaction carries; s is set before anything is sent.
	var s *Service
	snd, err := sender.New(sender.Config{Backend: eth, Batcher: client, Key: cfg.SettlerKey, ChainID: chainID, Logger: log,
		Replace: func(old, replacement *types.Transaction) error { return s.replaced(old, replacement) }})
	if err != nil {
		client.Close()
		return nil, err
	}
	var (
		st    store.Settlements = cfg.Records
		owned *store.Store
	)
	if st == nil {
		if owned, err = store.Open(store.Config{Path: cfg.StorePath}); err != nil {
			snd.Close()
			client.Close()
			return nil, err
		}
		st = owned
	}
	s = &Service{
		cfg: cfg, chainID: chainID, rpc: client, eth: eth, store: st, owned: owned, sender: snd, exact: ex, log: log, payers: ledger,
		inFlight: make(map[common.Hash]struct{}), txKeys: make(map[common.Hash][]common.Hash),
	}
	if a := cfg.AANative; a != nil {
		a.SponsorLimits.defaults()
		assets := make([]common.Address, len(cfg.Assets))
		for i, as := range cfg.Assets {
			assets[i] = as.Address
		}
		if s.aa, err = aanative.New(aanative.Config{
			ChainID: chainID, EntryPoint: a.EntryPoint, Factory: a.Factory, Settlement: a.Settlement, Paymaster: a.Paymaster,
			Assets: assets, Chain: client, Committed: ledger.committed, Now: cfg.Now,
		}); err != nil {
			s.Close()
			return nil, err
		}
		s.bundler = &bundler.BuiltIn{EntryPoint: a.EntryPoint, Sender: snd, Chain: eth, RPC: client, MaxBundle: a.MaxBundle, MaxWait: a.BundleWait, Now: cfg.Now, Logger: log.Named("bundler")}
		if a.BundlerURL != "" {
			if s.external, err = bundler.Dial(ctx, a.BundlerURL, a.EntryPoint); err != nil {
				s.Close()
				return nil, err
			}
		}
	}
	s.reconcile(ctx)
	return s, nil
}

// Close stops the service's background work (the bundler, the sender's
// repair loop) and closes the store and the chain connection. No goroutine
// of the service outlives it.
func (s *Service) Close() error {
	if s.external != nil {
		s.external.Close()
	}
	if s.bundler != nil {
		s.bundler.Close()
	}
	s.sender.Close()
	s.rpc.Close()
	if s.owned != nil {
		return s.owned.Close()
	}
	return nil
}

// carries records that the unfinished transaction hash carries the
// settlement of key.
func (s *Service) carries(hash, key common.Hash) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.txKeys[hash], key) {
		s.txKeys[hash] = append(s.txKeys[hash], key)
	}
}

// done forgets that hash carries key.
func (s *Service) done(hash, key common.Hash) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := slices.DeleteFunc(s.txKeys[hash], func(k common.Hash) bool { return k == key })
	if len(keys) == 0 {
		delete(s.txKeys, hash)
	} else {
		s.txKeys[hash] = keys
	}
}

// replaced records, before it is broadcast, that the sender replaced old
// with replacement in every settlement old carries, so a restart finds and
// rebroadcasts the transaction that will be mined.
func (s *Service) replaced(old, replacement *types.Transaction) error {
	raw, err := replacement.MarshalBinary()
	if err != nil {
		return err
	}
	s.mu.Lock()
	keys := slices.Clone(s.txKeys[old.Hash()])
	s.mu.Unlock()
	for _, key := range keys {
		if _, err := s.store.Resubmit(key, old.Hash(), replacement.Hash(), raw); err != nil {
			return err
		}
		s.carries(replacement.Hash(), key)
	}
	s.log.Info("settlement transaction replaced with higher fees", zap.Stringer("old", old.Hash()), zap.Stringer("new", replacement.Hash()), zap.Int("settlements", len(keys)))
	return nil
}

// Settler is the address that submits settlements and pays their gas.
func (s *Service) Settler() common.Address { return s.sender.Address() }

// Health reports the service's status: ok when the chain answers.
func (s *Service) Health(ctx context.Context) (*x402.Health, error) {
	h := &x402.Health{Status: "ok", Network: s.cfg.Network, Service: ServiceName, Version: Version}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := s.eth.BlockNumber(ctx); err != nil {
		h.Status = "unavailable"
		return h, fmt.Errorf("chain unreachable: %w", err)
	}
	return h, nil
}

// Supported lists what this facilitator settles, in the spec's form and
// upstream's.
func (s *Service) Supported(context.Context) (*x402.Supported, error) {
	assets := make([]string, 0, len(s.cfg.Assets))
	for _, a := range s.cfg.Assets {
		assets = append(assets, a.Address.Hex())
	}
	sup := &x402.Supported{
		X402Version: x402.Version,
		Schemes:     []x402.SupportedScheme{{Scheme: x402.SchemeExact, Networks: []string{s.cfg.Network}, Assets: assets}},
		Kinds:       []x402.SupportedKind{{X402Version: x402.Version, Scheme: x402.SchemeExact, Network: s.cfg.Network}},
		Extensions:  []string{},
		Signers:     map[string][]string{"eip155:*": {s.sender.Address().Hex()}},
	}
	if s.aa != nil {
		sup.Schemes = append(sup.Schemes, x402.SupportedScheme{Scheme: x402.SchemeAANative, Networks: []string{s.cfg.Network}, Assets: assets})
		sup.Kinds = append(sup.Kinds, x402.SupportedKind{X402Version: x402.Version, Scheme: x402.SchemeAANative, Network: s.cfg.Network, Extra: s.aa.Extra("")})
	}
	return sup, nil
}

// payment is a decoded payment, before or after verification.
type payment struct {
	scheme string
	key    common.Hash // replay key
	hash   common.Hash // the payment and what it pays for
	payer  common.Address
	payTo  common.Address
	asset  common.Address
	amount *big.Int
	auth   *exact.Authorization // exact
	aa     *aanative.Payment    // aa-native
	owner  string               // settle: who is handed the receipt
}

// decode validates the request and decodes its payment.
func (s *Service) decode(req *x402.VerifyRequest) (*payment, error) {
	if err := req.Validate(); err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "%v", err)
	}
	a, _ := x402.ParseAddress(req.PaymentRequirements.Asset)
	asset := common.Address(a)
	reqHash := requirementsHash(&req.PaymentRequirements)
	if err := schemeOf(req); err != nil {
		return nil, err
	}
	switch {
	case req.PaymentRequirements.Scheme == x402.SchemeExact:
		auth, err := exact.Decode(&req.PaymentPayload)
		if err != nil {
			return nil, err
		}
		return &payment{
			scheme: x402.SchemeExact, key: auth.Key(s.chainID, asset),
			hash:  crypto.Keccak256Hash(auth.PayloadHash().Bytes(), reqHash.Bytes()),
			payer: auth.From, payTo: auth.To, asset: asset, amount: auth.Value, auth: auth,
		}, nil
	case req.PaymentRequirements.Scheme == x402.SchemeAANative && s.aa != nil:
		pay, err := s.aa.Decode(&req.PaymentPayload)
		if err != nil {
			return nil, err
		}
		// The request hash is the payer's choice, so its replay key is
		// namespaced by chain and settlement contract: it can never equal
		// another scheme's key.
		key := crypto.Keccak256Hash([]byte("aa-native"), common.LeftPadBytes(s.chainID.Bytes(), 32), s.cfg.AANative.Settlement.Bytes(), pay.RequestHash.Bytes())
		return &payment{
			scheme: x402.SchemeAANative, key: key,
			hash:  crypto.Keccak256Hash(pay.UserOpHash.Bytes(), pay.Op.Signature, pay.Op.PaymasterAndData, reqHash.Bytes()),
			payer: pay.Op.Sender, payTo: pay.Merchant, asset: pay.Token, amount: pay.Amount, aa: pay,
		}, nil
	}
	return nil, x402.Invalid(x402.ReasonSchemeMismatch, "scheme %q is not supported; this facilitator settles %s", req.PaymentRequirements.Scheme, strings.Join(s.schemes(), " and "))
}

// schemeOf refuses a payment of one scheme presented for requirements of
// another, by what the payer says it accepted and by the shape of its
// payload, before the payload is decoded as the requirements' scheme.
func schemeOf(req *x402.VerifyRequest) error {
	want := req.PaymentRequirements.Scheme
	if got := req.PaymentPayload.Accepted.Scheme; got != want {
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payment is for scheme %q, the requirements are %q", got, want)
	}
	var shape struct {
		Authorization json.RawMessage `json:"authorization"`
		UserOp        json.RawMessage `json:"userOp"`
	}
	if json.Unmarshal(req.PaymentPayload.Payload, &shape) != nil {
		return nil // the scheme's decoder names the problem
	}
	switch {
	case want == x402.SchemeAANative && shape.Authorization != nil && shape.UserOp == nil:
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an exact authorization, the requirements are aa-native")
	case want == x402.SchemeExact && shape.UserOp != nil && shape.Authorization == nil:
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an aa-native UserOperation, the requirements are exact")
	}
	return nil
}

func (s *Service) schemes() []string {
	if s.aa != nil {
		return []string{x402.SchemeExact, x402.SchemeAANative}
	}
	return []string{x402.SchemeExact}
}

// verifyScheme runs the payment's scheme checks.
func (s *Service) verifyScheme(ctx context.Context, req *x402.VerifyRequest, p *payment) error {
	if until, refused := s.payers.refusedUntil(p.payer, s.cfg.Now()); refused {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "settlements of %s reverted on chain recently; its payments are refused until %s", p.payer, until.UTC().Format(time.RFC3339))
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	if p.aa != nil {
		return s.aa.Verify(ctx, p.aa, &req.PaymentPayload.Accepted, &req.PaymentRequirements)
	}
	return s.exact.Verify(ctx, p.auth, &req.PaymentPayload, &req.PaymentRequirements)
}

// requirementsHash identifies what a payment was settled for, so that a
// duplicate settle returns the original receipt only for the same
// requirements: a payment made for one price or recipient is never reported
// as settled for another.
func requirementsHash(r *x402.PaymentRequirements) common.Hash {
	asset, _ := x402.ParseAddress(r.Asset)
	payTo, _ := x402.ParseAddress(r.PayTo)
	amount, _ := x402.ParseAmount(r.Amount)
	return crypto.Keccak256Hash([]byte(r.Scheme), []byte{0}, []byte(r.Network), []byte{0}, asset[:], payTo[:], amount.Bytes())
}

// verify runs the scheme's checks and then the replay store.
//
// The replay store is read first: a payment this facilitator already took
// would fail the chain's checks for that very reason (a used nonce, a
// deployed account). A payment that bought its response, or failed, is
// replay; so is one a settle is working on right now. One whose settle gave
// up waiting (503) is valid: it is the same payment retried, and Settle
// resumes its settlement, or hands over its receipt, rather than starting
// another.
func (s *Service) verify(ctx context.Context, req *x402.VerifyRequest, p *payment) error {
	rec, err := s.store.Get(p.key)
	if err != nil {
		return err
	}
	if rec != nil {
		if rec.PayloadHash == p.hash {
			switch {
			case s.busy(p.key):
				return x402.Invalid(x402.ReasonReplay, "this payment is being settled for another request")
			case !rec.State.Final(), rec.State == store.StateSettled && rec.Consumer == "":
				return nil
			}
		}
		return x402.Invalid(x402.ReasonReplay, "this payment was already used (%s)", rec.State)
	}
	return s.verifyScheme(ctx, req, p)
}

// ErrUnavailable wraps verification failures that say nothing of the
// payment: the chain or the store could not be read.
var ErrUnavailable = errors.New("facilitator unavailable")

// Verify checks a payment without settling it. A refused payment is a
// response with isValid false; an error means the checks could not be made
// (it wraps ErrUnavailable).
func (s *Service) Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	p, err := s.decode(req)
	if err == nil {
		err = s.verify(ctx, req, p)
	}
	var xe *x402.Error
	switch {
	case err == nil:
		return &x402.VerifyResponse{IsValid: true, Payer: p.payer.Hex()}, nil
	case errors.As(err, &xe):
		payer := ""
		if p != nil {
			payer = p.payer.Hex()
		}
		return xe.Response(payer), nil
	default:
		s.log.Warn("verify could not complete", zap.Error(err))
		return &x402.VerifyResponse{IsValid: false, InvalidMessage: "the facilitator could not reach the chain; retry"},
			fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
}

// failure builds a settle response with an error code.
func (s *Service) failure(code x402.ErrorCode, message string, p *payment) *x402.SettleResponse {
	r := &x402.SettleResponse{X402Version: x402.Version, Network: s.cfg.Network, ErrorCode: code, Message: message}
	if p != nil {
		r.Scheme, r.Payer = p.scheme, p.payer.Hex()
		if p.aa != nil {
			r.UserOpHash, r.RequestHash = p.aa.UserOpHash.Hex(), p.aa.RequestHash.Hex()
		}
	}
	return r
}

// Settle verifies a payment and settles it on chain, idempotently per replay
// key. The answer is always a response; its error code says what happened.
// The error is always nil: it is there so that Service and Client share a
// method set.
//
// The receipt of a settled payment is handed to one settle only: the first
// to be answered with it, named by the idempotency key in ctx (see
// [x402.WithIdempotencyKey]), and to that settle's retries. Any other
// settle presenting the payment gets replay, so one payment buys one
// response. A settle without a key is its own owner and cannot be retried.
func (s *Service) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	p, err := s.decode(req)
	if err != nil {
		return s.verifyFailed(err, nil), nil
	}
	p.owner = settleOwner(ctx)
	if !s.enter(p.key) {
		return s.failure(x402.ErrorInFlight, "settlement of this payment is in progress; retry shortly", p), nil
	}
	defer s.leave(p.key)

	rec, err := s.store.Get(p.key)
	if err != nil {
		s.log.Error("reading the store", zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p), nil
	}
	if rec != nil {
		if rec.PayloadHash != p.hash {
			return s.verifyFailed(x402.Invalid(x402.ReasonReplay, "this authorization was already submitted for other requirements, or another payment used its nonce"), p), nil
		}
		switch rec.State {
		case store.StateSettled:
			return s.handOver(p), nil
		case store.StateFailed:
			return rec.Response, nil // the original answer; nothing was paid
		case store.StateSubmitted:
			return s.resume(ctx, req, p, rec), nil
		}
		// A claim left by a process that stopped before signing: nothing
		// was broadcast, so settle afresh under the same claim.
		s.payers.reserve(p.key, p.payer, p.asset, p.amount)
		return s.submit(ctx, req, p, rec), nil
	}

	// The payer's payments are verified and reserved one at a time, so
	// that what its other settlements in flight will take is counted
	// against its balance before anything is broadcast.
	unlock := s.payers.lock(p.payer, p.asset)
	if err := s.verifyScheme(ctx, req, p); err != nil {
		unlock()
		return s.verifyFailed(err, p), nil
	}
	s.payers.reserve(p.key, p.payer, p.asset, p.amount)
	unlock()
	now := s.cfg.Now().UTC()
	rec = &store.Record{
		Key: p.key, PayloadHash: p.hash, State: store.StateClaimed,
		Scheme: p.scheme, Network: s.cfg.Network,
		Payer: p.payer, PayTo: p.payTo, Asset: p.asset, Amount: p.amount,
		Created: now, Updated: now,
	}
	if p.aa != nil {
		rec.UserOpHash, rec.RequestHash = p.aa.UserOpHash, p.aa.RequestHash
	}
	existing, claimed, err := s.store.Claim(*rec)
	if err != nil {
		s.payers.release(p.key)
		s.log.Error("claiming a replay key", zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p), nil
	}
	if !claimed {
		s.payers.release(p.key)
		// Another process sharing the store claimed it between our read and
		// our claim.
		switch {
		case existing.PayloadHash != p.hash:
		case existing.State == store.StateSettled:
			return s.handOver(p), nil
		case existing.State == store.StateFailed:
			return existing.Response, nil
		}
		return s.failure(x402.ErrorInFlight, "settlement of this payment is in progress; retry shortly", p), nil
	}
	return s.submit(ctx, req, p, rec), nil
}

// verifyFailed maps a verification error to a settle response.
func (s *Service) verifyFailed(err error, p *payment) *x402.SettleResponse {
	var xe *x402.Error
	if errors.As(err, &xe) {
		r := s.failure(x402.ErrorVerifyFailed, xe.Error(), p)
		r.InvalidReason = xe.Reason
		return r
	}
	s.log.Warn("settle: verification could not complete", zap.Error(err))
	return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
}

// settleOwner names the owner of a settle: a digest of its idempotency
// key, or a random name for a settle without one.
func settleOwner(ctx context.Context) string {
	if k := x402.IdempotencyKey(ctx); k != "" {
		sum := sha256.Sum256([]byte(k))
		return hex.EncodeToString(sum[:])
	}
	var b [16]byte
	rand.Read(b[:])
	return "anonymous:" + hex.EncodeToString(b[:])
}

// handOver answers a settle of a payment that is settled: its receipt, if
// this settle owns the response it bought (or nobody does yet, because the
// settle that paid gave up waiting); replay otherwise.
func (s *Service) handOver(p *payment) *x402.SettleResponse {
	rec, ok, err := s.store.Consume(p.key, p.owner)
	if err != nil {
		s.log.Error("handing over a receipt", zap.Stringer("key", p.key), zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	if !ok {
		return s.verifyFailed(x402.Invalid(x402.ReasonReplay, "this payment already paid for a response"), p)
	}
	return rec.Response
}

// busy reports whether a settle of key is running in this process.
func (s *Service) busy(key common.Hash) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.inFlight[key]
	return ok
}

func (s *Service) enter(key common.Hash) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, busy := s.inFlight[key]; busy {
		return false
	}
	s.inFlight[key] = struct{}{}
	return true
}

func (s *Service) leave(key common.Hash) {
	s.mu.Lock()
	delete(s.inFlight, key)
	s.mu.Unlock()
}

// release gives up a claim that produced no delivered transaction, so the
// payment can be settled by a later attempt.
func (s *Service) release(p *payment) {
	s.payers.release(p.key)
	s.mu.Lock()
	for hash, keys := range s.txKeys {
		if keys = slices.DeleteFunc(keys, func(k common.Hash) bool { return k == p.key }); len(keys) == 0 {
			delete(s.txKeys, hash)
		} else {
			s.txKeys[hash] = keys
		}
	}
	s.mu.Unlock()
	if err := s.store.Release(p.key); err != nil {
		s.log.Error("releasing a claim", zap.Stringer("key", p.key), zap.Error(err))
	}
}

// submit signs the settlement, stores it, broadcasts it and waits for it.
// The record is claimed and holds no transaction yet.
func (s *Service) submit(ctx context.Context, req *x402.SettleRequest, p *payment, rec *store.Record) *x402.SettleResponse {
	if p.aa != nil {
		return s.submitOp(ctx, p, rec)
	}
	call := s.exact.Call(p.auth)
	gas, err := s.sender.Estimate(ctx, p.asset, call)
	if err != nil {
		s.release(p)
		if errors.Is(err, sender.ErrUnreachable) {
			return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
		}
		s.log.Info("a settlement's gas estimate reverts", zap.Stringer("payer", p.payer), zap.Error(err))
		r := s.failure(x402.ErrorVerifyFailed, string(x402.ReasonInvalidInnerPayload)+": the transfer would revert on chain", p)
		r.InvalidReason = x402.ReasonInvalidInnerPayload
		return r
	}
	for attempt := 0; ; attempt++ {
		tx, err := s.sender.Sign(ctx, p.asset, call, gas)
		if err != nil {
			s.release(p)
			if errors.Is(err, sender.ErrUnreachable) {
				return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
			}
			s.log.Error("signing a settlement", zap.Error(err))
			return s.failure(x402.ErrorInternal, "internal error", p)
		}
		raw, err := tx.MarshalBinary()
		if err != nil {
			s.sender.Release(tx.Nonce())
			s.release(p)
			return s.failure(x402.ErrorInternal, "internal error", p)
		}
		rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, tx.Hash(), raw, s.cfg.Now().UTC()
		s.carries(tx.Hash(), rec.Key)
		if err := s.store.Submit(rec); err != nil {
			s.sender.Release(tx.Nonce())
			s.release(p)
			s.log.Error("storing a signed settlement", zap.Error(err))
			return s.failure(x402.ErrorInternal, "internal error", p)
		}
		err = s.sender.Send(ctx, tx)
		switch {
		case err == nil:
			return s.await(ctx, p, rec)
		case errors.Is(err, sender.ErrNonceTooLow) && attempt < 3:
			continue // the nonce was taken; sign again with a fresh one
		case errors.Is(err, sender.ErrUnreachable):
			s.release(p)
			return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
		case errors.Is(err, sender.ErrRejected), errors.Is(err, sender.ErrNonceTooLow):
			s.release(p)
			s.log.Error("the node refused a settlement", zap.Stringer("tx", tx.Hash()), zap.Error(err))
			return s.failure(x402.ErrorInternal, "the settlement transaction was refused by the node", p)
		default:
			// Delivery unknown: keep the record; a retry resumes it.
			s.log.Warn("broadcast outcome unknown", zap.Stringer("tx", tx.Hash()), zap.Error(err))
			return s.failure(x402.ErrorBundlerUnreachable, "the settlement was sent but not confirmed; retry after Retry-After", p)
		}
	}
}

// resume continues a settlement whose transaction was signed earlier, by this
// process or one before it: it waits for that transaction, rebroadcasting it
// if the node does not know it, and signs anew only if it can never be mined.
func (s *Service) resume(ctx context.Context, req *x402.SettleRequest, p *payment, rec *store.Record) *x402.SettleResponse {
	if len(rec.RawTx) == 0 && p.aa != nil && s.external != nil {
		return s.resumeExternal(ctx, p, rec)
	}
	if receipt, err := s.eth.TransactionReceipt(ctx, rec.TxHash); err == nil {
		return s.finish(rec, receipt, p.owner)
	}
	var tx types.Transaction
	if err := tx.UnmarshalBinary(rec.RawTx); err != nil {
		s.log.Error("stored transaction does not decode", zap.Stringer("key", rec.Key), zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	err := s.sender.Rebroadcast(ctx, &tx)
	switch {
	case err == nil:
		return s.await(ctx, p, rec)
	case errors.Is(err, sender.ErrNonceTooLow):
		// Its nonce went to another transaction and it has no receipt: it
		// will never be mined, so nothing was paid by it. Verify again (the
		// authorization may since have been used) and sign a new one; its
		// own reservation is not counted against it meanwhile.
		s.payers.release(p.key)
		verr := s.verifyScheme(ctx, req, p)
		s.payers.reserve(p.key, p.payer, p.asset, p.amount)
		if verr != nil {
			if receipt, err := s.eth.TransactionReceipt(ctx, rec.TxHash); err == nil {
				return s.finish(rec, receipt, p.owner) // mined after all
			}
			resp := s.verifyFailed(verr, p)
			if resp.ErrorCode == x402.ErrorVerifyFailed {
				s.release(p)
			}
			return resp
		}
		s.done(rec.TxHash, rec.Key)
		rec.State, rec.TxHash, rec.RawTx = store.StateClaimed, common.Hash{}, nil
		return s.submit(ctx, req, p, rec)
	default:
		return s.failure(x402.ErrorBundlerUnreachable, "the settlement was sent but not confirmed; retry after Retry-After", p)
	}
}

// await waits up to ReceiptTimeout for the record's transaction.
func (s *Service) await(ctx context.Context, p *payment, rec *store.Record) *x402.SettleResponse {
	wctx, cancel := context.WithTimeout(ctx, s.cfg.ReceiptTimeout)
	defer cancel()
	receipt, err := s.sender.Wait(wctx, rec.TxHash)
	if err != nil {
		s.log.Info("receipt not seen in time", zap.Stringer("tx", rec.TxHash), zap.Duration("timeout", s.cfg.ReceiptTimeout))
		r := s.failure(x402.ErrorReceiptTimeout, "the settlement transaction is not mined yet; retry after Retry-After", p)
		r.TransactionHash = rec.TxHash.Hex()
		return r
	}
	return s.finish(rec, receipt, p.owner)
}

// finish records the outcome of a mined settlement and returns its response.
// A success is handed to owner, the settle that waited for it; "" (start-up
// reconciliation) leaves it for the payment's next settle.
func (s *Service) finish(rec *store.Record, receipt *types.Receipt, owner string) *x402.SettleResponse {
	// The receipt may be of a replacement of the stored transaction.
	s.done(rec.TxHash, rec.Key)
	s.done(receipt.TxHash, rec.Key)
	rec.TxHash = receipt.TxHash
	resp, v := s.outcome(rec, receipt)
	if v == verdictNotIncluded {
		// Nothing happened to the payment: the bundle went without it (the
		// EntryPoint dropped it, or the bundle reverted). Its payer did not
		// pay, so it is released for a retry rather than failed for good.
		s.payers.release(rec.Key)
		if err := s.store.Release(rec.Key); err != nil {
			s.log.Error("releasing an operation its bundle left out", zap.Stringer("key", rec.Key), zap.Error(err))
		}
		resp.ErrorCode, resp.Message = x402.ErrorBundlerUnreachable, "the bundle was mined without the operation; retry with the same payment"
		return resp
	}
	rec.State, rec.Response, rec.Updated = store.StateFailed, resp, s.cfg.Now().UTC()
	if resp.Success {
		rec.State, rec.Consumer = store.StateSettled, owner
	}
	if v == verdictReverted {
		// The payer emptied its balance or used its authorization between
		// verification and inclusion, at the settler's or the paymaster's
		// cost: it waits in the penalty box.
		s.payers.reverted(rec.Payer, s.cfg.Now())
	}
	s.payers.release(rec.Key)
	err := s.store.Finish(rec)
	switch {
	case errors.Is(err, store.ErrTransition):
		// Another settle of the payment finished it first: its record,
		// and its consumer, stand.
		if stored, gerr := s.store.Get(rec.Key); gerr == nil && stored != nil && stored.State.Final() {
			if stored.State == store.StateSettled && stored.Consumer != owner {
				return s.outcomeReplay(stored)
			}
			return stored.Response
		}
		s.log.Error("finishing a settlement", zap.Stringer("tx", rec.TxHash), zap.Error(err))
	case err != nil:
		// The chain holds the truth; the next duplicate reconciles again.
		s.log.Error("storing a settlement outcome", zap.Stringer("tx", rec.TxHash), zap.Error(err))
	}
	return resp
}

// outcomeReplay is the answer to a settle that finished a payment another
// settle had already finished and consumed.
func (s *Service) outcomeReplay(rec *store.Record) *x402.SettleResponse {
	return &x402.SettleResponse{X402Version: x402.Version, Network: rec.Network, Scheme: rec.Scheme, Payer: rec.Payer.Hex(),
		ErrorCode: x402.ErrorVerifyFailed, Message: string(x402.ReasonReplay) + ": this payment already paid for a response"}
}

// verdict is what a mined settlement transaction means for its payment.
type verdict int

const (
	// verdictFinal: settled, or failed through no act of the payer's.
	verdictFinal verdict = iota
	// verdictReverted: the payment's own execution reverted on chain.
	verdictReverted
	// verdictNotIncluded: the bundle was mined without the operation.
	verdictNotIncluded
)

// outcome reads a receipt: the settlement counts only if it succeeded and
// the asset logged the transfer from payer to payTo of the amount.
func (s *Service) outcome(rec *store.Record, receipt *types.Receipt) (*x402.SettleResponse, verdict) {
	r := &x402.SettleResponse{
		X402Version: x402.Version, Scheme: rec.Scheme, Network: rec.Network,
		TransactionHash: receipt.TxHash.Hex(), Payer: rec.Payer.Hex(),
		Amount: rec.Amount.String(), Asset: rec.Asset.Hex(),
	}
	if rec.Scheme == x402.SchemeAANative {
		r.UserOpHash, r.RequestHash = rec.UserOpHash.Hex(), rec.RequestHash.Hex()
		op, found := bundler.Outcome(receipt, rec.UserOpHash)
		switch {
		case !found:
			r.ErrorCode, r.Message = x402.ErrorUserOpFailed, "the bundle was mined without the operation"
			return r, verdictNotIncluded
		case !op.Success:
			r.ErrorCode, r.Message = x402.ErrorUserOpFailed, "the UserOperation reverted: "+bundler.DecodeRevert(op.RevertReason)
			return r, verdictReverted
		}
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		r.ErrorCode, r.Message = x402.ErrorVerifyFailed, "invalid_inner_payload: the settlement transaction reverted on chain"
		return r, verdictReverted
	}
	if !hasTransfer(receipt, rec) {
		r.ErrorCode, r.Message = x402.ErrorInternal, "the settlement transaction did not log the transfer"
		return r, verdictFinal
	}
	r.Success = true
	return r, verdictFinal
}

// transferTopic is keccak256("Transfer(address,address,uint256)").
var transferTopic = common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")

func hasTransfer(receipt *types.Receipt, rec *store.Record) bool {
	for _, l := range receipt.Logs {
		if l.Address != rec.Asset || len(l.Topics) != 3 || l.Topics[0] != transferTopic {
			continue
		}
		if common.BytesToAddress(l.Topics[1][:]) == rec.Payer &&
			common.BytesToAddress(l.Topics[2][:]) == rec.PayTo &&
			new(big.Int).SetBytes(l.Data).Cmp(rec.Amount) == 0 {
			return true
		}
	}
	return false
}

// reconcile settles the fate of records left unfinished by an earlier
// process: claims that never produced a transaction are released; submitted
// transactions are finished if mined, and rebroadcast if not.
func (s *Service) reconcile(ctx context.Context) {
	recs, err := s.store.Unfinished()
	if err != nil {
		s.log.Error("listing unfinished settlements", zap.Error(err))
		return
	}
	for _, rec := range recs {
		switch rec.State {
		case store.StateClaimed:
			if err := s.store.Release(rec.Key); err != nil {
				s.log.Error("releasing a stale claim", zap.Error(err))
			}
		case store.StateSubmitted:
			s.payers.reserve(rec.Key, rec.Payer, rec.Asset, rec.Amount)
			if len(rec.RawTx) == 0 {
				continue // an external bundler has it; the next settle resumes it
			}
			rctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
			receipt, err := s.eth.TransactionReceipt(rctx, rec.TxHash)
			if err == nil {
				s.finish(rec, receipt, "")
				s.log.Info("reconciled a settlement", zap.Stringer("tx", rec.TxHash), zap.Bool("success", receipt.Status == 1))
				cancel()
				continue
			}
			var tx types.Transaction
			if tx.UnmarshalBinary(rec.RawTx) == nil {
				s.carries(tx.Hash(), rec.Key)
				if err := s.sender.Rebroadcast(rctx, &tx); err != nil {
					s.log.Warn("rebroadcasting a pending settlement", zap.Stringer("tx", rec.TxHash), zap.Error(err))
				}
			}
			cancel()
		}
	}
	if len(recs) > 0 {
		s.log.Info("reconciled unfinished settlements", zap.Int("records", len(recs)))
	}
}

// Store is the store file the service opened (Config.StorePath), where
// other services keep their state beside the settlements in named buckets
// (the paymaster's keys, the /api/v1 records and faucet times); nil when
// the records were injected (Config.Records), whose owner has the file.
func (s *Service) Store() *store.Store { return s.owned }

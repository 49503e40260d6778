// Package claimer claims and sweeps a merchant's batch-settlement
// channels. The server (package channels and the paywall) charges each
// request of a channel off chain, keeping the payer's latest voucher in
// store.Channels; the claimer turns what was charged into money: it claims
// many channels' vouchers in one claimWithSignature, signed by the
// merchant's receiver authorizer, and sweeps what was claimed to the
// receiver in the same transaction, through a facilitator's /settle
// (scheme_batch_settlement_evm.md, "Claim & Settlement Strategy").
//
// When it claims is the merchant's choice of strategies, any together:
// periodic (every Interval, whatever is unclaimed), threshold (as soon as
// a receiver's unclaimed total in a token reaches Threshold) and, always,
// on withdrawal: a channel whose payer started a timed withdrawal is
// claimed at once, before its withdrawDelay ends, since the payer gets
// back whatever is unclaimed then. The claimer reads the chain itself for
// that, in one batched call a round, because a withdrawing payer sends no
// more requests. In a fleet, one replica at a time runs a round (a lease
// in the shared store). Refund returns what a channel holds beyond what
// was charged, claiming the charges first.
package claimer

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Settler settles a payment through a facilitator; *facilitator.Service
// and *facilitator.Client (with a facilitator API key: a claim spends the
// facilitator's gas) have it.
type Settler interface {
	Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error)
}

// Chain reads the settlement contract; *ethclient.Client has it.
type Chain interface {
	CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error)
}

// LeaseBucket names the key-value space of the claimer's fleet-wide
// leases: who runs the current round, and when the last periodic claim
// was.
const LeaseBucket = "batch-settlement-claimer"

// Config configures a Claimer.
type Config struct {
	// Store holds the server's channels (store.ChannelBucket) and the
	// claimer's leases (LeaseBucket); a PostgreSQL store shared by a fleet
	// lets one replica at a time claim.
	Store store.Backend
	// Settler sends the claims and refunds.
	Settler Settler
	// Chain reads the channels' state each round, to see withdrawals and
	// what was claimed.
	Chain Chain
	// ChainID is the chain the channels are on.
	ChainID *big.Int
	// Settlement is the settlement contract; default its canonical
	// address.
	Settlement common.Address
	// Authorizer is the receiver authorizer's key, which signs the claims
	// and refunds; only channels whose receiverAuthorizer is its address
	// are claimed. It is never logged.
	Authorizer *ecdsa.PrivateKey
	// Interval, if positive, claims every channel with something
	// unclaimed once per interval (fleet-wide); zero turns the periodic
	// strategy off.
	Interval time.Duration
	// Threshold, if set, claims a receiver's channels in a token as soon
	// as what they hold unclaimed reaches it, checked each round and when
	// the server calls Notify; nil turns the threshold strategy off.
	Threshold *big.Int
	// Poll is how often a round runs: it reads the chain for withdrawals,
	// checks the threshold and the period, and retries failed claims;
	// default 1 minute, at most 5 minutes (a third of the shortest
	// withdrawDelay, 15 minutes), so that a withdrawal is claimed before
	// its delay ends.
	Poll time.Duration
	// MaxRows bounds a claim's channels; default and most 256.
	MaxRows int
	// Lease bounds a round: another replica may run one after it, should
	// this one die; default 5 minutes. It must exceed Timeout.
	Lease time.Duration
	// Timeout bounds each settle (a claim and its mining); default 2
	// minutes.
	Timeout time.Duration
	// OnEvent, if set, is told of claims, sweeps, refunds, failures and
	// withdrawals (webhooks, metrics). It must not block. An error says
	// the event was not kept (a webhook's delivery could not be stored):
	// a claim's or refund's events are told again, with the same
	// transaction, until all of them were kept (see JournalBucket), so an
	// event of a mined transaction may be told more than once, never
	// not at all; a withdrawal's is told again next round.
	OnEvent func(Event) error
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// maxRows is the most rows the facilitator takes in a claim.
const maxRows = 256

// Validate reports every missing or impossible setting.
func (c Config) Validate() error {
	var errs []error
	if c.Store == nil {
		errs = append(errs, errors.New("claimer: no store holds the channels"))
	}
	if c.Settler == nil {
		errs = append(errs, errors.New("claimer: no settler (facilitator) to send claims through"))
	}
	if c.Chain == nil {
		errs = append(errs, errors.New("claimer: no chain to read channels from"))
	}
	if c.ChainID == nil || c.ChainID.Sign() <= 0 {
		errs = append(errs, errors.New("claimer: chain id must be positive"))
	}
	if c.Authorizer == nil {
		errs = append(errs, errors.New("claimer: no receiver authorizer key to sign claims with"))
	}
	if c.Interval < 0 {
		errs = append(errs, errors.New("claimer: interval must not be negative"))
	}
	if c.Threshold != nil && c.Threshold.Sign() <= 0 {
		errs = append(errs, errors.New("claimer: threshold must be positive (leave it unset to turn the strategy off)"))
	}
	if c.Poll < 0 || c.Poll > MaxPoll {
		errs = append(errs, fmt.Errorf("claimer: poll %v: want up to %v, a third of the shortest withdrawDelay", c.Poll, MaxPoll))
	}
	if c.MaxRows < 0 || c.MaxRows > maxRows {
		errs = append(errs, fmt.Errorf("claimer: max rows %d: want 1 to %d", c.MaxRows, maxRows))
	}
	if c.Lease < 0 || c.Timeout < 0 {
		errs = append(errs, errors.New("claimer: lease and timeout must not be negative"))
	}
	if l, t := cmpOr(c.Lease, DefaultLease), cmpOr(c.Timeout, DefaultTimeout); l <= t {
		errs = append(errs, fmt.Errorf("claimer: lease %v must exceed the settle timeout %v, or two replicas may claim at once", l, t))
	}
	return errors.Join(errs...)
}

// The defaults of Config.
const (
	DefaultPoll    = time.Minute
	DefaultLease   = 5 * time.Minute
	DefaultTimeout = 2 * time.Minute
	// MaxPoll is the longest Poll: a third of the shortest withdrawDelay.
	MaxPoll = batchsettle.MinWithdrawDelay * time.Second / 3
)

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Claimer claims and sweeps a merchant's channels, and refunds them.
// Start runs its rounds until Close; Round runs one now.
type Claimer struct {
	cfg      Config
	channels *store.Channels
	leases   *store.Leases
	entries  store.KV // the journal (JournalBucket)
	dom      batchsettle.Domain
	bs       *batchsettle.X402BatchSettlement
	network  string
	address  common.Address // the authorizer's
	log      *zap.Logger

	notify chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	mu sync.Mutex
	// retry are the channels of claims that failed without a refusal
	// (reverted, dropped, unanswered), claimed next round whatever the
	// strategies say.
	retry map[common.Hash]bool
	// seen are the withdrawals already reported, by channel.
	seen map[common.Hash]int64
	// lost are the channels reported unclaimable, at the state reported.
	lost map[common.Hash]string
	// reverted are the ClaimBatch digests of claims that reverted.
	reverted map[common.Hash]bool
}

// New returns a Claimer; it opens its key-value spaces in cfg.Store and
// runs nothing until Start.
func New(cfg Config) (*Claimer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Settlement = cmpOr(cfg.Settlement, contracts.BatchSettlementAddress)
	cfg.Poll = cmpOr(cfg.Poll, DefaultPoll)
	cfg.MaxRows = cmpOr(cfg.MaxRows, maxRows)
	cfg.Lease = cmpOr(cfg.Lease, DefaultLease)
	cfg.Timeout = cmpOr(cfg.Timeout, DefaultTimeout)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	chs, err := cfg.Store.Bucket(store.ChannelBucket)
	if err != nil {
		return nil, fmt.Errorf("claimer: opening the channels: %w", err)
	}
	entries, err := cfg.Store.Bucket(JournalBucket)
	if err != nil {
		return nil, fmt.Errorf("claimer: opening its journal: %w", err)
	}
	ls, err := cfg.Store.Bucket(LeaseBucket)
	if err != nil {
		return nil, fmt.Errorf("claimer: opening its leases: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Claimer{
		cfg: cfg, channels: store.NewChannels(chs), leases: store.NewLeases(ls), entries: entries,
		dom: batchsettle.NewDomain(cfg.ChainID, cfg.Settlement), bs: batchsettle.NewX402BatchSettlement(),
		network: x402.FormatNetwork(cfg.ChainID.Uint64()), address: crypto.PubkeyToAddress(cfg.Authorizer.PublicKey),
		log: log.Named("claimer"), notify: make(chan struct{}, 1), ctx: ctx, cancel: cancel,
		retry: map[common.Hash]bool{}, seen: map[common.Hash]int64{}, lost: map[common.Hash]string{}, reverted: map[common.Hash]bool{},
	}, nil
}

// Start runs a round every Poll, and one as soon as Notify asks, until
// Close. It returns at once.
func (c *Claimer) Start() {
	c.once.Do(func() {
		c.wg.Add(1)
		go c.loop()
	})
}

// Close stops the rounds, waits for the one running, and leaves the
// store open (its owner closes it).
func (c *Claimer) Close() error {
	c.cancel()
	c.wg.Wait()
	return nil
}

// Notify tells the claimer that channel id was just charged (the server
// calls it after each commit): with a threshold set, a round runs soon to
// check it. It never blocks; notifications that arrive while a round is
// pending are one.
func (c *Claimer) Notify(id common.Hash) {
	if c.cfg.Threshold == nil {
		return
	}
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

func (c *Claimer) loop() {
	defer c.wg.Done()
	t := time.NewTicker(c.cfg.Poll)
	defer t.Stop()
	for {
		if _, err := c.Round(c.ctx); err != nil && c.ctx.Err() == nil {
			c.log.Warn("a claim round failed; the next one retries", zap.Error(err))
		}
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		case <-c.notify:
		}
	}
}

// emit tells OnEvent of e, and returns its error.
func (c *Claimer) emit(e Event) error {
	if c.cfg.OnEvent == nil {
		return nil
	}
	e.At = c.cfg.Now().UTC()
	return c.cfg.OnEvent(e)
}

// Package txapi is the /api/v1 developer API: send native coin
// (POST /api/v1/transactions), send an on-chain message
// (POST /api/v1/sendMessage), and draw test tokens from a faucet
// (POST /api/v1/userFaucet), all from one funded service wallet; and look a
// transaction up (GET /api/v1/transactions/{id}), following its receipt.
//
// The spec leaves the bodies open; the decisions are in openapi.yaml beside
// this file. In short: errors are {"error":{"code","message"}}; bodies are
// capped at 16 KiB and unknown fields are rejected; addresses must be valid
// EIP-55 when mixed-case; values are decimal strings of the coin or token.
//
// # Sending
//
// Every transaction goes out through a sender.Sender whose key is the
// wallet (Config.Sender): it hands out the wallet's nonces and delivers
// them in strict order, so concurrent requests never reuse a nonce, even
// while the node's pool lags. In a fleet, each replica's Sender shares the
// wallet's nonce journal in the fleet's PostgreSQL store (sender fleet
// mode), so replicas share the wallet too. A request's record is stored,
// pending, once its transaction is signed and before it is broadcast, so
// no transaction that may reach the chain goes unrecorded. The request is
// answered 201 once the node has the transaction.
//
// # Limits across replicas
//
// Caddy replicas of a fleet share one store (the PostgreSQL backend), and
// every limit kept in it is decided by one atomic store.KV.Update of one
// document, so the limits hold for the fleet as a whole, not per replica:
// the wallet's daily budgets, per key and in total, are one document of
// the UTC day, and the faucet's per-address cooldown, per-client count and
// daily count are another. A request is counted before its transaction is
// signed, and the count is given back if the transaction certainly never
// reached the node (the node refused it, or could not be connected to);
// when the outcome is unknown it stays counted. No lock in the process is
// needed for any of this. Only a key's per-minute rate is kept in the
// process, so each replica allows it.
package txapi

import (
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"go.uber.org/zap"
	"golang.org/x/time/rate"

	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
)

// Config configures a Service.
type Config struct {
	// Chain is the chain's client, for gas estimates, the base fee and
	// receipts.
	Chain *ethclient.Client
	// Sender sends every transaction; its key is the service wallet, whose
	// address is the Sender's. The wallet must be no other sender's key
	// (such as the facilitator's settler), or their nonces collide; but
	// the replicas of a fleet share it, each through a Sender on the
	// wallet's journal in the fleet's store (sender.Config.Journal). Its
	// Config.Replace should be nil: a record keeps the hash its transaction
	// was signed with, and the faucet's fee cap must stay that of the
	// request. The Service does not close it.
	Sender *sender.Sender
	// Store keeps transaction records, the faucet's limits and the daily
	// budgets in its buckets "txapi_records", "txapi_faucet" (key "limits")
	// and "txapi_budget" (key "wallet"): the store.Backend the Caddy app
	// opens. Services that share a store share its limits.
	Store Buckets
	// Token is the faucet's ERC-20 token, and TokenDecimals its decimals.
	Token         common.Address
	TokenDecimals uint8
	// MaxValue is the largest value of POST /transactions in wei; default
	// 0.1 of the coin (the spec's limit).
	MaxValue *big.Int
	// MaxMessage bounds a message in bytes; default 1024.
	MaxMessage int
	// FaucetMaxAmount bounds a faucet amount in atomic token units; default
	// 100 tokens.
	FaucetMaxAmount *big.Int
	// FaucetMaxGasPrice bounds a faucet request's gasPrice in wei; default
	// 100 gwei.
	FaucetMaxGasPrice *big.Int
	// FaucetNative is the native coin sent with faucet tokens, for gas;
	// default 0.01 of the coin.
	FaucetNative *big.Int
	// FaucetCooldown is the wait between faucet requests per address;
	// default 3 h (the spec's limit).
	FaucetCooldown time.Duration
	// FaucetPerClient bounds the faucet requests of one client address per
	// FaucetCooldown; default 3.
	FaucetPerClient int
	// FaucetDaily bounds the faucet requests of all callers per UTC day;
	// default 100.
	FaucetDaily int
	// Authorize checks the API key of the routes that spend the wallet
	// (POST /transactions and /sendMessage), which need the txapi:send
	// scope, and returns the key's id. It wraps ErrForbidden for a valid
	// key without the scope. Nil refuses those routes to everyone.
	Authorize func(secret string) (keyID string, err error)
	// KeyRate bounds the requests of one key per minute; default 10. Unlike
	// the other limits it is counted in the process, so each replica of a
	// fleet allows it.
	KeyRate int
	// KeyDailyBudget bounds what one key may make the wallet spend per UTC
	// day, in wei (value plus gas at the fee cap); default 1 ETH.
	KeyDailyBudget *big.Int
	// DailyBudget bounds the same for all keys together; default 5 ETH.
	DailyBudget *big.Int
	// ClientIP names a request's client address for the faucet's
	// per-client limit; default the host of RemoteAddr. The limit counts
	// the address as clientaddr.Key does: an IPv6 client by its /64.
	ClientIP func(*http.Request) string
	// BodyTimeout bounds the reading of a request body; default 10 s. A
	// body trickled slower is answered 408.
	BodyTimeout time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
}

// Buckets opens a store's named key-value spaces; store.Backend has it.
type Buckets interface {
	Bucket(name string) (store.KV, error)
}

// Validate reports what is wrong with the configuration.
func (c *Config) Validate() error {
	var errs []error
	if c.Chain == nil || c.Sender == nil || c.Store == nil {
		errs = append(errs, errors.New("chain, sender and store are required"))
	}
	if c.Token == (common.Address{}) {
		errs = append(errs, errors.New("the faucet token is required"))
	}
	return errors.Join(errs...)
}

// Service serves /api/v1. It is safe for concurrent use.
type Service struct {
	cfg     atomic.Pointer[Config] // swapped whole by SetLimits
	from    common.Address         // the wallet's, which is the Sender's
	log     *zap.Logger
	records store.KV
	faucet  store.KV // faucetState
	budget  store.KV // walletDay

	limitMu  sync.Mutex
	keyRates map[string]*rate.Limiter
}

var (
	ether = big.NewInt(1e18)
	gwei  = big.NewInt(1e9)
)

// defaults fills what c leaves unset.
func (c *Config) defaults() {
	if c.MaxValue == nil {
		c.MaxValue = new(big.Int).Div(ether, big.NewInt(10))
	}
	if c.MaxMessage == 0 {
		c.MaxMessage = 1024
	}
	if c.FaucetMaxAmount == nil {
		c.FaucetMaxAmount = new(big.Int).Mul(big.NewInt(100), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(c.TokenDecimals)), nil))
	}
	if c.FaucetMaxGasPrice == nil {
		c.FaucetMaxGasPrice = new(big.Int).Mul(big.NewInt(100), gwei)
	}
	if c.FaucetNative == nil {
		c.FaucetNative = new(big.Int).Div(ether, big.NewInt(100))
	}
	if c.FaucetCooldown == 0 {
		c.FaucetCooldown = 3 * time.Hour
	}
	if c.BodyTimeout <= 0 {
		c.BodyTimeout = 10 * time.Second
	}
	if c.FaucetPerClient <= 0 {
		c.FaucetPerClient = 3
	}
	if c.FaucetDaily <= 0 {
		c.FaucetDaily = 100
	}
	if c.KeyRate <= 0 {
		c.KeyRate = 10
	}
	if c.KeyDailyBudget == nil {
		c.KeyDailyBudget = new(big.Int).Set(ether)
	}
	if c.DailyBudget == nil {
		c.DailyBudget = new(big.Int).Mul(big.NewInt(5), ether)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// New returns a Service.
func New(cfg Config) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("txapi config: %w", err)
	}
	cfg.defaults()
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	records, err := cfg.Store.Bucket("txapi_records")
	if err != nil {
		return nil, err
	}
	faucet, err := cfg.Store.Bucket("txapi_faucet")
	if err != nil {
		return nil, err
	}
	budget, err := cfg.Store.Bucket("txapi_budget")
	if err != nil {
		return nil, err
	}
	svc := &Service{
		from: cfg.Sender.Address(), log: log, records: records, faucet: faucet, budget: budget, keyRates: map[string]*rate.Limiter{},
	}
	svc.cfg.Store(&cfg)
	return svc, nil
}

// SetLimits puts in force the limits of c (MaxValue, MaxMessage, the
// faucet's amounts, cooldown and budgets, KeyRate and the daily budgets),
// with New's defaults for those c leaves unset: a config reload's new
// values. Counts already taken (cooldowns, budgets spent) stay.
func (s *Service) SetLimits(c Config) error {
	next := *s.conf()
	next.MaxValue, next.MaxMessage = c.MaxValue, c.MaxMessage
	next.FaucetMaxAmount, next.FaucetMaxGasPrice, next.FaucetNative = c.FaucetMaxAmount, c.FaucetMaxGasPrice, c.FaucetNative
	next.FaucetCooldown, next.FaucetPerClient, next.FaucetDaily = c.FaucetCooldown, c.FaucetPerClient, c.FaucetDaily
	next.KeyRate, next.KeyDailyBudget, next.DailyBudget = c.KeyRate, c.KeyDailyBudget, c.DailyBudget
	next.defaults()
	s.cfg.Store(&next)
	return nil
}

// conf is the configuration in force.
func (s *Service) conf() *Config { return s.cfg.Load() }

// Wallet is the service wallet's address.
func (s *Service) Wallet() common.Address { return s.from }

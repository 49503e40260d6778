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
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"
	"golang.org/x/time/rate"

	"github.com/caddy-x402/caddy-x402/facilitator/store"
)

// Config configures a Service.
type Config struct {
	// Chain is the chain's client.
	Chain *ethclient.Client
	// ChainID is the chain's id.
	ChainID *big.Int
	// Wallet is the service wallet that sends every transaction. It must not
	// be a key another sender uses (such as the facilitator's settler), or
	// their nonces collide. Never logged.
	Wallet *ecdsa.PrivateKey
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
	// ClientIP names a request's client for the faucet's per-client limit;
	// default the host of RemoteAddr.
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
	if c.Chain == nil || c.ChainID == nil || c.Wallet == nil || c.Store == nil {
		errs = append(errs, errors.New("chain, chain id, wallet and store are required"))
	}
	if c.Token == (common.Address{}) {
		errs = append(errs, errors.New("the faucet token is required"))
	}
	return errors.Join(errs...)
}

// Service serves /api/v1. It is safe for concurrent use.
type Service struct {
	cfg     atomic.Pointer[Config] // swapped whole by SetLimits
	from    common.Address
	signer  types.Signer
	log     *zap.Logger
	records store.KV
	faucet  store.KV // faucetState
	budget  store.KV // walletDay

	limitMu  sync.Mutex
	keyRates map[string]*rate.Limiter

	// sendMu orders this process's transactions from the wallet: each
	// reads the pending nonce and is broadcast before the next. It decides
	// no limit. Replicas that share a wallet key still collide on nonces;
	// that is for the fleet's shared sender to solve, not this lock.
	sendMu sync.Mutex
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
		from: crypto.PubkeyToAddress(cfg.Wallet.PublicKey), signer: types.LatestSignerForChainID(cfg.ChainID),
		log: log, records: records, faucet: faucet, budget: budget, keyRates: map[string]*rate.Limiter{},
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

// errWouldFail is a transaction the node's gas estimate says reverts.
var errWouldFail = errors.New("the transaction would fail")

// refused wraps a refusal decided while sending (a budget), to be answered
// as it is.
type refused struct{ e *apiError }

func (r refused) Error() string { return r.e.Message }

// unsent wraps a failure of send that certainly left the transaction off
// the chain: it failed before the broadcast, or the broadcast never
// reached the node or was refused by it. What was counted for the
// transaction can be given back.
type unsent struct{ err error }

func (u unsent) Error() string { return u.err.Error() }
func (u unsent) Unwrap() error { return u.err }

// maybeSent reports whether err, a failure of send, leaves open that the
// transaction reached the node.
func maybeSent(err error) bool { return !errors.As(err, new(unsent)) }

// unreached reports whether err, a failure of eth_sendRawTransaction,
// shows that the node did not take the transaction: the node answered with
// a JSON-RPC error (a nonce, funds or fee refusal, or "already known" for
// a transaction another request sent and paid for), or no connection to it
// was made. Any other failure, such as a timeout or a connection lost
// mid-request, may have delivered it.
func unreached(err error) bool {
	var rpcErr rpc.Error
	if errors.As(err, &rpcErr) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// send signs and broadcasts one transaction from the wallet. feeCap, if not
// nil, is the transaction's maxFeePerGas. charge, if not nil, is asked to
// pay the transaction's most (value and gas at the fee cap) before it is
// signed; its refusal is returned wrapped in refused, and its refund is
// called if the transaction then certainly did not reach the node. A
// failure that certainly sent nothing is wrapped in unsent.
func (s *Service) send(ctx context.Context, to common.Address, value *big.Int, data []byte, feeCap *big.Int, charge func(*big.Int) (refund func(), _ *apiError)) (*types.Transaction, error) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	cfg := s.conf()
	nonce, err := cfg.Chain.PendingNonceAt(ctx, s.from)
	if err != nil {
		return nil, unsent{fmt.Errorf("reading the wallet's nonce: %w", err)}
	}
	head, err := cfg.Chain.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, unsent{fmt.Errorf("reading the latest block: %w", err)}
	}
	tip := new(big.Int).Set(gwei)
	if feeCap == nil {
		feeCap = new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	}
	tip = bigMin(tip, feeCap)
	gas, err := cfg.Chain.EstimateGas(ctx, ethereum.CallMsg{From: s.from, To: &to, Value: value, Data: data})
	if err != nil {
		return nil, unsent{fmt.Errorf("%w: %w", errWouldFail, err)}
	}
	refund := func() {}
	if charge != nil {
		r, e := charge(spend(value, gas+gas/5, feeCap))
		if e != nil {
			return nil, refused{e}
		}
		refund = r
	}
	tx, err := types.SignNewTx(cfg.Wallet, s.signer, &types.DynamicFeeTx{
		ChainID: cfg.ChainID, Nonce: nonce, To: &to, Value: value, Data: data,
		Gas: gas + gas/5, GasTipCap: tip, GasFeeCap: feeCap,
	})
	if err != nil {
		refund()
		return nil, unsent{fmt.Errorf("signing: %w", err)}
	}
	if err := cfg.Chain.SendTransaction(ctx, tx); err != nil {
		err = fmt.Errorf("broadcasting: %w", err)
		if unreached(err) {
			refund()
			return nil, unsent{err}
		}
		return nil, err
	}
	return tx, nil
}

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

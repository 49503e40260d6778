// Package sender signs and broadcasts the facilitator's settlement
// transactions from one settler key, and waits for their receipts.
//
// A local nonce manager hands out nonces, so many settlements can be in
// flight at once without waiting on each other's receipts. Send errors are
// classified by whether the transaction can have reached the node, because
// that decides whether a payment may be retried with a new transaction or
// must wait for the one already out.
package sender

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"
)

// Backend is the chain access a Sender needs; *ethclient.Client has it.
type Backend interface {
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
	SuggestGasTipCap(ctx context.Context) (*big.Int, error)
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error)
	SendTransaction(ctx context.Context, tx *types.Transaction) error
	TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
}

var (
	// ErrUnreachable means the node could not be reached: the transaction was
	// certainly not delivered, and its nonce was released.
	ErrUnreachable = errors.New("node unreachable")
	// ErrNonceTooLow means the node has already seen the nonce: the
	// transaction can never be mined and must be signed again.
	ErrNonceTooLow = errors.New("nonce too low")
	// ErrRejected means the node refused the transaction (for example the
	// settler lacks ETH for gas); it was not delivered.
	ErrRejected = errors.New("transaction rejected by the node")
)

// Config configures a Sender.
type Config struct {
	// Backend is the chain.
	Backend Backend
	// Key is the settler key. It is never logged.
	Key *ecdsa.PrivateKey
	// ChainID is the chain's id.
	ChainID *big.Int
	// PollInterval is the longest pause between receipt polls; polling
	// starts at 5 ms and backs off to it. Default 250 ms.
	PollInterval time.Duration
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
}

// Validate reports what is wrong with the configuration.
func (c Config) Validate() error {
	var errs []error
	if c.Backend == nil {
		errs = append(errs, errors.New("backend is missing"))
	}
	if c.Key == nil {
		errs = append(errs, errors.New("settler key is missing"))
	}
	if c.ChainID == nil || c.ChainID.Sign() <= 0 {
		errs = append(errs, errors.New("chain id is missing"))
	}
	return errors.Join(errs...)
}

// Sender sends transactions from one key. It is safe for concurrent use.
type Sender struct {
	cfg    Config
	from   common.Address
	signer types.Signer
	log    *zap.Logger

	mu     sync.Mutex
	nonce  uint64
	synced bool

	feeMu   sync.Mutex
	tip     *big.Int
	baseFee *big.Int
	feeAt   time.Time
}

// New returns a Sender.
func New(cfg Config) (*Sender, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 250 * time.Millisecond
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return &Sender{
		cfg:    cfg,
		from:   crypto.PubkeyToAddress(cfg.Key.PublicKey),
		signer: types.LatestSignerForChainID(cfg.ChainID),
		log:    log,
	}, nil
}

// Address is the settler's address.
func (s *Sender) Address() common.Address { return s.from }

// fees returns the tip and fee cap, refreshed at most once a second.
func (s *Sender) fees(ctx context.Context) (tip, feeCap *big.Int, err error) {
	s.feeMu.Lock()
	defer s.feeMu.Unlock()
	if s.tip == nil || time.Since(s.feeAt) > time.Second {
		head, err := s.cfg.Backend.HeaderByNumber(ctx, nil)
		if err != nil {
			return nil, nil, classify(err)
		}
		tip, err := s.cfg.Backend.SuggestGasTipCap(ctx)
		if err != nil {
			return nil, nil, classify(err)
		}
		s.tip, s.baseFee, s.feeAt = tip, head.BaseFee, time.Now()
		if s.baseFee == nil {
			s.baseFee = new(big.Int)
		}
	}
	// Twice the base fee survives six full blocks of base-fee growth.
	feeCap = new(big.Int).Add(new(big.Int).Mul(s.baseFee, big.NewInt(2)), s.tip)
	return new(big.Int).Set(s.tip), feeCap, nil
}

// Estimate returns the gas a call from the settler needs, with a quarter of
// headroom. A call that would revert is an error carrying the revert.
func (s *Sender) Estimate(ctx context.Context, to common.Address, data []byte) (uint64, error) {
	gas, err := s.cfg.Backend.EstimateGas(ctx, ethereum.CallMsg{From: s.from, To: &to, Data: data})
	if err != nil {
		if c := classify(err); errors.Is(c, ErrUnreachable) {
			return 0, c
		}
		return 0, fmt.Errorf("estimating gas: %w", err)
	}
	return gas + gas/4, nil
}

// Sign allocates the next nonce and signs a call to `to`.
func (s *Sender) Sign(ctx context.Context, to common.Address, data []byte, gas uint64) (*types.Transaction, error) {
	tip, feeCap, err := s.fees(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if !s.synced {
		n, err := s.cfg.Backend.PendingNonceAt(ctx, s.from)
		if err != nil {
			s.mu.Unlock()
			return nil, classify(err)
		}
		s.nonce, s.synced = n, true
	}
	nonce := s.nonce
	s.nonce++
	s.mu.Unlock()

	tx, err := types.SignNewTx(s.cfg.Key, s.signer, &types.DynamicFeeTx{
		ChainID: s.cfg.ChainID, Nonce: nonce, To: &to, Data: data, Gas: gas,
		GasTipCap: tip, GasFeeCap: feeCap,
	})
	if err != nil {
		s.Release()
		return nil, fmt.Errorf("signing: %w", err)
	}
	return tx, nil
}

// Release makes the next Sign read the nonce from the node again. Call it
// when a signed transaction will not be delivered, so its nonce is reused
// rather than leaving a gap that would stall every later transaction.
func (s *Sender) Release() {
	s.mu.Lock()
	s.synced = false
	s.mu.Unlock()
}

// Send broadcasts tx. A transaction the node already has counts as sent.
// ErrUnreachable and ErrRejected mean it was not delivered (and its nonce is
// released); ErrNonceTooLow means it never can be. Any other error leaves
// delivery unknown.
func (s *Sender) Send(ctx context.Context, tx *types.Transaction) error {
	err := s.cfg.Backend.SendTransaction(ctx, tx)
	if err == nil {
		return nil
	}
	err = classify(err)
	switch {
	case errors.Is(err, errAlreadyKnown):
		return nil
	case errors.Is(err, ErrUnreachable), errors.Is(err, ErrRejected), errors.Is(err, ErrNonceTooLow):
		s.Release()
	}
	if !errors.Is(err, ErrUnreachable) {
		s.log.Warn("broadcast failed", zap.Stringer("tx", tx.Hash()), zap.Uint64("nonce", tx.Nonce()), zap.Error(err))
	}
	return err
}

var errAlreadyKnown = errors.New("already known")

// classify maps a node or transport error onto the sentinels above.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "connection refused"), strings.Contains(msg, "no such host"):
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	case strings.Contains(msg, "already known"):
		return errAlreadyKnown
	case strings.Contains(msg, "nonce too low"):
		return fmt.Errorf("%w: %v", ErrNonceTooLow, err)
	case strings.Contains(msg, "insufficient funds"), strings.Contains(msg, "underpriced"),
		strings.Contains(msg, "intrinsic gas"), strings.Contains(msg, "exceeds block gas limit"),
		strings.Contains(msg, "fee cap"), strings.Contains(msg, "invalid sender"):
		return fmt.Errorf("%w: %v", ErrRejected, err)
	}
	return err
}

// Wait polls for the receipt of hash until it is mined or ctx is done, in
// which case it returns ctx's error.
func (s *Sender) Wait(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	pause := 5 * time.Millisecond
	for {
		receipt, err := s.cfg.Backend.TransactionReceipt(ctx, hash)
		if err == nil {
			return receipt, nil
		}
		if !errors.Is(err, ethereum.NotFound) {
			if c := classify(err); errors.Is(c, ErrUnreachable) {
				s.log.Debug("receipt poll: node unreachable", zap.Stringer("tx", hash))
			} else if ctx.Err() == nil {
				s.log.Debug("receipt poll failed", zap.Stringer("tx", hash), zap.Error(err))
			}
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		pause = min(pause*2, s.cfg.PollInterval)
	}
}

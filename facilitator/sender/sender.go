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
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
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

// Batcher sends JSON-RPC batches; *rpc.Client has it. The Sender uses it to
// deliver a run of transactions in nonce order in one round trip.
type Batcher interface {
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

var (
	// ErrUnreachable means the node could not be reached: the transaction was
	// certainly not delivered, and its nonce was released.
	ErrUnreachable = errors.New("node unreachable")
	// ErrNonceTooLow means the transaction's nonce can no longer be used: it
	// must be signed again.
	ErrNonceTooLow = errors.New("nonce too low")
	// ErrRejected means the node refused the transaction (for example the
	// settler lacks ETH for gas); it was not delivered.
	ErrRejected = errors.New("transaction rejected by the node")
)

// Config configures a Sender.
type Config struct {
	// Backend is the chain.
	Backend Backend
	// Batcher delivers transactions; usually the same connection as Backend.
	Batcher Batcher
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
	if c.Backend == nil || c.Batcher == nil {
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
//
// Nodes keep only a few transactions of an account whose lower nonces have
// not arrived (geth: 64) and silently drop the rest, which leaves a nonce
// gap that stalls everything after it. So the Sender delivers strictly in
// nonce order: a transaction handed to Send waits until every lower nonce
// has been sent, and contiguous runs go out in one batch. A signed
// transaction that will not be sent must be given to Release, which fills
// its nonce with a no-op transfer so the run can go on.
type Sender struct {
	cfg    Config
	from   common.Address
	signer types.Signer
	log    *zap.Logger

	flush sync.Mutex // held while a run is collected and delivered, so runs go out in order

	mu     sync.Mutex
	synced bool
	epoch  uint64            // bumped on every resync; older signed transactions are stale
	next   uint64            // next nonce to hand out
	sent   uint64            // every nonce below has been delivered or filled
	ready  map[uint64]*entry // handed to Send or Release, waiting for their turn
	epochs map[uint64]uint64 // nonce -> epoch it was handed out in, until delivered

	feeMu   sync.Mutex
	tip     *big.Int
	baseFee *big.Int
	feeAt   time.Time
}

// entry is a nonce waiting for its turn, with its transaction; a nil tx
// means the nonce was released and is filled with a no-op transfer.
type entry struct {
	nonce uint64
	tx    *types.Transaction
	done  chan error
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
		ready:  make(map[uint64]*entry),
		epochs: make(map[uint64]uint64),
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
		// Only a JSON-RPC error is the node's verdict on the call; anything
		// else (refused, EOF, timeout) means it was not evaluated, and an
		// estimate sends nothing, so that is unreachable.
		var rerr rpc.Error
		if !errors.As(err, &rerr) {
			return 0, fmt.Errorf("%w: estimating gas: %v", ErrUnreachable, err)
		}
		return 0, fmt.Errorf("estimating gas: %w", err)
	}
	return gas + gas/4, nil
}

// Sign hands out the next nonce and signs a call to `to` with it. The
// transaction must then be given to Send or Release.
func (s *Sender) Sign(ctx context.Context, to common.Address, data []byte, gas uint64) (*types.Transaction, error) {
	tip, feeCap, err := s.fees(ctx)
	if err != nil {
		return nil, err
	}
	nonce, err := s.allocate(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := s.sign(nonce, to, data, gas, tip, feeCap)
	if err != nil {
		s.Release(nonce)
		return nil, fmt.Errorf("signing: %w", err)
	}
	return tx, nil
}

func (s *Sender) sign(nonce uint64, to common.Address, data []byte, gas uint64, tip, feeCap *big.Int) (*types.Transaction, error) {
	return types.SignNewTx(s.cfg.Key, s.signer, &types.DynamicFeeTx{
		ChainID: s.cfg.ChainID, Nonce: nonce, To: &to, Data: data, Gas: gas, GasTipCap: tip, GasFeeCap: feeCap,
	})
}

func (s *Sender) allocate(ctx context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.synced {
		n, err := s.cfg.Backend.PendingNonceAt(ctx, s.from)
		if err != nil {
			return 0, classify(err)
		}
		s.synced, s.next, s.sent = true, n, n
		s.epoch++
		clear(s.epochs)
	}
	nonce := s.next
	s.next++
	s.epochs[nonce] = s.epoch
	return nonce, nil
}

// Release gives up the signed transaction with this nonce without sending
// it. Its nonce is filled with a 0-value transfer to the settler, so the
// transactions after it are not stalled.
func (s *Sender) Release(nonce uint64) {
	s.mu.Lock()
	if _, ok := s.epochs[nonce]; !ok {
		s.mu.Unlock()
		return // stale: a resync already made it moot
	}
	s.ready[nonce] = &entry{nonce: nonce, done: make(chan error, 1)}
	s.mu.Unlock()
	go s.deliver(context.Background())
}

// Send delivers tx once every lower nonce has been delivered, and returns
// the node's verdict. A transaction the node already has counts as sent.
// ErrUnreachable and ErrRejected mean it was not delivered; ErrNonceTooLow
// means it never can be and must be signed again. Any other error leaves
// delivery unknown.
func (s *Sender) Send(ctx context.Context, tx *types.Transaction) error {
	e := &entry{nonce: tx.Nonce(), tx: tx, done: make(chan error, 1)}
	s.mu.Lock()
	if ep, ok := s.epochs[tx.Nonce()]; !ok || ep != s.epoch {
		s.mu.Unlock()
		return fmt.Errorf("%w: nonce %d was handed out before a resync", ErrNonceTooLow, tx.Nonce())
	}
	s.ready[tx.Nonce()] = e
	s.mu.Unlock()
	s.deliver(ctx)
	select {
	case err := <-e.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// deliver sends the contiguous run of ready transactions from the lowest
// unsent nonce, in order, in one batch.
func (s *Sender) deliver(ctx context.Context) {
	s.flush.Lock()
	defer s.flush.Unlock()
	s.mu.Lock()
	var run []*entry
	for {
		e, ok := s.ready[s.sent]
		if !ok {
			break
		}
		delete(s.ready, s.sent)
		delete(s.epochs, s.sent)
		run = append(run, e)
		s.sent++
	}
	s.mu.Unlock()
	if len(run) == 0 {
		return
	}
	batch := make([]rpc.BatchElem, len(run))
	for i, e := range run {
		if e.tx == nil {
			tx, err := s.filler(ctx, e.nonce)
			if err != nil {
				s.log.Warn("signing a nonce filler", zap.Uint64("nonce", e.nonce), zap.Error(err))
			}
			e.tx = tx
		}
		var raw []byte
		if e.tx != nil {
			raw, _ = e.tx.MarshalBinary()
		}
		batch[i] = rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Bytes(raw)}, Result: new(common.Hash)}
	}
	err := s.cfg.Batcher.BatchCallContext(context.WithoutCancel(ctx), batch)
	resync := false
	for i, e := range run {
		elErr := err
		if elErr == nil {
			elErr = batch[i].Error
		}
		elErr = classify(elErr)
		switch {
		case elErr == nil, errors.Is(elErr, errAlreadyKnown):
			elErr = nil
		case errors.Is(elErr, ErrUnreachable), errors.Is(elErr, ErrRejected), errors.Is(elErr, ErrNonceTooLow):
			// The node's nonce is not where we thought: read it again.
			resync = true
		}
		if elErr != nil && !errors.Is(elErr, ErrUnreachable) {
			s.log.Warn("broadcast failed", zap.Uint64("nonce", e.nonce), zap.Error(elErr))
		}
		e.done <- elErr
	}
	if resync {
		// Whatever waits for its turn was signed against nonces that are no
		// longer right: tell its senders to sign again.
		s.mu.Lock()
		s.synced = false
		dropped := make([]*entry, 0, len(s.ready))
		for _, e := range s.ready {
			dropped = append(dropped, e)
		}
		clear(s.ready)
		s.mu.Unlock()
		for _, e := range dropped {
			e.done <- fmt.Errorf("%w: the sender resynchronized its nonce", ErrNonceTooLow)
		}
	}
}

// filler signs a 0-value transfer to the settler with a released nonce.
func (s *Sender) filler(ctx context.Context, nonce uint64) (*types.Transaction, error) {
	tip, feeCap, err := s.fees(ctx)
	if err != nil {
		return nil, err
	}
	return s.sign(nonce, s.from, nil, 21_000, tip, feeCap)
}

// Rebroadcast sends a transaction signed earlier (by this process or an
// earlier one) again, outside the nonce order; it is how a pending
// settlement is resumed. Errors are classified as for Send.
func (s *Sender) Rebroadcast(ctx context.Context, tx *types.Transaction) error {
	err := classify(s.cfg.Backend.SendTransaction(ctx, tx))
	if errors.Is(err, errAlreadyKnown) {
		return nil
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
		strings.Contains(msg, "gas limit too high"), strings.Contains(msg, "oversized data"),
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

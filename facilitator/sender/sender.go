// Package sender signs and broadcasts transactions from one key, and waits
// for their receipts: the facilitator's settlements from its settler key,
// and the transaction API's transfers and messages from its wallet (each
// through a Sender of its own).
//
// A local nonce manager hands out nonces, so many settlements can be in
// flight at once without waiting on each other's receipts. Send errors are
// classified by whether the transaction can have reached the node, because
// that decides whether a payment may be retried with a new transaction or
// must wait for the one already out.
//
// The Sender keeps every transaction it has delivered, or may have
// delivered, until it is mined. A background loop compares them with the
// chain: when the node's pending nonce lags behind them (a batch was lost on
// the way, or the node dropped them), it broadcasts them again, in nonce
// order; when one is stuck because the base fee outgrew its fee cap, or the
// node refused it for its price, it replaces it with higher fees, up to a
// ceiling, after telling the caller (Config.Replace).
//
// # Fleet mode
//
// Several processes (a fleet's replicas) may sign with one settler key if
// they share a store.Journal (Config.Journal), the PostgreSQL store's. Then
// no nonce is handed out in memory: Sign allocates the nonce in the journal
// and stores the signed transaction under it in one database transaction,
// so any replica can broadcast it, fill its nonce if it is given up, or
// find its replacement. One replica at a time holds the settler's delivery
// lease (Journal.Lead) and delivers every replica's transactions from the
// journal, in strict nonce order; it broadcasts again what the node lost,
// fills given-up nonces with no-op transfers and replaces stuck
// transactions, recording every change in the journal before it is
// broadcast. The others sign, hand over and wait, and try to take the lease
// every CheckInterval, so delivery fails over within about a second when
// its holder dies. Correctness across processes rests on the journal alone:
// its atomic appends and compare-and-set replacements, and the lease.
package sender

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
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
// deliver a run of transactions in nonce order in one round trip, and to
// read its nonces, the base fee and receipts in one round trip.
type Batcher interface {
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

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
	// starts at 5 ms after a transaction is sent and backs off to it. On
	// a connection that takes subscriptions (WebSocket, IPC, in process)
	// receipts are read on every new head instead, and PollInterval is
	// only a safety net. Default 250 ms.
	PollInterval time.Duration
	// CheckInterval is how often the Sender compares the transactions it
	// keeps with the chain, to broadcast lost ones again and replace stuck
	// ones. A broadcast that failed or went unanswered, and a Wait that has
	// run for ReplaceAfter, bring the next check forward. Checks cost one
	// JSON-RPC batch and happen only while the Sender keeps a transaction.
	// In fleet mode it is also how often a Sender that does not deliver
	// tries to take the delivery lease (so failover takes about as long),
	// and the journal keeps mined entries for ten times it. Default 1 s.
	CheckInterval time.Duration
	// ReplaceAfter is how long a transaction must have been out before the
	// Sender replaces it with higher fees, when the base fee has risen above
	// its fee cap or the node refused it for its price (txpool is full,
	// underpriced). Default 3 s.
	ReplaceAfter time.Duration
	// MaxFeePerGas is the ceiling, in wei, of the fee cap of every
	// transaction the Sender signs, replacements included. A transaction
	// that would need more waits for the base fee to come down. Default
	// DefaultMaxFeePerGas (500 gwei).
	MaxFeePerGas *big.Int
	// Replace is called with a transaction and its replacement (same nonce,
	// call and gas; higher fees) before the replacement is broadcast, so the
	// caller can store it first, as it stores every transaction before
	// Send. If it returns an error, the replacement is not broadcast and a
	// later check tries again. It runs on the Sender's loop and must not
	// call Send or Release. Nil means the caller's transactions are never
	// replaced (a process restarted from the old record could not find the
	// replacement's receipt); the Sender's own nonce fillers still are.
	//
	// In fleet mode Replace is called in the process that delivers, which
	// may not be the one that signed old; the replacement is then stored in
	// the journal in place of old, and is broadcast only if that succeeds.
	// Every process's Wait and Rebroadcast find it through the journal.
	Replace func(old, replacement *types.Transaction) error
	// RPCTimeout bounds each JSON-RPC round trip of a delivery and of a
	// check. Default 10 s.
	RPCTimeout time.Duration
	// Journal, if set, puts the Sender in fleet mode (see the package
	// documentation): nonces and signed transactions live in the journal,
	// shared by every process that signs with Key, and the process holding
	// the journal's lease delivers them. The journal is the caller's, to
	// close after the Sender. Nil hands out nonces in memory, which is right
	// for one process.
	Journal store.Journal
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
	if c.PollInterval < 0 || c.CheckInterval < 0 || c.ReplaceAfter < 0 || c.RPCTimeout < 0 {
		errs = append(errs, errors.New("intervals and timeouts must not be negative"))
	}
	if c.MaxFeePerGas != nil && c.MaxFeePerGas.Sign() <= 0 {
		errs = append(errs, errors.New("max fee per gas must be positive"))
	}
	return errors.Join(errs...)
}

// Sender sends transactions from one key. It is safe for concurrent use.
// Close stops its background loop.
//
// Nodes keep only a few transactions of an account whose lower nonces have
// not arrived (geth: 64) and silently drop the rest, which leaves a nonce
// gap that stalls everything after it. So the Sender delivers strictly in
// nonce order: a transaction handed to Send waits until every lower nonce
// has been sent, and contiguous runs go out in one batch. A signed
// transaction that will not be sent must be given to Release, which fills
// its nonce with a no-op transfer so the run can go on. A nonce whose
// transaction was refused or never reached the node is filled the same way.
// And a run the node did not get, though it was sent (a gateway lost it), is
// sent again by the background loop once the node's pending nonce shows the
// gap.
//
// In fleet mode (Config.Journal) the same holds across processes: the
// journal orders the nonces and the lease holder delivers them.
type Sender struct {
	cfg    Config
	from   common.Address
	signer types.Signer
	log    *zap.Logger

	ctx    context.Context // root of the loop and of Release's deliveries; Close cancels it
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{}
	checks atomic.Uint64 // completed checks, for tests

	flush sync.Mutex // held while a run is delivered or a check broadcasts, so nonces go out in order

	mu      sync.Mutex
	closed  bool
	synced  bool                   // next and sent agree with the node; cleared when a delivery says otherwise
	resyncs uint64                 // times synced was cleared
	next    uint64                 // next nonce to hand out
	sent    uint64                 // every nonce below has been delivered, filled or given up as a hole
	mined   uint64                 // the settler's nonce in the latest block, as last read
	out     map[uint64]struct{}    // handed out by Sign, not yet given to Send or Release
	ready   map[uint64]*entry      // handed to Send or Release, waiting for their turn
	kept    map[uint64]*kept       // delivered (or maybe delivered) and not yet seen mined
	holes   map[uint64]struct{}    // below sent, not delivered: to be filled with a no-op transfer
	byHash  map[common.Hash]uint64 // every version of every kept transaction -> its nonce
	retired map[common.Hash][]common.Hash
	retire  []common.Hash // retired's keys in insertion order, to bound it

	feeMu         sync.Mutex // guards the fee reading below
	tip           *big.Int
	baseFee       *big.Int
	feeAt         time.Time
	feeRefreshing bool           // a background refresh of the reading runs
	feeClosed     bool           // Close was called: no more refreshes
	feeWG         sync.WaitGroup // the refresh under way

	fleet fleet // fleet mode's state; unused without a Journal

	watch watch // the receipt watcher of Wait
}

// entry is a nonce waiting for its turn, with its transaction; a nil tx
// means the nonce was released and is filled with a no-op transfer. done is
// nil for a kept transaction sent again as part of a run.
type entry struct {
	nonce  uint64
	tx     *types.Transaction
	filler bool
	done   chan error
}

// kept is a nonce the Sender delivered, or may have delivered, and has not
// yet seen mined.
type kept struct {
	txs     []*types.Transaction // every version signed for the nonce, oldest first; any may be mined
	cur     *types.Transaction   // the version to broadcast again
	filler  bool                 // a no-op transfer of the Sender's own
	since   time.Time            // when cur was first broadcast
	refused bool                 // the node refused cur for its price
	final   bool                 // a replacement was refused for another reason: stop replacing
	lastErr string               // the last broadcast error, logged when it changes
}

// latest is the version with the highest fees.
func (k *kept) latest() *types.Transaction { return k.txs[len(k.txs)-1] }

// retiredMax bounds how many replaced transactions' hashes stay known after
// they are mined, for a Wait that starts late.
const retiredMax = 4096

// New returns a Sender and starts its background loop; Close stops it.
// The loop does no I/O while the Sender keeps no transaction.
func New(cfg Config) (*Sender, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 250 * time.Millisecond
	}
	if cfg.CheckInterval == 0 {
		cfg.CheckInterval = time.Second
	}
	if cfg.ReplaceAfter == 0 {
		cfg.ReplaceAfter = 3 * time.Second
	}
	if cfg.RPCTimeout == 0 {
		cfg.RPCTimeout = 10 * time.Second
	}
	if cfg.MaxFeePerGas == nil {
		cfg.MaxFeePerGas = DefaultMaxFeePerGas
	}
	cfg.MaxFeePerGas = new(big.Int).Set(cfg.MaxFeePerGas)
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Sender{
		cfg:     cfg,
		from:    crypto.PubkeyToAddress(cfg.Key.PublicKey),
		signer:  types.LatestSignerForChainID(cfg.ChainID),
		log:     log,
		ctx:     ctx,
		cancel:  cancel,
		kick:    make(chan struct{}, 1),
		out:     make(map[uint64]struct{}),
		ready:   make(map[uint64]*entry),
		kept:    make(map[uint64]*kept),
		holes:   make(map[uint64]struct{}),
		byHash:  make(map[common.Hash]uint64),
		retired: make(map[common.Hash][]common.Hash),
	}
	s.wg.Add(1)
	if cfg.Journal != nil {
		s.fleet.init()
		go s.lead(ctx)
	} else {
		go s.loop(ctx)
	}
	return s, nil
}

// Close stops the background loop and waits for it and for every delivery
// started by Release. Afterwards Send and Wait still work, but nothing is
// broadcast again or replaced. Close is idempotent.
//
// In fleet mode Close gives up the delivery lease, if this Sender holds it,
// so another process takes over; what this Sender signs afterwards is
// delivered by that process.
func (s *Sender) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	s.feeMu.Lock()
	s.feeClosed = true
	s.feeMu.Unlock()
	s.feeWG.Wait()
	s.closeWatch()
	return nil
}

// Address is the settler's address.
func (s *Sender) Address() common.Address { return s.from }

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

// Call is a transaction for SignCall to sign: a call to To with Value and
// Data, and Gas.
type Call struct {
	// To is the recipient. A call to the Sender's own address with no
	// value and no data is taken for one of its nonce fillers.
	To common.Address
	// Value is the ETH sent along, in wei; nil sends none.
	Value *big.Int
	// Data is the calldata.
	Data []byte
	// Gas is the gas limit.
	Gas uint64
	// FeeCap, if set, is the transaction's fee cap (maxFeePerGas) in wei,
	// in place of the Sender's choice, and its tip is at most FeeCap; it is
	// itself at most Config.MaxFeePerGas. It binds the transaction as
	// signed: a replacement (Config.Replace) raises it like any other, up
	// to Config.MaxFeePerGas.
	FeeCap *big.Int
	// AuthList, if set, makes the transaction an EIP-7702 set-code
	// transaction carrying these authorizations (a bundle of EIP-7702
	// senders' operations); a replacement carries them too.
	AuthList []types.SetCodeAuthorization
}

// validate reports what is wrong with the call.
func (c Call) validate() error {
	if c.Value != nil && c.Value.Sign() < 0 {
		return errors.New("the value is negative")
	}
	if c.FeeCap != nil && c.FeeCap.Sign() <= 0 {
		return errors.New("the fee cap must be positive")
	}
	return nil
}

// Sign is SignCall of a call to `to` with data and gas, and no value.
func (s *Sender) Sign(ctx context.Context, to common.Address, data []byte, gas uint64) (*types.Transaction, error) {
	return s.SignCall(ctx, Call{To: to, Data: data, Gas: gas})
}

// SignCall hands out the next nonce and signs c with it. The transaction
// must then be given to Send or Release. Its fee cap is c.FeeCap if set,
// otherwise twice the base fee plus the tip; either way at most
// Config.MaxFeePerGas.
//
// In fleet mode the nonce is allocated in the journal, which stores the
// transaction before SignCall returns it; the fleet's deliverer may
// broadcast it from then on, though the Sender delivering it holds it back
// until Send or Release if it signed it itself.
func (s *Sender) SignCall(ctx context.Context, c Call) (*types.Transaction, error) {
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	tip, feeCap, err := s.fees(ctx)
	if err != nil {
		return nil, err
	}
	if c.FeeCap != nil {
		feeCap = bigMin(c.FeeCap, s.cfg.MaxFeePerGas)
		tip = bigMin(tip, feeCap)
	}
	if s.cfg.Journal != nil {
		return s.signInJournal(ctx, c, tip, feeCap)
	}
	nonce, err := s.allocate(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := s.sign(nonce, c, tip, feeCap)
	if err != nil {
		s.Release(nonce)
		return nil, fmt.Errorf("signing: %w", err)
	}
	return tx, nil
}

func (s *Sender) sign(nonce uint64, c Call, tip, feeCap *big.Int) (*types.Transaction, error) {
	return types.SignNewTx(s.cfg.Key, s.signer, s.txData(nonce, c.To, c.Value, c.Data, c.Gas, nil, c.AuthList, tip, feeCap))
}

// txData is a dynamic-fee transaction, or a set-code one when auths are
// set.
func (s *Sender) txData(nonce uint64, to common.Address, value *big.Int, data []byte, gas uint64, access types.AccessList, auths []types.SetCodeAuthorization, tip, feeCap *big.Int) types.TxData {
	if len(auths) == 0 {
		return &types.DynamicFeeTx{
			ChainID: s.cfg.ChainID, Nonce: nonce, To: &to, Value: value, Data: data, Gas: gas, AccessList: access, GasTipCap: tip, GasFeeCap: feeCap,
		}
	}
	v := new(uint256.Int)
	if value != nil {
		v = uint256.MustFromBig(value)
	}
	return &types.SetCodeTx{
		ChainID: uint256.MustFromBig(s.cfg.ChainID), Nonce: nonce, To: to, Value: v, Data: data, Gas: gas, AccessList: access,
		GasTipCap: uint256.MustFromBig(tip), GasFeeCap: uint256.MustFromBig(feeCap), AuthList: auths,
	}
}

// bigMin returns a copy of the lesser of a and b.
func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return new(big.Int).Set(a)
	}
	return new(big.Int).Set(b)
}

// allocate hands out the next nonce that no kept transaction holds, reading
// the node's nonces first if the Sender is not in step with it.
func (s *Sender) allocate(ctx context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.synced {
		mined, pending, err := s.nonces(ctx)
		if err != nil {
			return 0, classify(err)
		}
		s.observeLocked(mined, pending)
		s.synced = true
	}
	// Bounded: each skipped nonce is a kept transaction or a hole.
	for {
		_, k := s.kept[s.next]
		_, h := s.holes[s.next]
		if !k && !h {
			break
		}
		s.next++
	}
	nonce := s.next
	s.next++
	s.out[nonce] = struct{}{}
	return nonce, nil
}

// nonces reads the settler's nonce in the latest block and in the node's
// pool, in one batch.
func (s *Sender) nonces(ctx context.Context) (mined, pending uint64, err error) {
	var m, p hexutil.Uint64
	batch := []rpc.BatchElem{
		{Method: "eth_getTransactionCount", Args: []any{s.from, "latest"}, Result: &m},
		{Method: "eth_getTransactionCount", Args: []any{s.from, "pending"}, Result: &p},
	}
	if err := s.batch(ctx, batch); err != nil {
		return 0, 0, fmt.Errorf("reading the settler's nonce: %w", err)
	}
	return uint64(m), uint64(p), nil
}

// batch sends b and returns the first error, of the batch or of an element.
func (s *Sender) batch(ctx context.Context, b []rpc.BatchElem) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	if err := s.cfg.Batcher.BatchCallContext(ctx, b); err != nil {
		return err
	}
	for _, e := range b {
		if e.Error != nil {
			return e.Error
		}
	}
	return nil
}

// observeLocked applies a reading of the settler's nonces: transactions
// below the mined nonce are forgotten, and nonces the node has that the
// Sender never delivered (the key was used elsewhere) are skipped. s.mu is
// held.
func (s *Sender) observeLocked(mined, pending uint64) {
	s.mined = mined
	for n := range s.kept {
		if n < mined {
			s.forgetLocked(n)
		}
	}
	for n := range s.holes {
		if n < mined {
			delete(s.holes, n)
		}
	}
	if pending <= s.sent {
		return
	}
	// The node holds nonces from sent up to pending that this Sender did
	// not deliver: whatever waits with such a nonce must be signed again.
	for n, e := range s.ready {
		if n < pending {
			delete(s.ready, n)
			e.done <- fmt.Errorf("%w: nonce %d was used by another transaction", ErrNonceTooLow, n)
		}
	}
	for n := range s.out {
		if n < pending {
			delete(s.out, n)
		}
	}
	if s.synced {
		s.log.Warn("the settler's nonce moved past this sender's; is the key used elsewhere?",
			zap.Uint64("sent", s.sent), zap.Uint64("pending", pending))
	}
	s.sent = pending
	s.next = max(s.next, pending)
}

// Release gives up the signed transaction with this nonce without sending
// it. Its nonce is filled with a 0-value transfer to the settler, so the
// transactions after it are not stalled.
//
// In fleet mode Release voids the journal's entry (this Sender knows the
// hash of each transaction it signed and has not yet sent), and the
// deliverer fills it. A transaction another process's deliverer broadcast
// before Release is outbid by the filler, whose fees are higher, but may
// be mined if it was already in a block.
func (s *Sender) Release(nonce uint64) {
	if s.cfg.Journal != nil {
		s.void(nonce)
		return
	}
	s.mu.Lock()
	if _, ok := s.out[nonce]; !ok {
		s.mu.Unlock()
		return // stale: a resync already made it moot
	}
	delete(s.out, nonce)
	s.ready[nonce] = &entry{nonce: nonce, filler: true, done: make(chan error, 1)}
	closed := s.closed
	if !closed {
		s.wg.Add(1)
	}
	s.mu.Unlock()
	if closed {
		s.deliver(s.ctx)
		return
	}
	go func() {
		defer s.wg.Done()
		s.deliver(s.ctx)
	}()
}

// Send delivers tx once every lower nonce has been delivered, and returns
// the node's verdict. nil means the Sender has the transaction and will see
// it mined: the node took it or already had it, or refused it only for its
// price, in which case the Sender broadcasts it again and replaces it with
// higher fees (see Config.Replace). ErrUnreachable and ErrRejected mean it
// was not delivered, and its nonce is handed out again or filled with a
// no-op transfer;
// ErrNonceTooLow means it never can be and must be signed again. Any other
// error leaves delivery unknown; the Sender keeps the transaction and
// broadcasts it again if the node turns out not to have it.
//
// In fleet mode the journal already holds tx and the fleet's deliverer,
// in whichever process, delivers it; Send hands it over and returns nil at
// once. Delivered reports when the node has it, and Wait the outcome: the
// receipt; either returns an error wrapping ErrRejected if the transaction
// was given up (the node refused it for another reason than its price) and
// its nonce filled.
func (s *Sender) Send(ctx context.Context, tx *types.Transaction) error {
	if s.cfg.Journal != nil {
		s.handOver(tx)
		return nil
	}
	e := &entry{nonce: tx.Nonce(), tx: tx, done: make(chan error, 1)}
	s.mu.Lock()
	if _, ok := s.out[tx.Nonce()]; !ok {
		s.mu.Unlock()
		return fmt.Errorf("%w: nonce %d was handed out before a resync", ErrNonceTooLow, tx.Nonce())
	}
	delete(s.out, tx.Nonce())
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

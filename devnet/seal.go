package devnet

import (
	"context"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/event"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
	"go.uber.org/zap"
)

// MaxClockLead is how far ahead of the wall clock the devnet's chain may run
// when it seals blocks on demand. Each block must be at least a second
// after its parent, so a burst of blocks moves the chain's clock forward;
// past this lead the devnet waits for the wall clock instead of sealing at
// once, so validity windows (such as an exact payment's 60 s) keep meaning
// what they say. Concurrent transactions share blocks and are not slowed.
const MaxClockLead = 15 * time.Second

// Backstop intervals of the on-demand sealer: when transactions the block
// builder would take are pending and no block came for backstopEvery, the
// sealer is asked to seal, whatever the pool's events said. Each rescue
// that leaves such transactions pending doubles the interval, up to
// backstopMax, so a transaction that can never be included does not make
// the chain seal empty blocks at full speed.
const (
	backstopEvery = 100 * time.Millisecond
	backstopMax   = 5 * time.Second
)

// minerRecommit is the block builder's allowance to fill a block (geth's
// miner.Config.Recommit, 2 s by default). Past it the builder stops taking
// transactions, and a builder starved of CPU for that long before its first
// transaction delivers an empty block although transactions are pending.
// The devnet gives it far longer; the backstop covers the rest.
const minerRecommit = 10 * time.Second

// sealer seals a block as soon as transactions are pending, when the devnet
// seals on demand (Config.BlockPeriod 0). It keeps the chain's clock at
// most MaxClockLead ahead of clk: it never seals on a parent stamped more
// than MaxClockLead after clk's time, so no block it seals is stamped more
// than MaxClockLead plus a second (a block's least step) ahead.
//
// Why it has a backstop. The pool announces a transaction once, when it
// becomes executable (legacypool's runReorg sends NewTxsEvent for what it
// promoted, and nothing later), and the sealer used to seal only on those
// announcements. Under CPU starvation (load average 20 on two cores, with
// the race detector) a pending transaction stayed unmined for good (a
// test's lone set-up transaction, 10 minutes). An announcement can be
// spent without the transaction being sealed in these ways, read in geth
// v1.17.10 (the CI hang left no trace of which one struck; 48 fresh
// devnets sent one transaction each under 40 CPU-bound goroutines hit
// none of the first three; the fourth is deterministic, and
// TestSealsWhatAnEmptyBlockMadeIncludable failed with the old sealer):
//   - geth's block builder fills a block in a goroutine with an allowance
//     (miner.Config.Recommit, 2 s; miner/worker.go generateWork arms
//     time.AfterFunc(Recommit) and commitTransactions checks it before
//     every transaction). A builder not scheduled for 2 s delivers a
//     "full" payload with no transaction, which payload.update accepts as
//     the first one and ResolveFull returns, so beacon.Commit seals an
//     empty block; the sealer read "nothing included" as "nothing
//     includable" (a tip below the miner's) and went back to sleep;
//   - beacon.Commit logs and drops the error of a failed seal
//     (catalyst/simulated_beacon.go Commit) and returns the head: on a
//     fresh chain, the genesis, with no transactions, read the same way;
//   - the sealer subscribed to the pool's events in its own goroutine,
//     after the node served RPC, so a transaction sent to a fresh devnet
//     before that goroutine ran was announced to nobody;
//   - a transaction whose fee cap is below the next block's base fee but
//     not the one after an empty block is announced, an empty block is
//     sealed, and nothing announces it again once it is includable.
//
// With one transaction and nothing sent after it, as a test's set-up does,
// no later announcement came, and the transaction waited for ever. Now the
// subscription is made before the node serves RPC, the builder's allowance
// is minerRecommit, and a backstop (backstop) asks for a seal whenever
// transactions the builder would take stay pending for backstopEvery with
// no block and the sealer idle, so no announcement needs to be reliable.
type sealer struct {
	backend *eth.Ethereum
	beacon  *catalyst.SimulatedBeacon
	// seal is held while a block is sealed, so that Reorg, AdjustTime and
	// the sealer take turns.
	seal *sync.Mutex
	clk  clock
	log  *zap.Logger
	// minTip is the least tip the block builder takes (its gas price).
	minTip *uint256.Int
	// newTxs receives the pool's announcements, through sub, made before
	// the node serves RPC.
	newTxs chan core.NewTxsEvent
	sub    event.Subscription
	// deaf drops the pool's announcements (tests: every wake-up lost).
	deaf bool
	// wake holds one request to seal.
	wake chan struct{}
	// busy is set while the sealer seals, or waits for the wall clock
	// to catch up with the chain's; the backstop leaves it alone then.
	busy atomic.Bool
	// rescues counts the seals the backstop asked for.
	rescues atomic.Int64
	// committing is when the block being sealed began (Unix nanoseconds),
	// zero between blocks: a seal that never ends (geth's builder can wait
	// for ever for a payload it stopped building) shows in Wait's error.
	committing atomic.Int64
}

// newSealer subscribes to the pool's announcements; call it before the
// node serves RPC, then run.
func newSealer(backend *eth.Ethereum, beacon *catalyst.SimulatedBeacon, seal *sync.Mutex, clk clock, log *zap.Logger, minTip *uint256.Int) *sealer {
	s := &sealer{
		backend: backend, beacon: beacon, seal: seal, clk: clk, log: log, minTip: minTip,
		// The pool's feed blocks its reorganisation loop until every
		// subscriber takes the event, and sealing waits for that loop
		// (TxPool.Sync): announce drains them at once, into one wake-up,
		// so a burst can never fill newTxs while a block is sealed
		// (which deadlocked the chain under sustained load).
		newTxs: make(chan core.NewTxsEvent, 256),
		wake:   make(chan struct{}, 1),
	}
	s.sub = backend.TxPool().SubscribeTransactions(s.newTxs, true)
	return s
}

// run seals until ctx ends, then unsubscribes; it returns when its
// goroutines have.
func (s *sealer) run(ctx context.Context) {
	defer s.sub.Unsubscribe()
	var wg sync.WaitGroup
	wg.Go(func() { s.announce(ctx) })
	wg.Go(func() { s.backstop(ctx) })
	wg.Go(func() { s.loop(ctx) })
	wg.Wait()
}

// poke asks the sealer to seal, once however often it is asked.
func (s *sealer) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// announce turns the pool's announcements into wake-ups.
func (s *sealer) announce(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.newTxs:
			if !s.deaf {
				s.poke()
			}
		}
	}
}

// loop seals whenever it is woken, until nothing is pending.
func (s *sealer) loop(ctx context.Context) {
	s.poke() // whatever is pending already
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		s.busy.Store(true)
		s.sealPending(ctx)
		s.busy.Store(false)
	}
}

// sealPending seals blocks while transactions are pending and the last
// block included some.
func (s *sealer) sealPending(ctx context.Context) {
	pool, chain := s.backend.TxPool(), s.backend.BlockChain()
	for ctx.Err() == nil {
		if pending, _ := pool.Stats(); pending == 0 {
			return
		}
		lead := time.Unix(int64(chain.CurrentBlock().Time), 0).Sub(s.clk.Now())
		if wait := lead - MaxClockLead; wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-s.clk.After(wait):
			}
		}
		s.seal.Lock()
		pool.Sync()
		if pending, _ := pool.Stats(); pending == 0 {
			// Mined already: by Reorg, which seals the transactions the
			// pool took back.
			s.seal.Unlock()
			return
		}
		parent := chain.CurrentBlock().Hash()
		s.committing.Store(time.Now().UnixNano())
		hash := s.beacon.Commit()
		s.committing.Store(0)
		pool.Sync()
		pending, _ := pool.Stats()
		s.seal.Unlock()
		if hash == parent {
			// Commit logs a failed seal to geth's log and returns the head.
			s.log.Warn("devnet: sealing a block failed; the backstop seals again", zap.Int("pending", pending))
			return
		}
		if pending == 0 {
			return
		}
		if b := chain.GetBlockByHash(hash); b == nil || len(b.Transactions()) == 0 {
			// A transaction whose tip is below the builder's stays pending
			// and must not make the chain seal empty blocks for ever; one
			// the builder would take now (it ran out of time, or the base
			// fee fell) is the backstop's.
			if n := s.minable(chain.CurrentBlock()); n > 0 {
				s.log.Info("devnet: sealed an empty block; transactions pending are includable now, the backstop seals them",
					zap.Stringer("block", hash), zap.Int("minable", n))
			}
			return
		}
	}
}

// backstop asks for a seal when transactions the block builder would take
// were pending at two looks an interval apart, with no block between them
// and the sealer idle: whatever lost their wake-up, they are sealed within
// a few intervals. It leaves the sealer alone while it seals, waits for
// the wall clock, or has a wake-up to take.
func (s *sealer) backstop(ctx context.Context) {
	chain := s.backend.BlockChain()
	every := backstopEvery
	// last is the head at the last look, and waiting whether transactions
	// the builder would take were pending then, the sealer idle.
	var (
		last    common.Hash
		waiting bool
	)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
		head := chain.CurrentBlock()
		before := waiting && head.Hash() == last
		last, waiting = head.Hash(), false
		if s.busy.Load() || len(s.wake) > 0 {
			continue
		}
		n := s.minable(head)
		if n == 0 {
			every = backstopEvery
			continue
		}
		waiting = true
		// Pending an interval ago too, with no block since: a transaction
		// just announced, whose wake-up is on its way, is not rescued.
		if before {
			s.rescues.Add(1)
			s.log.Warn("devnet: transactions pending with no block sealed; sealing them",
				zap.Int("minable", n), zap.Uint64("head", head.Number.Uint64()), zap.Duration("after", every))
			s.poke()
			every = min(2*every, backstopMax)
		}
	}
}

// minable counts the pending transactions the block builder would take on
// top of head: with its least tip, the next block's base fee and Osaka's
// cap on a transaction's gas (miner/worker.go fillTransactions).
func (s *sealer) minable(head *types.Header) int {
	cfg := s.backend.BlockChain().Config()
	number, time := new(big.Int).Add(head.Number, big.NewInt(1)), head.Time+1
	filter := txpool.PendingFilter{MinTip: s.minTip}
	if cfg.IsLondon(number) {
		filter.BaseFee = uint256.MustFromBig(eip1559.CalcBaseFee(cfg, head))
	}
	if cfg.IsOsaka(number, time) && !cfg.IsAmsterdam(number, time) {
		filter.GasLimitCap = params.MaxTxGas
	}
	_, n := s.backend.TxPool().Pending(filter)
	return n
}

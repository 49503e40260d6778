package sender

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"
)

// The Sender's receipt watcher. One goroutine, running only while some
// Wait waits, reads the receipts of every transaction any Wait waits for
// in one batch: when a Wait joins, on every new head if the connection
// takes subscriptions (WebSocket, IPC, in process), and otherwise on a
// poll that starts at firstPoll after a Wait joins and backs off to
// Config.PollInterval. Two hundred settlements in flight cost one batch a
// round, not two hundred polls.

const (
	// firstPoll is the first pause of the watcher's poll after a Wait
	// joins; it doubles up to Config.PollInterval.
	firstPoll = 5 * time.Millisecond
	// watchLinger is how long the watcher keeps running, and its head
	// subscription open, after the last Wait left.
	watchLinger = time.Second
	// maxReceiptBatch bounds the receipts one JSON-RPC batch reads.
	maxReceiptBatch = 100
)

// watch is the state of the receipt watcher.
type watch struct {
	mu      sync.Mutex
	waiters map[*waiter]struct{}
	running bool
	closed  bool          // the Sender was closed: stop as soon as no Wait waits
	joined  chan struct{} // a Wait joined: read receipts now (capacity 1)
	exited  chan struct{} // closed when the running watcher returns
}

// waiter is a Wait's registration with the watcher.
type waiter struct {
	hashes []common.Hash       // every version of the transaction; guarded by watch.mu
	found  chan *types.Receipt // the receipt of one of hashes (capacity 1)
	round  chan struct{}       // a round ended without a receipt for it (capacity 1)
	done   bool                // found was sent; guarded by watch.mu
}

// subscriber is a connection that can subscribe to new heads;
// *rpc.Client is one when its transport takes subscriptions.
type subscriber interface {
	SupportsSubscriptions() bool
	EthSubscribe(ctx context.Context, channel any, args ...any) (*rpc.ClientSubscription, error)
}

// join registers w and makes sure the watcher runs.
func (s *Sender) join(w *waiter) {
	s.watch.mu.Lock()
	if s.watch.waiters == nil {
		s.watch.waiters = make(map[*waiter]struct{})
		s.watch.joined = make(chan struct{}, 1)
	}
	s.watch.waiters[w] = struct{}{}
	start := !s.watch.running
	var exited chan struct{}
	if start {
		s.watch.running = true
		exited = make(chan struct{})
		s.watch.exited = exited
	}
	joined := s.watch.joined
	s.watch.mu.Unlock()
	select {
	case joined <- struct{}{}:
	default:
	}
	if start {
		go func() {
			defer close(exited)
			s.watchLoop()
		}()
	}
}

// closeWatch makes the watcher stop once no Wait waits, and waits for it
// if none does now. A Wait after it starts the watcher again.
func (s *Sender) closeWatch() {
	s.watch.mu.Lock()
	s.watch.closed = true
	running, idle := s.watch.running, len(s.watch.waiters) == 0
	joined, exited := s.watch.joined, s.watch.exited
	s.watch.mu.Unlock()
	if !running {
		return
	}
	select {
	case joined <- struct{}{}:
	default:
	}
	if idle {
		<-exited
	}
}

// leave unregisters w. After Close, the last Wait to leave waits for the
// watcher to stop, so that a closed Sender leaves no goroutine behind.
func (s *Sender) leave(w *waiter) {
	s.watch.mu.Lock()
	delete(s.watch.waiters, w)
	last := s.watch.closed && len(s.watch.waiters) == 0
	s.watch.mu.Unlock()
	if last {
		s.closeWatch()
	}
}

// setHashes replaces the hashes w waits for.
func (s *Sender) setHashes(w *waiter, hashes []common.Hash) {
	s.watch.mu.Lock()
	w.hashes = slices.Clone(hashes)
	s.watch.mu.Unlock()
}

// watchLoop is the watcher. It returns watchLinger after the last Wait
// left.
func (s *Sender) watchLoop() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	heads := make(chan *types.Header, 16)
	var sub *rpc.ClientSubscription
	if c, ok := s.cfg.Batcher.(subscriber); ok && c.SupportsSubscriptions() {
		sctx, scancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
		var err error
		if sub, err = c.EthSubscribe(sctx, heads, "newHeads"); err != nil {
			s.log.Debug("subscribing to new heads; polling instead", zap.Error(err))
			sub = nil
		}
		scancel()
	}
	var subErr <-chan error
	if sub != nil {
		defer sub.Unsubscribe()
		subErr = sub.Err()
	}
	joined := s.watch.joined
	pause := firstPoll
	timer := time.NewTimer(0)
	defer timer.Stop()
	var idleSince time.Time
	for {
		select {
		case <-joined:
			pause = firstPoll
		case <-heads:
		case err := <-subErr:
			s.log.Debug("new-head subscription ended; polling instead", zap.Error(err))
			sub, subErr = nil, nil
		case <-timer.C:
			if sub == nil {
				pause = min(pause*2, s.cfg.PollInterval)
			}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		waiters, hashes := s.waitingNow()
		if len(waiters) == 0 {
			if idleSince.IsZero() {
				idleSince = time.Now()
			}
			if (s.watchClosed() || time.Since(idleSince) >= watchLinger) && s.stopWatch() {
				return
			}
			timer.Reset(watchLinger)
			continue
		}
		idleSince = time.Time{}
		s.readRound(ctx, waiters, hashes)
		next := pause
		if sub != nil {
			// New heads wake the watcher; the poll is a safety net.
			next = s.cfg.PollInterval
		}
		timer.Reset(next)
	}
}

// stopWatch marks the watcher stopped if no Wait joined meanwhile.
func (s *Sender) stopWatch() bool {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	if len(s.watch.waiters) > 0 {
		return false
	}
	s.watch.running = false
	return true
}

// watchClosed reports whether the Sender was closed.
func (s *Sender) watchClosed() bool {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	return s.watch.closed
}

// waitingNow returns the registered waiters and the hashes they wait for.
func (s *Sender) waitingNow() ([]*waiter, []common.Hash) {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	waiters := make([]*waiter, 0, len(s.watch.waiters))
	var hashes []common.Hash
	for w := range s.watch.waiters {
		if w.done {
			continue
		}
		waiters = append(waiters, w)
		for _, h := range w.hashes {
			if !slices.Contains(hashes, h) {
				hashes = append(hashes, h)
			}
		}
	}
	return waiters, hashes
}

// readRound reads the receipts of hashes in batches, hands each waiter
// the receipt of its transaction if there is one, and tells the others
// that the round ended.
func (s *Sender) readRound(ctx context.Context, waiters []*waiter, hashes []common.Hash) {
	mined := make(map[common.Hash]*types.Receipt)
	for chunk := range slices.Chunk(hashes, maxReceiptBatch) {
		receipts := make([]*types.Receipt, len(chunk))
		b := make([]rpc.BatchElem, len(chunk))
		for i, h := range chunk {
			b[i] = rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{h}, Result: &receipts[i]}
		}
		rctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
		err := s.cfg.Batcher.BatchCallContext(rctx, b)
		cancel()
		if err != nil {
			if c := classify(err); c != nil {
				s.log.Debug("receipt poll failed", zap.Int("transactions", len(chunk)), zap.Error(err))
			}
			break
		}
		for i, r := range receipts {
			if b[i].Error == nil && r != nil {
				mined[chunk[i]] = r
			}
		}
	}
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	for _, w := range waiters {
		var found *types.Receipt
		for _, h := range w.hashes {
			if r := mined[h]; r != nil {
				found = r
				break
			}
		}
		if found != nil {
			w.done = true
			w.found <- found
			continue
		}
		select {
		case w.round <- struct{}{}:
		default:
		}
	}
}

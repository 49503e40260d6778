package facilitator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Batched settlement.
//
// With Config.Batch, payments of a scheme that joins batches
// (scheme.Batcher: exact's EIP-3009 authorizations) that arrive together
// are settled in one transaction to the X402Batch contract, which calls the
// token's transferWithAuthorization for each and lets one fail without the
// others. A payment that arrives while nothing is being sent is sent at
// once on its own, as without batching (a lone payment costs what it
// always did); payments that arrive while a transaction is being sent wait
// for it, and the next transaction takes all of them (up to MaxPayments),
// so a busy facilitator sends one transaction where it sent one a
// payment. With MaxWait, the first payment also waits that long for
// company.
//
// No payment waits past its validity: each is sent (with the payments
// waiting beside it) by its send-by time, when what is left of its
// authorization's window is what a transaction needs to be mined
// (inclusion.go), whatever MaxWait says. Just before a batch is simulated,
// each of its payments is checked again against the latest block: one
// that would expire before the batch could be mined is taken out,
// nothing is sent for it, and it is answered bundler_unreachable (nothing
// was paid; not the payer's doing, so not the penalty box's), as is a
// payment that waited and goes alone.
//
// Everything after the transaction is per payment, as for a lone one:
// each payment's record holds the batch's transaction (a replacement is
// recorded in each, as for a bundle), its settle waits for the receipt,
// and its outcome is read from its own logs: the token's
// AuthorizationUsed(from, nonce) and the Transfer after it, or the
// contract's TransferFailed, which is answered as a lone settlement whose
// transaction reverted.

// Batching configures batched settlement of exact payments.
type Batching struct {
	// Contract is the X402Batch contract.
	Contract common.Address
	// MaxPayments is the most payments in one transaction; default 50.
	MaxPayments int
	// MaxWait is how long the first payment of a batch waits for company;
	// 0 (the default) sends a payment at once when nothing is being sent.
	// A payment whose authorization expires sooner waits less: see
	// sendBy.
	MaxWait time.Duration
	// MaxGas bounds a batch's estimated gas; a larger batch is split.
	// Default 12,000,000, which with headroom stays under the 2^24
	// per-transaction cap of EIP-7825 (Osaka).
	MaxGas uint64
}

// The defaults of Batching.
const (
	DefaultBatchPayments = 50
	DefaultBatchGas      = 12_000_000
)

// batcher gathers exact payments into X402Batch transactions.
type batcher struct {
	cfg Batching

	mu       sync.Mutex
	queue    []*batchEntry
	underway int // transactions being sent, batches and lone payments
	// due is when the queue's MaxWait ends; zero without MaxWait, and
	// once it ended: the queue then goes when no send is under way.
	due time.Time
	// timer fires at the earliest of due and the queue's send-by times.
	timer   *time.Timer
	timerAt time.Time
	closed  bool
	wg      sync.WaitGroup // batches being sent
}

// batchEntry is one payment waiting for its batch.
type batchEntry struct {
	ctx     context.Context
	p       *payment
	rec     *store.Record
	claimed bool
	item    contracts.BatchItem
	// sendBy is when it must be sent at the latest to be mined before its
	// authorization expires (see sendBy).
	sendBy time.Time
	done   chan batchResult
}

// batchResult is what became of a payment handed to the batcher.
type batchResult struct {
	// alone: settle it on its own (broadcast's own path), then call idle.
	alone bool
	// claimed is whether its record is claimed now (for alone).
	claimed bool
	// waited: it was queued before it went alone; its validity must be
	// checked again before it is sent.
	waited bool
	// revert: its transfer would revert; nothing was sent.
	revert error
	// res is the answer, nil once its batch is out.
	res *x402.SettleResponse
}

// startBatching returns the batcher of cfg, or nil, with an error
// logged, if the chain has no code at its contract: payments are then
// sent one a transaction.
func (s *Service) startBatching(ctx context.Context, cfg Batching) *batcher {
	if cfg.MaxPayments <= 0 {
		cfg.MaxPayments = DefaultBatchPayments
	}
	if cfg.MaxGas == 0 {
		cfg.MaxGas = DefaultBatchGas
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	code, err := s.eth.CodeAt(ctx, cfg.Contract, nil)
	if err != nil || len(code) == 0 {
		s.log.Error("the batch contract has no code on the chain (see docs/facilitator.md#batching to deploy it); payments are settled one a transaction",
			zap.Stringer("contract", cfg.Contract), zap.Error(err))
		return nil
	}
	if head, err := s.eth.HeaderByNumber(ctx, nil); err == nil {
		s.measurePace(ctx, head) // for the first payments' send-by times
	}
	s.cfg.Batch = &cfg
	return &batcher{cfg: cfg}
}

// batchItem is p's X402Batch item, if its scheme joins batches
// (scheme.Batcher) and the payment fits one.
func (s *Service) batchItem(p *payment) (contracts.BatchItem, bool) {
	b, ok := p.of.(scheme.Batcher)
	if !ok {
		return contracts.BatchItem{}, false
	}
	return b.BatchItem(p.pay, p.settlement)
}

// sendBy is when a batched payment valid before validBefore (unix
// seconds) must be sent at the latest: inclusionAllowance of the chain's
// block period, and a second for the batch to be checked, before it
// expires. For a 2 s chain that is 6 s, verification's MinValidity: a
// payment verified with no more than that goes at once. Zero for a window
// too far to matter.
func sendBy(validBefore uint64, period time.Duration) time.Time {
	if validBefore > 1<<40 {
		return time.Time{}
	}
	return time.Unix(int64(validBefore), 0).Add(-inclusionAllowance(period) - time.Second)
}

// join hands e to the batcher and returns what became of it.
func (b *batcher) join(ctx context.Context, s *Service, e *batchEntry) batchResult {
	e.done = make(chan batchResult, 1)
	e.sendBy = sendBy(e.item.ValidBefore, s.pace.blockPeriod())
	b.mu.Lock()
	if b.closed || (b.cfg.MaxWait == 0 && b.underway == 0 && len(b.queue) == 0) {
		b.underway++
		b.mu.Unlock()
		return batchResult{alone: true, claimed: e.claimed}
	}
	if len(b.queue) == 0 && b.cfg.MaxWait > 0 {
		b.due = s.cfg.Now().Add(b.cfg.MaxWait)
	}
	b.queue = append(b.queue, e)
	if len(b.queue) >= b.cfg.MaxPayments {
		b.flushLocked(s)
	}
	b.scheduleLocked(s)
	b.mu.Unlock()
	select {
	case r := <-e.done:
		return r
	case <-ctx.Done():
		b.mu.Lock()
		if i := slices.Index(b.queue, e); i >= 0 {
			b.queue = slices.Delete(b.queue, i, i+1)
			b.mu.Unlock()
			return batchResult{revert: fmt.Errorf("%w: %v", sender.ErrUnreachable, ctx.Err())}
		}
		b.mu.Unlock()
		// Taken into a batch: it answers within its own deadline.
		return <-e.done
	}
}

// scheduleLocked sends the waiting payments whose time has come (the
// queue's MaxWait is over, or a payment's send-by time is near) and sets
// the timer for the next such time. b.mu is held.
func (b *batcher) scheduleLocked(s *Service) {
	for len(b.queue) > 0 {
		next := b.due
		for _, e := range b.queue {
			if !e.sendBy.IsZero() && (next.IsZero() || e.sendBy.Before(next)) {
				next = e.sendBy
			}
		}
		if next.IsZero() {
			break // the queue goes when no send is under way (idle)
		}
		now := s.cfg.Now()
		if !next.After(now) {
			b.flushLocked(s)
			continue
		}
		if b.timer != nil && b.timerAt.Equal(next) {
			return
		}
		b.stopTimer()
		var t *time.Timer
		t = time.AfterFunc(next.Sub(now), func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.closed || b.timer != t {
				return // close sent the queue, or a later timer replaced this one
			}
			b.timer = nil
			b.scheduleLocked(s)
		})
		b.timer, b.timerAt = t, next
		return
	}
	b.stopTimer()
}

// stopTimer stops the timer, if set; b.mu is held.
func (b *batcher) stopTimer() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
}

// idle ends a send: a lone payment's transaction or a batch is out. The
// payments that waited meanwhile go next.
func (b *batcher) idle(s *Service) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.underway--
	if b.underway == 0 && len(b.queue) > 0 && b.due.IsZero() {
		b.flushLocked(s)
	}
	b.scheduleLocked(s)
}

// flushLocked sends the waiting payments (up to MaxPayments; the rest go
// next): one alone, several as a batch. b.mu is held.
func (b *batcher) flushLocked(s *Service) {
	if len(b.queue) == 0 {
		return
	}
	b.stopTimer()
	b.due = time.Time{}
	n := min(len(b.queue), b.cfg.MaxPayments)
	group := slices.Clone(b.queue[:n])
	b.queue = slices.Delete(b.queue, 0, n)
	b.underway++
	if len(group) == 1 {
		group[0].done <- batchResult{alone: true, claimed: group[0].claimed, waited: true}
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		s.sendBatch(group)
	}()
}

// requeue puts entries back at the front of the queue, for the next batch.
func (b *batcher) requeue(s *Service, entries []*batchEntry) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue = append(slices.Clone(entries), b.queue...)
	if b.closed {
		b.underway++
		b.flushAlone(entries)
		return
	}
	b.scheduleLocked(s)
}

// flushAlone sends each of entries on its own; b.mu is held, and one send
// slot is taken for each beyond the first.
func (b *batcher) flushAlone(entries []*batchEntry) {
	for i, e := range entries {
		if i > 0 {
			b.underway++
		}
		if j := slices.Index(b.queue, e); j >= 0 {
			b.queue = slices.Delete(b.queue, j, j+1)
		}
		e.done <- batchResult{alone: true, claimed: e.claimed, waited: true}
	}
}

// close sends the waiting payments on their own and waits for the batches
// being sent.
func (b *batcher) close() {
	b.mu.Lock()
	b.closed = true
	b.stopTimer()
	if len(b.queue) > 0 {
		b.underway++
		b.flushAlone(slices.Clone(b.queue))
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// batchTimeout bounds the sending of a batch whose payments' settles set
// no deadline.
const batchTimeout = 2 * time.Minute

// sendBatch simulates, signs, records and broadcasts one batch, and
// answers each of its payments. It holds one send slot, which it gives
// back (idle) when the batch is out or given up; payments it hands back
// to be sent alone take slots of their own.
func (s *Service) sendBatch(group []*batchEntry) {
	slot := true
	defer func() {
		if slot {
			s.batch.idle(s)
		}
	}()
	// A payment whose settle gave up before its batch is answered so.
	var deadline time.Time
	live := group[:0:0]
	for _, e := range group {
		if err := e.ctx.Err(); err != nil {
			e.done <- batchResult{revert: fmt.Errorf("%w: %v", sender.ErrUnreachable, err)}
			continue
		}
		d, ok := e.ctx.Deadline()
		if !ok {
			d = time.Now().Add(batchTimeout)
		}
		if d.After(deadline) {
			deadline = d
		}
		live = append(live, e)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := context.WithDeadline(context.WithoutCancel(live[0].ctx), deadline)
	defer cancel()
	// Payments of one token to one recipient side by side share them.
	slices.SortStableFunc(live, func(a, b *batchEntry) int {
		return cmp.Or(a.item.Token.Cmp(b.item.Token), a.item.To.Cmp(b.item.To))
	})
	alone := func(entries []*batchEntry) {
		s.batch.mu.Lock()
		defer s.batch.mu.Unlock()
		slot = false // the first takes over this batch's slot
		for i, e := range entries {
			if i > 0 {
				s.batch.underway++
			}
			e.done <- batchResult{alone: true, claimed: e.claimed, waited: true}
		}
	}
	for {
		if len(live) == 1 {
			alone(live)
			return
		}
		// A payment that waited too long for this batch is taken out
		// before anything is simulated or signed.
		by, err := s.mineBy(ctx)
		if err != nil {
			for _, e := range live {
				e.done <- batchResult{revert: err}
			}
			return
		}
		kept := live[:0:0]
		for _, e := range live {
			if validAt(time.Unix(int64(min(e.item.ValidBefore, 1<<62)), 0), by) {
				kept = append(kept, e)
				continue
			}
			s.log.Info("a batched payment would expire before its batch could be mined; it is not sent",
				zap.Stringer("payer", e.item.From), zap.Uint64("valid_before", e.item.ValidBefore), zap.Time("mined_by", by))
			e.done <- batchResult{revert: errLapsed}
		}
		switch live = kept; len(live) {
		case 0:
			return
		case 1:
			continue // it goes alone
		}
		data := s.packBatch(live)
		// One payment must never fail the others: simulate the batch and
		// take out the payments whose transfer would revert.
		failed, err := s.simulateBatch(ctx, data, len(live))
		if err != nil {
			if errors.Is(err, sender.ErrUnreachable) {
				for _, e := range live {
					e.done <- batchResult{revert: err}
				}
				return
			}
			s.log.Warn("a batch's simulation failed; its payments go alone", zap.Int("payments", len(live)), zap.Error(err))
			alone(live)
			return
		}
		if slices.Contains(failed, true) {
			kept := live[:0:0]
			for i, e := range live {
				if failed[i] {
					e.done <- batchResult{revert: errors.New("the transfer reverts in its batch's simulation")}
				} else {
					kept = append(kept, e)
				}
			}
			live = kept
			if len(live) == 0 {
				return
			}
			continue
		}
		gas, err := s.sender.Estimate(ctx, s.cfg.Batch.Contract, data)
		if err != nil {
			if errors.Is(err, sender.ErrUnreachable) {
				for _, e := range live {
					e.done <- batchResult{revert: err}
				}
				return
			}
			s.log.Warn("a batch's gas estimate failed; its payments go alone", zap.Int("payments", len(live)), zap.Error(err))
			alone(live)
			return
		}
		if gas > s.batch.cfg.MaxGas {
			// Too big for one transaction: send the first half now and
			// the rest next.
			half := len(live) / 2
			s.batch.requeue(s, live[half:])
			live = live[:half]
			continue
		}
		s.signBatch(ctx, live, data, gas)
		return
	}
}

// packBatch is the X402Batch calldata of entries, in their order.
func (s *Service) packBatch(entries []*batchEntry) []byte {
	items := make([]contracts.BatchItem, len(entries))
	for i, e := range entries {
		items[i] = e.item
	}
	return contracts.PackBatch(items)
}

// simulateBatch runs a batch in an eth_call at the latest block and
// returns which of its n payments' transfers would revert.
func (s *Service) simulateBatch(ctx context.Context, data []byte, n int) ([]bool, error) {
	var out hexutil.Bytes
	call := map[string]any{"from": s.sender.Address(), "to": s.cfg.Batch.Contract, "data": hexutil.Bytes(data)}
	if err := s.rpc.CallContext(ctx, &out, "eth_call", call, "latest"); err != nil {
		var rerr interface{ ErrorCode() int }
		if !errors.As(err, &rerr) {
			return nil, fmt.Errorf("%w: simulating a batch: %v", sender.ErrUnreachable, err)
		}
		return nil, fmt.Errorf("simulating a batch: %w", err)
	}
	return contracts.BatchFailed(out, n)
}

// signBatch signs the batch transaction, records it in every payment's
// record and broadcasts it, and answers each payment.
func (s *Service) signBatch(ctx context.Context, live []*batchEntry, data []byte, gas uint64) {
	for attempt := 0; ; attempt++ {
		tx, err := s.sender.Sign(ctx, s.cfg.Batch.Contract, data, gas)
		if err != nil {
			for _, e := range live {
				s.releaseIf(e.p, e.claimed)
				if errors.Is(err, sender.ErrUnreachable) {
					e.done <- batchResult{res: s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", e.p)}
				} else {
					e.done <- batchResult{res: s.failure(x402.ErrorInternal, "internal error", e.p)}
				}
			}
			s.log.Error("signing a batch", zap.Error(err))
			return
		}
		if !s.recordBatch(ctx, live, tx) {
			return
		}
		err = s.sender.Send(ctx, tx)
		if errors.Is(err, sender.ErrNonceTooLow) && attempt < 3 {
			continue // the nonce was taken; sign again with a fresh one
		}
		if err == nil {
			s.log.Debug("batch sent", zap.Stringer("tx", tx.Hash()), zap.Int("payments", len(live)), zap.Uint64("gas_limit", gas))
		}
		for _, e := range live {
			e.done <- batchResult{res: s.sent(e.p, tx, err)}
		}
		return
	}
}

// recordBatch stores tx in the record of every payment of a batch (claiming
// those not claimed yet), concurrently, so that the store commits them
// together. If any cannot be stored, nothing is sent: the payment whose
// claim another settle holds is answered as such, and the others are sent
// alone. It reports whether every record holds tx.
func (s *Service) recordBatch(ctx context.Context, live []*batchEntry, tx *types.Transaction) bool {
	raw, err := tx.MarshalBinary()
	if err != nil {
		s.sender.Release(tx.Nonce())
		for _, e := range live {
			s.releaseIf(e.p, e.claimed)
			e.done <- batchResult{res: s.failure(x402.ErrorInternal, "internal error", e.p)}
		}
		return false
	}
	now := s.cfg.Now().UTC()
	errs := make([]error, len(live))
	lost := make([]*store.Record, len(live))
	var wg sync.WaitGroup
	for i, e := range live {
		rec := e.rec
		rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, tx.Hash(), raw, now
		s.carries(tx.Hash(), rec.Key)
		wg.Add(1)
		go func() {
			defer wg.Done()
			span := startStore(e.ctx, string(store.StateSubmitted))
			if e.claimed {
				errs[i] = s.store.Submit(rec)
			} else {
				existing, claimed, err := s.store.Claim(*rec)
				switch {
				case err != nil:
					errs[i] = err
				case !claimed:
					lost[i], errs[i] = existing, errors.New("claimed by another settle")
				default:
					e.claimed = true
				}
			}
			endCall(span, errs[i], "store")
		}()
	}
	wg.Wait()
	if !slices.ContainsFunc(errs, func(err error) bool { return err != nil }) {
		return true
	}
	// Nothing goes out: each payment is settled again on its own (its
	// record, if stored, holds a transaction never sent, which the next
	// one replaces), or answered.
	s.sender.Release(tx.Nonce())
	var again []*batchEntry
	for i, e := range live {
		s.done(tx.Hash(), e.rec.Key)
		switch {
		case lost[i] != nil:
			s.forget(e.p)
			e.done <- batchResult{res: s.claimedElsewhere(lost[i], e.p)}
		case errs[i] != nil:
			s.log.Error("storing a batched settlement", zap.Error(errs[i]))
			s.releaseIf(e.p, e.claimed)
			e.done <- batchResult{res: s.failure(x402.ErrorInternal, "internal error", e.p)}
		default:
			e.rec.State, e.rec.TxHash, e.rec.RawTx = store.StateClaimed, common.Hash{}, nil
			again = append(again, e)
		}
	}
	s.batch.mu.Lock()
	defer s.batch.mu.Unlock()
	for _, e := range again {
		s.batch.underway++
		e.done <- batchResult{alone: true, claimed: e.claimed, waited: true}
	}
	return false
}

// ownLogs narrows a successful receipt to the logs of rec's payment, as
// its scheme reads them (scheme.Batcher), so that a transaction that
// carries several payments (a batch) never counts one payment's transfer
// for another. failed is true if the batch contract logged the payment's
// transfer as failed. The receipt of a payment whose scheme joins no
// batch is returned as it is.
func (s *Service) ownLogs(rec *store.Record, receipt *types.Receipt) (own *types.Receipt, failed bool) {
	b, ok := s.table().byName[rec.Scheme].(scheme.Batcher)
	if !ok {
		return receipt, false
	}
	return b.BatchLogs(rec, receipt, s.batchContract())
}

// batchContract is the X402Batch contract, or zero when batching is off.
func (s *Service) batchContract() common.Address {
	if s.cfg.Batch == nil {
		return common.Address{}
	}
	return s.cfg.Batch.Contract
}

// batchFailed reports whether receipt is of a batch in which rec's
// payment's transfer failed.
func (s *Service) batchFailed(rec *store.Record, receipt *types.Receipt) bool {
	_, failed := s.ownLogs(rec, receipt)
	return failed
}

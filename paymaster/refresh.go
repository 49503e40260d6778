package paymaster

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"
)

const (
	// maxCatchUp bounds how many blocks of EntryPoint logs are read after
	// a stop. Operations that landed before those are released when their
	// window ends, refunded in full.
	maxCatchUp = 10_000
	// logChunk is the most blocks one eth_getLogs asks for, under the
	// range limits of common RPC providers.
	logChunk = 2_000
)

// userOperationEvent is the topic of EntryPoint v0.6's UserOperationEvent.
var userOperationEvent = crypto.Keccak256Hash([]byte("UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)"))

// gasPaidInTokenV07 is the topic of TokenPaymasterV07's GasPaidInToken,
// whose first indexed field is the operation's hash.
var gasPaidInTokenV07 = crypto.Keccak256Hash([]byte("GasPaidInToken(bytes32,address,address,uint8,uint256,uint256,uint256)"))

// opEvent is a UserOperationEvent of this paymaster.
type opEvent struct {
	hash    common.Hash
	success bool
	actual  *big.Int // nil if the log is short
	block   uint64
	// paid is whether TokenPaymasterV07 logged GasPaidInToken for the
	// operation: its gas was paid in tokens.
	paid bool
}

// refresh releases the reservations of operations that landed (refunding
// the unused part) or expired (refunding all of it). Unless forced, it
// reads the EntryPoint's logs at most every 250 ms. Failures are logged:
// what is not released now is on a later refresh.
func (s *Service) refresh(ctx context.Context, now time.Time, force bool) {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	if !force && now.Sub(s.polled) < 250*time.Millisecond {
		return
	}
	s.polled = now
	if err := s.readLogs(ctx, now); err != nil {
		s.log.Warn("releasing sponsored operations", zap.Error(err))
	}
}

// readLogs reads the logs from where the ledger stopped to the chain's
// head, at most maxCatchUp blocks, and applies them. Only then does it
// expire reservations: an operation can land in a block stamped up to its
// validUntil, so its event is looked for first. now is taken before the
// head is read, so every such block is at or below the head.
func (s *Service) readLogs(ctx context.Context, now time.Time) error {
	led, err := s.loadService()
	if err != nil {
		return err
	}
	var h hexutil.Uint64
	if err := s.cfg.Chain.CallContext(ctx, &h, "eth_blockNumber"); err != nil {
		return fmt.Errorf("reading the chain's head: %w", err)
	}
	head := uint64(h)
	from := led.Next
	switch {
	case led.Next == 0:
		from = head // a new ledger: no earlier operation was sponsored from it
	case head+1 < led.Next:
		// The chain is behind the ledger: a new chain (a devnet restarted
		// on a kept store). Read it from here on.
		s.log.Warn("the chain's head is below the ledger's last block; reading logs from the head", zap.Uint64("head", head), zap.Uint64("ledger", led.Next-1))
		if err := s.rewind(head); err != nil {
			return err
		}
		from = head + 1
	case head+1-led.Next > maxCatchUp:
		s.log.Warn("skipping EntryPoint logs older than the catch-up bound; their operations are released at expiry", zap.Uint64("from", from), zap.Uint64("head", head))
		from = head + 1 - maxCatchUp
	}
	for from <= head {
		to := min(from+logChunk-1, head)
		events, err := s.events(ctx, from, to)
		if err != nil {
			return err
		}
		if err := s.apply(events, to, now); err != nil {
			return err
		}
		from = to + 1
	}
	return s.expire(now)
}

// paymasterTopics are the topics of this service's paymasters: the
// VerifyingPaymasters and, if set, the token paymasters.
func (s *Service) paymasterTopics() []common.Hash {
	var t []common.Hash
	for _, d := range s.eps {
		for _, a := range []common.Address{d.Paymaster, d.TokenPaymaster} {
			if a != (common.Address{}) {
				t = append(t, common.BytesToHash(a.Bytes()))
			}
		}
	}
	return t
}

// logEntry is an eth_getLogs entry.
type logEntry struct {
	Topics      []common.Hash  `json:"topics"`
	Data        hexutil.Bytes  `json:"data"`
	BlockNumber hexutil.Uint64 `json:"blockNumber"`
	Removed     bool           `json:"removed"`
}

// paidInTokens is the set of operations the token paymasters of the
// EntryPoints that hold type 2 until it lands (TokenPaymasterV07) logged
// GasPaidInToken for in blocks from to to; nil without one.
func (s *Service) paidInTokens(ctx context.Context, from, to uint64) (map[common.Hash]bool, error) {
	var held []common.Address
	for _, d := range s.eps {
		if d.EntryPoint.HeldUntilLanded() && d.TokenPaymaster != (common.Address{}) {
			held = append(held, d.TokenPaymaster)
		}
	}
	if len(held) == 0 {
		return nil, nil
	}
	var logs []logEntry
	filter := map[string]any{
		"address":   held,
		"fromBlock": hexutil.Uint64(from),
		"toBlock":   hexutil.Uint64(to),
		"topics":    []any{gasPaidInTokenV07},
	}
	if err := s.cfg.Chain.CallContext(ctx, &logs, "eth_getLogs", filter); err != nil {
		return nil, fmt.Errorf("reading GasPaidInToken logs of blocks %d to %d: %w", from, to, err)
	}
	paid := make(map[common.Hash]bool, len(logs))
	for _, l := range logs {
		if !l.Removed && len(l.Topics) >= 2 {
			paid[l.Topics[1]] = true
		}
	}
	return paid, nil
}

// events reads this paymaster's UserOperationEvents in blocks from to to.
func (s *Service) events(ctx context.Context, from, to uint64) ([]opEvent, error) {
	var logs []logEntry
	// v0.7's UserOperationEvent has v0.6's signature.
	addresses, paymasters := make([]common.Address, len(s.eps)), s.paymasterTopics()
	for i, d := range s.eps {
		addresses[i] = d.EntryPoint.Address()
	}
	filter := map[string]any{
		"address":   addresses,
		"fromBlock": hexutil.Uint64(from),
		"toBlock":   hexutil.Uint64(to),
		"topics":    []any{userOperationEvent, nil, nil, paymasters},
	}
	if err := s.cfg.Chain.CallContext(ctx, &logs, "eth_getLogs", filter); err != nil {
		return nil, fmt.Errorf("reading UserOperationEvent logs of blocks %d to %d: %w", from, to, err)
	}
	// Read after the UserOperationEvents, over the same blocks: a
	// GasPaidInToken is in the transaction of its operation's event.
	paid, err := s.paidInTokens(ctx, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]opEvent, 0, len(logs))
	for _, l := range logs {
		if l.Removed || len(l.Topics) < 2 {
			continue
		}
		ev := opEvent{hash: l.Topics[1], success: true, block: uint64(l.BlockNumber), paid: paid[l.Topics[1]]}
		if len(l.Data) >= 96 {
			// nonce, success, actualGasCost, actualGasUsed
			ev.success = new(big.Int).SetBytes(l.Data[32:64]).Sign() != 0
			ev.actual = new(big.Int).SetBytes(l.Data[64:96])
		}
		out = append(out, ev)
	}
	return out, nil
}

// apply releases the reservations of the operations that landed by block
// to, and moves the ledger's cursor past it. Each project applies an event
// once (its record names the last block applied), so logs read again after
// a crash, or by another Service on the same ledger, change nothing.
func (s *Service) apply(events []opEvent, to uint64, now time.Time) error {
	names, err := s.projectNames()
	if err != nil {
		return err
	}
	var touched []string
	failed := map[common.Address]bool{}
	for _, name := range names {
		l, err := s.loadProject(name)
		if err != nil {
			return err
		}
		mine := false
		for _, ev := range events {
			r, ok := l.holds(ev.hash)
			if !ok || ev.block <= l.Block {
				continue
			}
			mine = true
			if (!ev.success && r.Token == (common.Address{})) || (r.held() && !ev.paid) {
				// Its execution failed after validation passed, or a
				// type 2 operation on v0.7 dodged its postOp: the
				// paymaster paid for nothing. Its sender and owner are
				// not sponsored again for a while.
				failed[r.Sender], failed[r.Owner] = true, true
				s.log.Info("a sponsored operation failed in execution", zap.Stringer("sender", r.Sender), zap.Stringer("owner", r.Owner))
			}
		}
		if mine {
			touched = append(touched, name)
		}
	}
	delete(failed, common.Address{})
	// Suspensions are written before the operations are released: after a
	// crash in between, the logs are read again and the suspensions
	// written again, rather than lost.
	if len(failed) > 0 {
		if err := s.updateService(func(l *serviceLedger) bool {
			for a := range failed {
				l.Failed[a] = now.UnixMilli()
			}
			return true
		}); err != nil {
			return err
		}
	}
	for _, name := range touched {
		if err := s.updateProject(name, func(l *projectLedger) (bool, error) {
			changed := false
			for _, ev := range events {
				actual := ev.actual
				if ev.paid {
					actual = new(big.Int) // the payer's tokens paid its gas
				}
				if ev.block > l.Block && l.land(ev.hash, actual, now) {
					changed = true
				}
			}
			l.Block = max(l.Block, to)
			return changed, nil
		}); err != nil {
			return err
		}
	}
	return s.updateService(func(l *serviceLedger) bool {
		changed := to+1 > l.Next
		l.Next = max(l.Next, to+1)
		for a, at := range l.Failed {
			if now.Sub(time.UnixMilli(at)) >= s.cfg.FailurePause {
				delete(l.Failed, a)
				changed = true
			}
		}
		return changed
	})
}

// expire releases, in full, the reservations whose window has ended.
func (s *Service) expire(now time.Time) error {
	names, err := s.projectNames()
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		l, err := s.loadProject(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !slices.ContainsFunc(l.Reservations, func(r reservation) bool { return r.expired(now) }) {
			continue
		}
		errs = append(errs, s.updateProject(name, func(l *projectLedger) (bool, error) { return l.expire(now) > 0, nil }))
	}
	return errors.Join(errs...)
}

// rewind moves the ledger's cursors back to block, for a chain that is
// behind them.
func (s *Service) rewind(block uint64) error {
	names, err := s.projectNames()
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := s.updateProject(name, func(l *projectLedger) (bool, error) {
			if l.Block <= block {
				return false, nil
			}
			l.Block = block
			return true, nil
		}); err != nil {
			return err
		}
	}
	return s.updateService(func(l *serviceLedger) bool {
		l.Next = block + 1
		return true
	})
}

package facilitator

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
)

// When a settlement sent now is mined.
//
// A payment's authorization is checked at verification against the latest
// block (it must leave MinValidity, 6 s). A settlement that waits after
// that (a batched payment in the batcher's queue) can expire before it is
// mined, while its simulation, at the latest block, still passes: its
// transfer then fails on chain, the settler pays the gas, and a response
// served on broadcast is served unpaid. So just before a batch is
// simulated and signed, and before a response is served on broadcast,
// each payment must still be valid at mineBy: the time a transaction sent
// now is mined at the latest.

// The bounds of the block period measured from the chain.
const (
	// minPeriod and maxPeriod bound the measured period: a chain whose
	// blocks share a second (the timestamp's unit) counts a second, and a
	// chain idle for minutes does not refuse every payment.
	minPeriod = time.Second
	maxPeriod = 12 * time.Second
	// defaultPeriod is the period until one is measured (a chain of one
	// block).
	defaultPeriod = 2 * time.Second
	// paceGaps is how many of the latest blocks' gaps are measured.
	paceGaps = 8
	// paceRefresh is how long a measured period is trusted.
	paceRefresh = time.Minute
	// sendLatency is the time allowed between the check and the
	// transaction reaching the node (simulation, estimate, signing, the
	// store's commit).
	sendLatency = time.Second
)

// pace is the facilitator's measure of its chain's block period.
type pace struct {
	mu       sync.Mutex
	period   time.Duration // zero until measured
	measured time.Time
}

// blockPeriod is the chain's block period as last measured, without
// reading the chain: defaultPeriod before it was.
func (p *pace) blockPeriod() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.period == 0 {
		return defaultPeriod
	}
	return p.period
}

// inclusionAllowance is how long after the later of the latest block and
// the wall clock a transaction sent now is mined at the latest, for a
// chain of the given block period: the next block, one more should the
// transaction arrive as that one is sealed, and sendLatency.
func inclusionAllowance(period time.Duration) time.Duration {
	return 2*period + sendLatency
}

// mineBy is the time at which a transaction sent now is mined at the
// latest, as far as the facilitator can tell: inclusionAllowance after
// the later of the latest block's time and the wall clock. An
// authorization must be valid after it (the token requires block time <
// validBefore) for its settlement to be sent after a wait, or its
// response served on broadcast.
func (s *Service) mineBy(ctx context.Context) (time.Time, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	head, err := s.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: reading the latest block: %v", sender.ErrUnreachable, err)
	}
	period := s.measurePace(ctx, head)
	base := s.cfg.Now()
	if t := time.Unix(int64(min(head.Time, 1<<62)), 0); t.After(base) {
		base = t
	}
	return base.Add(inclusionAllowance(period)), nil
}

// measurePace returns the chain's block period, measured again from the
// blocks before head if the last measure is older than paceRefresh: the
// shortest gap between the latest paceGaps+1 blocks, the genesis block
// aside (blocks never come faster than the period; a slot chain's missed
// slots and an on-demand chain's idle time only lengthen gaps), within
// minPeriod and maxPeriod. A read that fails keeps the last measure.
func (s *Service) measurePace(ctx context.Context, head *types.Header) time.Duration {
	p := &s.pace
	p.mu.Lock()
	fresh := p.period != 0 && s.cfg.Now().Sub(p.measured) < paceRefresh
	period := p.period
	p.mu.Unlock()
	if fresh {
		return period
	}
	// The genesis block's time is not a block period's (the devnet's is
	// its start), so the gaps measured are after block 1.
	n := head.Number.Uint64()
	if n < 2 {
		return p.blockPeriod()
	}
	k := min(n-1, paceGaps)
	headers := make([]*types.Header, k)
	calls := make([]rpc.BatchElem, k)
	for i := range calls {
		number := hexutil.EncodeBig(new(big.Int).SetUint64(n - k + uint64(i)))
		calls[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{number, false}, Result: &headers[i]}
	}
	err := s.rpc.BatchCallContext(ctx, calls)
	gap := uint64(maxPeriod / time.Second)
	prev := head
	for i := int(k) - 1; err == nil && i >= 0; i-- {
		if calls[i].Error != nil || headers[i] == nil {
			err = missingBlock(calls[i].Error)
			break
		}
		if prev.Time >= headers[i].Time {
			gap = min(gap, prev.Time-headers[i].Time)
		}
		prev = headers[i]
	}
	if err != nil {
		s.log.Warn("measuring the chain's block period", zap.Error(err))
		return p.blockPeriod()
	}
	period = min(max(time.Duration(gap)*time.Second, minPeriod), maxPeriod)
	p.mu.Lock()
	p.period, p.measured = period, s.cfg.Now()
	p.mu.Unlock()
	return period
}

// missingBlock is err, or an error saying a block was missing.
func missingBlock(err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("a block of the chain's latest is missing")
}

// validAt reports whether an authorization valid before validBefore (zero:
// no bound) is still valid in a block mined by by.
func validAt(validBefore, by time.Time) bool {
	return validBefore.IsZero() || validBefore.After(by)
}

// expiredWhenMined reports whether rec's signature (of an expiring scheme,
// scheme.Expiring: exact's EIP-3009 authorization) had expired at the
// block that mined receipt's transaction (alone, or an item in a batch),
// which then reverted for that, not for anything its payer did, although,
// when it was claimed, it left what a transaction needs to be mined
// (inclusionAllowance): a payer who signs authorizations too short for the
// chain (6 s, verification's minimum, on a chain of 12 s blocks) to have
// their settlements revert at the settler's cost is not excused.
// False when it cannot tell.
func (s *Service) expiredWhenMined(ctx context.Context, rec *store.Record, receipt *types.Receipt) bool {
	exp, ok := s.table().byName[rec.Scheme].(scheme.Expiring)
	if !ok {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	tx, _, err := s.eth.TransactionByHash(ctx, receipt.TxHash)
	if err != nil {
		return false
	}
	validBefore, ok := exp.ValidBeforeIn(rec, tx, s.batchContract())
	if !ok || validBefore > 1<<62 ||
		time.Unix(int64(validBefore), 0).Before(rec.Created.Add(inclusionAllowance(s.pace.blockPeriod()))) {
		return false
	}
	head, err := s.eth.HeaderByHash(ctx, receipt.BlockHash)
	return err == nil && head.Time >= validBefore
}

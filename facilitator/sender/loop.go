package sender

import (
	"cmp"
	"context"
	"errors"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"
)

const (
	// minCheckGap is the least time between two checks, however often the
	// loop is poked.
	minCheckGap = 50 * time.Millisecond
	// maxCheckBatch bounds the transactions one check broadcasts; the rest
	// wait for the next check. Providers commonly cap batches at 100.
	maxCheckBatch = 100
)

// loop runs a check every CheckInterval, or sooner when poked, until ctx is
// done.
func (s *Sender) loop(ctx context.Context) {
	defer s.wg.Done()
	tick := time.NewTicker(s.cfg.CheckInterval)
	defer tick.Stop()
	gap := time.NewTimer(0)
	defer gap.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-s.kick:
		}
		s.check(ctx)
		s.checks.Add(1)
		gap.Reset(min(s.cfg.CheckInterval, minCheckGap))
		select {
		case <-ctx.Done():
			return
		case <-gap.C:
		}
	}
}

// chainState is what a check reads of the chain, in one batch.
type chainState struct {
	mined, pending uint64   // the settler's nonce in the latest block and in the pool
	baseFee        *big.Int // the latest block's base fee
	tip            *big.Int // the node's suggested tip; nil if it has none
}

// read reads the chain state a check needs in one batch.
func (s *Sender) read(ctx context.Context) (chainState, error) {
	var (
		mined, pending hexutil.Uint64
		head           struct {
			BaseFee *hexutil.Big `json:"baseFeePerGas"`
		}
		tip hexutil.Big
	)
	b := []rpc.BatchElem{
		{Method: "eth_getTransactionCount", Args: []any{s.from, "latest"}, Result: &mined},
		{Method: "eth_getTransactionCount", Args: []any{s.from, "pending"}, Result: &pending},
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
		{Method: "eth_maxPriorityFeePerGas", Result: &tip},
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	if err := s.cfg.Batcher.BatchCallContext(ctx, b); err != nil {
		return chainState{}, err
	}
	for _, e := range b[:3] {
		if e.Error != nil {
			return chainState{}, e.Error
		}
	}
	st := chainState{mined: uint64(mined), pending: uint64(pending), baseFee: new(big.Int)}
	if head.BaseFee != nil {
		st.baseFee = head.BaseFee.ToInt()
	}
	if b[3].Error == nil {
		st.tip = tip.ToInt()
	}
	return st, nil
}

// job is one nonce a check broadcasts: a kept transaction again, a filler
// for a hole, or a replacement with higher fees.
type job struct {
	nonce   uint64
	old     *types.Transaction // the kept transaction (for a replacement: the version it replaces)
	filler  bool               // the Sender's own no-op transfer: no Replace hook
	hole    bool               // nothing signed yet: sign a filler
	replace bool               // sign a replacement of old with higher fees
	tx      *types.Transaction // what goes out
}

// check compares the kept transactions with the chain: it forgets mined
// ones, broadcasts again, in nonce order, those from the node's pending
// nonce up (the node lost them, or never got them), fills holes there, and
// replaces stuck ones with higher fees.
func (s *Sender) check(ctx context.Context) {
	s.mu.Lock()
	idle := len(s.kept) == 0 && len(s.holes) == 0
	s.mu.Unlock()
	if idle {
		return
	}
	// Every nonce below delivered is out and answered (no batch of it is on
	// its way), so if the node's pending nonce read afterwards is lower, the
	// node lacks the transactions from there.
	s.flush.Lock()
	s.mu.Lock()
	delivered, resyncs := s.sent, s.resyncs
	s.mu.Unlock()
	s.flush.Unlock()
	st, err := s.read(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Debug("reading the chain for the sender's check", zap.Error(err))
		}
		return
	}
	s.setFees(st.baseFee, st.tip)
	s.flush.Lock()
	defer s.flush.Unlock()
	jobs, advanced := s.plan(st, delivered, resyncs, time.Now())
	if advanced {
		s.deliverLocked(ctx)
	}
	jobs = s.prepare(ctx, st, jobs)
	if len(jobs) == 0 {
		return
	}
	txs := make([]*types.Transaction, len(jobs))
	for i, j := range jobs {
		txs[i] = j.tx
	}
	s.settle(jobs, s.broadcast(ctx, txs))
}

// plan applies the chain state and picks the jobs of a check, lowest nonce
// first: the kept transactions from the node's pending nonce up to
// delivered (the node lacks them), fillers for the holes there, and
// replacements of stuck transactions. advanced reports that the Sender's
// nonce moved. resyncs is s.resyncs when delivered was taken.
func (s *Sender) plan(st chainState, delivered, resyncs uint64, now time.Time) (jobs []job, advanced bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	before := s.sent
	s.observeLocked(st.mined, st.pending)
	if s.resyncs == resyncs {
		// No delivery has asked for a resync since the reading: it is
		// as good as allocate's.
		s.synced = true
	}
	if s.passKeptLocked() {
		delivered = s.sent
	}
	advanced = s.sent != before
	for n, k := range s.kept {
		lost := n >= st.pending && n < delivered
		if s.replaceable(k, st.baseFee, now) {
			jobs = append(jobs, job{nonce: n, old: k.latest(), filler: k.filler, replace: true})
		} else if lost {
			jobs = append(jobs, job{nonce: n, old: k.cur, filler: k.filler, tx: k.cur})
		}
	}
	for n := range s.holes {
		if n >= st.pending && n < delivered {
			jobs = append(jobs, job{nonce: n, filler: true, hole: true})
		}
	}
	slices.SortFunc(jobs, func(a, b job) int { return cmp.Compare(a.nonce, b.nonce) })
	if len(jobs) > maxCheckBatch {
		jobs = jobs[:maxCheckBatch]
	}
	return jobs, advanced
}

// maxPass bounds how far passKeptLocked moves the Sender's nonce.
const maxPass = 1024

// passKeptLocked moves the Sender's nonce past the transactions given to
// Rebroadcast above it (an earlier process signed them) when nothing is
// handed out, marking the nonces between as holes: the earlier process may
// have handed them out and died before storing them, and the transactions
// above wait for them. It reports whether it moved. s.mu is held.
func (s *Sender) passKeptLocked() bool {
	if s.next != s.sent {
		return false
	}
	top, found := uint64(0), false
	for n := range s.kept {
		if n >= s.sent && (!found || n > top) {
			top, found = n, true
		}
	}
	if !found || top-s.sent >= maxPass {
		return false
	}
	for n := s.sent; n < top; n++ {
		if _, ok := s.kept[n]; !ok {
			s.holes[n] = struct{}{}
		}
	}
	s.sent, s.next = top+1, top+1
	return true
}

// replaceable reports whether k is due for a replacement: out for
// ReplaceAfter, and refused for its price or under the base fee. k's owner
// guards it: s.mu for the Sender's kept transactions, the lease's
// goroutine for a fleet delivery's.
func (s *Sender) replaceable(k *kept, baseFee *big.Int, now time.Time) bool {
	if k.final || (!k.filler && s.cfg.Replace == nil) || now.Sub(k.since) < s.cfg.ReplaceAfter {
		return false
	}
	return k.refused || baseFee.Cmp(k.latest().GasFeeCap()) > 0
}

// prepare signs the fillers and replacements of jobs, and tells the caller
// of each replacement before it goes out. A replacement that cannot be made
// falls back to broadcasting the kept transaction again if the node lacks
// it, or is dropped.
func (s *Sender) prepare(ctx context.Context, st chainState, jobs []job) []job {
	out := jobs[:0]
	for _, j := range jobs {
		switch {
		case j.hole:
			tx, err := s.filler(ctx, j.nonce)
			if err != nil {
				s.log.Warn("signing a nonce filler", zap.Uint64("nonce", j.nonce), zap.Error(err))
				continue
			}
			s.mu.Lock()
			if _, still := s.holes[j.nonce]; !still {
				s.mu.Unlock()
				continue
			}
			s.keepLocked(j.nonce, tx, true)
			s.mu.Unlock()
			j.tx = tx
		case j.replace:
			tx, err := s.replacement(st, j)
			if err != nil {
				s.note(j.nonce, "not replacing a stuck transaction", err)
				if !s.fallback(&j, st) {
					continue
				}
				break
			}
			s.mu.Lock()
			k, ok := s.kept[j.nonce]
			added := ok && k.latest() == j.old
			if added {
				// Known to Wait before it goes out.
				k.txs = append(k.txs, tx)
				s.byHash[tx.Hash()] = j.nonce
			}
			s.mu.Unlock()
			if !added {
				continue // mined meanwhile
			}
			j.tx = tx
			s.log.Info("replacing a stuck transaction with higher fees",
				zap.Uint64("nonce", j.nonce), zap.Stringer("old", j.old.Hash()), zap.Stringer("new", tx.Hash()),
				zap.Stringer("fee_cap", tx.GasFeeCap()), zap.Stringer("tip", tx.GasTipCap()), zap.Stringer("base_fee", st.baseFee))
		}
		out = append(out, j)
	}
	return out
}

// fallback turns a replacement that could not be made into broadcasting
// the kept transaction again, if the node lacks it; false means there is
// nothing to broadcast.
func (s *Sender) fallback(j *job, st chainState) bool {
	if j.nonce < st.pending {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.kept[j.nonce]
	if !ok {
		return false
	}
	j.replace, j.tx = false, k.cur
	return true
}

// errCeiling means a stuck transaction cannot be replaced without going over
// Config.MaxFeePerGas.
var errCeiling = errors.New("the fee cap ceiling leaves no room for a replacement")

// replacement signs j.old again with higher fees and, for a caller's
// transaction, hands it to Config.Replace.
func (s *Sender) replacement(st chainState, j job) (*types.Transaction, error) {
	tip, feeCap, ok := bump(j.old.GasTipCap(), j.old.GasFeeCap(), st.baseFee, st.tip, s.cfg.MaxFeePerGas)
	if !ok {
		return nil, errCeiling
	}
	tx, err := types.SignNewTx(s.cfg.Key, s.signer, s.txData(j.nonce, *j.old.To(), j.old.Value(), j.old.Data(),
		j.old.Gas(), j.old.AccessList(), j.old.SetCodeAuthorizations(), tip, feeCap))
	if err != nil {
		return nil, err
	}
	if !j.filler {
		if err := s.cfg.Replace(j.old, tx); err != nil {
			return nil, err
		}
	}
	return tx, nil
}

// settle records the node's answers to a check's broadcast.
func (s *Sender) settle(jobs []job, answers []error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var restored []uint64
	for i, j := range jobs {
		k, ok := s.kept[j.nonce]
		if !ok {
			continue // mined meanwhile
		}
		elErr := answers[i]
		switch {
		case elErr == nil, errors.Is(elErr, errAlreadyKnown):
			if elErr == nil && !j.replace && !j.hole {
				restored = append(restored, j.nonce)
			}
			s.keepLocked(j.nonce, j.tx, j.filler)
			k.refused, k.lastErr = false, ""
		case errors.Is(elErr, errPrice), errors.Is(elErr, errNonceHeld):
			k.refused = true
			s.noteKept(k, j.nonce, "the node refused a transaction for its price", elErr)
		case errors.Is(elErr, ErrNonceTooLow):
			// Mined, by this transaction or another version: the next
			// check forgets it.
		case j.replace && errors.Is(elErr, ErrUnreachable):
			// Not delivered: try again after ReplaceAfter, not at once.
			k.since = time.Now()
			s.noteKept(k, j.nonce, "broadcasting a replacement", elErr)
		case j.replace && errors.Is(elErr, ErrRejected):
			k.final = true
			s.noteKept(k, j.nonce, "the node refused a replacement; not replacing again", elErr)
		case j.replace:
			// It may be out: it is the one to send again from now on, and
			// the next replacement waits ReplaceAfter.
			s.keepLocked(j.nonce, j.tx, j.filler)
			s.noteKept(k, j.nonce, "broadcasting a replacement", elErr)
		default:
			s.noteKept(k, j.nonce, "broadcasting a kept transaction again", elErr)
		}
	}
	if len(restored) > 0 {
		s.log.Info("broadcast again transactions the node did not have",
			zap.Int("count", len(restored)), zap.Uint64("from_nonce", restored[0]), zap.Uint64("to_nonce", restored[len(restored)-1]))
	}
}

// noteKept logs a kept transaction's error once, until it changes. k's
// owner guards it, as for replaceable.
func (s *Sender) noteKept(k *kept, nonce uint64, msg string, err error) {
	if e := err.Error(); e != k.lastErr {
		k.lastErr = e
		s.log.Warn(msg, zap.Uint64("nonce", nonce), zap.Error(err))
	}
}

// note is noteKept by nonce; it takes s.mu.
func (s *Sender) note(nonce uint64, msg string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.kept[nonce]; ok {
		s.noteKept(k, nonce, msg, err)
	}
}

package sender

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"
)

// deliver sends the contiguous run of ready transactions from the lowest
// unsent nonce, in order, in one batch.
func (s *Sender) deliver(ctx context.Context) {
	s.flush.Lock()
	defer s.flush.Unlock()
	s.deliverLocked(ctx)
}

// deliverLocked is deliver with s.flush held.
func (s *Sender) deliverLocked(ctx context.Context) {
	s.mu.Lock()
	var run []*entry
	// Bounded: each step takes a ready entry or passes a kept transaction.
	for {
		if e, ok := s.ready[s.sent]; ok {
			delete(s.ready, s.sent)
			run = append(run, e)
		} else if k, ok := s.kept[s.sent]; ok {
			// Given to Rebroadcast before this Sender reached its nonce:
			// it goes out again in its place.
			run = append(run, &entry{nonce: s.sent, tx: k.cur, filler: k.filler})
		} else {
			break
		}
		s.sent++
	}
	s.mu.Unlock()
	if len(run) == 0 {
		return
	}
	var txs []*types.Transaction
	var out []*entry
	for _, e := range run {
		if e.tx == nil {
			tx, err := s.filler(ctx, e.nonce)
			if err != nil {
				s.log.Warn("signing a nonce filler", zap.Uint64("nonce", e.nonce), zap.Error(err))
				s.mu.Lock()
				s.holes[e.nonce] = struct{}{}
				s.mu.Unlock()
				e.done <- nil
				continue
			}
			e.tx = tx
		}
		txs = append(txs, e.tx)
		out = append(out, e)
	}
	if len(txs) == 0 {
		s.poke()
		return
	}
	answers := s.broadcast(context.WithoutCancel(ctx), txs)
	s.mu.Lock()
	resync, poke := false, false
	results := make([]error, len(out))
	for i, e := range out {
		elErr := answers[i]
		switch {
		case elErr == nil, errors.Is(elErr, errAlreadyKnown):
			elErr = nil
			s.keepLocked(e.nonce, e.tx, e.filler).refused = false
		case errors.Is(elErr, errPrice):
			// Refused for its price alone: the Sender owns it now, and
			// broadcasts it again, then replaces it with higher fees.
			s.keepLocked(e.nonce, e.tx, e.filler).refused = true
			s.log.Warn("the node refused a transaction for its price; it will be sent again", zap.Uint64("nonce", e.nonce), zap.Error(elErr))
			elErr, poke = nil, true
		case e.done == nil:
			// A kept transaction sent again: it stays kept whatever the
			// answer; the loop sorts it out.
			if k, ok := s.kept[e.nonce]; ok && errors.Is(elErr, errNonceHeld) {
				k.refused = true
			}
			poke = true
		case errors.Is(elErr, errNonceHeld):
			// Another transaction holds the nonce: it is taken.
			elErr = fmt.Errorf("%w: %w", ErrNonceTooLow, elErr)
			resync = true
		case errors.Is(elErr, ErrNonceTooLow):
			resync = true
		case errors.Is(elErr, ErrUnreachable), errors.Is(elErr, ErrRejected):
			// Certainly not delivered: the nonce must be filled.
			s.holes[e.nonce] = struct{}{}
			resync, poke = true, true
		default:
			// Delivery unknown: keep it; if the node does not have it, the
			// next check sends it again.
			s.keepLocked(e.nonce, e.tx, e.filler)
			poke = true
		}
		if elErr != nil && !errors.Is(elErr, ErrUnreachable) {
			s.log.Warn("broadcast failed", zap.Uint64("nonce", e.nonce), zap.Error(elErr))
		}
		results[i] = elErr
	}
	// Holes at the top with nothing handed out above them need no filler:
	// the nonces are handed out again.
	for s.next == s.sent && s.sent > 0 {
		if _, ok := s.holes[s.sent-1]; !ok {
			break
		}
		delete(s.holes, s.sent-1)
		s.sent--
		s.next--
	}
	if resync {
		// The node's nonce may not be where we thought: the next Sign reads
		// it again.
		s.synced = false
		s.resyncs++
	}
	s.mu.Unlock()
	for i, e := range out {
		if e.done != nil {
			e.done <- results[i]
		}
	}
	if poke {
		s.poke()
	}
}

// broadcast sends txs to the node in one JSON-RPC batch, in this order,
// and returns the node's classified answer to each. A batch that failed as
// a whole gives every transaction its error.
func (s *Sender) broadcast(ctx context.Context, txs []*types.Transaction) []error {
	batch := make([]rpc.BatchElem, len(txs))
	for i, tx := range txs {
		raw, err := tx.MarshalBinary()
		if err != nil {
			// Unreachable for a transaction that was signed.
			s.log.Error("encoding a transaction", zap.Uint64("nonce", tx.Nonce()), zap.Error(err))
		}
		batch[i] = rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Bytes(raw)}, Result: new(common.Hash)}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	err := s.cfg.Batcher.BatchCallContext(ctx, batch)
	cancel()
	answers := make([]error, len(txs))
	for i := range batch {
		answers[i] = err
		if err == nil {
			answers[i] = batch[i].Error
		}
		answers[i] = classify(answers[i])
	}
	return answers
}

// keepLocked records that tx, for its nonce, is out (or may be), and returns
// the nonce's record. s.mu is held.
func (s *Sender) keepLocked(nonce uint64, tx *types.Transaction, filler bool) *kept {
	delete(s.holes, nonce)
	k, ok := s.kept[nonce]
	if !ok {
		k = &kept{filler: filler}
		s.kept[nonce] = k
	}
	if _, known := s.byHash[tx.Hash()]; !known {
		k.txs = append(k.txs, tx)
		s.byHash[tx.Hash()] = nonce
	}
	if k.cur == nil || k.cur.Hash() != tx.Hash() {
		k.cur, k.since = tx, time.Now()
	}
	return k
}

// forgetLocked drops a mined nonce's record. The hashes of a replaced
// transaction's versions stay known for a while, for Wait. s.mu is held.
func (s *Sender) forgetLocked(nonce uint64) {
	k := s.kept[nonce]
	delete(s.kept, nonce)
	hashes := make([]common.Hash, len(k.txs))
	for i, tx := range k.txs {
		hashes[i] = tx.Hash()
		delete(s.byHash, hashes[i])
	}
	if len(hashes) < 2 {
		return
	}
	for _, h := range hashes {
		s.retired[h] = hashes
		s.retire = append(s.retire, h)
	}
	for len(s.retire) > retiredMax {
		delete(s.retired, s.retire[0])
		s.retire = s.retire[1:]
	}
}

// filler signs a 0-value transfer to the settler with a released nonce.
func (s *Sender) filler(ctx context.Context, nonce uint64) (*types.Transaction, error) {
	tip, feeCap, err := s.fees(ctx)
	if err != nil {
		return nil, err
	}
	return s.sign(nonce, Call{To: s.from, Gas: 21_000}, tip, feeCap)
}

// Rebroadcast sends a transaction signed earlier (by this process or an
// earlier one) again, outside the nonce order; it is how a pending
// settlement is resumed. A transaction of the settler's is kept from then
// on like one given to Send: broadcast again if the node loses it, and
// replaced if it is stuck. If the Sender has replaced it, the current
// version is broadcast instead. Errors are classified as for Send.
//
// In fleet mode the journal's entry of the nonce decides: its current
// version is broadcast (the deliverer then sees to it), and a transaction
// given up, replaced by another, or absent from the journal above the
// chain's nonce is refused with ErrNonceTooLow, as it will never be mined.
func (s *Sender) Rebroadcast(ctx context.Context, tx *types.Transaction) error {
	if s.cfg.Journal != nil {
		return s.rebroadcastFleet(ctx, tx)
	}
	send, mine := tx, false
	if from, err := types.Sender(s.signer, tx); err == nil && from == s.from {
		n := tx.Nonce()
		s.mu.Lock()
		_, outstanding := s.out[n]
		_, waiting := s.ready[n]
		switch k, ok := s.kept[n]; {
		case ok:
			if _, known := s.byHash[tx.Hash()]; known {
				send, mine = k.cur, true
			}
		case outstanding || waiting || (s.synced && n < s.mined):
			// This process signed another transaction with the nonce, or
			// it is mined: the node decides.
		default:
			s.keepLocked(n, tx, false)
			mine = true
		}
		s.mu.Unlock()
	}
	err := classify(s.cfg.Backend.SendTransaction(ctx, send))
	switch {
	case err == nil, errors.Is(err, errAlreadyKnown):
		return nil
	case mine && (errors.Is(err, errPrice) || errors.Is(err, errNonceHeld)):
		s.mu.Lock()
		if k, ok := s.kept[send.Nonce()]; ok && k.cur == send {
			k.refused = true
		}
		s.mu.Unlock()
		s.poke()
		return nil
	}
	return err
}

// poke brings the next check forward.
func (s *Sender) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

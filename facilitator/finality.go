package facilitator

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
)

// Chain reorganisations.
//
// A settlement is reported final once its transaction's block is
// Config.Confirmations blocks deep; the receipt is read again at that
// depth, and if a reorganisation moved the transaction to another block the
// count starts again from that block, and if it took it out of the chain
// the settle waits for it to be mined again (it is broadcast again).
//
// After that, the finality watcher keeps an eye on every settlement it
// finished until its block is ReorgDepth blocks deep: a reorganisation
// deeper than the confirmations can still take the transaction out. The
// watcher then broadcasts the stored transaction again, so that the
// payment it carries is settled after all (the authorization is still
// unused on the new branch), and logs what happened: re-included, lost, or
// re-mined and reverted (the payer moved its funds meanwhile: the response
// was served unpaid, an error the merchant must see).

// ReorgDepth is how many blocks deep the finality watcher follows a
// finished settlement: far deeper than the reorganisations of the chains
// x402 runs on (L2 sequencers and Ethereum's finality both bound them to a
// few blocks), within what a node keeps.
const ReorgDepth = 64

// maxWatched bounds the settlements the finality watcher follows; the
// oldest are dropped first.
const maxWatched = 20_000

// confirmPoll is how often confirm reads the head while it waits.
const confirmPoll = 100 * time.Millisecond

// confirm waits until receipt's block is Confirmations blocks deep and
// returns the transaction's receipt read again then. If a reorganisation
// moved the transaction to another block, the count starts again there;
// if it took it out of the chain, confirm broadcasts rec's transaction
// again and waits for it to be mined. It returns ctx's error when ctx ends
// first.
func (s *Service) confirm(ctx context.Context, rec *store.Record, receipt *types.Receipt) (*types.Receipt, error) {
	if s.cfg.Confirmations == 0 {
		return receipt, nil
	}
	for {
		head, err := s.eth.BlockNumber(ctx)
		if err != nil {
			return nil, err
		}
		if head < receipt.BlockNumber.Uint64()+s.cfg.Confirmations {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(confirmPoll):
			}
			continue
		}
		again, err := s.eth.TransactionReceipt(ctx, receipt.TxHash)
		switch {
		case sender.Indexing(err):
			// The node cannot tell yet whether the transaction is still
			// in the chain: look again, as for a head not deep enough.
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(confirmPoll):
			}
		case err == nil && again.BlockHash == receipt.BlockHash:
			return again, nil
		case err == nil:
			s.log.Info("a settlement moved to another block in a reorganisation; counting its confirmations again",
				zap.Stringer("tx", receipt.TxHash), zap.Uint64("block", again.BlockNumber.Uint64()))
			receipt = again
		case errors.Is(err, ethereum.NotFound):
			s.log.Warn("a settlement left the chain in a reorganisation before its confirmations; broadcasting it again",
				zap.Stringer("tx", receipt.TxHash))
			s.rebroadcastMined(ctx, rec, receipt.TxHash)
			if receipt, err = s.sender.Wait(ctx, receipt.TxHash); err != nil {
				return nil, err
			}
		default:
			return nil, err
		}
	}
}

// rebroadcastMined broadcasts again the stored transaction of rec with
// hash, which a reorganisation took out of the chain. The record may hold
// another version of it (a replacement was mined); the node keeps what it
// already has.
func (s *Service) rebroadcastMined(ctx context.Context, rec *store.Record, hash common.Hash) {
	s.rebroadcastRaw(ctx, rec.RawTx, hash)
}

// rebroadcastRaw broadcasts again raw, a signed transaction, if it is the
// one with hash. An external bundler's settlement has none: the bundler
// sees to its own bundles.
func (s *Service) rebroadcastRaw(ctx context.Context, raw []byte, hash common.Hash) {
	if len(raw) == 0 {
		return
	}
	var tx types.Transaction
	if err := tx.UnmarshalBinary(raw); err != nil || tx.Hash() != hash {
		return
	}
	if err := s.sender.Rebroadcast(ctx, &tx); err != nil {
		s.log.Warn("broadcasting a reorganised settlement again", zap.Stringer("tx", hash), zap.Error(err))
	}
}

// watched is a finished settlement the finality watcher follows.
type watched struct {
	key   common.Hash
	tx    common.Hash
	raw   []byte
	block uint64      // its block's number; 0 while it is out of the chain
	hash  common.Hash // its block's hash
	payer common.Address
	// scheme and asset tell, with key and payer, the payment's own logs
	// in a transaction that carries several (see ownLogs).
	scheme string
	asset  common.Address
}

// reverted reports whether receipt did not settle w's payment: the
// transaction reverted, or the payment's transfer failed in its batch.
func (s *Service) reverted(w *watched, receipt *types.Receipt) bool {
	return receipt.Status != types.ReceiptStatusSuccessful ||
		s.batchFailed(&store.Record{Key: w.key, Payer: w.payer, Asset: w.asset, Scheme: w.scheme}, receipt)
}

// finality is the finality watcher's state.
type finality struct {
	mu      sync.Mutex
	fresh   []*watched // finished since the last check
	watched []*watched // the watcher's own: only checkFinality touches it
	head    uint64
	// reorgs counts the settlements it saw leave their block.
	reorgs Reorgs
}

// Reorgs counts the finished settlements that the finality watcher saw
// leave their block in a reorganisation, by what became of them.
type Reorgs struct {
	// Moved were mined again in another block, and succeeded there.
	Moved uint64
	// Dropped were not in the new branch: they were broadcast again.
	Dropped uint64
	// Reverted were mined again and reverted: the response each paid for
	// was served unpaid.
	Reverted uint64
}

// Total is how many settlements left their block.
func (r Reorgs) Total() uint64 { return r.Moved + r.Dropped + r.Reverted }

// follow adds a finished settlement to the finality watcher.
func (s *Service) follow(rec *store.Record, receipt *types.Receipt) {
	if receipt.BlockNumber == nil {
		return
	}
	w := &watched{key: rec.Key, tx: receipt.TxHash, block: receipt.BlockNumber.Uint64(), hash: receipt.BlockHash, payer: rec.Payer, scheme: rec.Scheme, asset: rec.Asset}
	var tx types.Transaction
	if len(rec.RawTx) > 0 && tx.UnmarshalBinary(rec.RawTx) == nil && tx.Hash() == receipt.TxHash {
		w.raw = rec.RawTx
	}
	s.final.mu.Lock()
	defer s.final.mu.Unlock()
	if len(s.final.fresh) >= maxWatched {
		s.final.fresh = slices.Delete(s.final.fresh, 0, len(s.final.fresh)-maxWatched+1)
	}
	s.final.fresh = append(s.final.fresh, w)
}

// Reorganised reports how many finished settlements the finality watcher
// saw leave their block in a reorganisation, since the service started.
func (s *Service) Reorganised() Reorgs {
	s.final.mu.Lock()
	defer s.final.mu.Unlock()
	return s.final.reorgs
}

// watchFinality runs the finality watcher every interval until ctx ends.
func (s *Service) watchFinality(ctx context.Context, interval time.Duration) {
	defer s.wg.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.checkFinality(ctx)
	}
}

// checkFinality compares the blocks of the followed settlements with the
// chain, when its head moved: one batch of block headers, and the receipts
// of those whose block changed.
func (s *Service) checkFinality(ctx context.Context) {
	s.final.mu.Lock()
	s.final.watched = append(s.final.watched, s.final.fresh...)
	s.final.fresh = nil
	if len(s.final.watched) > maxWatched {
		s.final.watched = slices.Delete(s.final.watched, 0, len(s.final.watched)-maxWatched)
	}
	list, last := s.final.watched, s.final.head
	s.final.mu.Unlock()
	if len(list) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	head, err := s.eth.BlockNumber(ctx)
	if err != nil || head == last {
		return
	}

	// The canonical hash of every block a followed settlement is in.
	var numbers []uint64
	for _, w := range list {
		if w.block != 0 && !slices.Contains(numbers, w.block) {
			numbers = append(numbers, w.block)
		}
	}
	canonical := make(map[uint64]common.Hash, len(numbers))
	for chunk := range slices.Chunk(numbers, 100) {
		heads := make([]*types.Header, len(chunk))
		b := make([]rpc.BatchElem, len(chunk))
		for i, num := range chunk {
			b[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.EncodeBig(new(big.Int).SetUint64(num)), false}, Result: &heads[i]}
		}
		if err := s.rpc.BatchCallContext(ctx, b); err != nil {
			return
		}
		for i, h := range heads {
			if b[i].Error == nil && h != nil {
				canonical[chunk[i]] = h.Hash()
			}
		}
	}
	var keep []*watched
	for _, w := range list {
		if w.block != 0 && canonical[w.block] == w.hash {
			if head < w.block+ReorgDepth {
				keep = append(keep, w)
			}
			continue
		}
		if w.block != 0 && canonical[w.block] == (common.Hash{}) && head >= w.block {
			keep = append(keep, w) // the header did not come back: look again next time
			continue
		}
		// Its block left the chain, or it was out of it already.
		receipt, err := s.eth.TransactionReceipt(ctx, w.tx)
		switch {
		case sender.Indexing(err):
			keep = append(keep, w) // the node cannot tell yet: next time
		case err == nil:
			if w.block != 0 || s.reverted(w, receipt) {
				s.noteReorg(w, receipt)
			} else {
				s.log.Info("a settlement that left the chain in a reorganisation is mined again",
					zap.Stringer("key", w.key), zap.Stringer("tx", w.tx), zap.Uint64("block", receipt.BlockNumber.Uint64()))
			}
			w.block, w.hash = receipt.BlockNumber.Uint64(), receipt.BlockHash
			if !s.reverted(w, receipt) {
				keep = append(keep, w)
			}
		case errors.Is(err, ethereum.NotFound):
			if w.block != 0 {
				s.noteReorg(w, nil)
			}
			w.block, w.hash = 0, common.Hash{}
			s.rebroadcastRaw(ctx, w.raw, w.tx)
			keep = append(keep, w)
		default:
			keep = append(keep, w) // the chain did not answer: next time
		}
	}
	s.final.mu.Lock()
	defer s.final.mu.Unlock()
	s.final.watched, s.final.head = keep, head
}

// noteReorg logs a followed settlement that left its block; receipt is its
// receipt on the new branch, nil if it is not mined there.
func (s *Service) noteReorg(w *watched, receipt *types.Receipt) {
	s.final.mu.Lock()
	switch {
	case receipt == nil:
		s.final.reorgs.Dropped++
	case s.reverted(w, receipt):
		s.final.reorgs.Reverted++
	default:
		s.final.reorgs.Moved++
	}
	s.final.mu.Unlock()
	switch {
	case receipt == nil:
		s.log.Warn("a settled payment's transaction left the chain in a reorganisation; broadcasting it again",
			zap.Stringer("key", w.key), zap.Stringer("tx", w.tx), zap.Uint64("old_block", w.block))
	case s.reverted(w, receipt):
		s.log.Error("a settled payment's transaction reverted when a reorganisation mined it again: the response it paid for was served unpaid",
			zap.Stringer("key", w.key), zap.Stringer("tx", w.tx), zap.Stringer("payer", w.payer),
			zap.Uint64("block", receipt.BlockNumber.Uint64()))
	default:
		s.log.Info("a settled payment's transaction moved to another block in a reorganisation",
			zap.Stringer("key", w.key), zap.Stringer("tx", w.tx), zap.Uint64("old_block", w.block),
			zap.Uint64("block", receipt.BlockNumber.Uint64()))
	}
}

package sender

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"
)

// Wait waits for the receipt of hash until it is mined or ctx is done, in
// which case it returns ctx's error. The Sender's Waits share one watcher,
// which reads all their receipts in one batch on every new head (or poll).
//
// If the Sender replaced the transaction with higher fees, the receipt is
// that of whichever version was mined: every version has the same nonce,
// call and gas, and only one can be mined. The receipt's TxHash is then
// not hash; callers must take the mined transaction's hash from
// receipt.TxHash.
//
// In fleet mode Wait also follows the journal's entry of the transaction,
// so it finds a replacement made by another process's deliverer; and if
// the transaction was given up (the node refused it) and its nonce filled,
// Wait returns an error wrapping ErrRejected: it will never be mined.
func (s *Sender) Wait(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	start, poked := time.Now(), false
	hashes := s.versions([]common.Hash{hash})
	var fw fleetWait
	if s.cfg.Journal != nil {
		fw.nonce, fw.known = s.signedNonce(hash)
	}
	w := &waiter{hashes: hashes, found: make(chan *types.Receipt, 1), round: make(chan struct{}, 1)}
	s.join(w)
	defer s.leave(w)
	for {
		select {
		case receipt := <-w.found:
			return receipt, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-w.round:
		}
		// A round of the watcher found no receipt: look for versions
		// signed since, and in fleet mode for the journal's.
		n := len(hashes)
		hashes = s.versions(hashes)
		if s.cfg.Journal != nil && s.follow(ctx, hash, &hashes, &fw) {
			// One last look, for a version mined before it was given up.
			if receipt, err := s.receipt(ctx, hashes); err == nil {
				return receipt, nil
			}
			return nil, fmt.Errorf("%w: transaction %s was given up and its nonce %d filled", ErrRejected, hash, fw.nonce)
		}
		if len(hashes) != n {
			s.setHashes(w, hashes)
		}
		if !poked && time.Since(start) >= s.cfg.ReplaceAfter {
			// Long enough to be stuck: have the loop look now.
			s.poke()
			poked = true
		}
	}
}

// fleetWait is what a Wait in fleet mode knows of its transaction's
// journal entry.
type fleetWait struct {
	nonce uint64
	known bool // nonce is known
}

// follow looks up the journal's entry of hash, through a reading shared by
// the process's Waits that is at most CheckInterval old, adds the versions
// it holds to hashes, and reports whether the transaction was given up.
func (s *Sender) follow(ctx context.Context, hash common.Hash, hashes *[]common.Hash, fw *fleetWait) bool {
	e, found, err := s.entry(ctx, hash, fw.nonce, fw.known, s.cfg.CheckInterval)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Debug("receipt poll: reading the settler's journal", zap.Stringer("tx", hash), zap.Error(err))
		}
		return false
	}
	if !found || !holds(e, hash) {
		return false
	}
	fw.nonce, fw.known = e.Nonce, true
	if s.givenUp(e, hash) {
		return true
	}
	for _, h := range append(slices.Clone(e.Previous), e.Tx.Hash()) {
		if !slices.Contains(*hashes, h) {
			*hashes = append(*hashes, h)
		}
	}
	return false
}

// versions adds to hashes the hashes of every version of the same
// transactions that the Sender signed.
func (s *Sender) versions(hashes []common.Hash) []common.Hash {
	s.mu.Lock()
	defer s.mu.Unlock()
	add := func(h common.Hash) {
		if !slices.Contains(hashes, h) {
			hashes = append(hashes, h)
		}
	}
	// Bounded: hashes only grows to the versions the Sender knows.
	for i := 0; i < len(hashes); i++ {
		if n, ok := s.byHash[hashes[i]]; ok {
			for _, tx := range s.kept[n].txs {
				add(tx.Hash())
			}
		}
		for _, h := range s.retired[hashes[i]] {
			add(h)
		}
	}
	return hashes
}

// receipt returns the receipt of whichever of hashes is mined, reading them
// in one batch, or ethereum.NotFound.
func (s *Sender) receipt(ctx context.Context, hashes []common.Hash) (*types.Receipt, error) {
	if len(hashes) == 1 {
		return s.cfg.Backend.TransactionReceipt(ctx, hashes[0])
	}
	receipts := make([]*types.Receipt, len(hashes))
	b := make([]rpc.BatchElem, len(hashes))
	for i, h := range hashes {
		b[i] = rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{h}, Result: &receipts[i]}
	}
	if err := s.cfg.Batcher.BatchCallContext(ctx, b); err != nil {
		return nil, err
	}
	for i, r := range receipts {
		if b[i].Error == nil && r != nil {
			return r, nil
		}
	}
	return nil, ethereum.NotFound
}

// Delivered waits until the node has the transaction with hash, in its
// pool or mined, or ctx is done, in which case it returns ctx's error. It
// is for a transaction that Send accepted: it gives in fleet mode the
// verdict Send gives in memory mode, where Delivered returns nil at once.
// In fleet mode Send hands the transaction to the fleet's deliverer, in
// whichever process, and returns before it is broadcast; Delivered then
// watches the node and the journal. An error wrapping ErrRejected means
// the deliverer gave the transaction up (the node refused it) and filled
// its nonce: it was not delivered and never will be.
//
// A transaction the node refused for its price alone is kept and sent
// again, and replaced if Config.Replace is set, but Delivered waits until
// the node takes it.
func (s *Sender) Delivered(ctx context.Context, hash common.Hash) error {
	if s.cfg.Journal == nil {
		return nil
	}
	pause := 5 * time.Millisecond
	hashes := []common.Hash{hash}
	var fw fleetWait
	fw.nonce, fw.known = s.signedNonce(hash)
	for {
		has, err := s.nodeHas(ctx, hashes)
		if has {
			return nil
		}
		if err != nil && ctx.Err() == nil {
			s.log.Debug("delivery poll failed", zap.Stringer("tx", hash), zap.Error(err))
		}
		if s.follow(ctx, hash, &hashes, &fw) {
			// One last look, for a version mined before it was given up.
			if _, err := s.receipt(ctx, hashes); err == nil {
				return nil
			}
			return fmt.Errorf("%w: transaction %s was given up and its nonce %d filled", ErrRejected, hash, fw.nonce)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		pause = min(pause*2, s.cfg.PollInterval)
	}
}

// nodeHas reports whether the node has any of hashes, in its pool or
// mined, reading them in one batch.
func (s *Sender) nodeHas(ctx context.Context, hashes []common.Hash) (bool, error) {
	found := make([]json.RawMessage, len(hashes))
	b := make([]rpc.BatchElem, len(hashes))
	for i, h := range hashes {
		b[i] = rpc.BatchElem{Method: "eth_getTransactionByHash", Args: []any{h}, Result: &found[i]}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	if err := s.cfg.Batcher.BatchCallContext(ctx, b); err != nil {
		return false, err
	}
	for i, raw := range found {
		if b[i].Error == nil && len(raw) > 0 && string(raw) != "null" {
			return true, nil
		}
	}
	return false, nil
}

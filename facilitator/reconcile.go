package facilitator

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// reconcile settles the fate of records left unfinished by an earlier
// process: claims that never produced a transaction are released (in a
// fleet they are left to Reclaim, since a live replica may hold them);
// submitted transactions are finished if mined, and rebroadcast if not.
func (s *Service) reconcile(ctx context.Context) {
	recs, err := s.store.Unfinished()
	if err != nil {
		s.log.Error("listing unfinished settlements", zap.Error(err))
		return
	}
	for _, rec := range recs {
		switch rec.State {
		case store.StateClaimed:
			// In a fleet, another replica's settle may be signing it; the
			// payer's retry takes it over once it is stale (Reclaim).
			if s.cfg.Journal != nil {
				continue
			}
			if err := s.store.Release(rec.Key); err != nil {
				s.log.Error("releasing a stale claim", zap.Error(err))
			}
		case store.StateSubmitted:
			reserve := rec.Amount
			if rec.Reserve != nil {
				reserve = rec.Reserve
			}
			s.payers.reserve(rec.Key, rec.Payer, rec.Asset, reserve, false, common.Hash{})
			if len(rec.RawTx) == 0 {
				continue // an external bundler has it; the next settle resumes it
			}
			rctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
			receipt, err := s.eth.TransactionReceipt(rctx, rec.TxHash)
			if err == nil {
				s.finish(ctx, rec, receipt, "")
				s.log.Info("reconciled a settlement", zap.Stringer("tx", rec.TxHash), zap.Bool("success", receipt.Status == 1))
				cancel()
				continue
			}
			var tx types.Transaction
			if tx.UnmarshalBinary(rec.RawTx) == nil {
				s.carries(tx.Hash(), rec.Key)
				if err := s.sender.Rebroadcast(rctx, &tx); err != nil {
					s.log.Warn("rebroadcasting a pending settlement", zap.Stringer("tx", rec.TxHash), zap.Error(err))
				}
			}
			cancel()
		}
	}
	if len(recs) > 0 {
		s.log.Info("reconciled unfinished settlements", zap.Int("records", len(recs)))
	}
}

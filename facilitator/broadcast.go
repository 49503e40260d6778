package facilitator

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// announce tells the caller of a settle that asked (x402.WithBroadcast)
// that p's settlement is out: rec's transaction was accepted by the node.
// The answer it hands over is provisional (the receipt decides). An
// operation handed to an external bundler is not announced (its
// transaction is not known until it is mined): its caller waits. Nor is
// a payment whose authorization may expire before its transaction is
// mined (see mineBy): served on broadcast, it would be served unpaid.
func (s *Service) announce(ctx context.Context, p *payment, rec *store.Record) {
	f := x402.Broadcast(ctx)
	if f == nil || rec.TxHash == (common.Hash{}) {
		return
	}
	if vb := p.pay.ValidBefore; !vb.IsZero() {
		by, err := s.mineBy(ctx)
		if err != nil || !validAt(vb, by) {
			s.log.Info("a settlement is not announced: its authorization may expire before it is mined; its response waits for the receipt",
				zap.Stringer("tx", rec.TxHash), zap.Time("valid_before", vb), zap.Time("mined_by", by), zap.Error(err))
			return
		}
	}
	r := &x402.SettleResponse{
		Success: true, X402Version: x402.Version, Scheme: p.scheme, Network: s.cfg.Network,
		TransactionHash: rec.TxHash.Hex(), Payer: p.payer.Hex(),
		Amount: p.amount.String(), Asset: p.asset.Hex(),
	}
	if rec.UserOpHash != (common.Hash{}) {
		r.UserOpHash, r.RequestHash = rec.UserOpHash.Hex(), rec.RequestHash.Hex()
	}
	f(r)
}

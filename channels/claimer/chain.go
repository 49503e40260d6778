package claimer

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
)

// readBatch bounds the channels one eth_call reads (three calls each, in
// the settlement contract's multicall).
const readBatch = 100

// read returns the chain's state of each channel of ids, in one eth_call
// of the settlement contract's multicall per readBatch channels.
func (c *Claimer) read(ctx context.Context, ids []common.Hash) (map[common.Hash]store.ChannelSnapshot, error) {
	out := make(map[common.Hash]store.ChannelSnapshot, len(ids))
	for len(ids) > 0 {
		n := min(len(ids), readBatch)
		part := ids[:n]
		ids = ids[n:]
		calls := make([][]byte, 0, 3*len(part))
		for _, id := range part {
			calls = append(calls, c.bs.PackChannels(id), c.bs.PackPendingWithdrawals(id), c.bs.PackRefundNonce(id))
		}
		raw, err := c.cfg.Chain.CallContract(ctx, ethereum.CallMsg{To: &c.cfg.Settlement, Data: c.bs.PackMulticall(calls)}, nil)
		if err != nil {
			return nil, fmt.Errorf("reading %d channels: %w", len(part), err)
		}
		results, err := c.bs.UnpackMulticall(raw)
		if err != nil || len(results) != len(calls) {
			return nil, fmt.Errorf("reading %d channels: the multicall answered %d results (%v)", len(part), len(results), err)
		}
		for i, id := range part {
			ch, err := c.bs.UnpackChannels(results[3*i])
			if err != nil {
				return nil, fmt.Errorf("reading channel %s: %w", id, err)
			}
			w, err := c.bs.UnpackPendingWithdrawals(results[3*i+1])
			if err != nil {
				return nil, fmt.Errorf("reading channel %s's withdrawal: %w", id, err)
			}
			nonce, err := c.bs.UnpackRefundNonce(results[3*i+2])
			if err != nil {
				return nil, fmt.Errorf("reading channel %s's refund nonce: %w", id, err)
			}
			out[id] = store.ChannelSnapshot{Balance: ch.Balance, TotalClaimed: ch.TotalClaimed, WithdrawRequestedAt: w.InitiatedAt.Int64(), RefundNonce: nonce}
		}
	}
	return out, nil
}

// same reports whether ch mirrors s already.
func same(ch store.Channel, s store.ChannelSnapshot) bool {
	return ch.Balance.Cmp(s.Balance) == 0 && ch.TotalClaimed.Cmp(s.TotalClaimed) == 0 &&
		ch.WithdrawRequestedAt == s.WithdrawRequestedAt && ch.RefundNonce.Cmp(s.RefundNonce) == 0
}

package claimer

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/batchsettlement"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// claim sends one claim of cands (one receiver's, in one token) and
// records its outcome: mined, each channel is mirrored and counted as
// claimed and swept; refused by the facilitator (no transaction), the
// claim is split in two and each half sent, so that a channel the
// contract would refuse is found and reported while the others are
// claimed; reverted, dropped or unanswered, nothing is marked and its
// channels are claimed again next round.
func (r *round) claim(ctx context.Context, cands []candidate, reasons map[common.Hash]string) {
	c := r.c
	why := reasons[cands[0].ch.ID]
	if r.stopped || c.cfg.Now().Add(c.cfg.Timeout).After(r.end) {
		// The lease could end before the answer: another replica might
		// then claim the same channels.
		r.stopped = true
		c.later(cands)
		return
	}
	rows := make([]batchsettle.VoucherClaim, len(cands))
	total := new(big.Int)
	for i, cd := range cands {
		rows[i] = cd.row
		total.Add(total, cd.delta)
	}
	rows, digest := c.vary(rows)
	sig, err := batchsettle.Sign(digest, c.cfg.Authorizer)
	if err != nil {
		r.failed(cands, total, common.Hash{}, fmt.Sprintf("signing the claim: %v", err), true)
		return
	}
	payload, err := batchsettlement.ClaimPayload(rows, sig)
	if err != nil {
		r.failed(cands, total, common.Hash{}, fmt.Sprintf("writing the claim: %v", err), true)
		return
	}
	sctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	resp, err := c.cfg.Settler.Settle(sctx, c.request(cands[0].ch.Config, total, payload))
	cancel()
	switch {
	case err != nil:
		r.failed(cands, total, common.Hash{}, fmt.Sprintf("the facilitator did not answer: %v", err), true)
	case resp.Success:
		r.claimed(ctx, cands, total, common.HexToHash(resp.TransactionHash), why)
	case resp.TransactionHash != "":
		// Mined and reverted (a channel drained or a voucher refused
		// between the facilitator's checks and the block): the
		// facilitator refuses this authorizer's claims for a while, so
		// the round stops; the next one rereads the chain.
		c.mu.Lock()
		c.reverted[digest] = true
		c.mu.Unlock()
		r.stopped = true
		r.failed(cands, total, common.HexToHash(resp.TransactionHash), "the claim reverted: "+resp.Message, true)
	case resp.ErrorCode == x402.ErrorVerifyFailed && len(cands) > 1:
		half := len(cands) / 2
		r.claim(ctx, cands[:half], reasons)
		r.claim(ctx, cands[half:], reasons)
	case resp.ErrorCode == x402.ErrorVerifyFailed:
		r.failed(cands, total, common.Hash{}, "the facilitator refused the claim: "+resp.Message, false)
	default:
		r.failed(cands, total, common.Hash{}, fmt.Sprintf("the claim did not settle (%s): %s", resp.ErrorCode, resp.Message), true)
	}
}

// request is the settle request of a claim or refund payload for a
// channel of cfg: the requirements the facilitator's batch-settlement
// scheme checks (its scheme, network, token, receiver, receiver
// authorizer and withdraw delay), amount what it moves.
func (c *Claimer) request(cfg *store.ChannelConfig, amount *big.Int, payload json.RawMessage) *x402.SettleRequest {
	req := x402.PaymentRequirements{
		Scheme: x402.SchemeBatchSettlement, Network: c.network, Amount: amount.String(),
		Asset: cfg.Token.Hex(), PayTo: cfg.Receiver.Hex(), MaxTimeoutSeconds: 60,
		Extra: &x402.Extra{ReceiverAuthorizer: c.address.Hex(), WithdrawDelay: int(cfg.WithdrawDelay)},
	}
	acc := req
	x := *req.Extra
	acc.Extra = &x
	return &x402.SettleRequest{X402Version: x402.Version, PaymentPayload: x402.PaymentPayload{X402Version: x402.Version, Accepted: acc, Payload: payload}, PaymentRequirements: req}
}

// vary returns rows, or rows reordered (or with a row repeated, which the
// contract skips), so that their ClaimBatch digest is not one of a claim
// that reverted: the facilitator answers a settle it has finished with its
// first answer, and a claim's replay key is its signature. It returns the
// digest to sign.
func (c *Claimer) vary(rows []batchsettle.VoucherClaim) ([]batchsettle.VoucherClaim, common.Hash) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range len(rows) + maxRows {
		d := c.dom.ClaimBatchDigest(c.dom.Entries(rows))
		if !c.reverted[d] {
			return rows, d
		}
		if len(rows) > 1 {
			rows = append(rows[1:len(rows):len(rows)], rows[0])
		} else {
			rows = append(rows, rows[0])
		}
	}
	return rows, c.dom.ClaimBatchDigest(c.dom.Entries(rows))
}

// claimed records a mined claim of cands in tx: each channel mirrored
// from the chain and counted (store.Channels.Claimed), and the events.
func (r *round) claimed(ctx context.Context, cands []candidate, total *big.Int, tx common.Hash, why string) {
	c := r.c
	ids := make([]common.Hash, len(cands))
	for i, cd := range cands {
		ids[i] = cd.ch.ID
	}
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	after, err := c.read(rctx, ids)
	cancel()
	if err != nil {
		c.log.Warn("reading the channels after their claim; recording the claim's totals", zap.Error(err))
	}
	now := c.cfg.Now()
	amounts := make([]ChannelAmount, 0, len(cands))
	sum := new(big.Int)
	for _, cd := range cands {
		snap, ok := after[cd.ch.ID]
		if !ok {
			snap = cd.snap
			snap.TotalClaimed = cd.row.TotalClaimed
		}
		delta := new(big.Int).Sub(snap.TotalClaimed, cd.snap.TotalClaimed)
		if delta.Sign() < 0 {
			delta.SetInt64(0)
		}
		if _, err := c.channels.Claimed(cd.ch.ID, snap, delta, now); err != nil {
			c.log.Error("recording a mined claim", zap.Stringer("channel", cd.ch.ID), zap.Stringer("tx", tx), zap.Error(err))
		}
		amounts = append(amounts, ChannelAmount{ID: cd.ch.ID, Payer: cd.ch.Config.Payer, Amount: delta})
		sum.Add(sum, delta)
	}
	c.mu.Lock()
	for _, id := range ids {
		delete(c.retry, id)
	}
	c.mu.Unlock()
	r.res.Claims++
	r.res.Channels += len(cands)
	cfg := cands[0].ch.Config
	c.log.Info("claimed and swept", zap.Int("channels", len(cands)), zap.Stringer("amount", sum), zap.Stringer("tx", tx), zap.String("strategy", why))
	c.emit(Event{Kind: EventClaimed, Channels: amounts, Receiver: cfg.Receiver, Token: cfg.Token, Amount: sum, Tx: tx, Reason: why})
	c.emit(Event{Kind: EventSwept, Receiver: cfg.Receiver, Token: cfg.Token, Amount: new(big.Int).Set(sum), Tx: tx, Reason: why})
}

// failed reports a failed claim of cands; retry marks them for the next
// round whatever the strategies say.
func (r *round) failed(cands []candidate, total *big.Int, tx common.Hash, why string, retry bool) {
	c := r.c
	r.res.Failed++
	if retry {
		c.later(cands)
	}
	amounts := make([]ChannelAmount, len(cands))
	for i, cd := range cands {
		amounts[i] = ChannelAmount{ID: cd.ch.ID, Payer: cd.ch.Config.Payer, Amount: cd.delta}
	}
	cfg := cands[0].ch.Config
	c.log.Warn("a claim failed", zap.Int("channels", len(cands)), zap.Stringer("amount", total), zap.Stringer("tx", tx),
		zap.Bool("retried", retry), zap.String("why", why))
	c.emit(Event{Kind: EventFailed, Channels: amounts, Receiver: cfg.Receiver, Token: cfg.Token, Amount: total, Tx: tx, Reason: why})
}

// later marks cands to be claimed next round.
func (c *Claimer) later(cands []candidate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cd := range cands {
		c.retry[cd.ch.ID] = true
	}
}

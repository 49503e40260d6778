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

// claim sends one claim of cands (one receiver's, in one token), written
// to the journal first, and records its outcome (round.outcome): mined,
// each channel is mirrored and counted as claimed and swept; refused by
// the facilitator (no transaction), the claim is split in two and each
// half sent, so that a channel the contract would refuse is found and
// reported while the others are claimed; reverted or dropped, nothing is
// marked and its channels are claimed again next round; unanswered, the
// next round resolves it first.
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
	cfg := cands[0].ch.Config
	e := &entry{Kind: entryClaim, Receiver: cfg.Receiver, Token: cfg.Token, Amount: new(big.Int), Why: why, Written: c.cfg.Now().UTC()}
	for i, cd := range cands {
		rows[i] = cd.row
		e.Amount.Add(e.Amount, cd.delta)
		e.Channels = append(e.Channels, entryChannel{ID: cd.ch.ID, Payer: cd.ch.Config.Payer, Delta: cd.delta, Target: cd.row.TotalClaimed, Before: toSnapshot(cd.snap)})
	}
	rows, e.Digest = c.vary(rows)
	e.Key = "claim-" + e.Digest.Hex()
	sig, err := batchsettle.Sign(e.Digest, c.cfg.Authorizer)
	if err != nil {
		r.failed(e, common.Hash{}, fmt.Sprintf("signing the claim: %v", err), true)
		return
	}
	payload, err := batchsettlement.ClaimPayload(rows, sig)
	if err != nil {
		r.failed(e, common.Hash{}, fmt.Sprintf("writing the claim: %v", err), true)
		return
	}
	e.Request = c.request(cfg, e.Amount, payload)
	if err := c.journal(e); err != nil {
		r.failed(e, common.Hash{}, err.Error(), true)
		return
	}
	resp, err := c.send(ctx, e)
	if err == nil && !resp.Success && resp.TransactionHash == "" && resp.ErrorCode == x402.ErrorVerifyFailed && len(cands) > 1 {
		// Nothing was sent: find the channel the facilitator refuses.
		c.done(e)
		half := len(cands) / 2
		r.claim(ctx, cands[:half], reasons)
		r.claim(ctx, cands[half:], reasons)
		return
	}
	r.outcome(ctx, e, resp, err)
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

// claimed records a mined claim e in tx: each channel mirrored from the
// chain and counted (store.Channels.Claimed, once per tx), and told. It
// reports whether every event was kept (the entry is then done).
func (r *round) claimed(ctx context.Context, e *entry, tx common.Hash) bool {
	c := r.c
	ids := make([]common.Hash, len(e.Channels))
	for i, ch := range e.Channels {
		ids[i] = ch.ID
	}
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	after, err := c.read(rctx, ids)
	cancel()
	if err != nil {
		c.log.Warn("reading the channels after their claim; recording the claim's totals", zap.Error(err))
	}
	now := c.cfg.Now()
	amounts := make([]ChannelAmount, 0, len(e.Channels))
	sum := new(big.Int)
	for _, ch := range e.Channels {
		before := ch.Before.store()
		snap, ok := after[ch.ID]
		if !ok {
			snap = before
			snap.TotalClaimed = ch.Target
		}
		delta := new(big.Int).Sub(snap.TotalClaimed, before.TotalClaimed)
		if delta.Sign() < 0 {
			delta.SetInt64(0)
		}
		if _, err := c.channels.Claimed(ch.ID, tx, snap, delta, now); err != nil {
			c.log.Error("recording a mined claim", zap.Stringer("channel", ch.ID), zap.Stringer("tx", tx), zap.Error(err))
		}
		amounts = append(amounts, ChannelAmount{ID: ch.ID, Payer: ch.Payer, Amount: delta})
		sum.Add(sum, delta)
	}
	c.mu.Lock()
	for _, id := range ids {
		delete(c.retry, id)
	}
	c.mu.Unlock()
	r.res.Claims++
	r.res.Channels += len(e.Channels)
	c.log.Info("claimed and swept", zap.Int("channels", len(e.Channels)), zap.Stringer("amount", sum), zap.Stringer("tx", tx), zap.String("strategy", e.Why))
	if !c.tell(Event{Kind: EventClaimed, Channels: amounts, Receiver: e.Receiver, Token: e.Token, Amount: sum, Tx: tx, Reason: e.Why},
		Event{Kind: EventSwept, Receiver: e.Receiver, Token: e.Token, Amount: new(big.Int).Set(sum), Tx: tx, Reason: e.Why}) {
		return false
	}
	c.done(e)
	return true
}

// failed reports a failed claim e; retry marks its channels for the next
// round whatever the strategies say. It reports whether the event was
// kept.
func (r *round) failed(e *entry, tx common.Hash, why string, retry bool) bool {
	c := r.c
	r.res.Failed++
	if retry {
		c.mu.Lock()
		for _, ch := range e.Channels {
			c.retry[ch.ID] = true
		}
		c.mu.Unlock()
	}
	c.log.Warn("a claim failed", zap.Int("channels", len(e.Channels)), zap.Stringer("amount", e.Amount), zap.Stringer("tx", tx),
		zap.Bool("retried", retry), zap.String("why", why))
	return c.tell(Event{Kind: EventFailed, Channels: e.amounts(), Receiver: e.Receiver, Token: e.Token, Amount: e.Amount, Tx: tx, Reason: why})
}

// later marks cands to be claimed next round.
func (c *Claimer) later(cands []candidate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cd := range cands {
		c.retry[cd.ch.ID] = true
	}
}

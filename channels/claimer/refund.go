package claimer

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/batchsettlement"
	"github.com/caddy-x402/caddy-x402/store"
)

// The refusals of Refund, which an operator's tool branches on.
var (
	// ErrNothingToRefund: the channel holds nothing beyond what was
	// charged.
	ErrNothingToRefund = errors.New("the channel holds nothing beyond what was charged")
	// ErrRefundTooLarge: the amount asked is more than the channel holds
	// beyond what was charged.
	ErrRefundTooLarge = errors.New("the refund is larger than what the channel holds beyond what was charged")
	// ErrNotOurs: the channel's receiver authorizer is not the claimer's
	// key, or the server keeps no configuration of it.
	ErrNotOurs = errors.New("the channel is not claimed with this receiver authorizer")
	// ErrBusy: a claim round (of any replica) or another refund is
	// running; retry shortly.
	ErrBusy = errors.New("a claim round or another refund is running")
)

// Refunded is a mined operator's refund.
type Refunded struct {
	// Tx is its transaction.
	Tx common.Hash
	// Amount went back to the payer; Claimed is what the same
	// transaction claimed first (and swept to the receiver).
	Amount, Claimed *big.Int
	// Channel is the channel after it.
	Channel store.Channel
}

// refundHold names the claimer's hold of a channel while it refunds it.
const refundHold = "claimer:refund"

// Refund returns to the payer of channel id amount of what the channel
// holds beyond what was charged (nil: all of it), in one transaction that
// first claims what was charged (and sweeps it to the receiver), then
// refunds at the channel's current refund nonce, both signed by the
// receiver authorizer: the payer gets back exactly balance - charged, and
// the receiver keeps exactly what was charged. The channel is held
// meanwhile, so the server serves none of its requests (they are refused
// as busy), and so are the claim rounds of every replica (ErrBusy while
// one runs). A refusal is one of the Err values above or the
// facilitator's; nothing moved then.
func (c *Claimer) Refund(ctx context.Context, id common.Hash, amount *big.Int) (Refunded, error) {
	ch, ok, err := c.channels.Get(id)
	switch {
	case err != nil:
		return Refunded{}, fmt.Errorf("reading channel %s: %w", id, err)
	case !ok:
		return Refunded{}, store.ErrNoChannel
	case ch.Config == nil || ch.Config.ReceiverAuthorizer != c.address:
		return Refunded{}, ErrNotOurs
	}
	now := c.cfg.Now()
	// The round's lease: no claim of this replica or another is in flight
	// beside the refund's own, which a refund mined first would turn into
	// a claim of nothing.
	end := now.Add(c.cfg.Lease)
	leased, err := c.leases.Take(roundKey, end, now)
	if err != nil {
		return Refunded{}, fmt.Errorf("taking the claim round's lease: %w", err)
	}
	if !leased {
		return Refunded{}, ErrBusy
	}
	defer func() {
		if c.cfg.Now().Before(end) {
			if err := c.leases.Drop(roundKey); err != nil {
				c.log.Warn("ending the claim round's lease", zap.Error(err))
			}
		}
	}()
	// A zero-price hold at the charged total: no request is served (and
	// charged) while the refund is decided and sent.
	hold := func(charged *big.Int) (store.Channel, error) {
		return c.channels.Begin(id, store.Voucher{Max: charged}, new(big.Int), refundHold, now, c.cfg.Timeout+c.cfg.Timeout/2)
	}
	got, err := hold(ch.Charged)
	if errors.Is(err, store.ErrCumulativeMismatch) {
		// An expired request's hold gave way and was charged meanwhile.
		got, err = hold(got.Charged)
	}
	if err != nil {
		return Refunded{}, fmt.Errorf("holding channel %s: %w", id, err)
	}
	ch = got
	held := true
	release := func() {
		if !held {
			return
		}
		held = false
		if _, err := c.channels.Abort(id, refundHold); err != nil && !errors.Is(err, store.ErrNotHeld) {
			c.log.Warn("letting a refunded channel go", zap.Stringer("channel", id), zap.Error(err))
		}
	}
	defer release()
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	snaps, err := c.read(rctx, []common.Hash{id})
	cancel()
	if err != nil {
		return Refunded{}, err
	}
	snap := snaps[id]
	if ch, err = c.channels.Sync(id, snap, now); err != nil {
		return Refunded{}, fmt.Errorf("mirroring channel %s: %w", id, err)
	}
	var rows []batchsettle.VoucherClaim
	claimed := new(big.Int)
	if ch.Charged.Cmp(snap.TotalClaimed) > 0 {
		if ch.Charged.Cmp(snap.Balance) > 0 {
			return Refunded{}, fmt.Errorf("channel %s holds %s, less than the %s charged: %w", id, snap.Balance, ch.Charged, ErrNothingToRefund)
		}
		cd, ok := c.candidate(ch, snap)
		if !ok {
			return Refunded{}, fmt.Errorf("channel %s: what was charged cannot be claimed first (see the claimer's events)", id)
		}
		rows, claimed = []batchsettle.VoucherClaim{cd.row}, cd.delta
	}
	kept := new(big.Int).Set(ch.Charged)
	if kept.Cmp(snap.TotalClaimed) < 0 {
		kept.Set(snap.TotalClaimed)
	}
	refundable := new(big.Int).Sub(snap.Balance, kept)
	switch {
	case refundable.Sign() <= 0:
		return Refunded{}, ErrNothingToRefund
	case amount == nil:
		amount = refundable
	case amount.Sign() <= 0:
		return Refunded{}, fmt.Errorf("a refund of %s: %w", amount, ErrNothingToRefund)
	case amount.Cmp(refundable) > 0:
		return Refunded{}, fmt.Errorf("a refund of %s, with %s refundable: %w", amount, refundable, ErrRefundTooLarge)
	}
	refundSig, err := batchsettle.Sign(c.dom.RefundDigest(id, snap.RefundNonce, amount), c.cfg.Authorizer)
	if err != nil {
		return Refunded{}, fmt.Errorf("signing the refund: %w", err)
	}
	var claimSig []byte
	if len(rows) > 0 {
		if claimSig, err = batchsettle.Sign(c.dom.ClaimBatchDigest(c.dom.Entries(rows)), c.cfg.Authorizer); err != nil {
			return Refunded{}, fmt.Errorf("signing the claim: %w", err)
		}
	}
	payload, err := batchsettlement.OperatorRefundPayload(contractConfig(ch.Config), amount, snap.RefundNonce, refundSig, rows, claimSig)
	if err != nil {
		return Refunded{}, err
	}
	sctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	resp, err := c.cfg.Settler.Settle(sctx, c.request(ch.Config, amount, payload))
	cancel()
	one := []ChannelAmount{{ID: id, Payer: ch.Config.Payer, Amount: amount}}
	if err != nil || !resp.Success {
		why := "the facilitator did not answer"
		var tx common.Hash
		if err == nil {
			why, tx = fmt.Sprintf("%s: %s", resp.ErrorCode, resp.Message), common.HexToHash(resp.TransactionHash)
		} else {
			why += ": " + err.Error()
		}
		c.emit(Event{Kind: EventFailed, Channels: one, Receiver: ch.Config.Receiver, Token: ch.Config.Token, Amount: amount, Tx: tx, Reason: "refund: " + why})
		return Refunded{}, fmt.Errorf("refunding channel %s: %s", id, why)
	}
	tx := common.HexToHash(resp.TransactionHash)
	out := Refunded{Tx: tx, Amount: amount, Claimed: claimed}
	rctx, cancel = context.WithTimeout(ctx, c.cfg.Timeout)
	after, err := c.read(rctx, []common.Hash{id})
	cancel()
	if err != nil {
		c.log.Warn("reading a refunded channel", zap.Stringer("channel", id), zap.Error(err))
		after = map[common.Hash]store.ChannelSnapshot{id: {
			Balance: new(big.Int).Sub(snap.Balance, amount), TotalClaimed: new(big.Int).Add(snap.TotalClaimed, claimed),
			RefundNonce: new(big.Int).Add(snap.RefundNonce, big.NewInt(1)),
		}}
	}
	now = c.cfg.Now()
	if len(rows) > 0 {
		out.Channel, err = c.channels.Claimed(id, after[id], claimed, now)
	} else {
		out.Channel, err = c.channels.Sync(id, after[id], now)
	}
	if err != nil {
		c.log.Error("recording a refund", zap.Stringer("channel", id), zap.Stringer("tx", tx), zap.Error(err))
	}
	release()
	if got, ok, err := c.channels.Get(id); err == nil && ok {
		out.Channel = got
	}
	c.log.Info("refunded a channel", zap.Stringer("channel", id), zap.Stringer("amount", amount), zap.Stringer("claimed", claimed), zap.Stringer("tx", tx))
	if len(rows) > 0 {
		cl := []ChannelAmount{{ID: id, Payer: ch.Config.Payer, Amount: claimed}}
		c.emit(Event{Kind: EventClaimed, Channels: cl, Receiver: ch.Config.Receiver, Token: ch.Config.Token, Amount: claimed, Tx: tx, Reason: "refund"})
		c.emit(Event{Kind: EventSwept, Receiver: ch.Config.Receiver, Token: ch.Config.Token, Amount: new(big.Int).Set(claimed), Tx: tx, Reason: "refund"})
	}
	c.emit(Event{Kind: EventRefunded, Channels: one, Receiver: ch.Config.Receiver, Token: ch.Config.Token, Amount: amount, Tx: tx, Reason: "refund"})
	return out, nil
}

package claimer

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/batchsettlement"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
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

// refundBusyWait bounds the waits of a refund for a channel a request
// holds: 20 ms doubled up to it, about 1.3 s in all.
const refundBusyWait = 640 * time.Millisecond

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
	// A request being served holds the channel, and a served one until
	// its charge is committed (with the channel's next request, or alone
	// within the server's commit delay): wait for it a little.
	for wait := 20 * time.Millisecond; errors.Is(err, store.ErrChannelBusy) && wait <= refundBusyWait; wait *= 2 {
		select {
		case <-ctx.Done():
			return Refunded{}, ctx.Err()
		case <-time.After(wait):
		}
		if got, err = hold(got.Charged); errors.Is(err, store.ErrNoChannel) {
			return Refunded{}, err
		}
	}
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
	refundDigest := c.dom.RefundDigest(id, snap.RefundNonce, amount)
	refundSig, err := batchsettle.Sign(refundDigest, c.cfg.Authorizer)
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
	target := snap.TotalClaimed
	if len(rows) > 0 {
		target = rows[0].TotalClaimed
	}
	e := &entry{Kind: entryRefund, Key: "refund-" + refundDigest.Hex(), Request: c.request(ch.Config, amount, payload),
		Channels: []entryChannel{{ID: id, Payer: ch.Config.Payer, Delta: claimed, Target: target, Before: toSnapshot(snap)}},
		Receiver: ch.Config.Receiver, Token: ch.Config.Token, Amount: amount, Claimed: claimed, Why: "refund",
		Written: now.UTC()}
	if err := c.journal(e); err != nil {
		return Refunded{}, err
	}
	resp, err := c.send(ctx, e)
	if err != nil || resp.ErrorCode == x402.ErrorInFlight {
		// It may be in flight: the channel stays held (until the hold's
		// lease ends), and the next round resolves it.
		held = false
		if err == nil {
			err = errors.New(resp.Message)
		}
		return Refunded{}, fmt.Errorf("refunding channel %s: the facilitator did not answer, and the claimer's next round resolves it (see its events): %w", id, err)
	}
	out, err := c.refunded(ctx, e, resp)
	release()
	if got, ok, gerr := c.channels.Get(id); gerr == nil && ok {
		out.Channel = got
	}
	return out, err
}

// refunded records and tells a refund's settle answer (mined: the channel
// mirrored, and counted as claimed if it claimed first; refused or
// reverted: the failure), and removes its entry from the journal once its
// events were kept.
func (c *Claimer) refunded(ctx context.Context, e *entry, resp *x402.SettleResponse) (Refunded, error) {
	ec := e.Channels[0]
	id := ec.ID
	one := []ChannelAmount{{ID: id, Payer: ec.Payer, Amount: e.Amount}}
	tx := common.HexToHash(resp.TransactionHash)
	if !resp.Success {
		why := fmt.Sprintf("%s: %s", resp.ErrorCode, resp.Message)
		if c.tell(Event{Kind: EventFailed, Channels: one, Receiver: e.Receiver, Token: e.Token, Amount: e.Amount, Tx: tx, Reason: "refund: " + why}) {
			c.done(e)
		}
		return Refunded{}, fmt.Errorf("refunding channel %s: %s", id, why)
	}
	claimed := orZero(e.Claimed)
	out := Refunded{Tx: tx, Amount: e.Amount, Claimed: claimed}
	rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	after, err := c.read(rctx, []common.Hash{id})
	cancel()
	if err != nil {
		c.log.Warn("reading a refunded channel", zap.Stringer("channel", id), zap.Error(err))
		b := ec.Before
		after = map[common.Hash]store.ChannelSnapshot{id: {
			Balance: new(big.Int).Sub(b.Balance, e.Amount), TotalClaimed: new(big.Int).Add(b.TotalClaimed, claimed),
			RefundNonce: new(big.Int).Add(b.RefundNonce, big.NewInt(1)),
		}}
	}
	now := c.cfg.Now()
	if claimed.Sign() > 0 {
		out.Channel, err = c.channels.Claimed(id, tx, after[id], claimed, now)
	} else {
		out.Channel, err = c.channels.Sync(id, after[id], now)
	}
	if err != nil {
		c.log.Error("recording a refund", zap.Stringer("channel", id), zap.Stringer("tx", tx), zap.Error(err))
	}
	c.log.Info("refunded a channel", zap.Stringer("channel", id), zap.Stringer("amount", e.Amount), zap.Stringer("claimed", claimed), zap.Stringer("tx", tx))
	var events []Event
	if claimed.Sign() > 0 {
		cl := []ChannelAmount{{ID: id, Payer: ec.Payer, Amount: claimed}}
		events = append(events, Event{Kind: EventClaimed, Channels: cl, Receiver: e.Receiver, Token: e.Token, Amount: claimed, Tx: tx, Reason: "refund"},
			Event{Kind: EventSwept, Receiver: e.Receiver, Token: e.Token, Amount: new(big.Int).Set(claimed), Tx: tx, Reason: "refund"})
	}
	events = append(events, Event{Kind: EventRefunded, Channels: one, Receiver: e.Receiver, Token: e.Token, Amount: e.Amount, Tx: tx, Reason: "refund"})
	if c.tell(events...) {
		c.done(e)
	}
	return out, nil
}

// resolveRefund resolves a refund the journal holds (its claimer died, or
// its facilitator did not answer), and reports whether it is done. While
// the refund's hold of the channel lasts, nothing was served since it was
// decided, so it is sent again under its key (the facilitator answers the
// first settle's outcome, or settles it now). It reports whether the
// channel must wait (the refund's outcome is not known yet). Once the
// hold ended, the
// channel may have served requests whose charges the refund's amount
// would now return, so it is sent again only if the chain shows it was
// mined (the refund nonce moved), to learn its transaction; otherwise it
// is told as failed, and nothing is sent.
func (c *Claimer) resolveRefund(ctx context.Context, e *entry) (wait bool) {
	ec := e.Channels[0]
	cur, ok, err := c.channels.Get(ec.ID)
	if err != nil {
		c.log.Warn("reading a channel to resolve its refund", zap.Stringer("channel", ec.ID), zap.Error(err))
		return true
	}
	if !ok || cur.Hold == nil || cur.Hold.Owner != refundHold || !cur.Held(c.cfg.Now()) {
		rctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		snaps, err := c.read(rctx, []common.Hash{ec.ID})
		cancel()
		if err != nil {
			c.log.Warn("reading a channel to resolve its refund", zap.Stringer("channel", ec.ID), zap.Error(err))
			return true
		}
		if snaps[ec.ID].RefundNonce.Cmp(ec.Before.RefundNonce) <= 0 {
			why := "refund: interrupted (the claimer stopped before its outcome was known, and the channel's hold has ended); it was not mined and is not sent again: ask for it again"
			c.log.Warn("a refund was interrupted", zap.Stringer("channel", ec.ID), zap.Stringer("amount", e.Amount))
			if c.tell(Event{Kind: EventFailed, Channels: []ChannelAmount{{ID: ec.ID, Payer: ec.Payer, Amount: e.Amount}},
				Receiver: e.Receiver, Token: e.Token, Amount: e.Amount, Reason: why}) {
				c.done(e)
			}
			return false
		}
	}
	c.log.Info("resolving a refund a claimer left in flight", zap.String("key", e.Key), zap.Time("sent", e.Written))
	resp, err := c.send(ctx, e)
	if err != nil || resp.ErrorCode == x402.ErrorInFlight {
		return true
	}
	c.refunded(ctx, e, resp)
	if _, err := c.channels.Abort(ec.ID, refundHold); err != nil && !errors.Is(err, store.ErrNotHeld) {
		c.log.Warn("letting a refunded channel go", zap.Stringer("channel", ec.ID), zap.Error(err))
	}
	return false
}

// orZero is v, or zero if v is nil.
func orZero(v *big.Int) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return v
}

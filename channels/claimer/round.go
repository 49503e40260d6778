package claimer

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/store"
)

// The claimer's lease keys (in LeaseBucket): the round running, and the
// period of the periodic strategy, fleet-wide.
var (
	roundKey    = []byte("round")
	periodicKey = []byte("periodic")
)

// Result is what a round did.
type Result struct {
	// Leased is set when another replica was running a round: this one
	// did nothing.
	Leased bool
	// Claims counts the claim transactions mined, and Channels the
	// channels they claimed.
	Claims, Channels int
	// Failed counts the claims that failed (refused, reverted or not
	// answered).
	Failed int
}

// Round runs one round now: unless another replica runs one (Leased), it
// reads the chain's state of every channel with something unclaimed,
// mirrors it, and claims, in claims of up to MaxRows channels, those the
// strategies pick: a withdrawal in progress, a failed claim's, all of a
// receiver's whose unclaimed total reached Threshold, and all of them
// once per Interval. An error means the round could not read the store or
// the chain; the claims' own failures are events and counts.
func (c *Claimer) Round(ctx context.Context) (Result, error) {
	now := c.cfg.Now()
	end := now.Add(c.cfg.Lease)
	ok, err := c.leases.Take(roundKey, end, now)
	if err != nil {
		return Result{}, fmt.Errorf("taking the claim round's lease: %w", err)
	}
	if !ok {
		return Result{Leased: true}, nil
	}
	defer func() {
		if !c.cfg.Now().Before(end) {
			return // the lease ended: another replica's may be there now
		}
		if err := c.leases.Drop(roundKey); err != nil {
			c.log.Warn("ending the claim round's lease", zap.Error(err))
		}
	}()
	r := &round{c: c, end: end}
	err = r.run(ctx)
	return r.res, err
}

// round is one round's work.
type round struct {
	c   *Claimer
	end time.Time // the lease's
	res Result
	// stopped is set after a claim reverted: the facilitator refuses the
	// receiver authorizer's claims for a while, so the rest waits for the
	// next round.
	stopped bool
}

// candidate is a channel with something unclaimed, its chain state and
// the row that claims it.
type candidate struct {
	ch   store.Channel
	snap store.ChannelSnapshot
	row  batchsettle.VoucherClaim
	// delta is what the row adds to the channel's claimed total.
	delta *big.Int
}

// group is a receiver's channels in a token.
type group struct{ receiver, token common.Address }

func (r *round) run(ctx context.Context) error {
	c := r.c
	pending, err := r.resolve(ctx)
	if err != nil {
		return err
	}
	var chans []store.Channel
	err = c.channels.Each(func(ch store.Channel) error {
		if ch.Config != nil && ch.Config.ReceiverAuthorizer == c.address && ch.Unclaimed().Sign() > 0 && !pending[ch.ID] {
			chans = append(chans, ch)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("listing the channels: %w", err)
	}
	if len(chans) == 0 {
		return nil
	}
	ids := make([]common.Hash, len(chans))
	for i, ch := range chans {
		ids[i] = ch.ID
	}
	readCtx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	snaps, err := c.read(readCtx, ids)
	cancel()
	if err != nil {
		return err
	}
	now := c.cfg.Now()
	groups := map[group][]candidate{}
	reasons := map[common.Hash]string{}
	for _, ch := range chans {
		snap := snaps[ch.ID]
		if !same(ch, snap) {
			if ch, err = c.channels.Sync(ch.ID, snap, now); err != nil {
				return fmt.Errorf("mirroring channel %s: %w", ch.ID, err)
			}
		}
		cand, ok := c.candidate(ch, snap)
		if !ok {
			continue
		}
		g := group{ch.Config.Receiver, ch.Config.Token}
		groups[g] = append(groups[g], cand)
		if snap.WithdrawRequestedAt != 0 {
			reasons[ch.ID] = "withdrawal"
			c.withdrawal(ch, snap, cand.delta)
		} else if c.retrying(ch.ID) {
			reasons[ch.ID] = "retry"
		}
	}
	if c.cfg.Threshold != nil {
		for _, cands := range groups {
			total := new(big.Int)
			for _, cd := range cands {
				total.Add(total, cd.delta)
			}
			if total.Cmp(c.cfg.Threshold) >= 0 {
				for _, cd := range cands {
					if reasons[cd.ch.ID] == "" {
						reasons[cd.ch.ID] = "threshold"
					}
				}
			}
		}
	}
	if c.cfg.Interval > 0 && len(groups) > 0 {
		// Once per interval, fleet-wide: the lease of the period is taken
		// by the round that claims for it.
		taken, err := c.leases.Take(periodicKey, now.Add(c.cfg.Interval), now)
		if err != nil {
			return fmt.Errorf("taking the period's lease: %w", err)
		}
		if taken {
			for _, cands := range groups {
				for _, cd := range cands {
					if reasons[cd.ch.ID] == "" {
						reasons[cd.ch.ID] = "periodic"
					}
				}
			}
		}
	}
	keys := make([]group, 0, len(groups))
	for g := range groups {
		keys = append(keys, g)
	}
	slices.SortFunc(keys, func(a, b group) int {
		if d := a.receiver.Cmp(b.receiver); d != 0 {
			return d
		}
		return a.token.Cmp(b.token)
	})
	for _, g := range keys {
		var due []candidate
		for _, cd := range groups[g] {
			if reasons[cd.ch.ID] != "" {
				due = append(due, cd)
			}
		}
		// Withdrawals first: they have a deadline.
		slices.SortStableFunc(due, func(a, b candidate) int {
			return boolCmp(reasons[b.ch.ID] == "withdrawal", reasons[a.ch.ID] == "withdrawal")
		})
		for len(due) > 0 { // after a revert, claim marks the rest for the next round
			n := min(len(due), c.cfg.MaxRows)
			r.claim(ctx, due[:n], reasons)
			due = due[n:]
		}
	}
	return nil
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// candidate returns ch's claim row, at the chain's state snap: the total
// is what was charged, or what the channel still holds if a withdrawal or
// refund took the rest (the rest is lost, and reported so); the voucher is
// the last served request's, or an uncommitted one, whichever covers the
// total. False if there is nothing to claim, or no voucher to claim it
// with (reported).
func (c *Claimer) candidate(ch store.Channel, snap store.ChannelSnapshot) (candidate, bool) {
	total := new(big.Int).Set(ch.Charged)
	if total.Cmp(snap.Balance) > 0 {
		total.Set(snap.Balance)
		c.unclaimable(ch, fmt.Sprintf("the channel holds %s, less than the %s charged: the rest went back to the payer", snap.Balance, ch.Charged))
	}
	delta := new(big.Int).Sub(total, snap.TotalClaimed)
	if delta.Sign() <= 0 {
		return candidate{}, false
	}
	var v *store.Voucher
	for _, w := range []*store.Voucher{ch.Voucher, ch.Uncommitted} {
		if w != nil && w.Max.Cmp(total) >= 0 {
			v = w
			break
		}
	}
	if v == nil {
		c.unclaimable(ch, fmt.Sprintf("no voucher of the channel covers the %s charged", total))
		return candidate{}, false
	}
	cfg := contractConfig(ch.Config)
	if a := cfg.PayerAuthorizer; a != (common.Address{}) {
		// The contract checks a payer authorizer's signature by ECDSA: a
		// voucher it refuses would revert the whole claim.
		if got, err := batchsettle.Recover(c.dom.VoucherDigest(ch.ID, v.Max), v.Signature); err != nil || got != a {
			c.unclaimable(ch, "its voucher is not signed by its payer authorizer")
			return candidate{}, false
		}
	}
	return candidate{ch: ch, snap: snap, delta: delta, row: batchsettle.VoucherClaim{
		Voucher:   batchsettle.X402BatchSettlementVoucher{Channel: cfg, MaxClaimableAmount: new(big.Int).Set(v.Max)},
		Signature: v.Signature, TotalClaimed: total,
	}}, true
}

// contractConfig is a stored channel configuration in the contract's
// form.
func contractConfig(c *store.ChannelConfig) batchsettle.ChannelConfig {
	return batchsettle.ChannelConfig{
		Payer: c.Payer, PayerAuthorizer: c.PayerAuthorizer, Receiver: c.Receiver, ReceiverAuthorizer: c.ReceiverAuthorizer,
		Token: c.Token, WithdrawDelay: new(big.Int).SetUint64(c.WithdrawDelay), Salt: c.Salt,
	}
}

// unclaimable reports, once per state of the channel, that ch cannot be
// claimed in full.
func (c *Claimer) unclaimable(ch store.Channel, why string) {
	state := ch.Charged.String() + "/" + ch.Balance.String() + "/" + why
	c.mu.Lock()
	dup := c.lost[ch.ID] == state
	c.lost[ch.ID] = state
	c.mu.Unlock()
	if dup {
		return
	}
	c.log.Warn("a channel cannot be claimed in full", zap.Stringer("channel", ch.ID), zap.String("why", why))
	c.tell(Event{Kind: EventFailed, Channels: []ChannelAmount{{ID: ch.ID, Payer: ch.Config.Payer, Amount: ch.Unclaimed()}},
		Receiver: ch.Config.Receiver, Token: ch.Config.Token, Amount: ch.Unclaimed(), Reason: why})
}

// withdrawal reports, once per withdrawal, that ch's payer started one.
func (c *Claimer) withdrawal(ch store.Channel, snap store.ChannelSnapshot, unclaimed *big.Int) {
	c.mu.Lock()
	dup := c.seen[ch.ID] == snap.WithdrawRequestedAt
	c.mu.Unlock()
	if dup {
		return
	}
	c.log.Info("a payer started a timed withdrawal; claiming its channel now", zap.Stringer("channel", ch.ID),
		zap.Time("deadline", time.Unix(snap.WithdrawRequestedAt+int64(ch.Config.WithdrawDelay), 0)))
	if c.tell(Event{Kind: EventWithdrawal, Channels: []ChannelAmount{{ID: ch.ID, Payer: ch.Config.Payer, Amount: unclaimed}},
		Receiver: ch.Config.Receiver, Token: ch.Config.Token, Amount: unclaimed, Reason: "withdrawal"}) {
		c.mu.Lock()
		c.seen[ch.ID] = snap.WithdrawRequestedAt
		c.mu.Unlock()
	}
}

// retrying reports whether a claim of channel id failed and is retried.
func (c *Claimer) retrying(id common.Hash) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.retry[id]
}

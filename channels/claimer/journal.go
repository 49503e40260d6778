package claimer

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// JournalBucket names the key-value space of the claimer's journal: each
// claim and refund it sends is written there before it is sent, and
// removed once its outcome is recorded in the channels and its events
// were kept (OnEvent). A claimer that dies while a claim is in flight, or
// between its mining and its events, leaves the entry; the next round (of
// any replica) sends it again under the same idempotency key, which the
// facilitator answers with the first settle's outcome (or settles then,
// if the first never reached it), and records and tells it: a mined claim
// is counted once (store.Channels.Claimed) and its events carry its
// transaction, whose id the merchant's webhooks deliver once.
const JournalBucket = "batch-settlement-journal"

// The kinds of journal entries.
const (
	entryClaim  = "claim"
	entryRefund = "refund"
)

// entry is a claim or refund in the journal.
type entry struct {
	Kind string `json:"kind"`
	// Key is the settle's idempotency key, and the entry's key.
	Key string `json:"key"`
	// Request is the settle request sent.
	Request *x402.SettleRequest `json:"request"`
	// Channels are the channels it claims (a refund's one channel),
	// each with its chain state before it and what it adds to the
	// channel's claimed total.
	Channels []entryChannel `json:"channels"`
	// Receiver and Token are whose money it is.
	Receiver common.Address `json:"receiver"`
	Token    common.Address `json:"token"`
	// Amount is a claim's total, or what a refund returns.
	Amount *big.Int `json:"amount"`
	// Claimed is what a refund claims first (zero: no claim).
	Claimed *big.Int `json:"claimed,omitempty"`
	// Why is the claim's strategy ("refund" for a refund).
	Why string `json:"why"`
	// Digest is a claim's ClaimBatch digest (see Claimer.vary).
	Digest common.Hash `json:"digest"`
	// Written is when it was journaled.
	Written time.Time `json:"written"`
}

// entryChannel is a channel of an entry.
type entryChannel struct {
	ID     common.Hash    `json:"id"`
	Payer  common.Address `json:"payer"`
	Delta  *big.Int       `json:"delta"`
	Target *big.Int       `json:"target"` // the claimed total the row sets
	Before snapshot       `json:"before"`
}

// snapshot is a store.ChannelSnapshot as the journal keeps it.
type snapshot struct {
	Balance             *big.Int `json:"balance"`
	TotalClaimed        *big.Int `json:"totalClaimed"`
	WithdrawRequestedAt int64    `json:"withdrawRequestedAt,omitempty"`
	RefundNonce         *big.Int `json:"refundNonce"`
}

func toSnapshot(s store.ChannelSnapshot) snapshot {
	return snapshot{Balance: s.Balance, TotalClaimed: s.TotalClaimed, WithdrawRequestedAt: s.WithdrawRequestedAt, RefundNonce: s.RefundNonce}
}

func (s snapshot) store() store.ChannelSnapshot {
	return store.ChannelSnapshot{Balance: s.Balance, TotalClaimed: s.TotalClaimed, WithdrawRequestedAt: s.WithdrawRequestedAt, RefundNonce: s.RefundNonce}
}

// amounts are e's channels with what it adds to each.
func (e *entry) amounts() []ChannelAmount {
	out := make([]ChannelAmount, len(e.Channels))
	for i, ch := range e.Channels {
		out[i] = ChannelAmount{ID: ch.ID, Payer: ch.Payer, Amount: ch.Delta}
	}
	return out
}

// journal writes e before it is sent.
func (c *Claimer) journal(e *entry) error {
	v, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := c.entries.Put([]byte(e.Key), v); err != nil {
		return fmt.Errorf("journaling a %s: %w", e.Kind, err)
	}
	return nil
}

// done removes e from the journal: its outcome is recorded and told.
func (c *Claimer) done(e *entry) {
	if err := c.entries.Delete([]byte(e.Key)); err != nil {
		c.log.Warn("removing a finished claim from the journal; the next round resolves it again", zap.String("key", e.Key), zap.Error(err))
	}
}

// send sends e's settle under its idempotency key.
func (c *Claimer) send(ctx context.Context, e *entry) (*x402.SettleResponse, error) {
	sctx, cancel := context.WithTimeout(x402.WithIdempotencyKey(ctx, e.Key), c.cfg.Timeout)
	defer cancel()
	return c.cfg.Settler.Settle(sctx, e.Request)
}

// tell tells OnEvent of events, and reports whether every one was kept.
func (c *Claimer) tell(events ...Event) bool {
	ok := true
	for _, ev := range events {
		if err := c.emit(ev); err != nil {
			c.log.Warn("an event was not kept; its claim stays in the journal and is told again next round",
				zap.String("event", string(ev.Kind)), zap.Stringer("tx", ev.Tx), zap.Error(err))
			ok = false
		}
	}
	return ok
}

// resolve sends again each claim and refund the journal holds (left by a
// claimer that died, or whose facilitator did not answer) and records and
// tells its outcome. It returns the channels of those still unresolved:
// the round claims none of them.
func (r *round) resolve(ctx context.Context) (map[common.Hash]bool, error) {
	c := r.c
	var entries []*entry
	err := c.entries.ForEach(func(k, v []byte) error {
		e := new(entry)
		if err := json.Unmarshal(v, e); err != nil || e.Request == nil {
			c.log.Error("dropping a journal entry that does not decode", zap.ByteString("key", k), zap.Error(err))
			entries = append(entries, &entry{Key: string(k)})
			return nil
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the claim journal: %w", err)
	}
	pending := map[common.Hash]bool{}
	for _, e := range entries {
		if e.Request == nil {
			c.done(e)
			continue
		}
		if r.stopped || c.cfg.Now().Add(c.cfg.Timeout).After(r.end) {
			r.stopped = true
		}
		wait := true
		switch {
		case r.stopped:
		case e.Kind == entryRefund:
			wait = c.resolveRefund(ctx, e)
		default:
			c.log.Info("resolving a claim a claimer left in flight", zap.String("key", e.Key), zap.Time("sent", e.Written))
			resp, err := c.send(ctx, e)
			wait = r.outcome(ctx, e, resp, err)
		}
		if wait {
			for _, ch := range e.Channels {
				pending[ch.ID] = true
			}
		}
	}
	return pending, nil
}

// outcome records and tells a claim's settle answer: mined, each channel
// is mirrored and counted as claimed and swept; reverted, refused or
// failed, the failure is told and its channels are claimed again next
// round (unless refused); unanswered or in flight, the entry stays for the
// next round, and outcome reports that its channels must wait for it. An
// entry whose outcome is recorded is removed from the journal once its
// events were kept, or told again next round.
func (r *round) outcome(ctx context.Context, e *entry, resp *x402.SettleResponse, err error) (wait bool) {
	c := r.c
	var (
		why   string
		tx    common.Hash
		retry = true
	)
	switch {
	case err != nil:
		// The claim may be in flight: the next round sends it again under
		// its key, and claims none of its channels meanwhile.
		r.failed(e, common.Hash{}, fmt.Sprintf("the facilitator did not answer: %v", err), false)
		return true
	case resp.Success:
		r.claimed(ctx, e, common.HexToHash(resp.TransactionHash))
		return false
	case resp.ErrorCode == x402.ErrorInFlight:
		return true
	case resp.TransactionHash != "":
		// Mined and reverted (a channel drained or a voucher refused
		// between the facilitator's checks and the block): the
		// facilitator refuses this authorizer's claims for a while, so
		// the round stops; the next one rereads the chain.
		c.mu.Lock()
		c.reverted[e.Digest] = true
		c.mu.Unlock()
		r.stopped = true
		why, tx = "the claim reverted: "+resp.Message, common.HexToHash(resp.TransactionHash)
	case resp.ErrorCode == x402.ErrorVerifyFailed:
		why, retry = "the facilitator refused the claim: "+resp.Message, false
	default:
		why = fmt.Sprintf("the claim did not settle (%s): %s", resp.ErrorCode, resp.Message)
	}
	if r.failed(e, tx, why, retry) {
		c.done(e)
	}
	return false
}

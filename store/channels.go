package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/x402"
)

// ChannelBucket names the key-value space of a server's batch-settlement
// channels (see [Channels]).
const ChannelBucket = "batch-settlement-channels"

// Voucher is a payer's signed cumulative ceiling of a channel.
type Voucher struct {
	Max       *big.Int      `json:"max"`
	Signature hexutil.Bytes `json:"signature"`
}

// ChannelConfig is a channel's immutable configuration, as the settlement
// contract hashes it into the channel id: what a claim of the channel must
// name.
type ChannelConfig struct {
	Payer              common.Address `json:"payer"`
	PayerAuthorizer    common.Address `json:"payerAuthorizer"`
	Receiver           common.Address `json:"receiver"`
	ReceiverAuthorizer common.Address `json:"receiverAuthorizer"`
	Token              common.Address `json:"token"`
	WithdrawDelay      uint64         `json:"withdrawDelay"`
	Salt               common.Hash    `json:"salt"`
}

// ChannelHold is the request a channel is serving: the voucher that pays
// for it, the most it may be charged, who holds it, and until when.
type ChannelHold struct {
	Owner   string    `json:"owner"`
	Voucher Voucher   `json:"voucher"`
	Price   *big.Int  `json:"price"`
	Until   time.Time `json:"until"`
	Began   time.Time `json:"began"`
	// Metered: the request is charged what its response used, at most
	// Price, known only once it is committed (see Channels.Metered).
	Metered bool `json:"metered,omitempty"`
}

// Channel is a server's state of one batch-settlement channel
// (scheme_batch_settlement_evm.md, "Per-Channel State"): what it has
// charged, the voucher of its last served request, what the chain held at
// the last look, and the request it is serving.
type Channel struct {
	ID common.Hash `json:"id"`
	// Config is the channel's configuration, from the first payment that
	// named it; nil only in a record written before configurations were
	// kept.
	Config *ChannelConfig `json:"config,omitempty"`
	// Charged is chargedCumulativeAmount: what the served requests cost,
	// in all.
	Charged *big.Int `json:"charged"`
	// Voucher is the last served request's voucher (signedMaxClaimable
	// and its signature); nil before the first.
	Voucher *Voucher `json:"voucher,omitempty"`
	// Uncommitted is the highest voucher of a request whose hold expired
	// without a commit or an abort (its process died): its response may
	// have been served, so the voucher is kept to claim with.
	Uncommitted *Voucher `json:"uncommitted,omitempty"`
	// Balance, TotalClaimed, WithdrawRequestedAt and RefundNonce mirror the
	// chain as of SyncedAt.
	Balance             *big.Int  `json:"balance"`
	TotalClaimed        *big.Int  `json:"totalClaimed"`
	WithdrawRequestedAt int64     `json:"withdrawRequestedAt,omitempty"`
	RefundNonce         *big.Int  `json:"refundNonce"`
	SyncedAt            time.Time `json:"syncedAt"`
	// Swept is how much of TotalClaimed was swept to the receiver by a
	// claim of this server's (a claim and its sweep are one transaction);
	// nil before the first.
	Swept *big.Int `json:"swept,omitempty"`
	// Claims counts the claims of this channel that were mined, and
	// ClaimedAt is when the last one was.
	Claims    int       `json:"claims,omitempty"`
	ClaimedAt time.Time `json:"claimedAt,omitempty"`
	// ClaimTx is the last counted claim's transaction, so that a claim
	// recorded again (its claimer died after recording it, and resolved
	// it anew) is counted once.
	ClaimTx common.Hash `json:"claimTx,omitzero"`
	// LastRequest is when the last charge was committed.
	LastRequest time.Time `json:"lastRequest,omitempty"`
	// Hold is the request being served; nil when none is.
	Hold *ChannelHold `json:"hold,omitempty"`
}

// ChannelSnapshot is a channel's on-chain state, as a facilitator's
// /verify reports it.
type ChannelSnapshot struct {
	Balance, TotalClaimed *big.Int
	WithdrawRequestedAt   int64
	RefundNonce           *big.Int
	// Config, when set, is the channel's configuration, kept by a record
	// that has none.
	Config *ChannelConfig
}

// State is c as a server reports it, in a corrective 402's channelState
// and a PAYMENT-RESPONSE's extra: the chain's state as last seen, and what
// the server has charged.
func (c Channel) State() x402.ChannelState {
	return x402.ChannelState{
		ChannelID: c.ID.Hex(), Balance: c.Balance.String(), TotalClaimed: c.TotalClaimed.String(),
		WithdrawRequestedAt: c.WithdrawRequestedAt, RefundNonce: c.RefundNonce.String(), ChargedCumulativeAmount: c.Charged.String(),
	}
}

// VoucherState is the proof of the charged total a corrective 402 carries:
// the last served request's voucher, which the client checks against its
// own key before it adopts the server's total; nil before the first.
func (c Channel) VoucherState() *x402.VoucherState {
	if c.Voucher == nil {
		return nil
	}
	return &x402.VoucherState{SignedMaxClaimable: c.Voucher.Max.String(), Signature: hexutil.Encode(c.Voucher.Signature)}
}

// Held reports whether a request holds c at now.
func (c Channel) Held(now time.Time) bool { return c.Hold != nil && now.Before(c.Hold.Until) }

// Unclaimed is what was charged and not yet claimed on chain.
func (c Channel) Unclaimed() *big.Int {
	u := new(big.Int).Sub(c.Charged, c.TotalClaimed)
	if u.Sign() < 0 {
		return new(big.Int)
	}
	return u
}

// The refusals of Channels, which a server branches on.
var (
	// ErrNoChannel: the server has no record of the channel; mirror the
	// chain's first (Sync).
	ErrNoChannel = errors.New("no record of the channel")
	// ErrChannelBusy: another request holds the channel; the client
	// retries shortly (invalid_batch_settlement_evm_channel_busy).
	ErrChannelBusy = errors.New("another request holds the channel")
	// ErrCumulativeMismatch: the voucher's ceiling is not the channel's
	// charged total plus the request's price; the server answers the
	// corrective 402 with the channel returned beside it.
	ErrCumulativeMismatch = errors.New("the voucher's ceiling is not the charged total plus the price")
	// ErrOverDeposit: the voucher's ceiling is above what the channel
	// holds; nothing is served past the deposit.
	ErrOverDeposit = errors.New("the voucher's ceiling is above the channel's balance")
	// ErrNotHeld: the request does not hold the channel (its hold expired
	// and another took it, or it never began).
	ErrNotHeld = errors.New("the request does not hold the channel")
	// ErrOverPrice: the charge is above the price the request was begun
	// for.
	ErrOverPrice = errors.New("the charge is above the request's price")
)

// Channels keeps a server's batch-settlement channels in a key-value space
// of any Backend (a bbolt file, or a fleet's PostgreSQL database), one
// record per channel. Each method is one atomic KV.Update, so the requests
// of a channel are serialized across replicas (Begin holds it; Commit or
// Abort lets it go) and a charge is committed only by the request that
// holds the channel, once its response was served.
type Channels struct {
	kv   KV
	memo *channelMemo
	// metered marks the holds Begin makes as metered (see Metered).
	metered bool
}

// Metered is cs whose Begin and BeginEarly hold a channel for a metered
// request, charged what its response used: a live metered hold gives way
// only to its commit, never to a voucher that builds on its price (which
// a client that missed the charge, in a trailer, would sign), so that
// such a payer is told the true total by the corrective 402 instead of
// being charged the price.
func (cs *Channels) Metered() *Channels {
	c := *cs
	c.metered = true
	return &c
}

// NewChannels returns the channels kept in kv.
func NewChannels(kv KV) *Channels { return &Channels{kv: kv, memo: new(channelMemo)} }

func decodeChannel(b []byte) (Channel, error) {
	var c Channel
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("batch-settlement channel: %w", err)
	}
	if c.Charged == nil || c.Balance == nil || c.TotalClaimed == nil || c.RefundNonce == nil {
		return c, errors.New("batch-settlement channel: a record without its amounts")
	}
	if (c.Voucher != nil && c.Voucher.Max == nil) || (c.Uncommitted != nil && c.Uncommitted.Max == nil) ||
		(c.Hold != nil && (c.Hold.Voucher.Max == nil || c.Hold.Price == nil)) {
		return c, errors.New("batch-settlement channel: a voucher or hold without its amounts")
	}
	return c, nil
}

// update runs fn on channel id's record, which must exist.
func (cs *Channels) update(id common.Hash, fn func(c *Channel) error) (Channel, error) {
	var got Channel
	err := cs.kv.Update(id[:], cs.apply(id, fn, &got))
	return got, err
}

// apply is the KV update that runs fn on channel id's record, which must
// exist, and sets got to the channel fn made (or refused).
func (cs *Channels) apply(id common.Hash, fn func(c *Channel) error, got *Channel) func(old []byte) ([]byte, error) {
	return func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, ErrNoChannel
		}
		c, err := cs.memo.decode(id, old)
		if err != nil {
			return nil, err
		}
		err = fn(&c)
		*got = c
		if err != nil {
			return nil, err
		}
		return cs.memo.encode(id, c)
	}
}

// Get returns channel id's record, or false if there is none.
func (cs *Channels) Get(id common.Hash) (Channel, bool, error) {
	b, err := cs.kv.Get(id[:])
	if err != nil || b == nil {
		return Channel{}, false, err
	}
	c, err := cs.memo.decode(id, b)
	return c, err == nil, err
}

// Sync mirrors the chain's state of channel id, read at now. A channel
// the server has no record of starts from what was claimed on chain (the
// spec's baseline after a state loss: what was charged and not claimed is
// forfeited); one whose claims ran ahead of its charges catches up.
func (cs *Channels) Sync(id common.Hash, s ChannelSnapshot, now time.Time) (Channel, error) {
	var got Channel
	err := cs.kv.Update(id[:], func(old []byte) ([]byte, error) {
		c := Channel{ID: id, Charged: new(big.Int).Set(s.TotalClaimed)}
		if old != nil {
			var err error
			if c, err = cs.memo.decode(id, old); err != nil {
				return nil, err
			}
		}
		c.mirror(s, now)
		got = c
		return cs.memo.encode(id, c)
	})
	return got, err
}

// mirror sets c's copy of the chain to s, read at now.
func (c *Channel) mirror(s ChannelSnapshot, now time.Time) {
	if c.Config == nil && s.Config != nil {
		cfg := *s.Config
		c.Config = &cfg
	}
	c.Balance, c.TotalClaimed, c.WithdrawRequestedAt = s.Balance, s.TotalClaimed, s.WithdrawRequestedAt
	c.RefundNonce, c.SyncedAt = s.RefundNonce, now.UTC()
	if c.Charged.Cmp(s.TotalClaimed) < 0 {
		c.Charged = new(big.Int).Set(s.TotalClaimed)
	}
}

// Claimed records a mined claim of channel id in transaction tx, which
// must have a record: the chain's state after it, s (mirrored as Sync
// does), and swept, what the claim added to the channel's claimed total
// and swept to the receiver in the same transaction. Swept grows by it,
// Claims counts the claim, and ClaimedAt is now; a claim recorded again
// (the same tx as the last, non-zero) is only mirrored.
func (cs *Channels) Claimed(id common.Hash, tx common.Hash, s ChannelSnapshot, swept *big.Int, now time.Time) (Channel, error) {
	return cs.update(id, func(c *Channel) error {
		c.mirror(s, now)
		if tx != (common.Hash{}) && c.ClaimTx == tx {
			return nil
		}
		c.ClaimTx = tx
		if c.Swept == nil {
			c.Swept = new(big.Int)
		}
		c.Swept = new(big.Int).Add(c.Swept, swept)
		c.Claims++
		c.ClaimedAt = now.UTC()
		return nil
	})
}

// Begin holds channel id for one request of owner, paid by v for at most
// price, until now+lease: v's ceiling must be the charged total plus price
// (ErrCumulativeMismatch otherwise, with the channel for the corrective
// 402), at most the balance (ErrOverDeposit), and no other live request
// may hold the channel (ErrChannelBusy). A hold that expired (its process
// died) gives way, and its voucher is kept in Uncommitted. A hold that v
// builds on (v's ceiling is the hold's plus price: the payer was told the
// hold's charge, which only its served response says) is charged at its
// price and gives way at once, live or expired, so that a replica that
// died after serving does not keep the channel busy. A refund's
// zero-charge voucher begins with a price of zero.
func (cs *Channels) Begin(id common.Hash, v Voucher, price *big.Int, owner string, now time.Time, lease time.Duration) (Channel, error) {
	return cs.update(id, func(c *Channel) error { return c.begin(v, price, owner, now, lease, cs.metered) })
}

// ErrHoldNotKept is what BeginEarly's durable reports when the store's
// update ran more than once, so the hold it decided first may not be the
// one kept: the request must not be served.
var ErrHoldNotKept = errors.New("the channel's hold was decided again while it was written")

// BeginEarly is Begin that answers as soon as the hold is decided, while
// it is still being written: durable waits for the write and returns nil
// once the hold is durable. Nothing may be served before durable returned
// nil, but the work before the response (the upstream's) may run beside
// the write. The decision is final once made: the update that made it
// holds the channel's record (bbolt's one writer, PostgreSQL's row lock)
// until it is written or fails, and every later update of the channel
// waits for it. A refusal (busy, mismatch, over the deposit) is not
// written, and comes with a nil durable.
func (cs *Channels) BeginEarly(id common.Hash, v Voucher, price *big.Int, owner string, now time.Time, lease time.Duration) (c Channel, durable func() error, err error) {
	return cs.BeginEarlyAfter(nil, id, v, price, owner, now, lease)
}

// PriorCommit is the charge of a request of a channel that was served and
// not committed yet, for BeginEarlyAfter to commit in the same write as
// the channel's next hold.
type PriorCommit struct {
	// Owner is the served request's (its hold's).
	Owner string
	// Charge is what it is charged, at most its price.
	Charge *big.Int
	// At is when it was served.
	At time.Time
}

// BeginEarlyAfter is BeginEarly that first commits prior (if not nil),
// the channel's last served request, in the same write as the new hold:
// one durable write for both. A prior whose hold is gone (another
// replica's request built on it) is skipped. A refusal writes neither:
// prior is still to be committed.
func (cs *Channels) BeginEarlyAfter(prior *PriorCommit, id common.Hash, v Voucher, price *big.Int, owner string, now time.Time, lease time.Duration) (c Channel, durable func() error, err error) {
	begin := func(c *Channel) error {
		if prior != nil {
			if err := c.commit(prior.Owner, prior.Charge, prior.At); err != nil && !errors.Is(err, ErrNotHeld) {
				return err
			}
		}
		return c.begin(v, price, owner, now, lease, cs.metered)
	}
	if kv, ok := cs.kv.(EarlyKV); ok {
		durable, err := kv.UpdateEarly(id[:], cs.apply(id, begin, &c))
		return c, durable, err
	}
	// Any other KV: its update runs in a goroutine of its own, which
	// tells the decision from inside it.
	type decision struct {
		c   Channel
		err error
	}
	decided := make(chan decision, 1)
	written := make(chan error, 1)
	var runs atomic.Int32
	go func() {
		_, err := cs.update(id, func(c *Channel) error {
			err := begin(c)
			if runs.Add(1) == 1 {
				decided <- decision{*c, err}
			}
			return err
		})
		written <- err
	}()
	select {
	case d := <-decided:
		if d.err != nil {
			<-written // a refusal writes nothing; the update ends at once
			return d.c, nil, d.err
		}
		var once sync.Once
		var kept error
		return d.c, func() error {
			once.Do(func() {
				if kept = <-written; kept == nil && runs.Load() > 1 {
					kept = ErrHoldNotKept
				}
			})
			return kept
		}, nil
	case err := <-written:
		// Refused before a decision: no record, or one that does not
		// decode.
		return Channel{}, nil, err
	}
}

// begin holds c for one request (see Begin).
func (c *Channel) begin(v Voucher, price *big.Int, owner string, now time.Time, lease time.Duration, metered bool) error {
	h := c.Hold
	buildsOn := h != nil && v.Max != nil && h.Voucher.Max.Cmp(new(big.Int).Add(c.Charged, h.Price)) == 0 &&
		v.Max.Cmp(new(big.Int).Add(h.Voucher.Max, price)) == 0 && !(h.Metered && c.Held(now))
	if c.Held(now) && !buildsOn {
		return ErrChannelBusy
	}
	if h != nil {
		c.Hold = nil
		if buildsOn {
			// The payer's voucher builds on the expired request's: it
			// was told that request's charge, which only its served
			// response said, so it was served and is charged now.
			c.Charged = new(big.Int).Set(h.Voucher.Max)
			kept := h.Voucher
			c.Voucher = &kept
			if c.Uncommitted != nil && c.Uncommitted.Max.Cmp(kept.Max) <= 0 {
				c.Uncommitted = nil
			}
		} else if c.Uncommitted == nil || h.Voucher.Max.Cmp(c.Uncommitted.Max) > 0 {
			kept := h.Voucher
			c.Uncommitted = &kept
		}
	}
	if want := new(big.Int).Add(c.Charged, price); v.Max == nil || v.Max.Cmp(want) != 0 {
		return ErrCumulativeMismatch
	}
	if v.Max.Cmp(c.Balance) > 0 {
		return ErrOverDeposit
	}
	c.Hold = &ChannelHold{Owner: owner, Voucher: v, Price: price, Began: now.UTC(), Until: now.Add(lease).UTC(), Metered: metered}
	return nil
}

// Commit charges channel id `charge`, at most the price owner's request
// was begun for, once its response was served: the charged total grows by
// it, the request's voucher becomes the channel's, and the hold ends.
func (cs *Channels) Commit(id common.Hash, owner string, charge *big.Int, now time.Time) (Channel, error) {
	return cs.update(id, func(c *Channel) error { return c.commit(owner, charge, now) })
}

// commit charges c for owner's served request (see Commit).
func (c *Channel) commit(owner string, charge *big.Int, now time.Time) error {
	h := c.Hold
	if h == nil || h.Owner != owner {
		return ErrNotHeld
	}
	if charge.Sign() < 0 || charge.Cmp(h.Price) > 0 {
		return ErrOverPrice
	}
	c.Charged = new(big.Int).Add(c.Charged, charge)
	v := h.Voucher
	c.Voucher = &v
	if c.Uncommitted != nil && c.Uncommitted.Max.Cmp(v.Max) <= 0 {
		c.Uncommitted = nil
	}
	c.Hold, c.LastRequest = nil, now.UTC()
	return nil
}

// Abort ends owner's hold of channel id without a charge: its response
// was not served, and the client may pay again with the same voucher.
func (cs *Channels) Abort(id common.Hash, owner string) (Channel, error) {
	return cs.update(id, func(c *Channel) error {
		if c.Hold == nil || c.Hold.Owner != owner {
			return ErrNotHeld
		}
		c.Hold = nil
		return nil
	})
}

// Delete forgets channel id, after a full refund.
func (cs *Channels) Delete(id common.Hash) error {
	cs.memo.forget(id)
	return cs.kv.Delete(id[:])
}

// Each calls fn with every channel, in id order, until fn fails; it
// returns fn's error. The claim strategies walk it for what is unclaimed.
func (cs *Channels) Each(fn func(Channel) error) error {
	return cs.kv.ForEach(func(_, v []byte) error {
		c, err := decodeChannel(v)
		if err != nil {
			return err
		}
		return fn(c)
	})
}

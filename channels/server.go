// Package channels is the merchant's side of x402's batch-settlement
// scheme (payment channels; scheme_batch_settlement_evm.md, "Server: State
// & Forwarding"): the state of each channel its routes are paid through,
// kept in the store (store.Channels: a bbolt file, or the PostgreSQL
// database a fleet shares), and the walk of one request's payment through
// it. Server implements paywall.Channels.
//
// A request's payment is verified (by the facilitator, or locally: a
// plain voucher signed by its payer authorizer on a channel whose mirrored
// state is fresh), its channel is held for the request across the fleet,
// its voucher must be exactly what the channel was charged plus the
// price (otherwise the corrective 402, with the server's state and the
// last voucher it served), and at most the deposit. The charge is
// committed only once the response was served. A refund is completed with
// the receiver authorizer's signatures and settled through the
// facilitator; the claims of what was served are package
// channels/claimer's.
package channels

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/batchsettlement"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The server's refusals (scheme_batch_settlement_evm.md, "Error Codes"),
// beside the facilitator's (package facilitator/batchsettlement).
const (
	// CodeChannelBusy: another request holds the channel; the client
	// retries shortly.
	CodeChannelBusy = "invalid_batch_settlement_evm_channel_busy"
	// CodeCumulativeAmountMismatch: the voucher's ceiling is not the
	// channel's charged total plus the price; the answer is the corrective
	// 402.
	CodeCumulativeAmountMismatch = "invalid_batch_settlement_evm_cumulative_amount_mismatch"
	// CodeSponsorshipExhausted: the payer (or all payers) used the
	// deposits and refunds the merchant pays the gas of in the window
	// (Config.Sponsored); the answer is 429 with Retry-After.
	CodeSponsorshipExhausted = "invalid_batch_settlement_evm_sponsorship_exhausted"
	// CodeDepositBelowMinimum: a deposit below the offer's
	// extra.minDeposit, which would cost the facilitator a transaction
	// for too little.
	CodeDepositBelowMinimum = "invalid_batch_settlement_evm_deposit_below_min_deposit"
)

// Config configures a Server.
type Config struct {
	// Store keeps the channels.
	Store *store.Channels
	// ChainID is the chain the channels are on, and Settlement the
	// batch-settlement contract (default its canonical address): the
	// domain channel ids and vouchers are hashed in.
	ChainID    *big.Int
	Settlement common.Address
	// Authorizer is the receiver authorizer's key, which signs the claims
	// and refunds of the channels whose offers name its address (from a
	// placeholder; never logged). Nil refuses cooperative refunds.
	Authorizer *ecdsa.PrivateKey
	// Lease is how long a request may hold its channel before another
	// request may take it over (its process is taken for dead); default
	// 2 minutes.
	Lease time.Duration
	// Fresh is how recent a channel's mirror of the chain must be for a
	// plain voucher to verify locally, without the facilitator; default
	// 30 s, negative always asks the facilitator.
	Fresh time.Duration
	// WithdrawMargin stops charges on a channel whose payer started a
	// timed withdrawal once the withdrawal can be finalized within this
	// margin, so that every served voucher is claimed before; default 5
	// minutes.
	WithdrawMargin time.Duration
	// Sponsored, if set, counts the deposits and cooperative refunds the
	// merchant's facilitator sends on payers' behalf, within
	// SponsoredLimits, across the fleet that shares the store: a payer
	// cycling deposits and refunds makes the merchant pay two
	// transactions' gas for one request's price, so the cycles are
	// bounded.
	Sponsored       *store.Sponsored
	SponsoredLimits store.SponsoredLimits
	// Committed, if set, is called with a channel after each committed
	// charge (the claimer's threshold and withdrawal strategies).
	Committed func(store.Channel)
	// CommitDelay is how long a served request's charge waits for its
	// channel's next request, to be committed in the same write as that
	// request's hold, before it is committed alone (see fold.go); default
	// DefaultCommitDelay, negative commits each charge at once.
	CommitDelay time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Server keeps a merchant's batch-settlement channels.
type Server struct {
	cfg Config
	dom batchsettle.Domain
	// authorizer is Authorizer's address; zero when there is none.
	authorizer common.Address
	// mu guards open: each channel's request of this process that has not
	// ended (committed or aborted), by channel, which the channel's next
	// request waits for; ending counts them.
	mu     sync.Mutex
	open   map[common.Hash]*use
	ending sync.WaitGroup
	// pending are the served requests' charges waiting for their
	// channels' next holds, by channel (fold.go).
	pending map[common.Hash]*pending
}

// New returns a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("channels: no store")
	}
	if cfg.ChainID == nil || cfg.ChainID.Sign() <= 0 {
		return nil, errors.New("channels: chain id must be positive")
	}
	if cfg.Settlement == (common.Address{}) {
		cfg.Settlement = contracts.BatchSettlementAddress
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 2 * time.Minute
	}
	if cfg.Fresh == 0 {
		cfg.Fresh = 30 * time.Second
	}
	if cfg.WithdrawMargin <= 0 {
		cfg.WithdrawMargin = 5 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.CommitDelay == 0 {
		cfg.CommitDelay = DefaultCommitDelay
	}
	s := &Server{cfg: cfg, dom: batchsettle.NewDomain(cfg.ChainID, cfg.Settlement), open: make(map[common.Hash]*use),
		pending: make(map[common.Hash]*pending)}
	if cfg.Authorizer != nil {
		s.authorizer = crypto.PubkeyToAddress(cfg.Authorizer.PublicKey)
	}
	return s, nil
}

// Close waits, at most until ctx ends, for the requests under way to be
// committed or aborted (a served request's charge is committed after its
// handler returned), and commits the charges waiting for their channels'
// next holds. A charge left uncommitted is not lost: its hold is in the
// store, and the payer's next voucher commits it.
func (s *Server) Close(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.ending.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("channels: charges still being committed: %w", ctx.Err())
	}
	if err := s.flushAll(ctx); err != nil {
		return fmt.Errorf("channels: charges still being committed: %w", err)
	}
	return nil
}

// after waits until this process's earlier request of channel id has
// ended, or ctx ends (the store then decides: busy, or a voucher that
// builds on the earlier one).
func (s *Server) after(ctx context.Context, id common.Hash) {
	s.mu.Lock()
	prev := s.open[id]
	s.mu.Unlock()
	if prev == nil {
		return
	}
	select {
	case <-prev.ended:
	case <-ctx.Done():
	}
}

// opened records u as its channel's request under way in this process.
func (s *Server) opened(u *use) {
	u.ended = make(chan struct{})
	s.ending.Add(1)
	s.mu.Lock()
	s.open[u.id] = u
	s.mu.Unlock()
}

// end records that u ended (committed or aborted), once.
func (u *use) end() {
	u.endOnce.Do(func() {
		s := u.s
		s.mu.Lock()
		if s.open[u.id] == u {
			delete(s.open, u.id)
		}
		s.mu.Unlock()
		close(u.ended)
		s.ending.Done()
	})
}

// Domain is the EIP-712 domain the channels are hashed in.
func (s *Server) Domain() batchsettle.Domain { return s.dom }

// refusal is a ChannelRefusal with code and a message.
func refusal(code any, format string, args ...any) *paywall.ChannelRefusal {
	return &paywall.ChannelRefusal{Status: http.StatusPaymentRequired, Reason: fmt.Sprint(code), Message: fmt.Sprintf(format, args...)}
}

// Begin implements paywall.Channels: it decodes the payment, verifies it
// (locally when it can, see local), mirrors the chain's state of its
// channel, and holds the channel for the request.
func (s *Server) Begin(ctx context.Context, req *x402.VerifyRequest, verify func(context.Context) (*x402.VerifyResponse, error)) (paywall.ChannelUse, error) {
	p, err := batchsettlement.DecodePayload(req.PaymentPayload.Payload)
	if err != nil {
		var r *batchsettlement.Refusal
		if errors.As(err, &r) {
			return nil, &paywall.ChannelRefusal{Status: http.StatusBadRequest, Reason: string(r.Code), Message: r.Error()}
		}
		return nil, err
	}
	if p.Claim != nil {
		return nil, refusal(batchsettlement.CodePayloadType, "a claim is the receiver's; a payer pays with a deposit, a voucher or a refund")
	}
	price, err := x402.ParseAmount(req.PaymentRequirements.Amount)
	if err != nil {
		return nil, refusal(x402.ReasonMalformedRequest, "the offer's amount: %v", err)
	}
	if p.Refund != nil {
		price = new(big.Int) // a refund's voucher charges nothing
	}
	id := p.ChannelID
	if got := s.dom.ChannelID(p.Config); got != id {
		return nil, refusal(batchsettlement.CodeChannelIDMismatch, "the channel config hashes to %s, not %s", got, id)
	}
	if d := p.Deposit; d != nil && req.PaymentRequirements.Extra != nil && req.PaymentRequirements.Extra.MinDeposit != "" {
		if min, err := x402.ParseAmount(req.PaymentRequirements.Extra.MinDeposit); err == nil && d.Amount.Cmp(min) < 0 {
			return nil, refusal(CodeDepositBelowMinimum, "the deposit of %s is below the offer's minDeposit of %s", d.Amount, min)
		}
	}
	s.after(ctx, id)
	now := s.cfg.Now()
	rec, known, err := s.cfg.Store.Get(id)
	if err != nil {
		return nil, err
	}
	u := &use{s: s, req: req, p: p, id: id, price: price, owner: newOwner()}
	if !(known && s.local(p, &req.PaymentRequirements, rec, now)) {
		vres, err := verify(ctx)
		if err != nil {
			return nil, err
		}
		if !vres.IsValid {
			if strings.HasPrefix(vres.InvalidMessage, string(batchsettlement.CodeCumulativeBelowClaimed)) && known {
				// The payer's state is behind the claims: the corrective
				// 402, as for a mismatch, from which it recovers.
				r := refusal(batchsettlement.CodeCumulativeBelowClaimed, "%s", vres.InvalidMessage)
				st := rec.State()
				r.State, r.Voucher = &st, rec.VoucherState()
				return nil, r
			}
			msg := vres.InvalidMessage
			if msg == "" {
				msg = string(vres.InvalidReason)
			}
			return nil, refusal(vres.InvalidReason, "%s", strings.TrimPrefix(msg, string(vres.InvalidReason)+": "))
		}
		snap, err := snapshotOf(vres.Extra, id)
		if err != nil {
			return nil, err
		}
		snap.Config = configOf(p.Config)
		synced := now
		if p.Deposit != nil {
			// The deposit is settled before anything is served (Settle),
			// so the request may spend it; if it fails, the chain's
			// balance is mirrored again. Meanwhile the mirror is marked
			// stale (synced at the zero time), so that no voucher
			// verifies locally against a deposit not yet made, even if
			// this process dies now.
			u.before = snap
			snap.Balance = new(big.Int).Add(snap.Balance, p.Deposit.Amount)
			synced = time.Time{}
		}
		if rec, err = s.cfg.Store.Sync(id, snap, synced); err != nil {
			return nil, err
		}
	}
	if p.Refund == nil {
		if err := s.checkWithdrawal(rec, now); err != nil {
			return nil, err
		}
	} else if s.cfg.Authorizer == nil || p.Config.ReceiverAuthorizer != s.authorizer {
		return nil, refusal(batchsettlement.CodeReceiverAuthorizer, "this server holds no key of the channel's receiver authorizer %s to sign a refund with; withdraw with the contract's timed withdrawal", p.Config.ReceiverAuthorizer)
	}
	if p.Deposit != nil || p.Refund != nil {
		if err := s.sponsor(p.Config.Payer, now); err != nil {
			return nil, err
		}
		u.sponsored = s.cfg.Sponsored != nil
	}
	// The hold is written beside the upstream's work: Settle, the first
	// step of any answer, waits until it is durable.
	cs := s.cfg.Store
	if paywall.MeteredCharge(ctx) {
		cs = cs.Metered() // a live hold gives way to its commit alone
		u.metered = true
	}
	// The channel's last served request's charge, if it waits, is
	// committed in the same write (fold.go).
	u.prior = s.take(ctx, id)
	rec, u.durable, err = cs.BeginEarlyAfter(u.prior, id, store.Voucher{Max: p.MaxClaimable, Signature: p.Signature}, price, u.owner, now, s.cfg.Lease)
	if err != nil {
		u.unsponsor() // refused: nothing will be sent
		if u.prior != nil {
			s.later(id, *u.prior) // nothing was written
			u.prior = nil
		}
	}
	switch {
	case errors.Is(err, store.ErrChannelBusy):
		r := refusal(CodeChannelBusy, "another request of channel %s is being served; retry shortly", id)
		r.RetryAfter = 1
		return nil, r
	case errors.Is(err, store.ErrCumulativeMismatch):
		r := refusal(CodeCumulativeAmountMismatch, "the voucher's ceiling %s is not the channel's charged total %s plus the price %s", p.MaxClaimable, rec.Charged, price)
		st := rec.State()
		r.State, r.Voucher = &st, rec.VoucherState()
		return nil, r
	case errors.Is(err, store.ErrOverDeposit):
		return nil, refusal(batchsettlement.CodeCumulativeExceedsBalance, "the voucher's ceiling %s is above the channel's balance %s; deposit more", p.MaxClaimable, rec.Balance)
	case err != nil:
		return nil, err
	}
	u.rec = rec
	s.opened(u)
	return u, nil
}

// sponsor counts one transaction sent on payer's behalf (a deposit or a
// refund that verified), or refuses it when payer, or all payers, used
// the window's (Config.SponsoredLimits).
func (s *Server) sponsor(payer common.Address, now time.Time) error {
	if s.cfg.Sponsored == nil {
		return nil
	}
	ok, ends, err := s.cfg.Sponsored.Take(payer.Hex(), s.cfg.SponsoredLimits, now)
	if err != nil || ok {
		return err
	}
	r := refusal(CodeSponsorshipExhausted, "the deposits and refunds this server pays the gas of are used up until %s; pay on with vouchers, or withdraw with the contract's timed withdrawal", ends.UTC().Format(time.RFC3339))
	r.Status = http.StatusTooManyRequests
	r.RetryAfter = max(1, int(ends.Sub(now).Seconds()+1))
	return r
}

// local reports whether p, a plain voucher, verifies without the
// facilitator: the channel's mirror of the chain is fresh, its
// configuration is the offer's, and the voucher is signed by the payer
// authorizer (an EOA: ECDSA) for more than was claimed and at most the
// balance. Deposits, refunds, vouchers a contract wallet signs (payer
// authorizer zero) and stale channels go to the facilitator.
func (s *Server) local(p *batchsettlement.Payment, offer *x402.PaymentRequirements, rec store.Channel, now time.Time) bool {
	if p.Type != batchsettlement.TypeVoucher || s.cfg.Fresh < 0 || rec.Config == nil || now.Sub(rec.SyncedAt) > s.cfg.Fresh {
		return false
	}
	cfg := configOf(p.Config)
	if *rec.Config != *cfg || cfg.PayerAuthorizer == (common.Address{}) {
		return false
	}
	if offer.Extra == nil || !sameAddress(offer.Asset, cfg.Token) || !sameAddress(offer.PayTo, cfg.Receiver) ||
		!sameAddress(offer.Extra.ReceiverAuthorizer, cfg.ReceiverAuthorizer) || uint64(offer.Extra.WithdrawDelay) != cfg.WithdrawDelay {
		return false
	}
	if p.MaxClaimable.Cmp(rec.TotalClaimed) <= 0 || p.MaxClaimable.Cmp(rec.Balance) > 0 {
		return false
	}
	signer, err := batchsettle.Recover(s.dom.VoucherDigest(p.ChannelID, p.MaxClaimable), p.Signature)
	return err == nil && signer == cfg.PayerAuthorizer
}

// checkWithdrawal refuses a charge on a channel whose payer's timed
// withdrawal can be finalized within WithdrawMargin: what it would be
// charged might not be claimed before the balance leaves.
func (s *Server) checkWithdrawal(rec store.Channel, now time.Time) error {
	if rec.WithdrawRequestedAt == 0 || rec.Config == nil {
		return nil
	}
	ends := time.Unix(rec.WithdrawRequestedAt, 0).Add(time.Duration(rec.Config.WithdrawDelay) * time.Second)
	if now.Add(s.cfg.WithdrawMargin).Before(ends) {
		return nil
	}
	return refusal(batchsettlement.CodeCumulativeExceedsBalance, "channel %s is being withdrawn (its withdrawal can be finalized at %s); deposit into a new channel", rec.ID, ends.UTC().Format(time.RFC3339))
}

// snapshotOf reads the facilitator's channel snapshot of channel id.
func snapshotOf(st *x402.ChannelState, id common.Hash) (store.ChannelSnapshot, error) {
	if st == nil {
		return store.ChannelSnapshot{}, errors.New("the facilitator's verification carries no channel state")
	}
	if !strings.EqualFold(st.ChannelID, id.Hex()) {
		return store.ChannelSnapshot{}, fmt.Errorf("the facilitator reported channel %s, not %s", st.ChannelID, id)
	}
	var snap store.ChannelSnapshot
	var err error
	for _, f := range []struct {
		dst **big.Int
		v   string
	}{{&snap.Balance, st.Balance}, {&snap.TotalClaimed, st.TotalClaimed}, {&snap.RefundNonce, st.RefundNonce}} {
		if *f.dst, err = x402.ParseAmount(f.v); err != nil {
			if n, ok := new(big.Int).SetString(f.v, 10); ok && n.Sign() >= 0 {
				*f.dst, err = n, nil
				continue
			}
			return snap, fmt.Errorf("the facilitator's channel state: %w", err)
		}
	}
	snap.WithdrawRequestedAt = st.WithdrawRequestedAt
	return snap, nil
}

// configOf is c as the store keeps it.
func configOf(c batchsettle.ChannelConfig) *store.ChannelConfig {
	return &store.ChannelConfig{
		Payer: c.Payer, PayerAuthorizer: c.PayerAuthorizer, Receiver: c.Receiver, ReceiverAuthorizer: c.ReceiverAuthorizer,
		Token: c.Token, WithdrawDelay: c.WithdrawDelay.Uint64(), Salt: c.Salt,
	}
}

// ChannelConfig is c as the contract takes it.
func ChannelConfig(c store.ChannelConfig) batchsettle.ChannelConfig {
	return batchsettle.ChannelConfig{
		Payer: c.Payer, PayerAuthorizer: c.PayerAuthorizer, Receiver: c.Receiver, ReceiverAuthorizer: c.ReceiverAuthorizer,
		Token: c.Token, WithdrawDelay: new(big.Int).SetUint64(c.WithdrawDelay), Salt: c.Salt,
	}
}

func sameAddress(s string, a common.Address) bool {
	return common.IsHexAddress(s) && common.HexToAddress(s) == a
}

// newOwner names one request's hold, unique across a fleet.
func newOwner() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// use is one request's hold of its channel (paywall.ChannelUse).
type use struct {
	s     *Server
	req   *x402.VerifyRequest
	p     *batchsettlement.Payment
	id    common.Hash
	price *big.Int
	owner string
	// rec is the channel as Begin held it.
	rec store.Channel
	// before is a deposit's channel as the chain had it before the
	// deposit, to mirror again if the deposit fails.
	before store.ChannelSnapshot
	// charge is what Settle charged, at most price; Commit commits it.
	charge *big.Int
	// refunded is a settled refund's answer, and deposited a settled
	// deposit's.
	refunded, deposited *x402.SettleResponse
	// sponsored is set while the request counts a sponsored deposit or
	// refund (Config.Sponsored) that sent nothing yet: given back if it
	// never does.
	sponsored bool
	// metered: the request is charged what its response used
	// (paywall.MeteredCharge).
	metered bool
	// prior is the channel's last served request's charge, committed in
	// the same write as this request's hold (fold.go), until it is
	// durable.
	prior *store.PriorCommit
	// durable waits until the hold is written (store.BeginEarly); held
	// is its outcome, once waited for.
	durable func() error
	held    error
	// ended is closed once the request was committed or aborted.
	ended   chan struct{}
	endOnce sync.Once
}

// hold waits until the request's hold is durable: nothing is served, and
// nothing charged or let go, before.
func (u *use) hold() error {
	if u.durable != nil {
		u.held, u.durable = u.durable(), nil
		if prior := u.prior; prior != nil {
			u.prior = nil
			if u.held != nil {
				u.s.later(u.id, *prior) // the write that was to commit it failed
			} else {
				u.s.committed(u.rec)
			}
		}
	}
	return u.held
}

// unsponsor gives back the sponsored transaction the request counted,
// if it still counts one: it sent nothing.
func (u *use) unsponsor() {
	if !u.sponsored {
		return
	}
	u.sponsored = false
	// A store that fails leaves the count taken: the budget errs on the
	// merchant's side.
	_ = u.s.cfg.Sponsored.Return(u.p.Config.Payer.Hex(), u.s.cfg.SponsoredLimits, u.s.cfg.Now())
}

// sent records a sponsored transaction's settle answer: one that sent a
// transaction spent the count; one that sent none gives it back.
func (u *use) sent(res *x402.SettleResponse) {
	if res.Success || res.TransactionHash != "" {
		u.sponsored = false
		return
	}
	u.unsponsor()
}

func (u *use) Payer() string     { return u.p.Config.Payer.Hex() }
func (u *use) ChannelID() string { return u.id.Hex() }
func (u *use) Refund() bool      { return u.p.Refund != nil }

// state is the channel's state after this request's charge.
func (u *use) state() *x402.ChannelState {
	st := u.rec.State()
	st.ChargedCumulativeAmount = new(big.Int).Add(u.rec.Charged, u.charge).String()
	return &st
}

// Settle implements paywall.ChannelUse.
func (u *use) Settle(ctx context.Context, charge *big.Int, settle func(context.Context, *x402.VerifyRequest) *x402.SettleResponse) *x402.SettleResponse {
	network := u.req.PaymentRequirements.Network
	if res := u.Fund(ctx, settle); res != nil {
		return res
	}
	u.charge = u.price
	if charge != nil && charge.Sign() >= 0 && charge.Cmp(u.price) < 0 {
		u.charge = charge
	}
	switch {
	case u.p.Refund != nil:
		res := u.settleRefund(ctx, settle)
		u.sent(res)
		return res
	case u.p.Deposit != nil:
		res := *u.deposited
		res.Extra = &x402.SettleExtra{ChargedAmount: u.charge.String(), ChannelState: u.state()}
		return &res
	}
	// A voucher: charged off chain, claimed later with others.
	return &x402.SettleResponse{
		Success: true, X402Version: x402.Version, Scheme: x402.SchemeBatchSettlement, Network: network,
		Payer: u.Payer(), Asset: u.req.PaymentRequirements.Asset,
		Extra: &x402.SettleExtra{ChargedAmount: u.charge.String(), ChannelState: u.state()},
	}
}

// Fund implements paywall.ChannelUse: it waits until the hold is durable,
// and settles a deposit once.
func (u *use) Fund(ctx context.Context, settle func(context.Context, *x402.VerifyRequest) *x402.SettleResponse) *x402.SettleResponse {
	if err := u.hold(); err != nil {
		return &x402.SettleResponse{X402Version: x402.Version, Network: u.req.PaymentRequirements.Network, ErrorCode: x402.ErrorInternal,
			Message: fmt.Sprintf("the channel's hold could not be kept: %v", err)}
	}
	if u.p.Deposit == nil || u.deposited != nil {
		return nil
	}
	res := settle(ctx, u.req)
	u.sent(res)
	if !res.Success {
		// Nothing was deposited: mirror the balance the chain has.
		u.s.cfg.Store.Sync(u.id, u.before, u.s.cfg.Now())
		return res
	}
	if res.Extra != nil && res.Extra.ChannelState != nil {
		if snap, err := snapshotOf(res.Extra.ChannelState, u.id); err == nil {
			if rec, err := u.s.cfg.Store.Sync(u.id, snap, u.s.cfg.Now()); err == nil {
				u.rec = rec
			}
		}
	}
	u.deposited = res
	return nil
}

// Commit implements paywall.ChannelUse: the charge of a served request is
// committed, with the channel's next hold or alone after CommitDelay
// (fold.go); a settled refund deletes the channel (a full refund) or
// mirrors what is left.
func (u *use) Commit(ctx context.Context) error {
	defer u.end()
	if err := u.hold(); err != nil {
		return err
	}
	now := u.s.cfg.Now()
	if u.p.Refund != nil {
		res := u.refunded
		if res == nil || res.Extra == nil || res.Extra.ChannelState == nil {
			_, err := u.s.cfg.Store.Abort(u.id, u.owner)
			return err
		}
		snap, err := snapshotOf(res.Extra.ChannelState, u.id)
		if err != nil {
			return err
		}
		if new(big.Int).Sub(snap.Balance, snap.TotalClaimed).Sign() == 0 && snap.TotalClaimed.Cmp(u.rec.Charged) >= 0 {
			return u.s.cfg.Store.Delete(u.id) // nothing is left in escrow
		}
		if _, err := u.s.cfg.Store.Sync(u.id, snap, now); err != nil {
			return err
		}
		_, err = u.s.cfg.Store.Commit(u.id, u.owner, new(big.Int), now)
		return err
	}
	charge := u.charge
	if charge == nil {
		charge = u.price
	}
	prior := store.PriorCommit{Owner: u.owner, Charge: charge, At: now}
	if u.s.cfg.CommitDelay < 0 || u.metered {
		// A metered hold stays busy to the other replicas until its
		// commit says what the response used: committed at once.
		rec, err := u.s.cfg.Store.Commit(u.id, u.owner, charge, now)
		if err != nil {
			return err
		}
		u.s.committed(rec)
		return nil
	}
	// Committed with the channel's next hold, or alone after CommitDelay.
	u.s.later(u.id, prior)
	return nil
}

// Abort implements paywall.ChannelUse.
func (u *use) Abort(context.Context) {
	defer u.end()
	u.hold() // after the hold's write, whatever it came to: a hold kept is let go
	u.s.cfg.Store.Abort(u.id, u.owner)
	u.unsponsor() // a deposit or refund never settled
}

// settleRefund completes the payer's refund payload (its amount, the
// channel's refund nonce, the claim of what was charged and not claimed,
// and the receiver authorizer's signatures) and settles it.
func (u *use) settleRefund(ctx context.Context, settle func(context.Context, *x402.VerifyRequest) *x402.SettleResponse) *x402.SettleResponse {
	rec := u.rec
	fail := func(format string, args ...any) *x402.SettleResponse {
		return &x402.SettleResponse{X402Version: x402.Version, Network: u.req.PaymentRequirements.Network, ErrorCode: x402.ErrorVerifyFailed,
			Message: string(batchsettlement.CodeRefundPayload) + ": " + fmt.Sprintf(format, args...)}
	}
	remainder := new(big.Int).Sub(rec.Balance, rec.Charged)
	amount := remainder
	if a := u.p.Refund.Amount; a != nil {
		if a.Sign() <= 0 || a.Cmp(remainder) > 0 {
			return fail("the refund of %s is not between 1 and the %s left", a, remainder)
		}
		// Each refund is a transaction the facilitator pays for: a partial
		// one must return at least what a deposit must move, so that a
		// deposit cannot be drained in many tiny refunds at the merchant's
		// gas.
		if x := u.req.PaymentRequirements.Extra; x != nil && x.MinDeposit != "" && a.Cmp(remainder) < 0 {
			if min, err := x402.ParseAmount(x.MinDeposit); err == nil && a.Cmp(min) < 0 {
				return fail("a partial refund of %s is below the offer's minDeposit of %s; ask for at least that, or for everything left (%s)", a, min, remainder)
			}
		}
		amount = a
	}
	if amount.Sign() <= 0 {
		return fail("channel %s has nothing left to refund", u.id)
	}
	refundSig, err := batchsettle.Sign(u.s.dom.RefundDigest(u.id, rec.RefundNonce, amount), u.s.cfg.Authorizer)
	if err != nil {
		return fail("%v", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(u.req.PaymentPayload.Payload, &raw); err != nil {
		return fail("%v", err)
	}
	set := func(k string, v any) { raw[k], _ = json.Marshal(v) }
	set("amount", amount.String())
	set("refundNonce", rec.RefundNonce.String())
	set("refundAuthorizerSignature", hexutil.Encode(refundSig))
	if rec.Charged.Cmp(rec.TotalClaimed) > 0 {
		// What was served is claimed in the refund's transaction, with the
		// refund's own zero-charge voucher, whose ceiling is the charged
		// total.
		rows := []batchsettle.VoucherClaim{{
			Voucher:   batchsettle.X402BatchSettlementVoucher{Channel: u.p.Config, MaxClaimableAmount: u.p.MaxClaimable},
			Signature: u.p.Signature, TotalClaimed: new(big.Int).Set(rec.Charged),
		}}
		claimSig, err := batchsettle.Sign(u.s.dom.ClaimBatchDigest(u.s.dom.Entries(rows)), u.s.cfg.Authorizer)
		if err != nil {
			return fail("%v", err)
		}
		set("claims", ClaimRows(rows))
		set("claimAuthorizerSignature", hexutil.Encode(claimSig))
	}
	payload, err := json.Marshal(raw)
	if err != nil {
		return fail("%v", err)
	}
	req := *u.req
	req.PaymentPayload.Payload = payload
	res := settle(ctx, &req)
	if res.Success {
		u.refunded = res
		if res.Extra == nil {
			res.Extra = &x402.SettleExtra{}
		}
		if res.Extra.ChannelState != nil {
			st := *res.Extra.ChannelState
			st.ChargedCumulativeAmount = rec.Charged.String()
			res.Extra.ChannelState = &st
		}
	}
	return res
}

// ClaimRow is a claim's row as the facilitator's /settle reads it.
type ClaimRow struct {
	Voucher struct {
		Channel            ClaimChannel `json:"channel"`
		MaxClaimableAmount string       `json:"maxClaimableAmount"`
	} `json:"voucher"`
	Signature    string `json:"signature"`
	TotalClaimed string `json:"totalClaimed"`
}

// ClaimChannel is a channel config on the wire.
type ClaimChannel struct {
	Payer              string `json:"payer"`
	PayerAuthorizer    string `json:"payerAuthorizer"`
	Receiver           string `json:"receiver"`
	ReceiverAuthorizer string `json:"receiverAuthorizer"`
	Token              string `json:"token"`
	WithdrawDelay      uint64 `json:"withdrawDelay"`
	Salt               string `json:"salt"`
}

// ClaimRows is rows on the wire.
func ClaimRows(rows []batchsettle.VoucherClaim) []ClaimRow {
	out := make([]ClaimRow, len(rows))
	for i, r := range rows {
		c := r.Voucher.Channel
		out[i].Voucher.Channel = ClaimChannel{
			Payer: c.Payer.Hex(), PayerAuthorizer: c.PayerAuthorizer.Hex(), Receiver: c.Receiver.Hex(), ReceiverAuthorizer: c.ReceiverAuthorizer.Hex(),
			Token: c.Token.Hex(), WithdrawDelay: c.WithdrawDelay.Uint64(), Salt: common.Hash(c.Salt).Hex(),
		}
		out[i].Voucher.MaxClaimableAmount = r.Voucher.MaxClaimableAmount.String()
		out[i].Signature = hexutil.Encode(r.Signature)
		out[i].TotalClaimed = r.TotalClaimed.String()
	}
	return out
}

// Interface guard.
var _ paywall.Channels = (*Server)(nil)

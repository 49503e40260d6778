package facilitator

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// failure builds a settle response with an error code.
func (s *Service) failure(code x402.ErrorCode, message string, p *payment) *x402.SettleResponse {
	r := &x402.SettleResponse{X402Version: x402.Version, Network: s.cfg.Network, ErrorCode: code, Message: message}
	if p != nil {
		r.Scheme, r.Payer = p.scheme, p.payer.Hex()
		if p.pay.UserOpHash != (common.Hash{}) {
			r.UserOpHash, r.RequestHash = p.pay.UserOpHash.Hex(), p.pay.RequestHash.Hex()
		}
	}
	return r
}

// Settle verifies a payment and settles it on chain, idempotently per replay
// key. The answer is always a response; its error code says what happened.
// The error is always nil: it is there so that Service and Client share a
// method set.
//
// The receipt of a settled payment is handed to one settle only: the first
// to be answered with it, named by the idempotency key in ctx (see
// [x402.WithIdempotencyKey]), and to that settle's retries. Any other
// settle presenting the payment gets replay, so one payment buys one
// response. A settle without a key is its own owner and cannot be retried.
func (s *Service) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	ctx, span := startSpan(ctx, spanSettle)
	edge.SetOffer(span, &req.PaymentRequirements)
	res := s.settle(ctx, req)
	edge.EndSettle(span, res)
	return res, nil
}

// settle is Settle without its span.
func (s *Service) settle(ctx context.Context, req *x402.SettleRequest) (res *x402.SettleResponse) {
	p, err := s.decode(req)
	if err != nil {
		return s.verifyFailed(err, nil)
	}
	defer func() { res = s.reported(ctx, p, res) }()
	if oc, ok := p.of.(scheme.OffChain); ok && oc.OffChain(p.pay) {
		return s.verifyFailed(x402.Invalid(x402.ReasonInvalidInnerPayload, "no transaction settles this %s payment: it is charged off chain and claimed later", p.scheme), p)
	}
	p.owner = settleOwner(ctx)
	if !s.enter(p.key) {
		return s.failure(x402.ErrorInFlight, "settlement of this payment is in progress; retry shortly", p)
	}
	defer s.leave(p.key)

	rec, err := s.store.Get(p.key)
	if err != nil {
		s.log.Error("reading the store", zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	if rec != nil {
		if rec.PayloadHash != p.hash {
			return s.verifyFailed(x402.Invalid(x402.ReasonReplay, "this authorization was already submitted for other requirements, or another payment used its nonce"), p)
		}
		switch rec.State {
		case store.StateSettled:
			return s.handOver(p)
		case store.StateFailed:
			return rec.Response // the original answer; nothing was paid
		case store.StateSubmitted:
			return s.resume(ctx, req, p, rec)
		}
		// A claim with no transaction stored: its settle stopped before
		// signing, or (in a fleet) another replica's settle is signing it
		// now. Nothing was broadcast under it, so a stale one is settled
		// afresh under a claim taken over from it.
		now := s.cfg.Now().UTC()
		fresh := *rec
		fresh.Updated = now
		_, span := startSpan(ctx, spanClaim)
		ok, err := s.store.Reclaim(&fresh, s.claimStale(now))
		switch {
		case err != nil:
			s.log.Error("taking over a claim", zap.Error(err))
			return endClaim(span, s.failure(x402.ErrorInternal, "internal error", p))
		case !ok:
			return endClaim(span, s.failure(x402.ErrorInFlight, "settlement of this payment is in progress; retry shortly", p))
		}
		endClaim(span, nil)
		s.payers.reserve(p.key, p.payer, p.asset, p.reserve, p.pay.Contract, p.pay.Class)
		return s.submit(ctx, req, p, &fresh, true)
	}

	deferred, isDeferred := p.of.(scheme.Deferred)
	if isDeferred && p.amount.Sign() == 0 {
		return s.settleNothing(ctx, req, p)
	}
	// The payer's payments are verified and reserved one at a time, so
	// that what its other settlements in flight will take is counted
	// against its balance before anything is broadcast.
	unlock := s.payers.lock(p.payer, p.asset)
	if err := s.verifyScheme(ctx, req, p); err != nil {
		unlock()
		if isDeferred && deferred.Withdrawn(err) {
			// A deferred payment is settled after its response was
			// served: a payer that took back what verification saw (spent
			// its tokens, revoked an allowance, used its nonce) meanwhile
			// had the response unpaid, and waits in the penalty box, as if
			// its settlement had reverted.
			s.payers.reverted(p.key, p.payer, s.cfg.Now())
		}
		return s.verifyFailed(err, p)
	}
	if idle, ok := p.of.(scheme.Idle); ok && idle.Idle(p.pay) {
		unlock()
		return &x402.SettleResponse{Success: true, X402Version: x402.Version, Scheme: p.scheme, Network: s.cfg.Network,
			Payer: p.payer.Hex(), Amount: "0"}
	}
	s.payers.reserve(p.key, p.payer, p.asset, p.reserve, p.pay.Contract, p.pay.Class)
	unlock()
	now := s.cfg.Now().UTC()
	rec = &store.Record{
		Key: p.key, PayloadHash: p.hash, State: store.StateClaimed,
		Scheme: p.scheme, Network: s.cfg.Network,
		Payer: p.payer, PayTo: p.payTo, Asset: p.asset, Amount: p.amount,
		Created: now, Updated: now, ServeBy: serveBy(req, p, now),
		Notify: notify(ctx),
	}
	rec.Resource, rec.Description = saleOf(req)
	rec.UserOpHash, rec.RequestHash = p.pay.UserOpHash, p.pay.RequestHash
	if p.reserve.Cmp(p.amount) > 0 {
		rec.Reserve = p.reserve
	}
	if p.settlement.Op == nil && s.cfg.Journal == nil {
		// A store this process alone uses: sign first, and claim with the
		// signed transaction, in one commit (see broadcast).
		return s.submit(ctx, req, p, rec, false)
	}
	_, span := startSpan(ctx, spanClaim)
	existing, claimed, err := s.claim(rec, p)
	if errors.Is(err, store.ErrUnfunded) {
		// Other replicas' settlements of the payer, in flight, take what
		// its balance holds: this one would revert at the settler's cost.
		s.payers.release(p.key)
		endClaim(span, nil)
		return s.verifyFailed(x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: %s holds %s, which its settlements in flight on this facilitator's replicas and this payment exceed", p.payer, p.pay.Funds), p)
	}
	if err != nil {
		s.payers.release(p.key)
		s.log.Error("claiming a replay key", zap.Error(err))
		return endClaim(span, s.failure(x402.ErrorInternal, "internal error", p))
	}
	if !claimed {
		s.payers.release(p.key)
		// Another process sharing the store claimed it between our read and
		// our claim.
		return endClaim(span, s.claimedElsewhere(existing, p))
	}
	endClaim(span, nil)
	return s.submit(ctx, req, p, rec, true)
}

// fundedClaims is a store every replica of a fleet shares that claims a
// payment only if its payer's balance covers it and the payer's other
// settlements in flight, of every replica (store/postgres).
type fundedClaims interface {
	ClaimFunded(rec store.Record, balance *big.Int) (*store.Record, bool, error)
}

// claim claims rec for p: funded, when the store can and verification
// read the payer's balance, so that replicas never broadcast together more
// than the balance covers; otherwise as Claim does (one process's own
// reservations, payers.reserve, bound what it broadcasts).
func (s *Service) claim(rec *store.Record, p *payment) (*store.Record, bool, error) {
	if f, ok := s.store.(fundedClaims); ok && p.pay.Funds != nil {
		return f.ClaimFunded(*rec, p.pay.Funds)
	}
	return s.store.Claim(*rec)
}

// reported is res with the payment's state after its settlement, for a
// scheme that reports one (scheme.Reporter: a batch-settlement channel),
// read from the chain once the settlement succeeded. res is never changed
// in place: it may be the stored record's answer.
func (s *Service) reported(ctx context.Context, p *payment, res *x402.SettleResponse) *x402.SettleResponse {
	r, ok := p.of.(scheme.Reporter)
	if !ok || res == nil || !res.Success || res.TransactionHash == "" {
		return res
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	st, err := r.Reread(ctx, p.pay)
	if err != nil {
		// The settlement stands; only its report is missing.
		s.log.Warn("reading the state a settlement left", zap.String("scheme", p.scheme), zap.Error(err))
		return res
	}
	if st == nil {
		return res
	}
	out := *res
	out.Extra = &x402.SettleExtra{ChannelState: st}
	return &out
}

// settleNothing answers the settle of a deferred payment (scheme.Deferred:
// an upto payment, say) that owes nothing (its response used nothing, or
// the upstream failed): once verified, it succeeds with no transaction and
// no record. Its signature stays unused on chain, so the payer may present
// it again; whatever it is then settled for is at most its maximum, once.
func (s *Service) settleNothing(ctx context.Context, req *x402.SettleRequest, p *payment) *x402.SettleResponse {
	if err := s.verifyScheme(ctx, req, p); err != nil {
		return s.verifyFailed(err, p)
	}
	return &x402.SettleResponse{Success: true, X402Version: x402.Version, Scheme: p.scheme, Network: s.cfg.Network,
		Payer: p.payer.Hex(), Amount: "0"}
}

// claimedElsewhere answers a settle whose claim found existing, the record
// another settle claimed the payment with.
func (s *Service) claimedElsewhere(existing *store.Record, p *payment) *x402.SettleResponse {
	switch {
	case existing.PayloadHash != p.hash:
	case existing.State == store.StateSettled:
		return s.handOver(p)
	case existing.State == store.StateFailed:
		return existing.Response
	}
	return s.failure(x402.ErrorInFlight, "settlement of this payment is in progress; retry shortly", p)
}

// claimStale is the time before which a claim may be taken over at now:
// any claim, for a store this process alone uses (a settle of it running
// here is kept out by enter), or one older than ClaimTakeover in a fleet.
func (s *Service) claimStale(now time.Time) time.Time {
	if s.cfg.Journal == nil {
		return now.Add(time.Nanosecond)
	}
	return now.Add(-cmp.Or(s.cfg.ClaimTakeover, DefaultClaimTakeover))
}

// DefaultClaimTakeover is the default of Config.ClaimTakeover.
const DefaultClaimTakeover = 5 * time.Minute

// endClaim ends the span of a claim with res, the settle's answer if the
// claim ended it (nil if the claim was taken), and returns res.
func endClaim(span trace.Span, res *x402.SettleResponse) *x402.SettleResponse {
	endStep(span, res)
	return res
}

// verifyFailed maps a verification error to a settle response.
func (s *Service) verifyFailed(err error, p *payment) *x402.SettleResponse {
	var xe *x402.Error
	if errors.As(err, &xe) {
		r := s.failure(x402.ErrorVerifyFailed, xe.Error(), p)
		r.InvalidReason = xe.Reason
		return r
	}
	s.log.Warn("settle: verification could not complete", zap.Error(err))
	return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
}

// settleOwner names the owner of a settle: a digest of its idempotency
// key, or a random name for a settle without one.
func settleOwner(ctx context.Context) string {
	if k := x402.IdempotencyKey(ctx); k != "" {
		sum := sha256.Sum256([]byte(k))
		return hex.EncodeToString(sum[:])
	}
	var b [16]byte
	rand.Read(b[:])
	return "anonymous:" + hex.EncodeToString(b[:])
}

// Served records that the settle of req named by the idempotency key in
// ctx wrote the response its payment bought: from then on the payment is
// spent for good. Until then, if the process dies between settling and
// answering, the payer's retry (with another idempotency key, on any
// replica) is handed the receipt and served, once and within the
// payment's validity window (store.CanConsume, handover.go); after it, the
// retry gets replay. The paywall calls it once the protected handler
// has returned.
func (s *Service) Served(ctx context.Context, req *x402.SettleRequest) error {
	p, err := s.decodePayment(req)
	if err != nil {
		return err
	}
	if err := s.store.Serve(p.key, settleOwner(ctx)); err != nil {
		s.log.Warn("recording a paid response", zap.Stringer("key", p.key), zap.Error(err))
		return err
	}
	return nil
}

// handOver answers a settle of a payment that is settled: its receipt, if
// this settle owns the response it bought (or nobody does yet, because the
// settle that paid gave up waiting); replay otherwise.
func (s *Service) handOver(p *payment) *x402.SettleResponse {
	rec, ok, err := s.store.Consume(p.key, p.owner)
	if err != nil {
		s.log.Error("handing over a receipt", zap.Stringer("key", p.key), zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	if !ok {
		if rec.State == store.StateSettled && !rec.Served && rec.ConsumerInstance != "" && rec.ConsumerInstance != s.store.Instance() && s.mayHandOver(rec) {
			// Another replica, which the store still sees, is writing the
			// response it bought; it may have died unnoticed (see verify).
			return s.failure(x402.ErrorInFlight, "the response this payment bought is being written for another request; retry shortly", p)
		}
		return s.verifyFailed(x402.Invalid(x402.ReasonReplay, "this payment already paid for a response"), p)
	}
	return rec.Response
}

// submit signs the settlement, stores it, broadcasts it and waits for it.
// The record holds no transaction yet; it is claimed, or, if claimed is
// false (an exact payment, on a store this process alone uses), not stored
// yet: broadcast claims it with its signed transaction.
func (s *Service) submit(ctx context.Context, req *x402.SettleRequest, p *payment, rec *store.Record, claimed bool) *x402.SettleResponse {
	sctx, span := startSpan(ctx, spanSubmit)
	var res *x402.SettleResponse
	switch {
	case p.settlement.Op != nil && s.externalFor(p) != nil:
		res = s.submitExternal(sctx, p, rec)
	case p.settlement.Op != nil:
		res = s.submitOp(sctx, p, rec)
	default:
		res = s.broadcast(sctx, p, rec, claimed)
	}
	if span.IsRecording() && res == nil {
		if rec.TxHash != (common.Hash{}) {
			span.SetAttributes(edge.AttrTx.String(rec.TxHash.Hex()))
		}
		if rec.UserOpHash != (common.Hash{}) {
			span.SetAttributes(edge.AttrUserOpHash.String(rec.UserOpHash.Hex()))
		}
	}
	endStep(span, res)
	switch {
	case res != nil:
		return res
	case p.settlement.Op != nil && s.externalFor(p) != nil:
		return s.awaitExternal(ctx, p, rec)
	}
	s.announce(ctx, p, rec) // out: a caller serving on broadcast may answer now
	return s.await(ctx, p, rec)
}

// errOverGas is a settlement whose estimate exceeds its scheme's MaxGas.
var errOverGas = errors.New("the settlement would take more gas than its scheme allows")

// withinGas bounds an estimate (which carries the sender's margin) by
// max: a limit over max is cut to max while the estimate itself fits, and
// refused beyond. Zero max bounds nothing.
func withinGas(gas, max uint64) (uint64, error) {
	switch {
	case max == 0 || gas <= max:
		return gas, nil
	case gas-gas/5 <= max:
		return max, nil
	}
	return 0, fmt.Errorf("%w: %d, at most %d", errOverGas, gas, max)
}

// estimateRefusal is what a payer is told of a settlement refused at its
// estimate.
func estimateRefusal(err error) string {
	if errors.Is(err, errOverGas) {
		return "settling the payment would cost more gas than this facilitator spends on one payment"
	}
	return "the transfer would revert on chain"
}

// broadcast signs a settlement call (an exact payment's), stores it and
// broadcasts it. It
// returns nil once the transaction is out, and the answer otherwise.
//
// If rec is not claimed yet, it is claimed with its signed transaction:
// claim and submission are one commit, not two. That is safe only on a
// store this process alone uses (no Journal): until the commit nothing was
// broadcast, so a crash before it leaves nothing to resume (the nonce was
// only handed out in memory), and no other process can claim the payment
// meanwhile (enter keeps out this process's other settles of it). In a
// fleet the claim comes first, so that two replicas never sign one payment.
func (s *Service) broadcast(ctx context.Context, p *payment, rec *store.Record, claimed bool) *x402.SettleResponse {
	if s.batch != nil {
		if item, ok := s.batchItem(p); ok {
			r := s.batch.join(ctx, s, &batchEntry{ctx: ctx, p: p, rec: rec, claimed: claimed, item: item})
			switch {
			case r.alone:
				// Settled on its own, as without batching; it holds a
				// send slot of the batcher until its transaction is out.
				defer s.batch.idle(s)
				claimed = r.claimed
				if r.waited {
					// It waited in the queue: is it still valid when a
					// transaction sent now is mined?
					by, err := s.mineBy(ctx)
					switch {
					case err != nil:
						return s.wouldRevert(ctx, p, rec, claimed, err)
					case !validAt(p.pay.ValidBefore, by):
						return s.lapsed(ctx, p, rec, claimed)
					}
				}
			case errors.Is(r.revert, errLapsed):
				return s.lapsed(ctx, p, rec, claimed)
			case r.revert != nil:
				return s.wouldRevert(ctx, p, rec, claimed, r.revert)
			default:
				return r.res
			}
		}
	}
	to, call := p.settlement.To, p.settlement.Data
	_, span := startSpan(ctx, spanEstimate)
	gas, err := s.sender.Estimate(ctx, to, call)
	if err == nil {
		gas, err = withinGas(gas, p.settlement.MaxGas)
	}
	endCall(span, err, "estimate")
	if err != nil {
		return s.wouldRevert(ctx, p, rec, claimed, err)
	}
	for attempt := 0; ; attempt++ {
		_, span := startSpan(ctx, spanSign)
		tx, err := s.sender.Sign(ctx, to, call, gas)
		endCall(span, err, "sign")
		if err != nil {
			s.releaseIf(p, claimed)
			if errors.Is(err, sender.ErrUnreachable) {
				return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
			}
			s.log.Error("signing a settlement", zap.Error(err))
			return s.failure(x402.ErrorInternal, "internal error", p)
		}
		raw, err := tx.MarshalBinary()
		if err != nil {
			s.sender.Release(tx.Nonce())
			s.releaseIf(p, claimed)
			return s.failure(x402.ErrorInternal, "internal error", p)
		}
		rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, tx.Hash(), raw, s.cfg.Now().UTC()
		s.carries(tx.Hash(), rec.Key)
		if claimed {
			span = startStore(ctx, string(store.StateSubmitted))
			err = s.store.Submit(rec)
		} else {
			span = startStore(ctx, "claimed+"+string(store.StateSubmitted))
			var existing *store.Record
			existing, claimed, err = s.store.Claim(*rec)
			if err == nil && !claimed {
				endCall(span, nil, "")
				s.sender.Release(tx.Nonce())
				s.forget(p)
				return s.claimedElsewhere(existing, p)
			}
		}
		endCall(span, err, "store")
		if err != nil {
			s.sender.Release(tx.Nonce())
			s.releaseIf(p, claimed)
			s.log.Error("storing a signed settlement", zap.Error(err))
			return s.failure(x402.ErrorInternal, "internal error", p)
		}
		_, span = startSpan(ctx, spanSend)
		err = s.sender.Send(ctx, tx)
		endCall(span, err, "send")
		if errors.Is(err, sender.ErrNonceTooLow) && attempt < 3 {
			continue // the nonce was taken; sign again with a fresh one
		}
		return s.sent(p, tx, err)
	}
}

// sent answers a settlement whose signed, stored transaction tx was sent
// with err: nil once it is out.
func (s *Service) sent(p *payment, tx *types.Transaction, err error) *x402.SettleResponse {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sender.ErrUnreachable):
		s.release(p)
		return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
	case errors.Is(err, sender.ErrRejected), errors.Is(err, sender.ErrNonceTooLow):
		s.release(p)
		s.log.Error("the node refused a settlement", zap.Stringer("tx", tx.Hash()), zap.Error(err))
		return s.failure(x402.ErrorInternal, "the settlement transaction was refused by the node", p)
	default:
		// Delivery unknown: keep the record; a retry resumes it.
		s.log.Warn("broadcast outcome unknown", zap.Stringer("tx", tx.Hash()), zap.Error(err))
		return s.failure(x402.ErrorBundlerUnreachable, "the settlement was sent but not confirmed; retry after Retry-After", p)
	}
}

// wouldRevert answers a settlement whose call would not go through: its
// gas estimate (or its batch's simulation) failed with err. Nothing was
// sent; a claimed payment may have been settled by a transaction of a
// claim this one took over.
func (s *Service) wouldRevert(ctx context.Context, p *payment, rec *store.Record, claimed bool, err error) *x402.SettleResponse {
	if !claimed {
		s.forget(p)
		if errors.Is(err, sender.ErrUnreachable) {
			return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
		}
		s.log.Info("a settlement's gas estimate reverts", zap.Stringer("payer", p.payer), zap.Error(err))
		r := s.failure(x402.ErrorVerifyFailed, string(x402.ReasonInvalidInnerPayload)+": "+estimateRefusal(err), p)
		r.InvalidReason = x402.ReasonInvalidInnerPayload
		return r
	}
	if !errors.Is(err, sender.ErrUnreachable) {
		if receipt := s.minedElsewhere(ctx, p, rec); receipt != nil {
			// It reverts because the payment was settled already: by
			// the transaction of a claim this one took over (its
			// replica signed it, then died before storing it).
			return s.adopt(ctx, p, rec, receipt)
		}
	}
	s.release(p)
	if errors.Is(err, sender.ErrUnreachable) {
		return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
	}
	s.log.Info("a settlement's gas estimate reverts", zap.Stringer("payer", p.payer), zap.Error(err))
	r := s.failure(x402.ErrorVerifyFailed, string(x402.ReasonInvalidInnerPayload)+": "+estimateRefusal(err), p)
	r.InvalidReason = x402.ReasonInvalidInnerPayload
	return r
}

// errLapsed is a batched payment that would expire before its batch
// could be mined (inclusion.go).
var errLapsed = errors.New("the authorization would expire before its settlement could be mined")

// lapsed answers a payment that waited for its batch until its
// authorization would expire before a transaction sent now could be
// mined: nothing is sent for it, and nothing was paid. It is answered as
// transient (bundler_unreachable: the facilitator held it too long, not
// its payer's doing, so the payer is not put in the penalty box); the
// payer's retry with it is refused as expiring too soon, and a fresh
// payment settles. A claimed payment may have been settled by a
// transaction of a claim this one took over.
func (s *Service) lapsed(ctx context.Context, p *payment, rec *store.Record, claimed bool) *x402.SettleResponse {
	if claimed {
		if receipt := s.minedElsewhere(ctx, p, rec); receipt != nil {
			return s.adopt(ctx, p, rec, receipt)
		}
	}
	s.releaseIf(p, claimed)
	return s.failure(x402.ErrorBundlerUnreachable, "the payment waited for its batch until its authorization would expire before a settlement could be mined; nothing was sent or paid: pay again with a new authorization", p)
}

// releaseIf releases p's claim if it is claimed, and forgets it otherwise.
func (s *Service) releaseIf(p *payment, claimed bool) {
	if claimed {
		s.release(p)
		return
	}
	s.forget(p)
}

// adopt finishes a claimed record with the receipt of a transaction that
// settled its payment but that the record never held (see minedElsewhere).
func (s *Service) adopt(ctx context.Context, p *payment, rec *store.Record, receipt *types.Receipt) *x402.SettleResponse {
	rec.State, rec.TxHash, rec.Updated = store.StateSubmitted, receipt.TxHash, s.cfg.Now().UTC()
	if err := s.store.Submit(rec); err != nil {
		s.log.Error("recording a settlement found on chain", zap.Stringer("tx", receipt.TxHash), zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	return s.finish(ctx, rec, receipt, p.owner)
}

// resume continues a settlement whose transaction was signed earlier, by this
// process or one before it: it waits for that transaction, rebroadcasting it
// if the node does not know it, and signs anew only if it can never be mined.
func (s *Service) resume(ctx context.Context, req *x402.SettleRequest, p *payment, rec *store.Record) *x402.SettleResponse {
	if len(rec.RawTx) == 0 && p.settlement.Op != nil && s.externalFor(p) != nil {
		return s.resumeExternal(ctx, p, rec)
	}
	if receipt, err := s.eth.TransactionReceipt(ctx, rec.TxHash); err == nil {
		return s.conclude(ctx, p, rec, receipt)
	}
	var tx types.Transaction
	if err := tx.UnmarshalBinary(rec.RawTx); err != nil {
		s.log.Error("stored transaction does not decode", zap.Stringer("key", rec.Key), zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	err := s.sender.Rebroadcast(ctx, &tx)
	switch {
	case err == nil:
		return s.await(ctx, p, rec)
	case errors.Is(err, sender.ErrNonceTooLow):
		switch receipt, err := s.eth.TransactionReceipt(ctx, rec.TxHash); {
		case err == nil:
			return s.conclude(ctx, p, rec, receipt) // mined meanwhile
		case sender.Indexing(err):
			// The node cannot tell yet whether this transaction took the
			// nonce: concluding "never mined" now could fail a payment
			// that is settled. A retry resumes once it can tell.
			return s.failure(x402.ErrorReceiptTimeout, "the settlement's transaction cannot be looked up yet; retry after Retry-After", p)
		}
		// Its nonce went to another transaction and it has no receipt: it
		// will never be mined, so nothing was paid by it. Verify again (the
		// authorization may since have been used) and sign a new one; its
		// own reservation is not counted against it meanwhile.
		s.payers.release(p.key)
		verr := s.verifyScheme(ctx, req, p)
		s.payers.reserve(p.key, p.payer, p.asset, p.reserve, p.pay.Contract, p.pay.Class)
		if verr != nil {
			if receipt, err := s.eth.TransactionReceipt(ctx, rec.TxHash); err == nil {
				return s.conclude(ctx, p, rec, receipt) // mined after all
			}
			if receipt := s.minedElsewhere(ctx, p, rec); receipt != nil {
				return s.finish(ctx, rec, receipt, p.owner)
			}
			resp := s.verifyFailed(verr, p)
			if resp.ErrorCode == x402.ErrorVerifyFailed {
				s.release(p)
			}
			return resp
		}
		s.done(rec.TxHash, rec.Key)
		rec.State, rec.TxHash, rec.RawTx = store.StateClaimed, common.Hash{}, nil
		return s.submit(ctx, req, p, rec, true)
	default:
		return s.failure(x402.ErrorBundlerUnreachable, "the settlement was sent but not confirmed; retry after Retry-After", p)
	}
}

// await waits up to ReceiptTimeout for the record's transaction.
func (s *Service) await(ctx context.Context, p *payment, rec *store.Record) (res *x402.SettleResponse) {
	ctx, span := startSpan(ctx, spanReceipt)
	defer func() { endStep(span, res) }()
	if span.IsRecording() {
		span.SetAttributes(edge.AttrTx.String(rec.TxHash.Hex()))
	}
	timeout := s.receiptTimeout()
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	receipt, err := s.sender.Wait(wctx, rec.TxHash)
	if errors.Is(err, sender.ErrRejected) {
		// In a fleet: the delivering replica gave the transaction up (the
		// node refused it, or its signer released it) and filled its
		// nonce, so it is never mined. Unless another transaction used the
		// payment, the claim is released and the payer's retry settles
		// afresh.
		if receipt, err := s.eth.TransactionReceipt(ctx, rec.TxHash); err == nil {
			return s.conclude(ctx, p, rec, receipt) // mined before its filler
		}
		if receipt := s.minedElsewhere(ctx, p, rec); receipt != nil {
			return s.finish(ctx, rec, receipt, p.owner)
		}
		s.log.Warn("a settlement transaction was given up", zap.Stringer("tx", rec.TxHash), zap.Error(err))
		s.release(p)
		return s.failure(x402.ErrorBundlerUnreachable, "the settlement transaction was refused; retry with the same payment", p)
	}
	if err != nil {
		s.log.Info("receipt not seen in time", zap.Stringer("tx", rec.TxHash), zap.Duration("timeout", timeout))
		r := s.failure(x402.ErrorReceiptTimeout, "the settlement transaction is not mined yet; retry after Retry-After", p)
		r.TransactionHash = rec.TxHash.Hex()
		return r
	}
	return s.conclude(ctx, p, rec, receipt)
}

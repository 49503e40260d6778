package facilitator

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// finish records the outcome of a mined settlement and returns its response.
// A success is handed to owner, the settle that waited for it; "" (start-up
// reconciliation) leaves it for the payment's next settle.
//
// With Config.Confirmations, finish first waits up to ReceiptTimeout for
// them (see confirm); a settlement not confirmed by then stays submitted,
// and the answer is receipt_timeout.
func (s *Service) finish(ctx context.Context, rec *store.Record, receipt *types.Receipt, owner string) *x402.SettleResponse {
	if s.cfg.Confirmations > 0 {
		cctx, cancel := context.WithTimeout(ctx, s.receiptTimeout())
		confirmed, err := s.confirm(cctx, rec, receipt)
		cancel()
		if err != nil {
			s.log.Info("a settlement is not confirmed yet", zap.Stringer("tx", receipt.TxHash), zap.Uint64("confirmations", s.cfg.Confirmations), zap.Error(err))
			r := &x402.SettleResponse{X402Version: x402.Version, Scheme: rec.Scheme, Network: rec.Network, Payer: rec.Payer.Hex(),
				ErrorCode: x402.ErrorReceiptTimeout, Message: "the settlement transaction is mined but not confirmed yet; retry after Retry-After",
				TransactionHash: receipt.TxHash.Hex()}
			return r
		}
		receipt = confirmed
	}
	if s.table().byName[rec.Scheme] == nil {
		// A settlement of a scheme this facilitator no longer settles
		// (aa-native turned off since): it cannot be read, so its record
		// stays unfinished, for a facilitator that can.
		s.log.Error("a mined settlement's scheme is not configured; its record stays unfinished", zap.String("scheme", rec.Scheme), zap.Stringer("tx", receipt.TxHash))
		r := &x402.SettleResponse{X402Version: x402.Version, Scheme: rec.Scheme, Network: rec.Network, Payer: rec.Payer.Hex(),
			ErrorCode: x402.ErrorInternal, Message: "internal error", TransactionHash: receipt.TxHash.Hex()}
		return r
	}
	// The receipt may be of a replacement of the stored transaction.
	s.done(rec.TxHash, rec.Key)
	s.done(receipt.TxHash, rec.Key)
	rec.TxHash = receipt.TxHash
	resp, v := s.outcome(rec, receipt)
	if v == scheme.NotIncluded {
		// Another bundle may have included the operation first (anyone who
		// saw it signed can), which reverted this one on its nonce: the
		// payer paid there, so that bundle is the settlement.
		if other := s.includedElsewhere(ctx, rec); other != nil {
			return s.finish(ctx, rec, other, owner)
		}
		// Nothing happened to the payment: the bundle went without it (the
		// EntryPoint dropped it, or the bundle reverted). Its payer did not
		// pay, so it is released for a retry rather than failed for good.
		s.payers.release(rec.Key)
		if err := s.store.Release(rec.Key); err != nil {
			s.log.Error("releasing an operation its bundle left out", zap.Stringer("key", rec.Key), zap.Error(err))
		}
		resp.ErrorCode, resp.Message = x402.ErrorBundlerUnreachable, "the bundle was mined without the operation; retry with the same payment"
		if c := s.culprit(ctx, receipt); c != nil && c.Sender == rec.Payer && c.BySender() {
			// Its own operation failed validation when the bundle was
			// mined (it spent the tokens or revoked the allowance its gas
			// is taken from, or used its nonce, after the simulation),
			// reverting the bundle at the settler's cost: its payer waits
			// in the penalty box, as after a settlement that reverted.
			s.payers.reverted(rec.Key, rec.Payer, s.cfg.Now())
			resp.ErrorCode = x402.ErrorVerifyFailed
			resp.Message = "invalid_inner_payload: the operation failed validation when its bundle was mined (" + c.Reason + "), which reverted the bundle"
		}
		return resp
	}
	rec.State, rec.Response, rec.Updated = store.StateFailed, resp, s.cfg.Now().UTC()
	s.follow(rec, receipt)
	if resp.Success {
		rec.State, rec.Consumer = store.StateSettled, owner
		s.payers.settled(rec.Key, rec.Payer, s.cfg.Now())
	}
	switch {
	case v != scheme.Reverted:
	case s.expiredWhenMined(ctx, rec, receipt):
		// Its authorization had expired when its transaction was mined:
		// the settlement came too late (a chain that stalled, a
		// transaction stuck in the pool), which is not its payer's doing.
		s.log.Warn("a settlement was mined after its authorization expired; its payer is not penalised",
			zap.Stringer("tx", receipt.TxHash), zap.Stringer("payer", rec.Payer))
	default:
		// The payer emptied its balance or used its authorization between
		// verification and inclusion, or its account reported success
		// without settling, at the settler's or the paymaster's cost: it
		// waits in the penalty box.
		s.payers.reverted(rec.Key, rec.Payer, s.cfg.Now())
	}
	s.payers.release(rec.Key)
	if notify(ctx) {
		// The merchant's settle resumed a record another caller claimed.
		rec.Notify = true
	}
	span := startStore(ctx, string(rec.State))
	err := s.store.Finish(rec)
	endCall(span, err, "store")
	switch {
	case errors.Is(err, store.ErrTransition):
		// Another settle of the payment finished it first: its record,
		// and its consumer, stand.
		if stored, gerr := s.store.Get(rec.Key); gerr == nil && stored != nil && stored.State.Final() {
			if stored.State == store.StateSettled && stored.Consumer != owner {
				// Finished without a consumer (by a restart's
				// reconciliation): the first settle to ask is handed it.
				if stored.Consumer == "" && owner != "" {
					if got, ok, cerr := s.store.Consume(rec.Key, owner); cerr == nil && ok {
						return got.Response
					}
				}
				return s.outcomeReplay(stored)
			}
			return stored.Response
		}
		s.log.Error("finishing a settlement", zap.Stringer("tx", rec.TxHash), zap.Error(err))
	case err != nil:
		// The chain holds the truth; the next duplicate reconciles again.
		s.log.Error("storing a settlement outcome", zap.Stringer("tx", rec.TxHash), zap.Error(err))
	}
	return resp
}

// minedElsewhere finds the receipt of a transaction that settled p but is
// not the one the record holds, if p's scheme can tell (a scheme.Finder:
// exact finds the transaction that used its authorization): the
// transaction of a settle whose claim was taken over (its replica was
// presumed dead, but had signed), or a version of the record's transaction
// that another replica of a fleet replaced. The payer paid by it, so it,
// not the record's transaction, is the settlement. Nil when none is found.
func (s *Service) minedElsewhere(ctx context.Context, p *payment, rec *store.Record) *types.Receipt {
	if p == nil {
		return nil
	}
	finder, ok := p.of.(scheme.Finder)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	receipt, err := finder.SettledElsewhere(ctx, s.eth, p.pay, rec)
	if err != nil {
		s.log.Warn("looking for another transaction that settled a payment", zap.Error(err))
		return nil
	}
	if receipt != nil {
		s.log.Info("a payment was settled by another transaction than its record's", zap.Stringer("record_tx", rec.TxHash), zap.Stringer("tx", receipt.TxHash))
	}
	return receipt
}

// conclude finishes a settlement whose transaction was mined, as finish
// does; but if it (or its payment's transfer in its batch) reverted because the payment's authorization was used by
// another transaction that paid the merchant (see minedElsewhere), that
// transaction is the settlement.
func (s *Service) conclude(ctx context.Context, p *payment, rec *store.Record, receipt *types.Receipt) *x402.SettleResponse {
	if receipt.Status != types.ReceiptStatusSuccessful || s.batchFailed(rec, receipt) {
		if other := s.minedElsewhere(ctx, p, rec); other != nil {
			receipt = other
		}
	}
	return s.finish(ctx, rec, receipt, p.owner)
}

// outcomeReplay is the answer to a settle that finished a payment another
// settle had already finished and consumed.
func (s *Service) outcomeReplay(rec *store.Record) *x402.SettleResponse {
	return &x402.SettleResponse{X402Version: x402.Version, Network: rec.Network, Scheme: rec.Scheme, Payer: rec.Payer.Hex(),
		ErrorCode: x402.ErrorVerifyFailed, Message: string(x402.ReasonReplay) + ": this payment already paid for a response"}
}

// outcome reads a receipt with the record's scheme (scheme.Scheme.Outcome),
// which counts only the payment's own evidence in it.
func (s *Service) outcome(rec *store.Record, receipt *types.Receipt) (*x402.SettleResponse, scheme.Verdict) {
	r := &x402.SettleResponse{
		X402Version: x402.Version, Scheme: rec.Scheme, Network: rec.Network,
		TransactionHash: receipt.TxHash.Hex(), Payer: rec.Payer.Hex(),
		Amount: rec.Amount.String(), Asset: rec.Asset.Hex(),
	}
	if rec.UserOpHash != (common.Hash{}) {
		r.UserOpHash, r.RequestHash = rec.UserOpHash.Hex(), rec.RequestHash.Hex()
	}
	own, failed := s.ownLogs(rec, receipt)
	o := s.table().byName[rec.Scheme].Outcome(rec, own)
	if failed {
		// Its transfer reverted inside its batch: the answer of a lone
		// settlement whose transaction reverted.
		o = scheme.Outcome{Verdict: scheme.Reverted, Code: x402.ErrorVerifyFailed,
			Message: "invalid_inner_payload: the settlement transaction reverted on chain"}
	}
	if o.Verdict == scheme.Paid {
		r.Success = true
	} else {
		r.ErrorCode, r.Message = o.Code, o.Message
	}
	return r, o.Verdict
}

// culpritMemory is how many bundles' culprits Service.culprit remembers.
const culpritMemory = 256

// culprit is the operation whose failure reverted the bundle of receipt,
// nil if the bundle did not revert or the node cannot tell
// (bundler.FindCulprit). Each payment of a reverted bundle asks; the node
// is asked once per bundle.
func (s *Service) culprit(ctx context.Context, receipt *types.Receipt) *bundler.Culprit {
	if receipt.Status == types.ReceiptStatusSuccessful {
		return nil
	}
	s.culpritMu.Lock()
	defer s.culpritMu.Unlock()
	if c, ok := s.culprits[receipt.TxHash]; ok {
		return c
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	eps := make([]entrypoint.EntryPoint, 0, len(s.bundlers))
	for _, b := range s.bundlers {
		eps = append(eps, b.EntryPoint)
	}
	c, err := bundler.FindCulprit(ctx, s.rpc, receipt, eps)
	if err != nil && !errors.Is(err, bundler.ErrNoCulprit) {
		// Not remembered: the next payment of the bundle asks again.
		s.log.Warn("finding the operation that reverted a bundle", zap.Stringer("tx", receipt.TxHash), zap.Error(err))
		return nil
	}
	if s.culprits == nil || len(s.culprits) >= culpritMemory {
		s.culprits = map[common.Hash]*bundler.Culprit{}
	}
	s.culprits[receipt.TxHash] = c
	if c != nil {
		s.log.Info("an operation reverted its bundle", zap.Stringer("tx", receipt.TxHash), zap.Stringer("sender", c.Sender), zap.String("reason", c.Reason))
	}
	return c
}

// includedElsewhere is the receipt of a bundle other than the record's
// that included and paid the aa-native operation of rec, nil if there is
// none or the chain cannot be searched (scheme.Finder; an aa-native record
// holds its userOpHash, so the search needs no decoded payment).
func (s *Service) includedElsewhere(ctx context.Context, rec *store.Record) *types.Receipt {
	f, ok := s.table().byName[rec.Scheme].(scheme.Finder)
	if !ok || rec.UserOpHash == (common.Hash{}) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	other, err := f.SettledElsewhere(ctx, s.eth, nil, rec)
	if err != nil {
		s.log.Warn("looking for another bundle that included an operation", zap.Stringer("user_op_hash", rec.UserOpHash), zap.Error(err))
		return nil
	}
	if other != nil {
		s.log.Info("an operation was included by another bundle than its record's", zap.Stringer("record_tx", rec.TxHash), zap.Stringer("tx", other.TxHash))
	}
	return other
}

package facilitator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// submitOp hands an aa-native payment to the built-in bundler: the record
// gets the signed bundle before it is broadcast. It returns nil once the
// bundle is out (the receipt decides), and the answer otherwise.
func (s *Service) submitOp(ctx context.Context, p *payment, rec *store.Record) *x402.SettleResponse {
	_, err := s.bundle(ctx, p, func(tx *types.Transaction) error {
		raw, err := tx.MarshalBinary()
		if err != nil {
			return err
		}
		rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, tx.Hash(), raw, s.cfg.Now().UTC()
		s.carries(tx.Hash(), rec.Key)
		return s.store.Submit(rec)
	})
	switch {
	case err == nil:
		s.sponsors.settled(p.pay.UserOpHash)
		return nil
	case errors.Is(err, bundler.ErrRejected):
		s.release(p)
		// The EntryPoint's own AAxx reason, decoded from its FailedOp.
		r := s.failure(x402.ErrorVerifyFailed, string(x402.ReasonInvalidInnerPayload)+": "+err.Error(), p)
		r.InvalidReason = x402.ReasonInvalidInnerPayload
		return r
	case errors.Is(err, sender.ErrUnreachable):
		s.release(p)
		return s.failure(x402.ErrorBundlerUnreachable, "the chain could not be reached; retry after Retry-After", p)
	case !errors.Is(err, bundler.ErrNotSent) && !errors.Is(err, sender.ErrRejected) && !errors.Is(err, sender.ErrNonceTooLow):
		// The bundle may be out: keep the record; a retry resumes it.
		s.log.Warn("bundle broadcast outcome unknown", zap.Stringer("tx", rec.TxHash), zap.Error(err))
		return s.failure(x402.ErrorBundlerUnreachable, "the settlement was sent but not confirmed; retry after Retry-After", p)
	default:
		s.release(p)
		s.log.Error("bundling an operation", zap.Error(err))
		return s.failure(x402.ErrorInternal, "the settlement could not be submitted", p)
	}
}

// submitExternal hands an aa-native payment to the external bundler: the
// record is made durable (submitted, with the operation's hash) before the
// operation goes out. It returns nil once the bundler took it (its receipt
// names the transaction), and the answer otherwise.
func (s *Service) submitExternal(ctx context.Context, p *payment, rec *store.Record) *x402.SettleResponse {
	rec.State, rec.Updated = store.StateSubmitted, s.cfg.Now().UTC()
	if err := s.store.Submit(rec); err != nil {
		s.release(p)
		s.log.Error("recording an operation", zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	_, err := s.sendExternal(ctx, p)
	switch {
	case err == nil:
		s.sponsors.settled(p.pay.UserOpHash)
		return nil
	case errors.Is(err, bundler.ErrRejected):
		s.release(p)
		s.log.Info("the external bundler refused an operation", zap.Stringer("userOpHash", rec.UserOpHash), zap.Error(err))
		r := s.failure(x402.ErrorVerifyFailed, string(x402.ReasonInvalidInnerPayload)+": the bundler refused the operation", p)
		r.InvalidReason = x402.ReasonInvalidInnerPayload
		return r
	case errors.Is(err, bundler.ErrUnreachable):
		s.release(p)
		return s.failure(x402.ErrorBundlerUnreachable, "the bundler could not be reached; retry after Retry-After", p)
	default:
		s.log.Warn("bundler delivery unknown", zap.Stringer("userOpHash", rec.UserOpHash), zap.Error(err))
		return s.failure(x402.ErrorBundlerUnreachable, "the operation was sent but not confirmed; retry after Retry-After", p)
	}
}

// awaitExternal follows the bundler's receipt for the operation up to
// ReceiptTimeout, then reads the transaction's receipt from the chain.
func (s *Service) awaitExternal(ctx context.Context, p *payment, rec *store.Record) (res *x402.SettleResponse) {
	ctx, span := startSpan(ctx, spanReceipt)
	defer func() { endStep(span, res) }()
	if span.IsRecording() {
		span.SetAttributes(edge.AttrUserOpHash.String(rec.UserOpHash.Hex()))
	}
	wctx, cancel := context.WithTimeout(ctx, s.receiptTimeout())
	defer cancel()
	pause := 20 * time.Millisecond
	for {
		tx, found, err := s.externalFor(p).Receipt(wctx, rec.UserOpHash)
		if found {
			receipt, err := s.sender.Wait(wctx, tx)
			if err == nil {
				rec.TxHash = tx
				return s.finish(ctx, rec, receipt, p.owner)
			}
		} else if err != nil {
			s.log.Debug("reading the bundler's receipt", zap.Error(err))
		}
		select {
		case <-wctx.Done():
			r := s.failure(x402.ErrorReceiptTimeout, "the operation is not mined yet; retry after Retry-After", p)
			return r
		case <-time.After(pause):
		}
		pause = min(pause*2, 500*time.Millisecond)
	}
}

// resumeExternal continues a settlement handed to the external bundler
// earlier: its receipt if it has one, or the same operation sent again.
func (s *Service) resumeExternal(ctx context.Context, p *payment, rec *store.Record) *x402.SettleResponse {
	if tx, found, err := s.externalFor(p).Receipt(ctx, rec.UserOpHash); err == nil && found {
		if receipt, err := s.eth.TransactionReceipt(ctx, tx); err == nil {
			rec.TxHash = tx
			return s.finish(ctx, rec, receipt, p.owner)
		}
	}
	if _, err := s.sendExternal(ctx, p); err != nil && !errors.Is(err, bundler.ErrRejected) {
		return s.failure(x402.ErrorBundlerUnreachable, "the bundler could not be reached; retry after Retry-After", p)
	}
	return s.awaitExternal(ctx, p, rec)
}

// externalFor is the external bundler of p's EntryPoint, nil when a
// built-in bundler bundles it.
func (s *Service) externalFor(p *payment) *bundler.External {
	if p.settlement.EntryPoint == nil {
		return nil
	}
	return s.externals[p.settlement.EntryPoint.Address()]
}

// bundle hands p's operation to the built-in bundler of its EntryPoint.
func (s *Service) bundle(ctx context.Context, p *payment, persist func(*types.Transaction) error) (*types.Transaction, error) {
	b := s.bundlers[p.settlement.EntryPoint.Address()]
	if b == nil {
		return nil, fmt.Errorf("%w: EntryPoint %s is not configured", bundler.ErrNotSent, p.settlement.EntryPoint.Address())
	}
	return b.Submit(ctx, *p.settlement.Op, persist)
}

// sendExternal hands p's operation to the external bundler of its
// EntryPoint.
func (s *Service) sendExternal(ctx context.Context, p *payment) (common.Hash, error) {
	return s.externalFor(p).Send(ctx, *p.settlement.Op)
}

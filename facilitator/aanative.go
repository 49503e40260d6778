package facilitator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/facilitator/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// submitOp settles an aa-native payment through the built-in bundler: the
// record gets the signed bundle before it is broadcast, then the receipt
// decides.
func (s *Service) submitOp(ctx context.Context, p *payment, rec *store.Record) *x402.SettleResponse {
	if s.external != nil {
		return s.submitExternal(ctx, p, rec)
	}
	_, err := s.bundler.Submit(ctx, p.aa.Op, func(tx *types.Transaction) error {
		raw, err := tx.MarshalBinary()
		if err != nil {
			return err
		}
		rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, tx.Hash(), raw, s.cfg.Now().UTC()
		return s.store.Put(rec)
	})
	switch {
	case err == nil:
		return s.await(ctx, p, rec)
	case errors.Is(err, bundler.ErrRejected):
		s.release(p)
		return s.failure(x402.ErrorVerifyFailed, string(x402.ReasonInvalidInnerPayload)+": "+err.Error(), p)
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

// SponsorError is a refusal of /sponsor, with a JSON-RPC code.
type SponsorError struct {
	Code    int
	Message string
}

func (e *SponsorError) Error() string { return e.Message }

// ErrorCode is the JSON-RPC error code.
func (e *SponsorError) ErrorCode() int { return e.Code }

// SponsorOperation asks the paymaster, with the facilitator's own key, to
// sponsor op, but only if its callData is a settlement of an allowlisted
// token to a merchant this facilitator serves: payers need no key, and the
// key pays for nothing else.
func (s *Service) SponsorOperation(ctx context.Context, op x402.UserOperation) (x402.UserOperation, error) {
	if s.aa == nil || s.cfg.AANative.Sponsor == nil {
		return op, &SponsorError{Code: int(x402.RPCPaymasterRejected), Message: "this facilitator does not sponsor operations"}
	}
	callData, err := hexutil.Decode(op.CallData)
	if err != nil {
		return op, &SponsorError{Code: int(x402.RPCInvalidParams), Message: "userOp.callData: want 0x hex bytes"}
	}
	settle, err := s.aa.ParseCallData(callData)
	if err != nil {
		return op, &SponsorError{Code: int(x402.RPCInvalidParams), Message: "only x402 settlements are sponsored: " + err.Error()}
	}
	allowed := false
	for _, a := range s.aa.Assets() {
		allowed = allowed || a == settle.Token
	}
	if !allowed {
		return op, &SponsorError{Code: int(x402.RPCInvalidParams), Message: fmt.Sprintf("token %s is not allowlisted", settle.Token)}
	}
	if allow := s.cfg.AANative.AllowMerchant; allow != nil && !allow(settle.Merchant) {
		return op, &SponsorError{Code: int(x402.RPCInvalidParams), Message: fmt.Sprintf("merchant %s is not served by this facilitator", settle.Merchant)}
	}
	if settle.Amount.Sign() <= 0 || settle.RequestHash == (common.Hash{}) {
		return op, &SponsorError{Code: int(x402.RPCInvalidParams), Message: "the settlement needs a positive amount and a request hash"}
	}
	return s.cfg.AANative.Sponsor.Sponsor(ctx, op, s.cfg.AANative.EntryPoint, nil)
}

// submitExternal settles through the external bundler: the record is made
// durable (submitted, with the operation's hash) before the operation goes
// out, then the bundler's receipt names the transaction.
func (s *Service) submitExternal(ctx context.Context, p *payment, rec *store.Record) *x402.SettleResponse {
	rec.State, rec.Updated = store.StateSubmitted, s.cfg.Now().UTC()
	if err := s.store.Put(rec); err != nil {
		s.release(p)
		s.log.Error("recording an operation", zap.Error(err))
		return s.failure(x402.ErrorInternal, "internal error", p)
	}
	_, err := s.external.Send(ctx, p.aa.Op)
	switch {
	case err == nil:
		return s.awaitExternal(ctx, p, rec)
	case errors.Is(err, bundler.ErrRejected):
		s.release(p)
		return s.failure(x402.ErrorVerifyFailed, string(x402.ReasonInvalidInnerPayload)+": the bundler refused the operation: "+err.Error(), p)
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
func (s *Service) awaitExternal(ctx context.Context, p *payment, rec *store.Record) *x402.SettleResponse {
	wctx, cancel := context.WithTimeout(ctx, s.cfg.ReceiptTimeout)
	defer cancel()
	pause := 20 * time.Millisecond
	for {
		tx, found, err := s.external.Receipt(wctx, rec.UserOpHash)
		if found {
			receipt, err := s.sender.Wait(wctx, tx)
			if err == nil {
				rec.TxHash = tx
				return s.finish(rec, receipt)
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
	if tx, found, err := s.external.Receipt(ctx, rec.UserOpHash); err == nil && found {
		if receipt, err := s.eth.TransactionReceipt(ctx, tx); err == nil {
			rec.TxHash = tx
			return s.finish(rec, receipt)
		}
	}
	if _, err := s.external.Send(ctx, p.aa.Op); err != nil && !errors.Is(err, bundler.ErrRejected) {
		return s.failure(x402.ErrorBundlerUnreachable, "the bundler could not be reached; retry after Retry-After", p)
	}
	return s.awaitExternal(ctx, p, rec)
}

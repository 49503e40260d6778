package facilitator

import (
	"context"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
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
	// The receipt may be of a replacement of the stored transaction.
	s.done(rec.TxHash, rec.Key)
	s.done(receipt.TxHash, rec.Key)
	rec.TxHash = receipt.TxHash
	resp, v := s.outcome(rec, receipt)
	if v == verdictNotIncluded {
		// Nothing happened to the payment: the bundle went without it (the
		// EntryPoint dropped it, or the bundle reverted). Its payer did not
		// pay, so it is released for a retry rather than failed for good.
		s.payers.release(rec.Key)
		if err := s.store.Release(rec.Key); err != nil {
			s.log.Error("releasing an operation its bundle left out", zap.Stringer("key", rec.Key), zap.Error(err))
		}
		resp.ErrorCode, resp.Message = x402.ErrorBundlerUnreachable, "the bundle was mined without the operation; retry with the same payment"
		return resp
	}
	rec.State, rec.Response, rec.Updated = store.StateFailed, resp, s.cfg.Now().UTC()
	s.follow(rec, receipt)
	if resp.Success {
		rec.State, rec.Consumer = store.StateSettled, owner
	}
	if v == verdictReverted {
		// The payer emptied its balance or used its authorization between
		// verification and inclusion, at the settler's or the paymaster's
		// cost: it waits in the penalty box.
		s.payers.reverted(rec.Payer, s.cfg.Now())
	}
	s.payers.release(rec.Key)
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

// authorizationUsed is the topic of EIP-3009's
// AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce).
var authorizationUsed = crypto.Keccak256Hash([]byte("AuthorizationUsed(address,bytes32)"))

// usedLookback is how many blocks back minedElsewhere looks for a
// payment's authorization: far more than a settlement stays unfinished,
// and within what public RPCs allow one eth_getLogs call to cover.
const usedLookback = 5_000

// minedElsewhere finds the receipt of a transaction that used an exact
// payment's authorization and logged its transfer, when it is not the one
// the record holds: the transaction of a settle whose claim was taken over
// (its replica was presumed dead, but had signed), or a version of the
// record's transaction that another replica of a fleet replaced. The
// payer paid by it, so it, not the record's transaction, is the
// settlement. Nil when no such transaction is found (or the payment is not
// exact).
func (s *Service) minedElsewhere(ctx context.Context, p *payment, rec *store.Record) *types.Receipt {
	if p == nil || p.auth == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	head, err := s.eth.BlockNumber(ctx)
	if err != nil {
		return nil
	}
	from := uint64(0)
	if head > usedLookback {
		from = head - usedLookback
	}
	logs, err := s.eth.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), Addresses: []common.Address{p.asset},
		Topics: [][]common.Hash{{authorizationUsed}, {common.BytesToHash(p.payer[:])}, {common.Hash(p.auth.Nonce)}},
	})
	if err != nil {
		s.log.Warn("looking for the transaction that used a payment's authorization", zap.Error(err))
		return nil
	}
	for _, l := range logs {
		if l.Removed || l.TxHash == rec.TxHash {
			continue
		}
		receipt, err := s.eth.TransactionReceipt(ctx, l.TxHash)
		if err == nil && receipt.Status == types.ReceiptStatusSuccessful && hasTransfer(receipt, rec) {
			s.log.Info("a payment was settled by another transaction than its record's", zap.Stringer("record_tx", rec.TxHash), zap.Stringer("tx", receipt.TxHash))
			return receipt
		}
	}
	return nil
}

// conclude finishes a settlement whose transaction was mined, as finish
// does; but if it reverted because the payment's authorization was used by
// another transaction that paid the merchant (see minedElsewhere), that
// transaction is the settlement.
func (s *Service) conclude(ctx context.Context, p *payment, rec *store.Record, receipt *types.Receipt) *x402.SettleResponse {
	if receipt.Status != types.ReceiptStatusSuccessful {
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

// verdict is what a mined settlement transaction means for its payment.
type verdict int

const (
	// verdictFinal: settled, or failed through no act of the payer's.
	verdictFinal verdict = iota
	// verdictReverted: the payment's own execution reverted on chain.
	verdictReverted
	// verdictNotIncluded: the bundle was mined without the operation.
	verdictNotIncluded
)

// outcome reads a receipt: the settlement counts only if it succeeded and
// the asset logged the transfer from payer to payTo of the amount.
func (s *Service) outcome(rec *store.Record, receipt *types.Receipt) (*x402.SettleResponse, verdict) {
	r := &x402.SettleResponse{
		X402Version: x402.Version, Scheme: rec.Scheme, Network: rec.Network,
		TransactionHash: receipt.TxHash.Hex(), Payer: rec.Payer.Hex(),
		Amount: rec.Amount.String(), Asset: rec.Asset.Hex(),
	}
	if rec.Scheme == x402.SchemeAANative {
		r.UserOpHash, r.RequestHash = rec.UserOpHash.Hex(), rec.RequestHash.Hex()
		op, found := bundler.Outcome(receipt, rec.UserOpHash)
		switch {
		case !found:
			r.ErrorCode, r.Message = x402.ErrorUserOpFailed, "the bundle was mined without the operation"
			return r, verdictNotIncluded
		case !op.Success:
			r.ErrorCode, r.Message = x402.ErrorUserOpFailed, "the UserOperation reverted: "+bundler.DecodeRevert(op.RevertReason)
			return r, verdictReverted
		}
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		r.ErrorCode, r.Message = x402.ErrorVerifyFailed, "invalid_inner_payload: the settlement transaction reverted on chain"
		return r, verdictReverted
	}
	if !hasTransfer(receipt, rec) {
		r.ErrorCode, r.Message = x402.ErrorInternal, "the settlement transaction did not log the transfer"
		return r, verdictFinal
	}
	r.Success = true
	return r, verdictFinal
}

// transferTopic is keccak256("Transfer(address,address,uint256)").
var transferTopic = common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")

func hasTransfer(receipt *types.Receipt, rec *store.Record) bool {
	for _, l := range receipt.Logs {
		if l.Address != rec.Asset || len(l.Topics) != 3 || l.Topics[0] != transferTopic {
			continue
		}
		if common.BytesToAddress(l.Topics[1][:]) == rec.Payer &&
			common.BytesToAddress(l.Topics[2][:]) == rec.PayTo &&
			new(big.Int).SetBytes(l.Data).Cmp(rec.Amount) == 0 {
			return true
		}
	}
	return false
}

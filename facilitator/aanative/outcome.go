package aanative

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Outcome reads a mined bundle for the operation rec records. The payment
// counts only by its own evidence: the EntryPoint's UserOperationEvent for
// the operation says it succeeded, and the settlement contract logged
// Settled for the operation's own request hash, from its sender to the
// merchant, of the token and amount. Anything else in the bundle, such as
// a transfer of the same amount from the same sender made by another of
// its operations, counts for nothing: an account that reports success
// without running its callData is not paid by its neighbour's settlement.
//
// An operation that succeeded without its Settled event was not settled
// by its own account's choice: Reverted, so its sender is refused for a
// while.
func (s *Scheme) Outcome(rec *store.Record, receipt *types.Receipt) scheme.Outcome {
	found, success, reason := s.operation(receipt, rec.UserOpHash)
	switch {
	case !found:
		return scheme.Outcome{Verdict: scheme.NotIncluded, Code: x402.ErrorUserOpFailed, Message: "the bundle was mined without the operation"}
	case !success:
		return scheme.Outcome{Verdict: scheme.Reverted, Code: x402.ErrorUserOpFailed, Message: "the UserOperation reverted: " + bundler.DecodeRevert(reason)}
	case receipt.Status != types.ReceiptStatusSuccessful:
		return scheme.Outcome{Verdict: scheme.Reverted, Code: x402.ErrorVerifyFailed, Message: "invalid_inner_payload: the settlement transaction reverted on chain"}
	case !s.settled(receipt, rec):
		return scheme.Outcome{Verdict: scheme.Reverted, Code: x402.ErrorUserOpFailed,
			Message: "the UserOperation succeeded without settling its payment: the settlement contract logged no Settled event for its request hash"}
	}
	return scheme.Outcome{Verdict: scheme.Paid}
}

// operation reads the EntryPoint's events for the operation userOpHash in
// receipt: whether it is there, whether it succeeded, and its revert
// reason. Only the EntryPoint's own logs count: an account's code can emit
// an event of the same signature.
func (s *Scheme) operation(receipt *types.Receipt, userOpHash common.Hash) (found, success bool, reason []byte) {
	for _, l := range receipt.Logs {
		if s.at(l.Address) == nil {
			continue // every version's two events have v0.6's signatures
		}
		if ev, err := s.ep.UnpackUserOperationEventEvent(l); err == nil && ev.UserOpHash == userOpHash {
			found, success = true, ev.Success
		}
		if ev, err := s.ep.UnpackUserOperationRevertReasonEvent(l); err == nil && ev.UserOpHash == userOpHash {
			reason = ev.RevertReason
		}
	}
	return found, success, reason
}

// settled reports whether the settlement contract logged, in receipt,
// Settled for the record's request hash: from its payer to its payTo, of
// its asset and amount. The contract settles a request hash at most once,
// so that event is this payment's own transfer.
func (s *Scheme) settled(receipt *types.Receipt, rec *store.Record) bool {
	for _, l := range receipt.Logs {
		if l.Address != s.cfg.Settlement || l.Removed {
			continue
		}
		ev, err := s.settle.UnpackSettledEvent(l)
		if err != nil {
			continue
		}
		if common.Hash(ev.RequestHash) == rec.RequestHash && ev.Payer == rec.Payer && ev.Merchant == rec.PayTo &&
			ev.Token == rec.Asset && ev.Amount != nil && ev.Amount.Cmp(rec.Amount) == 0 {
			return true
		}
	}
	return false
}

// elsewhereLookback is how many blocks back SettledElsewhere looks for an
// operation's UserOperationEvent: far more than a settlement stays
// unfinished, and within what public RPCs allow one eth_getLogs call to
// cover.
const elsewhereLookback = 5_000

// userOperationEventID is the topic of the UserOperationEvent of
// EntryPoint v0.6 and v0.7, which share its signature.
var userOperationEventID = crypto.Keccak256Hash([]byte("UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)"))

// SettledElsewhere finds a bundle other than the record's that included
// the operation rec records and paid by it. Anyone who sees the signed
// operation (in the facilitator's bundle while it waits in a public
// mempool, or the payer itself) can put it in a handleOps of its own
// first; the facilitator's bundle then reverts on the operation's used
// nonce, but the payer paid the merchant in the other bundle, so that one
// is the settlement. The operation is found by its userOpHash, which the
// record holds (pay is not needed), among the EntryPoints' own events; the
// other bundle counts only by the same evidence as the record's (Outcome).
func (s *Scheme) SettledElsewhere(ctx context.Context, chain scheme.Chain, _ *scheme.Payment, rec *store.Record) (*types.Receipt, error) {
	if rec.UserOpHash == (common.Hash{}) {
		return nil, nil
	}
	head, err := chain.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the head: %w", err)
	}
	from := uint64(0)
	if head > elsewhereLookback {
		from = head - elsewhereLookback
	}
	eps := make([]common.Address, len(s.eps))
	for i, d := range s.eps {
		eps[i] = d.EntryPoint.Address()
	}
	logs, err := chain.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), Addresses: eps,
		Topics: [][]common.Hash{{userOperationEventID}, {rec.UserOpHash}},
	})
	if err != nil {
		return nil, fmt.Errorf("looking for the bundle that included an operation: %w", err)
	}
	for _, l := range logs {
		if l.Removed || l.TxHash == rec.TxHash {
			continue
		}
		receipt, err := chain.TransactionReceipt(ctx, l.TxHash)
		if err == nil && s.Outcome(rec, receipt).Verdict == scheme.Paid {
			return receipt, nil
		}
	}
	return nil, nil
}

var _ scheme.Finder = (*Scheme)(nil)

package exact

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Outcome reads a mined exact settlement: it counts only if the
// transaction succeeded and the asset logged the transfer from payer to
// payTo of the amount. Every exact mechanism moves the tokens with the
// token's own transfer, so this is the same for all of them.
func (s *Scheme) Outcome(rec *store.Record, receipt *types.Receipt) scheme.Outcome {
	if receipt.Status != types.ReceiptStatusSuccessful {
		return scheme.Outcome{Verdict: scheme.Reverted, Code: x402.ErrorVerifyFailed,
			Message: "invalid_inner_payload: the settlement transaction reverted on chain"}
	}
	if !hasTransfer(receipt, rec) {
		return scheme.Outcome{Verdict: scheme.Failed, Code: x402.ErrorInternal, Message: "the settlement transaction did not log the transfer"}
	}
	return scheme.Outcome{Verdict: scheme.Paid}
}

// usedLookback is how many blocks back SettledElsewhere looks for a
// payment's signature: far more than a settlement stays unfinished, and
// within what public RPCs allow one eth_getLogs call to cover.
const usedLookback = 5_000

// SettledElsewhere finds the receipt of a transaction that used an exact
// payment's signature and logged its transfer, when it is not the one the
// record holds: the transaction of a settle whose claim was taken over
// (its replica was presumed dead, but had signed), or a version of the
// record's transaction that another replica of a fleet replaced. The payer
// paid by it, so it, not the record's transaction, is the settlement. Nil
// when there is none.
func (s *Scheme) SettledElsewhere(ctx context.Context, chain scheme.Chain, pay *scheme.Payment, rec *store.Record) (*types.Receipt, error) {
	m, err := mechanismOf(pay)
	if err != nil {
		return nil, err
	}
	head, err := chain.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the head: %w", err)
	}
	from := uint64(0)
	if head > usedLookback {
		from = head - usedLookback
	}
	txs, err := m.usedBy(ctx, chain, pay, from)
	if err != nil {
		return nil, fmt.Errorf("looking for the transaction that used a payment's signature: %w", err)
	}
	for _, tx := range txs {
		if tx == rec.TxHash {
			continue
		}
		receipt, err := chain.TransactionReceipt(ctx, tx)
		if err == nil && receipt.Status == types.ReceiptStatusSuccessful && hasTransfer(receipt, rec) {
			return receipt, nil
		}
	}
	return nil, nil
}

// transferTopic is keccak256("Transfer(address,address,uint256)").
var transferTopic = common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")

// hasTransfer reports whether the record's asset logged, in receipt, a
// transfer of the record's amount from its payer to its payTo.
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

package bundler

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// Culprit is the operation that made a mined bundle revert.
type Culprit struct {
	// Index is the operation's place in the bundle, and Sender its account.
	Index  int
	Sender common.Address
	// Reason is the EntryPoint's FailedOp reason ("AA33 reverted", …).
	Reason string
}

// BySender reports whether the culprit's failure is one its sender can
// cause after a simulation passed, and nobody else can: its account's
// validation failed (AA20 not deployed, AA21 prefund, AA23 reverted, AA24
// signature, AA25 nonce), or the token paymaster could not take its gas
// (AA33 in validation, AA50 in v0.6's retried postOp) from its tokens.
// Others are not held against the sender: a factory's failure (AA1x:
// anyone may deploy the account first), an expired window (AA22, AA32),
// the paymaster's deposit or signature (AA31, AA34), gas limits (AA4x).
// A nonce another bundle used first is not the sender's either, but that
// bundle settled the payment, which the facilitator looks for first.
func (c *Culprit) BySender() bool {
	if c.Reason == ReasonDelegationRevoked {
		return true
	}
	for _, code := range []string{"AA20", "AA21", "AA23", "AA24", "AA25", "AA33", "AA50"} {
		if strings.HasPrefix(c.Reason, code+" ") || c.Reason == code {
			return true
		}
	}
	return false
}

// ReasonDelegationRevoked is the culprit's reason when an EIP-7702
// sender's delegation was gone when the bundle ran (the EOA revoked it in
// a transaction mined just before, which also voided the bundle's
// authorization): the EntryPoint then reverts the whole bundle while
// hashing the operation, with "sender has no code" rather than a
// FailedOp. Only the sender can do that.
const ReasonDelegationRevoked = "EIP-7702 delegation revoked (sender has no code)"

// revokedDelegation finds, when a bundle of an EntryPoint with EIP-7702
// senders reverted with "sender has no code", the operation whose sender
// acted in the bundle's block (its nonce moved: a transaction or an
// authorization of its own) and had no code after it. An account the
// bundle was to deploy has no code either, but its nonce stays 0.
func revokedDelegation(ctx context.Context, c Caller, senders []common.Address, revert []byte, block *big.Int) (int, bool) {
	if DecodeRevert(revert) != "sender has no code" || block == nil || block.Sign() <= 0 {
		return 0, false
	}
	at, parent := hexutil.EncodeBig(block), hexutil.EncodeBig(new(big.Int).Sub(block, big.NewInt(1)))
	for i, s := range senders {
		var (
			code          hexutil.Bytes
			after, before hexutil.Uint64
		)
		if c.CallContext(ctx, &code, "eth_getCode", s, at) != nil ||
			c.CallContext(ctx, &after, "eth_getTransactionCount", s, at) != nil ||
			c.CallContext(ctx, &before, "eth_getTransactionCount", s, parent) != nil {
			return 0, false
		}
		if len(code) == 0 && after > before {
			return i, true
		}
	}
	return 0, false
}

// ErrNoCulprit is returned by FindCulprit when the bundle did not revert
// with a FailedOp naming one of its operations (it may have run out of
// gas, or not be a handleOps call at all).
var ErrNoCulprit = errors.New("the bundle's revert names none of its operations")

// FindCulprit finds the operation whose failure reverted the handleOps
// transaction of receipt (status 0), sent to one of eps. An
// operation valid when the bundle was simulated can fail validation by the
// time it is mined: its sender spent the tokens or revoked the allowance a
// token paymaster takes its gas from, or used its nonce, in a transaction
// mined just before the bundle. The EntryPoint then reverts the whole
// bundle with FailedOp(opIndex, reason), at the bundler's cost.
//
// The revert is read from the node's trace of the transaction
// (debug_traceTransaction with the callTracer), which replays it on the
// state it ran on. A node without the debug namespace is asked to run the
// bundle again (eth_call) on the state after its block, which names the
// culprit unless its sender undid the change within that block.
func FindCulprit(ctx context.Context, c Caller, receipt *types.Receipt, eps []entrypoint.EntryPoint) (*Culprit, error) {
	if receipt.Status == types.ReceiptStatusSuccessful {
		return nil, ErrNoCulprit
	}
	var tx struct {
		From  common.Address  `json:"from"`
		To    *common.Address `json:"to"`
		Input hexutil.Bytes   `json:"input"`
		Gas   hexutil.Uint64  `json:"gas"`
	}
	if err := c.CallContext(ctx, &tx, "eth_getTransactionByHash", receipt.TxHash); err != nil {
		return nil, fmt.Errorf("reading the bundle: %w", err)
	}
	if tx.To == nil {
		return nil, ErrNoCulprit
	}
	ep := entrypoint.Of(eps, *tx.To)
	if ep == nil {
		return nil, ErrNoCulprit
	}
	senders, ok := ep.BundleSenders(tx.Input)
	if !ok {
		return nil, ErrNoCulprit
	}
	revert, err := traceRevert(ctx, c, receipt.TxHash)
	if err != nil {
		revert, err = replayRevert(ctx, c, tx.From, *tx.To, tx.Input, uint64(tx.Gas), receipt.BlockNumber)
		if err != nil {
			return nil, err
		}
	}
	idx, reason, ok := decodeFailedOp(ep, revert)
	if !ok && ep.EIP7702() {
		idx, ok = revokedDelegation(ctx, c, senders, revert, receipt.BlockNumber)
		reason = ReasonDelegationRevoked
	}
	if !ok || idx < 0 || idx >= len(senders) {
		return nil, ErrNoCulprit
	}
	return &Culprit{Index: idx, Sender: senders[idx], Reason: printable(reason, 160)}, nil
}

// printable is s with every byte that is not printable ASCII replaced by
// '?', cut to at most n bytes: a FailedOp's reason may carry an account's
// or paymaster's own revert text.
func printable(s string, n int) string {
	b := []byte(s[:min(len(s), n)])
	for i, c := range b {
		if c < 0x20 || c >= 0x7f {
			b[i] = '?'
		}
	}
	return string(b)
}

// traceRevert is the revert data of the transaction's top call, from the
// node's callTracer.
func traceRevert(ctx context.Context, c Caller, hash common.Hash) ([]byte, error) {
	var frame struct {
		Output hexutil.Bytes `json:"output"`
		Error  string        `json:"error"`
	}
	cfg := map[string]any{"tracer": "callTracer", "tracerConfig": map[string]any{"onlyTopCall": true}}
	if err := c.CallContext(ctx, &frame, "debug_traceTransaction", hash, cfg); err != nil {
		return nil, err
	}
	if frame.Error == "" {
		return nil, ErrNoCulprit // the trace says it did not revert
	}
	return frame.Output, nil
}

// replayRevert runs the bundle again on the state after block and returns
// its revert data.
func replayRevert(ctx context.Context, c Caller, from, to common.Address, data []byte, gas uint64, block *big.Int) ([]byte, error) {
	call := map[string]any{"from": from, "to": to, "data": hexutil.Bytes(data)}
	if gas > 0 {
		call["gas"] = hexutil.Uint64(gas)
	}
	at := "latest"
	if block != nil {
		at = hexutil.EncodeBig(block)
	}
	var out hexutil.Bytes
	err := c.CallContext(ctx, &out, "eth_call", call, at)
	if err == nil {
		return nil, ErrNoCulprit // it passes now
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, fmt.Errorf("running the bundle again: %w", err)
	}
	s, _ := de.ErrorData().(string)
	return common.FromHex(s), nil
}

// decodeFailedOp decodes a FailedOp of ep naming an operation of its
// bundle: its index, and its reason (with the inner revert of v0.7's
// FailedOpWithRevert).
func decodeFailedOp(ep entrypoint.EntryPoint, data []byte) (int, string, bool) {
	f, ok := ep.FailedOp(data)
	if !ok {
		return 0, "", false
	}
	if f.Inner != nil {
		return index(f.OpIndex), f.Reason + ": " + DecodeRevert(f.Inner), true
	}
	return index(f.OpIndex), f.Reason, true
}

// index is an opIndex as an int, -1 when it cannot be one.
func index(n *big.Int) int {
	if n == nil || !n.IsInt64() || n.Int64() > 1<<20 {
		return -1
	}
	return int(n.Int64())
}

package bundler

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
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
	for _, code := range []string{"AA20", "AA21", "AA23", "AA24", "AA25", "AA33", "AA50"} {
		if strings.HasPrefix(c.Reason, code+" ") || c.Reason == code {
			return true
		}
	}
	return false
}

// ErrNoCulprit is returned by FindCulprit when the bundle did not revert
// with a FailedOp naming one of its operations (it may have run out of
// gas, or not be a handleOps call at all).
var ErrNoCulprit = errors.New("the bundle's revert names none of its operations")

// FindCulprit finds the operation whose failure reverted the handleOps
// transaction of receipt (status 0), on EntryPoint v0.6 or v0.7. An
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
func FindCulprit(ctx context.Context, c Caller, receipt *types.Receipt) (*Culprit, error) {
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
	senders, v07, ok := bundleSenders(tx.Input)
	if !ok || tx.To == nil {
		return nil, ErrNoCulprit
	}
	revert, err := traceRevert(ctx, c, receipt.TxHash)
	if err != nil {
		revert, err = replayRevert(ctx, c, tx.From, *tx.To, tx.Input, uint64(tx.Gas), receipt.BlockNumber)
		if err != nil {
			return nil, err
		}
	}
	idx, reason, ok := decodeFailedOp(revert, v07)
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

var (
	handleOpsV06 = mustMethod(contracts.EntryPointMetaData.ParseABI())
	handleOpsV07 = mustMethod(ep07.EntryPointMetaData.ParseABI())
)

func mustMethod(a *abi.ABI, err error) abi.Method {
	if err != nil {
		panic(err)
	}
	return a.Methods["handleOps"]
}

// bundleSenders is the sender of each operation of handleOps calldata,
// and whether it is v0.7's.
func bundleSenders(input []byte) ([]common.Address, bool, bool) {
	if len(input) < 4 {
		return nil, false, false
	}
	for _, m := range []struct {
		method abi.Method
		v07    bool
	}{{handleOpsV06, false}, {handleOpsV07, true}} {
		if string(input[:4]) != string(m.method.ID) {
			continue
		}
		args, err := m.method.Inputs.Unpack(input[4:])
		if err != nil || len(args) != 2 {
			return nil, false, false
		}
		var senders []common.Address
		if m.v07 {
			ops, ok := abi.ConvertType(args[0], new([]ep07.PackedUserOperation)).(*[]ep07.PackedUserOperation)
			if !ok {
				return nil, false, false
			}
			for _, op := range *ops {
				senders = append(senders, op.Sender)
			}
		} else {
			ops, ok := abi.ConvertType(args[0], new([]contracts.UserOperation)).(*[]contracts.UserOperation)
			if !ok {
				return nil, false, false
			}
			for _, op := range *ops {
				senders = append(senders, op.Sender)
			}
		}
		return senders, m.v07, true
	}
	return nil, false, false
}

// decodeFailedOp decodes a FailedOp(opIndex, reason) revert of EntryPoint
// v0.6, or with v07 FailedOp or FailedOpWithRevert of v0.7.
func decodeFailedOp(data []byte, v07 bool) (int, string, bool) {
	if len(data) < 4 {
		return 0, "", false
	}
	if v07 {
		res, err := ep07.NewEntryPoint().UnpackError(data)
		if err != nil {
			return 0, "", false // a known error's selector, its data cut short
		}
		switch f := res.(type) {
		case *ep07.EntryPointFailedOp:
			return index(f.OpIndex), f.Reason, true
		case *ep07.EntryPointFailedOpWithRevert:
			return index(f.OpIndex), f.Reason + ": " + DecodeRevert(f.Inner), true
		}
		return 0, "", false
	}
	res, err := contracts.NewEntryPoint().UnpackError(data)
	if f, ok := res.(*contracts.EntryPointFailedOp); ok && err == nil {
		return index(f.OpIndex), f.Reason, true
	}
	return 0, "", false
}

// index is an opIndex as an int, -1 when it cannot be one.
func index(n *big.Int) int {
	if n == nil || !n.IsInt64() || n.Int64() > 1<<20 {
		return -1
	}
	return int(n.Int64())
}

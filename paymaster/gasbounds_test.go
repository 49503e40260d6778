package paymaster

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The deposit drain: an operation for a fresh account with a valid
// one-unit settle and a preVerificationGas of 1.9 billion was signed, and
// its sender, bundling it itself with its own beneficiary, took about 10
// ETH of the paymaster's deposit. Every gas field is now bounded by what
// the paymaster computes itself.
func TestGasBoundsRefuseInflatedOperations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ep := e.chain.Contracts.EntryPoint.Hex()
	inflate := func(field string, v int64) x402.UserOperation {
		op := unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1))
		h := hexutil.EncodeBig(big.NewInt(v))
		switch field {
		case "preVerificationGas":
			op.PreVerificationGas = h
		case "verificationGasLimit":
			op.VerificationGasLimit = h
		case "callGasLimit":
			op.CallGasLimit = h
		}
		return op
	}
	tests := []struct {
		field string
		value int64
	}{
		{"preVerificationGas", 1_900_000_000},
		{"preVerificationGas", 200_000},
		{"verificationGasLimit", 5_000_000},
		{"callGasLimit", 30_000_000},
	}
	for _, tc := range tests {
		t.Run(tc.field, func(t *testing.T) {
			res, _ := e.call(e.sponsor, "pm_sponsor_userop", inflate(tc.field, tc.value), ep, map[string]any{"type": 0})
			if res.Error == nil || res.Error.Code != -32602 || !strings.Contains(res.Error.Message, tc.field) {
				t.Fatalf("%s=%d: got %+v, want -32602 naming the field", tc.field, tc.value, res.Error)
			}
		})
	}
	if u, _ := e.svc.Usage(context.Background(), "demo"); u.InFlight != 0 || u.Balance.Cmp(ether(10)) != 0 {
		t.Fatalf("refusals reserved something: %+v", u)
	}

	t.Run("cost over the per-operation cap is -32501", func(t *testing.T) {
		e := newEnv(t, Project{Name: "small", Balance: ether(1), MaxOpCost: big.NewInt(1_000_000)})
		res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), ep)
		if res.Error == nil || res.Error.Code != -32501 || !strings.Contains(res.Error.Message, "per-operation cap") {
			t.Fatalf("got %+v, want -32501", res.Error)
		}
	})
}

// A normal operation is still sponsored with fields the paymaster filled;
// bundled by its own sender (the attack's set-up), the deposit moves by
// exactly actualGasCost, which stays under the per-operation cap, and the
// sender-as-bundler gains no more than any bundler's margin: with
// preVerificationGas computed as bundlers compute it, about 18,500 gas of
// an operation (EntryPoint v0.6's own accounting), never the deposit.
func TestGasBoundsSelfBundledOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.newAccount()
	tok := contracts.NewDevUSD()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(a.sender, big.NewInt(5)), 100_000)
	res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex())
	if res.Error != nil {
		t.Fatalf("sponsor: %+v", res.Error)
	}
	op := decodeOp(t, res.Result)
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)

	attacker := e.chain.Accounts[5]
	ep := contracts.NewEntryPoint()
	var out hexutil.Bytes
	e.ethCall(e.chain.Contracts.EntryPoint, ep.PackBalanceOf(e.chain.Contracts.Paymaster), &out)
	before, _ := ep.UnpackBalanceOf(out)
	ctx := context.Background()
	balBefore, _ := e.eth.BalanceAt(ctx, attacker.Address, nil)
	r := e.send(attacker.Key, e.chain.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, attacker.Address), 3_000_000)
	balAfter, _ := e.eth.BalanceAt(ctx, attacker.Address, nil)
	e.ethCall(e.chain.Contracts.EntryPoint, ep.PackBalanceOf(e.chain.Contracts.Paymaster), &out)
	after, _ := ep.UnpackBalanceOf(out)

	var ev *contracts.EntryPointUserOperationEvent
	for _, l := range r.Logs {
		if x, err := ep.UnpackUserOperationEventEvent(l); err == nil {
			ev = x
		}
	}
	if r.Status != types.ReceiptStatusSuccessful || ev == nil || !ev.Success {
		t.Fatalf("handleOps: status %d, event %+v", r.Status, ev)
	}
	paid := new(big.Int).Sub(before, after)
	if paid.Cmp(ev.ActualGasCost) != 0 {
		t.Fatalf("deposit moved by %s, actualGasCost %s", paid, ev.ActualGasCost)
	}
	cap := new(big.Int).Div(ether(10), big.NewInt(100))
	if paid.Cmp(cap) > 0 || paid.Cmp(maxCost(&op)) > 0 {
		t.Fatalf("deposit moved by %s, over the cap %s or the op's max cost %s", paid, cap, maxCost(&op))
	}
	profit := new(big.Int).Sub(balAfter, balBefore)
	price := r.EffectiveGasPrice
	t.Logf("pvg %s, vgl %s, cgl %s; bundle gas %d; actualGasCost %s; self-bundler's profit %s wei (%d gas)",
		op.PreVerificationGas, op.VerificationGasLimit, op.CallGasLimit, r.GasUsed, ev.ActualGasCost, profit, new(big.Int).Div(profit, price).Int64())
	if limit := new(big.Int).Mul(big.NewInt(25_000), price); profit.Cmp(limit) > 0 {
		t.Fatalf("the self-bundler gained %s wei, over 25,000 gas at its price", profit)
	}
}

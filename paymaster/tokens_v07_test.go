package paymaster

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/x402"
)

// newTokenEnvV07 is newEnvV07 with both token paymasters and dUSD accepted
// for gas at dUSDPerETH and the default markup.
func newTokenEnvV07(t *testing.T, projects ...Project) *env {
	t.Helper()
	e := newEnvV07(t, projects...)
	e.restart(func(c *Config) {
		c.EntryPoints[0].TokenPaymaster, c.EntryPoints[1].TokenPaymaster = e.chain.Contracts.TokenPaymaster, e.chain.Contracts.TokenPaymasterV07
		c.Tokens = []Token{{Address: e.chain.Token.Address, Price: dUSDPerETH}}
	})
	return e
}

// landedV07 is what one bundled v0.7 operation did.
type landedV07 struct {
	receipt *types.Receipt
	event   *ep07.EntryPointUserOperationEvent
	paid    *ep07.TokenPaymasterV07GasPaidInToken // nil if none
}

// bundleAsV07 signs op as a's owner and sends it in a v0.7 handleOps from
// account 5; the transaction must succeed, the operation need not.
func (e *env) bundleAsV07(a accountV07, op ep07.UserOperation) landedV07 {
	e.t.Helper()
	op.Signature, _ = contracts.SignHash(ep07.UserOpHash(op, e.chain.Contracts.EntryPointV07, e.chain.ChainID), a.owner)
	ep, tpm := ep07.NewEntryPoint(), ep07.NewTokenPaymasterV07()
	r := e.send(e.chain.Accounts[5].Key, e.chain.Contracts.EntryPointV07, ep.PackHandleOps([]ep07.PackedUserOperation{op.Pack()}, e.chain.Accounts[5].Address), 3_000_000)
	out := landedV07{receipt: r}
	for _, l := range r.Logs {
		if x, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == e.chain.Contracts.EntryPointV07 {
			out.event = x
		}
		if x, err := tpm.UnpackGasPaidInTokenEvent(l); err == nil && l.Address == e.chain.Contracts.TokenPaymasterV07 {
			out.paid = x
		}
	}
	if r.Status != types.ReceiptStatusSuccessful || out.event == nil {
		e.t.Fatalf("v0.7 handleOps: status %d, event %+v", r.Status, out.event)
	}
	return out
}

// sponsorAsV07 asks for sponsorship of a v0.7 operation under context sc
// and returns it signed by the paymaster.
func (e *env) sponsorAsV07(op ep07.UserOperationHex, sc map[string]any) ep07.UserOperation {
	e.t.Helper()
	res, _ := e.call(e.sponsor, "pm_sponsor_userop", op, e.chain.Contracts.EntryPointV07.Hex(), sc)
	if res.Error != nil {
		e.t.Fatalf("sponsor v0.7 %v: %+v", sc, res.Error)
	}
	var wire ep07.UserOperationHex
	if err := json.Unmarshal(res.Result, &wire); err != nil {
		e.t.Fatal(err)
	}
	out, err := wire.Decode(false)
	if err != nil {
		e.t.Fatalf("answer %s: %v", res.Result, err)
	}
	return out
}

// depositV07 is the EntryPoint v0.7 deposit of pm.
func (e *env) depositV07(pm common.Address) *big.Int {
	e.t.Helper()
	ep := ep07.NewEntryPoint()
	var out hexutil.Bytes
	e.ethCall(e.chain.Contracts.EntryPointV07, ep.PackBalanceOf(pm), &out)
	b, _ := ep.UnpackBalanceOf(out)
	return b
}

// unsignedV07 is the wire form of a v0.7 operation left for the paymaster
// to complete.
func unsignedV07(e *env, a accountV07, nonce int64, deploy bool, callData []byte) ep07.UserOperationHex {
	op := ep07.UserOperationHex{Sender: a.sender.Hex(), Nonce: hexutil.EncodeBig(big.NewInt(nonce)), CallData: hexutil.Encode(callData)}
	if deploy {
		op.Factory, op.FactoryData = e.chain.Contracts.AccountFactoryV07.Hex(), hexutil.Encode(a.factoryData)
	}
	return op
}

// tokenAccountV07 is a deployed v0.7 account holding tokens dUSD units,
// with an unlimited allowance to TokenPaymasterV07 if approve is set; a
// type 0 operation deploys it.
func (e *env) tokenAccountV07(tokens int64, approve bool) accountV07 {
	e.t.Helper()
	a := e.newAccountV07()
	tok, sa := contracts.NewDevUSD(), ep07.NewSimpleAccount()
	if tokens > 0 {
		e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(a.sender, big.NewInt(tokens)), 100_000)
	}
	amount := new(big.Int)
	if approve {
		amount = new(big.Int).Lsh(big.NewInt(1), 255)
	}
	call := sa.PackExecute(e.chain.Token.Address, new(big.Int), tok.PackApprove(e.chain.Contracts.TokenPaymasterV07, amount))
	if l := e.bundleAsV07(a, e.sponsorAsV07(unsignedV07(e, a, 0, true, call), map[string]any{"type": 0})); !l.event.Success {
		e.t.Fatal("deploying the v0.7 account failed")
	}
	return a
}

// An aa-native payment on EntryPoint v0.7 whose gas is paid in dUSD under
// type 1 and type 2: the payer's tokens move by exactly the price plus the
// gas charged at the signed rate, which covers what the deposit paid; the
// project's ETH is not drawn (type 2 is held while in flight and released
// whole when GasPaidInToken follows).
func TestTokenGasV07PaysInToken(t *testing.T) {
	t.Parallel()
	const price = 1_000_000 // 1 dUSD
	for _, ty := range []int{TypePrepay, TypePostpay} {
		t.Run("type "+string(rune('0'+ty)), func(t *testing.T) {
			t.Parallel()
			e := newTokenEnvV07(t)
			a := e.tokenAccountV07(50_000_000, true)
			payee := e.chain.Accounts[2].Address
			tpm := e.chain.Contracts.TokenPaymasterV07
			base := e.usage("demo") // the type 0 deployment, landed
			op := e.sponsorAsV07(unsignedV07(e, a, 1, false, e.settleCallV07(price)), map[string]any{"type": ty, "token": e.chain.Token.Address.Hex()})

			terms, _, err := ep07.DecodeTokenPaymasterData(op.PaymasterData)
			wantRate := big.NewInt(3_150_000_000) // 3,000 dUSD per ETH, 6 decimals, 5% markup
			if err != nil || op.Paymaster != tpm || int(terms.Mode) != ty || terms.Token != e.chain.Token.Address || terms.Rate.Cmp(wantRate) != 0 ||
				op.PaymasterVerificationGasLimit.Int64() != v07TokenPaymasterVerificationGas || op.PaymasterPostOpGasLimit.Int64() != ep07.TokenPostOpGasLimit(uint8(ty)) {
				t.Fatalf("paymaster fields: %s %s %s %+v %v; want %s, mode %d, rate %s", op.Paymaster, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit, terms, err, tpm, ty, wantRate)
			}
			held := new(big.Int)
			if ty == TypePostpay {
				held = maxCostOf7(&op)
			}
			if u := e.usage("demo"); u.InFlight != 1 || new(big.Int).Sub(base.Balance, u.Balance).Cmp(held) != 0 || new(big.Int).Sub(u.SpentToday, base.SpentToday).Cmp(held) != 0 {
				t.Fatalf("after sponsoring: %+v (before %+v); want 1 in flight and %s wei held", u, base, held)
			}

			payerBefore, payeeBefore, tpmBefore, depBefore := e.tokenBalance(a.sender), e.tokenBalance(payee), e.tokenBalance(tpm), e.depositV07(tpm)
			l := e.bundleAsV07(a, op)
			if !l.event.Success || l.paid == nil || l.paid.UserOpHash != l.event.UserOpHash {
				t.Fatalf("operation: success %v, GasPaidInToken %+v", l.event.Success, l.paid)
			}
			charged := contracts.TokenCost(l.paid.GasCost, wantRate)
			if l.paid.TokenCost.Cmp(charged) != 0 || l.paid.Rate.Cmp(wantRate) != 0 || int(l.paid.Mode) != ty || l.paid.Sender != a.sender {
				t.Fatalf("GasPaidInToken %+v; want %s tokens for %s wei at %s", l.paid, charged, l.paid.GasCost, wantRate)
			}
			// The gas charged covers what the EntryPoint took from the
			// deposit (postOp and the unused-gas penalty included) ...
			depositPaid := new(big.Int).Sub(depBefore, e.depositV07(tpm))
			if depositPaid.Cmp(l.event.ActualGasCost) != 0 || l.paid.GasCost.Cmp(depositPaid) < 0 {
				t.Fatalf("deposit paid %s, actualGasCost %s, charged for %s wei", depositPaid, l.event.ActualGasCost, l.paid.GasCost)
			}
			// ... and by no more than a tenth of the account's unused
			// verification gas (the penalty's bound) plus 10,000 gas.
			perGas := new(big.Int).Div(l.event.ActualGasCost, l.event.ActualGasUsed)
			overGas := new(big.Int).Div(new(big.Int).Sub(l.paid.GasCost, depositPaid), perGas)
			if bound := new(big.Int).Add(new(big.Int).Div(op.VerificationGasLimit, big.NewInt(10)), big.NewInt(10_000)); overGas.Cmp(bound) > 0 {
				t.Fatalf("charged %s gas over the deposit's, more than %s", overGas, bound)
			}
			payerPaid := new(big.Int).Sub(payerBefore, e.tokenBalance(a.sender))
			if want := new(big.Int).Add(big.NewInt(price), charged); payerPaid.Cmp(want) != 0 {
				t.Fatalf("the payer paid %s units, want the price %d plus the gas %s", payerPaid, price, charged)
			}
			if got := new(big.Int).Sub(e.tokenBalance(payee), payeeBefore); got.Int64() != price {
				t.Fatalf("the payee got %s", got)
			}
			collected := new(big.Int).Sub(e.tokenBalance(tpm), tpmBefore)
			if collected.Cmp(charged) != 0 || collected.Cmp(contracts.TokenCost(depositPaid, wantRate)) < 0 {
				t.Fatalf("the paymaster collected %s units for a deposit of %s wei spent", collected, depositPaid)
			}
			if u := e.usage("demo"); u.InFlight != 0 || u.Balance.Cmp(base.Balance) != 0 || u.SpentToday.Cmp(base.SpentToday) != 0 {
				t.Fatalf("after landing: %+v (before %+v); want nothing in flight and no ETH drawn", u, base)
			}
			t.Logf("v0.7 type %d: handleOps gas %d, actualGasUsed %s, actualGasCost %s wei, charged %s wei (%s gas over) = %s dUSD units",
				ty, l.receipt.GasUsed, l.event.ActualGasUsed, l.event.ActualGasCost, l.paid.GasCost, overGas, charged)
		})
	}
}

// A type 2 payer on v0.7 who spends its tokens (or revokes the allowance)
// in its own call makes postOp fail; EntryPoint v0.7 then undoes the call
// (the merchant is not paid) and the deposit pays the gas. That bounded
// loss is the project's, as held: the project is charged the actual cost,
// and the sender is not sponsored again for a while. A type 1 payer who
// does the same has paid in validation: its prepayment stands.
func TestTokenGasV07PostpayDodge(t *testing.T) {
	t.Parallel()
	e := newTokenEnvV07(t)
	tok, sa := contracts.NewDevUSD(), ep07.NewSimpleAccount()
	sink := e.chain.Accounts[3].Address
	tpm := e.chain.Contracts.TokenPaymasterV07
	dodges := map[string]func() []byte{
		"spends every token": func() []byte {
			return sa.PackExecute(e.chain.Token.Address, new(big.Int), tok.PackTransfer(sink, big.NewInt(50_000_000)))
		},
		"revokes the allowance": func() []byte {
			return sa.PackExecute(e.chain.Token.Address, new(big.Int), tok.PackApprove(tpm, new(big.Int)))
		},
	}
	for name, call := range dodges {
		a := e.tokenAccountV07(50_000_000, true)
		base := e.usage("demo")
		op := e.sponsorAsV07(unsignedV07(e, a, 1, false, call()), map[string]any{"type": 2, "token": e.chain.Token.Address.Hex()})
		depBefore, tokBefore := e.depositV07(tpm), e.tokenBalance(tpm)
		l := e.bundleAsV07(a, op)
		if l.event.Success || l.paid != nil {
			t.Fatalf("%s: want the operation undone and unpaid: success %v, paid %+v", name, l.event.Success, l.paid)
		}
		spent := new(big.Int).Sub(depBefore, e.depositV07(tpm))
		if spent.Cmp(l.event.ActualGasCost) != 0 || e.tokenBalance(tpm).Cmp(tokBefore) != 0 {
			t.Fatalf("%s: the deposit paid %s (actualGasCost %s), tokens collected moved", name, spent, l.event.ActualGasCost)
		}
		u := e.usage("demo")
		if u.InFlight != 0 || new(big.Int).Sub(base.Balance, u.Balance).Cmp(spent) != 0 {
			t.Fatalf("%s: after landing %+v (before %+v); want the project charged %s", name, u, base, spent)
		}
		// The sender is suspended.
		res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsignedV07(e, a, 2, false, e.settleCallV07(1)), e.chain.Contracts.EntryPointV07.Hex(), map[string]any{"type": 2, "token": e.chain.Token.Address.Hex()})
		if res.Error == nil || res.Error.Code != codeThrottled {
			t.Fatalf("%s: the dodging sender was sponsored again: %s %+v", name, res.Result, res.Error)
		}
		t.Logf("%s: the deposit paid %s wei, charged to the project", name, spent)
	}

	// Type 1: the prepayment stands whatever the call does (here the
	// transfer of every token fails, the prepayment having taken some).
	a := e.tokenAccountV07(50_000_000, true)
	base := e.usage("demo")
	op := e.sponsorAsV07(unsignedV07(e, a, 1, false, dodges["revokes the allowance"]()), map[string]any{"type": 1, "token": e.chain.Token.Address.Hex()})
	depBefore := e.depositV07(tpm)
	l := e.bundleAsV07(a, op)
	if !l.event.Success || l.paid == nil {
		t.Fatalf("type 1: success %v, paid %+v", l.event.Success, l.paid)
	}
	if spent := new(big.Int).Sub(depBefore, e.depositV07(tpm)); contracts.TokenCost(spent, l.paid.Rate).Cmp(l.paid.TokenCost) > 0 {
		t.Fatalf("type 1: charged %s units for %s wei of deposit", l.paid.TokenCost, spent)
	}
	if u := e.usage("demo"); u.Balance.Cmp(base.Balance) != 0 {
		t.Fatalf("type 1 drew on the project: %+v (before %+v)", u, base)
	}
}

// Refusals on v0.7: a payer without balance or allowance to
// TokenPaymasterV07 (an allowance to v0.6's does not count) is refused
// before anything is signed; a paymaster without a v0.7 token paymaster
// refuses token types on v0.7 rather than serve them free.
func TestTokenGasV07Refusals(t *testing.T) {
	t.Parallel()
	e := newTokenEnvV07(t)
	v06Only := newEnvV07(t)
	v06Only.restart(func(c *Config) {
		c.EntryPoints[0].TokenPaymaster = v06Only.chain.Contracts.TokenPaymaster
		c.Tokens = []Token{{Address: v06Only.chain.Token.Address, Price: dUSDPerETH}}
	})
	dUSD := e.chain.Token.Address.Hex()
	poor := e.tokenAccountV07(0, true)             // allowance, no tokens
	stingy := e.tokenAccountV07(50_000_000, false) // tokens, no allowance
	// tokens, allowance to the v0.6 TokenPaymaster only
	other := e.tokenAccountV07(50_000_000, false)
	approveV06 := ep07.NewSimpleAccount().PackExecute(e.chain.Token.Address, new(big.Int), contracts.NewDevUSD().PackApprove(e.chain.Contracts.TokenPaymaster, new(big.Int).Lsh(big.NewInt(1), 255)))
	e.bundleAsV07(other, e.sponsorAsV07(unsignedV07(e, other, 1, false, approveV06), map[string]any{"type": 0}))
	fresh := v06Only.newAccountV07()
	call := e.settleCallV07(1)
	tests := []struct {
		name string
		e    *env
		op   ep07.UserOperationHex
		ty   int
		code x402.RPCErrorCode
		want string
	}{
		{"type 1 without balance", e, unsignedV07(e, poor, 1, false, call), 1, codePaymasterRejected, "balance"},
		{"type 2 without balance", e, unsignedV07(e, poor, 1, false, call), 2, codePaymasterRejected, "balance"},
		{"type 1 without allowance", e, unsignedV07(e, stingy, 1, false, call), 1, codePaymasterRejected, "allowance"},
		{"type 2 with v0.6's allowance only", e, unsignedV07(e, other, 2, false, call), 2, codePaymasterRejected, "allowance"},
		{"no v0.7 token paymaster", v06Only, unsignedV07(v06Only, fresh, 0, true, call), 1, codeInvalidParams, "not offered on this EntryPoint"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := tc.e.call(tc.e.sponsor, "pm_sponsor_userop", tc.op, e.chain.Contracts.EntryPointV07.Hex(), map[string]any{"type": tc.ty, "token": dUSD})
			if res.Error == nil || res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.want) {
				t.Fatalf("got %s %+v, want %d naming %q", res.Result, res.Error, tc.code, tc.want)
			}
			if tc.code == codePaymasterRejected {
				if data, _ := res.Error.Data.(map[string]any); data["paymaster"] != e.chain.Contracts.TokenPaymasterV07.Hex() {
					t.Fatalf("error data %v: want the v0.7 token paymaster named", res.Error.Data)
				}
			}
		})
	}
	for _, env := range []*env{e, v06Only} {
		if u := env.usage("demo"); u.InFlight != 0 {
			t.Fatalf("refusals reserved: %+v", u)
		}
	}
}

// TokenPaymasterV07's paymasterAndData changed after signing (a lower
// rate, another mode, a smaller postOp gas limit, a longer window, a forged
// signature) fails its validation: the EntryPoint refuses the bundle with
// AA34 and the deposit pays nothing.
func TestTokenGasV07TamperedTerms(t *testing.T) {
	t.Parallel()
	e := newTokenEnvV07(t)
	a := e.tokenAccountV07(50_000_000, true)
	op := e.sponsorAsV07(unsignedV07(e, a, 1, false, e.settleCallV07(1)), map[string]any{"type": 2, "token": e.chain.Token.Address.Hex()})
	terms, sig, err := ep07.DecodeTokenPaymasterData(op.PaymasterData)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(*ep07.UserOperation, *contracts.TokenTerms, []byte)
	}{
		{"lower rate", func(_ *ep07.UserOperation, t *contracts.TokenTerms, _ []byte) { t.Rate = big.NewInt(1) }},
		{"other mode", func(_ *ep07.UserOperation, t *contracts.TokenTerms, _ []byte) { t.Mode = TypePrepay }},
		{"longer window", func(_ *ep07.UserOperation, t *contracts.TokenTerms, _ []byte) { t.ValidUntil += 3600 }},
		{"starved postOp", func(o *ep07.UserOperation, _ *contracts.TokenTerms, _ []byte) {
			o.PaymasterPostOpGasLimit = big.NewInt(1_000)
		}},
		{"more paymaster verification gas", func(o *ep07.UserOperation, _ *contracts.TokenTerms, _ []byte) {
			o.PaymasterVerificationGasLimit = big.NewInt(500_000)
		}},
		{"forged signature", func(_ *ep07.UserOperation, _ *contracts.TokenTerms, s []byte) { s[10] ^= 1 }},
	}
	ep := ep07.NewEntryPoint()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := op
			bad.PaymasterVerificationGasLimit, bad.PaymasterPostOpGasLimit = new(big.Int).Set(op.PaymasterVerificationGasLimit), new(big.Int).Set(op.PaymasterPostOpGasLimit)
			tt, s := terms, append([]byte(nil), sig...)
			tt.Rate = new(big.Int).Set(terms.Rate)
			tc.change(&bad, &tt, s)
			bad.PaymasterData = ep07.TokenPaymasterData(tt, s)
			bad.Signature, _ = contracts.SignHash(ep07.UserOpHash(bad, e.chain.Contracts.EntryPointV07, e.chain.ChainID), a.owner)
			msg := map[string]any{"from": e.chain.Accounts[5].Address, "to": e.chain.Contracts.EntryPointV07, "data": hexutil.Bytes(ep.PackHandleOps([]ep07.PackedUserOperation{bad.Pack()}, e.chain.Accounts[5].Address)), "gas": hexutil.Uint64(3_000_000)}
			var out hexutil.Bytes
			err := e.rpc.Call(&out, "eth_call", msg, "latest")
			res, _ := ep.UnpackError(revertData(err))
			if f, ok := res.(*ep07.EntryPointFailedOp); !ok || !strings.HasPrefix(f.Reason, "AA34") {
				t.Fatalf("handleOps: %v %v; want FailedOp AA34", err, res)
			}
		})
	}
}

// ERC-7677 on v0.7 with a token context: the stub names TokenPaymasterV07
// with its gas limits and is not final; the data signs the operation as
// given, which lands and pays its gas in dUSD.
func TestTokenGasV07ERC7677(t *testing.T) {
	t.Parallel()
	e := newTokenEnvV07(t)
	a := e.tokenAccountV07(50_000_000, true)
	ep07Hex, chainID := e.chain.Contracts.EntryPointV07.Hex(), hexutil.EncodeBig(e.chain.ChainID)
	sc := map[string]any{"type": 1, "token": e.chain.Token.Address.Hex()}
	next := ep07.UserOperationHex{
		Sender: a.sender.Hex(), Nonce: "0x1", CallData: hexutil.Encode(e.settleCallV07(4_000)),
		CallGasLimit: "0x30d40", VerificationGasLimit: "0x249f0", PreVerificationGas: "0xc350",
		MaxFeePerGas: "0x77359400", MaxPriorityFeePerGas: "0x3b9aca00",
	}
	res, _ := e.call(e.sponsor, "pm_getPaymasterStubData", next, ep07Hex, chainID, sc)
	var stub PaymasterDataV07
	if res.Error != nil || json.Unmarshal(res.Result, &stub) != nil || stub.IsFinal == nil || *stub.IsFinal ||
		stub.Paymaster != e.chain.Contracts.TokenPaymasterV07 || stub.PaymasterPostOpGasLimit.ToInt().Int64() != ep07.TokenPostOpGasLimit(TypePrepay) ||
		len(stub.PaymasterData) != ep07.TokenPaymasterDataLength {
		t.Fatalf("stub: %s %+v", res.Result, res.Error)
	}
	next.Paymaster, next.PaymasterData = stub.Paymaster.Hex(), stub.PaymasterData.String()
	next.PaymasterVerificationGasLimit, next.PaymasterPostOpGasLimit = stub.PaymasterVerificationGasLimit.String(), stub.PaymasterPostOpGasLimit.String()
	res, _ = e.call(e.sponsor, "pm_getPaymasterData", next, ep07Hex, chainID, sc)
	var data PaymasterDataV07
	if res.Error != nil || json.Unmarshal(res.Result, &data) != nil {
		t.Fatalf("data: %s %+v", res.Result, res.Error)
	}
	op, err := next.Decode(true)
	if err != nil {
		t.Fatal(err)
	}
	op.Paymaster, op.PaymasterData = data.Paymaster, data.PaymasterData
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = data.PaymasterVerificationGasLimit.ToInt(), data.PaymasterPostOpGasLimit.ToInt()
	before := e.tokenBalance(a.sender)
	l := e.bundleAsV07(a, op)
	if !l.event.Success || l.paid == nil {
		t.Fatalf("success %v, paid %+v", l.event.Success, l.paid)
	}
	if paid := new(big.Int).Sub(before, e.tokenBalance(a.sender)); paid.Cmp(new(big.Int).Add(big.NewInt(4_000), l.paid.TokenCost)) != 0 {
		t.Fatalf("the payer paid %s, want 4000 plus %s", paid, l.paid.TokenCost)
	}
}

// pm_supported_tokens names both token paymasters; the operators' list
// counts what both collected.
func TestTokenGasV07SupportedTokens(t *testing.T) {
	t.Parallel()
	e := newTokenEnvV07(t)
	res, _ := e.call(e.readOnly, "pm_supported_tokens", map[string]any{}, e.chain.Contracts.EntryPointV07.Hex())
	if res.Error != nil || !strings.Contains(string(res.Result), `"paymasterV07":"`+e.chain.Contracts.TokenPaymasterV07.Hex()+`"`) ||
		!strings.Contains(string(res.Result), `"paymaster":"`+e.chain.Contracts.TokenPaymaster.Hex()+`"`) ||
		!strings.Contains(string(res.Result), `"paymasters":{"0.6":"`+e.chain.Contracts.TokenPaymaster.Hex()+`","0.7":"`+e.chain.Contracts.TokenPaymasterV07.Hex()+`"}`) {
		t.Fatalf("pm_supported_tokens: %s %+v", res.Result, res.Error)
	}
	a := e.tokenAccountV07(50_000_000, true)
	l := e.bundleAsV07(a, e.sponsorAsV07(unsignedV07(e, a, 1, false, e.settleCallV07(1)), map[string]any{"type": 2, "token": e.chain.Token.Address.Hex()}))
	list := e.svc.GasTokens(t.Context())
	if len(list) != 1 || list[0].Collected == nil || list[0].Collected.Cmp(l.paid.TokenCost) != 0 {
		t.Fatalf("GasTokens %+v, want %s collected", list, l.paid.TokenCost)
	}
}

// The gas of the same payment on EntryPoint v0.7 under types 0, 1 and 2,
// from receipts.
func TestTokenGasV07Measured(t *testing.T) {
	t.Parallel()
	e := newTokenEnvV07(t)
	a := e.tokenAccountV07(50_000_000, true)
	for i, ty := range []int{TypeFree, TypePrepay, TypePostpay, TypeFree, TypePrepay, TypePostpay} {
		op := e.sponsorAsV07(unsignedV07(e, a, int64(i+1), false, e.settleCallV07(1_000_000+int64(i))), map[string]any{"type": ty, "token": e.chain.Token.Address.Hex()})
		l := e.bundleAsV07(a, op)
		if !l.event.Success || (ty != TypeFree) != (l.paid != nil) {
			t.Fatalf("type %d: success %v, paid %+v", ty, l.event.Success, l.paid)
		}
		t.Logf("v0.7 type %d: handleOps gas %d, actualGasUsed %s", ty, l.receipt.GasUsed, l.event.ActualGasUsed)
	}
}

// A viem v0.7 smart account (interop/erc7677-v07.mjs, viem's paymaster
// client) pays its gas in dUSD through ERC-7677 with a token context: the
// first operation (free gas) creates the account and approves
// TokenPaymasterV07, the second pays 3,000 with type 1, the third 4,000
// with type 2. The token operations name TokenPaymasterV07 with its limits,
// each GasPaidInToken covers what the deposit paid, and the payer's dUSD
// moves by exactly the two prices and the two charges.
func TestTokenGasV07Viem(t *testing.T) {
	t.Parallel()
	dir := interopDir(t)
	e := newTokenEnvV07(t)
	owner, _ := crypto.GenerateKey()
	var f hexutil.Bytes
	e.ethCall(e.chain.Contracts.AccountFactoryV07, ep07.NewSimpleAccountFactory().PackGetAddress(crypto.PubkeyToAddress(owner.PublicKey), big.NewInt(0)), &f)
	sender, _ := ep07.NewSimpleAccountFactory().UnpackGetAddress(f)
	tok, settlement := contracts.NewDevUSD(), contracts.NewX402Settlement()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(sender, big.NewInt(50_000_000)), 100_000)
	tpm := e.chain.Contracts.TokenPaymasterV07

	tmp := t.TempDir()
	keyFile, ownerFile, bundlerFile := filepath.Join(tmp, "api-key"), filepath.Join(tmp, "owner-key"), filepath.Join(tmp, "bundler-key")
	os.WriteFile(keyFile, []byte(e.sponsor), 0o600)
	os.WriteFile(ownerFile, []byte(hexutil.Encode(crypto.FromECDSA(owner))), 0o600)
	os.WriteFile(bundlerFile, []byte(hexutil.Encode(crypto.FromECDSA(e.chain.Accounts[6].Key))), 0o600)
	merchant := e.chain.Accounts[2].Address
	call := func(to common.Address, data []byte) map[string]string {
		return map[string]string{"to": to.Hex(), "data": hexutil.Encode(data)}
	}
	pay := func(amount int64, rh common.Hash) []map[string]string {
		return []map[string]string{
			call(e.chain.Token.Address, tok.PackApprove(e.chain.Contracts.Settlement, big.NewInt(amount))),
			call(e.chain.Contracts.Settlement, settlement.PackSettle(merchant, e.chain.Token.Address, big.NewInt(amount), rh)),
		}
	}
	approve := []map[string]string{call(e.chain.Token.Address, tok.PackApprove(tpm, new(big.Int).Lsh(big.NewInt(1), 255)))}
	ops, _ := json.Marshal([][]map[string]string{approve, pay(3_000, common.Hash{1}), pay(4_000, common.Hash{2})})
	dUSD := e.chain.Token.Address.Hex()
	contexts, _ := json.Marshal([]map[string]any{{"type": 0}, {"type": 1, "token": dUSD}, {"type": 2, "token": dUSD}})

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "erc7677-v07.mjs", e.chain.URL, e.srv.URL, keyFile,
		e.chain.Contracts.EntryPointV07.Hex(), e.chain.Contracts.AccountFactoryV07.Hex(), ownerFile, bundlerFile, string(ops), string(contexts))
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	// Balances before the token operations: after the first one, which
	// pays nothing in tokens, they are the same.
	payerBefore, merchantBefore, depBefore := e.tokenBalance(sender), e.tokenBalance(merchant), e.depositV07(tpm)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("erc7677-v07.mjs: %v\n%s\n%s", err, out, stderr.String())
	}
	var res struct {
		Sender common.Address `json:"sender"`
		Ops    []struct {
			TransactionHash         common.Hash    `json:"transactionHash"`
			Success                 bool           `json:"success"`
			StubPaymaster           common.Address `json:"stubPaymaster"`
			Paymaster               common.Address `json:"paymaster"`
			PaymasterPostOpGasLimit string         `json:"paymasterPostOpGasLimit"`
		} `json:"ops"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Ops) != 3 || res.Sender != sender {
		t.Fatalf("erc7677-v07.mjs printed %s: %v (want the account %s)", out, err, sender)
	}
	ep, tp := ep07.NewEntryPoint(), ep07.NewTokenPaymasterV07()
	charged, depositPaid := new(big.Int), new(big.Int)
	for i, op := range res.Ops {
		if !op.Success {
			t.Fatalf("op %d failed: %+v", i, op)
		}
		if i == 0 {
			continue
		}
		mode := uint8(i)
		if op.StubPaymaster != tpm || op.Paymaster != tpm || op.PaymasterPostOpGasLimit != fmt.Sprint(ep07.TokenPostOpGasLimit(mode)) {
			t.Fatalf("op %d: the paymaster fields viem got: %+v", i, op)
		}
		r, err := e.eth.TransactionReceipt(context.Background(), op.TransactionHash)
		if err != nil {
			t.Fatal(err)
		}
		var ev *ep07.EntryPointUserOperationEvent
		var paid *ep07.TokenPaymasterV07GasPaidInToken
		for _, l := range r.Logs {
			if x, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == e.chain.Contracts.EntryPointV07 {
				ev = x
			}
			if x, err := tp.UnpackGasPaidInTokenEvent(l); err == nil && l.Address == tpm {
				paid = x
			}
		}
		if ev == nil || paid == nil || paid.UserOpHash != ev.UserOpHash || paid.Mode != mode || paid.GasCost.Cmp(ev.ActualGasCost) < 0 {
			t.Fatalf("op %d: event %+v, GasPaidInToken %+v", i, ev, paid)
		}
		charged.Add(charged, paid.TokenCost)
		depositPaid.Add(depositPaid, ev.ActualGasCost)
		t.Logf("v0.7 type %d (viem, ERC-7677): %s gas used, %s wei from the deposit, %s dUSD units charged", mode, ev.ActualGasUsed, ev.ActualGasCost, paid.TokenCost)
	}
	if got := new(big.Int).Sub(e.tokenBalance(merchant), merchantBefore); got.Int64() != 7_000 {
		t.Fatalf("the merchant got %s, want 7000", got)
	}
	if got, want := new(big.Int).Sub(payerBefore, e.tokenBalance(sender)), new(big.Int).Add(big.NewInt(7_000), charged); got.Cmp(want) != 0 {
		t.Fatalf("the payer paid %s units, want %s", got, want)
	}
	if got := new(big.Int).Sub(depBefore, e.depositV07(tpm)); got.Cmp(depositPaid) != 0 {
		t.Fatalf("TokenPaymasterV07's deposit went down by %s; its operations cost %s", got, depositPaid)
	}
}

package paymaster

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// feeToken is a FeeToken deployed on e's devnet with fee feeBps, accepted
// for gas by the TokenPaymaster at dUSDPerETH and the default markup.
func (e *env) feeToken(feeBps int64) common.Address {
	e.t.Helper()
	ft := contracts.NewFeeToken()
	addr := e.deploy(append(common.FromHex(contracts.FeeTokenMetaData.Bin), ft.PackConstructor(big.NewInt(feeBps))...))
	e.restart(func(c *Config) {
		c.TokenPaymaster = e.chain.Contracts.TokenPaymaster
		c.Tokens = []Token{{Address: addr, Price: dUSDPerETH}}
	})
	return addr
}

// feeAccount is a deployed account holding units of the FeeToken at
// token, with an unlimited allowance to the TokenPaymaster (set by the
// type 0 operation that deploys it).
func (e *env) feeAccount(token common.Address, units int64) account {
	e.t.Helper()
	a := e.newAccount()
	ft, sa := contracts.NewFeeToken(), contracts.NewSimpleAccount()
	e.send(e.chain.Accounts[1].Key, token, ft.PackMint(a.sender, big.NewInt(units)), 100_000)
	call := sa.PackExecute(token, new(big.Int), ft.PackApprove(e.chain.Contracts.TokenPaymaster, new(big.Int).Lsh(big.NewInt(1), 255)))
	if l := e.bundleAs(a, e.sponsorAs(unsigned(a, 0, true, call), map[string]any{"type": 0})); !l.event.Success {
		e.t.Fatal("deploying the account failed")
	}
	return a
}

// feeBalance is addr's balance of the FeeToken at token.
func (e *env) feeBalance(token, addr common.Address) *big.Int {
	e.t.Helper()
	ft := contracts.NewFeeToken()
	var out hexutil.Bytes
	e.ethCall(token, ft.PackBalanceOf(addr), &out)
	b, err := ft.UnpackBalanceOf(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// A token that keeps a fee on transfer, as a gas token of types 1 and 2:
// whether its fee is there when it is configured or switched on between
// signing and bundling, the TokenPaymaster receives every token unit it
// charges, and its deposit pays nothing for an operation it did not
// charge. A fee there at first contact is found by the service's probe
// (probeDelivery), which refuses the token (-32501, and unavailable in
// pm_supported_tokens); a fee switched on after signing makes the token
// paymaster refuse the transfer on chain, and the bundle reverts. Without
// a fee the operation lands and is charged. (Before the token paymaster
// measured what it received, type 1 kept the fee short of its prepayment
// and refunded in full, and type 2 collected the cost less the fee.)
func TestTokenGasFeeOnTransfer(t *testing.T) {
	t.Parallel()
	rate := big.NewInt(3_150_000_000) // 3,000 per ETH, 6 decimals, 5% markup
	tests := []struct {
		name      string
		ty        int
		fee       int64 // basis points, when configured
		feeLater  int64 // basis points, switched on after signing
		wantLands bool
		refused   string // the refusal before signing, if any
	}{
		{"type 1, no fee", TypePrepay, 0, 0, true, ""},
		{"type 2, no fee", TypePostpay, 0, 0, true, ""},
		{"type 1, 10% fee", TypePrepay, 1000, 0, false, "delivers 900000 of the 1000000 units sent to the token paymaster (a fee on transfer)"},
		{"type 2, 10% fee", TypePostpay, 1000, 0, false, "delivers 900000 of the 1000000 units sent to the token paymaster (a fee on transfer)"},
		{"type 1, fee switched on after signing", TypePrepay, 0, 1000, false, ""},
		{"type 2, fee switched on after signing", TypePostpay, 0, 1000, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			token := e.feeToken(tc.fee)
			a := e.feeAccount(token, 50_000_000)
			tpm := e.chain.Contracts.TokenPaymaster
			depBefore, collectedBefore := e.deposit(tpm), e.feeBalance(token, tpm)

			call := contracts.NewSimpleAccount().PackExecute(e.chain.Accounts[2].Address, new(big.Int), nil)
			res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(a, 1, false, call), e.chain.Contracts.EntryPoint.Hex(), map[string]any{"type": tc.ty, "token": token.Hex()})
			landed, charged := false, new(big.Int) // charged: GasPaidInToken's tokenCost
			if (res.Error != nil) != (tc.refused != "") || (res.Error != nil && (res.Error.Code != codePaymasterRejected || !strings.Contains(res.Error.Message, tc.refused))) {
				t.Fatalf("sponsor: %s %+v; want refused %q", res.Result, res.Error, tc.refused)
			}
			if tc.refused != "" {
				// pm_supported_tokens says why.
				res, _ := e.call(e.readOnly, "pm_supported_tokens", map[string]any{}, e.chain.Contracts.EntryPoint.Hex())
				var st SupportedTokens
				if res.Error != nil || json.Unmarshal(res.Result, &st) != nil || len(st.Tokens) != 1 || !strings.Contains(st.Tokens[0].Unavailable, tc.refused) || st.Tokens[0].Rate != "" {
					t.Fatalf("pm_supported_tokens: %s %+v", res.Result, res.Error)
				}
			} else {
				op := decodeOp(t, res.Result)
				if tc.feeLater > 0 {
					e.send(e.chain.Accounts[0].Key, token, contracts.NewFeeToken().PackSetFee(big.NewInt(tc.feeLater)), 100_000)
				}
				op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)
				ep, tp := contracts.NewEntryPoint(), contracts.NewTokenPaymaster()
				r := e.send(e.chain.Accounts[5].Key, e.chain.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, e.chain.Accounts[5].Address), 3_000_000)
				for _, l := range r.Logs {
					if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil && ev.Success {
						landed = true
					}
					if ev, err := tp.UnpackGasPaidInTokenEvent(l); err == nil {
						charged.Add(charged, ev.TokenCost)
					}
				}
				if r.Status != types.ReceiptStatusSuccessful {
					t.Logf("the bundle reverted")
				}
			}
			if landed != tc.wantLands {
				t.Fatalf("the operation landed: %v, want %v", landed, tc.wantLands)
			}
			// What the token paymaster charged, it received; and the
			// deposit paid nothing unless the operation landed and was
			// charged.
			depositPaid := new(big.Int).Sub(depBefore, e.deposit(tpm))
			collected := new(big.Int).Sub(e.feeBalance(token, tpm), collectedBefore)
			if collected.Cmp(charged) != 0 {
				t.Fatalf("the token paymaster charged %s token units and received %s (the deposit paid %s wei)", charged, collected, depositPaid)
			}
			if landed != (depositPaid.Sign() > 0) || landed != (charged.Sign() > 0) {
				t.Fatalf("landed %v: the deposit paid %s wei, %s token units charged", landed, depositPaid, charged)
			}
			t.Logf("deposit paid %s wei (%s token units at the signed rate), charged and received %s units", depositPaid, contracts.TokenCost(depositPaid, rate), collected)
		})
	}
}

// noOverrides is a node that refuses eth_call's state overrides, as some
// providers do.
type noOverrides struct{ Chain }

// overridesRefused is such a node's JSON-RPC error.
type overridesRefused struct{}

func (overridesRefused) Error() string  { return "state overrides are not supported" }
func (overridesRefused) ErrorCode() int { return -32602 }

func (c noOverrides) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if method == "eth_call" && len(args) > 2 {
		return overridesRefused{}
	}
	return c.Chain.CallContext(ctx, result, method, args...)
}

// A token the probe cannot run on (the node refuses state overrides) is
// accepted unprobed: a fee-free one is served, and a fee-taking one is
// still refused by the token paymaster in validation (type 1: -32501,
// AA33) rather than by the probe.
func TestTokenGasUnprobed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fee     int64
		refused string
	}{
		{"no fee", 0, ""},
		{"10% fee", 1000, "AA33 reverted: TokenPaymaster: token delivered less than sent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			token := e.feeToken(tc.fee)
			a := e.feeAccount(token, 50_000_000)
			e.restart(func(c *Config) { c.Chain = noOverrides{c.Chain} })
			res, _ := e.call(e.readOnly, "pm_supported_tokens", map[string]any{}, e.chain.Contracts.EntryPoint.Hex())
			var st SupportedTokens
			if res.Error != nil || json.Unmarshal(res.Result, &st) != nil || len(st.Tokens) != 1 || st.Tokens[0].Unavailable != "" {
				t.Fatalf("pm_supported_tokens: %s %+v; want the token available", res.Result, res.Error)
			}
			call := contracts.NewSimpleAccount().PackExecute(e.chain.Accounts[2].Address, new(big.Int), nil)
			res, _ = e.call(e.sponsor, "pm_sponsor_userop", unsigned(a, 1, false, call), e.chain.Contracts.EntryPoint.Hex(), map[string]any{"type": TypePrepay, "token": token.Hex()})
			if (res.Error != nil) != (tc.refused != "") || (res.Error != nil && (res.Error.Code != codePaymasterRejected || !strings.Contains(res.Error.Message, tc.refused))) {
				t.Fatalf("sponsor: %s %+v; want refused %q", res.Result, res.Error, tc.refused)
			}
		})
	}
}

package paymaster

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// dUSDPerETH is the devnet token's fixed test price: 3,000 dUSD per ETH.
var dUSDPerETH = big.NewRat(3000, 1)

// newTokenEnv is newEnv with the devnet's TokenPaymaster and dUSD
// accepted for gas at dUSDPerETH and the default markup.
func newTokenEnv(t *testing.T, projects ...Project) *env {
	t.Helper()
	e := newEnv(t, projects...)
	e.restart(func(c *Config) {
		c.TokenPaymaster = e.chain.Contracts.TokenPaymaster
		c.Tokens = []Token{{Address: e.chain.Token.Address, Price: dUSDPerETH}}
	})
	return e
}

// landed is what one bundled operation did.
type landed struct {
	receipt *types.Receipt
	event   *contracts.EntryPointUserOperationEvent
	paid    *contracts.TokenPaymasterGasPaidInToken // nil for type 0
}

// bundleAs signs op as a's owner and sends it in handleOps from account 5.
func (e *env) bundleAs(a account, op contracts.UserOperation) landed {
	e.t.Helper()
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)
	ep, tpm := contracts.NewEntryPoint(), contracts.NewTokenPaymaster()
	r := e.send(e.chain.Accounts[5].Key, e.chain.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, e.chain.Accounts[5].Address), 3_000_000)
	out := landed{receipt: r}
	for _, l := range r.Logs {
		if x, err := ep.UnpackUserOperationEventEvent(l); err == nil {
			out.event = x
		}
		if x, err := tpm.UnpackGasPaidInTokenEvent(l); err == nil {
			out.paid = x
		}
	}
	if r.Status != types.ReceiptStatusSuccessful || out.event == nil {
		e.t.Fatalf("handleOps: status %d, event %+v", r.Status, out.event)
	}
	return out
}

// sponsorAs asks for sponsorship of op under context sc and returns the
// signed operation.
func (e *env) sponsorAs(op x402.UserOperation, sc map[string]any) contracts.UserOperation {
	e.t.Helper()
	res, _ := e.call(e.sponsor, "pm_sponsor_userop", op, e.chain.Contracts.EntryPoint.Hex(), sc)
	if res.Error != nil {
		e.t.Fatalf("sponsor %v: %+v", sc, res.Error)
	}
	return decodeOp(e.t, res.Result)
}

// tokenBalance is addr's dUSD.
func (e *env) tokenBalance(addr common.Address) *big.Int {
	e.t.Helper()
	tok := contracts.NewDevUSD()
	var out hexutil.Bytes
	e.ethCall(e.chain.Token.Address, tok.PackBalanceOf(addr), &out)
	b, err := tok.UnpackBalanceOf(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// deposit is the EntryPoint deposit of pm.
func (e *env) deposit(pm common.Address) *big.Int {
	e.t.Helper()
	ep := contracts.NewEntryPoint()
	var out hexutil.Bytes
	e.ethCall(e.chain.Contracts.EntryPoint, ep.PackBalanceOf(pm), &out)
	b, _ := ep.UnpackBalanceOf(out)
	return b
}

// tokenAccount is a deployed account holding tokens dUSD units, with an
// unlimited allowance to the TokenPaymaster if approve is set; it is
// deployed by a type 0 operation.
func (e *env) tokenAccount(tokens int64, approve bool) account {
	e.t.Helper()
	a := e.newAccount()
	tok, sa := contracts.NewDevUSD(), contracts.NewSimpleAccount()
	if tokens > 0 {
		e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(a.sender, big.NewInt(tokens)), 100_000)
	}
	amount := new(big.Int)
	if approve {
		amount = new(big.Int).Lsh(big.NewInt(1), 255)
	}
	call := sa.PackExecute(e.chain.Token.Address, new(big.Int), tok.PackApprove(e.chain.Contracts.TokenPaymaster, amount))
	if l := e.bundleAs(a, e.sponsorAs(unsigned(a, 0, true, call), map[string]any{"type": 0})); !l.event.Success {
		e.t.Fatal("deploying the account failed")
	}
	return a
}

// An aa-native payment whose gas is paid in dUSD, under type 1 and type 2,
// on the devnet's EntryPoint: the payer's tokens move by exactly the price
// plus the gas charged at the signed rate, the TokenPaymaster collects the
// latter, which is worth at least what its deposit paid, and the project's
// ETH balance is not drawn.
func TestTokenGasPaysInToken(t *testing.T) {
	t.Parallel()
	const price = 1_000_000 // 1 dUSD
	for _, ty := range []int{TypePrepay, TypePostpay} {
		t.Run("type "+string(rune('0'+ty)), func(t *testing.T) {
			t.Parallel()
			e := newTokenEnv(t)
			a := e.tokenAccount(50_000_000, true)
			payee := e.chain.Accounts[2].Address
			tpm := e.chain.Contracts.TokenPaymaster
			base := e.usage("demo") // the type 0 deployment, landed
			op := e.sponsorAs(unsigned(a, 1, false, e.settleCall(e.chain.Token.Address, price)), map[string]any{"type": ty, "token": e.chain.Token.Address.Hex()})

			pm, terms, _, err := contracts.DecodeTokenPaymasterAndData(op.PaymasterAndData)
			wantRate := big.NewInt(3_150_000_000) // 3,000 dUSD per ETH, 6 decimals, 5% markup
			if err != nil || pm != tpm || int(terms.Mode) != ty || terms.Token != e.chain.Token.Address || terms.Rate.Cmp(wantRate) != 0 {
				t.Fatalf("paymasterAndData: %s %+v %v; want %s, mode %d, rate %s", pm, terms, err, tpm, ty, wantRate)
			}
			if u := e.usage("demo"); u.InFlight != 1 || u.Balance.Cmp(base.Balance) != 0 || u.SpentToday.Cmp(base.SpentToday) != 0 {
				t.Fatalf("after sponsoring: %+v; want 1 in flight and the project's balance untouched", u)
			}

			payerBefore, payeeBefore, tpmBefore, depBefore := e.tokenBalance(a.sender), e.tokenBalance(payee), e.tokenBalance(tpm), e.deposit(tpm)
			l := e.bundleAs(a, op)
			if !l.event.Success || l.paid == nil {
				t.Fatalf("operation: success %v, GasPaidInToken %+v", l.event.Success, l.paid)
			}
			charged := contracts.TokenCost(l.paid.GasCost, wantRate)
			if l.paid.TokenCost.Cmp(charged) != 0 || l.paid.Rate.Cmp(wantRate) != 0 || int(l.paid.Mode) != ty {
				t.Fatalf("GasPaidInToken %+v; want %s tokens for %s wei at %s", l.paid, charged, l.paid.GasCost, wantRate)
			}
			// The gas charged covers what the EntryPoint took from the
			// deposit, postOp included, ...
			depositPaid := new(big.Int).Sub(depBefore, e.deposit(tpm))
			if depositPaid.Cmp(l.event.ActualGasCost) != 0 || l.paid.GasCost.Cmp(depositPaid) < 0 {
				t.Fatalf("deposit paid %s, actualGasCost %s, charged for %s wei", depositPaid, l.event.ActualGasCost, l.paid.GasCost)
			}
			// ... and by no more than 10,000 gas at the operation's price.
			over := new(big.Int).Sub(l.paid.GasCost, depositPaid)
			if perGas := new(big.Int).Div(l.event.ActualGasCost, l.event.ActualGasUsed); over.Cmp(new(big.Int).Mul(perGas, big.NewInt(10_000))) > 0 {
				t.Fatalf("charged %s wei over the deposit's %s, more than 10,000 gas at %s wei", over, depositPaid, perGas)
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
				t.Fatalf("after landing: %+v; want nothing in flight and no ETH drawn", u)
			}
			t.Logf("type %d: bundle gas %d, actualGasUsed %s, actualGasCost %s wei, charged %s wei = %s dUSD units", ty, l.receipt.GasUsed, l.event.ActualGasUsed, l.event.ActualGasCost, l.paid.GasCost, charged)
		})
	}
}

// The gas of the same payment under types 0, 1 and 2, from receipts.
func TestTokenGasMeasured(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t)
	a := e.tokenAccount(50_000_000, true)
	for i, ty := range []int{TypeFree, TypePrepay, TypePostpay, TypeFree, TypePrepay, TypePostpay} {
		op := e.sponsorAs(unsigned(a, int64(i+1), false, e.settleCall(e.chain.Token.Address, 1_000_000)), map[string]any{"type": ty, "token": e.chain.Token.Address.Hex()})
		l := e.bundleAs(a, op)
		if !l.event.Success {
			t.Fatalf("type %d failed", ty)
		}
		t.Logf("type %d: handleOps gas %d, actualGasUsed %s", ty, l.receipt.GasUsed, l.event.ActualGasUsed)
	}
}

// A payer who cannot pay is refused before anything is signed or bundled,
// with a JSON-RPC error naming what is missing; so are unknown tokens and
// types, and token types on a paymaster that accepts no tokens.
func TestTokenGasRefusals(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t)
	plain := newEnv(t)
	ep := e.chain.Contracts.EntryPoint.Hex()
	dUSD := e.chain.Token.Address.Hex()
	rich := e.newAccount() // tokens, no allowance (not even deployed)
	tok := contracts.NewDevUSD()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(rich.sender, big.NewInt(50_000_000)), 100_000)
	poor := e.tokenAccount(0, true) // allowance, no tokens
	call := e.settleCall(e.chain.Token.Address, 1)
	tests := []struct {
		name string
		e    *env
		op   x402.UserOperation
		sc   map[string]any
		code x402.RPCErrorCode
		want string
	}{
		{"type 1 without allowance", e, unsigned(rich, 0, true, call), map[string]any{"type": 1, "token": dUSD}, codePaymasterRejected, "allowance"},
		{"type 2 without allowance", e, unsigned(rich, 0, true, call), map[string]any{"type": 2, "token": dUSD}, codePaymasterRejected, "allowance"},
		{"type 1 without balance", e, unsigned(poor, 1, false, call), map[string]any{"type": 1, "token": dUSD}, codePaymasterRejected, "balance"},
		{"type 2 without balance", e, unsigned(poor, 1, false, call), map[string]any{"type": 2, "token": dUSD}, codePaymasterRejected, "balance"},
		{"token not accepted", e, unsigned(rich, 0, true, call), map[string]any{"type": 1, "token": e.chain.Contracts.Settlement.Hex()}, codeInvalidParams, "not accepted"},
		{"no token", e, unsigned(rich, 0, true, call), map[string]any{"type": 2}, codeInvalidParams, "context.token"},
		{"type 3", e, unsigned(rich, 0, true, call), map[string]any{"type": 3, "token": dUSD}, codeInvalidParams, "unknown"},
		{"no tokens configured", plain, unsigned(rich, 0, true, call), map[string]any{"type": 1, "token": dUSD}, codeInvalidParams, "accepts no tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := tc.e.call(tc.e.sponsor, "pm_sponsor_userop", tc.op, ep, tc.sc)
			if res.Error == nil || res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.want) {
				t.Fatalf("got %s %+v, want %d naming %q", res.Result, res.Error, tc.code, tc.want)
			}
		})
	}
	if u, _ := e.svc.Usage(context.Background(), "demo"); u.InFlight != 0 {
		t.Fatalf("refusals reserved: %+v", u)
	}
}

// paymasterAndData changed after signing (a lower rate, another mode,
// another token, a longer window) fails the TokenPaymaster's validation:
// the EntryPoint refuses the bundle with AA34.
func TestTokenGasTamperedTerms(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t)
	a := e.tokenAccount(50_000_000, true)
	op := e.sponsorAs(unsigned(a, 1, false, e.settleCall(e.chain.Token.Address, 1)), map[string]any{"type": 1, "token": e.chain.Token.Address.Hex()})
	pm, terms, sig, err := contracts.DecodeTokenPaymasterAndData(op.PaymasterAndData)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(*contracts.TokenTerms, []byte)
	}{
		{"lower rate", func(t *contracts.TokenTerms, _ []byte) { t.Rate = big.NewInt(1) }},
		{"other mode", func(t *contracts.TokenTerms, _ []byte) { t.Mode = TypePostpay }},
		{"other token", func(t *contracts.TokenTerms, _ []byte) { t.Token = e.chain.Contracts.Settlement }},
		{"longer window", func(t *contracts.TokenTerms, _ []byte) { t.ValidUntil += 3600 }},
		{"forged signature", func(_ *contracts.TokenTerms, s []byte) { s[10] ^= 1 }},
	}
	ep := contracts.NewEntryPoint()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := op
			tt, s := terms, append([]byte(nil), sig...)
			tt.Rate = new(big.Int).Set(terms.Rate)
			tc.change(&tt, s)
			bad.PaymasterAndData = contracts.TokenPaymasterAndData(pm, tt, s)
			bad.Signature, _ = contracts.SignHash(contracts.UserOpHash(bad, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)
			msg := map[string]any{"from": e.chain.Accounts[5].Address, "to": e.chain.Contracts.EntryPoint, "data": hexutil.Bytes(ep.PackHandleOps([]contracts.UserOperation{bad}, e.chain.Accounts[5].Address)), "gas": hexutil.Uint64(3_000_000)}
			var out hexutil.Bytes
			err := e.rpc.Call(&out, "eth_call", msg, "latest")
			data := revertData(err)
			res, _ := ep.UnpackError(data)
			if f, ok := res.(*contracts.EntryPointFailedOp); !ok || !strings.HasPrefix(f.Reason, "AA34") {
				t.Fatalf("handleOps: %v %v; want FailedOp AA34", err, res)
			}
		})
	}
}

// A type 2 operation that spends the tokens its gas is owed from (or
// revokes the allowance) cannot make the deposit pay for free: postOp
// fails, the EntryPoint undoes the operation and postOp charges the gas
// again from the tokens as they were.
func TestTokenGasPostpayCannotDodge(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t)
	tok, sa := contracts.NewDevUSD(), contracts.NewSimpleAccount()
	sink := e.chain.Accounts[3].Address
	tests := []struct {
		name string
		call func(a account) []byte
	}{
		{"spends every token", func(a account) []byte {
			return sa.PackExecute(e.chain.Token.Address, new(big.Int), tok.PackTransfer(sink, big.NewInt(50_000_000)))
		}},
		{"revokes the allowance", func(a account) []byte {
			return sa.PackExecute(e.chain.Token.Address, new(big.Int), tok.PackApprove(e.chain.Contracts.TokenPaymaster, new(big.Int)))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := e.tokenAccount(50_000_000, true)
			op := e.sponsorAs(unsigned(a, 1, false, tc.call(a)), map[string]any{"type": 2, "token": e.chain.Token.Address.Hex()})
			tpm := e.chain.Contracts.TokenPaymaster
			before, depBefore := e.tokenBalance(a.sender), e.deposit(tpm)
			l := e.bundleAs(a, op)
			if l.event.Success || l.paid == nil {
				t.Fatalf("want the operation undone and charged: success %v, paid %+v", l.event.Success, l.paid)
			}
			paid := new(big.Int).Sub(before, e.tokenBalance(a.sender))
			spent := new(big.Int).Sub(depBefore, e.deposit(tpm))
			if paid.Cmp(l.paid.TokenCost) != 0 || paid.Cmp(contracts.TokenCost(spent, l.paid.Rate)) < 0 {
				t.Fatalf("the payer paid %s units (charged %s) for %s wei of deposit", paid, l.paid.TokenCost, spent)
			}
		})
	}
}

// pm_supported_tokens lists dUSD with its symbol, decimals, types and
// price (markup included).
func TestTokenGasSupportedTokens(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t)
	res, _ := e.call(e.readOnly, "pm_supported_tokens", map[string]any{}, e.chain.Contracts.EntryPoint.Hex())
	if res.Error != nil {
		t.Fatal(res.Error)
	}
	var st SupportedTokens
	if err := json.Unmarshal(res.Result, &st); err != nil {
		t.Fatal(err)
	}
	want := SupportedToken{
		Token: e.chain.Token.Address.Hex(), Symbol: "dUSD", Decimals: 6, Types: []int{1, 2}, Price: "3150.000000", Rate: "3150000000",
		MarkupBps: 500, RateValidity: 300, Source: "fixed", Paymaster: e.chain.Contracts.TokenPaymaster.Hex(),
		Paymasters: map[string]string{"0.6": e.chain.Contracts.TokenPaymaster.Hex()},
	}
	if len(st.Tokens) != 1 || !tokenEqual(st.Tokens[0], want) {
		t.Fatalf("tokens %+v, want %+v", st.Tokens, want)
	}
}

func tokenEqual(a, b SupportedToken) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// FuzzDecodeSymbol: whatever a token's symbol() answers, decodeSymbol
// returns at most 32 printable ASCII characters, without a panic.
func FuzzDecodeSymbol(f *testing.F) {
	abiString := append(common.LeftPadBytes([]byte{32}, 32), common.LeftPadBytes([]byte{4}, 32)...)
	f.Add(append(abiString, common.RightPadBytes([]byte("dUSD"), 32)...))
	f.Add(common.RightPadBytes([]byte("MKR"), 32))
	f.Add(append(common.LeftPadBytes([]byte{32}, 32), bytes32Max()...))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, out []byte) {
		s := decodeSymbol(out)
		if len(s) > 32 {
			t.Fatalf("%q is over 32 characters", s)
		}
		for _, c := range []byte(s) {
			if c < 0x20 || c >= 0x7f {
				t.Fatalf("%q has an unprintable byte", s)
			}
		}
	})
}

func bytes32Max() []byte {
	b := make([]byte, 32)
	for i := range b {
		b[i] = 0xff
	}
	return b
}

func TestDecodeSymbol(t *testing.T) {
	t.Parallel()
	abiString := append(common.LeftPadBytes([]byte{32}, 32), common.LeftPadBytes([]byte{4}, 32)...)
	tests := []struct {
		name string
		out  []byte
		want string
	}{
		{"string", append(abiString, common.RightPadBytes([]byte("dUSD"), 32)...), "dUSD"},
		{"bytes32", common.RightPadBytes([]byte("MKR"), 32), "MKR"},
		{"short", abiString, ""},
		{"empty", nil, ""},
	}
	for _, tc := range tests {
		if got := decodeSymbol(tc.out); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// deploy creates a contract from account 0 and returns its address.
func (e *env) deploy(code []byte) common.Address {
	e.t.Helper()
	ctx := context.Background()
	key := e.chain.Accounts[0].Key
	nonce, _ := e.eth.PendingNonceAt(ctx, e.chain.Accounts[0].Address)
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, Data: code, Gas: 1_000_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	r, err := e.chain.Wait(ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("deploying: %v %+v", err, r)
	}
	return r.ContractAddress
}

// A token priced by a Chainlink feed: a fresh round prices it (8-decimal
// ETH/USD to a 6-decimal token, plus the markup); a stale round, or an
// answer that is not positive, takes it off pm_supported_tokens' prices
// and refuses its sponsorship with -32501, nothing reserved.
func TestTokenGasPriceFeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	feed := contracts.NewSettablePriceFeed()
	now := e.svc.cfg.Now().Unix()
	addr := e.deploy(append(common.FromHex(contracts.SettablePriceFeedMetaData.Bin), feed.PackConstructor(8, big.NewInt(2_500_00000000), big.NewInt(now))...))
	markup := 100 // 1%
	e.restart(func(c *Config) {
		c.TokenPaymaster = e.chain.Contracts.TokenPaymaster
		c.Tokens = []Token{{Address: e.chain.Token.Address, Feed: addr, FeedMaxAge: time.Hour, MarkupBps: &markup}}
	})
	a := e.tokenAccount(50_000_000, true)
	supported := func() SupportedToken {
		res, _ := e.call(e.readOnly, "pm_supported_tokens", map[string]any{}, e.chain.Contracts.EntryPoint.Hex())
		var st SupportedTokens
		if res.Error != nil || json.Unmarshal(res.Result, &st) != nil || len(st.Tokens) != 1 {
			t.Fatalf("pm_supported_tokens: %s %+v", res.Result, res.Error)
		}
		return st.Tokens[0]
	}
	if got := supported(); got.Price != "2525.000000" || got.Rate != "2525000000" || got.Source != "feed" || got.Unavailable != "" {
		t.Fatalf("fresh feed: %+v", got)
	}
	op := e.sponsorAs(unsigned(a, 1, false, e.settleCall(e.chain.Token.Address, 1)), map[string]any{"type": 2, "token": e.chain.Token.Address.Hex()})
	if _, terms, _, _ := contracts.DecodeTokenPaymasterAndData(op.PaymasterAndData); terms.Rate.Int64() != 2_525_000_000 {
		t.Fatalf("signed rate %s", terms.Rate)
	}
	if l := e.bundleAs(a, op); !l.event.Success || l.paid == nil {
		t.Fatal("the feed-priced operation failed")
	}
	tests := []struct {
		name    string
		answer  int64
		updated int64
		want    string
	}{
		{"stale", 2_500_00000000, now - 2*3600, "last updated"},
		{"zero", 0, now, "not positive"},
		{"negative", -1, now, "not positive"},
	}
	for i, tc := range tests {
		e.send(e.chain.Accounts[0].Key, addr, feed.PackSet(big.NewInt(tc.answer), big.NewInt(tc.updated)), 100_000)
		if got := supported(); got.Price != "" || !strings.Contains(got.Unavailable, tc.want) || got.Symbol != "dUSD" {
			t.Fatalf("%s: %+v", tc.name, got)
		}
		res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(a, int64(2+i), false, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex(), map[string]any{"type": 1, "token": e.chain.Token.Address.Hex()})
		if res.Error == nil || res.Error.Code != codePaymasterRejected || !strings.Contains(res.Error.Message, tc.want) {
			t.Fatalf("%s: sponsor %s %+v", tc.name, res.Result, res.Error)
		}
	}
	if u := e.usage("demo"); u.InFlight != 0 {
		t.Fatalf("refusals reserved: %+v", u)
	}
}

// ERC-7677 with {type, token}: the stub names the TokenPaymaster with the
// current rate and 150 bytes, so gas estimated with it fits; the real data
// is signed for the gas as given and lands, paid in tokens.
func TestTokenGasERC7677(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t)
	a := e.tokenAccount(50_000_000, true)
	ep, chain := e.chain.Contracts.EntryPoint.Hex(), hexutil.EncodeBig(e.chain.ChainID)
	sc := map[string]any{"type": 2, "token": e.chain.Token.Address.Hex()}
	op := unsigned(a, 1, false, e.settleCall(e.chain.Token.Address, 1))
	res, _ := e.call(e.sponsor, "pm_getPaymasterStubData", op, ep, chain, sc)
	var stub PaymasterData
	if res.Error != nil || json.Unmarshal(res.Result, &stub) != nil {
		t.Fatalf("stub: %s %+v", res.Result, res.Error)
	}
	pm, terms, _, err := contracts.DecodeTokenPaymasterAndData(stub.PaymasterAndData)
	if err != nil || pm != e.chain.Contracts.TokenPaymaster || terms.Mode != 2 || terms.Rate.Int64() != 3_150_000_000 {
		t.Fatalf("stub paymasterAndData %x: %+v %v", stub.PaymasterAndData, terms, err)
	}
	filled := e.sponsorAs(op, sc) // the gas fields as a wallet would estimate them
	op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas = hexutil.EncodeBig(filled.CallGasLimit), hexutil.EncodeBig(filled.VerificationGasLimit), hexutil.EncodeBig(filled.PreVerificationGas)
	op.MaxFeePerGas, op.MaxPriorityFeePerGas = hexutil.EncodeBig(filled.MaxFeePerGas), hexutil.EncodeBig(filled.MaxPriorityFeePerGas)
	res, _ = e.call(e.sponsor, "pm_getPaymasterData", op, ep, chain, sc)
	var data PaymasterData
	if res.Error != nil || json.Unmarshal(res.Result, &data) != nil {
		t.Fatalf("data: %s %+v", res.Result, res.Error)
	}
	op.PaymasterAndData = "0x"
	final, err := contracts.UserOperationHex(op).Decode(false)
	if err != nil {
		t.Fatal(err)
	}
	final.PaymasterAndData = data.PaymasterAndData
	if l := e.bundleAs(a, final); !l.event.Success || l.paid == nil || l.paid.Mode != 2 {
		t.Fatalf("the ERC-7677 operation: success %v, paid %+v", l.event.Success, l.paid)
	}
}

package facilitator

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// gasAccount deploys devnet account k's smart account (salt 0) of the
// v0.6 factory, or with v07 the v0.7 one, by a plain transaction from its
// owner, who then has it approve the token paymaster of its version
// without limit; it returns the owner's key and the account.
func (e *env) gasAccount(k int, v07 bool) (*ecdsa.PrivateKey, common.Address) {
	e.t.Helper()
	owner := e.chain.Accounts[k]
	c := e.chain.Contracts
	factory, account, tpm := c.AccountFactory, c.SmartAccounts[k], c.TokenPaymaster
	create := contracts.NewSimpleAccountFactory().PackCreateAccount(owner.Address, new(big.Int))
	approve := contracts.NewDevUSD().PackApprove(tpm, new(big.Int).Lsh(big.NewInt(1), 255))
	execute := contracts.NewSimpleAccount().PackExecute(e.chain.Token.Address, new(big.Int), approve)
	if v07 {
		factory, account, tpm = c.AccountFactoryV07, c.SmartAccountsV07[k], c.TokenPaymasterV07
		create = ep07.NewSimpleAccountFactory().PackCreateAccount(owner.Address, new(big.Int))
		approve = contracts.NewDevUSD().PackApprove(tpm, new(big.Int).Lsh(big.NewInt(1), 255))
		execute = ep07.NewSimpleAccount().PackExecute(e.chain.Token.Address, new(big.Int), approve)
	}
	for _, tx := range []struct {
		to   common.Address
		data []byte
	}{{factory, create}, {account, execute}} {
		sent := e.transferGas(owner.Key, tx.to, tx.data, 500_000)
		if r, err := e.chain.Wait(context.Background(), sent.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
			e.t.Fatalf("preparing the account: %v %v", r, err)
		}
	}
	return owner.Key, account
}

// payInToken signs a payment of req whose gas is paid in dUSD under type
// ty, through /sponsor.
func (e *env) payInToken(key *ecdsa.PrivateKey, req x402.PaymentRequirements, ty int, v07 bool) *x402.VerifyRequest {
	e.t.Helper()
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(1 << 40), Schemes: []string{x402.SchemeAANative}, RPC: e.chain.URL,
		Gas: x402.SponsorContext{Type: ty, Token: e.chain.Token.Address.Hex()}}
	if v07 {
		tr.EntryPointVersions = []string{"0.7"}
	}
	p, err := tr.PayAANative(context.Background(), &x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{req}}, &req)
	if err != nil {
		e.t.Fatal(err)
	}
	return &x402.VerifyRequest{X402Version: 2, PaymentPayload: *p, PaymentRequirements: req}
}

// gasPaid is the tokenCost of the GasPaidInToken event that the token
// paymaster tpm logged in r, nil if none.
func gasPaid(r *types.Receipt, tpm common.Address, v07 bool) *big.Int {
	for _, l := range r.Logs {
		if l.Address != tpm {
			continue
		}
		if v07 {
			if ev, err := ep07.NewTokenPaymasterV07().UnpackGasPaidInTokenEvent(l); err == nil {
				return ev.TokenCost
			}
		} else if ev, err := contracts.NewTokenPaymaster().UnpackGasPaidInTokenEvent(l); err == nil {
			return ev.TokenCost
		}
	}
	return nil
}

// An aa-native payment whose gas the payer pays in dUSD, the payment's
// token, under types 1 and 2, on EntryPoint v0.6 and v0.7, through
// /sponsor, /verify and /settle: the merchant gets exactly the price, the
// payer's dUSD moves by the price and the GasPaidInToken tokenCost
// exactly, a second settle answers the same transaction, and the paymaster
// project's ETH is not drawn (but for type 2 on v0.7, which the paymaster
// holds until it sees the gas paid).
func TestAANativeGasInToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, gasTokens: true})
	merchant := e.chain.Accounts[3].Address
	const amount = 5_000
	ctx := context.Background()
	for _, v07 := range []bool{false, true} {
		version, tpm, req := "0.6", e.chain.Contracts.TokenPaymaster, e.aaRequirements(merchant, amount)
		if v07 {
			version, tpm, req = "0.7", e.chain.Contracts.TokenPaymasterV07, e.aaRequirementsV07(merchant, amount)
		}
		owner, account := e.gasAccount(5, v07)
		for _, ty := range []int{x402.SponsorPrepay, x402.SponsorPostpay} {
			base, err := e.pm.Usage(ctx, "demo")
			if err != nil {
				t.Fatal(err)
			}
			merchantBefore, payerBefore := e.balance(merchant), e.balance(account)
			pay := e.payInToken(owner, req, ty, v07)
			var vr x402.VerifyResponse
			e.post("verify", pay, &vr)
			if !vr.IsValid {
				t.Fatalf("v%s type %d: verify %+v", version, ty, vr)
			}
			var res, again x402.SettleResponse
			e.post("settle", pay, &res)
			if !res.Success || res.TransactionHash == "" {
				t.Fatalf("v%s type %d: settle %+v", version, ty, res)
			}
			if e.post("settle", pay, &again); again.Success && again.TransactionHash != res.TransactionHash {
				t.Fatalf("v%s type %d: a second settle answered another transaction %s", version, ty, again.TransactionHash)
			}
			r, err := e.eth.TransactionReceipt(ctx, common.HexToHash(res.TransactionHash))
			if err != nil {
				t.Fatal(err)
			}
			gas := gasPaid(r, tpm, v07)
			if gas == nil || gas.Sign() <= 0 {
				t.Fatalf("v%s type %d: no GasPaidInToken from %s", version, ty, tpm)
			}
			if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Int64() != amount {
				t.Fatalf("v%s type %d: merchant got %s, want %d", version, ty, got, amount)
			}
			if paid, want := new(big.Int).Sub(payerBefore, e.balance(account)), new(big.Int).Add(big.NewInt(amount), gas); paid.Cmp(want) != 0 {
				t.Fatalf("v%s type %d: payer paid %s, want the price %d and the gas %s", version, ty, paid, amount, gas)
			}
			u, err := e.pm.Usage(ctx, "demo")
			if err != nil {
				t.Fatal(err)
			}
			if drawn := u.Balance.Cmp(base.Balance) != 0; drawn && (!v07 || ty != x402.SponsorPostpay) {
				t.Fatalf("v%s type %d: the project's balance went from %s to %s", version, ty, base.Balance, u.Balance)
			}
			t.Logf("aa-native v%s, gas in dUSD type %d: bundle gas %d, %s dUSD units of gas", version, ty, r.GasUsed, gas)
		}
	}
}

// An aa-native payment whose gas is paid in the payment's token is
// refused, before anything is sent, when the account holds the price but
// not the price and the operation's maximum gas (type 1 takes the latter
// in validation, before the settle runs), and verifies once it holds both
// to the unit. An operation naming a token paymaster that is not this
// EntryPoint's is refused; so is sponsorship in a token the paymaster does
// not take, or of an unknown type.
func TestAANativeGasInTokenRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, gasTokens: true})
	merchant := e.chain.Accounts[3].Address
	const amount = 5_000
	req := e.aaRequirements(merchant, amount)
	ownerKey, account := e.gasAccount(6, false)

	// An operation naming a token paymaster that is not its EntryPoint's.
	pay := e.payInToken(ownerKey, req, x402.SponsorPostpay, false)
	var aa x402.AANativePayload
	json.Unmarshal(pay.PaymentPayload.Payload, &aa)
	other, _ := contracts.UserOperationHex(aa.UserOp).Decode(false)
	// v0.7's token paymaster named on v0.6.
	other.PaymasterAndData = append(e.chain.Contracts.TokenPaymasterV07.Bytes(), other.PaymasterAndData[20:]...)
	var vr x402.VerifyResponse
	e.post("verify", e.resign(pay, aa, other, ownerKey), &vr)
	if vr.IsValid || vr.InvalidReason != x402.ReasonInvalidInnerPayload || !strings.Contains(vr.InvalidMessage, "not sponsored by this facilitator's paymaster") {
		t.Fatalf("%+v", vr)
	}
	// Sponsorship in a token the paymaster does not take, or of an unknown type.
	for _, c := range []struct {
		name string
		gas  x402.SponsorContext
		msg  string
	}{
		{"a token the paymaster does not take", x402.SponsorContext{Type: 1, Token: e.chain.Contracts.PermitToken.Hex()}, "gas token is not accepted"},
		{"an unknown type", x402.SponsorContext{Type: 3, Token: e.chain.Token.Address.Hex()}, "context.type"},
		{"a token type without a token", x402.SponsorContext{Type: 2}, "context.token"},
	} {
		tr := &client.Transport{Key: ownerKey, MaxAmount: big.NewInt(1 << 40), Schemes: []string{x402.SchemeAANative}, RPC: e.chain.URL, Gas: c.gas}
		_, err := tr.PayAANative(context.Background(), &x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{req}}, &req)
		if err == nil || !strings.Contains(err.Error(), "-32602") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// The price but not the gas.
	pay, aa = e.payInToken(ownerKey, req, x402.SponsorPrepay, false), x402.AANativePayload{}
	json.Unmarshal(pay.PaymentPayload.Payload, &aa)
	op, err := contracts.UserOperationHex(aa.UserOp).Decode(false)
	if err != nil {
		t.Fatal(err)
	}
	_, terms, _, _ := contracts.DecodeTokenPaymasterAndData(op.PaymasterAndData)
	gas := new(big.Int).Mul(op.VerificationGasLimit, big.NewInt(3))
	gas.Add(gas, op.CallGasLimit).Add(gas, op.PreVerificationGas).Add(gas, big.NewInt(contracts.TokenMaxPostOpGas(terms.Mode)))
	maxGas := contracts.TokenCost(gas.Mul(gas, op.MaxFeePerGas), terms.Rate)
	// The account keeps the price and the maximum gas but one unit.
	keep := new(big.Int).Add(big.NewInt(amount), maxGas)
	keep.Sub(keep, big.NewInt(1))
	away := new(big.Int).Sub(e.balance(account), keep)
	drain := contracts.NewSimpleAccount().PackExecute(e.chain.Token.Address, new(big.Int), contracts.NewDevUSD().PackTransfer(e.chain.Accounts[9].Address, away))
	if r, err := e.chain.Wait(context.Background(), e.transferGas(ownerKey, account, drain, 200_000).Hash()); err != nil || r.Status != 1 {
		t.Fatalf("draining: %v %v", r, err)
	}
	merchantBefore := e.balance(merchant)
	vr = x402.VerifyResponse{}
	e.post("verify", pay, &vr)
	if vr.IsValid || vr.InvalidReason != x402.ReasonInvalidInnerPayload || !strings.Contains(vr.InvalidMessage, "insufficient balance") {
		t.Fatalf("verify with %s for a price of %d and gas up to %s: %+v", keep, amount, maxGas, vr)
	}
	var res x402.SettleResponse
	e.post("settle", pay, &res)
	if res.Success || res.ErrorCode != x402.ErrorVerifyFailed || res.TransactionHash != "" || e.balance(merchant).Cmp(merchantBefore) != 0 {
		t.Fatalf("settle: %+v", res)
	}
	// One unit more, and it pays.
	top := e.transferGas(e.chain.Accounts[9].Key, e.chain.Token.Address, contracts.NewDevUSD().PackTransfer(account, big.NewInt(1)), 100_000)
	if _, err := e.chain.Wait(context.Background(), top.Hash()); err != nil {
		t.Fatal(err)
	}
	if e.post("settle", pay, &res); !res.Success {
		t.Fatalf("settle with the price and the maximum gas: %+v", res)
	}
	if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Int64() != amount {
		t.Fatalf("merchant got %s", got)
	}
}

// A settlement whose gas is paid in the payment's token, left pending by a
// restart, is counted against the payer's balance by the new process at
// its price and maximum gas, as the process that signed it counted it, and
// released once the settlement is final.
func TestAANativeGasInTokenRestartReserves(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, gasTokens: true, blockPeriod: 2 * time.Second, receiptTimeout: 50 * time.Millisecond})
	merchant := e.chain.Accounts[3].Address
	const amount = 5_000
	owner, account := e.gasAccount(6, false)
	req := e.aaRequirements(merchant, amount)
	var (
		pending *x402.VerifyRequest
		p       *payment
		rec     *store.Record
	)
	for attempt := 0; ; attempt++ {
		var err error
		pending, _, _ = e.settlePending(func(int) *x402.VerifyRequest {
			return e.payInToken(owner, req, x402.SponsorPrepay, false)
		})
		if p, err = e.svc.decode(pending); err != nil {
			t.Fatal(err)
		}
		if p.reserve.Cmp(p.amount) <= 0 {
			t.Fatalf("a payment with gas in its token reserves %s, no more than its price %s", p.reserve, p.amount)
		}
		rec, err = e.svc.store.Get(p.key)
		if err != nil || rec == nil || rec.Reserve == nil || rec.Reserve.Cmp(p.reserve) != 0 {
			t.Fatalf("pending record %+v (%v), want reserve %s", rec, err, p.reserve)
		}
		e.stop()
		e.cfg.ReceiptTimeout = 20 * time.Second
		e.start()
		got := e.svc.payers.committed(account, e.chain.Token.Address)
		if got.Cmp(p.reserve) == 0 {
			break
		}
		// On a loaded machine the 2 s block can come before the restart's
		// count: the settlement is then final and holds nothing, and the
		// payer tries again.
		if r, _ := e.eth.TransactionReceipt(context.Background(), rec.TxHash); r == nil || attempt == 3 {
			t.Fatalf("after the restart the payer's settlements in flight hold %s, want the price and maximum gas %s", got, p.reserve)
		}
		e.stop()
		e.cfg.ReceiptTimeout = 50 * time.Millisecond
		e.start()
	}
	var done x402.SettleResponse
	if e.post("settle", pending, &done); !done.Success || done.TransactionHash != rec.TxHash.Hex() {
		t.Fatalf("the pending settlement after the restart: %+v, want %s", done, rec.TxHash.Hex())
	}
	if got := e.svc.payers.committed(account, e.chain.Token.Address); got.Sign() != 0 {
		t.Fatalf("a final settlement still holds %s of the payer's balance", got)
	}
}

// A payer whose gas is paid in dUSD revokes its allowance to the token
// paymaster just after its bundle is broadcast, with a higher tip: its
// operation fails validation when the bundle is mined, and the EntryPoint
// reverts the whole bundle at the settler's cost. The facilitator finds
// the operation in the bundle's trace (or, on a node without the debug
// namespace, by running the bundle again on the state after its block),
// answers verify_failed, and puts the payer in the penalty box: the same
// payment, its allowance restored, is refused, and the settler sends
// nothing more for it.
func TestAANativeGasInTokenFrontRunPenalized(t *testing.T) {
	t.Parallel()
	for _, v07 := range []bool{false, true} {
		name := "v0.6"
		if v07 {
			name = "v0.7"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envOptions{aaNative: true, gasTokens: true, blockPeriod: time.Second})
			ctx := context.Background()
			merchant, settler := e.chain.Accounts[3].Address, e.svc.Settler()
			owner, account := e.gasAccount(5, v07)
			tpm, req, execute := e.chain.Contracts.TokenPaymaster, e.aaRequirements(merchant, 5_000), contracts.NewSimpleAccount().PackExecute
			if v07 {
				tpm, req, execute = e.chain.Contracts.TokenPaymasterV07, e.aaRequirementsV07(merchant, 5_000), ep07.NewSimpleAccount().PackExecute
			}
			approve := func(amount *big.Int, tip int64) *types.Transaction {
				return e.transfer(owner, account, nil, execute(e.chain.Token.Address, new(big.Int), contracts.NewDevUSD().PackApprove(tpm, amount)), tip)
			}
			// The revocation must reach the pool before the block that
			// would mine the bundle is sealed; on a loaded machine the
			// block can come first (the payment then settles), and the
			// payer tries again.
			var (
				pay         *x402.VerifyRequest
				res         x402.SettleResponse
				nonceBefore uint64
			)
			for attempt := 0; ; attempt++ {
				pay = e.payInToken(owner, req, x402.SponsorPrepay, v07)
				var revoke *types.Transaction
				res, nonceBefore = e.settleRacing(pay, func() { revoke = approve(new(big.Int), 50e9) })
				if r, err := e.chain.Wait(ctx, revoke.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
					t.Fatalf("revoking: %v %v", r, err)
				}
				if r, err := e.chain.Wait(ctx, approve(new(big.Int).Lsh(big.NewInt(1), 255), 1e9).Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
					t.Fatalf("restoring the allowance: %v %v", r, err)
				}
				if res.Success && attempt < 4 {
					continue // mined before the revocation arrived
				}
				break
			}
			if res.Success || res.ErrorCode != x402.ErrorVerifyFailed || !strings.Contains(res.Message, "failed validation when its bundle was mined") {
				t.Fatalf("the front-run settlement: %+v", res)
			}
			receipt, err := e.eth.TransactionReceipt(ctx, common.HexToHash(res.TransactionHash))
			if err != nil || receipt.Status != types.ReceiptStatusFailed {
				t.Fatalf("the bundle: %+v %v, want a reverted one", receipt, err)
			}
			// A node without the debug namespace: the bundle run again on
			// the state after its block names the same operation.
			eps := []entrypoint.EntryPoint{entrypoint.NewV06(e.chain.Contracts.EntryPoint), entrypoint.NewV07(e.chain.Contracts.EntryPointV07)}
			for _, c := range []bundler.Caller{e.rpc, noDebug{e.rpc}} {
				got, err := bundler.FindCulprit(ctx, c, receipt, eps)
				if err != nil || got.Sender != account || got.Index != 0 || !strings.HasPrefix(got.Reason, "AA33") {
					t.Fatalf("FindCulprit through %T: %+v %v, want %s's operation, AA33", c, got, err, account)
				}
			}
			var v x402.VerifyResponse
			if e.post("verify", pay, &v); v.IsValid || !strings.Contains(v.InvalidMessage, "reverted on chain recently") {
				t.Fatalf("the same payment, its allowance restored: %+v", v)
			}
			var again x402.SettleResponse
			e.post("settle", pay, &again)
			if nonceAfter, _ := e.eth.PendingNonceAt(ctx, settler); again.Success || nonceAfter != nonceBefore+1 {
				t.Fatalf("settle in the penalty box: %+v; the settler sent %d transactions", again, nonceAfter-nonceBefore)
			}
		})
	}
}

// noDebug is a node without the debug namespace.
type noDebug struct{ c bundler.Caller }

func (n noDebug) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if strings.HasPrefix(method, "debug_") {
		return errors.New("the method " + method + " does not exist/is not available")
	}
	return n.c.CallContext(ctx, result, method, args...)
}

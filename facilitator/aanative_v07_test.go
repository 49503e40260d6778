package facilitator

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/x402"
)

// aaRequirementsV07 is aaRequirements for the devnet's EntryPoint v0.7.
func (e *env) aaRequirementsV07(payTo common.Address, amount int64) x402.PaymentRequirements {
	req := e.aaRequirements(payTo, amount)
	c := e.chain.Contracts
	req.Extra = &x402.Extra{EntryPoint: c.EntryPointV07.Hex(), EntryPointVersion: "0.7", Factory: c.AccountFactoryV07.Hex(),
		Settlement: c.Settlement.Hex(), SponsorURL: e.srv.URL + "/sponsor"}
	return req
}

// aaPayV07 is aaPay with a transport that pays v0.7 offers only.
func (e *env) aaPayV07(key *ecdsa.PrivateKey, req x402.PaymentRequirements) *x402.VerifyRequest {
	e.t.Helper()
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(1 << 40), Schemes: []string{x402.SchemeAANative}, RPC: e.chain.URL, EntryPointVersions: []string{"0.7"}}
	p, err := tr.PayAANative(context.Background(), &x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{req}}, &req)
	if err != nil {
		e.t.Fatal(err)
	}
	return &x402.VerifyRequest{X402Version: 2, PaymentPayload: *p, PaymentRequirements: req}
}

// TestAANativeV07 pays the same merchant from a key's v0.6 and v0.7 smart
// accounts through /sponsor, /verify and /settle on the devnet: each
// settles once (a second settle answers the same transaction, and the
// contract holds the request hash), the balances move to the token unit,
// and the gas of each settlement bundle is logged.
func TestAANativeV07(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	merchant := e.chain.Accounts[3].Address
	owner := e.chain.Accounts[1].Key
	const amount = 5_000
	settlement := contracts.NewX402Settlement()
	for _, v := range []struct {
		version string
		account common.Address
		pay     func() *x402.VerifyRequest
	}{
		{"0.6", e.chain.Contracts.SmartAccounts[1], func() *x402.VerifyRequest { r, _ := e.aaPay(owner, e.aaRequirements(merchant, amount)); return r }},
		{"0.7", e.chain.Contracts.SmartAccountsV07[1], func() *x402.VerifyRequest { return e.aaPayV07(owner, e.aaRequirementsV07(merchant, amount)) }},
	} {
		for _, step := range []string{"creating the account", "deployed account"} {
			merchantBefore, payerBefore := e.balance(merchant), e.balance(v.account)
			req := v.pay()
			var vr x402.VerifyResponse
			e.post("verify", req, &vr)
			if !vr.IsValid || vr.Payer != v.account.Hex() {
				t.Fatalf("v%s %s: verify %+v, want valid from %s", v.version, step, vr, v.account)
			}
			var res, again x402.SettleResponse
			e.post("settle", req, &res)
			if !res.Success || res.Payer != v.account.Hex() {
				t.Fatalf("v%s %s: settle %+v", v.version, step, res)
			}
			e.post("settle", req, &again)
			if again.Success && again.TransactionHash != res.TransactionHash {
				t.Fatalf("v%s: a second settle answered another transaction %s (first %s)", v.version, again.TransactionHash, res.TransactionHash)
			}
			if got := e.balance(merchant); got.Cmp(new(big.Int).Add(merchantBefore, big.NewInt(amount))) != 0 {
				t.Fatalf("v%s %s: merchant %s, want %s + %d", v.version, step, got, merchantBefore, amount)
			}
			if got := e.balance(v.account); got.Cmp(new(big.Int).Sub(payerBefore, big.NewInt(amount))) != 0 {
				t.Fatalf("v%s %s: payer %s, want %s - %d", v.version, step, got, payerBefore, amount)
			}
			var out hexutil.Bytes
			e.rpcCall(&out, e.chain.Contracts.Settlement, settlement.PackIsSettled(common.HexToHash(res.RequestHash)))
			if done, _ := settlement.UnpackIsSettled(out); !done {
				t.Fatalf("v%s: isSettled(%s) is false", v.version, res.RequestHash)
			}
			receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("aa-native v%s settlement, %s: %d gas", v.version, step, receipt.GasUsed)
		}
	}
}

// TestAANativeV07Refusals: a v0.7 payment is refused, with the spec's
// reasons, when it is not what its v0.7 offer asks.
func TestAANativeV07Refusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	merchant := e.chain.Accounts[3].Address
	owner := e.chain.Accounts[2].Key
	other, _ := crypto.GenerateKey()
	req := e.aaRequirementsV07(merchant, 5_000)
	resign := func(r *x402.VerifyRequest, edit func(*ep07.UserOperation), key *ecdsa.PrivateKey) *x402.VerifyRequest {
		var p struct {
			UserOp             ep07.UserOperationHex   `json:"userOp"`
			SettlementCallSpec x402.SettlementCallSpec `json:"settlementCallSpec"`
		}
		json.Unmarshal(r.PaymentPayload.Payload, &p)
		op, err := p.UserOp.Decode(false)
		if err != nil {
			t.Fatal(err)
		}
		edit(&op)
		op.Signature, _ = contracts.SignHash(ep07.UserOpHash(op, e.chain.Contracts.EntryPointV07, e.chain.ChainID), key)
		p.UserOp = op.Hex()
		out := *r
		out.PaymentPayload.Payload, _ = json.Marshal(p)
		return &out
	}
	for _, tc := range []struct {
		name   string
		build  func() *x402.VerifyRequest
		reason x402.InvalidReason
		msg    string
	}{
		{"v0.7 payment for a v0.6 offer", func() *x402.VerifyRequest {
			r := e.aaPayV07(owner, req)
			v06 := e.aaRequirements(merchant, 5_000)
			r.PaymentRequirements, r.PaymentPayload.Accepted = v06, v06
			return r
		}, x402.ReasonInvalidInnerPayload, "v0.6's fields"},
		{"v0.6 payment for a v0.7 offer", func() *x402.VerifyRequest {
			r, _ := e.aaPay(owner, e.aaRequirements(merchant, 5_000))
			r.PaymentRequirements, r.PaymentPayload.Accepted = req, req
			return r
		}, x402.ReasonInvalidInnerPayload, "v0.7's fields"},
		{"another key's signature", func() *x402.VerifyRequest {
			return resign(e.aaPayV07(owner, req), func(*ep07.UserOperation) {}, other)
		}, x402.ReasonSignatureInvalid, "owner"},
		{"v0.6 factory", func() *x402.VerifyRequest {
			return resign(e.aaPayV07(owner, req), func(op *ep07.UserOperation) { op.Factory = e.chain.Contracts.AccountFactory }, owner)
		}, x402.ReasonInvalidInnerPayload, "canonical factory"},
		{"v0.6 paymaster", func() *x402.VerifyRequest {
			return resign(e.aaPayV07(owner, req), func(op *ep07.UserOperation) { op.Paymaster = e.chain.Contracts.Paymaster }, owner)
		}, x402.ReasonInvalidInnerPayload, "not sponsored by this facilitator's paymaster"},
		{"paymaster gas changed after signing", func() *x402.VerifyRequest {
			return resign(e.aaPayV07(owner, req), func(op *ep07.UserOperation) { op.PaymasterVerificationGasLimit = big.NewInt(90_000) }, owner)
		}, x402.ReasonSignatureInvalid, "simulateValidation"},
		{"amount", func() *x402.VerifyRequest {
			r := e.aaPayV07(owner, req)
			r.PaymentRequirements.Amount, r.PaymentPayload.Accepted.Amount = "5001", "5001"
			return r
		}, x402.ReasonAmountMismatch, "5001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res x402.VerifyResponse
			e.post("verify", tc.build(), &res)
			if res.IsValid || res.InvalidReason != tc.reason || !strings.Contains(res.InvalidMessage, tc.msg) {
				t.Fatalf("got %+v, want %s containing %q", res, tc.reason, tc.msg)
			}
		})
	}
}

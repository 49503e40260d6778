package facilitator

import (
	"context"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/x402"
)

// uptoRequirements is an upto offer of at most max dPT.
func (e *env) uptoRequirements(payTo common.Address, max int64) x402.PaymentRequirements {
	r := e.permit2Requirements(payTo, max)
	r.Scheme = x402.SchemeUpto
	r.Extra = &x402.Extra{Name: r.Extra.Name, Version: r.Extra.Version, FacilitatorAddress: e.chain.Accounts[0].Address.Hex()}
	return r
}

// uptoPay is an upto payment of at most req's amount, signed for the upto
// proxy and the facilitator named in req (edit may change it).
func (e *env) uptoPay(payer devnet.Account, req x402.PaymentRequirements, withPermit bool, edit func(*contracts.Permit2Transfer)) *x402.VerifyRequest {
	return e.permit2Pay(payer, req, withPermit, func(t *contracts.Permit2Transfer) {
		t.Upto, t.Spender, t.Facilitator = true, exact.UptoPermit2Proxy, common.HexToAddress(req.Extra.FacilitatorAddress)
		if edit != nil {
			edit(t)
		}
	})
}

// owing is req with the requirements' amount replaced by what is owed, as
// the server settles an upto payment.
func owing(req *x402.VerifyRequest, amount int64) *x402.VerifyRequest {
	r := *req
	r.PaymentRequirements.Amount = big.NewInt(amount).String()
	return &r
}

// An upto payment is verified for its maximum and settled for what is
// owed, once: the payer pays exactly that; nothing owed settles without a
// transaction; more than the maximum, another facilitator's permit or an
// exact permit are refused, and nothing is sent for them.
func TestUptoSettlesWhatIsOwed(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	merchant := e.chain.Accounts[2].Address
	settler := e.chain.Accounts[0].Address
	offer := e.uptoRequirements(merchant, 50_000)
	for _, tc := range []struct {
		name       string
		payer      devnet.Account
		withPermit bool
		owed       int64
	}{
		{"part of the maximum, with an EIP-2612 permit", e.chain.Accounts[4], true, 12_345},
		{"the whole maximum", e.chain.Accounts[5], true, 50_000},
		{"nothing", e.chain.Accounts[6], true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := e.uptoPay(tc.payer, offer, tc.withPermit, nil)
			var vr x402.VerifyResponse
			if e.post("verify", req, &vr); !vr.IsValid {
				t.Fatalf("verify: %+v", vr)
			}
			before := e.permitBalance(tc.payer.Address)
			nonce, _ := e.eth.NonceAt(context.Background(), settler, nil)
			var sr x402.SettleResponse
			if resp := e.post("settle", owing(req, tc.owed), &sr); resp.StatusCode != http.StatusOK || !sr.Success {
				t.Fatalf("settle %d: %+v", resp.StatusCode, sr)
			}
			if paid := new(big.Int).Sub(before, e.permitBalance(tc.payer.Address)); paid.Int64() != tc.owed {
				t.Errorf("the payer paid %s, want %d", paid, tc.owed)
			}
			after, _ := e.eth.NonceAt(context.Background(), settler, nil)
			if tc.owed == 0 {
				if sr.TransactionHash != "" || after != nonce {
					t.Errorf("nothing owed sent %d transactions (%q)", after-nonce, sr.TransactionHash)
				}
				return
			}
			receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(sr.TransactionHash))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: upto settlement gas %d", tc.name, receipt.GasUsed)
			// The same permit settled again, for any amount, is refused.
			e.post("settle", owing(req, 1), &sr)
			if sr.Success || !strings.HasPrefix(sr.Message, string(x402.ReasonReplay)) {
				t.Errorf("settling the permit again: %+v, want replay", sr)
			}
		})
	}

	payer := e.chain.Accounts[7]
	for _, tc := range []struct {
		name    string
		req     func() *x402.VerifyRequest
		reason  x402.InvalidReason
		message string
	}{
		{"more than the maximum", func() *x402.VerifyRequest { return owing(e.uptoPay(payer, offer, true, nil), 50_001) },
			x402.ReasonAmountMismatch, "exceeds the signed maximum"},
		{"another facilitator", func() *x402.VerifyRequest {
			return e.uptoPay(payer, offer, true, func(t *contracts.Permit2Transfer) { t.Facilitator = e.chain.Accounts[9].Address })
		}, x402.ReasonInvalidInnerPayload, "upto_facilitator_mismatch"},
		{"an exact permit", func() *x402.VerifyRequest {
			req := e.permit2Pay(payer, e.permit2Requirements(merchant, 50_000), true, nil)
			req.PaymentRequirements, req.PaymentPayload.Accepted = offer, offer
			return req
		}, x402.ReasonSchemeMismatch, "exact permit"},
		{"the exact proxy as spender", func() *x402.VerifyRequest {
			return e.uptoPay(payer, offer, true, func(t *contracts.Permit2Transfer) { t.Spender = exact.ExactPermit2Proxy })
		}, x402.ReasonInvalidInnerPayload, "spender"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nonce, _ := e.eth.NonceAt(context.Background(), settler, nil)
			var sr x402.SettleResponse
			e.post("settle", tc.req(), &sr)
			if sr.Success || !strings.HasPrefix(sr.Message, string(tc.reason)) || !strings.Contains(sr.Message, tc.message) {
				t.Errorf("got %+v, want %s containing %q", sr, tc.reason, tc.message)
			}
			if after, _ := e.eth.NonceAt(context.Background(), settler, nil); after != nonce {
				t.Errorf("a refused settle sent %d transactions", after-nonce)
			}
		})
	}
}

// An upto settlement without an API key is refused, even of this server's
// own offer and within its maximum: what a response used is known only to
// the merchant, and the payer itself could otherwise settle its permit for
// one unit while its response streams. With a key it settles.
func TestUptoAnonymousSettleRefused(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	merchant := e.chain.Accounts[2].Address
	offer := e.uptoRequirements(merchant, 50_000)
	e.offers.Add(offer) // the paid route's offer, as the paywall registers it
	payer := e.chain.Accounts[4]
	req := e.uptoPay(payer, offer, true, nil)
	before := e.permitBalance(payer.Address)
	for _, amount := range []int64{1, 50_000} {
		var sr x402.SettleResponse
		if resp := e.postAs("", "", "settle", owing(req, amount), &sr); resp.StatusCode != http.StatusUnauthorized || sr.Success {
			t.Fatalf("an anonymous upto settle of %d: %d %+v", amount, resp.StatusCode, sr)
		}
	}
	if paid := new(big.Int).Sub(before, e.permitBalance(payer.Address)); paid.Sign() != 0 {
		t.Fatalf("refused settles took %s", paid)
	}
	var sr x402.SettleResponse
	if resp := e.post("settle", owing(req, 12_345), &sr); resp.StatusCode != http.StatusOK || !sr.Success {
		t.Fatalf("the merchant's settle with its key: %d %+v", resp.StatusCode, sr)
	}
	if paid := new(big.Int).Sub(before, e.permitBalance(payer.Address)); paid.Int64() != 12_345 {
		t.Fatalf("the payer paid %s, want 12345", paid)
	}
}

// An upto payer that spends its tokens while its response streams has the
// settlement refused (its payment no longer verifies) and nothing sent;
// it served a response unpaid, so it waits in the penalty box: its next
// payment, funded again, is refused.
func TestUptoWithdrawnAfterServedPenalized(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	merchant := e.chain.Accounts[2].Address
	offer := e.uptoRequirements(merchant, 50_000)
	payer := e.chain.Accounts[4]
	req := e.uptoPay(payer, offer, true, nil)
	var v x402.VerifyResponse
	if e.post("verify", owing(req, 20_000), &v); !v.IsValid {
		t.Fatalf("verify before the response: %+v", v)
	}
	// While the response streams, the payer moves its tokens away.
	tok := contracts.NewDevPermitToken()
	held := e.permitBalance(payer.Address)
	sink := e.chain.Accounts[6]
	if r, err := e.chain.Wait(context.Background(), e.transfer(payer.Key, e.chain.Contracts.PermitToken, nil, tok.PackTransfer(sink.Address, held), 1e9).Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("moving the tokens: %v %v", r, err)
	}
	var sr x402.SettleResponse
	if e.post("settle", owing(req, 20_000), &sr); sr.Success || !strings.Contains(sr.Message, "insufficient balance") {
		t.Fatalf("the settlement after the tokens left: %+v", sr)
	}
	// Funded again, its next payment is refused for a while.
	if r, err := e.chain.Wait(context.Background(), e.transfer(sink.Key, e.chain.Contracts.PermitToken, nil, tok.PackTransfer(payer.Address, held), 1e9).Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("funding again: %v %v", r, err)
	}
	if e.post("verify", owing(e.uptoPay(payer, offer, true, nil), 20_000), &v); v.IsValid || !strings.Contains(v.InvalidMessage, "reverted on chain recently") {
		t.Fatalf("the payer's next payment: %+v", v)
	}
}

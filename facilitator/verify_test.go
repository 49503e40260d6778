package facilitator

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/x402"
)

// TestVerifyReasons reaches every invalidReason of the spec, and the other
// refusals the exact scheme must make, through HTTP /verify on the devnet.
func TestVerifyReasons(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	payer, merchant := e.chain.Accounts[1], e.chain.Accounts[2].Address
	poor, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	poorAddr := crypto.PubkeyToAddress(poor.PublicKey)

	// An authorization already used on chain: settle one first.
	used := e.pay(payer, merchant, 1000)
	var settled x402.SettleResponse
	e.post("settle", used, &settled)
	if !settled.Success {
		t.Fatalf("settling the setup payment: %+v", settled)
	}
	// An authorization spent directly on the token, never through this
	// facilitator, is refused by the on-chain authorizationState check.
	onChainOnly := e.pay(payer, merchant, 1000)
	{
		p, _ := e.svc.decode(onChainOnly)
		data := p.settlement.Data
		relayer := e.chain.Accounts[5].Key
		nonce, _ := e.eth.PendingNonceAt(context.Background(), e.chain.Accounts[5].Address)
		tx, _ := types.SignNewTx(relayer, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
			ChainID: e.chain.ChainID, Nonce: nonce, To: &e.chain.Token.Address, Data: data, Gas: 200_000,
			GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
		})
		if err := e.eth.SendTransaction(context.Background(), tx); err != nil {
			t.Fatal(err)
		}
		if r, err := e.chain.Wait(context.Background(), tx.Hash()); err != nil || r.Status != 1 {
			t.Fatalf("spending the authorization directly: %v %v", r, err)
		}
	}

	tests := []struct {
		name    string
		build   func() *x402.VerifyRequest
		reason  x402.InvalidReason
		message string
		status  int
	}{
		{name: "valid", build: func() *x402.VerifyRequest { return e.pay(payer, merchant, 10_000) }},
		{
			name: "v of 0 and 1 is normalized",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				sig := sign(t, payer.Key, a)
				sig[64] -= 27
				return request(e.requirements(merchant, 10_000), a, sig)
			},
		},
		{
			name: "malformed: payload is not an exact payment", status: http.StatusBadRequest,
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentPayload.Payload = json.RawMessage(`{"authorization":"nope"}`)
				return r
			},
			reason: x402.ReasonMalformedRequest,
		},
		{
			name:   "replay: settled through this facilitator",
			build:  func() *x402.VerifyRequest { return used },
			reason: x402.ReasonReplay, message: "already used (settled)",
		},
		{
			name:   "replay: nonce used on chain",
			build:  func() *x402.VerifyRequest { return onChainOnly },
			reason: x402.ReasonReplay, message: "already used or cancelled on chain",
		},
		{
			name: "scheme mismatch: requirements are aa-native",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentRequirements.Scheme = x402.SchemeAANative
				return r
			},
			reason: x402.ReasonSchemeMismatch,
		},
		{
			name: "scheme mismatch: accepted differs",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentPayload.Accepted.Scheme = "upto"
				return r
			},
			reason: x402.ReasonSchemeMismatch,
		},
		{
			name: "network mismatch: another chain required",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentRequirements.Network, r.PaymentPayload.Accepted.Network = "eip155:8453", "eip155:8453"
				return r
			},
			reason: x402.ReasonNetworkMismatch,
		},
		{
			name: "network mismatch: accepted differs",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentPayload.Accepted.Network = "eip155:1"
				return r
			},
			reason: x402.ReasonNetworkMismatch,
		},
		{
			name: "asset not allowlisted",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentRequirements.Asset = e.chain.Contracts.Settlement.Hex()
				r.PaymentPayload.Accepted.Asset = r.PaymentRequirements.Asset
				return r
			},
			reason: x402.ReasonAssetNotAllowed,
		},
		{
			name: "asset: accepted differs",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentPayload.Accepted.Asset = e.chain.Contracts.Settlement.Hex()
				return r
			},
			reason: x402.ReasonAssetNotAllowed,
		},
		{
			name: "amount: accepted differs",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentPayload.Accepted.Amount = "1"
				return r
			},
			reason: x402.ReasonAmountMismatch,
		},
		{
			name: "amount: authorization value differs",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 9_999)
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a))
			},
			reason: x402.ReasonAmountMismatch, message: "authorization.value 9999",
		},
		{
			name: "wrong payTo in the authorization",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, e.chain.Accounts[5].Address, 10_000)
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a))
			},
			reason: x402.ReasonInvalidInnerPayload, message: "is not payTo",
		},
		{
			name: "wrong payTo accepted",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentPayload.Accepted.PayTo = e.chain.Accounts[5].Address.Hex()
				return r
			},
			reason: x402.ReasonInvalidInnerPayload, message: "accepted payTo",
		},
		{
			name: "expired",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				a.validBefore = big.NewInt(time.Now().Unix() - 1)
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a))
			},
			reason: x402.ReasonInvalidInnerPayload, message: "expires too soon",
		},
		{
			name: "expires within the 6 s settlement margin",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				a.validBefore = big.NewInt(time.Now().Unix() + 3)
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a))
			},
			reason: x402.ReasonInvalidInnerPayload, message: "expires too soon",
		},
		{
			name: "not yet valid",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				a.validAfter = big.NewInt(time.Now().Unix() + 60)
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a))
			},
			reason: x402.ReasonInvalidInnerPayload, message: "not valid yet",
		},
		{
			name: "insufficient balance",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				a.from = poorAddr
				return request(e.requirements(merchant, 10_000), a, sign(t, poor, a))
			},
			reason: x402.ReasonInvalidInnerPayload, message: "insufficient balance",
		},
		{
			name: "bad field format",
			build: func() *x402.VerifyRequest {
				r := e.pay(payer, merchant, 10_000)
				r.PaymentPayload.Payload = json.RawMessage(strings.Replace(string(r.PaymentPayload.Payload), `"validAfter":"`, `"validAfter":"-`, 1))
				return r
			},
			reason: x402.ReasonInvalidInnerPayload, message: "authorization.validAfter",
		},
		{
			name: "signed by another key",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				return request(e.requirements(merchant, 10_000), a, sign(t, e.chain.Accounts[4].Key, a))
			},
			reason: x402.ReasonSignatureInvalid, message: "not authorization.from",
		},
		{
			name: "high s",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				sig := sign(t, payer.Key, a)
				s := new(big.Int).SetBytes(sig[32:64])
				new(big.Int).Sub(crypto.S256().Params().N, s).FillBytes(sig[32:64])
				sig[64] = 27 + 28 - sig[64] // the negated s pairs with the other parity
				return request(e.requirements(merchant, 10_000), a, sig)
			},
			reason: x402.ReasonSignatureInvalid, message: "upper half",
		},
		{
			name: "v of 29",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				sig := sign(t, payer.Key, a)
				sig[64] = 29
				return request(e.requirements(merchant, 10_000), a, sig)
			},
			reason: x402.ReasonSignatureInvalid, message: "v is 29",
		},
		{
			name: "short signature",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a)[:64])
			},
			reason: x402.ReasonSignatureInvalid,
		},
		{
			name: "signed for another chain id",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				a.chainID = big.NewInt(8453)
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a))
			},
			reason: x402.ReasonSignatureInvalid,
		},
		{
			name: "signed for another token domain",
			build: func() *x402.VerifyRequest {
				a := e.newAuth(payer, merchant, 10_000)
				a.name, a.version = "USD Coin", "2"
				return request(e.requirements(merchant, 10_000), a, sign(t, payer.Key, a))
			},
			reason: x402.ReasonSignatureInvalid,
		},
	}
	seen := map[x402.InvalidReason]bool{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var res x402.VerifyResponse
			resp := e.post("verify", tc.build(), &res)
			want := tc.status
			if want == 0 {
				want = http.StatusOK
			}
			if resp.StatusCode != want {
				t.Errorf("status = %d, want %d", resp.StatusCode, want)
			}
			if tc.reason == "" {
				if !res.IsValid || res.Payer != payer.Address.Hex() {
					t.Fatalf("refused a valid payment: %+v", res)
				}
				return
			}
			if res.IsValid || res.InvalidReason != tc.reason {
				t.Fatalf("got %+v, want reason %s", res, tc.reason)
			}
			if !strings.Contains(res.InvalidMessage, tc.message) {
				t.Fatalf("message %q lacks %q", res.InvalidMessage, tc.message)
			}
			seen[tc.reason] = true
		})
	}
	// Every reason of the spec but malformed_request-at-the-edge is reached
	// above; malformed bodies are covered by TestHandlerBadInput.
	for _, r := range x402.InvalidReasons {
		if !seen[r] {
			t.Errorf("no case reaches %s", r)
		}
	}
}

package facilitator

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestPermit2EIP2612Abuse: the EIP-2612 permits a payer sends for the
// facilitator to submit (eip2612GasSponsoring) cannot make it spend gas
// on a settlement that reverts. A permit at a stale token nonce, and a
// permit already used by an earlier settlement and sent again with a new
// payment, are refused by verify and by settle (the settlement's
// simulation reverts), and the settler sends nothing for them; the honest
// payment with its permit settles, one transaction.
func TestPermit2EIP2612Abuse(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	ctx := context.Background()
	merchant := e.chain.Accounts[2].Address
	settler := e.chain.Accounts[0].Address
	offer := e.permit2Requirements(merchant, 10_000)
	token := e.chain.Contracts.PermitToken
	payer := e.chain.Accounts[6] // has never approved Permit2
	deadline := big.NewInt(time.Now().Unix() + 300)
	// permitAt is payer's permit of Permit2 for the offer at token nonce n.
	permitAt := func(n *big.Int) json.RawMessage {
		sig, err := contracts.ERC2612Permit{Owner: payer.Address, Spender: exact.Permit2, Value: big.NewInt(10_000), Nonce: n, Deadline: deadline}.
			Sign(contracts.TokenDomain{Name: wellknown.PermitTokenName, Version: "1", ChainID: e.chain.ChainID, Token: token}, payer.Key)
		if err != nil {
			t.Fatal(err)
		}
		ext, _ := json.Marshal(map[string]any{exact.EIP2612GasSponsoring: map[string]any{"info": map[string]string{
			"from": payer.Address.Hex(), "asset": token.Hex(), "spender": exact.Permit2.Hex(), "amount": "10000",
			"nonce": n.String(), "deadline": deadline.String(), "signature": hexutil.Encode(sig), "version": "1",
		}}})
		return ext
	}
	sent := func() uint64 {
		n, err := e.eth.NonceAt(ctx, settler, nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	refused := func(name string, req *x402.VerifyRequest) {
		t.Helper()
		before := sent()
		var vr x402.VerifyResponse
		e.post("verify", req, &vr)
		if vr.IsValid || !strings.Contains(vr.InvalidMessage, "simulation reverted") {
			t.Errorf("%s: verify %+v, want the simulation's refusal", name, vr)
		}
		var sr x402.SettleResponse
		if e.post("settle", req, &sr); sr.Success {
			t.Errorf("%s: settled %+v", name, sr)
		}
		if after := sent(); after != before {
			t.Errorf("%s: the settler sent %d transactions, want none", name, after-before)
		}
	}

	// A permit at a stale (future) nonce.
	stale := e.permit2Pay(payer, offer, false, nil)
	stale.PaymentPayload.Extensions = permitAt(big.NewInt(7))
	refused("a permit at a stale nonce", stale)

	// The honest payment with its permit, at nonce 0.
	first := e.permit2Pay(payer, offer, false, nil)
	first.PaymentPayload.Extensions = permitAt(new(big.Int))
	before := sent()
	var sr x402.SettleResponse
	if resp := e.post("settle", first, &sr); resp.StatusCode != http.StatusOK || !sr.Success {
		t.Fatalf("the honest payment: %d %+v", resp.StatusCode, sr)
	}
	if after := sent(); after != before+1 {
		t.Fatalf("the honest payment: the settler sent %d transactions, want 1", after-before)
	}

	// The same permit again, with a new Permit2 payment: the permit's
	// nonce is used, and the allowance it gave was spent.
	again := e.permit2Pay(payer, offer, false, nil)
	again.PaymentPayload.Extensions = permitAt(new(big.Int))
	refused("a used permit sent again", again)
}

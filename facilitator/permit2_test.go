package facilitator

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/x402"
)

// newPermit2Env is an env whose facilitator also settles dPT, the devnet's
// token without EIP-3009, through Permit2.
func newPermit2Env(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, envOptions{})
	e.stop()
	e.cfg.Assets = append(e.cfg.Assets, Asset{Address: e.chain.Contracts.PermitToken, Name: wellknown.PermitTokenName, Version: "1", Decimals: 6, Permit2: true})
	e.start()
	return e
}

// permit2Requirements is an exact offer in dPT through Permit2.
func (e *env) permit2Requirements(payTo common.Address, amount int64) x402.PaymentRequirements {
	return x402.PaymentRequirements{
		Scheme: x402.SchemeExact, Network: e.network, Amount: big.NewInt(amount).String(),
		Asset: e.chain.Contracts.PermitToken.Hex(), PayTo: payTo.Hex(), MaxTimeoutSeconds: 60,
		Extra: &x402.Extra{Name: wellknown.PermitTokenName, Version: "1", AssetTransferMethod: x402.AssetTransferPermit2},
	}
}

// permit2Pay is what a payer signs for req: the Permit2 transfer (changed
// by edit, to sign a wrong one) and, with withPermit, an EIP-2612 permit of
// Permit2 in the eip2612GasSponsoring extension.
func (e *env) permit2Pay(payer devnet.Account, req x402.PaymentRequirements, withPermit bool, edit func(*contracts.Permit2Transfer)) *x402.VerifyRequest {
	e.t.Helper()
	n := make([]byte, 32)
	rand.Read(n)
	amount, _ := new(big.Int).SetString(req.Amount, 10)
	deadline := big.NewInt(time.Now().Unix() + 300)
	t := contracts.Permit2Transfer{
		Token: common.HexToAddress(req.Asset), Amount: amount, Spender: exact.ExactPermit2Proxy,
		Nonce: new(big.Int).SetBytes(n), Deadline: deadline, To: common.HexToAddress(req.PayTo),
		ValidAfter: new(big.Int), ChainID: e.chain.ChainID,
	}
	if edit != nil {
		edit(&t)
	}
	sig, err := t.Sign(exact.Permit2, payer.Key)
	if err != nil {
		e.t.Fatal(err)
	}
	witness := map[string]string{"to": t.To.Hex(), "validAfter": t.ValidAfter.String()}
	if t.Upto {
		witness["facilitator"] = t.Facilitator.Hex()
	}
	payload, _ := json.Marshal(map[string]any{
		"signature": hexutil.Encode(sig),
		"permit2Authorization": map[string]any{
			"from": payer.Address.Hex(), "permitted": map[string]string{"token": t.Token.Hex(), "amount": t.Amount.String()},
			"spender": t.Spender.Hex(), "nonce": t.Nonce.String(), "deadline": t.Deadline.String(),
			"witness": witness,
		},
	})
	p := x402.PaymentPayload{X402Version: x402.Version, Accepted: req, Payload: payload}
	if withPermit {
		p.Extensions = e.eip2612Extension(payer, t.Token, amount, deadline)
	}
	return &x402.VerifyRequest{X402Version: x402.Version, PaymentPayload: p, PaymentRequirements: req}
}

// eip2612Extension is the eip2612GasSponsoring extension of a payment: the
// payer's permit of Permit2 for amount, at its current token nonce.
func (e *env) eip2612Extension(payer devnet.Account, token common.Address, amount, deadline *big.Int) json.RawMessage {
	e.t.Helper()
	tok := contracts.NewDevPermitToken()
	out, err := e.eth.CallContract(context.Background(), callMsg(token, tok.PackNonces(payer.Address)), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	nonce, _ := tok.UnpackNonces(out)
	sig, err := contracts.ERC2612Permit{Owner: payer.Address, Spender: exact.Permit2, Value: amount, Nonce: nonce, Deadline: deadline}.
		Sign(contracts.TokenDomain{Name: wellknown.PermitTokenName, Version: "1", ChainID: e.chain.ChainID, Token: token}, payer.Key)
	if err != nil {
		e.t.Fatal(err)
	}
	ext, _ := json.Marshal(map[string]any{exact.EIP2612GasSponsoring: map[string]any{"info": map[string]string{
		"from": payer.Address.Hex(), "asset": token.Hex(), "spender": exact.Permit2.Hex(), "amount": amount.String(),
		"nonce": nonce.String(), "deadline": deadline.String(), "signature": hexutil.Encode(sig), "version": "1",
	}}})
	return ext
}

// permitBalance is who's dPT balance.
func (e *env) permitBalance(who common.Address) *big.Int {
	e.t.Helper()
	tok := contracts.NewDevPermitToken()
	out, err := e.eth.CallContract(context.Background(), callMsg(e.chain.Contracts.PermitToken, tok.PackBalanceOf(who)), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	v, _ := tok.UnpackBalanceOf(out)
	return v
}

// approvePermit2 has payer approve Permit2 for all its dPT.
func (e *env) approvePermit2(payer devnet.Account) {
	e.t.Helper()
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	tx := e.transfer(payer.Key, e.chain.Contracts.PermitToken, nil, contracts.NewDevPermitToken().PackApprove(exact.Permit2, max), 1e9)
	if r, err := e.chain.Wait(context.Background(), tx.Hash()); err != nil || r.Status != 1 {
		e.t.Fatalf("approve: %v", err)
	}
}

// Permit2 exact payments settle through the proxy, with an approval made
// beforehand or with an EIP-2612 permit in the same transaction; the
// payer pays exactly the price once, and the same payment again is replay.
func TestPermit2Settles(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	merchant := e.chain.Accounts[2].Address
	for _, tc := range []struct {
		name       string
		payer      devnet.Account
		approve    bool
		withPermit bool
	}{
		{"approved Permit2 beforehand", e.chain.Accounts[4], true, false},
		{"EIP-2612 permit in the payment", e.chain.Accounts[5], false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.approve {
				e.approvePermit2(tc.payer)
			}
			req := e.permit2Pay(tc.payer, e.permit2Requirements(merchant, 25_000), tc.withPermit, nil)
			payerBefore, merchantBefore := e.permitBalance(tc.payer.Address), e.permitBalance(merchant)
			var vr x402.VerifyResponse
			e.post("verify", req, &vr)
			if !vr.IsValid {
				t.Fatalf("verify: %+v", vr)
			}
			var sr x402.SettleResponse
			if resp := e.post("settle", req, &sr); resp.StatusCode != http.StatusOK || !sr.Success {
				t.Fatalf("settle %d: %+v", resp.StatusCode, sr)
			}
			receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(sr.TransactionHash))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: settlement gas %d", tc.name, receipt.GasUsed)
			if got := new(big.Int).Sub(payerBefore, e.permitBalance(tc.payer.Address)); got.Int64() != 25_000 {
				t.Errorf("payer paid %s, want 25000", got)
			}
			if got := new(big.Int).Sub(e.permitBalance(merchant), merchantBefore); got.Int64() != 25_000 {
				t.Errorf("merchant got %s, want 25000", got)
			}
			e.post("verify", req, &vr)
			if vr.IsValid || vr.InvalidReason != x402.ReasonReplay {
				t.Errorf("the same payment again: %+v, want replay", vr)
			}
		})
	}
}

// What a Permit2 payment must not get away with: each is refused by
// verify, with the reason a client can act on.
func TestPermit2Refusals(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	merchant, other := e.chain.Accounts[2].Address, e.chain.Accounts[7].Address
	approved, unapproved := e.chain.Accounts[4], e.chain.Accounts[6]
	e.approvePermit2(approved)
	offer := e.permit2Requirements(merchant, 10_000)
	for _, tc := range []struct {
		name    string
		req     func() *x402.VerifyRequest
		reason  x402.InvalidReason
		message string
	}{
		{"no allowance and no permit", func() *x402.VerifyRequest { return e.permit2Pay(unapproved, offer, false, nil) },
			x402.ReasonInvalidInnerPayload, "permit2_allowance_required"},
		{"wrong amount", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, offer, false, func(t *contracts.Permit2Transfer) { t.Amount = big.NewInt(9_999) })
		}, x402.ReasonAmountMismatch, "permitted.amount 9999"},
		{"other recipient", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, offer, false, func(t *contracts.Permit2Transfer) { t.To = other })
		}, x402.ReasonInvalidInnerPayload, "witness.to"},
		{"other spender", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, offer, false, func(t *contracts.Permit2Transfer) { t.Spender = exact.Permit2 })
		}, x402.ReasonInvalidInnerPayload, "spender"},
		{"expired", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, offer, false, func(t *contracts.Permit2Transfer) { t.Deadline = big.NewInt(time.Now().Unix() - 1) })
		}, x402.ReasonInvalidInnerPayload, "expires too soon"},
		{"not valid yet", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, offer, false, func(t *contracts.Permit2Transfer) { t.ValidAfter = big.NewInt(time.Now().Unix() + 3600) })
		}, x402.ReasonInvalidInnerPayload, "not valid yet"},
		{"other chain", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, offer, false, func(t *contracts.Permit2Transfer) { t.ChainID = big.NewInt(8453) })
		}, x402.ReasonSignatureInvalid, "signature is by"},
		{"other token signed", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, offer, false, func(t *contracts.Permit2Transfer) { t.Token = e.chain.Token.Address })
		}, x402.ReasonAssetNotAllowed, "permitted.token"},
		{"EIP-3009 token paid through Permit2", func() *x402.VerifyRequest {
			return e.permit2Pay(approved, e.requirements(merchant, 10_000), false, nil)
		}, x402.ReasonAssetNotAllowed, "not paid through Permit2"},
		{"permit for another amount", func() *x402.VerifyRequest {
			req := e.permit2Pay(unapproved, offer, false, nil)
			req.PaymentPayload.Extensions = e.eip2612Extension(unapproved, e.chain.Contracts.PermitToken, big.NewInt(1), big.NewInt(time.Now().Unix()+300))
			return req
		}, x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.amount"},
		{"permit signed by another key", func() *x402.VerifyRequest {
			req := e.permit2Pay(unapproved, offer, false, nil)
			req.PaymentPayload.Extensions = e.eip2612Extension(approved, e.chain.Contracts.PermitToken, big.NewInt(10_000), big.NewInt(time.Now().Unix()+300))
			return req
		}, x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.from"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var vr x402.VerifyResponse
			e.post("verify", tc.req(), &vr)
			if vr.IsValid || vr.InvalidReason != tc.reason || !strings.Contains(vr.InvalidMessage, tc.message) {
				t.Errorf("got %s %q, want %s containing %q", vr.InvalidReason, vr.InvalidMessage, tc.reason, tc.message)
			}
		})
	}
}

// An anonymous settle of a Permit2 payment, with an EIP-2612 permit,
// for a route this server does not offer is refused before anything is
// sent: the facilitator spends no gas on a stranger's permit.
func TestPermit2AnonymousSettleOfNoOffer(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	payer := e.chain.Accounts[5]
	settler := e.chain.Accounts[0].Address
	before, _ := e.eth.NonceAt(context.Background(), settler, nil)
	req := e.permit2Pay(payer, e.permit2Requirements(e.chain.Accounts[8].Address, 10_000), true, nil)
	var sr x402.SettleResponse
	if resp := e.postAs("", "", "settle", req, &sr); resp.StatusCode != http.StatusUnauthorized || sr.Success {
		t.Fatalf("anonymous settle of no offer: %d %+v", resp.StatusCode, sr)
	}
	// The same payment for an offer of ours is settled anonymously.
	e.offers.Add(req.PaymentRequirements)
	if resp := e.postAs("", "", "settle", req, &sr); resp.StatusCode != http.StatusOK || !sr.Success {
		t.Fatalf("anonymous settle of our offer: %d %+v", resp.StatusCode, sr)
	}
	after, _ := e.eth.NonceAt(context.Background(), settler, nil)
	if after != before+1 {
		t.Errorf("the settler sent %d transactions, want 1 (the offer's settlement)", after-before)
	}
}

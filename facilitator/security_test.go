package facilitator

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// /settle spends the settler's gas: without a credential it settles only
// payments of the server's own paid routes. Ten one-unit transfers to a
// non-merchant used to cost the settler about 656k gas.
func TestSettleIsNotAnOpenRelay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	ctx := context.Background()
	merchant, stranger := e.chain.Accounts[2].Address, e.chain.Accounts[8].Address
	e.offers.Add(e.requirements(merchant, 10_000))
	settler := e.svc.Settler()
	nonceBefore, _ := e.eth.PendingNonceAt(ctx, settler)
	ethBefore, _ := e.eth.BalanceAt(ctx, settler, nil)

	for i := range 10 {
		var res x402.SettleResponse
		resp := e.postAs("", "", "settle", e.pay(e.chain.Accounts[1], stranger, 1), &res)
		if resp.StatusCode != http.StatusUnauthorized || res.Success || res.ErrorCode != x402.ErrorVerifyFailed ||
			!strings.HasPrefix(res.Message, "unauthorized") || resp.Header.Get("WWW-Authenticate") == "" {
			t.Fatalf("anonymous settle %d to a stranger: %d %+v", i, resp.StatusCode, res)
		}
	}
	// The offer's own amount to a merchant is one of ours; another amount
	// to the same merchant is not.
	var res x402.SettleResponse
	if resp := e.postAs("", "", "settle", e.pay(e.chain.Accounts[1], merchant, 1), &res); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("anonymous settle of an unoffered amount: %d %+v", resp.StatusCode, res)
	}
	if resp := e.postAs("wrong-key", "", "settle", e.pay(e.chain.Accounts[1], stranger, 1), &res); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("settle with a wrong key: %d %+v", resp.StatusCode, res)
	}
	nonceAfter, _ := e.eth.PendingNonceAt(ctx, settler)
	ethAfter, _ := e.eth.BalanceAt(ctx, settler, nil)
	if nonceAfter != nonceBefore || ethAfter.Cmp(ethBefore) != 0 {
		t.Fatalf("refused settles cost the settler: nonce %d→%d, balance %s→%s", nonceBefore, nonceAfter, ethBefore, ethAfter)
	}

	// Verify stays public; a settle of the offer needs no credential.
	var v x402.VerifyResponse
	if resp := e.postAs("", "", "verify", e.pay(e.chain.Accounts[1], stranger, 1), &v); resp.StatusCode != http.StatusOK || !v.IsValid {
		t.Fatalf("anonymous verify: %d %+v", resp.StatusCode, v)
	}
	before := e.balance(merchant)
	if resp := e.postAs("", "", "settle", e.pay(e.chain.Accounts[1], merchant, 10_000), &res); resp.StatusCode != http.StatusOK || !res.Success {
		t.Fatalf("anonymous settle of an offer: %d %+v", resp.StatusCode, res)
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 10_000 {
		t.Fatalf("merchant got %s", got)
	}

	// A key's settles are rate limited.
	limited := httptest.NewServer(&Handler{Facilitator: e.svc, Network: e.network, AuthorizeSettle: testAuthorize, SettlesPerMinute: 1})
	t.Cleanup(limited.Close)
	codes := []int{}
	for range 2 {
		body, _ := json.Marshal(e.pay(e.chain.Accounts[1], stranger, 1))
		req, _ := http.NewRequest(http.MethodPost, limited.URL+"/settle", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testSettleKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
		if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
	if codes[0] != http.StatusOK || codes[1] != http.StatusTooManyRequests {
		t.Fatalf("keyed settles at 1 a minute: %v", codes)
	}
}

// The anonymous /sponsor has a budget of its own: fifty keyless
// sponsorships from fresh senders of one client cannot fill the project's
// in-flight limit, a real payer from elsewhere is still sponsored and
// settles, and refusals tell nothing of the project.
func TestSponsorAnonymousBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	e.stop()
	e.cfg.AANative.SponsorLimits = SponsorLimits{} // the defaults
	e.start()
	merchant := e.chain.Accounts[3].Address
	req := e.aaRequirements(merchant, 10)
	attacker := httptest.NewServer(&Handler{Facilitator: e.svc, Network: e.network, Offers: e.offers,
		ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }})
	t.Cleanup(attacker.Close)

	sponsor := func(client string, op x402.UserOperation) (map[string]any, *SponsorError) {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "pm_sponsor_userop", "params": []any{op, e.chain.Contracts.EntryPoint.Hex()}})
		hreq, _ := http.NewRequest(http.MethodPost, attacker.URL+"/sponsor", bytes.NewReader(body))
		hreq.Header.Set("X-Test-Client", client)
		resp, err := http.DefaultClient.Do(hreq)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Result map[string]any `json:"result"`
			Error  *SponsorError  `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out.Result, out.Error
	}
	settleOp := func(amount int64) x402.UserOperation {
		owner, _ := crypto.GenerateKey()
		f := contracts.NewSimpleAccountFactory()
		ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
		out, err := e.eth.CallContract(context.Background(), callMsg(e.chain.Contracts.AccountFactory, f.PackGetAddress(ownerAddr, new(big.Int))), nil)
		if err != nil {
			t.Fatal(err)
		}
		sender, _ := f.UnpackGetAddress(out)
		var rh [32]byte
		rand.Read(rh[:])
		callData := contracts.NewSimpleAccount().PackExecuteBatch(
			[]common.Address{e.chain.Token.Address, e.chain.Contracts.Settlement},
			[][]byte{contracts.NewDevUSD().PackApprove(e.chain.Contracts.Settlement, big.NewInt(amount)), contracts.NewX402Settlement().PackSettle(merchant, e.chain.Token.Address, big.NewInt(amount), rh)})
		return x402.UserOperation{Sender: sender.Hex(), Nonce: "0x0", Signature: "0x", CallData: hexutil.Encode(callData),
			InitCode: hexutil.Encode(append(e.chain.Contracts.AccountFactory.Bytes(), f.PackCreateAccount(ownerAddr, new(big.Int))...))}
	}

	// Not an offer of this server: the amount is not a price.
	if _, rerr := sponsor("10.0.0.9", settleOp(1)); rerr == nil || rerr.Code != int(x402.RPCInvalidParams) {
		t.Fatalf("sponsoring an unoffered amount: %+v", rerr)
	}
	granted := 0
	for i := range 50 {
		res, rerr := sponsor("10.0.0.1", settleOp(10))
		if rerr == nil {
			granted++
			pad := hexutil.MustDecode(res["paymasterAndData"].(string))
			until := new(big.Int).SetBytes(pad[20:52]).Int64()
			if until > time.Now().Add(2*time.Minute+5*time.Second).Unix() {
				t.Fatalf("an anonymous sponsorship valid until %d, over 2 minutes", until)
			}
			continue
		}
		if rerr.Code != int(x402.RPCThrottled) {
			t.Fatalf("request %d: %+v", i, rerr)
		}
		for _, secret := range []string{"demo", "balance", "wei", "pmk_", "project"} {
			if strings.Contains(rerr.Message, secret) {
				t.Fatalf("a refusal tells %q: %s", secret, rerr.Message)
			}
		}
	}
	if granted != 10 {
		t.Fatalf("one client was granted %d of 50 sponsorships, want 10 (its outstanding limit)", granted)
	}
	// A real payer elsewhere is sponsored and settles.
	pay, _ := e.aaPay(e.chain.Accounts[1].Key, req)
	var res x402.SettleResponse
	if e.post("settle", pay, &res); !res.Success {
		t.Fatalf("the real payer: %+v", res)
	}
}

// A payment of one scheme verified against requirements of the other is
// scheme_mismatch, whether or not its accepted scheme tells the truth.
func TestSchemeMismatchAcrossSchemes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	exactReq := e.pay(e.chain.Accounts[1], e.chain.Accounts[2].Address, 5_000)
	aaReq, _ := e.aaPay(e.chain.Accounts[1].Key, e.aaRequirements(e.chain.Accounts[2].Address, 5_000))
	mix := func(payload, requirements *x402.VerifyRequest, lie bool) *x402.VerifyRequest {
		r := *payload
		r.PaymentRequirements = requirements.PaymentRequirements
		if lie {
			r.PaymentPayload.Accepted = requirements.PaymentRequirements
		}
		return &r
	}
	for name, req := range map[string]*x402.VerifyRequest{
		"exact payload, aa-native requirements":                    mix(exactReq, aaReq, false),
		"aa-native payload, exact requirements":                    mix(aaReq, exactReq, false),
		"exact payload claiming aa-native, aa-native requirements": mix(exactReq, aaReq, true),
		"aa-native payload claiming exact, exact requirements":     mix(aaReq, exactReq, true),
	} {
		var v x402.VerifyResponse
		e.post("verify", req, &v)
		if v.IsValid || v.InvalidReason != x402.ReasonSchemeMismatch {
			t.Errorf("%s: %+v", name, v)
		}
	}
}

// A settle runs to its end when its caller goes away: the payment is
// settled, not left claimed and half done.
func TestSettleSurvivesCallerDisconnect(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[2].Address
	before := e.balance(merchant)
	req := e.pay(e.chain.Accounts[1], merchant, 7_000)
	body, _ := json.Marshal(req)
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /settle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s", testSettleKey, len(body), body)
	conn.Close() // gone before any answer

	p, err := e.svc.decode(req)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		rec, err := e.svc.store.Get(p.key)
		if err != nil {
			t.Fatal(err)
		}
		if rec != nil && rec.State.Final() {
			if !rec.Response.Success {
				t.Fatalf("settled after disconnect: %+v", rec.Response)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the settle did not finish after its caller left: %+v", rec)
		}
		time.Sleep(20 * time.Millisecond) // polling for the outcome, not ordering
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 7_000 {
		t.Fatalf("merchant got %s", got)
	}
}

// A reload's new anonymous budget and receipt timeout are in force for
// the next request.
func TestSetTunables(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	e.svc.SetReceiptTimeout(3 * time.Second)
	if got := e.svc.receiptTimeout(); got != 3*time.Second {
		t.Fatalf("receipt timeout %v", got)
	}
	e.svc.SetReceiptTimeout(0)
	if got := e.svc.receiptTimeout(); got != 30*time.Second {
		t.Fatalf("receipt timeout back to the default: %v", got)
	}
	req := e.aaRequirements(e.chain.Accounts[3].Address, 5_000)
	first, second := unsponsored(t, e, e.chain.Accounts[1].Key, req), unsponsored(t, e, e.chain.Accounts[2].Key, req)
	e.svc.SetSponsorLimits(SponsorLimits{PerClient: 1})
	l := e.svc.sponsorLimits()
	if l.PerClient != 1 || l.MaxOutstanding != 40 || l.Validity != 2*time.Minute {
		t.Fatalf("limits %+v", l)
	}
	if _, err := e.svc.SponsorOperation(context.Background(), first, x402.SponsorContext{}, "10.9.9.9"); err != nil {
		t.Fatalf("the first sponsorship: %v", err)
	}
	var se *SponsorError
	if _, err := e.svc.SponsorOperation(context.Background(), second, x402.SponsorContext{}, "10.9.9.9"); !errors.As(err, &se) || se.Code != int(x402.RPCThrottled) {
		t.Fatalf("the second sponsorship from the client, over 1 a minute: %v", err)
	}
}

// unsponsored is an aa-native payment's operation before sponsorship.
func unsponsored(t *testing.T, e *env, key *ecdsa.PrivateKey, req x402.PaymentRequirements) x402.UserOperation {
	t.Helper()
	_, aa := e.aaPay(key, req)
	op := aa.UserOp
	op.PaymasterAndData, op.Signature = "0x", "0x"
	return op
}

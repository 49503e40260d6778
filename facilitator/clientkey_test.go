package facilitator

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The anonymous /sponsor budget counts an IPv6 client by its /64: the
// addresses of one /64 share one client's outstanding sponsorships, and
// an IPv4 client written as IPv4-mapped IPv6 is that IPv4 client. A client
// of another /64 is still sponsored. (Keyed by the whole address, each of
// the /64's 2^64 addresses was a new client: all six were sponsored.)
func TestSponsorBudgetCountsIPv6ByPrefix(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	e.stop()
	e.cfg.AANative.SponsorLimits = SponsorLimits{PerClient: 100, PerClientOutstanding: 2, PerSender: 100, MaxOutstanding: 40}
	e.start()
	merchant := e.chain.Accounts[3].Address
	e.aaRequirements(merchant, 10)
	srv := httptest.NewServer(&Handler{Facilitator: e.svc, Network: e.network, Offers: e.offers,
		ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }})
	t.Cleanup(srv.Close)

	sponsor := func(client string) *SponsorError {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "pm_sponsor_userop", "params": []any{freshSettleOp(t, e, merchant, 10), e.chain.Contracts.EntryPoint.Hex()}})
		hreq, _ := http.NewRequest(http.MethodPost, srv.URL+"/sponsor", bytes.NewReader(body))
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
		if out.Error == nil && out.Result["paymasterAndData"] == nil {
			t.Fatalf("a sponsorship without paymasterAndData: %+v", out.Result)
		}
		return out.Error
	}
	for _, tc := range []struct {
		client string
		code   int // 0: sponsored
	}{
		{"2001:db8:77:1::1", 0},
		{"2001:db8:77:1::2", 0},
		{"2001:db8:77:1::3", int(x402.RPCThrottled)}, // the /64's two are outstanding
		{"2001:db8:77:1:ffff:ffff:ffff:fffe", int(x402.RPCThrottled)},
		{"[2001:db8:77:1:abcd::9]:4433", int(x402.RPCThrottled)},
		{"2001:db8:77:2::1", 0}, // another /64 is another client
		{"10.1.2.3", 0},
		{"::ffff:10.1.2.3", 0},
		{"::ffff:10.1.2.3", int(x402.RPCThrottled)}, // the IPv4 client's two
		{"10.1.2.3", int(x402.RPCThrottled)},
	} {
		rerr := sponsor(tc.client)
		switch {
		case tc.code == 0 && rerr != nil:
			t.Errorf("client %s: refused %+v, want sponsored", tc.client, rerr)
		case tc.code != 0 && (rerr == nil || rerr.Code != tc.code):
			t.Errorf("client %s: %+v, want code %d", tc.client, rerr, tc.code)
		}
	}
}

// freshSettleOp is an unsigned operation of a new smart account (deployed
// by its initCode) that pays merchant amount through the settlement
// contract, for /sponsor.
func freshSettleOp(t *testing.T, e *env, merchant common.Address, amount int64) x402.UserOperation {
	t.Helper()
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

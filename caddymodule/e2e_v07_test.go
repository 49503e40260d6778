package caddymodule

import (
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestAANativeV07EndToEnd: with entry_point_v07 on the devnet, an
// aa-native route offers aa-native once per EntryPoint (v0.6 first, then
// v0.7 with entryPointVersion 0.7); a fresh key's v0.7 smart account and
// its v0.6 one both pay through Caddy (sponsored by /sponsor and the
// x402_paymaster's v0.7 and v0.6 VerifyingPaymasters), each settles once,
// and the balances move to the token unit.
func TestAANativeV07EndToEnd(t *testing.T) {
	ports := map[string]int{}
	for _, name := range []string{"chain", "api", "facilitator", "paymaster"} {
		ports[name] = freePort(t)
	}
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	cf := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:%d
		paymaster_url http://127.0.0.1:%d
		sponsor_url http://127.0.0.1:%d/sponsor
		entry_point_v07 0x0000000071727De22E5E9d8BAf0edAc6f37da032
	}
}

http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to %s
		schemes aa-native
	}
	respond "paid content"
}

http://127.0.0.1:%d {
	x402_facilitator
}

http://127.0.0.1:%d {
	x402_paymaster {
		project demo {
			balance 100
		}
	}
}
`, ports["chain"], ports["paymaster"], ports["facilitator"], ports["api"], merchant.Hex(), ports["facilitator"], ports["paymaster"])
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	chainURL := fmt.Sprintf("http://127.0.0.1:%d", ports["chain"])
	eth, err := ethclient.Dial(chainURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	wk := wellknown.GenesisContracts()
	url := fmt.Sprintf("http://127.0.0.1:%d/report", ports["api"])

	resp, _ := httpGet(t, url, nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 2 || pr.Accepts[0].Extra.EntryPoint != wk.EntryPoint.Hex() || pr.Accepts[0].Extra.EntryPointVersion != "" ||
		pr.Accepts[1].Extra.EntryPoint != wk.EntryPointV07.Hex() || pr.Accepts[1].Extra.EntryPointVersion != "0.7" || pr.Accepts[1].Extra.Factory != wk.AccountFactoryV07.Hex() {
		t.Fatalf("402: %d %+v (%v)", resp.StatusCode, pr, err)
	}

	key, _ := crypto.GenerateKey()
	owner := crypto.PubkeyToAddress(key.PublicKey)
	for _, v := range []struct {
		version string
		factory common.Address
	}{{"0.7", wk.AccountFactoryV07}, {"0.6", wk.AccountFactory}} {
		account := counterfactual(t, eth, v.factory, owner)
		fundFrom(t, eth, 1, wk.Token, account, 100_000)
		tr := &client.Transport{Key: key, MaxAmount: big.NewInt(10_000), Schemes: []string{x402.SchemeAANative}, RPC: chainURL, EntryPointVersions: []string{v.version}}
		hc := &http.Client{Transport: tr}
		for i := range 2 { // the first payment deploys the account
			before := tokenBalance(t, eth, wk.Token, merchant)
			resp, err := hc.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			receipt, ok, _ := client.Receipt(resp)
			if resp.StatusCode != 200 || string(body) != "paid content" || !ok || !receipt.Success || receipt.Payer != account.Hex() {
				t.Fatalf("v%s payment %d: %d %q %+v", v.version, i, resp.StatusCode, body, receipt)
			}
			if got := new(big.Int).Sub(tokenBalance(t, eth, wk.Token, merchant), before); got.Int64() != 10_000 {
				t.Fatalf("v%s payment %d: the merchant got %s, want 10000", v.version, i, got)
			}
		}
		if got := tokenBalance(t, eth, wk.Token, account); got.Int64() != 80_000 {
			t.Fatalf("v%s: the account holds %s, want 80000", v.version, got)
		}
	}

	// A v0.7 payment sent twice settles once: the second is a replay.
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(10_000), Schemes: []string{x402.SchemeAANative}, RPC: chainURL, EntryPointVersions: []string{"0.7"}}
	resp, _ = httpGet(t, url, nil)
	pr, _ = x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	p, err := tr.PayAANative(t.Context(), pr, &pr.Accepts[1])
	if err != nil {
		t.Fatal(err)
	}
	sentTwice(t, eth, url, p, wk.Token, merchant, 10_000)
}

// sentTwice sends payment p to url twice: the first is served, the second
// is a replay, and the merchant gets price of token once.
func sentTwice(t *testing.T, eth *ethclient.Client, url string, p *x402.PaymentPayload, token, merchant common.Address, price int64) {
	t.Helper()
	h, _ := x402.EncodeHeader(p)
	before := tokenBalance(t, eth, token, merchant)
	for i, want := range []int{200, 402} {
		resp, body := httpGet(t, url, map[string]string{x402.HeaderPaymentSignature: h})
		if resp.StatusCode != want {
			t.Fatalf("sending the payment, time %d: %d %s", i+1, resp.StatusCode, body)
		}
		if want == 402 {
			pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
			if pr == nil || !strings.HasPrefix(pr.Error, "replay") {
				t.Fatalf("the replay answered %+v", pr)
			}
		}
	}
	if got := new(big.Int).Sub(tokenBalance(t, eth, token, merchant), before); got.Int64() != price {
		t.Fatalf("a payment sent twice moved %s, want %d once", got, price)
	}
}

// counterfactual is owner's SimpleAccount (salt 0) of factory (v0.6's
// and v0.7's getAddress have one ABI).
func counterfactual(t *testing.T, eth *ethclient.Client, factory, owner common.Address) common.Address {
	t.Helper()
	f := contracts.NewSimpleAccountFactory()
	out, err := eth.CallContract(t.Context(), ethereum.CallMsg{To: &factory, Data: f.PackGetAddress(owner, new(big.Int))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.UnpackGetAddress(out)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fundFrom sends amount of token from test account #from to who and waits.
func fundFrom(t *testing.T, eth *ethclient.Client, from uint32, token, who common.Address, amount int64) {
	t.Helper()
	key := mustKey(t, from)
	nonce, _ := eth.PendingNonceAt(t.Context(), crypto.PubkeyToAddress(key.PublicKey))
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(wellknown.ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(wellknown.ChainID), Nonce: nonce, To: &token, Data: contracts.NewDevUSD().PackTransfer(who, big.NewInt(amount)),
		Gas: 100_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := eth.SendTransaction(t.Context(), tx); err != nil {
		t.Fatal(err)
	}
	if r, err := waitReceipt(eth, tx.Hash().Hex()); err != nil || r.Status != 1 {
		t.Fatalf("funding %s: %v %v", who, r, err)
	}
}

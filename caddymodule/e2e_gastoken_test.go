package caddymodule

import (
	"fmt"
	"io"
	"math/big"
	"net/http"
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

// TestAANativeGasInTokenEndToEnd: on the devnet, with the x402_paymaster
// taking dUSD for gas, a buyer pays an aa-native route through Caddy with
// its gas in dUSD, type 1 and type 2 (EntryPoint v0.6). Its first payment,
// which deploys the account, has free gas; once the account has approved
// the TokenPaymaster, the merchant gets exactly the price, the buyer's dUSD
// moves by the price and the GasPaidInToken tokenCost exactly, the
// VerifyingPaymaster's deposit (free gas) is not drawn, PAYMENT-RESPONSE
// names the transaction, and the same payment sent again is a replay.
func TestAANativeGasInTokenEndToEnd(t *testing.T) {
	ports := map[string]int{}
	for _, name := range []string{"chain", "api", "facilitator", "paymaster"} {
		ports[name] = freePort(t)
	}
	wk := wellknown.GenesisContracts()
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	cf := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:%d
		paymaster_url http://127.0.0.1:%d
		sponsor_url http://127.0.0.1:%d/sponsor
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
		gas_token %s {
			price 3000
		}
	}
}
`, ports["chain"], ports["paymaster"], ports["facilitator"], ports["api"], merchant.Hex(), ports["facilitator"], ports["paymaster"], wk.Token.Hex())
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	chainURL := fmt.Sprintf("http://127.0.0.1:%d", ports["chain"])
	eth, err := ethclient.Dial(chainURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	url := fmt.Sprintf("http://127.0.0.1:%d/report", ports["api"])
	key := mustKey(t, 7) // has ETH, to approve from its owner
	account := counterfactual(t, eth, wk.AccountFactory, crypto.PubkeyToAddress(key.PublicKey))
	deposit := func(pm common.Address) *big.Int {
		ep := contracts.NewEntryPoint()
		out, err := eth.CallContract(t.Context(), ethereum.CallMsg{To: &wk.EntryPoint, Data: ep.PackBalanceOf(pm)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := ep.UnpackBalanceOf(out)
		return b
	}
	pay := func(ty int) (*http.Response, string) {
		t.Helper()
		tr := &client.Transport{Key: key, MaxAmount: big.NewInt(10_000), Schemes: []string{x402.SchemeAANative}, RPC: chainURL,
			Gas: x402.SponsorContext{Type: ty, Token: wk.Token.Hex()}}
		resp, err := (&http.Client{Transport: tr}).Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(body)
	}

	// The first payment deploys the account, with free gas.
	if resp, body := pay(x402.SponsorPrepay); resp.StatusCode != 200 || body != "paid content" {
		t.Fatalf("the first payment: %d %q", resp.StatusCode, body)
	}
	approve := contracts.NewSimpleAccount().PackExecute(wk.Token, new(big.Int), contracts.NewDevUSD().PackApprove(wk.TokenPaymaster, new(big.Int).Lsh(big.NewInt(1), 255)))
	nonce, _ := eth.PendingNonceAt(t.Context(), crypto.PubkeyToAddress(key.PublicKey))
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(wellknown.ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(wellknown.ChainID), Nonce: nonce, To: &account, Data: approve, Gas: 200_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := eth.SendTransaction(t.Context(), tx); err != nil {
		t.Fatal(err)
	}
	if r, err := waitReceipt(eth, tx.Hash().Hex()); err != nil || r.Status != 1 {
		t.Fatalf("approving the TokenPaymaster: %v %v", r, err)
	}

	for _, ty := range []int{x402.SponsorPrepay, x402.SponsorPostpay} {
		merchantBefore, payerBefore, freeGas := tokenBalance(t, eth, wk.Token, merchant), tokenBalance(t, eth, wk.Token, account), deposit(wk.Paymaster)
		resp, body := pay(ty)
		receipt, ok, _ := client.Receipt(resp)
		if resp.StatusCode != 200 || body != "paid content" || !ok || !receipt.Success || receipt.TransactionHash == "" || receipt.Payer != account.Hex() {
			t.Fatalf("type %d: %d %q %+v", ty, resp.StatusCode, body, receipt)
		}
		r, err := eth.TransactionReceipt(t.Context(), common.HexToHash(receipt.TransactionHash))
		if err != nil {
			t.Fatal(err)
		}
		var gas *big.Int
		for _, l := range r.Logs {
			if ev, err := contracts.NewTokenPaymaster().UnpackGasPaidInTokenEvent(l); err == nil && l.Address == wk.TokenPaymaster && ev.Sender == account {
				gas = ev.TokenCost
			}
		}
		if gas == nil || gas.Sign() <= 0 {
			t.Fatalf("type %d: no GasPaidInToken in %s", ty, receipt.TransactionHash)
		}
		if got := new(big.Int).Sub(tokenBalance(t, eth, wk.Token, merchant), merchantBefore); got.Int64() != 10_000 {
			t.Fatalf("type %d: the merchant got %s, want 10000", ty, got)
		}
		if paid, want := new(big.Int).Sub(payerBefore, tokenBalance(t, eth, wk.Token, account)), new(big.Int).Add(big.NewInt(10_000), gas); paid.Cmp(want) != 0 {
			t.Fatalf("type %d: the buyer paid %s, want the price and the gas, %s", ty, paid, want)
		}
		if got := deposit(wk.Paymaster); got.Cmp(freeGas) != 0 {
			t.Fatalf("type %d: the VerifyingPaymaster's deposit went from %s to %s", ty, freeGas, got)
		}
		t.Logf("type %d through Caddy: bundle gas %d, %s dUSD units of gas", ty, r.GasUsed, gas)
	}

	// The same payment sent twice settles once.
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(10_000), Schemes: []string{x402.SchemeAANative}, RPC: chainURL,
		Gas: x402.SponsorContext{Type: x402.SponsorPostpay, Token: wk.Token.Hex()}}
	resp, _ := httpGet(t, url, nil)
	pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	p, err := tr.PayAANative(t.Context(), pr, &pr.Accepts[0])
	if err != nil {
		t.Fatal(err)
	}
	sentTwice(t, eth, url, p, wk.Token, merchant, 10_000)
}

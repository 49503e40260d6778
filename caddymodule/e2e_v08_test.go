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
	"github.com/caddy-x402/caddy-x402/contracts/ep08"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestAANativeV08EndToEnd: an entry_point of version 0.8 on the devnet
// (its contracts and EIP-7702 delegate the predeployed ones) is offered
// beside v0.6's with entryPointVersion 0.8; a fresh EOA, delegated to
// Simple7702Account by the authorization its first operation carries, pays
// through Caddy twice (sponsored by /sponsor and the x402_paymaster's v0.8
// VerifyingPaymaster, which serves every devnet version), each payment
// settles once, the balances move to the token unit, and the EOA's code is
// the delegation.
func TestAANativeV08EndToEnd(t *testing.T) {
	ports := map[string]int{}
	for _, name := range []string{"chain", "api", "facilitator", "paymaster"} {
		ports[name] = freePort(t)
	}
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	wk := wellknown.GenesisContracts()
	cf := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:%d
		paymaster_url http://127.0.0.1:%d
		sponsor_url http://127.0.0.1:%d/sponsor
		entry_point %s 0.8
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
`, ports["chain"], ports["paymaster"], ports["facilitator"], wk.EntryPointV08.Hex(), ports["api"], merchant.Hex(), ports["facilitator"], ports["paymaster"])
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

	resp, _ := httpGet(t, url, nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 2 || pr.Accepts[0].Extra.EntryPoint != wk.EntryPoint.Hex() || pr.Accepts[0].Extra.EntryPointVersion != "" ||
		pr.Accepts[1].Extra.EntryPoint != wk.EntryPointV08.Hex() || pr.Accepts[1].Extra.EntryPointVersion != "0.8" || pr.Accepts[1].Extra.Factory != wk.AccountFactoryV08.Hex() {
		t.Fatalf("402: %d %+v (%v)", resp.StatusCode, pr, err)
	}

	key, _ := crypto.GenerateKey()
	eoa := crypto.PubkeyToAddress(key.PublicKey)
	fundFrom(t, eth, 1, wk.Token, eoa, 100_000)
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(10_000), Schemes: []string{x402.SchemeAANative}, RPC: chainURL,
		EntryPointVersions: []string{"0.8"}, EIP7702Delegate: wk.Simple7702Account}
	hc := &http.Client{Transport: tr}
	ep := ep08.NewEntryPoint()
	deposit := func() *big.Int {
		out, err := eth.CallContract(t.Context(), ethereum.CallMsg{To: &wk.EntryPointV08, Data: ep.PackBalanceOf(wk.PaymasterV08)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := ep.UnpackBalanceOf(out)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	depositBefore, gasPaid := deposit(), new(big.Int)
	for i := range 2 { // the first operation carries the delegation
		before := tokenBalance(t, eth, wk.Token, merchant)
		resp, err := hc.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		receipt, ok, _ := client.Receipt(resp)
		if resp.StatusCode != 200 || string(body) != "paid content" || !ok || !receipt.Success || receipt.Payer != eoa.Hex() {
			t.Fatalf("payment %d: %d %q %+v", i, resp.StatusCode, body, receipt)
		}
		if got := new(big.Int).Sub(tokenBalance(t, eth, wk.Token, merchant), before); got.Int64() != 10_000 {
			t.Fatalf("payment %d: the merchant got %s, want 10000", i, got)
		}
		// The EntryPoint's own account of the operation: it succeeded,
		// from the EOA, sponsored by the v0.8 paymaster.
		mined, err := eth.TransactionReceipt(t.Context(), common.HexToHash(receipt.TransactionHash))
		if err != nil || mined.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("payment %d: receipt %v %v", i, mined, err)
		}
		var ev *ep08.EntryPointUserOperationEvent
		for _, l := range mined.Logs {
			if x, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == wk.EntryPointV08 && x.Sender == eoa {
				ev = x
			}
		}
		if ev == nil || !ev.Success || ev.Paymaster != wk.PaymasterV08 {
			t.Fatalf("payment %d: UserOperationEvent %+v", i, ev)
		}
		gasPaid.Add(gasPaid, ev.ActualGasCost)
	}
	if spent := new(big.Int).Sub(depositBefore, deposit()); spent.Cmp(gasPaid) != 0 {
		t.Fatalf("the v0.8 paymaster's deposit went down by %s; the operations' receipts say %s", spent, gasPaid)
	}
	if got := tokenBalance(t, eth, wk.Token, eoa); got.Int64() != 80_000 {
		t.Fatalf("the EOA holds %s, want 80000", got)
	}
	code, err := eth.CodeAt(t.Context(), eoa, nil)
	if err != nil || len(code) != 23 || common.BytesToAddress(code[3:]) != wk.Simple7702Account {
		t.Fatalf("the EOA's code is %x (%v), want the delegation to %s", code, err, wk.Simple7702Account)
	}

	// One payment sent twice settles once: the second is a replay.
	resp, _ = httpGet(t, url, nil)
	pr, _ = x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	p, err := tr.PayAANative(t.Context(), pr, &pr.Accepts[1])
	if err != nil {
		t.Fatal(err)
	}
	sentTwice(t, eth, url, p, wk.Token, merchant, 10_000)
}

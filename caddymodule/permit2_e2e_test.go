package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/x402"
)

const permit2Caddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		asset dusd
		asset {{dpt}} "Devnet Permit Token" 1 6 permit2
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /paid/* {
		x402 0.02 {
			pay_to {{merchant}}
			asset {{dpt}}
		}
		reverse_proxy {{upstream}}
	}
}
`

// TestPermit2ThroughCaddy: upstream's @x402/fetch with @x402/evm's exact
// client pays a route priced in dPT, a token without EIP-3009, through
// Permit2, on the devnet behind Caddy. The payer never approved Permit2 and
// holds no allowance: the 402 declares eip2612GasSponsoring, the client
// sends an EIP-2612 permit of Permit2 with each payment, and the
// facilitator submits it in the settlement (settleWithPermit). Each
// payment is served once and charged exactly the price once.
func TestPermit2ThroughCaddy(t *testing.T) {
	dir := interopClients(t)
	var hits atomic.Int64
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"report":"`+paidMarker+`"}`)
	}))
	defer upstream.Close()

	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	payer := mustKey(t, 6)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)
	dpt := wellknown.GenesisContracts().PermitToken
	cf := permit2Caddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{dpt}}", dpt.Hex(), "{{upstream}}", strings.TrimPrefix(upstream.URL, "http://")).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	rpcURL := fmt.Sprintf("http://127.0.0.1:%d", ports["chain"])
	eth, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: dpt}
	merchantBefore, payerBefore := e.balance(merchant), e.balance(payerAddr)
	if a := permit2Allowance(t, eth, dpt, payerAddr); a.Sign() != 0 {
		t.Fatalf("the payer already allows Permit2 %s", a)
	}

	const pays = 2
	cmd := exec.Command("node", "permit2.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "URL="+e.api+"/paid/report", "RPC="+rpcURL, "ASSET="+dpt.Hex(), fmt.Sprintf("PAYS=%d", pays),
		"X402_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(payer)))
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	t.Logf("script: %s", out)
	var got struct {
		Declared bool `json:"declared"`
		Results  []struct {
			Status  int                  `json:"status"`
			Body    string               `json:"body"`
			Receipt *x402.SettleResponse `json:"receipt"`
			Method  string               `json:"method"`
			Permit  bool                 `json:"permit"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("script output %s: %v", out, err)
	}
	if !got.Declared {
		t.Error("the 402 does not declare eip2612GasSponsoring")
	}
	if len(got.Results) != pays {
		t.Fatalf("%d results, want %d", len(got.Results), pays)
	}
	for i, r := range got.Results {
		if r.Status != http.StatusOK || !strings.Contains(r.Body, paidMarker) || r.Receipt == nil || !r.Receipt.Success {
			t.Fatalf("payment %d: %d %q %+v", i, r.Status, r.Body, r.Receipt)
		}
		if r.Method != "permit2" || !r.Permit {
			t.Errorf("payment %d went by %s with permit %v, want permit2 with the EIP-2612 permit", i, r.Method, r.Permit)
		}
		receipt, err := eth.TransactionReceipt(context.Background(), common.HexToHash(r.Receipt.TransactionHash))
		if err != nil {
			t.Fatal(err)
		}
		if receipt.Status != 1 {
			t.Errorf("payment %d: settlement %s has status %d", i, receipt.TxHash, receipt.Status)
		}
		t.Logf("payment %d: settleWithPermit gas %d", i, receipt.GasUsed)
	}
	price := big.NewInt(20_000 * pays) // 0.02 dPT of 6 decimals, each
	if paid := new(big.Int).Sub(payerBefore, e.balance(payerAddr)); paid.Cmp(price) != 0 {
		t.Errorf("the payer paid %s, want %s", paid, price)
	}
	if earned := new(big.Int).Sub(e.balance(merchant), merchantBefore); earned.Cmp(price) != 0 {
		t.Errorf("the merchant earned %s, want %s", earned, price)
	}
	if n := hits.Load(); n != pays {
		t.Errorf("the upstream served %d times, want %d", n, pays)
	}
}

// permit2Allowance is owner's allowance of Permit2 in token.
func permit2Allowance(t *testing.T, eth *ethclient.Client, token, owner common.Address) *big.Int {
	t.Helper()
	tok := contracts.NewDevPermitToken()
	out, err := eth.CallContract(context.Background(), ethereum.CallMsg{To: &token, Data: tok.PackAllowance(owner, contracts.Permit2Address)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := tok.UnpackAllowance(out)
	return v
}

package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// networksCaddyfile is an app of two networks, two dev chains standing
// for real ones, each with its own settler store; /paid/ is offered on
// both, /b/ on the second only.
const networksCaddyfile = `{
	x402 {
		network eip155:{{idA}} {
			rpc {{rpcA}}
			settler_key {env.X402_NETWORKS_SETTLER_KEY}
			asset {{tokenA}} "{{nameA}}" "{{versionA}}" 6
			store_path {{dir}}/a.db
		}
		network eip155:{{idB}} {
			rpc {{rpcB}}
			settler_key {env.X402_NETWORKS_SETTLER_KEY}
			asset {{tokenB}} "{{nameB}}" "{{versionB}}" 6
			store_path {{dir}}/b.db
		}
		receipt_timeout 5s
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	metrics /metrics
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		respond "paid content"
	}
	handle /b/* {
		x402 0.01 {
			pay_to {{merchant}}
			networks eip155:{{idB}}
		}
		respond "b content"
	}
}

http://127.0.0.1:{{fac}} {
	x402_facilitator
}
`

// TestSeveralNetworks: one Caddy takes payments on two chains of
// different chain ids. The 402 offers one accept per network; /supported
// lists both; a payment on each settles on its own chain, paid once, to
// the merchant; a route limited to one network offers only it. Then the
// second chain dies: its payments answer 503 with Retry-After while the
// first's keep settling, /health names the dead network, and the metrics
// count each payment under its own network.
func TestSeveralNetworks(t *testing.T) {
	a, b := startChain(t, 31337), startChain(t, 84532)
	dir := t.TempDir()
	settler := mustKey(t, 0)
	t.Setenv("X402_NETWORKS_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(settler)))
	merchant := crypto.PubkeyToAddress(mustKey(t, 2).PublicKey)
	api, fac := freePort(t), freePort(t)
	cf := strings.NewReplacer(
		"{{idA}}", a.ChainID.String(), "{{rpcA}}", a.URL, "{{tokenA}}", a.Token.Address.Hex(), "{{nameA}}", a.Token.Name, "{{versionA}}", a.Token.Version,
		"{{idB}}", b.ChainID.String(), "{{rpcB}}", b.URL, "{{tokenB}}", b.Token.Address.Hex(), "{{nameB}}", b.Token.Name, "{{versionB}}", b.Token.Version,
		"{{dir}}", filepath.ToSlash(dir), "{{merchant}}", merchant.Hex(),
		"{{api}}", fmt.Sprint(api), "{{fac}}", fmt.Sprint(fac),
	).Replace(networksCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", api)
	facURL := fmt.Sprintf("http://127.0.0.1:%d", fac)
	netA, netB := x402.FormatNetwork(a.ChainID.Uint64()), x402.FormatNetwork(b.ChainID.Uint64())
	payer := mustKey(t, 1)

	// The 402s: one accept per network on /paid/, the second's only on /b/.
	offers := func(path string) (*x402.PaymentRequired, []string) {
		t.Helper()
		resp, body := httpGet(t, base+path, nil)
		if resp.StatusCode != http.StatusPaymentRequired {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil {
			t.Fatal(err)
		}
		var nets []string
		for _, o := range pr.Accepts {
			nets = append(nets, o.Network)
		}
		return pr, nets
	}
	prPaid, nets := offers("/paid/x")
	if fmt.Sprint(nets) != fmt.Sprint([]string{netA, netB}) {
		t.Fatalf("/paid/ offers networks %v, want %s and %s", nets, netA, netB)
	}
	if _, nets := offers("/b/x"); fmt.Sprint(nets) != fmt.Sprint([]string{netB}) {
		t.Fatalf("/b/ offers networks %v, want %s only", nets, netB)
	}

	// /supported lists both networks, each with its asset.
	resp, body := httpGet(t, facURL+"/supported", nil)
	var sup x402.Supported
	if err := json.Unmarshal([]byte(body), &sup); err != nil || resp.StatusCode != 200 {
		t.Fatalf("/supported: %d %s (%v)", resp.StatusCode, body, err)
	}
	var kinds []string
	for _, k := range sup.Kinds {
		kinds = append(kinds, k.Scheme+"@"+k.Network)
	}
	if fmt.Sprint(kinds) != fmt.Sprint([]string{"exact@" + netA, "exact@" + netB}) {
		t.Fatalf("/supported kinds %v", kinds)
	}

	// A payment on each network settles on its own chain.
	chains := map[string]*devnet.Devnet{netA: a, netB: b}
	pay := func(path string, pr *x402.PaymentRequired, network string) (*http.Response, string) {
		t.Helper()
		for i := range pr.Accepts {
			if pr.Accepts[i].Network != network {
				continue
			}
			p, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[i])
			if err != nil {
				t.Fatal(err)
			}
			h, _ := x402.EncodeHeader(p)
			return httpGet(t, base+path, map[string]string{x402.HeaderPaymentSignature: h})
		}
		t.Fatalf("no offer on %s", network)
		return nil, ""
	}
	for _, network := range []string{netA, netB} {
		chain := chains[network]
		eth, err := ethclient.Dial(chain.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer eth.Close()
		before := tokenBalance(t, eth, chain.Token.Address, merchant)
		resp, body := pay("/paid/x", prPaid, network)
		if resp.StatusCode != 200 || body != "paid content" {
			t.Fatalf("paying on %s: %d %s", network, resp.StatusCode, body)
		}
		receipt, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
		if err != nil || !receipt.Success || receipt.Network != network {
			t.Fatalf("paying on %s: receipt %+v (%v)", network, receipt, err)
		}
		r, err := eth.TransactionReceipt(context.Background(), common.HexToHash(receipt.TransactionHash))
		if err != nil || r.Status != 1 {
			t.Fatalf("paying on %s: the transaction %s is not mined on its chain: %v", network, receipt.TransactionHash, err)
		}
		if got := new(big.Int).Sub(tokenBalance(t, eth, chain.Token.Address, merchant), before); got.Int64() != 10000 {
			t.Fatalf("paying on %s: the merchant got %s, want 10000", network, got)
		}
	}

	// The second chain dies. Its payments answer 503 with Retry-After;
	// the first's keep settling.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if resp, body := pay("/paid/x", prPaid, netB); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("paying on the dead %s: %d (Retry-After %q) %s, want 503 with Retry-After", netB, resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if resp, body := pay("/paid/x", prPaid, netA); resp.StatusCode != 200 {
		t.Fatalf("paying on %s while %s is down: %d %s", netA, netB, resp.StatusCode, body)
	}
	resp, body = httpGet(t, facURL+"/health", nil)
	var health x402.Health
	if err := json.Unmarshal([]byte(body), &health); err != nil {
		t.Fatalf("/health: %s (%v)", body, err)
	}
	if health.Status != "degraded" || health.Dependencies["chain "+netB] != "unreachable" || health.Dependencies["chain "+netA] != "ok" {
		t.Fatalf("/health with %s down: %d %s", netB, resp.StatusCode, body)
	}

	// Each payment is counted under its own network.
	_, metrics := httpGet(t, base+"/metrics", nil)
	for network, want := range map[string]string{netA: "2", netB: "1"} {
		line := fmt.Sprintf(`caddy_x402_payments_total{asset="%s",host="127.0.0.1",network="%s",result="settled",scheme="exact",server="srv0"} %s`, chains[network].Token.Address.Hex(), network, want)
		if !strings.Contains(metrics, line) {
			t.Errorf("metrics lack %s", line)
		}
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", grepLines(metrics, "caddy_x402_payments_total"))
	}
}

// httpGet gets url with header, and returns the response and its body.
func httpGet(t *testing.T, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	c := &http.Client{Timeout: time.Minute}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// tokenBalance is who's balance of a DevUSD token.
func tokenBalance(t *testing.T, eth *ethclient.Client, token, who common.Address) *big.Int {
	t.Helper()
	tok := contracts.NewDevUSD()
	out, err := eth.CallContract(context.Background(), ethereum.CallMsg{To: &token, Data: tok.PackBalanceOf(who)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tok.UnpackBalanceOf(out)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// grepLines are the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}


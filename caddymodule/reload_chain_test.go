package caddymodule

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// rpcFront is an HTTP front of a chain's RPC, standing for one of a
// provider's endpoints: it counts the calls it passes on.
type rpcFront struct {
	*httptest.Server
	calls atomic.Int64
}

func newRPCFront(t *testing.T, backend string) *rpcFront {
	t.Helper()
	f := &rpcFront{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		resp, err := http.Post(backend, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(f.Close)
	return f
}

// deployToken deploys a DevUSD named name on d, owned by the deployer,
// and mints amount to each of to.
func deployToken(t *testing.T, d *devnet.Devnet, eth *ethclient.Client, name string, amount *big.Int, to ...common.Address) common.Address {
	t.Helper()
	ctx := context.Background()
	owner := d.Accounts[7]
	send := func(target *common.Address, data []byte) *types.Receipt {
		nonce, err := eth.PendingNonceAt(ctx, owner.Address)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := types.SignNewTx(owner.Key, types.LatestSignerForChainID(d.ChainID), &types.DynamicFeeTx{
			ChainID: d.ChainID, Nonce: nonce, To: target, Data: data, Gas: 3_000_000,
			GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e9 + 1e11),
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := eth.SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
		receipt, err := d.Wait(ctx, tx.Hash())
		if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("%s: %+v %v", name, receipt, err)
		}
		return receipt
	}
	tok := contracts.NewDevUSD()
	addr := send(nil, append(common.FromHex(contracts.DevUSDMetaData.Bin), tok.PackConstructor(name, "SUSD", "1")...)).ContractAddress
	for _, who := range to {
		send(&addr, tok.PackMint(who, amount))
	}
	return addr
}

// TestReloadMovesRPCAndAssets: a reload that changes a network's rpc
// moves the running facilitator's connection to it, without a restart,
// once the new RPC has said it serves the network's chain; one that adds
// an asset offers and settles it at once, after the chain confirmed its
// EIP-712 domain. A new rpc of another chain, one that does not answer,
// and an asset the chain contradicts are refused, and the old config
// stays in force, paying as before.
func TestReloadMovesRPCAndAssets(t *testing.T) {
	d := startChain(t, 84532)
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	payer := mustKey(t, 1)
	merchant := common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
	second := deployToken(t, d, eth, "Second USD", big.NewInt(1_000_000_000), crypto.PubkeyToAddress(payer.PublicKey))
	frontA, frontB := newRPCFront(t, d.URL), newRPCFront(t, d.URL)
	other := startChain(t, 31337)

	t.Setenv("X402_RELOAD_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	api := freePort(t)
	store := filepath.ToSlash(filepath.Join(t.TempDir(), "reload.db"))
	dUSD := fmt.Sprintf("asset %s %q %q 6", d.Token.Address.Hex(), d.Token.Name, d.Token.Version)
	config := func(rpc string, assets ...string) string {
		return fmt.Sprintf(`{
	x402 {
		network eip155:84532
		rpc %s
		settler_key {env.X402_RELOAD_SETTLER_KEY}
		%s
		store_path %s
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to %s
	}
	respond "paid content"
}
`, rpc, strings.Join(assets, "\n\t\t"), store, api, merchant.Hex())
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/", api)
	// pay pays the route in asset and fails unless it is served, and the
	// merchant's balance of asset grows by exactly the price.
	pay := func(t *testing.T, asset common.Address) {
		t.Helper()
		resp, body := httpGet(t, base, nil)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil {
			t.Fatalf("402: %d %s (%v)", resp.StatusCode, body, err)
		}
		i := slices.IndexFunc(pr.Accepts, func(o x402.PaymentRequirements) bool { return common.HexToAddress(o.Asset) == asset })
		if i < 0 {
			t.Fatalf("the 402 offers no %s: %+v", asset, pr.Accepts)
		}
		before := tokenBalance(t, eth, asset, merchant)
		p, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[i])
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		resp, body = httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: h})
		if resp.StatusCode != http.StatusOK || body != "paid content" {
			t.Fatalf("paying in %s: %d %s", asset, resp.StatusCode, body)
		}
		if got := new(big.Int).Sub(tokenBalance(t, eth, asset, merchant), before); got.Cmp(big.NewInt(10_000)) != 0 {
			t.Fatalf("the merchant received %s of %s, want 10000", got, asset)
		}
	}
	offers := func(t *testing.T) int {
		t.Helper()
		resp, _ := httpGet(t, base, nil)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil {
			t.Fatal(err)
		}
		return len(pr.Accepts)
	}

	if _, err := runCaddyfile(t, config(frontA.URL, dUSD)); err != nil {
		t.Fatal(err)
	}
	pay(t, d.Token.Address)
	if frontA.calls.Load() == 0 {
		t.Fatal("the first RPC carried no call")
	}

	// The new rpc and the new asset, in one reload.
	secondAsset := fmt.Sprintf(`asset %s "Second USD" "1" 6`, second.Hex())
	if _, err := runCaddyfile(t, config(frontB.URL, dUSD, secondAsset)); err != nil {
		t.Fatalf("reloading with a new rpc and asset: %v", err)
	}
	if n := len(chains()); n != 1 {
		t.Fatalf("%d shared chains after the reload; want the one that ran, moved", n)
	}
	frontA.Close() // the old RPC is gone: nothing may need it now
	before := frontB.calls.Load()
	if n := offers(t); n != 2 {
		t.Fatalf("the 402 offers %d accepts after the reload, want 2", n)
	}
	pay(t, second)
	pay(t, d.Token.Address)
	if frontB.calls.Load() == before {
		t.Fatal("the payments did not go through the new RPC")
	}

	for _, tc := range []struct {
		name, config, refusal string
	}{
		{"an rpc of another chain", config(other.URL, dUSD, secondAsset), "serves chain 31337, not 84532"},
		{"an rpc that does not answer", config(fmt.Sprintf("http://127.0.0.1:%d", freePort(t)), dUSD, secondAsset), "does not answer"},
		{"an asset the chain contradicts", config(frontB.URL, dUSD, fmt.Sprintf(`asset %s "Second USX" "1" 6`, second.Hex())), `give: asset `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runCaddyfile(t, tc.config)
			if err == nil || !strings.Contains(err.Error(), tc.refusal) {
				t.Fatalf("reload: %v, want a refusal with %q", err, tc.refusal)
			}
			// The config in force before pays as before.
			if n := offers(t); n != 2 {
				t.Fatalf("the 402 offers %d accepts after a refused reload, want 2", n)
			}
			pay(t, second)
		})
	}

	// An asset removed by a reload is no longer offered or settled.
	if _, err := runCaddyfile(t, config(frontB.URL, dUSD)); err != nil {
		t.Fatal(err)
	}
	if n := offers(t); n != 1 {
		t.Fatalf("the 402 offers %d accepts once the asset is removed, want 1", n)
	}
	pay(t, d.Token.Address)
}

// TestRPCTarget: a chain connection over HTTP sends its calls to the URL
// in force, with the URL's path, query and credentials, and a move takes
// effect for the next call.
func TestRPCTarget(t *testing.T) {
	t.Parallel()
	type seen struct{ host, path, query, user, pass string }
	got := make(chan seen, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		got <- seen{r.Host, r.URL.Path, r.URL.RawQuery, u, p}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x14a34"}`)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	c, target, err := dialChain(context.Background(), "http://alice:secret@"+host+"/v2/key?x=1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var id string
	if err := c.Call(&id, "eth_chainId"); err != nil || id != "0x14a34" {
		t.Fatalf("eth_chainId: %q %v", id, err)
	}
	if s := <-got; s != (seen{host, "/v2/key", "x=1", "alice", "secret"}) {
		t.Fatalf("the first call reached %+v", s)
	}
	if err := target.set("http://" + host + "/other"); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(&id, "eth_chainId"); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != (seen{host, "/other", "", "", ""}) {
		t.Fatalf("the call after the move reached %+v", s)
	}
	for _, bad := range []string{"ws://" + host, "http://", "/tmp/geth.ipc", "::"} {
		if err := target.set(bad); err == nil {
			t.Errorf("set(%q) took it", bad)
		}
	}
	// A call that fails names the host, never the path (a provider's key).
	target.set("http://127.0.0.1:1/v2/secret-key")
	err = c.Call(&id, "eth_chainId")
	if err == nil || strings.Contains(err.Error(), "secret-key") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("a failed call: %v", err)
	}
}

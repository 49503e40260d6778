package client

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// expressSettleKey is the facilitator API key the upstream server settles
// with, as a remote merchant.
const expressSettleKey = "express-interop-key"

// upstreamDir returns the directory of the upstream scripts, with their
// pinned npm packages installed (npm ci), or skips the test without
// Node.js.
func upstreamDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; the interop test needs Node.js 18 or newer (.ci/run installs it)")
	}
	dir, err := filepath.Abs(filepath.Join("..", "interop"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@x402", "express")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--silent")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return dir
}

// The caddy-x402 Go payer pays an upstream x402 server, @x402/express
// 2.27.0 with @x402/evm's exact scheme, whose facilitator is caddy-x402's
// (over HTTP, on the devnet): the answer is 200 with the report, the
// payer reads upstream's receipt (which has no x402Version), and the
// payer's balance moves by the price once, to the merchant, in the
// receipt's transaction.
func TestInteropUpstreamExpressServer(t *testing.T) {
	t.Parallel()
	dir := upstreamDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	chain, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	network := x402.FormatNetwork(chain.ChainID.Uint64())
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "facilitator.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rc, err := rpc.DialContext(ctx, chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	svc, err := facilitator.New(ctx, facilitator.Config{
		Network:    network,
		SettlerKey: chain.Accounts[0].Key,
		Assets:     []facilitator.Asset{{Address: chain.Token.Address, Name: chain.Token.Name, Version: chain.Token.Version}},
		Records:    st,
		Chain:      rc,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	fac := httptest.NewServer(&facilitator.Handler{
		Facilitator: svc,
		Network:     network,
		AuthorizeSettle: func(secret string) (string, error) {
			if secret != expressSettleKey {
				return "", errors.New("unknown key")
			}
			return "express", nil
		},
	})
	t.Cleanup(fac.Close)

	payer, merchant := chain.Accounts[1], chain.Accounts[6].Address
	const price = 12_345
	cmd := exec.CommandContext(ctx, "node", "express-server.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"FACILITATOR_URL="+fac.URL,
		"SETTLE_KEY="+expressSettleKey,
		"NETWORK="+network,
		"ASSET="+chain.Token.Address.Hex(),
		"PAY_TO="+merchant.Hex(),
		"AMOUNT=12345",
		"TOKEN_NAME="+chain.Token.Name,
		"TOKEN_VERSION="+chain.Token.Version,
	)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the server exits when its input closes
		cmd.Wait()
		if t.Failed() {
			t.Logf("express server's stderr:\n%s", stderr.String())
		}
	})
	var listening struct {
		URL string `json:"url"`
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || json.Unmarshal([]byte(line), &listening) != nil || listening.URL == "" {
		t.Fatalf("the express server did not start: %q, %v\n%s", line, err, stderr.String())
	}

	eth, err := ethclient.DialContext(ctx, chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	balance := func(who common.Address) *big.Int {
		t.Helper()
		token := contracts.NewDevUSD()
		out, err := eth.CallContract(ctx, ethereum.CallMsg{To: &chain.Token.Address, Data: token.PackBalanceOf(who)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := token.UnpackBalanceOf(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	payerBefore, merchantBefore := balance(payer.Address), balance(merchant)

	c := &http.Client{Transport: &Transport{Key: payer.Key, MaxAmount: big.NewInt(price)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, listening.URL+"/paid", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "paid through @x402/express") {
		t.Fatalf("%s: %s", resp.Status, body)
	}
	receipt, ok, err := Receipt(resp)
	if err != nil || !ok {
		t.Fatalf("upstream's receipt %q: ok %v, %v", resp.Header.Get(x402.HeaderPaymentResponse), ok, err)
	}
	if !receipt.Success || receipt.Network != network || !strings.EqualFold(receipt.Payer, payer.Address.Hex()) {
		t.Fatalf("receipt %+v", receipt)
	}
	mined, err := eth.TransactionReceipt(ctx, common.HexToHash(receipt.TransactionHash))
	if err != nil || mined.Status != 1 {
		t.Fatalf("the receipt's transaction %s: %v, %v", receipt.TransactionHash, mined, err)
	}
	if got := new(big.Int).Sub(payerBefore, balance(payer.Address)); got.Int64() != price {
		t.Fatalf("the payer paid %s, want %d once", got, price)
	}
	if got := new(big.Int).Sub(balance(merchant), merchantBefore); got.Int64() != price {
		t.Fatalf("the merchant got %s, want %d once", got, price)
	}
	raw, _ := base64.StdEncoding.DecodeString(resp.Header.Get(x402.HeaderPaymentResponse))
	t.Logf("paid @x402/express %d in %s; its receipt: %s", price, receipt.TransactionHash, raw)
}

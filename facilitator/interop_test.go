package facilitator

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/x402"
)

var npmOnce sync.Once

// interopDir returns the directory of the upstream-client scripts, with
// their pinned npm packages installed.
func interopDir(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; the interop test needs Node.js 18 or newer (.ci/run installs it)")
	}
	dir, err := filepath.Abs(filepath.Join("..", "interop"))
	if err != nil {
		t.Fatal(err)
	}
	npmOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@metamask", "test-bundler")); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--silent")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	})
	return dir
}

// TestInteropUpstreamClient has upstream x402's exact client sign a payment
// and upstream's HTTPFacilitatorClient, which validates every answer with
// zod, call /supported, /verify and /settle, including the failures.
func TestInteropUpstreamClient(t *testing.T) {
	t.Parallel()
	dir := interopDir(t)
	e := newEnv(t, envOptions{})
	payer, merchant := e.chain.Accounts[1], e.chain.Accounts[7].Address
	before := e.balance(merchant)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "facilitator.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"FACILITATOR_URL="+e.srv.URL,
		"NETWORK="+e.network,
		"ASSET="+e.chain.Token.Address.Hex(),
		"PAY_TO="+merchant.Hex(),
		"AMOUNT=15000",
		"PAYER_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(payer.Key)),
		"TOKEN_NAME="+e.chain.Token.Name,
		"TOKEN_VERSION="+e.chain.Token.Version,
		"SETTLE_KEY="+testSettleKey,
	)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("interop script: %v\nstdout: %s\nstderr: %s", err, out, stderr)
	}
	var got struct {
		Payer   string              `json:"payer"`
		Settled x402.SettleResponse `json:"settled"`
		Failed  x402.SettleResponse `json:"failed"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("script output %s: %v", out, err)
	}
	if got.Payer != payer.Address.Hex() || !got.Settled.Success || got.Failed.Success {
		t.Fatalf("script saw %s", out)
	}
	// The settlement upstream saw is on chain.
	if n := e.transfers(got.Settled.TransactionHash, payer.Address, merchant); n != 1 {
		t.Fatalf("%d transfers in %s", n, got.Settled.TransactionHash)
	}
	if after, want := e.balance(merchant), new(big.Int).Add(before, big.NewInt(15000)); after.Cmp(want) != 0 {
		t.Fatalf("merchant balance = %s, want %s", after, want)
	}
	t.Logf("upstream client settled %s", got.Settled.TransactionHash)
}

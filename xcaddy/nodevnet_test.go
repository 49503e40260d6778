package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestNoDevnetBuild checks the production build, go build -tags nodevnet:
// it links neither the dev chain nor go-ethereum's node, refuses the demo's
// network devnet with a message that names the tag, and charges for a
// route on a real chain (a devnet in this test's process, reached over
// HTTP as any chain would be) from payment to settlement.
func TestNoDevnetBuild(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-tags", "nodevnet", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	banned := map[string]bool{
		"github.com/caddy-x402/caddy-x402/devnet": true, "github.com/ethereum/go-ethereum/node": true,
		"github.com/ethereum/go-ethereum/eth": true, "github.com/ethereum/go-ethereum/eth/catalyst": true,
		"github.com/ethereum/go-ethereum/miner": true, "github.com/ethereum/go-ethereum/core/txpool": true,
		"github.com/ethereum/go-ethereum/p2p": true,
	}
	for pkg := range strings.FieldsSeq(string(out)) {
		if banned[pkg] {
			t.Errorf("the nodevnet build links %s", pkg)
		}
	}

	bin := filepath.Join(t.TempDir(), "caddy-nodevnet")
	if out, err := exec.Command("go", "build", "-tags", "nodevnet", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building with -tags nodevnet: %v\n%s", err, out)
	}
	home := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+home, "XDG_CONFIG_HOME="+home, "HOME="+home)
	refused := []struct {
		name string
		args []string
	}{
		{"the demo", []string{"validate", "--config", "../Caddyfile.example", "--adapter", "caddyfile"}},
		{"caddy x402 devnet", []string{"x402", "devnet", "--addr", "127.0.0.1:0"}},
	}
	for _, tc := range refused {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "nodevnet") {
			t.Errorf("%s: err %v, want a refusal naming the nodevnet tag; output:\n%s", tc.name, err, tail(string(out), 10))
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	chain, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	merchant := common.Address{0x40, 0x2}
	port, admin := freePort(t), freePort(t)
	var cfg bytes.Buffer
	err = caddyfile.Execute(&cfg, map[string]any{
		"Admin": admin, "Port": port, "Network": x402.FormatNetwork(chain.ChainID.Uint64()),
		"Token": chain.Token.Address.Hex(), "TokenName": chain.Token.Name, "TokenVersion": chain.Token.Version,
		"Merchant": merchant.Hex(), "Name": "nodevnet", "Store": filepath.Join(home, "x402.db"),
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "Caddyfile")
	if err := os.WriteFile(path, cfg.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--config", path, "--adapter", "caddyfile")
	cmd.Env = append(env, "X402_RPC_URL="+chain.URL, "X402_SETTLER_KEY="+hex.EncodeToString(crypto.FromECDSA(chain.Accounts[0].Key)))
	done := startProcess(t, cmd, "caddy", new(lockedBuffer))
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(time.Minute); ; {
		resp, err := http.Get(url + "/x402/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-done:
			t.Fatal("caddy exited")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("caddy did not become healthy")
		}
		time.Sleep(100 * time.Millisecond) // polling for caddy to start
	}

	payer := &http.Client{Timeout: time.Minute, Transport: &client.Transport{Key: chain.Accounts[1].Key, MaxAmount: big.NewInt(1000)}}
	resp, err := payer.Get(url + "/paid")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "paid content nodevnet" {
		t.Fatalf("paid request: %d %q", resp.StatusCode, body)
	}
	var settled x402.SettleResponse
	if err := x402.DecodeHeader(resp.Header.Get(x402.HeaderPaymentResponse), &settled); err != nil || !settled.Success {
		t.Fatalf("PAYMENT-RESPONSE %+v: %v", settled, err)
	}
	eth, err := ethclient.Dial(chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	receipt, err := eth.TransactionReceipt(ctx, common.HexToHash(settled.TransactionHash))
	if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("settlement %s: %v, %+v", settled.TransactionHash, err, receipt)
	}
}

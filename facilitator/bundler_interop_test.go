package facilitator

import (
	"bufio"
	"context"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// startBundler runs a real ERC-4337 bundler (@metamask/test-bundler) on the
// env's devnet and returns its ERC-7769 URL. It signs bundles with account
// #0 of the test mnemonic.
func (e *env) startBundler() string {
	e.t.Helper()
	dir := interopDir(e.t)
	// The bundler reads logs from block 1 on: make sure there is one.
	e.sendTx(e.chain.Accounts[2].Key, e.chain.Accounts[3].Address, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	tmp := e.t.TempDir()
	mnemonic := filepath.Join(tmp, "mnemonic.txt")
	os.WriteFile(mnemonic, []byte(devnet.TestMnemonic), 0o600)
	cmd := exec.Command("node", "bundler.mjs", e.chain.URL, e.chain.Contracts.EntryPoint.Hex(), fmt.Sprint(port),
		e.chain.Accounts[0].Address.Hex(), mnemonic, filepath.Join(tmp, "bundler.config.json"))
	cmd.Dir = dir
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		var seen []string
		for sc.Scan() {
			if strings.Contains(sc.Text(), "READY") {
				ready <- nil
				for sc.Scan() { // keep draining
				}
				return
			}
			seen = append(seen, sc.Text())
		}
		ready <- fmt.Errorf("the bundler exited: %s", strings.Join(seen, "\n"))
	}()
	select {
	case err := <-ready:
		if err != nil {
			e.t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		e.t.Fatal("the bundler did not start")
	}
	return fmt.Sprintf("http://127.0.0.1:%d/rpc", port)
}

func (e *env) sendTx(_ any, to common.Address, data []byte) {
	e.t.Helper()
	k := e.chain.Accounts[2].Key
	nonce, _ := e.eth.PendingNonceAt(context.Background(), e.chain.Accounts[2].Address)
	tx, _ := types.SignNewTx(k, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &to, Data: data, Gas: 100_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := e.eth.SendTransaction(context.Background(), tx); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.chain.Wait(context.Background(), tx.Hash()); err != nil {
		e.t.Fatal(err)
	}
}

// TestExternalBundler settles aa-native payments through a real ERC-4337
// bundler over ERC-7769 (eth_sendUserOperation, eth_getUserOperationReceipt)
// instead of the built-in one; the bundler, which serves v0.6 alone, is
// refused as v0.7's.
func TestExternalBundler(t *testing.T) {
	t.Parallel()
	e := newEnvB(t, envOptions{aaNative: true, externalBundler: true, chainID: 1337, settler: 7})
	merchant := e.chain.Accounts[4].Address
	before := e.balance(merchant)
	req, _ := e.aaPay(e.chain.Accounts[1].Key, e.aaRequirements(merchant, 7_000))
	ctx := x402.WithIdempotencyKey(context.Background(), "external-bundler-1")
	res, err := e.client.Settle(ctx, req)
	if err != nil || !res.Success || res.UserOpHash == "" {
		t.Fatalf("settle via the external bundler: %+v %v", res, err)
	}
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
	if err != nil || receipt.Status != 1 {
		t.Fatalf("receipt %v %v", receipt, err)
	}
	tx, _, _ := e.eth.TransactionByHash(context.Background(), receipt.TxHash)
	from, _ := types.Sender(types.LatestSignerForChainID(e.chain.ChainID), tx)
	if from != e.chain.Accounts[0].Address || from == e.svc.Settler() {
		t.Fatalf("the bundle was sent by %s; want the external bundler's %s", from, e.chain.Accounts[0].Address)
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 7_000 {
		t.Fatalf("merchant got %s", got)
	}
	// The same settle's retry gets the same receipt; another settle of
	// the payment gets replay.
	again, _ := e.client.Settle(ctx, req)
	if again.TransactionHash != res.TransactionHash || !again.Success {
		t.Fatalf("duplicate: %+v", again)
	}
	if other, _ := e.client.Settle(context.Background(), req); other.Success || !strings.Contains(other.Message, "replay") {
		t.Fatalf("another settle of the payment: %+v", other)
	}

	// The bundler serves v0.6 alone: as v0.7's bundler it is refused at
	// start, naming what it serves.
	e.stop()
	cfg := e.cfg
	aa := *cfg.AANative
	aa.EntryPoints = slices.Clone(aa.EntryPoints)
	aa.EntryPoints[1].BundlerURL = aa.BundlerURL
	cfg.AANative = &aa
	_, err = e.open(cfg)
	want := "(the bundler_url of EntryPoint v0.7) serves EntryPoint " + e.chain.Contracts.EntryPoint.Hex() + " only, not this network's v0.7 EntryPoint " + e.chain.Contracts.EntryPointV07.Hex()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("started with a v0.6 bundler as v0.7's (%v); want a refusal saying %q", err, want)
	}
}

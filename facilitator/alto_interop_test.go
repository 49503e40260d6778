package facilitator

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/x402"
)

// deterministicDeployer is the runtime code of the CREATE2 factory that
// bundlers expect at 0x4e59b44847b379578588920cA78FbF26c0B4956C (Arachnid's
// deterministic-deployment-proxy): calldata salt ‖ initCode, CREATE2, return
// the address. The devnet has no keyless deployment transaction, so the
// test deploys this code at an ordinary address and names it to alto.
const deterministicDeployer = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3"

// startAlto runs Pimlico's alto (@pimlico/alto, an ERC-4337 v0.7 bundler,
// pinned in interop/) on the env's devnet, for entryPoints, and returns
// its ERC-7769 URL. Its executor is test account #5. Safe mode
// (ERC-7562 tracing) is off: geth's dev node has no alto tracer.
func (e *env) startAlto(entryPoints []common.Address) string {
	e.t.Helper()
	eps := make([]string, len(entryPoints))
	for i, ep := range entryPoints {
		eps[i] = ep.Hex()
	}
	dir := interopDir(e.t)
	alto := filepath.Join(dir, "node_modules", "@pimlico", "alto", "esm", "cli", "alto.js")
	if _, err := os.Stat(alto); err != nil {
		e.t.Skipf("@pimlico/alto is not installed in %s (npm ci there): %v", dir, err)
	}
	runtime := common.FromHex(deterministicDeployer)
	init := append([]byte{0x60, byte(len(runtime)), 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3}, runtime...)
	deployer := e.deploy(hexutil.Encode(init), nil)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	key := func(i int) string { return hexutil.Encode(crypto.FromECDSA(e.chain.Accounts[i].Key)) }
	cmd := exec.Command("node", alto,
		"--entrypoints", strings.Join(eps, ","), "--rpc-url", e.chain.URL, "--port", fmt.Sprint(port),
		"--executor-private-keys", key(5), "--utility-private-key", key(6),
		"--deterministic-deployer-address", deployer.Hex(), "--safe-mode", "false",
		"--block-time", "100", "--utility-wallet-monitor", "false", "--refilling-wallets", "false", "--log-level", "info")
	cmd.Dir = dir
	// Its log (at info, to tell a stalled bundle from one never made) is
	// printed only if the test fails.
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if e.t.Failed() {
			e.t.Logf("alto's log:\n%s", logs.String())
		}
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	body := `{"jsonrpc":"2.0","id":1,"method":"eth_supportedEntryPoints","params":[]}`
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			continue
		}
		var res struct {
			Result []common.Address `json:"result"`
		}
		json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		if slices.Equal(res.Result, entryPoints) {
			return url
		}
	}
	e.t.Fatalf("alto did not start:\n%s", logs.String())
	return ""
}

// newAltoEnv is an aa-native env (chain id 1337, settler #8) with alto
// running for EntryPoint v0.7, and v0.6 too with alsoV06, and the env's
// service stopped, for the test to give it a bundler and start it. It
// returns alto's URL.
func newAltoEnv(t *testing.T, alsoV06 bool) (*env, string) {
	t.Helper()
	// alto bundles on its own schedule, which a loaded CI machine under
	// -race stretched past the default receipt timeout (once, for a v0.6
	// operation with alto serving both EntryPoints): wait longer.
	// A block a second: alto acts on the blocks it sees (a bundle's
	// receipt, the next bundle), and a chain sealed on demand seals none
	// once nothing else is sent, which stalled a v0.6 operation for six
	// minutes in a CI run.
	e := newEnvB(t, envOptions{aaNative: true, chainID: 1337, settler: 8, receiptTimeout: 3 * time.Minute, blockPeriod: time.Second})
	eps := []common.Address{e.chain.Contracts.EntryPointV07}
	if alsoV06 {
		eps = []common.Address{e.chain.Contracts.EntryPoint, e.chain.Contracts.EntryPointV07}
	}
	url := e.startAlto(eps)
	e.stop()
	return e, url
}

// TestExternalBundlerV07 settles a v0.7 aa-native payment through alto, a
// real v0.7 bundler, over ERC-7769 with v0.7's field names
// (bundler_url_v07), while v0.6 payments keep the built-in bundler.
func TestExternalBundlerV07(t *testing.T) {
	t.Parallel()
	e, url := newAltoEnv(t, false)
	e.cfg.AANative.EntryPoints[1].BundlerURL = url
	e.start()

	merchant := e.chain.Accounts[4].Address
	before := e.balance(merchant)
	req := e.aaPayV07(e.chain.Accounts[1].Key, e.aaRequirementsV07(merchant, 7_000))
	ctx := x402.WithIdempotencyKey(context.Background(), "alto-1")
	res, err := e.client.Settle(ctx, req)
	if err != nil || !res.Success || res.UserOpHash == "" {
		t.Fatalf("settle via alto: %+v %v", res, err)
	}
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
	if err != nil || receipt.Status != 1 {
		t.Fatalf("receipt %v %v", receipt, err)
	}
	tx, _, _ := e.eth.TransactionByHash(context.Background(), receipt.TxHash)
	from, _ := types.Sender(types.LatestSignerForChainID(e.chain.ChainID), tx)
	if from != e.chain.Accounts[5].Address || from == e.svc.Settler() {
		t.Fatalf("the bundle was sent by %s; want alto's executor %s", from, e.chain.Accounts[5].Address)
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 7_000 {
		t.Fatalf("merchant got %s", got)
	}
	again, _ := e.client.Settle(ctx, req)
	if again.TransactionHash != res.TransactionHash || !again.Success {
		t.Fatalf("the retry answered %+v, want %s", again, res.TransactionHash)
	}
	t.Logf("alto bundled the v0.7 settlement in %s: %d gas", res.TransactionHash, receipt.GasUsed)

	// A v0.6 payment still goes through the built-in bundler.
	r6, _ := e.aaPay(e.chain.Accounts[1].Key, e.aaRequirements(merchant, 3_000))
	res6, err := e.client.Settle(context.Background(), r6)
	if err != nil || !res6.Success {
		t.Fatalf("v0.6 settle: %+v %v", res6, err)
	}
	tx6, _, _ := e.eth.TransactionByHash(context.Background(), common.HexToHash(res6.TransactionHash))
	if from6, _ := types.Sender(types.LatestSignerForChainID(e.chain.ChainID), tx6); from6 != e.svc.Settler() {
		t.Fatalf("the v0.6 bundle was sent by %s, not the settler", from6)
	}
}

// TestBundlerURLServingV07Only gives alto, a bundler of EntryPoint v0.7
// alone, as the network's one bundler_url: its eth_supportedEntryPoints
// sends v0.7 operations to it and v0.6's to the built-in bundler, and
// both versions stay offered. Without a v0.7 EntryPoint configured, the
// same bundler is refused at start, with what it serves and the option to
// set.
func TestBundlerURLServingV07Only(t *testing.T) {
	t.Parallel()
	e, url := newAltoEnv(t, false)
	e.cfg.AANative.BundlerURL = url

	// Without EntryPoint v0.7, alto has nothing to submit.
	cfg := e.cfg
	aa := *cfg.AANative
	aa.EntryPoints = aa.EntryPoints[:1]
	cfg.AANative = &aa
	_, err := e.open(cfg)
	for _, want := range []string{"(bundler_url) serves EntryPoint " + e.chain.Contracts.EntryPointV07.Hex() + " only",
		"not this network's EntryPoint " + e.chain.Contracts.EntryPoint.Hex(), "add an entry_point for an EntryPoint it serves"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("started with a v0.7 bundler and no v0.7 EntryPoint (%v); want a refusal saying %q", err, want)
		}
	}
	t.Logf("refused: %v", err)

	e.start()
	sup, err := e.client.Supported(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, k := range sup.Kinds {
		if k.Scheme == x402.SchemeAANative && k.Extra != nil {
			versions = append(versions, k.Extra.EntryPoint+" "+k.Extra.EntryPointVersion)
		}
	}
	if want := []string{e.chain.Contracts.EntryPoint.Hex() + " ", e.chain.Contracts.EntryPointV07.Hex() + " 0.7"}; strings.Join(versions, ",") != strings.Join(want, ",") {
		t.Fatalf("/supported offers aa-native on %q, want %q", versions, want)
	}

	e.settlesBoth(e.chain.Accounts[5].Address, e.svc.Settler()) // v0.7 by alto's executor, v0.6 by the settler
}

// settlesBoth settles a v0.7 and a v0.6 aa-native payment, and checks
// that byV07 and byV06 sent their bundles and that the merchant was paid
// both.
func (e *env) settlesBoth(byV07, byV06 common.Address) {
	e.t.Helper()
	merchant := e.chain.Accounts[4].Address
	before := e.balance(merchant)
	for _, pay := range []struct {
		version string
		req     func() *x402.VerifyRequest // signed just before its settle
		by      common.Address             // who sends the bundle
	}{
		{"0.7", func() *x402.VerifyRequest {
			return e.aaPayV07(e.chain.Accounts[1].Key, e.aaRequirementsV07(merchant, 7_000))
		}, byV07},
		{"0.6", func() *x402.VerifyRequest {
			req, _ := e.aaPay(e.chain.Accounts[2].Key, e.aaRequirements(merchant, 3_000))
			return req
		}, byV06},
	} {
		req := pay.req()
		res, err := e.client.Settle(context.Background(), req)
		// alto bundles on its own schedule, which a loaded machine
		// stretches: a receipt_timeout is retried with the same payment,
		// as a merchant's client does after Retry-After.
		for retry := 0; err == nil && res.ErrorCode == x402.ErrorReceiptTimeout && retry < 2; retry++ {
			res, err = e.client.Settle(context.Background(), req)
		}
		if err != nil || !res.Success {
			e.t.Fatalf("v%s settle: %+v %v", pay.version, res, err)
		}
		tx, _, err := e.eth.TransactionByHash(context.Background(), common.HexToHash(res.TransactionHash))
		if err != nil {
			e.t.Fatal(err)
		}
		if from, _ := types.Sender(types.LatestSignerForChainID(e.chain.ChainID), tx); from != pay.by {
			e.t.Fatalf("the v%s bundle was sent by %s, want %s", pay.version, from, pay.by)
		}
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 10_000 {
		e.t.Fatalf("the merchant got %s, want 10000", got)
	}
}

// TestBundlerURLServingBoth gives alto, serving EntryPoint v0.6 and v0.7,
// as the network's one bundler_url, with no bundler_url_v07: both
// versions' operations go to it.
func TestBundlerURLServingBoth(t *testing.T) {
	t.Parallel()
	e, url := newAltoEnv(t, true)
	e.cfg.AANative.BundlerURL = url
	e.start()
	alto := e.chain.Accounts[5].Address // its executor
	e.settlesBoth(alto, alto)
}

package paymaster

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
)

var npmOnce sync.Once

// interopDir is ../interop with its npm packages installed; the test is
// skipped without Node.js.
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

// startBundler runs a real ERC-4337 v0.6 bundler (@metamask/test-bundler,
// interop/bundler.mjs) on the env's devnet and returns its URL. It bundles
// with account #0 of the test mnemonic.
func (e *env) startBundler(dir string) string {
	e.t.Helper()
	// The bundler reads logs from block 1 on: make sure there is one.
	e.send(e.chain.Accounts[2].Key, e.chain.Accounts[3].Address, nil, 100_000)
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

// erc7677Result is what interop/erc7677.mjs prints.
type erc7677Result struct {
	Sender common.Address `json:"sender"`
	Ops    []struct {
		UserOpHash      common.Hash `json:"userOpHash"`
		TransactionHash common.Hash `json:"transactionHash"`
		Success         bool        `json:"success"`
		ActualGasCost   string      `json:"actualGasCost"`
		ActualGasUsed   string      `json:"actualGasUsed"`
	} `json:"ops"`
}

// TestERC7677Viem has viem's bundler client send two UserOperations from
// a SimpleAccount v0.6 (viem's toSmartAccount) through a real bundler,
// sponsored by viem's paymaster client over ERC-7677: the first deploys
// the account, the second approves tokens. Both execute on chain, the
// paymaster's deposit pays exactly their gas, and the project's ledger
// charged each once, at its actual cost.
func TestERC7677Viem(t *testing.T) {
	t.Parallel()
	dir := interopDir(t)
	// A real bundler needs a chain id other than 31337. It reads the
	// EntryPoint's logs from the block after the last one it has seen, and
	// the devnet refuses a range that starts past its head: when the test
	// runs slowly (-race, a loaded machine) and the bundler reads the first
	// operation's block before the second operation arrives, a chain that
	// seals only on demand never has that next block, and nothing is
	// bundled again. A block a second keeps the head moving, as on a live
	// chain.
	e := newEnvOn(t, devnet.Config{Addr: "127.0.0.1:0", ChainID: 1337, BlockPeriod: time.Second}, Project{Name: "demo", Balance: ether(10)})
	bundlerURL := e.startBundler(dir)

	owner, _ := crypto.GenerateKey()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	tmp := t.TempDir()
	keyFile, ownerFile := filepath.Join(tmp, "api-key"), filepath.Join(tmp, "owner-key")
	os.WriteFile(keyFile, []byte(e.sponsor), 0o600)
	os.WriteFile(ownerFile, []byte(hexutil.Encode(crypto.FromECDSA(owner))), 0o600)

	spender := e.chain.Accounts[4].Address
	tok := contracts.NewDevUSD()
	ops, _ := json.Marshal([][]map[string]string{
		{{"to": ownerAddr.Hex(), "data": "0x"}},
		{{"to": e.chain.Token.Address.Hex(), "data": hexutil.Encode(tok.PackApprove(spender, big.NewInt(12_345)))}},
	})
	ep := contracts.NewEntryPoint()
	deposit := func() *big.Int {
		var out hexutil.Bytes
		e.ethCall(e.chain.Contracts.EntryPoint, ep.PackBalanceOf(e.chain.Contracts.Paymaster), &out)
		b, err := ep.UnpackBalanceOf(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	before := deposit()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "erc7677.mjs", e.chain.URL, bundlerURL, e.srv.URL, keyFile,
		e.chain.Contracts.EntryPoint.Hex(), e.chain.Contracts.AccountFactory.Hex(), ownerFile, string(ops))
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("erc7677.mjs: %v\n%s\n%s", err, out, stderr.String())
	}
	var res erc7677Result
	if err := json.Unmarshal(out, &res); err != nil || len(res.Ops) != 2 {
		t.Fatalf("erc7677.mjs printed %s: %v", out, err)
	}

	// Both operations executed, from the account viem derived, paid by our
	// paymaster.
	total := new(big.Int)
	for i, op := range res.Ops {
		r, err := e.eth.TransactionReceipt(context.Background(), op.TransactionHash)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("op %d: receipt %+v %v", i, r, err)
		}
		var ev *contracts.EntryPointUserOperationEvent
		for _, l := range r.Logs {
			if x, err := ep.UnpackUserOperationEventEvent(l); err == nil && x.UserOpHash == op.UserOpHash {
				ev = x
			}
		}
		if ev == nil || !ev.Success || !op.Success || ev.Sender != res.Sender || ev.Paymaster != e.chain.Contracts.Paymaster {
			t.Fatalf("op %d: event %+v, viem's receipt %+v", i, ev, op)
		}
		total.Add(total, ev.ActualGasCost)
		t.Logf("op %d: %s gas used, %s wei paid by the paymaster", i, ev.ActualGasUsed, ev.ActualGasCost)
	}
	var out2 hexutil.Bytes
	e.ethCall(e.chain.Token.Address, tok.PackAllowance(res.Sender, spender), &out2)
	if allowance, err := tok.UnpackAllowance(out2); err != nil || allowance.Int64() != 12_345 {
		t.Fatalf("the account's allowance is %v (%v), want 12345", allowance, err)
	}
	var f hexutil.Bytes
	e.ethCall(e.chain.Contracts.AccountFactory, contracts.NewSimpleAccountFactory().PackGetAddress(ownerAddr, big.NewInt(0)), &f)
	if want, _ := contracts.NewSimpleAccountFactory().UnpackGetAddress(f); want != res.Sender {
		t.Fatalf("viem's account %s is not the factory's %s", res.Sender, want)
	}
	if paid := new(big.Int).Sub(before, deposit()); paid.Cmp(total) != 0 {
		t.Fatalf("the paymaster's deposit went down by %s; the operations cost %s", paid, total)
	}
	// The ledger charged each operation once, at its actual cost, and
	// holds nothing in flight.
	u := e.usage("demo")
	if u.InFlight != 0 || u.SpentToday.Cmp(total) != 0 || u.Balance.Cmp(new(big.Int).Sub(ether(10), total)) != 0 {
		t.Fatalf("ledger %+v; want nothing in flight and %s spent", u, total)
	}
}

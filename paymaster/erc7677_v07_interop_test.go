package paymaster

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// TestERC7677ViemV07 has viem (toSmartAccount of a v0.7 SimpleAccount,
// createPaymasterClient) get two operations sponsored over ERC-7677 for
// EntryPoint v0.7: the first creates the account and pays through
// X402Settlement, the second pays again. interop/erc7677-v07.mjs sends
// them in handleOps itself (no v0.7 bundler is pinned). Both execute, the
// v0.7 paymaster's deposit pays exactly their gas, and the project's
// ledger charged each once, at its actual cost.
func TestERC7677ViemV07(t *testing.T) {
	t.Parallel()
	dir := interopDir(t)
	e := newEnvV07(t, Project{Name: "demo", Balance: ether(10)})
	owner, _ := crypto.GenerateKey()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	var f hexutil.Bytes
	e.ethCall(e.chain.Contracts.AccountFactoryV07, ep07.NewSimpleAccountFactory().PackGetAddress(ownerAddr, big.NewInt(0)), &f)
	sender, _ := ep07.NewSimpleAccountFactory().UnpackGetAddress(f)
	tok, settlement := contracts.NewDevUSD(), contracts.NewX402Settlement()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(sender, big.NewInt(10_000)), 100_000)

	tmp := t.TempDir()
	keyFile, ownerFile, bundlerFile := filepath.Join(tmp, "api-key"), filepath.Join(tmp, "owner-key"), filepath.Join(tmp, "bundler-key")
	os.WriteFile(keyFile, []byte(e.sponsor), 0o600)
	os.WriteFile(ownerFile, []byte(hexutil.Encode(crypto.FromECDSA(owner))), 0o600)
	os.WriteFile(bundlerFile, []byte(hexutil.Encode(crypto.FromECDSA(e.chain.Accounts[6].Key))), 0o600)
	merchant := e.chain.Accounts[2].Address
	pay := func(amount int64, rh common.Hash) []map[string]string {
		return []map[string]string{
			{"to": e.chain.Token.Address.Hex(), "data": hexutil.Encode(tok.PackApprove(e.chain.Contracts.Settlement, big.NewInt(amount)))},
			{"to": e.chain.Contracts.Settlement.Hex(), "data": hexutil.Encode(settlement.PackSettle(merchant, e.chain.Token.Address, big.NewInt(amount), rh))},
		}
	}
	ops, _ := json.Marshal([][]map[string]string{pay(3_000, common.Hash{1}), pay(4_000, common.Hash{2})})
	ep := ep07.NewEntryPoint()
	deposit := func() *big.Int {
		var out hexutil.Bytes
		e.ethCall(e.chain.Contracts.EntryPointV07, ep.PackBalanceOf(e.chain.Contracts.PaymasterV07), &out)
		b, err := ep.UnpackBalanceOf(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	before, merchantBefore := deposit(), e.tokenBalance(merchant)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "erc7677-v07.mjs", e.chain.URL, e.srv.URL, keyFile,
		e.chain.Contracts.EntryPointV07.Hex(), e.chain.Contracts.AccountFactoryV07.Hex(), ownerFile, bundlerFile, string(ops))
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("erc7677-v07.mjs: %v\n%s\n%s", err, out, stderr.String())
	}
	var res struct {
		Sender common.Address `json:"sender"`
		Ops    []struct {
			UserOpHash                    common.Hash    `json:"userOpHash"`
			TransactionHash               common.Hash    `json:"transactionHash"`
			Success                       bool           `json:"success"`
			StubPaymaster                 common.Address `json:"stubPaymaster"`
			StubIsFinal                   bool           `json:"stubIsFinal"`
			Paymaster                     common.Address `json:"paymaster"`
			PaymasterVerificationGasLimit string         `json:"paymasterVerificationGasLimit"`
			PaymasterPostOpGasLimit       string         `json:"paymasterPostOpGasLimit"`
		} `json:"ops"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Ops) != 2 || res.Sender != sender {
		t.Fatalf("erc7677-v07.mjs printed %s: %v (want the account %s)", out, err, sender)
	}
	total := new(big.Int)
	for i, op := range res.Ops {
		if op.StubIsFinal || op.StubPaymaster != e.chain.Contracts.PaymasterV07 || op.Paymaster != e.chain.Contracts.PaymasterV07 ||
			op.PaymasterVerificationGasLimit != "60000" || op.PaymasterPostOpGasLimit != "0" {
			t.Fatalf("op %d: the paymaster fields viem got: %+v", i, op)
		}
		r, err := e.eth.TransactionReceipt(context.Background(), op.TransactionHash)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("op %d: receipt %+v %v", i, r, err)
		}
		var ev *ep07.EntryPointUserOperationEvent
		for _, l := range r.Logs {
			if x, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == e.chain.Contracts.EntryPointV07 && x.UserOpHash == op.UserOpHash {
				ev = x
			}
		}
		if ev == nil || !ev.Success || !op.Success || ev.Sender != sender || ev.Paymaster != e.chain.Contracts.PaymasterV07 {
			t.Fatalf("op %d: event %+v, viem's %+v", i, ev, op)
		}
		total.Add(total, ev.ActualGasCost)
		t.Logf("v0.7 op %d (viem, ERC-7677): %s gas used, %s wei paid by the paymaster", i, ev.ActualGasUsed, ev.ActualGasCost)
	}
	if got := new(big.Int).Sub(e.tokenBalance(merchant), merchantBefore); got.Int64() != 7_000 {
		t.Fatalf("the merchant got %s, want 7000", got)
	}
	if paid := new(big.Int).Sub(before, deposit()); paid.Cmp(total) != 0 {
		t.Fatalf("the v0.7 paymaster's deposit went down by %s; the operations cost %s", paid, total)
	}
	u := e.usage("demo")
	if u.InFlight != 0 || u.SpentToday.Cmp(total) != 0 {
		t.Fatalf("ledger %+v; want nothing in flight and %s spent", u, total)
	}
}

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
	"github.com/caddy-x402/caddy-x402/contracts/ep08"
)

// TestERC7677ViemV08 has viem (toSimple7702SmartAccount of a fresh EOA,
// createPaymasterClient, signAuthorization) get two operations sponsored
// over ERC-7677 for EntryPoint v0.8, each paying through X402Settlement:
// the first with the 0x7702 marker and the EOA's authorization, which
// interop/erc7677-v08.mjs sends with handleOps in a set-code transaction
// (no v0.8 bundler is pinned), the second as the delegated account's plain
// operation. viem packs the marker short and the paymaster signed it
// padded: both execute, the v0.8 paymaster's deposit pays exactly their
// gas, and the project's ledger charged each once.
func TestERC7677ViemV08(t *testing.T) {
	t.Parallel()
	dir := interopDir(t)
	e := newEnvV08(t)
	c := e.chain.Contracts
	owner, _ := crypto.GenerateKey()
	eoa := crypto.PubkeyToAddress(owner.PublicKey)
	tok, settlement := contracts.NewDevUSD(), contracts.NewX402Settlement()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(eoa, big.NewInt(10_000)), 100_000)

	tmp := t.TempDir()
	keyFile, ownerFile, bundlerFile := filepath.Join(tmp, "api-key"), filepath.Join(tmp, "owner-key"), filepath.Join(tmp, "bundler-key")
	os.WriteFile(keyFile, []byte(e.sponsor), 0o600)
	os.WriteFile(ownerFile, []byte(hexutil.Encode(crypto.FromECDSA(owner))), 0o600)
	os.WriteFile(bundlerFile, []byte(hexutil.Encode(crypto.FromECDSA(e.chain.Accounts[7].Key))), 0o600)
	merchant := e.chain.Accounts[2].Address
	pay := func(amount int64, rh common.Hash) []map[string]string {
		return []map[string]string{
			{"to": e.chain.Token.Address.Hex(), "data": hexutil.Encode(tok.PackApprove(c.Settlement, big.NewInt(amount)))},
			{"to": c.Settlement.Hex(), "data": hexutil.Encode(settlement.PackSettle(merchant, e.chain.Token.Address, big.NewInt(amount), rh))},
		}
	}
	ops, _ := json.Marshal([][]map[string]string{pay(3_000, common.Hash{1}), pay(4_000, common.Hash{2})})
	ep := ep08.NewEntryPoint()
	deposit := func() *big.Int {
		var out hexutil.Bytes
		e.ethCall(c.EntryPointV08, ep.PackBalanceOf(c.PaymasterV08), &out)
		b, err := ep.UnpackBalanceOf(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	before, merchantBefore := deposit(), e.tokenBalance(merchant)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "erc7677-v08.mjs", e.chain.URL, e.srv.URL, keyFile, c.Simple7702Account.Hex(), ownerFile, bundlerFile, string(ops))
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("erc7677-v08.mjs: %v\n%s\n%s", err, out, stderr.String())
	}
	var res struct {
		Sender common.Address `json:"sender"`
		Ops    []struct {
			UserOpHash      common.Hash    `json:"userOpHash"`
			TransactionHash common.Hash    `json:"transactionHash"`
			Success         bool           `json:"success"`
			StubPaymaster   common.Address `json:"stubPaymaster"`
			StubIsFinal     bool           `json:"stubIsFinal"`
			Paymaster       common.Address `json:"paymaster"`
		} `json:"ops"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Ops) != 2 || res.Sender != eoa {
		t.Fatalf("erc7677-v08.mjs printed %s: %v (want the EOA %s)", out, err, eoa)
	}
	total := new(big.Int)
	for i, op := range res.Ops {
		if op.StubIsFinal || op.StubPaymaster != c.PaymasterV08 || op.Paymaster != c.PaymasterV08 {
			t.Fatalf("op %d: the paymaster fields viem got: %+v", i, op)
		}
		tx, _, err := e.eth.TransactionByHash(context.Background(), op.TransactionHash)
		if err != nil || (i == 0) != (tx.Type() == types.SetCodeTxType) {
			t.Fatalf("op %d: transaction %v %v, want a set-code transaction for the first only", i, tx, err)
		}
		r, err := e.eth.TransactionReceipt(context.Background(), op.TransactionHash)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("op %d: receipt %+v %v", i, r, err)
		}
		var ev *ep08.EntryPointUserOperationEvent
		for _, l := range r.Logs {
			if x, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == c.EntryPointV08 && x.UserOpHash == op.UserOpHash {
				ev = x
			}
		}
		if ev == nil || !ev.Success || !op.Success || ev.Sender != eoa || ev.Paymaster != c.PaymasterV08 {
			t.Fatalf("op %d: event %+v, viem's %+v", i, ev, op)
		}
		total.Add(total, ev.ActualGasCost)
		t.Logf("v0.8 EIP-7702 op %d (viem, ERC-7677): %d gas in handleOps, %s wei paid by the paymaster", i, r.GasUsed, ev.ActualGasCost)
	}
	if got := new(big.Int).Sub(e.tokenBalance(merchant), merchantBefore); got.Int64() != 7_000 {
		t.Fatalf("the merchant got %s, want 7000", got)
	}
	if paid := new(big.Int).Sub(before, deposit()); paid.Cmp(total) != 0 {
		t.Fatalf("the v0.8 paymaster's deposit went down by %s; the operations cost %s", paid, total)
	}
	waitUsage(t, e, func(u Usage) bool { return u.InFlight == 0 && u.SpentToday.Cmp(total) == 0 })
}

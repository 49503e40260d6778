package caddymodule

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// send signs and sends a transaction from a devnet test account and waits.
func (e *e2e) send(from uint32, to common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	key := mustKey(e.t, from)
	ctx := context.Background()
	nonce, _ := e.eth.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(31337)), &types.DynamicFeeTx{
		ChainID: big.NewInt(31337), Nonce: nonce, To: &to, Data: data, Gas: 200_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	r, err := waitReceipt(e.eth, tx.Hash().Hex())
	if err != nil || r.Status != 1 {
		e.t.Fatalf("tx %v %v", r, err)
	}
	return r
}

// fund sends amount tokens from test account #1 to each address, all in
// one burst (consecutive nonces), then waits for them.
func (e *e2e) fund(to []common.Address, amount int64) {
	e.t.Helper()
	key := mustKey(e.t, 1)
	ctx := context.Background()
	nonce, _ := e.eth.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	tok := contracts.NewDevUSD()
	var last common.Hash
	for i, a := range to {
		tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(31337)), &types.DynamicFeeTx{
			ChainID: big.NewInt(31337), Nonce: nonce + uint64(i), To: &e.token, Data: tok.PackTransfer(a, big.NewInt(amount)),
			Gas: 100_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
		})
		if err := e.eth.SendTransaction(ctx, tx); err != nil {
			e.t.Fatal(err)
		}
		last = tx.Hash()
	}
	if r, err := waitReceipt(e.eth, last.Hex()); err != nil || r.Status != 1 {
		e.t.Fatalf("funding: %v %v", r, err)
	}
}

// smartAccount is the counterfactual SimpleAccount (salt 0) of a key.
func (e *e2e) smartAccount(key *ecdsa.PrivateKey) common.Address {
	e.t.Helper()
	f := contracts.NewSimpleAccountFactory()
	factory := common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &factory, Data: f.PackGetAddress(crypto.PubkeyToAddress(key.PublicKey), new(big.Int))}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	a, _ := f.UnpackGetAddress(out)
	return a
}

func (e *e2e) aaTransport(key *ecdsa.PrivateKey) *client.Transport {
	return &client.Transport{Key: key, MaxAmount: big.NewInt(10_000), Schemes: []string{x402.SchemeAANative}, RPC: e.chainURL}
}

// aaPayment signs an aa-native payment for /aa/report without sending it.
func (e *e2e) aaPayment(tr *client.Transport) (*x402.PaymentPayload, x402.AANativePayload) {
	e.t.Helper()
	resp, _ := e.get("/aa/report", "")
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || pr.Accepts[0].Scheme != x402.SchemeAANative || pr.Accepts[0].Extra.SponsorURL == "" {
		e.t.Fatalf("aa-native offer: %+v %v", pr, err)
	}
	p, err := tr.PayAANative(context.Background(), pr, &pr.Accepts[0])
	if err != nil {
		e.t.Fatal(err)
	}
	var aa x402.AANativePayload
	json.Unmarshal(p.Payload, &aa)
	return p, aa
}

func header(t *testing.T, p *x402.PaymentPayload) string {
	h, err := x402.EncodeHeader(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (e *e2e) aaNative(t *testing.T) {
	ctx := context.Background()
	tok := contracts.NewDevUSD()
	settlementAddr := common.HexToAddress("0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9")
	settlement := contracts.NewX402Settlement()
	key, _ := crypto.GenerateKey()
	account := e.smartAccount(key)
	e.send(1, e.token, tok.PackTransfer(account, big.NewInt(100_000)))
	tr := e.aaTransport(key)

	t.Run("first payment deploys the wallet and pays", func(t *testing.T) {
		before := e.balance(e.merchant)
		p, aa := e.aaPayment(tr)
		// A second wallet signs an operation with the same request hash
		// while it is still unsettled (so it can be sponsored).
		key2, _ := crypto.GenerateKey()
		e.send(1, e.token, tok.PackTransfer(e.smartAccount(key2), big.NewInt(100_000)))
		reuse := e.aaTransport(key2)
		used := common.HexToHash(aa.SettlementCallSpec.RequestHash)
		reuse.RequestHashFunc = func(common.Address, *big.Int, string) common.Hash { return used }
		p2, _ := e.aaPayment(reuse)
		if aa.UserOp.InitCode == "0x" || aa.UserOp.Sender != account.Hex() || !strings.HasPrefix(aa.UserOp.PaymasterAndData, strings.ToLower("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0")) {
			t.Fatalf("first op %+v", aa.UserOp)
		}
		resp, body := e.get("/aa/report", header(t, p))
		res, ok, _ := client.Receipt(resp)
		if resp.StatusCode != 200 || !ok || !res.Success || res.UserOpHash == "" || res.RequestHash != aa.SettlementCallSpec.RequestHash || res.Payer != account.Hex() {
			t.Fatalf("%d %q %+v", resp.StatusCode, body, res)
		}
		if code, _ := e.eth.CodeAt(ctx, account, nil); len(code) == 0 {
			t.Fatal("the wallet was not deployed")
		}
		if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != 10_000 {
			t.Fatalf("merchant got %s", got)
		}
		if e.balance(account).Int64() != 90_000 {
			t.Fatalf("account holds %s", e.balance(account))
		}
		// Replaying the same header: replay, and no second transfer.
		before = e.balance(e.merchant)
		resp, _ = e.get("/aa/report", header(t, p))
		pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != 402 || pr == nil || !strings.HasPrefix(pr.Error, "replay") || e.balance(e.merchant).Cmp(before) != 0 {
			t.Fatalf("replay: %d %+v", resp.StatusCode, pr)
		}
		// The other operation with the same request hash is refused before
		// submission (the chain says it is settled)...
		resp, _ = e.get("/aa/report", header(t, p2))
		pr, _ = x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != 402 || pr == nil || !strings.HasPrefix(pr.Error, "replay") || e.balance(e.merchant).Cmp(before) != 0 {
			t.Fatalf("reused request hash: %d %+v", resp.StatusCode, pr)
		}
		// ...a new one is not even sponsored...
		fresh, _ := e.get("/aa/report", "")
		pr, _ = x402.DecodePaymentRequired(fresh.Header.Get(x402.HeaderPaymentRequired))
		again := *tr // the deployed wallet: the paymaster runs its call
		again.RequestHashFunc = reuse.RequestHashFunc
		if _, err := again.PayAANative(ctx, pr, &pr.Accepts[0]); err == nil || !strings.Contains(err.Error(), "-32521") {
			t.Fatalf("sponsoring a used request hash: %v", err)
		}
		// ...and the contract would revert anyway.
		_, err := e.eth.CallContract(ctx, ethereum.CallMsg{From: account, To: &settlementAddr, Data: settlement.PackSettle(e.merchant, e.token, big.NewInt(10_000), used)}, nil)
		if err == nil || !strings.Contains(err.Error(), "revert") {
			t.Fatalf("settling a used request hash on chain: %v", err)
		}
	})
	t.Run("second payment has no initCode", func(t *testing.T) {
		p, aa := e.aaPayment(tr)
		if aa.UserOp.InitCode != "0x" || aa.UserOp.Nonce != "0x1" {
			t.Fatalf("second op %+v", aa.UserOp)
		}
		if resp, _ := e.get("/aa/report", header(t, p)); resp.StatusCode != 200 {
			t.Fatalf("%d", resp.StatusCode)
		}
	})
	t.Run("another key's signature", func(t *testing.T) {
		p, aa := e.aaPayment(tr)
		op, _ := contracts.UserOperationHex(aa.UserOp).Decode(false)
		other, _ := crypto.GenerateKey()
		sig, _ := contracts.SignHash(contracts.UserOpHash(op, common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3"), big.NewInt(31337)), other)
		aa.UserOp.Signature = hexutil.Encode(sig)
		p.Payload, _ = json.Marshal(aa)
		resp, _ := e.get("/aa/report", header(t, p))
		pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != 402 || pr == nil || !strings.HasPrefix(pr.Error, "signature_invalid") {
			t.Fatalf("%d %+v", resp.StatusCode, pr)
		}
	})
	t.Run("a settle that reverts on chain is user_op_failed", func(t *testing.T) {
		p, _ := e.aaPayment(tr) // sponsored while the settlement works
		before := e.balance(e.merchant)
		e.send(0, settlementAddr, settlement.PackPause())
		defer e.send(0, settlementAddr, settlement.PackUnpause())
		resp, body := e.get("/aa/report", header(t, p))
		res, ok, _ := client.Receipt(resp)
		if resp.StatusCode != 402 || !ok || res.Success || res.ErrorCode != x402.ErrorUserOpFailed || !strings.Contains(res.Message, "paused") || strings.Contains(body, "paid report") {
			t.Fatalf("%d %+v", resp.StatusCode, res)
		}
		if e.balance(e.merchant).Cmp(before) != 0 {
			t.Fatal("money moved")
		}
	})
	t.Run("50 payments at once go in a few bundles", func(t *testing.T) {
		const n = 50
		keys := make([]*ecdsa.PrivateKey, n)
		accounts := make([]common.Address, n)
		for i := range keys {
			keys[i], _ = crypto.GenerateKey()
			accounts[i] = e.smartAccount(keys[i])
		}
		e.fund(accounts, 10_000)
		before := e.balance(e.merchant)
		var (
			wg  sync.WaitGroup
			mu  sync.Mutex
			txs = map[string]int{}
		)
		for i := range keys {
			wg.Add(1)
			go func(k *ecdsa.PrivateKey) {
				defer wg.Done()
				resp, err := (&http.Client{Transport: e.aaTransport(k)}).Get(e.api + "/aa/report")
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				res, ok, _ := client.Receipt(resp)
				if resp.StatusCode != 200 || !ok || !res.Success {
					pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
					reason := ""
					if pr != nil {
						reason = pr.Error
					}
					t.Errorf("%d %+v %s", resp.StatusCode, res, reason)
					return
				}
				mu.Lock()
				txs[res.TransactionHash]++
				mu.Unlock()
			}(keys[i])
		}
		wg.Wait()
		if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != n*10_000 {
			t.Fatalf("merchant got %s", got)
		}
		var gas, ops uint64
		for tx, count := range txs {
			r, _ := e.eth.TransactionReceipt(ctx, common.HexToHash(tx))
			gas += r.GasUsed
			ops += uint64(count)
			t.Logf("bundle %s: %d ops, %d gas", tx[:10], count, r.GasUsed)
		}
		t.Logf("%d payments in %d bundles, %d gas per op (with account creation)", n, len(txs), gas/ops)
		if len(txs) > 10 {
			t.Fatalf("%d bundles for %d payments: not bundled", len(txs), n)
		}
	})
}

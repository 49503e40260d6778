package facilitator

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// startPaymaster runs a real paymaster service for the env's devnet and
// returns the aa-native configuration that sponsors through it; with
// gasTokens, dUSD pays gas (3,000 per ETH) through the devnet's token
// paymasters, which aa-native then accepts.
func (e *env) startPaymaster(gasTokens bool) *AANative {
	e.t.Helper()
	rc, err := rpc.Dial(e.chain.URL)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(rc.Close)
	st, err := store.Open(store.Config{Path: filepath.Join(e.t.TempDir(), "paymaster.db")})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { st.Close() })
	keys, _ := st.Bucket("paymaster_keys")
	c := e.chain.Contracts
	pcfg := paymaster.Config{
		ChainID: e.chain.ChainID, EntryPoints: []paymaster.EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(c.EntryPoint), Paymaster: c.Paymaster},
			{EntryPoint: entrypoint.NewV07(c.EntryPointV07), Paymaster: c.PaymasterV07},
		},
		Signer: e.chain.PaymasterSigner.Key, Chain: rc, Keys: keys,
		Projects: []paymaster.Project{{Name: "demo", Balance: new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18)), MaxInFlight: 1000}},
	}
	if gasTokens {
		pcfg.EntryPoints[0].TokenPaymaster, pcfg.EntryPoints[1].TokenPaymaster = c.TokenPaymaster, c.TokenPaymasterV07
		pcfg.Tokens = []paymaster.Token{{Address: e.chain.Token.Address, Price: big.NewRat(3000, 1)}}
	}
	pm, err := paymaster.New(pcfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.pm = pm
	key, _, _ := pm.Keys().Create("demo", "testnet", []string{paymaster.ScopeSponsor})
	srv := httptest.NewServer(pm)
	e.t.Cleanup(srv.Close)
	aa := &AANative{
		Settlement: c.Settlement,
		EntryPoints: []AAEntryPoint{
			{EntryPointConfig: aanative.EntryPointConfig{EntryPoint: entrypoint.NewV06(c.EntryPoint), Factory: c.AccountFactory, Paymaster: c.Paymaster}},
			{EntryPointConfig: aanative.EntryPointConfig{EntryPoint: entrypoint.NewV07(c.EntryPointV07), Factory: c.AccountFactoryV07, Paymaster: c.PaymasterV07}},
		},
		Sponsor: &paymaster.Client{URL: srv.URL, APIKey: key, Header: "X-Paymaster-Api-Key"},
		// Tests pay many times from one account; the default anonymous
		// budget has its own test.
		SponsorLimits: SponsorLimits{PerClient: 1000, PerClientOutstanding: 1000, PerSender: 1000, MaxOutstanding: 1000},
	}
	if gasTokens {
		aa.EntryPoints[0].TokenPaymaster, aa.EntryPoints[1].TokenPaymaster = c.TokenPaymaster, c.TokenPaymasterV07
	}
	return aa
}

// aaRequirements is an aa-native offer of one of the server's paid routes:
// it is added to the env's offers, so /sponsor sponsors payments of it.
func (e *env) aaRequirements(payTo common.Address, amount int64) x402.PaymentRequirements {
	c := e.chain.Contracts
	req := x402.PaymentRequirements{
		Scheme: x402.SchemeAANative, Network: e.network, Amount: big.NewInt(amount).String(),
		Asset: e.chain.Token.Address.Hex(), PayTo: payTo.Hex(), MaxTimeoutSeconds: 60,
		Extra: &x402.Extra{EntryPoint: c.EntryPoint.Hex(), Factory: c.AccountFactory.Hex(), Settlement: c.Settlement.Hex(), SponsorURL: e.srv.URL + "/sponsor"},
	}
	e.offers.Add(req)
	return req
}

// aaPay signs an aa-native payment from key's smart account with the real
// client, sponsored through this facilitator's /sponsor.
func (e *env) aaPay(key *ecdsa.PrivateKey, req x402.PaymentRequirements) (*x402.VerifyRequest, x402.AANativePayload) {
	e.t.Helper()
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(1 << 40), Schemes: []string{x402.SchemeAANative}, RPC: e.chain.URL}
	p, err := tr.PayAANative(context.Background(), &x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{req}}, &req)
	if err != nil {
		e.t.Fatal(err)
	}
	var aa x402.AANativePayload
	json.Unmarshal(p.Payload, &aa)
	return &x402.VerifyRequest{X402Version: 2, PaymentPayload: *p, PaymentRequirements: req}, aa
}

// resign replaces the payload's operation with op signed by key.
func (e *env) resign(req *x402.VerifyRequest, aa x402.AANativePayload, op contracts.UserOperation, key *ecdsa.PrivateKey) *x402.VerifyRequest {
	sig, _ := contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), key)
	op.Signature = sig
	aa.UserOp = x402.UserOperation(op.Hex())
	out := *req
	out.PaymentPayload.Payload, _ = json.Marshal(aa)
	return &out
}

func TestAANativeVerifyReasons(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	merchant := e.chain.Accounts[3].Address
	owner := e.chain.Accounts[1].Key // its smart account holds tokens from genesis
	req := e.aaRequirements(merchant, 5_000)

	// A settled payment, for replay.
	settledReq, _ := e.aaPay(owner, req)
	var settled x402.SettleResponse
	e.post("settle", settledReq, &settled)
	if !settled.Success || settled.UserOpHash == "" || settled.RequestHash == "" || settled.Payer != e.chain.Contracts.SmartAccounts[1].Hex() {
		t.Fatalf("settling: %+v", settled)
	}

	poor, _ := crypto.GenerateKey() // a smart account without tokens
	other, _ := crypto.GenerateKey()
	tests := []struct {
		name   string
		build  func() *x402.VerifyRequest
		reason x402.InvalidReason
		msg    string
	}{
		{"valid", func() *x402.VerifyRequest { r, _ := e.aaPay(owner, req); return r }, "", ""},
		{"replay", func() *x402.VerifyRequest { return settledReq }, x402.ReasonReplay, "settled"},
		{"malformed", func() *x402.VerifyRequest {
			r, _ := e.aaPay(owner, req)
			r.PaymentPayload.Payload = json.RawMessage(`{"userOp":5}`)
			return r
		}, x402.ReasonMalformedRequest, ""},
		{"accepted scheme", func() *x402.VerifyRequest {
			r, _ := e.aaPay(owner, req)
			r.PaymentPayload.Accepted.Scheme = "exact"
			return r
		}, x402.ReasonSchemeMismatch, ""},
		{"network", func() *x402.VerifyRequest {
			r, _ := e.aaPay(owner, req)
			r.PaymentPayload.Accepted.Network = "eip155:1"
			return r
		}, x402.ReasonNetworkMismatch, ""},
		{"asset not allowlisted", func() *x402.VerifyRequest {
			r, _ := e.aaPay(owner, req)
			r.PaymentRequirements.Asset, r.PaymentPayload.Accepted.Asset = merchant.Hex(), merchant.Hex()
			return r
		}, x402.ReasonAssetNotAllowed, ""},
		{"amount", func() *x402.VerifyRequest {
			r, _ := e.aaPay(owner, req)
			r.PaymentRequirements.Amount, r.PaymentPayload.Accepted.Amount = "5001", "5001"
			return r
		}, x402.ReasonAmountMismatch, "5001"},
		{"payTo", func() *x402.VerifyRequest {
			r, _ := e.aaPay(owner, req)
			r.PaymentRequirements.PayTo, r.PaymentPayload.Accepted.PayTo = e.chain.Accounts[4].Address.Hex(), e.chain.Accounts[4].Address.Hex()
			return r
		}, x402.ReasonInvalidInnerPayload, "merchant"},
		{"callData differs from the spec", func() *x402.VerifyRequest {
			r, aa := e.aaPay(owner, req)
			aa.SettlementCallSpec.RequestHash = common.Hash{1}.Hex()
			r.PaymentPayload.Payload, _ = json.Marshal(aa)
			return r
		}, x402.ReasonInvalidInnerPayload, "differs from settlementCallSpec"},
		{"undeployed without initCode", func() *x402.VerifyRequest {
			r, aa := e.aaPay(poor, req)
			op, _ := contracts.UserOperationHex(aa.UserOp).Decode(false)
			op.InitCode = []byte{}
			return e.resign(r, aa, op, poor)
		}, x402.ReasonInvalidInnerPayload, "not deployed"},
		{"another key's signature", func() *x402.VerifyRequest {
			r, aa := e.aaPay(owner, req)
			op, _ := contracts.UserOperationHex(aa.UserOp).Decode(false)
			return e.resign(r, aa, op, other)
		}, x402.ReasonSignatureInvalid, "owner"},
		{"another paymaster", func() *x402.VerifyRequest {
			r, aa := e.aaPay(owner, req)
			op, _ := contracts.UserOperationHex(aa.UserOp).Decode(false)
			copy(op.PaymasterAndData[:20], e.chain.Contracts.Settlement.Bytes())
			return e.resign(r, aa, op, owner)
		}, x402.ReasonInvalidInnerPayload, "not sponsored by this facilitator's paymaster"},
		{"paymaster signature broken", func() *x402.VerifyRequest {
			r, aa := e.aaPay(owner, req)
			op, _ := contracts.UserOperationHex(aa.UserOp).Decode(false)
			op.PaymasterAndData[len(op.PaymasterAndData)-10] ^= 0xff
			return e.resign(r, aa, op, owner)
		}, x402.ReasonSignatureInvalid, "simulateValidation"},
		{"insufficient balance", func() *x402.VerifyRequest { r, _ := e.aaPay(poor, req); return r }, x402.ReasonInvalidInnerPayload, "insufficient balance"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var res x402.VerifyResponse
			e.post("verify", tc.build(), &res)
			if tc.reason == "" {
				if !res.IsValid || res.Payer != e.chain.Contracts.SmartAccounts[1].Hex() {
					t.Fatalf("refused a valid payment: %+v", res)
				}
				return
			}
			if res.IsValid || res.InvalidReason != tc.reason || !strings.Contains(res.InvalidMessage, tc.msg) {
				t.Fatalf("got %+v, want %s containing %q", res, tc.reason, tc.msg)
			}
		})
	}
}

func (e *env) sponsorCall(op x402.UserOperation) (map[string]any, *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "pm_sponsor_userop", "params": []any{op, e.chain.Contracts.EntryPoint.Hex()}})
	resp, err := http.Post(e.srv.URL+"/sponsor", "application/json", bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		e.t.Fatalf("/sponsor answered %s", raw)
	}
	return out.Result, out.Error
}

// /sponsor sponsors settlements to served merchants, and nothing else.
func TestSponsorEndpoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	sender := e.chain.Contracts.SmartAccounts[2]
	settleTo := func(merchant, token common.Address) string {
		var rh [32]byte
		rh[0] = 1
		return hexutil.Encode(contracts.NewSimpleAccount().PackExecuteBatch(
			[]common.Address{token, e.chain.Contracts.Settlement},
			[][]byte{contracts.NewDevUSD().PackApprove(e.chain.Contracts.Settlement, big.NewInt(10)), contracts.NewX402Settlement().PackSettle(merchant, token, big.NewInt(10), rh)},
		))
	}
	f := contracts.NewSimpleAccountFactory()
	op := x402.UserOperation{Sender: sender.Hex(), Nonce: "0x0", InitCode: hexutil.Encode(append(e.chain.Contracts.AccountFactory.Bytes(), f.PackCreateAccount(e.chain.Accounts[2].Address, new(big.Int))...)), Signature: "0x"}

	e.aaRequirements(e.chain.Accounts[3].Address, 10) // the server's offer
	good := op
	good.CallData = settleTo(e.chain.Accounts[3].Address, e.chain.Token.Address)
	res, rerr := e.sponsorCall(good)
	if rerr != nil || len(res["paymasterAndData"].(string)) != 2+2*(20+64+65) {
		t.Fatalf("sponsoring a settlement: %v %+v", res, rerr)
	}
	for name, callData := range map[string]string{
		"a plain transfer":     hexutil.Encode(contracts.NewSimpleAccount().PackExecute(e.chain.Token.Address, new(big.Int), contracts.NewDevUSD().PackTransfer(e.chain.Accounts[3].Address, big.NewInt(1)))),
		"an unserved merchant": settleTo(e.chain.Accounts[9].Address, e.chain.Token.Address),
		"an unlisted token":    settleTo(e.chain.Accounts[3].Address, e.chain.Contracts.Paymaster),
	} {
		bad := op
		bad.CallData = callData
		if _, rerr := e.sponsorCall(bad); rerr == nil || rerr.Code != -32602 {
			t.Errorf("%s: %+v", name, rerr)
		}
	}
}

// BenchmarkAANativeBundles settles 1, 10 and 50 aa-native payments at once
// from deployed accounts and reports the bundles and the gas per operation
// (approve + settle, sponsored), and the time to settle the batch.
func BenchmarkAANativeBundles(b *testing.B) {
	e := newEnvB(b, envOptions{aaNative: true})
	merchant := e.chain.Accounts[3].Address
	req := e.aaRequirements(merchant, 1_000)
	// 50 fresh accounts, funded and deployed by a first payment each.
	keys := make([]*ecdsa.PrivateKey, 50)
	for i := range keys {
		keys[i], _ = crypto.GenerateKey()
	}
	fundAccounts(e, keys)
	settleAll(e, keys, req)
	for _, n := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("ops=%d", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				reqs := make([]*x402.VerifyRequest, n)
				for i := range reqs {
					reqs[i], _ = e.aaPay(keys[i], req)
				}
				b.StartTimer()
				gas, bundles := settleRequests(e, reqs)
				b.ReportMetric(float64(gas)/float64(n), "gas/op")
				b.ReportMetric(float64(bundles), "bundles")
			}
		})
	}
	b.Run("verify", func(b *testing.B) {
		r, _ := e.aaPay(keys[0], req)
		for b.Loop() {
			if v, err := e.svc.Verify(context.Background(), r); err != nil || !v.IsValid {
				b.Fatalf("%+v %v", v, err)
			}
		}
	})
}

func fundAccounts(e *env, keys []*ecdsa.PrivateKey) {
	f, tok := contracts.NewSimpleAccountFactory(), contracts.NewDevUSD()
	from := e.chain.Accounts[2]
	nonce, _ := e.eth.PendingNonceAt(context.Background(), from.Address)
	var last common.Hash
	for i, k := range keys {
		var out hexutil.Bytes
		e.rpcCall(&out, e.chain.Contracts.AccountFactory, f.PackGetAddress(crypto.PubkeyToAddress(k.PublicKey), new(big.Int)))
		account, _ := f.UnpackGetAddress(out)
		tx, _ := types.SignNewTx(from.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
			ChainID: e.chain.ChainID, Nonce: nonce + uint64(i), To: &e.chain.Token.Address, Data: tok.PackTransfer(account, big.NewInt(1_000_000)),
			Gas: 100_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
		})
		if err := e.eth.SendTransaction(context.Background(), tx); err != nil {
			e.t.Fatal(err)
		}
		last = tx.Hash()
	}
	if _, err := e.chain.Wait(context.Background(), last); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) rpcCall(out *hexutil.Bytes, to common.Address, data []byte) {
	if err := e.svc.rpc.Call(out, "eth_call", map[string]any{"to": to, "data": hexutil.Bytes(data)}, "latest"); err != nil {
		e.t.Fatal(err)
	}
}

func settleAll(e *env, keys []*ecdsa.PrivateKey, req x402.PaymentRequirements) {
	reqs := make([]*x402.VerifyRequest, len(keys))
	for i, k := range keys {
		reqs[i], _ = e.aaPay(k, req)
	}
	settleRequests(e, reqs)
}

// settleRequests settles the payments at once and returns the gas of their
// bundles and how many there were.
func settleRequests(e *env, reqs []*x402.VerifyRequest) (uint64, int) {
	var wg sync.WaitGroup
	txs := make([]string, len(reqs))
	for i, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, _ := e.svc.Settle(context.Background(), r)
			if !res.Success {
				e.t.Errorf("settle: %+v", res)
				return
			}
			txs[i] = res.TransactionHash
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	var gas uint64
	for _, tx := range txs {
		if tx == "" || seen[tx] {
			continue
		}
		seen[tx] = true
		r, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(tx))
		if err != nil {
			e.t.Fatal(err)
		}
		gas += r.GasUsed
	}
	return gas, len(seen)
}

// An external bundler that cannot be reached: 503 bundler_unreachable,
// and nothing is claimed, so the payment can be retried.
func TestAANativeBundlerUnreachable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	req, _ := e.aaPay(e.chain.Accounts[1].Key, e.aaRequirements(e.chain.Accounts[3].Address, 1_000))
	e.stop()
	e.cfg.AANative.BundlerURL = "http://127.0.0.1:1/rpc"
	e.start()
	var res x402.SettleResponse
	resp := e.post("settle", req, &res)
	if resp.StatusCode != http.StatusServiceUnavailable || res.ErrorCode != x402.ErrorBundlerUnreachable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("%d %+v", resp.StatusCode, res)
	}
	p, _ := e.svc.decode(req)
	if rec, _ := e.svc.store.Get(p.key); rec != nil {
		t.Fatalf("a claim was kept: %+v", rec)
	}
}

// No receipt in time: 503 receipt_timeout, the record stays pending, and a
// restart on the same store resumes the same bundle rather than a second.
func TestAANativeReceiptTimeoutAndRestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, blockPeriod: 2 * time.Second, receiptTimeout: 50 * time.Millisecond})
	merchant := e.chain.Accounts[5].Address
	var before *big.Int
	req, first, resp := e.settlePending(func(int) *x402.VerifyRequest {
		before = e.balance(merchant)
		req, _ := e.aaPay(e.chain.Accounts[2].Key, e.aaRequirements(merchant, 2_000))
		return req
	})
	if resp.StatusCode != http.StatusServiceUnavailable || first.ErrorCode != x402.ErrorReceiptTimeout {
		t.Fatalf("first: %d %+v", resp.StatusCode, first)
	}
	p, _ := e.svc.decode(req)
	rec, _ := e.svc.store.Get(p.key)
	if rec == nil || rec.State != store.StateSubmitted || len(rec.RawTx) == 0 {
		t.Fatalf("pending record: %+v", rec)
	}
	e.stop()
	e.cfg.ReceiptTimeout = 20 * time.Second
	e.start()
	var second x402.SettleResponse
	if resp := e.post("settle", req, &second); resp.StatusCode != 200 || !second.Success {
		t.Fatalf("second: %d %+v", resp.StatusCode, second)
	}
	if second.TransactionHash != rec.TxHash.Hex() {
		t.Fatalf("settled in %s, not the pending bundle %s", second.TransactionHash, rec.TxHash.Hex())
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 2_000 {
		t.Fatalf("merchant got %s", got)
	}
}

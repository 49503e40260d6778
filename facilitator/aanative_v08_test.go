package facilitator

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// addV08 registers the devnet's EntryPoint v0.8 with aa-native (its
// SimpleAccountFactory, VerifyingPaymasterV08 and Simple7702Account as the
// accepted EIP-7702 delegate) and serves a paymaster that sponsors on all
// three versions through paymaster.Config.EntryPoints.
func (e *env) addV08() {
	e.t.Helper()
	c := e.chain.Contracts
	rc, err := rpc.Dial(e.chain.URL)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(rc.Close)
	st, err := store.Open(store.Config{Path: filepath.Join(e.t.TempDir(), "paymaster08.db")})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { st.Close() })
	keys, _ := st.Bucket("paymaster_keys")
	pm, err := paymaster.New(paymaster.Config{
		ChainID: e.chain.ChainID, Signer: e.chain.PaymasterSigner.Key, Chain: rc, Keys: keys,
		EntryPoints: []paymaster.EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(c.EntryPoint), Paymaster: c.Paymaster},
			{EntryPoint: entrypoint.NewV07(c.EntryPointV07), Paymaster: c.PaymasterV07},
			{EntryPoint: entrypoint.NewV08(c.EntryPointV08), Paymaster: c.PaymasterV08},
		},
		Projects: []paymaster.Project{{Name: "demo", Balance: new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18)), MaxInFlight: 1000}},
	})
	if err != nil {
		e.t.Fatal(err)
	}
	e.pm = pm
	key, _, _ := pm.Keys().Create("demo", "testnet", []string{paymaster.ScopeSponsor})
	srv := httptest.NewServer(pm)
	e.t.Cleanup(srv.Close)
	e.cfg.AANative.Sponsor = &paymaster.Client{URL: srv.URL, APIKey: key, Header: "X-Paymaster-Api-Key"}
	e.cfg.AANative.EntryPoints = append(e.cfg.AANative.EntryPoints, AAEntryPoint{EntryPointConfig: aanative.EntryPointConfig{
		EntryPoint: entrypoint.NewV08(c.EntryPointV08), Factory: c.AccountFactoryV08, Paymaster: c.PaymasterV08, Delegate: c.Simple7702Account,
	}})
}

// aaRequirementsV08 is an aa-native offer on the devnet's EntryPoint v0.8.
func (e *env) aaRequirementsV08(payTo common.Address, amount int64) x402.PaymentRequirements {
	req := e.aaRequirements(payTo, amount)
	c := e.chain.Contracts
	req.Extra = &x402.Extra{EntryPoint: c.EntryPointV08.Hex(), EntryPointVersion: "0.8", Factory: c.AccountFactoryV08.Hex(),
		Settlement: c.Settlement.Hex(), SponsorURL: e.srv.URL + "/sponsor"}
	e.offers.Add(req)
	return req
}

// aaPayV08 pays a v0.8 offer with the Go client: from key's EOA through
// EIP-7702 when eoa is set, from its v0.8 SimpleAccount otherwise.
func (e *env) aaPayV08(key *ecdsa.PrivateKey, req x402.PaymentRequirements, eoa bool) *x402.VerifyRequest {
	e.t.Helper()
	tr := &client.Transport{Key: key, MaxAmount: big.NewInt(1 << 40), Schemes: []string{x402.SchemeAANative}, RPC: e.chain.URL, EntryPointVersions: []string{"0.8"}}
	if eoa {
		tr.EIP7702Delegate = e.chain.Contracts.Simple7702Account
	}
	p, err := tr.PayAANative(context.Background(), &x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{req}}, &req)
	if err != nil {
		e.t.Fatal(err)
	}
	return &x402.VerifyRequest{X402Version: 2, PaymentPayload: *p, PaymentRequirements: req}
}

// TestAANativeV08 pays one merchant through /sponsor, /verify and /settle
// on EntryPoint v0.8 from a key's v0.8 SimpleAccount and from another
// key's EOA delegated to Simple7702Account by EIP-7702 (the first payment
// with the authorization in the operation, carried by the built-in
// bundler's set-code transaction; the second a plain operation of the
// delegated EOA), twice each: each settles once, the balances move to the
// token unit, /supported lists v0.8, and the gas of each bundle is logged.
func TestAANativeV08(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, v08: true})
	merchant := e.chain.Accounts[3].Address
	const amount = 5_000
	sup, err := e.client.Supported(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := json.Marshal(sup); !strings.Contains(string(raw), e.chain.Contracts.EntryPointV08.Hex()) {
		t.Fatalf("/supported does not list EntryPoint v0.8: %s", raw)
	}
	for _, v := range []struct {
		name    string
		key     *ecdsa.PrivateKey
		account common.Address
		eoa     bool
	}{
		{"SimpleAccount", e.chain.Accounts[1].Key, e.chain.Contracts.SmartAccountsV08[1], false},
		{"EIP-7702 EOA", e.chain.Accounts[4].Key, e.chain.Accounts[4].Address, true},
	} {
		for _, step := range []string{"first", "second"} {
			merchantBefore, payerBefore := e.balance(merchant), e.balance(v.account)
			req := e.aaPayV08(v.key, e.aaRequirementsV08(merchant, amount), v.eoa)
			var vr x402.VerifyResponse
			e.post("verify", req, &vr)
			if !vr.IsValid || vr.Payer != v.account.Hex() {
				t.Fatalf("%s %s: verify %+v, want valid from %s", v.name, step, vr, v.account)
			}
			var res, again x402.SettleResponse
			e.post("settle", req, &res)
			if !res.Success || res.Payer != v.account.Hex() {
				t.Fatalf("%s %s: settle %+v", v.name, step, res)
			}
			e.post("settle", req, &again)
			if again.Success && again.TransactionHash != res.TransactionHash {
				t.Fatalf("%s: a second settle answered another transaction %s (first %s)", v.name, again.TransactionHash, res.TransactionHash)
			}
			if got := e.balance(merchant); got.Cmp(new(big.Int).Add(merchantBefore, big.NewInt(amount))) != 0 {
				t.Fatalf("%s %s: merchant %s, want %s + %d", v.name, step, got, merchantBefore, amount)
			}
			if got := e.balance(v.account); got.Cmp(new(big.Int).Sub(payerBefore, big.NewInt(amount))) != 0 {
				t.Fatalf("%s %s: payer %s, want %s - %d", v.name, step, got, payerBefore, amount)
			}
			tx, _, err := e.eth.TransactionByHash(context.Background(), common.HexToHash(res.TransactionHash))
			if err != nil {
				t.Fatal(err)
			}
			// Only the EOA's first payment carries an authorization (a
			// set-code bundle); once delegated it pays plainly.
			if (v.eoa && step == "first") != (tx.Type() == types.SetCodeTxType) {
				t.Fatalf("%s %s: bundle of type %d", v.name, step, tx.Type())
			}
			receipt, err := e.eth.TransactionReceipt(context.Background(), tx.Hash())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("aa-native v0.8 settlement, %s, %s payment: %d gas (transaction type %d)", v.name, step, receipt.GasUsed, tx.Type())
		}
	}
}

// TestAANativeV08Refusals: an EIP-7702 payment is refused when its
// authorization is for another chain, names another delegate, carries a
// used nonce or is signed by another key, or is missing.
func TestAANativeV08Refusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, v08: true})
	merchant := e.chain.Accounts[3].Address
	key := e.chain.Accounts[5].Key
	eoa := e.chain.Accounts[5].Address
	other, _ := crypto.GenerateKey()
	v8 := entrypoint.NewV08(e.chain.Contracts.EntryPointV08)
	req := e.aaRequirementsV08(merchant, 5_000)
	// One transaction of the EOA's own, so that it has a used nonce.
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, To: &eoa, Gas: 21_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := e.eth.SendTransaction(context.Background(), tx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.chain.Wait(context.Background(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
	nonce, _ := e.eth.NonceAt(context.Background(), eoa, nil)
	// edit changes the paid operation's authorization (re-signed by
	// signer, nil to drop it) and re-signs the operation.
	edit := func(r *x402.VerifyRequest, auth *types.SetCodeAuthorization, signer *ecdsa.PrivateKey) *x402.VerifyRequest {
		var p struct {
			UserOp             json.RawMessage         `json:"userOp"`
			SettlementCallSpec x402.SettlementCallSpec `json:"settlementCallSpec"`
		}
		json.Unmarshal(r.PaymentPayload.Payload, &p)
		op, err := v8.DecodeOp(p.UserOp, false)
		if err != nil {
			t.Fatal(err)
		}
		op.EIP7702Auth = nil
		if auth != nil {
			a, err := types.SignSetCode(signer, *auth)
			if err != nil {
				t.Fatal(err)
			}
			op.EIP7702Auth = &a
		}
		digest := v8.AccountDigest(v8.UserOpHash(&op, e.chain.ChainID))
		op.Signature, _ = crypto.Sign(digest[:], key)
		op.Signature[64] += 27
		p.UserOp, _ = json.Marshal(v8.EncodeOp(&op))
		out := *r
		out.PaymentPayload.Payload, _ = json.Marshal(p)
		return &out
	}
	good := types.SetCodeAuthorization{ChainID: *uint256.MustFromBig(e.chain.ChainID), Address: e.chain.Contracts.Simple7702Account, Nonce: nonce}
	with := func(change func(*types.SetCodeAuthorization)) *types.SetCodeAuthorization {
		a := good
		change(&a)
		return &a
	}
	for _, tc := range []struct {
		name   string
		auth   *types.SetCodeAuthorization
		signer *ecdsa.PrivateKey
		reason x402.InvalidReason
		msg    string
	}{
		{"another chain", with(func(a *types.SetCodeAuthorization) { a.ChainID = *uint256.NewInt(1) }), key, x402.ReasonInvalidInnerPayload, "for chain 1"},
		{"any chain (0)", with(func(a *types.SetCodeAuthorization) { a.ChainID = *uint256.NewInt(0) }), key, x402.ReasonInvalidInnerPayload, "for chain 0"},
		{"another delegate", with(func(a *types.SetCodeAuthorization) { a.Address = e.chain.Contracts.EOADelegate }), key, x402.ReasonInvalidInnerPayload, "delegates to"},
		{"a used nonce", with(func(a *types.SetCodeAuthorization) { a.Nonce = nonce - 1 }), key, x402.ReasonInvalidInnerPayload, "nonce"},
		{"a future nonce", with(func(a *types.SetCodeAuthorization) { a.Nonce = nonce + 1 }), key, x402.ReasonInvalidInnerPayload, "nonce"},
		{"signed by another key", &good, other, x402.ReasonSignatureInvalid, "not signed by the account"},
		{"no authorization", nil, nil, x402.ReasonInvalidInnerPayload, "needs its eip7702Auth"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res x402.VerifyResponse
			e.post("verify", edit(e.aaPayV08(key, req, true), tc.auth, tc.signer), &res)
			if res.IsValid || res.InvalidReason != tc.reason || !strings.Contains(res.InvalidMessage, tc.msg) {
				t.Fatalf("got %+v, want %s containing %q", res, tc.reason, tc.msg)
			}
		})
	}
}

// TestAANativeV08DelegationChanged: an EIP-7702 payment verified, then
// voided on chain before it settles (the EOA revokes its delegation,
// delegates elsewhere, or sends a transaction of its own, each of which
// moves its nonce past the authorization's), is refused by settle's
// verification from the chain, before any bundle is sent: the settler
// spends nothing and the merchant is not paid.
func TestAANativeV08DelegationChanged(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, v08: true})
	merchant := e.chain.Accounts[3].Address
	settler := e.chain.Accounts[0].Address
	for i, tc := range []struct {
		name string
		to   *common.Address // delegate of the EOA's own set-code transaction; nil sends a plain one
	}{
		{"revoked", &common.Address{}},
		{"replaced", &e.chain.Contracts.EOADelegate},
		{"nonce used", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acct := e.chain.Accounts[5+i]
			req := e.aaPayV08(acct.Key, e.aaRequirementsV08(merchant, 5_000), true)
			var vr x402.VerifyResponse
			e.post("verify", req, &vr)
			if !vr.IsValid {
				t.Fatalf("verify %+v", vr)
			}
			e.selfSend(t, acct.Key, tc.to)
			settlerNonce, _ := e.eth.NonceAt(context.Background(), settler, nil)
			merchantBefore := e.balance(merchant)
			var res x402.SettleResponse
			e.post("settle", req, &res)
			if res.Success || !strings.Contains(res.Message, "nonce") {
				t.Fatalf("settle %+v, want a refusal naming the authorization's nonce", res)
			}
			if n, _ := e.eth.NonceAt(context.Background(), settler, nil); n != settlerNonce || e.balance(merchant).Cmp(merchantBefore) != 0 {
				t.Fatalf("the settler sent %d transactions, the merchant got %s", n-settlerNonce, new(big.Int).Sub(e.balance(merchant), merchantBefore))
			}
		})
	}
}

// selfSend has key's EOA send a transaction of its own: a set-code one
// delegating to *to (the zero address revokes), or a plain one when to is
// nil.
func (e *env) selfSend(t *testing.T, key *ecdsa.PrivateKey, to *common.Address) {
	t.Helper()
	ctx := context.Background()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, _ := e.eth.NonceAt(ctx, from, nil)
	var data types.TxData = &types.DynamicFeeTx{ChainID: e.chain.ChainID, Nonce: nonce, To: &from, Gas: 21_000, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11)}
	if to != nil {
		// The sender's own authorization is checked after its nonce moved.
		auth, err := types.SignSetCode(key, types.SetCodeAuthorization{ChainID: *uint256.MustFromBig(e.chain.ChainID), Address: *to, Nonce: nonce + 1})
		if err != nil {
			t.Fatal(err)
		}
		data = &types.SetCodeTx{ChainID: uint256.MustFromBig(e.chain.ChainID), Nonce: nonce, To: from, Gas: 100_000,
			GasTipCap: uint256.NewInt(1e9), GasFeeCap: uint256.NewInt(1e11), AuthList: []types.SetCodeAuthorization{auth}}
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), data)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// A set-code transaction's authorization stands even where its call
	// reverts (EOADelegate takes no plain call).
	if r, err := e.chain.Wait(ctx, tx.Hash()); err != nil || (to == nil && r.Status != types.ReceiptStatusSuccessful) {
		t.Fatalf("the EOA's own transaction: %v", err)
	}
	if to != nil {
		code, _ := e.eth.CodeAt(ctx, from, nil)
		if want := types.AddressToDelegation(*to); *to == (common.Address{}) && len(code) != 0 || *to != (common.Address{}) && string(code) != string(want) {
			t.Fatalf("EOA code %x after delegating to %s", code, to)
		}
	}
}

// TestAANativeV08TwoOperationsOneAccount: two payments of one EIP-7702
// account built at once (both at EntryPoint nonce 0, both carrying an
// authorization at the account's nonce) both verify; settled at once,
// exactly one settles and the merchant is paid once. The other is refused
// (its nonce is spent, found by the bundler's simulation or by settle's
// verification) without a bundle that reverts at the settler's cost.
func TestAANativeV08TwoOperationsOneAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, v08: true})
	merchant := e.chain.Accounts[3].Address
	acct := e.chain.Accounts[7]
	settler := e.chain.Accounts[0].Address
	const amount = 7_000
	reqs := []*x402.VerifyRequest{
		e.aaPayV08(acct.Key, e.aaRequirementsV08(merchant, amount), true),
		e.aaPayV08(acct.Key, e.aaRequirementsV08(merchant, amount), true),
	}
	for _, r := range reqs {
		var vr x402.VerifyResponse
		e.post("verify", r, &vr)
		if !vr.IsValid {
			t.Fatalf("verify %+v", vr)
		}
	}
	merchantBefore := e.balance(merchant)
	settlerNonce, _ := e.eth.NonceAt(context.Background(), settler, nil)
	results := make([]x402.SettleResponse, len(reqs))
	done := make(chan struct{}, len(reqs))
	for i, r := range reqs {
		go func() {
			defer func() { done <- struct{}{} }()
			e.post("settle", r, &results[i])
		}()
	}
	for range reqs {
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatal("settling took over a minute")
		}
	}
	settled := 0
	for _, res := range results {
		if res.Success {
			settled++
		}
	}
	if settled != 1 {
		t.Fatalf("%d of two settled: %+v", settled, results)
	}
	if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Int64() != amount {
		t.Fatalf("merchant got %s, want %d", got, amount)
	}
	// Every transaction the settler sent since succeeded.
	last, _ := e.eth.NonceAt(context.Background(), settler, nil)
	head, _ := e.eth.BlockNumber(context.Background())
	for n := uint64(1); n <= head; n++ {
		b, err := e.eth.BlockByNumber(context.Background(), new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range b.Transactions() {
			from, _ := types.Sender(types.LatestSignerForChainID(e.chain.ChainID), tx)
			if from != settler || tx.Nonce() < settlerNonce {
				continue
			}
			r, err := e.chain.Wait(context.Background(), tx.Hash())
			if err != nil {
				t.Fatalf("the settler's transaction %s: %v", tx.Hash(), err)
			}
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("the settler's transaction %s reverted", tx.Hash())
			}
		}
	}
	t.Logf("the settler sent %d transactions; refused: %+v", last-settlerNonce, results)
}

// TestAANativeV08ChangedInTheBundlesBlock: an EIP-7702 payer revokes its
// delegation, or replaces it (with EOADelegate, which has no
// validateUserOp), in a transaction mined in the same block as, and
// before, the bundle of its verified payment (a higher tip, 2 s blocks),
// which voids the bundle's authorization: the EntryPoint reverts the whole
// bundle ("sender has no code" when revoked, FailedOp AA23 when replaced).
// The facilitator finds the payer from the chain, answers verify_failed,
// and puts it in the penalty box, whose verification refuses its next
// payments before anything is sent, so the settler pays for it once.
func TestAANativeV08ChangedInTheBundlesBlock(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true, v08: true, blockPeriod: 2 * time.Second})
	for i, tc := range []struct {
		name string
		to   common.Address // the delegate the payer's own transaction sets
		want string
	}{
		{"revoked", common.Address{}, "delegation revoked"},
		{"replaced", e.chain.Contracts.EOADelegate, "AA23"},
	} {
		// One after the other: at once, both payments would share one
		// bundle, whose revert names one culprit (the other payment is then
		// released for a retry, not held against its payer).
		t.Run(tc.name, func(t *testing.T) {
			e.changeInTheBundlesBlock(t, e.chain.Accounts[8+i], tc.to, tc.want)
		})
	}
}

// changeInTheBundlesBlock is one case of
// TestAANativeV08ChangedInTheBundlesBlock for acct.
func (e *env) changeInTheBundlesBlock(t *testing.T, acct devnet.Account, to common.Address, want string) {
	merchant := e.chain.Accounts[3].Address
	req := e.aaPayV08(acct.Key, e.aaRequirementsV08(merchant, 5_000), true)
	var vr x402.VerifyResponse
	e.post("verify", req, &vr)
	if !vr.IsValid {
		t.Fatalf("verify %+v", vr)
	}
	// Right after a block, so that both transactions meet in the next.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start, _ := e.eth.BlockNumber(ctx)
	for n := start; n == start; n, _ = e.eth.BlockNumber(ctx) {
		select {
		case <-ctx.Done():
			t.Fatal("no block in 30 s")
		case <-time.After(20 * time.Millisecond):
		}
	}
	nonce, _ := e.eth.PendingNonceAt(ctx, acct.Address)
	change, err := types.SignSetCode(acct.Key, types.SetCodeAuthorization{ChainID: *uint256.MustFromBig(e.chain.ChainID), Address: to, Nonce: nonce + 1})
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := types.SignNewTx(acct.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.SetCodeTx{
		ChainID: uint256.MustFromBig(e.chain.ChainID), Nonce: nonce, To: acct.Address, Gas: 100_000,
		GasTipCap: uint256.NewInt(200e9), GasFeeCap: uint256.NewInt(400e9), AuthList: []types.SetCodeAuthorization{change},
	})
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	var res x402.SettleResponse
	e.post("settle", req, &res)
	changed, err := e.chain.Wait(ctx, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if res.TransactionHash == "" {
		t.Skipf("the change (block %s) was mined before settle verified: %+v", changed.BlockNumber, res)
	}
	bundle, err := e.eth.TransactionReceipt(ctx, common.HexToHash(res.TransactionHash))
	if err != nil {
		t.Fatal(err)
	}
	if bundle.BlockNumber.Cmp(changed.BlockNumber) != 0 || bundle.TransactionIndex < changed.TransactionIndex {
		t.Skipf("the change (block %s) and the bundle (block %s) did not meet in one block in that order", changed.BlockNumber, bundle.BlockNumber)
	}
	if res.Success || bundle.Status != types.ReceiptStatusFailed || res.ErrorCode != x402.ErrorVerifyFailed || !strings.Contains(res.Message, want) {
		t.Fatalf("settle %+v, bundle status %d; want verify_failed naming %q", res, bundle.Status, want)
	}
	// The payer waits in the penalty box (its next payment may not even
	// be sponsorable, its EOA now running EOADelegate).
	if until, refused := e.svc.payers.refusedUntil(acct.Address, time.Now()); !refused {
		t.Fatal("the payer is not in the penalty box")
	} else {
		t.Logf("the payer is refused until %s", until.Format(time.RFC3339))
	}
	t.Logf("the reverted bundle cost the settler %d gas", bundle.GasUsed)
}

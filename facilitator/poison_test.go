package facilitator

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// shortLived re-sponsors an aa-native payment so that it is valid only
// until validUntil, and has the payer sign it again.
func (e *env) shortLived(key *ecdsa.PrivateKey, req x402.PaymentRequirements, validUntil int64) (*x402.VerifyRequest, contracts.UserOperation) {
	e.t.Helper()
	vr, aa := e.aaPay(key, req)
	wire := aa.UserOp
	wire.PaymasterAndData, wire.Signature = "0x", "0x"
	out, err := e.cfg.AANative.Sponsor.SponsorOnce(context.Background(), wire, e.chain.Contracts.EntryPoint, x402.SponsorContext{ValidUntil: uint64(validUntil)})
	if err != nil {
		e.t.Fatal(err)
	}
	op, err := contracts.UserOperationHex(out).Decode(false)
	if err != nil {
		e.t.Fatal(err)
	}
	signed := e.resign(vr, aa, op, key)
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), key)
	return signed, op
}

// aaPayOp is aaPay that also returns the signed operation.
func (e *env) aaPayOp(key *ecdsa.PrivateKey, req x402.PaymentRequirements) (*x402.VerifyRequest, contracts.UserOperation) {
	e.t.Helper()
	vr, aa := e.aaPay(key, req)
	op, err := contracts.UserOperationHex(aa.UserOp).Decode(false)
	if err != nil {
		e.t.Fatal(err)
	}
	return vr, op
}

// An operation valid for only a few more seconds is refused at
// verification: it could expire between the latest block and the one that
// includes it.
func TestAANativeValidityMargin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	req := e.aaRequirements(e.chain.Accounts[3].Address, 5_000)
	short, _ := e.shortLived(e.chain.Accounts[1].Key, req, time.Now().Unix()+8)
	var v x402.VerifyResponse
	e.post("verify", short, &v)
	if v.IsValid || v.InvalidReason != x402.ReasonInvalidInnerPayload || !strings.Contains(v.InvalidMessage, "too soon") {
		t.Fatalf("verify of an operation about to expire: %+v", v)
	}
}

// Bundle poisoning: an operation that passed its checks while the latest
// block was older than its validUntil is bundled after it expired. It used
// to revert the whole handleOps (AA32) at the settler's cost and fail every
// honest operation in the bundle for good. Now the bundle is simulated at
// the time it will be mined: the offender is dropped and the others settle.
func TestBundleDropsAnExpiredOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	req := e.aaRequirements(e.chain.Accounts[3].Address, 5_000)
	_, honest1 := e.aaPayOp(e.chain.Accounts[1].Key, req)
	_, honest2 := e.aaPayOp(e.chain.Accounts[2].Key, req)
	// The paymaster wants validUntil more than 5 s ahead when it signs;
	// 3 s more leaves room for a slow machine.
	until := time.Now().Unix() + 8
	_, poison := e.shortLived(e.chain.Accounts[4].Key, req, until)

	// The latest block is older than the poison's end; then the wall clock
	// passes it, with no block in between.
	head, err := e.eth.HeaderByNumber(context.Background(), nil)
	if err != nil || int64(head.Time) >= until {
		t.Fatalf("the latest block (%v) is not before validUntil %d: %v", head, until, err)
	}
	for time.Now().Unix() <= until+1 {
		time.Sleep(100 * time.Millisecond) // waiting for the clock, not for another goroutine
	}

	type result struct {
		tx  *types.Transaction
		err error
	}
	results := make([]result, 3)
	var wg sync.WaitGroup
	for i, op := range []contracts.UserOperation{honest1, poison, honest2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unpacked, err := entrypoint.FromV06(op)
			if err != nil {
				results[i] = result{nil, err}
				return
			}
			tx, err := e.svc.bundlers[e.chain.Contracts.EntryPoint].Submit(context.Background(), unpacked, func(*types.Transaction) error { return nil })
			results[i] = result{tx, err}
		}()
	}
	wg.Wait()
	if !errors.Is(results[1].err, bundler.ErrRejected) {
		t.Fatalf("the expired operation: %v", results[1].err)
	}
	for i, op := range []contracts.UserOperation{honest1, honest2} {
		r := results[i*2]
		if r.err != nil {
			t.Fatalf("honest operation %d: %v", i, r.err)
		}
		receipt, err := e.chain.Wait(context.Background(), r.tx.Hash())
		if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("honest bundle: %+v %v", receipt, err)
		}
		got, found := bundler.Outcome(receipt, contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID))
		if !found || !got.Success {
			t.Fatalf("honest operation %d in its bundle: found %v, %+v", i, found, got)
		}
	}
}

// An operation whose bundle was mined without it did not pay: its record
// is released, and the answer is transient, so the payer retries the same
// payment instead of being failed for good (or paying twice).
func TestNotIncludedIsReleased(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	req := e.aaRequirements(e.chain.Accounts[3].Address, 5_000)
	vr, _ := e.aaPay(e.chain.Accounts[1].Key, req)
	p, err := e.svc.decode(vr)
	if err != nil {
		t.Fatal(err)
	}
	// A mined transaction without the operation in it.
	other := e.transfer(e.chain.Accounts[5].Key, e.chain.Accounts[6].Address, big.NewInt(1), nil, 1e9)
	receipt, err := e.chain.Wait(context.Background(), other.Hash())
	if err != nil {
		t.Fatal(err)
	}
	rec := &store.Record{Key: p.key, PayloadHash: p.hash, State: store.StateClaimed, Scheme: x402.SchemeAANative, Network: e.network,
		Payer: p.payer, PayTo: p.payTo, Asset: p.asset, Amount: p.amount, UserOpHash: p.pay.UserOpHash, RequestHash: p.pay.RequestHash}
	if _, claimed, err := e.svc.store.Claim(*rec); err != nil || !claimed {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	rec.State, rec.TxHash = store.StateSubmitted, other.Hash()
	if err := e.svc.store.Submit(rec); err != nil {
		t.Fatal(err)
	}
	res := e.svc.finish(context.Background(), rec, receipt, "owner")
	if res.Success || res.ErrorCode != x402.ErrorBundlerUnreachable {
		t.Fatalf("finish: %+v", res)
	}
	if left, _ := e.svc.store.Get(p.key); left != nil {
		t.Fatalf("the record stays: %+v", left)
	}
	// The same payment now settles.
	var again x402.SettleResponse
	if e.post("settle", vr, &again); !again.Success {
		t.Fatalf("the retry: %+v", again)
	}
}

package facilitator

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// settleAll settles reqs at once, each under its own idempotency key, and
// returns the answers in order.
func (e *env) settleAll(reqs []*x402.VerifyRequest, keys []string) []*x402.SettleResponse {
	e.t.Helper()
	out := make([]*x402.SettleResponse, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			ctx := x402.WithIdempotencyKey(context.Background(), keys[i])
			out[i], _ = e.svc.Settle(ctx, &x402.SettleRequest{X402Version: req.X402Version, PaymentPayload: req.PaymentPayload, PaymentRequirements: req.PaymentRequirements})
		})
	}
	wg.Wait()
	return out
}

// queued is how many payments wait in the batcher.
func (e *env) queued() int {
	e.svc.batch.mu.Lock()
	defer e.svc.batch.mu.Unlock()
	return len(e.svc.batch.queue)
}

// A burst of payments lands in one transaction with every outcome right:
// several payments of one payer, of one amount, to one merchant, each
// settled by its own authorization, balances to the wei, and each
// payment's receipt handed to its own settle only.
func TestBatchBurst(t *testing.T) {
	t.Parallel()
	const n, price = 12, 10_000
	e := newEnv(t, envOptions{batch: &Batching{MaxPayments: n, MaxWait: time.Minute}})
	payers := []devnet.Account{e.fundPayer(4 * price), e.fundPayer(4 * price), e.fundPayer(4 * price)}
	merchant := common.Address{0x42}
	reqs, keys := make([]*x402.VerifyRequest, n), make([]string, n)
	for i := range reqs {
		reqs[i], keys[i] = e.pay(payers[i%len(payers)], merchant, price), "burst-"+string(rune('a'+i))
	}
	res := e.settleAll(reqs, keys)
	tx := res[0].TransactionHash
	for i, r := range res {
		if !r.Success || r.TransactionHash != tx || r.Payer != payers[i%len(payers)].Address.Hex() {
			t.Fatalf("payment %d: %+v; want success in %s", i, r, tx)
		}
	}
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(tx))
	if err != nil {
		t.Fatal(err)
	}
	btx, _, err := e.eth.TransactionByHash(context.Background(), receipt.TxHash)
	if err != nil || *btx.To() != e.chain.Contracts.Batch {
		t.Fatalf("the settlement went to %v, not the batch contract (%v)", btx.To(), err)
	}
	t.Logf("%d payments in one transaction: %d gas (%d a payment), %d bytes of calldata", n, receipt.GasUsed, receipt.GasUsed/n, len(btx.Data()))
	if got, want := e.balance(merchant), big.NewInt(n*price); got.Cmp(want) != 0 {
		t.Errorf("merchant holds %s, want %s", got, want)
	}
	for _, p := range payers {
		if got := e.balance(p.Address); got.Sign() != 0 {
			t.Errorf("payer %s holds %s, want 0", p.Address, got)
		}
	}
	// Idempotency, per payment: the same settle again is handed its
	// receipt; another settle of the payment gets replay.
	again := e.settleAll(reqs, keys)
	for i, r := range again {
		if !r.Success || r.TransactionHash != tx {
			t.Errorf("retry of payment %d: %+v", i, r)
		}
	}
	others := make([]string, n)
	for i := range others {
		others[i] = "other-" + keys[i]
	}
	for i, r := range e.settleAll(reqs, others) {
		if r.Success || r.InvalidReason != x402.ReasonReplay {
			t.Errorf("replay of payment %d: %+v", i, r)
		}
	}
	if got, want := e.balance(merchant), big.NewInt(n*price); got.Cmp(want) != 0 {
		t.Errorf("after retries the merchant holds %s, want %s", got, want)
	}
}

// A lone payment is sent direct to the token, as without batching: it
// costs no more than before.
func TestBatchLonePaymentGoesDirect(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{batch: &Batching{}})
	merchant := common.Address{0x43}
	res := e.settleAll([]*x402.VerifyRequest{e.pay(e.chain.Accounts[1], merchant, 5_000)}, []string{"lone"})[0]
	if !res.Success {
		t.Fatalf("%+v", res)
	}
	tx, _, err := e.eth.TransactionByHash(context.Background(), common.HexToHash(res.TransactionHash))
	if err != nil || *tx.To() != e.chain.Token.Address {
		t.Fatalf("a lone payment went to %v, want the token (%v)", tx.To(), err)
	}
}

// One bad payment in a batch fails alone: its payer emptied its balance
// after verification, so the batch's simulation takes it out and it is
// answered as a lone settlement whose transfer would revert, while the
// others settle in one transaction.
func TestBatchOneBadPayment(t *testing.T) {
	t.Parallel()
	const n, price = 6, 20_000
	e := newEnv(t, envOptions{batch: &Batching{MaxPayments: n + 1, MaxWait: time.Minute}})
	payers := make([]devnet.Account, n)
	reqs, keys := make([]*x402.VerifyRequest, n), make([]string, n)
	merchant := common.Address{0x44}
	for i := range payers {
		payers[i] = e.fundPayer(price)
		reqs[i], keys[i] = e.pay(payers[i], merchant, price), "bad-"+string(rune('a'+i))
	}
	var res []*x402.SettleResponse
	done := make(chan struct{})
	go func() {
		defer close(done)
		res = e.settleAll(reqs, keys)
	}()
	for e.queued() < n {
		time.Sleep(5 * time.Millisecond)
	}
	// Payer 2 moves its tokens away; then the batch goes.
	drain := e.transfer(payers[2].Key, e.chain.Token.Address, nil, contracts.NewDevUSD().PackTransfer(common.Address{0x99}, big.NewInt(price)), 1e9)
	if _, err := e.chain.Wait(context.Background(), drain.Hash()); err != nil {
		t.Fatal(err)
	}
	e.svc.batch.mu.Lock()
	e.svc.batch.flushLocked(e.svc)
	e.svc.batch.mu.Unlock()
	<-done
	var tx string
	for i, r := range res {
		if i == 2 {
			if r.Success || r.InvalidReason != x402.ReasonInvalidInnerPayload {
				t.Errorf("the emptied payer's payment: %+v", r)
			}
			continue
		}
		if !r.Success || (tx != "" && r.TransactionHash != tx) {
			t.Errorf("payment %d: %+v", i, r)
		}
		tx = r.TransactionHash
	}
	if got, want := e.balance(merchant), big.NewInt((n-1)*price); got.Cmp(want) != 0 {
		t.Errorf("merchant holds %s, want %s", got, want)
	}
	// Nothing was paid by the failed payment: its record is released,
	// and the payer's retry is refused for its balance, not replay.
	if rec, err := e.st.Get(e.svc.mustDecode(t, reqs[2]).key); err != nil || rec != nil {
		t.Errorf("the failed payment's record: %+v, %v", rec, err)
	}
}

func (s *Service) mustDecode(t *testing.T, req *x402.VerifyRequest) *payment {
	t.Helper()
	p, err := s.decode(req)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A payment whose transfer fails when the batch is mined fails alone, and
// its outcome is read from its own logs: two payments of one payer, one
// amount and one merchant sit in one batch, one of them with an
// authorization already used; the other's Transfer log must not be
// counted for it.
func TestBatchMinedFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{batch: &Batching{}})
	const price = 7_000
	payer, merchant := e.fundPayer(3*price), common.Address{0x45}
	token := contracts.NewDevUSD()
	auths := []auth{e.newAuth(payer, merchant, price), e.newAuth(payer, merchant, price), e.newAuth(payer, merchant, price)}
	items := make([]contracts.BatchItem, len(auths))
	recs := make([]*payment, len(auths))
	for i, a := range auths {
		sig := sign(t, payer.Key, a)
		items[i] = contracts.BatchItem{Token: e.chain.Token.Address, To: merchant, From: payer.Address, Value: a.value,
			ValidAfter: a.validAfter.Uint64(), ValidBefore: a.validBefore.Uint64(), Nonce: a.nonce, V: sig[64]}
		copy(items[i].R[:], sig[:32])
		copy(items[i].S[:], sig[32:64])
		recs[i] = e.svc.mustDecode(t, request(e.requirements(merchant, price), a, sig))
	}
	// Authorization 1 is used before the batch, on its own.
	used := e.transfer(e.chain.Accounts[5].Key, e.chain.Token.Address, nil, token.PackTransferWithAuthorization0(payer.Address, merchant,
		items[1].Value, auths[1].validAfter, auths[1].validBefore, items[1].Nonce, items[1].V, items[1].R, items[1].S), 1e9)
	if _, err := e.chain.Wait(context.Background(), used.Hash()); err != nil {
		t.Fatal(err)
	}
	data := contracts.PackBatch(items[:2])
	failed, err := e.svc.simulateBatch(context.Background(), data, 2)
	if err != nil || failed[0] || !failed[1] {
		t.Fatalf("simulation: %v, %v; want only item 1 failed", failed, err)
	}
	tx := e.transfer(e.chain.Accounts[6].Key, e.chain.Contracts.Batch, nil, data, 1e9)
	receipt, err := e.chain.Wait(context.Background(), tx.Hash())
	if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("batch: %+v, %v", receipt, err)
	}
	if got, want := e.balance(merchant), big.NewInt(2*price); got.Cmp(want) != 0 {
		t.Errorf("merchant holds %s, want %s (the used authorization paid once)", got, want)
	}
	for i, want := range []scheme.Verdict{scheme.Paid, scheme.Reverted, scheme.Failed} {
		rec := recordOf(recs[i])
		res, v := e.svc.outcome(rec, receipt)
		if v != want || res.Success != (want == scheme.Paid) {
			t.Errorf("payment %d: verdict %v (%+v), want %v", i, v, res, want)
		}
		if want == scheme.Reverted && res.Message != "invalid_inner_payload: the settlement transaction reverted on chain" {
			t.Errorf("a failed batched transfer is answered %q, not as a lone revert", res.Message)
		}
	}
}

// recordOf is the record of a decoded payment, as settle stores it.
func recordOf(p *payment) *store.Record {
	return &store.Record{Key: p.key, PayloadHash: p.hash, Scheme: p.scheme, Payer: p.payer, PayTo: p.payTo, Asset: p.asset, Amount: p.amount}
}

// The packed calldata reads back as the contract reads it.
func TestPackBatchRoundTrip(t *testing.T) {
	t.Parallel()
	a, b := common.Address{1}, common.Address{2}
	items := []contracts.BatchItem{
		{Token: a, To: b, From: common.Address{3}, Value: big.NewInt(1), ValidAfter: 2, ValidBefore: 3, Nonce: [32]byte{4}, V: 27},
		{Token: a, To: b, From: common.Address{5}, Value: new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1)), ValidAfter: 0, ValidBefore: ^uint64(0), V: 28},
		{Token: b, To: b, From: common.Address{6}, Value: big.NewInt(0), V: 27, R: [32]byte{7}, S: [32]byte{8}},
	}
	data := contracts.PackBatch(items)
	if want := 3*(1+contracts.BatchItemSize) + 40 + 20; len(data) != want {
		t.Errorf("%d bytes, want %d", len(data), want)
	}
	got, err := contracts.UnpackBatch(data)
	if err != nil || len(got) != len(items) {
		t.Fatalf("%v, %v", got, err)
	}
	for i := range items {
		if hexutil.Encode(contracts.PackBatch(got[i:i+1])) != hexutil.Encode(contracts.PackBatch(items[i:i+1])) {
			t.Errorf("item %d reads back as %+v", i, got[i])
		}
	}
}

// A restart while a batch is pending: each payment's record holds the
// batch's transaction, the new process reconciles each, and each payer's
// retry (same idempotency key) is handed its receipt, once.
func TestBatchRestart(t *testing.T) {
	t.Parallel()
	const n, price = 5, 3_000
	e := newEnv(t, envOptions{blockPeriod: 2 * time.Second, receiptTimeout: 20 * time.Millisecond, batch: &Batching{MaxPayments: n, MaxWait: time.Minute}})
	// A batch sent just before a block is sealed is mined within the 20 ms:
	// pay again, to another merchant, until a batch is left pending.
	var (
		merchant common.Address
		reqs     []*x402.VerifyRequest
		keys     []string
		tx       string
	)
	for attempt := 0; tx == ""; attempt++ {
		merchant = common.Address{0x46, byte(attempt)}
		reqs, keys = make([]*x402.VerifyRequest, n), make([]string, n)
		for i := range reqs {
			reqs[i], keys[i] = e.pay(e.chain.Accounts[1+i], merchant, price), fmt.Sprintf("restart-%d-%d", attempt, i)
		}
		out := e.settleAll(reqs, keys)
		if attempt < 4 && out[0].Success {
			continue
		}
		for i, r := range out {
			if r.ErrorCode != x402.ErrorReceiptTimeout || (tx != "" && r.TransactionHash != tx) {
				t.Fatalf("payment %d before its block: %+v", i, r)
			}
			tx = r.TransactionHash
		}
	}
	e.stop()
	e.start()
	if _, err := e.chain.Wait(context.Background(), common.HexToHash(tx)); err != nil {
		t.Fatal(err)
	}
	e.stop()
	e.cfg.ReceiptTimeout = time.Minute
	e.start()
	for i, r := range e.settleAll(reqs, keys) {
		if !r.Success || r.TransactionHash != tx {
			t.Errorf("payment %d after the restart: %+v", i, r)
		}
	}
	if got, want := e.balance(merchant), big.NewInt(n*price); got.Cmp(want) != 0 {
		t.Errorf("merchant holds %s, want %s", got, want)
	}
}

// A reorganisation drops a batch after it was reported: the finality
// watcher counts each of its payments, broadcasts it again, and the
// merchant is paid each price once.
func TestBatchReorg(t *testing.T) {
	t.Parallel()
	const n, price = 4, 2_000
	e := newEnv(t, envOptions{batch: &Batching{MaxPayments: n, MaxWait: time.Minute}})
	e.stop()
	e.cfg.FinalityCheck = 20 * time.Millisecond
	e.start()
	merchant := common.Address{0x47}
	reqs, keys := make([]*x402.VerifyRequest, n), make([]string, n)
	for i := range reqs {
		reqs[i], keys[i] = e.pay(e.chain.Accounts[1+i], merchant, price), "reorg-"+string(rune('a'+i))
	}
	res := e.settleAll(reqs, keys)
	for i, r := range res {
		if !r.Success || r.TransactionHash != res[0].TransactionHash {
			t.Fatalf("payment %d: %+v", i, r)
		}
	}
	waitUntil(t, "the watcher follows the settlements", func() bool {
		e.svc.final.mu.Lock()
		defer e.svc.final.mu.Unlock()
		return len(e.svc.final.fresh) == 0
	})
	replaced, err := e.chain.Reorg(1, false)
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the watcher notices the reorganisation", func() bool { return e.svc.Reorganised().Total() == n })
	if got := e.svc.Reorganised(); got.Reverted != 0 {
		t.Errorf("reorganisations %+v", got)
	}
	var receipt *types.Receipt
	waitUntil(t, "the batch is mined again", func() bool {
		receipt, _ = e.eth.TransactionReceipt(context.Background(), common.HexToHash(res[0].TransactionHash))
		return receipt != nil && !slices.Contains(replaced, receipt.BlockHash)
	})
	if got, want := e.balance(merchant), big.NewInt(n*price); receipt.Status != types.ReceiptStatusSuccessful || got.Cmp(want) != 0 {
		t.Errorf("mined again with status %d; merchant holds %s, want %s", receipt.Status, got, want)
	}
}

// A payment whose transfer fails when its batch is mined, through settle:
// its payer moves its tokens away in the batch's block, ahead of it. The
// payment is answered as a lone settlement whose transaction reverted, its
// record is failed, and the batch's other payments settle.
func TestBatchFailsWhenMined(t *testing.T) {
	t.Parallel()
	const n, price = 4, 5_000
	e := newEnv(t, envOptions{blockPeriod: 3 * time.Second, receiptTimeout: time.Minute, batch: &Batching{MaxPayments: n, MaxWait: time.Minute}})
	merchant := common.Address{0x48}
	payers := make([]devnet.Account, n)
	reqs, keys := make([]*x402.VerifyRequest, n), make([]string, n)
	for i := range reqs {
		payers[i] = e.fundPayer(price)
		reqs[i], keys[i] = e.pay(payers[i], merchant, price), "mined-"+string(rune('a'+i))
	}
	var res []*x402.SettleResponse
	done := make(chan struct{})
	go func() {
		defer close(done)
		res = e.settleAll(reqs, keys)
	}()
	waitUntil(t, "the batch is sent", func() bool {
		e.svc.mu.Lock()
		defer e.svc.mu.Unlock()
		for _, keys := range e.svc.txKeys {
			if len(keys) == n {
				return true
			}
		}
		return false
	})
	// Payer 1 empties its balance with a higher tip: mined first.
	e.transfer(payers[1].Key, e.chain.Token.Address, nil, contracts.NewDevUSD().PackTransfer(common.Address{0x98}, big.NewInt(price)), 200e9)
	<-done
	for i, r := range res {
		if i == 1 {
			if r.Success || r.ErrorCode != x402.ErrorVerifyFailed || r.Message != "invalid_inner_payload: the settlement transaction reverted on chain" || r.TransactionHash != res[0].TransactionHash {
				t.Errorf("the emptied payer's payment: %+v", r)
			}
			continue
		}
		if !r.Success || r.TransactionHash != res[0].TransactionHash {
			t.Errorf("payment %d: %+v", i, r)
		}
	}
	if got, want := e.balance(merchant), big.NewInt((n-1)*price); got.Cmp(want) != 0 {
		t.Errorf("merchant holds %s, want %s", got, want)
	}
	rec, err := e.st.Get(e.svc.mustDecode(t, reqs[1]).key)
	if err != nil || rec == nil || rec.State != store.StateFailed {
		t.Errorf("the failed payment's record: %+v, %v", rec, err)
	}
	// Its retry gets the same answer; nothing is sent again.
	if again := e.settleAll(reqs[1:2], keys[1:2])[0]; again.Success || again.Message != res[1].Message {
		t.Errorf("retry of the failed payment: %+v", again)
	}
}

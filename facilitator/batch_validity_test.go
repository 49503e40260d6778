package facilitator

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// boxed is how many payers are in the penalty box.
func (e *env) boxed() int {
	e.svc.payers.mu.Lock()
	defer e.svc.payers.mu.Unlock()
	return len(e.svc.payers.strikes)
}

// payFor is a payment of amount from payer to payTo valid for the next
// seconds only.
func (e *env) payFor(payer devnet.Account, payTo common.Address, amount, seconds int64) *x402.VerifyRequest {
	a := e.newAuth(payer, payTo, amount)
	a.validBefore = big.NewInt(time.Now().Unix() + seconds)
	return request(e.requirements(payTo, amount), a, sign(e.t, payer.Key, a))
}

// balances is the token balance of each of who.
func (e *env) balances(who []devnet.Account) []*big.Int {
	out := make([]*big.Int, len(who))
	for i, a := range who {
		out[i] = e.balance(a.Address)
	}
	return out
}

// Payments valid for 8 s, batched with a max_wait of 8 s on a chain that
// seals a block every 2 s, beside one valid for a minute. Each waited the
// whole max_wait before, and its batch was mined after it expired: its
// transfer failed in the batch (the settler paid for it), and its honest
// payer went to the penalty box as if it had front-run. Now none waits
// past its validity: each is sent by its send-by time, and is paid (or,
// on a machine too slow for that, answered as transient, with nothing
// paid). No payer is boxed: each pays again.
func TestBatchNeverWaitsPastValidity(t *testing.T) {
	t.Parallel()
	const n, price = 4, 3_000
	e := newEnv(t, envOptions{blockPeriod: 2 * time.Second, receiptTimeout: time.Minute,
		batch: &Batching{MaxPayments: 50, MaxWait: 8 * time.Second}})
	merchant := common.Address{0x49}
	payers := e.chain.Accounts[1 : 1+n]
	before, merchantBefore := e.balances(payers), e.balance(merchant)
	reqs, keys := make([]*x402.VerifyRequest, n), make([]string, n)
	for i, p := range payers {
		seconds := int64(8)
		if i == 0 {
			seconds = 60 // the honest payer with time to spare
		}
		reqs[i], keys[i] = e.payFor(p, merchant, price, seconds), fmt.Sprintf("short-%d", i)
	}
	res := e.settleAll(reqs, keys)
	paid := make([]int64, n)
	for i, r := range res {
		switch {
		case r.Success:
			paid[i] = price
		case i > 0 && r.ErrorCode == x402.ErrorBundlerUnreachable:
			t.Logf("payment %d lapsed in the queue (a slow machine): %s", i, r.Message)
		default:
			t.Errorf("payment %d: %+v; want success (or, valid for 8 s, a transient answer)", i, r)
		}
	}
	if paid[0] == 0 {
		t.Errorf("the payment valid for a minute was not paid: %+v", res[0])
	}
	var total int64
	for i, p := range payers {
		total += paid[i]
		if got := new(big.Int).Sub(before[i], e.balance(p.Address)); got.Int64() != paid[i] {
			t.Errorf("payer %d paid %s, want %d", i, got, paid[i])
		}
	}
	if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Int64() != total {
		t.Errorf("the merchant got %s, want %d", got, total)
	}
	if got := e.boxed(); got != 0 {
		t.Errorf("%d payers in the penalty box, want none", got)
	}
	// Each pays again, with time to spare: none is refused.
	for i, p := range payers {
		reqs[i], keys[i] = e.payFor(p, merchant, price, 60), fmt.Sprintf("again-%d", i)
	}
	for i, r := range e.settleAll(reqs, keys) {
		if !r.Success {
			t.Errorf("payer %d's next payment: %+v", i, r)
		}
	}
}

// Payments whose authorization would expire before their batch could be
// mined, by the time it goes (the facilitator's clock is moved on while
// they wait), are taken out before the batch is simulated: nothing is sent
// for them, each is answered as transient (bundler_unreachable, 503), its
// claim is released, and its payer is not boxed; the payment valid for an
// hour beside them goes alone. Retried once valid, each settles.
func TestBatchLapsedInQueue(t *testing.T) {
	t.Parallel()
	const n, price = 4, 2_000
	e := newEnv(t, envOptions{batch: &Batching{MaxPayments: 50, MaxWait: time.Minute}})
	var skew atomic.Int64
	e.stop()
	e.cfg.Now = func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	e.start()
	merchant := common.Address{0x4a}
	payers := e.chain.Accounts[1 : 1+n]
	before := e.balances(payers)
	reqs, keys := make([]*x402.VerifyRequest, n), make([]string, n)
	for i, p := range payers {
		seconds := int64(600)
		if i == 0 {
			seconds = 3600
		}
		reqs[i], keys[i] = e.payFor(p, merchant, price, seconds), fmt.Sprintf("lapse-%d", i)
	}
	var res []*x402.SettleResponse
	done := make(chan struct{})
	go func() {
		defer close(done)
		res = e.settleAll(reqs, keys)
	}()
	waitUntil(t, "the payments wait in the batcher", func() bool { return e.queued() == n })
	// 598 s later, the 600 s payments cannot be mined in time.
	skew.Store(int64(598 * time.Second))
	e.svc.batch.mu.Lock()
	e.svc.batch.scheduleLocked(e.svc)
	e.svc.batch.mu.Unlock()
	<-done
	if !res[0].Success {
		t.Errorf("the payment valid for an hour: %+v", res[0])
	}
	for i, r := range res[1:] {
		if r.Success || r.ErrorCode != x402.ErrorBundlerUnreachable || !strings.Contains(r.Message, "nothing was sent") {
			t.Errorf("lapsed payment %d: %+v; want bundler_unreachable", i+1, r)
		}
		if rec, err := e.st.Get(e.svc.mustDecode(t, reqs[i+1]).key); err != nil || rec != nil {
			t.Errorf("lapsed payment %d's record: %+v, %v; want none", i+1, rec, err)
		}
	}
	for i, p := range payers {
		want := int64(0)
		if i == 0 {
			want = price
		}
		if got := new(big.Int).Sub(before[i], e.balance(p.Address)); got.Int64() != want {
			t.Errorf("payer %d paid %s, want %d", i, got, want)
		}
	}
	if got := e.boxed(); got != 0 {
		t.Errorf("%d payers in the penalty box, want none", got)
	}
	// Back to the chain's time, the retries (same payments, same
	// idempotency keys) settle: their claims were released, and their
	// payers are not boxed.
	skew.Store(0)
	e.svc.batch.mu.Lock()
	e.svc.batch.cfg.MaxWait = 0 // the retries go without waiting a minute
	e.svc.batch.mu.Unlock()
	for i, r := range e.settleAll(reqs[1:], keys[1:]) {
		if !r.Success {
			t.Errorf("retry of lapsed payment %d: %+v", i+1, r)
		}
	}
	if got := e.balance(merchant); got.Int64() != n*price {
		t.Errorf("the merchant holds %s, want %d", got, n*price)
	}
}

// A payment's send-by time leaves what a transaction needs to be mined,
// and a second to check it: on a 2 s chain, a payment verified with 6 s
// left (verification's MinValidity) goes at once.
func TestSendBy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		validBefore uint64
		period      time.Duration
		want        time.Time
	}{
		{"2 s blocks", 1_000, 2 * time.Second, time.Unix(994, 0)},
		{"1 s blocks", 1_000, time.Second, time.Unix(996, 0)},
		{"12 s blocks", 1_000, 12 * time.Second, time.Unix(974, 0)},
		{"too far to matter", 1 << 63, 2 * time.Second, time.Time{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := sendBy(c.validBefore, c.period); !got.Equal(c.want) {
				t.Errorf("sendBy(%d, %v) = %v, want %v", c.validBefore, c.period, got, c.want)
			}
		})
	}
}

// The block period is measured from the chain: 2 s on a chain that seals a
// block every 2 s, once it has blocks to measure.
func TestMeasurePace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{blockPeriod: 2 * time.Second})
	var head uint64
	waitUntil(t, "the chain has four blocks", func() bool {
		n, err := e.eth.BlockNumber(context.Background())
		head = n
		return err == nil && n >= 4
	})
	h, err := e.eth.HeaderByNumber(context.Background(), new(big.Int).SetUint64(head))
	if err != nil {
		t.Fatal(err)
	}
	// The shortest gap: 2 s, or 1 s on a loaded machine, where a seal
	// that came late is followed by one on time.
	got := e.svc.measurePace(context.Background(), h)
	if got != 2*time.Second && got != time.Second {
		t.Errorf("measured %v, want 2s (or 1s under load)", got)
	}
	// The chain's blocks are sealed at the wall clock's time, so the next
	// comes a period after the wall clock at the latest.
	start := time.Now()
	by, err := e.svc.mineBy(context.Background())
	end := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if allow := inclusionAllowance(got); by.Before(start.Add(allow)) || by.After(end.Add(allow)) {
		t.Errorf("mined by %v, want %v after the call (%v to %v)", by, allow, start, end)
	}
}

// A settlement is announced (and so may be served on broadcast) only if
// its authorization is still valid when its transaction is mined at the
// latest: on a chain of 5 s blocks (the measure is set), a payment valid
// for 10 s passes verification (6 s) but could be mined after it expired,
// so its settle waits for the receipt; one valid for 10 minutes is
// announced. Both settle.
func TestAnnounceOnlyWhatOutlivesInclusion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.svc.pace.mu.Lock()
	// Measured "in an hour": fresh for the whole test.
	e.svc.pace.period, e.svc.pace.measured = 5*time.Second, time.Now().Add(time.Hour)
	e.svc.pace.mu.Unlock()
	merchant := e.chain.Accounts[2].Address
	for _, c := range []struct {
		name      string
		seconds   int64
		announced bool
	}{
		{"valid for 10 s", 10, false},
		{"valid for 10 minutes", 600, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var announced []*x402.SettleResponse
			ctx := x402.WithBroadcast(context.Background(), func(r *x402.SettleResponse) { announced = append(announced, r) })
			res, _ := e.svc.Settle(ctx, e.payFor(e.chain.Accounts[1], merchant, 1000, c.seconds))
			if !res.Success {
				t.Fatalf("settled %+v", res)
			}
			if got := len(announced) == 1; got != c.announced || len(announced) > 1 {
				t.Errorf("announced %d times, want announced %v", len(announced), c.announced)
			}
		})
	}
}

// inBox reports whether payer is in the penalty box.
func (e *env) inBox(payer common.Address) bool {
	e.svc.payers.mu.Lock()
	defer e.svc.payers.mu.Unlock()
	return e.svc.payers.strikes[payer] != nil
}

// A settlement mined after its authorization expired reverted for that,
// not for anything its payer did: its payer is not put in the penalty
// box, alone or in a batch. One that reverts within its window (its payer
// holds nothing: it moved its tokens away) still is, and so is one whose
// authorization, when it was claimed, left less than a transaction needs
// to be mined (a payer who signs too short for the chain).
func TestExpiredWhenMinedIsNotBoxed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{batch: &Batching{}})
	merchant := common.Address{0x4b}
	token := contracts.NewDevUSD()
	sender := e.chain.Accounts[6].Key
	// settlement signs payer's authorization, valid until validBefore,
	// and returns its item and record.
	settlement := func(payer devnet.Account, validBefore int64) (contracts.BatchItem, *store.Record) {
		a := e.newAuth(payer, merchant, 1_000)
		a.validBefore = big.NewInt(validBefore)
		sig := sign(t, payer.Key, a)
		it := contracts.BatchItem{Token: e.chain.Token.Address, To: merchant, From: payer.Address, Value: a.value,
			ValidAfter: a.validAfter.Uint64(), ValidBefore: a.validBefore.Uint64(), Nonce: a.nonce, V: sig[64]}
		copy(it.R[:], sig[:32])
		copy(it.S[:], sig[32:64])
		return it, recordOf(e.svc.mustDecode(t, request(e.requirements(merchant, 1_000), a, sig)))
	}
	lone := func(it contracts.BatchItem) []byte {
		return token.PackTransferWithAuthorization0(it.From, it.To, it.Value, new(big.Int).SetUint64(it.ValidAfter),
			new(big.Int).SetUint64(it.ValidBefore), it.Nonce, it.V, it.R, it.S)
	}
	empty, _ := crypto.GenerateKey()
	now := time.Now().Unix()
	for _, c := range []struct {
		name  string
		payer devnet.Account
		valid int64 // validBefore - now
		// left is what the authorization left when it was claimed.
		left  time.Duration
		batch bool
		boxed bool
	}{
		{"alone, expired", e.chain.Accounts[1], -5, time.Minute, false, false},
		{"alone, nothing to pay with", devnet.Account{Key: empty, Address: crypto.PubkeyToAddress(empty.PublicKey)}, 600, time.Minute, false, true},
		{"in a batch, expired", e.chain.Accounts[2], -5, time.Minute, true, false},
		{"alone, expired, too short to be mined", e.chain.Accounts[4], -5, time.Second, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			it, rec := settlement(c.payer, now+c.valid)
			rec.Created = time.Unix(now+c.valid, 0).Add(-c.left)
			var tx *types.Transaction
			if c.batch {
				other, _ := settlement(e.chain.Accounts[3], now+600)
				tx = e.transfer(sender, e.chain.Contracts.Batch, nil, contracts.PackBatch([]contracts.BatchItem{other, it}), 1e9)
			} else {
				tx = e.transfer(sender, e.chain.Token.Address, nil, lone(it), 1e9)
			}
			receipt, err := e.chain.Wait(context.Background(), tx.Hash())
			if err != nil {
				t.Fatal(err)
			}
			res := e.svc.finish(context.Background(), rec, receipt, "")
			if res.Success || !strings.Contains(res.Message, "reverted on chain") {
				t.Errorf("answered %+v, want a revert", res)
			}
			if got := e.inBox(c.payer.Address); got != c.boxed {
				t.Errorf("in the penalty box: %v, want %v", got, c.boxed)
			}
		})
	}
}

package facilitator

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// transfers counts the token's Transfer logs from payer to payTo in the
// receipt of tx.
func (e *env) transfers(tx string, payer, payTo common.Address) int {
	e.t.Helper()
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(tx))
	if err != nil {
		e.t.Fatalf("receipt of %s: %v", tx, err)
	}
	token := contracts.NewDevUSD()
	n := 0
	for _, l := range receipt.Logs {
		if ev, err := token.UnpackTransferEvent(l); err == nil && l.Address == e.chain.Token.Address && ev.From == payer && ev.To == payTo {
			n++
		}
	}
	return n
}

func TestSettleAndDuplicate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	payer, merchant := e.chain.Accounts[1], e.chain.Accounts[2].Address
	before := e.balance(merchant)
	req := e.pay(payer, merchant, 25_000)

	var first x402.SettleResponse
	if resp := e.postAs(testSettleKey, "settle-1", "settle", req, &first); resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %+v", resp.StatusCode, first)
	}
	if !first.Success || first.TransactionHash == "" || first.Payer != payer.Address.Hex() ||
		first.Amount != "25000" || first.Asset != e.chain.Token.Address.Hex() || first.Network != e.network || first.Scheme != "exact" {
		t.Fatalf("settle = %+v", first)
	}
	if n := e.transfers(first.TransactionHash, payer.Address, merchant); n != 1 {
		t.Fatalf("%d transfers in the settlement, want 1", n)
	}
	if got, want := e.balance(merchant), new(big.Int).Add(before, big.NewInt(25_000)); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance = %s, want %s", got, want)
	}

	// The same settle retried (same Idempotency-Key) gets the original
	// receipt, field for field, and moves nothing; so does one through the
	// Go client with that key. Any other settle of the payment (another
	// key, or none) gets replay: one payment pays for one response.
	var again x402.SettleResponse
	if resp := e.postAs(testSettleKey, "settle-1", "settle", req, &again); resp.StatusCode != http.StatusOK {
		t.Fatalf("duplicate status %d", resp.StatusCode)
	}
	viaClient, err := e.client.Settle(x402.WithIdempotencyKey(context.Background(), "settle-1"), req)
	if err != nil {
		t.Fatal(err)
	}
	if again != first || *viaClient != first {
		t.Fatalf("duplicate = %+v / %+v, want %+v", again, *viaClient, first)
	}
	for _, key := range []string{"settle-2", ""} {
		var other x402.SettleResponse
		if resp := e.postAs(testSettleKey, key, "settle", req, &other); resp.StatusCode != http.StatusOK || other.Success ||
			other.ErrorCode != x402.ErrorVerifyFailed || !strings.HasPrefix(other.Message, "replay") {
			t.Fatalf("settle with idempotency key %q: %d %+v", key, resp.StatusCode, other)
		}
	}
	if got, want := e.balance(merchant), new(big.Int).Add(before, big.NewInt(25_000)); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance after duplicates = %s, want %s", got, want)
	}
	// Verifying it now says replay.
	v, err := e.client.Verify(context.Background(), req)
	if err != nil || v.IsValid || v.InvalidReason != x402.ReasonReplay {
		t.Fatalf("verify after settle = %+v, %v", v, err)
	}

	// A different payment under the same (from, nonce) is a replay.
	var a x402.ExactPayload
	json.Unmarshal(req.PaymentPayload.Payload, &a)
	a.Authorization.ValidBefore = "99999999999"
	forged := *req
	forged.PaymentPayload.Payload, _ = json.Marshal(a)
	var res x402.SettleResponse
	e.post("settle", &forged, &res)
	if res.Success || res.ErrorCode != x402.ErrorVerifyFailed || !strings.HasPrefix(res.Message, "replay") || res.TransactionHash != "" {
		t.Fatalf("same key, other payload: %+v", res)
	}

	// The same payment presented for other requirements (a higher price) is
	// a replay, not the original receipt: one payment pays for one thing.
	pricier := *req
	pricier.PaymentRequirements.Amount = "25001"
	pricier.PaymentPayload.Accepted.Amount = "25001"
	var other x402.SettleResponse
	e.post("settle", &pricier, &other)
	if other.Success || other.ErrorCode != x402.ErrorVerifyFailed || !strings.HasPrefix(other.Message, "replay") {
		t.Fatalf("same payment, other requirements: %+v", other)
	}

	// A failing settle is 200 with success false and both error namings.
	bad := e.pay(payer, merchant, 25_000)
	bad.PaymentPayload.Accepted.Amount = "1"
	var raw map[string]any
	if resp := e.post("settle", bad, &raw); resp.StatusCode != http.StatusOK {
		t.Fatalf("verify_failed status %d", resp.StatusCode)
	}
	if raw["success"] != false || raw["errorCode"] != "verify_failed" || raw["errorReason"] != "verify_failed" || raw["transaction"] != "" || raw["network"] != e.network {
		t.Fatalf("failure body = %v", raw)
	}
}

func TestSettleConcurrentDuplicates(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	payer, merchant := e.chain.Accounts[1], e.chain.Accounts[3].Address
	before := e.balance(merchant)
	req := e.pay(payer, merchant, 7_000)

	const n = 50
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		hashes    = map[string]int{}
		inFlight  int
		successes int
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res x402.SettleResponse
			resp := e.post("settle", req, &res)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case res.Success && resp.StatusCode == http.StatusOK:
				successes++
				hashes[res.TransactionHash]++
			case res.ErrorCode == x402.ErrorInFlight && resp.StatusCode == http.StatusConflict && resp.Header.Get("Retry-After") != "":
				inFlight++
			default:
				t.Errorf("unexpected answer %d %+v", resp.StatusCode, res)
			}
		}()
	}
	wg.Wait()
	if len(hashes) != 1 || successes+inFlight != n || successes == 0 {
		t.Fatalf("%d successes with transactions %v, %d in_flight", successes, hashes, inFlight)
	}
	t.Logf("%d concurrent duplicates: %d got the receipt, %d got in_flight", n, successes, inFlight)
	for tx := range hashes {
		if c := e.transfers(tx, payer.Address, merchant); c != 1 {
			t.Fatalf("%d transfers", c)
		}
	}
	if got, want := e.balance(merchant), new(big.Int).Add(before, big.NewInt(7_000)); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance = %s, want %s: exactly one transfer", got, want)
	}
}

// Many distinct payments settle concurrently from one settler key.
func TestSettleConcurrentDistinct(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[4].Address
	before := e.balance(merchant)
	nonceBefore, _ := e.eth.NonceAt(context.Background(), e.svc.Settler(), nil)
	const n = 40
	var wg sync.WaitGroup
	results := make([]x402.SettleResponse, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			payer := e.chain.Accounts[1+i%3] // never the merchant itself
			res, err := e.client.Settle(context.Background(), e.pay(payer, merchant, 1_000))
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = *res
		}(i)
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, r := range results {
		if !r.Success || seen[r.TransactionHash] {
			t.Fatalf("payment %d: %+v", i, r)
		}
		seen[r.TransactionHash] = true
	}
	if got, want := e.balance(merchant), new(big.Int).Add(before, big.NewInt(n*1_000)); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance = %s, want %s", got, want)
	}
	nonceAfter, _ := e.eth.NonceAt(context.Background(), e.svc.Settler(), nil)
	if nonceAfter-nonceBefore != n {
		t.Fatalf("settler sent %d transactions for %d payments", nonceAfter-nonceBefore, n)
	}
}

// With the chain's RPC down, settle and verify answer 503 with Retry-After,
// never a failure that would make the payer pay again.
func TestChainUnreachable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	req := e.pay(e.chain.Accounts[1], e.chain.Accounts[2].Address, 1_000)
	if err := e.chain.Close(); err != nil {
		t.Fatal(err)
	}
	var s x402.SettleResponse
	resp := e.post("settle", req, &s)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || s.ErrorCode != x402.ErrorBundlerUnreachable {
		t.Fatalf("settle: %d %+v", resp.StatusCode, s)
	}
	var v x402.VerifyResponse
	resp = e.post("verify", req, &v)
	if resp.StatusCode != http.StatusServiceUnavailable || v.IsValid || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("verify: %d %+v", resp.StatusCode, v)
	}
	hresp, err := http.Get(e.srv.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	var h x402.Health
	json.NewDecoder(hresp.Body).Decode(&h)
	hresp.Body.Close()
	if hresp.StatusCode != http.StatusServiceUnavailable || h.Status == "ok" {
		t.Fatalf("health: %d %+v", hresp.StatusCode, h)
	}
	// Nothing was claimed: the store holds no record, so the payment can be
	// settled once the chain is back.
	p, _ := e.svc.decode(req)
	if rec, err := e.svc.store.Get(p.key); err != nil || rec != nil {
		t.Fatalf("record after an unreachable chain: %+v, %v", rec, err)
	}
}

// A settlement whose receipt is not seen in time answers receipt_timeout and
// stays pending; a new service on the same store, after a restart, settles
// it with the same transaction rather than a second one.
func TestSettleSurvivesRestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{blockPeriod: 2 * time.Second, receiptTimeout: 50 * time.Millisecond})
	payer, merchant := e.chain.Accounts[1], e.chain.Accounts[5].Address
	var before *big.Int
	req, first, resp := e.settlePending(func(int) *x402.VerifyRequest {
		before = e.balance(merchant)
		return e.pay(payer, merchant, 3_000)
	})
	if resp.StatusCode != http.StatusServiceUnavailable || first.ErrorCode != x402.ErrorReceiptTimeout || first.TransactionHash == "" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("first settle: %d %+v", resp.StatusCode, first)
	}
	// Verifying it again, as a merchant's retry does, says valid: its
	// settlement is pending, and Settle will resume it.
	if v, err := e.client.Verify(context.Background(), req); err != nil || !v.IsValid {
		t.Fatalf("verify of a pending payment: %+v %v", v, err)
	}
	// Stop before the receipt, and start again on the same store.
	e.stop()
	e.cfg.ReceiptTimeout = 20 * time.Second
	e.start()

	var second x402.SettleResponse
	if resp := e.post("settle", req, &second); resp.StatusCode != http.StatusOK || !second.Success {
		t.Fatalf("second settle: %d %+v", resp.StatusCode, second)
	}
	if second.TransactionHash != first.TransactionHash {
		t.Fatalf("settled with %s, not the pending %s", second.TransactionHash, first.TransactionHash)
	}
	if got, want := e.balance(merchant), new(big.Int).Add(before, big.NewInt(3_000)); got.Cmp(want) != 0 {
		t.Fatalf("merchant balance = %s, want %s", got, want)
	}
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(second.TransactionHash))
	if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipt: %+v %v", receipt, err)
	}
}

// A record left submitted by a stopped process is finished at start-up if
// its transaction was mined meanwhile.
func TestReconcileAtStartup(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{blockPeriod: time.Second, receiptTimeout: 10 * time.Millisecond})
	req, first, _ := e.settlePending(func(attempt int) *x402.VerifyRequest {
		return e.pay(e.chain.Accounts[2], e.chain.Accounts[6].Address, int64(2_000+attempt))
	})
	e.stop()
	// Let the block come while no service runs.
	if _, err := waitReceipt(e, first.TransactionHash); err != nil {
		t.Fatal(err)
	}
	e.start()
	p, _ := e.svc.decode(req)
	rec, err := e.svc.store.Get(p.key)
	if err != nil || rec == nil || rec.State != "settled" || rec.Response.TransactionHash != first.TransactionHash {
		t.Fatalf("record after start-up: %+v, %v", rec, err)
	}
}

func waitReceipt(e *env, tx string) (*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		r, err := e.eth.TransactionReceipt(ctx, common.HexToHash(tx))
		if err == nil {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// A payment settled by another transaction than its record's (another
// replica's, after its claim was taken over) is found by its
// authorization's AuthorizationUsed log, and only a transaction that paid
// the record's merchant counts.
func TestMinedElsewhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[2].Address
	req := e.pay(e.chain.Accounts[1], merchant, 1_000)
	var res x402.SettleResponse
	if e.post("settle", req, &res); !res.Success {
		t.Fatalf("settle: %+v", res)
	}
	p, err := e.svc.decode(req)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := e.st.Get(p.key)
	if err != nil || rec == nil {
		t.Fatalf("record: %+v %v", rec, err)
	}
	other := *rec
	other.TxHash = common.Hash{0x01} // the record holds a transaction that was not mined
	got := e.svc.minedElsewhere(context.Background(), p, &other)
	if got == nil || got.TxHash.Hex() != res.TransactionHash {
		t.Fatalf("minedElsewhere = %v, want the receipt of %s", got, res.TransactionHash)
	}
	if again := e.svc.minedElsewhere(context.Background(), p, rec); again != nil {
		t.Fatalf("the record's own transaction counted as another: %s", again.TxHash)
	}
	wrong := other
	wrong.PayTo = e.chain.Accounts[3].Address
	if got := e.svc.minedElsewhere(context.Background(), p, &wrong); got != nil {
		t.Fatal("a transaction that paid another merchant counted")
	}
}

// A settle that was handed a receipt, in a process that then died before
// its response was written, leaves the payment to the payer's retry (with
// another idempotency key): the retry is served. Once a response was
// written (Served), a retry gets replay, even after a restart. Over HTTP
// the receipt's departure is the response (TestSettleAndDuplicate).
func TestReceiptOfADeadProcess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[2].Address
	for _, served := range []bool{false, true} {
		req := e.pay(e.chain.Accounts[1], merchant, 1_000)
		decoded := req
		// In process, as the embedded facilitator's paywall settles: the
		// response is written (Served) only after the settle returns.
		ctx := x402.WithIdempotencyKey(context.Background(), fmt.Sprint("first-", served))
		res, err := e.svc.Settle(ctx, decoded)
		if err != nil || !res.Success {
			t.Fatalf("settle: %+v %v", res, err)
		}
		if served {
			if err := e.svc.Served(ctx, decoded); err != nil {
				t.Fatal(err)
			}
		}
		e.stop() // the process dies
		e.start()
		var retry x402.SettleResponse
		e.postAs(testSettleKey, fmt.Sprint("retry-", served), "settle", req, &retry)
		switch {
		case !served && (!retry.Success || retry.TransactionHash != res.TransactionHash):
			t.Fatalf("the retry after its consumer died unserved: %+v", retry)
		case served && (retry.Success || !strings.Contains(retry.Message, "replay")):
			t.Fatalf("a retry after the response was written: %+v", retry)
		}
	}
}

package facilitator

import (
	"bytes"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// loseOneBroadcast is a JSON-RPC proxy in front of url that answers 502 to
// the first request carrying eth_sendRawTransaction, without forwarding
// it: an RPC gateway that lost one batch.
func loseOneBroadcast(t *testing.T, url string) (proxy string, lost *atomic.Bool) {
	lost = new(atomic.Bool)
	return rpcProxy(t, url, func(w http.ResponseWriter, body []byte) bool {
		if bytes.Contains(body, []byte("eth_sendRawTransaction")) && lost.CompareAndSwap(false, true) {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return true
		}
		return false
	}), lost
}

// rpcProxy is a JSON-RPC proxy in front of url for the tests that fake a
// node's fault: answer gets every request body first and answers it itself
// (returning true), or lets it through to url unchanged.
func rpcProxy(t *testing.T, url string, answer func(w http.ResponseWriter, body []byte) bool) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if answer(w, body) {
			return
		}
		resp, err := http.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// One lost broadcast used to leave a nonce gap that stalled every later
// settlement of every payer until the lost payment's own retry or a
// restart. Now later payers settle within seconds, and the lost payment's
// retry finds its transaction mined.
func TestLostBroadcastStallsNobody(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{receiptTimeout: 10 * time.Second})
	proxy, lost := loseOneBroadcast(t, e.chain.URL)
	e.stop()
	e.rpcURL = proxy
	e.start()
	merchant := e.chain.Accounts[2].Address

	first := e.pay(e.chain.Accounts[1], merchant, 1_000)
	var res x402.SettleResponse
	e.postAs(testSettleKey, "lost-1", "settle", first, &res)
	if !lost.Load() {
		t.Fatal("the proxy lost nothing")
	}
	began := time.Now()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r x402.SettleResponse
			e.post("settle", e.pay(e.chain.Accounts[3+i%3], merchant, int64(2_000+i)), &r)
			if !r.Success {
				t.Errorf("a later payer: %+v", r)
			}
		}()
	}
	wg.Wait()
	t.Logf("the first settle answered %s; 8 later settles took %v", res.ErrorCode, time.Since(began).Round(time.Millisecond))
	if took := time.Since(began); took > 8*time.Second {
		t.Fatalf("later payers took %v behind the lost broadcast", took)
	}
	if !res.Success {
		// The first settle did not see its receipt; its retry does.
		e.postAs(testSettleKey, "lost-1", "settle", first, &res)
		if !res.Success {
			t.Fatalf("the lost payment's retry: %+v", res)
		}
	}
}

// A replacement of a settlement's transaction (higher fees, same nonce) is
// recorded in the settlement before it is broadcast, so a restart
// rebroadcasts and waits for the transaction that will be mined; a record
// that has moved on is left alone.
func TestReplacementIsRecorded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	key, _ := crypto.GenerateKey()
	sign := func(tip int64) *types.Transaction {
		tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
			ChainID: e.chain.ChainID, Nonce: 7, To: &common.Address{1}, Gas: 21_000, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(tip * 10)})
		return tx
	}
	old, repl := sign(1e9), sign(2e9)
	rawOld, _ := old.MarshalBinary()
	pending := store.Record{Key: common.Hash{1}, State: store.StateSubmitted, TxHash: old.Hash(), RawTx: rawOld, Amount: big.NewInt(1)}
	final := store.Record{Key: common.Hash{2}, State: store.StateSubmitted, TxHash: old.Hash(), RawTx: rawOld, Amount: big.NewInt(1)}
	for _, r := range []store.Record{pending, final} {
		claim := r
		claim.State = store.StateClaimed
		if _, ok, err := e.svc.store.Claim(claim); err != nil || !ok {
			t.Fatal(err)
		}
		if err := e.svc.store.Submit(&r); err != nil {
			t.Fatal(err)
		}
		e.svc.carries(old.Hash(), r.Key)
	}
	final.State, final.Response = store.StateSettled, &x402.SettleResponse{X402Version: 2, Success: true}
	if err := e.svc.store.Finish(&final); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.replaced(old, repl); err != nil {
		t.Fatal(err)
	}
	got, _ := e.svc.store.Get(pending.Key)
	var tx types.Transaction
	if got.TxHash != repl.Hash() || tx.UnmarshalBinary(got.RawTx) != nil || tx.Hash() != repl.Hash() {
		t.Fatalf("the pending record holds %s, want the replacement %s", got.TxHash, repl.Hash())
	}
	if got, _ := e.svc.store.Get(final.Key); got.TxHash != old.Hash() {
		t.Fatalf("the final record was changed to %s", got.TxHash)
	}
}

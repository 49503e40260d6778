package facilitator

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// indexingReceipts is a JSON-RPC proxy in front of url that answers the
// first times single eth_getTransactionReceipt requests (not batches: the
// sender's watcher reads receipts in batches) with go-ethereum's
// "transaction indexing is in progress" error, exactly as the node sends
// it, instead of forwarding them: a node whose indexer is behind.
func indexingReceipts(t *testing.T, url string, times int64) (proxy string, answered *atomic.Int64) {
	answered = new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if !bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) && json.Unmarshal(body, &req) == nil &&
			req.Method == "eth_getTransactionReceipt" && answered.Add(1) <= times {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{
				"code": -32000, "message": "transaction indexing is in progress", "data": "transaction indexing is in progress",
			}})
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
	return srv.URL, answered
}

// With Confirmations, the settle reads the receipt again once its block is
// deep enough; a node that answers "transaction indexing is in progress"
// then cannot tell yet, and the settle looks again instead of failing
// (it failed before: the answer was returned as an error).
func TestConfirmThroughIndexing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{receiptTimeout: time.Minute})
	const times = 3
	proxy, answered := indexingReceipts(t, e.chain.URL, times)
	e.stop()
	e.rpcURL = proxy
	e.cfg.Confirmations = 1
	e.start()
	merchant := e.chain.Accounts[9].Address
	before := e.balance(merchant)
	settler := e.svc.Settler()
	nonce, err := e.eth.NonceAt(context.Background(), settler, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var res *struct {
		ok bool
		tx string
	}
	go func() {
		r, err := e.svc.Settle(context.Background(), e.pay(e.chain.Accounts[2], merchant, 700))
		if err == nil {
			res = &struct {
				ok bool
				tx string
			}{r.Success, r.TransactionHash}
			if !r.Success {
				t.Errorf("settle: %+v", r)
			}
		}
		done <- err
	}()
	waitUntil(t, "the settlement is mined", func() bool {
		n, _ := e.eth.NonceAt(context.Background(), settler, nil)
		return n > nonce
	})
	// Blocks on top until the settle answers: its confirmation reads meet
	// the indexing answers first.
	for settled := false; !settled; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			settled = true
		default:
			e.mineBlock()
		}
	}
	if res == nil || !res.ok {
		t.Fatalf("settle failed: %+v", res)
	}
	if n := answered.Load(); n < times {
		t.Fatalf("the proxy answered %d receipt lookups, want at least %d with the indexing error", n, times)
	}
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.tx))
	if err != nil || receipt.Status != 1 {
		t.Fatalf("the reported transaction: %v, %v", receipt, err)
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 700 {
		t.Fatalf("the merchant got %s, want 700 once", got)
	}
}

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

	"github.com/caddy-x402/caddy-x402/x402"
)

// indexingReceipts is a JSON-RPC proxy in front of url that answers the
// first times single eth_getTransactionReceipt requests (not batches: the
// sender's watcher reads receipts in batches) with go-ethereum's
// "transaction indexing is in progress" error, exactly as the node sends
// it, instead of forwarding them: a node whose indexer is behind.
func indexingReceipts(t *testing.T, url string, times int64) (proxy string, answered *atomic.Int64) {
	answered = new(atomic.Int64)
	return rpcProxy(t, url, func(w http.ResponseWriter, body []byte) bool {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) || json.Unmarshal(body, &req) != nil ||
			req.Method != "eth_getTransactionReceipt" || answered.Add(1) > times {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(indexingRefusal(req.ID))
		return true
	}), answered
}

// indexingRefusal is go-ethereum's answer to a lookup while its
// transaction indexer is behind, exactly as the node sends it.
func indexingRefusal(id json.RawMessage) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{
		"code": -32000, "message": "transaction indexing is in progress", "data": "transaction indexing is in progress",
	}}
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

// indexingSwitch is a JSON-RPC proxy in front of url that, while indexing
// is set, answers every eth_getTransactionReceipt and
// eth_getTransactionByHash, single or in a batch, with go-ethereum's
// "transaction indexing is in progress" error, and forwards the rest: a
// node whose indexer has not caught up after a restart.
func indexingSwitch(t *testing.T, url string) (proxy string, indexing *atomic.Bool) {
	indexing = new(atomic.Bool)
	type call struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	lookup := func(m string) bool { return m == "eth_getTransactionReceipt" || m == "eth_getTransactionByHash" }
	forward := func(body []byte) (json.RawMessage, error) {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		var batch []json.RawMessage
		if json.Unmarshal(body, &batch) == nil {
			out := make([]any, len(batch))
			for i, raw := range batch {
				var c call
				json.Unmarshal(raw, &c)
				if indexing.Load() && lookup(c.Method) {
					out[i] = indexingRefusal(c.ID)
					continue
				}
				res, err := forward(raw)
				if err != nil {
					http.Error(w, err.Error(), http.StatusBadGateway)
					return
				}
				out[i] = res
			}
			json.NewEncoder(w).Encode(out)
			return
		}
		var c call
		if json.Unmarshal(body, &c) == nil && indexing.Load() && lookup(c.Method) {
			json.NewEncoder(w).Encode(indexingRefusal(c.ID))
			return
		}
		res, err := forward(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Write(res)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, indexing
}

// A settlement mined while its process was down, retried while the node
// still indexes: its transaction took its nonce, so rebroadcasting it
// answers "nonce too low", and the receipt lookup cannot tell yet. The
// retry must wait (503 receipt_timeout), never conclude "never mined" and
// fail, or sign again, a payment that is settled; once the node can tell,
// the retry gets the original receipt, and the merchant was paid once.
func TestResumeThroughIndexing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{blockPeriod: time.Second, receiptTimeout: 10 * time.Millisecond})
	payer, merchant := e.chain.Accounts[3], e.chain.Accounts[7].Address
	var before *big.Int
	req, first, _ := e.settlePending(func(int) *x402.VerifyRequest {
		before = e.balance(merchant)
		return e.pay(payer, merchant, 2_500)
	})
	if first.ErrorCode != x402.ErrorReceiptTimeout || first.TransactionHash == "" {
		t.Fatalf("first settle: %+v", first)
	}
	e.stop()
	if _, err := waitReceipt(e, first.TransactionHash); err != nil {
		t.Fatal(err)
	}
	proxy, indexing := indexingSwitch(t, e.chain.URL)
	indexing.Store(true)
	e.rpcURL = proxy
	e.cfg.ReceiptTimeout = 2 * time.Second
	e.start()

	var second x402.SettleResponse
	if resp := e.post("settle", req, &second); resp.StatusCode != http.StatusServiceUnavailable || second.ErrorCode != x402.ErrorReceiptTimeout {
		t.Fatalf("a retry while the node indexes: %d %+v, want 503 receipt_timeout", resp.StatusCode, second)
	}
	indexing.Store(false)
	var third x402.SettleResponse
	if resp := e.post("settle", req, &third); resp.StatusCode != http.StatusOK || !third.Success || third.TransactionHash != first.TransactionHash {
		t.Fatalf("the retry once the node can tell: %d %+v, want the original %s", resp.StatusCode, third, first.TransactionHash)
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 2_500 {
		t.Fatalf("the merchant got %s, want 2500 once", got)
	}
}

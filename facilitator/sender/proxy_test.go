package sender

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// faultProxy is a JSON-RPC gateway in front of a node that injects the
// faults of a flaky one into eth_sendRawTransaction traffic, and a busy
// one's answers into transaction lookups; everything else passes through.
type faultProxy struct {
	URL    string
	target string
	client *http.Client

	mu       sync.Mutex
	lose     int    // batches with eth_sendRawTransaction to pass before losing one; -1: none
	loseMode string // "502": answer 502 Bad Gateway; "ok": answer success
	lost     int    // batches lost
	refuse   map[common.Hash]*refusal
	refused  int // elements refused
	// indexing holds, per transaction, how many more lookups of it
	// (eth_getTransactionReceipt, eth_getTransactionByHash) to answer
	// as go-ethereum does while its transaction indexer is behind.
	indexing map[common.Hash]int
	indexed  int // lookups answered so
}

// refusal is an error the proxy answers to a transaction, times more times
// (forever if negative).
type refusal struct {
	message string
	times   int
}

type rpcMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcErr         `json:"error,omitempty"`
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func newFaultProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	tr := &http.Transport{}
	p := &faultProxy{target: target, client: &http.Client{Transport: tr}, lose: -1, refuse: make(map[common.Hash]*refusal), indexing: make(map[common.Hash]int)}
	srv := httptest.NewServer(p)
	t.Cleanup(func() {
		srv.Close()
		tr.CloseIdleConnections()
	})
	p.URL = srv.URL
	return p
}

// loseBatch makes the proxy lose the batch with eth_sendRawTransaction
// after skip more have passed: "502" answers 502 Bad Gateway, "ok" answers
// every element with its hash, as a node that took and then dropped the
// transactions would. Neither forwards it.
func (p *faultProxy) loseBatch(skip int, mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lose, p.loseMode = skip, mode
}

// refuseTx makes the proxy answer the next broadcasts of the transaction,
// times of them (every one if times is negative), with this JSON-RPC error,
// as a node would, instead of forwarding them.
func (p *faultProxy) refuseTx(hash common.Hash, message string, times int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refuse[hash] = &refusal{message: message, times: times}
}

// indexingFor makes the proxy answer the next times lookups of the
// transaction's receipt or body with go-ethereum's "transaction indexing
// is in progress" error, as the node sends it (code -32000, the message
// also as data), instead of forwarding them.
func (p *faultProxy) indexingFor(hash common.Hash, times int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.indexing[hash] = times
}

// indexedCount returns how many lookups the proxy answered with the
// indexing error.
func (p *faultProxy) indexedCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.indexed
}

// lookedUp returns the transaction hash a receipt or transaction lookup
// asks for, if m is one.
func lookedUp(m rpcMsg) (common.Hash, bool) {
	if m.Method != "eth_getTransactionReceipt" && m.Method != "eth_getTransactionByHash" {
		return common.Hash{}, false
	}
	var args []common.Hash
	if json.Unmarshal(m.Params, &args) != nil || len(args) != 1 {
		return common.Hash{}, false
	}
	return args[0], true
}

func (p *faultProxy) counts() (lost, refused int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lost, p.refused
}

func rawTx(params json.RawMessage) *types.Transaction {
	var args []hexutil.Bytes
	if json.Unmarshal(params, &args) != nil || len(args) != 1 {
		return nil
	}
	tx := new(types.Transaction)
	if tx.UnmarshalBinary(args[0]) != nil {
		return nil
	}
	return tx
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	isBatch := bytes.HasPrefix(bytes.TrimSpace(body), []byte("["))
	var msgs []rpcMsg
	if isBatch {
		err = json.Unmarshal(body, &msgs)
	} else {
		msgs = make([]rpcMsg, 1)
		err = json.Unmarshal(body, &msgs[0])
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	sends := false
	for _, m := range msgs {
		sends = sends || m.Method == "eth_sendRawTransaction"
	}
	answers := make([]*rpcMsg, len(msgs))
	var forward []rpcMsg
	p.mu.Lock()
	if sends && isBatch && p.lose >= 0 {
		if p.lose == 0 {
			p.lose = -1
			p.lost++
			mode := p.loseMode
			p.mu.Unlock()
			if mode == "502" {
				http.Error(w, "upstream connect error", http.StatusBadGateway)
				return
			}
			out := make([]rpcMsg, len(msgs))
			for i, m := range msgs {
				res, _ := json.Marshal(rawTx(m.Params).Hash())
				out[i] = rpcMsg{JSONRPC: "2.0", ID: m.ID, Result: res}
			}
			writeJSON(w, out)
			return
		}
		p.lose--
	}
	for i, m := range msgs {
		if h, ok := lookedUp(m); ok && p.indexing[h] > 0 {
			p.indexing[h]--
			p.indexed++
			answers[i] = &rpcMsg{JSONRPC: "2.0", ID: m.ID, Error: &rpcErr{Code: -32000, Message: "transaction indexing is in progress", Data: "transaction indexing is in progress"}}
			continue
		}
		if m.Method == "eth_sendRawTransaction" {
			if tx := rawTx(m.Params); tx != nil {
				if r, ok := p.refuse[tx.Hash()]; ok && r.times != 0 {
					r.times--
					answers[i] = &rpcMsg{JSONRPC: "2.0", ID: m.ID, Error: &rpcErr{Code: -32000, Message: r.message}}
					p.refused++
					continue
				}
			}
		}
		forward = append(forward, m)
	}
	p.mu.Unlock()
	if len(forward) > 0 {
		fwd, _ := json.Marshal(forward)
		resp, err := p.client.Post(p.target, "application/json", bytes.NewReader(fwd))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var got []rpcMsg
		if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		byID := make(map[string]*rpcMsg, len(got))
		for i := range got {
			byID[string(got[i].ID)] = &got[i]
		}
		for i, m := range msgs {
			if answers[i] == nil {
				answers[i] = byID[string(m.ID)]
			}
		}
	}
	if !isBatch {
		writeJSON(w, answers[0])
		return
	}
	writeJSON(w, answers)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

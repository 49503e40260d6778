package txapi

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
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

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"go.uber.org/zap/zaptest"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/store"
)

type env struct {
	t     *testing.T
	chain *devnet.Devnet
	eth   *ethclient.Client
	path  string
	st    *store.Store
	snd   *sender.Sender
	svc   *Service
	srv   *httptest.Server
	// wallet is the service wallet; default the devnet's account 9.
	wallet *ecdsa.PrivateKey
	// key is sent in X-API-Key; default testKey.
	key string
	// mutate adjusts the config before each start.
	mutate func(*Config)
}

// Keys the tests' Authorize knows.
const (
	testKey     = "txapi-test-key"
	otherKey    = "txapi-other-key"
	readOnlyKey = "paymaster-read-only-key"
)

func testAuthorize(secret string) (string, error) {
	switch secret {
	case testKey:
		return "k1", nil
	case otherKey:
		return "k2", nil
	case readOnlyKey:
		return "", ErrForbidden
	}
	return "", errors.New("unknown key")
}

func newEnv(t *testing.T) *env {
	t.Helper()
	d, err := devnet.Start(context.Background(), devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	e := &env{t: t, chain: d, eth: eth, path: filepath.Join(t.TempDir(), "x402.db"), key: testKey, wallet: d.Accounts[9].Key}
	e.start()
	return e
}

// newSender returns a Sender of key on the devnet d, closed when the test
// ends: in memory, or in fleet mode on journal if it is not nil.
func newSender(t *testing.T, d *devnet.Devnet, eth *ethclient.Client, key *ecdsa.PrivateKey, journal store.Journal) *sender.Sender {
	t.Helper()
	snd, err := sender.New(sender.Config{Backend: eth, Batcher: eth.Client(), Key: key, ChainID: d.ChainID, Journal: journal, Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { snd.Close() })
	return snd
}

// start (re)opens the store, the wallet's Sender and the service.
func (e *env) start() {
	e.t.Helper()
	if e.srv != nil {
		e.srv.Close()
		e.snd.Close()
		e.st.Close()
	}
	st, err := store.Open(store.Config{Path: e.path})
	if err != nil {
		e.t.Fatal(err)
	}
	e.snd = newSender(e.t, e.chain, e.eth, e.wallet, nil)
	cfg := Config{Chain: e.eth, Sender: e.snd, Store: st,
		Token: e.chain.Token.Address, TokenDecimals: 6, Authorize: testAuthorize, FaucetPerClient: 1000, KeyRate: 1000,
		ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }}
	if e.mutate != nil {
		e.mutate(&cfg)
	}
	svc, err := New(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.st, e.svc, e.srv = st, svc, httptest.NewServer(svc)
	e.t.Cleanup(func() { e.srv.Close(); e.st.Close() })
}

type answer struct {
	status int
	header http.Header
	rec    Record
	err    struct {
		Code        string `json:"code"`
		Message     string `json:"message"`
		NextAllowed string `json:"nextAllowedAt"`
	}
}

func (e *env) post(path, body string) answer {
	e.t.Helper()
	return e.postFrom("", path, body)
}

// postFrom is post from a client address.
func (e *env) postFrom(client, path, body string) answer {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/api/v1/"+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if e.key != "" {
		req.Header.Set("X-API-Key", e.key)
	}
	req.Header.Set("X-Test-Client", client)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.read(resp)
}

func (e *env) read(resp *http.Response) answer {
	e.t.Helper()
	a, err := readAnswer(resp)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// readAnswer decodes and closes resp.
func readAnswer(resp *http.Response) (answer, error) {
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("Content-Type") != "application/json" || !json.Valid(raw) {
		return answer{}, fmt.Errorf("%d answer is not JSON: %s", resp.StatusCode, raw)
	}
	a := answer{status: resp.StatusCode, header: resp.Header}
	if resp.StatusCode < 300 {
		json.Unmarshal(raw, &a.rec)
	} else {
		var w struct {
			Error json.RawMessage `json:"error"`
		}
		json.Unmarshal(raw, &w)
		json.Unmarshal(w.Error, &a.err)
	}
	return a, nil
}

// waitConfirmed polls GET /transactions/{id} until the receipt is in.
func (e *env) waitConfirmed(id string) Record {
	e.t.Helper()
	for i := 0; i < 100; i++ {
		resp, err := http.Get(e.srv.URL + "/api/v1/transactions/" + id)
		if err != nil {
			e.t.Fatal(err)
		}
		a := e.read(resp)
		if a.status != 200 {
			e.t.Fatalf("lookup: %d %+v", a.status, a.err)
		}
		if a.rec.Status != "pending" {
			return a.rec
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatal("not confirmed")
	return Record{}
}

func TestTransactions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	to := common.HexToAddress("0x1111111111111111111111111111111111111111")
	before, _ := e.eth.BalanceAt(context.Background(), to, nil)

	a := e.post("transactions", `{"name":"tip","data":{"to":"`+to.Hex()+`","value":"0.1"}}`)
	if a.status != 201 || a.rec.ID == "" || a.rec.Value != "0.1" || a.rec.From != e.chain.Accounts[9].Address.Hex() || a.rec.Status != "pending" || a.rec.TxHash == "" {
		t.Fatalf("0.1: %d %+v %+v", a.status, a.rec, a.err)
	}
	rec := e.waitConfirmed(a.rec.ID)
	if rec.Status != "confirmed" || rec.BlockNumber == 0 {
		t.Fatalf("record %+v", rec)
	}
	after, _ := e.eth.BalanceAt(context.Background(), to, nil)
	if got := new(big.Int).Sub(after, before); got.Cmp(big.NewInt(1e17)) != 0 {
		t.Fatalf("recipient got %s wei, want 1e17", got)
	}

	tests := []struct {
		name, body, code string
		status           int
	}{
		{"over the limit", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"0.1000001"}}`, "value_too_large", 400},
		{"number over the limit", `{"name":"x","data":{"to":"` + to.Hex() + `","value":0.2}}`, "value_too_large", 400},
		{"negative", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"-0.01"}}`, "invalid_value", 400},
		{"zero", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"0"}}`, "invalid_value", 400},
		{"malformed value", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"1e-2"}}`, "invalid_value", 400},
		{"too many decimals", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"0.0000000000000000001"}}`, "invalid_value", 400},
		{"bad checksum", `{"name":"x","data":{"to":"0x70997970c51812dc3A010C7d01b50e0d17dc79C8","value":"0.01"}}`, "invalid_checksum", 400},
		{"not an address", `{"name":"x","data":{"to":"0x123","value":"0.01"}}`, "invalid_address", 400},
		{"no name", `{"data":{"to":"` + to.Hex() + `","value":"0.01"}}`, "invalid_name", 400},
		{"unknown field", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"0.01"},"gas":1}`, "invalid_json", 400},
		{"malformed JSON", `{"name":"x",`, "invalid_json", 400},
		{"trailing data", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"0.01"}} {}`, "invalid_json", 400},
		{"bad calldata", `{"name":"x","data":{"to":"` + to.Hex() + `","value":"0.01","data":"zz"}}`, "invalid_data", 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := e.post("transactions", tc.body)
			if a.status != tc.status || a.err.Code != tc.code || a.err.Message == "" {
				t.Fatalf("%d %+v, want %d %s", a.status, a.err, tc.status, tc.code)
			}
		})
	}
	// Lower-case addresses (no checksum) are accepted.
	if a := e.post("transactions", `{"name":"x","data":{"to":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","value":0.01}}`); a.status != 201 {
		t.Fatalf("lower-case address: %d %+v", a.status, a.err)
	}
}

func TestMessages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	to := e.chain.Accounts[3].Address.Hex()
	a := e.post("sendMessage", `{"name":"hello","data":{"to":"`+to+`","message":"gm ☀️"}}`)
	if a.status != 201 || a.rec.Message != "gm ☀️" || a.rec.Value != "0" {
		t.Fatalf("%d %+v %+v", a.status, a.rec, a.err)
	}
	e.waitConfirmed(a.rec.ID)
	tx, _, err := e.eth.TransactionByHash(context.Background(), common.HexToHash(a.rec.TxHash))
	if err != nil || string(tx.Data()) != "gm ☀️" || tx.Value().Sign() != 0 {
		t.Fatalf("on chain: %v %q", err, tx.Data())
	}
	if a := e.post("sendMessage", `{"name":"big","data":{"to":"`+to+`","message":"`+strings.Repeat("x", 1025)+`"}}`); a.status != 400 || a.err.Code != "message_too_large" {
		t.Fatalf("over the limit: %d %+v", a.status, a.err)
	}
	if a := e.post("sendMessage", `{"name":"edge","data":{"to":"`+to+`","message":"`+strings.Repeat("x", 1024)+`"}}`); a.status != 201 {
		t.Fatalf("at the limit: %d %+v", a.status, a.err)
	}
}

func TestFaucet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key, _ := crypto.GenerateKey()
	to := crypto.PubkeyToAddress(key.PublicKey)
	body := `{"name":"dev","address":"` + to.Hex() + `","amount":"25.5","gasPrice":"1.5"}`
	a := e.post("userFaucet", body)
	if a.status != 201 || a.rec.Amount != "25.5" || a.rec.NativeTxHash == "" {
		t.Fatalf("first: %d %+v %+v", a.status, a.rec, a.err)
	}
	e.waitConfirmed(a.rec.ID)
	tok := contracts.NewDevUSD()
	out, _ := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &e.chain.Token.Address, Data: tok.PackBalanceOf(to)}, nil)
	if bal, _ := tok.UnpackBalanceOf(out); bal.Int64() != 25_500_000 {
		t.Fatalf("token balance %s", bal)
	}
	if _, err := e.chain.Wait(context.Background(), common.HexToHash(a.rec.NativeTxHash)); err != nil {
		t.Fatal(err)
	}
	if eth, _ := e.eth.BalanceAt(context.Background(), to, nil); eth.Cmp(big.NewInt(1e16)) != 0 {
		t.Fatalf("gas money %s", eth)
	}
	// Both at the gasPrice asked for, as their fee cap.
	for _, h := range []string{a.rec.TxHash, a.rec.NativeTxHash} {
		tx, _, err := e.eth.TransactionByHash(context.Background(), common.HexToHash(h))
		if err != nil {
			t.Fatal(err)
		}
		if tx.GasFeeCap().Cmp(big.NewInt(1_500_000_000)) != 0 || tx.GasTipCap().Cmp(tx.GasFeeCap()) > 0 {
			t.Fatalf("%s: fee cap %v, tip %v; want a fee cap of 1.5 gwei", h, tx.GasFeeCap(), tx.GasTipCap())
		}
	}

	again := e.post("userFaucet", body)
	if again.status != 429 || again.err.Code != "faucet_cooldown" || again.err.NextAllowed == "" || again.header.Get("Retry-After") == "" {
		t.Fatalf("second: %d %+v", again.status, again.err)
	}
	// Still refused after a restart on the same store.
	e.start()
	if after := e.post("userFaucet", body); after.status != 429 || after.err.Code != "faucet_cooldown" {
		t.Fatalf("after restart: %d %+v", after.status, after.err)
	}
	// The record survives too.
	if rec := e.waitConfirmed(a.rec.ID); rec.Kind != "faucet" {
		t.Fatalf("record after restart: %+v", rec)
	}

	for _, tc := range []struct{ body, code string }{
		{`{"name":"dev","address":"` + e.chain.Accounts[5].Address.Hex() + `","amount":"101","gasPrice":"1.5"}`, "amount_too_large"},
		{`{"name":"dev","address":"` + e.chain.Accounts[5].Address.Hex() + `","amount":"1","gasPrice":"101"}`, "gas_price_too_high"},
		{`{"name":"dev","address":"` + e.chain.Accounts[5].Address.Hex() + `","amount":"1","gasPrice":"0.000000001"}`, "gas_price_too_low"},
		{`{"name":"dev","address":"` + e.chain.Accounts[5].Address.Hex() + `","amount":"1.0000001","gasPrice":"1.5"}`, "invalid_amount"},
	} {
		if a := e.post("userFaucet", tc.body); a.status != 400 || a.err.Code != tc.code {
			t.Errorf("%s: %d %+v", tc.code, a.status, a.err)
		}
	}
}

// Concurrent faucet requests for one address: exactly one is served.
func TestFaucetConcurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	to := e.chain.Accounts[6].Address.Hex()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		codes = map[int]int{}
	)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := e.post("userFaucet", `{"name":"dev","address":"`+to+`","amount":"1","gasPrice":"1.5"}`)
			mu.Lock()
			codes[a.status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[201] != 1 || codes[429] != 7 {
		t.Fatalf("statuses %v, want one 201 and seven 429", codes)
	}
}

func TestRoutesAndMethods(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/api/v1/transactions", 405, "method_not_allowed"},
		{"POST", "/api/v1/transactions/abc", 405, "method_not_allowed"},
		{"GET", "/api/v1/transactions/tx_unknown", 404, "not_found"},
		{"GET", "/api/v1/nope", 404, "not_found"},
		{"GET", "/elsewhere", 404, "not_found"},
	} {
		req, _ := http.NewRequest(tc.method, e.srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if a := e.read(resp); a.status != tc.status || a.err.Code != tc.code {
			t.Errorf("%s %s: %d %+v", tc.method, tc.path, a.status, a.err)
		}
	}
	post := func(contentType, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/api/v1/transactions", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("X-API-Key", testKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if a := e.read(post("text/plain", "{}")); a.status != 415 {
		t.Errorf("text/plain: %d", a.status)
	}
	if a := e.read(post("application/json", `{"name":"`+strings.Repeat("x", MaxBodySize)+`"}`)); a.status != 413 || a.err.Code != "body_too_large" {
		t.Errorf("oversized: %d %+v", a.status, a.err)
	}
}

func TestDecimals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in        string
		dec       int
		base, fmt string
	}{
		{"0.1", 18, "100000000000000000", "0.1"},
		{"1", 6, "1000000", "1"},
		{".5", 6, "500000", "0.5"},
		{"25.50", 6, "25500000", "25.5"},
	} {
		v, err := parseDecimal("v", json.Number(tc.in), tc.dec)
		if err != nil || v.String() != tc.base || formatDecimal(v, tc.dec) != tc.fmt {
			t.Errorf("%s: %v %v, formats as %s", tc.in, v, err, formatDecimal(v, tc.dec))
		}
	}
}

package txapi

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"go.uber.org/zap/zaptest"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
)

// fund sends wei from an account of the devnet to to and waits for it.
func fund(t *testing.T, d *devnet.Devnet, eth *ethclient.Client, to common.Address, wei *big.Int) {
	t.Helper()
	ctx := context.Background()
	from := d.Accounts[0]
	nonce, err := eth.PendingNonceAt(ctx, from.Address)
	if err != nil {
		t.Fatal(err)
	}
	head, err := eth.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(d.ChainID), &types.DynamicFeeTx{
		ChainID: d.ChainID, Nonce: nonce, To: &to, Value: wei, Gas: 21_000,
		GasTipCap: gwei, GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), gwei),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := eth.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Wait(ctx, tx.Hash()); err != nil {
		t.Fatal(err)
	}
}

// A transaction the node refuses gives its charge back to the budget.
func TestBudgetRefundWhenTheNodeRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key, _ := crypto.GenerateKey()
	wallet := crypto.PubkeyToAddress(key.PublicKey)
	// Enough for the value but not for its gas: the gas estimate passes and
	// the node refuses the signed transaction.
	fund(t, e.chain, e.eth, wallet, new(big.Int).Add(new(big.Int).Div(ether, big.NewInt(10)), big.NewInt(1)))
	e.wallet = key
	e.mutate = func(c *Config) {
		c.KeyDailyBudget = new(big.Int).Div(new(big.Int).Mul(big.NewInt(15), ether), big.NewInt(100)) // one 0.1 transfer
	}
	e.start()
	tx := `{"name":"tip","data":{"to":"0x1111111111111111111111111111111111111111","value":"0.1"}}`
	if a := e.post("transactions", tx); a.status != 503 || a.err.Code != "chain_unavailable" {
		t.Fatalf("refused by the node: %d %+v", a.status, a.err)
	}
	if n := records(t, e.svc); n != 0 {
		t.Fatalf("%d records of a transaction the node refused", n)
	}
	fund(t, e.chain, e.eth, wallet, ether)
	if a := e.post("transactions", tx); a.status != 201 {
		t.Fatalf("after the refund: %d %+v", a.status, a.err)
	}
	if a := e.post("transactions", tx); a.status != 429 || a.err.Code != "budget_exhausted" {
		t.Fatalf("the budget still counts: %d %+v", a.status, a.err)
	}
	if n := records(t, e.svc); n != 1 {
		t.Fatalf("%d records, want 1", n)
	}
}

// records counts the transaction records of svc.
func records(t *testing.T, svc *Service) int {
	t.Helper()
	n := 0
	if err := svc.records.ForEach(func(_, _ []byte) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// In a fleet too, a transaction the node refuses gives its charge back:
// the replica that delivers the wallet's transactions gives it up, and the
// replica that took the request hears of it through the journal.
func TestBudgetRefundWhenTheNodeRefusesInAFleet(t *testing.T) {
	t.Parallel()
	var key *ecdsa.PrivateKey
	f := newFleetOf(t, func(d *devnet.Devnet, eth *ethclient.Client) *ecdsa.PrivateKey {
		key, _ = crypto.GenerateKey()
		// Enough for the value but not for its gas, as above.
		fund(t, d, eth, crypto.PubkeyToAddress(key.PublicKey), new(big.Int).Add(new(big.Int).Div(ether, big.NewInt(10)), big.NewInt(1)))
		return key
	}, func(c *Config) {
		c.KeyDailyBudget = new(big.Int).Div(new(big.Int).Mul(big.NewInt(15), ether), big.NewInt(100)) // one 0.1 transfer
	})
	tx := request{key: testKey, path: "transactions", body: `{"name":"tip","data":{"to":"0x1111111111111111111111111111111111111111","value":"0.1"}}`}
	if a := f.post(t, 0, tx); a.status != 503 || a.err.Code != "chain_unavailable" {
		t.Fatalf("refused by the node: %d %+v", a.status, a.err)
	}
	if n := records(t, f.svcs[1]); n != 0 {
		t.Fatalf("%d records of a transaction the node refused", n)
	}
	fund(t, f.chain, f.eth, f.wallet, ether)
	if a := f.post(t, 1, tx); a.status != 201 {
		t.Fatalf("after the refunds: %d %+v", a.status, a.err)
	}
	if a := f.post(t, 0, tx); a.status != 429 || a.err.Code != "budget_exhausted" {
		t.Fatalf("the budget still counts: %d %+v", a.status, a.err)
	}
}

// A faucet draw whose tokens never leave gives back the address's
// cooldown, the client's draw and the day's.
func TestFaucetReleaseWhenNothingWasSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key, _ := crypto.GenerateKey()
	fund(t, e.chain, e.eth, crypto.PubkeyToAddress(key.PublicKey), ether) // coin, no tokens
	e.wallet = key
	e.mutate = func(c *Config) { c.FaucetPerClient, c.FaucetDaily = 1, 1 }
	e.start()
	body := `{"name":"dev","address":"` + e.chain.Accounts[5].Address.Hex() + `","amount":"1","gasPrice":"1.5"}`
	for i := range 2 {
		if a := e.postFrom("10.0.0.1", "userFaucet", body); a.status != 422 || a.err.Code != "transaction_would_fail" {
			t.Fatalf("attempt %d from a wallet without tokens: %d %+v", i, a.status, a.err)
		}
	}
	e.wallet = e.chain.Accounts[9].Key // funded with tokens
	e.start()
	if a := e.postFrom("10.0.0.1", "userFaucet", body); a.status != 201 {
		t.Fatalf("after the releases: %d %+v", a.status, a.err)
	}
	other := `{"name":"dev","address":"` + e.chain.Accounts[6].Address.Hex() + `","amount":"1","gasPrice":"1.5"}`
	if a := e.postFrom("10.0.0.2", "userFaucet", other); a.status != 429 || a.err.Code != "faucet_budget_exhausted" {
		t.Fatalf("the day still counts: %d %+v", a.status, a.err)
	}
}

// A reload's key rate applies to keys that already made requests.
func TestSetLimitsKeyRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bad := `{"name":"x"` // refused after the rate is taken, with nothing sent
	if a := e.post("transactions", bad); a.status != 400 {
		t.Fatalf("before: %d %+v", a.status, a.err)
	}
	if err := e.svc.SetLimits(Config{KeyRate: 1}); err != nil {
		t.Fatal(err)
	}
	codes := []string{}
	for range 2 {
		a := e.post("transactions", bad)
		codes = append(codes, fmt.Sprint(a.status, a.err.Code))
	}
	if want := "[400invalid_json 429rate_limited]"; fmt.Sprint(codes) != want {
		t.Fatalf("after: %v, want %s", codes, want)
	}
}

// fleet is two replicas of the service as a fleet runs them: two Services
// over two handles of one PostgreSQL schema, against one devnet, sending
// from one wallet through two Senders in fleet mode, each on its own
// handle as the wallet's journal.
type fleet struct {
	chain  *devnet.Devnet
	eth    *ethclient.Client
	wallet common.Address
	svcs   []*Service
	srvs   []*httptest.Server
}

// newFleet starts a fleet with the configuration mutate makes, sending
// from the devnet's account 9. It skips the test without
// X402_TEST_DATABASE_URL.
func newFleet(t *testing.T, mutate func(*Config)) *fleet {
	t.Helper()
	return newFleetOf(t, func(d *devnet.Devnet, _ *ethclient.Client) *ecdsa.PrivateKey { return d.Accounts[9].Key }, mutate)
}

// newFleetOf is newFleet with the wallet that wallet returns, once the
// devnet runs.
func newFleetOf(t *testing.T, wallet func(*devnet.Devnet, *ethclient.Client) *ecdsa.PrivateKey, mutate func(*Config)) *fleet {
	t.Helper()
	dbURL := pgtest.URL(t, "the tests of replicas sharing a PostgreSQL store")
	schema := pgtest.Schema(t, dbURL, "txapi_test_") // dropped after the stores close
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
	key := wallet(d, eth)
	f := &fleet{chain: d, eth: eth, wallet: crypto.PubkeyToAddress(key.PublicKey)}
	for range 2 {
		st, err := postgres.Open(context.Background(), postgres.Config{URL: dbURL, Schema: schema, MaxConns: 4, Logger: zaptest.NewLogger(t)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		cfg := Config{Chain: eth, Sender: newSender(t, d, eth, key, st), Store: st,
			Token: d.Token.Address, TokenDecimals: 6, Authorize: testAuthorize, KeyRate: 1000, FaucetPerClient: 1000,
			ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }, Logger: zaptest.NewLogger(t)}
		mutate(&cfg)
		svc, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(svc)
		t.Cleanup(srv.Close)
		f.svcs, f.srvs = append(f.svcs, svc), append(f.srvs, srv)
	}
	return f
}

// request is one request of a race.
type request struct{ key, client, path, body string }

// post sends r to replica i.
func (f *fleet) post(t *testing.T, i int, r request) answer {
	t.Helper()
	hr, _ := http.NewRequest(http.MethodPost, f.srvs[i].URL+"/api/v1/"+r.path, strings.NewReader(r.body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-API-Key", r.key)
	hr.Header.Set("X-Test-Client", r.client)
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Error(err)
		return answer{}
	}
	a, err := readAnswer(resp)
	if err != nil {
		t.Error(err)
	}
	return a
}

// race sends n requests at once, request i to replica i%2, and returns the
// answers in the order of the requests.
func (f *fleet) race(t *testing.T, n int, req func(i int) request) []answer {
	t.Helper()
	var (
		wg      sync.WaitGroup
		answers = make([]answer, n)
		start   = make(chan struct{})
	)
	for i := range n {
		r := req(i)
		wg.Go(func() {
			<-start
			answers[i] = f.post(t, i%len(f.srvs), r)
		})
	}
	close(start)
	wg.Wait()
	return answers
}

// count counts answers by status and code ("201", "429budget_exhausted").
func count(answers []answer) map[string]int {
	counts := map[string]int{}
	for _, a := range answers {
		counts[fmt.Sprint(a.status, a.err.Code)]++
	}
	return counts
}

// Every limit held in the store holds for two replicas together: of 3N
// concurrent requests spread over both, exactly the N the limit allows are
// served (one for an address's cooldown).
func TestLimitsAcrossReplicas(t *testing.T) {
	t.Parallel()
	const n = 4
	// A budget of n transfers of 0.1: the gas of each, at most 25,200 gas
	// at a few gwei, stays far below the slack of 0.001.
	budget := new(big.Int).Add(new(big.Int).Mul(big.NewInt(n), new(big.Int).Div(ether, big.NewInt(10))), new(big.Int).Div(ether, big.NewInt(1000)))
	fresh := func() string {
		k, _ := crypto.GenerateKey()
		return crypto.PubkeyToAddress(k.PublicKey).Hex()
	}
	draw := func(client, address string) request {
		return request{client: client, path: "userFaucet", body: `{"name":"dev","address":"` + address + `","amount":"1","gasPrice":"1.5"}`}
	}
	transfer := func(key string) request {
		return request{key: key, path: "transactions", body: `{"name":"tip","data":{"to":"0x1111111111111111111111111111111111111111","value":"0.1"}}`}
	}
	sameAddress := fresh()
	for _, tc := range []struct {
		name   string
		mutate func(*Config)
		limit  int
		req    func(i int) request
		code   string
	}{
		{"faucet per client", func(c *Config) { c.FaucetPerClient = n }, n,
			func(int) request { return draw("10.0.0.1", fresh()) }, "faucet_client_limit"},
		{"faucet per day", func(c *Config) { c.FaucetDaily = n }, n,
			func(i int) request { return draw(fmt.Sprintf("10.0.1.%d", i), fresh()) }, "faucet_budget_exhausted"},
		{"faucet per address", func(c *Config) {}, 1,
			func(i int) request { return draw(fmt.Sprintf("10.0.2.%d", i), sameAddress) }, "faucet_cooldown"},
		{"budget per key", func(c *Config) { c.KeyDailyBudget = budget }, n,
			func(int) request { return transfer(testKey) }, "budget_exhausted"},
		{"budget in total", func(c *Config) { c.DailyBudget = budget }, n,
			func(i int) request { return transfer([]string{testKey, otherKey}[i/2%2]) }, "budget_exhausted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFleet(t, tc.mutate)
			want := map[string]int{"201": tc.limit, "429" + tc.code: 3*n - tc.limit}
			if got := count(f.race(t, 3*n, tc.req)); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("answers %v, want %v", got, want)
			}
		})
	}
}

// Twenty transfers at once, over two replicas that share the wallet, are
// all served, with twenty distinct nonces, and all mined.
func TestConcurrentTransfersAcrossReplicas(t *testing.T) {
	t.Parallel()
	const n = 20
	f := newFleet(t, func(*Config) {})
	ctx := t.Context()
	start, err := f.eth.NonceAt(ctx, f.wallet, nil)
	if err != nil {
		t.Fatal(err)
	}
	answers := f.race(t, n, func(i int) request {
		return request{key: []string{testKey, otherKey}[i%2], path: "transactions",
			body: fmt.Sprintf(`{"name":"tip %d","data":{"to":"0x1111111111111111111111111111111111111111","value":"0.01"}}`, i)}
	})
	if got := count(answers); got["201"] != n {
		t.Fatalf("answers %v, want %d 201s", got, n)
	}
	nonces := make([]uint64, n)
	for i, a := range answers {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		r, err := f.chain.Wait(wctx, common.HexToHash(a.rec.TxHash))
		cancel()
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("transfer %d (%s): %v, %v", i, a.rec.TxHash, r, err)
		}
		tx, _, err := f.eth.TransactionByHash(ctx, common.HexToHash(a.rec.TxHash))
		if err != nil {
			t.Fatal(err)
		}
		if tx.Value().Cmp(big.NewInt(1e16)) != 0 {
			t.Fatalf("transfer %d sent %v wei, want 1e16", i, tx.Value())
		}
		nonces[i] = tx.Nonce()
	}
	slices.Sort(nonces)
	for i, nonce := range nonces {
		if nonce != start+uint64(i) {
			t.Fatalf("nonces %v: want %d to %d, each once", nonces, start, start+n-1)
		}
	}
	if got, err := f.eth.NonceAt(ctx, f.wallet, nil); err != nil || got != start+n {
		t.Fatalf("the wallet's nonce is %d (%v), want %d", got, err, start+n)
	}
}

// A stored wallet document decodes without panicking, and what decodes
// encodes to a document that decodes to the same.
func FuzzDecodeWalletDay(f *testing.F) {
	jan2 := time.Date(2025, 1, 2, 11, 0, 0, 0, time.UTC).Unix()
	f.Add([]byte(`{"day":"2025-01-02","total":300,"keys":{"k1":200,"k2":100}}`), jan2)
	f.Add([]byte(`{"day":"2025-01-01","total":1}`), jan2)
	f.Add([]byte(`{"day":"2025-01-03","total":1}`), jan2)
	f.Add([]byte(`{"keys":{"k1":null}}`), jan2)
	f.Add([]byte(`null`), int64(0))
	f.Fuzz(func(t *testing.T, raw []byte, unix int64) {
		day := utcDay(time.Unix(unix, 0))
		w, err := decodeWalletDay(raw, day)
		if err != nil {
			return
		}
		if w.Day < day || w.Total == nil || w.Keys == nil {
			t.Fatalf("decoded %+v for day %q", w, day)
		}
		enc, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		again, err := decodeWalletDay(enc, day)
		if err != nil {
			t.Fatal(err)
		}
		if enc2, _ := json.Marshal(again); string(enc2) != string(enc) {
			t.Fatalf("%s decodes and encodes as %s", enc, enc2)
		}
	})
}

// A stored faucet document decodes without panicking, keeps no draw of
// another cooldown, and what decodes encodes to a document that decodes to
// the same.
func FuzzDecodeFaucetState(f *testing.F) {
	f.Add([]byte(`{"day":"2025-01-02","count":2,"addresses":{"0x1111111111111111111111111111111111111111":"2025-01-02T10:00:00Z"},"clients":{"10.0.0.1":["2025-01-02T10:00:00Z","2025-01-02T05:00:00Z"]}}`))
	f.Add([]byte(`{"clients":{"":[]}}`))
	f.Add([]byte(`{"addresses":{"0x12":"2025-01-02T10:00:00Z"}}`))
	now := time.Date(2025, 1, 2, 11, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := decodeFaucetState(raw, now, 3*time.Hour)
		if err != nil {
			return
		}
		for _, times := range s.Clients {
			if len(times) == 0 {
				t.Fatal("a client without draws is kept")
			}
			for _, at := range times {
				if now.Sub(at) >= 3*time.Hour {
					t.Fatalf("an expired draw at %v is kept", at)
				}
			}
		}
		enc, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		again, err := decodeFaucetState(enc, now, 3*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if enc2, _ := json.Marshal(again); string(enc2) != string(enc) {
			t.Fatalf("%s decodes and encodes as %s", enc, enc2)
		}
	})
}

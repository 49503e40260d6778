package txapi

import (
	"bufio"
	"context"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
)

// The wallet routes need a key with txapi:send: twenty anonymous transfers
// of 0.1 used to succeed. Refusals spend nothing.
func TestWalletRoutesNeedAKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wallet := e.chain.Accounts[9].Address
	before, _ := e.eth.BalanceAt(context.Background(), wallet, nil)
	tx := `{"name":"tip","data":{"to":"0x1111111111111111111111111111111111111111","value":"0.1"}}`
	msg := `{"name":"hi","data":{"to":"0x1111111111111111111111111111111111111111","message":"hello"}}`
	for _, tc := range []struct {
		key, path, body string
		status          int
		code            string
	}{
		{"", "transactions", tx, 401, "unauthorized"},
		{"", "sendMessage", msg, 401, "unauthorized"},
		{"pmk_unknown", "transactions", tx, 401, "unauthorized"},
		{readOnlyKey, "transactions", tx, 403, "forbidden"},
		{readOnlyKey, "sendMessage", msg, 403, "forbidden"},
	} {
		e.key = tc.key
		for range 4 {
			if a := e.post(tc.path, tc.body); a.status != tc.status || a.err.Code != tc.code {
				t.Fatalf("%s with key %q: %d %+v", tc.path, tc.key, a.status, a.err)
			}
		}
	}
	after, _ := e.eth.BalanceAt(context.Background(), wallet, nil)
	if after.Cmp(before) != 0 {
		t.Fatalf("refused requests moved the wallet: %s → %s", before, after)
	}
	e.key = testKey
	if a := e.post("transactions", tx); a.status != 201 {
		t.Fatalf("with a key: %d %+v", a.status, a.err)
	}
}

// A key's rate and the daily budgets hold, and survive a restart.
func TestWalletBudgets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mutate = func(c *Config) {
		c.KeyRate = 3
		c.KeyDailyBudget = new(big.Int).Div(new(big.Int).Mul(big.NewInt(25), ether), big.NewInt(100)) // 0.25
	}
	e.start()
	tx := `{"name":"tip","data":{"to":"0x1111111111111111111111111111111111111111","value":"0.1"}}`
	codes := []string{}
	for range 4 {
		a := e.post("transactions", tx)
		codes = append(codes, fmt.Sprint(a.status, a.err.Code))
		if a.status == 429 && a.header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
	// Two fit the 0.25 budget (value and gas), the third does not; the
	// fourth is over the key's 3 a minute.
	want := []string{"201", "201", "429budget_exhausted", "429rate_limited"}
	if fmt.Sprint(codes) != fmt.Sprint(want) {
		t.Fatalf("codes %v, want %v", codes, want)
	}
	e.mutate = func(c *Config) {
		c.KeyDailyBudget = new(big.Int).Div(new(big.Int).Mul(big.NewInt(25), ether), big.NewInt(100))
	}
	e.start()
	if a := e.post("transactions", tx); a.status != 429 || a.err.Code != "budget_exhausted" {
		t.Fatalf("after a restart: %d %+v", a.status, a.err)
	}
}

// The faucet is public but bounded: per client address, per day, and at a
// gas price under the network's ceiling. Five fresh addresses from one
// client used to get 100 dUSD and 0.01 ETH each at 100 gwei.
func TestFaucetLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mutate = func(c *Config) { c.FaucetPerClient, c.FaucetDaily = 3, 5 }
	e.start()
	draw := func(client, gasPrice string) answer {
		key, _ := crypto.GenerateKey()
		return e.postFrom(client, "userFaucet", `{"name":"dev","address":"`+crypto.PubkeyToAddress(key.PublicKey).Hex()+`","amount":"100","gasPrice":"`+gasPrice+`"}`)
	}
	if a := draw("10.0.0.1", "100"); a.status != 400 || a.err.Code != "gas_price_too_high" {
		t.Fatalf("100 gwei on the devnet: %d %+v", a.status, a.err)
	}
	var codes []string
	for range 5 {
		a := draw("10.0.0.1", "1.5")
		codes = append(codes, fmt.Sprint(a.status, a.err.Code))
	}
	if want := "[201 201 201 429faucet_client_limit 429faucet_client_limit]"; fmt.Sprint(codes) != want {
		t.Fatalf("one client: %v, want %s", codes, want)
	}
	codes = nil
	for i := range 3 {
		a := draw(fmt.Sprintf("10.0.1.%d", i), "1.5")
		codes = append(codes, fmt.Sprint(a.status, a.err.Code))
	}
	if want := "[201 201 429faucet_budget_exhausted]"; fmt.Sprint(codes) != want {
		t.Fatalf("the daily budget of 5: %v, want %s", codes, want)
	}
	e.start()
	if a := draw("10.0.2.1", "1.5"); a.status != 429 || a.err.Code != "faucet_budget_exhausted" || a.header.Get("Retry-After") == "" {
		t.Fatalf("after a restart: %d %+v", a.status, a.err)
	}
}

// A body trickled slower than BodyTimeout is answered 408 request_timeout.
func TestSlowBodyIsCutOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mutate = func(c *Config) { c.BodyTimeout = 300 * time.Millisecond }
	e.start()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/userFaucet HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	if a := e.read(resp); a.status != http.StatusRequestTimeout || a.err.Code != "request_timeout" {
		t.Fatalf("%d %+v", a.status, a.err)
	}
}

// A reload's new limits are in force for the next request, with the
// counts already taken.
func TestSetLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tx := `{"name":"tip","data":{"to":"0x1111111111111111111111111111111111111111","value":"0.06"}}`
	if a := e.post("transactions", tx); a.status != 201 {
		t.Fatalf("before: %d %+v", a.status, a.err)
	}
	if err := e.svc.SetLimits(Config{MaxValue: new(big.Int).Div(ether, big.NewInt(20)), KeyRate: 1000}); err != nil {
		t.Fatal(err)
	}
	if a := e.post("transactions", tx); a.status != 400 || a.err.Code != "value_too_large" {
		t.Fatalf("0.06 over a 0.05 limit: %d %+v", a.status, a.err)
	}
	if c := e.svc.conf(); c.FaucetDaily != 100 || c.Sender == nil {
		t.Fatalf("defaults and fixed fields after SetLimits: %+v", c)
	}
}

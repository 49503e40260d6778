package caddymodule

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/channels/channelstest"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/webhook"
	"github.com/caddy-x402/caddy-x402/x402"
)

const batchSettlementCaddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		batch_settlement {
			withdraw_delay 15m
			claim_every 0
		}
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /tools/* {
		x402 0.001 {
			pay_to {{merchant}}
			schemes batch-settlement
		}
		reverse_proxy {{upstream}}
	}
}
`

// channelRun is what batch-settlement-caddy.mjs prints.
type channelRun struct {
	Results   []channelAnswer      `json:"results"`
	Recovered *channelAnswer       `json:"recovered"`
	Refund    *x402.SettleResponse `json:"refund"`
}

type channelAnswer struct {
	Status   int                  `json:"status"`
	Body     string               `json:"body"`
	Response *x402.SettleResponse `json:"response"`
}

// TestBatchSettlementThroughCaddy: an agent pays a Caddy route through a
// payment channel with upstream's own client (@x402/fetch with @x402/evm
// 2.27.0's batch-settlement client): one deposit (a transaction the
// embedded facilitator sends and pays the gas of), then vouchers alone,
// each answered with a PAYMENT-RESPONSE that has no transaction and the
// charge in extra.chargedAmount. A fresh client that lost its state
// recovers it (from the chain and the server's corrective 402) and pays
// on. The cooperative refund then claims what was served, sweeps it to
// the merchant and returns the rest, in one transaction: the payer paid
// exactly what it was served, the merchant got exactly that, and the
// upstream never saw a payment header.
func TestBatchSettlementThroughCaddy(t *testing.T) {
	dir := interopClients(t)
	var served, leaked atomic.Int64
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		if r.Header.Get(x402.HeaderPaymentSignature) != "" {
			leaked.Add(1)
		}
		fmt.Fprint(w, `{"tool":"answer"}`)
	}))
	defer upstream.Close()

	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	payer := mustKey(t, 5)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)
	token := wellknown.GenesisContracts().Token
	cf := batchSettlementCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{upstream}}", strings.TrimPrefix(upstream.URL, "http://")).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	rpcURL := fmt.Sprintf("http://127.0.0.1:%d", ports["chain"])
	eth, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: token}
	merchantBefore, payerBefore := e.balance(merchant), e.balance(payerAddr)

	// The 402 offers the channel's terms.
	resp, _ := e.get("/tools/search", "")
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 1 {
		t.Fatalf("the 402: %v, %+v", err, pr)
	}
	offer := pr.Accepts[0]
	authorizer := crypto.PubkeyToAddress(mustKey(t, 12).PublicKey)
	if offer.Scheme != x402.SchemeBatchSettlement || offer.Amount != "1000" || offer.Extra == nil ||
		offer.Extra.ReceiverAuthorizer != authorizer.Hex() || offer.Extra.WithdrawDelay != 900 || offer.Extra.Name == "" || offer.Extra.MinDeposit != "10000" {
		t.Fatalf("the offer: %+v, extra %+v", offer, offer.Extra)
	}

	const count = 5
	cmd := exec.Command("node", "batch-settlement-caddy.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BASE="+e.api, "PATH_=/tools/search", "RPC="+rpcURL, "NETWORK="+offer.Network, "ASSET="+token.Hex(),
		"X402_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(payer)), fmt.Sprint("COUNT=", count), "RECOVER=1", "REFUND=1")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	t.Logf("the agent: %s", out)
	var run channelRun
	if err := json.Unmarshal(out, &run); err != nil || len(run.Results) != count {
		t.Fatalf("results %s: %v", out, err)
	}
	answers := append(run.Results, *run.Recovered)
	for i, a := range answers {
		if a.Status != http.StatusOK || a.Response == nil || !a.Response.Success || a.Body != `{"tool":"answer"}` {
			t.Fatalf("request %d: %d %s, %+v", i, a.Status, a.Body, a.Response)
		}
		x := a.Response.Extra
		if x == nil || x.ChargedAmount != "1000" || x.ChannelState == nil || x.ChannelState.ChargedCumulativeAmount != fmt.Sprint(1000*(i+1)) {
			t.Errorf("request %d's PAYMENT-RESPONSE extra %+v (%+v), want 1000 charged, %d in all", i, x, x.ChannelState, 1000*(i+1))
		}
		if deposit := i == 0; deposit != (a.Response.TransactionHash != "") {
			t.Errorf("request %d's transaction %q: only the first (the deposit) has one", i, a.Response.TransactionHash)
		}
	}
	if served.Load() != count+1 || leaked.Load() != 0 {
		t.Errorf("the upstream served %d requests (%d with a payment header), want %d and none", served.Load(), leaked.Load(), count+1)
	}
	r := run.Refund
	if r == nil || !r.Success || r.TransactionHash == "" {
		t.Fatalf("the refund: %s", out)
	}
	charged := big.NewInt(1000 * (count + 1))
	if paid := new(big.Int).Sub(payerBefore, e.balance(payerAddr)); paid.Cmp(charged) != 0 {
		t.Errorf("the payer paid %v in all, want the %v it was served", paid, charged)
	}
	if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Cmp(charged) != 0 {
		t.Errorf("the merchant got %v, want the %v served", got, charged)
	}

	// The README's agent (examples/node-payer/agent.mjs) against a route
	// with the default minimum deposit, ten calls' worth: 25 calls deposit
	// at calls 1, 11 and 21, and get the 5 calls' worth they did not spend
	// back. Run again for 10 calls, it deposits once, spends it all and
	// says there is nothing to refund (upstream's client throws on a
	// refund of nothing). TestReadmePayerOutput runs the README's own
	// command against the demo.
	for _, tt := range []struct {
		n        int
		deposits []int  // the calls that deposit, from 0
		refund   string // "" for none
	}{
		{n: 25, deposits: []int{0, 10, 20}, refund: "5000"},
		{n: 10, deposits: []int{0}},
	} {
		calls := runAgent(t, rpcURL, "0x"+common.Bytes2Hex(crypto.FromECDSA(mustKey(t, 6))), e.api+"/tools/search", fmt.Sprint(tt.n), "refund")
		if len(calls.Calls) != tt.n {
			t.Fatalf("agent.mjs %d refund answered %d calls:\n%s", tt.n, len(calls.Calls), calls.stderr)
		}
		for i, c := range calls.Calls {
			if c.Status != http.StatusOK || c.Receipt == nil || slices.Contains(tt.deposits, i) != (c.Receipt.TransactionHash != "") {
				t.Errorf("agent.mjs %d refund, call %d: %d %+v", tt.n, i+1, c.Status, c.Receipt)
			}
		}
		switch {
		case tt.refund == "" && (calls.Refund != nil || !strings.Contains(calls.stderr, "refund: nothing to refund")):
			t.Errorf("agent.mjs %d refund, with every deposit spent: refund %+v\n%s", tt.n, calls.Refund, calls.stderr)
		case tt.refund != "" && (calls.Refund == nil || !calls.Refund.Success || calls.Refund.Amount != tt.refund):
			t.Errorf("agent.mjs %d refund: refund %+v, want %s back\n%s", tt.n, calls.Refund, tt.refund, calls.stderr)
		}
	}
}

const channelDeskCaddyfile = `{
	admin 127.0.0.1:{{admin}}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		webhook {{hooks}}/events {
			secret {env.X402_CHANNEL_DESK_WEBHOOK_SECRET}
		}
		batch_settlement {
			withdraw_delay 15m
			claim_every 0
		}
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /tools/* {
		x402 {
			pay_to {{merchant}}
			amount 100
			schemes batch-settlement
		}
		respond "tool answer" 200
	}
	handle /bytes/* {
		x402 {
			pay_to {{merchant}}
			amount 100
			schemes batch-settlement
			upto per_byte 0.000001
		}
		respond "forty bytes of a metered answer, no more" 200
	}
	handle /dashboard/* {
		x402_dashboard {
			path_prefix /dashboard/
			allow_anonymous
		}
	}
}
`

// TestChannelDeskThroughCaddy: the operator's view of the channels in
// Caddy's admin API. After a deposit and two vouchers, GET /x402/channels
// shows the channel and its payer with 340 unclaimed (the last 40 on a
// route metered per byte); POST /x402/channels/{id}/refund claims the 340
// (swept to the merchant) and returns the 660 left to the payer, and the
// report then shows 340
// claimed and swept. The dashboard's channels page shows the same. A refund of an unknown channel is 404, a bad body
// 400, and nothing is left to refund a second time (409).
func TestChannelDeskThroughCaddy(t *testing.T) {
	ports := map[string]int{"chain": freePort(t), "site": freePort(t), "admin": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	cf := channelDeskCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	t.Setenv("X402_CHANNEL_DESK_WEBHOOK_SECRET", "channel-desk-webhook-secret-0123")
	hooks, hookSrv := newHookReceiver(t, "channel-desk-webhook-secret-0123")
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{hooks}}", hookSrv.URL).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	rpcURL := fmt.Sprintf("http://127.0.0.1:%d", ports["chain"])
	eth, err := ethclient.Dial(rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	g := wellknown.GenesisContracts()
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: g.Token}
	admin := fmt.Sprintf("http://127.0.0.1:%d/x402", ports["admin"])

	resp, _ := e.get("/tools/a", "")
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 1 {
		t.Fatalf("the 402: %v", err)
	}
	offer := pr.Accepts[0]
	payerKey := mustKey(t, 5)
	payer := channelstest.New(payerKey, offer, batchsettle.NewDomain(big.NewInt(wellknown.ChainID), g.BatchSettlement), g.ERC3009DepositCollector,
		contracts.TokenDomain{Name: offer.Extra.Name, Version: offer.Extra.Version, ChainID: big.NewInt(wellknown.ChainID), Token: g.Token})
	payerBefore, merchantBefore := e.balance(payer.Config.Payer), e.balance(merchant)
	for i, typ := range []string{"deposit", "voucher", "voucher"} {
		h, err := payer.Header(typ, int64(100*(i+1)), 1000, 0)
		if err != nil {
			t.Fatal(err)
		}
		if resp, body := e.get("/tools/a", h); resp.StatusCode != http.StatusOK {
			t.Fatalf("call %d: %d %s", i, resp.StatusCode, body)
		}
	}
	// The same channel pays a route metered per byte (1 atomic unit a
	// byte, at most 100): its 40-byte answer is charged 40.
	h, err := payer.Header("voucher", 400, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	resp, body := e.get("/bytes/a", h)
	var metered x402.SettleResponse
	if resp.StatusCode != http.StatusOK || x402.DecodeHeader(resp.Header.Get(x402.HeaderPaymentResponse), &metered) != nil ||
		metered.Extra == nil || metered.Extra.ChargedAmount != "40" || metered.Extra.ChannelState.ChargedCumulativeAmount != "340" || len(body) != 40 {
		t.Fatalf("the metered call: %d %q %+v", resp.StatusCode, body, metered.Extra)
	}
	type report struct {
		Channels []map[string]any `json:"channels"`
		Payers   []map[string]any `json:"payers"`
	}
	read := func() report {
		t.Helper()
		// A charge is committed just after its response: bounded wait for
		// the report to show the third.
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp, err := http.Get(admin + "/channels")
			if err != nil {
				t.Fatal(err)
			}
			var r report
			json.NewDecoder(resp.Body).Decode(&r)
			resp.Body.Close()
			if len(r.Channels) == 1 && (r.Channels[0]["unclaimed"] == "340" || r.Channels[0]["claimed"] != "0") || time.Now().After(deadline) {
				return r
			}
			time.Sleep(20 * time.Millisecond) // waiting for the last charge's commit
		}
	}
	r := read()
	id := payer.ID().Hex()
	// The three paid requests are counted as settled, the vouchers among
	// them (charged off chain), none as invalid.
	mresp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", ports["admin"]))
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(mresp.Body)
	mresp.Body.Close()
	lines := grepLines(string(metrics), `scheme="batch-settlement"`)
	t.Logf("the route's payments:\n%s", lines)
	settled := regexp.MustCompile(`caddy_x402_payments_total\{[^}]*result="settled"[^}]*\} 4\n?`)
	if !settled.MatchString(lines+"\n") || strings.Contains(lines, `result="invalid"`) {
		t.Errorf("the payments counter of the route:\n%s", grepLines(string(metrics), "caddy_x402_payments_total"))
	}
	post := func(path, body string) (int, map[string]any) {
		t.Helper()
		resp, err := http.Post(admin+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		return resp.StatusCode, v
	}
	if code, v := post("/channels/0x"+strings.Repeat("ab", 32)+"/refund", `{}`); code != http.StatusNotFound {
		t.Errorf("refunding an unknown channel: %d %v", code, v)
	}
	if code, v := post("/channels/"+id+"/refund", `not json`); code != http.StatusBadRequest {
		t.Errorf("a refund with a bad body: %d %v", code, v)
	}
	code, v := post("/channels/"+id+"/refund", `{}`)
	if code != http.StatusOK || v["refunded"] != "660" || v["claimed"] != "340" {
		t.Fatalf("the operator's refund: %d %v", code, v)
	}
	if paid := new(big.Int).Sub(payerBefore, e.balance(payer.Config.Payer)); paid.Int64() != 340 {
		t.Errorf("the payer paid %v in all, want the 340 served", paid)
	}
	if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Int64() != 340 {
		t.Errorf("the merchant got %v, want 340", got)
	}
	r = read()
	if len(r.Channels) != 1 || r.Channels[0]["claimed"] != "340" || r.Channels[0]["swept"] != "340" || r.Channels[0]["unclaimed"] != "0" {
		t.Errorf("the report after the refund: %+v", r)
	}
	if code, v := post("/channels/"+id+"/refund", `{}`); code != http.StatusConflict {
		t.Errorf("a second refund: %d %v", code, v)
	}
	// The merchant's webhook hears of the claim (the 340 of this channel
	// and payer) and of the refund, in the refund's transaction.
	tx, _ := v["transaction"].(string)
	hooks.waitFor("channel.claimed and channel.refunded", func() bool {
		var claimed, refunded bool
		for _, ev := range hooks.got {
			switch {
			case ev.Type == webhook.EventChannelClaimed && ev.Amount == "340" && len(ev.Channels) == 1 && ev.Channels[0].ID == id && ev.Channels[0].Payer == payer.Config.Payer.Hex():
				claimed = true
			case ev.Type == webhook.EventChannelRefunded && ev.Amount == "660" && (tx == "" || ev.Transaction == tx):
				refunded = true
			}
		}
		return claimed && refunded
	})
}

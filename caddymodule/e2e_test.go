package caddymodule

import (
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	_ "github.com/caddyserver/caddy/v2/modules/standard"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/x402"
)

type e2e struct {
	t        *testing.T
	chainURL string
	api      string
	fac      string
	admin    string
	eth      *ethclient.Client
	token    common.Address
	merchant common.Address
}

func (e *e2e) balance(who common.Address) *big.Int {
	e.t.Helper()
	tok := contracts.NewDevUSD()
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &e.token, Data: tok.PackBalanceOf(who)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	v, _ := tok.UnpackBalanceOf(out)
	return v
}

func (e *e2e) get(path, payment string, header ...string) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.api+path, nil)
	if payment != "" {
		req.Header.Set(x402.HeaderPaymentSignature, payment)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// payment signs a payment for the API's offer, changed by mutate.
func (e *e2e) payment(key *ecdsa.PrivateKey, mutate func(*x402.PaymentRequirements)) string {
	e.t.Helper()
	resp, _ := e.get("/paid/report", "")
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		e.t.Fatal(err)
	}
	offer := pr.Accepts[0]
	if mutate != nil {
		mutate(&offer)
	}
	p, err := (&client.Transport{Key: key, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &offer)
	if err != nil {
		e.t.Fatal(err)
	}
	h, _ := x402.EncodeHeader(p)
	return h
}

func TestEndToEnd(t *testing.T) {
	// The settler is account #8, so account #0, which owns the contracts,
	// can send admin transactions without racing the settler's nonces.
	settlerKey, _ := devnet.DeriveKey(devnet.TestMnemonic, 8)
	secret := fmt.Sprintf("%x", crypto.FromECDSA(settlerKey))
	t.Setenv("X402_E2E_SETTLER_KEY", secret)

	// An upstream that streams 4 MiB in chunks, and waits until the client
	// has the first chunk before sending the rest.
	firstRead := make(chan struct{}, 1)
	const chunk, chunks = 256 << 10, 16
	stream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := []byte(strings.Repeat("s", chunk))
		w.Write(buf)
		http.NewResponseController(w).Flush()
		select {
		case <-firstRead:
		case <-time.After(15 * time.Second):
			t.Error("the client did not get the first chunk before the upstream finished: the body was buffered")
		}
		for i := 1; i < chunks; i++ {
			w.Write(buf)
		}
	}))
	defer stream.Close()

	ports := map[string]int{}
	for _, name := range []string{"admin", "chain", "upstream", "api", "facilitator", "paymaster"} {
		ports[name] = freePort(t)
	}
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	cf := e2eCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.ReplaceAll(cf, "{{merchant}}", merchant.Hex())
	cf = strings.ReplaceAll(cf, "{{token}}", wellknown.GenesisContracts().Token.Hex())
	cf = strings.ReplaceAll(cf, "{{stream}}", stream.URL)
	logFile := filepath.Join(t.TempDir(), "caddy.log")
	cf = strings.ReplaceAll(cf, "{{logfile}}", logFile)
	payLog := filepath.Join(t.TempDir(), "payments.log")
	cf = strings.ReplaceAll(cf, "{{paylog}}", payLog)
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "e2e.Caddyfile"})
	if err != nil {
		t.Fatalf("adapting: %v", err)
	}
	if strings.Contains(string(cfgJSON), secret) {
		t.Fatal("the adapted config contains the settler key")
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	defer func() {
		if !t.Failed() {
			return
		}
		logs, _ := os.ReadFile(logFile)
		for _, line := range strings.Split(string(logs), "\n") {
			if strings.Contains(line, `"level":"warn"`) || strings.Contains(line, `"level":"error"`) {
				t.Log(line)
			}
		}
	}()

	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{
		t: t, chainURL: fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]), api: fmt.Sprintf("http://127.0.0.1:%d", ports["api"]), fac: fmt.Sprintf("http://127.0.0.1:%d", ports["facilitator"]),
		admin: fmt.Sprintf("http://127.0.0.1:%d", ports["admin"]), eth: eth,
		token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"), merchant: merchant,
	}
	payer1, _ := devnet.DeriveKey(devnet.TestMnemonic, 1)
	payer1Addr := crypto.PubkeyToAddress(payer1.PublicKey)

	t.Run("free route is open", func(t *testing.T) {
		if resp, body := e.get("/free", ""); resp.StatusCode != 200 || body != "free content" {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
	})
	t.Run("unpaid gets 402 with a decodable challenge", func(t *testing.T) {
		resp, body := e.get("/paid/report", "")
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != 402 || err != nil || pr.Accepts[0].Amount != "10000" || pr.Accepts[0].PayTo != merchant.Hex() ||
			pr.Accepts[0].Network != "eip155:31337" || pr.Resource.Description != "e2e report" || !json.Valid([]byte(body)) {
			t.Fatalf("%d %v %+v", resp.StatusCode, err, pr)
		}
	})
	t.Run("browser gets HTML", func(t *testing.T) {
		resp, body := e.get("/paid/report", "", "Accept", "text/html")
		if resp.StatusCode != 402 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, "0.01 dUSD") {
			t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	})
	t.Run("paid with the Go client", func(t *testing.T) {
		before := e.balance(merchant)
		c := &http.Client{Transport: &client.Transport{Key: payer1, MaxAmount: big.NewInt(10_000)}}
		resp, err := c.Get(e.api + "/paid/whoami")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		receipt, ok, err := client.Receipt(resp)
		if resp.StatusCode != 200 || !ok || err != nil || !receipt.Success {
			t.Fatalf("%d %q %+v %v", resp.StatusCode, body, receipt, err)
		}
		// The upstream saw the payer through the placeholder.
		if string(body) != "payer="+payer1Addr.Hex() {
			t.Fatalf("upstream saw %q", body)
		}
		r, err := eth.TransactionReceipt(context.Background(), common.HexToHash(receipt.TransactionHash))
		if err != nil || r.Status != 1 {
			t.Fatalf("receipt %v %v", r, err)
		}
		found := false
		for _, l := range r.Logs {
			if ev, err := contracts.NewDevUSD().UnpackTransferEvent(l); err == nil && ev.From == payer1Addr && ev.To == merchant && ev.Value.Int64() == 10_000 {
				found = true
			}
		}
		if !found {
			t.Fatal("no Transfer to payTo in the settlement")
		}
		if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 10_000 {
			t.Fatalf("merchant got %s", got)
		}
	})
	t.Run("paid through a remote facilitator", func(t *testing.T) {
		before := e.balance(merchant)
		c := &http.Client{Transport: &client.Transport{Key: payer1, MaxAmount: big.NewInt(10_000)}}
		resp, err := c.Get(e.api + "/remote/report")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res, ok, _ := client.Receipt(resp)
		if resp.StatusCode != 200 || !ok || !res.Success || !strings.Contains(string(body), "paid content") {
			t.Fatalf("%d %q %+v", resp.StatusCode, body, res)
		}
		if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 10_000 {
			t.Fatalf("merchant got %s", got)
		}
	})
	t.Run("upstream 500 is not charged", func(t *testing.T) {
		before := e.balance(payer1Addr)
		resp, body := e.get("/paid/broken", e.payment(payer1, nil))
		if resp.StatusCode != 500 || body != "upstream broke" || resp.Header.Get(x402.HeaderPaymentResponse) != "" {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
		if e.balance(payer1Addr).Cmp(before) != 0 {
			t.Fatal("charged")
		}
	})
	t.Run("replayed payment", func(t *testing.T) {
		h := e.payment(payer1, nil)
		if resp, _ := e.get("/paid/report", h); resp.StatusCode != 200 {
			t.Fatalf("first: %d", resp.StatusCode)
		}
		before := e.balance(merchant)
		resp, body := e.get("/paid/report", h)
		pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != 402 || pr == nil || !strings.HasPrefix(pr.Error, "replay") || strings.Contains(body, "paid content") {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
		if e.balance(merchant).Cmp(before) != 0 {
			t.Fatal("second transfer")
		}
	})
	for _, tc := range []struct {
		name   string
		mutate func(*x402.PaymentRequirements)
		reason string
	}{
		{"amount", func(o *x402.PaymentRequirements) { o.Amount = "1" }, "amount_mismatch"},
		{"payTo", func(o *x402.PaymentRequirements) { o.PayTo = payer1Addr.Hex() }, "invalid_inner_payload"},
		{"asset", func(o *x402.PaymentRequirements) { o.Asset = merchant.Hex() }, "asset_not_allowed"},
	} {
		t.Run("tampered "+tc.name, func(t *testing.T) {
			resp, _ := e.get("/paid/report", e.payment(payer1, tc.mutate))
			pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
			if resp.StatusCode != 402 || pr == nil || !strings.HasPrefix(pr.Error, tc.reason) {
				t.Fatalf("%d %+v", resp.StatusCode, pr)
			}
		})
	}
	t.Run("oversized header", func(t *testing.T) {
		// Over x402's 16 KiB limit and within Caddy's server limit
		// (max_header_size 16 KiB, which net/http lets run 4 KiB over):
		// x402 answers. A header past Caddy's limit gets net/http's
		// plain-text 431 before any handler runs; 20 KiB sat right at it.
		resp, body := e.get("/paid/report", strings.Repeat("A", 17<<10))
		if resp.StatusCode != 431 || !json.Valid([]byte(body)) {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
	})
	t.Run("garbage header", func(t *testing.T) {
		resp, body := e.get("/paid/report", base64.StdEncoding.EncodeToString([]byte("garbage")))
		if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(body, "malformed_request") {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
	})
	t.Run("streamed body after settlement", func(t *testing.T) {
		c := &http.Client{Transport: &client.Transport{Key: payer1, MaxAmount: big.NewInt(10_000)}}
		resp, err := c.Get(e.api + "/paid/stream")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if _, ok, _ := client.Receipt(resp); resp.StatusCode != 200 || !ok {
			t.Fatalf("%d", resp.StatusCode)
		}
		first := make([]byte, chunk)
		if _, err := io.ReadFull(resp.Body, first); err != nil {
			t.Fatal(err)
		}
		firstRead <- struct{}{}
		rest, _ := io.Copy(io.Discard, resp.Body)
		if int64(chunk)+rest != chunk*chunks {
			t.Fatalf("got %d bytes", int64(chunk)+rest)
		}
	})
	t.Run("@x402/fetch pays", func(t *testing.T) {
		dir := nodePayer(t)
		cmd := exec.Command("node", "pay.mjs", e.api+"/paid/report")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "X402_KEY=0x"+fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 4))))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node payer: %v\n%s", err, out)
		}
		var res struct {
			Status  int                 `json:"status"`
			Receipt x402.SettleResponse `json:"receipt"`
		}
		if err := json.Unmarshal(out, &res); err != nil || res.Status != 200 || !res.Receipt.Success {
			t.Fatalf("%s %v", out, err)
		}
	})
	t.Run("facilitator routes", func(t *testing.T) {
		resp, err := http.Get(e.fac + "/health")
		if err != nil {
			t.Fatal(err)
		}
		var h x402.Health
		json.NewDecoder(resp.Body).Decode(&h)
		resp.Body.Close()
		if resp.StatusCode != 200 || h.Status != "ok" || h.Network != "eip155:31337" {
			t.Fatalf("%d %+v", resp.StatusCode, h)
		}
	})
	t.Run("paymaster with the devnet key", func(t *testing.T) {
		pm := &paymaster.Client{URL: fmt.Sprintf("http://127.0.0.1:%d", ports["paymaster"]), APIKey: DevPaymasterKey}
		eps, err := pm.EntryPoints(context.Background())
		// The devnet's paymaster serves EntryPoint v0.6 and v0.7.
		if err != nil || len(eps) != 3 || eps[0] != common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3") || eps[1] != wellknown.EntryPointV07 || eps[2] != wellknown.EntryPointV08 { // every devnet version
			t.Fatalf("%v %v", eps, err)
		}
		bad := &paymaster.Client{URL: pm.URL, APIKey: "pmk_wrong"}
		_, err = bad.EntryPoints(context.Background())
		var rerr *paymaster.Error
		if !errors.As(err, &rerr) || rerr.Code != -32501 {
			t.Fatalf("wrong key: %v", err)
		}
		resp, err := http.Get(pm.URL + "/health")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("health: %v", err)
		}
		resp.Body.Close()
		// gas_token: dUSD at 3,000 per ETH plus 2.5%, through the
		// predeployed TokenPaymaster.
		st, err := pm.SupportedTokens(context.Background(), x402.UserOperation{}, eps[0])
		if err != nil || len(st.Tokens) != 1 {
			t.Fatalf("supported tokens: %+v %v", st, err)
		}
		if got := st.Tokens[0]; got.Symbol != "dUSD" || got.Price != "3075.000000" || got.MarkupBps != 250 ||
			!slices.Equal(got.Types, []int{1, 2}) || got.Paymaster != wellknown.GenesisContracts().TokenPaymaster.Hex() ||
			got.PaymasterV07 != wellknown.GenesisContracts().TokenPaymasterV07.Hex() {
			t.Fatalf("dUSD for gas: %+v", got)
		}
	})
	t.Run("api v1", func(t *testing.T) {
		to := common.HexToAddress("0x2222222222222222222222222222222222222222")
		post := func(body string, key string) *http.Response {
			req, _ := http.NewRequest(http.MethodPost, e.fac+"/api/v1/transactions", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if key != "" {
				req.Header.Set("X-API-Key", key)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			return resp
		}
		// The wallet routes need a key; on the devnet the demo's works.
		if resp := post(`{"name":"e2e","data":{"to":"`+to.Hex()+`","value":"0.05"}}`, ""); resp.StatusCode != 401 {
			t.Fatalf("without a key: %d", resp.StatusCode)
		}
		resp := post(`{"name":"e2e","data":{"to":"`+to.Hex()+`","value":"0.05"}}`, DevTxAPIKey)
		var rec struct {
			ID, TxHash, Status string
		}
		json.NewDecoder(resp.Body).Decode(&rec)
		resp.Body.Close()
		if resp.StatusCode != 201 || rec.ID == "" {
			t.Fatalf("%d %+v", resp.StatusCode, rec)
		}
		if r, err := waitReceipt(eth, rec.TxHash); err != nil || r.Status != 1 {
			t.Fatalf("receipt %v %v", r, err)
		}
		if bal, _ := eth.BalanceAt(context.Background(), to, nil); bal.Cmp(big.NewInt(5e16)) != 0 {
			t.Fatalf("recipient balance %s", bal)
		}
		resp = post(`{"name":"e2e","data":{"to":"`+to.Hex()+`","value":"0.1000001"}}`, DevTxAPIKey)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(body), "value_too_large") {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
	})
	t.Run("aa-native", func(t *testing.T) { e.aaNative(t) })
	t.Run("metrics", func(t *testing.T) {
		dusd := e.token.Hex()
		wants := []struct {
			labels map[string]string
			min    float64
		}{
			// Paid with the Go client, the remote facilitator, the stream, the replay's first use, @x402/fetch.
			{map[string]string{"result": "settled", "scheme": "exact", "asset": dusd, "network": "eip155:31337", "host": "127.0.0.1"}, 4},
			{map[string]string{"result": "settled", "scheme": "aa-native", "asset": dusd, "network": "eip155:31337"}, 1},
			// The challenges fetched to sign payments, and the browser's.
			{map[string]string{"result": "unpaid", "scheme": "", "asset": "", "host": "127.0.0.1"}, 5},
			// The replay, and the tampered amount (refused before verification).
			{map[string]string{"result": "invalid", "scheme": "exact", "asset": dusd}, 2},
			// The garbage and oversized headers: no offer to name.
			{map[string]string{"result": "invalid", "scheme": "", "asset": ""}, 2},
			// The upstream's 500: verified, not charged.
			{map[string]string{"result": "upstream_error", "scheme": "exact", "asset": dusd}, 1},
		}
		// A request is counted when its handler returns, which may be just
		// after its client has read the response.
		m := e.metrics()
		short := func() (missing []string) {
			for _, want := range wants {
				if got := m.sum("caddy_x402_payments_total", want.labels); got < want.min {
					missing = append(missing, fmt.Sprintf("caddy_x402_payments_total%v = %v, want at least %v", want.labels, got, want.min))
				}
			}
			return missing
		}
		for deadline := time.Now().Add(10 * time.Second); len(short()) > 0 && time.Now().Before(deadline); m = e.metrics() {
			time.Sleep(20 * time.Millisecond) // polling for the last handlers to count
		}
		for _, miss := range short() {
			t.Error(miss)
		}
		for _, name := range []string{"caddy_x402_settle_duration_seconds_count", "caddy_x402_verify_duration_seconds_count", "caddy_x402_payments_in_flight"} {
			if len(m.series(name, nil)) == 0 {
				t.Errorf("metrics lack %s", name)
			}
		}
		// No reorganisation happened: each outcome is there, at zero.
		for _, outcome := range []string{"moved", "dropped", "reverted"} {
			if got := m.series("caddy_x402_settlement_reorgs_total", map[string]string{"network": "eip155:31337", "outcome": outcome}); len(got) != 1 || got[0].value != 0 {
				t.Errorf("caddy_x402_settlement_reorgs_total{outcome=%q} = %v, want one series at 0", outcome, got)
			}
		}
		for _, s := range m.series("caddy_x402_payments_total", nil) {
			if s.labels["server"] == "" || (s.labels["host"] != "127.0.0.1" && s.labels["host"] != "_other") || s.labels["payer"] != "" {
				t.Errorf("labels %v", s.labels)
			}
		}
	})
	t.Run("reload keeps the chain and the facilitator", func(t *testing.T) {
		before := e.balance(merchant)
		settled := map[string]string{"result": "settled", "scheme": "exact", "host": "127.0.0.1"}
		settledBefore := e.metrics().sum("caddy_x402_payments_total", settled)
		holds, _ := pool.References(metricsKey)
		// The same config plus a route: the x402 app's pooled devnet and
		// facilitator must carry over, not restart (a restart would reset
		// the chain, or fail on the busy RPC port).
		reloaded, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(strings.Replace(cf, `respond /free "free content"`, `respond /free "free content"
	respond /reloaded "yes"`, 1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := caddy.Load(reloaded, true); err != nil {
			t.Fatalf("reload: %v", err)
		}
		c := &http.Client{Transport: &client.Transport{Base: redial{http.DefaultTransport}, Key: payer1, MaxAmount: big.NewInt(10_000)}}
		resp, err := c.Get(e.api + "/paid/report")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
			t.Fatalf("paid after reload: %d %+v", resp.StatusCode, pr)
		}
		if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 10_000 {
			t.Fatalf("merchant got %s after the reload (chain reset?)", got)
		}
		// The counters carry on, and the reload left no second set of
		// collectors behind.
		// Counted when the handler returns, which may be just after the
		// client has read the response (flushed before it is recorded as
		// served).
		deadline := time.Now().Add(10 * time.Second)
		got := e.metrics().sum("caddy_x402_payments_total", settled)
		for got != settledBefore+1 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond) // polling for the handler to count
			got = e.metrics().sum("caddy_x402_payments_total", settled)
		}
		if got != settledBefore+1 {
			t.Fatalf("settled payments after the reload: %v, want %v", got, settledBefore+1)
		}
		if after, _ := pool.References(metricsKey); after != holds {
			t.Fatalf("holds on the metrics: %d before the reload, %d after", holds, after)
		}
	})
	t.Run("settlements are logged, one line a payment", func(t *testing.T) {
		raw, err := os.ReadFile(payLog)
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			var entry struct {
				Logger, Msg, Scheme, Tx, Payer, Amount, Asset, Network, Host, URI string
				Success                                                           bool
			}
			if err := json.Unmarshal([]byte(line), &entry); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			if entry.Logger != "http.handlers.x402" {
				t.Fatalf("the payments log has another logger's line: %s", line)
			}
			if entry.Msg == "x402 settlement" && entry.URI == "/paid/whoami" {
				found = true
				if !entry.Success || entry.Payer != payer1Addr.Hex() || entry.Amount != "10000" || entry.Asset != e.token.Hex() ||
					entry.Network != "eip155:31337" || entry.Scheme != "exact" || !strings.HasPrefix(entry.Tx, "0x") || entry.Host != strings.TrimPrefix(e.api, "http://") {
					t.Fatalf("settlement line: %s", line)
				}
			}
		}
		if !found {
			t.Fatalf("no settlement of /paid/whoami in:\n%s", raw)
		}
	})
	t.Run("the settler key is not logged", func(t *testing.T) {
		logs, err := os.ReadFile(logFile)
		if err != nil || len(logs) == 0 {
			t.Fatalf("no logs: %v", err)
		}
		// The settlements went to the payments log, which Caddy's default
		// log then leaves out.
		payments, err := os.ReadFile(payLog)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, payments...)
		if strings.Contains(strings.ToLower(string(logs)), secret) {
			t.Fatal("the settler key appears in the logs")
		}
		if !strings.Contains(string(logs), "x402 settlement") {
			t.Fatal("the logs lack the settlements: wrong log file?")
		}
	})
	t.Run("admin API and key command", func(t *testing.T) {
		adminAddr := fmt.Sprintf("127.0.0.1:%d", ports["admin"])
		// The payments of this test are listed, newest first, with their
		// transactions.
		resp, err := http.Get(e.admin + "/x402/payments?state=settled&limit=1000")
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Payments []struct {
				Payer, Transaction, Status, Display string
			}
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || len(page.Payments) == 0 {
			t.Fatalf("payments: %d %v %+v", resp.StatusCode, err, page)
		}
		for _, p := range page.Payments {
			if p.Status != "settled" || p.Display != "0.01 dUSD" {
				t.Fatalf("payment %+v", p)
			}
			if r, err := eth.TransactionReceipt(context.Background(), common.HexToHash(p.Transaction)); err != nil || r.Status != 1 {
				t.Fatalf("the listed transaction %s is not mined: %v", p.Transaction, err)
			}
		}
		// `caddy x402 key` goes through the admin API while Caddy runs:
		// no --store, and the key works at once.
		out, err := runKey(t, "create", "--address", adminAddr, "--project", "demo", "--scopes", "paymaster:read")
		secret := regexp.MustCompile(`(?m)^pmk_[0-9a-f]{64}$`).FindString(out)
		if err != nil || secret == "" || !strings.Contains(out, "through the admin API") {
			t.Fatalf("key create: %v\n%s", err, out)
		}
		// A client of its own: the shared one may hold connections that
		// an earlier subtest's reload closed, and a POST on one is not
		// retried.
		pm := &paymaster.Client{URL: fmt.Sprintf("http://127.0.0.1:%d", ports["paymaster"]), APIKey: secret, HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}
		if _, err := pm.EntryPoints(context.Background()); err != nil {
			t.Fatalf("the new key: %v", err)
		}
		list, err := runKey(t, "list", "--address", adminAddr)
		if err != nil || !strings.Contains(list, secret[:12]) || strings.Contains(list, secret) {
			t.Fatalf("key list: %v\n%s", err, list)
		}
		if out, err := runKey(t, "revoke", "--address", adminAddr, secret[:12]); err != nil {
			t.Fatalf("revoke: %v\n%s", err, out)
		}
		if _, err := pm.EntryPoints(context.Background()); err == nil {
			t.Fatal("the revoked key still works")
		}
		if _, err := runKey(t, "create", "--address", adminAddr, "--project", "nope"); err == nil || !strings.Contains(err.Error(), "unknown project") {
			t.Fatalf("a key for an unknown project: %v", err)
		}
		resp, err = http.Get(e.admin + "/x402/audit")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), `"actor":"cli (127.0.0.1)"`) || !strings.Contains(string(body), "key.disable") || strings.Contains(string(body), secret) {
			t.Fatalf("audit log:\n%s", body)
		}
	})
	t.Run("the settler key is not in the admin API", func(t *testing.T) {
		resp, err := http.Get(e.admin + "/config/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(strings.ToLower(string(body)), secret) || !strings.Contains(string(body), "{env.X402_E2E_SETTLER_KEY}") {
			t.Fatalf("GET /config/ shows the key or lacks the placeholder:\n%s", body)
		}
	})
}

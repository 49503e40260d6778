package caddymodule

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

const uptoStreamCaddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		asset dusd
		asset {{dpt}} "Devnet Permit Token" 1 6 permit2
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /v1/chat/* {
		x402 0.05 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto per_byte 0.000001
		}
		reverse_proxy {{upstream}} {
			flush_interval -1
		}
	}
	handle /cap/bytes/* {
		x402 0.01 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto per_byte 0.000001
		}
		reverse_proxy {{upstream}} {
			flush_interval -1
		}
	}
	handle /cap/seconds/* {
		x402 0.002 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto per_second 0.001
		}
		reverse_proxy {{upstream}} {
			flush_interval -1
		}
	}
	handle /cap/deadline/* {
		x402 0.05 {
			pay_to {{merchant}}
			asset {{dpt}}
			max_timeout 18s
			upto per_second 0.001
		}
		reverse_proxy {{upstream}} {
			flush_interval -1
		}
	}
	handle /cap/units/* {
		x402 0.01 {
			pay_to {{merchant}}
			asset {{dpt}}
			upto usage_header X-Units 0.001
		}
		reverse_proxy {{upstream}} {
			flush_interval -1
		}
	}
}
`

// sseEvent is one server-sent event of the test's model, 64 bytes.
var sseEvent = "data: " + strings.Repeat("t", 56) + "\n\n"

// TestUptoStreamThroughCaddy: the Go payer pays, in upto, an LLM-style
// stream of server-sent events through reverse_proxy with flush_interval
// -1, per byte, on the devnet. Read to its end, the stream is charged its
// bytes, once, and its PAYMENT-RESPONSE comes as a trailer. A stream the
// client cuts short (it reads three events and hangs up while the model
// would go on) is charged the bytes that reached the connection, once,
// and the payer is never charged the maximum.
func TestUptoStreamThroughCaddy(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		switch {
		case strings.HasPrefix(r.URL.Path, "/cap/bytes/"):
			// 100,000 bytes where the maximum buys 10,000.
			for range 100_000 / len(sseEvent) {
				fmt.Fprint(w, sseEvent)
				http.NewResponseController(w).Flush()
			}
			return
		case strings.HasPrefix(r.URL.Path, "/cap/seconds/"), strings.HasPrefix(r.URL.Path, "/cap/deadline/"):
			// An event every 100 ms for as long as the client reads (at
			// most 2 minutes); the maximum buys 2 seconds.
			for range 1200 {
				fmt.Fprint(w, sseEvent)
				http.NewResponseController(w).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
			}
			return
		case strings.HasPrefix(r.URL.Path, "/cap/units/"):
			// It reports 25 units where the maximum buys 10, and says what
			// it was told.
			w.Header().Set("X-Units", "25")
			fmt.Fprintf(w, "data: budget %s\n\n", r.Header.Get(paywall.BudgetHeader))
			return
		}
		events := 8
		if strings.HasSuffix(r.URL.Path, "/endless") {
			events = 3
		}
		for range events {
			fmt.Fprint(w, sseEvent)
			http.NewResponseController(w).Flush()
		}
		if strings.HasSuffix(r.URL.Path, "/endless") {
			<-r.Context().Done() // the model would go on until the client leaves
		}
	}))
	defer upstream.Close()

	ports := map[string]int{"chain": freePort(t), "site": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 7).PublicKey)
	payer := mustKey(t, 8)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)
	dpt := wellknown.GenesisContracts().PermitToken
	cf := uptoStreamCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{dpt}}", dpt.Hex(), "{{upstream}}", strings.TrimPrefix(upstream.URL, "http://")).Replace(cf)
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
	e := &e2e{t: t, eth: eth, api: fmt.Sprintf("http://127.0.0.1:%d", ports["site"]), token: dpt}
	hc := &http.Client{Transport: &client.Transport{Key: payer, MaxAmount: big.NewInt(100_000), RPC: rpcURL,
		Schemes: []string{x402.SchemeUpto}, Base: &http.Transport{DisableKeepAlives: true}}}

	t.Run("read to its end", func(t *testing.T) {
		before := e.balance(payerAddr)
		resp, err := hc.Get(e.api + "/v1/chat/completions")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || len(body) != 8*len(sseEvent) {
			t.Fatalf("%d, %d bytes, %v", resp.StatusCode, len(body), err)
		}
		res, ok, err := client.Receipt(resp)
		if !ok || err != nil || !res.Success || res.Amount != fmt.Sprint(len(body)) {
			t.Fatalf("PAYMENT-RESPONSE trailer: %+v %v %v", res, ok, err)
		}
		if paid := new(big.Int).Sub(before, e.balance(payerAddr)); paid.Int64() != int64(len(body)) {
			t.Errorf("the payer paid %s for %d bytes", paid, len(body))
		}
	})

	// upto never delivers more than the signed maximum buys (issue 40,
	// item 2: a 100,000-byte response was served in full for a 10,000-unit
	// maximum).
	t.Run("cut at the maximum, per byte", func(t *testing.T) {
		before := e.balance(payerAddr)
		resp, err := hc.Get(e.api + "/cap/bytes/x")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		// Streamed, the cut is said in a trailer; held whole (the proxy
		// read the first 10,000 bytes in one piece before any flush), in a
		// header.
		if err != nil || resp.StatusCode != http.StatusOK || len(body) != 10_000 || cutSaid(resp) != "exhausted" {
			t.Fatalf("%d, %d bytes, %v, trailer %v; want the 10000 bytes the maximum buys, ended cleanly, and the cut said", resp.StatusCode, len(body), err, resp.Trailer)
		}
		res, ok, err := client.Receipt(resp)
		if !ok || err != nil || !res.Success || res.Amount != "10000" {
			t.Fatalf("PAYMENT-RESPONSE trailer: %+v %v %v", res, ok, err)
		}
		if paid := new(big.Int).Sub(before, e.balance(payerAddr)); paid.Int64() != 10_000 {
			t.Errorf("the payer paid %s for the 10000 bytes its maximum buys", paid)
		}
	})
	t.Run("cut at the maximum, per second", func(t *testing.T) {
		before := e.balance(payerAddr)
		began := time.Now()
		resp, err := hc.Get(e.api + "/cap/seconds/x")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body) // ends when the 2 seconds are used, not after 2 minutes
		resp.Body.Close()
		took := time.Since(began)
		if err != nil || resp.StatusCode != http.StatusOK || len(body) == 0 || cutSaid(resp) != "exhausted" || took > time.Minute {
			t.Fatalf("%d, %d bytes in %s, %v, trailer %v; want the stream ended cleanly at its 2 seconds", resp.StatusCode, len(body), took, err, resp.Trailer)
		}
		res, ok, err := client.Receipt(resp)
		if !ok || err != nil || !res.Success || res.Amount != "2000" {
			t.Fatalf("PAYMENT-RESPONSE trailer: %+v %v %v", res, ok, err)
		}
		if paid := new(big.Int).Sub(before, e.balance(payerAddr)); paid.Int64() != 2_000 {
			t.Errorf("the payer paid %s for the 2 seconds its maximum buys", paid)
		}
	})
	// A stream still going near its payment's Permit2 deadline is cut,
	// so that its settlement can be mined before it: served past it, it
	// could never be settled (the payer signs an 18 s deadline, the route's
	// max_timeout; the cut comes 15 s before it, well within the 50
	// seconds the maximum buys).
	t.Run("cut before the deadline", func(t *testing.T) {
		before := e.balance(payerAddr)
		began := time.Now()
		resp, err := hc.Get(e.api + "/cap/deadline/x")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		took := time.Since(began)
		if err != nil || resp.StatusCode != http.StatusOK || len(body) == 0 || cutSaid(resp) != "deadline" || took > time.Minute {
			t.Fatalf("%d, %d bytes in %s, %v, cut %q; want the stream ended before the deadline", resp.StatusCode, len(body), took, err, cutSaid(resp))
		}
		res, ok, err := client.Receipt(resp)
		if !ok || err != nil || !res.Success {
			t.Fatalf("PAYMENT-RESPONSE trailer: %+v %v %v", res, ok, err)
		}
		if paid := new(big.Int).Sub(before, e.balance(payerAddr)); paid.String() != res.Amount || paid.Int64() > 10_000 {
			t.Errorf("the payer paid %s, settled %s, for a stream cut within 3 s of seconds at 0.001", paid, res.Amount)
		}
	})
	t.Run("usage above the maximum", func(t *testing.T) {
		before := e.balance(payerAddr)
		overBefore := overageUnits(t)
		resp, err := hc.Get(e.api + "/cap/units/x")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != "data: budget 10\n\n" {
			t.Fatalf("%d %q; want the upstream told its budget of 10 units", resp.StatusCode, body)
		}
		if paid := new(big.Int).Sub(before, e.balance(payerAddr)); paid.Int64() != 10_000 {
			t.Errorf("the payer paid %s for 25 units reported where its maximum buys 10", paid)
		}
		var over float64
		for deadline := time.Now().Add(30 * time.Second); over == 0 && time.Now().Before(deadline); {
			if over = overageUnits(t) - overBefore; over == 0 {
				time.Sleep(50 * time.Millisecond) // waiting for the settle hook, which runs after the response
			}
		}
		if over != 15 {
			t.Errorf("caddy_x402_upto_overage_units_total = %v, want 15", over)
		}
	})

	t.Run("cut short", func(t *testing.T) {
		before := e.balance(payerAddr)
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.api+"/v1/chat/endless", nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rd := bufio.NewReader(resp.Body)
		for range 3 * 2 { // an event is a data line and a blank line
			if _, err := rd.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
		cancel() // the client hangs up mid-stream
		resp.Body.Close()
		want := int64(3 * len(sseEvent))
		var paid *big.Int
		for range 300 {
			if paid = new(big.Int).Sub(before, e.balance(payerAddr)); paid.Sign() != 0 {
				break
			}
			time.Sleep(100 * time.Millisecond) // waiting for the settlement, not timing it
		}
		if paid.Int64() != want {
			t.Errorf("the payer paid %s for a stream cut after %d bytes", paid, want)
		}
	})
}

// overageUnits is the sum of caddy_x402_upto_overage_units_total.
func overageUnits(t *testing.T) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(pooledMetrics(t).overage)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, f := range families {
		for _, series := range f.GetMetric() {
			sum += series.GetCounter().GetValue()
		}
	}
	return sum
}

// cutSaid is what an upto response says of its cut at the maximum: its
// trailer, once the body is read, or its header, for a response held whole.
func cutSaid(resp *http.Response) string {
	if v := resp.Trailer.Get(paywall.BudgetTrailer); v != "" {
		return v
	}
	return resp.Header.Get(paywall.BudgetTrailer)
}

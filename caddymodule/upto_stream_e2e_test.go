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

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
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

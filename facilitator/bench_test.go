package facilitator

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// BenchmarkHTTPVerify measures POST /verify end to end on the devnet: HTTP,
// decoding, signature recovery and the chain reads. It cycles through
// distinct payments, signed up front by eight payers, so that each
// verification reads its own payer's balance and nonce, from 32 clients at
// once; every answer must be valid.
func BenchmarkHTTPVerify(b *testing.B) {
	e := newEnvB(b, envOptions{})
	merchant := e.chain.Accounts[9].Address
	bodies := make([][]byte, 2000)
	for i := range bodies {
		bodies[i], _ = json.Marshal(e.pay(e.chain.Accounts[1+i%8], merchant, 1_000))
	}
	// One client: the anonymous /verify budget is off, as in
	// bench/verify.sh's Caddyfile.
	srv := httptest.NewServer(&Handler{Facilitator: e.svc, Network: e.network, Offers: e.offers, VerifiesPerMinute: -1, AnonymousVerifiesPerSecond: -1})
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var next, valid atomic.Int64
	b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0))) // 32 clients, as bench/verify.sh's wrk
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body := bodies[next.Add(1)%int64(len(bodies))]
			resp, err := client.Post(srv.URL+"/verify", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			var res x402.VerifyResponse
			json.NewDecoder(resp.Body).Decode(&res)
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if !res.IsValid {
				b.Errorf("invalid: %+v", res)
				return
			}
			valid.Add(1)
		}
	})
	b.ReportMetric(float64(valid.Load())/float64(b.N), "valid/op")
}

// BenchmarkSettle200 settles 200 distinct payments at once on a devnet that
// seals a block every second, and reports how many blocks they span and how
// long the batch took. The target is at most 2 blocks. It settles in
// process, as Caddy's paywall does: over HTTP the env's API key would
// reach its settles-per-minute limit.
func BenchmarkSettle200(b *testing.B) {
	e := newEnvB(b, envOptions{blockPeriod: time.Second, receiptTimeout: time.Minute})
	merchant := e.chain.Accounts[9].Address
	for b.Loop() {
		b.StopTimer()
		reqs := make([]*x402.VerifyRequest, 200)
		for i := range reqs {
			reqs[i] = e.pay(e.chain.Accounts[1+i%8], merchant, 100)
		}
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		results := make([]*x402.SettleResponse, len(reqs))
		for i, r := range reqs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], _ = e.svc.Settle(context.Background(), r)
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		b.StopTimer()
		lo, hi := uint64(1<<63), uint64(0)
		for i, r := range results {
			if r == nil || !r.Success {
				b.Fatalf("payment %d: %+v", i, r)
			}
			receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(r.TransactionHash))
			if err != nil {
				b.Fatal(err)
			}
			lo, hi = min(lo, receipt.BlockNumber.Uint64()), max(hi, receipt.BlockNumber.Uint64())
		}
		b.ReportMetric(float64(hi-lo+1), "blocks")
		b.ReportMetric(elapsed.Seconds(), "s/200-settles")
		b.StartTimer()
	}
}

package paymaster

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// countingChain is the paymaster's chain with a count of the JSON-RPC calls
// it makes, by method.
type countingChain struct {
	Chain
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingChain) CallContext(ctx context.Context, result any, method string, args ...any) error {
	c.mu.Lock()
	if c.calls == nil {
		c.calls = map[string]int{}
	}
	c.calls[method]++
	c.mu.Unlock()
	return c.Chain.CallContext(ctx, result, method, args...)
}

// total is how many calls reached the chain, and by method.
func (c *countingChain) total() (int, map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, by := 0, map[string]int{}
	for m, k := range c.calls {
		n += k
		by[m] = k
	}
	return n, by
}

// newClock is a test clock at the time now.
func newClock() *clock { return &clock{t: time.Now()} }

// countChain restarts the env's service on a chain that counts its calls,
// with the test's clock.
func (e *env) countChain(clk *clock, change func(*Config)) *countingChain {
	e.t.Helper()
	counted := &countingChain{Chain: e.rpc}
	e.restart(func(c *Config) {
		c.Chain, c.Now = counted, clk.Now
		if change != nil {
			change(c)
		}
	})
	return counted
}

// batchOf is a JSON-RPC batch of n calls of method with params.
func batchOf(n int, method string, params ...any) []byte {
	calls := make([]map[string]any, n)
	for i := range calls {
		calls[i] = map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": method, "params": params}
	}
	body, _ := json.Marshal(calls)
	return body
}

// postBatch posts a batch and decodes its answer: a list, or one error
// object for a batch refused whole.
func (e *env) postBatch(key string, body []byte) ([]rpcResponse, *rpcResponse, *http.Response) {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.srv.URL, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		e.t.Fatalf("%d answer is not JSON: %v", resp.StatusCode, err)
	}
	if raw[0] == '{' {
		var one rpcResponse
		json.Unmarshal(raw, &one)
		return nil, &one, resp
	}
	var list []rpcResponse
	if err := json.Unmarshal(raw, &list); err != nil {
		e.t.Fatal(err)
	}
	return list, nil, resp
}

// A batch over the cap is refused whole with -32602 before any chain read;
// one within it reads the latest block once for all its calls. The cap is
// configurable and changes at run time. (Before: a batch of any length ran,
// reading the block once per call.)
func TestBatchCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clk := newClock()
	counted := e.countChain(clk, nil)
	ep := e.chain.Contracts.EntryPoint.Hex()
	op := unsigned(e.newAccount(), 0, false, nil)
	for _, tc := range []struct {
		name     string
		maxBatch int // 0 leaves it as it is
		n        int
		refused  bool
	}{
		{"over the default cap", 0, DefaultMaxBatch + 1, true},
		{"far over the cap", 0, 3000, true},
		{"at the default cap", 0, DefaultMaxBatch, false},
		{"a lowered cap", 3, 4, true},
		{"at the lowered cap", 3, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.maxBatch > 0 {
				e.svc.SetMaxBatch(tc.maxBatch)
			}
			body := batchOf(tc.n, "pm_supported_tokens", op, ep)
			if tc.n > 100 { // the 3,000 calls in 236 KB: bare calls
				body = batchOf(tc.n, "pm_supported_tokens")
			}
			before, _ := counted.total()
			list, one, resp := e.postBatch(e.readOnly, body)
			after, by := counted.total()
			if tc.refused {
				if one == nil || one.Error == nil || one.Error.Code != codeInvalidParams || !strings.Contains(one.Error.Message, "batch") || string(one.ID) != "null" || resp.StatusCode != http.StatusOK {
					t.Fatalf("batch of %d: %d %+v and %d answers, want one -32602 error", tc.n, resp.StatusCode, one, len(list))
				}
				if after != before {
					t.Fatalf("a refused batch read the chain %d times", after-before)
				}
				return
			}
			if len(list) != tc.n {
				t.Fatalf("batch of %d: %d answers (%+v)", tc.n, len(list), one)
			}
			var fee string
			for i, r := range list {
				var st SupportedTokens
				if r.Error != nil || json.Unmarshal(r.Result, &st) != nil || st.Native.MaxFeePerGas == nil {
					t.Fatalf("call %d: %+v", i, r)
				}
				if i > 0 && st.Native.MaxFeePerGas.String() != fee {
					t.Fatalf("call %d saw another block: %s, then %s", i, fee, st.Native.MaxFeePerGas)
				}
				fee = st.Native.MaxFeePerGas.String()
			}
			if after-before != 1 {
				t.Fatalf("a batch of %d read the chain %d times (%v), want once", tc.n, after-before, by)
			}
		})
	}
}

// An API key's calls are counted before any chain read, whatever they
// answer: a key whose sponsorships are all refused (random undeployed
// senders, each a new identity for the per-sender limit) is held to its
// rate, its calls over the rate read nothing, batches count each call,
// another key keeps its own rate, the count survives a restart, and the
// rate refills with time. (Before: tx_per_minute counted only
// reservations, so refused calls counted against nothing.)
func TestCallRateCountsRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Project{Name: "demo", Balance: ether(10), CallsPerMinute: 5})
	clk := newClock()
	counted := e.countChain(clk, nil)
	ep := e.chain.Contracts.EntryPoint.Hex()
	randomOp := func() x402.UserOperation {
		return unsigned(e.newAccount(), 0, false, e.settleCall(e.chain.Token.Address, 1))
	}
	for i := range 5 {
		before, _ := counted.total()
		res, resp := e.call(e.sponsor, "pm_sponsor_userop", randomOp(), ep, map[string]any{"type": 0})
		after, _ := counted.total()
		if res.Error == nil || res.Error.Code == codeThrottled || resp.StatusCode != http.StatusOK {
			t.Fatalf("call %d: %d %+v, want a refusal of the operation", i, resp.StatusCode, res.Error)
		}
		if after == before {
			t.Fatalf("call %d was refused without reading the chain: the test proves nothing", i)
		}
	}
	before, _ := counted.total()
	res, resp := e.call(e.sponsor, "pm_sponsor_userop", randomOp(), ep, map[string]any{"type": 0})
	if res.Error == nil || res.Error.Code != codeThrottled || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("the sixth call: %d %+v, want -32504 with 429 and Retry-After", resp.StatusCode, res.Error)
	}
	// A batch of the same key: every call refused, none read.
	list, one, _ := e.postBatch(e.sponsor, batchOf(3, "pm_supported_tokens", randomOp(), ep))
	if one != nil || len(list) != 3 {
		t.Fatalf("batch: %+v %+v", one, list)
	}
	for i, r := range list {
		if r.Error == nil || r.Error.Code != codeThrottled {
			t.Fatalf("batch call %d: %+v, want -32504", i, r)
		}
	}
	if after, by := counted.total(); after != before {
		t.Fatalf("calls over the rate read the chain %d times (%v)", after-before, by)
	}
	// Another key of the project has its own rate.
	if res, _ := e.call(e.readOnly, "pm_supported_tokens", randomOp(), ep); res.Error != nil {
		t.Fatalf("another key: %+v", res.Error)
	}
	// The count is in the ledger: a restart keeps it.
	counted = e.countChain(clk, nil)
	if res, _ := e.call(e.sponsor, "pm_entrypoints"); res.Error == nil || res.Error.Code != codeThrottled {
		t.Fatalf("after a restart: %+v, want -32504", res.Error)
	}
	if n, by := counted.total(); n != 0 {
		t.Fatalf("after a restart, a call over the rate read the chain: %v", by)
	}
	// A fifth of a minute later (5 a minute), one more call is admitted.
	clk.Add(12 * time.Second)
	if res, _ := e.call(e.sponsor, "pm_entrypoints"); res.Error != nil {
		t.Fatalf("after 12 s: %+v", res.Error)
	}
	if res, _ := e.call(e.sponsor, "pm_entrypoints"); res.Error == nil || res.Error.Code != codeThrottled {
		t.Fatalf("the next: %+v, want -32504", res.Error)
	}
}

// Batches in parallel from one key are admitted, all together, up to its
// rate and no further: the count is one atomic ledger update per request.
// (Before: eight parallel batches were never refused.)
func TestCallRateParallelBatches(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Project{Name: "demo", Balance: ether(10), CallsPerMinute: 25})
	clk := newClock()
	counted := e.countChain(clk, nil)
	ep := e.chain.Contracts.EntryPoint.Hex()
	op := unsigned(e.newAccount(), 0, false, nil)
	var (
		wg                 sync.WaitGroup
		mu                 sync.Mutex
		served, throttled  int
		unexpected         []string
		batches, batchSize = 8, DefaultMaxBatch
	)
	for range batches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			list, one, _ := e.postBatch(e.sponsor, batchOf(batchSize, "pm_supported_tokens", op, ep))
			mu.Lock()
			defer mu.Unlock()
			if one != nil {
				unexpected = append(unexpected, fmt.Sprintf("%+v", one.Error))
			}
			for _, r := range list {
				switch {
				case r.Error == nil:
					served++
				case r.Error.Code == codeThrottled:
					throttled++
				default:
					unexpected = append(unexpected, fmt.Sprintf("%+v", r.Error))
				}
			}
		}()
	}
	wg.Wait()
	if len(unexpected) > 0 || served != 25 || throttled != batches*batchSize-25 {
		t.Fatalf("%d served, %d throttled, unexpected %v; want 25 served of %d", served, throttled, unexpected, batches*batchSize)
	}
	// Each batch with a call admitted read the block once: three batches
	// of ten hold the 25 (10, 10 and 5, as the ledger counts them one
	// request at a time).
	if n, by := counted.total(); n != 3 || by["eth_getBlockByNumber"] != 3 {
		t.Fatalf("chain reads %v, want 3 block reads", by)
	}
}

// takeCalls admits a burst of the rate, then one call per minute/rate,
// and tells how long to wait; its record stays one instant.
func TestTakeCalls(t *testing.T) {
	t.Parallel()
	s := &Service{ledger: &memLedger{}}
	at := time.Unix(1_700_000_000, 0)
	for _, tc := range []struct {
		after     time.Duration // since the previous step
		n, admit  int
		wantWait  bool
		recordMax int // bytes
	}{
		{0, 4, 4, false, 64},
		{0, 8, 6, true, 64}, // a burst of 10
		{0, 1, 0, true, 64},
		{5 * time.Second, 2, 0, true, 64},
		{1 * time.Second, 2, 1, true, 64}, // 6 s: one more
		{time.Hour, 25, 10, true, 64},     // long idle: a burst of 10 again, not more
	} {
		at = at.Add(tc.after)
		admitted, wait, err := s.takeCalls("k", 10, tc.n, at)
		if err != nil {
			t.Fatal(err)
		}
		if admitted != tc.admit || (wait > 0) != tc.wantWait || wait > time.Minute {
			t.Fatalf("at %v, %d calls: admitted %d (wait %v), want %d", at, tc.n, admitted, wait, tc.admit)
		}
		raw, _ := s.ledger.Get(callRateKey("k"))
		if len(raw) > tc.recordMax {
			t.Fatalf("the record is %d bytes: %s", len(raw), raw)
		}
	}
	// A wait told is a wait that works.
	_, wait, _ := s.takeCalls("k", 10, 1, at)
	if admitted, _, _ := s.takeCalls("k", 10, 1, at.Add(wait)); admitted != 1 {
		t.Fatalf("after the wait of %v, nothing admitted", wait)
	}
}

// Replicas sharing a PostgreSQL store count a key's calls together: thirty
// calls raced across three replicas, all for random undeployed senders
// (every one refused by simulation), get exactly the key's ten a minute
// through to the chain; the other twenty are -32504. It skips without
// X402_TEST_DATABASE_URL.
func TestFleetCallRate(t *testing.T) {
	t.Parallel()
	f := newFleet(t, Project{Name: "demo", Balance: ether(10), CallsPerMinute: 10})
	ops := make([]x402.UserOperation, 30)
	for i := range ops {
		ops[i] = unsigned(f.newAccount(), 0, false, f.settleCall(f.chain.Token.Address, 1))
	}
	granted, refused := f.race(ops)
	throttled, simulated := 0, 0
	for _, e := range refused {
		switch e.Code {
		case codeThrottled:
			throttled++
		case codeSimulation:
			simulated++
		default:
			t.Errorf("refused with %+v", e)
		}
	}
	if len(granted) != 0 || simulated != 10 || throttled != 20 {
		t.Fatalf("%d granted, %d refused by simulation, %d throttled; want 0, 10 and 20", len(granted), simulated, throttled)
	}
}

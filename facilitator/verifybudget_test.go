package facilitator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// countingVerifier counts the verifications that reach the service, each
// a batched read of the chain.
type countingVerifier struct {
	Facilitator
	verifies atomic.Int64
}

func (c *countingVerifier) Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	c.verifies.Add(1)
	return c.Facilitator.Verify(ctx, req)
}

// Anonymous /verify is public but budgeted: per client address (an IPv6
// client by its /64) and for all anonymous callers together. Past the
// budget the answer is a JSON 429 with Retry-After, and the chain is not
// read; a caller with a facilitator API key is never refused, and a client
// that sent a wrong one has no other looked up for a minute (issue 40,
// item 8: /verify as an RPC-quota amplifier, one batched chain read per
// anonymous call with no limit).
func TestVerifyBudget(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	svc := &countingVerifier{Facilitator: e.svc}
	frozen := time.Now()
	h := &Handler{Facilitator: svc, Network: e.network, AuthorizeSettle: testAuthorize,
		VerifiesPerMinute: 6, AnonymousVerifiesPerSecond: 3, // a burst of 1 per client, 3 in all
		ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-Client") },
		// The budget's clock stands still, so that no budget refills while
		// a loaded machine runs the requests.
		Now: func() time.Time { return frozen }}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	body, _ := json.Marshal(e.pay(e.chain.Accounts[1], e.chain.Accounts[2].Address, 1))
	verify := func(client, key string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/verify", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Test-Client", client)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusTooManyRequests {
			var v x402.VerifyResponse
			if resp.Header.Get("Retry-After") == "" || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(got, &v) != nil || v.IsValid {
				t.Fatalf("the 429: %v %s", resp.Header, got)
			}
		}
		return resp.StatusCode
	}
	for _, tc := range []struct {
		name, client, key string
		want              int
	}{
		{"a client's first", "2001:db8:1:1::1", "", http.StatusOK},
		{"the same client again", "2001:db8:1:1::1", "", http.StatusTooManyRequests},
		{"another address of its /64", "2001:db8:1:1::2", "", http.StatusTooManyRequests},
		{"a caller with a key", "2001:db8:1:1::1", testSettleKey, http.StatusOK},
		{"a caller with a wrong key counts as anonymous", "2001:db8:1:1::1", "wrong", http.StatusTooManyRequests},
		{"no other key of its /64 is looked up for a minute", "2001:db8:1:1::3", testSettleKey, http.StatusTooManyRequests},
		{"another /64", "2001:db8:1:2::1", "", http.StatusOK},
		{"a third client", "192.0.2.7", "", http.StatusOK},
		{"a fourth client: the anonymous budget is spent", "192.0.2.8", "", http.StatusTooManyRequests},
	} {
		if got := verify(tc.client, tc.key); got != tc.want {
			t.Fatalf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	if n := svc.verifies.Load(); n != 4 {
		t.Fatalf("%d verifications read the chain, want the 4 answered 200", n)
	}
}

// The clients a budget remembers are bounded whatever the number of
// addresses: idle ones go first.
func TestVerifyBudgetBounded(t *testing.T) {
	t.Parallel()
	h := &Handler{ClientIP: func(r *http.Request) string { return r.Header.Get("X-Test-Client") }, AnonymousVerifiesPerSecond: 1 << 30}
	now := time.Unix(1_800_000_000, 0)
	r := httptest.NewRequest(http.MethodPost, "/verify", nil)
	for i := range maxVerifyClients + 1000 {
		r.Header.Set("X-Test-Client", fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255))
		h.allowVerify(r, now.Add(time.Duration(i)*time.Millisecond))
	}
	if n := len(h.verifies.clients); n > maxVerifyClients {
		t.Fatalf("%d clients remembered, want at most %d", n, maxVerifyClients)
	}
}

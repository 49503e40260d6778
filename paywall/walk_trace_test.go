package paywall_test

import (
	"net/http"
	"os"
	"strconv"
	"testing"

	"github.com/caddy-x402/caddy-x402/x402"
)

// TestWalkTrace pays X402_WALK_PAID times (0 or more) for the env's
// report, after one payment that warms every lazy path. It is the probe
// behind the count of the files a paid request runs (docs/paywall.md, the
// walk of a request): run it under -coverpkg with 0 and with 1, and the
// blocks whose counts differ are those of one paid request (with the
// facilitator's background loops as noise). It skips unless
// X402_WALK_PAID is set.
func TestWalkTrace(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("X402_WALK_PAID"))
	if err != nil {
		t.Skip("X402_WALK_PAID is not set")
	}
	e := newEnv(t)
	srv := e.serve(report, nil)
	for i := 0; i <= n; i++ {
		payer := e.fund(price)
		resp, _ := do(t, srv.URL+"/report", e.paidHeader(payer, e.offer))
		if resp.StatusCode != http.StatusOK || resp.Header.Get(x402.HeaderPaymentResponse) == "" {
			t.Fatalf("paid request %d: %d", i, resp.StatusCode)
		}
	}
}

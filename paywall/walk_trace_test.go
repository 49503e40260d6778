package paywall_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestWalkTrace serves X402_WALK_PAID requests (0 or more) of one kind
// (X402_WALK_KIND: "v2", the default, a v2 exact payment; "v1", the same
// paid with X-PAYMENT; "payid", a v2 payment under a payment identifier;
// "window", a request served from an access window by its cookie), after
// one of that kind that warms every lazy path. It is the probe behind the
// count of the files a paid request runs (docs/paywall.md, the walk of a
// request): run it under -coverpkg with 0 and with 1, and the blocks whose
// counts differ are those of one request (with the facilitator's
// background loops as noise). It skips unless X402_WALK_PAID is set.
func TestWalkTrace(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("X402_WALK_PAID"))
	if err != nil {
		t.Skip("X402_WALK_PAID is not set")
	}
	kind := os.Getenv("X402_WALK_KIND")
	var e *env
	if kind == "v1" {
		e = newEnvOn(t, baseSepolia) // a network x402 v1 names
	} else {
		e = newEnv(t)
	}
	var mutate func(*paywall.Config)
	switch kind {
	case "payid":
		st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "ids.db")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		kv, err := st.Bucket(store.PaymentIDBucket)
		if err != nil {
			t.Fatal(err)
		}
		mutate = func(c *paywall.Config) { c.PaymentIDs = storeIDs{store.NewPaymentIDs(kv, time.Hour)} }
	case "window":
		windows := openWindows(t)
		mutate = func(c *paywall.Config) {
			c.Access = &paywall.Access{Duration: time.Hour, Route: "reports", Windows: windows, Keys: [][]byte{keyA}}
		}
	}
	srv := e.serve(report, mutate)
	url := srv.URL + "/paid/report"
	var cookie string
	one := func(i int) {
		var resp *http.Response
		switch key := e.fund(price); kind {
		case "v1":
			resp, _ = get(t, url, x402.HeaderXPayment, v1Header(t, signV1(t, key, e.offer, nil)))
		case "payid":
			resp, _ = get(t, url, x402.HeaderPaymentSignature, withIdentifier(t, e.paidHeader(key, e.offer), fmt.Sprintf("walk-trace-%08d", i)))
		case "window":
			if cookie == "" {
				resp, _ = get(t, url, x402.HeaderPaymentSignature, e.paidHeader(key, e.offer))
				for _, c := range resp.Cookies() {
					if strings.HasPrefix(c.Name, "x402_access_") {
						cookie = c.Name + "=" + c.Value
					}
				}
			}
			resp, _ = get(t, url, "Cookie", cookie)
		default:
			resp, _ = get(t, url, x402.HeaderPaymentSignature, e.paidHeader(key, e.offer))
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s request %d: %d", kind, i, resp.StatusCode)
		}
	}
	for i := 0; i <= n; i++ {
		one(i)
	}
}

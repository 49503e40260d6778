package paywall_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/paywall"
)

// TestPriceServiceQuote: answers are cached by method, path and the named
// headers, except for a query too large to keep; a failed query gives the
// fallback, or an error wrapping ErrPriceUnavailable without one.
func TestPriceServiceQuote(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		switch {
		case strings.Contains(string(body), `"/fail"`):
			http.Error(w, "no", http.StatusInternalServerError)
		case strings.Contains(string(body), `"/both"`):
			io.WriteString(w, `{"price":"1","amount":"1"}`)
		default:
			io.WriteString(w, `{"price":"0.5","description":"half"}`)
		}
	}))
	t.Cleanup(srv.Close)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	fallback := &paywall.Quote{Price: "9"}
	for _, tc := range []struct {
		name     string
		down     bool // ask a service that is down
		fallback *paywall.Quote
		path     string
		header   string // the value of X-Size, asked twice
		calls    int32
		want     paywall.Quote
		err      error
	}{
		{name: "cached", path: "/a", header: "1", calls: 1, want: paywall.Quote{Price: "0.5", Description: "half"}},
		{name: "too large to cache", path: "/a", header: strings.Repeat("x", 5000), calls: 2, want: paywall.Quote{Price: "0.5", Description: "half"}},
		{name: "failed, with a fallback", fallback: fallback, path: "/fail", calls: 2, want: *fallback},
		{name: "failed, without", path: "/fail", calls: 2, err: paywall.ErrPriceUnavailable},
		{name: "both price and amount", path: "/both", calls: 2, err: paywall.ErrPriceUnavailable},
		{name: "down, with a fallback", down: true, fallback: fallback, path: "/a", want: *fallback},
		{name: "down, without", down: true, path: "/a", err: paywall.ErrPriceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var failed []string
			s := &paywall.PriceService{URL: srv.URL, Headers: []string{"x-size"}, Cache: time.Hour, Timeout: time.Minute, Fallback: tc.fallback,
				Failed: func(r *http.Request, err error) { failed = append(failed, err.Error()) }}
			if tc.down {
				s.URL = down.URL + "/price?key=secret"
			}
			before := calls.Load()
			for range 2 {
				r := httptest.NewRequest("GET", tc.path, nil)
				r.Header.Set("X-Size", tc.header)
				q, err := s.Quote(r)
				if !errors.Is(err, tc.err) || q != tc.want {
					t.Fatalf("quote %+v %v, want %+v %v", q, err, tc.want, tc.err)
				}
			}
			if got := calls.Load() - before; got != tc.calls {
				t.Fatalf("%d queries, want %d", got, tc.calls)
			}
			// Every failed query is reported, fallback or not, without the URL
			// (its path and query may carry a key).
			if wantFailed := tc.down || tc.path == "/fail" || tc.path == "/both"; len(failed) != 2 && wantFailed || len(failed) != 0 && !wantFailed {
				t.Fatalf("reported failures %q", failed)
			}
			for _, f := range failed {
				if strings.Contains(f, "secret") || strings.Contains(f, "/price") {
					t.Fatalf("a failure names the URL: %s", f)
				}
			}
		})
	}
}

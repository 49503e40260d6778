package mcp_test

import (
	"context"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/paywall/mcp"
)

// windows is an in-memory paywall.AccessWindows.
type windows struct {
	mu sync.Mutex
	m  map[string]struct {
		until time.Time
		left  int64 // -1: no limit
	}
}

func (w *windows) Open(_ context.Context, scope, payer string, d time.Duration, budget int64, _ string) (time.Time, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[string]struct {
			until time.Time
			left  int64
		}{}
	}
	left := budget - 1
	if budget == 0 {
		left = -1
	}
	until := time.Now().Add(d)
	w.m[scope+"|"+payer] = struct {
		until time.Time
		left  int64
	}{until, left}
	return until, nil
}

func (w *windows) Live(_ context.Context, scope, payer string) (bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.m[scope+"|"+payer]
	return ok && time.Now().Before(e.until) && e.left != 0, nil
}

func (w *windows) Use(_ context.Context, scope, payer string) (time.Time, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.m[scope+"|"+payer]
	if !ok || !time.Now().Before(e.until) || e.left == 0 {
		return time.Time{}, false, nil
	}
	if e.left > 0 {
		e.left--
	}
	w.m[scope+"|"+payer] = e
	return e.until, true, nil
}

func (w *windows) UseNonce(context.Context, string, time.Time) (bool, error) { return true, nil }

// TestWindows: with windows, a paid call buys its session two calls of
// the tool in all: the next unpaid call of that session is forwarded
// free, the one after it pays again; another session and another tool
// pay; one settlement in all.
func TestWindows(t *testing.T) {
	t.Parallel()
	ws := &windows{}
	s2 := newSetupWindows(t, &mcp.Windows{Store: ws, Duration: time.Hour, Requests: 2})
	a := s2.connect(t, nil)
	b := s2.connect(t, nil)
	if res, err := call(t, a, "search", sdk.Meta{mcp.MetaPayment: payment(offer("10000"), "search")}); err != nil || res.IsError {
		t.Fatalf("paid call: %v %+v", err, res)
	}
	if res, err := call(t, a, "search", nil); err != nil || res.IsError || textOf(res) != "results" {
		t.Fatalf("the window's call: %v %+v", err, res)
	}
	for name, cs := range map[string]*sdk.ClientSession{"a spent window": a, "another session": b} {
		res, err := call(t, cs, "search", nil)
		if err != nil {
			t.Fatal(err)
		}
		if pr := challengeOf(t, res); pr == nil {
			t.Fatalf("%s: not asked to pay", name)
		}
	}
	res, err := call(t, a, "other", nil)
	if err != nil {
		t.Fatal(err)
	}
	challengeOf(t, res)
	if n, m := s2.up.count("search"), s2.fac.settles.Load(); n != 2 || m != 1 {
		t.Fatalf("%d calls ran, %d settled; want 2 and 1", n, m)
	}
}

package paymaster

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// counted serves the paymaster and counts the requests.
func (e *env) counted() (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		e.svc.ServeHTTP(w, r)
	}))
	e.t.Cleanup(srv.Close)
	return srv, &n
}

func TestClientRetryRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Project{Name: "demo", Balance: ether(10), TxPerMinute: 1})
	srv, n := e.counted()
	ctx := context.Background()
	ep := e.chain.Contracts.EntryPoint
	a := e.newAccount()
	op := unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1))

	c := &Client{URL: srv.URL, APIKey: e.sponsor, Backoff: 10 * time.Millisecond, MaxRetries: 2}
	sponsored, err := c.Sponsor(ctx, op, ep, nil)
	if err != nil || sponsored.PaymasterAndData == "0x" {
		t.Fatalf("sponsor: %+v %v", sponsored, err)
	}
	t.Run("-32504 backs off and gives up after MaxRetries", func(t *testing.T) {
		n.Store(0)
		began := time.Now()
		c := &Client{URL: srv.URL, APIKey: e.sponsor, Backoff: 10 * time.Millisecond, MaxRetries: 2, MaxBackoff: 20 * time.Millisecond}
		_, err := c.Sponsor(ctx, op, ep, nil) // the same sender again: 1 per minute
		var rerr *Error
		if !errors.As(err, &rerr) || rerr.Code != -32504 || n.Load() != 3 {
			t.Fatalf("err %v after %d requests, want -32504 after 3", err, n.Load())
		}
		// The server's Retry-After (up to a minute here) is capped by
		// MaxBackoff; the client still waited between attempts.
		if time.Since(began) < 20*time.Millisecond {
			t.Fatal("no backoff between attempts")
		}
	})
	t.Run("-32501 is never retried", func(t *testing.T) {
		n.Store(0)
		c := &Client{URL: srv.URL, APIKey: e.readOnly, Backoff: time.Millisecond}
		_, err := c.Sponsor(ctx, unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), ep, nil)
		var rerr *Error
		if !errors.As(err, &rerr) || rerr.Code != -32501 || n.Load() != 1 {
			t.Fatalf("err %v after %d requests", err, n.Load())
		}
	})
	t.Run("supported tokens are cached", func(t *testing.T) {
		n.Store(0)
		c := &Client{URL: srv.URL, APIKey: e.readOnly}
		for i := 0; i < 3; i++ {
			tok, err := c.SupportedTokens(ctx, op, ep)
			if err != nil || !tok.FreeGas {
				t.Fatalf("%+v %v", tok, err)
			}
		}
		if n.Load() != 1 {
			t.Fatalf("%d requests for 3 calls within a minute", n.Load())
		}
	})
	t.Run("entry points", func(t *testing.T) {
		eps, err := (&Client{URL: srv.URL, APIKey: e.readOnly}).EntryPoints(ctx)
		if err != nil || len(eps) != 1 || eps[0] != ep {
			t.Fatalf("%v %v", eps, err)
		}
	})
}

// -32503 is rebuilt and resent at most 3 times.
func TestClientRebuildsOutOfRange(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32503,"message":"out of time range"}}`))
	}))
	defer srv.Close()
	rebuilt := 0
	c := &Client{URL: srv.URL, APIKey: "k"}
	_, err := c.Sponsor(context.Background(), x402.UserOperation{}, [20]byte{}, func(context.Context) (x402.UserOperation, error) {
		rebuilt++
		return x402.UserOperation{}, nil
	})
	var rerr *Error
	if !errors.As(err, &rerr) || rerr.Code != -32503 || n.Load() != 4 || rebuilt != 3 {
		t.Fatalf("err %v, %d requests, %d rebuilds; want 4 and 3", err, n.Load(), rebuilt)
	}
}

func TestClientTransportError(t *testing.T) {
	t.Parallel()
	_, err := (&Client{URL: "http://127.0.0.1:1", APIKey: "k"}).EntryPoints(context.Background())
	if !errors.Is(err, ErrTransport) {
		t.Fatalf("err = %v", err)
	}
}

package caddymodule

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"
)

type echoService struct{}

func (echoService) Echo(s string) string { return s }

// TestDialChainPoolsConnections: the chain connection keeps its HTTP
// connections alive across concurrent calls, and asks for no compression.
func TestDialChainPoolsConnections(t *testing.T) {
	t.Parallel()
	srv := rpc.NewServer()
	if err := srv.RegisterName("test", echoService{}); err != nil {
		t.Fatal(err)
	}
	var conns atomic.Int32
	var gzip atomic.Bool
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "" {
			gzip.Store(true)
		}
		srv.ServeHTTP(w, r)
	}))
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	ts.Start()
	defer ts.Close()
	c, _, err := dialChain(context.Background(), ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const workers, calls = 32, 50
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range calls {
				var out string
				if err := c.Call(&out, "test_echo", "x"); err != nil || out != "x" {
					t.Errorf("call: %q %v", out, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := conns.Load(); n > 2*workers {
		t.Errorf("%d connections for %d concurrent callers: they are not kept alive", n, workers)
	}
	if gzip.Load() {
		t.Error("the chain client asked for compressed answers")
	}
}

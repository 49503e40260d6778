package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// chainDownAnswer checks that a request to a paid route, whatever state
// its network is in, got a 402 with offers or a JSON 503 with
// Retry-After: never an empty 200, never the upstream's content.
func chainDownAnswer(t *testing.T, state string, resp *http.Response, body string) {
	t.Helper()
	switch resp.StatusCode {
	case http.StatusPaymentRequired:
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil || len(pr.Accepts) == 0 {
			t.Fatalf("%s: 402 without offers: %s (%v)", state, body, err)
		}
	case http.StatusServiceUnavailable:
		if resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: 503 without Retry-After: %s", state, body)
		}
		var out struct {
			Error string `json:"error"`
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || json.Unmarshal([]byte(body), &out) != nil || out.Error == "" {
			t.Fatalf("%s: 503 whose body is not the JSON error: %q %q", state, resp.Header.Get("Content-Type"), body)
		}
	default:
		t.Fatalf("%s: %d %q, want 402 with offers or a JSON 503", state, resp.StatusCode, body)
	}
	if strings.Contains(body, "upstream content") {
		t.Fatalf("%s: the upstream's content was served unpaid", state)
	}
}

// TestPaidRouteWhileChainDown: a paid route whose network's chain does not
// answer at start, with an asset given in full (so checked on the chain at
// first contact), answers 402 or a JSON 503 with Retry-After to an unpaid
// request, as a browser's and a program's, both behind respond and
// reverse_proxy; once the chain comes up the route pays; when it goes down
// again the route answers 402 or 503 again. It answered an empty 200
// (issue 42).
// TestPaidRouteWhileChainDownKnownToken: issue 42's own configuration, a
// token of the table (USDC on eip155:84532) given in full while its chain
// does not answer, answers 402 to an unpaid request.
func TestPaidRouteWhileChainDownKnownToken(t *testing.T) {
	port := freePort(t)
	api := freePort(t)
	t.Setenv("X402_CHAINDOWN_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	dir := filepath.ToSlash(t.TempDir())
	cf := fmt.Sprintf(`{
	log {
		output file %s/caddy.log
		level ERROR
	}
	x402 {
		network eip155:84532
		rpc http://127.0.0.1:%d
		settler_key {env.X402_CHAINDOWN_SETTLER_KEY}
		asset 0x036CbD53842c5426634e7929541eC2318f3dCF7e "USDC" 2 6
		store_path %s/x402.db
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	handle /respond/* {
		x402 {
			pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
			price 0.001
		}
		respond "upstream content"
	}
	respond /free "free"
}
`, dir, port, dir, api)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("Caddy did not start with its chain down: %v", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", api)
	for _, accept := range []string{"", "text/html"} {
		resp, body := httpGet(t, base+"/respond/x", map[string]string{"Accept": accept})
		chainDownAnswer(t, "USDC given in full, its chain down, Accept "+accept, resp, body)
	}
}

// TestUnansweredIsAnswered: the one guard of the bug class of issue 42. A
// paywall that returns without writing and without passing the request
// on gets a JSON 503 with Retry-After, not Caddy's empty 200; a request
// passed on to the protected handler keeps that handler's answer.
func TestUnansweredIsAnswered(t *testing.T) {
	t.Parallel()
	h := &Handler{log: zap.NewNop(), metrics: newMetrics()}
	// Only a window's use passes an unpaid request on: on a route with
	// access windows, the request carries its observation for it.
	windowed := &Handler{log: zap.NewNop(), metrics: newMetrics(), Access: &AccessConfig{}}
	passOn := func(_ http.ResponseWriter, r *http.Request) error { observationOf(r).upstream = true; return nil }
	for _, tc := range []struct {
		name    string
		payment string
		serve   func(w http.ResponseWriter, r *http.Request) error
		status  int
		h       *Handler
	}{
		{"unpaid, nothing written", "", func(http.ResponseWriter, *http.Request) error { return nil }, http.StatusServiceUnavailable, nil},
		{"paid, nothing written", "eyJ4NDAyVmVyc2lvbiI6Mn0=", func(http.ResponseWriter, *http.Request) error { return nil }, http.StatusServiceUnavailable, nil},
		{"written", "", func(w http.ResponseWriter, _ *http.Request) error {
			w.WriteHeader(http.StatusPaymentRequired)
			return nil
		}, http.StatusPaymentRequired, nil},
		{"paid, passed on, and the upstream wrote nothing", "eyJ4NDAyVmVyc2lvbiI6Mn0=", passOn, http.StatusOK, nil},
		{"a window's use passed on, and the upstream wrote nothing", "", passOn, http.StatusOK, windowed},
		{"unpaid on a route with windows, nothing written", "", func(http.ResponseWriter, *http.Request) error { return nil }, http.StatusServiceUnavailable, windowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodGet, "/paid/x", nil)
			if tc.payment != "" {
				r.Header.Set(x402.HeaderPaymentSignature, tc.payment)
			}
			h := h
			if tc.h != nil {
				h = tc.h
			}
			if err := h.observe(w, r, tc.serve); err != nil {
				t.Fatal(err)
			}
			if w.Code != tc.status {
				t.Fatalf("%d %q, want %d", w.Code, w.Body, tc.status)
			}
			if tc.status == http.StatusServiceUnavailable && (w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), `"error":"unavailable"`)) {
				t.Fatalf("the 503: %v %q", w.Header(), w.Body)
			}
		})
	}
}

func TestPaidRouteWhileChainDown(t *testing.T) {
	port := freePort(t)
	upstream := freePort(t)
	api := freePort(t)
	t.Setenv("X402_CHAINDOWN_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	dir := filepath.ToSlash(t.TempDir())
	// The devnet's stablecoin stands for USDC on eip155:84532: its address
	// and EIP-712 domain are given in full, as a merchant of a token the
	// table does not know gives them.
	probe := startChain(t, 84532)
	tok := probe.Token
	probe.Close()
	cf := fmt.Sprintf(`{
	log {
		output file %s/caddy.log
		level ERROR
	}
	x402 {
		network eip155:84532
		rpc http://127.0.0.1:%d
		settler_key {env.X402_CHAINDOWN_SETTLER_KEY}
		asset %s "%s" "%s" 6
		store_path %s/x402.db
	}
}
http://127.0.0.1:%d {
	respond "upstream content"
}
http://127.0.0.1:%d {
	x402_path_guard
	handle /paid/* {
		x402 {
			pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
			price 0.001
		}
		reverse_proxy 127.0.0.1:%d
	}
	handle /respond/* {
		x402 {
			pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
			price 0.001
		}
		respond "upstream content"
	}
	respond /free "free"
}
`, dir, port, tok.Address.Hex(), tok.Name, tok.Version, dir, upstream, api, upstream)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("Caddy did not start with its chain down: %v", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", api)
	if resp, body := httpGet(t, base+"/free", nil); resp.StatusCode != 200 || body != "free" {
		t.Fatalf("/free: %d %q", resp.StatusCode, body)
	}
	check := func(state string) {
		t.Helper()
		for _, path := range []string{"/paid/x", "/respond/x"} {
			for _, accept := range []string{"", "text/html", "application/json"} {
				resp, body := httpGet(t, base+path, map[string]string{"Accept": accept})
				chainDownAnswer(t, fmt.Sprintf("%s, %s, Accept %q", state, path, accept), resp, body)
			}
		}
	}
	check("the RPC down at start")
	time.Sleep(100 * time.Millisecond)
	check("the RPC still down")

	// The chain comes back: the retry opens it and checks the asset.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: fmt.Sprintf("127.0.0.1:%d", port), ChainID: 84532})
	if err != nil {
		t.Fatal(err)
	}
	for {
		resp, body := httpGet(t, base+"/paid/x", nil)
		chainDownAnswer(t, "the chain coming back", resp, body)
		if resp.StatusCode == http.StatusPaymentRequired {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the route still answered %d %s two minutes after the chain came back (waiting for its 402)", resp.StatusCode, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	check("the chain up")

	// The chain goes down again after start.
	d.Close()
	check("the RPC down after start")
}

// TestChainDownLogFields: the chain-down log names the RPC's host, never
// its path or query (a provider's key), and its error drops the
// placeholder URL a chain connection is dialed with.
func TestChainDownLogFields(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ rpc, want string }{
		{"https://base-sepolia.g.alchemy.com/v2/SECRETKEY", "base-sepolia.g.alchemy.com"},
		{"https://user:pass@rpc.example:8545/?key=SECRET", "rpc.example"},
		{"wss://rpc.example/ws/SECRET", "rpc.example"},
		{"/var/run/geth.ipc", "/var/run/geth.ipc"},
		{"", ""},
	} {
		if got := rpcHost(tc.rpc); got != tc.want || strings.Contains(got, "SECRET") || strings.Contains(got, "pass") {
			t.Errorf("rpcHost(%q) = %q, want %q", tc.rpc, got, tc.want)
		}
	}
	err := fmt.Errorf("starting the x402 facilitator: reading the chain id: %w", fmt.Errorf("Post %q: the chain's RPC at 127.0.0.1:23999: connection refused", rpcPlaceholder))
	if got, want := chainError(err), "starting the x402 facilitator: reading the chain id: the chain's RPC at 127.0.0.1:23999: connection refused"; got != want {
		t.Errorf("chainError = %q, want %q", got, want)
	}
}

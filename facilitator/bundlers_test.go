package facilitator

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
)

// bundlerAnswer is how a test bundler answers eth_supportedEntryPoints: the
// JSON of its response's result or error member, or an HTTP status.
type bundlerAnswer struct {
	member string // `"result":…` or `"error":…`
	status int    // instead of an answer
}

var (
	testEP06 = common.HexToAddress("0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789")
	testEP08 = common.HexToAddress("0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108")
)

// serving answers with a list of EntryPoints.
func serving(eps ...common.Address) bundlerAnswer {
	list, _ := json.Marshal(append([]common.Address{}, eps...))
	return bundlerAnswer{member: `"result":` + string(list)}
}

var (
	methodNotFound = bundlerAnswer{member: `"error":{"code":-32601,"message":"Method not found"}`}
	notAList       = bundlerAnswer{member: `"result":"0x0000000071727De22E5E9d8BAf0edAc6f37da032"`}
	badAddress     = bundlerAnswer{member: `"result":["0x71727De22E5E9d8BAf0edAc6f37da032"]`}
	serverError    = bundlerAnswer{status: http.StatusBadGateway}
	unreachable    = bundlerAnswer{status: -1} // nothing listens
)

// testBundler serves answer at a URL whose path holds a provider's key,
// which no error or log line may show.
func testBundler(t *testing.T, answer bundlerAnswer) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Method != "eth_supportedEntryPoints" {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		if answer.status != 0 {
			http.Error(w, "upstream down", answer.status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`, req.ID, answer.member)
	}))
	url := srv.URL + "/v2/1337/rpc?apikey=SECRET-KEY"
	if answer.status < 0 {
		srv.Close()
	} else {
		t.Cleanup(srv.Close)
	}
	return url
}

// TestRouteBundlers: which bundler takes each EntryPoint's operations, by
// what real HTTP bundlers answer to eth_supportedEntryPoints; a bundler
// that serves none of what it is configured for is refused, naming what
// it serves and by its host only.
func TestRouteBundlers(t *testing.T) {
	t.Parallel()
	v07 := ep07.Address
	const (
		main = "bundler_url" // routes to the network's bundler
		own  = "v0.7's own"  // to v0.7's entry_point bundler_url
		none = ""            // to the built-in bundler
	)
	for _, tc := range []struct {
		name       string
		withV07    bool           // the network configures EntryPoint v0.7
		main       *bundlerAnswer // the network's bundler; nil: unset
		own        *bundlerAnswer // v0.7's own; nil: unset
		v06, v07   string         // where each version goes
		refused    []string       // what the refusal says, if refused
		warnsAbout string         // a warning logged
	}{
		{name: "both", withV07: true, main: ptr(serving(testEP06, v07)), v06: main, v07: main},
		{name: "both, v0.7 not configured", main: ptr(serving(testEP06, v07)), v06: main},
		{name: "both, v0.7's own bundler first", withV07: true, main: ptr(serving(testEP06, v07)), own: ptr(serving(v07)), v06: main, v07: own},
		{name: "v0.6 only", withV07: true, main: ptr(serving(testEP06)), v06: main, v07: none},
		{name: "v0.6 only, v0.7 not configured", main: ptr(serving(testEP06)), v06: main},
		{name: "v0.7 only", withV07: true, main: ptr(serving(v07)), v06: none, v07: main, warnsAbout: "does not serve the first EntryPoint"},
		{name: "v0.7 only, v0.7 not configured", main: ptr(serving(v07)),
			refused: []string{"serves EntryPoint " + v07.Hex() + " only", "not this network's EntryPoint " + testEP06.Hex() + " (v0.6)", "add an entry_point for an EntryPoint it serves"}},
		{name: "v0.7 only, v0.7 taken by its own bundler", withV07: true, main: ptr(serving(v07)), own: ptr(serving(v07)),
			refused: []string{"(bundler_url) serves EntryPoint " + v07.Hex() + " only", "not this network's EntryPoint " + testEP06.Hex() + " (v0.6)"}},
		{name: "none", withV07: true, main: ptr(serving()), refused: []string{"serves no EntryPoint", testEP06.Hex() + " (v0.6) or " + v07.Hex() + " (v0.7)"}},
		{name: "another version", main: ptr(serving(testEP08)), refused: []string{"serves EntryPoint " + testEP08.Hex() + " only"}},
		{name: "method not found", withV07: true, main: ptr(methodNotFound), v06: main, v07: none, warnsAbout: "did not say which EntryPoints"},
		{name: "method not found, v0.7's own", withV07: true, main: ptr(methodNotFound), own: ptr(methodNotFound), v06: main, v07: own, warnsAbout: "did not say which EntryPoints"},
		{name: "server error", main: ptr(serverError), v06: main, warnsAbout: "did not say which EntryPoints"},
		{name: "unreachable", withV07: true, main: ptr(unreachable), own: ptr(unreachable), v06: main, v07: own, warnsAbout: "did not say which EntryPoints"},
		{name: "garbage", main: ptr(notAList), refused: []string{"bundler_url: the bundler at 127.0.0.1:", "something other than a list of addresses"}},
		{name: "garbage entry", main: ptr(badAddress), refused: []string{"a list whose entry 0 is not an address"}},
		{name: "v0.7's own bundler serves v0.6 only", withV07: true, own: ptr(serving(testEP06)), v06: none,
			refused: []string{"(the bundler_url of EntryPoint v0.7) serves EntryPoint " + testEP06.Hex() + " only, not this network's v0.7 EntryPoint " + v07.Hex()}},
		{name: "v0.7's own bundler, garbage", withV07: true, own: ptr(badAddress), refused: []string{"the bundler_url of EntryPoint v0.7: the bundler at"}},
		{name: "no external bundler", withV07: true, v06: none, v07: none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := &AANative{EntryPoints: []AAEntryPoint{{EntryPointConfig: aanative.EntryPointConfig{EntryPoint: entrypoint.NewV06(testEP06)}}}}
			if tc.withV07 {
				a.EntryPoints = append(a.EntryPoints, AAEntryPoint{EntryPointConfig: aanative.EntryPointConfig{EntryPoint: entrypoint.NewV07(v07)}})
			}
			urls := map[string]string{none: ""}
			if tc.main != nil {
				a.BundlerURL = testBundler(t, *tc.main)
				urls[main] = a.BundlerURL
			}
			if tc.own != nil {
				a.EntryPoints[1].BundlerURL = testBundler(t, *tc.own)
				urls[own] = a.EntryPoints[1].BundlerURL
			}
			core, logs := observer.New(zapcore.DebugLevel)
			r, err := routeBundlers(context.Background(), a, 5*time.Second, zap.New(core))
			for _, e := range logs.All() {
				line := fmt.Sprint(e.Message, " ", e.ContextMap())
				if strings.Contains(line, "SECRET") {
					t.Errorf("a log line shows the bundler's key: %s", line)
				}
				t.Log(line)
			}
			if tc.refused != nil {
				if err == nil {
					t.Fatalf("routed %+v, want a refusal", r)
				}
				t.Log(err)
				for _, want := range tc.refused {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("the refusal %q does not say %q", err, want)
					}
				}
				if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "/v2/") {
					t.Errorf("the refusal shows the bundler's URL: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := r[testEP06], urls[tc.v06]; got != want {
				t.Errorf("routed v0.6 to %q; want %q", got, want)
			}
			if got, want := r[v07], urls[tc.v07]; got != want {
				t.Errorf("routed v0.7 to %q; want %q", got, want)
			}
			warned := logs.FilterLevelExact(zapcore.WarnLevel).FilterMessageSnippet(tc.warnsAbout)
			if tc.warnsAbout != "" && warned.Len() == 0 {
				t.Errorf("no warning says %q: %v", tc.warnsAbout, logs.All())
			}
			if tc.warnsAbout == "" && logs.FilterLevelExact(zapcore.WarnLevel).Len() > 0 {
				t.Errorf("unexpected warnings: %v", logs.All())
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

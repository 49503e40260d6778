package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/paywall/mcp"
	"github.com/caddy-x402/caddy-x402/x402"
)

// accepting is a facilitator that finds every payment valid and settles
// it at once, so that a benchmark measures the transports alone.
type accepting struct{}

func (accepting) Verify(context.Context, *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	return &x402.VerifyResponse{IsValid: true, Payer: payer}, nil
}

func (accepting) Settle(_ context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	return &x402.SettleResponse{X402Version: 2, Success: true, Network: req.PaymentRequirements.Network, Payer: payer,
		TransactionHash: "0x" + strings.Repeat("ab", 32)}, nil
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPaidCall compares, in one run, a paid HTTP request through the
// paywall with a paid MCP tool call through the MCP paywall, both over
// loopback HTTP with a facilitator that costs nothing: latency (ns/op) and
// the CPU time of the whole process (client, paywall and upstream) a call
// (cpu-ns/op). "mcp-unpaid-upstream" is the same tool call straight to the
// MCP server, the upstream's own share.
func BenchmarkPaidCall(b *testing.B) {
	o := offer("10000")
	pw := func(resource string) *paywall.Paywall {
		p, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{o}, Facilitator: accepting{}, Resource: resource})
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	result := `{"content":[{"type":"text","text":"results"}]}`
	httpSrv := httptest.NewServer(pw("").Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, result)
	})))
	defer httpSrv.Close()

	srv := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "results"}}}, nil
	})
	upstream := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	h, err := mcp.New(mcp.Config{Tools: map[string]mcp.Gate{"search": pw(mcp.ResourceURL("search"))}})
	if err != nil {
		b.Fatal(err)
	}
	mcpSrv := httptest.NewServer(h.Handler(upstream))
	defer mcpSrv.Close()
	plainSrv := httptest.NewServer(upstream)
	defer plainSrv.Close()

	p := payment(o, "search")
	header, _ := json.Marshal(p)
	paidHeader := toHeader(b, header)
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "search", "arguments": map[string]any{}, "_meta": map[string]any{mcp.MetaPayment: p}}})
	unpaid, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": "search", "arguments": map[string]any{}}})

	run := func(b *testing.B, do func() (*http.Response, error), want string) {
		b.ReportAllocs()
		began := cpuTime()
		for b.Loop() {
			resp, err := do()
			if err != nil {
				b.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
				b.Fatalf("%d %s", resp.StatusCode, body)
			}
		}
		b.ReportMetric(float64(cpuTime()-began)/float64(b.N), "cpu-ns/op")
	}
	post := func(url string, body []byte) func() (*http.Response, error) {
		return func() (*http.Response, error) {
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			return http.DefaultClient.Do(req)
		}
	}
	b.Run("http", func(b *testing.B) {
		run(b, func() (*http.Response, error) {
			req, _ := http.NewRequest(http.MethodGet, httpSrv.URL+"/report", nil)
			req.Header.Set(x402.HeaderPaymentSignature, paidHeader)
			return http.DefaultClient.Do(req)
		}, "results")
	})
	b.Run("mcp", func(b *testing.B) { run(b, post(mcpSrv.URL, call), mcp.MetaPaymentResponse) })
	b.Run("mcp-unpaid-upstream", func(b *testing.B) { run(b, post(plainSrv.URL, unpaid), "results") })
}

// toHeader is a PaymentPayload's JSON as PAYMENT-SIGNATURE carries it.
func toHeader(b *testing.B, payload []byte) string {
	b.Helper()
	var p x402.PaymentPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		b.Fatal(err)
	}
	h, err := x402.EncodeHeader(&p)
	if err != nil {
		b.Fatal(err)
	}
	return h
}

package facilitator

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/paywall/mcp"
	"github.com/caddy-x402/caddy-x402/x402"
)

// BenchmarkMCPAgainstHTTP compares one paid MCP tool call (the MCP
// paywall in front of an MCP server of the official SDK, the payment in
// the call's _meta) with one paid HTTP request (the paywall in front of a
// handler), both of the same price, through the same facilitator: this
// package's, in process as Caddy runs it, on the embedded devnet, each
// payment verified, settled on chain and its receipt awaited. Each
// iteration makes one of each, in turns (the first of the pair alternates),
// over loopback HTTP, each with a payment signed before its timer starts;
// the devnet's clock lead is paced between iterations, untimed. It reports
// the median and mean of each (ms) and their ratio (mcp/http), and the
// median of each one's verification and settlement, from the paywall's
// hooks, and of the rest (transport, paywall and upstream; the settlement,
// a block on the devnet, varies by milliseconds from one to the next);
// ns/op is the pair's.
func BenchmarkMCPAgainstHTTP(b *testing.B) {
	e := newEnvB(b, envOptions{inProcess: true})
	merchant := e.chain.Accounts[9].Address
	const price = 1_000
	o := e.requirements(merchant, price)
	// The verification and settlement of each kind, from the paywall's
	// hooks; what is left of a request is its transport's and upstream's.
	var stepsMu sync.Mutex
	steps := map[string][]time.Duration{}
	step := func(name string) func(*http.Request, *paywall.Event) {
		return func(_ *http.Request, ev *paywall.Event) {
			stepsMu.Lock()
			steps[name] = append(steps[name], ev.Took)
			stepsMu.Unlock()
		}
	}
	pw := func(kind, resource string) *paywall.Paywall {
		p, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{o}, Facilitator: e.svc, Resource: resource,
			Hooks: paywall.Hooks{AfterVerify: step(kind + "-verify"), AfterSettle: step(kind + "-settle")}})
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	const result = `{"content":[{"type":"text","text":"results"}]}`
	httpSrv := httptest.NewServer(pw("http", "").Handler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, result)
	})))
	defer httpSrv.Close()
	srv := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "results"}}}, nil
		})
	upstream := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	h, err := mcp.New(mcp.Config{Tools: map[string]mcp.Gate{"search": pw("mcp", mcp.ResourceURL("search"))}})
	if err != nil {
		b.Fatal(err)
	}
	mcpSrv := httptest.NewServer(h.Handler(upstream))
	defer mcpSrv.Close()

	// paid answers each kind of request with its payment, req's.
	paid := map[string]func(req *x402.VerifyRequest) (*http.Request, string){
		"http": func(req *x402.VerifyRequest) (*http.Request, string) {
			header, err := x402.EncodeHeader(&req.PaymentPayload)
			if err != nil {
				b.Fatal(err)
			}
			r, _ := http.NewRequest(http.MethodGet, httpSrv.URL+"/report", nil)
			r.Header.Set(x402.HeaderPaymentSignature, header)
			return r, x402.HeaderPaymentResponse
		},
		"mcp": func(req *x402.VerifyRequest) (*http.Request, string) {
			p := req.PaymentPayload
			p.Resource = &x402.Resource{URL: mcp.ResourceURL("search")}
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
				"params": map[string]any{"name": "search", "arguments": map[string]any{}, "_meta": map[string]any{mcp.MetaPayment: p}}})
			r, _ := http.NewRequest(http.MethodPost, mcpSrv.URL, strings.NewReader(string(body)))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			return r, mcp.MetaPaymentResponse
		},
	}
	took := map[string][]time.Duration{}
	client := &http.Client{}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		paceDevnet(b, e)
		order := []string{"http", "mcp"}
		if i%2 == 1 {
			order = []string{"mcp", "http"}
		}
		for j, kind := range order {
			r, want := paid[kind](e.pay(e.chain.Accounts[1+(2*i+j)%8], merchant, price))
			b.StartTimer()
			began := time.Now()
			resp, err := client.Do(r)
			if err != nil {
				b.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			d := time.Since(began)
			b.StopTimer()
			settled := resp.Header.Get(x402.HeaderPaymentResponse) != "" || strings.Contains(string(body), want)
			if resp.StatusCode != http.StatusOK || !settled {
				b.Fatalf("%s %d: %d %s", kind, i, resp.StatusCode, body)
			}
			took[kind] = append(took[kind], d)
		}
		b.StartTimer()
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	median := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	mean := func(ds []time.Duration) time.Duration {
		var sum time.Duration
		for _, d := range ds {
			sum += d
		}
		return sum / time.Duration(len(ds))
	}
	for _, kind := range []string{"http", "mcp"} {
		b.ReportMetric(ms(median(took[kind])), kind+"-p50-ms")
		b.ReportMetric(ms(mean(took[kind])), kind+"-mean-ms")
	}
	for _, name := range []string{"http-verify", "http-settle", "mcp-verify", "mcp-settle"} {
		b.ReportMetric(ms(median(steps[name])), name+"-p50-ms")
	}
	// The rest of each request: its transport, paywall and upstream. The
	// requests of a kind ran one at a time, so the i-th verification and
	// settlement of a kind are its i-th request's.
	rest := map[string][]time.Duration{}
	for _, kind := range []string{"http", "mcp"} {
		for i, d := range took[kind] {
			if i < len(steps[kind+"-verify"]) && i < len(steps[kind+"-settle"]) {
				rest[kind] = append(rest[kind], d-steps[kind+"-verify"][i]-steps[kind+"-settle"][i])
			}
		}
		b.ReportMetric(ms(median(rest[kind])), kind+"-rest-p50-ms")
	}
	b.ReportMetric(float64(median(rest["mcp"]))/float64(median(rest["http"])), "mcp/http-rest-p50")
	b.ReportMetric(float64(median(took["mcp"]))/float64(median(took["http"])), "mcp/http-p50")
	b.ReportMetric(float64(mean(took["mcp"]))/float64(mean(took["http"])), "mcp/http-mean")
}

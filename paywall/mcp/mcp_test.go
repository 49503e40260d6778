package mcp_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/paywall/mcp"
	"github.com/caddy-x402/caddy-x402/x402"
)

const (
	payTo = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
	asset = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"
	payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
)

// facilitator is an in-memory facilitator: a payment verifies until it
// is settled, and settles once.
type facilitator struct {
	mu      sync.Mutex
	settled map[string]bool
	settles atomic.Int32
	// fail, when set, is the error code every settlement fails with.
	fail x402.ErrorCode
}

func (f *facilitator) Verify(_ context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.settled[string(req.PaymentPayload.Payload)] {
		return &x402.VerifyResponse{InvalidReason: x402.ReasonReplay, Payer: payer}, nil
	}
	return &x402.VerifyResponse{IsValid: true, Payer: payer}, nil
}

func (f *facilitator) Settle(_ context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != "" {
		return &x402.SettleResponse{X402Version: 2, ErrorCode: f.fail, Network: req.PaymentRequirements.Network, Payer: payer}, nil
	}
	if f.settled[string(req.PaymentPayload.Payload)] {
		return &x402.SettleResponse{X402Version: 2, ErrorCode: x402.ErrorVerifyFailed, Network: req.PaymentRequirements.Network}, nil
	}
	if f.settled == nil {
		f.settled = map[string]bool{}
	}
	f.settled[string(req.PaymentPayload.Payload)] = true
	f.settles.Add(1)
	return &x402.SettleResponse{X402Version: 2, Success: true, TransactionHash: "0x" + strings.Repeat("ab", 32),
		Network: req.PaymentRequirements.Network, Payer: payer}, nil
}

// offer is the offer of a tool at amount.
func offer(amount string) x402.PaymentRequirements {
	return x402.PaymentRequirements{Scheme: x402.SchemeExact, Network: "eip155:31337", Amount: amount, Asset: asset, PayTo: payTo,
		MaxTimeoutSeconds: 60, Extra: &x402.Extra{Name: "Devnet USD", Version: "1"}}
}

// server is an MCP server of the official SDK, unmodified, and what its
// tools saw.
type server struct {
	calls   sync.Map // tool name -> *atomic.Int32
	metas   chan map[string]any
	release chan struct{} // lets the slow tool finish
}

func (s *server) count(name string) int32 {
	v, _ := s.calls.LoadOrStore(name, new(atomic.Int32))
	return v.(*atomic.Int32).Load()
}

func (s *server) handler(jsonResponse bool, opts ...func(*sdk.StreamableHTTPOptions)) http.Handler {
	srv := s.server()
	o := &sdk.StreamableHTTPOptions{JSONResponse: jsonResponse}
	for _, f := range opts {
		f(o)
	}
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, o)
}

func (s *server) server() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "upstream", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	add := func(name string, h func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error)) {
		srv.AddTool(&sdk.Tool{Name: name, InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			v, _ := s.calls.LoadOrStore(name, new(atomic.Int32))
			v.(*atomic.Int32).Add(1)
			select {
			case s.metas <- req.Params.Meta:
			default:
			}
			return h(ctx, req)
		})
	}
	text := func(t string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: t}}}
	}
	add("search", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("results"), nil })
	add("other", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return text("other results"), nil
	})
	add("free", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return text("free results"), nil
	})
	add("broken", func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		r := text("it broke")
		r.IsError = true
		return r, nil
	})
	add("slow", func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Message: "working"}); err != nil {
			return nil, err
		}
		select {
		case <-s.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return text("slow results"), nil
	})
	return srv
}

// setup is the MCP paywall in front of an SDK server, over HTTP.
type setup struct {
	url string
	up  *server
	fac *facilitator
}

func newSetup(t *testing.T, jsonResponse bool) *setup {
	t.Helper()
	return newSetupOf(t, jsonResponse, nil)
}

// newSetupOf is newSetup over transport: the upstream then speaks the
// HTTP+SSE transport when transport is LegacySSE.
func newSetupOf(t *testing.T, jsonResponse bool, transport mcp.Transport, opts ...func(*sdk.StreamableHTTPOptions)) *setup {
	t.Helper()
	return newSetupFull(t, jsonResponse, transport, nil, opts...)
}

// newSetupWindows is newSetup with windows.
func newSetupWindows(t *testing.T, w *mcp.Windows) *setup {
	t.Helper()
	return newSetupFull(t, false, nil, w)
}

func newSetupFull(t *testing.T, jsonResponse bool, transport mcp.Transport, w *mcp.Windows, opts ...func(*sdk.StreamableHTTPOptions)) *setup {
	t.Helper()
	fac := new(facilitator)
	guard := new(paywall.Guard)
	gate := func(name, amount string) mcp.Gate {
		p, err := paywall.New(paywall.Config{Accepts: []x402.PaymentRequirements{offer(amount)}, Facilitator: fac, Guard: guard,
			Resource: mcp.ResourceURL(name), Description: name})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	h, err := mcp.New(mcp.Config{Tools: map[string]mcp.Gate{
		"search": gate("search", "10000"), "other": gate("other", "20000"), "broken": gate("broken", "10000"),
		"slow": gate("slow", "10000"), "missing": gate("missing", "10000"),
	}, MaxBody: 64 << 10, Transport: transport, Windows: w})
	if err != nil {
		t.Fatal(err)
	}
	up := &server{metas: make(chan map[string]any, 16), release: make(chan struct{})}
	upstream := up.handler(jsonResponse, opts...)
	if _, ok := transport.(*mcp.LegacySSE); ok {
		srv := up.server()
		upstream = sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	}
	ts := httptest.NewServer(h.Handler(upstream))
	t.Cleanup(ts.Close)
	return &setup{url: ts.URL, up: up, fac: fac}
}

// connect is an MCP client of the official SDK.
func (s *setup) connect(t *testing.T, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	return s.connectOver(t, opts, &sdk.StreamableClientTransport{Endpoint: s.url, DisableStandaloneSSE: true})
}

func (s *setup) connectOver(t *testing.T, opts *sdk.ClientOptions, transport sdk.Transport) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "payer", Version: "1"}, opts)
	// The HTTP+SSE client's stream lives in the context it connects with.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cs, err := c.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connecting the MCP client: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// payment is a payment for offer o, naming tool as its resource.
func payment(o x402.PaymentRequirements, tool string) map[string]any {
	var nonce [32]byte
	rand.Read(nonce[:])
	p := map[string]any{
		"x402Version": 2,
		"resource":    map[string]any{"url": mcp.ResourceURL(tool)},
		"accepted":    o,
		"payload": map[string]any{
			"signature": "0x" + strings.Repeat("11", 65),
			"authorization": map[string]any{"from": payer, "to": o.PayTo, "value": o.Amount, "validAfter": "0",
				"validBefore": fmt.Sprint(time.Now().Add(time.Hour).Unix()), "nonce": "0x" + hex.EncodeToString(nonce[:])},
		},
	}
	return p
}

func call(t *testing.T, cs *sdk.ClientSession, name string, meta sdk.Meta) (*sdk.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{}, Meta: meta})
}

// challengeOf is the PaymentRequired of a payment-required result; it
// fails the test unless both forms carry the same one.
func challengeOf(t *testing.T, res *sdk.CallToolResult) *x402.PaymentRequired {
	t.Helper()
	if !res.IsError || len(res.Content) == 0 {
		t.Fatalf("want a payment-required result, got %+v", res)
	}
	structured, _ := json.Marshal(res.StructuredContent)
	var a, b x402.PaymentRequired
	if err := json.Unmarshal(structured, &a); err != nil {
		t.Fatalf("structuredContent %s: %v", structured, err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if err := json.Unmarshal([]byte(text), &b); err != nil {
		t.Fatalf("content[0].text %s: %v", text, err)
	}
	if !jsonEqual(structured, []byte(text)) || a.X402Version != 2 || len(a.Accepts) == 0 {
		t.Fatalf("structuredContent %s and content[0].text %s differ or are no challenge", structured, text)
	}
	return &a
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	p, _ := json.Marshal(x)
	q, _ := json.Marshal(y)
	return bytes.Equal(p, q)
}

func settlementOf(t *testing.T, res *sdk.CallToolResult) *x402.SettleResponse {
	t.Helper()
	raw, ok := res.Meta[mcp.MetaPaymentResponse]
	if !ok {
		t.Fatalf("no %s in the result's _meta: %+v", mcp.MetaPaymentResponse, res)
	}
	b, _ := json.Marshal(raw)
	var s x402.SettleResponse
	var upstream struct {
		Transaction string `json:"transaction"` // upstream's name of the hash
	}
	if err := errors.Join(json.Unmarshal(b, &s), json.Unmarshal(b, &upstream)); err != nil {
		t.Fatal(err)
	}
	if s.TransactionHash == "" {
		s.TransactionHash = upstream.Transaction
	}
	return &s
}

func textOf(res *sdk.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*sdk.TextContent); ok {
		return tc.Text
	}
	return ""
}

// TestPaidToolCall: through the MCP paywall, an official SDK client
// pays a priced tool of an official SDK server, answering in JSON and in
// SSE; everything else passes free.
func TestPaidToolCall(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		json bool
	}{{"sse", false}, {"json", true}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := newSetup(t, mode.json)
			cs := s.connect(t, nil)

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 5 {
				t.Fatalf("tools/list passes free: %v %+v", err, tools)
			}
			if err := cs.Ping(ctx, nil); err != nil {
				t.Fatalf("ping: %v", err)
			}
			if res, err := call(t, cs, "free", nil); err != nil || res.IsError || textOf(res) != "free results" {
				t.Fatalf("a free tool: %v %+v", err, res)
			}

			res, err := call(t, cs, "search", nil)
			if err != nil {
				t.Fatal(err)
			}
			pr := challengeOf(t, res)
			if pr.Resource == nil || pr.Resource.URL != "mcp://tool/search" || pr.Accepts[0].Amount != "10000" {
				t.Fatalf("challenge %+v", pr)
			}
			if n := s.up.count("search"); n != 0 {
				t.Fatalf("the unpaid call reached the server (%d calls)", n)
			}

			res, err = call(t, cs, "search", sdk.Meta{mcp.MetaPayment: payment(pr.Accepts[0], "search")})
			if err != nil || res.IsError || textOf(res) != "results" {
				t.Fatalf("paid call: %v %+v", err, res)
			}
			if st := settlementOf(t, res); !st.Success || st.Payer != payer || st.TransactionHash == "" {
				t.Fatalf("settlement %+v", st)
			}
			if n, m := s.up.count("search"), s.fac.settles.Load(); n != 1 || m != 1 {
				t.Fatalf("%d calls reached the server, %d settled; want 1 and 1", n, m)
			}
			for len(s.up.metas) > 0 {
				if meta := <-s.up.metas; meta[mcp.MetaPayment] != nil {
					t.Fatalf("the server saw the payment: %v", meta)
				}
			}
		})
	}
}

// TestToolFailureNotCharged: a tool that answers isError, or a JSON-RPC
// error, is delivered as it is and not charged.
func TestToolFailureNotCharged(t *testing.T) {
	t.Parallel()
	s := newSetup(t, false)
	cs := s.connect(t, nil)
	res, err := call(t, cs, "broken", sdk.Meta{mcp.MetaPayment: payment(offer("10000"), "broken")})
	if err != nil || !res.IsError || textOf(res) != "it broke" || res.Meta[mcp.MetaPaymentResponse] != nil {
		t.Fatalf("isError: %v %+v", err, res)
	}
	// "missing" is priced but not a tool of the server: a JSON-RPC error.
	if _, err := call(t, cs, "missing", sdk.Meta{mcp.MetaPayment: payment(offer("10000"), "missing")}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("JSON-RPC error: %v", err)
	}
	if n := s.fac.settles.Load(); n != 0 {
		t.Fatalf("%d settled; want none", n)
	}
}

// TestLegacySSE: over the HTTP+SSE transport of protocol 2024-11-05, the
// official SDK's client pays a priced tool of its server: the challenge
// and the paid result (with its settlement) arrive on the event stream;
// a failed tool is not charged; free tools pass.
func TestLegacySSE(t *testing.T) {
	t.Parallel()
	s := newSetupOf(t, false, mcp.NewLegacySSE())
	cs := s.connectOver(t, nil, &sdk.SSEClientTransport{Endpoint: s.url})
	if res, err := call(t, cs, "free", nil); err != nil || textOf(res) != "free results" {
		t.Fatalf("a free tool: %v %+v", err, res)
	}
	res, err := call(t, cs, "search", nil)
	if err != nil {
		t.Fatal(err)
	}
	pr := challengeOf(t, res)
	if s.up.count("search") != 0 {
		t.Fatal("the unpaid call reached the server")
	}
	res, err = call(t, cs, "search", sdk.Meta{mcp.MetaPayment: payment(pr.Accepts[0], "search")})
	if err != nil || res.IsError || textOf(res) != "results" || !settlementOf(t, res).Success {
		t.Fatalf("paid call: %v %+v", err, res)
	}
	res, err = call(t, cs, "broken", sdk.Meta{mcp.MetaPayment: payment(offer("10000"), "broken")})
	if err != nil || !res.IsError || res.Meta[mcp.MetaPaymentResponse] != nil {
		t.Fatalf("a failed tool: %v %+v", err, res)
	}
	if n, m := s.up.count("search"), s.fac.settles.Load(); n != 1 || m != 1 {
		t.Fatalf("%d calls ran, %d settled; want 1 and 1", n, m)
	}
	// A priced call for a session whose stream does not pass here.
	resp, body := post(t, s.url+"/?sessionId=unknown", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search"}}`, "", "")
	if resp.StatusCode != http.StatusNotFound || s.up.count("search") != 1 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

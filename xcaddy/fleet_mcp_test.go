package main

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/x402"
)

// mcpCall is a tools/call of the tool search, with payment in its _meta
// when set.
func mcpCall(id int, payment *x402.PaymentPayload) string {
	params := map[string]any{"name": "search", "arguments": map[string]any{}}
	if payment != nil {
		params["_meta"] = map[string]any{"x402/payment": payment}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
	return string(b)
}

// mcpAnswer is a JSON-RPC answer to a tools/call.
type mcpAnswer struct {
	Result struct {
		IsError           bool                       `json:"isError"`
		StructuredContent json.RawMessage            `json:"structuredContent"`
		Content           []struct{ Text string }    `json:"content"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// postMCP sends one tools/call to r's MCP route.
func postMCP(r *replica, body string) (mcpAnswer, error) {
	req, _ := http.NewRequest(http.MethodPost, r.url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return mcpAnswer{}, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var a mcpAnswer
	err = json.Unmarshal(b, &a)
	return a, err
}

// TestFleetMCPSamePaymentToAllReplicas: three replicas charge for a tool
// of one unmodified MCP server (the official Go SDK's). One MCP payment
// presented to all three at once, then again to each, runs the tool once,
// is delivered once with its settlement and settled once on chain; every
// other answer is a refusal or a retry, without the tool's result.
func TestFleetMCPSamePaymentToAllReplicas(t *testing.T) {
	t.Parallel()
	var runs atomic.Int32
	srv := sdk.NewServer(&sdk.Implementation{Name: "catalogue", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		runs.Add(1)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "search result"}}}, nil
	})
	upstream := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	defer upstream.Close()

	f := newFleet(t)
	f.mcp = strings.TrimPrefix(upstream.URL, "http://")
	for _, name := range []string{"a", "b", "c"} {
		f.start(name)
	}
	payers := f.fundPayers(3, 1)
	for round, payer := range payers {
		a, err := postMCP(f.replicas[0], mcpCall(1, nil))
		var challenge x402.PaymentRequired
		if err != nil || !a.Result.IsError || json.Unmarshal(a.Result.StructuredContent, &challenge) != nil || len(challenge.Accepts) == 0 {
			t.Fatalf("unpaid call: %v %+v", err, a)
		}
		payment, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(1000)}).Pay(&challenge, &challenge.Accepts[0])
		if err != nil {
			t.Fatal(err)
		}
		body := mcpCall(2, payment)
		outs := make([]mcpAnswer, len(f.replicas))
		errs := make([]error, len(f.replicas))
		var wg sync.WaitGroup
		for i, r := range f.replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], errs[i] = postMCP(r, body)
			}()
		}
		wg.Wait()
		for _, r := range f.replicas { // a payer's retries after a refusal or a -32002
			a, err := postMCP(r, body)
			outs, errs = append(outs, a), append(errs, err)
		}
		delivered := 0
		for i, a := range outs {
			switch {
			case errs[i] != nil:
				t.Fatalf("round %d, answer %d: %v", round, i, errs[i])
			case a.Error != nil:
				if a.Error.Code != -32002 {
					t.Fatalf("round %d, answer %d: %+v", round, i, a.Error)
				}
			case a.Result.IsError:
				if strings.Contains(string(a.Result.StructuredContent), "search result") {
					t.Fatalf("round %d: a refusal carried the tool's result", round)
				}
			case len(a.Result.Content) == 1 && a.Result.Content[0].Text == "search result" && a.Result.Meta["x402/payment-response"] != nil:
				delivered++
			default:
				t.Fatalf("round %d, answer %d: %+v", round, i, a)
			}
		}
		if delivered != 1 {
			t.Fatalf("round %d: one payment delivered %d calls", round, delivered)
		}
	}
	if n := f.transfers(); n != len(payers) {
		t.Fatalf("%d transfers on chain for %d payments", n, len(payers))
	}
	// The replicas that lost the payment's fleet-wide claim refused it
	// before the server: the tool ran once a payment.
	if n := runs.Load(); int(n) != len(payers) {
		t.Fatalf("the tool ran %d times for %d payments", n, len(payers))
	}
}

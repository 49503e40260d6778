package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/paywall/mcp"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestBadPayments: a priced call whose payment is garbage, oversized,
// for another tool or for another price gets the payment-required
// result with the reason, and never reaches the server.
func TestBadPayments(t *testing.T) {
	t.Parallel()
	s := newSetup(t, false)
	cs := s.connect(t, nil)
	otherPrice := offer("10000")
	otherPrice.Amount = "1"
	for _, tc := range []struct {
		name    string
		payment any
		reason  string
	}{
		{"garbage", "not a payment", "malformed"},
		{"garbage object", map[string]any{"x402Version": "two"}, ""},
		{"oversized", map[string]any{"x402Version": 2, "payload": strings.Repeat("a", 40<<10)}, ""},
		{"for another tool", payment(offer("20000"), "other"), "mcp://tool/other"},
		{"for another price", payment(otherPrice, "search"), "amount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := call(t, cs, "search", sdk.Meta{mcp.MetaPayment: tc.payment})
			if err != nil {
				t.Fatal(err)
			}
			pr := challengeOf(t, res)
			if pr.Error == "" || !strings.Contains(pr.Error, tc.reason) {
				t.Fatalf("error %q; want it to name %q", pr.Error, tc.reason)
			}
		})
	}
	if n := s.up.count("search"); n != 0 {
		t.Fatalf("%d refused calls reached the server", n)
	}
	if n := s.fac.settles.Load(); n != 0 {
		t.Fatalf("%d settled", n)
	}
}

// TestReplayedPayment: one payment pays one call; the second call with
// it is refused and does not reach the server.
func TestReplayedPayment(t *testing.T) {
	t.Parallel()
	s := newSetup(t, true)
	cs := s.connect(t, nil)
	p := payment(offer("10000"), "search")
	if res, err := call(t, cs, "search", sdk.Meta{mcp.MetaPayment: p}); err != nil || res.IsError {
		t.Fatalf("first call: %v %+v", err, res)
	}
	res, err := call(t, cs, "search", sdk.Meta{mcp.MetaPayment: p})
	if err != nil {
		t.Fatal(err)
	}
	if pr := challengeOf(t, res); !strings.Contains(pr.Error, "replay") {
		t.Fatalf("error %q", pr.Error)
	}
	if n, m := s.up.count("search"), s.fac.settles.Load(); n != 1 || m != 1 {
		t.Fatalf("%d calls ran, %d settled; want 1 and 1", n, m)
	}
}

// TestFoldedNames: a call whose name differs from a priced tool's only
// in case or Unicode form is refused, never forwarded.
func TestFoldedNames(t *testing.T) {
	t.Parallel()
	s := newSetup(t, false)
	cs := s.connect(t, nil)
	for _, name := range []string{"SEARCH", "Search", "ｓｅａｒｃｈ", "sea\u200brch", "searc\u0068"} {
		_, err := call(t, cs, name, nil)
		if name == "search" { // "searc\u0068" is "search" itself
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "exact name") {
			t.Fatalf("%q: %v", name, err)
		}
	}
	if n := s.up.count("search"); n != 0 {
		t.Fatalf("%d calls reached the server", n)
	}
}

// post sends a raw body to the MCP paywall, in a session of the
// protocol version given (batches are of 2025-03-26).
func post(t *testing.T, url, body, session, version string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" {
		req.Header.Set("MCP-Protocol-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestRawBodies: an oversized body is 413 with a JSON-RPC error, a body
// that is not JSON or names a member twice is refused, and none of them
// reaches the server; a batch mixing paid, unpaid and free calls is
// judged call by call.
func TestRawBodies(t *testing.T) {
	t.Parallel()
	s := newSetup(t, true)
	for _, tc := range []struct {
		name, body string
		status     int
		code       int
	}{
		{"oversized", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"` + strings.Repeat("a", 70<<10) + `"}}}`, 413, -32600},
		{"not JSON", `{"jsonrpc":"2.0",`, 400, -32700},
		{"a name twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"free","name":"search"}}`, 400, -32600},
		{"method in another case", `{"jsonrpc":"2.0","id":1,"Method":"tools/call","params":{"name":"search"}}`, 400, -32600},
		{"name not a string", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["search"]}}`, 400, -32602},
		{"priced call without an id", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"search","_meta":{"x402/payment":{}}}}`, 200, -32600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, s.url, tc.body, "", "")
			var msg struct {
				Error struct{ Code int } `json:"error"`
			}
			if resp.StatusCode != tc.status || json.Unmarshal(body, &msg) != nil || msg.Error.Code != tc.code {
				t.Fatalf("%d %s; want %d and code %d", resp.StatusCode, body, tc.status, tc.code)
			}
		})
	}
	if n := s.up.count("search"); n != 0 {
		t.Fatalf("%d calls reached the server", n)
	}

	t.Run("batch", func(t *testing.T) {
		const version = "2025-03-26"
		init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
		resp, body := post(t, s.url, init, "", version)
		session := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != 200 || session == "" {
			t.Fatalf("initialize: %d %s", resp.StatusCode, body)
		}
		post(t, s.url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session, version)
		paid, _ := json.Marshal(payment(offer("10000"), "search"))
		batch := `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{}}},` +
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{},"_meta":{"x402/payment":` + string(paid) + `}}},` +
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"free","arguments":{}}},` +
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"SEARCH","arguments":{}}},` +
			`{"jsonrpc":"2.0","id":5,"method":"ping"}]`
		resp, body = post(t, s.url, batch, session, version)
		var out []struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if resp.StatusCode != 200 || json.Unmarshal(body, &out) != nil || len(out) != 5 {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		byID := map[int]string{}
		for _, o := range out {
			byID[o.ID] = string(o.Result) + string(o.Error)
		}
		for id, want := range map[int]string{1: `"isError":true`, 2: mcp.MetaPaymentResponse, 3: "free results", 4: "exact name", 5: "{}"} {
			if !strings.Contains(byID[id], want) {
				t.Errorf("call %d: %s; want %s", id, byID[id], want)
			}
		}
		if n, m := s.up.count("search"), s.fac.settles.Load(); n != 1 || m != 1 {
			t.Fatalf("%d searches ran, %d settled; want 1 and 1", n, m)
		}
	})
}

// TestSettlementFailure: a settlement that fails drops the tool's output
// for the payment-required result; one not known yet is a JSON-RPC error
// to retry with the same payment, never a new challenge.
func TestSettlementFailure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code  x402.ErrorCode
		retry bool
	}{{x402.ErrorVerifyFailed, false}, {x402.ErrorReceiptTimeout, true}} {
		t.Run(string(tc.code), func(t *testing.T) {
			t.Parallel()
			s := newSetup(t, false)
			s.fac.fail = tc.code
			cs := s.connect(t, nil)
			res, err := call(t, cs, "search", sdk.Meta{mcp.MetaPayment: payment(offer("10000"), "search")})
			if tc.retry {
				if err == nil || !strings.Contains(err.Error(), "retry") {
					t.Fatalf("%v %+v", err, res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			challengeOf(t, res)
			if textOf(res) == "results" || res.Meta[mcp.MetaPaymentResponse] == nil {
				t.Fatalf("%+v", res)
			}
		})
	}
}

// TestStreamingTool: a tool's progress notifications reach the client
// while it runs, before it is settled; its result then comes paid.
func TestStreamingTool(t *testing.T) {
	t.Parallel()
	s := newSetup(t, false)
	progress := make(chan string, 1)
	cs := s.connect(t, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
		progress <- req.Params.Message
	}})
	done := make(chan *sdk.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		params := &sdk.CallToolParams{Name: "slow", Arguments: map[string]any{}, Meta: sdk.Meta{mcp.MetaPayment: payment(offer("10000"), "slow")}}
		params.SetProgressToken("p1")
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case msg := <-progress:
		if msg != "working" {
			t.Fatalf("progress %q", msg)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no progress notification reached the client while the tool ran")
	}
	if n := s.fac.settles.Load(); n != 0 {
		t.Fatalf("settled before the tool finished")
	}
	close(s.up.release)
	select {
	case res := <-done:
		if res == nil || res.IsError || res.Meta[mcp.MetaPaymentResponse] == nil {
			t.Fatalf("%+v", res)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the tool's result did not arrive once it finished")
	}
}

// FuzzDecodeBody: the decoder never panics, and a tools/call it accepts
// loses its payment, and only its payment, on the way upstream.
func FuzzDecodeBody(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","_meta":{"x402/payment":{"x402Version":2},"k":1}}}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"s","_meta":null}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		msgs, err := mcp.DecodeForTest(body)
		if err != nil {
			return
		}
		for _, out := range msgs {
			var m struct {
				Params struct {
					Meta map[string]json.RawMessage `json:"_meta"`
				} `json:"params"`
			}
			if err := json.Unmarshal(out, &m); err != nil {
				t.Fatalf("%s: %v", out, err)
			}
			if _, ok := m.Params.Meta[mcp.MetaPayment]; ok {
				t.Fatalf("the payment stayed in %s", out)
			}
		}
	})
}

// TestResumedStream: a server that keeps its events replays a stream to a
// client resuming it (GET with Last-Event-ID). A priced call whose
// settlement failed had its result dropped; resuming its stream must not
// deliver that result unpaid, while the stream's other events pass.
func TestResumedStream(t *testing.T) {
	t.Parallel()
	s := newSetupOf(t, false, nil, func(o *sdk.StreamableHTTPOptions) { o.EventStore = sdk.NewMemoryEventStore(nil) })
	s.fac.fail = x402.ErrorVerifyFailed
	close(s.up.release) // the slow tool reports progress, then finishes
	const version = "2025-06-18"
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	resp, body := post(t, s.url, init, "", version)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	post(t, s.url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session, version)
	paid, _ := json.Marshal(payment(offer("10000"), "slow"))
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":"p","x402/payment":` + string(paid) + `}}}`
	_, body = post(t, s.url, call, session, version)
	if strings.Contains(string(body), "slow results") || !strings.Contains(string(body), `"isError":true`) {
		t.Fatalf("a call whose settlement failed: %s", body)
	}
	// The id of the progress event, which came before the result.
	var progressID string
	for _, line := range strings.Split(string(body), "\n") {
		if id, ok := strings.CutPrefix(line, "id: "); ok && progressID == "" {
			progressID = id
		}
	}
	if progressID == "" {
		t.Fatalf("no event id in %s", body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // the stream stays open: read what it replays
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("MCP-Protocol-Version", version)
	req.Header.Set("Last-Event-ID", progressID)
	gresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	replayed, _ := io.ReadAll(gresp.Body) // ends when ctx does, or the server closes the stream
	gresp.Body.Close()
	if gresp.StatusCode != 200 || strings.Contains(string(replayed), "slow results") {
		t.Fatalf("the resumed stream (%d) replayed the unpaid result: %s", gresp.StatusCode, replayed)
	}
}

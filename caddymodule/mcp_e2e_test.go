package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/paywall/mcp"
	"github.com/caddy-x402/caddy-x402/x402"
)

const mcpCaddyfile = `{
	admin off
	x402 {
		network devnet {
			devnet_addr 127.0.0.1:{{chain}}
			paymaster_url http://127.0.0.1:{{paymaster}}
			sponsor_url http://127.0.0.1:{{facilitator}}/sponsor
		}
		network devnet {
			chain_id 84532
			devnet_addr 127.0.0.1:{{chain2}}
		}
	}
}

http://:{{facilitator}} {
	bind 127.0.0.1
	x402_facilitator
}

http://:{{paymaster}} {
	bind 127.0.0.1
	x402_paymaster {
		project demo {
			balance 100
		}
	}
}

http://:{{site}} {
	bind 127.0.0.1
	x402_path_guard
	handle /mcp {
		x402 {
			pay_to {{merchant}}
			mcp {
				tool search 0.01 "Searches the catalogue"
				tool broken 0.01
			}
		}
		reverse_proxy {{upstream}} {
			flush_interval -1
		}
	}
	handle /fast {
		x402 {
			pay_to {{merchant}}
			serve_on_broadcast {
				max_per_payer 1
				max_in_flight 0.05
			}
			mcp {
				tool search 0.03
			}
		}
		reverse_proxy {{upstream}}
	}
	handle /aa {
		x402 {
			pay_to {{merchant}}
			schemes aa-native
			mcp {
				tool search 0.01
			}
		}
		reverse_proxy {{upstream}}
	}
	handle /dynamic {
		x402 {
			pay_to {{merchant}}
			price_service {{prices}}
			mcp {
				tool search
			}
		}
		reverse_proxy {{upstream}}
	}
	handle /window {
		x402 {
			pay_to {{merchant}}
			access 1h {
				requests 2
			}
			mcp {
				tool search 0.04
			}
		}
		reverse_proxy {{upstream}}
	}
	handle /sse* {
		x402 {
			pay_to {{merchant}}
			mcp sse {
				tool search 0.02
			}
		}
		reverse_proxy {{legacy}} {
			flush_interval -1
		}
	}
	handle /messages* {
		x402 {
			pay_to {{merchant}}
			mcp sse {
				tool search 0.02
			}
		}
		reverse_proxy {{legacy}}
	}
}
`

// mcpUpstream is an unmodified MCP server of the official Go SDK, and
// how many calls each of its tools ran.
type mcpUpstream struct {
	search, broken, free atomic.Int32
	sawPayment           atomic.Bool
}

func (u *mcpUpstream) server() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "catalogue", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	tool := func(name string, n *atomic.Int32, isError bool) {
		srv.AddTool(&sdk.Tool{Name: name, InputSchema: schema}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			n.Add(1)
			if req.Params.Meta[mcp.MetaPayment] != nil {
				u.sawPayment.Store(true)
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name + " result"}}, IsError: isError}, nil
		})
	}
	tool("search", &u.search, false)
	tool("broken", &u.broken, true)
	tool("free", &u.free, false)
	return srv
}

// TestMCPThroughCaddy: on the devnet, through Caddy, the official Go
// SDK's MCP client pays a priced tool of the official Go SDK's MCP
// server, over streamable HTTP and over the HTTP+SSE transport. The
// unpaid call never reaches the server; the paid one is settled once,
// moving exactly the price; the same payment cannot pay a second call;
// a tool that fails is not charged; free tools and tools/list pass.
func TestMCPThroughCaddy(t *testing.T) {
	up := new(mcpUpstream)
	srv := up.server()
	streamable := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer streamable.Close()
	legacy := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer legacy.Close()
	// A price service that prices the tool search, asked with the path
	// mcp://tool/search.
	var asked atomic.Value
	prices := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct{ Path string }
		json.NewDecoder(r.Body).Decode(&q)
		asked.Store(q.Path)
		if q.Path != "mcp://tool/search" {
			http.Error(w, "unknown", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"price":"0.05"}`)
	}))
	defer prices.Close()

	ports := map[string]int{"chain": freePort(t), "chain2": freePort(t), "site": freePort(t), "facilitator": freePort(t), "paymaster": freePort(t)}
	merchant := crypto.PubkeyToAddress(mustKey(t, 6).PublicKey)
	payer := mustKey(t, 4)
	payerAddr := crypto.PubkeyToAddress(payer.PublicKey)
	cf := mcpCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{upstream}}", strings.TrimPrefix(streamable.URL, "http://"),
		"{{legacy}}", strings.TrimPrefix(legacy.URL, "http://"), "{{prices}}", prices.URL).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{t: t, eth: eth, token: wellknown.GenesisContracts().Token, chainURL: fmt.Sprintf("http://127.0.0.1:%d", ports["chain"])}
	site := fmt.Sprintf("http://127.0.0.1:%d", ports["site"])
	pay := &client.Transport{Key: payer, MaxAmount: big.NewInt(1_000_000)}

	connect := func(t *testing.T, transport sdk.Transport) *sdk.ClientSession {
		t.Helper()
		// The HTTP+SSE client's stream lives in the context it connects with.
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, transport, nil)
		if err != nil {
			t.Fatalf("connecting through Caddy: %v", err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	call := func(t *testing.T, cs *sdk.ClientSession, name string, payment *x402.PaymentPayload) *sdk.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		params := &sdk.CallToolParams{Name: name, Arguments: map[string]any{"q": "x"}}
		if payment != nil {
			params.Meta = sdk.Meta{mcp.MetaPayment: payment}
		}
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Fatalf("calling %s: %v", name, err)
		}
		return res
	}
	// challenge is the PaymentRequired of a payment-required result.
	challenge := func(t *testing.T, res *sdk.CallToolResult) *x402.PaymentRequired {
		t.Helper()
		b, _ := json.Marshal(res.StructuredContent)
		var pr x402.PaymentRequired
		if !res.IsError || json.Unmarshal(b, &pr) != nil || len(pr.Accepts) == 0 {
			t.Fatalf("want a payment-required result, got %+v", res)
		}
		return &pr
	}
	settlement := func(t *testing.T, res *sdk.CallToolResult) map[string]any {
		t.Helper()
		st, _ := res.Meta[mcp.MetaPaymentResponse].(map[string]any)
		if st == nil {
			t.Fatalf("no %s in %+v", mcp.MetaPaymentResponse, res)
		}
		return st
	}
	// paid runs a paid call of tool and checks that exactly price moved.
	paid := func(t *testing.T, cs *sdk.ClientSession, tool string, price int64, resource string) *x402.PaymentPayload {
		t.Helper()
		searches := up.search.Load()
		pr := challenge(t, call(t, cs, tool, nil))
		if pr.Resource.URL != resource || pr.Accepts[0].Amount != fmt.Sprint(price) {
			t.Fatalf("challenge %+v", pr)
		}
		if up.search.Load() != searches {
			t.Fatal("the unpaid call reached the MCP server")
		}
		payment, err := pay.Pay(pr, &pr.Accepts[0])
		if err != nil {
			t.Fatal(err)
		}
		merchantBefore, payerBefore := e.balance(merchant), e.balance(payerAddr)
		res := call(t, cs, tool, payment)
		st := settlement(t, res)
		if res.IsError || len(res.Content) == 0 || res.Content[0].(*sdk.TextContent).Text != tool+" result" || st["success"] != true || st["transaction"] == "" {
			t.Fatalf("paid call: %+v", res)
		}
		if got := new(big.Int).Sub(e.balance(merchant), merchantBefore); got.Int64() != price {
			t.Fatalf("the merchant got %s; want %d", got, price)
		}
		if got := new(big.Int).Sub(payerBefore, e.balance(payerAddr)); got.Int64() != price {
			t.Fatalf("the payer paid %s; want %d", got, price)
		}
		if up.search.Load() != searches+1 {
			t.Fatalf("the server ran %d calls; want 1", up.search.Load()-searches)
		}
		return payment
	}

	t.Run("streamable HTTP", func(t *testing.T) {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: site + "/mcp"})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if tools, err := cs.ListTools(ctx, nil); err != nil || len(tools.Tools) != 3 {
			t.Fatalf("tools/list: %v %+v", err, tools)
		}
		if res := call(t, cs, "free", nil); res.IsError || up.free.Load() != 1 {
			t.Fatalf("free tool: %+v", res)
		}
		payment := paid(t, cs, "search", 10_000, "mcp://tool/search")

		// The same payment for a second call: refused, nothing moves, and
		// the server does not run it.
		merchantBefore := e.balance(merchant)
		pr := challenge(t, call(t, cs, "search", payment))
		if up.search.Load() != 1 || e.balance(merchant).Cmp(merchantBefore) != 0 || pr.Error == "" {
			t.Fatalf("a replayed payment: %d calls, error %q", up.search.Load(), pr.Error)
		}

		// A tool that fails (isError) is delivered as it is, not charged.
		pr = challenge(t, call(t, cs, "broken", nil))
		payment, err := pay.Pay(pr, &pr.Accepts[0])
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, cs, "broken", payment)
		if !res.IsError || res.Content[0].(*sdk.TextContent).Text != "broken result" || res.Meta[mcp.MetaPaymentResponse] != nil {
			t.Fatalf("a failed tool: %+v", res)
		}
		if e.balance(merchant).Cmp(merchantBefore) != 0 || up.broken.Load() != 1 {
			t.Fatal("a failed tool was charged")
		}
		if up.sawPayment.Load() {
			t.Fatal("the MCP server saw a payment")
		}
	})

	t.Run("HTTP+SSE", func(t *testing.T) {
		cs := connect(t, &sdk.SSEClientTransport{Endpoint: site + "/sse"})
		paid(t, cs, "search", 20_000, "mcp://tool/search")
		if res := call(t, cs, "free", nil); res.IsError {
			t.Fatalf("free tool: %+v", res)
		}
	})

	// serve_on_broadcast, per tool: the result goes out once the
	// settlement is broadcast, and the payment is mined once.
	t.Run("serve on broadcast", func(t *testing.T) {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: site + "/fast"})
		pr := challenge(t, call(t, cs, "search", nil))
		payment, err := pay.Pay(pr, &pr.Accepts[0])
		if err != nil {
			t.Fatal(err)
		}
		merchantBefore, searches := e.balance(merchant), up.search.Load()
		res := call(t, cs, "search", payment)
		st := settlement(t, res)
		tx, _ := st["transaction"].(string)
		if res.IsError || st["success"] != true || tx == "" || up.search.Load() != searches+1 {
			t.Fatalf("paid call served on broadcast: %+v", res)
		}
		if _, err := waitReceipt(eth, tx); err != nil {
			t.Fatalf("the settlement %s was not mined: %v", tx, err)
		}
		if d := new(big.Int).Sub(e.balance(merchant), merchantBefore); d.Int64() != 30_000 {
			t.Fatalf("the merchant got %s; want 30000", d)
		}
		pr = challenge(t, call(t, cs, "search", payment))
		if !strings.Contains(pr.Error, "replay") && !strings.Contains(pr.Error, "in_flight") {
			t.Fatalf("the payment replayed: %q", pr.Error)
		}
	})

	// aa-native, per tool: an ERC-4337 smart account pays, its gas
	// sponsored.
	t.Run("aa-native", func(t *testing.T) {
		key, _ := crypto.GenerateKey()
		account := e.smartAccount(key)
		e.send(1, e.token, contracts.NewDevUSD().PackTransfer(account, big.NewInt(100_000)))
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: site + "/aa"})
		pr := challenge(t, call(t, cs, "search", nil))
		if pr.Accepts[0].Scheme != x402.SchemeAANative || pr.Resource.URL != "mcp://tool/search" {
			t.Fatalf("challenge %+v", pr)
		}
		tr := &client.Transport{Key: key, MaxAmount: big.NewInt(10_000), Schemes: []string{x402.SchemeAANative}, RPC: e.chainURL}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		payment, err := tr.PayAANative(ctx, pr, &pr.Accepts[0])
		if err != nil {
			t.Fatal(err)
		}
		merchantBefore := e.balance(merchant)
		res := call(t, cs, "search", payment)
		st := settlement(t, res)
		if res.IsError || st["success"] != true || st["userOpHash"] == nil || st["payer"] != account.Hex() {
			t.Fatalf("aa-native call: %+v", res)
		}
		if d := new(big.Int).Sub(e.balance(merchant), merchantBefore); d.Int64() != 10_000 || e.balance(account).Int64() != 90_000 {
			t.Fatalf("the merchant got %s, the account holds %s; want 10000 and 90000", d, e.balance(account))
		}
	})

	// Several networks, per tool: the challenge offers both dev chains,
	// and a payment on the second moves the price there.
	t.Run("second network", func(t *testing.T) {
		eth2, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain2"]))
		if err != nil {
			t.Fatal(err)
		}
		defer eth2.Close()
		e2 := &e2e{t: t, eth: eth2, token: e.token}
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: site + "/mcp"})
		pr := challenge(t, call(t, cs, "search", nil))
		i := slices.IndexFunc(pr.Accepts, func(o x402.PaymentRequirements) bool { return o.Network == "eip155:84532" })
		if i < 0 {
			t.Fatalf("no offer on the second network: %+v", pr.Accepts)
		}
		payment, err := pay.Pay(pr, &pr.Accepts[i])
		if err != nil {
			t.Fatal(err)
		}
		before, first := e2.balance(merchant), e.balance(merchant)
		res := call(t, cs, "search", payment)
		if st := settlement(t, res); res.IsError || st["network"] != "eip155:84532" {
			t.Fatalf("paid on the second network: %+v", res)
		}
		if d := new(big.Int).Sub(e2.balance(merchant), before); d.Int64() != 10_000 || e.balance(merchant).Cmp(first) != 0 {
			t.Fatalf("the merchant got %s on the second network (want 10000), and the first moved", d)
		}
	})

	// A tool priced for each call by the route's price service.
	t.Run("price service", func(t *testing.T) {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: site + "/dynamic"})
		paid(t, cs, "search", 50_000, "mcp://tool/search")
		if got, _ := asked.Load().(string); got != "mcp://tool/search" {
			t.Fatalf("the price service was asked for %q", got)
		}
	})

	// An access window: a paid call buys its session two calls in all.
	t.Run("access window", func(t *testing.T) {
		cs := connect(t, &sdk.StreamableClientTransport{Endpoint: site + "/window"})
		paid(t, cs, "search", 40_000, "mcp://tool/search")
		merchantBefore, searches := e.balance(merchant), up.search.Load()
		if res := call(t, cs, "search", nil); res.IsError || res.Content[0].(*sdk.TextContent).Text != "search result" {
			t.Fatalf("the window's call: %+v", res)
		}
		challenge(t, call(t, cs, "search", nil)) // the window is spent
		other := connect(t, &sdk.StreamableClientTransport{Endpoint: site + "/window"})
		challenge(t, call(t, other, "search", nil)) // another session has none
		if up.search.Load() != searches+1 || e.balance(merchant).Cmp(merchantBefore) != 0 {
			t.Fatalf("%d calls ran after the paid one; want 1, and nothing charged", up.search.Load()-searches)
		}
	})

	// The README's agent: examples/mcp-agent, in one command.
	t.Run("examples/mcp-agent", func(t *testing.T) {
		agent := mustKey(t, 8)
		merchantBefore := e.balance(merchant)
		cmd := exec.Command("go", "run", "./examples/mcp-agent", "-url", site+"/mcp", "-tool", "search")
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "X402_KEY="+common.Bytes2Hex(crypto.FromECDSA(agent)))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mcp-agent: %v\n%s", err, out)
		}
		for _, want := range []string{
			"payer " + crypto.PubkeyToAddress(agent.PublicKey).Hex(),
			"search costs 10000 of " + e.token.Hex() + " on eip155:31337 (mcp://tool/search)",
			"search result",
			"paid 10000 of " + e.token.Hex() + " on eip155:31337 (exact)",
			"transaction 0x",
		} {
			if !strings.Contains(string(out), want) {
				t.Fatalf("mcp-agent printed\n%s\nwithout %q", out, want)
			}
		}
		if d := new(big.Int).Sub(e.balance(merchant), merchantBefore); d.Int64() != 10_000 {
			t.Fatalf("the merchant got %s; want 10000", d)
		}
	})

	// Upstream's TypeScript clients: @modelcontextprotocol/sdk's client,
	// paying with @x402/core and @x402/evm's exact scheme.
	for _, tc := range []struct{ transport, path string }{{"streamable", "/mcp"}, {"sse", "/sse"}} {
		t.Run("node "+tc.transport, func(t *testing.T) {
			dir := interopClients(t)
			if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
				t.Fatalf("interop/node_modules lacks @modelcontextprotocol/sdk: run npm ci --prefix interop (%v)", err)
			}
			agent := mustKey(t, 9)
			agentAddr := crypto.PubkeyToAddress(agent.PublicKey)
			merchantBefore, agentBefore, searches := e.balance(merchant), e.balance(agentAddr), up.search.Load()
			cmd := exec.Command("node", "mcp-client.mjs")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "URL="+site+tc.path, "TRANSPORT="+tc.transport, "TOOL=search",
				"RPC="+fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]), "ASSET="+e.token.Hex(),
				"X402_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(agent)))
			out, err := cmd.Output()
			if err != nil {
				var stderr []byte
				if ee, ok := err.(*exec.ExitError); ok {
					stderr = ee.Stderr
				}
				t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
			}
			var got struct {
				Tools     []string
				Challenge struct {
					IsError          bool
					Resource, Amount string
				}
				Paid struct {
					IsError    bool
					Text       string
					Settlement *struct {
						Success     bool
						Transaction string
					}
				}
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("script output %s: %v", out, err)
			}
			price := map[string]int64{"streamable": 10_000, "sse": 20_000}[tc.transport]
			if !got.Challenge.IsError || got.Challenge.Resource != "mcp://tool/search" || got.Challenge.Amount != fmt.Sprint(price) ||
				got.Paid.IsError || got.Paid.Text != "search result" || got.Paid.Settlement == nil || !got.Paid.Settlement.Success || got.Paid.Settlement.Transaction == "" {
				t.Fatalf("script output %s", out)
			}
			if d := new(big.Int).Sub(e.balance(merchant), merchantBefore); d.Int64() != price {
				t.Fatalf("the merchant got %s; want %d", d, price)
			}
			if d := new(big.Int).Sub(agentBefore, e.balance(agentAddr)); d.Int64() != price {
				t.Fatalf("the agent paid %s; want %d", d, price)
			}
			if up.search.Load() != searches+1 {
				t.Fatalf("the server ran %d searches; want 1", up.search.Load()-searches)
			}
		})
	}
}

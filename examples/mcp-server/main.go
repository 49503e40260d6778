// Command mcp-server is the demo's MCP server: an ordinary server of the
// official Go MCP SDK, which knows nothing of payments, over streamable
// HTTP. The demo (Caddyfile.example) charges for its tool search at
// http://localhost:8080/mcp; echo stays free.
//
//	go run ./examples/mcp-server
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// query is the arguments of both tools.
type query struct {
	Q string `json:"q" jsonschema:"what to look for, or to echo"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:9001", "where to listen")
	flag.Parse()

	server := mcp.NewServer(&mcp.Implementation{Name: "caddy-x402-demo", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "search", Description: "Searches the demo catalogue (0.01 dUSD a call through Caddy)"},
		func(_ context.Context, _ *mcp.CallToolRequest, in query) (*mcp.CallToolResult, any, error) {
			text := fmt.Sprintf("3 results for %q: the paid report, the free page, the demo", in.Q)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Echoes its input (free)"},
		func(_ context.Context, _ *mcp.CallToolRequest, in query) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.TrimSpace(in.Q)}}}, nil, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	log.Printf("MCP server on http://%s (charged for by the demo at http://localhost:8080/mcp)", *addr)
	srv := &http.Server{Addr: *addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

package caddymodule

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/dustin/go-humanize"

	"github.com/caddy-x402/caddy-x402/paywall/mcp"
)

// MCPConfig puts a route in MCP mode: it sits in front of an MCP server
// and charges for the calls of its priced tools only (x402's MCP
// transport), passing every other message through free. The route's
// pay_to, networks, assets and schemes apply to every tool; each tool has
// its own price, and its payments name the resource mcp://tool/<name>.
// See docs/mcp.md.
type MCPConfig struct {
	// Transport is the MCP server's transport: streamable_http (protocol
	// 2025-03-26 and later: POST, GET and DELETE on one endpoint) or sse
	// (the HTTP+SSE transport of protocol 2024-11-05: GET an event stream,
	// POST to the endpoint it names). Default: streamable_http.
	Transport string `json:"transport,omitempty"`
	// Tools are the priced tools. Every other tool is free. A call whose
	// name differs from a priced tool's only in case or Unicode form is
	// refused, never forwarded.
	Tools []MCPTool `json:"tools"`
	// MaxBody bounds a request's body, such as 1MiB (the default); a
	// larger one is answered 413 with a JSON-RPC error.
	MaxBody string `json:"max_body,omitempty"`
}

// MCPTool is one priced tool of an MCP route.
type MCPTool struct {
	// Name is the tool's exact name, as tools/list gives it.
	Name string `json:"name"`
	// Price is the price of one call, in whole tokens (0.01) or US
	// dollars ($0.01), as the route's price option. A tool without a price
	// or an amount is priced for each call by the route's price_service,
	// whose query's path is then mcp://tool/<name>.
	Price string `json:"price,omitempty"`
	// Amount is the price of one call in atomic units, instead of Price.
	Amount string `json:"amount,omitempty"`
	// Description describes the tool to payers, in its challenge.
	// Default: "MCP tool <name>".
	Description string `json:"description,omitempty"`
}

// MCP transports, MCPConfig.Transport.
const (
	mcpStreamable = "streamable_http"
	mcpSSE        = "sse"
)

// validate checks an MCP route, refusing the route options that cannot
// apply to MCP, each with the reason (docs/mcp.md).
func (m *MCPConfig) validate(h *Handler) error {
	var errs []error
	switch m.Transport {
	case "", mcpStreamable, mcpSSE:
	default:
		errs = append(errs, fmt.Errorf("x402 mcp transport %q: want streamable_http or sse", m.Transport))
	}
	if len(m.Tools) == 0 {
		errs = append(errs, errors.New("x402 mcp needs at least one priced tool (tool <name> <price>)"))
	}
	seen := map[string]bool{}
	for _, t := range m.Tools {
		switch {
		case t.Name == "":
			errs = append(errs, errors.New("x402 mcp: a tool without a name"))
		case seen[t.Name]:
			errs = append(errs, fmt.Errorf("x402 mcp: tool %q is priced twice", t.Name))
		case t.Price != "" && t.Amount != "":
			errs = append(errs, fmt.Errorf("x402 mcp tool %q: give a price or an amount, not both", t.Name))
		case t.Price == "" && t.Amount == "" && h.PriceService == nil:
			errs = append(errs, fmt.Errorf("x402 mcp tool %q: give a price or an amount, or the route a price_service that prices its calls", t.Name))
		case strings.Contains(t.Price, "{") || strings.Contains(t.Amount, "{"):
			errs = append(errs, fmt.Errorf("x402 mcp tool %q: a tool's price is fixed; placeholders are not resolved per call", t.Name))
		}
		seen[t.Name] = true
	}
	if _, err := m.maxBody(); err != nil {
		errs = append(errs, err)
	}
	refuse := func(set bool, option, why string) {
		if set {
			errs = append(errs, fmt.Errorf("x402 mcp: %s does not apply to an MCP route: %s", option, why))
		}
	}
	refuse(h.Price != "" || h.Amount != "", "a route price", "each priced tool has its own (tool <name> <price>), and the rest are free")
	refuse(h.Upto != nil, "upto", "it meters an HTTP response (bytes, seconds or a usage header), which a tool result has none of")
	refuse(h.SettleBefore, "settle_before", "an MCP call is charged only when its tool succeeded, which is known only after it ran")
	if a := h.Access; a != nil {
		refuse(len(a.Keys) > 0 || a.CookiePath != "", "access_key and access cookie_path", "an MCP session's window is its Mcp-Session-Id, not a cookie")
	}
	refuse(h.Bazaar != nil, "bazaar", "its declaration describes an HTTP endpoint, not a tool")
	refuse(h.PaywallTemplate != "", "paywall_template", "an MCP client gets the challenge as a tool result, never a browser page")
	return errors.Join(errs...)
}

// maxBody is MaxBody in bytes, 0 for the default.
func (m *MCPConfig) maxBody() (int64, error) {
	if m.MaxBody == "" {
		return 0, nil
	}
	n, err := humanize.ParseBytes(m.MaxBody)
	if err != nil || n == 0 || n > 64<<20 {
		return 0, fmt.Errorf("x402 mcp max_body %q: want a size up to 64MiB, such as 1MiB", m.MaxBody)
	}
	return int64(n), nil
}

// provisionMCP provisions an MCP route: one paywall per priced tool,
// each the route's own at the tool's price (a Handler of its own, for
// the offers, the hooks and the metrics), and the MCP paywall in front.
func (h *Handler) provisionMCP(ctx caddy.Context) error {
	gates := map[string]mcp.Gate{}
	windows, err := h.mcpWindows()
	if err != nil {
		return err
	}
	for _, t := range h.MCP.Tools {
		tool := *h // the route's options, at the tool's price
		tool.MCP, tool.Price, tool.Amount = nil, t.Price, t.Amount
		if t.Price != "" || t.Amount != "" {
			tool.PriceService = nil // a fixed price; else the route's service prices each call
		}
		tool.Access = nil // the route's windows are its sessions' (mcpWindows)
		tool.Description = t.Description
		if tool.Description == "" {
			tool.Description = "MCP tool " + t.Name
		}
		tool.resource = mcp.ResourceURL(t.Name)
		if err := tool.Provision(ctx); err != nil {
			return fmt.Errorf("x402 mcp tool %q: %w", t.Name, err)
		}
		// Its refusals are counted under the tool, not a route of its own.
		tool.route.once.Do(func() { tool.route.label = tool.resource })
		h.tools = append(h.tools, &tool)
		gates[t.Name] = toolGate{&tool}
	}
	var transport mcp.Transport = mcp.StreamableHTTP{}
	if h.MCP.Transport == mcpSSE {
		transport = mcp.NewLegacySSE()
	}
	maxBody, _ := h.MCP.maxBody() // checked by Validate
	h.mcp, err = mcp.New(mcp.Config{Tools: gates, Transport: transport, MaxBody: maxBody, Windows: windows})
	return err
}

// mcpWindows are an MCP route's access windows: a paid call buys its MCP
// session a window on the tool, kept in the x402 app's store (so a fleet
// shares it) under the route's name and the tool's.
func (h *Handler) mcpWindows() (*mcp.Windows, error) {
	a := h.Access
	if a == nil {
		return nil, nil
	}
	if h.app.chain == nil {
		return nil, errors.New("x402 access keeps its windows in the x402 app's store, which needs the app's embedded facilitator (a route with facilitator_url alone has none)")
	}
	route := a.Route
	if route == "" {
		var err error
		if route, err = h.routeID(); err != nil {
			return nil, err
		}
	}
	return &mcp.Windows{
		Store: &chainWindows{chain: h.app.chain}, Duration: time.Duration(a.Duration), Requests: a.Requests,
		Scope: func(tool string) string { return route + "/" + mcp.ResourceURL(tool) },
	}, nil
}

// toolGate is a priced tool's paywall as the MCP paywall's gate, counted
// in the metrics as its own route's.
type toolGate struct{ h *Handler }

func (g toolGate) ServeNext(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request) error) error {
	return g.h.observe(w, r, func(w http.ResponseWriter, r *http.Request) error {
		return g.h.paywall.ServeNext(w, r, func(w http.ResponseWriter, r *http.Request) error {
			if obs := observationOf(r); obs != nil {
				obs.upstream = true
			}
			return next(w, r)
		})
	})
}

// serveMCP serves a request of an MCP route.
func (h *Handler) serveMCP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	return h.mcp.ServeNext(w, r, func(w http.ResponseWriter, r *http.Request) error {
		return serveUpstream(w, r, next, h.log)
	})
}

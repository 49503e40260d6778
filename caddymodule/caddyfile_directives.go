package caddymodule

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
)

// parseDirective parses a handler directive into the module *T.
func parseDirective[T any, PT interface {
	*T
	caddyhttp.MiddlewareHandler
	caddyfile.Unmarshaler
}](h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	m := PT(new(T))
	err := m.UnmarshalCaddyfile(h.Dispenser)
	return m, err
}

// UnmarshalCaddyfile sets up the paywall from Caddyfile tokens:
//
//	x402 [<price>] {
//		pay_to          <address>
//		price           <whole tokens, such as 0.01> | $<US dollars, such as $0.01>
//		amount          <atomic units>
//		networks        <caip-2 id>...  (default: every network of the x402 app)
//		asset           <address> | <token>...
//		schemes         <scheme>...
//		description     <text>
//		mime_type       <type>
//		origin          <scheme://host>
//		max_timeout     <duration>
//		settle_before
//		facilitator_url <url>
//		paywall_template <file>
//		bazaar {        (see BazaarConfig)
//			path          <path>
//			method        <method>
//			body_type     <json|form-data|text>
//			input_schema  <JSON Schema>
//			output_schema <JSON Schema>
//			input_example  <JSON object>
//			output_example <JSON object>
//			category      <category>
//			tags          <tag>...
//		}
//		price_service   <url> {
//			headers  <name>...
//			cache    <duration>
//			timeout  <duration>
//			fallback <whole tokens>
//		}
//		access <duration> {  (see AccessConfig)
//			requests <n>
//			route    <name>
//		}
//		access_key <placeholder>...
//		serve_on_broadcast {  (see BroadcastConfig)
//			max_per_payer <n>
//			max_in_flight <whole tokens> | $<US dollars>
//		}
//		mcp [streamable_http|sse] {  (see MCPConfig)
//			tool     <name> [<price> [<description>]]
//			max_body <size>
//		}
//	}
func (h *Handler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the directive name
	if d.NextArg() {
		h.Price = d.Val()
		if d.NextArg() {
			return d.ArgErr()
		}
	}
	return parseBlock(d, 0, "x402 subdirective", map[string]option{
		"pay_to": stringOption(&h.PayTo), "price": stringOption(&h.Price), "amount": stringOption(&h.Amount),
		"description": stringOption(&h.Description), "mime_type": stringOption(&h.MimeType),
		"origin": stringOption(&h.Origin), "facilitator_url": stringOption(&h.FacilitatorURL), "paywall_template": stringOption(&h.PaywallTemplate),
		"asset": listOption(&h.Assets), "assets": listOption(&h.Assets),
		"schemes": listOption(&h.Schemes), "scheme": listOption(&h.Schemes),
		"networks": listOption(&h.Networks), "network": listOption(&h.Networks), "serve_on_broadcast": h.parseBroadcast,
		"max_timeout":   durationOption(&h.MaxTimeout),
		"settle_before": flagOption(&h.SettleBefore),
		"bazaar":        unmarshalBazaar(&h.Bazaar),
		"price_service": h.parsePriceService,
		"access":        h.parseAccess,
		"access_key":    h.parseAccessKey,
		"upto":          h.parseUpto,
		"mcp":           h.parseMCP,
	})
}

// UnmarshalCaddyfile sets up the facilitator handler:
//
//	x402_facilitator [{
//		verifies_per_minute <n>
//		anonymous_verifies_per_second <n>
//	}]
//
// The chain is configured in the x402 global option.
func (f *FacilitatorHandler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()
	if d.NextArg() {
		return d.Err("x402_facilitator takes no arguments; configure the chain in the x402 global option")
	}
	budget := func(dst *int) option {
		return valueOption(func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n == 0 || n < -1 {
				return errors.New("want a positive whole number, or -1 for no limit")
			}
			*dst = n
			return nil
		})
	}
	return parseBlock(d, d.Nesting(), "x402_facilitator option", map[string]option{
		"verifies_per_minute":           budget(&f.VerifiesPerMinute),
		"anonymous_verifies_per_second": budget(&f.AnonymousVerifiesPerSecond),
	})
}

// UnmarshalCaddyfile sets up the path guard from Caddyfile tokens. It goes
// in every site block that has x402, without a matcher:
//
//	x402_path_guard [allow_path_params]
//
// or
//
//	x402_path_guard {
//		allow_path_params
//	}
func (g *PathGuard) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the directive name
	for d.NextArg() {
		if d.Val() != "allow_path_params" {
			return d.Errf("unknown x402_path_guard option %q", d.Val())
		}
		g.AllowPathParams = true
	}
	return parseBlock(d, 0, "x402_path_guard option", map[string]option{
		"allow_path_params": flagOption(&g.AllowPathParams),
	})
}

// UnmarshalCaddyfile sets up the paymaster from Caddyfile tokens:
//
//	x402_paymaster {
//		signer_key  {env.NAME} | {file.PATH}
//		entry_point <address> [<version>] [{…}] (once per EntryPoint: caddyfile_entrypoint.go)
//		paymaster   <address>
//		dev_key     <key>
//		validity    <duration>
//		max_batch   <n>
//		project <name> {
//			balance          <ETH>
//			daily_gas_cap    <ETH>
//			tx_per_minute    <n>
//			max_in_flight    <n>
//			calls_per_minute <n>
//			max_fee_per_gas  <gwei>
//		}
//		token_paymaster     <address>
//		token_paymaster_v07 <address>
//		gas_token <address> {
//			price         <tokens per ETH>
//			price_feed    <address>
//			max_age       <duration>
//			markup        <percent>%
//			types         1 2
//			rate_validity <duration>
//		}
//	}
func (h *PaymasterHandler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()
	if d.NextArg() {
		return d.ArgErr()
	}
	return parseBlock(d, 0, "x402_paymaster option", map[string]option{
		"signer_key": stringOption(&h.SignerKey), "entry_point": entryPointOption(&h.EntryPoints, "paymaster", "token_paymaster"),
		"paymaster": entryPointAlias(&h.EntryPoints, "0.6", "paymaster"), "dev_key": stringOption(&h.DevKey),
		"entry_point_v07": entryPointAlias(&h.EntryPoints, "0.7", "address"), "paymaster_v07": entryPointAlias(&h.EntryPoints, "0.7", "paymaster"),
		"validity": durationOption(&h.Validity), "max_batch": countOption(&h.MaxBatch),
		"project": h.parseProject, "token_paymaster": entryPointAlias(&h.EntryPoints, "0.6", "token_paymaster"),
		"token_paymaster_v07": entryPointAlias(&h.EntryPoints, "0.7", "token_paymaster"),
		"gas_token":           h.parseGasToken,
	})
}

// parseGasToken reads `gas_token <address> { … }`.
func (h *PaymasterHandler) parseGasToken(d *caddyfile.Dispenser) error {
	var g GasTokenConfig
	if !d.Args(&g.Address) || d.NextArg() {
		return d.Err("gas_token takes a token address, then a block")
	}
	if err := parseBlock(d, 1, "gas_token option", map[string]option{
		"price": stringOption(&g.Price), "price_feed": stringOption(&g.PriceFeed),
		"max_age": durationOption(&g.MaxAge), "markup": stringOption(&g.Markup),
		"rate_validity": durationOption(&g.RateValidity),
		"types": func(d *caddyfile.Dispenser) error {
			args := d.RemainingArgs()
			if len(args) == 0 {
				return d.ArgErr()
			}
			for _, a := range args {
				n, err := strconv.Atoi(a)
				if err != nil || (n != 1 && n != 2) {
					return d.Errf("types %q: want 1 and/or 2", a)
				}
				g.Types = append(g.Types, n)
			}
			return nil
		},
	}); err != nil {
		return err
	}
	h.GasTokens = append(h.GasTokens, g)
	return nil
}

// parseProject reads `project <name> { … }`.
func (h *PaymasterHandler) parseProject(d *caddyfile.Dispenser) error {
	var p ProjectConfig
	if !d.Args(&p.Name) || d.NextArg() {
		return d.Err("project takes a name, then a block")
	}
	if err := parseBlock(d, 1, "project option", map[string]option{
		"balance": stringOption(&p.Balance), "daily_gas_cap": stringOption(&p.DailyGasCap),
		"max_fee_per_gas": stringOption(&p.MaxFeePerGas),
		"tx_per_minute":   countOption(&p.TxPerMinute), "max_in_flight": countOption(&p.MaxInFlight),
		"calls_per_minute": countOption(&p.CallsPerMinute),
	}); err != nil {
		return err
	}
	h.Projects = append(h.Projects, p)
	return nil
}

// UnmarshalCaddyfile sets up the API from Caddyfile tokens:
//
//	x402_txapi {
//		wallet_key           {env.NAME} | {file.PATH}
//		token                <address>
//		max_value            <ETH>
//		max_message          <bytes>
//		faucet_max_amount    <tokens>
//		faucet_max_gas_price <gwei>
//		faucet_native        <ETH>
//		faucet_cooldown      <duration>
//		faucet_per_client    <n>
//		faucet_daily         <n>
//		key_rate             <n per minute>
//		key_daily_budget     <ETH>
//		daily_budget         <ETH>
//	}
func (h *TxAPIHandler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()
	if d.NextArg() {
		return d.ArgErr()
	}
	return parseBlock(d, 0, "x402_txapi option", map[string]option{
		"wallet_key": stringOption(&h.WalletKey), "token": stringOption(&h.Token),
		"max_value": stringOption(&h.MaxValue), "max_message": countOption(&h.MaxMessage),
		"faucet_max_amount": stringOption(&h.FaucetMaxAmount), "faucet_max_gas_price": stringOption(&h.FaucetMaxGasPrice),
		"faucet_native": stringOption(&h.FaucetNative), "faucet_cooldown": durationOption(&h.FaucetCooldown),
		"faucet_per_client": countOption(&h.FaucetPerClient), "faucet_daily": countOption(&h.FaucetDaily),
		"key_rate": countOption(&h.KeyRate), "key_daily_budget": stringOption(&h.KeyDailyBudget),
		"daily_budget": stringOption(&h.DailyBudget),
	})
}

// UnmarshalCaddyfile sets up the dashboard from Caddyfile tokens:
//
//	x402_dashboard {
//		low_balance <ETH>
//		path_prefix <path>
//		allow_anonymous
//	}
func (h *DashboardHandler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()
	if d.NextArg() {
		return d.ArgErr()
	}
	return parseBlock(d, 0, "x402_dashboard option", map[string]option{
		"low_balance": stringOption(&h.LowBalance), "path_prefix": stringOption(&h.PathPrefix),
		"allow_anonymous": flagOption(&h.AllowAnonymous),
	})
}

// parseAccess reads `access <duration> [{ requests <n>; route <name>; cookie_path <path> }]`.
func (h *Handler) parseAccess(d *caddyfile.Dispenser) error {
	if h.Access == nil {
		h.Access = new(AccessConfig)
	}
	a := h.Access
	if !d.NextArg() {
		return d.Err("access takes the window's duration, such as 1h")
	}
	dur, err := caddy.ParseDuration(d.Val())
	if err != nil || dur <= 0 {
		return d.Errf("access %q: want a positive duration, such as 1h", d.Val())
	}
	a.Duration = caddy.Duration(dur)
	if d.NextArg() {
		return d.ArgErr()
	}
	return parseBlock(d, d.Nesting(), "x402 access option", map[string]option{
		"requests": valueOption(func(v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return errors.New("want a positive whole number")
			}
			a.Requests = n
			return nil
		}),
		"route":       stringOption(&a.Route),
		"cookie_path": stringOption(&a.CookiePath),
	})
}

// parseAccessKey reads `access_key <placeholder>...`.
func (h *Handler) parseAccessKey(d *caddyfile.Dispenser) error {
	if h.Access == nil {
		h.Access = new(AccessConfig)
	}
	keys := d.RemainingArgs()
	if len(keys) == 0 {
		return d.ArgErr()
	}
	h.Access.Keys = append(h.Access.Keys, keys...)
	return nil
}

// unmarshalBazaar reads the bazaar block of x402:
//
//	bazaar {
//		path          <path>
//		method        <GET|HEAD|DELETE|POST|PUT|PATCH>
//		body_type     <json|form-data|text>
//		input_schema  <JSON Schema, inline>
//		output_schema <JSON Schema, inline>
//		input_example  <JSON object>
//		output_example <JSON object>
//		category      <category>
//		tags          <tag>...
//	}
func unmarshalBazaar(dst **BazaarConfig) option {
	return func(d *caddyfile.Dispenser) error {
		if d.NextArg() {
			return d.ArgErr()
		}
		b := new(BazaarConfig)
		*dst = b
		jsonValue := func(dst *json.RawMessage) option {
			return valueOption(func(v string) error {
				// Checked here too: the Caddyfile adapter could not
				// write a value that is not JSON into the JSON config.
				if len(v) > facilitator.MaxBazaarSchema {
					return fmt.Errorf("%d bytes, more than the %d allowed", len(v), facilitator.MaxBazaarSchema)
				}
				if !json.Valid([]byte(v)) {
					return errors.New("not JSON: give the schema inline, in backquotes (a URL is never fetched)")
				}
				*dst = json.RawMessage(v)
				return nil
			})
		}
		return parseBlock(d, d.Nesting(), "x402 bazaar option", map[string]option{
			"path": stringOption(&b.Path), "method": stringOption(&b.Method), "body_type": stringOption(&b.BodyType),
			"input_schema": jsonValue(&b.InputSchema), "output_schema": jsonValue(&b.OutputSchema),
			"input_example": jsonValue(&b.InputExample), "output_example": jsonValue(&b.OutputExample),
			"category": stringOption(&b.Category), "tags": listOption(&b.Tags),
		})
	}
}

// parseBroadcast reads serve_on_broadcast in a route:
//
//	serve_on_broadcast {
//		max_per_payer <n>
//		max_in_flight <whole tokens> | $<US dollars>
//	}
func (h *Handler) parseBroadcast(d *caddyfile.Dispenser) error {
	if d.NextArg() {
		return d.ArgErr()
	}
	b := new(BroadcastConfig)
	if err := parseBlock(d, 1, "serve_on_broadcast option", map[string]option{
		"max_per_payer": countOption(&b.MaxPerPayer), "max_in_flight": stringOption(&b.MaxInFlight),
	}); err != nil {
		return err
	}
	h.ServeOnBroadcast = b
	return nil
}

// parseMCP reads
//
//	mcp [streamable_http|sse] {
//		tool     <name> [<price> [<description>]]  (no price: the route's price_service prices it)
//		max_body <size>
//	}
func (h *Handler) parseMCP(d *caddyfile.Dispenser) error {
	m := new(MCPConfig)
	if d.NextArg() {
		m.Transport = d.Val()
		if d.NextArg() {
			return d.ArgErr()
		}
	}
	h.MCP = m
	return parseBlock(d, d.Nesting(), "x402 mcp option", map[string]option{
		"max_body": stringOption(&m.MaxBody),
		"tool": func(d *caddyfile.Dispenser) error {
			args := d.RemainingArgs()
			if len(args) < 1 || len(args) > 3 {
				return d.Errf("tool takes a name, then a price (none: the route's price_service) and a description")
			}
			t := MCPTool{Name: args[0]}
			if len(args) > 1 {
				t.Price = args[1]
			}
			if len(args) > 2 {
				t.Description = args[2]
			}
			m.Tools = append(m.Tools, t)
			return nil
		},
	})
}

// parsePriceService reads `price_service <url> { … }`.
func (h *Handler) parsePriceService(d *caddyfile.Dispenser) error {
	var s PriceServiceConfig
	if !d.Args(&s.URL) || d.NextArg() {
		return d.Err("price_service takes a URL, then an optional block")
	}
	if err := parseBlock(d, d.Nesting(), "price_service option", map[string]option{
		"headers": listOption(&s.Headers), "header": listOption(&s.Headers),
		"cache": durationOption(&s.Cache), "timeout": durationOption(&s.Timeout),
		"fallback": stringOption(&s.Fallback),
	}); err != nil {
		return err
	}
	h.PriceService = &s
	return nil
}

// parseUpto reads `upto per_byte <price>`, `upto per_second <price>` or
// `upto usage_header <name> <price>`, each with an optional block
// `{ hold <size> }`.
func (h *Handler) parseUpto(d *caddyfile.Dispenser) error {
	args := d.RemainingArgs()
	u := new(UptoConfig)
	switch {
	case len(args) == 2 && args[0] == "per_byte":
		u.Per, u.Price = paywall.UsageBytes, args[1]
	case len(args) == 2 && args[0] == "per_second":
		u.Per, u.Price = paywall.UsageSeconds, args[1]
	case len(args) == 3 && args[0] == "usage_header":
		u.Per, u.Header, u.Price = paywall.UsageHeader, args[1], args[2]
	default:
		return d.Errf("upto takes per_byte <price>, per_second <price> or usage_header <name> <price>")
	}
	h.Upto = u
	return parseBlock(d, d.Nesting(), "x402 upto option", map[string]option{
		"hold": stringOption(&u.Hold),
	})
}

// Interface guards.
var (
	_ caddyfile.Unmarshaler = (*App)(nil)
	_ caddyfile.Unmarshaler = (*Handler)(nil)
	_ caddyfile.Unmarshaler = (*FacilitatorHandler)(nil)
	_ caddyfile.Unmarshaler = (*PaymasterHandler)(nil)
	_ caddyfile.Unmarshaler = (*TxAPIHandler)(nil)
	_ caddyfile.Unmarshaler = (*DashboardHandler)(nil)
	_ caddyfile.Unmarshaler = (*PathGuard)(nil)
)

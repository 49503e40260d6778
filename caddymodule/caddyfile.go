package caddymodule

import (
	"errors"
	"strconv"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

func init() {
	httpcaddyfile.RegisterGlobalOption("x402", parseGlobal)
	httpcaddyfile.RegisterHandlerDirective("x402", parseDirective[Handler])
	httpcaddyfile.RegisterHandlerDirective("x402_facilitator", parseDirective[FacilitatorHandler])
	httpcaddyfile.RegisterHandlerDirective("x402_paymaster", parseDirective[PaymasterHandler])
	httpcaddyfile.RegisterHandlerDirective("x402_txapi", parseDirective[TxAPIHandler])
	httpcaddyfile.RegisterHandlerDirective("x402_dashboard", parseDirective[DashboardHandler])
	httpcaddyfile.RegisterHandlerDirective(pathGuardName, parseDirective[PathGuard])
	// The path guard goes ahead of everything, routing included.
	httpcaddyfile.RegisterDirectiveOrder(pathGuardName, httpcaddyfile.Before, "tracing")
	// Payment comes before the handlers that answer: respond, and after it
	// reverse_proxy, file_server and the rest. (Authentication, such as
	// basic_auth in front of x402_dashboard, comes before them all.)
	for _, dir := range []string{"x402", "x402_facilitator", "x402_paymaster", "x402_txapi", "x402_dashboard"} {
		httpcaddyfile.RegisterDirectiveOrder(dir, httpcaddyfile.Before, "respond")
	}
}

// The Caddyfile only reads the options; what is wrong with their values is
// for the modules' Validate to say.

// parseGlobal parses the x402 global option into the x402 app. The network
// is required (devnet is never a default); values that name a place or an
// address may be {env.*} or {file.*} placeholders (see App):
//
//	x402 {
//		network         devnet | <caip-2 id>
//		rpc             <url>
//		devnet_addr     <host:port>
//		chain_id        <id>        (devnet; default 31337)
//		settler_key     {env.NAME} | {file.PATH}
//		store_path      <path>
//		store           bolt <path> | postgres {env.NAME} | {file.PATH}
//		database_max_conns <n>      (with store postgres; default 10)
//		database_schema <name>      (with store postgres; default search_path)
//		claim_takeover  <duration>  (with store postgres; default 5m)
//		asset           <token> | <address> <eip712-name> <eip712-version> [<decimals>]
//		receipt_timeout <duration>
//		wallet_gas      <n>         (default 300000)
//		wallet_reverts  <n>         (contract-wallet reverts per hour; default 20)
//		facilitator_url <url>
//		facilitator_key {env.NAME} | {file.PATH}  (Bearer key for facilitator_url)
//		entry_point     <address> [<version>] [{…}] (aa-native, once per EntryPoint: caddyfile_entrypoint.go)
//		account_factory <address>
//		settlement      <address>
//		paymaster       <address>
//		paymaster_url   <url>       (where /sponsor forwards)
//		paymaster_key   {env.NAME} | {file.PATH}
//		sponsor_url     <url>       (the public /sponsor, in offers)
//		bundler_url     <url>       (an external ERC-4337 bundler, of the EntryPoints it lists)
//		sponsor_limits {            (the anonymous budget of /sponsor)
//			per_client             <n>  (a minute; default 30)
//			per_client_outstanding <n>  (default 10)
//			per_sender             <n>  (a minute; default 10)
//			max_outstanding        <n>  (default 40)
//			validity               <duration> (default 2m)
//		}
//		serve_on_broadcast {        (the site's bound; see SiteBroadcastConfig)
//			max_in_flight <whole tokens> | $<US dollars>
//			penalty       <duration> (default 24h)
//		}
//	}
//
// An app of several networks gives each its own block, with the network
// options above (rpc through bundler_url, store_path and database_schema;
// not store, which names the database all share):
//
//	x402 {
//		network eip155:8453 {
//			rpc         {env.BASE_RPC}
//			settler_key {env.BASE_SETTLER_KEY}
//			asset       0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USD Coin" 2
//		}
//		network eip155:84532 {
//			…
//		}
//		receipt_timeout 30s
//	}
func parseGlobal(d *caddyfile.Dispenser, _ any) (any, error) {
	app := new(App)
	if err := app.UnmarshalCaddyfile(d); err != nil {
		return nil, err
	}
	return httpcaddyfile.App{Name: "x402", Value: caddyconfig.JSON(app, nil)}, nil
}

// UnmarshalCaddyfile sets up the app from Caddyfile tokens.
func (a *App) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the option name
	if d.NextArg() {
		return d.ArgErr()
	}
	options := a.NetworkConfig.options()
	for name, read := range map[string]option{
		"network":         a.parseNetwork,
		"facilitator_url": stringOption(&a.FacilitatorURL), "facilitator_key": stringOption(&a.FacilitatorKey),
		"merchant_name":        stringOption(&a.MerchantName),
		"receipt_timeout":      durationOption(&a.ReceiptTimeout),
		"database_max_conns":   countOption(&a.DatabaseMaxConns),
		"claim_takeover":       durationOption(&a.ClaimTakeover),
		"settlement_retention": retentionOption(&a.SettlementRetention),
		"store":                a.parseStore,
		"sponsor_limits":       a.parseSponsorLimits,
		"webhook":              a.parseWebhook,
		"serve_on_broadcast":   a.parseSiteBroadcast,
	} {
		options[name] = read
	}
	return parseBlock(d, 0, "x402 option", options)
}

// options are the Caddyfile options of a network, at the top level (one
// network) or in a network block.
func (n *NetworkConfig) options() map[string]option {
	return map[string]option{
		"rpc": stringOption(&n.RPC), "devnet_addr": stringOption(&n.DevnetAddr),
		"settler_key": stringOption(&n.SettlerKey), "store_path": stringOption(&n.StorePath),
		"entry_point": entryPointOption(n.entryPointSlots()), "account_factory": stringOption(&n.AccountFactory),
		"settlement": stringOption(&n.Settlement), "paymaster": stringOption(&n.Paymaster),
		"paymaster_url": stringOption(&n.PaymasterURL), "paymaster_key": stringOption(&n.PaymasterKey),
		"sponsor_url": stringOption(&n.SponsorURL), "bundler_url": stringOption(&n.BundlerURL),
		"entry_point_v07": stringOption(&n.EntryPointV07), "account_factory_v07": stringOption(&n.AccountFactoryV07),
		"paymaster_v07": stringOption(&n.PaymasterV07), "bundler_url_v07": stringOption(&n.BundlerURLV07),
		"token_paymaster": stringOption(&n.TokenPaymaster), "token_paymaster_v07": stringOption(&n.TokenPaymasterV07),
		"database_schema": stringOption(&n.DatabaseSchema),
		"explorer":        stringOption(&n.Explorer),
		"confirmations":   confirmationsOption(&n.Confirmations),
		"batch":           n.parseBatch,
		"wallet_gas":      countOption(&n.WalletGas),
		"wallet_reverts":  countOption(&n.WalletReverts),
		"chain_id": valueOption(func(v string) error {
			id, err := strconv.ParseUint(v, 10, 64)
			if err != nil || id == 0 {
				return errors.New("want a positive whole number")
			}
			n.ChainID = id
			return nil
		}),
		"asset": n.parseAsset,
	}
}

// parseBatch reads `batch [<contract>] { max_payments <n> max_wait
// <duration> max_gas <gas> }`, each part optional.
func (n *NetworkConfig) parseBatch(d *caddyfile.Dispenser) error {
	b := &BatchConfig{}
	args := d.RemainingArgs()
	switch len(args) {
	case 0:
	case 1:
		b.Contract = args[0]
	default:
		return d.Err("batch takes at most one value, the X402Batch contract, and a block of its options")
	}
	nesting := d.Nesting()
	if err := parseBlock(d, nesting, "batch option", map[string]option{
		"max_payments": countOption(&b.MaxPayments),
		"max_wait":     durationOption(&b.MaxWait),
		"max_gas": valueOption(func(v string) error {
			g, err := strconv.ParseUint(v, 10, 64)
			if err != nil || g < 100_000 {
				return errors.New("want a whole number of gas, 100000 or more")
			}
			b.MaxGas = g
			return nil
		}),
	}); err != nil {
		return err
	}
	n.Batch = b
	return nil
}

// parseNetwork reads `network <id>`, the one network whose options are
// at the top level, or `network <id> { … }`, one of several, whose
// options are in its block.
func (a *App) parseNetwork(d *caddyfile.Dispenser) error {
	var id string
	if !d.Args(&id) || d.NextArg() {
		return d.Err("network takes exactly one value, optionally with a block of its options")
	}
	n := NetworkConfig{Network: id}
	options := n.options()
	block := false
	for d.NextBlock(1) {
		block = true
		read, ok := options[d.Val()]
		if !ok {
			return d.Errf("unknown option %q in the block of network %s", d.Val(), id)
		}
		if err := read(d); err != nil {
			return err
		}
	}
	if block {
		a.Networks = append(a.Networks, n)
	} else {
		a.Network = id
	}
	return nil
}

// parseStore reads `store bolt <path>` (the same as store_path) or `store
// postgres <url>`, the URL being a placeholder.
func (a *App) parseStore(d *caddyfile.Dispenser) error {
	args := d.RemainingArgs()
	if len(args) != 2 {
		return d.Errf("store takes bolt <path> or postgres {env.NAME}, got %d values", len(args))
	}
	switch args[0] {
	case "bolt":
		a.StorePath = args[1] // the shorthand network's; a network block has store_path
	case "postgres":
		a.Database = args[1]
	default:
		return d.Errf("store %q: want bolt or postgres", args[0])
	}
	return nil
}

// parseAsset reads `asset <token>`, a well-known token by name (usdc,
// or dusd on the devnet), `asset <address> <name> <version>
// [<decimals>] [permit2]` (permit2: a token without EIP-3009 whose
// EIP-2612 domain that is, paid in exact through Permit2), or `asset
// <address> [<decimals>]` for a token without EIP-3009 (no EIP-712
// domain), which is paid with aa-native only. An address is 0x… or a
// placeholder; anything else is a token's name.
func (n *NetworkConfig) parseAsset(d *caddyfile.Dispenser) error {
	args := d.RemainingArgs()
	var as AssetConfig
	permit2 := false
	if k := len(args); k >= 3 && args[k-1] == "permit2" {
		args, permit2 = args[:k-1], true
	}
	var decimals string
	if len(args) > 0 && !isAddressLike(args[0]) && !strings.HasPrefix(args[0], "{") {
		if len(args) > 1 {
			return d.Errf("asset %s names a well-known token, which takes no more values (its address, EIP-712 domain and decimals come from the table); give a token by its address to set them", args[0])
		}
		n.Assets = append(n.Assets, AssetConfig{Token: args[0]})
		return nil
	}
	switch len(args) {
	case 1, 2:
		as.Address = args[0]
		decimals = strings.Join(args[1:], "")
	case 3, 4:
		as = AssetConfig{Address: args[0], Name: args[1], Version: args[2]}
		decimals = strings.Join(args[3:], "")
	default:
		return d.Errf("asset takes a well-known token's name (such as usdc), <address> <eip712-name> <eip712-version> [<decimals>], or <address> [<decimals>] for a token without EIP-3009, got %d values", len(args))
	}
	if decimals != "" {
		dec, err := strconv.ParseUint(decimals, 10, 8)
		if err != nil || dec > 36 {
			return d.Errf("asset decimals %q: want a whole number from 0 to 36", decimals)
		}
		as.Decimals = uint8(dec)
	}
	if permit2 && as.Name == "" {
		return d.Errf("asset %s permit2: a token paid through Permit2 needs its EIP-2612 name and version (asset <address> <name> <version> [<decimals>] permit2)", as.Address)
	}
	as.Permit2 = permit2
	n.Assets = append(n.Assets, as)
	return nil
}

// parseSponsorLimits reads the sponsor_limits block.
func (a *App) parseSponsorLimits(d *caddyfile.Dispenser) error {
	if d.NextArg() {
		return d.ArgErr()
	}
	l := new(SponsorLimitsConfig)
	if err := parseBlock(d, 1, "sponsor_limits option", map[string]option{
		"per_client": countOption(&l.PerClient), "per_client_outstanding": countOption(&l.PerClientOutstanding),
		"per_sender": countOption(&l.PerSender), "max_outstanding": countOption(&l.MaxOutstanding),
		"validity": durationOption(&l.Validity),
	}); err != nil {
		return err
	}
	a.SponsorLimits = l
	return nil
}

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
		"signer_key": stringOption(&h.SignerKey), "entry_point": entryPointOption(h.entryPointSlots()),
		"paymaster": stringOption(&h.Paymaster), "dev_key": stringOption(&h.DevKey),
		"entry_point_v07": stringOption(&h.EntryPointV07), "paymaster_v07": stringOption(&h.PaymasterV07),
		"validity": durationOption(&h.Validity), "max_batch": countOption(&h.MaxBatch),
		"project": h.parseProject, "token_paymaster": stringOption(&h.TokenPaymaster), "token_paymaster_v07": stringOption(&h.TokenPaymasterV07),
		"gas_token": h.parseGasToken,
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

// option reads the values of one option of a block; the dispenser is on
// its name.
type option func(d *caddyfile.Dispenser) error

// parseBlock reads the options of the block at nesting by name. what names
// them in the error of an unknown one, such as "x402 option".
func parseBlock(d *caddyfile.Dispenser, nesting int, what string, options map[string]option) error {
	for d.NextBlock(nesting) {
		read, ok := options[d.Val()]
		if !ok {
			return d.Errf("unknown %s %q", what, d.Val())
		}
		if err := read(d); err != nil {
			return err
		}
	}
	return nil
}

// stringOption reads an option's one value.
func stringOption(dst *string) option {
	return func(d *caddyfile.Dispenser) error {
		opt := d.Val()
		if !d.Args(dst) || d.NextArg() {
			return d.Errf("%s takes exactly one value", opt)
		}
		return nil
	}
}

// valueOption reads an option's one value and hands it to parse, whose
// error is reported with the option's name and the value, such as
// `tx_per_minute "lots": want a positive whole number`.
func valueOption(parse func(v string) error) option {
	return func(d *caddyfile.Dispenser) error {
		opt := d.Val()
		var v string
		if err := stringOption(&v)(d); err != nil {
			return err
		}
		if err := parse(v); err != nil {
			return d.Errf("%s %q: %v", opt, v, err)
		}
		return nil
	}
}

// countOption reads an option's one value, a positive whole number.
func countOption(dst *int) option {
	return valueOption(func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return errors.New("want a positive whole number")
		}
		*dst = n
		return nil
	})
}

// confirmationsOption reads an option's one value, a whole number of
// blocks from 0.
func confirmationsOption(dst *int) option {
	return valueOption(func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return errors.New("want a whole number of blocks, 0 or more")
		}
		*dst = n
		return nil
	})
}

// durationOption reads an option's one value, a duration.
func durationOption(dst *caddy.Duration) option {
	return valueOption(func(v string) error {
		dur, err := caddy.ParseDuration(v)
		if err != nil {
			return err
		}
		*dst = caddy.Duration(dur)
		return nil
	})
}

// retentionOption reads an option's one value, a duration or off, which
// is -1.
func retentionOption(dst *caddy.Duration) option {
	return valueOption(func(v string) error {
		if v == "off" {
			*dst = -1
			return nil
		}
		dur, err := caddy.ParseDuration(v)
		if err != nil || dur <= 0 {
			return errors.New("want a duration, such as 30d, or off")
		}
		*dst = caddy.Duration(dur)
		return nil
	})
}

// listOption adds an option's values, one or more, to dst.
func listOption(dst *[]string) option {
	return func(d *caddyfile.Dispenser) error {
		args := d.RemainingArgs()
		if len(args) == 0 {
			return d.ArgErr()
		}
		*dst = append(*dst, args...)
		return nil
	}
}

// flagOption sets dst for an option without values.
func flagOption(dst *bool) option {
	return func(d *caddyfile.Dispenser) error {
		if d.NextArg() {
			return d.ArgErr()
		}
		*dst = true
		return nil
	}
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

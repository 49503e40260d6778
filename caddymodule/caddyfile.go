package caddymodule

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"

	"github.com/caddy-x402/caddy-x402/entrypoint"
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
		"entry_point":     entryPointOption(&n.EntryPoints, "account_factory", "paymaster", "token_paymaster", "bundler_url"),
		"account_factory": entryPointAlias(&n.EntryPoints, "0.6", "account_factory"),
		"paymaster":       entryPointAlias(&n.EntryPoints, "0.6", "paymaster"),
		"token_paymaster": entryPointAlias(&n.EntryPoints, "0.6", "token_paymaster"),
		"entry_point_v07": entryPointAlias(&n.EntryPoints, "0.7", "address"), "account_factory_v07": entryPointAlias(&n.EntryPoints, "0.7", "account_factory"),
		"paymaster_v07": entryPointAlias(&n.EntryPoints, "0.7", "paymaster"), "bundler_url_v07": entryPointAlias(&n.EntryPoints, "0.7", "bundler_url"),
		"token_paymaster_v07": entryPointAlias(&n.EntryPoints, "0.7", "token_paymaster"),
		"settlement":          stringOption(&n.Settlement),
		"paymaster_url":       stringOption(&n.PaymasterURL), "paymaster_key": stringOption(&n.PaymasterKey),
		"sponsor_url": stringOption(&n.SponsorURL), "bundler_url": stringOption(&n.BundlerURL),
		"database_schema":  stringOption(&n.DatabaseSchema),
		"explorer":         stringOption(&n.Explorer),
		"confirmations":    confirmationsOption(&n.Confirmations),
		"batch":            n.parseBatch,
		"batch_settlement": n.parseBatchSettlement,
		"wallet_gas":       countOption(&n.WalletGas),
		"wallet_reverts":   countOption(&n.WalletReverts),
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

// parseBatchSettlement reads `batch_settlement { receiver_authorizer_key
// <key> withdraw_delay <duration> settlement <contract> claim_every
// <duration> claim_above <amount> min_deposit <amount> sponsored_per_payer
// <n> sponsored_total <n> sponsored_window <duration> }`, each part
// optional.
func (n *NetworkConfig) parseBatchSettlement(d *caddyfile.Dispenser) error {
	if d.NextArg() {
		return d.Err("batch_settlement takes no value, only a block of its options")
	}
	b := &BatchSettlementConfig{}
	if err := parseBlock(d, d.Nesting(), "batch_settlement option", map[string]option{
		"receiver_authorizer_key": stringOption(&b.ReceiverAuthorizerKey),
		"withdraw_delay":          durationOption(&b.WithdrawDelay),
		"settlement":              stringOption(&b.Settlement),
		"claim_every": valueOption(func(v string) error {
			dur, err := caddy.ParseDuration(v)
			if err != nil || dur < 0 {
				return errors.New("want a duration, 0 for never")
			}
			cd := caddy.Duration(dur)
			b.ClaimEvery = &cd
			return nil
		}),
		"claim_above":         stringOption(&b.ClaimAbove),
		"min_deposit":         stringOption(&b.MinDeposit),
		"sponsored_per_payer": countOption(&b.SponsoredPerPayer),
		"sponsored_total":     countOption(&b.SponsoredTotal),
		"sponsored_window":    durationOption(&b.SponsoredWindow),
	}); err != nil {
		return err
	}
	n.BatchSettlement = b
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

// parseSiteBroadcast reads serve_on_broadcast in the x402 global option:
//
//	serve_on_broadcast {
//		max_in_flight <whole tokens> | $<US dollars>
//		penalty       <duration>
//	}
func (a *App) parseSiteBroadcast(d *caddyfile.Dispenser) error {
	if d.NextArg() {
		return d.ArgErr()
	}
	b := new(SiteBroadcastConfig)
	if err := parseBlock(d, 1, "serve_on_broadcast option", map[string]option{
		"max_in_flight": stringOption(&b.MaxInFlight), "penalty": durationOption(&b.Penalty),
	}); err != nil {
		return err
	}
	a.ServeOnBroadcast = b
	return nil
}

// parseWebhook reads `webhook <url> { secret <placeholder> events … }`.
func (a *App) parseWebhook(d *caddyfile.Dispenser) error {
	var w WebhookConfig
	if !d.Args(&w.URL) || d.NextArg() {
		return d.Err("webhook takes exactly one URL and a block with its secret")
	}
	for d.NextBlock(1) {
		switch d.Val() {
		case "secret":
			if !d.Args(&w.Secret) || d.NextArg() {
				return d.Err("webhook secret takes exactly one value")
			}
		case "events":
			w.Events = d.RemainingArgs()
			if len(w.Events) == 0 {
				return d.Err("webhook events takes settled, failed or both")
			}
		default:
			return d.Errf("unknown option %q in the block of webhook %s", d.Val(), w.URL)
		}
	}
	a.Webhooks = append(a.Webhooks, w)
	return nil
}

// One list of EntryPoints per network (NetworkConfig.EntryPoints, JSON
// entry_points). Each EntryPoint is an entry_point option of its own, with
// its version and its contracts in its block:
//
//	entry_point <address> [<version>] [{
//		account_factory <address>
//		paymaster       <address>
//		token_paymaster <address>
//		eip7702_delegate <address>  (v0.8 on)
//		bundler_url     <url>
//	}]
//
// The version is one package entrypoint knows (default 0.6; a leading "v"
// is allowed), each at most once. The per-version options beside the list
// are aliases that write into it: account_factory, paymaster and
// token_paymaster at the network's level are v0.6's, and entry_point_v07,
// account_factory_v07, paymaster_v07, token_paymaster_v07 and
// bundler_url_v07 v0.7's; both forms load the same configuration. The
// network's bundler_url is not an alias: it is the network's bundler, for
// every EntryPoint without one of its own. (x402_paymaster takes the same
// entry_point, with paymaster and token_paymaster in its block.)

// entryPointField is the option of e named name (as its block spells it).
func entryPointField(e *EntryPointConfig, name string) *string {
	switch name {
	case "address":
		return &e.Address
	case "account_factory":
		return &e.AccountFactory
	case "paymaster":
		return &e.Paymaster
	case "token_paymaster":
		return &e.TokenPaymaster
	case "bundler_url":
		return &e.BundlerURL
	case "eip7702_delegate":
		return &e.Delegate
	}
	panic("unknown entry_point option " + name)
}

// entryPointAlias reads a per-version option into the entry of version.
func entryPointAlias(list *[]EntryPointConfig, version, name string) option {
	return func(d *caddyfile.Dispenser) error {
		return stringOption(entryPointField(entryPointOf(list, version), name))(d)
	}
}

// entryPointOption reads `entry_point <address> [<version>] [{ … }]` into
// the entry of its version in list, taking the block options named,
// refusing a version package entrypoint does not know and one whose
// address is already given.
func entryPointOption(list *[]EntryPointConfig, block ...string) option {
	return func(d *caddyfile.Dispenser) error {
		opt := d.Val()
		args := d.RemainingArgs()
		if len(args) < 1 || len(args) > 2 {
			return d.Errf("%s takes an address and, optionally, its version, with a block of its contracts", opt)
		}
		version := entrypoint.DefaultVersion
		if len(args) == 2 {
			version = strings.TrimPrefix(args[1], "v")
		}
		if !slices.Contains(entrypoint.Versions(), version) {
			return d.Errf("%s %s: version %q is not one served here (%s)", opt, args[0], args[1], strings.Join(entrypoint.Versions(), ", "))
		}
		e := entryPointOf(list, version)
		if e.Address != "" {
			return d.Errf("%s: EntryPoint v%s is given twice", opt, version)
		}
		e.Address = args[0]
		options := map[string]option{}
		for _, name := range block {
			options[name] = func(d *caddyfile.Dispenser) error {
				return stringOption(entryPointField(entryPointOf(list, version), name))(d)
			}
		}
		return parseBlock(d, d.Nesting(), opt+" option", options)
	}
}

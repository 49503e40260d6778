package caddymodule

import (
	"strconv"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

func init() {
	httpcaddyfile.RegisterGlobalOption("x402", parseGlobal)
	httpcaddyfile.RegisterHandlerDirective("x402", parseHandler)
	httpcaddyfile.RegisterHandlerDirective("x402_facilitator", parseFacilitator)
	httpcaddyfile.RegisterHandlerDirective("x402_paymaster", parsePaymaster)
	// Payment comes before the handlers that answer: respond, and after it
	// reverse_proxy, file_server and the rest.
	httpcaddyfile.RegisterDirectiveOrder("x402", httpcaddyfile.Before, "respond")
	httpcaddyfile.RegisterDirectiveOrder("x402_facilitator", httpcaddyfile.Before, "respond")
	httpcaddyfile.RegisterDirectiveOrder("x402_paymaster", httpcaddyfile.Before, "respond")
}

// parseGlobal parses the x402 global option into the x402 app. The network
// is required (devnet is never a default); values that name a place or an
// address may be {env.*} or {file.*} placeholders (see App):
//
//	x402 {
//		network         devnet | <caip-2 id>
//		rpc             <url>
//		devnet_addr     <host:port>
//		settler_key     {env.NAME} | {file.PATH}
//		store_path      <path>
//		asset           <address> <eip712-name> <eip712-version> [<decimals>]
//		receipt_timeout <duration>
//		facilitator_url <url>
//		facilitator_key {env.NAME} | {file.PATH}  (Bearer key for facilitator_url)
//		entry_point     <address>   (aa-native; devnet defaults)
//		account_factory <address>
//		settlement      <address>
//		paymaster       <address>
//		paymaster_url   <url>       (where /sponsor forwards)
//		paymaster_key   {env.NAME} | {file.PATH}
//		sponsor_url     <url>       (the public /sponsor, in offers)
//		bundler_url     <url>       (an external ERC-4337 bundler)
//		sponsor_limits {            (the anonymous budget of /sponsor)
//			per_client             <n>  (a minute; default 30)
//			per_client_outstanding <n>  (default 10)
//			per_sender             <n>  (a minute; default 10)
//			max_outstanding        <n>  (default 40)
//			validity               <duration> (default 2m)
//		}
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
	for d.NextBlock(0) {
		var err error
		switch opt := d.Val(); opt {
		case "network":
			err = oneArg(d, &a.Network)
		case "rpc":
			err = oneArg(d, &a.RPC)
		case "devnet_addr":
			err = oneArg(d, &a.DevnetAddr)
		case "settler_key":
			err = oneArg(d, &a.SettlerKey)
		case "store_path":
			err = oneArg(d, &a.StorePath)
		case "facilitator_url":
			err = oneArg(d, &a.FacilitatorURL)
		case "entry_point":
			err = oneArg(d, &a.EntryPoint)
		case "account_factory":
			err = oneArg(d, &a.AccountFactory)
		case "settlement":
			err = oneArg(d, &a.Settlement)
		case "paymaster":
			err = oneArg(d, &a.Paymaster)
		case "paymaster_url":
			err = oneArg(d, &a.PaymasterURL)
		case "facilitator_key":
			err = oneArg(d, &a.FacilitatorKey)
		case "paymaster_key":
			err = oneArg(d, &a.PaymasterKey)
		case "sponsor_url":
			err = oneArg(d, &a.SponsorURL)
		case "bundler_url":
			err = oneArg(d, &a.BundlerURL)
		case "asset":
			args := d.RemainingArgs()
			if len(args) < 3 || len(args) > 4 {
				return d.Errf("asset takes <address> <eip712-name> <eip712-version> [<decimals>], got %d values", len(args))
			}
			as := AssetConfig{Address: args[0], Name: args[1], Version: args[2]}
			if len(args) == 4 {
				dec, err := strconv.ParseUint(args[3], 10, 8)
				if err != nil || dec > 36 {
					return d.Errf("asset decimals %q: want a whole number from 0 to 36", args[3])
				}
				as.Decimals = uint8(dec)
			}
			a.Assets = append(a.Assets, as)
		case "receipt_timeout":
			err = durationArg(d, &a.ReceiptTimeout)
		case "sponsor_limits":
			if d.NextArg() {
				return d.ArgErr()
			}
			l := new(SponsorLimitsConfig)
			for d.NextBlock(1) {
				var lerr error
				switch lopt := d.Val(); lopt {
				case "per_client":
					lerr = countArg(d, &l.PerClient)
				case "per_client_outstanding":
					lerr = countArg(d, &l.PerClientOutstanding)
				case "per_sender":
					lerr = countArg(d, &l.PerSender)
				case "max_outstanding":
					lerr = countArg(d, &l.MaxOutstanding)
				case "validity":
					lerr = durationArg(d, &l.Validity)
				default:
					return d.Errf("unknown sponsor_limits option %q", lopt)
				}
				if lerr != nil {
					return lerr
				}
			}
			a.SponsorLimits = l
		default:
			return d.Errf("unknown x402 option %q", opt)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func parseHandler(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	m := new(Handler)
	err := m.UnmarshalCaddyfile(h.Dispenser)
	return m, err
}

// UnmarshalCaddyfile sets up the paywall from Caddyfile tokens:
//
//	x402 [<price>] {
//		pay_to          <address>
//		price           <whole tokens, such as 0.01>
//		amount          <atomic units>
//		asset           <address>...
//		schemes         <scheme>...
//		description     <text>
//		mime_type       <type>
//		origin          <scheme://host>
//		max_timeout     <duration>
//		settle_before
//		facilitator_url <url>
//	}
func (h *Handler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the directive name
	if d.NextArg() {
		h.Price = d.Val()
		if d.NextArg() {
			return d.ArgErr()
		}
	}
	for d.NextBlock(0) {
		var err error
		switch opt := d.Val(); opt {
		case "pay_to":
			err = oneArg(d, &h.PayTo)
		case "price":
			err = oneArg(d, &h.Price)
		case "amount":
			err = oneArg(d, &h.Amount)
		case "description":
			err = oneArg(d, &h.Description)
		case "mime_type":
			err = oneArg(d, &h.MimeType)
		case "origin":
			err = oneArg(d, &h.Origin)
		case "facilitator_url":
			err = oneArg(d, &h.FacilitatorURL)
		case "asset", "assets":
			args := d.RemainingArgs()
			if len(args) == 0 {
				return d.ArgErr()
			}
			h.Assets = append(h.Assets, args...)
		case "schemes", "scheme":
			args := d.RemainingArgs()
			if len(args) == 0 {
				return d.ArgErr()
			}
			h.Schemes = append(h.Schemes, args...)
		case "max_timeout":
			err = durationArg(d, &h.MaxTimeout)
		case "settle_before":
			if d.NextArg() {
				return d.ArgErr()
			}
			h.SettleBefore = true
		default:
			return d.Errf("unknown x402 subdirective %q", opt)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// durationArg reads the single duration value of the current option.
func durationArg(d *caddyfile.Dispenser, dst *caddy.Duration) error {
	opt := d.Val()
	var v string
	if err := oneArg(d, &v); err != nil {
		return err
	}
	dur, err := caddy.ParseDuration(v)
	if err != nil {
		return d.Errf("%s %q: %v", opt, v, err)
	}
	*dst = caddy.Duration(dur)
	return nil
}

// countArg reads an option's one value, a positive whole number.
func countArg(d *caddyfile.Dispenser, dst *int) error {
	opt := d.Val()
	var v string
	if err := oneArg(d, &v); err != nil {
		return err
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return d.Errf("%s %q: want a positive whole number", opt, v)
	}
	*dst = n
	return nil
}

// oneArg reads the single value of the current option into dst.
func oneArg(d *caddyfile.Dispenser, dst *string) error {
	opt := d.Val()
	if !d.Args(dst) || d.NextArg() {
		return d.Errf("%s takes exactly one value", opt)
	}
	return nil
}

func parseFacilitator(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	m := new(FacilitatorHandler)
	err := m.UnmarshalCaddyfile(h.Dispenser)
	return m, err
}

// UnmarshalCaddyfile sets up the facilitator handler: `x402_facilitator`
// takes no arguments.
func (f *FacilitatorHandler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()
	if d.NextArg() || d.NextBlock(0) {
		return d.Err("x402_facilitator takes no arguments; configure the chain in the x402 global option")
	}
	return nil
}

func parsePaymaster(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	m := new(PaymasterHandler)
	err := m.UnmarshalCaddyfile(h.Dispenser)
	return m, err
}

// UnmarshalCaddyfile sets up the paymaster from Caddyfile tokens:
//
//	x402_paymaster {
//		signer_key  {env.NAME} | {file.PATH}
//		entry_point <address>
//		paymaster   <address>
//		dev_key     <key>
//		validity    <duration>
//		project <name> {
//			balance         <ETH>
//			daily_gas_cap   <ETH>
//			tx_per_minute   <n>
//			max_in_flight   <n>
//			max_fee_per_gas <gwei>
//		}
//	}
func (h *PaymasterHandler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()
	if d.NextArg() {
		return d.ArgErr()
	}
	for d.NextBlock(0) {
		var err error
		switch opt := d.Val(); opt {
		case "signer_key":
			err = oneArg(d, &h.SignerKey)
		case "entry_point":
			err = oneArg(d, &h.EntryPoint)
		case "paymaster":
			err = oneArg(d, &h.Paymaster)
		case "dev_key":
			err = oneArg(d, &h.DevKey)
		case "validity":
			err = durationArg(d, &h.Validity)
		case "project":
			var p ProjectConfig
			if !d.Args(&p.Name) || d.NextArg() {
				return d.Err("project takes a name, then a block")
			}
			for d.NextBlock(1) {
				var perr error
				switch popt := d.Val(); popt {
				case "balance":
					perr = oneArg(d, &p.Balance)
				case "daily_gas_cap":
					perr = oneArg(d, &p.DailyGasCap)
				case "max_fee_per_gas":
					perr = oneArg(d, &p.MaxFeePerGas)
				case "tx_per_minute":
					perr = countArg(d, &p.TxPerMinute)
				case "max_in_flight":
					perr = countArg(d, &p.MaxInFlight)
				default:
					return d.Errf("unknown project option %q", popt)
				}
				if perr != nil {
					return perr
				}
			}
			h.Projects = append(h.Projects, p)
		default:
			return d.Errf("unknown x402_paymaster option %q", opt)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Interface guards.
var (
	_ caddyfile.Unmarshaler = (*PaymasterHandler)(nil)
	_ caddyfile.Unmarshaler = (*App)(nil)
	_ caddyfile.Unmarshaler = (*Handler)(nil)
	_ caddyfile.Unmarshaler = (*FacilitatorHandler)(nil)
)

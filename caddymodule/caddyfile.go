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
	// Payment comes before the handlers that answer: respond, and after it
	// reverse_proxy, file_server and the rest.
	httpcaddyfile.RegisterDirectiveOrder("x402", httpcaddyfile.Before, "respond")
	httpcaddyfile.RegisterDirectiveOrder("x402_facilitator", httpcaddyfile.Before, "respond")
}

// parseGlobal parses the x402 global option into the x402 app:
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
			var v string
			if !d.Args(&v) || d.NextArg() {
				return d.ArgErr()
			}
			dur, err := caddy.ParseDuration(v)
			if err != nil {
				return d.Errf("receipt_timeout %q: %v", v, err)
			}
			a.ReceiptTimeout = caddy.Duration(dur)
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
			var v string
			if !d.Args(&v) || d.NextArg() {
				return d.ArgErr()
			}
			dur, err := caddy.ParseDuration(v)
			if err != nil {
				return d.Errf("max_timeout %q: %v", v, err)
			}
			h.MaxTimeout = caddy.Duration(dur)
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
	if h.PayTo == "" {
		return d.Err("x402 needs pay_to, the address that receives payments")
	}
	if h.Price == "" && h.Amount == "" {
		return d.Err("x402 needs a price (whole tokens, such as 0.01) or an amount (atomic units)")
	}
	if h.Price != "" && h.Amount != "" {
		return d.Err("x402 takes a price or an amount, not both")
	}
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

// Interface guards.
var (
	_ caddyfile.Unmarshaler = (*App)(nil)
	_ caddyfile.Unmarshaler = (*Handler)(nil)
	_ caddyfile.Unmarshaler = (*FacilitatorHandler)(nil)
)

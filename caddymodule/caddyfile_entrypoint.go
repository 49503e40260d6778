package caddymodule

import (
	"strings"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"

	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// One list of EntryPoints per network. Each EntryPoint is an entry_point
// option of its own, with its version and its contracts in its block:
//
//	entry_point <address> [<version>] [{
//		account_factory <address>
//		paymaster       <address>
//		token_paymaster <address>
//		bundler_url     <url>
//	}]
//
// The version is one package entrypoint knows ("0.6", the default, or
// "0.7"; a leading "v" is allowed), each at most once. The options of
// every version beside the list are its aliases: entry_point,
// account_factory, paymaster, token_paymaster and bundler_url at the
// network's level are v0.6's, and entry_point_v07, account_factory_v07,
// paymaster_v07, token_paymaster_v07 and bundler_url_v07 v0.7's. Both
// forms load the same configuration. (x402_paymaster takes the same
// entry_point, with paymaster and token_paymaster in its block.)

// entryPointSlots are where the entry_point option of one version puts
// what it reads; nil is an option its block does not take.
type entryPointSlots struct {
	address, factory, paymaster, tokenPaymaster, bundler *string
}

// entryPointSlots are the network's EntryPoint options by version.
func (n *NetworkConfig) entryPointSlots() map[string]entryPointSlots {
	return map[string]entryPointSlots{
		"0.6": {&n.EntryPoint, &n.AccountFactory, &n.Paymaster, &n.TokenPaymaster, &n.BundlerURL},
		"0.7": {&n.EntryPointV07, &n.AccountFactoryV07, &n.PaymasterV07, &n.TokenPaymasterV07, &n.BundlerURLV07},
	}
}

// entryPointSlots are the paymaster's EntryPoint options by version: no
// factory and no bundler.
func (h *PaymasterHandler) entryPointSlots() map[string]entryPointSlots {
	return map[string]entryPointSlots{
		"0.6": {address: &h.EntryPoint, paymaster: &h.Paymaster, tokenPaymaster: &h.TokenPaymaster},
		"0.7": {address: &h.EntryPointV07, paymaster: &h.PaymasterV07, tokenPaymaster: &h.TokenPaymasterV07},
	}
}

// entryPointOption reads `entry_point <address> [<version>] [{ … }]` into
// the slots of its version, refusing a version slots does not have and
// one given twice in the block.
func entryPointOption(slots map[string]entryPointSlots) option {
	seen := map[string]bool{}
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
		s, ok := slots[version]
		if !ok {
			known := make([]string, 0, len(slots))
			for _, v := range entrypoint.Versions() {
				if _, ok := slots[v]; ok {
					known = append(known, v)
				}
			}
			return d.Errf("%s %s: version %q is not one served here (%s)", opt, args[0], args[1], strings.Join(known, ", "))
		}
		if seen[version] {
			return d.Errf("%s: EntryPoint v%s is given twice", opt, version)
		}
		seen[version] = true
		*s.address = args[0]
		options := map[string]option{}
		for name, dst := range map[string]*string{"account_factory": s.factory, "paymaster": s.paymaster, "token_paymaster": s.tokenPaymaster, "bundler_url": s.bundler} {
			if dst != nil {
				options[name] = stringOption(dst)
			}
		}
		return parseBlock(d, d.Nesting(), opt+" option", options)
	}
}

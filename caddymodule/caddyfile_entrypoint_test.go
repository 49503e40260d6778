package caddymodule

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
)

// The per-version options (entry_point_v07 and the rest) and the list of
// entry_point blocks load the same configuration, at the top level, in a
// network block, and in x402_paymaster.
func TestEntryPointListCaddyfile(t *testing.T) {
	t.Parallel()
	const (
		ep06 = "0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789"
		ep07 = "0x0000000071727De22E5E9d8BAf0edAc6f37da032"
		f06  = "0x9406Cc6185a346906296840746125a0E44976454"
		f07  = "0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985"
		pm06 = "0x0000000000000000000000000000000000000001"
		pm07 = "0x0000000000000000000000000000000000000002"
		tp06 = "0x0000000000000000000000000000000000000003"
		tp07 = "0x0000000000000000000000000000000000000004"
	)
	network := func(body string) string { return "x402 {\n network devnet\n" + body + "}" }
	inBlock := func(body string) string { return "x402 {\n network eip155:84532 {\n" + body + " }\n}" }
	aliases := " entry_point " + ep06 + "\n account_factory " + f06 + "\n paymaster " + pm06 + "\n token_paymaster " + tp06 + "\n bundler_url http://b06\n" +
		" entry_point_v07 " + ep07 + "\n account_factory_v07 " + f07 + "\n paymaster_v07 " + pm07 + "\n token_paymaster_v07 " + tp07 + "\n bundler_url_v07 http://b07\n"
	// bundler_url at the network's level is the network's bundler, not
	// an alias of v0.6's own: the list form gives it there too.
	list := " bundler_url http://b06\n entry_point " + ep06 + " {\n  account_factory " + f06 + "\n  paymaster " + pm06 + "\n  token_paymaster " + tp06 + "\n }\n" +
		" entry_point " + ep07 + " 0.7 {\n  account_factory " + f07 + "\n  paymaster " + pm07 + "\n  token_paymaster " + tp07 + "\n  bundler_url http://b07\n }\n"
	pmAliases := "x402_paymaster {\n entry_point " + ep06 + "\n paymaster " + pm06 + "\n token_paymaster " + tp06 + "\n entry_point_v07 " + ep07 + "\n paymaster_v07 " + pm07 + "\n token_paymaster_v07 " + tp07 + "\n}"
	pmList := "x402_paymaster {\n entry_point " + ep06 + " v0.6 {\n  paymaster " + pm06 + "\n  token_paymaster " + tp06 + "\n }\n entry_point " + ep07 + " v0.7 {\n  paymaster " + pm07 + "\n  token_paymaster " + tp07 + "\n }\n}"
	app := func(in string) (any, error) {
		var a App
		return &a, a.UnmarshalCaddyfile(caddyfile.NewTestDispenser(in))
	}
	paymaster := func(in string) (any, error) {
		var h PaymasterHandler
		return &h, h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(in))
	}
	for _, tc := range []struct {
		name          string
		parse         func(string) (any, error)
		aliases, list string
	}{
		{"top level", app, network(aliases), network(list)},
		{"network block", app, inBlock(aliases), inBlock(list)},
		{"x402_paymaster", paymaster, pmAliases, pmList},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got [2][]byte
			for i, in := range []string{tc.aliases, tc.list} {
				v, err := tc.parse(in)
				if err != nil {
					t.Fatalf("%s: %v", in, err)
				}
				if got[i], err = json.Marshal(v); err != nil {
					t.Fatal(err)
				}
			}
			if string(got[0]) != string(got[1]) || !strings.Contains(string(got[1]), ep07) || !strings.Contains(string(got[1]), tp07) {
				t.Fatalf("the two forms differ:\naliases %s\nlist    %s", got[0], got[1])
			}
		})
	}
}

// An entry_point of a version not served, one given twice, or an option
// its block does not take is refused, naming what is wrong.
func TestEntryPointListRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{"unknown version", "x402 {\n network devnet\n entry_point 0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789 0.9\n}", `version "0.9" is not one served here (0.6, 0.7`},
		{"twice", "x402 {\n network devnet\n entry_point 0x01 0.7\n entry_point 0x02 v0.7\n}", "EntryPoint v0.7 is given twice"},
		{"no address", "x402 {\n network devnet\n entry_point\n}", "takes an address"},
		{"bundler in the paymaster", "x402_paymaster {\n entry_point 0x01 {\n  bundler_url http://b\n }\n}", `unknown entry_point option "bundler_url"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var err error
			if strings.HasPrefix(tc.in, "x402_paymaster") {
				var h PaymasterHandler
				err = h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.in))
			} else {
				var a App
				err = a.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.in))
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// The JSON list (entry_points) and the per-version JSON fields resolve to
// the same EntryPoints, off the devnet and on it (where v0.6 is always on,
// with the devnet's contracts as defaults); an alias that contradicts the
// list, a version unknown, and a later EntryPoint missing its contracts
// are refused.
func TestEntryPointListJSON(t *testing.T) {
	t.Parallel()
	const (
		ep06 = "0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789"
		ep07 = "0x0000000071727De22E5E9d8BAf0edAc6f37da032"
		addr = "0x0000000000000000000000000000000000000001"
	)
	resolve := func(t *testing.T, n NetworkConfig) string {
		t.Helper()
		if err := errors.Join(n.checkEntryPoints()...); err != nil {
			t.Fatal(err)
		}
		eps, settlement := n.aaEntryPoints()
		var b strings.Builder
		fmt.Fprintf(&b, "settlement %s;", settlement.Hex())
		for _, e := range eps {
			fmt.Fprintf(&b, " v%s %s %s %s %s %q;", e.EntryPoint.Version(), e.EntryPoint.Address().Hex(), e.Factory.Hex(), e.Paymaster.Hex(), e.TokenPaymaster.Hex(), e.BundlerURL)
		}
		return b.String()
	}
	base := NetworkConfig{Network: "eip155:84532", Settlement: addr}
	aliases := base
	aliases.EntryPoint, aliases.AccountFactory, aliases.Paymaster = ep06, addr, addr
	aliases.EntryPointV07, aliases.AccountFactoryV07, aliases.PaymasterV07, aliases.BundlerURLV07 = ep07, addr, addr, "http://b07"
	list := base
	list.EntryPoints = []EntryPointConfig{
		{Address: ep06, AccountFactory: addr, Paymaster: addr},
		{Version: "v0.7", Address: ep07, AccountFactory: addr, Paymaster: addr, BundlerURL: "http://b07"},
	}
	if a, l := resolve(t, aliases), resolve(t, list); a != l || !strings.Contains(a, "v0.7 "+ep07) {
		t.Fatalf("the forms differ:\naliases %s\nlist    %s", a, l)
	}

	devnetList := NetworkConfig{Network: NetworkDevnet, EntryPoints: []EntryPointConfig{{Version: "0.7"}}}
	devnetAlias := NetworkConfig{Network: NetworkDevnet, EntryPointV07: wellknown.EntryPointV07.Hex()}
	wk := wellknown.GenesisContracts()
	if a, l := resolve(t, devnetAlias), resolve(t, devnetList); a != l || !strings.Contains(l, "v0.6 "+wk.EntryPoint.Hex()) || !strings.Contains(l, "v0.7 "+wk.EntryPointV07.Hex()+" "+wk.AccountFactoryV07.Hex()) {
		t.Fatalf("on the devnet the forms differ or miss a default:\naliases %s\nlist    %s", a, l)
	}

	for _, tc := range []struct {
		name string
		n    NetworkConfig
		want string
	}{
		{"alias contradicts", func() NetworkConfig { n := list; n.PaymasterV07 = ep06; return n }(), "entry_point v0.7 paymaster is given twice"},
		{"version twice", func() NetworkConfig {
			n := base
			n.EntryPoints = []EntryPointConfig{{Version: "0.7", Address: ep07}, {Version: "v0.7", Address: ep07}}
			return n
		}(), "entry_point v0.7 is given twice"},
		{"unknown version", func() NetworkConfig {
			n := base
			n.EntryPoints = []EntryPointConfig{{Version: "0.9", Address: addr}}
			return n
		}(), `EntryPoint version "0.9" is unknown`},
		{"later one incomplete", func() NetworkConfig {
			n := list
			n.EntryPoints = slices.Clone(n.EntryPoints)
			n.EntryPoints[1].Paymaster = ""
			return n
		}(), "entry_point v0.7 needs its account_factory and paymaster outside the devnet"},
		{"contracts without address", func() NetworkConfig { n := base; n.AccountFactoryV07 = addr; return n }(), "entry_point v0.7: its contracts need its address"},
		{"bad checksum", func() NetworkConfig {
			n := base
			n.EntryPoints = []EntryPointConfig{{Address: strings.Replace(ep06, "F", "f", 1)}}
			return n
		}(), `entry_point "0x5fF137D4`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := errors.Join(tc.n.checkEntryPoints()...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// On the devnet, x402_paymaster serves every predeployed version, in
// version order, with the devnet's contracts where its list names none;
// the list and the aliases give the same EntryPoints.
func TestPaymasterEntryPoints(t *testing.T) {
	t.Parallel()
	wk := wellknown.GenesisContracts()
	const pm = "0x0000000000000000000000000000000000000007"
	show := func(t *testing.T, h PaymasterHandler) string {
		t.Helper()
		h.devnet = true
		eps, err := h.sponsoredEntryPoints()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range eps {
			fmt.Fprintf(&b, "v%s %s %s %s; ", e.EntryPoint.Version(), e.EntryPoint.Address().Hex(), e.Paymaster.Hex(), e.TokenPaymaster.Hex())
		}
		return b.String()
	}
	def := show(t, PaymasterHandler{})
	if want := fmt.Sprintf("v0.6 %s %s %s; v0.7 %s %s %s; ", wk.EntryPoint.Hex(), wk.Paymaster.Hex(), wk.TokenPaymaster.Hex(),
		wk.EntryPointV07.Hex(), wk.PaymasterV07.Hex(), wk.TokenPaymasterV07.Hex()); !strings.HasPrefix(def, want) {
		t.Fatalf("devnet defaults %s, want them to start with %s", def, want)
	}
	alias := show(t, PaymasterHandler{PaymasterV07: pm})
	list := show(t, PaymasterHandler{EntryPoints: []EntryPointConfig{{Version: "0.7", Paymaster: pm}}})
	if alias != list || !strings.Contains(list, "v0.7 "+wk.EntryPointV07.Hex()+" "+pm) {
		t.Fatalf("the forms differ:\naliases %s\nlist    %s", alias, list)
	}
}

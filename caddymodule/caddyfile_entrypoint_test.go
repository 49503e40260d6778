package caddymodule

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
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
	list := " entry_point " + ep06 + " {\n  account_factory " + f06 + "\n  paymaster " + pm06 + "\n  token_paymaster " + tp06 + "\n  bundler_url http://b06\n }\n" +
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
		{"unknown version", "x402 {\n network devnet\n entry_point 0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789 0.9\n}", `version "0.9" is not one served here (0.6, 0.7)`},
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

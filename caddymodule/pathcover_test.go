package caddymodule

import (
	"cmp"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// TestPathGuardRequired: `caddy validate` refuses a config in which a
// paid route's site has no x402_path_guard in front of its routes, and
// names the line to add; it passes the layouts that have one. A remote
// facilitator lets the paid routes provision without a chain. Not
// parallel: validation provisions through Caddy's global state.
func TestPathGuardRequired(t *testing.T) {
	const global = `{
	x402 {
		network eip155:8453
		facilitator_url http://127.0.0.1:9
		asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USD Coin" 2 6
	}
}
`
	const paid = `x402 0.01 {
			pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
		}`
	const jsonApp = `"x402":{"network":"eip155:8453","facilitator_url":"http://127.0.0.1:9","assets":[{"address":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","name":"USD Coin","version":"2"}]}`
	const jsonPaywall = `{"handler":"x402","pay_to":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","amount":"10000"}`
	const want = "add the line `x402_path_guard` to each site block that has x402"
	tests := []struct {
		name  string
		cf    string // a Caddyfile after the global options
		json  string // or the http app's servers, in JSON
		ok    bool
		other string // the error, if not want
	}{
		{name: "handle layout without guard (the old demo)", cf: `http://:8080 {
	handle /paid/* {
		` + paid + `
		respond "paid"
	}
	handle {
		respond "free"
	}
}`},
		{name: "handle layout with guard", ok: true, cf: `http://:8080 {
	x402_path_guard
	handle /paid/* {
		` + paid + `
		respond "paid"
	}
	handle {
		respond "free"
	}
}`},
		{name: "guard written after the routes is ordered first", ok: true, cf: `http://:8080 {
	handle /free {
		respond "free"
	}
	handle {
		` + paid + `
		respond "paid"
	}
	x402_path_guard allow_path_params
}`},
		{name: "top-level x402 with matcher and guard", ok: true, cf: `http://:8080 {
	x402_path_guard
	x402 /paid/* 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "content"
}`},
		{name: "top-level x402 with matcher, no guard", cf: `http://:8080 {
	x402 /paid/* 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "content"
}`},
		{name: "guard inside the paid handle only", cf: `http://:8080 {
	handle /paid/* {
		x402_path_guard
		` + paid + `
		respond "paid"
	}
	handle {
		respond "free"
	}
}`},
		{name: "guard inside a paid catch-all, behind a free prefix", cf: `http://:8080 {
	handle /free/* {
		respond "free"
	}
	handle {
		x402_path_guard
		` + paid + `
		respond "paid"
	}
}`},
		{name: "guard with a matcher", cf: `http://:8080 {
	x402_path_guard /paid/*
	handle /paid/* {
		` + paid + `
		respond "paid"
	}
	handle {
		respond "free"
	}
}`},
		{name: "two sites on one server, both guarded", ok: true, cf: `http://a.example:8080 {
	x402_path_guard
	handle /paid/* {
		` + paid + `
		respond "paid"
	}
	respond "free"
}
http://b.example:8080 {
	x402_path_guard
	handle /paid/* {
		` + paid + `
		respond "paid"
	}
	respond "free"
}`},
		{name: "two sites on one server, the second unguarded", cf: `http://a.example:8080 {
	x402_path_guard
	handle /paid/* {
		` + paid + `
		respond "paid"
	}
	respond "free"
}
http://b.example:8080 {
	handle /paid/* {
		` + paid + `
		respond "paid"
	}
	respond "free"
}`},
		{name: "a free site beside a guarded paid one", ok: true, cf: `http://a.example:8080 {
	respond "free"
}
http://b.example:8080 {
	x402_path_guard
	` + paid + `
	respond "paid"
}`},
		{name: "a path in the site address", cf: `http://a.example:8080/paid/* {
	x402_path_guard
	` + paid + `
	respond "paid"
}
http://a.example:8080 {
	x402_path_guard
	respond "free"
}`},
		// In a route block: Caddy keeps only the first handler of a named
		// route that is one route without matchers.
		{name: "named route invoked behind a guard", ok: true, cf: `&(pay) {
	route {
		` + paid + `
		respond "paid"
	}
}
http://:8080 {
	x402_path_guard
	handle /paid/* {
		invoke pay
	}
	respond "free"
}`},
		{name: "named route invoked without a guard", cf: `&(pay) {
	route {
		x402_path_guard
		` + paid + `
		respond "paid"
	}
}
http://:8080 {
	handle /paid/* {
		invoke pay
	}
	respond "free"
}`},
		{name: "JSON: guard first", ok: true, json: `"routes":[
			{"handle":[{"handler":"x402_path_guard"}]},
			{"match":[{"path":["/paid/*"]}],"handle":[` + jsonPaywall + `,{"handler":"static_response","body":"paid"}],"terminal":true},
			{"handle":[{"handler":"static_response","body":"free"}]}]`},
		{name: "JSON: guard and paywall in one route", ok: true, json: `"routes":[
			{"handle":[{"handler":"x402_path_guard"},` + jsonPaywall + `,{"handler":"static_response","body":"paid"}]}]`},
		{name: "JSON: guard after the paid route", json: `"routes":[
			{"match":[{"path":["/paid/*"]}],"handle":[` + jsonPaywall + `,{"handler":"static_response","body":"paid"}],"terminal":true},
			{"handle":[{"handler":"x402_path_guard"},{"handler":"static_response","body":"free"}]}]`},
		{name: "JSON: no guard", json: `"routes":[
			{"match":[{"path":["/paid/*"]}],"handle":[` + jsonPaywall + `]}]`},
		{name: "JSON: paywall in the error routes, no guard", json: `"routes":[{"handle":[{"handler":"error","status_code":404}]}],
			"errors":{"routes":[{"handle":[` + jsonPaywall + `]}]}`},
		{name: "JSON: paywall in a guarded subroute's error routes", ok: true, json: `"routes":[
			{"handle":[{"handler":"x402_path_guard"}]},
			{"handle":[{"handler":"subroute","routes":[{"handle":[{"handler":"error","status_code":404}]}],
				"errors":{"routes":[{"handle":[` + jsonPaywall + `]}]}}]}]`},
		{name: "JSON: paywall where the check cannot see it", other: "is not among the routes of server srv0 that x402 can check", json: `"routes":[
			{"handle":[{"handler":"x402_path_guard"}]},
			{"handle":[{"handler":"reverse_proxy","upstreams":[{"dial":"127.0.0.1:9"}],
				"handle_response":[{"routes":[{"handle":[` + jsonPaywall + `]}]}]}]}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.json != "" {
				cfg := `{"apps":{` + jsonApp + `,"http":{"servers":{"srv0":{"listen":[":8080"],` + tc.json + `}}}}}`
				err = validateConfig(t, []byte(cfg))
			} else {
				err = validateCaddyfile(t, global+tc.cf+"\n")
			}
			wantErr := cmp.Or(tc.other, want)
			switch {
			case tc.ok && err != nil:
				t.Fatalf("refused: %v", err)
			case !tc.ok && (err == nil || !strings.Contains(err.Error(), wantErr)):
				t.Fatalf("err = %v, want %q", err, wantErr)
			}
		})
	}
}

func TestPathGuardCaddyfile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		input, err string
		params     bool
	}{
		{input: "x402_path_guard"},
		{input: "x402_path_guard allow_path_params", params: true},
		{input: "x402_path_guard {\n allow_path_params\n}", params: true},
		{input: "x402_path_guard allow_semicolons", err: `unknown x402_path_guard option "allow_semicolons"`},
		{input: "x402_path_guard {\n allow_backslash\n}", err: `unknown x402_path_guard option "allow_backslash"`},
		{input: "x402_path_guard {\n allow_path_params yes\n}", err: "wrong argument count"},
	}
	for _, tc := range tests {
		t.Run(tc.input, func(t *testing.T) {
			t.Parallel()
			var g PathGuard
			err := g.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || g.AllowPathParams != tc.params {
				t.Fatalf("err = %v, allow_path_params = %v, want %v", err, g.AllowPathParams, tc.params)
			}
		})
	}
}

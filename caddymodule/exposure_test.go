package caddymodule

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

// broadcastValidateCaddyfile is a route on Base's USDC with app and route
// options spliced in, validated offline.
func broadcastValidateCaddyfile(app, route string) string {
	return fmt.Sprintf(`{
	x402 {
		network eip155:8453
		rpc http://127.0.0.1:9
		settler_key {env.X402_BROADCAST_SETTLER_KEY}
		asset usdc
		%s
	}
}
http://127.0.0.1:8080 {
	x402_path_guard
	x402 $0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
		%s
	}
	respond "paid"
}
`, app, route)
}

// TestServeOnBroadcastConfig: serve_on_broadcast validates offline with a
// bound of its own or the app's, in tokens or dollars; without a bound,
// with a remote facilitator, with access, or with a bound that is no
// price, the config is refused, naming the fix.
func TestServeOnBroadcastConfig(t *testing.T) {
	t.Setenv("X402_BROADCAST_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	for _, tc := range []struct{ name, app, route, want string }{
		{"the route's bound", "", "serve_on_broadcast {\n\t\t\tmax_in_flight $5\n\t\t}", ""},
		{"the app's bound", "serve_on_broadcast {\n\t\t\tmax_in_flight 50\n\t\t\tpenalty 1h\n\t\t}", "serve_on_broadcast {\n\t\t\tmax_per_payer 2\n\t\t}", ""},
		{"no bound", "", "serve_on_broadcast {\n\t\t\tmax_per_payer 2\n\t\t}", "serve_on_broadcast needs max_in_flight"},
		{"a remote facilitator", "", "facilitator_url https://facilitator.example\n\t\tserve_on_broadcast {\n\t\t\tmax_in_flight 1\n\t\t}", "needs the embedded facilitator"},
		{"access", "", "access 1h\n\t\taccess_key {env.X402_BROADCAST_SETTLER_KEY}\n\t\tserve_on_broadcast {\n\t\t\tmax_in_flight 1\n\t\t}", "a route with access serves after inclusion"},
		{"a bound that is no price", "", "serve_on_broadcast {\n\t\t\tmax_in_flight lots\n\t\t}", "serve_on_broadcast max_in_flight"},
		{"an app bound that is no price", "serve_on_broadcast {\n\t\t\tmax_in_flight 0.0000001\n\t\t}", "serve_on_broadcast {\n\t\t}", "serve_on_broadcast max_in_flight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := validateCaddyfile(t, broadcastValidateCaddyfile(tc.app, tc.route))
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

package caddymodule

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/paywall"
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

// pooledLedger is the serve-on-broadcast ledger in the usage pool, or nil.
func pooledLedger() *paywall.Exposure {
	var e *paywall.Exposure
	pool.Range(func(k, v any) bool {
		if k == exposureKey {
			e = v.(pooledExposure).Exposure
		}
		return true
	})
	return e
}

// TestLedgerSurvivesReload: the serve-on-broadcast ledger (its payments
// in flight, its per-payer counts and its penalty box) is one across
// config reloads, with the new config's bounds in force; it went with the
// old config before (issue 40, item 1: a reload emptied serve-on-
// broadcast's ledger, penalties included). It goes when the last config
// that serves on broadcast is unloaded.
func TestLedgerSurvivesReload(t *testing.T) {
	store, port := filepath.ToSlash(t.TempDir()), freePort(t)
	cf := func(bound, penalty string) string {
		return fmt.Sprintf(`{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:0
		store_path %s/x402.db
		serve_on_broadcast {
			max_in_flight %s
			penalty %s
		}
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
		serve_on_broadcast {
			max_per_payer 1
		}
	}
	respond "paid"
}
`, store, bound, penalty, port)
	}
	stop, err := runCaddyfile(t, cf("50", "1h"))
	if err != nil {
		t.Fatal(err)
	}
	first := pooledLedger()
	if first == nil || first.Penalty != time.Hour || first.MaxInFlight == nil {
		t.Fatalf("the ledger of the first config: %+v", first)
	}
	if _, err := runCaddyfile(t, cf("20", "10m")); err != nil {
		t.Fatalf("reloading: %v", err)
	}
	second := pooledLedger()
	if second != first {
		t.Fatal("a reload made a new ledger: its payments in flight and its penalty box were lost")
	}
	if second.Penalty != 10*time.Minute {
		t.Fatalf("the reloaded penalty %v, want 10m in force", second.Penalty)
	}
	stop()
	if pooledLedger() != nil {
		t.Fatal("the ledger outlived the last config")
	}
}

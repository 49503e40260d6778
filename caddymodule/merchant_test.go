package caddymodule

import (
	"slices"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// TestWebhookAndExplorerOptions reads the webhook and explorer options
// and refuses what would leak a secret, reach a credentialed URL or link
// somewhere that is not a web page.
func TestWebhookAndExplorerOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, input string
		want        string // an error's text, or empty
	}{
		{"a webhook and an explorer", "x402 {\n network devnet\n explorer https://explorer.example\n webhook https://shop.example/events {\n secret {env.HOOK}\n events settled\n }\n}", ""},
		{"two webhooks, events by default", "x402 {\n network devnet\n webhook https://a.example/ {\n secret {env.A}\n }\n webhook http://b.example/x {\n secret {file./run/b}\n }\n}", ""},
		{"explorer off", "x402 {\n network devnet\n explorer off\n}", ""},
		{"a literal secret", "x402 {\n network devnet\n webhook https://shop.example/ {\n secret hunter2hunter2hunter2\n }\n}", "placeholder"},
		{"no secret", "x402 {\n network devnet\n webhook https://shop.example/\n}", "secret is required"},
		{"an unknown event", "x402 {\n network devnet\n webhook https://shop.example/ {\n secret {env.A}\n events refunded\n }\n}", "refunded"},
		{"a URL with credentials", "x402 {\n network devnet\n webhook https://u:p@shop.example/ {\n secret {env.A}\n }\n}", "without credentials"},
		{"a file URL", "x402 {\n network devnet\n webhook file:///etc/passwd {\n secret {env.A}\n }\n}", "http or https"},
		{"with facilitator_url", "x402 {\n network devnet\n facilitator_url https://f.example\n webhook https://shop.example/ {\n secret {env.A}\n }\n}", "embedded facilitator"},
		{"a javascript explorer", "x402 {\n network devnet\n explorer javascript:alert(1)\n}", "explorer"},
		{"an explorer with a query", "x402 {\n network devnet\n explorer https://e.example/?a=1\n}", "explorer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var a App
			err := a.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
			if err == nil {
				err = a.Validate()
			}
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error about %q", err, tc.want)
			}
		})
	}
	var a App
	if err := a.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402 {\n network devnet\n webhook https://shop.example/events {\n secret {env.HOOK}\n events settled failed\n }\n}")); err != nil {
		t.Fatal(err)
	}
	if len(a.Webhooks) != 1 || a.Webhooks[0].URL != "https://shop.example/events" || a.Webhooks[0].Secret != "{env.HOOK}" || !slices.Equal(a.Webhooks[0].Events, []string{"settled", "failed"}) {
		t.Errorf("read %+v", a.Webhooks)
	}
}

// TestExplorerDefaults: well-known chains link to their explorer by
// default; the devnet, even standing in for Base Sepolia, links nowhere.
func TestExplorerDefaults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		n    *NetworkConfig
		plan chainPlan
		want string
	}{
		{"Base", &NetworkConfig{}, chainPlan{network: "eip155:8453"}, "https://basescan.org"},
		{"Base Sepolia", &NetworkConfig{}, chainPlan{network: "eip155:84532"}, "https://sepolia.basescan.org"},
		{"Ethereum", nil, chainPlan{network: "eip155:1"}, "https://etherscan.io"},
		{"configured, trailing slash cut", &NetworkConfig{Explorer: "https://scan.example/"}, chainPlan{network: "eip155:8453"}, "https://scan.example"},
		{"off", &NetworkConfig{Explorer: "off"}, chainPlan{network: "eip155:8453"}, ""},
		{"an unknown chain", &NetworkConfig{}, chainPlan{network: "eip155:999999"}, ""},
		{"the devnet as Base Sepolia", &NetworkConfig{}, chainPlan{network: "eip155:84532", devnet: true}, ""},
		{"the devnet, configured", &NetworkConfig{Explorer: "http://localhost:4000"}, chainPlan{network: "eip155:31337", devnet: true}, "http://localhost:4000"},
	} {
		if got := explorer(tc.n, &tc.plan); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

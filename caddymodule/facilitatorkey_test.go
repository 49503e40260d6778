package caddymodule

import (
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/facilitator"
)

// A remote facilitator's API key comes from a placeholder and is sent by
// the route's facilitator client; a literal key is refused unechoed.
func TestFacilitatorKey(t *testing.T) {
	t.Setenv("X402_TEST_FACILITATOR_KEY", "pmk_secret_value")
	a := &App{NetworkConfig: NetworkConfig{Network: "eip155:8453", Assets: []AssetConfig{{Address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Name: "USD Coin", Version: "2"}}}, FacilitatorURL: "https://facilitator.example", FacilitatorKey: "{env.X402_TEST_FACILITATOR_KEY}"}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	f, err := a.facilitator("")
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := f.(*facilitator.Client); !ok || c.APIKey != "pmk_secret_value" || c.BaseURL != a.FacilitatorURL {
		t.Fatalf("client %+v", f)
	}
	a.FacilitatorKey = "pmk_literal_secret"
	if err := a.Validate(); err == nil || strings.Contains(err.Error(), "pmk_literal_secret") {
		t.Fatalf("a literal key: %v", err)
	}
	a.FacilitatorKey = "{env.X402_TEST_FACILITATOR_KEY_UNSET}"
	if _, err := a.facilitator(""); err == nil {
		t.Fatal("an unset key resolved")
	}
}

package caddymodule

import (
	"testing"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// TestHostSet: the hosts worked out once per server give the label that
// configuredHost gives, for hosts named exactly, by wildcard or
// placeholder, in other cases, outside ASCII, and for another server.
func TestHostSet(t *testing.T) {
	t.Parallel()
	server := func(names ...string) *caddyhttp.Server {
		m := caddyhttp.MatchHost(names)
		return &caddyhttp.Server{Routes: caddyhttp.RouteList{
			{MatcherSets: caddyhttp.MatcherSets{{&m}}},
			{MatcherSets: caddyhttp.MatcherSets{{caddyhttp.MatchPath{"/x"}}}},
		}}
	}
	hosts := []string{"shop.example", "api.example", "other.example", "x.wild.example", "k.example", "\u212a.example", ""}
	tests := []struct {
		name string
		srv  *caddyhttp.Server
	}{
		{"exact", server("Shop.Example", "api.example")},
		{"wildcard and placeholder", server("*.wild.example", "{env.HOST}", "shop.example")},
		{"outside ASCII", server("\u212a.example", "shop.example")},
		{"no host matcher", &caddyhttp.Server{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			set := new(hostSet)
			other := server("other.example")
			for range 2 { // the first request works the set out
				for _, host := range hosts {
					if got, want := set.configured(tt.srv, host), configuredHost(tt.srv, host); got != want {
						t.Errorf("%q: got %v, want %v", host, got, want)
					}
					if got, want := set.configured(other, host), configuredHost(other, host); got != want {
						t.Errorf("another server, %q: got %v, want %v", host, got, want)
					}
				}
			}
		})
	}
}

// TestPaymentsCounter: the counter found by its labels is the series
// WithLabelValues names, the first time and after.
func TestPaymentsCounter(t *testing.T) {
	t.Parallel()
	m := newMetrics()
	tests := []paymentLabels{
		{server: "srv0", host: "_other", network: "eip155:31337", result: resultUnpaid},
		{server: "srv0", host: "shop.example", network: "eip155:8453", asset: "0xa", scheme: "exact", result: resultSettled},
	}
	for _, l := range tests {
		want := m.payments.WithLabelValues(l.server, l.host, l.network, l.asset, l.scheme, l.result)
		for range 2 {
			if got := m.paymentsCounter(l); got != want {
				t.Fatalf("%+v: another counter than WithLabelValues's", l)
			}
		}
	}
}

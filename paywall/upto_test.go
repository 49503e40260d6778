package paywall

import (
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// What a metered response owes, for each unit, status and count: never
// above the maximum, nothing for an error status or no response, the
// maximum for an upstream that did not report its usage.
func TestMeterOwed(t *testing.T) {
	t.Parallel()
	const asset = "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707"
	max := big.NewInt(1_000)
	began := time.Unix(1_800_000_000, 0)
	for _, tc := range []struct {
		name    string
		per     string
		status  int // 0: nothing written
		bytes   int
		header  string // the usage header's value
		elapsed time.Duration
		want    int64
	}{
		{"bytes", UsageBytes, 200, 300, "", 0, 300},
		{"bytes over the maximum", UsageBytes, 200, 5_000, "", 0, 1_000},
		{"an error status", UsageBytes, 502, 300, "", 0, 0},
		{"a client error", UsageBytes, 404, 300, "", 0, 0},
		{"nothing written", UsageBytes, 0, 0, "", 0, 0},
		{"seconds, begun", UsageSeconds, 200, 10, "", 2500 * time.Millisecond, 3},
		{"no time at all", UsageSeconds, 200, 10, "", 0, 0},
		{"header units", UsageHeader, 200, 10, "7", 0, 7},
		{"header over the maximum", UsageHeader, 200, 10, "999999", 0, 1_000},
		{"no header: the maximum", UsageHeader, 200, 10, "", 0, 1_000},
		{"a header that is no number: the maximum", UsageHeader, 200, 10, "-3", 0, 1_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			m := &meter{w: rec, usage: &Usage{Per: tc.per, Header: "X-Usage", Prices: map[string]*big.Int{asset: big.NewInt(1)}}}
			if tc.status != 0 {
				if tc.header != "" {
					m.Header().Set("X-Usage", tc.header)
				}
				m.WriteHeader(tc.status)
				m.Write(make([]byte, tc.bytes))
				if rec.Header().Get("X-Usage") != "" {
					t.Error("the usage header reached the client")
				}
				if got := rec.Header().Get("Trailer"); got != "PAYMENT-RESPONSE" {
					t.Errorf("Trailer %q, want PAYMENT-RESPONSE", got)
				}
			}
			m.began = began
			if got := m.owed("0x5FC8d32690cc91D4c39d9d3abcBD16989F875707", max, began.Add(tc.elapsed)); got.Int64() != tc.want {
				t.Errorf("owed %s, want %d", got, tc.want)
			}
		})
	}
	// A metered handler that answers 101 would take the connection
	// unmetered: the client gets 502, its writes are dropped, nothing is
	// owed.
	rec := httptest.NewRecorder()
	m := &meter{w: rec, usage: &Usage{Per: UsageBytes, Prices: map[string]*big.Int{asset: big.NewInt(1)}}}
	m.WriteHeader(http.StatusSwitchingProtocols)
	if n, err := m.Write([]byte("the paid content")); n != 0 || err == nil || rec.Code != http.StatusBadGateway || rec.Body.Len() != 0 {
		t.Errorf("after a 101: wrote %d (%v); the client got %d %q", n, err, rec.Code, rec.Body)
	}
	if got := m.owed("0x5FC8d32690cc91D4c39d9d3abcBD16989F875707", max, began); got.Sign() != 0 {
		t.Errorf("a 101 owes %s", got)
	}
	if err := (&Usage{Per: "token", Prices: map[string]*big.Int{asset: big.NewInt(1)}}).Validate(); err == nil {
		t.Error("a usage per token validates")
	}
}

package dashboard

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzDecodeQuery: a listing's query string, whatever it holds, is read
// or refused as the caller's mistake; it never panics, and what is read is
// a valid store query.
func FuzzDecodeQuery(f *testing.F) {
	for _, s := range []string{"", "state=settled,failed&scheme=exact", "payer=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&limit=10", "since=2026-11-01&until=2026-11-02T00:00:00Z", "after=AAAA", "limit=-1", "state=%00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := parseQuery(v)
		if err != nil {
			if status, _ := classify(err); status != 400 {
				t.Fatalf("%q: %v is not a 400", raw, err)
			}
			return
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("%q read into an invalid query: %v", raw, err)
		}
	})
}

// FuzzDecodeLimits: a project's limits in a JSON body are read or refused
// as the caller's mistake, never with a panic, and what is read is within
// bounds.
func FuzzDecodeLimits(f *testing.F) {
	for _, s := range []string{`{"limits":{"txPerMinute":5,"maxInFlight":3,"dailyGasCap":"1000"}}`, `{"limits":{"dailyGasCap":"-1"}}`, `{"limits":null}`, `[]`, `{"limits":{"maxFeePerGas":"1e18"}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("PATCH", "/x402/projects/a", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		var v struct {
			Limits LimitsView `json:"limits"`
		}
		if err := decodeBody(w, r, &v); err != nil {
			return
		}
		l, err := v.Limits.limits()
		if err != nil {
			if status, _ := classify(err); status != 400 {
				t.Fatalf("%q: %v is not a 400", body, err)
			}
			return
		}
		if l.TxPerMinute < 1 || l.MaxInFlight < 1 || l.DailyGasCap == nil || l.DailyGasCap.Sign() <= 0 {
			t.Fatalf("%q read into limits out of bounds: %+v", body, l)
		}
	})
}

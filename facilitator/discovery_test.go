package facilitator

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/caddy-x402/caddy-x402/x402"
)

// TestDiscoveryResources: GET /discovery/resources pages the catalog in
// URL order, filters by type, payTo (any case), scheme, network and
// extension, stops listing a removed resource, and refuses a query it
// cannot read with a JSON 400.
func TestDiscoveryResources(t *testing.T) {
	t.Parallel()
	const payA, payB = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65", "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"
	cat := new(Catalog)
	entry := func(url, payTo, network string, ext bool) *DiscoveryResource {
		r := &DiscoveryResource{Resource: url, Type: "http", X402Version: 2,
			Accepts: []x402.PaymentRequirements{{Scheme: "exact", Network: network, PayTo: payTo, Amount: "1", Asset: payA}}}
		if ext {
			r.Extensions = map[string]json.RawMessage{"bazaar": json.RawMessage(`{}`)}
		}
		return r
	}
	gone := entry("https://a.example/gone", payA, "eip155:1", true)
	for _, r := range []*DiscoveryResource{
		entry("https://b.example/z", payB, "eip155:8453", true),
		entry("https://a.example/y", payA, "eip155:1", true),
		gone,
		entry("https://a.example/x", payA, "eip155:8453", false),
	} {
		cat.Add(r)
	}
	cat.Remove(gone)
	srv := httptest.NewServer(&Handler{Catalog: cat})
	t.Cleanup(srv.Close)

	get := func(t *testing.T, query string) (int, []byte) {
		t.Helper()
		resp, err := http.Get(srv.URL + "/discovery/resources" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: content type %q", query, resp.Header.Get("Content-Type"))
		}
		return resp.StatusCode, body
	}
	tests := []struct {
		query                string
		want                 []string
		limit, offset, total int
	}{
		{"", []string{"https://a.example/x", "https://a.example/y", "https://b.example/z"}, 20, 0, 3},
		{"?limit=2", []string{"https://a.example/x", "https://a.example/y"}, 2, 0, 3},
		{"?limit=2&offset=2", []string{"https://b.example/z"}, 2, 2, 3},
		{"?offset=3", []string{}, 20, 3, 3},
		{"?type=http&payTo=" + payA, []string{"https://a.example/x", "https://a.example/y"}, 20, 0, 2},
		{"?payTo=0x15D34AAF54267DB7D7C367839AAF71A00A2C6A65", []string{"https://a.example/x", "https://a.example/y"}, 20, 0, 2},
		{"?network=eip155:8453", []string{"https://a.example/x", "https://b.example/z"}, 20, 0, 2},
		{"?extensions=bazaar", []string{"https://a.example/y", "https://b.example/z"}, 20, 0, 2},
		{"?scheme=aa-native", []string{}, 20, 0, 0},
		{"?type=mcp", []string{}, 20, 0, 0},
		{"?unknown=1", []string{"https://a.example/x", "https://a.example/y", "https://b.example/z"}, 20, 0, 3},
	}
	for _, tc := range tests {
		t.Run("list"+tc.query, func(t *testing.T) {
			t.Parallel()
			status, body := get(t, tc.query)
			var got DiscoveryResources
			if err := json.Unmarshal(body, &got); err != nil || status != 200 || got.X402Version != 2 || got.Items == nil {
				t.Fatalf("%d %s", status, body)
			}
			urls := []string{}
			for _, it := range got.Items {
				urls = append(urls, it.Resource)
			}
			if fmt.Sprint(urls) != fmt.Sprint(tc.want) || got.Pagination != (DiscoveryPagination{tc.limit, tc.offset, tc.total}) {
				t.Fatalf("got %v %+v, want %v %d/%d/%d", urls, got.Pagination, tc.want, tc.limit, tc.offset, tc.total)
			}
		})
	}
	for _, q := range []string{"?limit=x", "?limit=0", "?limit=101", "?offset=-1", "?offset=1000001", "?type=soap",
		"?payTo=0x12", "?scheme=", "?network=a&network=b", "?%zz"} {
		t.Run("refuse"+q, func(t *testing.T) {
			t.Parallel()
			status, body := get(t, q)
			var got errorBody
			if err := json.Unmarshal(body, &got); err != nil || status != 400 || got.Error != "invalid_request" || got.Message == "" {
				t.Fatalf("%d %s", status, body)
			}
		})
	}
	t.Run("no catalog", func(t *testing.T) {
		t.Parallel()
		rec := httptest.NewRecorder()
		(&Handler{}).ServeHTTP(rec, httptest.NewRequest("GET", "/discovery/resources", nil))
		if rec.Code != 404 || rec.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	})
}

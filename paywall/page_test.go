package paywall_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// pageBudget is the most the browser paywall page may weigh, uncompressed:
// the page is everything a browser loads (its script and style are inline),
// so it is the page's whole transfer. Upstream's @x402/paywall is ~3.4 MB.
const pageBudget = 60 << 10

// browse GETs url as a browser's navigation does.
func browse(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// pageServer is a paywall in front of a handler that must not run: these
// tests only look at the page of the 402.
func pageServer(t *testing.T, mutate func(*paywall.Config)) *httptest.Server {
	t.Helper()
	cfg := paywall.Config{
		Accepts: []x402.PaymentRequirements{benchOffer}, Facilitator: accepting{},
		Description: "The quarterly report", AssetDecimals: map[string]uint8{strings.ToLower(benchOffer.Asset): 6},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	pw, err := paywall.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(pw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the protected handler ran for an unpaid request")
	})))
	t.Cleanup(srv.Close)
	return srv
}

var (
	noncePolicy = regexp.MustCompile(`script-src 'nonce-([A-Za-z0-9_-]{24})'; style-src 'nonce-([A-Za-z0-9_-]{24})'`)
	// loads are the attributes and CSS that would make the page load
	// something: the page must load nothing but itself.
	loads = regexp.MustCompile(`(?i:\ssrc=|<link)|@import|url\(`)
)

// TestPageIsOneSmallStrictResponse checks the page's transfer: one
// response within the budget, loading nothing else, never cached, with a
// policy that runs only the page's own script and style, under a nonce
// that is new for each response.
func TestPageIsOneSmallStrictResponse(t *testing.T) {
	t.Parallel()
	srv := pageServer(t, nil)
	resp, page := browse(t, srv.URL+"/report")
	if resp.StatusCode != 402 || resp.Header.Get(x402.HeaderPaymentRequired) == "" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%d %q", resp.StatusCode, resp.Header)
	}
	if got := resp.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write([]byte(page))
	zw.Close()
	t.Logf("the page: %d bytes, %d gzipped (budget %d)", len(page), gz.Len(), pageBudget)
	if len(page) > pageBudget {
		t.Errorf("the page is %d bytes, over its %d-byte budget", len(page), pageBudget)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	m := noncePolicy.FindStringSubmatch(csp)
	if m == nil || m[1] != m[2] || !strings.HasPrefix(csp, "default-src 'none';") || !strings.Contains(csp, "connect-src 'self';") ||
		!strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe") {
		t.Fatalf("Content-Security-Policy = %q", csp)
	}
	nonce := m[1]
	if n := strings.Count(page, "<script"); n != 1 || !strings.Contains(page, `<script nonce="`+nonce+`"`) || !strings.Contains(page, `<style nonce="`+nonce+`"`) {
		t.Errorf("want one script and the style, both under the nonce %s:\n%s", nonce, page)
	}
	if l := loads.FindString(page); l != "" {
		t.Errorf("the page loads something (%q): it must be self-contained", l)
	}
	for _, want := range []string{"The quarterly report", "0.01 Devnet USD", "caddy-x402 devnet", srv.URL + "/report"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	resp2, _ := browse(t, srv.URL+"/report")
	if m2 := noncePolicy.FindStringSubmatch(resp2.Header.Get("Content-Security-Policy")); m2 == nil || m2[1] == nonce {
		t.Errorf("the nonce %q was used twice", nonce)
	}
}

// TestPageEscapes checks that the request's URL, which the visitor's link
// chooses, is text in the page and never markup or script.
func TestPageEscapes(t *testing.T) {
	t.Parallel()
	srv := pageServer(t, nil)
	for _, path := range []string{
		`/r?q="><script>alert(1)</script>`,
		`/r?q='></script><script>alert(1)</script>`,
		`/r?q=</style><img/src=x/onerror=alert(1)>`,
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/", nil)
		req.URL.RawQuery = strings.SplitN(path, "?", 2)[1] // sent as it is
		req.Header.Set("Accept", "text/html")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(body)
		if resp.StatusCode != 402 || strings.Contains(page, "<script>alert") || strings.Contains(page, "<img") || strings.Count(page, "<script") != 1 {
			t.Errorf("%s: %d\n%s", path, resp.StatusCode, page)
		}
	}
}

// TestPageTemplate checks Config.PageTemplate: the merchant's template gets
// the page's data and its script; one that does not parse is refused; one
// that fails while rendering shows the default page, whole.
func TestPageTemplate(t *testing.T) {
	t.Parallel()
	const own = `<!doctype html><title>Shop</title>{{.Style}}<h1>Buy {{.Resource.Description}}</h1>` +
		`{{range .Offers}}<p class="mine">{{.Price}} {{.Token}} on {{.NetworkName}}</p>{{end}}` +
		`<style nonce="{{.Nonce}}">h1{color:red}</style><div id="x402-pay"></div>{{.Script}}`
	cases := []struct {
		name, template string
		invalid        bool
		want, not      []string
	}{
		{name: "merchant's", template: own,
			want: []string{"<title>Shop</title>", "<h1>Buy The quarterly report</h1>", `<p class="mine">0.01 Devnet USD on caddy-x402 devnet</p>`, `data-paywall="`},
			not:  []string{"Pay with an x402 client instead"}},
		{name: "fails to render", template: `<p>partial</p>{{.Offers.Nope}}`,
			want: []string{"Pay with an x402 client instead"}, not: []string{"<p>partial</p>"}},
		{name: "does not parse", template: `{{.Offers`, invalid: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := paywall.Config{Accepts: []x402.PaymentRequirements{benchOffer}, Facilitator: accepting{}, PageTemplate: tc.template}
			if err := cfg.Validate(); (err != nil) != tc.invalid {
				t.Fatalf("Validate() = %v, want an error: %v", err, tc.invalid)
			}
			if tc.invalid {
				return
			}
			srv := pageServer(t, func(c *paywall.Config) { c.PageTemplate = tc.template })
			resp, page := browse(t, srv.URL+"/report")
			if resp.StatusCode != 402 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			m := noncePolicy.FindStringSubmatch(resp.Header.Get("Content-Security-Policy"))
			if m == nil || !strings.Contains(page, `<script nonce="`+m[1]+`"`) {
				t.Errorf("the page's script is not under the response's nonce")
			}
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("the page does not have %q:\n%s", w, page)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(page, n) {
					t.Errorf("the page has %q:\n%s", n, page)
				}
			}
		})
	}
}

// TestPageNamesPayeeAndOffers: the page says who is paid (the merchant's
// name and the site's host, or the host alone) and how each offer is paid
// in plain words, not in scheme names; a Permit2 offer, which the page's
// EIP-3009 signature cannot pay, is not offered to the browser wallet
// (issue 41).
func TestPageNamesPayeeAndOffers(t *testing.T) {
	t.Parallel()
	permit2 := benchOffer
	permit2.Extra = &x402.Extra{Name: "Permit Token", Version: "1", AssetTransferMethod: x402.AssetTransferPermit2}
	aa := benchOffer
	aa.Scheme, aa.Extra = x402.SchemeAANative, nil
	offers := []x402.PaymentRequirements{benchOffer, permit2, aa}
	for _, tc := range []struct {
		name, merchant string
		want           []string
	}{
		{"named", "Acme Reports", []string{`Paid to <strong>Acme Reports</strong> <span class="muted">(127.0.0.1:`}},
		{"the host alone", "", []string{`Paid to <strong>127.0.0.1:`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := pageServer(t, func(c *paywall.Config) { c.Accepts, c.MerchantName = offers, tc.merchant })
			_, page := browse(t, srv.URL+"/r")
			want := append(tc.want,
				"a transfer you sign in your browser wallet",
				"a transfer through Permit2, signed by an x402 client",
				"from a smart account (ERC-4337), with gas paid for you, by an x402 client")
			for _, w := range want {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			if strings.Contains(page, "aa-native, pay with") {
				t.Error("the page names an offer by its scheme")
			}
			if n := strings.Count(page, `&#34;payable&#34;:true`) + strings.Count(page, `"payable":true`); n != 1 {
				t.Errorf("%d offers payable in the browser; want the EIP-3009 one alone", n)
			}
		})
	}
}

package caddymodule

import (
	"bufio"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// request parses target as the request line of an HTTP/1.1 request, as
// Go's server (and so Caddy) does.
func request(t *testing.T, target string) *http.Request {
	t.Helper()
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET " + target + " HTTP/1.1\r\nHost: shop.example\r\n\r\n")))
	if err != nil {
		t.Fatalf("parsing %q: %v", target, err)
	}
	return r
}

func TestPathRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target string
		params bool // allow_path_params
		want   pathRefusal
	}{
		// Ordinary paths pass, whatever the query holds.
		{"/", false, ""},
		{"/paid/report", false, ""},
		{"/paid/report?a=1;b=2&c=%2F%5C..", false, ""},
		{"/files/report.v2.json", false, ""},
		{"/caf%C3%A9/%E2%82%AC", false, ""},
		{"/a%20b/%40me/%25", false, ""},
		{"/paid//report", false, ""},
		{"/paid/...", false, ""},
		{"/paid/.well", false, ""},
		{"*", false, ""},
		{"http://shop.example/paid/report?x=;", false, ""},
		{"http://shop.example?x", false, ""},
		// Path parameters, raw or encoded, unless allowed.
		{"/paid;x/report", false, refusedPathParameter},
		{"/paid;jsessionid=1/report", false, refusedPathParameter},
		{"/paid/report;", false, refusedPathParameter},
		{"/paid%3Bx/report", false, refusedPathParameter},
		{"/paid%253Bx/report", false, refusedPathParameter},
		{"http://shop.example/paid;x/report", false, refusedPathParameter},
		{"/paid;x/report", true, ""},
		{"/paid%3Bjsessionid=1/report", true, ""},
		// allow_path_params allows ";" only.
		{"/paid;x/..;/report", true, refusedDotSegment},
		{"/paid;x%5Creport", true, refusedBackslash},
		// Backslashes, raw or (doubly) encoded.
		{`/paid\report`, false, refusedBackslash},
		{"/paid%5Creport", false, refusedBackslash},
		{"/paid%5creport", false, refusedBackslash},
		{"/paid%255Creport", false, refusedBackslash},
		// Encoded slashes.
		{"/paid%2Freport", false, refusedEncodedSlash},
		{"/paid%2freport", false, refusedEncodedSlash},
		{"/paid%252Freport", false, refusedEncodedSlash},
		// Dot segments, raw or encoded.
		{"/free/../paid/report", false, refusedDotSegment},
		{"/free/./paid", false, refusedDotSegment},
		{"/free/..", false, refusedDotSegment},
		{"/free/%2e%2e/paid/report", false, refusedDotSegment},
		{"/free/%2E./paid/report", false, refusedDotSegment},
		{"/free/%252e%252e/paid/report", false, refusedDotSegment},
		{"/free/..;/paid/report", false, refusedPathParameter},
		// Control characters and line separators, encoded or raw.
		{"/paid%0A/report", false, refusedControl},
		{"/paid%0d%0aX:1/report", false, refusedControl},
		{"/paid%00/report", false, refusedControl},
		{"/paid%1F/report", false, refusedControl},
		{"/paid%7F/report", false, refusedControl},
		{"/paid%09/report", false, refusedControl},
		{"/paid%250A/report", false, refusedControl},
		{"/paid%E2%80%A8/report", false, refusedLineSeparator},
		{"/paid%e2%80%a9/report", false, refusedLineSeparator},
		{"/paid%C2%85/report", false, refusedLineSeparator},
		{"/paid\u2028/report", false, refusedLineSeparator},
		{"/paid%25E2%2580%25A8/report", false, refusedLineSeparator},
		// Not UTF-8 once decoded: overlong "/" and a lone byte.
		{"/paid%C0%AFreport", false, refusedBadEncoding},
		{"/paid%FF/report", false, refusedBadEncoding},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			t.Parallel()
			got := pathRule{allowParams: tc.params}.check(request(t, tc.target))
			if got != tc.want {
				t.Fatalf("check(%q, allow_path_params=%v) = %q, want %q", tc.target, tc.params, got, tc.want)
			}
		})
	}
}

// TestPathRuleRawControl: a control character Go's HTTP/1 parser would
// refuse can still arrive by HTTP/2 or from a handler ahead of the guard.
func TestPathRuleRawControl(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"/paid\n/report", "/paid\x00", "/paid\x7f/report", "/paid\t/report"} {
		r := &http.Request{Method: "GET", RequestURI: path, URL: &url.URL{Path: path}}
		if got := (pathRule{}).check(r); got != refusedControl {
			t.Errorf("check(%q) = %q, want %q", path, got, refusedControl)
		}
	}
	// Without a request target (a request that did not come from a
	// server), the URL's path is checked.
	r := &http.Request{Method: "GET", URL: &url.URL{Path: "/paid;x/report"}}
	if got := (pathRule{}).check(r); got != refusedPathParameter {
		t.Errorf("check(URL only) = %q, want %q", got, refusedPathParameter)
	}
}

func FuzzPathRule(f *testing.F) {
	for _, s := range []string{"/paid/report", "/paid;x/report", "/paid%5Creport", "/a/%2e%2e/b", "/%E2%80%A8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		r, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n")))
		if err != nil {
			return
		}
		why := pathRule{}.check(r)
		if why != "" {
			return
		}
		// A path the rule lets through reads the same to Caddy and to an
		// upstream that strips ";", maps "\" to "/" and decodes twice.
		once, err := url.PathUnescape(rawPath(r))
		if err != nil {
			t.Fatalf("accepted %q, which does not decode", target)
		}
		twice := lenientUnescape(once)
		if strings.ContainsAny(twice, ";\\") || strings.Count(twice, "/") != strings.Count(rawPath(r), "/") {
			t.Fatalf("accepted %q, which reads %q upstream", target, twice)
		}
	})
}

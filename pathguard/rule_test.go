package pathguard

import (
	"bufio"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
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
		want   Refusal
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
		{"/paid;x/report", false, PathParameter},
		{"/paid;jsessionid=1/report", false, PathParameter},
		{"/paid/report;", false, PathParameter},
		{"/paid%3Bx/report", false, PathParameter},
		{"/paid%253Bx/report", false, PathParameter},
		{"http://shop.example/paid;x/report", false, PathParameter},
		{"/paid;x/report", true, ""},
		{"/paid%3Bjsessionid=1/report", true, ""},
		// allow_path_params allows ";" only.
		{"/paid;x/..;/report", true, DotSegment},
		{"/paid;x%5Creport", true, Backslash},
		// Backslashes, raw or (doubly) encoded.
		{`/paid\report`, false, Backslash},
		{"/paid%5Creport", false, Backslash},
		{"/paid%5creport", false, Backslash},
		{"/paid%255Creport", false, Backslash},
		// Encoded slashes.
		{"/paid%2Freport", false, EncodedSlash},
		{"/paid%2freport", false, EncodedSlash},
		{"/paid%252Freport", false, EncodedSlash},
		// Dot segments, raw or encoded.
		{"/free/../paid/report", false, DotSegment},
		{"/free/./paid", false, DotSegment},
		{"/free/..", false, DotSegment},
		{"/free/%2e%2e/paid/report", false, DotSegment},
		{"/free/%2E./paid/report", false, DotSegment},
		{"/free/%252e%252e/paid/report", false, DotSegment},
		{"/free/..;/paid/report", false, PathParameter},
		// Control characters and line separators, encoded or raw.
		{"/paid%0A/report", false, Control},
		{"/paid%0d%0aX:1/report", false, Control},
		{"/paid%00/report", false, Control},
		{"/paid%1F/report", false, Control},
		{"/paid%7F/report", false, Control},
		{"/paid%09/report", false, Control},
		{"/paid%250A/report", false, Control},
		{"/paid%E2%80%A8/report", false, LineSeparator},
		{"/paid%e2%80%a9/report", false, LineSeparator},
		{"/paid%C2%85/report", false, LineSeparator},
		{"/paid\u2028/report", false, LineSeparator},
		{"/paid%25E2%2580%25A8/report", false, LineSeparator},
		// Not UTF-8 once decoded: overlong "/" and a lone byte.
		{"/paid%C0%AFreport", false, BadEncoding},
		{"/paid%FF/report", false, BadEncoding},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			t.Parallel()
			got := Rule{AllowParams: tc.params}.Check(request(t, tc.target))
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
		if got := (Rule{}).Check(r); got != Control {
			t.Errorf("check(%q) = %q, want %q", path, got, Control)
		}
	}
	// Without a request target (a request that did not come from a
	// server), the URL's path is checked.
	r := &http.Request{Method: "GET", URL: &url.URL{Path: "/paid;x/report"}}
	if got := (Rule{}).Check(r); got != PathParameter {
		t.Errorf("check(URL only) = %q, want %q", got, PathParameter)
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
		why := Rule{}.Check(r)
		if why != "" {
			return
		}
		// A path the rule lets through reads the same to Caddy and to an
		// upstream that strips ";", maps "\" to "/" and decodes twice.
		once, err := url.PathUnescape(RawPath(r))
		if err != nil {
			t.Fatalf("accepted %q, which does not decode", target)
		}
		twice := lenientUnescape(once)
		if strings.ContainsAny(twice, ";\\") || strings.Count(twice, "/") != strings.Count(RawPath(r), "/") {
			t.Fatalf("accepted %q, which reads %q upstream", target, twice)
		}
	})
}

// referenceCheck is Rule.Check as it was before it skipped spellings seen
// already and the scans a path's bytes rule out: every spelling, every
// scan.
func referenceCheck(p Rule, r *http.Request) Refusal {
	raw := RawPath(r)
	if raw == "" && r.URL != nil {
		raw = r.URL.EscapedPath()
	}
	once, err := url.PathUnescape(raw)
	if err != nil || !utf8.ValidString(once) {
		return BadEncoding
	}
	twice := lenientUnescape(once)
	if hasEncodedSlash(raw) || hasEncodedSlash(once) {
		return EncodedSlash
	}
	layers := []string{raw, once, twice}
	if r.URL != nil && r.URL.Path != once {
		layers = append(layers, r.URL.Path)
	}
	for _, s := range layers {
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c < 0x20 || c == 0x7f:
				return Control
			case c == '\\':
				return Backslash
			case c == ';' && !p.AllowParams:
				return PathParameter
			}
		}
		for _, c := range s {
			if c == '\u0085' || c == '\u2028' || c == '\u2029' {
				return LineSeparator
			}
		}
		for seg := range strings.SplitSeq(s, "/") {
			seg, _, _ = strings.Cut(seg, ";")
			if seg == "." || seg == ".." {
				return DotSegment
			}
		}
	}
	return ""
}

// FuzzPathRuleSame: Check decides every request target, with and without
// path parameters allowed, as every spelling checked in full does.
func FuzzPathRuleSame(f *testing.F) {
	for _, s := range []string{"/paid/report", "/paid;x/report", "/paid%5Creport", "/a/%2e%2e/b", "/%E2%80%A8",
		"/a/..;x/b", "/%C2%85", "/r%C3%A9sum%C3%A9", "/%252e%252e/x", "/.well-known/x402", "/a.b/c.", "*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		r, err := http.ReadRequest(bufio.NewReader(strings.NewReader("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n")))
		if err != nil {
			return
		}
		for _, p := range []Rule{{}, {AllowParams: true}} {
			if got, want := p.Check(r), referenceCheck(p, r); got != want {
				t.Fatalf("%q, %+v: %q, want %q", target, p, got, want)
			}
		}
		// The URL's path alone, as for a request no server parsed.
		u := &http.Request{URL: &url.URL{Path: target}}
		if got, want := (Rule{}).Check(u), referenceCheck(Rule{}, u); got != want {
			t.Fatalf("URL path %q: %q, want %q", target, got, want)
		}
	})
}

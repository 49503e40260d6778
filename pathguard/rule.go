// Package pathguard refuses request paths that could reach a paid resource
// past the paid route's matcher, as plain net/http middleware (Caddy's
// x402_path_guard adapts it), and answers a site's RFC 9728
// protected-resource metadata.
package pathguard

// The path rule.
//
// A paid route is found by a path matcher, and Caddy matches the decoded,
// cleaned path. An upstream may read the same request target another way:
// servlet containers (Tomcat, Jetty, Spring) drop ";" path parameters, some
// servers read "\" as "/" or decode "%2F" to a separator, and regex routers
// stop at a line separator. A spelling that Caddy's matcher sends to a free
// route while the upstream reads it as the paid resource serves that
// resource for free. The rule refuses every such spelling before routing.

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Refusal is why a request path is refused; the empty value accepts it.
type Refusal string

// The reasons a path is refused, as the refusal's JSON "reason" field
// spells them.
const (
	Control       Refusal = "control_character"
	LineSeparator Refusal = "line_separator"
	Backslash     Refusal = "backslash"
	EncodedSlash  Refusal = "encoded_slash"
	DotSegment    Refusal = "dot_segment"
	PathParameter Refusal = "path_parameter"
	BadEncoding   Refusal = "bad_encoding"
)

// messages explain each refusal to the client; see Refusal.Message.
var messages = map[Refusal]string{
	Control:       "the request path holds a control character, raw or percent-encoded",
	LineSeparator: "the request path holds a line separator (U+0085, U+2028 or U+2029), raw or percent-encoded",
	Backslash:     `the request path holds a backslash, raw or percent-encoded (%5C)`,
	EncodedSlash:  "the request path holds an encoded slash (%2F)",
	DotSegment:    `the request path holds a "." or ".." segment, raw or percent-encoded`,
	PathParameter: `the request path holds a ";" path parameter`,
	BadEncoding:   "the request path is not valid percent-encoded UTF-8",
}

// Message is the client's explanation of r.
func (r Refusal) Message() string { return messages[r] }

// Rule is what the guard refuses. Its zero value refuses all of
// it.
type Rule struct {
	// AllowParams lets ";" through, for an upstream that needs path
	// parameters.
	AllowParams bool
}

// Check decides on r's path: the request target as it arrived
// (r.RequestURI, before any decoding), that path decoded once (what
// Caddy's matchers see), decoded twice (a double encoding such as %255C,
// for an upstream that decodes again), and r.URL.Path. A triple encoding
// is let through: it is not a separator for an upstream that decodes at
// most twice.
func (p Rule) Check(r *http.Request) Refusal {
	raw := RawPath(r)
	if raw == "" && r.URL != nil {
		raw = r.URL.EscapedPath()
	}
	once, err := url.PathUnescape(raw)
	if err != nil {
		return BadEncoding
	}
	if !utf8.ValidString(once) {
		return BadEncoding
	}
	twice := lenientUnescape(once)
	if hasEncodedSlash(raw) || hasEncodedSlash(once) {
		return EncodedSlash
	}
	// The spellings in order; one that is the same as an earlier one (a
	// path without escapes is the same in all) is checked once.
	if why := p.checkLayer(raw); why != "" {
		return why
	}
	if once != raw {
		if why := p.checkLayer(once); why != "" {
			return why
		}
	}
	if twice != once && twice != raw {
		if why := p.checkLayer(twice); why != "" {
			return why
		}
	}
	if r.URL != nil && r.URL.Path != once && r.URL.Path != raw && r.URL.Path != twice {
		return p.checkLayer(r.URL.Path)
	}
	return ""
}

// checkLayer refuses s, one spelling of the path, for the characters and
// segments the rule forbids.
func (p Rule) checkLayer(s string) Refusal {
	ascii, dot := true, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == 0x7f:
			return Control
		case c == '\\':
			return Backslash
		case c == ';' && !p.AllowParams:
			return PathParameter
		case c >= 0x80:
			ascii = false
		case c == '.':
			dot = true
		}
	}
	if !ascii { // the separators below are not ASCII
		for _, r := range s {
			if r == '\u0085' || r == '\u2028' || r == '\u2029' {
				return LineSeparator
			}
		}
	}
	if !dot {
		return "" // no dot segment without a dot
	}
	for seg := range strings.SplitSeq(s, "/") {
		// A servlet container drops the ";" parameters first: "..;x" is
		// "..", which matters when allow_path_params lets ";" through.
		seg, _, _ = strings.Cut(seg, ";")
		if seg == "." || seg == ".." {
			return DotSegment
		}
	}
	return ""
}

// RawPath is the path of r's request target as it arrived: r.RequestURI
// without its query, and without scheme and authority in absolute form.
// It is empty for "*" and CONNECT's authority form, which have no path,
// and for a request that did not come from a server.
func RawPath(r *http.Request) string {
	uri := r.RequestURI
	if !strings.HasPrefix(uri, "/") {
		i := strings.Index(uri, "://")
		if i < 0 {
			return ""
		}
		rest := uri[i+len("://"):]
		j := strings.IndexAny(rest, "/?")
		if j < 0 || rest[j] == '?' {
			return ""
		}
		uri = rest[j:]
	}
	if i := strings.IndexByte(uri, '?'); i >= 0 {
		uri = uri[:i]
	}
	return uri
}

// hasEncodedSlash reports whether s holds %2F in either case.
func hasEncodedSlash(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' && s[i+1] == '2' && (s[i+2] == 'f' || s[i+2] == 'F') {
			return true
		}
	}
	return false
}

// lenientUnescape decodes the valid %XX escapes of s and keeps every other
// byte as it is, as a second, lenient decoder upstream would.
func lenientUnescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

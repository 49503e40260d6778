package paywall

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"

	"github.com/caddy-x402/caddy-x402/x402"
)

// A fixed-price route's 402 to a JSON client is written from bytes made
// when the paywall is made: the JSON of PAYMENT-REQUIRED and of the body,
// rendered once by the same code that renders them per request, with
// stand-ins where the request's URL and the error message go, and cut
// there. A 402 then joins the pieces with those two strings escaped. A
// route with a Pricer or access windows (whose 402 carries a fresh
// sign-in nonce) renders each 402 in full, as does a browser's page.

// The stand-ins: strings no configuration holds, whose JSON escapes
// (\u0001…) are looked for in the rendered bytes.
const (
	standInURL   = "\x01x402-url\x01"
	standInError = "\x01x402-error\x01"
)

// hole is what goes into a cut: the URL or the error message.
type hole uint8

const (
	holeURL hole = iota
	holeError
)

// cutJSON is rendered JSON cut at its stand-ins: parts[0], then for each
// hole i, the escaped value and parts[i+1].
type cutJSON struct {
	parts [][]byte
	holes []hole
	size  int // the bytes of parts
}

// challengeBytes are a route's 402s as cut JSON: the header's and the
// body's, with and without an error, and the body for a v1 payment.
type challengeBytes struct {
	header [2]cutJSON    // by whether there is an error
	body   [2][2]cutJSON // by error, then by whether the payment is v1
}

// newChallengeBytes renders p's 402s with the stand-ins, or returns nil
// when p's 402 is not fixed (a Pricer, access windows) or a stand-in is
// not where it is expected.
func newChallengeBytes(p *Paywall) *challengeBytes {
	if p.cfg.Pricer != nil || (p.cfg.Access != nil && p.cfg.Access.Recover != nil) {
		return nil
	}
	c := new(challengeBytes)
	for e, msg := range []string{"", standInError} {
		pr := &x402.PaymentRequired{
			X402Version: x402.Version, Error: msg, Accepts: p.cfg.Accepts, Extensions: p.extensions,
			Resource: &x402.Resource{URL: standInURL, Description: p.cfg.Description, MimeType: p.cfg.MimeType},
		}
		if p.cfg.Resource != "" {
			pr.Resource.URL = p.cfg.Resource
		}
		var ok bool
		if c.header[e], ok = cut(pr, msg != ""); !ok {
			return nil
		}
		for v1 := range 2 {
			r := (&http.Request{}).WithContext(context.WithValue(context.Background(), v1Payment{}, v1 == 1))
			if c.body[e][v1], ok = cut(challengeBody(r, pr), msg != ""); !ok {
				return nil
			}
		}
	}
	return c
}

// cut renders v and cuts it at the stand-ins; ok is false when it does not
// encode, or holds the error's stand-in other than once where errored says
// it should.
func cut(v any, errored bool) (cutJSON, bool) {
	raw, err := json.Marshal(v)
	if err != nil {
		return cutJSON{}, false
	}
	url, msg := []byte(escaped(standInURL)), []byte(escaped(standInError))
	var c cutJSON
	errors := 0
	for {
		iu, ie := bytes.Index(raw, url), bytes.Index(raw, msg)
		at, n, h := iu, len(url), holeURL
		if ie >= 0 && (iu < 0 || ie < iu) {
			at, n, h = ie, len(msg), holeError
			errors++
		}
		if at < 0 {
			break
		}
		c.parts, c.holes = append(c.parts, raw[:at]), append(c.holes, h)
		c.size += at
		raw = raw[at+n:]
	}
	c.parts = append(c.parts, raw)
	c.size += len(raw)
	return c, errors == 0 && !errored || errors == 1 && errored
}

// escaped is s as it stands inside a JSON string that encoding/json wrote.
func escaped(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			return string(b[1 : len(b)-1])
		}
	}
	return s
}

// join is c with url and msg in its holes, and extra bytes of room.
func (c *cutJSON) join(url, msg string, extra int) []byte {
	out := make([]byte, 0, c.size+len(url)*len(c.holes)+len(msg)+extra)
	for i, h := range c.holes {
		out = append(out, c.parts[i]...)
		if h == holeURL {
			out = append(out, url...)
		} else {
			out = append(out, msg...)
		}
	}
	return append(out, c.parts[len(c.parts)-1]...)
}

// write answers r with the 402 (or status) to a JSON client, as
// Paywall.challenge does, from the cut bytes.
func (c *challengeBytes) write(p *Paywall, w http.ResponseWriter, r *http.Request, status int, msg string) {
	url, m := escaped(p.resourceURL(r)), escaped(msg)
	e := 0
	if msg != "" {
		e = 1
	}
	h := w.Header()
	raw := c.header[e].join(url, m, 0)
	if n := base64.StdEncoding.EncodedLen(len(raw)); n <= x402.MaxHeaderSize {
		value := make([]byte, n)
		base64.StdEncoding.Encode(value, raw)
		h.Set(x402.HeaderPaymentRequired, string(value))
	}
	h["Cache-Control"] = []string{"no-store"}
	v1 := 0
	if isV1(r) {
		v1 = 1
	}
	body := append(c.body[e][v1].join(url, m, 1), '\n')
	h["Content-Type"] = []string{"application/json"}
	w.WriteHeader(status)
	w.Write(body)
}

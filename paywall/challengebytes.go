package paywall

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"hash/maphash"
	"net/http"
	"strings"
	"sync/atomic"

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
// body's, with and without an error, and the body for a v1 payment. The
// header's parts are also kept in base64 (see encodedCut).
type challengeBytes struct {
	header [2]encodedCut // by whether there is an error
	body   [2][2]cutJSON // by error, then by whether the payment is v1
	// recent are the last 402s without an error, of a few URLs.
	recent recentAnswers
}

// newChallengeBytes renders p's 402s with the stand-ins, or returns nil
// when p's 402 is not fixed (a Pricer, access windows) or a stand-in is
// not where it is expected.
func newChallengeBytes(p *Paywall) *challengeBytes {
	if p.cfg.Pricer != nil || (p.cfg.Access != nil && p.cfg.Access.Recover != nil) {
		return nil
	}
	c := &challengeBytes{recent: recentAnswers{seed: maphash.MakeSeed()}}
	for e, msg := range []string{"", standInError} {
		pr := &x402.PaymentRequired{
			X402Version: x402.Version, Error: msg, Accepts: p.cfg.Accepts, Extensions: p.extensions,
			Resource: &x402.Resource{URL: standInURL, Description: p.cfg.Description, MimeType: p.cfg.MimeType},
		}
		if p.cfg.Resource != "" {
			pr.Resource.URL = p.cfg.Resource
		}
		header, ok := cut(pr, msg != "")
		if !ok {
			return nil
		}
		c.header[e] = encodeCut(header)
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
// Paywall.challenge does, from the cut bytes, or from the recent answers
// (see recentAnswers) for a challenge without an error.
func (c *challengeBytes) write(p *Paywall, w http.ResponseWriter, r *http.Request, status int, msg string) {
	v1 := isV1(r)
	var a *answer402
	if msg == "" && !v1 {
		key := answerKey{tls: r.TLS != nil, host: r.Host, uri: r.URL.RequestURI()}
		if a = c.recent.get(key); a == nil {
			a = c.render(p, r, msg, v1)
			c.recent.put(key, a)
		}
	} else {
		a = c.render(p, r, msg, v1)
	}
	// The three header values share one backing array; each is its own
	// slice of length and capacity 1, so that a later Add to one of them
	// copies it rather than write into the next, and none is shared with
	// another response (a handler after the paywall may rewrite a value
	// in place).
	values := make([]string, 3)
	h := w.Header()
	if a.header != "" {
		values[0] = a.header
		h[headerPaymentRequired] = values[0:1:1]
	}
	values[1] = "no-store"
	h["Cache-Control"] = values[1:2:2]
	values[2] = "application/json"
	h["Content-Type"] = values[2:3:3]
	w.WriteHeader(status)
	w.Write(a.body)
}

// answer402 is a 402's PAYMENT-REQUIRED value ("" when it is too large
// to send) and its body. Once kept among the recent answers it is never
// modified: they share it between responses.
type answer402 struct {
	key    answerKey
	header string
	body   []byte
}

// render joins r's 402 with msg from the cut bytes.
func (c *challengeBytes) render(p *Paywall, r *http.Request, msg string, v1 bool) *answer402 {
	url, m := escaped(p.resourceURL(r)), escaped(msg)
	e, b := 0, 0
	if msg != "" {
		e = 1
	}
	if v1 {
		b = 1
	}
	a := &answer402{body: append(c.body[e][b].join(url, m, 1), '\n')}
	if value, ok := c.header[e].encode(url, m); ok {
		a.header = value
	}
	return a
}

// The recent answers. A route's 402 to an unpaid JSON client depends only
// on the request's URL (the resource's), so the same URL gets the same
// bytes until the configuration changes; the usual caller asks again for
// the resource it was refused, or for the one every agent asks for. The
// paywall keeps the last 402 of a few URLs, in a table indexed by a hash
// of the URL, one answer a slot, a newer one replacing an older one of
// the same slot: bounded (recentSlots answers of at most maxRecentURL
// bytes of URL each, and a header within x402.MaxHeaderSize), and read
// without a lock.
const (
	recentSlots  = 16
	maxRecentURL = 512
)

// answerKey is what a 402's URL is made of (see Paywall.resourceURL):
// whether the connection is TLS, the Host and the request URI.
type answerKey struct {
	tls       bool
	host, uri string
}

// recentAnswers is the table of recent 402s, empty once its seed is made.
type recentAnswers struct {
	seed  maphash.Seed
	slots [recentSlots]atomic.Pointer[answer402]
}

// slot is key's slot.
func (t *recentAnswers) slot(key answerKey) *atomic.Pointer[answer402] {
	return &t.slots[maphash.Comparable(t.seed, key)%recentSlots]
}

// get is key's answer, or nil.
func (t *recentAnswers) get(key answerKey) *answer402 {
	if a := t.slot(key).Load(); a != nil && a.key == key {
		return a
	}
	return nil
}

// put keeps a as key's answer, unless key's URL is longer than
// maxRecentURL.
func (t *recentAnswers) put(key answerKey, a *answer402) {
	if len(key.host)+len(key.uri) > maxRecentURL {
		return
	}
	a.key = key
	t.slot(key).Store(a)
}

// headerPaymentRequired is PAYMENT-REQUIRED as a key of http.Header.
var headerPaymentRequired = http.CanonicalHeaderKey(x402.HeaderPaymentRequired)

// encodedCut is cut JSON (the PAYMENT-REQUIRED header's) with the base64
// of its parts made ahead. Base64 encodes 3 bytes at a time, so where a
// part's encoding starts depends on the bytes before it, which the holes
// make vary: each part is encoded for each of the three places it can
// start in a 3-byte group. A header is then its parts' encodings with
// only the holes, and the few bytes around them, encoded per request.
type encodedCut struct {
	parts []encodedPart
	holes []hole
	size  int // the bytes of the parts, before encoding
}

// encodedPart is one part of an encodedCut. For a part that starts with
// a (0, 1 or 2) bytes of its 3-byte group already written, head[a] of its
// bytes complete that group, body[a] is the base64 of the whole groups
// after them, and the rest, from tail[a], starts the next group.
type encodedPart struct {
	raw  []byte
	head [3]int
	body [3]string
	tail [3]int
}

// encodeCut encodes c's parts ahead (see encodedCut).
func encodeCut(c cutJSON) encodedCut {
	out := encodedCut{holes: c.holes, size: c.size}
	for _, raw := range c.parts {
		part := encodedPart{raw: raw}
		for a := range 3 {
			head := min((3-a)%3, len(raw))
			whole := (len(raw) - head) / 3 * 3
			part.head[a], part.tail[a] = head, head+whole
			part.body[a] = base64.StdEncoding.EncodeToString(raw[head : head+whole])
		}
		out.parts = append(out.parts, part)
	}
	return out
}

// encode is the base64 of c with url and msg in its holes, as
// base64.StdEncoding encodes it whole; ok is false when it is over
// x402.MaxHeaderSize (such a header is not sent).
func (c *encodedCut) encode(url, msg string) (value string, ok bool) {
	size := c.size
	for _, h := range c.holes {
		if h == holeURL {
			size += len(url)
		} else {
			size += len(msg)
		}
	}
	n := base64.StdEncoding.EncodedLen(size)
	if n > x402.MaxHeaderSize {
		return "", false
	}
	var e base64Writer
	e.out.Grow(n)
	for i, h := range c.holes {
		e.writePart(&c.parts[i])
		if h == holeURL {
			e.writeString(url)
		} else {
			e.writeString(msg)
		}
	}
	e.writePart(&c.parts[len(c.parts)-1])
	return e.close(), true
}

// base64Writer writes standard, padded base64 of what it is given, in
// pieces: the bytes of an unfinished 3-byte group wait in pending.
type base64Writer struct {
	out     strings.Builder
	pending [3]byte
	n       int // bytes in pending
}

// writePart writes p, from its encodings made ahead.
func (e *base64Writer) writePart(p *encodedPart) {
	a := e.n
	e.writeBytes(p.raw[:p.head[a]])
	if e.n != 0 {
		return // p was too short to finish the group: it is all pending
	}
	e.out.WriteString(p.body[a])
	e.writeBytes(p.raw[p.tail[a]:])
}

// writeBytes encodes b.
func (e *base64Writer) writeBytes(b []byte) {
	var buf [64]byte // 48 bytes in, 64 out
	if e.n > 0 {
		for e.n < 3 && len(b) > 0 {
			e.pending[e.n], b = b[0], b[1:]
			e.n++
		}
		if e.n < 3 {
			return
		}
		base64.StdEncoding.Encode(buf[:4], e.pending[:])
		e.out.Write(buf[:4])
		e.n = 0
	}
	for len(b) >= 3 {
		k := min(len(b), 48) / 3 * 3
		base64.StdEncoding.Encode(buf[:], b[:k])
		e.out.Write(buf[:k/3*4])
		b = b[k:]
	}
	e.n = copy(e.pending[:], b)
}

// writeString encodes s, 48 bytes at a time, without copying it whole.
func (e *base64Writer) writeString(s string) {
	var chunk [48]byte
	for len(s) > 0 {
		k := copy(chunk[:], s)
		e.writeBytes(chunk[:k])
		s = s[k:]
	}
}

// close encodes what is pending, padded, and returns the encoding.
func (e *base64Writer) close() string {
	if e.n > 0 {
		var buf [4]byte
		base64.StdEncoding.Encode(buf[:], e.pending[:e.n])
		e.out.Write(buf[:])
		e.n = 0
	}
	return e.out.String()
}

package dashboard

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"time"
)

// The web app is behind basic_auth, whose credentials a browser sends with
// every request to the site, including a form that another site submits.
// Two checks refuse such a forged request, before anything changes:
//   - net/http's CrossOriginProtection refuses a state-changing request
//     that a browser marks as cross-site (Sec-Fetch-Site), or whose Origin
//     is not the site's own;
//   - every form carries a token that another site can neither read nor
//     compute: the time it was issued and an HMAC, under Config.Secret, of
//     that time and the user's name. It is good for FormTokenTTL after it
//     was issued, for that user only, so a token that leaked (from a
//     proxy's log, a screenshot, a shared page) is soon worth nothing,
//     where a fixed HMAC of the user's name would be good forever.

// csrfField is the form field of the token.
const csrfField = "csrf"

// FormTokenTTL is how long a form's token is accepted after the page that
// holds it was served. A form left open longer is refused, and its page
// asks to reload.
const FormTokenTTL = 8 * time.Hour

// formTokenSkew is how far ahead of this replica's clock a token's issue
// time may be: another replica of a fleet, whose clock runs a little
// ahead, may have issued it.
const formTokenSkew = time.Minute

// tokenSize is the size of a decoded token: an 8-byte issue time (Unix
// seconds) and a 32-byte HMAC.
const tokenSize = 8 + sha256.Size

// token is a form token of user, issued now.
func (d *Dashboard) token(user string) string {
	var b [tokenSize]byte
	binary.BigEndian.PutUint64(b[:8], uint64(d.cfg.Now().Unix()))
	copy(b[8:], d.tokenMAC(user, b[:8]))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// tokenMAC is the HMAC of user's token issued at issued.
func (d *Dashboard) tokenMAC(user string, issued []byte) []byte {
	m := hmac.New(sha256.New, d.cfg.Secret)
	m.Write([]byte("caddy-x402 dashboard form v2\x00"))
	m.Write(issued)
	m.Write([]byte(user))
	return m.Sum(nil)
}

// checkToken reports whether r's form carries a token of user that is
// within its lifetime.
func (d *Dashboard) checkToken(r *http.Request, user string) bool {
	b, err := base64.RawURLEncoding.DecodeString(r.PostFormValue(csrfField))
	if err != nil || len(b) != tokenSize {
		return false
	}
	if !hmac.Equal(b[8:], d.tokenMAC(user, b[:8])) {
		return false
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(b[:8])), 0)
	now := d.cfg.Now()
	return !issued.After(now.Add(formTokenSkew)) && now.Sub(issued) <= FormTokenTTL
}

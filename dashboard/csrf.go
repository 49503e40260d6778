package dashboard

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
)

// The web app is behind basic_auth, whose credentials a browser sends with
// every request to the site, including a form that another site submits.
// Two checks refuse such a forged request, before anything changes:
//   - net/http's CrossOriginProtection refuses a state-changing request
//     that a browser marks as cross-site (Sec-Fetch-Site), or whose Origin
//     is not the site's own;
//   - every form carries a token, an HMAC of the user's name under
//     Config.Secret, which another site cannot read or compute.

// csrfField is the form field of the token.
const csrfField = "csrf"

// token is the form token of user.
func (d *Dashboard) token(user string) string {
	m := hmac.New(sha256.New, d.cfg.Secret)
	m.Write([]byte("caddy-x402 dashboard form\x00"))
	m.Write([]byte(user))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkToken reports whether r's form carries user's token.
func (d *Dashboard) checkToken(r *http.Request, user string) bool {
	got := r.PostFormValue(csrfField)
	return got != "" && hmac.Equal([]byte(got), []byte(d.token(user)))
}

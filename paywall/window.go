package paywall

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/caddy-x402/caddy-x402/siwx"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Paid access windows: with Config.Access, a settled payment buys its
// payer a window on the route ("pay once, then use it for an hour"),
// optionally capped at a number of requests, the paid one included. A
// returning payer proves who it is instead of paying again, in one of two
// ways:
//
//   - sign-in-with-x (x402's extension, as @x402/extensions speaks it):
//     every 402 declares it with a fresh nonce, and the client answers
//     with a SIGN-IN-WITH-X header, an EIP-4361 message signed by the
//     payer's key. It must name this origin (domain and uri) and this very
//     resource URL, be issued within the last five minutes and not have
//     expired, come from one of the route's chains, verify as the payer's
//     EOA signature, and carry a nonce never used before (nonces are kept
//     in the store, so across replicas too);
//   - a cookie, for browsers: the paid response sets an HttpOnly,
//     SameSite=Strict cookie, Secure except on plain http to a loopback
//     host, that names the payer and the window's end and is HMAC-signed
//     with the route's access key over the route and the origin.
//
// Either way the window is then looked up in the store (Access.Windows) and
// one request of it spent, atomically: the proof alone grants nothing. A
// request with a proof that fails (an ended window, another route or
// origin, a forged signature or cookie, a used nonce) gets a fresh 402
// that says why, and can pay. A request that carries a payment is a
// payment, whatever proofs it carries; its settlement opens or extends
// the window. The proofs never reach the protected handler.

// AccessWindows is the store of access windows that Config.Access rests
// on. It must be durable and shared by every process that serves the
// route (a fleet's store), and each method atomic. The x402 Caddy app's
// store provides it (store.AccessWindows).
type AccessWindows interface {
	// Open records payer's settled payment on scope: it opens a window of
	// d, or extends a live one by d, with budget more requests (0: no
	// limit), the paid one spent. It returns the window's end.
	Open(ctx context.Context, scope, payer string, d time.Duration, budget int64, tx string) (time.Time, error)
	// Live reports whether payer has a live window on scope, changing
	// nothing.
	Live(ctx context.Context, scope, payer string) (bool, error)
	// Use spends one request of payer's live window on scope, and returns
	// its end; false when there is no live window.
	Use(ctx context.Context, scope, payer string) (time.Time, bool, error)
	// UseNonce marks a sign-in nonce used until until; false if it was
	// used already.
	UseNonce(ctx context.Context, nonce string, until time.Time) (bool, error)
}

// Access makes a payment buy a window of access to the route.
type Access struct {
	// Duration is how long a window lasts; required.
	Duration time.Duration
	// Requests caps the requests of a window, the paid one included; 0 is
	// no cap.
	Requests int64
	// Route names the route among the windows of the store; the origin is
	// added to it, so a window bought on one site is not another's.
	Route string
	// Windows keeps the windows and the used nonces; required.
	Windows AccessWindows
	// Recover recovers a signature's address for sign-in-with-x; nil
	// turns sign-in off.
	Recover siwx.Recover
	// Keys sign the access cookie: the first signs, any verifies (so a
	// rotation lists the new key first and the old one after it, until
	// the old cookies have expired). Each at least 32 bytes. None turns
	// the cookie off.
	Keys [][]byte
	// CookiePath is the Path of the access cookie: the paths browsers send
	// it on. It should cover the route's paths and nothing else, so that
	// the window's bearer credential does not travel to free routes and
	// their upstreams. Default: the first segment of the paid request's
	// path ("/paid" for "/paid/report"), which fits a route of a path
	// prefix such as `handle /paid/*`.
	CookiePath string
	// Served, if set, is called for each request a window served, with
	// the payer and the proof: "sign-in-with-x" or "cookie".
	Served func(r *http.Request, payer, proof string)
}

// signInMaxAge is how long after its issue a sign-in message is accepted.
const signInMaxAge = 5 * time.Minute

// clockSkew is how far in the future a sign-in may be issued (the clocks
// of a fleet's replicas differ a little).
const clockSkew = 30 * time.Second

// signInStatement is the statement of the sign-in message.
const signInStatement = "Sign in to use the access you paid for."

// Proofs of access.
const (
	ProofSignIn = "sign-in-with-x"
	ProofCookie = "cookie"
)

func (a *Access) validate() error {
	var errs []error
	if a.Duration <= 0 {
		errs = append(errs, errors.New("access: the window's duration must be positive"))
	}
	if a.Requests < 0 {
		errs = append(errs, errors.New("access: requests must not be negative"))
	}
	if a.Windows == nil {
		errs = append(errs, errors.New("access: no store of windows"))
	}
	if a.CookiePath != "" && (!strings.HasPrefix(a.CookiePath, "/") || strings.ContainsAny(a.CookiePath, ";\x00\r\n ")) {
		errs = append(errs, errors.New("access: the cookie path must start with / and hold no ; or white space"))
	}
	for _, k := range a.Keys {
		if len(k) < 32 {
			errs = append(errs, errors.New("access: a cookie key must be at least 32 bytes"))
		}
	}
	return errors.Join(errs...)
}

// origin is the scheme://host[:port] of r's resource URL.
func (p *Paywall) origin(r *http.Request) string {
	u := p.resource(r).URL
	i := strings.Index(u, "://") + len("://")
	if j := strings.IndexByte(u[i:], '/'); j >= 0 {
		return u[:i+j]
	}
	return u
}

// scope is the window's key in the store for r: the route and the origin.
func (p *Paywall) scope(r *http.Request) string {
	return p.cfg.Access.Route + "|" + p.origin(r)
}

// cookieName is the route's access cookie: one per route, so that the
// windows of several routes of a site live side by side.
func (p *Paywall) cookieName() string {
	h := sha256.Sum256([]byte(p.cfg.Access.Route))
	return accessCookiePrefix + hex.EncodeToString(h[:6])
}

// hasPayment reports whether r carries a payment header.
func hasPayment(r *http.Request) bool {
	return r.Header.Get(x402.HeaderPaymentSignature) != "" || r.Header.Get(x402.HeaderXPayment) != ""
}

// accessProof classifies a request to a route with Access by its proofs:
// one that carries no payment and a proof this route takes is the use of
// a window (kindWindow); otherwise it returns r without its proofs, for
// its payment to classify (a proof this route does not take, or any proof
// beside a payment: a payment is a payment, whatever proofs it carries).
func (p *Paywall) accessProof(r *http.Request) (*http.Request, *request) {
	a := p.cfg.Access
	signIn, cookie := p.proofs(r)
	stripped := withoutProofs(r)
	if hasPayment(r) {
		return stripped, nil
	}
	switch {
	case signIn != "" && a.Recover != nil:
		return stripped, &request{kind: kindWindow, r: stripped, proof: ProofSignIn, credential: signIn}
	case cookie != nil && len(a.Keys) > 0:
		return stripped, &request{kind: kindWindow, r: stripped, proof: ProofCookie, credential: cookie.Value}
	}
	return stripped, nil
}

// serveWindow serves a window's use (kindWindow) that windowPayer
// admitted for payer: next answers it, without its proofs.
func (p *Paywall) serveWindow(w http.ResponseWriter, q *request, payer string, next func(http.ResponseWriter, *http.Request) error) error {
	if served := p.cfg.Access.Served; served != nil {
		served(q.r, payer, q.proof)
	}
	return next(w, q.r)
}

// windowPayer checks the proof of a window's use (kindWindow) and spends
// one request of its payer's window. It returns the payer, or the
// refusal: a 402 that says why (and can be paid), or 503 when the store
// cannot answer.
func (p *Paywall) windowPayer(q *request) (string, *refusal) {
	var payer string
	var why error
	var nonce *signInNonce
	if q.proof == ProofSignIn {
		payer, nonce, why = p.signedIn(q.r, q.credential)
	} else {
		payer, why = p.cookiePayer(q.r, q.credential)
	}
	if why == nil {
		var err error
		if why, err = p.spend(q.r, payer, nonce); err != nil {
			return "", unavailableNow("the access window could not be checked right now; retry")
		}
	}
	if why != nil {
		return "", challenged(http.StatusPaymentRequired, "access_denied: "+q.proof+": "+why.Error())
	}
	return payer, nil
}

// errNoWindow refuses a proof whose payer has no live window here.
var errNoWindow = errors.New("no access window of this payer is open on this route: it expired, its requests are spent, or it was bought elsewhere")

// signInNonce is a sign-in's nonce, to be spent with its request.
type signInNonce struct {
	nonce string
	until time.Time
}

// spend spends one request of payer's window for r (a window without a
// budget is only read), and the sign-in's nonce if there is one. It returns why the request is refused, or an
// error when the store cannot answer. A sign-in's nonce is written only
// for a payer with a live window, so proofs signed by keys that paid
// nothing write nothing.
func (p *Paywall) spend(r *http.Request, payer string, nonce *signInNonce) (why, err error) {
	ws, scope := p.cfg.Access.Windows, p.scope(r)
	if nonce != nil || p.cfg.Access.Requests == 0 {
		live, err := ws.Live(r.Context(), scope, payer)
		if err != nil || !live {
			return errNoWindow, err
		}
	}
	if nonce != nil {
		fresh, err := ws.UseNonce(r.Context(), nonce.nonce, nonce.until)
		if err != nil || !fresh {
			return errors.New("nonce was used already: sign the fresh challenge of this 402"), err
		}
	}
	if p.cfg.Access.Requests == 0 {
		return nil, nil // no budget to spend: the window being live is enough
	}
	_, ok, err := ws.Use(r.Context(), scope, payer)
	if err != nil || !ok {
		return errNoWindow, err
	}
	return nil, nil
}

// signedIn checks a SIGN-IN-WITH-X proof for r and returns its payer and
// its nonce, which spend uses up.
func (p *Paywall) signedIn(r *http.Request, header string) (string, *signInNonce, error) {
	payer, msg, err := p.checkSignIn(r, header)
	if err != nil {
		return "", nil, err
	}
	issued, _, _ := msg.Times()
	return payer, &signInNonce{nonce: msg.Nonce, until: issued.Add(signInMaxAge + clockSkew)}, nil
}

// checkSignIn checks a SIGN-IN-WITH-X proof for r, all but its nonce.
func (p *Paywall) checkSignIn(r *http.Request, header string) (string, *siwx.Payload, error) {
	msg, err := siwx.Parse(header)
	if err != nil {
		return "", nil, err
	}
	origin := p.origin(r)
	u, err := url.Parse(msg.URI)
	switch {
	case err != nil || u.Scheme+"://"+u.Host != origin:
		return "", nil, errors.New("uri is not of this origin")
	case msg.Domain != strings.TrimPrefix(strings.TrimPrefix(origin, "https://"), "http://"):
		return "", nil, errors.New("domain is not this origin's")
	case msg.URI != p.resource(r).URL:
		return "", nil, errors.New("uri is not this resource")
	}
	if !p.signInChain(msg.ChainID) {
		return "", nil, fmt.Errorf("chain %s is not one of this route's", msg.ChainID)
	}
	now := time.Now()
	issued, expires, notBefore := msg.Times()
	switch {
	case now.Sub(issued) > signInMaxAge:
		return "", nil, errors.New("issued more than five minutes ago")
	case issued.Sub(now) > clockSkew:
		return "", nil, errors.New("issued in the future")
	case !expires.IsZero() && !now.Before(expires):
		return "", nil, errors.New("expired")
	case !notBefore.IsZero() && now.Before(notBefore):
		return "", nil, errors.New("not valid yet")
	}
	payer, err := msg.Verify(p.cfg.Access.Recover)
	if err != nil {
		return "", nil, err
	}
	return payer, msg, nil
}

// signInChains are the chains of the route's offers, which sign-in
// accepts: the EVM ones.
func (p *Paywall) signInChains() []string {
	var out []string
	for _, o := range p.cfg.Accepts {
		if strings.HasPrefix(o.Network, "eip155:") && !containsString(out, o.Network) {
			out = append(out, o.Network)
		}
	}
	return out
}

func (p *Paywall) signInChain(id string) bool { return containsString(p.signInChains(), id) }

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// extensionsFor is the 402's extensions for r: the fixed ones, and, when
// sign-in is on, its declaration with a fresh nonce for this resource.
func (p *Paywall) extensionsFor(r *http.Request) json.RawMessage {
	a := p.cfg.Access
	if a == nil || a.Recover == nil {
		return p.extensions
	}
	ext := map[string]json.RawMessage{}
	if len(p.extensions) > 0 && !bytes.Equal(p.extensions, []byte("null")) {
		if err := json.Unmarshal(p.extensions, &ext); err != nil {
			return p.extensions
		}
	}
	var nonce [16]byte
	rand.Read(nonce[:])
	now := time.Now().UTC()
	uri := p.resource(r).URL
	origin := p.origin(r)
	decl := siwx.Declare(siwx.Info{
		Domain: strings.TrimPrefix(strings.TrimPrefix(origin, "https://"), "http://"), URI: uri,
		Statement: signInStatement, Version: "1", Nonce: hex.EncodeToString(nonce[:]),
		IssuedAt: now.Format("2006-01-02T15:04:05.000Z"), ExpirationTime: now.Add(signInMaxAge).Format("2006-01-02T15:04:05.000Z"),
		Resources: []string{uri},
	}, p.signInChains())
	b, err := json.Marshal(decl)
	if err != nil {
		return p.extensions
	}
	ext[siwx.Extension] = b
	out, err := json.Marshal(ext)
	if err != nil {
		return p.extensions
	}
	return out
}

// openWindow records a settled payment's window and, when the cookie is
// on, sets the cookie on the paid response. A store that fails leaves the
// payer without a window (it pays again next time); the paid response
// goes out all the same.
func (p *Paywall) openWindow(ctx context.Context, w http.ResponseWriter, r *http.Request, res *x402.SettleResponse) {
	a := p.cfg.Access
	if a == nil || res == nil || !res.Success {
		return
	}
	payer := strings.ToLower(res.Payer)
	if payer == "" {
		return
	}
	end, err := a.Windows.Open(ctx, p.scope(r), payer, a.Duration, a.Requests, res.TransactionHash)
	if err != nil || len(a.Keys) == 0 {
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: p.cookieName(), Value: p.signCookie(a.Keys[0], r, payer, end), Path: a.cookiePath(r),
		Expires: end, MaxAge: max(1, int(time.Until(end).Seconds())),
		HttpOnly: true, Secure: !loopbackHTTP(p.origin(r)), SameSite: http.SameSiteStrictMode,
	})
}

// loopbackHTTP reports whether origin is plain http to a loopback host
// (localhost, 127.0.0.0/8, ::1), where browsers do not keep Secure
// cookies set over http: the only origins where the cookie is not Secure.
func loopbackHTTP(origin string) bool {
	rest, ok := strings.CutPrefix(origin, "http://")
	if !ok {
		return false
	}
	host := rest
	if h, _, err := net.SplitHostPort(rest); err == nil {
		host = h
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// cookieMAC is the HMAC of a cookie's payer and end, bound to the route
// and the origin.
func (p *Paywall) cookieMAC(key []byte, r *http.Request, payer string, end int64) []byte {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "x402-access-cookie\x00%s\x00%s\x00%d", p.scope(r), payer, end)
	return m.Sum(nil)
}

// signCookie is the cookie's value: the payer, the window's end in unix
// seconds, and their MAC, joined by dots.
func (p *Paywall) signCookie(key []byte, r *http.Request, payer string, end time.Time) string {
	e := end.Unix()
	return payer + "." + strconv.FormatInt(e, 10) + "." + base64.RawURLEncoding.EncodeToString(p.cookieMAC(key, r, payer, e))
}

// cookiePayer checks an access cookie for r and returns its payer.
func (p *Paywall) cookiePayer(r *http.Request, value string) (string, error) {
	parts := strings.Split(value, ".")
	if len(parts) != 3 || len(value) > 256 {
		return "", errors.New("malformed")
	}
	payer, endS, macS := parts[0], parts[1], parts[2]
	end, err := strconv.ParseInt(endS, 10, 64)
	mac, err2 := base64.RawURLEncoding.DecodeString(macS)
	if err != nil || err2 != nil || len(payer) != 42 || !strings.HasPrefix(payer, "0x") {
		return "", errors.New("malformed")
	}
	good := false
	for _, k := range p.cfg.Access.Keys {
		if subtle.ConstantTimeCompare(mac, p.cookieMAC(k, r, payer, end)) == 1 {
			good = true
		}
	}
	switch {
	case !good:
		return "", errors.New("not signed by this route for this origin")
	case time.Now().Unix() >= end:
		return "", errors.New("expired")
	}
	return payer, nil
}

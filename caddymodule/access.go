package caddymodule

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/paywall"
)

// AccessConfig makes a payment for the route buy its payer a window of
// access: for Duration, and at most Requests requests in all (the paid one
// included), the payer is served without paying again, on proving who it
// is with x402's sign-in-with-x extension (a SIGN-IN-WITH-X header, for
// programs) or with the access cookie that the paid response sets (for
// browsers; only with Keys). Windows and used sign-in nonces are kept in
// the x402 app's store, so they survive restarts and hold on every
// replica of a fleet. See docs/access-windows.md.
type AccessConfig struct {
	// How long a window lasts, such as 1h; required.
	Duration caddy.Duration `json:"duration"`
	// The most requests a window serves, the paid one included; 0 (the
	// default) is no limit.
	Requests int64 `json:"requests,omitempty"`
	// The route's name among the windows of the store. Routes of one name
	// share windows (a payment on one serves the others). Default: a hash
	// of the route's x402 options (all but access_key), so that another
	// price, payee, description or window is another route; two routes
	// with the very same options share windows unless named apart.
	Route string `json:"route,omitempty"`
	// The keys that sign the access cookie, each an {env.*} or {file.*}
	// placeholder of a secret of at least 32 bytes: the first signs, and
	// every one verifies, so a rotation lists the new key first and the
	// old one after it until the old cookies expire (at most Duration).
	// None (the default) sets no cookie.
	Keys []string `json:"keys,omitempty"`
	// The Path of the access cookie: browsers send it only to paths under
	// it. Give the route's path prefix, such as /paid for `handle
	// /paid/*`. Default: the first segment of the paid request's path.
	CookiePath string `json:"cookie_path,omitempty"`
}

// validate checks the access configuration of a route, priced per
// request or not.
func (a *AccessConfig) validate(perRequest bool) error {
	var errs []error
	if perRequest {
		// A window bought at one request's price would serve the dearest.
		errs = append(errs, errors.New("x402 access needs a fixed price: a window bought at one request's price (a placeholder or a price_service) would serve requests priced higher"))
	}
	if a.Duration <= 0 {
		errs = append(errs, errors.New("x402 access needs a positive duration, such as `access 1h` (access_key alone opens no window)"))
	}
	if a.Requests < 0 {
		errs = append(errs, errors.New("x402 access requests must not be negative"))
	}
	if p := a.CookiePath; p != "" && (!strings.HasPrefix(p, "/") || strings.ContainsAny(p, "; \t\r\n\x00")) {
		errs = append(errs, fmt.Errorf("x402 access cookie_path %q must start with / and hold no ; or white space", p))
	}
	for i, k := range a.Keys {
		if err := checkSecrets(configValue{fmt.Sprintf("x402 access_key %d", i+1), &k}); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// minAccessKey is the shortest cookie key accepted, in bytes.
const minAccessKey = 32

// accessWindows builds the paywall's access from a valid configuration, or nil
// when the route sells no windows. It resolves the keys' placeholders.
func (h *Handler) accessWindows() (*paywall.Access, error) {
	a := h.Access
	if a == nil {
		return nil, nil
	}
	if h.app.chain == nil {
		return nil, errors.New("x402 access keeps its windows in the x402 app's store, which needs the app's embedded facilitator (a route with facilitator_url alone has none)")
	}
	route := a.Route
	if route == "" {
		var err error
		if route, err = h.routeID(); err != nil {
			return nil, err
		}
	}
	out := &paywall.Access{
		Duration: time.Duration(a.Duration), Requests: a.Requests, Route: route,
		Windows: &chainWindows{chain: h.app.chain}, Recover: recoverAddress, Served: h.windowServed,
		CookiePath: a.CookiePath,
	}
	for i, k := range a.Keys {
		field := fmt.Sprintf("x402 access_key %d", i+1)
		v, err := secret(field, k)
		if err != nil {
			return nil, err
		}
		if len(v) < minAccessKey {
			return nil, fmt.Errorf("%s %s is shorter than %d bytes (make one with `openssl rand -hex 32`)", field, k, minAccessKey)
		}
		out.Keys = append(out.Keys, []byte(v))
	}
	return out, nil
}

// routeID is the default route name: a hash of the handler's
// configuration, with its window's duration and requests but not its keys
// (so that rotating them keeps the windows). It is the same on every
// replica of a fleet that loads the same config: serve-on-broadcast's
// shared ledger names the route's bound by it too.
func (h *Handler) routeID() (string, error) {
	c := *h
	if h.Access != nil {
		c.Access = &AccessConfig{Duration: h.Access.Duration, Requests: h.Access.Requests}
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12]), nil
}

// recoverAddress is siwx.Recover with go-ethereum.
func recoverAddress(hash [32]byte, sig [65]byte) ([20]byte, error) {
	pub, err := crypto.SigToPub(hash[:], sig[:])
	if err != nil {
		return [20]byte{}, err
	}
	return crypto.PubkeyToAddress(*pub), nil
}

// windowServed is the paywall's Access.Served: the payer placeholder, as
// for a paid request, the window result of caddy_x402_payments_total, and
// a debug log line.
func (h *Handler) windowServed(r *http.Request, payer, proof string) {
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		repl.Set("http.x402.payer", payer)
	}
	if obs := observationOf(r); obs != nil {
		obs.result = resultWindow
	}
	h.log.Debug("x402 access window", zap.String("payer", payer), zap.String("proof", proof), zap.String("host", r.Host), zap.String("uri", r.URL.Path))
}

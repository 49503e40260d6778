package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"go.uber.org/zap"
)

// rpcPlaceholder is the URL a chain connection over HTTP is dialed with:
// its rpcTarget sends each call to the RPC in force instead.
const rpcPlaceholder = "http://rpc.x402.invalid/"

// rpcTarget is the transport of a chain connection over HTTP: it sends
// each JSON-RPC call to the RPC URL in force, which a reload can move, so
// that the facilitator, the paymaster and the developer API move with it
// and a call in flight finishes where it began. A URL's user and password
// become the call's basic authentication, as an http.Client would make
// them.
type rpcTarget struct {
	url  atomic.Pointer[url.URL]
	base http.RoundTripper
}

// newRPCTarget returns a target sending to rawURL over base.
func newRPCTarget(rawURL string, base http.RoundTripper) (*rpcTarget, error) {
	t := &rpcTarget{base: base}
	if err := t.set(rawURL); err != nil {
		return nil, err
	}
	return t, nil
}

// set moves the target to rawURL.
func (t *rpcTarget) set(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil || !httpRPC(rawURL) || u.Host == "" {
		return errors.New("rpc: want an http:// or https:// URL with a host")
	}
	t.url.Store(u)
	return nil
}

// RoundTrip sends req to the RPC in force.
func (t *rpcTarget) RoundTrip(req *http.Request) (*http.Response, error) {
	u := t.url.Load()
	r := req.Clone(req.Context())
	r.URL = &url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
	r.Host = ""
	if u.User != nil {
		password, _ := u.User.Password()
		r.SetBasicAuth(u.User.Username(), password)
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		// The host only: a path or query may hold the provider's key.
		return nil, fmt.Errorf("the chain's RPC at %s: %w", u.Host, err)
	}
	return resp, nil
}

// httpRPC reports whether rawURL is an RPC over HTTP(S), whose connection
// a reload can move.
func httpRPC(rawURL string) bool {
	return strings.HasPrefix(rawURL, "http://") || strings.HasPrefix(rawURL, "https://")
}

// rpcCheckTimeout bounds the check of a new RPC on a reload.
const rpcCheckTimeout = 10 * time.Second

// moveRPC moves the chain connection to rawURL, as a reload that changes
// rpc does, once the new RPC has answered that it serves the network's
// chain. Calls in flight finish on the old RPC. A WebSocket or IPC
// connection cannot move (its subscriptions and its one connection are
// the old RPC's): that change needs a restart. The error never shows a
// URL, which may hold the provider's key.
func (r *chainRun) moveRPC(rawURL string) error {
	if r.target == nil || !httpRPC(rawURL) {
		return errors.New("a reload moves the chain's connection only from one http(s) rpc to another; restart Caddy to apply the change")
	}
	ctx, cancel := context.WithTimeout(context.Background(), rpcCheckTimeout)
	defer cancel()
	probe, _, err := dialChain(ctx, rawURL)
	if err != nil {
		return fmt.Errorf("the new rpc: %w", err)
	}
	defer probe.Close()
	got, err := ethclient.NewClient(probe).ChainID(ctx)
	if err != nil {
		return fmt.Errorf("the new rpc does not answer (the old one stays in force): %w", err)
	}
	if want := r.fac.ChainID(); got.Cmp(want) != 0 {
		return fmt.Errorf("the new rpc serves chain %s, not %s (the old one stays in force)", got, r.fac.ChainID())
	}
	if err := r.target.set(rawURL); err != nil {
		return err
	}
	r.rpcURL = rawURL
	host := ""
	if u, err := url.Parse(rawURL); err == nil {
		host = u.Host
	}
	r.log.Info("the chain's connection moved to the new rpc", zap.String("rpc_host", host))
	return nil
}

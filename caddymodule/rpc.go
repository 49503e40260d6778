package caddymodule

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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

// unreachable reports whether err says that a chain's RPC did not answer
// (refused, reset, timed out, a name that does not resolve), rather than
// that the configuration is wrong (another chain id, a store of another
// network), which no retry mends.
func unreachable(err error) bool {
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	return errors.As(err, &opErr) || errors.As(err, &dnsErr) || (errors.As(err, &netErr) && netErr.Timeout()) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// networkRetry is how often a network that did not start is tried again.
var networkRetry = 5 * time.Second

// networkRetryLog is how often, at most, a network still down is logged
// again while it is retried.
const networkRetryLog = time.Minute

// rpcHost is the host name of an RPC URL, for logs and the dashboard: its
// path and query may hold the provider's key. An IPC
// socket's path is given whole; "" when there is no host (the embedded
// devnet's empty rpc).
func rpcHost(rpc string) string {
	if strings.HasPrefix(rpc, "/") {
		return rpc
	}
	u, err := url.Parse(rpc)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Hostname()
}

// chainError is err for a log line, without the placeholder URL a chain
// connection over HTTP is dialed with (rpcTarget), which says nothing.
func chainError(err error) string {
	return strings.ReplaceAll(err.Error(), fmt.Sprintf("Post %q: ", rpcPlaceholder), "")
}

// retrier runs the background starts of an app's networks.
type retrier struct {
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
}

// retry opens c again every networkRetry until it starts or the config is
// cleaned up; then, for the primary network, the handlers' services.
func (a *App) retry(c *sharedChain, i int) {
	if a.retries == nil {
		ctx, stop := context.WithCancel(context.Background())
		a.retries = &retrier{ctx: ctx, stop: stop}
	}
	r := a.retries
	r.wg.Go(func() {
		t := time.NewTicker(networkRetry)
		defer t.Stop()
		since, logged, attempts := time.Now(), time.Now(), 0
		for {
			select {
			case <-r.ctx.Done():
				return
			case <-t.C:
			}
			// Only if no config started it meanwhile: a newer config's
			// tunables are not to be undone by this one's.
			started, err := c.startClosed(a.tunablesOf(i), a.log)
			if err != nil {
				attempts++
				if time.Since(logged) >= networkRetryLog {
					logged = time.Now()
					a.log.Warn("a network's chain still does not answer; its paid routes answer 503",
						zap.String("network", c.plan.network), zap.String("rpc_host", cmp.Or(rpcHost(a.plans[i].rpc), "(none: the embedded devnet)")),
						zap.Int("attempts", attempts), zap.Duration("down_for", time.Since(since).Round(time.Second)),
						zap.String("error", chainError(err)))
				}
				continue
			}
			if !started {
				return
			}
			a.log.Info("the network started", zap.String("network", c.plan.network), zap.Int("attempts", attempts+1),
				zap.Duration("down_for", time.Since(since).Round(time.Second)))
			if i == 0 {
				a.startServices()
			}
			return
		}
	})
}

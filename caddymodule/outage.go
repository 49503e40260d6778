package caddymodule

import (
	"cmp"
	"context"
	"errors"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/store"
)

// keptStore is a network's store as its starts share it: opened by the
// first start, and kept open by a start that fails after claiming it (the
// chain or the facilitator does not answer), so that the dashboard shows
// the network's history during the outage; the next start takes it up.
// It also remembers since when the network has not started, and why.
type keptStore struct {
	mu      sync.Mutex
	st      store.Backend
	journal store.Journal
	name    string
	run     bool // a running chain owns st and closes it

	since time.Time // when the first of the failed starts failed
	err   error     // why the last start failed
	rpc   string    // the RPC it tried
}

// open returns the kept store, or opens it with opener and keeps it.
// The chain's starts run one at a time (pooled.starting), so one open at
// a time calls it; the dashboard's reads do not wait for it (a database
// that does not answer can take a minute to fail).
func (k *keptStore) open(opener func() (store.Backend, store.Journal, string, error)) (store.Backend, store.Journal, string, error) {
	k.mu.Lock()
	if k.st != nil {
		k.run = true
		defer k.mu.Unlock()
		return k.st, k.journal, k.name, nil
	}
	k.mu.Unlock()
	st, journal, name, err := opener()
	if err != nil {
		return nil, nil, "", err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.st, k.journal, k.name, k.run = st, journal, name, true
	return st, journal, name, nil
}

// failed records a start that failed: the store, if one was kept, stays
// open for the dashboard.
func (k *keptStore) failed(err error, rpc string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.run = false
	if k.since.IsZero() {
		k.since = time.Now().UTC()
	}
	k.err, k.rpc = err, rpc
}

// started records a start that succeeded: the outage, if any, is over.
func (k *keptStore) started() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.since, k.err, k.rpc = time.Time{}, nil, ""
}

// drop forgets st, which its owner is closing.
func (k *keptStore) drop(st store.Backend) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.st == st {
		k.st, k.journal, k.run = nil, nil, false
	}
}

// close closes the store if no running chain owns it.
func (k *keptStore) close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.st == nil || k.run {
		return nil
	}
	st := k.st
	k.st, k.journal = nil, nil
	return st.Close()
}

// offline is the store kept while the network does not run, and what
// the dashboard says of the outage; nil if no store is kept.
func (k *keptStore) offline() (store.Backend, *dashboard.Outage) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.st == nil || k.err == nil {
		return nil, nil
	}
	return k.st, startOutage(k.err, k.rpc, k.since)
}

// runOrKept is c's running chain and its store; or, while its last start
// failed, no run and the store kept open meanwhile, at once (a start
// being retried can take seconds to fail, and the dashboard does not wait
// for it); or else what waiting for the first start gives.
func (c *sharedChain) runOrKept(ctx context.Context) (*chainRun, store.Backend, error) {
	if run, err := c.running(); err == nil {
		return run, run.store, nil
	}
	if st, _ := c.kept.offline(); st != nil {
		return nil, st, nil
	}
	run, err := c.wait(ctx)
	if err != nil {
		if st, _ := c.kept.offline(); st != nil {
			return nil, st, nil
		}
		return nil, nil, err
	}
	return run, run.store, nil
}

// payersInOutage is what the payers of a network that does not run are
// told.
const payersInOutage = "Payers of its routes get 503 Service Unavailable with Retry-After (or a 402 with the offer, where the route describes it without the chain): nothing is charged and nothing paid is served. Free routes are served."

// startOutage describes a network that did not start.
func startOutage(err error, rpc string, since time.Time) *dashboard.Outage {
	o := &dashboard.Outage{Since: since, Payers: payersInOutage, Detail: errorKind(err)}
	if host := rpcHost(rpc); host != "" && unreachable(err) {
		o.What = "The chain's RPC (" + host + ") does not answer, so the x402 facilitator did not start. It is tried again every " + networkRetry.String() + "."
	} else {
		o.What = "The x402 facilitator did not start. It is tried again every " + networkRetry.String() + "."
	}
	return o
}

// errorKind says what kind of failure err is, in words that hold no part
// of the error's text (an RPC URL may hold an API key).
func errorKind(err error) string {
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &dnsErr):
		return "the RPC's host name does not resolve"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return "the RPC did not answer in time"
	case strings.Contains(err.Error(), "connection refused"):
		return "the RPC refused the connection"
	case unreachable(err):
		return "the RPC cannot be reached"
	}
	return "see Caddy's log for the error"
}

// urlPattern finds the URLs in a message.
var urlPattern = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"']+`)

// refusalMessage is a facilitator's invalidMessage as the refusals keep
// it: every URL cut to its scheme and host (an RPC URL's path or query
// may hold an API key), at most store.MaxRefusalField bytes (the store
// cuts it).
func refusalMessage(msg string) string {
	return urlPattern.ReplaceAllStringFunc(msg, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return "(a URL)"
		}
		return u.Scheme + "://" + u.Hostname() + "/…"
	})
}

// healthProbe is what the dashboard of a running chain knows of its
// health: the facilitator's Health, asked at most every healthEvery, and
// since when it has failed.
type healthProbe struct {
	mu      sync.Mutex
	checked time.Time
	since   time.Time
	down    *dashboard.Outage
}

// healthEvery is how often the dashboard asks a running chain's health.
var healthEvery = 10 * time.Second

// outage is what is down on run's chain, or nil: from the last probe, or
// a new one if it is older than healthEvery.
func (p *healthProbe) outage(ctx context.Context, run *chainRun) *dashboard.Outage {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now().UTC()
	if !p.checked.IsZero() && now.Sub(p.checked) < healthEvery {
		return p.down
	}
	p.checked = now
	if run.fac == nil {
		return nil
	}
	h, err := run.fac.Health(ctx)
	if err == nil && h != nil && h.Status == "ok" {
		p.since, p.down = time.Time{}, nil
		return nil
	}
	if p.since.IsZero() {
		p.since = now
	}
	o := &dashboard.Outage{Since: p.since, Detail: errorKind(err)}
	switch {
	case h != nil && h.Dependencies["database"] == "unreachable":
		o.What = "The store's database does not answer."
		o.Payers = "Payers get 503 Service Unavailable with Retry-After: no payment is taken until it answers."
	default:
		o.What = "The chain's RPC (" + cmp.Or(rpcHost(run.rpcURL), "the chain") + ") does not answer: payments cannot be verified or settled."
		o.Payers = "Payers of this network's routes get 503 Service Unavailable with Retry-After: nothing is charged and nothing paid is served. Free routes are served."
	}
	p.down = o
	return o
}

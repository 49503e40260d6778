package facilitator

import (
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/caddy-x402/caddy-x402/clientaddr"
)

// The anonymous budget of /verify. A verification costs the facilitator
// one batched read of its chain's RPC, whatever the caller sends, and the
// spec makes /verify public: without a budget, anyone could spend the
// operator's RPC quota (or its node's capacity) one cheap request at a
// time. So an anonymous caller gets VerifiesPerMinute verifications per
// client address (an IPv6 caller counts by its /64, as clientaddr.Key
// does), and all anonymous callers together AnonymousVerifiesPerSecond;
// past either, 429 with Retry-After. A caller with a facilitator API key
// (Authorization: Bearer, as for /settle) is never refused: its key is
// looked up once the budget would refuse it (so a flood of made-up keys
// costs the key store at most one lookup per client address a minute). The
// embedded paywall verifies in process and never passes here.

// Defaults of the anonymous /verify budget.
const (
	defaultVerifiesPerMinute          = 1200
	defaultAnonymousVerifiesPerSecond = 500
	// maxVerifyClients bounds the clients whose budgets are remembered;
	// past it, idle ones are forgotten, then others at random (a forgotten
	// client starts again with a full budget, which the global budget
	// still bounds).
	maxVerifyClients = 50_000
)

// verifyBudget is the state of the anonymous /verify budget.
type verifyBudget struct {
	mu      sync.Mutex
	global  *rate.Limiter
	clients map[string]*clientBudget
}

// clientBudget is one client address's budget.
type clientBudget struct {
	limiter *rate.Limiter
	seen    time.Time
	// badKey is when a key this client sent was last refused: no other is
	// looked up for a minute.
	badKey time.Time
}

// verifyAllowed reports whether a /verify of r may go on: within the
// anonymous budget, or past it with a facilitator API key.
func (h *Handler) verifyAllowed(r *http.Request, now time.Time) bool {
	if h.allowVerify(r, now) {
		return true
	}
	if r.Header.Get("Authorization") == "" {
		return false
	}
	b := &h.verifies
	key := clientaddr.Key(h.clientIP(r))
	b.mu.Lock()
	c := b.clients[key]
	tried := c != nil && now.Sub(c.badKey) < time.Minute
	b.mu.Unlock()
	if tried {
		return false
	}
	if h.keyed(r) {
		return true
	}
	b.mu.Lock()
	if c := b.clients[key]; c != nil {
		c.badKey = now
	}
	b.mu.Unlock()
	return false
}

// allowVerify reports whether an anonymous /verify of r fits the budget.
func (h *Handler) allowVerify(r *http.Request, now time.Time) bool {
	b := &h.verifies
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.global == nil {
		n := h.AnonymousVerifiesPerSecond
		if n == 0 {
			n = defaultAnonymousVerifiesPerSecond
		}
		b.global = rate.NewLimiter(rate.Inf, 0)
		if n > 0 {
			b.global = rate.NewLimiter(rate.Limit(n), n)
		}
		b.clients = map[string]*clientBudget{}
	}
	if h.VerifiesPerMinute < 0 {
		return b.global.AllowN(now, 1)
	}
	key := clientaddr.Key(h.clientIP(r))
	c := b.clients[key]
	if c == nil {
		if len(b.clients) >= maxVerifyClients {
			b.forget(len(b.clients)/4, now)
		}
		n := h.VerifiesPerMinute
		if n == 0 {
			n = defaultVerifiesPerMinute
		}
		c = &clientBudget{limiter: rate.NewLimiter(rate.Limit(float64(n)/60), max(1, n/10))}
		b.clients[key] = c
	}
	c.seen = now
	// A refusal by the client's budget spends nothing of the global one.
	if !c.limiter.AllowN(now, 1) {
		return false
	}
	return b.global.AllowN(now, 1)
}

// forget drops the clients idle for a minute (their budgets are full
// again anyway), and, if that is not n of them, others at random (Go's map
// order) until n are gone. b.mu is held.
func (b *verifyBudget) forget(n int, now time.Time) {
	for k, c := range b.clients {
		if now.Sub(c.seen) >= time.Minute {
			delete(b.clients, k)
			n--
		}
	}
	for k := range b.clients {
		if n <= 0 {
			return
		}
		delete(b.clients, k)
		n--
	}
}

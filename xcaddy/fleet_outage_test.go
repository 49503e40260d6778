package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/caddy-x402/caddy-x402/x402"
)

// pgProxy is a TCP proxy in front of PostgreSQL that a test can block,
// as a database that stops answering: while blocked it resets every
// connection, open or new.
type pgProxy struct {
	ln      net.Listener
	target  string
	blocked atomic.Bool
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
}

func newPGProxy(t *testing.T, target string) *pgProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &pgProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	t.Cleanup(func() { ln.Close(); p.block() })
	go p.serve()
	return p
}

func (p *pgProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if p.blocked.Load() {
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		go func() { io.Copy(up, c); up.Close(); c.Close() }()
		go func() { io.Copy(c, up); up.Close(); c.Close() }()
	}
}

// block resets every connection and refuses new ones until unblock.
func (p *pgProxy) block() {
	p.blocked.Store(true)
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *pgProxy) unblock() { p.blocked.Store(false) }

// PostgreSQL unreachable for a few seconds: paid requests get 503 with
// Retry-After, never 402 and never the paid content, and /health says the
// database is unreachable. Once it is back, the same payments settle,
// exactly once each.
func TestFleetDatabaseOutage(t *testing.T) {
	t.Parallel()
	f := newFleet(t)
	u, err := pgx.ParseConfig(f.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newPGProxy(t, net.JoinHostPort(u.Host, fmt.Sprint(u.Port)))
	f.dbURL = strings.Replace(f.dbURL, net.JoinHostPort(u.Host, fmt.Sprint(u.Port)), proxy.ln.Addr().String(), 1)
	for _, name := range []string{"a", "b"} {
		f.start(name)
	}
	payers := f.fundPayers(6, 1)
	signed := make([]string, len(payers))
	for i, p := range payers {
		signed[i] = f.payment(p)
	}
	if n, err := payUntilServed(f.replicas, signed[0], time.Now().Add(time.Minute), 0); n != 1 || err != nil {
		t.Fatalf("before the outage: %d %v", n, err)
	}

	proxy.block()
	for i, payment := range signed[1:] {
		o := present(f.replicas[i%2], payment)
		if o.err != nil || o.status != http.StatusServiceUnavailable || o.retryAfter == "" || strings.Contains(o.body, "paid content") {
			t.Fatalf("a paid request while the database is down: %+v", o)
		}
	}
	resp, err := http.Get(f.replicas[0].url + "/x402/health")
	if err != nil {
		t.Fatal(err)
	}
	var health x402.Health
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := json.Unmarshal(body, &health); err != nil || resp.StatusCode != http.StatusServiceUnavailable || health.Status != "degraded" || health.Dependencies["database"] != "unreachable" {
		t.Fatalf("/health while the database is down: %d %s", resp.StatusCode, body)
	}
	time.Sleep(3 * time.Second) // the outage lasts a few seconds
	proxy.unblock()

	for i, payment := range signed[1:] {
		if n, err := payUntilServed(f.replicas, payment, time.Now().Add(time.Minute), i); n != 1 || err != nil {
			t.Fatalf("payment %d after the outage: %d %v", i+1, n, err)
		}
	}
	for _, r := range f.replicas {
		if o := present(r, signed[1]); o.status == http.StatusOK {
			t.Fatal("a payment was served twice")
		}
	}
	if n := f.transfers(); n != len(signed) {
		t.Fatalf("%d transfers on chain for %d payments", n, len(signed))
	}
}

// TestFleetThroughput measures settle throughput and latency with one
// replica and with three, on a devnet sealing a block a second: N payments
// from N payers, C at a time, spread round-robin over the replicas. It is
// a measurement, not a check of timing: it runs only with
// X402_FLEET_BENCH=1 (bench/fleet.sh), and asserts only that every payment
// was served once with one transfer.
func TestFleetThroughput(t *testing.T) {
	if os.Getenv("X402_FLEET_BENCH") == "" {
		t.Skip("a measurement: run bench/fleet.sh (X402_FLEET_BENCH=1)")
	}
	const payments, concurrency = 300, 60
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("replicas=%d", n), func(t *testing.T) {
			f := newFleet(t)
			for i := range n {
				f.start(string(rune('a' + i)))
			}
			payers := f.fundPayers(payments, 1)
			signed := make([]string, payments)
			for i, p := range payers {
				signed[i] = f.payment(p)
			}
			latencies := make([]time.Duration, payments)
			sem := make(chan struct{}, concurrency)
			var wg sync.WaitGroup
			began := time.Now()
			for i, payment := range signed {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					start := time.Now()
					if n, err := payUntilServed(f.replicas, payment, time.Now().Add(2*time.Minute), i); n != 1 || err != nil {
						t.Errorf("payment %d: %v", i, err)
					}
					latencies[i] = time.Since(start)
				}()
			}
			wg.Wait()
			took := time.Since(began)
			slices.Sort(latencies)
			t.Logf("replicas=%d: %d payments, %d at a time, in %v: %.1f settlements/s; latency p50 %v, p99 %v",
				n, payments, concurrency, took.Round(time.Millisecond), float64(payments)/took.Seconds(),
				latencies[payments/2].Round(time.Millisecond), latencies[payments*99/100].Round(time.Millisecond))
			if got := f.transfers(); got != payments {
				t.Errorf("%d transfers for %d payments", got, payments)
			}
		})
	}
}

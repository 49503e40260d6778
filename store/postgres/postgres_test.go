package postgres

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/store/storetest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// testURL is the database the tests use, from X402_TEST_DATABASE_URL.
func testURL(t *testing.T) string {
	t.Helper()
	return pgtest.URL(t, "the PostgreSQL tests")
}

// freshConfig is the configuration of a store in a schema of its own,
// dropped when the test ends (after the stores opened later are closed).
func freshConfig(t *testing.T) Config {
	t.Helper()
	url := testURL(t)
	schema := pgtest.Schema(t, url, "x402_test_")
	return Config{URL: url, MaxConns: 4, Schema: schema, Logger: zaptest.NewLogger(t)}
}

// openStore opens a store of cfg, closed when the test ends.
func openStore(t *testing.T, cfg Config) *Store {
	t.Helper()
	s, err := Open(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// handles opens n stores on one fresh schema: n replicas of a fleet.
func handles(t *testing.T, n int) []*Store {
	t.Helper()
	cfg := freshConfig(t)
	out := make([]*Store, n)
	for i := range out {
		out[i] = openStore(t, cfg)
	}
	return out
}

// The PostgreSQL store passes the conformance suite, with a second handle
// on the same rows (a second replica) and a reopen (a restart).
func TestConformance(t *testing.T) {
	t.Parallel()
	testURL(t)
	var (
		mu   sync.Mutex
		cfgs = map[store.Backend]Config{}
	)
	remember := func(s *Store, cfg Config) store.Backend {
		mu.Lock()
		defer mu.Unlock()
		cfgs[s] = cfg
		return s
	}
	config := func(s store.Backend) Config {
		mu.Lock()
		defer mu.Unlock()
		return cfgs[s]
	}
	storetest.Run(t, storetest.Backend{
		Open: func(t *testing.T) store.Backend {
			cfg := freshConfig(t)
			return remember(openStore(t, cfg), cfg)
		},
		Reopen: func(t *testing.T, s store.Backend) store.Backend {
			cfg := config(s)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return remember(openStore(t, cfg), cfg)
		},
		Second: func(t *testing.T, s store.Backend) store.Backend {
			return openStore(t, config(s))
		},
	})
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"minimal", Config{URL: "postgres://db/x402"}, true},
		{"full", Config{URL: "postgres://db/x402", MaxConns: 8, Schema: "x402_prod"}, true},
		{"no url", Config{Schema: "x402"}, false},
		{"negative max conns", Config{URL: "postgres://db/x402", MaxConns: -1}, false},
		{"quoted schema", Config{URL: "postgres://db/x402", Schema: `x"; drop`}, false},
		{"upper-case schema", Config{URL: "postgres://db/x402", Schema: "X402"}, false},
		{"long schema", Config{URL: "postgres://db/x402", Schema: strings.Repeat("s", 64)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := tc.cfg.Validate(); (err == nil) != tc.ok {
				t.Fatalf("Validate() = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// Neither Open's errors nor its logs nor a printed Config show the URL's
// password, whatever is wrong with the URL.
func TestOpenHidesThePassword(t *testing.T) {
	t.Parallel()
	const secret = "s3cret"
	for _, tc := range []struct{ name, url string }{
		{"unreachable", "postgres://u:s3cret@127.0.0.1:1/db?connect_timeout=5"},
		{"bad port", "postgres://u:s3cret@127.0.0.1:port/db"},
		{"bad option", "postgres://u:s3cret@127.0.0.1:1/db?sslmode=bogus"},
		{"broken url", "postgres://u:s3cret@[::1/db"},
		{"password in the query", "postgres://u@127.0.0.1:1/db?password=s3cret&connect_timeout=5"},
		{"key=value", "host=127.0.0.1 port=1 user=u password=s3cret dbname=db connect_timeout=5"},
		{"broken key=value", "host=127.0.0.1 password='s3cret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			core, logs := observer.New(zap.DebugLevel)
			cfg := Config{URL: tc.url, Logger: zap.New(core)}
			s, err := Open(t.Context(), cfg)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error shows the password: %v", err)
			}
			for _, e := range logs.All() {
				if line := fmt.Sprint(e.Message, e.ContextMap()); strings.Contains(line, secret) {
					t.Errorf("a log line shows the password: %s", line)
				}
			}
			if got := cfg.String(); strings.Contains(got, secret) {
				t.Errorf("Config.String shows the password: %s", got)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"postgres://u:pw@db:5432/x402?sslmode=require", "postgres://u:xxxxx@db:5432/x402?sslmode=require"},
		{"postgresql://u@db/x402", "postgresql://u@db/x402"},
		{"postgres://u@db/x402?password=pw", "postgres://u@db/x402?password=xxxxx"},
		{"host=db password=pw", "(redacted)"},
		{"", `""`},
	} {
		if got := redactURL(tc.in); got != tc.want {
			t.Errorf("redactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Health pings the database, and fails once the store is closed.
func TestHealth(t *testing.T) {
	t.Parallel()
	s := openStore(t, freshConfig(t))
	if err := s.Health(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s.Close() // idempotent
	if err := s.Health(t.Context()); err == nil {
		t.Fatal("a closed store is healthy")
	}
}

// Replicas finishing and consuming one payment at once: one finish, one
// consumer, whichever replicas win.
func TestFinishAndConsumeAcrossReplicas(t *testing.T) {
	t.Parallel()
	hs := handles(t, 2)
	now := time.Unix(1_800_000_000, 0).UTC()
	r := store.Record{
		Key: common.Hash{9}, State: store.StateClaimed, Scheme: "exact", Network: "eip155:31337",
		Amount: big.NewInt(1), Created: now, Updated: now,
	}
	if _, ok, err := hs[0].Claim(r); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	r.State, r.TxHash, r.RawTx = store.StateSubmitted, common.Hash{1}, []byte{1}
	if err := hs[1].Submit(&r); err != nil {
		t.Fatal(err)
	}
	var (
		wg                  sync.WaitGroup
		mu                  sync.Mutex
		finished, consumers int
	)
	for i := range 20 {
		wg.Go(func() {
			h := hs[i%len(hs)]
			f := r
			f.State, f.Response = store.StateSettled, &x402.SettleResponse{Success: true}
			err := h.Finish(&f)
			if err != nil && !errors.Is(err, store.ErrTransition) {
				t.Error(err)
			}
			_, ok, cerr := h.Consume(r.Key, fmt.Sprint("owner-", i))
			if cerr != nil {
				t.Error(cerr)
			}
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				finished++
			}
			if ok {
				consumers++
			}
		})
	}
	wg.Wait()
	if finished != 1 || consumers != 1 {
		t.Fatalf("%d finishes and %d consumers, want 1 and 1", finished, consumers)
	}
	recs, err := hs[0].Unfinished()
	if err != nil || len(recs) != 0 {
		t.Fatalf("unfinished: %v %v", recs, err)
	}
}

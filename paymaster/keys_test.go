package paymaster

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// countingKV counts the updates of a KV, and fails them while fail is set.
type countingKV struct {
	KV
	updates atomic.Int64
	fail    atomic.Bool
}

func (c *countingKV) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	c.updates.Add(1)
	if c.fail.Load() {
		return errors.New("disk full")
	}
	return c.KV.Update(key, fn)
}

// Authorize records a key's last use at most once a minute per key and
// process, never moves it back, never fails a request over it, and List
// shows it without anything secret.
func TestKeyLastUsed(t *testing.T) {
	t.Parallel()
	keysKV, usageKV, _, _ := storeBuckets(t)
	usage := &countingKV{KV: usageKV}
	t0 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	clk := &clock{t: t0}
	core, logs := observer.New(zap.WarnLevel)
	ks := &Keys{Store: keysKV, Usage: usage, Now: clk.Now, Logger: zap.New(core)}
	secret, rec, err := ks.Create("demo", "testnet", []string{ScopeRead})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := ks.Create("demo", "testnet", []string{ScopeRead})
	if err != nil {
		t.Fatal(err)
	}
	// Another process on the same spaces, whose clock is behind.
	behind := &clock{t: t0.Add(10 * time.Second)}
	ks2 := &Keys{Store: keysKV, Usage: usage, Now: behind.Now}

	lastUsed := func() time.Time {
		t.Helper()
		list, err := ks.ListProject("demo")
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range list {
			if k.ID == rec.ID {
				return k.LastUsed
			}
		}
		t.Fatal("the key is not listed")
		return time.Time{}
	}
	steps := []struct {
		name    string
		run     func()
		updates int64
		last    time.Time
	}{
		{"first use", func() { ks.Authorize(secret, ScopeRead) }, 1, t0},
		{"again at once", func() { ks.Authorize(secret, ScopeRead) }, 1, t0},
		{"30 s later", func() { clk.Add(30 * time.Second); ks.Authorize(secret, ScopeRead) }, 1, t0},
		{"a refusal is no use", func() { ks.Authorize(secret, ScopeSponsor) }, 1, t0},
		{"another key has its own minute", func() { ks.Authorize(other, ScopeRead) }, 2, t0},
		{"61 s after the first", func() { clk.Add(31 * time.Second); ks.Authorize(secret, ScopeRead) }, 3, t0.Add(61 * time.Second)},
		{"an earlier use from another process", func() { ks2.Authorize(secret, ScopeRead) }, 4, t0.Add(61 * time.Second)},
	}
	for _, st := range steps {
		st.run()
		if n := usage.updates.Load(); n != st.updates {
			t.Fatalf("%s: %d writes, want %d", st.name, n, st.updates)
		}
		if got := lastUsed(); !got.Equal(st.last) {
			t.Fatalf("%s: last used %v, want %v", st.name, got, st.last)
		}
	}

	usage.fail.Store(true)
	clk.Add(time.Hour)
	if _, err := ks.Authorize(secret, ScopeRead); err != nil {
		t.Fatalf("a failed usage write failed the request: %v", err)
	}
	if logs.FilterMessage("recording an API key's use").Len() != 1 {
		t.Fatalf("the failed write was not logged: %v", logs.All())
	}
	if _, err := ks.Authorize(secret, ScopeRead); err != nil || usage.updates.Load() != 5 {
		t.Fatalf("a failed write is not retried within the minute: %d writes, %v", usage.updates.Load(), err)
	}

	list, err := ks.List()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(list)
	for _, s := range []string{secret, other} {
		if strings.Contains(string(raw), string(hashKey(s))) || strings.Contains(string(raw), s) {
			t.Fatalf("the listing holds a key or its hash: %s", raw)
		}
	}
	if !strings.Contains(string(raw), `"lastUsed":"2026-11-03T10:01:01Z"`) {
		t.Fatalf("the listing lacks the last use: %s", raw)
	}
	if stored, _ := keysKV.Get(hashKey(secret)); strings.Contains(string(stored), "lastUsed") {
		t.Fatalf("the key's record holds its last use: %s", stored)
	}
}

// The usage throttle remembers at most maxUsageThrottle keys: when it is
// full of keys written within the minute, another key's use goes
// unrecorded; once they age out, it is recorded.
func TestKeyUsageThrottleBound(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		at    time.Time
		key   string
		want  bool
		entry bool // whether key is remembered afterwards
	}{
		{"a new key while full", t0.Add(30 * time.Second), "new", false, false},
		{"a remembered key within its minute", t0.Add(30 * time.Second), "k0", false, true},
		{"a remembered key after its minute", t0.Add(61 * time.Second), "k0", true, true},
		{"a new key once the others aged out", t0.Add(61 * time.Second), "new", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ks := &Keys{}
			for i := range maxUsageThrottle {
				if !ks.due("k"+strconv.Itoa(i), t0) {
					t.Fatal("a first use is not due")
				}
			}
			if got := ks.due(tc.key, tc.at); got != tc.want {
				t.Fatalf("due %v, want %v", got, tc.want)
			}
			if _, ok := ks.written[tc.key]; ok != tc.entry || len(ks.written) > maxUsageThrottle {
				t.Fatalf("remembered %v (%d entries)", ok, len(ks.written))
			}
		})
	}
}

// Rotation disables the old key, naming its successor and when; revoking
// records when; neither works on what is not there, and a disabled key is
// not rotated back to life.
func TestKeyRotationRecords(t *testing.T) {
	t.Parallel()
	keysKV, _, _, _ := storeBuckets(t)
	t0 := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	clk := &clock{t: t0}
	ks := &Keys{Store: keysKV, Now: clk.Now}
	_, old, err := ks.Create("demo", "mainnet", []string{ScopeSponsor, ScopeSettle})
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Minute)
	secret, next, err := ks.Rotate(old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if next.Project != "demo" || next.Network != "mainnet" || len(next.Scopes) != 2 || next.Disabled {
		t.Fatalf("the successor %+v", next)
	}
	if _, err := ks.Authorize(secret, ScopeSettle); err != nil {
		t.Fatalf("the successor: %v", err)
	}
	clk.Add(time.Minute)
	if err := ks.Revoke(next.ID); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Minute)
	if err := ks.Revoke(next.ID); err != nil {
		t.Fatalf("revoking twice: %v", err)
	}
	byID := map[string]Key{}
	list, err := ks.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range list {
		byID[k.ID] = k
	}
	if o := byID[old.ID]; !o.Disabled || o.ReplacedBy != next.ID || !o.DisabledAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("the rotated key's record: %+v", o)
	}
	if n := byID[next.ID]; !n.Disabled || n.ReplacedBy != "" || !n.DisabledAt.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("the revoked key's record (revoked twice, the first time counts): %+v", n)
	}

	tests := []struct {
		name string
		run  func() error
		want error
	}{
		{"rotating a rotated key", func() error { _, _, err := ks.Rotate(old.ID); return err }, ErrInvalid},
		{"rotating a revoked key", func() error { _, _, err := ks.Rotate(next.ID); return err }, ErrInvalid},
		{"rotating an unknown key", func() error { _, _, err := ks.Rotate("pmk_00000000"); return err }, ErrUnknownKey},
		{"revoking an unknown key", func() error { return ks.Revoke("pmk_00000000") }, ErrUnknownKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := tc.run(); !errors.Is(err, tc.want) {
				t.Fatalf("%v, want an error wrapping %v", err, tc.want)
			}
		})
	}
	if n, _ := ks.List(); len(n) != 2 {
		t.Fatalf("%d keys after the refusals, want 2", len(n))
	}
}

package paymaster

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/store"
)

// clock is a test's clock, which only the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// storeBuckets opens a store file and returns its paymaster buckets:
// keys, key usage, ledger and stored projects.
func storeBuckets(t *testing.T) (keys, usage, ledger, projects store.KV) {
	t.Helper()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var kvs []store.KV
	for _, name := range []string{"paymaster_keys", "paymaster_key_usage", "paymaster_ledger", "paymaster_projects"} {
		b, err := st.Bucket(name)
		if err != nil {
			t.Fatal(err)
		}
		kvs = append(kvs, b)
	}
	return kvs[0], kvs[1], kvs[2], kvs[3]
}

// newProjectService is a Service on a store file, with a configured
// project "demo" of 1 ether, on a chain with no logs: enough for the
// project API, which does not sponsor.
func newProjectService(t *testing.T, clk *clock, change func(*Config)) *Service {
	t.Helper()
	keys, usage, ledger, projects := storeBuckets(t)
	key, _ := crypto.GenerateKey()
	cfg := Config{
		ChainID: big.NewInt(31337), EntryPoint: common.Address{1}, Paymaster: common.Address{2}, Signer: key,
		Chain: &logChain{}, Keys: keys, KeyUsage: usage, Ledger: ledger, ProjectStore: projects,
		Projects: []Project{{Name: "demo", Balance: ether(1)}}, Now: clk.Now,
	}
	if change != nil {
		change(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every refusal of the project API wraps the error a caller branches on,
// and says what is wrong.
func TestProjectArguments(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)}
	s := newProjectService(t, clk, nil)
	bare := newProjectService(t, clk, func(c *Config) { c.ProjectStore = nil })
	if err := s.CreateProject("shop", "", Limits{}); err != nil {
		t.Fatal(err)
	}
	const nameRule = "1 to 64 characters of a-z, 0-9, _ and -"
	tests := []struct {
		name string
		run  func() error
		want error // nil: it succeeds
		msg  string
	}{
		{"an empty name", func() error { return s.CreateProject("", "", Limits{}) }, ErrInvalid, nameRule},
		{"upper case", func() error { return s.CreateProject("Shop", "", Limits{}) }, ErrInvalid, nameRule},
		{"a space", func() error { return s.CreateProject("my shop", "", Limits{}) }, ErrInvalid, nameRule},
		{"not ASCII", func() error { return s.CreateProject("café", "", Limits{}) }, ErrInvalid, nameRule},
		{"65 characters", func() error { return s.CreateProject(strings.Repeat("a", 65), "", Limits{}) }, ErrInvalid, nameRule},
		{"64 characters", func() error { return s.CreateProject(strings.Repeat("a", 64), "", Limits{}) }, nil, ""},
		{"digits, _ and -", func() error { return s.CreateProject("shop_2-eu", "mainnet", Limits{}) }, nil, ""},
		{"an unknown network", func() error { return s.CreateProject("dev", "devnet", Limits{}) }, ErrInvalid, "want testnet or mainnet"},
		{"a negative rate", func() error { return s.CreateProject("neg", "", Limits{TxPerMinute: -1}) }, ErrInvalid, "must not be negative"},
		{"a negative cap", func() error { return s.CreateProject("neg", "", Limits{DailyGasCap: big.NewInt(-1)}) }, ErrInvalid, "DailyGasCap -1 must not be negative"},
		{"a stored project's name", func() error { return s.CreateProject("shop", "", Limits{}) }, ErrProjectExists, `"shop"`},
		{"a configured project's name", func() error { return s.CreateProject("demo", "", Limits{}) }, ErrProjectExists, "configured in the Caddyfile"},
		{"no project store", func() error { return bare.CreateProject("shop", "", Limits{}) }, ErrNoProjectStore, "Caddyfile"},
		{"editing a configured project", func() error { return s.EditProject("demo", Limits{TxPerMinute: 1}) }, ErrConfiguredProject, "edit its limits there"},
		{"editing an unknown project", func() error { return s.EditProject("nope", Limits{}) }, ErrUnknownProject, `"nope"`},
		{"editing without a store", func() error { return bare.EditProject("shop", Limits{}) }, ErrUnknownProject, `"shop"`},
		{"negative limits in an edit", func() error { return s.EditProject("shop", Limits{MaxInFlight: -1}) }, ErrInvalid, "must not be negative"},
		{"a top-up of 0", func() error { return s.TopUp("shop", new(big.Int), "") }, ErrInvalid, "want a positive amount"},
		{"a negative top-up", func() error { return s.TopUp("shop", big.NewInt(-5), "") }, ErrInvalid, "want a positive amount"},
		{"a top-up of nothing", func() error { return s.TopUp("shop", nil, "") }, ErrInvalid, "want a positive amount"},
		{"a note of 201 characters", func() error { return s.TopUp("shop", big.NewInt(1), strings.Repeat("é", 201)) }, ErrInvalid, "at most 200 characters"},
		{"a note of 200 characters", func() error { return s.TopUp("shop", big.NewInt(1), strings.Repeat("é", 200)) }, nil, ""},
		{"a top-up of an unknown project", func() error { return s.TopUp("nope", big.NewInt(1), "") }, ErrUnknownProject, `"nope"`},
		{"a key of an unknown project", func() error { _, _, err := s.CreateKey("nope", []string{ScopeRead}); return err }, ErrUnknownProject, `"nope"`},
		{"a key with an unknown scope", func() error { _, _, err := s.CreateKey("shop", []string{"admin"}); return err }, ErrInvalid, "want one of"},
		{"a key without scopes", func() error { _, _, err := s.CreateKey("shop", nil); return err }, ErrInvalid, "at least one scope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.run()
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Fatalf("error %v, want one wrapping %v", err, tc.want)
			case tc.want != nil && !strings.Contains(err.Error(), tc.msg):
				t.Fatalf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

// Config.Network is testnet by default, and mainnet if so configured;
// anything else is refused.
func TestConfigNetwork(t *testing.T) {
	t.Parallel()
	tests := []struct {
		network, want string // want "" refuses the configuration
	}{{"", "testnet"}, {"testnet", "testnet"}, {"mainnet", "mainnet"}, {"devnet", ""}, {"Mainnet", ""}}
	for _, tc := range tests {
		t.Run(tc.network, func(t *testing.T) {
			t.Parallel()
			key, _ := crypto.GenerateKey()
			s, err := New(Config{
				ChainID: big.NewInt(31337), EntryPoint: common.Address{1}, Paymaster: common.Address{2}, Signer: key,
				Chain: &logChain{}, Keys: &mapStore{}, Network: tc.network, Projects: []Project{{Name: "demo", Balance: ether(1)}},
			})
			switch {
			case tc.want == "" && (err == nil || !strings.Contains(err.Error(), "want testnet or mainnet")):
				t.Fatalf("network %q: %v", tc.network, err)
			case tc.want != "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (s.cfg.Network != tc.want || s.Keys().Network != tc.want):
				t.Fatalf("network %q, keys of %q; want %q", s.cfg.Network, s.Keys().Network, tc.want)
			}
		})
	}
}

// A stored project is created unfunded with its limits, topped up (the
// default daily cap follows the funding), edited and described beside the
// configured ones; its keys take its network.
func TestProjectLifecycle(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)
	clk := &clock{t: start}
	s := newProjectService(t, clk, nil)
	ctx := context.Background()
	if err := s.CreateProject("shop", "mainnet", Limits{TxPerMinute: 5}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateProject("lab", "", Limits{}); err != nil {
		t.Fatal(err)
	}
	info := func(name string) ProjectInfo {
		t.Helper()
		p, err := s.DescribeProject(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fresh := info("shop")
	if fresh.Configured || fresh.Network != "mainnet" || fresh.Funded.Sign() != 0 || fresh.Balance.Sign() != 0 || !fresh.Created.Equal(start) {
		t.Fatalf("a new stored project: %+v", fresh)
	}
	if l := fresh.Limits; l.TxPerMinute != 5 || l.MaxInFlight != 50 || l.DailyGasCap.Sign() != 0 || l.MaxOpCost.Sign() != 0 || l.MaxFeePerGas != nil {
		t.Fatalf("a new stored project's limits: %+v", l)
	}
	if n := len(fresh.Daily); n != 30 || fresh.Daily[29].Day != start.Truncate(24*time.Hour) || fresh.Daily[0].Day != start.Truncate(24*time.Hour).AddDate(0, 0, -29) {
		t.Fatalf("%d days of history, from %v to %v", n, fresh.Daily[0].Day, fresh.Daily[n-1].Day)
	}

	if err := s.TopUp("shop", ether(3), "invoice 1"); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Hour)
	if err := s.TopUp("shop", ether(2), "invoice 2"); err != nil {
		t.Fatal(err)
	}
	if err := s.TopUp("demo", ether(1), ""); err != nil {
		t.Fatal(err)
	}
	funded := info("shop")
	if funded.Funded.Cmp(ether(5)) != 0 || funded.Balance.Cmp(ether(5)) != 0 || funded.Limits.DailyGasCap.Cmp(ether(5)) != 0 || funded.Limits.MaxOpCost.Cmp(new(big.Int).Div(ether(5), big.NewInt(100))) != 0 {
		t.Fatalf("after 3 + 2 ether: funded %s, balance %s, limits %+v", funded.Funded, funded.Balance, funded.Limits)
	}
	if len(funded.TopUps) != 2 || funded.TopUps[0].Note != "invoice 2" || funded.TopUps[1].Amount.Cmp(ether(3)) != 0 || !funded.TopUps[1].At.Equal(start) {
		t.Fatalf("top-ups, newest first: %+v", funded.TopUps)
	}

	clk.Add(time.Hour)
	edited := Limits{TxPerMinute: 1, MaxInFlight: 2, DailyGasCap: ether(1), MaxFeePerGas: big.NewInt(10e9), MaxOpCost: big.NewInt(1e15)}
	if err := s.EditProject("shop", edited); err != nil {
		t.Fatal(err)
	}
	after := info("shop")
	if l := after.Limits; l.TxPerMinute != 1 || l.MaxInFlight != 2 || l.DailyGasCap.Cmp(ether(1)) != 0 || l.MaxFeePerGas.Cmp(big.NewInt(10e9)) != 0 || l.MaxOpCost.Cmp(big.NewInt(1e15)) != 0 {
		t.Fatalf("edited limits: %+v", l)
	}
	if !after.Created.Equal(start) || !after.Updated.Equal(start.Add(2*time.Hour)) || after.Funded.Cmp(ether(5)) != 0 {
		t.Fatalf("an edit changes the limits only: %+v", after)
	}

	all, err := s.DescribeProjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range all {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"demo", "lab", "shop"}) {
		t.Fatalf("projects %v, want demo, lab and shop", names)
	}
	demo, lab := all[0], all[1]
	if !demo.Configured || demo.Network != "testnet" || demo.Funded.Cmp(ether(2)) != 0 || demo.Limits.DailyGasCap.Cmp(ether(2)) != 0 || demo.Limits.TxPerMinute != 30 || !demo.Created.IsZero() {
		t.Fatalf("the configured project, topped up by 1 ether: %+v", demo)
	}
	if lab.Network != "testnet" {
		t.Fatalf("a project created without a network is on %q, want the Service's", lab.Network)
	}

	_, shopKey, err := s.CreateKey("shop", []string{ScopeSponsor})
	if err != nil {
		t.Fatal(err)
	}
	_, demoKey, err := s.CreateKey("demo", []string{ScopeRead})
	if err != nil {
		t.Fatal(err)
	}
	if shopKey.Network != "mainnet" || demoKey.Network != "testnet" {
		t.Fatalf("keys on %s and %s, want their projects' mainnet and testnet", shopKey.Network, demoKey.Network)
	}
	if list, err := s.Keys().ListProject("shop"); err != nil || len(list) != 1 || list[0].ID != shopKey.ID {
		t.Fatalf("the keys of shop: %+v %v", list, err)
	}
}

// A project's record keeps the spend of its last 30 UTC days as the day
// rolls over, refunds lower the day they were charged in, and a record
// written before the history existed still reads.
func TestLedgerHistory(t *testing.T) {
	t.Parallel()
	d0 := time.Date(2026, 11, 3, 12, 0, 0, 0, time.UTC)
	at := func(days int) time.Time { return d0.AddDate(0, 0, days) }
	res := func(h byte, cost int64, when time.Time) reservation {
		return reservation{Hash: common.Hash{h}, Cost: big.NewInt(cost), ValidUntil: when.Add(48 * time.Hour).Unix(), Sender: common.Address{9}}
	}
	p := newProject(Project{Name: "p", Balance: big.NewInt(1_000_000)}, NetworkTestnet)
	tests := []struct {
		name string
		raw  string // the record to start from; "" for none
		run  func(l *projectLedger)
		now  time.Time
		// want is the spend per day, by days from d0; every other day of
		// the last 30 is 0.
		want map[int]int64
	}{
		{"three days", "", func(l *projectLedger) {
			l.reserve(res(1, 100, at(-2)), at(-2))
			l.reserve(res(2, 50, at(-1)), at(-1))
			l.reserve(res(3, 7, d0), d0)
		}, d0, map[int]int64{-2: 100, -1: 50, 0: 7}},
		{"a refund lowers the day it was charged in", "", func(l *projectLedger) {
			l.reserve(res(1, 100, at(-1)), at(-1))
			l.reserve(res(2, 10, d0), d0)
			l.land(common.Hash{1}, big.NewInt(30), d0)
		}, d0, map[int]int64{-1: 30, 0: 10}},
		{"an expiry refunds yesterday in full", "", func(l *projectLedger) {
			l.reserve(res(1, 100, at(-1)), at(-1))
			l.expire(at(2))
		}, at(2), map[int]int64{}},
		{"days older than 30 are dropped", "", func(l *projectLedger) {
			l.reserve(res(1, 100, at(-40)), at(-40))
			l.reserve(res(2, 6, at(-30)), at(-30))
			l.reserve(res(3, 5, at(-29)), at(-29))
			l.roll(d0)
		}, d0, map[int]int64{-29: 5}},
		{"a record without history", `{"v":1,"charged":100,"day":"2026-11-01","spent":100}`, func(*projectLedger) {}, d0, map[int]int64{-2: 100}},
		{"a quiet stretch reads as zeros", `{"v":1,"charged":9,"day":"2026-10-30","spent":9}`, func(l *projectLedger) {
			l.reserve(res(1, 4, d0), d0)
		}, d0, map[int]int64{-4: 9, 0: 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var raw []byte
			if tc.raw != "" {
				raw = []byte(tc.raw)
			}
			l, err := decodeProject(raw)
			if err != nil {
				t.Fatal(err)
			}
			tc.run(l)
			// Through the record's encoding, as the store keeps it.
			enc, _ := json.Marshal(l)
			if l, err = decodeProject(enc); err != nil {
				t.Fatal(err)
			}
			info := describe(p, l, tc.now)
			for i, d := range info.Daily {
				days := i - 29
				if want := tc.want[days]; d.Spent.Int64() != want || !d.Day.Equal(tc.now.Truncate(24*time.Hour).AddDate(0, 0, days)) {
					t.Errorf("day %d (%v): %s, want %d", days, d.Day, d.Spent, want)
				}
			}
			if len(l.History) > historyDays {
				t.Fatalf("%d days kept", len(l.History))
			}
		})
	}
}

// A project's record is written as version 2 once it holds top-ups, so
// an older paymaster refuses it rather than drop the funding; one without
// stays version 1. Only the latest top-ups are listed; all of them count.
func TestLedgerTopUpRecord(t *testing.T) {
	t.Parallel()
	clk := &clock{t: time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC)}
	s := newProjectService(t, clk, nil)
	version := func() int {
		t.Helper()
		raw, err := s.ledger.Get(projectKey("demo"))
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ V int }
		json.Unmarshal(raw, &v)
		return v.V
	}
	if err := s.updateProject("demo", func(l *projectLedger) (bool, error) { l.Charged.SetInt64(5); return true, nil }); err != nil {
		t.Fatal(err)
	}
	if v := version(); v != 1 {
		t.Fatalf("a record without top-ups has version %d", v)
	}
	for i := range maxTopUps + 5 {
		clk.Add(time.Second)
		if err := s.TopUp("demo", big.NewInt(int64(i+1)), ""); err != nil {
			t.Fatal(err)
		}
	}
	if v := version(); v != fundedVersion {
		t.Fatalf("a record with top-ups has version %d", v)
	}
	info, err := s.DescribeProject(context.Background(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	n := int64(maxTopUps + 5)
	if want := new(big.Int).Add(ether(1), big.NewInt(n*(n+1)/2)); info.Funded.Cmp(want) != 0 {
		t.Fatalf("funded %s, want %s", info.Funded, want)
	}
	if len(info.TopUps) != maxTopUps || info.TopUps[0].Amount.Int64() != n {
		t.Fatalf("%d top-ups listed, the newest %s", len(info.TopUps), info.TopUps[0].Amount)
	}
}

// The facilitator's stores give the spaces the paymaster needs.
var (
	_ KV          = store.KV(nil)
	_ LedgerStore = store.KV(nil)
)

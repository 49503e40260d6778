package paymaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The LedgerStore contract, for every backend: updates of a key are
// atomic under concurrency, and a nil result or an error writes nothing.
func TestLedgerStoreContract(t *testing.T) {
	t.Parallel()
	backends := []struct {
		name string
		open func(t *testing.T) LedgerStore
	}{
		{"memory", func(*testing.T) LedgerStore { return &memLedger{} }},
		{"bbolt bucket", func(t *testing.T) LedgerStore {
			st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			b, err := st.Bucket("paymaster_ledger")
			if err != nil {
				t.Fatal(err)
			}
			return SerialLedger(b)
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			l := b.open(t)
			key := []byte("counter")
			var wg sync.WaitGroup
			for range 100 {
				wg.Go(func() {
					err := l.Update(key, func(old []byte) ([]byte, error) {
						n, _ := strconv.Atoi(string(old))
						return []byte(strconv.Itoa(n + 1)), nil
					})
					if err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if v, err := l.Get(key); err != nil || string(v) != "100" {
				t.Fatalf("100 increments made %q (%v)", v, err)
			}
			if err := l.Update(key, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
				t.Fatal(err)
			}
			boom := errors.New("boom")
			if err := l.Update(key, func([]byte) ([]byte, error) { return []byte("lost"), boom }); !errors.Is(err, boom) {
				t.Fatalf("the error of fn: %v", err)
			}
			if v, _ := l.Get(key); string(v) != "100" {
				t.Fatalf("after a nil result and an error: %q", v)
			}
			if v, err := l.Get([]byte("none")); err != nil || v != nil {
				t.Fatalf("a missing key: %q %v", v, err)
			}
		})
	}
}

// The accounting of one project's record, without a chain.
func TestProjectLedgerAccounting(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 3, 23, 59, 0, 0, time.UTC)
	tomorrow := now.Add(2 * time.Minute)
	h1, h2 := common.Hash{1}, common.Hash{2}
	res := func(h common.Hash, cost int64, validFor time.Duration) reservation {
		return reservation{Hash: h, Cost: big.NewInt(cost), ValidUntil: now.Add(validFor).Unix(), Sender: common.Address{9}}
	}
	tests := []struct {
		name string
		run  func(l *projectLedger)
		// charged, spent (on the day run ends) and in flight afterwards.
		charged, spent int64
		inFlight       int
	}{
		{"a landing refunds the unused part", func(l *projectLedger) {
			l.reserve(res(h1, 100, time.Minute), now)
			l.land(h1, big.NewInt(30), now)
		}, 30, 30, 0},
		{"an expiry refunds all", func(l *projectLedger) {
			l.reserve(res(h1, 100, 10*time.Second), now)
			l.reserve(res(h2, 50, time.Hour), now)
			l.expire(now.Add(11 * time.Second))
		}, 50, 50, 1},
		{"a window is open through its last second", func(l *projectLedger) {
			l.reserve(res(h1, 100, 10*time.Second), now)
			l.expire(now.Add(10*time.Second + 999*time.Millisecond))
		}, 100, 100, 1},
		{"one landing releases one of two identical reservations", func(l *projectLedger) {
			l.reserve(res(h1, 100, time.Minute), now)
			l.reserve(res(h1, 100, time.Minute), now)
			l.land(h1, big.NewInt(40), now)
		}, 140, 140, 1},
		{"a refund of yesterday's reservation does not lower today's spend", func(l *projectLedger) {
			l.reserve(res(h1, 100, time.Hour), now)
			l.reserve(res(h2, 70, time.Hour), tomorrow)
			l.land(h1, big.NewInt(10), tomorrow)
		}, 80, 70, 1},
		{"a cost above the reservation refunds nothing", func(l *projectLedger) {
			l.reserve(res(h1, 100, time.Minute), now)
			l.land(h1, big.NewInt(101), now)
		}, 100, 100, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, _ := decodeProject(nil)
			tc.run(l)
			if l.Charged.Int64() != tc.charged || l.Spent.Int64() != tc.spent || len(l.Reservations) != tc.inFlight {
				t.Fatalf("charged %s, spent %s, %d in flight; want %d, %d, %d", l.Charged, l.Spent, len(l.Reservations), tc.charged, tc.spent, tc.inFlight)
			}
		})
	}
	t.Run("rate windows keep the last minute", func(t *testing.T) {
		t.Parallel()
		l, _ := decodeProject(nil)
		p := newProject(Project{Name: "p", TxPerMinute: 2, MaxInFlight: 10, Balance: big.NewInt(1000), DailyGasCap: big.NewInt(1000), MaxOpCost: big.NewInt(1000)}, NetworkTestnet)
		a := common.Address{9}
		for _, at := range []time.Time{now, now.Add(30 * time.Second)} {
			l.reserve(reservation{Hash: h1, Cost: big.NewInt(1), ValidUntil: now.Add(time.Hour).Unix(), Sender: a}, at)
		}
		if err := l.check(p, a, big.NewInt(1), false, now.Add(59*time.Second)); err == nil || err.Code != codeThrottled || err.RetryAfter != time.Second {
			t.Fatalf("third within the minute: %+v", err)
		}
		if err := l.check(p, a, big.NewInt(1), false, now.Add(60*time.Second)); err != nil {
			t.Fatalf("after the first left the window: %+v", err)
		}
		if len(l.Senders[a]) != 1 {
			t.Fatalf("window %v, want the second entry only", l.Senders[a])
		}
	})
	t.Run("an operation paid in tokens draws neither balance nor daily cap", func(t *testing.T) {
		t.Parallel()
		l, _ := decodeProject(nil)
		p := newProject(Project{Name: "p", TxPerMinute: 1, MaxInFlight: 10, Balance: big.NewInt(1000), DailyGasCap: big.NewInt(500), MaxOpCost: big.NewInt(600)}, NetworkTestnet)
		l.reserve(reservation{Hash: h1, Cost: big.NewInt(450), ValidUntil: now.Add(time.Hour).Unix(), Sender: common.Address{1}}, now)
		tests := []struct {
			name    string
			sender  common.Address
			cost    int64
			inToken bool
			refused bool
		}{
			{"in ETH over the day's cap", common.Address{2}, 100, false, true},
			{"in tokens over the day's cap", common.Address{2}, 100, true, false},
			{"in tokens over the per-operation cap", common.Address{2}, 700, true, true},
			{"in tokens over the sender's rate", common.Address{1}, 1, true, true},
		}
		for _, tc := range tests {
			if err := l.check(p, tc.sender, big.NewInt(tc.cost), tc.inToken, now); (err != nil) != tc.refused {
				t.Errorf("%s: %+v", tc.name, err)
			}
		}
		l.reserve(reservation{Hash: h2, Cost: new(big.Int), Token: common.Address{7}, ValidUntil: now.Add(time.Hour).Unix(), Sender: common.Address{2}}, now)
		l.land(h2, big.NewInt(300), now)
		if l.Charged.Int64() != 450 || l.Spent.Int64() != 450 {
			t.Fatalf("charged %s, spent %s after a token-paid operation landed; want 450 each", l.Charged, l.Spent)
		}
	})
}

// mapStore is an in-memory key-value bucket.
type mapStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *mapStore) Get(key []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.m[string(key)]), nil
}

func (s *mapStore) Put(key, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[string(key)] = bytes.Clone(value)
	return nil
}

func (s *mapStore) ForEach(fn func(key, value []byte) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m {
		if err := fn([]byte(k), v); err != nil {
			return err
		}
	}
	return nil
}

// logChain is a chain at a given head whose eth_getLogs answers events and
// records the ranges asked for. Reading thousands of blocks of logs is not
// something the devnet can be brought to quickly.
type logChain struct {
	head   uint64
	events []opEvent

	mu     sync.Mutex
	ranges [][2]uint64
}

func (c *logChain) CallContext(_ context.Context, result any, method string, args ...any) error {
	switch method {
	case "eth_blockNumber":
		*result.(*hexutil.Uint64) = hexutil.Uint64(c.head)
		return nil
	case "eth_getLogs":
		f := args[0].(map[string]any)
		from, to := uint64(f["fromBlock"].(hexutil.Uint64)), uint64(f["toBlock"].(hexutil.Uint64))
		c.mu.Lock()
		c.ranges = append(c.ranges, [2]uint64{from, to})
		c.mu.Unlock()
		var logs []map[string]any
		for _, ev := range c.events {
			if ev.block < from || ev.block > to {
				continue
			}
			data := make([]byte, 128)
			if ev.success {
				data[63] = 1
			}
			ev.actual.FillBytes(data[64:96])
			logs = append(logs, map[string]any{
				"topics":      []common.Hash{userOperationEvent, ev.hash},
				"data":        hexutil.Bytes(data),
				"blockNumber": hexutil.Uint64(ev.block),
			})
		}
		raw, _ := json.Marshal(logs)
		return json.Unmarshal(raw, result)
	}
	return errors.New("unexpected method " + method)
}

func newLogService(t *testing.T, chain Chain, ledger LedgerStore) *Service {
	t.Helper()
	key, _ := crypto.GenerateKey()
	s, err := New(Config{
		ChainID: big.NewInt(31337), EntryPoint: common.Address{1}, Paymaster: common.Address{2}, Signer: key,
		Chain: chain, Keys: &mapStore{}, Ledger: ledger, Projects: []Project{{Name: "demo", Balance: big.NewInt(1_000_000)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// After a stop, logs are read from where the ledger stopped, in chunks,
// and at most the last maxCatchUp blocks; a chain behind the ledger (a
// new devnet on a kept store) is read from its head.
func TestLogCatchUp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// next is the ledger's first unread block; the project has
		// applied the blocks before it.
		next, head         uint64
		ranges             [][2]uint64
		wantNext, wantProj uint64
	}{
		{"a new ledger starts at the head", 0, 500, [][2]uint64{{500, 500}}, 501, 0},
		{"a new ledger on a chain at genesis", 0, 0, [][2]uint64{{0, 0}}, 1, 0},
		{"a short stop", 101, 2_500, [][2]uint64{{101, 2_100}, {2_101, 2_500}}, 2_501, 100},
		{"a long stop reads the last 10,000 blocks", 6, 20_005, [][2]uint64{{10_006, 12_005}, {12_006, 14_005}, {14_006, 16_005}, {16_006, 18_005}, {18_006, 20_005}}, 20_006, 5},
		{"nothing new", 701, 700, nil, 701, 700},
		{"a chain behind the ledger", 5_001, 30, nil, 31, 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			chain := &logChain{head: tc.head}
			s := newLogService(t, chain, &memLedger{})
			if err := s.updateService(func(l *serviceLedger) bool { l.Next = tc.next; return true }); err != nil {
				t.Fatal(err)
			}
			if err := s.updateProject("demo", func(l *projectLedger) (bool, error) { l.Block = max(tc.next, 1) - 1; return true, nil }); err != nil {
				t.Fatal(err)
			}
			s.refresh(context.Background(), time.Now(), true)
			if !slices.Equal(chain.ranges, tc.ranges) {
				t.Fatalf("read %v, want %v", chain.ranges, tc.ranges)
			}
			svc, _ := s.loadService()
			p, _ := s.loadProject("demo")
			if svc.Next != tc.wantNext || p.Block != tc.wantProj {
				t.Fatalf("next block %d, project block %d; want %d, %d", svc.Next, p.Block, tc.wantNext, tc.wantProj)
			}
		})
	}
}

// Logs read twice, as after a crash between the release and the cursor's
// write, or by two Services on one ledger, are applied once; a failed
// execution suspends the sender and the owner.
func TestLogsApplyOnce(t *testing.T) {
	t.Parallel()
	now := time.Now()
	sender, owner := common.Address{7}, common.Address{8}
	landed, failed := common.Hash{1}, common.Hash{2}
	chain := &logChain{head: 10, events: []opEvent{
		{hash: landed, success: true, actual: big.NewInt(40), block: 9},
		{hash: failed, success: false, actual: big.NewInt(60), block: 10},
	}}
	ledger := &memLedger{}
	a, b := newLogService(t, chain, ledger), newLogService(t, chain, ledger)
	if err := a.updateService(func(l *serviceLedger) bool { l.Next = 9; return true }); err != nil {
		t.Fatal(err)
	}
	if err := a.updateProject("demo", func(l *projectLedger) (bool, error) {
		for _, h := range []common.Hash{landed, landed, failed} {
			l.reserve(reservation{Hash: h, Cost: big.NewInt(100), ValidUntil: now.Add(time.Hour).Unix(), Sender: sender, Owner: owner}, now)
		}
		return true, nil
	}); err != nil {
		t.Fatal(err)
	}
	events, err := a.events(context.Background(), 9, 10)
	if err != nil || len(events) != 2 {
		t.Fatalf("events %v %v", events, err)
	}
	for _, s := range []*Service{a, b, a} {
		if err := s.apply(events, 10, now); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := a.loadProject("demo")
	if len(p.Reservations) != 1 || p.Reservations[0].Hash != landed || p.Charged.Int64() != 40+100+60 {
		t.Fatalf("after applying three times: %d in flight, charged %s; want the second reservation of the landed operation and 200", len(p.Reservations), p.Charged)
	}
	svc, _ := a.loadService()
	if svc.Next != 11 || len(svc.Failed) != 2 || svc.Failed[sender] == 0 || svc.Failed[owner] == 0 {
		t.Fatalf("service record %+v", svc)
	}
	if err := b.paused(common.Address{}, owner, now); err == nil || err.Code != codeThrottled {
		t.Fatalf("the owner of a failed operation: %+v", err)
	}
}

// faultyLedger fails its writes while fail is set.
type faultyLedger struct {
	LedgerStore
	fail atomic.Bool
}

func (l *faultyLedger) Update(key []byte, fn func([]byte) ([]byte, error)) error {
	if l.fail.Load() {
		return errors.New("disk full")
	}
	return l.LedgerStore.Update(key, fn)
}

// A ledger that cannot be written, or holds a record it cannot read,
// refuses sponsorship (-32603) rather than sign what it cannot count, and
// leaves the record as it was.
func TestLedgerFaults(t *testing.T) {
	t.Parallel()
	t.Run("write fails", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		var faulty *faultyLedger
		e.restart(func(c *Config) {
			faulty = &faultyLedger{LedgerStore: c.Ledger}
			c.Ledger = faulty
		})
		op := func() x402.UserOperation {
			return unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1))
		}
		faulty.fail.Store(true)
		res, _ := e.call(e.sponsor, "pm_sponsor_userop", op(), e.chain.Contracts.EntryPoint.Hex())
		if res.Error == nil || res.Error.Code != -32603 || !strings.Contains(res.Error.Message, "ledger") {
			t.Fatalf("with the ledger failing: %+v", res.Error)
		}
		faulty.fail.Store(false)
		if res, _ := e.call(e.sponsor, "pm_sponsor_userop", op(), e.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
			t.Fatalf("once it works again: %+v", res.Error)
		}
		if u := e.usage("demo"); u.InFlight != 1 {
			t.Fatalf("%d in flight, want the one that was granted", u.InFlight)
		}
	})
	for _, bad := range []string{"not json", `{"v":3,"charged":0}`} {
		t.Run("record "+bad, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			if err := e.ledger.Update(projectKey("demo"), func([]byte) ([]byte, error) { return []byte(bad), nil }); err != nil {
				t.Fatal(err)
			}
			res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex())
			if res.Error == nil || res.Error.Code != -32603 {
				t.Fatalf("sponsored over a bad record: %+v", res.Error)
			}
			if _, err := e.svc.Usage(context.Background(), "demo"); err == nil {
				t.Fatal("usage of a bad record")
			}
			if v, _ := e.ledger.Get(projectKey("demo")); string(v) != bad {
				t.Fatalf("the record became %q", v)
			}
		})
	}
}

package paymaster

import (
	"context"
	"math/big"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// sponsorSigned has a fresh account, holding the tokens it pays, sponsored
// for a settle, and signs the operation as its owner. ctx is the
// sponsorship context (nil for the defaults).
func (e *env) sponsorSigned(ctx map[string]any) contracts.UserOperation {
	e.t.Helper()
	a := e.newAccount()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, contracts.NewDevUSD().PackTransfer(a.sender, big.NewInt(5_000)), 100_000)
	params := []any{unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 5_000)), e.chain.Contracts.EntryPoint.Hex()}
	if ctx != nil {
		params = append(params, ctx)
	}
	res, _ := e.call(e.sponsor, "pm_sponsor_userop", params...)
	if res.Error != nil {
		e.t.Fatalf("sponsor: %+v", res.Error)
	}
	op := decodeOp(e.t, res.Result)
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)
	return op
}

// bundle lands op with handleOps and returns its event.
func (e *env) bundle(op contracts.UserOperation) *contracts.EntryPointUserOperationEvent {
	e.t.Helper()
	ep := contracts.NewEntryPoint()
	r := e.send(e.chain.Accounts[0].Key, e.chain.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, e.chain.Accounts[0].Address), 3_000_000)
	for _, l := range r.Logs {
		if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil && r.Status == types.ReceiptStatusSuccessful && ev.Success {
			return ev
		}
	}
	e.t.Fatalf("handleOps: status %d, no successful UserOperationEvent", r.Status)
	return nil
}

// usage is the project's counters, failing the test if they cannot be read.
func (e *env) usage(name string) Usage {
	e.t.Helper()
	u, err := e.svc.Usage(context.Background(), name)
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

func sum(xs ...*big.Int) *big.Int {
	s := new(big.Int)
	for _, x := range xs {
		s.Add(s, x)
	}
	return s
}

// A restart in the middle of a day keeps the day's spend and what is left
// of the funding; a restart with a larger funding tops the project up by
// the difference.
func TestRestartKeepsSpend(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ev := e.bundle(e.sponsorSigned(nil))
	before := e.usage("demo")
	if before.InFlight != 0 || before.SpentToday.Cmp(ev.ActualGasCost) != 0 || before.Balance.Cmp(new(big.Int).Sub(ether(10), ev.ActualGasCost)) != 0 {
		t.Fatalf("before the restart: %+v, the operation cost %s", before, ev.ActualGasCost)
	}

	e.restart(nil)
	if after := e.usage("demo"); after.InFlight != 0 || after.SpentToday.Cmp(before.SpentToday) != 0 || after.Balance.Cmp(before.Balance) != 0 {
		t.Fatalf("after the restart: %+v, before %+v", after, before)
	}

	e.restart(func(c *Config) { c.Projects = []Project{{Name: "demo", Balance: ether(12)}} })
	if topped := e.usage("demo"); topped.SpentToday.Cmp(before.SpentToday) != 0 || topped.Balance.Cmp(new(big.Int).Sub(ether(12), ev.ActualGasCost)) != 0 {
		t.Fatalf("after a top-up to 12 ETH: %+v, the operation cost %s", topped, ev.ActualGasCost)
	}
}

// Reservations outstanding at a stop are released after the start: an
// operation that landed while the paymaster was down, and one that lands
// after, are refunded their unused part from the logs; one that never
// lands is refunded in full at its expiry.
func TestRestartReleasesReservations(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	down := e.sponsorSigned(nil)
	later := e.sponsorSigned(nil)
	expiring := e.sponsorSigned(map[string]any{"type": 0, "validUntil": time.Now().Unix() + 30})
	costs := []*big.Int{maxCost(&down), maxCost(&later), maxCost(&expiring)}
	if u := e.usage("demo"); u.InFlight != 3 || u.Balance.Cmp(new(big.Int).Sub(ether(10), sum(costs...))) != 0 {
		t.Fatalf("before the stop: %+v, reserved %v", u, costs)
	}

	e.stop()
	landedDown := e.bundle(down) // while no paymaster runs
	e.start(nil)
	landedLater := e.bundle(later)
	u := e.usage("demo")
	charged := sum(landedDown.ActualGasCost, landedLater.ActualGasCost, costs[2])
	if u.InFlight != 1 || u.Balance.Cmp(new(big.Int).Sub(ether(10), charged)) != 0 || u.SpentToday.Cmp(charged) != 0 {
		t.Fatalf("after the start and the landings: %+v, want 1 in flight and %s charged", u, charged)
	}

	// Two minutes on, the third operation's window has ended.
	e.restart(func(c *Config) { c.Now = func() time.Time { return time.Now().Add(2 * time.Minute) } })
	u = e.usage("demo")
	charged = sum(landedDown.ActualGasCost, landedLater.ActualGasCost)
	if u.InFlight != 0 || u.Balance.Cmp(new(big.Int).Sub(ether(10), charged)) != 0 {
		t.Fatalf("after the expiry: %+v, want nothing in flight and %s charged", u, charged)
	}
	if day(time.Now()) == day(time.Now().Add(2*time.Minute)) && u.SpentToday.Cmp(charged) != 0 {
		t.Fatalf("spent today %s after the expiry, want %s", u.SpentToday, charged)
	}
}

// 100 parallel sponsorships, some before a restart and the rest after (or
// spread over two services sharing one ledger, as during a reload's
// overlap), grant exactly the limit, and the counters hold exactly what
// was granted.
func TestLimitsHoldAcrossRestart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// project's limit is 30 on the counted dimension.
		project    Project
		sameSender bool
		// before is how many requests go before the restart; twin sends
		// every other request to a second service on the same ledger.
		before int
		twin   bool
		msg    string
	}{
		{"in flight, 20 before a restart and 80 after", Project{Name: "demo", Balance: ether(10), MaxInFlight: 30}, false, 20, false, "in flight"},
		{"per sender, 50 before a restart and 50 after", Project{Name: "demo", Balance: ether(10), TxPerMinute: 30, MaxInFlight: 1000}, true, 50, false, "per minute per sender"},
		{"in flight, two services on one ledger", Project{Name: "demo", Balance: ether(10), MaxInFlight: 30}, false, 100, true, "in flight"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tc.project)
			ops := make([]x402.UserOperation, 100)
			one := e.newAccount()
			for i := range ops {
				a := one
				if !tc.sameSender {
					a = e.newAccount()
				}
				ops[i] = unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1))
			}
			urls := []string{e.srv.URL}
			if tc.twin {
				twin, err := New(e.cfg) // the same keys and ledger
				if err != nil {
					t.Fatal(err)
				}
				srv := newServer(t, twin)
				urls = append(urls, srv)
			}
			var (
				mu      sync.Mutex
				granted []*big.Int
			)
			run := func(ops []x402.UserOperation) {
				var wg sync.WaitGroup
				for i, op := range ops {
					url := urls[i%len(urls)]
					wg.Go(func() {
						res, _ := e.callAt(url, e.sponsor, "pm_sponsor_userop", op, e.chain.Contracts.EntryPoint.Hex())
						mu.Lock()
						defer mu.Unlock()
						switch {
						case res.Error == nil:
							sponsored := decodeOp(t, res.Result)
							granted = append(granted, maxCost(&sponsored))
						case res.Error.Code != -32504 || !strings.Contains(res.Error.Message, tc.msg):
							t.Errorf("refused with %+v, want -32504 (%s)", res.Error, tc.msg)
						}
					})
				}
				wg.Wait()
			}
			run(ops[:tc.before])
			if tc.before < len(ops) {
				e.restart(nil)
				urls = []string{e.srv.URL}
				run(ops[tc.before:])
			}
			if len(granted) != 30 {
				t.Fatalf("%d of 100 granted, want 30", len(granted))
			}
			u := e.usage("demo")
			if u.InFlight != 30 || u.Balance.Cmp(new(big.Int).Sub(ether(10), sum(granted...))) != 0 || u.SpentToday.Cmp(sum(granted...)) != 0 {
				t.Fatalf("usage %+v, want 30 in flight and %s charged", u, sum(granted...))
			}
		})
	}
}

// newServer serves svc until the test ends and returns its URL.
func newServer(t *testing.T, svc *Service) string {
	t.Helper()
	srv := httptest.NewServer(svc)
	t.Cleanup(srv.Close)
	return srv.URL
}

// New limits (a reload) apply to the counters as they stand, on the next
// request.
func TestSetProjectsAppliesToCounters(t *testing.T) {
	t.Parallel()
	base := Project{Name: "demo", Balance: ether(10), MaxInFlight: 5, MaxOpCost: ether(1)}
	tests := []struct {
		name       string
		sameSender bool
		// change makes the new project from the old and the charges of the
		// two operations sponsored before.
		change func(p Project, charged *big.Int) Project
		code   x402.RPCErrorCode
		msg    string
	}{
		{"lower max in flight", false, func(p Project, _ *big.Int) Project { p.MaxInFlight = 2; return p }, -32504, "2 sponsored operations in flight"},
		{"lower daily gas cap", false, func(p Project, charged *big.Int) Project {
			p.DailyGasCap = new(big.Int).Add(charged, big.NewInt(1))
			return p
		}, -32504, "daily gas cap"},
		{"lower tx per minute", true, func(p Project, _ *big.Int) Project { p.TxPerMinute = 2; return p }, -32504, "2 sponsored operations per minute"},
		{"lower funding", false, func(p Project, charged *big.Int) Project {
			p.Balance, p.DailyGasCap = new(big.Int).Add(charged, big.NewInt(1)), ether(10)
			return p
		}, -32501, "sponsorship balance"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, base)
			a := e.newAccount()
			next := func() x402.UserOperation {
				if !tc.sameSender {
					a = e.newAccount()
				}
				return unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1))
			}
			for range 2 {
				if res, _ := e.call(e.sponsor, "pm_sponsor_userop", next(), e.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
					t.Fatalf("sponsor: %+v", res.Error)
				}
			}
			before := e.usage("demo")
			charged := new(big.Int).Sub(ether(10), before.Balance)
			if err := e.svc.SetProjects([]Project{tc.change(base, charged)}); err != nil {
				t.Fatal(err)
			}
			res, _ := e.call(e.sponsor, "pm_sponsor_userop", next(), e.chain.Contracts.EntryPoint.Hex())
			if res.Error == nil || res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.msg) {
				t.Fatalf("after the change: %+v, want %d containing %q", res.Error, tc.code, tc.msg)
			}
			if u := e.usage("demo"); u.InFlight != 2 || u.SpentToday.Cmp(before.SpentToday) != 0 {
				t.Fatalf("the counters changed: %+v, before %+v", u, before)
			}
			// Back to the old limits, the next operation passes.
			if err := e.svc.SetProjects([]Project{base}); err != nil {
				t.Fatal(err)
			}
			if res, _ := e.call(e.sponsor, "pm_sponsor_userop", next(), e.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
				t.Fatalf("under the old limits again: %+v", res.Error)
			}
		})
	}
}

// A project left out of a reload is refused, and comes back with its
// counters as they were.
func TestSetProjectsRemovesAndRestores(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
		t.Fatalf("sponsor: %+v", res.Error)
	}
	before := e.usage("demo")
	if err := e.svc.SetProjects([]Project{{Name: "other", Balance: ether(1)}}); err != nil {
		t.Fatal(err)
	}
	res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex())
	if res.Error == nil || res.Error.Code != -32501 || !strings.Contains(res.Error.Message, "not configured") {
		t.Fatalf("a removed project: %+v", res.Error)
	}
	if err := e.svc.SetProjects([]Project{{Name: "demo", Balance: ether(10)}}); err != nil {
		t.Fatal(err)
	}
	if u := e.usage("demo"); u.InFlight != 1 || u.Balance.Cmp(before.Balance) != 0 || u.SpentToday.Cmp(before.SpentToday) != 0 {
		t.Fatalf("restored: %+v, before %+v", u, before)
	}
	if err := e.svc.SetProjects([]Project{{Name: "demo"}}); err == nil {
		t.Fatal("a project without a balance was accepted")
	}
}

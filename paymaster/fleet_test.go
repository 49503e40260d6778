package paymaster

import (
	"context"
	"errors"
	"math/big"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap/zaptest"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// fleetReplicas is how many paymasters a fleet runs.
const fleetReplicas = 3

// fleet is paymaster replicas as Caddy runs them in a fleet: each a
// Service on its own handle of one PostgreSQL schema (keys, key usage,
// ledger and stored projects in its buckets), served over HTTP, all on one devnet. Its env is the devnet
// and its helpers, with replica 0 as env.svc.
type fleet struct {
	*env
	svcs []*Service
	urls []string
}

// newFleet starts a fleet serving project, with a sponsor key created on
// replica 0. The replicas share one clock that stands still, so a rate
// window cannot slide during a test on a slow machine. It skips the test
// without X402_TEST_DATABASE_URL.
func newFleet(t *testing.T, project Project) *fleet {
	t.Helper()
	dbURL := pgtest.URL(t, "the tests of paymaster replicas sharing a PostgreSQL store")
	schema := pgtest.Schema(t, dbURL, "paymaster_test_") // dropped after the stores close
	d, err := devnet.Start(context.Background(), devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	rc, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	now := time.Now()
	f := &fleet{env: &env{t: t, chain: d, rpc: rc, eth: ethclient.NewClient(rc)}}
	for range fleetReplicas {
		st, err := postgres.Open(context.Background(), postgres.Config{URL: dbURL, Schema: schema, MaxConns: 4, Logger: zaptest.NewLogger(t)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		keys, err := st.Bucket("paymaster_keys")
		if err != nil {
			t.Fatal(err)
		}
		ledger, err := st.Bucket("paymaster_ledger")
		if err != nil {
			t.Fatal(err)
		}
		projects, err := st.Bucket("paymaster_projects")
		if err != nil {
			t.Fatal(err)
		}
		usage, err := st.Bucket("paymaster_key_usage")
		if err != nil {
			t.Fatal(err)
		}
		svc, err := New(Config{
			ChainID: d.ChainID, EntryPoint: d.Contracts.EntryPoint, Paymaster: d.Contracts.Paymaster,
			Signer: d.PaymasterSigner.Key, Chain: rc, Keys: keys, Ledger: ledger, Projects: []Project{project},
			ProjectStore: projects, KeyUsage: usage,
			Now: func() time.Time { return now }, Logger: zaptest.NewLogger(t),
		})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(svc)
		t.Cleanup(srv.Close)
		f.svcs, f.urls = append(f.svcs, svc), append(f.urls, srv.URL)
	}
	f.svc = f.svcs[0]
	if f.sponsor, _, err = f.svcs[0].Keys().Create(project.Name, "testnet", []string{ScopeSponsor}); err != nil {
		t.Fatal(err)
	}
	return f
}

// race sends every operation at once, operation i to replica i%3, and
// returns the sponsored operations and the refusals.
func (f *fleet) race(ops []x402.UserOperation) (granted []contracts.UserOperation, refused []*Error) {
	f.t.Helper()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		start = make(chan struct{})
	)
	for i, op := range ops {
		url := f.urls[i%len(f.urls)]
		wg.Go(func() {
			<-start
			res, _ := f.callAt(url, f.sponsor, "pm_sponsor_userop", op, f.chain.Contracts.EntryPoint.Hex())
			mu.Lock()
			defer mu.Unlock()
			if res.Error != nil {
				refused = append(refused, res.Error)
				return
			}
			granted = append(granted, decodeOp(f.t, res.Result))
		})
	}
	close(start)
	wg.Wait()
	return granted, refused
}

// usageEverywhere is the project's counters, which every replica must
// read alike.
func (f *fleet) usageEverywhere(name string) Usage {
	f.t.Helper()
	var first Usage
	for i, svc := range f.svcs {
		u, err := svc.Usage(context.Background(), name)
		if err != nil {
			f.t.Fatal(err)
		}
		if i == 0 {
			first = u
		} else if u.InFlight != first.InFlight || u.Balance.Cmp(first.Balance) != 0 || u.SpentToday.Cmp(first.SpentToday) != 0 {
			f.t.Fatalf("replica %d reads %+v, replica 0 %+v", i, u, first)
		}
	}
	return first
}

// fixedGas gives ops the same gas fields, so that each has the same
// maximum cost, and returns that cost as the paymaster computes it. Its
// preVerificationGas is the highest the paymaster computes for any of
// them, within the bound it allows each.
func (f *fleet) fixedGas(ops []x402.UserOperation, maxFee *big.Int) *big.Int {
	f.t.Helper()
	set := func(op *x402.UserOperation, pvg *big.Int) {
		op.VerificationGasLimit = hexutil.EncodeBig(big.NewInt(600_000))
		op.CallGasLimit = hexutil.EncodeBig(big.NewInt(250_000))
		op.PreVerificationGas = hexutil.EncodeBig(pvg)
		op.MaxFeePerGas = hexutil.EncodeBig(maxFee)
		op.MaxPriorityFeePerGas = hexutil.EncodeBig(big.NewInt(1e9))
	}
	pvg := new(big.Int)
	for i := range ops {
		set(&ops[i], big.NewInt(0))
		op, perr := f.svc.eps[0].EntryPoint.DecodeOp(mustJSON(f.t, ops[i]), true)
		if perr != nil {
			f.t.Fatal(perr)
		}
		f.svc.setPaymaster(&f.svc.eps[0], &op, false, contracts.TokenTerms{})
		if g := f.svc.eps[0].EntryPoint.PreVerificationGas(op); g.Cmp(pvg) > 0 {
			pvg = g
		}
	}
	for i := range ops {
		set(&ops[i], pvg)
	}
	op, perr := decodeWire6(&ops[0])
	if perr != nil {
		f.t.Fatal(perr)
	}
	return maxCost(&op)
}

// Replicas on one PostgreSQL store hold a project to its limits exactly:
// requests spread over three of them at once are granted exactly what one
// paymaster would grant, and the rest are refused -32504 naming the limit.
func TestFleetLimits(t *testing.T) {
	t.Parallel()
	maxFee := big.NewInt(10e9)
	tests := []struct {
		name    string
		project func(opCost *big.Int) Project
		// n requests, from one sender or from n.
		n          int
		sameSender bool
		want       int
		msg        string
	}{
		{"30 per minute for one sender", func(*big.Int) Project {
			return Project{Name: "demo", Balance: ether(10), TxPerMinute: 30, MaxInFlight: 1000, MaxFeePerGas: maxFee}
		}, 100, true, 30, "per minute per sender"},
		{"10 in flight", func(*big.Int) Project {
			return Project{Name: "demo", Balance: ether(10), MaxInFlight: 10, MaxFeePerGas: maxFee}
		}, 30, false, 10, "10 sponsored operations in flight"},
		{"daily gas cap of exactly 5 operations", func(c *big.Int) Project {
			return Project{Name: "demo", Balance: ether(10), MaxInFlight: 1000, MaxFeePerGas: maxFee, MaxOpCost: c, DailyGasCap: new(big.Int).Mul(c, big.NewInt(5))}
		}, 15, false, 5, "daily gas cap"},
		{"daily gas cap one wei short of 5 operations", func(c *big.Int) Project {
			limit := new(big.Int).Mul(c, big.NewInt(5))
			return Project{Name: "demo", Balance: ether(10), MaxInFlight: 1000, MaxFeePerGas: maxFee, MaxOpCost: c, DailyGasCap: limit.Sub(limit, big.NewInt(1))}
		}, 15, false, 4, "daily gas cap"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFleet(t, Project{Name: "demo", Balance: ether(10)})
			ops := make([]x402.UserOperation, tc.n)
			one := f.newAccount()
			for i := range ops {
				a := one
				if !tc.sameSender {
					a = f.newAccount()
				}
				ops[i] = unsigned(a, 0, true, f.settleCall(f.chain.Token.Address, 1))
			}
			cost := f.fixedGas(ops, maxFee)
			// The limits depend on the cost, known once the devnet runs:
			// the fleet reloads them, as every replica does on a config
			// change.
			p := tc.project(cost)
			for _, svc := range f.svcs {
				if err := svc.SetProjects([]Project{p}); err != nil {
					t.Fatal(err)
				}
			}

			granted, refused := f.race(ops)
			if len(granted) != tc.want {
				t.Fatalf("%d of %d granted, want %d; refusals: %+v", len(granted), tc.n, tc.want, refused)
			}
			for _, e := range refused {
				if e.Code != codeThrottled || !strings.Contains(e.Message, tc.msg) {
					t.Errorf("refused with %+v, want -32504 (%s)", e, tc.msg)
				}
			}
			for _, op := range granted {
				if c := maxCost(&op); c.Cmp(cost) != 0 {
					t.Errorf("an operation's maximum cost is %s, want %s", c, cost)
				}
			}
			charged := new(big.Int).Mul(cost, big.NewInt(int64(tc.want)))
			u := f.usageEverywhere("demo")
			if u.InFlight != tc.want || u.SpentToday.Cmp(charged) != 0 || u.Balance.Cmp(new(big.Int).Sub(ether(10), charged)) != 0 {
				t.Fatalf("usage %+v, want %d in flight and %s charged", u, tc.want, charged)
			}
			if tc.sameSender {
				l, err := f.svcs[fleetReplicas-1].loadProject("demo")
				if err != nil {
					t.Fatal(err)
				}
				if got := len(l.Senders[common.HexToAddress(ops[0].Sender)]); got != tc.want {
					t.Fatalf("the sender's rate window holds %d operations, want %d", got, tc.want)
				}
			}
		})
	}
}

// A key is one record in the shared store: created on one replica, it
// authorizes on the others; revoked or rotated on one, the others refuse
// it at their next request.
func TestFleetKeys(t *testing.T) {
	t.Parallel()
	f := newFleet(t, Project{Name: "demo", Balance: ether(10)})
	accepts := func(replica int, key string) bool {
		t.Helper()
		res, _ := f.callAt(f.urls[replica], key, "pm_entrypoints")
		switch {
		case res.Error == nil:
			return true
		case res.Error.Code != codePaymasterRejected || !strings.Contains(res.Error.Message, "invalid API key"):
			t.Fatalf("replica %d: %+v, want -32501 invalid API key", replica, res.Error)
		}
		if _, err := f.svcs[replica].Keys().Authorize(key, ScopeRead); !errors.Is(err, ErrInvalidKey) {
			t.Fatalf("replica %d answered a refusal, but its Keys.Authorize says %v", replica, err)
		}
		return false
	}

	secret, rec, err := f.svcs[0].Keys().Create("demo", "testnet", []string{ScopeSponsor})
	if err != nil {
		t.Fatal(err)
	}
	for i := range fleetReplicas {
		if !accepts(i, secret) {
			t.Fatalf("replica %d refuses a key created on replica 0", i)
		}
	}
	op := unsigned(f.newAccount(), 0, true, f.settleCall(f.chain.Token.Address, 1))
	if res, _ := f.callAt(f.urls[2], secret, "pm_sponsor_userop", op, f.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
		t.Fatalf("replica 2 sponsoring with a key of replica 0: %+v", res.Error)
	}

	if err := f.svcs[1].Keys().Revoke(rec.ID); err != nil {
		t.Fatal(err)
	}
	for i := range fleetReplicas {
		if accepts(i, secret) {
			t.Fatalf("replica %d accepts a key revoked on replica 1", i)
		}
	}

	old, oldRec, err := f.svcs[2].Keys().Create("demo", "testnet", []string{ScopeRead})
	if err != nil {
		t.Fatal(err)
	}
	rotated, _, err := f.svcs[0].Keys().Rotate(oldRec.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fleetReplicas {
		if accepts(i, old) {
			t.Fatalf("replica %d accepts a key rotated on replica 0", i)
		}
		if !accepts(i, rotated) {
			t.Fatalf("replica %d refuses the key rotated in on replica 0", i)
		}
	}
	if list, err := f.svcs[1].Keys().List(); err != nil || len(list) != 4 {
		t.Fatalf("replica 1 lists %d keys (%v), want 4: the fleet's sponsor key, the revoked, the rotated and its successor", len(list), err)
	}
}

package paymaster

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/caddy-x402/caddy-x402/x402"
)

// sponsorWith asks the env's paymaster to sponsor op with key, and returns
// the refusal, or nil.
func (e *env) sponsorWith(key string, op x402.UserOperation) *Error {
	e.t.Helper()
	res, _ := e.call(key, "pm_sponsor_userop", op, e.chain.Contracts.EntryPoint.Hex())
	return res.Error
}

// A stored project sponsors nothing until it is topped up, then sponsors
// under its limits as the store holds them at each request: an edit
// applies to the next sponsorship. Its key's last use is recorded.
func TestStoredProjectSponsorship(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := e.svc.CreateProject("shop", "", Limits{}); err != nil {
		t.Fatal(err)
	}
	key, rec, err := e.svc.CreateKey("shop", []string{ScopeSponsor})
	if err != nil {
		t.Fatal(err)
	}
	a, b := e.newAccount(), e.newAccount()
	op := func(acc account) x402.UserOperation {
		return unsigned(acc, 0, true, e.settleCall(e.chain.Token.Address, 1))
	}
	steps := []struct {
		name string
		do   func() error
		op   x402.UserOperation
		// code is the refusal wanted, 0 for a sponsorship; msg is in it.
		code x402.RPCErrorCode
		msg  string
	}{
		{"unfunded", nil, op(a), codePaymasterRejected, "fund the project"},
		{"topped up", func() error { return e.svc.TopUp("shop", ether(10), "first funding") }, op(a), 0, ""},
		{"a second operation of the sender", nil, op(a), 0, ""},
		{"limited to 1 a minute per sender", func() error { return e.svc.EditProject("shop", Limits{TxPerMinute: 1}) }, op(a), codeThrottled, "1 sponsored operations per minute per sender"},
		{"another sender", nil, op(b), 0, ""},
		{"3 in flight", func() error { return e.svc.EditProject("shop", Limits{MaxInFlight: 3}) }, op(e.newAccount()), codeThrottled, "3 sponsored operations in flight"},
	}
	for _, st := range steps {
		if st.do != nil {
			if err := st.do(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		refused := e.sponsorWith(key, st.op)
		switch {
		case st.code == 0 && refused != nil:
			t.Fatalf("%s: refused %+v", st.name, refused)
		case st.code != 0 && (refused == nil || refused.Code != st.code || !strings.Contains(refused.Message, st.msg)):
			t.Fatalf("%s: %+v, want %d (%s)", st.name, refused, st.code, st.msg)
		}
	}

	info, err := e.svc.DescribeProject(context.Background(), "shop")
	if err != nil {
		t.Fatal(err)
	}
	if info.InFlight != 3 || info.SpentToday.Sign() <= 0 || info.Daily[29].Spent.Cmp(info.SpentToday) != 0 ||
		info.Balance.Cmp(new(big.Int).Sub(ether(10), info.SpentToday)) != 0 {
		t.Fatalf("after 3 sponsorships: %+v", info)
	}
	list, err := e.svc.Keys().ListProject("shop")
	if err != nil || len(list) != 1 || list[0].ID != rec.ID || list[0].LastUsed.IsZero() {
		t.Fatalf("the key's last use is not recorded: %+v %v", list, err)
	}
}

// A paymaster serves one network: a key or a project of the other one is
// refused as an invalid key (-32501), on a testnet and on a mainnet
// paymaster alike.
func TestNetworkScope(t *testing.T) {
	t.Parallel()
	for _, network := range []string{NetworkTestnet, NetworkMainnet} {
		t.Run(network, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			if network == NetworkMainnet {
				e.restart(func(c *Config) { c.Network = NetworkMainnet })
			}
			other := NetworkMainnet
			if network == NetworkMainnet {
				other = NetworkTestnet
			}
			ks := e.svc.Keys()
			mustKey := func(project, network string) string {
				t.Helper()
				secret, _, err := ks.Create(project, network, []string{ScopeSponsor})
				if err != nil {
					t.Fatal(err)
				}
				return secret
			}
			for _, p := range []struct{ name, network string }{{"here", network}, {"there", other}} {
				if err := e.svc.CreateProject(p.name, p.network, Limits{}); err != nil {
					t.Fatal(err)
				}
				if err := e.svc.TopUp(p.name, ether(10), ""); err != nil {
					t.Fatal(err)
				}
			}
			stored := func(project string) string {
				t.Helper()
				secret, _, err := e.svc.CreateKey(project, []string{ScopeSponsor})
				if err != nil {
					t.Fatal(err)
				}
				return secret
			}
			tests := []struct {
				name string
				key  string
				// msg is in the refusal; "" for a sponsorship.
				msg string
			}{
				{"a key of the configured project on this network", mustKey("demo", network), ""},
				{"a key of the configured project on the other network", mustKey("demo", other), "belongs to a " + other + " project"},
				{"a stored project on this network", stored("here"), ""},
				{"a stored project on the other network", stored("there"), "invalid API key"},
				{"a key on this network of a project on the other", mustKey("there", network), "is on " + other},
			}
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					refused := e.sponsorWith(tc.key, unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)))
					switch {
					case tc.msg == "" && refused != nil:
						t.Fatalf("refused: %+v", refused)
					case tc.msg != "" && (refused == nil || refused.Code != codePaymasterRejected || !strings.Contains(refused.Message, tc.msg)):
						t.Fatalf("%+v, want -32501 (%s)", refused, tc.msg)
					}
				})
			}
			if _, err := ks.Authorize(mustKey("demo", other), ScopeRead); !errors.Is(err, ErrInvalidKey) || !strings.Contains(err.Error(), "this service is on "+network) {
				t.Fatalf("Keys.Authorize of a key of the other network: %v", err)
			}
		})
	}
}

// Replicas on one PostgreSQL store share the stored projects: one created
// on a replica sponsors on another once topped up, top-ups made at once on
// two replicas all count, an edit on one applies to the next request on
// another, and of replicas creating one name at once exactly one succeeds.
func TestFleetStoredProjects(t *testing.T) {
	t.Parallel()
	f := newFleet(t, Project{Name: "demo", Balance: ether(10)})
	ctx := context.Background()
	if err := f.svcs[0].CreateProject("shop", "", Limits{}); err != nil {
		t.Fatal(err)
	}
	key, _, err := f.svcs[1].CreateKey("shop", []string{ScopeSponsor})
	if err != nil {
		t.Fatal(err)
	}
	a := f.newAccount()
	sponsor := func(replica int, acc account) *Error {
		t.Helper()
		res, _ := f.callAt(f.urls[replica], key, "pm_sponsor_userop", unsigned(acc, 0, true, f.settleCall(f.chain.Token.Address, 1)), f.chain.Contracts.EntryPoint.Hex())
		return res.Error
	}
	if refused := sponsor(2, a); refused == nil || !strings.Contains(refused.Message, "fund the project") {
		t.Fatalf("an unfunded stored project: %+v", refused)
	}

	const perReplica = 25
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, svc := range f.svcs[:2] {
		for range perReplica {
			wg.Go(func() {
				<-start
				if err := svc.TopUp("shop", big.NewInt(1e17), "concurrent"); err != nil {
					t.Error(err)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	want := new(big.Int).Mul(big.NewInt(1e17), big.NewInt(2*perReplica))
	for i, svc := range f.svcs {
		info, err := svc.DescribeProject(ctx, "shop")
		if err != nil {
			t.Fatal(err)
		}
		if info.Funded.Cmp(want) != 0 || len(info.TopUps) != maxTopUps {
			t.Fatalf("replica %d: funded %s with %d top-ups listed; want %s and %d", i, info.Funded, len(info.TopUps), want, maxTopUps)
		}
	}

	if refused := sponsor(2, a); refused != nil {
		t.Fatalf("after the top-ups: %+v", refused)
	}
	if err := f.svcs[0].EditProject("shop", Limits{TxPerMinute: 1}); err != nil {
		t.Fatal(err)
	}
	if refused := sponsor(1, a); refused == nil || refused.Code != codeThrottled || !strings.Contains(refused.Message, "1 sponsored operations per minute") {
		t.Fatalf("a second operation of the sender after the edit on another replica: %+v", refused)
	}

	var created atomic.Int64
	start = make(chan struct{})
	for _, svc := range f.svcs {
		wg.Go(func() {
			<-start
			switch err := svc.CreateProject("race", "", Limits{}); {
			case err == nil:
				created.Add(1)
			case !errors.Is(err, ErrProjectExists):
				t.Error(err)
			}
		})
	}
	close(start)
	wg.Wait()
	if n := created.Load(); n != 1 {
		t.Fatalf("%d replicas created one name", n)
	}
	if err := f.svcs[2].EditProject("demo", Limits{}); !errors.Is(err, ErrConfiguredProject) {
		t.Fatalf("editing the configured project: %v", err)
	}
}

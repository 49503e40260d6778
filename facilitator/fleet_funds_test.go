package facilitator

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// A payer's settlements in flight are counted across a fleet (issue 40,
// item 1): three replicas on one PostgreSQL store and one settler are
// given 21 authorizations of one payer whose balance covers one price.
// The settler sends one transaction, which settles; the other 20 are
// refused before anything is sent. With each replica counting only its
// own settlements in flight, each sent one, and all but one reverted at
// the settler's cost.
func TestFleetPayerFunds(t *testing.T) {
	t.Parallel()
	e, replica := fleetOf(t, "funds_")
	replicas := []*Service{replica(), replica(), replica()}
	const price, payments = 10_000, 21
	payer := e.fundPayer(price)
	merchant := e.chain.Accounts[9].Address
	settler := replicas[0].Settler()
	ctx := context.Background()
	nonce, err := e.eth.PendingNonceAt(ctx, settler)
	if err != nil {
		t.Fatal(err)
	}
	reqs := make([]*x402.VerifyRequest, payments)
	for i := range reqs {
		reqs[i] = e.pay(payer, merchant, price)
	}
	merchantBefore := e.balance(merchant)
	settled := settleAcross(t, replicas, reqs)
	after, err := e.eth.PendingNonceAt(ctx, settler)
	if err != nil {
		t.Fatal(err)
	}
	if settled != 1 || after-nonce != 1 {
		t.Fatalf("%d settled and the settler sent %d transactions for %d authorizations over one price's balance, want 1 and 1", settled, after-nonce, payments)
	}
	if got := e.balance(merchant).Int64() - merchantBefore.Int64(); got != price {
		t.Fatalf("the merchant got %d, want one price", got)
	}
}

// fleetOf stops e's service and returns a maker of replicas of it, each a
// Service with its own connection to one PostgreSQL schema (named with
// prefix) and to e's chain, with e's settler.
func fleetOf(t *testing.T, prefix string) (*env, func() *Service) {
	t.Helper()
	base := pgtest.URL(t, "a fleet test")
	e := newEnv(t, envOptions{})
	e.stop()
	schema := pgtest.Schema(t, base, prefix)
	return e, func() *Service {
		t.Helper()
		st, err := postgres.Open(context.Background(), postgres.Config{URL: base, Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		chain, err := rpc.Dial(e.rpcURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(chain.Close)
		cfg := e.cfg
		cfg.Records, cfg.Journal, cfg.Chain = st, st, chain
		svc, err := New(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svc.Close() })
		return svc
	}
}

// The penalty box holds across a fleet (issue 40, item 1): a payer whose
// settlement reverted on one replica is refused by the others, and by a
// replica started after it. Each replica boxed only the payers its own
// settlements had reverted for.
func TestFleetPenaltyBox(t *testing.T) {
	t.Parallel()
	e, replica := fleetOf(t, "penalty_")
	a, b := replica(), replica()
	const price = 10_000
	merchant := e.chain.Accounts[2].Address
	ctx := context.Background()
	// A wallet that accepts its signature in simulation and burns its gas
	// when mined: its settlement reverts on a.
	w := e.deploy(gaspriceWalletInit, nil)
	e.fundTokens(w, 3*price)
	pay := func() *x402.VerifyRequest {
		junk := make([]byte, 66)
		rand.Read(junk)
		auth := e.newAuth(e.chain.Accounts[1], merchant, price)
		auth.from = w
		return request(e.requirements(merchant, price), auth, junk)
	}
	res, err := a.Settle(ctx, pay())
	if err != nil || res.Success || res.TransactionHash == "" {
		t.Fatalf("the rogue wallet's settlement on a: %+v %v, want reverted on chain", res, err)
	}
	for name, svc := range map[string]*Service{"another replica": b, "a replica started after": replica()} {
		v, err := svc.Verify(ctx, pay())
		if err != nil || v.IsValid || !strings.Contains(v.InvalidMessage, "reverted on chain recently") {
			t.Fatalf("%s: %+v %v, want the payer refused (boxed by a)", name, v, err)
		}
	}
}

// The budget of contract-wallet reverts holds across a fleet (issue 40,
// item 1): with a budget of 2, one rogue wallet's revert on each of two
// replicas spends it, and a third rogue wallet (of yet another code) is
// refused before anything is sent. Each replica counted only its own
// reverts, so a fleet of N spent N budgets.
func TestFleetWalletBudget(t *testing.T) {
	t.Parallel()
	e, replica := fleetOf(t, "wallets_")
	e.cfg.WalletReverts = 2
	a, b := replica(), replica()
	const price = 10_000
	merchant := e.chain.Accounts[2].Address
	ctx := context.Background()
	rogue := func(variant byte) *x402.VerifyRequest {
		init := "0x6019600a5f3960195ff3" + gaspriceWalletInit[len("0x6018600a5f3960185ff3"):] + fmt.Sprintf("%02x", variant)
		w := e.deploy(init, nil)
		e.fundTokens(w, price)
		junk := make([]byte, 66)
		rand.Read(junk)
		auth := e.newAuth(e.chain.Accounts[1], merchant, price)
		auth.from = w
		return request(e.requirements(merchant, price), auth, junk)
	}
	for i, svc := range []*Service{a, b} {
		if res, err := svc.Settle(ctx, rogue(byte(i+1))); err != nil || res.Success || res.TransactionHash == "" {
			t.Fatalf("rogue wallet %d: %+v %v, want reverted on chain", i+1, res, err)
		}
	}
	nonce, _ := e.eth.PendingNonceAt(ctx, a.Settler())
	res, err := a.Settle(ctx, rogue(3))
	if err != nil || res.Success || !strings.Contains(res.Message, "too many of their settlements reverted") {
		t.Fatalf("a third rogue wallet past the fleet's budget: %+v %v, want refused", res, err)
	}
	if after, _ := e.eth.PendingNonceAt(ctx, a.Settler()); after != nonce {
		t.Fatalf("the settler sent %d transactions past the fleet's budget", after-nonce)
	}
}

// settleAcross settles reqs at once, the i-th on replica i mod n, and
// returns how many settled; each other one must be refused by verify
// (verify_failed), never fail otherwise.
func settleAcross(t *testing.T, replicas []*Service, reqs []*x402.VerifyRequest) int {
	t.Helper()
	results := make([]*x402.SettleResponse, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			res, err := replicas[i%len(replicas)].Settle(context.Background(), req)
			if err != nil {
				t.Errorf("settle %d: %v", i, err)
			}
			results[i] = res
		})
	}
	wg.Wait()
	settled := 0
	for i, res := range results {
		switch {
		case res == nil:
		case res.Success:
			settled++
		case res.ErrorCode != x402.ErrorVerifyFailed:
			t.Errorf("settle %d: %+v, want settled or refused (verify_failed)", i, res)
		}
	}
	return settled
}

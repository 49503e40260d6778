package facilitator

import (
	"context"
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
	base := pgtest.URL(t, "the fleet funds test")
	e := newEnv(t, envOptions{})
	e.stop()
	schema := pgtest.Schema(t, base, "funds_")
	replica := func() *Service {
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
	results := make([]*x402.SettleResponse, payments)
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			res, err := replicas[i%len(replicas)].Settle(ctx, req)
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

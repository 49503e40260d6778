package facilitator

import (
	"context"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Two replicas on one PostgreSQL store: while replica a writes the
// response a payment bought, the payment presented to replica b is neither
// valid nor replay but "retry" (a may have died unnoticed); once a has
// written it, b says replay; and if a dies before writing it, b hands the
// payer's retry the receipt.
func TestReplicaAnsweringPayment(t *testing.T) {
	t.Parallel()
	base := pgtest.URL(t, "the replica consume test")
	e := newEnv(t, envOptions{})
	e.stop()
	schema := pgtest.Schema(t, base, "consume_")
	replica := func() (*Service, *postgres.Store) {
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
		return svc, st
	}
	a, aStore := replica()
	b, _ := replica()
	merchant := e.chain.Accounts[9].Address

	for _, dies := range []bool{false, true} {
		req := e.pay(e.chain.Accounts[4], merchant, 700)
		ctx := x402.WithIdempotencyKey(context.Background(), "replica-a")
		if res, err := a.Settle(ctx, req); err != nil || !res.Success {
			t.Fatalf("settle on a: %+v, %v", res, err)
		}
		if v, err := b.Verify(context.Background(), req); !errors.Is(err, ErrUnavailable) || v == nil || v.IsValid {
			t.Fatalf("verify on b while a answers: %+v, %v; want unavailable", v, err)
		}
		if res, err := b.Settle(context.Background(), req); err != nil || res.Success || res.ErrorCode != x402.ErrorInFlight {
			t.Fatalf("settle on b while a answers: %+v, %v; want in_flight", res, err)
		}
		if !dies {
			if err := a.Served(ctx, req); err != nil {
				t.Fatal(err)
			}
			if res, err := b.Settle(context.Background(), req); err != nil || res.Success || res.InvalidReason != x402.ReasonReplay {
				t.Fatalf("settle on b after a answered: %+v, %v; want replay", res, err)
			}
			continue
		}
		a.Close()
		aStore.Close() // its session ends, as when the process dies
		res, err := b.Settle(context.Background(), req)
		if err != nil || !res.Success {
			t.Fatalf("settle on b after a died: %+v, %v; want the receipt", res, err)
		}
	}
}

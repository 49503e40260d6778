package facilitator

import (
	"context"
	"testing"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestNotify: a settle marked WithNotify (the merchant's own paywall, in
// process) is finished into the store's outbox, in the commit that
// settles it; one through the HTTP endpoints (a remote merchant with a
// key) is not, and neither is a settle in process without the mark.
func TestNotify(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[3].Address
	own := e.pay(e.chain.Accounts[1], merchant, 1000)
	if res, err := e.svc.Settle(WithNotify(context.Background()), own); err != nil || !res.Success {
		t.Fatalf("the merchant's own settle: %+v %v", res, err)
	}
	var remote x402.SettleResponse
	if e.post("settle", e.pay(e.chain.Accounts[2], merchant, 1000), &remote); !remote.Success {
		t.Fatalf("a remote merchant's settle: %+v", remote)
	}
	if res, err := e.svc.Settle(context.Background(), e.pay(e.chain.Accounts[4], merchant, 1000)); err != nil || !res.Success {
		t.Fatalf("an unmarked settle: %+v %v", res, err)
	}
	outbox, err := e.st.Bucket(store.OutboxBucket)
	if err != nil {
		t.Fatal(err)
	}
	var told []*store.Record
	err = outbox.ForEach(func(_, v []byte) error {
		rec, err := store.DecodeOutbox(v)
		told = append(told, rec)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || told[0].Payer != e.chain.Accounts[1].Address || told[0].State != store.StateSettled || !told[0].Notify {
		t.Fatalf("the outbox holds %+v; want the merchant's own settlement only", told)
	}
}

package facilitator

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestSettleRecordsTheMerchantsResource: the settlement record names what
// the merchant's side says the payment bought (the settle request's
// resource), in process and from a merchant holding a facilitator key,
// never the resource the payer wrote into its payload; an anonymous
// caller, which may be the payer itself, gets nothing recorded.
func TestSettleRecordsTheMerchantsResource(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	merchant := e.chain.Accounts[2].Address
	e.offers.Add(e.requirements(merchant, 10_000))
	shop := &x402.Resource{URL: "http://shop.test/paid/report?day=1", Description: "the daily report", MimeType: "application/json"}
	long := &x402.Resource{URL: "http://shop.test/" + strings.Repeat("é", 400), Description: strings.Repeat("d", 600)}
	evil := &x402.Resource{URL: "https://evil.example/other", Description: "chosen by the payer"}

	tests := []struct {
		name            string
		send            func(req *x402.SettleRequest) *x402.SettleResponse
		merchant        *x402.Resource
		resource, descr string
	}{
		{"in process", func(req *x402.SettleRequest) *x402.SettleResponse {
			res, _ := e.svc.Settle(context.Background(), req)
			return res
		}, shop, shop.URL, shop.Description},
		{"in process, the merchant silent", func(req *x402.SettleRequest) *x402.SettleResponse {
			res, _ := e.svc.Settle(context.Background(), req)
			return res
		}, nil, "", ""},
		{"a merchant with a key, through Client", func(req *x402.SettleRequest) *x402.SettleResponse {
			res, _ := e.client.Settle(context.Background(), req)
			return res
		}, shop, shop.URL, shop.Description},
		{"a merchant with a key, long text cut", func(req *x402.SettleRequest) *x402.SettleResponse {
			res, _ := e.client.Settle(context.Background(), req)
			return res
		}, long, "http://shop.test/" + strings.Repeat("é", (512-len("http://shop.test/"))/2), strings.Repeat("d", 512)},
		{"anonymous, for one of this server's offers", func(req *x402.SettleRequest) *x402.SettleResponse {
			var res x402.SettleResponse
			if resp := e.postAs("", "", "settle", req, &res); resp.StatusCode != http.StatusOK {
				t.Errorf("anonymous settle: %d", resp.StatusCode)
			}
			return &res
		}, shop, "", ""},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := e.pay(e.chain.Accounts[[]int{1, 3}[i%2]], merchant, 10_000)
			req.PaymentPayload.Resource = evil // what the payer wrote
			req.Resource = tc.merchant
			res := tc.send(req)
			if res == nil || !res.Success {
				t.Fatalf("settle: %+v", res)
			}
			rec := settledRecord(t, e, common.HexToHash(res.TransactionHash))
			if rec.Resource != tc.resource || rec.Description != tc.descr {
				t.Fatalf("recorded resource %q, description %q; want %q, %q", rec.Resource, rec.Description, tc.resource, tc.descr)
			}
		})
	}
}

// settledRecord is the settlement record of transaction tx.
func settledRecord(t *testing.T, e *env, tx common.Hash) *store.Record {
	t.Helper()
	page, err := e.st.List(context.Background(), store.Query{States: []store.State{store.StateSettled}, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range page.Records {
		if r.TxHash == tx {
			return r
		}
	}
	t.Fatalf("no settled record of %s among %d", tx, len(page.Records))
	return nil
}

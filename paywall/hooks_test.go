package paywall_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/paywall"
)

// calls records the hooks a paywall called, in order.
type calls struct {
	mu  sync.Mutex
	got []string
}

func (c *calls) add(format string, args ...any) {
	c.mu.Lock()
	c.got = append(c.got, fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

func (c *calls) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

// hooks records every hook into c; beforeVerify and beforeSettle, when not
// nil, are what the Before hooks return.
func (c *calls) hooks(beforeVerify, beforeSettle error) paywall.Hooks {
	return paywall.Hooks{
		BeforeVerify: func(r *http.Request, e *paywall.Event) error {
			c.add("BeforeVerify %s %s", e.Offer.Scheme, e.Offer.Amount)
			return beforeVerify
		},
		AfterVerify: func(r *http.Request, e *paywall.Event) {
			c.add("AfterVerify valid=%v payer=%s err=%v timed=%v", e.Verify.IsValid, e.Verify.Payer, e.VerifyErr, e.Took > 0)
		},
		BeforeSettle: func(r *http.Request, e *paywall.Event) error {
			c.add("BeforeSettle %s", e.Offer.Amount)
			return beforeSettle
		},
		AfterSettle: func(r *http.Request, e *paywall.Event) {
			c.add("AfterSettle success=%v tx=%s", e.Settle.Success, e.Settle.TransactionHash)
		},
		OnSettleFailure: func(r *http.Request, e *paywall.Event) {
			c.add("OnSettleFailure %s", e.Settle.ErrorCode)
		},
	}
}

// The hooks run in their documented order with what they document, and a
// Before hook that refuses leaves the payer's tokens where they were.
func TestHooks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	token := contracts.NewDevUSD()
	for _, tc := range []struct {
		name                       string
		beforeVerify, beforeSettle error
		spend                      bool // the handler spends the payer's tokens, so settlement fails
		status                     int
		body                       string // a substring of the answer
		upstream                   bool   // the handler ran
		paid                       bool
		want                       []string // {payer} is the payer, {tx} the transaction
	}{
		{
			name: "settled", status: 200, body: "paid content", upstream: true, paid: true,
			want: []string{"BeforeVerify exact 10000", "AfterVerify valid=true payer={payer} err=<nil> timed=true", "BeforeSettle 10000", "AfterSettle success=true tx={tx}"},
		},
		{
			name: "settlement fails", spend: true, status: 402, body: "insufficient balance", upstream: true,
			want: []string{"BeforeVerify exact 10000", "AfterVerify valid=true payer={payer} err=<nil> timed=true", "BeforeSettle 10000", "OnSettleFailure verify_failed"},
		},
		{
			name: "BeforeVerify aborts 429", beforeVerify: &paywall.Abort{Status: 429, Message: "slow down"}, status: 429, body: `{"error":"slow down"}`,
			want: []string{"BeforeVerify exact 10000"},
		},
		{
			name: "BeforeVerify fails without Abort", beforeVerify: errors.New("secret internal detail"), status: 403, body: `{"error":"refused"}`,
			want: []string{"BeforeVerify exact 10000"},
		},
		{
			name: "BeforeSettle aborts 402", beforeSettle: &paywall.Abort{Status: 402, Message: "quota spent"}, status: 402, body: `"error":"quota spent"`, upstream: true,
			want: []string{"BeforeVerify exact 10000", "AfterVerify valid=true payer={payer} err=<nil> timed=true", "BeforeSettle 10000"},
		},
		{
			name: "BeforeSettle aborts out of range", beforeSettle: &paywall.Abort{Status: 200, Message: "free"}, status: 403, body: `{"error":"refused"}`, upstream: true,
			want: []string{"BeforeVerify exact 10000", "AfterVerify valid=true payer={payer} err=<nil> timed=true", "BeforeSettle 10000"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := e.fund(price)
			payer := crypto.PubkeyToAddress(key.PublicKey)
			var rec calls
			var ran atomic.Bool
			srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ran.Store(true)
				if tc.spend {
					e.send(key, e.chain.Token.Address, token.PackTransfer(e.chain.Accounts[8].Address, big.NewInt(price)), nil)
				}
				w.Header().Set("X-Secret", "upstream")
				report(w, r)
			}), func(c *paywall.Config) { c.Hooks = rec.hooks(tc.beforeVerify, tc.beforeSettle) })
			merchantBefore := e.balance(e.merchant)

			resp, body := do(t, srv.URL+"/paid", e.paidHeader(key, e.offer))
			if resp.StatusCode != tc.status || !strings.Contains(body, tc.body) || strings.Contains(body, "secret internal") {
				t.Fatalf("%d %q, want %d with %q", resp.StatusCode, body, tc.status, tc.body)
			}
			if strings.Contains(resp.Header.Get("Content-Type"), "json") && !json.Valid([]byte(body)) {
				t.Fatalf("not JSON: %q", body)
			}
			if !tc.paid && (resp.Header.Get("X-Secret") != "" || strings.Contains(body, "paid content")) {
				t.Fatalf("served unpaid: %q %v", body, resp.Header)
			}
			if ran.Load() != tc.upstream {
				t.Fatalf("handler ran: %v, want %v", ran.Load(), tc.upstream)
			}
			tx := ""
			if receipt, ok, _ := client.Receipt(resp); ok {
				tx = receipt.TransactionHash
			}
			got := new(big.Int).Sub(e.balance(e.merchant), merchantBefore)
			wantPaid := int64(0)
			if tc.paid {
				wantPaid = price
				if r, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(tx)); err != nil || r.Status != 1 {
					t.Fatalf("settlement %s: %v %v", tx, r, err)
				}
			} else if !tc.spend && e.balance(payer).Int64() != price {
				t.Fatalf("payer has %s, want its %d untouched", e.balance(payer), price)
			}
			if got.Int64() != wantPaid {
				t.Fatalf("merchant got %s, want %d", got, wantPaid)
			}
			names := strings.NewReplacer("{payer}", payer.Hex(), "{tx}", tx)
			want := make([]string, len(tc.want))
			for i, w := range tc.want {
				want[i] = names.Replace(w)
			}
			if g := rec.list(); strings.Join(g, "\n") != strings.Join(want, "\n") {
				t.Fatalf("hooks:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

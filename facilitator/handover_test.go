package facilitator

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// A process that died after its paid response may have left, but before
// it recorded it (Served), leaves the payment to its payer's retry: the
// retry is served once, within the payment's validity window, then replay;
// past the window it is replay at once. Each settle runs in process, as
// the paywall's do, and "dies" by a restart without Served.
func TestHandoverAfterCrash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		maxTimeout int // the offer's maxTimeoutSeconds
		validFor   int64
		// expired waits for the payment's validity window to end before
		// the retry.
		expired bool
	}{
		{name: "within the window: one more response", maxTimeout: 60, validFor: 600},
		{name: "within validBefore: one more response", maxTimeout: 600, validFor: 300},
		{name: "past maxTimeoutSeconds: replay at once", maxTimeout: 1, validFor: 600, expired: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envOptions{})
			merchant := e.chain.Accounts[2].Address
			a := e.newAuth(e.chain.Accounts[1], merchant, 1_000)
			a.validBefore = big.NewInt(time.Now().Unix() + tc.validFor)
			reqs := e.requirements(merchant, 1_000)
			reqs.MaxTimeoutSeconds = tc.maxTimeout
			req := request(reqs, a, sign(t, e.chain.Accounts[1].Key, a))
			p, err := e.svc.decode(req)
			if err != nil {
				t.Fatal(err)
			}

			first, err := e.svc.Settle(x402.WithIdempotencyKey(context.Background(), "first"), req)
			if err != nil || !first.Success {
				t.Fatalf("settle: %+v %v", first, err)
			}
			rec, err := e.st.Get(p.key)
			if err != nil || rec == nil {
				t.Fatalf("the record: %+v %v", rec, err)
			}
			want := rec.Created.Add(time.Duration(tc.maxTimeout) * time.Second)
			if vb := time.Unix(a.validBefore.Int64(), 0); vb.Before(want) {
				want = vb
			}
			if !rec.ServeBy.Equal(want) {
				t.Fatalf("ServeBy %v, want %v (created %v, maxTimeoutSeconds %d, validBefore %v)", rec.ServeBy, want, rec.Created, tc.maxTimeout, a.validBefore)
			}
			e.stop() // the process dies: its response may have left, unrecorded
			e.start()
			if tc.expired {
				deadline := time.Now().Add(time.Minute)
				for !time.Now().After(rec.ServeBy) { // the window ends
					if time.Now().After(deadline) {
						t.Fatal("the validity window did not end")
					}
					time.Sleep(50 * time.Millisecond)
				}
			}

			v, err := e.svc.Verify(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			retry, _ := e.svc.Settle(x402.WithIdempotencyKey(context.Background(), "retry-1"), req)
			if tc.expired {
				if v.IsValid || v.InvalidReason != x402.ReasonReplay || retry.Success || retry.InvalidReason != x402.ReasonReplay {
					t.Fatalf("a retry past the window: verify %+v, settle %+v; want replay", v, retry)
				}
			} else if !v.IsValid || !retry.Success || retry.TransactionHash != first.TransactionHash {
				t.Fatalf("the retry within the window: verify %+v, settle %+v; want the receipt", v, retry)
			}
			if got, _ := e.st.Get(p.key); got.Handovers != map[bool]int{true: 0, false: 1}[tc.expired] {
				t.Fatalf("handovers %d after the retry", got.Handovers)
			}

			e.stop() // the retry's process dies too, unrecorded
			e.start()
			var again x402.SettleResponse
			e.postAs(testSettleKey, "retry-2", "settle", req, &again)
			if again.Success || !strings.Contains(again.Message, "replay") {
				t.Fatalf("a second retry after a second crash: %+v; want replay", again)
			}
			if v, err := e.svc.Verify(context.Background(), req); err != nil || v.IsValid || v.InvalidReason != x402.ReasonReplay {
				t.Fatalf("verify after the handover: %+v %v; want replay", v, err)
			}
		})
	}
}

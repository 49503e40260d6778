package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/channels/channelstest"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/x402"
)

// dieAfterChannelFlush is the environment of a replica that dies between
// a voucher-paid response and its charge's commit.
const dieAfterChannelFlush = "X402_FAULT=channel-after-flush"

// TestChannelCrashAfterResponse: a fleet of two replicas on PostgreSQL
// takes batch-settlement payments at /tool. Replica a serves a voucher
// and is killed (SIGKILL, the x402faults build) after its response left
// and before its charge was committed, holding the channel. The payer,
// told the charge by that response, pays its next call on replica b at
// once: the channel is not kept busy by the dead replica, the dead
// request's charge is committed (the payer's voucher builds on it), and
// the channel has charged exactly what was served. A replay of the dead
// request's voucher gets the corrective 402.
func TestChannelCrashAfterResponse(t *testing.T) {
	t.Parallel()
	f := newFleet(t)
	f.channels = true
	bin := faultyCaddy(t)
	b := f.startWith("b", bin)
	a := f.startWith("a", bin, dieAfterChannelFlush)

	resp, err := http.Get(b.url + "/tool")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 1 || pr.Accepts[0].Scheme != x402.SchemeBatchSettlement {
		t.Fatalf("the 402: %v %+v", err, pr)
	}
	d := f.chain
	payer := channelstest.New(d.Accounts[4].Key, pr.Accepts[0], batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement), d.Contracts.ERC3009DepositCollector,
		contracts.TokenDomain{Name: d.Token.Name, Version: d.Token.Version, ChainID: d.ChainID, Token: d.Token.Address})
	header := func(typ string, max, deposit int64) string {
		t.Helper()
		h, err := payer.Header(typ, max, deposit, 0)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	paid := func(r *replica, h, what string) outcome {
		t.Helper()
		o := presentAt(r, "/tool", h)
		if o.err != nil || o.status != http.StatusOK || !strings.Contains(o.body, "tool answer "+r.name) {
			t.Fatalf("%s on %s: %+v", what, r.name, o)
		}
		return o
	}
	paid(b, header("deposit", 100, 1000), "the deposit")
	paid(a, header("voucher", 200, 0), "the voucher that a dies after serving")
	select {
	case <-a.done:
	case <-time.After(time.Minute):
		t.Fatal("replica a did not die after its flush within a minute")
	}
	// The next call builds on the charge a's response told: served at
	// once on b, though a's hold has not expired.
	paid(b, header("voucher", 300, 0), "the next call")
	o := presentAt(b, "/tool", header("voucher", 200, 0))
	if o.status != http.StatusPaymentRequired || !strings.Contains(o.body, "cumulative_amount_mismatch") || !strings.Contains(o.body, `"chargedCumulativeAmount":"300"`) {
		t.Fatalf("a replay of the dead request's voucher: %+v", o)
	}
}

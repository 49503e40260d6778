package main

import (
	"fmt"
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

// TestChannelFleetRace: two replicas on PostgreSQL, one payer sending
// each voucher to both at once. Every round, exactly one replica serves
// it and the other refuses it (busy, or the voucher is already spent:
// the corrective 402); the channel's charged total grows by one price a
// round, as the served responses say.
func TestChannelFleetRace(t *testing.T) {
	t.Parallel()
	f := newFleet(t)
	f.channels = true
	replicas := []*replica{f.start("a"), f.start("b")}
	resp, err := http.Get(replicas[0].url + "/tool")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 1 {
		t.Fatalf("the 402: %v", err)
	}
	d := f.chain
	payer := channelstest.New(d.Accounts[5].Key, pr.Accepts[0], batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement), d.Contracts.ERC3009DepositCollector,
		contracts.TokenDomain{Name: d.Token.Name, Version: d.Token.Version, ChainID: d.ChainID, Token: d.Token.Address})
	h, err := payer.Header("deposit", 100, 10_000, 0)
	if err != nil {
		t.Fatal(err)
	}
	if o := presentAt(replicas[0], "/tool", h); o.status != http.StatusOK {
		t.Fatalf("the deposit: %+v", o)
	}
	const rounds = 8
	for round := 2; round <= rounds+1; round++ {
		h, err := payer.Header("voucher", int64(100*round), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var outcomes [2]outcome
		done := make(chan int, 2)
		for i, r := range replicas {
			go func() {
				outcomes[i] = presentAt(r, "/tool", h)
				done <- i
			}()
		}
		<-done
		<-done
		served := 0
		for i, o := range outcomes {
			switch {
			case o.status == http.StatusOK && strings.Contains(o.body, "tool answer"):
				served++
			case o.status == http.StatusPaymentRequired && (strings.Contains(o.body, "channel_busy") || strings.Contains(o.body, "cumulative_amount_mismatch")):
			default:
				t.Fatalf("round %d, replica %s: %+v", round, replicas[i].name, o)
			}
		}
		if served != 1 {
			t.Fatalf("round %d: the voucher was served %d times, want once: %+v", round, served, outcomes)
		}
		// The next voucher builds on this one's charge: wait (bounded)
		// until no request holds the channel, which a replay shows.
		deadline := time.Now().Add(20 * time.Second)
		for {
			o := presentAt(replicas[round%2], "/tool", h)
			if o.status == http.StatusPaymentRequired && strings.Contains(o.body, fmt.Sprintf(`"chargedCumulativeAmount":"%d"`, 100*round)) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the channel did not show %d charged within 20 s: %+v", round, 100*round, o)
			}
			time.Sleep(50 * time.Millisecond) // waiting for the served request's commit
		}
	}
}

package facilitator

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// BenchmarkSettleSteps settles distinct exact payments one after another on
// a devnet that seals on demand, and reports the median of each step of a
// settle, read from its spans: the verification before the claim, the
// store writes, the gas estimate, signing, sending and the receipt wait.
// It is the per-step table of docs/performance.md:
//
//	go test -run '^$' -bench SettleSteps -benchtime 100x ./facilitator/
//
// The service talks to the devnet over HTTP, as to a real chain's RPC, and
// in process, as Caddy does with its embedded devnet.
func BenchmarkSettleSteps(b *testing.B) {
	b.Run("http", func(b *testing.B) { benchSettleSteps(b, false) })
	b.Run("in-process", func(b *testing.B) { benchSettleSteps(b, true) })
}

func benchSettleSteps(b *testing.B, inProcess bool) {
	e := newEnvB(b, envOptions{inProcess: inProcess})
	log, tracer := newSpanLog()
	merchant := e.chain.Accounts[9].Address
	steps := map[string][]time.Duration{}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		paceDevnet(b, e)
		req := e.pay(e.chain.Accounts[1+i%8], merchant, 100)
		log.mu.Lock()
		log.spans = log.spans[:0]
		log.mu.Unlock()
		b.StartTimer()
		ctx, root := tracer.Start(context.Background(), "bench")
		res, err := e.svc.Settle(ctx, req)
		root.End()
		b.StopTimer()
		if err != nil || !res.Success {
			b.Fatalf("settle %d: %+v, %v", i, res, err)
		}
		log.mu.Lock()
		for name, d := range settleSteps(log.spans) {
			steps[name] = append(steps[name], d)
		}
		log.mu.Unlock()
		b.StartTimer()
	}
	b.StopTimer()
	var table strings.Builder
	for _, name := range []string{"settle", "verify", "claim", "estimate", "sign", "store submitted", "store claimed+submitted", "send", "submit", "receipt", "store settled"} {
		ds := steps[name]
		if len(ds) == 0 {
			continue
		}
		slices.Sort(ds)
		p50 := ds[len(ds)/2]
		fmt.Fprintf(&table, "\n%-16s p50 %6.2f ms  p90 %6.2f ms", name, ms(p50), ms(ds[len(ds)*9/10]))
		b.ReportMetric(ms(p50), strings.ReplaceAll(name, " ", "-")+"-p50-ms")
	}
	b.Log(table.String())
}

// paceDevnet waits while the devnet's clock runs more than 10 s ahead of
// the wall clock. A settlement on a devnet that seals on demand gets a
// block of its own, a second after its parent in chain time; the devnet
// seals at once only while its clock is less than devnet.MaxClockLead
// ahead, so back-to-back settlements beyond that would measure the
// devnet's pacing (one block a second) instead of the facilitator.
func paceDevnet(b *testing.B, e *env) {
	for {
		head, err := e.eth.HeaderByNumber(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		lead := time.Until(time.Unix(int64(head.Time), 0))
		if lead < 10*time.Second {
			return
		}
		time.Sleep(lead)
	}
}

// settleSteps is the duration of each step of the settle whose spans are
// spans, by step name; "verify" is the time from the settle's start to
// its first step.
func settleSteps(spans []sdktrace.ReadOnlySpan) map[string]time.Duration {
	out := map[string]time.Duration{}
	var settle sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == spanSettle {
			settle = s
		}
	}
	if settle == nil {
		return out
	}
	first := settle.EndTime()
	for _, s := range spans {
		name := strings.TrimPrefix(s.Name(), "x402.facilitator.")
		if s.Name() == spanStore {
			for _, a := range s.Attributes() {
				if a.Key == attrState {
					name += " " + a.Value.AsString()
				}
			}
		}
		if s.Parent().SpanID() == settle.SpanContext().SpanID() && s.StartTime().Before(first) {
			first = s.StartTime()
		}
		out[name] += s.EndTime().Sub(s.StartTime())
	}
	out["verify"] = first.Sub(settle.StartTime())
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

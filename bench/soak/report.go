package main

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Leak thresholds. Under load the figures move with the requests in flight
// at the moment of a sample, and the Go heap and Caddy's connection pools
// take a while to reach their steady state, so growth is judged in the
// second half of the run, against the noise of a steady state: from the
// middle sample to the end, memory must not grow by more than rssGrowth
// (or rssSlackKB); the median goroutine count of the last third of the
// samples must not exceed that of the middle third by more than
// goroutineGrowth (or goroutineSlack). Memory is Caddy's RSS less the
// pages of its bbolt store mapped in memory: the store is a file that
// grows with every payment recorded, by design, and its mapped pages are
// page cache the kernel can take back. After the load, goroutines and
// file descriptors must come back to within idleSlack of the idle state
// before it, once idle connections have timed out (drain waits at most
// maxIdleWait for them to come within idleBack).
const (
	rssGrowth       = 0.10
	rssSlackKB      = 16 << 10
	goroutineGrowth = 0.20
	goroutineSlack  = 50
	idleSlack       = 20
	idleBack        = 5 // what drain waits for, before judging with idleSlack
	maxIdleWait     = 3 * time.Minute
)

// invariant is one check of the summary.
type invariant struct {
	ok     bool
	name   string
	detail string
}

var schemes = []string{x402.SchemeExact, x402.SchemeAANative}

// report prints the summary as Markdown and reports whether every
// invariant held.
func (d *driver) report(w io.Writer, c *chainCheck) bool {
	var inv []invariant
	check := func(ok bool, name, format string, args ...any) {
		inv = append(inv, invariant{ok: ok, name: name, detail: fmt.Sprintf(format, args...)})
	}
	ran := time.Duration(0)
	if len(d.samples) > 0 {
		ran = d.samples[len(d.samples)-1].at
	}
	fmt.Fprintf(w, "\n## Soak run: %s, %d workers, %.0f operations/s offered\n\n", d.cfg.Duration, d.cfg.Concurrency, d.cfg.Rate)
	fmt.Fprintf(w, "Commit %s; dev chain %s; %d exact payers (EOAs), %d aa-native smart accounts; price %s atomic units; blocks %d–%d; mix %s.\n",
		orNone(d.cfg.Commit), d.cfg.Devnet, len(d.exact), len(d.aaAll), d.amount, c.fromBlock, c.toBlock, mixString(d.cfg.Mix))

	// The Caddy process over time.
	fmt.Fprintf(w, "\n### Caddy process (pid %d)\n\n", d.cfg.CaddyPID)
	fmt.Fprintln(w, "| sample | at | RSS MiB | anon MiB | file MiB | store mmap MiB | Go heap MiB | goroutines | threads | fds | req/s | paid/s | paid p50 | paid p99 | devnet RSS MiB |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	rows := append([]sample{d.idle[0]}, d.samples...)
	rows = append(rows, d.idle[1])
	for _, s := range rows {
		var lat []time.Duration
		for _, l := range s.paid {
			lat = append(lat, l.took)
		}
		at := "-"
		if s.at > 0 {
			at = s.at.Round(time.Second).String()
		}
		reqs, paid, p50, p99 := "-", "-", "-", "-"
		if s.interval > 0 {
			reqs = fmt.Sprintf("%.1f", perSecond(s.requests, s.interval))
			paid = fmt.Sprintf("%.1f", perSecond(len(s.paid), s.interval))
			p50, p99 = ms(percentile(lat, 50)), ms(percentile(lat, 99))
		}
		label := s.label
		if label == "" {
			label = "·"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %.1f | %d | %d | %d | %s | %s | %s | %s | %s |\n",
			label, at, mib(s.rssKB), mib(s.anonKB), mib(s.fileKB), mib(s.storeKB), s.heapInuse/(1<<20), s.goroutines, s.threads, s.fds, reqs, paid, p50, p99, mib(s.devnetRSSKB))
	}
	for _, s := range rows {
		if s.err != nil {
			fmt.Fprintf(w, "\nSample %q could not be read fully: %v\n", s.label, s.err)
		}
	}

	// Requests by kind and status.
	t := d.tally
	t.mu.Lock()
	var statuses []int
	for _, byStatus := range t.status {
		for st := range byStatus {
			if !slices.Contains(statuses, st) {
				statuses = append(statuses, st)
			}
		}
	}
	slices.Sort(statuses)
	fmt.Fprintf(w, "\n### Requests by kind and status (%d operations, %.1f/s; %d requests, %.1f/s; in %s)\n\n",
		t.ops, perSecond(t.ops, ran), sumAll(t.status), perSecond(sumAll(t.status), ran), ran.Round(time.Second))
	header, align := "| kind | expected | total |", "|---|---|--:|"
	for _, st := range statuses {
		name := fmt.Sprint(st)
		if st == 0 {
			name = "no answer"
		}
		header += " " + name + " |"
		align += "--:|"
	}
	fmt.Fprintln(w, header+" 503 retried | unexpected |")
	fmt.Fprintln(w, align+"--:|--:|")
	unexpected, fiveXX := 0, 0
	for _, k := range kinds {
		byStatus := t.status[k.name]
		total := 0
		row := ""
		for _, st := range statuses {
			total += byStatus[st]
			row += fmt.Sprintf(" %d |", byStatus[st])
			if st >= 500 && k.name != kindFault {
				fiveXX += byStatus[st]
			}
		}
		if k.name != kindRace {
			fiveXX += t.retried[k.name]
		}
		unexpected += t.bad[k.name]
		fmt.Fprintf(w, "| %s | %s | %d |%s %d | %d |\n", k.name, k.expect, total, row, t.retried[k.name], t.bad[k.name])
	}
	var examples []string
	for _, k := range kinds {
		for _, e := range t.examples[k.name] {
			examples = append(examples, fmt.Sprintf("- %s: %s", k.name, e))
		}
	}
	t.mu.Unlock()
	if len(examples) > 0 {
		fmt.Fprintf(w, "\nUnexpected answers (first of each kind):\n\n%s\n", strings.Join(examples, "\n"))
	}
	check(unexpected == 0, "every answer as expected for its kind", "%d unexpected", unexpected)
	check(fiveXX == 0, "no 5xx but the deliberate upstream faults", "%d other 5xx (503s retried included)", fiveXX)

	// Settlement.
	l := d.ledger
	l.mu.Lock()
	defer l.mu.Unlock()
	mctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := d.metrics(mctx)
	settledMetric := map[string]float64{}
	if err == nil {
		for _, s := range schemes {
			settledMetric[s] = m.sum("caddy_x402_payments_total", map[string]string{"result": "settled", "scheme": s})
		}
	}
	fmt.Fprintln(w, "\n### Settlement\n\n| | exact | aa-native |\n|---|--:|--:|")
	type perScheme struct {
		events, once, wrongTx, missing, orphanUnknown, orphanRefused, orphanOther int
	}
	res := map[string]*perScheme{}
	for _, s := range schemes {
		r := &perScheme{}
		res[s] = r
		for id, txs := range c.events[s] {
			r.events += len(txs)
			if _, ok := l.ok[s][id]; ok {
				continue
			}
			switch {
			case l.unknowns[s][id]:
				r.orphanUnknown++
			case l.refused[s][id]:
				r.orphanRefused++
			default:
				r.orphanOther++
			}
		}
		for id, sp := range l.ok[s] {
			txs := c.events[s][id]
			switch {
			case len(txs) == 0:
				r.missing++
			case len(txs) == 1 && txs[0] == sp.tx:
				r.once++
			case len(txs) == 1:
				r.wrongTx++
			}
		}
	}
	line := func(name string, f func(s string) string) {
		fmt.Fprintf(w, "| %s | %s | %s |\n", name, f(x402.SchemeExact), f(x402.SchemeAANative))
	}
	line("paid responses (200 + PAYMENT-RESPONSE)", func(s string) string { return fmt.Sprint(l.responses[s]) })
	line("settlement events on chain (exact: AuthorizationUsed; aa-native: Settled)", func(s string) string { return fmt.Sprint(res[s].events) })
	line("Transfer events to pay_to", func(s string) string { return fmt.Sprint(c.transfers[s]) })
	line("served payments on chain exactly once, in their receipt's transaction", func(s string) string { return fmt.Sprint(res[s].once) })
	line("served payments not on chain", func(s string) string { return fmt.Sprint(res[s].missing) })
	line("on chain, not served: outcome unknown to the payer / refused / other", func(s string) string {
		return fmt.Sprintf("%d / %d / %d", res[s].orphanUnknown, res[s].orphanRefused, res[s].orphanOther)
	})
	line(`Caddy's caddy_x402_payments_total{result="settled"}`, func(s string) string { return fmt.Sprint(settledMetric[s]) })
	var lines map[bool]map[string]int
	var logErr error
	if d.cfg.PaymentsLog != "" {
		lines, logErr = logged(d.cfg.PaymentsLog)
		if logErr == nil {
			line(`"x402 settlement" log lines: success / failure`, func(s string) string { return fmt.Sprintf("%d / %d", lines[true][s], lines[false][s]) })
		}
	}
	line("settlement transactions (aa-native: bundles)", func(s string) string { return fmt.Sprint(c.txs[s]) })
	line("refused payments (faults, bad signatures), none may settle", func(s string) string { return fmt.Sprint(len(l.refused[s])) })

	served := l.responses[x402.SchemeExact] + l.responses[x402.SchemeAANative]
	wantMerchant := new(big.Int).Mul(d.amount, big.NewInt(int64(served)))
	payersOK, payersBad := 0, []string{}
	for p, drop := range c.payerDrops {
		want := new(big.Int).Mul(d.amount, big.NewInt(int64(l.perPayer[p.addr])))
		if drop.Cmp(want) == 0 {
			payersOK++
		} else if len(payersBad) < 5 {
			payersBad = append(payersBad, fmt.Sprintf("%s (%s) paid %d, balance dropped by %s", p.addr, p.scheme, l.perPayer[p.addr], drop))
		}
	}
	perPayment := "-"
	if served > 0 {
		perPayment = new(big.Int).Div(c.settlerSpent, big.NewInt(int64(served))).String()
	}
	fmt.Fprintf(w, "\nMerchant balance +%s (%d payments × %s). Payers whose balance dropped by exactly their payments × price: %d of %d. Settler gas: %s wei (%s per payment). Failed user operations: %d.\n",
		c.merchantDelta, served, d.amount, payersOK, len(c.payerDrops), c.settlerSpent, perPayment, c.failedOps)
	for _, b := range payersBad {
		fmt.Fprintf(w, "- %s\n", b)
	}
	for _, s := range schemes {
		r := res[s]
		check(l.responses[s] > 0, s+": payments were served", "%d", l.responses[s])
		check(l.responses[s] == r.events && r.events == c.transfers[s], s+": paid responses = settlement events = transfers",
			"%d = %d = %d", l.responses[s], r.events, c.transfers[s])
		check(r.once == len(l.ok[s]) && r.once == l.responses[s], s+": each served payment on chain once, in its receipt's transaction",
			"%d of %d (missing %d, in another transaction %d)", r.once, l.responses[s], r.missing, r.wrongTx)
		check(r.orphanUnknown+r.orphanRefused+r.orphanOther == 0, s+": nothing settled that was not served",
			"unknown %d, refused %d, other %d", r.orphanUnknown, r.orphanRefused, r.orphanOther)
		if err == nil {
			check(settledMetric[s] == float64(l.responses[s]), s+": Caddy's settled counter = paid responses", "%v = %d", settledMetric[s], l.responses[s])
		}
		if lines != nil {
			check(lines[true][s] == l.responses[s], s+": successful settlement log lines = paid responses", "%d = %d", lines[true][s], l.responses[s])
		}
	}
	if logErr != nil {
		check(false, "reading the payments log", "%v", logErr)
	}
	check(c.strayTransfers == 0, "no transfer to pay_to from anyone but the payers", "%d", c.strayTransfers)
	check(c.merchantDelta.Cmp(wantMerchant) == 0, "merchant balance = payments × price", "+%s, want +%s", c.merchantDelta, wantMerchant)
	check(payersOK == len(c.payerDrops), "each payer's balance dropped by its payments × price", "%d of %d", payersOK, len(c.payerDrops))

	// Latency of the paid requests that were served.
	fmt.Fprintln(w, "\n### Paid requests served (the PAYMENT-SIGNATURE request: verify, upstream, settle)\n\n| scheme | served | p50 | p90 | p99 | max |\n|---|--:|--:|--:|--:|--:|")
	all, _ := d.lat.since(0)
	for _, s := range schemes {
		var ds []time.Duration
		for _, x := range all {
			if x.scheme == s {
				ds = append(ds, x.took)
			}
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s |\n", s, len(ds), ms(percentile(ds, 50)), ms(percentile(ds, 90)), ms(percentile(ds, 99)), ms(percentile(ds, 100)))
	}

	// Leaks.
	if n := len(d.samples); n >= 3 {
		start, middle, end := d.samples[0], d.samples[(d.cfg.Samples-1)/2], d.samples[n-1]
		if n < d.cfg.Samples {
			middle = d.samples[n/2]
		}
		for _, mem := range []struct {
			name               string
			start, middle, end int64
		}{
			{"RSS less the store's mapped pages", start.rssKB - start.storeKB, middle.rssKB - middle.storeKB, end.rssKB - end.storeKB},
			{"RssAnon", start.anonKB, middle.anonKB, end.anonKB},
		} {
			limit := max(int64(float64(mem.middle)*rssGrowth), rssSlackKB)
			check(mem.end-mem.middle <= limit, mem.name+": no growth in the second half beyond noise",
				"start %s, middle %s, end %s MiB (second half %+.1f MiB, limit %+.1f)", mib(mem.start), mib(mem.middle), mib(mem.end),
				float64(mem.end-mem.middle)/1024, float64(limit)/1024)
		}
		third := max(1, n/3)
		mid, last := medianGoroutines(d.samples[third:n-third]), medianGoroutines(d.samples[n-third:])
		limit := max(int(float64(mid)*goroutineGrowth), goroutineSlack)
		check(last-mid <= limit, "goroutines under load: no growth in the second half beyond noise",
			"start %d, middle %d, end %d; median of the middle third %d, of the last third %d (limit %+d)",
			start.goroutines, middle.goroutines, end.goroutines, mid, last, limit)
	} else {
		check(false, "leak samples", "only %d samples under load (the run was cut short)", n)
	}
	before, after := d.idle[0], d.idle[1]
	idleOK := after.goroutines <= before.goroutines+idleSlack && after.fds <= before.fds+idleSlack
	check(idleOK, "idle after the load: goroutines and fds back near the idle state before it",
		"goroutines %d → %d, fds %d → %d (slack %d for pooled idle connections), %s after the load",
		before.goroutines, after.goroutines, before.fds, after.fds, idleSlack, d.idleWait.Round(time.Second))

	fmt.Fprint(w, "\n### Invariants\n\n")
	okAll := true
	for _, i := range inv {
		mark := "PASS"
		if !i.ok {
			mark, okAll = "FAIL", false
		}
		fmt.Fprintf(w, "- %s %s: %s\n", mark, i.name, i.detail)
	}
	verdict := "PASS: every invariant held"
	if !okAll {
		verdict = "FAIL: an invariant did not hold"
	}
	fmt.Fprintf(w, "\n**%s.**\n", verdict)
	return okAll
}

func medianGoroutines(s []sample) int {
	var g []int
	for _, x := range s {
		g = append(g, x.goroutines)
	}
	slices.Sort(g)
	return g[len(g)/2]
}

func sumAll(m map[string]map[int]int) int {
	n := 0
	for _, byStatus := range m {
		for _, c := range byStatus {
			n += c
		}
	}
	return n
}

func ms(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

func mixString(m mix) string {
	var parts []string
	for _, o := range ops {
		if m[o] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", o, m[o]))
		}
	}
	return strings.Join(parts, ",")
}

func orNone(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

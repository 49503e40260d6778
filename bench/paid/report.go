package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/devnet"
)

// latencies are the sorted durations of a set of requests.
type latencies []time.Duration

func sorted(ds []time.Duration) latencies {
	slices.Sort(ds)
	return ds
}

// q is the q-quantile (nearest rank); 0 for no samples.
func (l latencies) q(q float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	i := int(q*float64(len(l))+0.5) - 1
	return l[min(max(i, 0), len(l)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }

// took is the durations of the successful requests of a phase, paid or
// free.
func (d *driver) took(ph phase, paid bool) latencies {
	var ds []time.Duration
	for _, s := range d.samples {
		if s.phase == ph && s.paid == paid && s.err == nil {
			ds = append(ds, s.took)
		}
	}
	return sorted(ds)
}

// report prints the Markdown summary and tells whether the run passed.
func (d *driver) report(w io.Writer, c *chainCheck, br *breakdown, st *steps) bool {
	var failures []string
	for _, s := range d.samples {
		if s.err != nil {
			kind := "free"
			if s.paid {
				kind = "paid"
			}
			failures = append(failures, fmt.Sprintf("%s request %s: %v", kind, s.id, s.err))
		}
	}
	ok := len(failures) == 0 && len(c.failed) == 0 && c.duplicates == 0 && len(c.balanceErr) == 0

	fmt.Fprintf(w, "## Paid requests through Caddy on the embedded devnet\n\n")
	if d.cfg.Commit != "" {
		fmt.Fprintf(w, "Commit %s. ", d.cfg.Commit)
	}
	fmt.Fprintf(w, "%s, %s/%s, %d CPUs, load average %s at the start, %s at the end.\n",
		time.Now().Format(time.DateTime), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), d.loadStart, loadavg())
	fmt.Fprintf(w, "Offer: exact, %s atomic units of %s. Interval %v ±%.0f%%; requests waited while the chain's clock led the wall clock by %v or more (%v in all); its largest lead was %v (the devnet paces its blocks past %v).\n\n",
		d.offer.Amount, d.offer.Asset, d.cfg.Interval, 100*d.cfg.Jitter, d.cfg.MaxLead, d.paced.Round(time.Millisecond), d.maxLead.Round(time.Millisecond), devnet.MaxClockLead)

	fmt.Fprintf(w, "| one at a time | n | p50 ms | p90 ms | p99 ms | max ms |\n|---|---|---|---|---|---|\n")
	paid, free := d.took(phaseSequential, true), d.took(phaseSequential, false)
	row(w, "paid (PAYMENT-SIGNATURE → 200 + PAYMENT-RESPONSE)", paid)
	row(w, "free (same upstream)", free)
	if len(paid) > 0 && len(free) > 0 {
		fmt.Fprintf(w, "\nPaid p50 %s ms against free p50 %s ms: **+%s ms**, **%.1f×**.\n",
			ms(paid.q(.5)), ms(free.q(.5)), ms(paid.q(.5)-free.q(.5)), float64(paid.q(.5))/float64(free.q(.5)))
	}

	if cp := d.took(phaseConcurrent, true); len(cp) > 0 {
		cf := d.took(phaseConcurrent, false)
		fmt.Fprintf(w, "\n| %d at once | n | p50 ms | p90 ms | p99 ms | max ms |\n|---|---|---|---|---|---|\n", d.cfg.Concurrency)
		row(w, "paid", cp)
		row(w, "free", cf)
		fmt.Fprintf(w, "\nBlocks per batch of %d paid requests: %s.\n", d.cfg.Concurrency, d.blocksPerBatch(c))
	}

	if br != nil {
		br.write(w)
	}
	if st != nil {
		st.write(w)
	}

	fmt.Fprintf(w, "\n### Checks\n\n")
	check := func(pass bool, what, detail string) {
		mark := "ok"
		if !pass {
			mark = "**FAILED**"
		}
		fmt.Fprintf(w, "- %s: %s (%s)\n", what, mark, detail)
	}
	nPaid := 0
	for _, s := range d.samples {
		if s.paid {
			nPaid++
		}
	}
	check(len(failures) == 0, "every answer 200, every paid one with a settled PAYMENT-RESPONSE",
		fmt.Sprintf("%d requests, %d paid, %d failed", len(d.samples), nPaid, len(failures)))
	check(len(c.failed) == 0 && c.duplicates == 0, "a successful receipt for each paid answer's transaction, no transaction named twice",
		fmt.Sprintf("%d transactions in %d blocks, %d receipts missing or reverted, %d named twice", len(c.blocks), distinctBlocks(c.blocks), len(c.failed), c.duplicates))
	check(len(c.balanceErr) == 0, "payers and merchant moved by the price of each paid answer",
		fmt.Sprintf("%d payers", len(d.payers)))
	for _, l := range slices.Concat(failures, c.failed, c.balanceErr) {
		fmt.Fprintf(w, "  - %s\n", l)
	}
	return ok
}

func row(w io.Writer, name string, l latencies) {
	var top time.Duration
	if len(l) > 0 {
		top = l[len(l)-1]
	}
	fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s |\n", name, len(l), ms(l.q(.5)), ms(l.q(.9)), ms(l.q(.99)), ms(top))
}

// blocksPerBatch says how many blocks each concurrent batch's transactions
// went into, as "1 (17 batches), 2 (3 batches)".
func (d *driver) blocksPerBatch(c *chainCheck) string {
	per := map[int]map[uint64]bool{}
	for _, s := range d.samples {
		if s.phase != phaseConcurrent || !s.paid {
			continue
		}
		if n, ok := c.blocks[s.tx]; ok {
			if per[s.batch] == nil {
				per[s.batch] = map[uint64]bool{}
			}
			per[s.batch][n] = true
		}
	}
	count := map[int]int{}
	for _, blocks := range per {
		count[len(blocks)]++
	}
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(count)) {
		parts = append(parts, fmt.Sprintf("%d (%d batches)", n, count[n]))
	}
	return strings.Join(parts, ", ")
}

func distinctBlocks(m map[common.Hash]uint64) int {
	seen := map[uint64]bool{}
	for _, n := range m {
		seen[n] = true
	}
	return len(seen)
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// breakdown splits the sequential paid requests' time by what Caddy's logs
// say of each: the server's time (the access log's duration), the
// settlement's (the "x402 settlement" line's took), and what is left.
type breakdown struct {
	n                                 int
	client, server, settle, rest, out latencies
}

// breakdown matches the sequential paid requests with their access log
// lines (by X-Bench-Id) and settlement lines (by transaction).
func (d *driver) breakdown(accessLog, paymentsLog string) (*breakdown, error) {
	server := map[string]time.Duration{}
	err := eachLine(accessLog, func(l logLine) {
		if ids := l.Request.Headers[headerBenchID]; len(ids) == 1 && l.Duration != nil {
			server[ids[0]] = *l.Duration
		}
	})
	if err != nil {
		return nil, err
	}
	settle := map[common.Hash]time.Duration{}
	err = eachLine(paymentsLog, func(l logLine) {
		if l.Msg == "x402 settlement" && l.Took != nil && len(l.Tx) == 2+2*common.HashLength {
			settle[common.HexToHash(l.Tx)] = *l.Took
		}
	})
	if err != nil {
		return nil, err
	}
	var client, srv, st, rest, out []time.Duration
	for _, s := range d.samples {
		if s.phase != phaseSequential || !s.paid || s.err != nil {
			continue
		}
		sv, ok1 := server[s.id]
		se, ok2 := settle[s.tx]
		if !ok1 || !ok2 {
			continue
		}
		client, srv, st = append(client, s.took), append(srv, sv), append(st, se)
		rest, out = append(rest, sv-se), append(out, s.took-sv)
	}
	if len(client) == 0 {
		return nil, fmt.Errorf("no paid request found in %s and %s", accessLog, paymentsLog)
	}
	return &breakdown{n: len(client), client: sorted(client), server: sorted(srv), settle: sorted(st), rest: sorted(rest), out: sorted(out)}, nil
}

func (b *breakdown) write(w io.Writer) {
	fmt.Fprintf(w, "\n| one paid request at a time, from Caddy's logs (%d matched) | p50 ms | p90 ms |\n|---|---|---|\n", b.n)
	for _, r := range []struct {
		name string
		l    latencies
	}{
		{"at the client", b.client},
		{"in the server (access log duration)", b.server},
		{"settlement (x402 settlement took)", b.settle},
		{"server less settlement: verify, upstream, Caddy", b.rest},
		{"client less server (below 0: the answer leaves before the handler returns, and records it served)", b.out},
	} {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.name, ms(r.l.q(.5)), ms(r.l.q(.9)))
	}
	fmt.Fprintf(w, "\n(Each row's quantiles are of that row alone; they do not add up.)\n")
}

// logLine is what the breakdown reads of a Caddy log line.
type logLine struct {
	Msg     string `json:"msg"`
	Tx      string `json:"tx"`
	Request struct {
		Headers map[string][]string `json:"headers"`
	} `json:"request"`
	// Duration (the access log's) and Took (the settlement's) are read
	// by parseDuration.
	Duration *time.Duration `json:"-"`
	Took     *time.Duration `json:"-"`
}

func eachLine(path string, f func(logLine)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var raw struct {
			logLine
			Duration json.RawMessage `json:"duration"`
			Took     json.RawMessage `json:"took"`
		}
		if json.Unmarshal(sc.Bytes(), &raw) != nil {
			continue
		}
		l := raw.logLine
		l.Duration, l.Took = parseDuration(raw.Duration), parseDuration(raw.Took)
		f(l)
	}
	return sc.Err()
}

// parseDuration reads a duration that Caddy logs as seconds (a number) or
// as a Go duration string; nil if there is none.
func parseDuration(raw json.RawMessage) *time.Duration {
	if len(raw) == 0 {
		return nil
	}
	var secs float64
	if json.Unmarshal(raw, &secs) == nil {
		d := time.Duration(secs * float64(time.Second))
		return &d
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if d, err := time.ParseDuration(s); err == nil {
			return &d
		}
	}
	return nil
}

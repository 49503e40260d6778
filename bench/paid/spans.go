package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// span is what the step breakdown reads of a span that Caddy's tracing
// wrote with OTEL_TRACES_EXPORTER=console (one JSON object a line).
type span struct {
	Name        string
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct{ SpanID string }
	StartTime   time.Time
	EndTime     time.Time
	Attributes  []struct {
		Key   string
		Value struct{ Value any }
	}
}

func (s *span) took() time.Duration { return s.EndTime.Sub(s.StartTime) }

func (s *span) attr(key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			if v, ok := a.Value.Value.(string); ok {
				return v
			}
		}
	}
	return ""
}

// steps is the breakdown of the sequential paid requests by their spans:
// the durations of each step, by name, in the order steps first appear.
type steps struct {
	n     int
	order []string
	took  map[string][]time.Duration
}

func (st *steps) add(name string, d time.Duration) {
	if _, ok := st.took[name]; !ok {
		st.order = append(st.order, name)
	}
	st.took[name] = append(st.took[name], d)
}

// spanSteps reads the spans in path and splits each sequential paid
// request's server span into: the paywall's work before verifying, the
// verification, the upstream (from verified to settling), the settlement
// with the facilitator's steps, and what follows it.
func (d *driver) spanSteps(path string) (*steps, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	traces := map[string][]*span{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !strings.HasPrefix(string(line), `{"Name"`) {
			continue
		}
		s := new(span)
		if json.Unmarshal(line, s) != nil {
			continue
		}
		traces[s.SpanContext.TraceID] = append(traces[s.SpanContext.TraceID], s)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	want := map[common.Hash]bool{}
	for _, s := range d.samples {
		if s.phase == phaseSequential && s.paid && s.err == nil {
			want[s.tx] = true
		}
	}
	st := &steps{took: map[string][]time.Duration{}}
	for _, spans := range traces {
		if stepsOf(spans, want, st) {
			st.n++
		}
	}
	if st.n == 0 {
		return nil, fmt.Errorf("no trace of a sequential paid request in %s", path)
	}
	return st, nil
}

// stepsOf adds the steps of one trace to st, if it is the trace of a
// request in want (by its transaction).
func stepsOf(spans []*span, want map[common.Hash]bool, st *steps) bool {
	byName := map[string]*span{}
	var root *span
	ids := map[string]bool{}
	for _, s := range spans {
		ids[s.SpanContext.SpanID] = true
	}
	for _, s := range spans {
		if _, dup := byName[s.Name]; !dup {
			byName[s.Name] = s
		}
		if !ids[s.Parent.SpanID] {
			root = s
		}
	}
	verify, settle, fsettle := byName["x402.verify"], byName["x402.settle"], byName["x402.facilitator.settle"]
	if root == nil || verify == nil || settle == nil || fsettle == nil {
		return false
	}
	tx := fsettle.attr("x402.transaction")
	if !want[common.HexToHash(tx)] || len(tx) != 2+2*common.HashLength {
		return false
	}
	st.add("request (Caddy's server span)", root.took())
	st.add("  before x402.verify (decode, match)", verify.StartTime.Sub(root.StartTime))
	st.add("  x402.verify", verify.took())
	if fv := byName["x402.facilitator.verify"]; fv != nil {
		st.add("    x402.facilitator.verify", fv.took())
	}
	st.add("  verified → x402.settle (upstream)", settle.StartTime.Sub(verify.EndTime))
	st.add("  x402.settle", settle.took())
	st.add("    x402.facilitator.settle", fsettle.took())
	addChildren(st, spans, fsettle, "      ", true)
	st.add("  after x402.settle (response, Served)", root.EndTime.Sub(settle.EndTime))
	return true
}

// addChildren adds the steps under parent, in the order they started, and
// their own steps beneath them; with gaps, also the time before the first
// (the settle's verification) and after the last.
func addChildren(st *steps, spans []*span, parent *span, indent string, gaps bool) {
	var children []*span
	for _, s := range spans {
		if s.Parent.SpanID == parent.SpanContext.SpanID {
			children = append(children, s)
		}
	}
	slices.SortFunc(children, func(a, b *span) int { return a.StartTime.Compare(b.StartTime) })
	at := parent.StartTime
	for i, c := range children {
		name := strings.TrimPrefix(c.Name, "x402.facilitator.")
		if state := c.attr("x402.state"); state != "" {
			name += " " + state
		}
		if i == 0 && gaps {
			st.add(indent+"verify (to the first step)", c.StartTime.Sub(at))
		}
		st.add(indent+name, c.took())
		addChildren(st, spans, c, indent+"  ", false)
		at = c.EndTime
	}
	if gaps && len(children) > 0 {
		st.add(indent+"after the last step", parent.EndTime.Sub(at))
	}
}

func (st *steps) write(w io.Writer) {
	fmt.Fprintf(w, "\n| one paid request at a time, by its spans (%d traces) | p50 ms | p90 ms |\n|---|---|---|\n", st.n)
	for _, name := range st.order {
		l := sorted(st.took[name])
		indent := len(name) - len(strings.TrimLeft(name, " "))
		fmt.Fprintf(w, "| %s%s | %s | %s |\n", strings.Repeat("· ", indent/2), strings.TrimSpace(name), ms(l.q(.5)), ms(l.q(.9)))
	}
	fmt.Fprintf(w, "\n(Tracing on: every span is written out, which costs time of its own.)\n")
}

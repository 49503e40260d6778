package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openRefusals(t *testing.T) (*Store, *Refusals) {
	t.Helper()
	st, err := Open(Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r, err := OpenRefusals(st)
	if err != nil {
		t.Fatal(err)
	}
	return st, r
}

// TestRefusalsCountAndKeepTheLast records refusals, flushes them twice (a
// second Refusals on the same store stands for another replica) and reads
// counters summed across both and the last ones newest first.
func TestRefusalsCountAndKeepTheLast(t *testing.T) {
	t.Parallel()
	st, a := openRefusals(t)
	b, err := OpenRefusals(st)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	for i, f := range []struct {
		r      *Refusals
		reason string
		route  string
	}{{a, "signature_invalid", "/paid/a"}, {a, "signature_invalid", "/paid/a"}, {b, "signature_invalid", "/paid/a"}, {b, "amount_mismatch", "/paid/b"}} {
		f.r.Record(Refusal{Time: t0.Add(time.Duration(i) * time.Second), Reason: f.reason, Route: f.route, Payer: fmt.Sprint("0xpayer", i)})
	}
	for _, r := range []*Refusals{a, b} {
		if err := r.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := a.Summary()
	if err != nil {
		t.Fatal(err)
	}
	want := []RefusalCount{{"signature_invalid", "/paid/a", 3, t0.Add(2 * time.Second)}, {"amount_mismatch", "/paid/b", 1, t0.Add(3 * time.Second)}}
	if len(s.Counts) != 2 || s.Counts[0] != want[0] || s.Counts[1] != want[1] {
		t.Errorf("counts: %+v, want %+v", s.Counts, want)
	}
	if len(s.Recent) != 4 || s.Recent[0].Payer != "0xpayer3" || s.Recent[3].Payer != "0xpayer0" {
		t.Errorf("recent: %+v", s.Recent)
	}
	// Nothing new: a flush writes nothing and changes nothing.
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	if again, _ := a.Summary(); len(again.Counts) != 2 || again.Counts[0].Count != 3 {
		t.Errorf("after an empty flush: %+v", again.Counts)
	}
}

// TestRefusalsAreBounded is the attacker's flood: refusals on more
// distinct routes than there are counters, with long strings, over many
// flushes. The counters stop at MaxRefusalCounters (the rest is counted
// under OtherRoute, so the total is exact), the ring at MaxRecentRefusals,
// and every string at MaxRefusalField bytes.
func TestRefusalsAreBounded(t *testing.T) {
	t.Parallel()
	_, r := openRefusals(t)
	const n = 3 * MaxRefusalCounters
	long := strings.Repeat("é", MaxRefusalField)
	for i := range n {
		r.Record(Refusal{Time: time.Unix(int64(i), 0), Reason: "signature_invalid", Route: fmt.Sprintf("/paid/%d/%s", i, long), Payer: long})
		if i%97 == 0 {
			if err := r.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := r.Flush(); err != nil {
		t.Fatal(err)
	}
	s, err := r.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Counts) > MaxRefusalCounters+1 {
		t.Errorf("%d counters, want at most %d", len(s.Counts), MaxRefusalCounters+1)
	}
	var total int64
	other := false
	for _, c := range s.Counts {
		total += c.Count
		other = other || c.Route == OtherRoute
		if len(c.Route) > MaxRefusalField {
			t.Fatalf("a route of %d bytes", len(c.Route))
		}
	}
	if total != n || !other {
		t.Errorf("counted %d refusals (other routes: %v), want %d", total, other, n)
	}
	if len(s.Recent) != MaxRecentRefusals || !s.Recent[0].Time.Equal(time.Unix(n-1, 0)) {
		t.Errorf("%d recent, newest %v", len(s.Recent), s.Recent[0].Time)
	}
	for _, f := range s.Recent {
		if len(f.Payer) > MaxRefusalField || !strings.HasPrefix(long, f.Payer) {
			t.Fatalf("a payer of %d bytes, or cut inside a rune", len(f.Payer))
		}
	}
}

// TestRefusalMessage: a refusal keeps the facilitator's readable reason,
// cut to MaxRefusalField bytes on a rune boundary, with its control
// characters (a forged line break, an escape sequence) made spaces.
func TestRefusalMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"kept", "holds 0, the payment needs 10000", "holds 0, the payment needs 10000"},
		{"control characters", "holds 0\nFAKE LOG LINE\x1b[31m", "holds 0 FAKE LOG LINE [31m"},
		{"cut", strings.Repeat("é", MaxRefusalField), strings.Repeat("é", MaxRefusalField/2)},
		{"none", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, r := openRefusals(t)
			r.Record(Refusal{Time: time.Unix(1, 0), Reason: "invalid_inner_payload", Route: "/paid/*", Message: tc.in})
			if err := r.Flush(); err != nil {
				t.Fatal(err)
			}
			s, err := r.Summary()
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Recent) != 1 || s.Recent[0].Message != tc.want {
				t.Errorf("message %q, want %q", s.Recent[0].Message, tc.want)
			}
		})
	}
}

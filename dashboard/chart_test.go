package dashboard

import (
	"strings"
	"testing"
)

func TestNiceCeil(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want float64 }{{0.3, 0.5}, {1, 1}, {1.1, 2}, {3, 5}, {7, 10}, {42, 50}, {0.012, 0.02}, {1500, 2000}} {
		if got := niceCeil(tc.in); got != tc.want {
			t.Errorf("niceCeil(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

func TestChartSVG(t *testing.T) {
	t.Parallel()
	c := chart{Title: `Spend <"cap">`, Limit: 2, Bars: []bar{{Label: "a<b", Title: "1 & 2", Value: 1}, {Label: "c", Title: "c", Value: 3}}}
	svg := string(c.svg())
	for _, want := range []string{`viewBox="0 0 320 160"`, `aria-label="Spend &lt;&#34;cap&#34;&gt;"`, "a&lt;b", "1 &amp; 2", `class="limit"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %s:\n%s", want, svg)
		}
	}
	if strings.Count(svg, "<rect") != 2 {
		t.Errorf("want 2 bars:\n%s", svg)
	}
	// An empty chart still draws its axis.
	if empty := string(chart{Title: "none"}.svg()); !strings.Contains(empty, `class="grid"`) {
		t.Errorf("empty chart: %s", empty)
	}
}

func TestShort(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{0: "0", 0.5: "0.5", 1500: "1.5k", 2e6: "2M", 3e9: "3G", 0.05: "0.05"} {
		if got := short(in); got != want {
			t.Errorf("short(%g) = %q, want %q", in, got, want)
		}
	}
}

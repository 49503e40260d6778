package dashboard

import (
	"fmt"
	"html/template"
	"math"
	"math/big"
	"strings"
)

// A chart is drawn on the server as inline SVG, so the pages need no
// script and no library. Its viewBox is phone-sized (320 wide) and the
// SVG scales to its column, so at a phone's width it is drawn at its own
// size and on a desktop it grows; its text stays readable either way. The
// same figures are listed in a table under each chart.

// bar is one bar of a chart.
type bar struct {
	Label string  // under the bar (shown for some bars only)
	Title string  // the tooltip: label and value
	Value float64 // its height, in the chart's unit
}

// chart is a bar chart with an optional horizontal limit line (a cap).
type chart struct {
	Title string
	Unit  string
	Bars  []bar
	Limit float64 // drawn as a dashed line when > 0
}

const (
	chartW, chartH      = 320.0, 160.0
	chartLeft, chartTop = 36.0, 8.0
	chartBottom         = 20.0 // room for the labels
)

// svg renders the chart.
func (c chart) svg() template.HTML {
	var b strings.Builder
	max := c.Limit
	for _, x := range c.Bars {
		max = math.Max(max, x.Value)
	}
	if max <= 0 {
		max = 1
	}
	max = niceCeil(max)
	plotW, plotH := chartW-chartLeft-4, chartH-chartTop-chartBottom
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %g %g" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`, chartW, chartH, template.HTMLEscapeString(c.Title))
	// Axis and grid: 0, half and the top.
	for _, f := range []float64{0, 0.5, 1} {
		y := chartTop + plotH*(1-f)
		fmt.Fprintf(&b, `<line class="grid" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, chartLeft, y, chartW-4, y)
		fmt.Fprintf(&b, `<text class="axis" x="%g" y="%.1f" text-anchor="end">%s</text>`, chartLeft-3, y+3, template.HTMLEscapeString(short(max*f)))
	}
	n := len(c.Bars)
	if n > 0 {
		slot := plotW / float64(n)
		w := math.Max(slot*0.75, 1)
		every := int(math.Ceil(float64(n) / 8)) // at most 8 labels
		for i, x := range c.Bars {
			h := plotH * x.Value / max
			xPos := chartLeft + slot*float64(i) + (slot-w)/2
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s</title></rect>`,
				xPos, chartTop+plotH-h, w, h, template.HTMLEscapeString(x.Title))
			if i%every == 0 {
				fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%g" text-anchor="middle">%s</text>`, xPos+w/2, chartH-6, template.HTMLEscapeString(x.Label))
			}
		}
	}
	if c.Limit > 0 {
		y := chartTop + plotH*(1-c.Limit/max)
		fmt.Fprintf(&b, `<line class="limit" x1="%g" y1="%.1f" x2="%g" y2="%.1f"><title>cap %s</title></line>`, chartLeft, y, chartW-4, y, template.HTMLEscapeString(short(c.Limit)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text inside was escaped above
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten, for the axis.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// short formats an axis value compactly: 1.5k, 2M, 0.05.
func short(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return trimFloat(v/1e9) + "G"
	case a >= 1e6:
		return trimFloat(v/1e6) + "M"
	case a >= 1e3:
		return trimFloat(v/1e3) + "k"
	}
	return trimFloat(v)
}

func trimFloat(v float64) string {
	s := fmt.Sprintf("%.3g", v)
	if strings.ContainsAny(s, "e") {
		s = fmt.Sprintf("%.4f", v)
	}
	return s
}

// units converts an amount in base units to whole units as a float, for a
// chart's height only; the tables show exact decimals.
func units(v *big.Int, decimals uint8) float64 {
	if v == nil {
		return 0
	}
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(v), new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))).Float64()
	return f
}

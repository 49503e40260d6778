package dashboard

import (
	"context"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
)

// Overview is the state of the service at a glance.
type Overview struct {
	Network string `json:"network"`
	// Balances are nil when the chain could not be read; BalanceError
	// then says so.
	Balances     *Balances `json:"balances,omitempty"`
	BalanceError string    `json:"balanceError,omitempty"`
	// LowBalance is set when the settler's balance is under the warning
	// threshold.
	LowBalance bool `json:"lowBalance"`
	// Day is the last 24 hours by hour; Week the last 7 days by day.
	Day  Window `json:"day"`
	Week Window `json:"week"`
	// WeekUSD is the last 7 days' revenue in USD-pegged tokens, in USD
	// for reading, and DayUSD the last 24 hours'.
	WeekUSD string `json:"weekUsd"`
	DayUSD  string `json:"dayUsd"`
	// Outage says what of the payment path is down; nil when all is up.
	Outage *Outage `json:"outage,omitempty"`
	// Refused counts the payments refused before settlement (failed
	// verification), all time.
	Refused int64 `json:"refused"`
}

// Window is the settlements of a period.
type Window struct {
	Since time.Time `json:"since"`
	Step  string    `json:"step"`
	// Settled, Failed and Pending count the records created in the
	// window by outcome.
	Settled int `json:"settled"`
	Failed  int `json:"failed"`
	Pending int `json:"pending"`
	// Revenue is what settled payments brought, per asset.
	Revenue []Revenue `json:"revenue"`
	// LatencyP50MS and LatencyP99MS are the settle latency of the settled
	// payments, from claim to final, in milliseconds.
	LatencyP50MS int64 `json:"latencyP50Ms"`
	LatencyP99MS int64 `json:"latencyP99Ms"`
	// Failures counts the failed settlements by reason code.
	Failures map[string]int `json:"failures"`
	// Steps are the settled payments per step, per asset.
	Steps []StepTotal `json:"steps"`
}

// Revenue is the total of one asset.
type Revenue struct {
	Asset   common.Address `json:"asset"`
	Symbol  string         `json:"symbol"`
	Count   int            `json:"count"`
	Amount  string         `json:"amount"` // in base units
	Display string         `json:"display"`
	// USDDisplay is the amount in USD for reading, for a USD-pegged
	// token; empty for the others.
	USDDisplay string `json:"usdDisplay,omitempty"`
}

// StepTotal is one step of a window.
type StepTotal struct {
	Start  time.Time `json:"start"`
	Count  int       `json:"count"`
	Assets []Revenue `json:"assets"`
}

// overview reads the balances and summarizes the last day and week.
func (d *Dashboard) overview(ctx context.Context) (*Overview, error) {
	now := d.cfg.Now().UTC()
	o := &Overview{Network: d.cfg.Network, Outage: d.outage(ctx)}
	if o.Outage != nil {
		o.BalanceError = "not read while the chain is down"
	} else if b, err := d.cfg.Balances(ctx); err != nil {
		d.log.Warn("reading balances", errField(err))
		o.BalanceError = "the chain could not be read"
	} else {
		o.Balances = &b
		o.LowBalance = b.SettlerBalance != nil && b.SettlerBalance.Cmp(d.cfg.LowBalance) < 0
	}
	dayStart := now.Truncate(time.Hour).Add(-23 * time.Hour)
	weekStart := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -6)
	var err error
	if o.Day, err = d.window(ctx, dayStart, now, time.Hour, "hour"); err != nil {
		return nil, err
	}
	if o.Week, err = d.window(ctx, weekStart, now, 24*time.Hour, "day"); err != nil {
		return nil, err
	}
	o.WeekUSD, o.DayUSD = d.usdTotal(o.Week.Revenue), d.usdTotal(o.Day.Revenue)
	if d.cfg.Refusals != nil {
		if s, err := d.cfg.Refusals(); err != nil {
			d.log.Warn("reading the refused payments", errField(err))
		} else {
			for _, c := range s.Counts {
				o.Refused += c.Count
			}
		}
	}
	return o, nil
}

// usdTotal is the sum of the USD-pegged revenues, in USD for reading.
func (d *Dashboard) usdTotal(list []Revenue) string {
	usd := new(big.Int)
	for _, r := range list {
		if v, ok := new(big.Int).SetString(r.Amount, 10); ok {
			if u := d.usdOf(r.Asset, v); u != nil {
				usd.Add(usd, u)
			}
		}
	}
	return usdString(usd)
}

// window summarizes [since, until) by step.
func (d *Dashboard) window(ctx context.Context, since, until time.Time, step time.Duration, name string) (Window, error) {
	s, err := d.cfg.Payments.Summarize(ctx, store.SummaryQuery{Since: since, Until: until, Step: step})
	if err != nil {
		return Window{}, err
	}
	w := Window{
		Since: since, Step: name, Settled: s.Settled, Failed: s.Failed, Pending: s.Pending,
		LatencyP50MS: s.LatencyP50.Milliseconds(), LatencyP99MS: s.LatencyP99.Milliseconds(),
		Failures: s.Failures, Steps: make([]StepTotal, len(s.Steps)),
	}
	if w.Failures == nil {
		w.Failures = map[string]int{}
	}
	type total struct {
		count  int
		amount *big.Int
	}
	totals := map[common.Address]*total{}
	for i, st := range s.Steps {
		w.Steps[i] = StepTotal{Start: st.Start, Assets: make([]Revenue, len(st.Assets))}
		for j, a := range st.Assets {
			w.Steps[i].Count += a.Count
			w.Steps[i].Assets[j] = d.revenue(a.Asset, a.Count, a.Amount)
			t := totals[a.Asset]
			if t == nil {
				t = &total{amount: new(big.Int)}
				totals[a.Asset] = t
			}
			t.count += a.Count
			t.amount.Add(t.amount, a.Amount)
		}
	}
	for asset, t := range totals {
		w.Revenue = append(w.Revenue, d.revenue(asset, t.count, t.amount))
	}
	slices.SortFunc(w.Revenue, func(a, b Revenue) int { return a.Asset.Cmp(b.Asset) })
	if w.Revenue == nil {
		w.Revenue = []Revenue{}
	}
	return w, nil
}

func (d *Dashboard) revenue(asset common.Address, count int, amount *big.Int) Revenue {
	r := Revenue{Asset: asset, Symbol: d.symbol(asset), Count: count, Amount: amountString(amount), Display: d.amount(asset, amount)}
	if u := d.usdOf(asset, amount); u != nil {
		r.USDDisplay = usdString(u)
	}
	return r
}

// charts draws a window: payments per step, and revenue per step for each
// asset.
func (d *Dashboard) charts(w Window, label string) []chart {
	format := "15h"
	if w.Step == "day" {
		format = "Jan 2"
	}
	count := chart{Title: "Payments per " + w.Step + ", " + label, Unit: "payments"}
	for _, st := range w.Steps {
		l := st.Start.Format(format)
		count.Bars = append(count.Bars, bar{Label: l, Title: l + ": " + itoa(st.Count) + " payments", Value: float64(st.Count)})
	}
	out := []chart{count}
	for _, rev := range w.Revenue {
		decimals := uint8(0)
		if a, ok := d.assets[rev.Asset]; ok {
			decimals = a.Decimals
		}
		c := chart{Title: "Revenue in " + rev.Symbol + " per " + w.Step + ", " + label, Unit: rev.Symbol}
		for _, st := range w.Steps {
			l := st.Start.Format(format)
			v := new(big.Int)
			for _, a := range st.Assets {
				if a.Asset == rev.Asset {
					v, _ = new(big.Int).SetString(a.Amount, 10)
				}
			}
			c.Bars = append(c.Bars, bar{Label: l, Title: l + ": " + d.amount(rev.Asset, v), Value: units(v, decimals)})
		}
		out = append(out, c)
	}
	return out
}

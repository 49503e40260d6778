package dashboard

import (
	"cmp"
	"context"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// USDPegged reports whether a token is pegged to the US dollar, so that
// its amounts are shown in USD too: what its Asset says (the caller knows
// it from the table of well-known tokens, package tokens). A token the
// caller does not know is never taken for a dollar.
func USDPegged(a Asset) bool { return a.USD }

// usdDecimals is the scale of the USD totals: every USD-pegged amount is
// brought to it before it is added.
const usdDecimals = 18

// readable formats v (in base units of a token with decimals) for
// reading: 2 decimals from 1 up (USD) or 4 (other tokens), else 3
// significant digits, at most 8 decimals; rounded half up, with "≈" when
// it is not exact. The CSV and the API keep the exact amounts.
func readable(v *big.Int, decimals uint8, usd bool) string {
	if v == nil {
		return "0"
	}
	exact := x402.FormatDecimal(v, decimals)
	whole, frac, ok := strings.Cut(exact, ".")
	if !ok {
		return exact
	}
	keep := 4
	if usd {
		keep = 2
	}
	if strings.TrimLeft(whole, "-0") == "" {
		i := strings.IndexFunc(frac, func(r rune) bool { return r != '0' })
		keep = min(max(keep, i+3), 8)
	}
	if len(frac) <= keep {
		return exact
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(int(decimals)-keep)), nil)
	abs := new(big.Int).Abs(v)
	q := new(big.Int).Add(abs, new(big.Int).Rsh(scale, 1))
	q.Quo(q, scale)
	if v.Sign() < 0 {
		q.Neg(q)
	}
	s := x402.FormatDecimal(q, uint8(keep))
	return "≈" + s
}

// toUSD brings an amount of a USD-pegged token to usdDecimals.
func toUSD(v *big.Int, decimals uint8) *big.Int {
	if decimals <= usdDecimals {
		return new(big.Int).Mul(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(usdDecimals-decimals)), nil))
	}
	return new(big.Int).Quo(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals-usdDecimals)), nil))
}

// usd formats an amount of usdDecimals as dollars for reading.
func usdString(v *big.Int) string {
	if v == nil || v.Sign() == 0 {
		return "$0"
	}
	s := readable(v, usdDecimals, true)
	if _, frac, ok := strings.Cut(s, "."); ok && len(frac) == 1 {
		s += "0" // cents: $1.50, not $1.5
	}
	if r, ok := strings.CutPrefix(s, "≈"); ok {
		return "≈$" + r
	}
	return "$" + s
}

// usdOf is an amount in USD (usdDecimals), or nil for a token that is
// not pegged or unknown.
func (d *Dashboard) usdOf(asset common.Address, v *big.Int) *big.Int {
	a, ok := d.assets[asset]
	if !ok || !a.USD || v == nil {
		return nil
	}
	return toUSD(v, a.Decimals)
}

// route is the path of a payment's resource URL: its route.
func route(resource string) string {
	if resource == "" {
		return "(not described)"
	}
	if u, err := url.Parse(resource); err == nil && u.Path != "" {
		return u.Path
	}
	return resource
}

// Earner is the revenue of one route or one payer.
type Earner struct {
	// Key is the route's path or the payer's address.
	Key   string `json:"key"`
	Count int    `json:"count"`
	// Revenue is per asset; USD the total of the USD-pegged ones, exact
	// in USD with 18 decimals, and USDDisplay it for reading.
	Revenue    []Revenue `json:"revenue"`
	USD        string    `json:"usd"`
	USDDisplay string    `json:"usdDisplay"`
	usd        *big.Int
}

// RevenueReport is the revenue of a window, per route and per payer.
type RevenueReport struct {
	Since time.Time `json:"since"`
	Days  int       `json:"days"`
	Count int       `json:"count"`
	// Total is per asset, and USD the USD-pegged assets' sum.
	Total      []Revenue `json:"total"`
	USD        string    `json:"usd"`
	USDDisplay string    `json:"usdDisplay"`
	Routes     []Earner  `json:"routes"`
	Payers     []Earner  `json:"payers"`
	// Truncated is set when the window had more settled payments than are
	// read for one report (maxRevenueRecords): the figures count the
	// newest ones.
	Truncated bool `json:"truncated"`
}

// maxRevenueRecords bounds the records one revenue report reads.
const maxRevenueRecords = 50_000

// maxEarners bounds the routes and the payers a report lists.
const maxEarners = 100

// tally sums amounts per asset, and in USD.
type tally struct {
	count int
	per   map[common.Address]*big.Int
	usd   *big.Int
}

func (t *tally) add(d *Dashboard, asset common.Address, v *big.Int) {
	if t.per == nil {
		t.per, t.usd = map[common.Address]*big.Int{}, new(big.Int)
	}
	t.count++
	if v == nil {
		return
	}
	a := t.per[asset]
	if a == nil {
		a = new(big.Int)
		t.per[asset] = a
	}
	a.Add(a, v)
	if u := d.usdOf(asset, v); u != nil {
		t.usd.Add(t.usd, u)
	}
}

func (d *Dashboard) revenues(t *tally) []Revenue {
	out := []Revenue{}
	for asset, v := range t.per {
		out = append(out, d.revenue(asset, 0, v))
	}
	slices.SortFunc(out, func(a, b Revenue) int { return a.Asset.Cmp(b.Asset) })
	return out
}

// revenueReport sums the settled payments of the last days, per route
// and per payer, largest in USD first (then by count).
func (d *Dashboard) revenueReport(ctx context.Context, days int) (*RevenueReport, error) {
	now := d.cfg.Now().UTC()
	rep := &RevenueReport{Since: now.AddDate(0, 0, -days), Days: days}
	q := store.Query{States: []store.State{store.StateSettled}, Since: rep.Since, Limit: store.MaxPageSize}
	total := &tally{}
	routes, payers := map[string]*tally{}, map[string]*tally{}
	for {
		page, err := d.cfg.Payments.List(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, r := range page.Records {
			for _, t := range []*tally{total, get(routes, route(r.Resource)), get(payers, r.Payer.Hex())} {
				t.add(d, r.Asset, r.Amount)
			}
		}
		if page.Next == "" {
			break
		}
		if total.count >= maxRevenueRecords {
			rep.Truncated = true
			break
		}
		q.After = page.Next
	}
	rep.Count = total.count
	rep.Total = d.revenues(total)
	rep.USD, rep.USDDisplay = amountString(total.usd), usdString(total.usd)
	rep.Routes, rep.Payers = d.earners(routes), d.earners(payers)
	return rep, nil
}

func get(m map[string]*tally, k string) *tally {
	t := m[k]
	if t == nil {
		t = &tally{}
		m[k] = t
	}
	return t
}

func (d *Dashboard) earners(m map[string]*tally) []Earner {
	out := make([]Earner, 0, len(m))
	for k, t := range m {
		out = append(out, Earner{Key: k, Count: t.count, Revenue: d.revenues(t), USD: amountString(t.usd), USDDisplay: usdString(t.usd), usd: t.usd})
	}
	slices.SortFunc(out, func(a, b Earner) int {
		return cmp.Or(b.usd.Cmp(a.usd), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key))
	})
	if len(out) > maxEarners {
		out = out[:maxEarners]
	}
	return out
}

// revenueDays are the windows the revenue page offers.
var revenueDays = []int{1, 7, 30, 90}

// parseDays reads the revenue window's days: 30 when empty.
func parseDays(s string) (int, error) {
	if s == "" {
		return 30, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || !slices.Contains(revenueDays, n) {
		return 0, badRequest("days %q: want 1, 7, 30 or 90", clip(s))
	}
	return n, nil
}

func (d *Dashboard) revenuePage(w http.ResponseWriter, r *http.Request, p *page) {
	days, err := parseDays(r.URL.Query().Get("days"))
	if err != nil {
		d.renderError(w, p, http.StatusBadRequest, publicError(err))
		return
	}
	rep, err := d.revenueReport(r.Context(), days)
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page = "Revenue", "revenue"
	p.Data = struct {
		Report *RevenueReport
		Days   []int
	}{rep, revenueDays}
	d.render(w, http.StatusOK, "revenue", p)
}

// RefusalView is a refusal as the pages show it, with its price for
// reading and its reason in words.
type RefusalView struct {
	store.Refusal
	Display string
	Words   string
}

// ReasonGroup is the refusals of one cause: every route's count, and
// the facilitator's words for the last one.
type ReasonGroup struct {
	Reason string               `json:"reason"`
	Words  string               `json:"words"`
	Count  int64                `json:"count"`
	Last   time.Time            `json:"last"`
	Routes []store.RefusalCount `json:"routes"`
	// Message is the readable reason of the last refusal of this cause
	// that is kept, such as "holds 0, the payment needs 10000".
	Message string `json:"message,omitempty"`
}

// groupRefusals groups counters by reason, most refused first, with the
// newest message of each reason among recent (newest first).
func groupRefusals(counts []store.RefusalCount, recent []store.Refusal) []ReasonGroup {
	byReason := map[string]*ReasonGroup{}
	var out []*ReasonGroup
	for _, c := range counts {
		g := byReason[c.Reason]
		if g == nil {
			g = &ReasonGroup{Reason: c.Reason, Words: ReasonWords(c.Reason)}
			byReason[c.Reason] = g
			out = append(out, g)
		}
		g.Count += c.Count
		if c.Last.After(g.Last) {
			g.Last = c.Last
		}
		g.Routes = append(g.Routes, c)
	}
	for _, f := range recent {
		if g := byReason[f.Reason]; g != nil && g.Message == "" && f.Message != "" {
			g.Message = f.Message
		}
	}
	slices.SortStableFunc(out, func(a, b *ReasonGroup) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	groups := make([]ReasonGroup, len(out))
	for i, g := range out {
		slices.SortStableFunc(g.Routes, func(a, b store.RefusalCount) int { return cmp.Compare(b.Count, a.Count) })
		groups[i] = *g
	}
	return groups
}

// ReasonServedUnpaid is the reason, among the refusals, of a payment
// served on broadcast whose settlement then failed: its payer front-ran
// it (see the paywall's serve-on-broadcast).
const ReasonServedUnpaid = "served_unpaid"

// refusalsData is what the refused page shows.
type refusalsData struct {
	// Groups are the counters grouped by reason.
	Groups []ReasonGroup
	Counts []store.RefusalCount
	Total  int64
	Recent []RefusalView
	// Failed are the failed settlements of the last 7 days by code, and
	// FailedTotal their number.
	Failed      map[string]int
	FailedTotal int
	// ServedUnpaid counts, among the refusals, the payments served on
	// broadcast whose settlement then failed (reason served_unpaid).
	ServedUnpaid int64
}

func (d *Dashboard) refusals(ctx context.Context) (*refusalsData, error) {
	data := &refusalsData{}
	if d.cfg.Refusals != nil {
		s, err := d.cfg.Refusals()
		if err != nil {
			return nil, err
		}
		data.Counts = s.Counts
		for _, c := range s.Counts {
			data.Total += c.Count
			if c.Reason == ReasonServedUnpaid {
				data.ServedUnpaid += c.Count
			}
		}
		data.Groups = groupRefusals(s.Counts, s.Recent)
		for _, f := range s.Recent {
			v := RefusalView{Refusal: f, Words: ReasonWords(f.Reason)}
			if amount, ok := new(big.Int).SetString(f.Amount, 10); ok && common.IsHexAddress(f.Asset) {
				v.Display = d.amount(common.HexToAddress(f.Asset), amount)
			}
			data.Recent = append(data.Recent, v)
		}
	}
	now := d.cfg.Now().UTC()
	rep, err := d.cfg.Payments.Summarize(ctx, store.SummaryQuery{Since: now.AddDate(0, 0, -7), Until: now, Step: 24 * time.Hour})
	if err != nil {
		return nil, err
	}
	data.Failed, data.FailedTotal = rep.Failures, rep.Failed
	return data, nil
}

func (d *Dashboard) refusedPage(w http.ResponseWriter, r *http.Request, p *page) {
	data, err := d.refusals(r.Context())
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page, p.Data = "Refused and failed payments", "refused", data
	d.render(w, http.StatusOK, "refused", p)
}

func (d *Dashboard) webhooksPage(w http.ResponseWriter, r *http.Request, p *page) {
	if d.cfg.Deliveries == nil {
		d.renderError(w, p, http.StatusNotFound, "Page not found: no webhook is configured.")
		return
	}
	list, err := d.cfg.Deliveries()
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page, p.Data = "Webhooks", "webhooks", list
	p.Done = doneMessages[r.URL.Query().Get("done")]
	d.render(w, http.StatusOK, "webhooks", p)
}

// hasPaymaster reports whether the projects and keys pages are linked.
func (d *Dashboard) hasPaymaster() bool {
	if d.cfg.HasPaymaster != nil {
		return d.cfg.HasPaymaster()
	}
	return d.cfg.Sponsorship != nil
}

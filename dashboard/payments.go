package dashboard

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
)

// Payment is a settlement record as the admin API and the pages show it.
type Payment struct {
	// Key is the payment's replay key, which names its page.
	Key  string    `json:"key"`
	Time time.Time `json:"time"`
	// Resource and Description are what the payment bought, as the
	// merchant's paywall described it (never as the payer's payload says);
	// empty when the merchant did not say.
	Resource    string         `json:"resource,omitempty"`
	Description string         `json:"description,omitempty"`
	Payer       common.Address `json:"payer"`
	PayTo       common.Address `json:"payTo"`
	Asset       common.Address `json:"asset"`
	// Amount is in the asset's base units; Display is it in whole units
	// with the asset's symbol, when the asset is known.
	Amount  string `json:"amount"`
	Display string `json:"display"`
	Scheme  string `json:"scheme"`
	Network string `json:"network"`
	// Status is the record's state: claimed, submitted, settled or
	// failed.
	Status string `json:"status"`
	// Error is the failure's reason code, for a failed settlement.
	Error string `json:"error,omitempty"`
	// Transaction is the settlement's transaction hash, once it has one.
	Transaction string `json:"transaction,omitempty"`
	// Latency is from the claim to the final state, for a final record.
	LatencyMS int64 `json:"latencyMs,omitempty"`
}

// payment converts a record.
func (d *Dashboard) payment(r *store.Record) Payment {
	p := Payment{
		Key: r.Key.Hex(), Time: r.Created, Resource: r.Resource, Description: r.Description, Payer: r.Payer, PayTo: r.PayTo, Asset: r.Asset, Amount: amountString(r.Amount),
		Display: d.amount(r.Asset, r.Amount), Scheme: r.Scheme, Network: r.Network, Status: string(r.State),
	}
	if r.TxHash != (common.Hash{}) {
		p.Transaction = r.TxHash.Hex()
	}
	if r.Response != nil {
		if r.Response.TransactionHash != "" {
			p.Transaction = r.Response.TransactionHash
		}
		if r.State == store.StateFailed {
			p.Error = string(r.Response.ErrorCode)
		}
	}
	if r.State == store.StateSettled || r.State == store.StateFailed {
		p.LatencyMS = r.Updated.Sub(r.Created).Milliseconds()
	}
	return p
}

// amount formats an amount of asset in whole units with its symbol,
// rounded for reading, or in base units for an unknown asset.
func (d *Dashboard) amount(asset common.Address, v *big.Int) string {
	if v == nil {
		return ""
	}
	if a, ok := d.assets[asset]; ok {
		return readable(v, a.Decimals, a.USD) + " " + a.Symbol
	}
	return v.String() + " units"
}

// amountExact is amount without rounding, for the CSV.
func (d *Dashboard) amountExact(asset common.Address, v *big.Int) string {
	if v == nil {
		return ""
	}
	if a, ok := d.assets[asset]; ok {
		return formatUnits(v, a.Decimals) + " " + a.Symbol
	}
	return v.String() + " units"
}

// usdExact is an amount of a USD-pegged token in USD, exact; empty for
// another token.
func (d *Dashboard) usdExact(asset common.Address, v *big.Int) string {
	if u := d.usdOf(asset, v); u != nil {
		return formatUnits(u, usdDecimals)
	}
	return ""
}

// symbol names an asset: its symbol, or its shortened address.
func (d *Dashboard) symbol(asset common.Address) string {
	if a, ok := d.assets[asset]; ok {
		return a.Symbol
	}
	h := asset.Hex()
	return h[:6] + "…" + h[len(h)-4:]
}

// errBadRequest marks a malformed query or body: the caller's mistake.
var errBadRequest = errors.New("bad request")

func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errBadRequest}, args...)...)
}

// states are the record states a listing may filter on.
var states = []store.State{store.StateClaimed, store.StateSubmitted, store.StateSettled, store.StateFailed}

// parseQuery reads a listing's filters from a URL query:
// state (comma-separated), scheme, payer, pay_to, since, until (RFC 3339
// or a date), after (a cursor) and limit.
func parseQuery(v url.Values) (store.Query, error) {
	var q store.Query
	if s := v.Get("state"); s != "" {
		for _, st := range strings.Split(s, ",") {
			if !slices.Contains(states, store.State(st)) {
				return q, badRequest("state %q: want claimed, submitted, settled or failed", clip(st))
			}
			q.States = append(q.States, store.State(st))
		}
	}
	if s := v.Get("scheme"); s != "" {
		if s != "exact" && s != "aa-native" {
			return q, badRequest("scheme %q: want exact or aa-native", clip(s))
		}
		q.Scheme = s
	}
	for _, f := range []struct {
		name string
		to   **common.Address
	}{{"payer", &q.Payer}, {"pay_to", &q.PayTo}} {
		if s := strings.TrimSpace(v.Get(f.name)); s != "" {
			if !common.IsHexAddress(s) {
				return q, badRequest("%s %q: want a 0x address", f.name, clip(s))
			}
			a := common.HexToAddress(s)
			*f.to = &a
		}
	}
	for _, f := range []struct {
		name string
		to   *time.Time
	}{{"since", &q.Since}, {"until", &q.Until}} {
		if s := v.Get(f.name); s != "" {
			t, err := parseTime(s)
			if err != nil {
				return q, badRequest("%s %q: want RFC 3339 (2026-11-22T10:00:00Z) or a date (2026-11-22)", f.name, clip(s))
			}
			*f.to = t
		}
	}
	q.After = v.Get("after")
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			return q, badRequest("limit %q: want 1 to 1000", clip(s))
		}
		q.Limit = n
	}
	if err := q.Validate(); err != nil {
		return q, badRequest("%v", err)
	}
	return q, nil
}

func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Parse(time.DateOnly, s)
}

// payments returns a page of payments.
func (d *Dashboard) payments(ctx context.Context, q store.Query) ([]Payment, string, error) {
	page, err := d.cfg.Payments.List(ctx, q)
	if err != nil {
		return nil, "", err
	}
	out := make([]Payment, len(page.Records))
	for i, r := range page.Records {
		out[i] = d.payment(r)
	}
	return out, page.Next, nil
}

// maxCSVRows bounds one CSV export; narrow the filter for more.
const maxCSVRows = 100_000

// csvHeader names the CSV export's columns.
var csvHeader = []string{"time", "resource", "description", "payer", "pay_to", "asset", "amount", "amount_display", "scheme", "network", "status", "error", "transaction", "latency_ms", "amount_usd"}

// writeCSV streams the payments that q selects as CSV, page by page. Every
// cell is written by csvWriter, safe for spreadsheets.
func (d *Dashboard) writeCSV(w http.ResponseWriter, r *http.Request, q store.Query) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="payments.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	cw := newCSVWriter(w)
	cw.write(csvHeader)
	q.Limit = 1000
	rows := 0
	for {
		list, next, err := d.payments(r.Context(), q)
		if err != nil {
			// The header is written: the error can only end the file.
			d.log.Error("exporting payments", errField(err))
			cw.write([]string{"# export stopped: " + publicError(err)})
			break
		}
		for _, p := range list {
			lat := ""
			if p.LatencyMS > 0 {
				lat = strconv.FormatInt(p.LatencyMS, 10)
			}
			amount, _ := new(big.Int).SetString(p.Amount, 10)
			cw.write([]string{p.Time.UTC().Format(time.RFC3339Nano), p.Resource, p.Description, p.Payer.Hex(), p.PayTo.Hex(), p.Asset.Hex(), p.Amount, d.amountExact(p.Asset, amount), p.Scheme, p.Network, p.Status, p.Error, p.Transaction, lat, d.usdExact(p.Asset, amount)})
			rows++
		}
		if next == "" || rows >= maxCSVRows {
			break
		}
		q.After = next
	}
	cw.flush()
}

// amountString is an amount in base units as a JSON-safe decimal string
// (a JSON number loses precision past 2^53 in most clients).
func amountString(v *big.Int) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

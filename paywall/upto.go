package paywall

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Usage is how an `upto` offer's response is metered: the payer signs a
// maximum (the offer's amount), the response is served as it comes,
// streamed, and then the amount it used is settled, never above the
// maximum, exactly once, whether or not the client stayed to the end.
//
//   - per byte: the body bytes the client's connection took (a response
//     cut short is charged for what was delivered);
//   - per second: the whole seconds, begun, from the status to the body's
//     end;
//   - per unit of a header: the whole number the upstream sets in Header
//     with its status, which the client never sees.
//
// A response never delivers more than the maximum buys: per byte, the
// bytes that the maximum pays for at the unit price, and per second, the
// seconds; the response then ends (the stream is closed cleanly, and its
// BudgetTrailer says it was cut). So does a response still going
// DeadlineMargin before its payment's Permit2 deadline, which its
// settlement must be mined before. Per unit of a header, the upstream is
// told the budget in the request's BudgetHeader; units it reports above it
// are not charged (the merchant bears them) and are reported in the
// settlement's Event.Overage.
//
// A response with an error status (400 and up), or none, owes nothing,
// and nothing owed is settled with no transaction. A response that ends
// within Hold bytes without a flush is held, settled, and sent with
// PAYMENT-RESPONSE as a header (and is not sent at all if its settlement
// fails, as for exact); a longer or flushed one (a stream) streams, and
// PAYMENT-RESPONSE comes as an HTTP trailer (declared in the Trailer
// header), since the headers are gone before the amount is known.
type Usage struct {
	// Per is UsageBytes, UsageSeconds or UsageHeader.
	Per string
	// Header is the upstream's usage header, for UsageHeader.
	Header string
	// Prices are the atomic units owed per unit counted, by lowercase
	// asset address.
	Prices map[string]*big.Int
	// Hold is the largest response, in bytes, held until it is settled so
	// that its PAYMENT-RESPONSE goes in a header (which fetch clients can
	// read, where few read trailers). 0 holds none: every response
	// streams, with the trailer.
	Hold int
	// DeadlineMargin is how long before the payment's Permit2 deadline a
	// response is cut, so that its settlement can still be mined: a
	// response served past the deadline could never be settled. Default
	// 15 s.
	DeadlineMargin time.Duration
}

// defaultDeadlineMargin is Usage.DeadlineMargin's default.
const defaultDeadlineMargin = 15 * time.Second

// BudgetHeader is the request header that tells the upstream of a
// per-unit-of-a-header upto route how many units the payer's maximum buys.
const BudgetHeader = "X402-Usage-Budget"

// BudgetTrailer is the trailer (or, on a held response, the header) of an
// upto response cut short by the paywall: "exhausted" when it used what
// the payer's maximum buys, "deadline" when its payment's deadline came
// too close for its settlement to be mined after it.
const BudgetTrailer = "X402-Budget"

// The units Usage counts.
const (
	UsageBytes   = "byte"
	UsageSeconds = "second"
	UsageHeader  = "header"
)

// Validate reports what is wrong with u.
func (u *Usage) Validate() error {
	switch u.Per {
	case UsageBytes, UsageSeconds:
	case UsageHeader:
		if u.Header == "" {
			return errors.New("upto usage per header: the header's name is missing")
		}
	default:
		return errors.New("upto usage: per must be byte, second or header")
	}
	if len(u.Prices) == 0 {
		return errors.New("upto usage: no price per unit")
	}
	for a, p := range u.Prices {
		if p == nil || p.Sign() <= 0 {
			return errors.New("upto usage: the price per unit of " + a + " is not positive")
		}
	}
	if u.Hold < 0 || u.Hold > maxHold {
		return errors.New("upto usage: hold must be between 0 and 16 MiB")
	}
	return nil
}

// maxHold bounds Usage.Hold: a held response is in memory.
const maxHold = 16 << 20

// budget is how many units max buys at the price of asset, or nil when
// the asset has no price (nothing is owed).
func (u *Usage) budget(asset string, max *big.Int) *big.Int {
	price := u.Prices[strings.ToLower(asset)]
	if price == nil || max == nil {
		return nil
	}
	return new(big.Int).Quo(max, price)
}

// meter is the ResponseWriter of an upto response: it passes everything
// through as it comes (or holds a short response until it is settled),
// counts what it will be charged for, and ends the response once it used
// what the payer's maximum buys.
type meter struct {
	w      http.ResponseWriter
	usage  *Usage
	status int
	began  time.Time
	bytes  int64    // sent to the client
	units  *big.Int // UsageHeader's count, once the status is written
	// budget is what the maximum buys: bytes for UsageBytes, seconds for
	// UsageSeconds; nil is no bound (UsageHeader, or an asset without a
	// price).
	budget  *big.Int
	decided bool
	// switched is set when the handler answered 101, which a metered
	// response cannot: what it writes next is dropped.
	switched bool
	// held is set while a response is held: its status is not sent yet
	// and its body is in buf.
	held bool
	buf  []byte
	// stop ends the handler's request (its context), to end an upstream
	// that would go on past the budget.
	stop context.CancelFunc
	// mu guards cut, which the timers set: why the response was cut
	// ("exhausted" or "deadline"), or "".
	mu  sync.Mutex
	cut string
	// timer cuts a per-second response at its budget.
	timer *time.Timer
}

func (m *meter) Header() http.Header { return m.w.Header() }

func (m *meter) WriteHeader(status int) {
	if m.decided {
		return
	}
	if status == http.StatusSwitchingProtocols {
		// An upgrade is settled before it starts, for the maximum, by the
		// gate; a metered response cannot switch protocols, or its
		// handler would take the connection unmetered.
		m.decided, m.switched, m.status, m.began = true, true, http.StatusBadGateway, time.Now()
		m.w.WriteHeader(http.StatusBadGateway)
		return
	}
	if status >= 100 && status < 200 {
		m.w.WriteHeader(status)
		return
	}
	m.decided, m.status, m.began = true, status, time.Now()
	if m.usage.Per == UsageHeader {
		// What the upstream says it used is ours to read and the client's
		// never to see (it may say more about the upstream than the price).
		v := strings.TrimSpace(m.w.Header().Get(m.usage.Header))
		m.w.Header().Del(m.usage.Header)
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			m.units = new(big.Int).SetUint64(n)
		}
	}
	if status >= 400 {
		// Owes nothing: streamed as it comes, with the (empty) settlement
		// in the trailer.
		m.w.Header().Add("Trailer", x402.HeaderPaymentResponse)
		m.w.WriteHeader(status)
		return
	}
	if m.usage.Per == UsageSeconds && m.budget != nil {
		d := time.Duration(min(m.budget.Int64(), int64(maxBudgetSeconds))) * time.Second
		if !m.budget.IsInt64() {
			d = maxBudgetSeconds * time.Second
		}
		m.timer = time.AfterFunc(d, func() { m.exhaust(cutExhausted) })
	}
	if m.usage.Hold > 0 {
		m.held = true
		return
	}
	m.stream()
}

// maxBudgetSeconds bounds a per-second budget's timer (about 68 years).
const maxBudgetSeconds = 1 << 31

// stream sends the status, declaring the trailers, and what was held.
func (m *meter) stream() {
	m.held = false
	// The settlement goes in a trailer: the headers leave now.
	m.w.Header().Add("Trailer", x402.HeaderPaymentResponse)
	m.w.Header().Add("Trailer", BudgetTrailer)
	m.w.Header().Del("Content-Length") // a cut response must end early
	m.w.WriteHeader(m.status)
	if len(m.buf) > 0 {
		n, _ := m.w.Write(m.buf)
		m.bytes += int64(n)
		m.buf = nil
	}
}

func (m *meter) Write(b []byte) (int, error) {
	if !m.decided {
		m.WriteHeader(http.StatusOK)
	}
	if m.switched {
		return 0, errSwitched
	}
	if m.status >= 400 {
		n, err := m.w.Write(b)
		m.bytes += int64(n)
		return n, err
	}
	if m.isCut() {
		return 0, errBudgetSpent
	}
	want := len(b)
	if m.usage.Per == UsageBytes && m.budget != nil {
		left := new(big.Int).Sub(m.budget, big.NewInt(m.bytes+int64(len(m.buf))))
		if left.Cmp(big.NewInt(int64(len(b)))) < 0 {
			b = b[:left.Int64()] // what the maximum still buys
		}
	}
	var n int
	var err error
	switch {
	case m.held && len(m.buf)+len(b) <= m.usage.Hold:
		m.buf = append(m.buf, b...)
		n = len(b)
	default:
		if m.held {
			m.stream()
		}
		n, err = m.w.Write(b)
		m.bytes += int64(n)
	}
	if err == nil && n < want {
		m.exhaust(cutExhausted)
		return n, errBudgetSpent
	}
	return n, err
}

// Flush sends what is buffered: a flushed response streams.
func (m *meter) Flush() {
	if !m.decided {
		m.WriteHeader(http.StatusOK)
	}
	if m.held {
		if m.isCut() {
			return // the whole response is held: it goes out once settled
		}
		m.stream()
	}
	http.NewResponseController(m.w).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (m *meter) Unwrap() http.ResponseWriter { return m.w }

// Why a metered response was cut.
const (
	cutExhausted = "exhausted"
	cutDeadline  = "deadline"
)

// exhaust cuts the response, for why: the payer's maximum is used up, or
// its deadline is near. Writes are refused from now on, and the handler's
// request ends, so that an upstream streaming on stops.
func (m *meter) exhaust(why string) {
	m.mu.Lock()
	if m.cut == "" {
		m.cut = why
	}
	m.mu.Unlock()
	if m.stop != nil {
		m.stop()
	}
}

// isCut reports whether the response was cut.
func (m *meter) isCut() bool { return m.cutWhy() != "" }

// cutWhy is why the response was cut, or "".
func (m *meter) cutWhy() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cut
}

// overage is the units an upstream reported above what the maximum buys,
// or nil.
func (m *meter) overage() *big.Int {
	if m.usage.Per != UsageHeader || m.units == nil || m.budget == nil || m.units.Cmp(m.budget) <= 0 {
		return nil
	}
	return new(big.Int).Sub(m.units, m.budget)
}

// owed is what the response used, in atomic units of asset, at most max.
func (m *meter) owed(asset string, max *big.Int, ended time.Time) *big.Int {
	if !m.decided || m.status >= 400 {
		return new(big.Int)
	}
	price := m.usage.Prices[strings.ToLower(asset)]
	if price == nil {
		return new(big.Int)
	}
	var units *big.Int
	switch m.usage.Per {
	case UsageBytes:
		units = big.NewInt(m.bytes + int64(len(m.buf))) // a held body is sent once settled
	case UsageSeconds:
		d := ended.Sub(m.began)
		units = big.NewInt(int64((d + time.Second - 1) / time.Second))
	case UsageHeader:
		units = m.units
	}
	if units == nil {
		// An upstream that did not say what it used is charged the
		// maximum the payer agreed to.
		return new(big.Int).Set(max)
	}
	owed := new(big.Int).Mul(units, price)
	if owed.Cmp(max) > 0 {
		owed.Set(max)
	}
	return owed
}

// serveMetered serves an upto payment: next's response streams to the
// client through a meter (or is held, when short), then what it used is
// settled, once, with the settle's requirements carrying the amount owed
// (upstream's convention), and the result goes in PAYMENT-RESPONSE. It
// settles even if the client went away, next failed, or next panicked
// (reverse_proxy aborts a response its client left with
// http.ErrAbortHandler): ctx outlives the request, and the settlement is
// deferred. The response is cut at cutAt (zero: never), before its
// payment's deadline (see uptoDeadline). A response cut at its budget
// ends cleanly: the abort that cut causes in reverse_proxy (its
// upstream's request ends) is recovered here, so the stream's end and its
// trailers still go out.
func (p *Paywall) serveMetered(ctx context.Context, w http.ResponseWriter, r *http.Request, req *x402.VerifyRequest, cutAt time.Time, next func(http.ResponseWriter, *http.Request) error) (err error) {
	max, _ := x402.ParseAmount(req.PaymentRequirements.Amount)
	m, r, stop := p.newMeter(w, r, req.PaymentRequirements.Asset, max)
	defer stop()
	defer p.settleUsage(ctx, w, r, req, m)
	if !cutAt.IsZero() {
		t := time.AfterFunc(time.Until(cutAt), func() { m.exhaust(cutDeadline) })
		defer t.Stop()
	}
	return m.run(next, r)
}

// newMeter is the meter of a response whose payer agreed to at most max
// of asset, and r as its handler is to see it: with a context the meter
// ends once the budget is used (stop releases it), and per unit of a
// header, the budget in BudgetHeader.
func (p *Paywall) newMeter(w http.ResponseWriter, r *http.Request, asset string, max *big.Int) (*meter, *http.Request, context.CancelFunc) {
	rctx, stop := context.WithCancel(r.Context())
	m := &meter{w: w, usage: p.cfg.Usage, stop: stop, budget: p.cfg.Usage.budget(asset, max)}
	if p.cfg.Usage.Per == UsageHeader {
		r = r.Clone(rctx)
		if m.budget != nil {
			r.Header.Set(BudgetHeader, m.budget.String())
		} else {
			r.Header.Del(BudgetHeader)
		}
	} else {
		r = r.WithContext(rctx)
	}
	return m, r, stop
}

// run serves r through next, metered by m. A response cut at its budget
// ends cleanly: the abort that cut causes in reverse_proxy (its
// upstream's request ends) is recovered here, so the stream's end and its
// trailers still go out; any other panic goes on.
func (m *meter) run(next func(http.ResponseWriter, *http.Request) error, r *http.Request) (err error) {
	defer func() {
		if m.timer != nil {
			m.timer.Stop()
		}
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler || !m.isCut() {
				panic(v)
			}
			err = nil // cut at the budget: the response ends here
		}
	}()
	err = next(m, r)
	if m.isCut() {
		err = nil
	}
	return err
}

// release sends res, the settlement of what m counted: a held response
// goes out now, with PAYMENT-RESPONSE as a header; a streamed one gets it
// as its declared trailer.
func (m *meter) release(r *http.Request, res *x402.SettleResponse) {
	if m.held {
		setPaymentResponse(m.w, r, res)
		if why := m.cutWhy(); why != "" {
			m.w.Header().Set(BudgetTrailer, why)
		}
		m.w.Header().Set("Content-Length", strconv.Itoa(len(m.buf)))
		m.w.WriteHeader(m.status)
		n, _ := m.w.Write(m.buf)
		m.bytes += int64(n)
		return
	}
	if value, err := x402.EncodeHeader(res); err == nil {
		m.w.Header().Set(x402.HeaderPaymentResponse, value) // the declared trailer
	}
	if why := m.cutWhy(); why != "" {
		m.w.Header().Set(BudgetTrailer, why)
	}
}

// settleUsage settles what m counted. A held response is sent now, with
// PAYMENT-RESPONSE as a header, or not at all if its settlement failed.
func (p *Paywall) settleUsage(ctx context.Context, w http.ResponseWriter, r *http.Request, req *x402.VerifyRequest, m *meter) {
	max, _ := x402.ParseAmount(req.PaymentRequirements.Amount)
	settle := *req
	settle.PaymentRequirements.Amount = m.owed(req.PaymentRequirements.Asset, max, time.Now()).String()
	res, ok, stop := p.settleMetered(ctx, r, &settle, m.overage())
	switch {
	case m.held && (!ok || res == nil):
		// Not paid: the held response is dropped, as exact drops an
		// upstream's answer whose settlement failed.
		if res == nil {
			res = &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network, ErrorCode: x402.ErrorInternal}
		}
		m.w.Header().Del("Content-Length")
		p.answer(m.w, r, settleRefusal(res, stop))
	case m.held || (res != nil && m.decided):
		m.release(r, res)
	}
	if ok && res.TransactionHash != "" {
		if f, isResponder := p.cfg.Facilitator.(Responder); isResponder {
			f.Served(ctx, &settle)
		}
	}
}

// settleMetered settles an upto response, with the units its upstream
// reported above the budget, if any, in the hooks' Event.
func (p *Paywall) settleMetered(ctx context.Context, r *http.Request, req *x402.VerifyRequest, overage *big.Int) (*x402.SettleResponse, bool, error) {
	if overage != nil {
		r = r.WithContext(context.WithValue(r.Context(), overageKey{}, overage))
	}
	return p.settle(ctx, r, req, nil) // never on broadcast: the response is written
}

// overageKey is the context key of an upto response's overage, for the
// settle hooks' Event.
type overageKey struct{}

// errBudgetSpent refuses the writes of an upto response past what the
// payer's maximum buys.
var errBudgetSpent = errors.New("x402: the payer's maximum is used up: the response ends here")

// errSwitched refuses the writes of a metered handler that answered 101.
var errSwitched = errors.New("x402: a metered (upto) response cannot switch protocols")

package paywall

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"strconv"
	"strings"
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
// A response with an error status (400 and up), or none, owes nothing,
// and nothing owed is settled with no transaction. PAYMENT-RESPONSE is
// sent as an HTTP trailer (declared in the Trailer header), since the
// headers are gone before the amount is known; a response with a
// Content-Length has no trailers, and the client reads the settlement from
// the facilitator or the chain.
type Usage struct {
	// Per is UsageBytes, UsageSeconds or UsageHeader.
	Per string
	// Header is the upstream's usage header, for UsageHeader.
	Header string
	// Prices are the atomic units owed per unit counted, by lowercase
	// asset address.
	Prices map[string]*big.Int
}

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
	return nil
}

// meter is the ResponseWriter of an upto response: it passes everything
// through as it comes and counts what it will be charged for.
type meter struct {
	w       http.ResponseWriter
	usage   *Usage
	status  int
	began   time.Time
	bytes   int64
	units   *big.Int // UsageHeader's count, once the status is written
	decided bool
	// switched is set when the handler answered 101, which a metered
	// response cannot: what it writes next is dropped.
	switched bool
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
	// The settlement goes in a trailer: the headers leave now.
	m.w.Header().Add("Trailer", x402.HeaderPaymentResponse)
	m.w.WriteHeader(status)
}

func (m *meter) Write(b []byte) (int, error) {
	if !m.decided {
		m.WriteHeader(http.StatusOK)
	}
	if m.switched {
		return 0, errSwitched
	}
	n, err := m.w.Write(b)
	m.bytes += int64(n)
	return n, err
}

// Flush sends what is buffered.
func (m *meter) Flush() {
	if !m.decided {
		m.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(m.w).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (m *meter) Unwrap() http.ResponseWriter { return m.w }

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
		units = big.NewInt(m.bytes)
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
// client through a meter, then what it used is settled, once, with the
// settle's requirements carrying the amount owed (upstream's convention),
// and the result goes in the PAYMENT-RESPONSE trailer. It settles even if
// the client went away, next failed, or next panicked (reverse_proxy
// aborts a response its client left with http.ErrAbortHandler): ctx
// outlives the request, and the settlement is deferred.
func (p *Paywall) serveMetered(ctx context.Context, w http.ResponseWriter, r *http.Request, req *x402.VerifyRequest, next func(http.ResponseWriter, *http.Request) error) error {
	m := &meter{w: w, usage: p.cfg.Usage}
	defer p.settleUsage(ctx, w, r, req, m)
	return next(m, r)
}

// settleUsage settles what m counted.
func (p *Paywall) settleUsage(ctx context.Context, w http.ResponseWriter, r *http.Request, req *x402.VerifyRequest, m *meter) {
	max, _ := x402.ParseAmount(req.PaymentRequirements.Amount)
	settle := *req
	settle.PaymentRequirements.Amount = m.owed(req.PaymentRequirements.Asset, max, time.Now()).String()
	res, ok, _ := p.settle(ctx, r, &settle, nil) // never on broadcast: the response is already written
	if res != nil && m.decided {
		if value, err := x402.EncodeHeader(res); err == nil {
			w.Header().Set(x402.HeaderPaymentResponse, value) // the declared trailer
		}
	}
	if ok && res.TransactionHash != "" {
		if f, isResponder := p.cfg.Facilitator.(Responder); isResponder {
			f.Served(ctx, &settle)
		}
	}
}

// errSwitched refuses the writes of a metered handler that answered 101.
var errSwitched = errors.New("x402: a metered (upto) response cannot switch protocols")

package caddymodule

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/x402"
)

// metrics are the x402 collectors. Caddy gives each config it loads a new
// Prometheus registry, so one set of collectors is kept in the usage pool
// and registered on the registry of every config that uses it: a config
// reload neither resets the counters nor leaves collectors behind.
type metrics struct {
	payments *prometheus.CounterVec
	verify   *prometheus.HistogramVec
	settle   *prometheus.HistogramVec
	inFlight prometheus.Gauge
	// servedUnpaid counts the payments served on broadcast whose
	// settlement then failed.
	servedUnpaid *prometheus.CounterVec
	// overage counts the units upto upstreams reported above what the
	// payer's maximum bought: served, not charged.
	overage *prometheus.CounterVec
	// counted holds the counters of payments that requests have counted,
	// by their labels (paymentLabels → prometheus.Counter), so that a
	// request finds its counter without building and hashing a list of
	// label values. Every label value comes from the config, so it is
	// bounded as the series are.
	counted sync.Map
}

// metricsKey is the collectors' key in the usage pool.
const metricsKey = "x402-metrics"

// Payment results, the result label of caddy_x402_payments_total.
const (
	resultUnpaid        = "unpaid"         // no payment: answered 402
	resultInvalid       = "invalid"        // a payment refused: malformed, not for an offer, or failing verification
	resultSettled       = "settled"        // paid
	resultSettleFailed  = "settle_failed"  // settlement failed: answered 402
	resultUnavailable   = "unavailable"    // not verified or settled yet, or not priced yet: answered 503, retry
	resultUpstreamError = "upstream_error" // a valid payment, not charged: the upstream failed
	resultWindow        = "window"         // no payment: served from the payer's access window
)

func newMetrics() *metrics {
	const ns, sub = "caddy", "x402"
	return &metrics{
		payments: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "payments_total",
			Help: "Requests to paid routes by server, host, network, asset, scheme and result (unpaid, invalid, settled, settle_failed, unavailable, upstream_error, window).",
		}, []string{"server", "host", "network", "asset", "scheme", "result"}),
		verify: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: ns, Subsystem: sub, Name: "verify_duration_seconds",
			Help: "Time to verify a payment.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
		}, []string{"scheme"}),
		settle: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: ns, Subsystem: sub, Name: "settle_duration_seconds",
			Help: "Time to settle a payment on chain.", Buckets: prometheus.ExponentialBuckets(0.005, 2, 14),
		}, []string{"scheme"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: ns, Subsystem: sub, Name: "payments_in_flight",
			Help: "Paid requests being verified, served or settled.",
		}),
		servedUnpaid: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "served_unpaid_total",
			Help: "Payments served on broadcast (serve_on_broadcast) whose settlement then failed, or whose outcome was still not known when given up, by server, host, network, asset and scheme.",
		}, []string{"server", "host", "network", "asset", "scheme"}),
		overage: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "upto_overage_units_total",
			Help: "Units an upto route's upstream reported (usage_header) above what the payer's maximum bought: served and not charged, by server and host.",
		}, []string{"server", "host"}),
	}
}

// Destruct has nothing to release.
func (*metrics) Destruct() error { return nil }

// holdMetrics takes a hold on the shared collectors and registers them on
// reg, the registry of the config being loaded; release the hold with
// release.
func holdMetrics(reg *prometheus.Registry) (*metrics, error) {
	v, _, err := pool.LoadOrNew(metricsKey, func() (caddy.Destructor, error) { return newMetrics(), nil })
	if err != nil {
		return nil, err
	}
	m := v.(*metrics)
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.payments, m.verify, m.settle, m.inFlight, m.servedUnpaid, m.overage} {
		if err := reg.Register(c); err != nil {
			// Another handler of the same config registered them.
			if are, ok := errors.AsType[prometheus.AlreadyRegisteredError](err); !ok || are.ExistingCollector != c {
				pool.Delete(metricsKey)
				return nil, err
			}
		}
	}
	return m, nil
}

// observation is what one request to a paid route showed of its payment,
// for the metrics and the settlement log.
type observation struct {
	offer    *x402.PaymentRequirements // the offer the payment accepted, if one
	verified bool
	valid    bool
	result   string // set once settlement ran
	upstream bool   // the request was passed on to the protected handler
}

type observationKey struct{}

// observationOf is r's observation, or nil.
func observationOf(r *http.Request) *observation {
	o, _ := r.Context().Value(observationKey{}).(*observation)
	return o
}

// observe runs serve, the paywall, and counts the request's outcome in
// caddy_x402_payments_total.
func (h *Handler) observe(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request) error) error {
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		return serve(w, r) // a CORS preflight, which the paywall answers
	}
	payment := r.Header.Get(x402.HeaderPaymentSignature)
	if payment == "" {
		payment = r.Header.Get(x402.HeaderXPayment) // an x402 v1 payment
	}
	if payment == "" {
		return h.observeUnpaid(w, r, serve)
	}
	h.metrics.inFlight.Inc()
	defer h.metrics.inFlight.Dec()
	obs := &observation{offer: h.acceptedOffer(payment)}
	r = r.WithContext(context.WithValue(r.Context(), observationKey{}, obs))
	rec := caddyhttp.NewResponseRecorder(w, nil, nil)
	err := serve(rec, r)
	h.answerUnanswered(rec, r, obs, err)
	result := obs.result
	switch {
	case result != "":
	case obs.verified && obs.valid:
		result = resultUpstreamError
	case rec.Status() == http.StatusServiceUnavailable:
		result = resultUnavailable
	default:
		result = resultInvalid
	}
	h.count(r, obs.offer, result)
	return err
}

// observeUnpaid is observe for a request without a payment. The paywall
// answers it 402, or 503 when the request's price is not available (its
// price service is down), or serves the payer's access window, which
// marks its observation and passes it on. Only a window's use does either,
// so on a route without access windows the request carries no observation
// (no copy of the request with it in its context) and is answered through
// a recorder of its status alone: the paywall answers it itself.
func (h *Handler) observeUnpaid(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request) error) error {
	if h.Access != nil {
		obs := new(observation)
		r = r.WithContext(context.WithValue(r.Context(), observationKey{}, obs))
		rec := caddyhttp.NewResponseRecorder(w, nil, nil)
		err := serve(rec, r)
		h.countUnpaid(rec, r, obs, err)
		return err
	}
	var obs observation // stays empty
	rec := &statusRecorder{ResponseWriterWrapper: caddyhttp.ResponseWriterWrapper{ResponseWriter: w}}
	err := serve(rec, r)
	h.countUnpaid(rec, r, &obs, err)
	return err
}

// countUnpaid answers an unpaid request nobody answered, and counts it.
func (h *Handler) countUnpaid(rec statusWriter, r *http.Request, obs *observation, err error) {
	h.answerUnanswered(rec, r, obs, err)
	result := resultUnpaid
	switch {
	case obs.result == resultWindow:
		result = resultWindow
	case rec.Status() == http.StatusServiceUnavailable:
		result = resultUnavailable
	}
	h.count(r, nil, result)
}

// statusWriter is a ResponseWriter that tells the status written (0 for
// none yet).
type statusWriter interface {
	http.ResponseWriter
	Status() int
}

// statusRecorder is a statusWriter for an answer the paywall writes
// itself, never a protected handler's: it records the final status and
// passes everything through, where caddyhttp's recorder also counts the
// body and can buffer it.
type statusRecorder struct {
	caddyhttp.ResponseWriterWrapper
	status int
}

// WriteHeader records the first final status, and writes it; a later
// one is dropped, as caddyhttp's recorder drops it. Informational (1xx)
// statuses pass through unrecorded.
func (s *statusRecorder) WriteHeader(status int) {
	if s.status != 0 {
		return
	}
	if status < 100 || status > 199 {
		s.status = status
	}
	s.ResponseWriterWrapper.WriteHeader(status)
}

// Write writes b, after a 200 if no status was written.
func (s *statusRecorder) Write(b []byte) (int, error) {
	s.WriteHeader(http.StatusOK)
	return s.ResponseWriterWrapper.Write(b)
}

// ReadFrom writes what r reads, after a 200 if no status was written.
func (s *statusRecorder) ReadFrom(r io.Reader) (int64, error) {
	s.WriteHeader(http.StatusOK)
	return s.ResponseWriterWrapper.ReadFrom(r)
}

// Status is the final status written, or 0.
func (s *statusRecorder) Status() int { return s.status }

// answerUnanswered is the one guard of a paid route against an answer
// nobody wrote: a paywall that returned without writing, and without
// passing the request on, would leave Caddy to send an empty 200, which a
// client (an agent above all) reads as success and its empty body as the
// resource. It answers 503 with Retry-After and a JSON body instead, and
// logs the request as an error: it is a bug to report. (A protected handler
// that writes nothing is the upstream's own empty answer, which the
// paywall settles and lets through.)
func (h *Handler) answerUnanswered(rec statusWriter, r *http.Request, obs *observation, err error) {
	if err != nil || rec.Status() != 0 || obs.upstream {
		return
	}
	h.log.Error("the paywall wrote no answer to a request of a paid route; answered 503 (please report this)",
		zap.String("method", r.Method), zap.String("path", requestPath(r)))
	hdr := rec.Header()
	hdr.Set("Retry-After", "1")
	hdr.Set("Content-Type", "application/json")
	hdr.Set("Cache-Control", "no-store")
	rec.WriteHeader(http.StatusServiceUnavailable)
	rec.Write([]byte(`{"error":"unavailable","message":"the paid route could not answer right now; retry"}` + "\n"))
}

// count adds one to caddy_x402_payments_total. Every label value comes from
// the config, never from what the client sent, so the series are bounded.
func (h *Handler) count(r *http.Request, offer *x402.PaymentRequirements, result string) {
	l := h.labelsOf(r, offer)
	l.result = result
	h.metrics.paymentsCounter(l).Inc()
}

// paymentLabels are the labels of caddy_x402_payments_total.
type paymentLabels struct {
	server, host, network, asset, scheme, result string
}

// paymentsCounter is the counter of caddy_x402_payments_total with labels
// l, the one WithLabelValues gives, found in m.counted once counted.
func (m *metrics) paymentsCounter(l paymentLabels) prometheus.Counter {
	if c, ok := m.counted.Load(l); ok {
		return c.(prometheus.Counter)
	}
	c := m.payments.WithLabelValues(l.server, l.host, l.network, l.asset, l.scheme, l.result)
	m.counted.Store(l, c)
	return c
}

// labels are the server, host, network, asset and scheme labels of a
// request to the route, paying offer (nil if none).
func (h *Handler) labels(r *http.Request, offer *x402.PaymentRequirements) []string {
	l := h.labelsOf(r, offer)
	return []string{l.server, l.host, l.network, l.asset, l.scheme}
}

// labelsOf is labels as paymentLabels, without a result.
func (h *Handler) labelsOf(r *http.Request, offer *x402.PaymentRequirements) paymentLabels {
	l := paymentLabels{host: "_other", network: h.network}
	if offer != nil {
		l.scheme, l.asset, l.network = offer.Scheme, offer.Asset, offer.Network
	}
	if srv, ok := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server); ok && srv != nil {
		l.server = srv.Name()
		if host := strings.ToLower(hostOnly(r.Host)); h.hosts.configured(srv, host) {
			l.host = host
		}
	}
	return l
}

// hostSet is the hosts that the host matchers of a handler's server name
// exactly (see configuredHost), worked out on its first request, when
// Caddy has provisioned every route.
type hostSet struct {
	once  sync.Once
	srv   *caddyhttp.Server
	hosts map[string]bool // lowercase
}

// configured is configuredHost(srv, host), for host in lowercase; a nil
// set, or a server other than its first, is looked up in full.
func (s *hostSet) configured(srv *caddyhttp.Server, host string) bool {
	if s == nil {
		return configuredHost(srv, host)
	}
	s.once.Do(func() { s.srv, s.hosts = srv, configuredHosts(srv) })
	if s.srv != srv || s.hosts == nil || !isASCII(host) {
		// strings.EqualFold folds a few letters outside ASCII (the
		// Kelvin sign) into ASCII ones, which strings.ToLower keeps
		// apart.
		return configuredHost(srv, host)
	}
	return s.hosts[host]
}

// configuredHosts are the hosts that srv's host matchers name exactly, in
// lowercase, or nil when a name has letters outside ASCII (see
// hostSet.configured).
func configuredHosts(srv *caddyhttp.Server) map[string]bool {
	hosts := map[string]bool{}
	for _, route := range srv.Routes {
		for _, set := range route.MatcherSets {
			for _, m := range set {
				hm, ok := m.(*caddyhttp.MatchHost)
				if !ok {
					continue
				}
				for _, name := range *hm {
					switch {
					case strings.ContainsAny(name, "*{"):
					case !isASCII(name):
						return nil
					default:
						hosts[strings.ToLower(name)] = true
					}
				}
			}
		}
	}
	return hosts
}

// isASCII reports whether s is ASCII only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// acceptedOffer is the route's offer that a payment header accepts, by
// scheme, network and asset, or nil. An x402 v1 payment names no asset:
// its offer is the first of its scheme and network (the paywall's
// AfterVerify hook puts the one it paid in its place once verified).
func (h *Handler) acceptedOffer(header string) *x402.PaymentRequirements {
	var scheme, network, asset string
	if p, err := x402.DecodePaymentPayload(header); err == nil {
		scheme, network, asset = p.Accepted.Scheme, p.Accepted.Network, p.Accepted.Asset
	} else if v1, err := x402.DecodePaymentPayloadV1(header); err == nil {
		scheme = v1.Scheme
		if network, _ = x402.NetworkFromV1(v1.Network); network == "" {
			return nil
		}
	} else {
		return nil
	}
	for i := range h.issued {
		o := &h.issued[i]
		if o.Scheme == scheme && o.Network == network && (asset == "" || strings.EqualFold(o.Asset, asset)) {
			return o
		}
	}
	return nil
}

// configuredHost reports whether a host matcher of the server's routes
// names host exactly. As Caddy's per-host metrics do, only those hosts get
// a label of their own: others are chosen by the client, without bound.
func configuredHost(srv *caddyhttp.Server, host string) bool {
	for _, route := range srv.Routes {
		for _, set := range route.MatcherSets {
			for _, m := range set {
				hm, ok := m.(*caddyhttp.MatchHost)
				if !ok {
					continue
				}
				for _, name := range *hm {
					if !strings.ContainsAny(name, "*{") && strings.EqualFold(name, host) {
						return true
					}
				}
			}
		}
	}
	return false
}

// reorgsDesc describes caddy_x402_settlement_reorgs_total.
var reorgsDesc = prometheus.NewDesc("caddy_x402_settlement_reorgs_total",
	"Settled payments whose transaction left its block in a chain reorganisation, by network and outcome: moved (mined again in another block), dropped (not in the new branch: broadcast again), reverted (mined again and reverted: the response was served unpaid).",
	[]string{"network", "outcome"}, nil)

// reorgCollector exports the finality watcher's counts of the running
// facilitator of each chain, labelled by network. It reads them when
// scraped, so a reload that keeps the chains keeps the counts; they start
// at zero with each facilitator.
type reorgCollector struct {
	chains []*sharedChain
}

// Describe implements prometheus.Collector.
func (c reorgCollector) Describe(ch chan<- *prometheus.Desc) { ch <- reorgsDesc }

// Collect implements prometheus.Collector.
func (c reorgCollector) Collect(ch chan<- prometheus.Metric) {
	for _, chain := range c.chains {
		run, err := chain.running()
		if err != nil || run.fac == nil {
			continue
		}
		r := run.fac.Reorganised()
		for outcome, n := range map[string]uint64{"moved": r.Moved, "dropped": r.Dropped, "reverted": r.Reverted} {
			ch <- prometheus.MustNewConstMetric(reorgsDesc, prometheus.CounterValue, float64(n), chain.plan.network, outcome)
		}
	}
}

// The route a paid request is counted under, in the refusal counters and
// the served-unpaid records: the route the merchant configured (its host
// and path matchers, as written), never the request's own path. A payer
// chooses the path of its request within the route (`/paid/<anything>`),
// so counting by it would let anyone fill the bounded counters with made-up
// paths and push the real routes' refusals out (issue 40, item 6).

// maxRouteLabel bounds a route's label, in bytes.
const maxRouteLabel = 120

// unmatchedRoute is the label of a request whose handler was not found in
// its server's routes (an invoked named route, a config being replaced).
const unmatchedRoute = "(unmatched route)"

// routeName is a route's label, worked out once.
type routeName struct {
	once  sync.Once
	label string
}

// routeLabel is the label of h's route in r's server: the host and path
// patterns of the matchers on the way to h, such as "example.com/paid/*".
// It is worked out once, on the first request, when Caddy has provisioned
// every route.
func (h *Handler) routeLabel(r *http.Request) string {
	rn := h.route
	if rn == nil {
		rn = new(routeName) // a handler Caddy did not provision: not kept
	}
	rn.once.Do(func() {
		rn.label = unmatchedRoute
		srv, _ := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
		if srv == nil {
			return
		}
		if hosts, paths, ok := findHandler(srv.Routes, h, nil, nil); ok {
			rn.label = labelOf(hosts, paths)
		}
	})
	return rn.label
}

// findHandler looks for h in routes and the subroutes below them, and
// returns the host and path patterns of the innermost route matchers on
// the way. The patterns of a route (of one matcher set or of several) are
// alternatives.
func findHandler(routes caddyhttp.RouteList, h *Handler, hosts, paths []string) ([]string, []string, bool) {
	for _, rt := range routes {
		var rh, rp []string
		for _, set := range rt.MatcherSets {
			for _, m := range set {
				switch m := m.(type) {
				case *caddyhttp.MatchHost:
					rh = append(rh, *m...)
				case caddyhttp.MatchHost:
					rh = append(rh, m...)
				case *caddyhttp.MatchPath:
					rp = append(rp, *m...)
				case caddyhttp.MatchPath:
					rp = append(rp, m...)
				}
			}
		}
		// A nested route's matchers narrow the outer ones: the innermost
		// win.
		if len(rh) == 0 {
			rh = hosts
		}
		if len(rp) == 0 {
			rp = paths
		}
		for _, handler := range rt.Handlers {
			if handler == caddyhttp.MiddlewareHandler(h) {
				return rh, rp, true
			}
			if sub, ok := handler.(*caddyhttp.Subroute); ok {
				if fh, fp, ok := findHandler(sub.Routes, h, rh, rp); ok {
					return fh, fp, true
				}
			}
		}
	}
	return nil, nil, false
}

// labelOf writes hosts and paths as one label, such as
// "example.com/paid/*"; no path matcher is "/*".
func labelOf(hosts, paths []string) string {
	path := "/*"
	if len(paths) > 0 {
		path = strings.Join(slices.Compact(paths), ",")
	}
	label := path
	if len(hosts) > 0 {
		label = strings.Join(slices.Compact(hosts), ",") + path
	}
	if len(label) > maxRouteLabel {
		label = label[:maxRouteLabel]
	}
	return label
}

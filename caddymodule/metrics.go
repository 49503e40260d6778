package caddymodule

import (
	"errors"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the x402 collectors of one Prometheus registry.
type metrics struct {
	payments *prometheus.CounterVec
	verify   *prometheus.HistogramVec
	settle   *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

var (
	metricsMu         sync.Mutex
	metricsByRegistry = map[*prometheus.Registry]*metrics{}
)

// metricsFor registers the collectors on reg once and returns them; every
// handler of every config loaded into the same registry shares them.
func metricsFor(reg *prometheus.Registry) (*metrics, error) {
	metricsMu.Lock()
	defer metricsMu.Unlock()
	if m, ok := metricsByRegistry[reg]; ok {
		return m, nil
	}
	const ns, sub = "caddy", "x402"
	m := &metrics{
		payments: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Subsystem: sub, Name: "payments_total",
			Help: "Paid requests by scheme and result (settled, invalid, settle_failed, unavailable).",
		}, []string{"scheme", "result"}),
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
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.payments, m.verify, m.settle, m.inFlight} {
			if err := reg.Register(c); err != nil {
				var are prometheus.AlreadyRegisteredError
				if !errors.As(err, &are) {
					return nil, err
				}
			}
		}
	}
	metricsByRegistry[reg] = m
	return m, nil
}

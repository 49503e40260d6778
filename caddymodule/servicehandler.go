package caddymodule

import (
	"net/http"

	"github.com/caddyserver/caddy/v2"
)

// serviceHandler is what x402_paymaster and x402_txapi have in common: a
// plain http.Handler service kept in the usage pool under its identity,
// opened by the x402 app's Start with the running chain and store, given
// a reload's tunables in place, and served behind the access log's
// redaction of API keys.
type serviceHandler[S http.Handler, T tunables[S, T]] struct {
	key    string // the service's key in the pool, while held
	svc    *pooled[S, T]
	access accessLog
}

// opener opens a handler's service on the running chain, with t in force;
// it returns what closes what it opened.
type opener[S, T any] func(run *chainRun, t T) (S, func() error, error)

// provision takes a hold on the service of key, created unopened if no
// config holds it, and has app open it with open, or put t in force in
// it, when app starts. fixed are the options a reload cannot change, as
// for pooled.check. Nothing is opened here.
func (h *serviceHandler[S, T]) provision(ctx caddy.Context, app *App, handler, key string, fixed any, t T, open opener[S, T]) error {
	h.access = newAccessLog(ctx)
	v, _, err := pool.LoadOrNew(key, func() (caddy.Destructor, error) { return newPooled[S, T]("the "+handler+" service", fixed), nil })
	if err != nil {
		return err
	}
	h.key, h.svc = key, v.(*pooled[S, T])
	if err := h.svc.check(fixed); err != nil {
		return err
	}
	svc := h.svc
	return app.hold(handler, svc, t, func() error {
		return svc.start(t, func(t T) (S, func() error, error) {
			run, err := app.chain.running()
			if err != nil {
				var zero S
				return zero, nil, err
			}
			return open(run, t)
		})
	})
}

// serve serves r with the running service. A request that comes before
// any config started it (Caddy may start the http app first) waits for
// the start; if the start fails, it is answered 503.
func (h *serviceHandler[S, T]) serve(w http.ResponseWriter, r *http.Request) error {
	return h.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		svc, err := h.svc.wait(r.Context())
		if err != nil {
			// Answered here, not returned: Caddy's error log would record
			// the request's API key.
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":"unavailable","message":"the service is not running; retry"}` + "\n"))
			return nil
		}
		svc.ServeHTTP(w, r)
		return nil
	})
}

// cleanup releases the hold on the service; the last holder closes it.
func (h *serviceHandler[S, T]) cleanup() error { return release(&h.key) }

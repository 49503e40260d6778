package caddymodule

// The life of what outlives a config: the chain, the facilitator and the
// handlers' services.
//
// Caddy provisions a config before it runs it, and `caddy validate`
// provisions one it never runs, so a pooled service does no I/O when it is
// provisioned. Provision takes a hold on it in the usage pool, keyed by
// its identity (what must not run twice: a settler key, a store file, a
// port), and checks that the config asks for nothing a reload cannot
// change. The x402 app's Start opens it, once for every config that holds
// it, and puts the config's tunables in force; the last Cleanup closes it.
// Closing waits for Cleanup rather than Stop because Caddy stops its apps
// in no fixed order: the http app may still be finishing requests that
// settle through the service when the x402 app is stopped.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/caddyserver/caddy/v2"
)

// pool holds what survives config reloads: the chain and facilitator, the
// handlers' services and the metrics.
var pool = caddy.NewUsagePool()

// release gives up a hold taken with pool.LoadOrNew under *key, if one is
// held, and forgets it: Caddy may clean a module up twice. The last hold's
// release destructs the value.
func release(key *string) error {
	if *key == "" {
		return nil
	}
	k := *key
	*key = ""
	_, err := pool.Delete(k)
	return err
}

// tunables are the options of a pooled service that a config reload may
// change while it runs. Their JSON object names them in errors (see
// changedOptions).
type tunables[S, T any] interface {
	// apply puts the tunables in force in s, in place of old: the swap of
	// a reload, in one call.
	apply(s S, old T) error
}

// pooled is a service of the usage pool: S is the running service, T its
// tunables. Its zero value is not usable; see newPooled.
type pooled[S any, T tunables[S, T]] struct {
	what  string // names the service in errors
	fixed any    // options a reload cannot change, as the first holder set them

	// opened is open, readable without mu by other services' start.
	opened atomic.Bool

	starting sync.Mutex    // held by start
	mu       sync.Mutex    // guards what follows
	ready    chan struct{} // closed when an open ends, opened or failed
	open     bool
	svc      S
	err      error        // why the last open failed
	tunables T            // in force while open
	close    func() error // releases what open took
}

// newPooled returns a service that is not open yet. fixed is a struct of
// the options that a reload cannot change, with json tags naming them.
func newPooled[S any, T tunables[S, T]](what string, fixed any) *pooled[S, T] {
	return &pooled[S, T]{what: what, fixed: fixed, ready: make(chan struct{})}
}

// check refuses a config whose fixed options are not those the service
// was created with: a reload cannot change them. It has no effect.
func (p *pooled[S, T]) check(fixed any) error {
	if changed := changedOptions(p.fixed, fixed); len(changed) > 0 {
		return fmt.Errorf("%s runs with a different %s, which a reload cannot change: restart Caddy to apply the change", p.what, strings.Join(changed, ", "))
	}
	return nil
}

// start opens the service with t if no config has yet, or else puts t in
// force in it. open returns the service and what closes it.
func (p *pooled[S, T]) start(t T, open func(T) (S, func() error, error)) error {
	_, err := p.startOrApply(t, open, true)
	return err
}

// startClosed opens the service with t if no config has yet, and reports
// whether it did; a service already open is left as it is.
func (p *pooled[S, T]) startClosed(t T, open func(T) (S, func() error, error)) (bool, error) {
	return p.startOrApply(t, open, false)
}

// startOrApply is start, which puts t in force in an open service only if
// apply.
func (p *pooled[S, T]) startOrApply(t T, open func(T) (S, func() error, error), apply bool) (bool, error) {
	p.starting.Lock() // one start at a time; requests take mu meanwhile
	defer p.starting.Unlock()
	p.mu.Lock()
	if p.open {
		svc, old := p.svc, p.tunables
		p.mu.Unlock()
		changed := changedOptions(old, t)
		if !apply || len(changed) == 0 {
			return false, nil
		}
		// Requests go on meanwhile, with what is in force: an apply may
		// ask the chain. starting keeps other starts out, and the
		// caller's config holds the service, so it is not destructed.
		if err := t.apply(svc, old); err != nil {
			return false, fmt.Errorf("%s: putting the new %s in force: %w", p.what, strings.Join(changed, ", "), err)
		}
		p.mu.Lock()
		p.tunables = t
		p.mu.Unlock()
		return false, nil
	}
	p.err = nil // requests wait for this start
	p.mu.Unlock()

	svc, closer, err := open(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		// Requests waiting for this start fail, and so do those that come
		// before another.
		p.err = fmt.Errorf("starting %s: %w", p.what, err)
		close(p.ready)
		p.ready = make(chan struct{})
		return false, p.err
	}
	p.open, p.svc, p.tunables, p.close = true, svc, t, closer
	p.opened.Store(true)
	close(p.ready)
	return true, nil
}

// errNotStarted answers a request that reaches a pooled service before any
// config started it.
var errNotStarted = errors.New("not started")

// wait returns the running service, waiting for it to start if no config
// has yet (Caddy may start the http app before the x402 app). It fails at
// once if the last start failed.
func (p *pooled[S, T]) wait(ctx context.Context) (S, error) {
	p.mu.Lock()
	if p.open || p.err != nil {
		p.mu.Unlock()
		return p.running()
	}
	ready := p.ready
	p.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		var zero S
		return zero, fmt.Errorf("waiting for %s to start: %w", p.what, ctx.Err())
	}
	return p.running()
}

// running returns the service if it is open.
func (p *pooled[S, T]) running() (S, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.open {
		var zero S
		if p.err != nil {
			return zero, p.err
		}
		return zero, fmt.Errorf("%s: %w", p.what, errNotStarted)
	}
	return p.svc, nil
}

// Destruct closes the service, if it was opened, once the last config
// that holds it is cleaned up.
func (p *pooled[S, T]) Destruct() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.open {
		return nil
	}
	p.open = false
	p.opened.Store(false)
	p.ready = make(chan struct{})
	var zero S
	p.svc = zero
	if err := p.close(); err != nil {
		return fmt.Errorf("closing %s: %w", p.what, err)
	}
	return nil
}

// changedOptions names the options that differ between two values of one
// type, by their JSON names: the keys of their JSON objects whose values
// differ (a key one of them leaves out stands for its zero value).
func changedOptions(a, b any) []string {
	ma, mb := jsonFields(a), jsonFields(b)
	var changed []string
	for k, va := range ma {
		if vb, ok := mb[k]; !ok || !bytes.Equal(va, vb) {
			changed = append(changed, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	return changed
}

// jsonFields is v's JSON object, by key.
func jsonFields(v any) map[string]json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encoding options: %v", err)) // only config structs come here
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(fmt.Sprintf("options %s are not a JSON object: %v", raw, err))
	}
	return m
}

package webhook

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// OpenDeliveries opens the space of st that keeps the webhooks'
// deliveries (Space). A fleet keeps them in the primary network's store.
func OpenDeliveries(st store.Backend) (store.KV, error) { return st.Bucket(Space) }

// OpenOutbox opens st's outbox (store.OutboxBucket), where the store
// writes the final outcome of each settlement the merchant is told of.
func OpenOutbox(st store.Backend) (store.KV, error) { return st.Bucket(store.OutboxBucket) }

// Hook is one webhook of a Manager: its receiver, its key and the events
// it subscribes to (Events; empty for all).
type Hook struct {
	URL    string
	Secret []byte
	Events []string
}

// Outbox is a store whose outbox a Manager reads, by the network it
// serves (for the logs).
type Outbox struct {
	Network string
	Store   store.Backend
}

// Manager runs a merchant's webhooks: a Sender per Hook over the
// deliveries' space, and the dispatcher that hands them the events of
// every outbox, when woken (Wake) and every poll interval. Nothing is
// lost while it does not run: the outcomes wait in the outboxes.
type Manager struct {
	mu      sync.Mutex
	senders []*Sender // Run's, once it made them
	hooks   []Hook
	log     *zap.Logger
	onFinal func(Delivery)
	kick    chan struct{}

	// OutboxPoll is how often the dispatcher reads the outboxes when
	// nothing wakes it: for the outcomes finished without a paid request
	// of this process (reconciled after a restart, or finished by another
	// replica). One second if zero.
	OutboxPoll time.Duration
	// SenderPoll is how often a sender looks for due deliveries when
	// nothing wakes it: retries, and deliveries another replica's lease
	// let go of. Two seconds if zero.
	SenderPoll time.Duration
}

// NewManager returns the manager of hooks.
func NewManager(hooks []Hook, log *zap.Logger) *Manager {
	if log == nil {
		log = zap.NewNop()
	}
	return &Manager{hooks: hooks, log: log, kick: make(chan struct{}, 1)}
}

// OnFinal sets what is told of each delivery that ends (delivered or
// given up), to audit it; call it before Run.
func (m *Manager) OnFinal(f func(Delivery)) { m.onFinal = f }

// Wake makes the dispatcher read the outboxes now: a settlement finished.
// It never blocks. A nil Manager does nothing.
func (m *Manager) Wake() {
	if m == nil {
		return
	}
	select {
	case m.kick <- struct{}{}:
	default:
	}
}

// Send keeps a delivery of ev with every webhook that wants it, an event
// that no settlement record's outbox carries (a channel's): each
// delivery is durable once kept, and one per event id, so an event sent
// twice (by two replicas, or again after a crash) is delivered once. It
// reports whether every webhook kept it: false before Run made the
// senders of a Manager with hooks (the caller sends it again later); a
// nil Manager, or one without hooks, keeps nothing and reports true.
func (m *Manager) Send(ev Event) bool {
	if m == nil || len(m.hooks) == 0 {
		return true
	}
	m.mu.Lock()
	senders := m.senders
	m.mu.Unlock()
	if senders == nil {
		return false
	}
	return enqueue(senders, ev, m.log)
}

// Run makes the senders over deliveries and, until ctx ends, runs them
// and the dispatcher, which reads the outboxes that outboxes returns each
// round (a network's store may stop and start meanwhile). A hook whose
// sender cannot be made is logged and left out; with none left, Run
// returns at once.
func (m *Manager) Run(ctx context.Context, deliveries store.KV, outboxes func() []Outbox) {
	var senders []*Sender
	for _, h := range m.hooks {
		s, err := New(Config{URL: h.URL, Secret: h.Secret, Events: h.Events, Store: deliveries, Logger: m.log, OnFinal: m.onFinal})
		if err != nil {
			m.log.Error("a webhook is not sent", zap.Error(err))
			continue
		}
		senders = append(senders, s)
	}
	if len(senders) == 0 {
		return // the outboxes wait for a config whose webhooks work
	}
	m.mu.Lock()
	m.senders = senders
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range senders {
		wg.Go(func() { s.Run(ctx, orDefault(m.SenderPoll, 2*time.Second)) })
	}
	m.dispatch(ctx, senders, outboxes)
	wg.Wait()
}

// dispatch hands the events of each outbox to the senders (Dispatch),
// when woken and every OutboxPoll, until ctx ends.
func (m *Manager) dispatch(ctx context.Context, senders []*Sender, outboxes func() []Outbox) {
	t := time.NewTicker(orDefault(m.OutboxPoll, time.Second))
	defer t.Stop()
	opened := map[store.Backend]store.KV{} // opened once: a bbolt Bucket call writes
	for {
		for _, o := range outboxes() {
			kv := opened[o.Store]
			if kv == nil {
				var err error
				if kv, err = OpenOutbox(o.Store); err != nil {
					m.log.Warn("opening the outbox", zap.String("network", o.Network), zap.Error(err))
					continue
				}
				opened[o.Store] = kv
			}
			for ctx.Err() == nil {
				n, err := Dispatch(kv, senders, m.log)
				if err != nil {
					m.log.Warn("reading the outbox", zap.String("network", o.Network), zap.Error(err))
				}
				if n == 0 || err != nil {
					break
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-m.kick:
		case <-t.C:
		}
	}
}

// Test keeps a test event's delivery for every hook in deliveries; the
// senders deliver them at their next poll.
func (m *Manager) Test(deliveries store.KV, network string) ([]Delivery, error) {
	if m == nil {
		return nil, errors.New("the webhooks did not start")
	}
	var out []Delivery
	for _, h := range m.hooks {
		s, err := New(Config{URL: h.URL, Secret: h.Secret, Events: h.Events, Store: deliveries})
		if err != nil {
			return out, err
		}
		d, err := s.Test(network)
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

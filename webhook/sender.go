package webhook

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// Space is the named space of the store that keeps the deliveries.
const Space = "x402_webhooks"

// The event types.
const (
	EventSettled = "settled"
	EventFailed  = "failed"
	// EventTest is a test event, sent from the dashboard or the admin
	// API to check a receiver: no payment, never to be taken for a sale.
	// Every webhook gets it, whatever its events.
	EventTest = "test"
	// The events of batch-settlement channels (package channels/claimer):
	// vouchers claimed and swept to the receiver (channel.claimed, with
	// each channel's amount), a claim that failed, a payer's timed
	// withdrawal seen (its channels are claimed at once), and an
	// operator's refund.
	EventChannelClaimed    = "channel.claimed"
	EventChannelFailed     = "channel.claim_failed"
	EventChannelWithdrawal = "channel.withdrawal"
	EventChannelRefunded   = "channel.refunded"
)

// Events are the event types a webhook may subscribe to.
var Events = []string{EventSettled, EventFailed, EventChannelClaimed, EventChannelFailed, EventChannelWithdrawal, EventChannelRefunded}

// Event is a payment's outcome, the body of a delivery.
type Event struct {
	// ID identifies the event, the same on every attempt and replica:
	// receivers deduplicate on it.
	ID string `json:"id"`
	// Type is settled or failed.
	Type string `json:"type"`
	// Time is when the settlement became final (settled or failed).
	Time time.Time `json:"time"`
	// Network is the CAIP-2 id of the chain.
	Network string `json:"network"`
	// Resource is the URL of what was paid for, as the paywall described
	// it.
	Resource string `json:"resource,omitempty"`
	Scheme   string `json:"scheme,omitempty"`
	Payer    string `json:"payer,omitempty"`
	PayTo    string `json:"payTo,omitempty"`
	Asset    string `json:"asset,omitempty"`
	// Amount is in the asset's base units.
	Amount string `json:"amount,omitempty"`
	// Transaction is the settlement's transaction hash, if it has one.
	Transaction string `json:"transaction,omitempty"`
	// Error is a failed settlement's reason code, or why a channel's
	// claim failed.
	Error string `json:"error,omitempty"`
	// Channels are a channel event's channels, each with its payer and
	// amount (base units).
	Channels []ChannelAmount `json:"channels,omitempty"`
}

// ChannelAmount is one channel of a channel event.
type ChannelAmount struct {
	ID     string `json:"id"`
	Payer  string `json:"payer"`
	Amount string `json:"amount"`
}

// EventID is a stable id for an event of type typ about key (a
// transaction hash, or the payment's signature): the same on every
// replica, so a fleet keeps one delivery per event.
func EventID(typ, network, key string) string {
	h := sha256.Sum256([]byte(typ + "\x00" + network + "\x00" + strings.ToLower(key)))
	return typ + "_" + hex.EncodeToString(h[:12])
}

// The states of a delivery.
const (
	StatePending   = "pending"
	StateDelivered = "delivered"
	StateFailed    = "failed"
)

// Delivery is an event's delivery to one webhook, as kept in the store.
type Delivery struct {
	// ID names the delivery for Resend; List and Resend set it (it is
	// not stored).
	ID    string `json:"id,omitempty"`
	Event Event  `json:"event"`
	// Webhook names the webhook: its URL's host and path, never its
	// query (which may hold a token).
	Webhook  string    `json:"webhook"`
	State    string    `json:"state"`
	Attempts int       `json:"attempts"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	// NextAt is when the next attempt is due, while pending.
	NextAt time.Time `json:"nextAt,omitzero"`
	// LeaseUntil is when a replica's claim on the delivery ends.
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`
	// Status is the last attempt's HTTP status, 0 if it had none, and
	// Error why it failed.
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// Resent counts the times it was sent again by hand (Resend).
	Resent int `json:"resent,omitempty"`
}

// Config configures a Sender.
type Config struct {
	// URL is where events are POSTed: http or https.
	URL string
	// Secret keys the signatures; at least 16 bytes.
	Secret []byte
	// Events are the event types sent; empty sends all.
	Events []string
	// Store keeps the deliveries.
	Store store.KV
	// MaxAttempts bounds the attempts of a delivery; default 36, which
	// with the default backoff keeps trying for about a day.
	MaxAttempts int
	// Backoff is the wait after the first failed attempt, doubled after
	// each next one up to MaxBackoff; defaults 2 s and 1 h.
	Backoff, MaxBackoff time.Duration
	// Timeout bounds one attempt, connection to response; default 10 s.
	Timeout time.Duration
	// MaxDeliveries bounds the deliveries kept: past it the oldest
	// finished ones are removed; default 1000.
	MaxDeliveries int
	// Transport sends the requests; default a clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
	// OnFinal is called once a delivery is delivered or given up, by the
	// replica that finished it (for the audit log).
	OnFinal func(Delivery)
	// Now is the clock; default time.Now.
	Now    func() time.Time
	Logger *zap.Logger
}

// Sender delivers events to one webhook.
type Sender struct {
	cfg    Config
	name   string
	client *http.Client
	kick   chan struct{}
}

// DefaultMaxAttempts is the default of Config.MaxAttempts: 2 s, 4 s, 8 s…
// apart up to an hour, about 25 hours in all, so that a receiver's outage
// of a day loses nothing.
const DefaultMaxAttempts = 36

// IDHeader is the request header that carries the event's id, as the
// body's "id" does: the same on every attempt and replica.
const IDHeader = "X402-Webhook-Id"

// maxResponse bounds what is read of a receiver's answer (then dropped).
const maxResponse = 64 << 10

// Validate reports what is wrong with the configuration.
func (c *Config) Validate() error {
	var errs []error
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		errs = append(errs, fmt.Errorf("webhook url %q: want an http or https URL without credentials", c.URL))
	}
	if len(c.Secret) < 16 {
		errs = append(errs, errors.New("webhook secret: want at least 16 bytes"))
	}
	for _, e := range c.Events {
		if !slices.Contains(Events, e) {
			errs = append(errs, fmt.Errorf("webhook event %q: want settled or failed", e))
		}
	}
	if c.Store == nil {
		errs = append(errs, errors.New("webhook: Store is required"))
	}
	if c.MaxAttempts < 0 || c.MaxAttempts > 50 {
		errs = append(errs, errors.New("webhook max attempts: want 1 to 50"))
	}
	return errors.Join(errs...)
}

// New returns a Sender; Run delivers.
func New(cfg Config) (*Sender, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.MaxAttempts = cmp.Or(cfg.MaxAttempts, DefaultMaxAttempts)
	cfg.Backoff = cmp.Or(cfg.Backoff, 2*time.Second)
	cfg.MaxBackoff = cmp.Or(cfg.MaxBackoff, time.Hour)
	cfg.Timeout = cmp.Or(cfg.Timeout, 10*time.Second)
	cfg.MaxDeliveries = cmp.Or(cfg.MaxDeliveries, 1000)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	u, _ := url.Parse(cfg.URL)
	s := &Sender{cfg: cfg, name: u.Host + u.Path, kick: make(chan struct{}, 1)}
	s.client = &http.Client{
		Transport: cfg.Transport,
		Timeout:   cfg.Timeout,
		// A redirect is followed only to the same scheme and host, at most
		// 3 times: the merchant's URL is trusted, where it points is not.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("too many redirects")
			}
			if req.URL.Scheme != u.Scheme || req.URL.Host != u.Host {
				return fmt.Errorf("redirect to another host (%s) refused", req.URL.Host)
			}
			return nil
		},
	}
	return s, nil
}

// Name is the webhook's name in deliveries: its URL's host and path.
func (s *Sender) Name() string { return s.name }

// Wants reports whether the webhook subscribes to events of type typ.
func (s *Sender) Wants(typ string) bool {
	return len(s.cfg.Events) == 0 || slices.Contains(s.cfg.Events, typ)
}

// prefix starts the keys of the webhook's deliveries.
func (s *Sender) prefix() string {
	h := sha256.Sum256([]byte(s.cfg.URL))
	return hex.EncodeToString(h[:6]) + "/"
}

// key is where the delivery of ev is kept: one per event and webhook, the
// same on every replica (ev's time and id come from its settlement
// record), and in the order of the events' times, so that the sender
// tries the oldest first.
func (s *Sender) key(ev Event) []byte {
	return fmt.Appendf(nil, "%s%016x/%s", s.prefix(), uint64(ev.Time.UnixNano()), ev.ID)
}

// Enqueue keeps a delivery of ev, if the webhook wants its type and it is
// not kept already (another replica, or an earlier call, enqueued it),
// and wakes the sender.
func (s *Sender) Enqueue(ev Event) error {
	if !s.Wants(ev.Type) {
		return nil
	}
	now := s.cfg.Now()
	err := s.cfg.Store.Update(s.key(ev), func(old []byte) ([]byte, error) {
		if old != nil {
			return nil, nil // one delivery per event
		}
		return json.Marshal(Delivery{Event: ev, Webhook: s.name, State: StatePending, Created: now, Updated: now, NextAt: now})
	})
	if err != nil {
		return fmt.Errorf("keeping a webhook delivery: %w", err)
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
	return nil
}

// Run delivers the due deliveries until ctx ends: at once when woken, and
// every poll otherwise (to pick up retries, and deliveries that another
// replica's lease let go of).
func (s *Sender) Run(ctx context.Context, poll time.Duration) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		s.deliverDue(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		case <-t.C:
		}
	}
}

// deliverDue attempts every pending delivery that is due and that this
// replica claims, one after another, and prunes past MaxDeliveries.
func (s *Sender) deliverDue(ctx context.Context) {
	now := s.cfg.Now()
	prefix := s.prefix()
	var due [][]byte
	var finished []Delivery
	var finishedKeys [][]byte
	err := s.cfg.Store.ForEach(func(k, v []byte) error {
		if !strings.HasPrefix(string(k), prefix) {
			return nil
		}
		var d Delivery
		if json.Unmarshal(v, &d) != nil {
			return nil
		}
		if d.State == StatePending {
			if !d.NextAt.After(now) && !d.LeaseUntil.After(now) {
				due = append(due, slices.Clone(k))
			}
			return nil
		}
		finished, finishedKeys = append(finished, d), append(finishedKeys, slices.Clone(k))
		return nil
	})
	if err != nil {
		s.cfg.Logger.Warn("reading the webhook deliveries", zap.Error(err))
		return
	}
	if over := len(finished) + len(due) - s.cfg.MaxDeliveries; over > 0 {
		idx := make([]int, len(finished))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int { return finished[a].Updated.Compare(finished[b].Updated) })
		for _, i := range idx[:min(over, len(idx))] {
			_ = s.cfg.Store.Delete(finishedKeys[i])
		}
	}
	for _, k := range due {
		if ctx.Err() != nil {
			return
		}
		d, ok := s.claim(k)
		if ok {
			s.attempt(ctx, k, d)
		}
	}
}

// claim takes a lease on a due delivery: only the replica whose update
// sets it attempts the delivery.
func (s *Sender) claim(k []byte) (Delivery, bool) {
	var d Delivery
	claimed := false
	now := s.cfg.Now()
	err := s.cfg.Store.Update(k, func(old []byte) ([]byte, error) {
		claimed = false
		if old == nil || json.Unmarshal(old, &d) != nil {
			return nil, nil
		}
		if d.State != StatePending || d.NextAt.After(now) || d.LeaseUntil.After(now) {
			return nil, nil
		}
		d.LeaseUntil = now.Add(2*s.cfg.Timeout + 5*time.Second)
		claimed = true
		return json.Marshal(d)
	})
	return d, err == nil && claimed
}

// attempt POSTs a delivery once and keeps its outcome. An attempt cut
// off because the sender stops (a reload, a shutdown) is not counted: its
// lease is let go of, for the next sender to try at once.
func (s *Sender) attempt(ctx context.Context, k []byte, d Delivery) {
	status, aerr := s.post(ctx, d.Event)
	if ctx.Err() != nil && aerr != nil {
		d.LeaseUntil = time.Time{}
		if err := s.cfg.Store.Update(k, func([]byte) ([]byte, error) { return json.Marshal(d) }); err != nil {
			s.cfg.Logger.Warn("letting go of a webhook delivery", zap.String("event", d.Event.ID), zap.Error(err))
		}
		return
	}
	now := s.cfg.Now()
	d.Attempts++
	d.Updated, d.Status, d.LeaseUntil, d.Error = now, status, time.Time{}, ""
	switch {
	case aerr == nil:
		d.State, d.NextAt = StateDelivered, time.Time{}
	case d.Attempts >= s.cfg.MaxAttempts:
		d.State, d.NextAt, d.Error = StateFailed, time.Time{}, aerr.Error()
	default:
		d.NextAt, d.Error = now.Add(s.backoff(d.Attempts)), aerr.Error()
	}
	if err := s.cfg.Store.Update(k, func([]byte) ([]byte, error) { return json.Marshal(d) }); err != nil {
		s.cfg.Logger.Warn("keeping a webhook delivery's outcome", zap.String("event", d.Event.ID), zap.Error(err))
		return
	}
	if d.State != StatePending && s.cfg.OnFinal != nil {
		s.cfg.OnFinal(d)
	}
}

// backoff is the wait after the n-th failed attempt.
func (s *Sender) backoff(n int) time.Duration {
	b := s.cfg.Backoff
	for i := 1; i < n && b < s.cfg.MaxBackoff; i++ {
		b *= 2
	}
	return min(b, s.cfg.MaxBackoff)
}

// post sends one attempt: 2xx is delivered.
func (s *Sender) post(ctx context.Context, ev Event) (int, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "caddy-x402-webhook")
	req.Header.Set(IDHeader, ev.ID)
	req.Header.Set(SignatureHeader, Sign(s.cfg.Secret, s.cfg.Now(), body))
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, errors.New(redact(err.Error(), s.cfg.URL))
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponse))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// redact removes the webhook's URL (whose query may hold a token) from an
// error's text.
func redact(msg, u string) string {
	if p, err := url.Parse(u); err == nil && p.RawQuery != "" {
		msg = strings.ReplaceAll(msg, u, p.Scheme+"://"+p.Host+p.Path)
		msg = strings.ReplaceAll(msg, p.RawQuery, "…")
	}
	return msg
}

// List returns the deliveries kept in kv, of every webhook, newest first,
// at most limit.
func List(kv store.KV, limit int) ([]Delivery, error) {
	var out []Delivery
	err := kv.ForEach(func(k, v []byte) error {
		var d Delivery
		if json.Unmarshal(v, &d) == nil {
			d.ID = deliveryID(k)
			out = append(out, d)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b Delivery) int { return b.Created.Compare(a.Created) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, err
}

// deliveryID is the id of the delivery kept under key k: the key, with
// its slashes as dots, so that it fits in a URL's path segment.
func deliveryID(k []byte) string { return strings.ReplaceAll(string(k), "/", ".") }

// ErrNoDelivery is Resend's error for an id that names no delivery.
var ErrNoDelivery = errors.New("no such webhook delivery")

// ErrSending is Resend's error for a delivery being attempted now.
var ErrSending = errors.New("the delivery is being sent now; try again in a few seconds")

// Resend makes the delivery id (a Delivery's ID) of kv due again now,
// with its attempts counted afresh: the same event, with the same id, so
// a receiver that has it already deduplicates it. A delivery being
// attempted now (under a replica's lease) is left alone (ErrSending).
// The webhook's sender sends it at its next poll.
func Resend(kv store.KV, id string, now time.Time) (Delivery, error) {
	if id == "" || len(id) > 200 || strings.ContainsAny(id, "/\\") {
		return Delivery{}, ErrNoDelivery
	}
	k := []byte(strings.ReplaceAll(id, ".", "/"))
	var d Delivery
	err := kv.Update(k, func(old []byte) ([]byte, error) {
		d = Delivery{}
		if old == nil {
			return nil, ErrNoDelivery
		}
		if err := json.Unmarshal(old, &d); err != nil {
			return nil, ErrNoDelivery
		}
		if d.State == StatePending && d.LeaseUntil.After(now) {
			return nil, ErrSending
		}
		d.State, d.Attempts, d.NextAt, d.LeaseUntil, d.Status, d.Error = StatePending, 0, now, time.Time{}, 0, ""
		d.Updated = now
		d.Resent++
		return json.Marshal(d)
	})
	if err != nil {
		return Delivery{}, err
	}
	d.ID = id
	return d, nil
}

// Test keeps a delivery of a test event to this webhook, due now, and
// returns it: type EventTest, its own id, no payment (Network names the
// chain of the dashboard that sent it). The sender that runs sends it at
// its next poll, signed like any event.
func (s *Sender) Test(network string) (Delivery, error) {
	now := s.cfg.Now().UTC()
	var nonce [12]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return Delivery{}, err
	}
	ev := Event{ID: EventTest + "_" + hex.EncodeToString(nonce[:]), Type: EventTest, Time: now, Network: network}
	d := Delivery{Event: ev, Webhook: s.name, State: StatePending, Created: now, Updated: now, NextAt: now}
	k := s.key(ev)
	err := s.cfg.Store.Update(k, func(old []byte) ([]byte, error) {
		if old != nil {
			return nil, nil
		}
		return json.Marshal(d)
	})
	if err != nil {
		return Delivery{}, fmt.Errorf("keeping a test delivery: %w", err)
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
	d.ID = deliveryID(k)
	return d, nil
}

package caddymodule

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/webhook"
	"github.com/caddy-x402/caddy-x402/x402"
)

// WebhookConfig is a merchant's webhook: settled and failed payments are
// POSTed to it, signed with HMAC-SHA256.
type WebhookConfig struct {
	// The URL events are POSTed to: http or https. A redirect is followed
	// only on the same host.
	URL string `json:"url"`
	// The HMAC-SHA256 key of the signatures, at least 16 bytes. It must be
	// an {env.*} or {file.*} placeholder.
	Secret string `json:"secret"`
	// The events sent: settled, failed. Default: both.
	Events []string `json:"events,omitempty"`
}

// validateMerchant checks the webhooks and the explorers.
func (a *App) validateMerchant() error {
	var errs []error
	for _, w := range a.Webhooks {
		if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			errs = append(errs, fmt.Errorf("x402 webhook %q: want an http or https URL without credentials", w.URL))
		}
		if w.Secret == "" {
			errs = append(errs, fmt.Errorf("x402 webhook %s: secret is required", w.URL))
		}
		for _, e := range w.Events {
			if !slices.Contains(webhook.Events, e) {
				errs = append(errs, fmt.Errorf("x402 webhook %s: event %q: want settled or failed", w.URL, e))
			}
		}
		errs = append(errs, checkSecrets(configValue{"x402 webhook secret", &w.Secret}))
	}
	if len(a.Webhooks) > 0 && a.FacilitatorURL != "" {
		errs = append(errs, errors.New("x402 webhook needs the embedded facilitator, whose store keeps the deliveries; it does not work with facilitator_url"))
	}
	for _, n := range append([]*NetworkConfig{&a.NetworkConfig}, a.networks()...) {
		if n.Explorer == "" || n.Explorer == "off" {
			continue
		}
		if u, err := url.Parse(n.Explorer); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			errs = append(errs, fmt.Errorf("x402 explorer %q: want an http or https URL without a query", n.Explorer))
		}
	}
	return errors.Join(errs...)
}

// knownExplorers are the block explorers of well-known chains, by CAIP-2
// id: the default of NetworkConfig.Explorer.
var knownExplorers = map[string]string{
	"eip155:1":        "https://etherscan.io",
	"eip155:11155111": "https://sepolia.etherscan.io",
	"eip155:8453":     "https://basescan.org",
	"eip155:84532":    "https://sepolia.basescan.org",
	"eip155:10":       "https://optimistic.etherscan.io",
	"eip155:42161":    "https://arbiscan.io",
	"eip155:137":      "https://polygonscan.com",
	"eip155:43114":    "https://snowtrace.io",
}

// explorer is the block explorer of a network: its explorer option, or
// the well-known chain's; none on the devnet (whose chain id may stand in
// for a real one) or with explorer off.
func explorer(n *NetworkConfig, plan *chainPlan) string {
	switch {
	case n != nil && n.Explorer == "off":
		return ""
	case n != nil && n.Explorer != "":
		return strings.TrimRight(n.Explorer, "/")
	case plan.devnet:
		return ""
	}
	return knownExplorers[plan.network]
}

// refusalFlush is how often the refusals recorded in memory are written
// to the store.
var refusalFlush = 5 * time.Second

// merchant is what an x402 app keeps for the merchant's view: the
// refusals of each network (recorded in memory, flushed to the store) and
// the webhooks' dispatcher and senders (their deliveries on the primary
// network's store).
type merchant struct {
	app  *App
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu       sync.Mutex
	refusals map[*chainRun]*store.Refusals
	hooks    *webhook.Manager // nil without webhooks
}

// startMerchant starts the refusals' flusher and, with webhooks, their
// dispatcher and senders once the primary network runs (the events
// finished before then wait in the store's outbox); a webhook secret that
// is unset or shorter than 16 bytes fails it. Cleanup stops them.
func (a *App) startMerchant() error {
	if a.chain == nil || a.merchant != nil {
		return nil
	}
	hooks := make([]webhook.Hook, len(a.Webhooks))
	for i, w := range a.Webhooks {
		key, err := secret("x402 webhook secret", w.Secret)
		if err != nil {
			return err
		}
		if len(key) < 16 {
			return fmt.Errorf("x402 webhook secret %s: want at least 16 bytes", w.Secret)
		}
		hooks[i] = webhook.Hook{URL: w.URL, Secret: []byte(key), Events: w.Events}
	}
	ctx, stop := context.WithCancel(context.Background())
	m := &merchant{app: a, ctx: ctx, stop: stop, refusals: map[*chainRun]*store.Refusals{}}
	a.merchant = m
	m.wg.Go(m.flushLoop)
	if len(hooks) > 0 {
		m.hooks = webhook.NewManager(hooks, a.log.Named("webhook"))
		m.hooks.OutboxPoll, m.hooks.SenderPoll = outboxPoll, senderPoll
		m.wg.Go(m.runWebhooks)
	}
	return nil
}

// stopMerchant stops the goroutines and writes the last refusals.
func (a *App) stopMerchant() {
	m := a.merchant
	if m == nil {
		return
	}
	m.stop()
	m.wg.Wait()
	m.flush()
}

func (m *merchant) flushLoop() {
	t := time.NewTicker(refusalFlush)
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
			m.flush()
		}
	}
}

func (m *merchant) flush() {
	m.mu.Lock()
	list := make([]*store.Refusals, 0, len(m.refusals))
	for _, r := range m.refusals {
		list = append(list, r)
	}
	m.mu.Unlock()
	for _, r := range list {
		if err := r.Flush(); err != nil {
			m.app.log.Warn("writing the refused payments", zap.Error(err))
		}
	}
}

// chainOf is the running chain of a network, or nil.
func (m *merchant) chainOf(network string) *chainRun {
	for _, c := range m.app.chains {
		if c.plan.network == network {
			if run, err := c.running(); err == nil {
				return run
			}
		}
	}
	return nil
}

// refused is the paywall's AfterVerify hook for a payment that failed
// verification: it is counted, by reason and route (the label of the
// route as configured, see routeLabel), in its network's store.
func (m *merchant) refused(r *http.Request, e *paywall.Event, route string) {
	if m == nil || e.Verify == nil || e.Verify.IsValid || e.Offer == nil {
		return
	}
	rec := m.refusalsOf(e.Offer.Network)
	if rec == nil {
		return
	}
	reason := string(e.Verify.InvalidReason)
	if !slices.Contains(x402.InvalidReasons, e.Verify.InvalidReason) {
		reason = "other" // a remote facilitator's own words are not kept
	}
	payer := ""
	if common.IsHexAddress(e.Verify.Payer) {
		payer = common.HexToAddress(e.Verify.Payer).Hex()
	}
	message := ""
	if reason != "other" {
		message = refusalMessage(e.Verify.InvalidMessage)
	}
	rec.Record(store.Refusal{
		Time: time.Now().UTC(), Reason: reason, Route: route, Payer: payer,
		Scheme: e.Offer.Scheme, Network: e.Offer.Network, Amount: e.Offer.Amount, Asset: e.Offer.Asset,
		Message: message,
	})
}

// refusalsOf is the refusal recorder of network's store, or nil if the
// network does not run.
func (m *merchant) refusalsOf(network string) *store.Refusals {
	run := m.chainOf(network)
	if run == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	rec := m.refusals[run]
	if rec == nil {
		var err error
		if rec, err = store.OpenRefusals(run.store); err != nil {
			m.app.log.Warn("opening the refused payments", zap.Error(err))
			return nil
		}
		m.refusals[run] = rec
	}
	return rec
}

// servedUnpaid is recorded among the refusals, as served_unpaid: a
// payment served on broadcast whose settlement failed, on route.
func (m *merchant) servedUnpaid(r *http.Request, e *paywall.Event, route string) {
	if m == nil || e.Offer == nil {
		return
	}
	rec := m.refusalsOf(e.Offer.Network)
	if rec == nil {
		return
	}
	payer := ""
	if e.Settle != nil && common.IsHexAddress(e.Settle.Payer) {
		payer = common.HexToAddress(e.Settle.Payer).Hex()
	}
	rec.Record(store.Refusal{
		Time: time.Now().UTC(), Reason: dashboard.ReasonServedUnpaid, Route: route, Payer: payer,
		Scheme: e.Offer.Scheme, Network: e.Offer.Network, Amount: e.Offer.Amount, Asset: e.Offer.Asset,
	})
}

// requestPath is the path of the request as the client sent it, whatever
// rewrites did.
func requestPath(r *http.Request) string {
	if orig, ok := r.Context().Value(caddyhttp.OriginalRequestCtxKey).(http.Request); ok && orig.URL != nil {
		return orig.URL.Path
	}
	return r.URL.Path
}

// settlement is the paywall's AfterSettle, OnSettleFailure and
// AfterBroadcast hook for the webhooks: it wakes the dispatcher, which
// finds the payment's outcome in the store's outbox if it is final (the
// store wrote it there in the commit that finished the settlement; see
// ownSettles). The event does not depend on this call: a settlement that
// finishes without it (after a crash, on another replica, after its
// request gave up waiting) is in the outbox all the same, and dispatched
// within outboxPoll.
func (m *merchant) settlement(*http.Request, *paywall.Event) {
	if m == nil {
		return
	}
	m.hooks.Wake()
}

// remoteSettlement writes the outcome of a payment that a remote
// facilitator settled (a route with facilitator_url) to its network's
// outbox, for the webhooks, as the embedded facilitator's store does for
// its own settlements: a success, or a settlement mined and failed; a
// refusal or an outcome not known yet is no event. The settlement's commit
// is the remote facilitator's, so this write follows it: a crash between
// the two loses the event (the remote facilitator's own records keep the
// settlement). Its key is the payment's identity, so a retry of the same
// payment writes the same entry, and the receiver one event id.
func (m *merchant) remoteSettlement(r *http.Request, e *paywall.Event) {
	res := e.Settle
	if m == nil || res == nil || e.Offer == nil || e.Payment == nil || (!res.Success && res.TransactionHash == "") {
		return
	}
	run := m.chainOf(e.Offer.Network)
	if run == nil {
		return // no store of this network to deliver from
	}
	id, err := x402.PaymentID(e.Payment)
	if err != nil {
		return
	}
	rec := &store.Record{
		Key: common.Hash(id), State: store.StateFailed, Scheme: e.Offer.Scheme, Network: e.Offer.Network,
		Resource: requestScheme(r) + "://" + r.Host + requestPath(r), Response: res, Updated: time.Now().UTC(), Notify: true,
		PayTo: common.HexToAddress(e.Offer.PayTo), Asset: common.HexToAddress(e.Offer.Asset),
	}
	if res.Success {
		rec.State = store.StateSettled
	}
	if common.IsHexAddress(res.Payer) {
		rec.Payer = common.HexToAddress(res.Payer)
	}
	rec.Amount, _ = new(big.Int).SetString(cmp.Or(res.Amount, e.Offer.Amount), 10)
	if h := res.TransactionHash; len(h) == 66 {
		rec.TxHash = common.HexToHash(h)
	}
	k, v, err := store.OutboxEntry(rec)
	if err == nil && k != nil {
		var kv store.KV
		if kv, err = webhook.OpenOutbox(run.store); err == nil {
			err = kv.Put(k, v)
		}
	}
	if err != nil {
		m.app.log.Error("writing a remote facilitator's settlement to the webhooks' outbox; its event is lost", zap.String("tx", res.TransactionHash), zap.Error(err))
		return
	}
	m.settlement(r, e)
}

// requestScheme is r's scheme: https or http.
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// outboxPoll is how often the dispatcher reads the outboxes when nothing
// wakes it: for the outcomes finished without a paid request of this
// process (reconciled after a restart, or finished by another replica).
var outboxPoll = time.Second

// senderPoll is how often a webhook's sender looks for due deliveries
// when nothing wakes it: retries, and deliveries another replica's lease
// let go of.
var senderPoll = 2 * time.Second

// ownSettles is the embedded facilitator as the routes' paywalls call it
// when a webhook is configured: their settles are the merchant's own
// (facilitator.WithNotify), so the store writes each one's final outcome
// to its outbox in the commit that finishes it, for the webhooks. A
// settle through the x402_facilitator endpoints is not marked, and never
// reaches the webhooks.
type ownSettles struct {
	facilitator.Facilitator
	served paywall.Responder
}

// Settle settles, marked as the merchant's own.
func (o ownSettles) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	return o.Facilitator.Settle(facilitator.WithNotify(ctx), req)
}

// Served tells the facilitator that a paid response was written.
func (o ownSettles) Served(ctx context.Context, req *x402.SettleRequest) error {
	return o.served.Served(ctx, req)
}

// ownFacilitator is fac, the embedded facilitator, for the routes'
// paywalls: marked as the merchant's own with a webhook (ownSettles).
func (a *App) ownFacilitator(fac facilitator.Facilitator) facilitator.Facilitator {
	served, ok := fac.(paywall.Responder)
	if len(a.Webhooks) == 0 || !ok {
		return fac
	}
	return ownSettles{Facilitator: fac, served: served}
}

// runWebhooks waits for the primary network to run, and until the
// config is cleaned up runs the webhooks (webhook.Manager) over its
// store's deliveries, with the outbox of every running network's store.
// Nothing is lost meanwhile: the outcomes wait in the outboxes.
func (m *merchant) runWebhooks() {
	var run *chainRun
	for {
		r, err := m.app.chain.wait(m.ctx)
		if err == nil {
			run = r
			break
		}
		select {
		case <-m.ctx.Done():
			return
		case <-time.After(time.Second): // a failed start; Caddy may retry it
		}
	}
	kv, err := webhook.OpenDeliveries(run.store)
	if err != nil {
		m.app.log.Error("opening the webhook deliveries; no webhook is sent", zap.Error(err))
		return
	}
	audit, err := dashboard.OpenAudit(run.store)
	if err != nil {
		m.app.log.Error("opening the audit log; no webhook is sent", zap.Error(err))
		return
	}
	m.hooks.OnFinal(func(d webhook.Delivery) {
		detail := fmt.Sprintf("%s %s after %d attempt(s)", d.Event.Type, d.Event.ID, d.Attempts)
		if d.Error != "" {
			detail += ": " + d.Error
		}
		if err := dashboard.Record(audit, "webhook", "webhook."+d.State, d.Webhook, detail); err != nil {
			m.app.log.Warn("auditing a webhook delivery", zap.Error(err))
		}
	})
	m.hooks.Run(m.ctx, kv, m.outboxes)
}

// outboxes are the stores of the running networks, each once.
func (m *merchant) outboxes() []webhook.Outbox {
	var out []webhook.Outbox
	seen := map[store.Backend]bool{}
	for _, c := range m.app.chains {
		run, err := c.running()
		if err != nil || seen[run.store] {
			continue
		}
		seen[run.store] = true
		out = append(out, webhook.Outbox{Network: c.plan.network, Store: run.store})
	}
	return out
}

// merchantView fills a network's dashboard's merchant pages: its
// refusals (in st, the network's store), the explorer, whether the
// primary network's paymaster runs, and the webhook deliveries (in the
// primary network's store, running or kept through an outage), with the
// test event and the resend.
func (a *App) merchantView(c *sharedChain, st store.Backend) func(*dashboard.Config) {
	var n *NetworkConfig
	for i, other := range a.chains {
		if other == c && i < len(a.networks()) {
			n = a.networks()[i]
		}
	}
	return func(cfg *dashboard.Config) {
		cfg.Explorer = explorer(n, c.plan)
		cfg.Refusals = func() (store.RefusalSummary, error) {
			r, err := store.OpenRefusals(st)
			if err != nil {
				return store.RefusalSummary{}, err
			}
			return r.Summary()
		}
		cfg.HasPaymaster = func() bool {
			if a.chain == nil {
				return false
			}
			primary, err := a.chain.running()
			return err == nil && primary.sponsor.Load() != nil
		}
		if len(a.Webhooks) > 0 {
			cfg.Deliveries = func() ([]webhook.Delivery, error) {
				kv, err := a.deliveries()
				if err != nil {
					return nil, err
				}
				return webhook.List(kv, 200)
			}
			cfg.Webhooks = webhookAdmin{a}
		}
	}
}

// deliveries is the space of the webhook deliveries, in the primary
// network's store: running, or kept while the chain does not start.
func (a *App) deliveries() (store.KV, error) {
	var st store.Backend
	if primary, err := a.chain.running(); err == nil {
		st = primary.store
	} else if st, _ = a.chain.kept.offline(); st == nil {
		return nil, err
	}
	return webhook.OpenDeliveries(st)
}

// webhookAdmin sends the test events and resends deliveries for the
// dashboard: it keeps them in the deliveries' space, and the webhooks'
// senders (runWebhooks) deliver them at their next poll, or once the
// primary network starts.
type webhookAdmin struct{ a *App }

// Test keeps a test event's delivery for every webhook.
func (w webhookAdmin) Test() ([]webhook.Delivery, error) {
	m := w.a.merchant
	if m == nil || m.hooks == nil {
		return nil, errors.New("the webhooks did not start")
	}
	kv, err := w.a.deliveries()
	if err != nil {
		return nil, err
	}
	return m.hooks.Test(kv, w.a.chain.plan.network)
}

// Resend makes a delivery due again now.
func (w webhookAdmin) Resend(id string) (webhook.Delivery, error) {
	kv, err := w.a.deliveries()
	if err != nil {
		return webhook.Delivery{}, err
	}
	return webhook.Resend(kv, id, time.Now())
}

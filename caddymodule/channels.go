package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/channels"
	"github.com/caddy-x402/caddy-x402/channels/claimer"
	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/webhook"
	"github.com/caddy-x402/caddy-x402/x402"
)

// A network's payment channels (batch_settlement): the server's channels
// (package channels, the paywall's side) and the claimer that claims and
// sweeps them (package channels/claimer), both over the network's store,
// and their metrics and admin routes.

// openChannels opens the network's batch-settlement channels in run's
// store, and starts their claimer.
func (p *chainPlan) openChannels(run *chainRun, log *zap.Logger) error {
	threshold, err := p.batch.threshold(run)
	if err != nil {
		return err
	}
	cm := holdChannelMetrics()
	run.claimer, err = claimer.New(claimer.Config{
		Store: run.store, Settler: run.fac, Chain: ethclient.NewClient(run.chain), ChainID: p.chainID(),
		Settlement: p.batch.settlement, Authorizer: p.batch.authorizer,
		Interval: p.batch.claimEvery, Threshold: threshold, Logger: log.Named("claimer"),
		OnEvent: func(e claimer.Event) error {
			if err := sendChannelEvent(p.network, e); err != nil {
				return err
			}
			cm.observe(p.network, e, log)
			return nil
		},
	})
	if err != nil {
		return fmt.Errorf("batch_settlement: %w", err)
	}
	kv, err := run.store.Bucket(store.ChannelBucket)
	if err != nil {
		return fmt.Errorf("opening the batch-settlement channels: %w", err)
	}
	sponsored, err := store.OpenSponsored(run.store)
	if err != nil {
		return err
	}
	run.channels, err = channels.New(channels.Config{
		Store: store.NewChannels(kv), ChainID: p.chainID(), Settlement: p.batch.settlement, Authorizer: p.batch.authorizer,
		Sponsored: sponsored, SponsoredLimits: p.batch.sponsored,
		Committed: func(c store.Channel) { run.claimer.Notify(c.ID) },
	})
	if err != nil {
		return err
	}
	run.claimer.Start()
	return nil
}

// threshold is claim_above in atomic units of the network's first asset
// with an EIP-712 domain (the channels' token; one figure for all of
// them), nil when unset.
func (b *batchPlan) threshold(run *chainRun) (*big.Int, error) {
	if b.claimAbove == "" {
		return nil, nil
	}
	decimals := uint8(6)
	for _, a := range *run.assets.Load() {
		if a.Name != "" {
			decimals = assetDecimals(a)
			break
		}
	}
	v, err := units("batch_settlement claim_above", b.claimAbove, decimals)
	if err != nil {
		return nil, err
	}
	if v == nil || v.Sign() <= 0 {
		return nil, errors.New("batch_settlement claim_above must be a positive amount")
	}
	return v, nil
}

// channelMetrics are the claimer's Prometheus series, shared by every
// network (labelled by it).
type channelMetrics struct {
	claimed     *prometheus.CounterVec // atomic units claimed and swept, by network and token
	claims      *prometheus.CounterVec // claim transactions, by network and result
	withdrawals *prometheus.CounterVec // payers' timed withdrawals seen, by network
	refunds     *prometheus.CounterVec // atomic units refunded by the operator, by network and token
}

// Destruct implements caddy.Destructor: nothing to release.
func (*channelMetrics) Destruct() error { return nil }

// channelMetricsKey is the channel metrics' key in Caddy's usage pool.
const channelMetricsKey = "x402.channel_metrics"

func holdChannelMetrics() *channelMetrics {
	v, _, _ := pool.LoadOrNew(channelMetricsKey, func() (caddy.Destructor, error) {
		return &channelMetrics{
			claimed: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "x402", Name: "channel_claimed_total",
				Help: "Atomic units of batch-settlement vouchers claimed and swept to the receiver."}, []string{"network", "token"}),
			claims: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "x402", Name: "channel_claims_total",
				Help: "Claim transactions of batch-settlement channels, by result (claimed, failed)."}, []string{"network", "result"}),
			withdrawals: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "x402", Name: "channel_withdrawals_total",
				Help: "Payers' timed withdrawals of batch-settlement channels seen."}, []string{"network"}),
			refunds: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "x402", Name: "channel_refunded_total",
				Help: "Atomic units of batch-settlement channels refunded by the operator."}, []string{"network", "token"}),
		}, nil
	})
	return v.(*channelMetrics)
}

// register registers m with reg (a handler's, at provision); registering
// twice is no error.
func (m *channelMetrics) register(reg *prometheus.Registry) error {
	if reg == nil {
		return nil
	}
	for _, c := range []prometheus.Collector{m.claimed, m.claims, m.withdrawals, m.refunds} {
		if err := reg.Register(c); err != nil {
			if are, ok := errors.AsType[prometheus.AlreadyRegisteredError](err); !ok || are.ExistingCollector != c {
				return err
			}
		}
	}
	return nil
}

// observe counts and logs a claimer's event.
func (m *channelMetrics) observe(network string, e claimer.Event, log *zap.Logger) {
	amount, _ := new(big.Float).SetInt(orZero(e.Amount)).Float64()
	fields := []zap.Field{zap.String("network", network), zap.String("event", string(e.Kind)), zap.Stringer("token", e.Token),
		zap.Stringer("amount", orZero(e.Amount)), zap.Int("channels", len(e.Channels)), zap.String("reason", e.Reason)}
	if e.Tx != (common.Hash{}) {
		fields = append(fields, zap.Stringer("tx", e.Tx))
	}
	switch e.Kind {
	case claimer.EventClaimed:
		m.claims.WithLabelValues(network, "claimed").Inc()
		log.Info("x402 channels claimed", fields...)
	case claimer.EventSwept:
		m.claimed.WithLabelValues(network, e.Token.Hex()).Add(amount)
		log.Info("x402 channels swept", fields...)
	case claimer.EventFailed:
		m.claims.WithLabelValues(network, "failed").Inc()
		log.Warn("x402 channel claim failed", fields...)
	case claimer.EventWithdrawal:
		m.withdrawals.WithLabelValues(network).Inc()
		log.Info("x402 channel withdrawal seen; claiming before its delay ends", fields...)
	case claimer.EventRefunded:
		m.refunds.WithLabelValues(network, e.Token.Hex()).Add(amount)
		log.Info("x402 channel refunded", fields...)
	}
}

func orZero(v *big.Int) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return v
}

// channelDesk is the admin API's view of a network's channels
// (dashboard.ChannelDesk).
type channelDesk struct{ c *claimer.Claimer }

// Report is the claimer's report, amounts in decimal strings.
func (d channelDesk) Report() (any, error) {
	rep, err := d.c.Report()
	if err != nil {
		return nil, err
	}
	out := struct {
		Channels []map[string]any `json:"channels"`
		Payers   []map[string]any `json:"payers"`
	}{Channels: []map[string]any{}, Payers: []map[string]any{}}
	for _, c := range rep.Channels {
		out.Channels = append(out.Channels, map[string]any{
			"id": c.ID.Hex(), "payer": c.Payer.Hex(), "receiver": c.Receiver.Hex(), "token": c.Token.Hex(), "balance": orZero(c.Balance).String(),
			"unclaimed": orZero(c.Unclaimed).String(), "claimed": orZero(c.Claimed).String(), "swept": orZero(c.Swept).String(),
			"withdrawRequestedAt": c.WithdrawRequestedAt, "claims": c.Claims,
		})
	}
	for _, p := range rep.Payers {
		out.Payers = append(out.Payers, map[string]any{
			"payer": p.Payer.Hex(), "token": p.Token.Hex(), "channels": p.Channels,
			"unclaimed": orZero(p.Unclaimed).String(), "claimed": orZero(p.Claimed).String(), "swept": orZero(p.Swept).String(),
		})
	}
	return out, nil
}

// Refund refunds a channel on the operator's word.
func (d channelDesk) Refund(ctx context.Context, id, amount string) (any, error) {
	h, err := hexHash(id)
	if err != nil {
		return nil, err
	}
	var v *big.Int
	if amount != "" {
		var ok bool
		if v, ok = new(big.Int).SetString(amount, 10); !ok || v.Sign() <= 0 {
			return nil, fmt.Errorf("%w: amount %q is not a positive whole number of atomic units", dashboard.ErrConflict, amount)
		}
	}
	res, err := d.c.Refund(ctx, h, v)
	switch {
	case errors.Is(err, claimer.ErrNothingToRefund), errors.Is(err, claimer.ErrRefundTooLarge), errors.Is(err, claimer.ErrBusy):
		return nil, fmt.Errorf("%w: %v", dashboard.ErrConflict, err)
	case errors.Is(err, claimer.ErrNotOurs), errors.Is(err, store.ErrNoChannel):
		return nil, fmt.Errorf("channel %s: %v: %w", h, err, dashboard.ErrNotFound)
	case err != nil:
		return nil, err
	}
	return map[string]any{"channel": h.Hex(), "transaction": res.Tx.Hex(), "refunded": orZero(res.Amount).String(), "claimed": orZero(res.Claimed).String()}, nil
}

// hexHash reads a channel id.
func hexHash(s string) (common.Hash, error) {
	b, err := hexutil.Decode(s)
	if err != nil || len(b) != common.HashLength {
		return common.Hash{}, fmt.Errorf("channel id %q: want 0x and 64 hex digits: %w", s, dashboard.ErrNotFound)
	}
	return common.BytesToHash(b), nil
}

// sendChannelEvent sends a claimer's event to the merchant's webhooks (of
// the running config: the claimer outlives a reload), as
// channel.claimed, channel.claim_failed, channel.withdrawal or
// channel.refunded. A sweep is part of its claim's event. Its id comes
// from the transaction (or the channels), the same on every replica, so
// that one told again (the claimer tells a claim's events until they were
// kept) is delivered once. It fails when a webhook did not keep it.
func sendChannelEvent(network string, e claimer.Event) error {
	typ := map[claimer.EventKind]string{
		claimer.EventClaimed: webhook.EventChannelClaimed, claimer.EventFailed: webhook.EventChannelFailed,
		claimer.EventWithdrawal: webhook.EventChannelWithdrawal, claimer.EventRefunded: webhook.EventChannelRefunded,
	}[e.Kind]
	if typ == "" {
		return nil
	}
	appIface, err := caddy.ActiveContext().AppIfConfigured("x402")
	app, ok := appIface.(*App)
	if err != nil || !ok || app.merchant == nil || app.merchant.hooks == nil {
		return nil
	}
	key := e.Tx.Hex()
	ev := webhook.Event{Type: typ, Time: e.At.UTC(), Network: network, Scheme: x402.SchemeBatchSettlement,
		PayTo: e.Receiver.Hex(), Asset: e.Token.Hex(), Amount: orZero(e.Amount).String(), Error: e.Reason}
	if typ != webhook.EventChannelFailed {
		ev.Error = ""
	}
	if e.Tx != (common.Hash{}) {
		ev.Transaction = e.Tx.Hex()
	}
	for _, c := range e.Channels {
		ev.Channels = append(ev.Channels, webhook.ChannelAmount{ID: c.ID.Hex(), Payer: c.Payer.Hex(), Amount: orZero(c.Amount).String()})
		if e.Tx == (common.Hash{}) {
			key += c.ID.Hex() + orZero(c.Amount).String()
		}
	}
	ev.ID = webhook.EventID(typ, network, key)
	if !app.merchant.hooks.Send(ev) {
		return fmt.Errorf("channel event %s was not kept for every webhook", ev.ID)
	}
	return nil
}

// minDepositOf is the extra.minDeposit of an offer of price (atomic units)
// in asset a: min_deposit in a's units, or ten times the price, and never
// below the price.
func (b *batchPlan) minDepositOf(price string, a AssetConfig) (string, error) {
	p, err := x402.ParseAmount(price)
	if err != nil {
		return "", fmt.Errorf("x402 batch-settlement price: %w", err)
	}
	min := new(big.Int).Mul(p, big.NewInt(10))
	if b.minDeposit != "" {
		if min, err = units("batch_settlement min_deposit", b.minDeposit, assetDecimals(a)); err != nil {
			return "", err
		}
	}
	if min == nil || min.Cmp(p) < 0 {
		min = p
	}
	return min.String(), nil
}

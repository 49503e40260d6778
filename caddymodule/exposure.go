package caddymodule

import (
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/paywall"
)

// BroadcastConfig makes a route serve a paid request as soon as its
// settlement transaction is accepted by the node, instead of once it is
// mined (a block: 2 s on Base), within bounds; beyond them a request waits
// for inclusion, as by default. A payer whose settlement then fails (it
// front-ran it) is counted in caddy_x402_served_unpaid_total, logged, shown
// on the dashboard's refused page, and its payments wait for inclusion for
// the x402 app's serve_on_broadcast penalty. Not with facilitator_url (a
// remote facilitator does not say when it broadcast), access or an
// external bundler's aa-native (those wait). See docs/paywall.md.
type BroadcastConfig struct {
	// How many payments of one payer may be served and not settled yet at
	// once, over every route of the x402 app. Default: 1.
	MaxPerPayer int `json:"max_per_payer,omitempty"`
	// The most this route may have served and not settled yet, per asset:
	// whole tokens, such as "1.00", or US dollars, such as "$1", for
	// assets pegged to the dollar; converted with each asset's decimals.
	// Required, unless the x402 app's serve_on_broadcast sets
	// max_in_flight.
	MaxInFlight string `json:"max_in_flight,omitempty"`
}

// SiteBroadcastConfig is the x402 app's bound on what every route serving
// on broadcast may have served and not settled yet, and its penalty.
type SiteBroadcastConfig struct {
	// The most every route together may have served and not settled yet,
	// per asset, written as a route's max_in_flight. Unset by default: only
	// the routes' own bounds apply.
	MaxInFlight string `json:"max_in_flight,omitempty"`
	// How long a payer whose settlement failed after its response was
	// served waits for inclusion on every route. Default: 24h.
	Penalty caddy.Duration `json:"penalty,omitempty"`
}

// validate checks a route's serve_on_broadcast.
func (b *BroadcastConfig) validate(h *Handler) error {
	var errs []error
	if h.FacilitatorURL != "" || h.app != nil && h.app.FacilitatorURL != "" {
		errs = append(errs, errors.New("x402 serve_on_broadcast needs the embedded facilitator: a remote one (facilitator_url) does not say when a settlement is broadcast; remove one of them"))
	}
	if h.Access != nil {
		errs = append(errs, errors.New("x402 serve_on_broadcast: a route with access serves after inclusion (a window must not open on an unsettled payment); remove one of them"))
	}
	if b.MaxPerPayer < 0 {
		errs = append(errs, errors.New("x402 serve_on_broadcast max_per_payer must not be negative"))
	}
	if b.MaxInFlight == "" && (h.app == nil || h.app.ServeOnBroadcast == nil || h.app.ServeOnBroadcast.MaxInFlight == "") {
		errs = append(errs, errors.New("x402 serve_on_broadcast needs max_in_flight (such as $1), here or in the x402 app's serve_on_broadcast: what the route may serve before it is paid"))
	}
	nets, _ := h.networks()
	errs = append(errs, checkBound("x402 serve_on_broadcast max_in_flight", b.MaxInFlight, nets))
	return errors.Join(errs...)
}

// checkBound checks that bound, if set, is a price in every asset of nets.
func checkBound(what, bound string, nets []netOffer) error {
	if bound == "" {
		return nil
	}
	_, err := boundOf(bound, nets)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// boundOf is bound, a price, in the atomic units of each asset of nets,
// by paywall.AssetKey.
func boundOf(bound string, nets []netOffer) (map[string]*big.Int, error) {
	out := map[string]*big.Int{}
	for _, n := range nets {
		for _, a := range n.assets {
			v, err := priceOf(bound, a)
			if err != nil {
				return nil, fmt.Errorf("in %s: %w", assetName(a), err)
			}
			out[paywall.AssetKey(n.network, a.Address)], _ = new(big.Int).SetString(v, 10)
		}
	}
	return out, nil
}

// exposure is the app's ledger of payments served on broadcast, shared by
// its routes, taken when the first route that serves on broadcast is
// provisioned (routes are provisioned one at a time). It lives in the
// usage pool, so a reload keeps its payments in flight and its penalty
// box: a reload that emptied them would let a boxed payer be served on
// broadcast again at once, and the in-flight bound start from nothing.
// The config's bounds are put in force when it starts (or at once in a
// new ledger).
func (a *App) exposure() (*paywall.Exposure, error) {
	if a.ledger != nil {
		return a.ledger, nil
	}
	var penalty time.Duration
	var bound map[string]*big.Int
	if s := a.ServeOnBroadcast; s != nil {
		penalty = time.Duration(s.Penalty)
		if s.MaxInFlight != "" {
			var err error
			if bound, err = boundOf(s.MaxInFlight, a.offerable()); err != nil {
				return nil, fmt.Errorf("x402 serve_on_broadcast max_in_flight: %w", err)
			}
		}
	}
	v, loaded, err := pool.LoadOrNew(exposureKey, func() (caddy.Destructor, error) {
		return pooledExposure{new(paywall.Exposure)}, nil
	})
	if err != nil {
		return nil, err
	}
	a.exposureHold = exposureKey
	e := v.(pooledExposure).Exposure
	// A fleet (a store the replicas share) shares the ledger too.
	var shared paywall.SharedExposure
	if a.Database != "" && a.chain != nil {
		shared = &chainExposure{chain: a.chain}
	}
	a.ledger, a.ledgerBounds = e, func() {
		e.SetBounds(bound, penalty)
		e.SetShared(shared)
	}
	if !loaded {
		a.ledgerBounds()
	}
	return e, nil
}

// exposureKey is the serve-on-broadcast ledger's key in the usage pool.
const exposureKey = "x402-exposure"

// pooledExposure is the ledger in the usage pool.
type pooledExposure struct{ *paywall.Exposure }

// Destruct has nothing to release.
func (pooledExposure) Destruct() error { return nil }

// broadcast is the route's paywall.Broadcast, or nil when it does not
// serve on broadcast.
func (h *Handler) broadcast() (*paywall.Broadcast, error) {
	b := h.ServeOnBroadcast
	if b == nil {
		return nil, nil
	}
	e, err := h.app.exposure()
	if err != nil {
		return nil, err
	}
	out := &paywall.Broadcast{Exposure: e, MaxPerPayer: b.MaxPerPayer}
	if out.Route, err = h.routeID(); err != nil {
		return nil, err
	}
	if b.MaxInFlight != "" {
		nets, _ := h.networks()
		if out.MaxInFlight, err = boundOf(b.MaxInFlight, nets); err != nil {
			return nil, fmt.Errorf("x402 serve_on_broadcast max_in_flight: %w", err)
		}
	}
	return out, nil
}

// broadcastFinal is the paywall's AfterBroadcast hook: the outcome of a
// payment served on broadcast goes to the webhooks (held back at the
// broadcast); one that is not a success was served unpaid, and is counted
// in caddy_x402_served_unpaid_total, logged, and recorded on the
// dashboard's refused page as served_unpaid.
func (h *Handler) broadcastFinal(r *http.Request, e *paywall.Event) {
	h.app.merchant.settlement(r, e)
	res := e.Settle
	if res.Success {
		return
	}
	h.metrics.servedUnpaid.WithLabelValues(h.labels(r, e.Offer)...).Inc()
	h.app.merchant.servedUnpaid(r, e, h.routeLabel(r))
	h.log.Error("x402 served unpaid: a settlement failed after its response was served on broadcast",
		zap.String("scheme", e.Offer.Scheme), zap.String("tx", res.TransactionHash), zap.String("payer", res.Payer),
		zap.String("amount", e.Offer.Amount), zap.String("asset", e.Offer.Asset), zap.String("network", e.Offer.Network),
		zap.String("host", r.Host), zap.String("uri", requestPath(r)),
		zap.String("error_code", string(res.ErrorCode)))
}

package paywall

import (
	"context"
	"crypto/rand"
	"math/big"
	"strings"
	"sync"
	"time"
)

// DefaultPenalty is the default of Exposure.Penalty.
const DefaultPenalty = 24 * time.Hour

// maxBoxed bounds the payers an Exposure keeps in its penalty box; past it,
// the boxes that ended are swept first, then the oldest is let out.
const maxBoxed = 10000

// Exposure is the ledger of the payments served on broadcast whose
// settlement is not final yet: what a merchant stands to lose if their
// payers front-run them. Every route serving on broadcast reserves a
// payment's amount in it before serving, and releases it once the
// settlement is final, so its counts are exact under concurrency. Share
// one among the routes of a site, so that its bounds (per payer, per
// asset, and the penalty box) hold across them. It is safe for concurrent
// use once in use; set its fields before.
type Exposure struct {
	// MaxInFlight bounds, for each asset (by AssetKey), the amount of the
	// payments served on broadcast and not settled yet, over every route
	// sharing the ledger, in the asset's atomic units. Nil bounds nothing
	// here (each route's own bound still applies).
	MaxInFlight map[string]*big.Int
	// Penalty is how long a payer whose settlement failed after its
	// response was served waits for inclusion, on every route sharing the
	// ledger; default DefaultPenalty.
	Penalty time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Shared is the ledger the replicas of a fleet share, or nil for a
	// process alone. With it, the bounds (per payer, per asset on the site
	// and on each named route) and the penalty box hold across every
	// replica sharing it, and survive a restart: a reservation must fit
	// both this process's ledger and the shared one, and a payer boxed by
	// any replica is boxed on all. A shared ledger that fails refuses: the
	// payment waits for inclusion. Set it before use, or with SetShared.
	Shared SharedExposure

	mu       sync.Mutex
	inFlight map[string]*big.Int  // by asset key
	payers   map[string]int       // served and not final, by lowercase payer
	boxed    map[string]time.Time // payer → end of its penalty
}

// SetBounds puts MaxInFlight and Penalty in force in an Exposure in use:
// a config reload's new bounds, while the payments in flight and the
// penalty box stay as they are.
func (e *Exposure) SetBounds(maxInFlight map[string]*big.Int, penalty time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.MaxInFlight, e.Penalty = maxInFlight, penalty
}

// SetShared puts a shared ledger in force in an Exposure in use (nil
// takes it out); reservations already held stay where they were taken.
func (e *Exposure) SetShared(s SharedExposure) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.Shared = s
}

// sharedLedger is e.Shared, read under its lock.
func (e *Exposure) sharedLedger() SharedExposure {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.Shared
}

// SharedExposure is the part of an Exposure that the replicas of a fleet
// share (caddymodule keeps it in the fleet's store, store.Exposure). Each
// method must hold across processes: Reserve takes a hold only if it
// fits every bound at once, whatever the other replicas do meanwhile.
type SharedExposure interface {
	// Reserve takes h if the payer is not boxed, has fewer than perPayer
	// holds, and the asset's holds plus h.Amount fit site (site-wide) and
	// route (h.Route's), each where not nil.
	Reserve(ctx context.Context, h SharedHold, perPayer int, site, route *big.Int) (bool, error)
	// Release gives h back, and boxes its payer until boxUntil unless
	// that is zero or a longer penalty stands.
	Release(ctx context.Context, h SharedHold, boxUntil time.Time) error
	// Boxed reports whether payer is in the shared penalty box.
	Boxed(ctx context.Context, payer string) (bool, error)
}

// SharedHold is one payment's share of a SharedExposure.
type SharedHold struct {
	// ID is random, the payment's alone.
	ID [8]byte
	// Payer is the payer's address, in lower case.
	Payer string
	// Asset is the asset's AssetKey.
	Asset string
	// Route names the route alike on every replica (Broadcast.Route);
	// empty when the route has no bound of its own.
	Route string
	// Amount is the payment's amount in atomic units.
	Amount *big.Int
	// Expires is when a hold its replica never released (it died) ends
	// by itself: sharedHoldFor after it was taken.
	Expires time.Time
}

// sharedHoldFor is how long a shared hold lasts if its replica never
// releases it: longer than a settlement served on broadcast is followed
// (followFor) plus its first attempt, so that a live replica always
// releases first.
const sharedHoldFor = followFor + 5*time.Minute

// sharedTimeout bounds a call to the shared ledger; one that does not
// answer in time refuses, and the payment waits for inclusion.
const sharedTimeout = 5 * time.Second

// AssetKey names an asset in the bounds of Exposure and Broadcast: the
// CAIP-2 network and the token address, in lower case.
func AssetKey(network, asset string) string {
	return strings.ToLower(network) + "/" + strings.ToLower(asset)
}

// routeBudget is one route's in-flight amounts and bound, guarded by the
// mutex of its Exposure.
type routeBudget struct {
	name     string // Broadcast.Route
	limit    map[string]*big.Int
	inFlight map[string]*big.Int
}

// reservation is one payment's share of the ledger, from before its
// response is served until its settlement is final.
type reservation struct {
	e      *Exposure
	route  *routeBudget
	payer  string
	asset  string
	amount *big.Int
	once   sync.Once
	// shared is the reservation's hold in ledger, the shared ledger it was
	// taken in; nil without one.
	shared *SharedHold
	ledger SharedExposure
}

func (e *Exposure) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Boxed reports whether payer is in the penalty box: one of its payments
// served on broadcast failed to settle, and for Penalty its payments wait
// for inclusion.
func (e *Exposure) Boxed(payer string) bool {
	e.mu.Lock()
	until, ok := e.boxed[strings.ToLower(payer)]
	shared := e.Shared
	e.mu.Unlock()
	if ok && e.now().Before(until) {
		return true
	}
	if shared == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	boxed, err := shared.Boxed(ctx, strings.ToLower(payer))
	return boxed || err != nil
}

// reserve takes amount of asset for a payment of payer on route, if every
// bound allows it: the payer is not in the penalty box and has fewer than
// perPayer payments served and not final, the asset is bounded on the
// route or the site, and neither bound would be passed. It returns nil
// otherwise: the payment then waits for inclusion.
func (e *Exposure) reserve(route *routeBudget, perPayer int, payer, asset string, amount *big.Int) *reservation {
	res := e.reserveHere(route, perPayer, payer, asset, amount)
	shared := e.sharedLedger()
	if res == nil || shared == nil {
		return res
	}
	h := SharedHold{Payer: res.payer, Asset: asset, Amount: res.amount, Expires: e.now().Add(sharedHoldFor)}
	if _, err := rand.Read(h.ID[:]); err != nil {
		res.release(false)
		return nil
	}
	routeLimit := route.limit[asset]
	if routeLimit != nil {
		h.Route = route.name
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	if ok, err := shared.Reserve(ctx, h, perPayer, e.siteLimit(asset), routeLimit); !ok || err != nil {
		res.release(false)
		return nil
	}
	res.shared, res.ledger = &h, shared
	return res
}

// siteLimit is the site's bound of asset, or nil.
func (e *Exposure) siteLimit(asset string) *big.Int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.MaxInFlight[asset]
}

// reserveHere is reserve in this process's ledger alone.
func (e *Exposure) reserveHere(route *routeBudget, perPayer int, payer, asset string, amount *big.Int) *reservation {
	payer = strings.ToLower(payer)
	e.mu.Lock()
	defer e.mu.Unlock()
	if until, ok := e.boxed[payer]; ok {
		if e.now().Before(until) {
			return nil
		}
		delete(e.boxed, payer)
	}
	if e.payers[payer] >= perPayer {
		return nil
	}
	siteLimit, siteOK := e.MaxInFlight[asset]
	routeLimit, routeOK := route.limit[asset]
	if !siteOK && !routeOK || amount.Sign() < 0 {
		return nil
	}
	if siteOK && new(big.Int).Add(held(e.inFlight, asset), amount).Cmp(siteLimit) > 0 {
		return nil
	}
	if routeOK && new(big.Int).Add(held(route.inFlight, asset), amount).Cmp(routeLimit) > 0 {
		return nil
	}
	if e.inFlight == nil {
		e.inFlight, e.payers = map[string]*big.Int{}, map[string]int{}
	}
	if route.inFlight == nil {
		route.inFlight = map[string]*big.Int{}
	}
	e.inFlight[asset] = new(big.Int).Add(held(e.inFlight, asset), amount)
	route.inFlight[asset] = new(big.Int).Add(held(route.inFlight, asset), amount)
	e.payers[payer]++
	return &reservation{e: e, route: route, payer: payer, asset: asset, amount: new(big.Int).Set(amount)}
}

// held is m[asset], zero when absent.
func held(m map[string]*big.Int, asset string) *big.Int {
	if v := m[asset]; v != nil {
		return v
	}
	return new(big.Int)
}

// release gives the reservation back, once: its settlement is final, or
// its response was not served on broadcast. A payer whose settlement
// failed after being served (unpaid) goes to the penalty box.
func (r *reservation) release(unpaid bool) {
	if r == nil {
		return
	}
	r.once.Do(func() {
		e := r.e
		if r.shared != nil {
			var until time.Time
			if unpaid {
				until = e.now().Add(e.penalty())
			}
			ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
			// A failure leaves the hold to end by itself (sharedHoldFor);
			// the penalty is kept here.
			r.ledger.Release(ctx, *r.shared, until)
			cancel()
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		sub := func(m map[string]*big.Int) {
			if v := new(big.Int).Sub(held(m, r.asset), r.amount); v.Sign() > 0 {
				m[r.asset] = v
			} else {
				delete(m, r.asset)
			}
		}
		sub(e.inFlight)
		sub(r.route.inFlight)
		if e.payers[r.payer]--; e.payers[r.payer] <= 0 {
			delete(e.payers, r.payer)
		}
		if unpaid {
			e.box(r.payer)
		}
	})
}

// box puts payer in the penalty box; e.mu is held.
func (e *Exposure) box(payer string) {
	now := e.now()
	if e.boxed == nil {
		e.boxed = map[string]time.Time{}
	}
	if len(e.boxed) >= maxBoxed {
		var oldest string
		for p, until := range e.boxed {
			if !now.Before(until) {
				delete(e.boxed, p)
			} else if oldest == "" || until.Before(e.boxed[oldest]) {
				oldest = p
			}
		}
		if len(e.boxed) >= maxBoxed {
			delete(e.boxed, oldest)
		}
	}
	e.boxed[payer] = now.Add(e.penaltyLocked())
}

// penalty is how long a payer stays boxed.
func (e *Exposure) penalty() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.penaltyLocked()
}

// penaltyLocked is penalty; e.mu is held.
func (e *Exposure) penaltyLocked() time.Duration {
	if e.Penalty <= 0 {
		return DefaultPenalty
	}
	return e.Penalty
}

// inFlightOf is the amount of asset the ledger holds for routes, and the
// payers it counts; for tests.
func (e *Exposure) inFlightOf(asset string) (*big.Int, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.payers {
		n += c
	}
	return new(big.Int).Set(held(e.inFlight, asset)), n
}

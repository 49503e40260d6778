package paywall

import (
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

// AssetKey names an asset in the bounds of Exposure and Broadcast: the
// CAIP-2 network and the token address, in lower case.
func AssetKey(network, asset string) string {
	return strings.ToLower(network) + "/" + strings.ToLower(asset)
}

// routeBudget is one route's in-flight amounts and bound, guarded by the
// mutex of its Exposure.
type routeBudget struct {
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
	defer e.mu.Unlock()
	until, ok := e.boxed[strings.ToLower(payer)]
	return ok && e.now().Before(until)
}

// reserve takes amount of asset for a payment of payer on route, if every
// bound allows it: the payer is not in the penalty box and has fewer than
// perPayer payments served and not final, the asset is bounded on the
// route or the site, and neither bound would be passed. It returns nil
// otherwise: the payment then waits for inclusion.
func (e *Exposure) reserve(route *routeBudget, perPayer int, payer, asset string, amount *big.Int) *reservation {
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
	penalty := e.Penalty
	if penalty <= 0 {
		penalty = DefaultPenalty
	}
	e.boxed[payer] = now.Add(penalty)
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

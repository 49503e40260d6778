package facilitator

import (
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Offers are the payments this server's own paywalls ask for. A caller
// without a credential may settle, or have sponsored, only a payment that
// pays one of them: it pays one of our merchants the price of one of our
// routes, so the gas we spend on it buys a sale.
type Offers interface {
	// Issued reports whether some offer of scheme asks for amount of asset
	// paid to payTo.
	Issued(scheme string, payTo, asset common.Address, amount *big.Int) bool
}

// NetworkOffers are Offers that know the network of each offer, such as
// those of an app of several networks: the handler asks IssuedOn, so that
// an anonymous settle pays an offer on the network it was made on.
type NetworkOffers interface {
	Offers
	// IssuedOn reports whether some offer of scheme on network asks for
	// amount of asset paid to payTo.
	IssuedOn(network, scheme string, payTo, asset common.Address, amount *big.Int) bool
}

// OfferSet is a concurrent multiset of offers: a paywall adds its offers
// when it starts and removes them when it stops, and an offer is issued
// while any paywall holds it. Its zero value is empty and ready.
type OfferSet struct {
	mu sync.RWMutex
	m  map[offerKey]int
}

type offerKey struct {
	scheme       string
	payTo, asset common.Address
	amount       string
}

func keyOf(r *x402.PaymentRequirements) (offerKey, bool) {
	payTo, err1 := x402.ParseAddress(r.PayTo)
	asset, err2 := x402.ParseAddress(r.Asset)
	amount, err3 := x402.ParseAmount(r.Amount)
	if err1 != nil || err2 != nil || err3 != nil {
		return offerKey{}, false
	}
	return offerKey{scheme: strings.ToLower(r.Scheme), payTo: payTo, asset: asset, amount: amount.String()}, true
}

// Add issues offers; malformed ones are ignored.
func (o *OfferSet) Add(offers ...x402.PaymentRequirements) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil {
		o.m = make(map[offerKey]int)
	}
	for i := range offers {
		if k, ok := keyOf(&offers[i]); ok {
			o.m[k]++
		}
	}
}

// Remove withdraws offers added earlier, once each.
func (o *OfferSet) Remove(offers ...x402.PaymentRequirements) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := range offers {
		if k, ok := keyOf(&offers[i]); ok {
			if o.m[k] <= 1 {
				delete(o.m, k)
			} else {
				o.m[k]--
			}
		}
	}
}

// Issued reports whether an offer asks for exactly this payment.
func (o *OfferSet) Issued(scheme string, payTo, asset common.Address, amount *big.Int) bool {
	if amount == nil {
		return false
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	return o.m[offerKey{scheme: scheme, payTo: payTo, asset: asset, amount: amount.String()}] > 0
}

var _ Offers = (*OfferSet)(nil)

package facilitator

import (
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// The budget of contract-wallet reverts. Code of a payer's that checks its
// signature on chain (an ERC-1271 or ERC-6492 wallet, an EIP-7702
// account's delegate) can accept it in every simulation and refuse it, or
// burn its gas, once mined: its settlement reverts at the settler's cost
// and none of the payer's, and a fresh wallet escapes the penalty box. So
// such reverts are budgeted, in three ways, each over the last hour:
//
//   - per class of wallet, walletClassReverts of them: a class is the
//     wallets that behave alike, by their code (its hash; an EIP-7702
//     account's code names its delegate) or, for a wallet not deployed
//     yet, by its ERC-6492 factory. Past it, the payments of new wallets
//     of that class are refused: a rogue implementation, however many
//     wallets it is deployed at, stops costing the settler after a few
//     reverts, and no other class is touched by it;
//   - in all, Config.WalletReverts (default 20): the settler's hard bound,
//     however many classes an attacker deploys (each new class costs it a
//     deployment, more gas than the revert it buys). Past it, the payments
//     of new wallets of classes that never settled here are refused;
//   - never for a payer that settled here before, nor, for the global
//     bound, for a class that did: an honest wallet, or an honest wallet
//     implementation, keeps paying through an attack it had nothing to do
//     with. (A payer that itself reverts still goes to the penalty box.)
//
// The memory is bounded: at most maxWalletClasses classes and
// maxTrustedWallets payers are kept, the oldest dropped first.
type walletBudget struct {
	// budget is Config.WalletReverts (0: defaultWalletReverts; negative:
	// no global bound).
	budget int
	// reverts are when contract-wallet settlements reverted in the last
	// hour, oldest first.
	reverts []time.Time
	// classes are the reverts of each class in the last hour.
	classes map[common.Hash][]time.Time
	// settledClasses and settledPayers are when a class's or a payer's
	// contract-wallet payment last settled.
	settledClasses map[common.Hash]time.Time
	settledPayers  map[common.Address]time.Time
}

// Defaults and bounds of the budget of contract-wallet reverts.
const (
	defaultWalletReverts = 20
	// walletClassReverts is the reverts of one class in an hour past
	// which its new wallets are refused.
	walletClassReverts = 3
	maxWalletClasses   = 10_000
	maxTrustedWallets  = 100_000
)

// limit is the global bound, or -1 for none.
func (b *walletBudget) limit() int {
	switch {
	case b.budget == 0:
		return defaultWalletReverts
	case b.budget < 0:
		return -1
	}
	return b.budget
}

// reverted counts a contract-wallet settlement of class that reverted.
// p.mu is held.
func (b *walletBudget) reverted(class common.Hash, now time.Time) {
	if b.limit() > 0 {
		b.reverts = append(recentReverts(b.reverts, now, b.limit()), now)
	}
	if b.classes == nil {
		b.classes = map[common.Hash][]time.Time{}
	}
	if _, ok := b.classes[class]; !ok && len(b.classes) >= maxWalletClasses {
		b.classes = pruneClasses(b.classes, now)
	}
	b.classes[class] = append(recentReverts(b.classes[class], now, walletClassReverts), now)
}

// settled marks a contract-wallet payment of payer and class settled.
// p.mu is held.
func (b *walletBudget) settled(payer common.Address, class common.Hash, now time.Time) {
	if b.settledPayers == nil {
		b.settledPayers, b.settledClasses = map[common.Address]time.Time{}, map[common.Hash]time.Time{}
	}
	b.settledPayers[payer] = now
	b.settledClasses[class] = now
	dropOldest(b.settledPayers, maxTrustedWallets)
	dropOldest(b.settledClasses, maxWalletClasses)
}

// paused reports whether a contract-wallet payment of payer and class is
// refused, and until when. p.mu is held.
func (b *walletBudget) paused(payer common.Address, class common.Hash, now time.Time) (time.Time, bool) {
	if _, ok := b.settledPayers[payer]; ok {
		return time.Time{}, false
	}
	if recent := recentReverts(b.classes[class], now, walletClassReverts); len(recent) >= walletClassReverts {
		return recent[0].Add(time.Hour), true
	}
	if _, ok := b.settledClasses[class]; ok {
		return time.Time{}, false
	}
	limit := b.limit()
	if limit < 0 {
		return time.Time{}, false
	}
	b.reverts = recentReverts(b.reverts, now, limit)
	if len(b.reverts) < limit {
		return time.Time{}, false
	}
	return b.reverts[0].Add(time.Hour), true
}

// recentReverts is reverts without those older than an hour, and at most
// the last limit of them.
func recentReverts(reverts []time.Time, now time.Time, limit int) []time.Time {
	for len(reverts) > 0 && now.Sub(reverts[0]) >= time.Hour {
		reverts = reverts[1:]
	}
	if limit > 0 && len(reverts) > limit {
		reverts = reverts[len(reverts)-limit:]
	}
	return slices.Clone(reverts)
}

// pruneClasses drops the classes with no revert in the last hour, and, if
// that is not enough, half of the rest.
func pruneClasses(classes map[common.Hash][]time.Time, now time.Time) map[common.Hash][]time.Time {
	for c, r := range classes {
		if len(recentReverts(r, now, 0)) == 0 {
			delete(classes, c)
		}
	}
	for c := range classes {
		if len(classes) < maxWalletClasses/2 {
			break
		}
		delete(classes, c)
	}
	return classes
}

// dropOldest drops the oldest entries of m past limit.
func dropOldest[K comparable](m map[K]time.Time, limit int) {
	if len(m) <= limit {
		return
	}
	times := make([]time.Time, 0, len(m))
	for _, t := range m {
		times = append(times, t)
	}
	slices.SortFunc(times, time.Time.Compare)
	cut := times[len(m)-limit*3/4] // keep the newest three quarters of limit
	for k, t := range m {
		if t.Before(cut) {
			delete(m, k)
		}
	}
}

// walletsPaused reports whether a contract-wallet payment of payer and
// class is refused (see walletBudget), and until when.
func (p *payers) walletsPaused(payer common.Address, class common.Hash, now time.Time) (until time.Time, paused bool) {
	if w := p.sharedWallets; w != nil {
		p.mu.Lock()
		limit := p.wallets.limit()
		p.mu.Unlock()
		return w.paused(payer, class, now, limit) // the fleet's budget (walletshared.go)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.wallets.paused(payer, class, now)
}

// settled marks the settlement of key a success: a contract-wallet payer
// and its class are then never refused for others' reverts.
func (p *payers) settled(key common.Hash, payer common.Address, now time.Time) {
	p.mu.Lock()
	h, ok := p.holds[key]
	if ok && h.contract {
		p.wallets.settled(payer, h.class, now)
	}
	p.mu.Unlock()
	if w := p.sharedWallets; w != nil && ok && h.contract {
		w.settled(payer, h.class, now)
	}
}

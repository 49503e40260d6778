package facilitator

import (
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// payers is what the facilitator knows of each payer's settlements: the
// amounts its unfinished settlements will take, and a penalty box for
// payers whose settlements revert.
//
// A payer holding one price could sign forty authorizations and have them
// settled at once: each passed verification alone, all forty were
// broadcast, and thirty-nine reverted at the settler's cost. Counting what
// is in flight against the balance refuses them before broadcast; the
// penalty box bounds what a payer who empties its balance between
// verification and inclusion can make the settler spend.
//
// Its memory is bounded whatever the number of payers: verification keeps
// nothing per payer; locks, reserved and holds hold only the payers with
// settlements under way (each entry goes when its settlement is final or
// released); and the penalty box holds at most maxStrikes payers (see
// reverted for which go first when it is full).
type payers struct {
	mu       sync.Mutex
	locks    map[payerToken]*payerLock
	reserved map[payerToken]*big.Int
	holds    map[common.Hash]hold // replay key → its reservation
	strikes  map[common.Address]*strike
	// maxStrikes bounds strikes; 0 is defaultMaxStrikes.
	maxStrikes int
	// swept is when strikes was last rid of payers clean for a day.
	swept time.Time
	// wallets is the budget of contract-wallet reverts (walletbudget.go).
	wallets walletBudget
	// shared is the penalty box every process sharing the store reads
	// (penaltybox.go), or nil; pruned is when this process last pruned it.
	shared store.KV
	pruned time.Time
	log    *zap.Logger
	// sharedWallets is the budget of contract-wallet reverts every process
	// sharing the store counts against (walletshared.go), or nil.
	sharedWallets *sharedWallets
}

// defaultMaxStrikes is how many payers the penalty box holds at most,
// about 100 bytes each: some 10 MB at the most.
const defaultMaxStrikes = 100_000

// strikeMemory is how long a payer's strikes are remembered after its
// last revert, so that a repeat offender's penalty doubles.
const strikeMemory = 24 * time.Hour

type payerToken struct{ payer, token common.Address }

type payerLock struct {
	sync.Mutex
	users int
}

type hold struct {
	pt     payerToken
	amount *big.Int
	// contract is the payment's scheme.Payment.Contract, and class its
	// scheme.Payment.Class.
	contract bool
	class    common.Hash
}

type strike struct {
	count int
	until time.Time // refused until then
	last  time.Time
}

// lock serializes the verification and reservation of one payer's
// payments in one token, so concurrent payments cannot each count without
// the others. It returns the unlock.
func (p *payers) lock(payer, token common.Address) func() {
	pt := payerToken{payer, token}
	p.mu.Lock()
	if p.locks == nil {
		p.locks = map[payerToken]*payerLock{}
	}
	l := p.locks[pt]
	if l == nil {
		l = new(payerLock)
		p.locks[pt] = l
	}
	l.users++
	p.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		p.mu.Lock()
		if l.users--; l.users == 0 {
			delete(p.locks, pt)
		}
		p.mu.Unlock()
	}
}

// committed is what payer's unfinished settlements in token will take.
func (p *payers) committed(payer, token common.Address) *big.Int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v := p.reserved[payerToken{payer, token}]; v != nil {
		return new(big.Int).Set(v)
	}
	return new(big.Int)
}

// reserve counts amount against payer's balance in token until the
// settlement of key is final or released. A key holds one reservation.
func (p *payers) reserve(key common.Hash, payer, token common.Address, amount *big.Int, contract bool, class common.Hash) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reserved == nil {
		p.reserved, p.holds = map[payerToken]*big.Int{}, map[common.Hash]hold{}
	}
	if _, ok := p.holds[key]; ok {
		return
	}
	pt := payerToken{payer, token}
	if p.reserved[pt] == nil {
		p.reserved[pt] = new(big.Int)
	}
	p.reserved[pt].Add(p.reserved[pt], amount)
	p.holds[key] = hold{pt: pt, amount: new(big.Int).Set(amount), contract: contract, class: class}
}

// release ends the reservation of key.
func (p *payers) release(key common.Hash) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h, ok := p.holds[key]
	if !ok {
		return
	}
	delete(p.holds, key)
	if v := p.reserved[h.pt]; v != nil {
		if v.Sub(v, h.amount); v.Sign() <= 0 {
			delete(p.reserved, h.pt)
		}
	}
}

// penalty is how long a payer is refused after its settlements reverted
// count times: a minute, doubling, at most an hour.
func penalty(count int) time.Duration {
	d := time.Minute << min(count-1, 6)
	return min(d, time.Hour)
}

// reverted records a settlement of payer that reverted on chain.
//
// Payers clean for strikeMemory are forgotten, at most once an hour. When
// the box is full, it makes room for a quarter of its size at once (so
// that a full box is ranked once per many reverts, not on each), and the
// payers that go are, in order: those no longer refused, longest clean
// first (they lose only the doubling of a next penalty); then, only if
// every payer in the box is still refused, those whose penalty ends
// soonest. A penalised payer therefore leaves early only once the box
// holds maxStrikes payers refused at the same time, each of whom had a
// settlement revert within the last hour (the longest penalty): that is
// maxStrikes reverted settlements in an hour, and the payer that leaves is
// the one closest to its release.
//
// key is the settlement's replay key: a contract-wallet payment's revert
// also counts against the budgets of contract-wallet reverts (walletsPaused).
func (p *payers) reverted(key common.Hash, payer common.Address, now time.Time) {
	until, wallet, class, limit := p.strike(key, payer, now)
	p.sharePenalty(payer, until, now) // every replica refuses it too
	if w := p.sharedWallets; w != nil && wallet {
		w.reverted(class, now, limit)
	}
}

// strike puts payer in this process's penalty box, as reverted says, and
// returns when its penalty ends; and, for a contract wallet's payment, its
// class and the global bound of wallet reverts.
func (p *payers) strike(key common.Hash, payer common.Address, now time.Time) (until time.Time, wallet bool, class common.Hash, limit int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.holds[key]; ok && h.contract {
		p.wallets.reverted(h.class, now)
		wallet, class, limit = true, h.class, p.wallets.limit()
	}
	if p.strikes == nil {
		p.strikes = map[common.Address]*strike{}
	}
	if now.Sub(p.swept) >= time.Hour {
		p.swept = now
		for a, s := range p.strikes {
			if now.Sub(s.last) > strikeMemory {
				delete(p.strikes, a)
			}
		}
	}
	s := p.strikes[payer]
	if s == nil {
		if limit := p.strikeLimit(); len(p.strikes) >= limit {
			p.evict(len(p.strikes)-limit+max(limit/4, 1), now)
		}
		s = new(strike)
		p.strikes[payer] = s
	}
	s.count++
	s.last, s.until = now, now.Add(penalty(s.count))
	return s.until, wallet, class, limit
}

// strikeLimit is the most payers the penalty box holds.
func (p *payers) strikeLimit() int {
	if p.maxStrikes > 0 {
		return p.maxStrikes
	}
	return defaultMaxStrikes
}

// evict drops n payers from the penalty box, as reverted describes. It
// ranks each payer by one number (a payer still refused by when it is
// released, above every payer no longer refused, ranked by its last
// revert), finds the n-th smallest, and drops the payers below it, then
// as many of those at it as make n.
func (p *payers) evict(n int, now time.Time) {
	if n <= 0 {
		return
	}
	const refused = int64(1) << 62 // above any UnixNano before 2116
	rank := func(s *strike) int64 {
		if now.Before(s.until) {
			return refused + s.until.UnixNano()
		}
		return s.last.UnixNano()
	}
	ranks := make([]int64, 0, len(p.strikes))
	for _, s := range p.strikes {
		ranks = append(ranks, rank(s))
	}
	slices.Sort(ranks)
	cut := ranks[min(n, len(ranks))-1]
	atCut := 0
	for _, r := range ranks[:min(n, len(ranks))] {
		if r == cut {
			atCut++
		}
	}
	for a, s := range p.strikes {
		switch r := rank(s); {
		case r < cut:
			delete(p.strikes, a)
		case r == cut && atCut > 0:
			delete(p.strikes, a)
			atCut--
		}
	}
}

// refusedUntil is when payer leaves the penalty box, if it is in it.
func (p *payers) refusedUntil(payer common.Address, now time.Time) (time.Time, bool) {
	p.mu.Lock()
	if s := p.strikes[payer]; s != nil && now.Before(s.until) {
		p.mu.Unlock()
		return s.until, true
	}
	p.mu.Unlock()
	return p.sharedPenalty(payer, now) // boxed by another replica
}

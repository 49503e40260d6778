package facilitator

import (
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
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
type payers struct {
	mu       sync.Mutex
	locks    map[payerToken]*payerLock
	reserved map[payerToken]*big.Int
	holds    map[common.Hash]hold // replay key → its reservation
	strikes  map[common.Address]*strike
}

type payerToken struct{ payer, token common.Address }

type payerLock struct {
	sync.Mutex
	users int
}

type hold struct {
	pt     payerToken
	amount *big.Int
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
func (p *payers) reserve(key common.Hash, payer, token common.Address, amount *big.Int) {
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
	p.holds[key] = hold{pt: pt, amount: new(big.Int).Set(amount)}
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
func (p *payers) reverted(payer common.Address, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.strikes == nil {
		p.strikes = map[common.Address]*strike{}
	}
	for a, s := range p.strikes { // forget payers clean for a day
		if now.Sub(s.last) > 24*time.Hour {
			delete(p.strikes, a)
		}
	}
	s := p.strikes[payer]
	if s == nil {
		s = new(strike)
		p.strikes[payer] = s
	}
	s.count++
	s.last, s.until = now, now.Add(penalty(s.count))
}

// refusedUntil is when payer leaves the penalty box, if it is in it.
func (p *payers) refusedUntil(payer common.Address, now time.Time) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.strikes[payer]; s != nil && now.Before(s.until) {
		return s.until, true
	}
	return time.Time{}, false
}

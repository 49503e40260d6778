package paymaster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// LedgerStore keeps the paymaster's ledger: one record per project (what it
// has been charged, its spend of the day, its reservations and its senders'
// rate windows) and one for the service (failure suspensions, and how far
// the EntryPoint's logs have been read). Every change is one Update of one
// key, so a backend that serializes updates of a key (a bbolt write
// transaction, or SELECT … FOR UPDATE on a row) keeps the counters exact
// even when several Services share it.
type LedgerStore interface {
	// Get returns the value of key, or nil if there is none.
	Get(key []byte) ([]byte, error)
	// Update atomically replaces the value of key with what fn returns for
	// the current one (nil if there is none), durably before it returns.
	// If fn returns nil or an error, nothing is written; the error is
	// returned, possibly wrapped. A backend may call fn again (to retry a
	// conflict), so fn has no other effect.
	Update(key []byte, fn func(old []byte) ([]byte, error)) error
}

// SerialLedger makes a LedgerStore of a plain key-value bucket, such as a
// *store.Bucket of the facilitator's store, by running its updates one at
// a time under a mutex. That is atomic within one process, which is all a
// store file that one process holds locked needs, provided every Service on
// the bucket shares the one LedgerStore returned here. A backend with an
// atomic Update of its own is used directly instead.
func SerialLedger(kv interface {
	Get(key []byte) ([]byte, error)
	Put(key, value []byte) error
}) LedgerStore {
	return &serialLedger{kv: kv}
}

type serialLedger struct {
	mu sync.Mutex
	kv interface {
		Get(key []byte) ([]byte, error)
		Put(key, value []byte) error
	}
}

func (l *serialLedger) Get(key []byte) ([]byte, error) { return l.kv.Get(key) }

func (l *serialLedger) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	old, err := l.kv.Get(key)
	if err != nil {
		return fmt.Errorf("reading %s: %w", key, err)
	}
	v, err := fn(old)
	if err != nil || v == nil {
		return err
	}
	if err := l.kv.Put(key, v); err != nil {
		return fmt.Errorf("writing %s: %w", key, err)
	}
	return nil
}

// memLedger is the ledger of a Service configured without one: it lasts as
// long as the Service.
type memLedger struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (l *memLedger) Get(key []byte) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.m[string(key)]), nil
}

func (l *memLedger) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, err := fn(bytes.Clone(l.m[string(key)]))
	if err != nil || v == nil {
		return err
	}
	if l.m == nil {
		l.m = map[string][]byte{}
	}
	l.m[string(key)] = v
	return nil
}

// ledgerVersion is written into every record; a record of another version
// is refused rather than misread. A project's record that holds top-ups is
// written as fundedVersion, so that a paymaster too old to know them
// refuses it rather than drop the funding on its next write; one without
// is still version 1, which such a paymaster reads.
const (
	ledgerVersion = 1
	fundedVersion = 2
)

const (
	// historyDays is how many UTC days of spend a project's record keeps,
	// today's included.
	historyDays = 30
	// maxTopUps is how many of the latest top-ups a project's record
	// lists.
	maxTopUps = 20
)

// serviceKey is the key of the service's record.
var serviceKey = []byte("service")

// projectKey is the key of a project's record.
func projectKey(name string) []byte { return []byte("project/" + name) }

// projectLedger is a project's persisted counters. Its limits are not in
// it: they come from the configuration in force (or the project store), so
// a reload or an edit applies new limits to the counters as they stand.
type projectLedger struct {
	V int `json:"v"`
	// Charged is every wei charged to the project since its ledger began:
	// operations in flight at their maximum cost, landed ones at their
	// actual cost. The balance left is the funding (the configured Balance
	// plus Funded) less Charged.
	Charged *big.Int `json:"charged"`
	// Funded is the sum of the project's top-ups.
	Funded *big.Int `json:"funded,omitempty"`
	// TopUps are the latest top-ups, oldest first, at most maxTopUps.
	TopUps []topUp `json:"topUps,omitempty"`
	// Day is the UTC day (YYYY-MM-DD) that Spent counts.
	Day   string   `json:"day"`
	Spent *big.Int `json:"spent"`
	// History is the spend of the days before Day, oldest first: the
	// days with spend among the last historyDays, today's included.
	History []daySpend `json:"history,omitempty"`
	// Block is the last block whose UserOperationEvents are applied here,
	// so that logs read twice (after a crash, or by two Services) are
	// applied once.
	Block uint64 `json:"block"`
	// Reservations are the sponsored operations in flight. The same
	// operation sponsored twice holds two.
	Reservations []reservation `json:"reservations,omitempty"`
	// Senders holds, per sender, when its operations of the last minute
	// were sponsored (unix milliseconds).
	Senders map[common.Address][]int64 `json:"senders,omitempty"`
}

// topUp is a recorded addition to a project's funding.
type topUp struct {
	At     time.Time `json:"at"`
	Amount *big.Int  `json:"amount"`
	Note   string    `json:"note,omitempty"`
}

// daySpend is what was charged to a project in one UTC day, less the
// refunds of that day's operations.
type daySpend struct {
	Day   string   `json:"day"`
	Spent *big.Int `json:"spent"`
}

// reservation is a sponsored operation not yet seen on chain or expired.
type reservation struct {
	Hash common.Hash `json:"hash"`
	// Cost is the operation's maximum cost, charged when it was sponsored.
	Cost *big.Int `json:"cost"`
	// Day is the UTC day whose spend Cost was counted in.
	Day string `json:"day"`
	// ValidUntil is the end of the operation's validity (unix seconds).
	ValidUntil int64          `json:"validUntil"`
	Sender     common.Address `json:"sender"`
	Owner      common.Address `json:"owner"`
	// Token is the ERC-20 a type 1 or 2 operation pays its gas in. Such an
	// operation's Cost is 0 (the payer's tokens, not the project's ETH, pay
	// for it), except a type 2 operation on EntryPoint v0.7, which is held
	// at its maximum cost until it lands (see held).
	Token common.Address `json:"token,omitzero"`
}

// paidInTokens reports whether r draws nothing from the project: its gas
// is paid in tokens with nothing held.
func (r reservation) paidInTokens() bool {
	return r.Token != (common.Address{}) && (r.Cost == nil || r.Cost.Sign() == 0)
}

// held reports whether r is paid in tokens but held against the project
// until it lands (type 2 on EntryPoint v0.7): released whole if the token
// paymaster logged its payment, charged its actual cost if not.
func (r reservation) held() bool {
	return r.Token != (common.Address{}) && r.Cost != nil && r.Cost.Sign() > 0
}

// serviceLedger is the service's persisted state.
type serviceLedger struct {
	V int `json:"v"`
	// Next is the first block whose logs the projects have not been given;
	// 0 for a new ledger.
	Next uint64 `json:"next"`
	// Failed holds, per sender and per owner, when a sponsored operation of
	// theirs last failed in execution (unix milliseconds).
	Failed map[common.Address]int64 `json:"failed,omitempty"`
}

func decodeProject(raw []byte) (*projectLedger, error) {
	l := &projectLedger{V: ledgerVersion}
	if raw != nil {
		if err := json.Unmarshal(raw, l); err != nil {
			return nil, fmt.Errorf("decoding a project's ledger: %w", err)
		}
		if l.V != ledgerVersion && l.V != fundedVersion {
			return nil, fmt.Errorf("a project's ledger record has version %d; this paymaster reads versions %d and %d", l.V, ledgerVersion, fundedVersion)
		}
	}
	if l.Charged == nil {
		l.Charged = new(big.Int)
	}
	if l.Funded == nil {
		l.Funded = new(big.Int)
	}
	for _, t := range l.TopUps {
		if t.Amount == nil {
			return nil, errors.New("decoding a project's ledger: a top-up has no amount")
		}
	}
	for _, d := range l.History {
		if d.Spent == nil {
			return nil, errors.New("decoding a project's ledger: a day of its history has no spend")
		}
	}
	if l.Spent == nil {
		l.Spent = new(big.Int)
	}
	if l.Senders == nil {
		l.Senders = map[common.Address][]int64{}
	}
	for _, r := range l.Reservations {
		if r.Cost == nil {
			return nil, errors.New("decoding a project's ledger: a reservation has no cost")
		}
	}
	return l, nil
}

func decodeService(raw []byte) (*serviceLedger, error) {
	l := &serviceLedger{V: ledgerVersion}
	if raw != nil {
		if err := json.Unmarshal(raw, l); err != nil {
			return nil, fmt.Errorf("decoding the service's ledger: %w", err)
		}
		if l.V != ledgerVersion {
			return nil, fmt.Errorf("the service's ledger record has version %d; this paymaster reads version %d", l.V, ledgerVersion)
		}
	}
	if l.Failed == nil {
		l.Failed = map[common.Address]int64{}
	}
	return l, nil
}

// loadProject reads a project's record; a project without one has a fresh
// one.
func (s *Service) loadProject(name string) (*projectLedger, error) {
	raw, err := s.ledger.Get(projectKey(name))
	if err != nil {
		return nil, fmt.Errorf("reading project %s's ledger: %w", name, err)
	}
	return decodeProject(raw)
}

// updateProject changes a project's record atomically: fn gets the record
// as stored and reports whether it changed it. Like the store's fn, it may
// run more than once.
func (s *Service) updateProject(name string, fn func(*projectLedger) (bool, error)) error {
	err := s.ledger.Update(projectKey(name), func(old []byte) ([]byte, error) {
		l, err := decodeProject(old)
		if err != nil {
			return nil, err
		}
		changed, err := fn(l)
		if err != nil || !changed {
			return nil, err
		}
		if l.Funded.Sign() != 0 || len(l.TopUps) > 0 {
			l.V = fundedVersion
		}
		return json.Marshal(l)
	})
	if err != nil {
		return fmt.Errorf("updating project %s's ledger: %w", name, err)
	}
	return nil
}

// loadService reads the service's record.
func (s *Service) loadService() (*serviceLedger, error) {
	raw, err := s.ledger.Get(serviceKey)
	if err != nil {
		return nil, fmt.Errorf("reading the paymaster's ledger: %w", err)
	}
	return decodeService(raw)
}

// updateService changes the service's record atomically, as updateProject.
func (s *Service) updateService(fn func(*serviceLedger) bool) error {
	err := s.ledger.Update(serviceKey, func(old []byte) ([]byte, error) {
		l, err := decodeService(old)
		if err != nil {
			return nil, err
		}
		if !fn(l) {
			return nil, nil
		}
		return json.Marshal(l)
	})
	if err != nil {
		return fmt.Errorf("updating the paymaster's ledger: %w", err)
	}
	return nil
}

// day is the UTC day of t, as a project's ledger names it.
func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// roll starts a new day's spend when the day has changed, keeping the
// last day's in the history, and drops the days older than historyDays.
func (l *projectLedger) roll(now time.Time) {
	d := day(now)
	if d == l.Day {
		return
	}
	if l.Day != "" && l.Spent.Sign() > 0 {
		l.History = append(l.History, daySpend{Day: l.Day, Spent: l.Spent})
	}
	l.Day, l.Spent = d, new(big.Int)
	first := day(now.AddDate(0, 0, -(historyDays - 1)))
	kept := l.History[:0]
	for _, h := range l.History {
		if h.Day >= first && h.Day < d {
			kept = append(kept, h)
		}
	}
	l.History = kept
}

// funded is the project's funding: base (the configured Balance) plus its
// top-ups.
func (l *projectLedger) funded(base *big.Int) *big.Int {
	return new(big.Int).Add(base, l.Funded)
}

// topUp adds amount to the funding and to the list of top-ups.
func (l *projectLedger) topUp(amount *big.Int, note string, now time.Time) {
	l.roll(now)
	l.Funded.Add(l.Funded, amount)
	l.TopUps = append(l.TopUps, topUp{At: now.UTC(), Amount: new(big.Int).Set(amount), Note: note})
	if n := len(l.TopUps); n > maxTopUps {
		l.TopUps = append(l.TopUps[:0:0], l.TopUps[n-maxTopUps:]...)
	}
}

// prune drops rate-window entries older than a minute.
func (l *projectLedger) prune(now time.Time) {
	cut := now.Add(-time.Minute).UnixMilli()
	for a, ts := range l.Senders {
		kept := ts[:0]
		for _, t := range ts {
			if t > cut {
				kept = append(kept, t)
			}
		}
		if len(kept) == 0 {
			delete(l.Senders, a)
		} else {
			l.Senders[a] = kept
		}
	}
}

// balance is what is left of the funding, given the configured Balance.
func (l *projectLedger) balance(base *big.Int) *big.Int {
	return new(big.Int).Sub(l.funded(base), l.Charged)
}

// check reports the first limit of p that an operation of maximum cost
// from sender would breach, or nil. It rolls the day and prunes the rate
// windows. An operation paid in tokens (inToken) is held to the
// per-operation cap, the rate and the operations in flight, but draws
// nothing from the balance or the daily cap: its gas is paid in tokens.
func (l *projectLedger) check(p *project, sender common.Address, cost *big.Int, inToken bool, now time.Time) *Error {
	l.roll(now)
	l.prune(now)
	lim := p.limits(l)
	left := l.balance(p.cfg.Balance)
	if inToken && cost.Cmp(lim.MaxOpCost) > 0 {
		return &Error{Code: codePaymasterRejected, Message: fmt.Sprintf("the operation's maximum cost of %s wei is over the per-operation cap of %s wei", cost, lim.MaxOpCost)}
	}
	if inToken {
		cost = new(big.Int)
	}
	if cost.Cmp(lim.MaxOpCost) > 0 {
		if left.Cmp(cost) < 0 {
			return errBalance(p, left, cost) // the cap follows the funding: say what to do
		}
		return &Error{Code: codePaymasterRejected, Message: fmt.Sprintf("the operation's maximum cost of %s wei is over the per-operation cap of %s wei", cost, lim.MaxOpCost)}
	}
	if recent := l.Senders[sender]; len(recent) >= lim.TxPerMinute {
		oldest := recent[0]
		for _, t := range recent {
			oldest = min(oldest, t)
		}
		wait := time.Minute - now.Sub(time.UnixMilli(oldest))
		return &Error{Code: codeThrottled, RetryAfter: wait, Message: fmt.Sprintf("rate limit: %d sponsored operations per minute per sender; %s may retry in %ds", lim.TxPerMinute, sender, int(wait.Seconds())+1)}
	}
	if len(l.Reservations) >= lim.MaxInFlight {
		return &Error{Code: codeThrottled, RetryAfter: 5 * time.Second, Message: fmt.Sprintf("limit: %d sponsored operations in flight; retry when some land", lim.MaxInFlight)}
	}
	if left.Cmp(cost) < 0 {
		return errBalance(p, left, cost)
	}
	if new(big.Int).Add(l.Spent, cost).Cmp(lim.DailyGasCap) > 0 {
		return &Error{Code: codeThrottled, Message: fmt.Sprintf("daily gas cap of %s wei reached for project %s", lim.DailyGasCap, p.cfg.Name)}
	}
	return nil
}

// errBalance refuses an operation that costs more than is left.
func errBalance(p *project, left, cost *big.Int) *Error {
	return &Error{Code: codePaymasterRejected, Message: fmt.Sprintf("project %s's sponsorship balance (%s wei) is below the operation's maximum cost (%s wei); fund the project", p.cfg.Name, left, cost)}
}

// reserve takes r, which check has passed, charging its maximum cost.
func (l *projectLedger) reserve(r reservation, now time.Time) {
	l.roll(now)
	r.Day = l.Day
	l.Senders[r.Sender] = append(l.Senders[r.Sender], now.UnixMilli())
	l.Reservations = append(l.Reservations, r)
	l.Charged.Add(l.Charged, r.Cost)
	l.Spent.Add(l.Spent, r.Cost)
}

// refund gives back amount of r's charge, and takes it off the spend of
// the day r was counted in (today's, or that day's in the history).
func (l *projectLedger) refund(r reservation, amount *big.Int, now time.Time) {
	l.roll(now)
	l.Charged.Sub(l.Charged, amount)
	if l.Charged.Sign() < 0 {
		l.Charged.SetInt64(0)
	}
	spent := l.Spent
	if r.Day != l.Day {
		spent = nil
		for _, h := range l.History {
			if h.Day == r.Day {
				spent = h.Spent
			}
		}
	}
	if spent != nil {
		spent.Sub(spent, amount)
		if spent.Sign() < 0 {
			spent.SetInt64(0)
		}
	}
}

// holds reports whether an operation is in flight.
func (l *projectLedger) holds(hash common.Hash) (reservation, bool) {
	for _, r := range l.Reservations {
		if r.Hash == hash {
			return r, true
		}
	}
	return reservation{}, false
}

// land releases the first reservation of an operation that landed at
// actual cost, refunding the unused part. The others of the same operation
// can never land (its nonce is used) and wait out their window.
func (l *projectLedger) land(hash common.Hash, actual *big.Int, now time.Time) bool {
	for i, r := range l.Reservations {
		if r.Hash != hash {
			continue
		}
		l.Reservations = append(l.Reservations[:i:i], l.Reservations[i+1:]...)
		if actual != nil && actual.Cmp(r.Cost) <= 0 {
			l.refund(r, new(big.Int).Sub(r.Cost, actual), now)
		}
		return true
	}
	return false
}

// expired reports whether a reservation's window has ended at now: no
// block stamped now or later can include the operation.
func (r reservation) expired(now time.Time) bool { return r.ValidUntil < now.Unix() }

// expire releases, refunding in full, the reservations whose window has
// ended, and reports how many.
func (l *projectLedger) expire(now time.Time) int {
	kept := l.Reservations[:0:0]
	n := 0
	for _, r := range l.Reservations {
		if r.expired(now) {
			l.refund(r, r.Cost, now)
			n++
		} else {
			kept = append(kept, r)
		}
	}
	l.Reservations = kept
	return n
}

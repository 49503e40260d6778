package sender

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// fleet is a Sender's state in fleet mode. The journal is the truth; this
// is what one process knows besides it.
type fleet struct {
	wake    chan struct{} // a local Send, Release or Rebroadcast: deliver now
	leading atomic.Bool   // this Sender holds the delivery lease

	// Under Sender.mu.
	floor      uint64                 // the settler's nonce in the latest block, as last read
	floorKnown bool                   // floor has been read
	unsent     map[uint64]unsent      // signed here, not yet given to Send or Release
	nonces     map[common.Hash]uint64 // signed here, for Wait: hash -> nonce
	order      []common.Hash          // nonces' keys in insertion order, to bound it

	view journalView
}

// unsent is a transaction this process signed and has not yet handed
// over, or released lately.
type unsent struct {
	hash     common.Hash
	at       time.Time // when it was signed, or released
	released bool      // given to Release
}

func (f *fleet) init() {
	f.wake = make(chan struct{}, 1)
	f.unsent = make(map[uint64]unsent)
	f.nonces = make(map[common.Hash]uint64)
}

// signInJournal allocates a nonce in the journal and signs c with it; the
// journal stores the transaction before it is returned.
func (s *Sender) signInJournal(ctx context.Context, c Call, tip, feeCap *big.Int) (*types.Transaction, error) {
	floor, err := s.floorNonce(ctx)
	if err != nil {
		return nil, err
	}
	var (
		signErr error
		tried   []uint64 // nonces held back for this call, in case Append tries more than one
	)
	tx, err := s.cfg.Journal.Append(ctx, s.from, floor, func(nonce uint64) (*types.Transaction, error) {
		tx, err := s.sign(nonce, c, tip, feeCap)
		if err != nil {
			signErr = err
			return nil, err
		}
		// Held back from this process's deliverer from the moment the
		// journal may show it: it goes out on Send, or not at all.
		s.mu.Lock()
		s.fleet.unsent[nonce] = unsent{hash: tx.Hash(), at: time.Now()}
		s.mu.Unlock()
		tried = append(tried, nonce)
		return tx, nil
	})
	s.mu.Lock()
	for _, n := range tried {
		if tx == nil || n != tx.Nonce() {
			delete(s.fleet.unsent, n)
		}
	}
	for n, u := range s.fleet.unsent {
		// Bounded: what was signed or released in the last two
		// RPCTimeouts.
		if time.Since(u.at) > 2*s.cfg.RPCTimeout {
			delete(s.fleet.unsent, n)
		}
	}
	if tx != nil {
		f := &s.fleet
		f.nonces[tx.Hash()] = tx.Nonce()
		f.order = append(f.order, tx.Hash())
		for len(f.order) > retiredMax {
			delete(f.nonces, f.order[0])
			f.order = f.order[1:]
		}
	}
	s.mu.Unlock()
	switch {
	case err == nil && tx == nil:
		return nil, errors.New("appending to the settler's journal: no transaction returned")
	case err == nil:
		return tx, nil
	case signErr != nil && errors.Is(err, signErr):
		return nil, fmt.Errorf("signing: %w", err)
	}
	return nil, fmt.Errorf("appending to the settler's journal: %w", err)
}

// floorNonce returns the settler's nonce in the latest block as last read,
// reading it if it never was. It is only a floor for the journal, which
// allocates above every nonce it holds.
func (s *Sender) floorNonce(ctx context.Context) (uint64, error) {
	s.mu.Lock()
	floor, known := s.fleet.floor, s.fleet.floorKnown
	s.mu.Unlock()
	if known {
		return floor, nil
	}
	mined, _, err := s.nonces(ctx)
	if err != nil {
		return 0, classify(err)
	}
	s.setFloor(mined)
	return mined, nil
}

// setFloor records a reading of the settler's nonce in the latest block.
func (s *Sender) setFloor(mined uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fleet.floor = max(s.fleet.floor, mined)
	s.fleet.floorKnown = true
}

// handOver is Send in fleet mode: the deliverer may broadcast tx now.
func (s *Sender) handOver(tx *types.Transaction) {
	s.mu.Lock()
	if u, ok := s.fleet.unsent[tx.Nonce()]; ok && u.hash == tx.Hash() && !u.released {
		delete(s.fleet.unsent, tx.Nonce())
	}
	s.mu.Unlock()
	s.wakeUp()
}

// void is Release in fleet mode: it gives up the journal's entry of a
// transaction this process signed and did not send.
func (s *Sender) void(nonce uint64) {
	s.mu.Lock()
	u, ok := s.fleet.unsent[nonce]
	s.mu.Unlock()
	if !ok || u.released {
		return // not signed here, already handed over, or released
	}
	// Released on the Sender's behalf, even after Close: the journal is
	// the caller's and outlives the Sender.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), s.cfg.RPCTimeout)
	voided, err := s.cfg.Journal.Void(ctx, s.from, nonce, u.hash)
	cancel()
	// Still held for a while: this process's deliverer may have read the
	// entry before it was void, and must not broadcast it from that
	// reading.
	s.mu.Lock()
	if cur, ok := s.fleet.unsent[nonce]; ok && cur.hash == u.hash {
		s.fleet.unsent[nonce] = unsent{hash: u.hash, at: time.Now(), released: true}
	}
	s.mu.Unlock()
	switch {
	case err != nil:
		s.log.Error("giving up a released transaction in the journal; it may still be mined",
			zap.Uint64("nonce", nonce), zap.Stringer("tx", u.hash), zap.Error(err))
	case !voided:
		s.log.Warn("a released transaction was already replaced in the journal",
			zap.Uint64("nonce", nonce), zap.Stringer("tx", u.hash))
	}
	s.wakeUp()
}

// wakeUp has this process's deliverer, if it delivers, look at the
// journal now.
func (s *Sender) wakeUp() {
	select {
	case s.fleet.wake <- struct{}{}:
	default:
	}
}

// held reports whether the transaction with this nonce and hash was signed
// by this process and is not yet handed over, or was released lately; one
// signed or released longer ago than RPCTimeout is not held any more (its
// Send or Release is overdue, or its entry was seen void since).
func (s *Sender) held(nonce uint64, hash common.Hash, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.fleet.unsent[nonce]
	return ok && u.hash == hash && now.Sub(u.at) < s.cfg.RPCTimeout
}

// signedNonce returns the nonce of a transaction this process signed.
func (s *Sender) signedNonce(hash common.Hash) (uint64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.fleet.nonces[hash]
	return n, ok
}

// isFiller reports whether tx is a no-op transfer to the settler, as the
// Sender fills given-up nonces with.
func (s *Sender) isFiller(tx *types.Transaction) bool {
	return tx.To() != nil && *tx.To() == s.from && tx.Value().Sign() == 0 && len(tx.Data()) == 0
}

// holds reports whether hash is a version of e's transaction.
func holds(e store.JournalEntry, hash common.Hash) bool {
	return e.Tx.Hash() == hash || slices.Contains(e.Previous, hash)
}

// givenUp reports whether the journal gave up the version hash of e's
// transaction: the entry is void, or a filler took the nonce.
func (s *Sender) givenUp(e store.JournalEntry, hash common.Hash) bool {
	if e.Void {
		return true
	}
	return e.Tx.Hash() != hash && s.isFiller(e.Tx)
}

// fillerFor signs a 0-value transfer to the settler for the nonce of the
// given-up transaction void, with fees above void's, so it takes the
// nonce even from a node that has void.
func (s *Sender) fillerFor(ctx context.Context, void *types.Transaction) (*types.Transaction, error) {
	tip, feeCap, err := s.fees(ctx)
	if err != nil {
		return nil, err
	}
	if t, c, ok := bump(void.GasTipCap(), void.GasFeeCap(), nil, nil, s.cfg.MaxFeePerGas); ok {
		if t.Cmp(tip) > 0 {
			tip = t
		}
		if c.Cmp(feeCap) > 0 {
			feeCap = c
		}
	}
	if tip.Cmp(feeCap) > 0 {
		tip = feeCap
	}
	return s.sign(void.Nonce(), Call{To: s.from, Gas: 21_000}, tip, feeCap)
}

// journalView shares the reads of the journal that Waits make, so a
// process reads it at most once per CheckInterval however many wait.
type journalView struct {
	mu      sync.Mutex
	valid   bool
	since   uint64
	at      time.Time
	entries []store.JournalEntry // not to be modified
}

// journalEntries returns the journal's entries from since on, as read at
// most maxAge ago.
func (s *Sender) journalEntries(ctx context.Context, since uint64, maxAge time.Duration) ([]store.JournalEntry, error) {
	v := &s.fleet.view
	v.mu.Lock()
	defer v.mu.Unlock()
	age := time.Since(v.at)
	if v.valid && v.since <= since && age <= maxAge {
		return v.entries, nil
	}
	if v.valid && age <= 2*maxAge {
		// Another Wait wanted lower nonces lately: read for both.
		since = min(since, v.since)
	}
	entries, err := s.cfg.Journal.Entries(ctx, s.from, since)
	if err != nil {
		return nil, err
	}
	v.valid, v.since, v.at, v.entries = true, since, time.Now(), entries
	return entries, nil
}

// entry finds the journal's entry of the transaction with hash: the one of
// nonce if known, otherwise the one holding hash as a version. maxAge is
// how old a shared reading of the journal may be.
func (s *Sender) entry(ctx context.Context, hash common.Hash, nonce uint64, known bool, maxAge time.Duration) (store.JournalEntry, bool, error) {
	since := uint64(0)
	if known {
		since = nonce
	}
	entries, err := s.journalEntries(ctx, since, maxAge)
	if err != nil {
		return store.JournalEntry{}, false, err
	}
	for _, e := range entries {
		if known && e.Nonce == nonce || !known && holds(e, hash) {
			return e, true, nil
		}
	}
	return store.JournalEntry{}, false, nil
}

// rebroadcastFleet is Rebroadcast in fleet mode. The journal says what
// holds the transaction's nonce now: its current version is broadcast, and
// a transaction that was given up, or that the journal never held, is
// refused with ErrNonceTooLow, because it will never be mined (or must not
// be, lest it take a nonce the journal hands out).
func (s *Sender) rebroadcastFleet(ctx context.Context, tx *types.Transaction) error {
	if from, err := types.Sender(s.signer, tx); err != nil || from != s.from {
		return known(classify(s.cfg.Backend.SendTransaction(ctx, tx)))
	}
	e, found, err := s.entry(ctx, tx.Hash(), tx.Nonce(), true, 0)
	if err != nil {
		return fmt.Errorf("reading the settler's journal: %w", err)
	}
	if !found {
		mined, _, err := s.nonces(ctx)
		if err != nil {
			return classify(err)
		}
		s.setFloor(mined)
		if tx.Nonce() >= mined {
			return fmt.Errorf("%w: nonce %d of transaction %s is not in the settler's journal", ErrNonceTooLow, tx.Nonce(), tx.Hash())
		}
		// Below the chain's nonce and pruned: mined, or its nonce is used;
		// the node says which.
		return known(classify(s.cfg.Backend.SendTransaction(ctx, tx)))
	}
	switch {
	case !holds(e, tx.Hash()):
		return fmt.Errorf("%w: nonce %d is held by another transaction in the settler's journal", ErrNonceTooLow, tx.Nonce())
	case s.givenUp(e, tx.Hash()):
		return fmt.Errorf("%w: transaction %s was given up and its nonce %d is filled", ErrNonceTooLow, tx.Hash(), tx.Nonce())
	}
	s.wakeUp()
	err = rebroadcastAnswer(classify(s.cfg.Backend.SendTransaction(ctx, e.Tx)))
	if errors.Is(err, ErrNonceTooLow) {
		// Mined, maybe as another version, which Wait finds.
		if _, rerr := s.receipt(ctx, append(slices.Clone(e.Previous), e.Tx.Hash())); rerr == nil {
			return nil
		}
	}
	return err
}

// known maps "already known" onto success.
func known(err error) error {
	if errors.Is(err, errAlreadyKnown) {
		return nil
	}
	return err
}

// rebroadcastAnswer maps the node's answer to a transaction broadcast
// again onto Rebroadcast's result in fleet mode: the journal keeps the
// transaction, so a refusal for its price, or of a nonce the node holds
// with another version, is for the deliverer to resolve.
func rebroadcastAnswer(err error) error {
	switch {
	case err == nil, errors.Is(err, errAlreadyKnown), errors.Is(err, errPrice), errors.Is(err, errNonceHeld):
		return nil
	}
	return err
}

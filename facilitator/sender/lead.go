package sender

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// lead is fleet mode's background goroutine: it tries to take the
// settler's delivery lease at once and then every CheckInterval, and
// delivers while it holds it. (A local Send does not make it try sooner:
// the lease is nearly always held, and each failed attempt costs the
// journal a database connection.)
func (s *Sender) lead(ctx context.Context) {
	defer s.wg.Done()
	tick := time.NewTicker(s.cfg.CheckInterval)
	defer tick.Stop()
	var lastErr string
	for {
		lease, ok, err := s.cfg.Journal.Lead(ctx, s.from)
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case err != nil:
			if e := err.Error(); e != lastErr {
				lastErr = e
				s.log.Warn("taking the settler's delivery lease", zap.Error(err))
			}
		case ok:
			lastErr = ""
			s.deliverFleet(ctx, lease, tick.C)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// deliverFleet delivers the journal's transactions while lease holds, and
// gives the lease up when it returns: when the lease is lost, or ctx ends.
func (s *Sender) deliverFleet(ctx context.Context, lease store.Lease, tick <-chan time.Time) {
	ctx, cancel := context.WithCancel(ctx)
	watched := make(chan struct{})
	lost := false
	go func() {
		defer close(watched)
		select {
		case <-lease.Lost():
			lost = true
			cancel() // stop delivering at once
		case <-ctx.Done():
		}
	}()
	s.fleet.leading.Store(true)
	s.log.Info("delivering the settler's transactions for the fleet")
	defer func() {
		cancel()
		<-watched
		s.fleet.leading.Store(false)
		lease.Release()
		if lost {
			s.log.Warn("lost the settler's delivery lease")
		}
	}()
	d := &delivery{kept: make(map[uint64]*kept)}
	var appended <-chan struct{}
	gap := time.NewTimer(0)
	defer gap.Stop()
	full := true
	for ctx.Err() == nil {
		if appended == nil {
			var err error
			if appended, err = s.cfg.Journal.Appended(ctx, s.from); err != nil {
				appended = nil
				if ctx.Err() == nil {
					d.note("subscribing to the settler's journal", err, s.log)
				}
			}
		}
		more := s.round(ctx, d, full)
		s.checks.Add(1)
		if more {
			full = false
			continue
		}
		if full {
			gap.Reset(min(s.cfg.CheckInterval, minCheckGap))
			select {
			case <-ctx.Done():
				return
			case <-gap.C:
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick:
			full = true
		case <-s.kick:
			full = true
		case <-s.fleet.wake:
			full = false
		case _, open := <-appended:
			if !open {
				appended = nil // resubscribe
			}
			full = false
		}
	}
}

// delivery is what a lease holder knows of its own deliveries. It lives as
// long as the lease and is used by its goroutine alone.
type delivery struct {
	read      bool             // st has been read
	st        chainState       // the chain, as last read
	next      uint64           // every nonce below has been delivered under this lease, or is mined
	kept      map[uint64]*kept // the version of each nonce last broadcast under this lease, and its state
	pruneMark uint64           // the mined nonce at pruneAt
	pruneAt   time.Time        // when pruneMark was read
	pruned    uint64           // entries below are pruned
	lastErr   string           // the last error of the journal or the chain, logged when it changes
}

// note logs an error once, until it changes.
func (d *delivery) note(msg string, err error, log *zap.Logger) {
	if e := err.Error(); e != d.lastErr {
		d.lastErr = e
		log.Warn(msg, zap.Error(err))
	}
}

// keep records that tx is the version of its nonce broadcast last, and
// returns the nonce's record.
func (d *delivery) keep(tx *types.Transaction, filler bool) *kept {
	k, ok := d.kept[tx.Nonce()]
	if !ok || k.cur.Hash() != tx.Hash() {
		k = &kept{txs: []*types.Transaction{tx}, cur: tx, filler: filler, since: time.Now()}
		d.kept[tx.Nonce()] = k
	}
	return k
}

// fleetJob is one nonce a round broadcasts.
type fleetJob struct {
	job
	fresh bool // not yet delivered under this lease
}

// round delivers the journal once: the entries this lease has not
// delivered yet, in nonce order, with fillers in place of void ones. A full
// round also reads the chain first, and broadcasts again what the node
// lacks, replaces stuck transactions, and prunes. It reports whether it
// left entries for another round at once.
func (s *Sender) round(ctx context.Context, d *delivery, full bool) (more bool) {
	entries, err := s.cfg.Journal.Entries(ctx, s.from, d.st.mined)
	if err != nil {
		if ctx.Err() == nil {
			d.note("reading the settler's journal", err, s.log)
		}
		return false
	}
	if full || !d.read {
		work := !d.read || s.pruneDue(d)
		for _, e := range entries {
			work = work || e.Nonce >= d.st.mined
		}
		if work {
			st, err := s.read(ctx)
			if err != nil {
				if ctx.Err() == nil {
					d.note("reading the chain for the sender's check", err, s.log)
				}
				if !d.read {
					return false
				}
				full = false
			} else {
				s.setFees(st.baseFee, st.tip)
				s.setFloor(st.mined)
				if !d.read {
					d.read, d.next = true, st.mined
				}
				d.st = st
				d.next = max(d.next, st.mined)
				for n := range d.kept {
					if n < st.mined {
						delete(d.kept, n)
					}
				}
				s.prune(ctx, d)
			}
		} else {
			full = false
		}
	}
	jobs, more := s.planRound(d, entries, full, time.Now())
	jobs = s.prepareRound(ctx, d, jobs)
	if len(jobs) == 0 || ctx.Err() != nil {
		return more
	}
	txs := make([]*types.Transaction, len(jobs))
	for i, j := range jobs {
		txs[i] = j.tx
	}
	answers := s.broadcast(ctx, txs)
	if ctx.Err() != nil {
		return false // the lease is gone: its answers are the next holder's to get
	}
	s.settleRound(ctx, d, jobs, answers)
	return more
}

// planRound picks a round's jobs from the journal's entries, lowest nonce
// first: fillers for void entries; entries not yet delivered under this
// lease, up to one this process signed and has not yet handed over; and,
// in a full round, replacements of stuck transactions and what the node
// lost.
func (s *Sender) planRound(d *delivery, entries []store.JournalEntry, full bool, now time.Time) (jobs []fleetJob, more bool) {
	for _, e := range entries {
		n := e.Nonce
		if n < d.st.mined {
			continue
		}
		if len(jobs) == maxCheckBatch {
			return jobs, true
		}
		fresh := n >= d.next
		filler := s.isFiller(e.Tx)
		k := d.kept[n]
		switch {
		case e.Void:
			jobs = append(jobs, fleetJob{job{nonce: n, old: e.Tx, filler: true, hole: true}, fresh})
		case fresh && s.held(n, e.Tx.Hash(), now):
			// Its Send or Release comes: nothing goes out after it until
			// then.
			return jobs, false
		case fresh, k == nil, k.cur.Hash() != e.Tx.Hash():
			// New, or changed since this lease broadcast it.
			jobs = append(jobs, fleetJob{job{nonce: n, old: e.Tx, filler: filler, tx: e.Tx}, fresh})
		case full && s.replaceable(k, d.st.baseFee, now):
			jobs = append(jobs, fleetJob{job: job{nonce: n, old: e.Tx, filler: filler, replace: true}})
		case full && n >= d.st.pending:
			// The node lost it.
			jobs = append(jobs, fleetJob{job: job{nonce: n, old: e.Tx, filler: filler, tx: e.Tx}})
		}
	}
	return jobs, false
}

// prepareRound signs the fillers and replacements of jobs and stores each
// in the journal in place of the version it replaces, before it is
// broadcast; a caller's replacement goes to Config.Replace first. A job
// whose entry changed meanwhile is dropped: the next round sees the
// change.
func (s *Sender) prepareRound(ctx context.Context, d *delivery, jobs []fleetJob) []fleetJob {
	out := jobs[:0]
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		switch {
		case j.hole:
			tx, err := s.fillerFor(ctx, j.old)
			if err != nil {
				d.note("signing a nonce filler", err, s.log)
				continue
			}
			if !s.replaceEntry(ctx, d, j.old, tx) {
				continue
			}
			s.log.Info("filling a given-up nonce", zap.Uint64("nonce", j.nonce), zap.Stringer("given_up", j.old.Hash()), zap.Stringer("filler", tx.Hash()))
			j.tx = tx
		case j.replace:
			tx, err := s.replacement(d.st, j.job)
			if err != nil {
				if k, ok := d.kept[j.nonce]; ok {
					s.noteKept(k, j.nonce, "not replacing a stuck transaction", err)
				}
				if j.nonce < d.st.pending {
					continue
				}
				j.replace, j.tx = false, j.old // the node lacks it: the same again
				break
			}
			if !s.replaceEntry(ctx, d, j.old, tx) {
				continue
			}
			s.log.Info("replacing a stuck transaction with higher fees",
				zap.Uint64("nonce", j.nonce), zap.Stringer("old", j.old.Hash()), zap.Stringer("new", tx.Hash()),
				zap.Stringer("fee_cap", tx.GasFeeCap()), zap.Stringer("tip", tx.GasTipCap()), zap.Stringer("base_fee", d.st.baseFee))
			j.tx = tx
		}
		out = append(out, j)
	}
	return out
}

// replaceEntry stores tx in the journal in place of old, and reports
// whether it did.
func (s *Sender) replaceEntry(ctx context.Context, d *delivery, old, tx *types.Transaction) bool {
	ok, err := s.cfg.Journal.Replace(ctx, s.from, old.Hash(), tx)
	if err != nil {
		if ctx.Err() == nil {
			d.note("replacing a transaction in the settler's journal", err, s.log)
		}
		return false
	}
	return ok
}

// settleRound records the node's answers to a round's broadcast. A
// transaction the node refuses outright while it lacks the nonce is given
// up in the journal, and the next round fills its nonce.
func (s *Sender) settleRound(ctx context.Context, d *delivery, jobs []fleetJob, answers []error) {
	advance, again, poke := true, false, false
	for i, j := range jobs {
		err := answers[i]
		switch {
		case err == nil, errors.Is(err, errAlreadyKnown):
			k := d.keep(j.tx, j.filler)
			k.refused, k.lastErr = false, ""
		case errors.Is(err, errPrice), errors.Is(err, errNonceHeld):
			// The node takes it with higher fees: a later full round
			// replaces it.
			k := d.keep(j.tx, j.filler)
			k.refused = true
			s.noteKept(k, j.nonce, "the node refused a transaction for its price", err)
		case errors.Is(err, ErrNonceTooLow):
			// The nonce is used, by this transaction or another version;
			// the next reading of the chain moves past it.
			d.keep(j.tx, j.filler)
		case errors.Is(err, ErrUnreachable):
			// Not delivered: the next round sends it again.
			advance = false
		case errors.Is(err, ErrRejected) && (j.filler || j.nonce < d.st.pending):
			// The node keeps the version it has of the nonce (or, for a
			// filler, which cannot be given up, the nonce waits): no more
			// replacements; it is broadcast again if the node loses the
			// nonce.
			k := d.keep(j.tx, j.filler)
			k.final = true
			s.noteKept(k, j.nonce, "the node refused a transaction; not replacing it", err)
		case errors.Is(err, ErrRejected):
			s.log.Warn("the node refused a transaction; giving it up and filling its nonce",
				zap.Uint64("nonce", j.nonce), zap.Stringer("tx", j.tx.Hash()), zap.Error(err))
			if ok, verr := s.cfg.Journal.Void(ctx, s.from, j.nonce, j.tx.Hash()); verr != nil && ctx.Err() == nil {
				d.note("giving up a refused transaction in the settler's journal", verr, s.log)
			} else if ok {
				again = true
			}
		default:
			// Delivery unknown: if the node lacks it, a full round sends
			// it again.
			k := d.keep(j.tx, j.filler)
			s.noteKept(k, j.nonce, "broadcast failed", err)
			poke = true
		}
	}
	if advance {
		for _, j := range jobs {
			if j.fresh {
				d.next = max(d.next, j.nonce+1)
			}
		}
	}
	if again {
		s.wakeUp()
	}
	if poke {
		s.poke()
	}
}

// pruneLag is how long the journal keeps entries after they are mined, so
// a Wait in any process sees their last versions.
func (s *Sender) pruneLag() time.Duration { return 10 * s.cfg.CheckInterval }

// pruneDue reports whether the journal has entries for prune to delete.
func (s *Sender) pruneDue(d *delivery) bool {
	return time.Since(d.pruneAt) >= s.pruneLag() && d.pruned+1 < d.st.mined
}

// prune deletes the journal's entries that were mined pruneLag ago, but
// always keeps the latest mined one: the journal allocates above the nonces
// it holds, so it keeps the settler's high-water mark.
func (s *Sender) prune(ctx context.Context, d *delivery) {
	now := time.Now()
	if now.Sub(d.pruneAt) < s.pruneLag() {
		return
	}
	if d.st.mined > 0 {
		if below := min(d.pruneMark, d.st.mined-1); below > d.pruned {
			if err := s.cfg.Journal.Prune(ctx, s.from, below); err != nil {
				if ctx.Err() == nil {
					d.note("pruning the settler's journal", err, s.log)
				}
				return
			}
			d.pruned = below
		}
	}
	d.pruneMark, d.pruneAt = d.st.mined, now
}

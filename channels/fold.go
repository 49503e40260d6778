package channels

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
)

// DefaultCommitDelay is Config.CommitDelay's default.
const DefaultCommitDelay = 100 * time.Millisecond

// A served request's charge is committed in the same write as its
// channel's next hold, when the next request comes within CommitDelay:
// one durable write a voucher, not two, and the next request does not
// wait for the last one's write. Otherwise it is committed alone when the
// delay ends, and by Close. Until then the served request's hold stays in
// the store, with its voucher, so nothing is lost if the process dies:
// the payer's next voucher builds on it (on any replica), or the claimer
// claims it once the hold expires (store.Channel.Uncommitted).

// pending is a served request's charge waiting for its channel's next
// hold.
type pending struct {
	prior store.PriorCommit
	timer *time.Timer
	// flushing is set once it is being committed alone; done is closed
	// then.
	flushing bool
	done     chan struct{}
}

// later keeps prior, channel id's served request's charge, to commit with
// the channel's next hold, or alone after CommitDelay.
func (s *Server) later(id common.Hash, prior store.PriorCommit) {
	p := &pending{prior: prior, done: make(chan struct{})}
	s.mu.Lock()
	old := s.pending[id]
	s.pending[id] = p
	p.timer = time.AfterFunc(s.cfg.CommitDelay, func() { s.flush(id, p) })
	if old != nil && !old.flushing {
		old.timer.Stop()
	} else {
		old = nil
	}
	s.mu.Unlock()
	if old != nil {
		// An older charge put back (its next hold was not written) after
		// a newer one was kept: committed alone, or found taken over.
		s.commitAlone(id, old)
	}
}

// take removes and returns the charge waiting for channel id's next hold,
// nil if none; a charge being committed alone is waited for (or until
// ctx ends) instead.
func (s *Server) take(ctx context.Context, id common.Hash) *store.PriorCommit {
	s.mu.Lock()
	p := s.pending[id]
	switch {
	case p == nil:
		s.mu.Unlock()
		return nil
	case p.flushing:
		s.mu.Unlock()
		select {
		case <-p.done:
		case <-ctx.Done():
		}
		return nil
	}
	delete(s.pending, id)
	p.timer.Stop() // if it fires anyway, flush finds p gone
	s.mu.Unlock()
	prior := p.prior
	return &prior
}

// flush commits p, channel id's waiting charge, alone, unless the next
// hold took it or another flush runs it. It returns what to wait for,
// nil if there is nothing.
func (s *Server) flush(id common.Hash, p *pending) <-chan struct{} {
	s.mu.Lock()
	switch {
	case p.flushing:
		s.mu.Unlock()
		return p.done
	case s.pending[id] != p:
		s.mu.Unlock()
		return nil
	}
	p.flushing = true
	s.mu.Unlock()
	s.commitAlone(id, p)
	s.mu.Lock()
	if s.pending[id] == p {
		delete(s.pending, id)
	}
	s.mu.Unlock()
	close(p.done)
	return p.done
}

// commitAlone commits p in a write of its own. A commit refused as not
// held means another request (of another replica) built on the hold and
// charged it; any other failure leaves the hold, and its voucher, in the
// store, for the payer's next voucher or the claimer.
func (s *Server) commitAlone(id common.Hash, p *pending) {
	if rec, err := s.cfg.Store.Commit(id, p.prior.Owner, p.prior.Charge, p.prior.At); err == nil {
		s.committed(rec)
	}
}

// flushAll commits every waiting charge alone, and waits for them, at
// most until ctx ends.
func (s *Server) flushAll(ctx context.Context) error {
	s.mu.Lock()
	all := make(map[common.Hash]*pending, len(s.pending))
	for id, p := range s.pending {
		all[id] = p
	}
	s.mu.Unlock()
	for id, p := range all {
		p.timer.Stop()
		if done := s.flush(id, p); done != nil {
			select {
			case <-done:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return nil
}

// committed tells Config.Committed of a channel whose charge was
// committed.
func (s *Server) committed(c store.Channel) {
	if f := s.cfg.Committed; f != nil {
		f(c)
	}
}

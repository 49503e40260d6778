package scheme

import (
	"context"
	"sync"
	"time"
)

// Bound is a context with a deadline, like context.WithTimeout's, whose
// timer and Done channel are made only when something asks for Done. The
// facilitator bounds every verification's checks with one (Service's
// RPCTimeout): a scheme that reads the chain through an RPC client, which
// waits on Done, gets the timer it needs, while a verification whose reads
// are shared (exact's state calls) and bounded by its reader does not pay
// for a timer, a channel and its registration with the request's context.
// Such a reader waits on Abandoned and enforces Deadline itself.
type Bound struct {
	parent   context.Context
	deadline time.Time

	mu       sync.Mutex
	timed    context.Context // made by Done
	cancel   context.CancelFunc
	released bool
	err      error // the first error Err answered: it never changes
}

// WithBound returns parent bounded by timeout, and the function that
// releases its timer, if one was made; call it when the work is done, as
// context.WithTimeout's cancel.
func WithBound(parent context.Context, timeout time.Duration) (*Bound, func()) {
	b := &Bound{parent: parent, deadline: time.Now().Add(timeout)}
	if d, ok := parent.Deadline(); ok && d.Before(b.deadline) {
		b.deadline = d
	}
	return b, b.release
}

// Deadline is the earlier of the parent's deadline and the bound's.
func (b *Bound) Deadline() (time.Time, bool) { return b.deadline, true }

// Done makes the bound's timer, if it is not made yet, and returns the
// channel closed at the deadline or when the parent is done.
func (b *Bound) Done() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timed == nil {
		b.timed, b.cancel = context.WithDeadline(b.parent, b.deadline)
		if b.released {
			b.cancel()
		}
	}
	return b.timed.Done()
}

// Err is context.DeadlineExceeded once the deadline has passed, the
// parent's error once it is done, context.Canceled once released, and nil
// before. Once it is not nil it never changes.
func (b *Bound) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err == nil {
		b.err = b.errLocked()
	}
	return b.err
}

// errLocked is what ends the bound now, if anything; b.mu is held.
func (b *Bound) errLocked() error {
	switch {
	case b.timed != nil:
		return b.timed.Err()
	case !time.Now().Before(b.deadline):
		return context.DeadlineExceeded
	default:
		return b.parent.Err()
	}
}

// Value is the parent's value for key (or the timed context's, once Done
// made it, which holds the same values and tells the context package's
// children which context to register with).
func (b *Bound) Value(key any) any {
	b.mu.Lock()
	timed := b.timed
	b.mu.Unlock()
	if timed != nil {
		return timed.Value(key)
	}
	return b.parent.Value(key)
}

// Abandoned is closed when the parent is done (the request was cancelled),
// or, once Done made the timer, at the deadline: what a wait whose
// deadline is enforced by other means selects on, rather than Done.
func (b *Bound) Abandoned() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timed != nil {
		return b.timed.Done()
	}
	return b.parent.Done()
}

// release ends the bound, as context.WithTimeout's cancel does: Err is
// context.Canceled from then on (unless it had ended before), and a timer
// made later is released at once.
func (b *Bound) release() {
	b.mu.Lock()
	b.released = true
	if b.err == nil {
		if b.err = b.errLocked(); b.err == nil {
			b.err = context.Canceled
		}
	}
	cancel := b.cancel
	b.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

var _ context.Context = (*Bound)(nil)

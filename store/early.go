package store

import (
	"fmt"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// earlyWriter groups the early updates (Bucket.UpdateEarly) of a store
// into shared write transactions: one commit, and its two fdatasyncs, for
// every update that arrived while the last commit was being written, so
// that the holds of many channels at once are not one commit each behind
// bbolt's one writer. An update is decided as soon as its batch applies
// it (in order, each seeing the ones before), and is durable once the
// batch's commit ends. The first update to arrive while no batch runs
// applies its batch in its own goroutine; the commit, and the batches of
// the updates that queued meanwhile, run in another.
type earlyWriter struct {
	mu      sync.Mutex
	queue   []*earlyUpdate
	running bool
	// commits counts the batches committed (for tests).
	commits atomic.Int64
	// written is the store's count of writes (Store.written): a batch's
	// transaction counts it once as it begins and again once it ended.
	written *atomic.Uint64
}

// earlyUpdate is one early update, queued.
type earlyUpdate struct {
	bucket, key []byte
	fn          func(old []byte) ([]byte, error)
	// decided is closed once the update was applied (or refused):
	// durable, err and panicked are set then.
	decided  chan struct{}
	durable  func() error
	err      error
	panicked any
}

// commit is a batch's commit: done is closed once it ended, with err.
type commit struct {
	done chan struct{}
	err  error
}

// update queues u and waits for its decision.
func (w *earlyWriter) update(db *bolt.DB, u *earlyUpdate) (func() error, error) {
	u.decided = make(chan struct{})
	w.mu.Lock()
	w.queue = append(w.queue, u)
	lead := !w.running
	w.running = true
	w.mu.Unlock()
	if lead {
		w.batch(db)
	}
	<-u.decided
	if u.panicked != nil {
		panic(u.panicked)
	}
	return u.durable, u.err
}

// batch applies the queued updates in one write transaction, tells each
// its decision, and commits the transaction in another goroutine, which
// then runs the next batch, if updates queued meanwhile.
func (w *earlyWriter) batch(db *bolt.DB) {
	w.written.Add(1)
	tx, err := db.Begin(true)
	w.mu.Lock()
	queued := w.queue
	w.queue = nil
	w.mu.Unlock()
	if err != nil {
		w.written.Add(1)
		for _, u := range queued {
			u.err = err
			close(u.decided)
		}
		w.next(db)
		return
	}
	c := &commit{done: make(chan struct{})}
	durable := func() error {
		<-c.done
		return c.err
	}
	var written []*earlyUpdate
	for _, u := range queued {
		if applyEarly(tx, u) {
			u.durable = durable
			written = append(written, u)
		} else {
			close(u.decided)
		}
	}
	if len(written) == 0 {
		tx.Rollback()
		w.written.Add(1)
		w.next(db)
		return
	}
	for _, u := range written {
		close(u.decided)
	}
	go func() {
		w.commits.Add(1)
		c.err = tx.Commit()
		w.written.Add(1)
		close(c.done)
		w.next(db)
	}()
}

// applyEarly runs u in tx, and reports whether it wrote: its refusal, an empty
// answer and a panic (kept for its caller) write nothing.
func applyEarly(tx *bolt.Tx, u *earlyUpdate) (wrote bool) {
	defer func() {
		if p := recover(); p != nil {
			u.panicked, wrote = p, false
		}
	}()
	bk := tx.Bucket(u.bucket)
	if bk == nil {
		u.err = fmt.Errorf("bucket %s is missing", u.bucket)
		return false
	}
	var old []byte
	if v := bk.Get(u.key); v != nil {
		old = append([]byte(nil), v...)
	}
	next, err := u.fn(old)
	if err != nil || next == nil {
		u.err = err
		return false
	}
	if err := bk.Put(u.key, next); err != nil {
		u.err = err
		return false
	}
	return true
}

// next runs the next batch if updates queued, or stops.
func (w *earlyWriter) next(db *bolt.DB) {
	w.mu.Lock()
	if len(w.queue) == 0 {
		w.running = false
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	w.batch(db)
}

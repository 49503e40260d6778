package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/jackc/pgx/v5"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

const (
	// leasePing is how often a lease checks its connection: a lost lease is
	// noticed this late, plus leasePingTimeout if the database hangs.
	leasePing        = 500 * time.Millisecond
	leasePingTimeout = 2 * time.Second
)

// Lead makes this process the deliverer of from's transactions if no other
// process (and no other lease of this one) is. It takes a connection out of
// the pool and tries a session advisory lock of from on it: the lock is
// the lease, and the database releases it when the connection ends, so a
// replica that dies or loses the database loses the lease and another
// one's Lead succeeds. It returns nil and false when another holds it.
//
// The database notices a vanished client only through TCP (set the
// server's tcp_keepalives_* or client_connection_check_interval for prompt
// failover after a network partition), while the holder notices within
// about a second: two replicas may deliver at once for a moment, which the
// journal makes harmless, since they broadcast the same signed
// transactions.
func (s *Store) Lead(ctx context.Context, from common.Address) (store.Lease, bool, error) {
	conn, err := s.dedicated(ctx, "x402 lease "+from.Hex(), "")
	if err != nil {
		return nil, false, fmt.Errorf("leading the delivery of %s: %w", from, err)
	}
	key := lockKey("lead", s.schema, from.Hex())
	var granted bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&granted); err != nil {
		closeConn(conn)
		return nil, false, fmt.Errorf("leading the delivery of %s: %w", from, err)
	}
	if !granted {
		closeConn(conn)
		return nil, false, nil
	}
	l := &lease{
		pid:     conn.PgConn().PID(),
		lost:    make(chan struct{}),
		release: make(chan struct{}),
		done:    make(chan struct{}),
	}
	if err := s.goroutine(func() { l.hold(s, conn, key, "the lease of a settler's delivery", zap.Stringer("address", from)) }); err != nil {
		closeConn(conn)
		return nil, false, err
	}
	s.log.Info("leading the delivery of a settler's transactions", zap.Stringer("address", from), zap.Uint32("backend_pid", l.pid))
	return l, true, nil
}

// lease is a held advisory lock; one goroutine owns its connection.
type lease struct {
	pid     uint32        // the backend holding the lock, for logs and tests
	lost    chan struct{} // closed when the lease is gone, for any reason
	release chan struct{} // closed by Release
	once    sync.Once
	done    chan struct{} // closed when hold has returned
}

// Lost is closed when the lease is gone: released, the store closed, or
// the connection lost.
func (l *lease) Lost() <-chan struct{} { return l.lost }

// Release gives the lease up and returns when another process can take
// it. It is idempotent.
func (l *lease) Release() {
	l.once.Do(func() { close(l.release) })
	<-l.done
}

// hold keeps the lease until it is released, the store closes, or a ping
// of its connection fails; then it closes lost.
func (l *lease) hold(s *Store, conn *pgx.Conn, key int64, what string, field zap.Field) {
	defer close(l.done)
	defer close(l.lost)
	t := time.NewTicker(leasePing)
	defer t.Stop()
	giveUp := func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		// Closing the connection would free the lock too, but only once
		// the server has processed it; unlocking first makes Release
		// synchronous.
		conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key)
		closeConn(conn)
	}
	for {
		select {
		case <-l.release:
			giveUp()
			return
		case <-s.ctx.Done():
			giveUp()
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(s.ctx, leasePingTimeout)
			err := conn.Ping(ctx)
			cancel()
			if err == nil {
				continue
			}
			if s.ctx.Err() != nil {
				giveUp()
				return
			}
			s.log.Warn("lost "+what, field, zap.Uint32("backend_pid", l.pid), zap.Error(err))
			closeConn(conn)
			return
		}
	}
}

// holdInstance takes the session advisory lock that says this handle (the
// process) is alive, on a dedicated connection held until Close: another
// replica's alive check of s.instance fails once the process is gone.
func (s *Store) holdInstance(ctx context.Context) error {
	conn, err := s.dedicated(ctx, "x402 instance "+s.instance, "")
	if err != nil {
		return fmt.Errorf("holding the instance lock: %w", err)
	}
	key := lockKey("instance", s.schema, s.instance)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		closeConn(conn)
		return fmt.Errorf("holding the instance lock: %w", err)
	}
	l := &lease{pid: conn.PgConn().PID(), lost: make(chan struct{}), release: make(chan struct{}), done: make(chan struct{})}
	if err := s.goroutine(func() { l.hold(s, conn, key, "the instance lock", zap.String("instance", s.instance)) }); err != nil {
		closeConn(conn)
		return err
	}
	return nil
}

// alive reports whether the store handle named instance is open: whether
// its instance lock is held. It runs on tx's connection, taking and at once
// giving back the lock if it is free.
func (s *Store) alive(ctx context.Context, tx pgx.Tx, instance string) (bool, error) {
	if instance == s.instance {
		return true, nil
	}
	key := lockKey("instance", s.schema, instance)
	var free bool
	if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, key).Scan(&free); err != nil {
		return false, err
	}
	return !free, nil
}

// Instance names this handle (see store.Settlements.Instance).
func (s *Store) Instance() string { return s.instance }

// Alive reports whether the store handle named instance is open, in a
// transaction of its own (see alive).
func (s *Store) Alive(instance string) (bool, error) {
	ctx, cancel := op()
	defer cancel()
	var alive bool
	err := inTx(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		alive, err = s.alive(ctx, tx, instance)
		return err
	})
	return alive, err
}

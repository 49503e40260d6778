// Package postgres is the store of a fleet: several Caddy replicas behind
// one load balancer share one PostgreSQL database, so a payment is settled
// once whichever replica receives it, and any replica can finish what
// another one started. It implements store.Backend (settlements and named
// key-value spaces) and store.Journal (the shared nonces, signed
// transactions and delivery lease of a settler key), and passes
// storetest.Run with a second handle open on the same rows.
//
// # Schema
//
// Open creates its tables with embedded, numbered migrations (see
// migrations/), recorded in schema_migrations; a database migrated by a
// newer binary is refused rather than written by an older one. Config.Schema
// puts every table in a schema of its own (created if missing), so several
// stores, or tests, can share a database:
//
//	settlements(key bytea primary key, state text, record bytea, consumer text, created, updated,
//	            scheme text, payer bytea, pay_to bytea, asset bytea, amount numeric, error_reason text)
//	  record is the JSON of store.Record exactly as the bbolt store writes it
//	  (a final record without its signed transaction: store.Trimmed);
//	  the other columns repeat its fields for indexes, for the operator's
//	  listing and summaries (store.Reporter, aggregated in SQL) and for
//	  operators: created and updated are the record's own times, to the
//	  microsecond, and error_reason its response's error code. A partial
//	  index on state lists the unfinished records; indexes on
//	  (created, key), (payer, created, key) and (pay_to, created, key) serve
//	  the listing, newest first.
//	kv(bucket text, key bytea, value bytea, primary key (bucket, key))
//	  the named key-value spaces; a NULL value is a placeholder of an
//	  Update in progress and reads as absent.
//	settler_txs(address bytea, nonce bigint, chain_id numeric, hash bytea, raw bytea,
//	            previous bytea[], void boolean, created, updated, primary key (address, nonce))
//	  the journal: one row per nonce of a settler key, holding its latest
//	  signed transaction and the hashes of the versions it replaced. Nonces
//	  are per chain, so a schema journals a settler key on one chain; Append
//	  refuses a transaction of another chain than the journal's last one.
//
// # Safety across replicas
//
// The database's constraints and locks are the only truth; no operation
// relies on a lock inside the process.
//   - Claim inserts with ON CONFLICT DO NOTHING: the primary key lets one
//     insert of a replay key win, whichever replica makes it.
//   - Submit, Finish, Release, Resubmit and Consume read the stored record
//     with SELECT … FOR UPDATE, check it with the state machine's rules
//     (store.CanMove and the Check functions, never a copy of them) and write
//     in the same transaction, so two replicas' transitions of one record
//     are serialized.
//   - KV.Update locks the key's row, inserting a placeholder row first if
//     there is none (see bucket.Update).
//   - PruneFinal deletes old final records in statements that lock their
//     rows with FOR UPDATE SKIP LOCKED, so replicas pruning at once delete
//     disjoint rows, and never wait on a row a transition holds. They
//     select the rows in the final states by name (as Unfinished selects
//     the others), so a claimed or submitted row is never deleted.
//   - Journal.Append takes a transaction-scoped advisory lock on the
//     settler's address before reading the highest nonce, and inserts the
//     signed transaction in the same transaction, so a nonce is handed out
//     once; the primary key (address, nonce) would refuse a second anyway.
//     Replace and Void compare and set the stored hash in one statement.
//   - Lead holds a session advisory lock on a dedicated connection: the
//     database drops it when that connection dies, and another replica's
//     Lead then succeeds. The lease is for liveness (one deliverer at a
//     time, with failover); the journal is what keeps delivery safe, since
//     two deliverers at once only broadcast the same signed transactions.
//   - Append, Replace and Void call pg_notify (channel x402_journal, payload
//     schema/address) inside their transaction, so Appended's listeners in
//     other replicas hear of a change once it is committed.
//
// Nothing is cached in the process: a final record's consumer can still be
// set by another replica, so every read goes to the database.
//
// Advisory lock keys are derived from the schema, so stores in different
// schemas of one database never contend.
//
// # Configuration
//
// The URL holds the database password. It must come from a placeholder,
// {env.X402_DATABASE_URL} or {file./run/secrets/x402-db-url}, never from
// the JSON config itself. This package never writes it, or its password, to
// an error or a log line: errors that could echo it are replaced or
// redacted, and Config.String prints the URL without its password.
package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// opTimeout bounds each call of the store's context-free methods (the
// store.Settlements and store.KV ones), so a database that stops answering
// fails a settlement instead of hanging its request.
const opTimeout = 15 * time.Second

// Config configures a Store.
type Config struct {
	// URL is the PostgreSQL connection string, as a URL
	// (postgres://user:password@host:5432/db?sslmode=verify-full) or as
	// key=value pairs. It is a secret: take it from a placeholder. Required.
	URL string
	// MaxConns bounds the connections of the store's pool. Zero keeps the
	// URL's pool_max_conns, or pgx's default (the greater of 4 and the
	// number of CPUs). The delivery lease and each Appended listener use a
	// dedicated connection of their own, outside this bound.
	MaxConns int32
	// Schema is the schema that holds the store's tables, created if
	// missing. Empty means the connection's default schema (usually public).
	Schema string
	// Logger receives the store's events; nil means none.
	Logger *zap.Logger
}

// schemaName is what Config.Schema may be: a plain, unquoted identifier.
var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Validate reports what is wrong with the configuration. It does not parse
// the URL's details (Open does) and never quotes it.
func (c Config) Validate() error {
	if c.URL == "" {
		return errors.New("postgres: the database URL is empty")
	}
	if c.MaxConns < 0 {
		return errors.New("postgres: max conns must not be negative")
	}
	if c.Schema != "" && !schemaName.MatchString(c.Schema) {
		return fmt.Errorf("postgres: schema %q is not a lowercase identifier of at most 63 letters, digits and underscores", c.Schema)
	}
	return nil
}

// String describes the configuration with the URL's password masked, so a
// Config printed by mistake leaks nothing.
func (c Config) String() string {
	return fmt.Sprintf("postgres{url: %s, max conns: %d, schema: %q}", redactURL(c.URL), c.MaxConns, c.Schema)
}

// Store is a PostgreSQL store, safe for concurrent use by any number of
// goroutines and processes.
type Store struct {
	pool   *pgxpool.Pool
	log    *zap.Logger
	schema string // the schema the tables live in, resolved at Open
	// instance names this handle in records' ConsumerInstance; its lock
	// (holdInstance) tells other replicas it is alive.
	instance string

	// ctx ends when Close starts; it bounds the goroutines of leases and
	// listeners, which wg counts.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex // guards closed, so wg.Add never races Close's Wait
	closed bool

	closeOnce sync.Once
}

var (
	_ store.Backend = (*Store)(nil)
	_ store.Journal = (*Store)(nil)
)

// Open connects to the database, migrates its schema to the version this
// binary knows and returns the store. It fails if the database cannot be
// reached or was migrated by a newer binary. Replicas that start at once
// migrate once.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	pcfg, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		// pgx's parse errors can quote the URL; none of it is repeated.
		return nil, errors.New("postgres: parsing the database URL: it is not a valid PostgreSQL URL or key=value connection string (its text is withheld, as it may hold a password)")
	}
	if cfg.MaxConns > 0 {
		pcfg.MaxConns = cfg.MaxConns
	}
	if cfg.Schema != "" {
		pcfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{cfg.Schema}.Sanitize()
	}
	password := pcfg.ConnConfig.Password
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, redact(fmt.Errorf("postgres: creating the connection pool: %w", err), password)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, redact(fmt.Errorf("postgres: connecting to the database: %w", err), password)
	}
	if err := migrate(ctx, pool, cfg.Schema, log); err != nil {
		pool.Close()
		return nil, redact(fmt.Errorf("postgres: %w", err), password)
	}
	var schema string
	if err := pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		pool.Close()
		return nil, redact(fmt.Errorf("postgres: reading the current schema: %w", err), password)
	}
	sctx, cancel := context.WithCancel(context.Background())
	s := &Store{pool: pool, log: log, schema: schema, instance: store.NewInstance(), ctx: sctx, cancel: cancel}
	if err := s.holdInstance(ctx); err != nil {
		s.Close()
		return nil, redact(fmt.Errorf("postgres: %w", err), password)
	}
	log.Info("opened the PostgreSQL store",
		zap.String("host", pcfg.ConnConfig.Host),
		zap.String("database", pcfg.ConnConfig.Database),
		zap.String("schema", schema),
		zap.Int32("max_conns", pcfg.MaxConns))
	return s, nil
}

// Close stops the store's leases and listeners, then closes its pool,
// waiting for the calls in progress. It is idempotent and returns nil.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		s.cancel()
		s.wg.Wait()
		s.pool.Close()
	})
	return nil
}

// Health pings the database: /health reports it as a dependency.
func (s *Store) Health(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("pinging PostgreSQL: %w", err)
	}
	return nil
}

// errClosed is returned by the calls that start goroutines once Close has
// begun.
var errClosed = errors.New("postgres: the store is closed")

// goroutine runs fn on a goroutine that Close waits for, unless the store
// is closed.
func (s *Store) goroutine(fn func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn()
	}()
	return nil
}

// op returns the context of one call of a context-free method. Close does
// not cancel it: a transition in progress commits or rolls back on its own,
// and the pool's Close waits for it.
func op() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), opTimeout)
}

// inTx runs fn in a transaction of pool, committed if fn returns nil and
// rolled back otherwise, and returns fn's error.
func inTx(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, fn)
}

// errRollback makes inTx roll back a transaction that did nothing wrong.
var errRollback = errors.New("rolled back")

// lockKey is the advisory lock key of what parts name, scoped by the
// store's schema. A collision of two keys (one in 2^64) costs only waiting.
func lockKey(parts ...string) int64 {
	h := sha256.Sum256([]byte("x402\x00" + strings.Join(parts, "\x00")))
	return int64(binary.BigEndian.Uint64(h[:8]))
}

// redactedError is an error whose text had a secret masked. It unwraps to
// the original, so errors.Is keeps working.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact masks password in err's text. pgx does not print passwords (its
// connection errors name the user and database only), so this is a second
// line of defence.
func redact(err error, password string) error {
	if err == nil || password == "" || !strings.Contains(err.Error(), password) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), password, "xxxxx"), err: err}
}

// redactURL returns a connection string fit for a log line: a URL without
// its password (and without the password and sslpassword of its query), or,
// for key=value pairs and anything that does not parse, a fixed mask.
func redactURL(raw string) string {
	if raw == "" {
		return `""`
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "(redacted)"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	q := u.Query()
	for k := range q {
		if strings.Contains(strings.ToLower(k), "password") {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

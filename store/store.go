// Package store is the ledger on the ground floor: every durable record of a
// Caddy running x402, owned by the x402 app and handed to each service
// through the narrow interfaces that service declares. Its core is the
// facilitator's settlement records: one per replay key, claimed before a
// transaction is broadcast, so that a payment is never settled twice and a
// settlement in progress survives a restart. The paymaster's ledger, the
// transaction API's budgets and the dashboard's audit log live beside them
// in named spaces that each of those services names itself.
//
// Records live in a bbolt file. Finished records (settled or failed) are
// cached in ristretto in front of it, since duplicate settles of paid
// requests are the hot path; the file stays the only source of truth. Other
// services keep their state in named buckets of the same file. A second
// bucket indexes the records by creation time, written in the same
// transaction as the records, for the operator's listing and summaries
// (Reporter); Open builds it for a file written before it existed.
//
// Final records are kept until they are pruned (FinalPruner; Pruner runs
// it in the background): the file then stops growing, as bbolt writes new
// records into the pages pruned ones left free, but it never shrinks;
// Compact gives the free pages back to the file system.
//
// # Integrity and recovery
//
// A store that is wrong fails safe: it stops Caddy with an error that names
// the file, rather than crash it or start empty. Open checks an existing
// file before bbolt maps it, since bbolt follows the file's page ids and
// offsets unchecked and faults on a damaged one. Both meta pages must carry
// a valid checksum (bbolt would fall back to the older one, silently losing
// the last commit); the file must hold every page below the high-water mark;
// and every page in use must lie in the file, carry its own id, be
// referenced once and keep its elements inside itself. bbolt's consistency
// check (tx.Check) then runs over the freelist and key order. A file that
// does not exist is created; an existing empty file is refused, never
// initialized. bbolt keeps no checksums of pages, so damage inside a record's
// value is found when the record is read, or by Check.
//
// Close writes a consistent, checked copy of the store beside it, at the
// file's path with ".bak" appended. To recover from a damaged file, stop
// Caddy and run
//
//	caddy x402 store check --store <file>
//	caddy x402 store restore --store <file> --from <file>.bak
//
// Restore keeps the damaged file as <file>.corrupt-<time>. What was written
// after the backup is lost to the store: settlements recorded since (their
// transfers stay on chain, but a pending one is no longer reconciled), API
// keys created since, and faucet times. Check, Backup and Restore do those
// commands' work.
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	bolt "go.etcd.io/bbolt"

	"github.com/caddy-x402/caddy-x402/x402"
)

// State is where a settlement record is in its life.
type State string

const (
	// StateClaimed: the replay key is taken; no transaction is signed yet.
	StateClaimed State = "claimed"
	// StateSubmitted: a transaction is signed and stored, and may have been
	// broadcast; its outcome is not known yet.
	StateSubmitted State = "submitted"
	// StateSettled: the transaction succeeded and the transfer is on chain.
	StateSettled State = "settled"
	// StateFailed: the transaction was mined and reverted, or the payment
	// was found invalid on chain. Final.
	StateFailed State = "failed"
)

// Final reports whether s is an end state.
func (s State) Final() bool { return s == StateSettled || s == StateFailed }

// Record is one payment's settlement.
type Record struct {
	// Key is the payment's replay key.
	Key common.Hash `json:"key"`
	// PayloadHash identifies the exact payment that claimed Key, so a
	// different payment with the same key is told apart from a duplicate.
	PayloadHash common.Hash `json:"payloadHash"`
	// State is where the record is.
	State State `json:"state"`
	// Scheme and Network of the payment.
	Scheme  string `json:"scheme"`
	Network string `json:"network"`
	// Payer, PayTo, Asset and Amount describe the transfer that must appear
	// on chain for the settlement to count.
	Payer  common.Address `json:"payer"`
	PayTo  common.Address `json:"payTo"`
	Asset  common.Address `json:"asset"`
	Amount *big.Int       `json:"amount"`
	// Reserve is what the settlement may take from Payer's balance of
	// Asset while it is in flight when that is more than Amount: an
	// aa-native payment whose gas is paid in Asset takes the price and at
	// most its operation's maximum gas. Nil means Amount. A process that finds the record unfinished
	// at start counts it against the payer's balance, as the one that
	// signed it did.
	Reserve *big.Int `json:"reserve,omitempty"`
	// Resource is the URL of what the payment bought, as the merchant's
	// paywall described it (x402.VerifyRequest.Resource), never as the
	// payer's payload names it; empty when the merchant did not say. At
	// most 512 bytes. Description is the paywall's description of it, at
	// most 512 bytes. Both are for the operator's listing only.
	Resource    string `json:"resource,omitempty"`
	Description string `json:"description,omitempty"`
	// TxHash and RawTx are the signed transaction, stored before broadcast
	// so it can be rebroadcast after a restart. A final record is stored
	// without RawTx (see Trimmed).
	TxHash common.Hash   `json:"txHash,omitzero"`
	RawTx  hexutil.Bytes `json:"rawTx,omitempty"`
	// UserOpHash and RequestHash identify an aa-native payment's operation
	// and settlement request.
	UserOpHash  common.Hash `json:"userOpHash,omitzero"`
	RequestHash common.Hash `json:"requestHash,omitzero"`
	// Response is the settle response, once final.
	Response *x402.SettleResponse `json:"response,omitempty"`
	// Consumer is the owner of the one response a settled payment bought:
	// a digest of the idempotency key of the settle that was handed the
	// receipt. Empty until a settle is handed it (a settlement that
	// finished while its request had given up waiting has none yet).
	Consumer string `json:"consumer,omitempty"`
	// ConsumerInstance names the store handle (the process) whose settle
	// became the consumer, and Served is set once that settle's response
	// was written. A consumer whose response was not written and whose
	// process is gone (it died between the settlement and the response)
	// gives way to the payer's retry, once and within ServeBy: see
	// CanConsume.
	ConsumerInstance string `json:"consumerInstance,omitempty"`
	Served           bool   `json:"served,omitempty"`
	// Handovers counts the times the receipt was handed to a new consumer
	// because the one before it died with its response unwritten (see
	// CanConsume): each is a response the payment may buy beyond its first
	// if the dead process wrote it before dying. At most MaxHandovers.
	Handovers int `json:"handovers,omitempty"`
	// ServeBy is the end of the payment's validity window (the facilitator
	// sets it at the claim: created plus the offer's maxTimeoutSeconds,
	// and for exact no later than the authorization's validBefore). A
	// consumer that died with its response unwritten gives way to the
	// payer's retry only until then. Zero in a record written before it
	// existed, which then ends DefaultServeWindow after Created.
	ServeBy time.Time `json:"serveBy,omitzero"`
	// Notify is set on a settlement the merchant is told of (one of its
	// own routes' payments, with a webhook configured): Finish writes
	// its final outcome to the outbox (OutboxBucket) in the same commit.
	Notify bool `json:"notify,omitempty"`
	// Created and Updated are wall-clock times.
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// Config configures a Store.
type Config struct {
	// Path is the bbolt file; its directory is created if missing.
	Path string
	// CacheEntries bounds the cache of finished records; default 10,000.
	// The cache serves the duplicate settles of a payment's retries, which
	// come within its validity window; a miss reads the file. The cache's
	// admission counters are allocated when the store opens (0.7 MB for
	// 10,000 entries, 4.5 MB for 100,000), and a cached record holds about
	// a kilobyte.
	CacheEntries int64
}

// Validate reports what is wrong with the configuration.
func (c Config) Validate() error {
	if c.Path == "" {
		return errors.New("store path is empty")
	}
	if c.CacheEntries < 0 {
		return errors.New("cache entries must not be negative")
	}
	return nil
}

var settlementsBucket = []byte("settlements")

// Store is the durable record store. It is safe for concurrent use.
type Store struct {
	db    *bolt.DB
	cache *ristretto.Cache[string, *Record]
	path  string

	instance string // this handle's name, for ConsumerInstance

	// writers counts the writes under way, for write.
	writers atomic.Int32
	// early groups the buckets' early updates (Bucket.UpdateEarly).
	early earlyWriter
	// written counts up before every write transaction of the file
	// begins and again after it ends (committed or not), so that a read
	// that overlapped a write never sees the count that follows it: see
	// Bucket.Get. Every write goes through write, update or early.
	written atomic.Uint64

	// cacheMu keeps the cache from being used once Close closed it: a
	// request finishing while Caddy stops may still reach the store, and
	// gets bbolt's "database not open" rather than a closed cache.
	cacheMu     sync.RWMutex
	cacheClosed bool
	// uncached counts the records dropped from the cache, so that Get
	// caches what it read only if no write dropped a record meanwhile
	// (the record it read may be the one a prune deleted, or a consumer
	// replaced, while it read).
	uncached atomic.Uint64

	closeOnce sync.Once
	closeErr  error
}

// Open opens the store file, or creates it if it does not exist. An
// existing file must pass the integrity checks in the package doc; one that
// does not (including an empty one) is left untouched and refused with an
// error that names it and the command that restores it. A file held by
// another process is reported after a second rather than waited on forever.
func Open(cfg Config) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.CacheEntries == 0 {
		cfg.CacheEntries = 10_000
	}
	if err := os.MkdirAll(filepath.Dir(cfg.Path), 0o700); err != nil {
		return nil, fmt.Errorf("creating store directory: %w", err)
	}
	db, err := openBolt(cfg.Path, false)
	if err != nil {
		return nil, err
	}
	// Concurrent claims share one commit (and one fsync); a write that
	// arrives while another runs waits at most this long for company (a
	// lone write commits at once: see write).
	db.MaxBatchDelay = 2 * time.Millisecond
	if err := db.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(settlementsBucket); err != nil {
			return err
		}
		return ensureIndex(tx, cfg.Path)
	}); err != nil {
		db.Close()
		if _, ok := errors.AsType[*damageError](err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("initializing store %s: %w", cfg.Path, err)
	}
	cache, err := ristretto.NewCache(&ristretto.Config[string, *Record]{
		NumCounters: cfg.CacheEntries * 10,
		MaxCost:     cfg.CacheEntries,
		BufferItems: 64,
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("creating cache: %w", err)
	}
	s := &Store{db: db, cache: cache, path: cfg.Path, instance: NewInstance()}
	s.early.written = &s.written
	return s, nil
}

// Close writes the backup, the file's path with ".bak" appended, then
// closes the file and the cache. The backup is a consistent copy that passed
// Open's checks before it replaced the previous one; if it cannot be written
// or checked, the previous backup stays, and the error is returned along
// with any error of closing. Calls after the first return the first's error.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		var backupErr error
		if err := writeCopy(s.db, s.path+backupSuffix); err != nil {
			backupErr = fmt.Errorf("writing backup %s: %w", s.path+backupSuffix, err)
		}
		s.cacheMu.Lock()
		s.cacheClosed = true
		s.cache.Close()
		s.cacheMu.Unlock()
		s.closeErr = errors.Join(s.db.Close(), backupErr)
	})
	return s.closeErr
}

// Trimmed returns rec as a backend stores it. A final record is stored
// without its signed transaction (RawTx; TxHash stays): the transaction is
// kept only to broadcast it again while it may still be mined, and once a
// record is final nothing reads it (the finality watcher keeps its own
// copy). That is most of a record: 400 bytes of a transaction for an
// exact payment and 1.7 kB for an aa-native one, written as hex. Records
// stored before this was done keep theirs until they are rewritten, and
// read as before. rec itself is not changed.
func Trimmed(rec *Record) *Record {
	if !rec.State.Final() || rec.RawTx == nil {
		return rec
	}
	cp := *rec
	cp.RawTx = nil
	return &cp
}

func encode(r *Record) ([]byte, error) { return json.Marshal(Trimmed(r)) }

func decode(b []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decoding record: %w", err)
	}
	return &r, nil
}

// Claim durably takes rec.Key for rec if no record holds it, and returns
// (rec, true). If a record already holds the key it is returned unchanged
// with false. The write is committed (fsynced) before Claim returns.
func (s *Store) Claim(rec Record) (*Record, bool, error) {
	var (
		existing *Record
		claimed  bool
	)
	err := s.write(func(tx *bolt.Tx) error {
		existing, claimed = nil, false // Batch may run this more than once
		b := tx.Bucket(settlementsBucket)
		if raw := b.Get(rec.Key[:]); raw != nil {
			r, err := decode(raw)
			if err != nil {
				return err
			}
			existing = r
			return nil
		}
		raw, err := encode(&rec)
		if err != nil {
			return err
		}
		claimed = true
		if err := b.Put(rec.Key[:], raw); err != nil {
			return err
		}
		return reindex(tx, nil, &rec)
	})
	if err != nil {
		return nil, false, fmt.Errorf("claiming %s: %w", rec.Key, err)
	}
	if claimed {
		return &rec, true, nil
	}
	return existing, false, nil
}

// Get returns the record of key, or nil if there is none.
func (s *Store) Get(key common.Hash) (*Record, error) {
	if r, ok := s.cachedGet(string(key[:])); ok {
		return r, nil
	}
	gen := s.uncached.Load()
	var rec *Record
	err := s.db.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket(settlementsBucket).Get(key[:])
		if raw == nil {
			return nil
		}
		r, err := decode(raw)
		rec = r
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", key, err)
	}
	if rec != nil && rec.State.Final() && s.uncached.Load() == gen {
		s.cacheSet(string(key[:]), rec)
	}
	return rec, nil
}

// put durably writes rec over the record of the same key, whatever its
// state: the package's tests use it to lay out records. The facilitator
// moves records only through the transitions in machine.go.
func (s *Store) put(rec *Record) error {
	raw, err := encode(rec)
	if err != nil {
		return err
	}
	if err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket(settlementsBucket)
		var stored *Record
		if v := b.Get(rec.Key[:]); v != nil {
			var err error
			if stored, err = decode(v); err != nil {
				return err
			}
		}
		if err := b.Put(rec.Key[:], raw); err != nil {
			return err
		}
		return reindex(tx, stored, rec)
	}); err != nil {
		return fmt.Errorf("writing %s: %w", rec.Key, err)
	}
	s.cached(rec)
	return nil
}

// uncache drops key from the cache.
func (s *Store) uncache(key string) {
	s.uncached.Add(1)
	s.cacheMu.RLock()
	defer s.cacheMu.RUnlock()
	if !s.cacheClosed {
		s.cache.Del(key)
	}
}

// cacheSet caches a final record.
func (s *Store) cacheSet(key string, rec *Record) {
	s.cacheMu.RLock()
	defer s.cacheMu.RUnlock()
	if !s.cacheClosed {
		s.cache.Set(key, rec, 1)
	}
}

// cachedGet is the cached record of key, if any.
func (s *Store) cachedGet(key string) (*Record, bool) {
	s.cacheMu.RLock()
	defer s.cacheMu.RUnlock()
	if s.cacheClosed {
		return nil, false
	}
	return s.cache.Get(key)
}

// cached keeps a final record in the cache, as it is stored (Trimmed),
// and drops any other.
func (s *Store) cached(rec *Record) {
	if rec.State.Final() {
		cp := *Trimmed(rec)
		s.cacheSet(string(rec.Key[:]), &cp)
	} else {
		s.uncache(string(rec.Key[:]))
	}
}

// Unfinished returns every record not in a final state: what a restart must
// reconcile against the chain.
func (s *Store) Unfinished() ([]*Record, error) {
	var out []*Record
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(settlementsBucket).ForEach(func(_, raw []byte) error {
			r, err := decode(raw)
			if err != nil {
				return err
			}
			if !r.State.Final() {
				out = append(out, r)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing unfinished records: %w", err)
	}
	return out, nil
}

// write runs fn in a read-write transaction. A write that no other write
// waits beside commits at once; writes that come while others are under
// way are batched into one commit (and one fsync), which waits at most
// MaxBatchDelay for company. fn may run more than once, as with
// bolt.DB.Batch.
func (s *Store) write(fn func(*bolt.Tx) error) error {
	s.written.Add(1)
	defer s.written.Add(1)
	n := s.writers.Add(1)
	defer s.writers.Add(-1)
	if n == 1 {
		return s.db.Update(fn)
	}
	return s.db.Batch(fn)
}

// update is bbolt's Update of the file, counted in s.written.
func (s *Store) update(fn func(*bolt.Tx) error) error {
	s.written.Add(1)
	defer s.written.Add(1)
	return s.db.Update(fn)
}

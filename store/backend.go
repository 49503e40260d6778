package store

// KV is a named key-value space beside the settlements, for the state other
// services keep in the same store: the paymaster's API keys and ledger,
// the transaction API's records, budgets and faucet times. Writes are
// durable when they return. A backend shared by several processes (the
// PostgreSQL store of a fleet) makes Update atomic across all of them.
type KV interface {
	// Get returns the value of key, or nil if there is none.
	Get(key []byte) ([]byte, error)
	// Put durably sets key to value.
	Put(key, value []byte) error
	// Delete durably removes key; removing a missing key is no error.
	Delete(key []byte) error
	// ForEach calls fn for every entry, in key order, until fn fails; it
	// returns fn's error. fn must not write to the space.
	ForEach(fn func(key, value []byte) error) error
	// Update atomically replaces the value of key with what fn makes of a
	// copy of the current one (nil if there is none): a read-modify-write
	// that no other writer can interleave with. fn returning nil, or
	// failing, leaves key as it was; a failure is returned. fn may run more
	// than once, so it must have no other effect.
	Update(key []byte, fn func(old []byte) ([]byte, error)) error
}

// EarlyKV is a KV that can answer an update as soon as it is decided,
// while its write is still going on (the bbolt store, whose one writer
// holds the file until the write is durable).
type EarlyKV interface {
	KV
	// UpdateEarly is Update that returns once fn decided, having run fn
	// once in the caller's goroutine, while the new value is written:
	// durable waits for the write and returns nil once it is durable.
	// Until then no other writer of the space can read or write, so the
	// decision is final unless the write fails. When fn fails or makes
	// nothing, nothing is written and durable is nil.
	UpdateEarly(key []byte, fn func(old []byte) ([]byte, error)) (durable func() error, err error)
}

// Backend is one store: the settlement records, their listing and
// summaries for the operator, their retention, and the named key-value
// spaces beside them.
// Caddy's x402 app opens one per configured store (a bbolt file for one
// instance, a PostgreSQL database for a fleet) and hands it to the
// facilitator, the paymaster, the transaction API and the dashboard; its
// owner closes it after them. storetest.Run is the conformance suite a
// backend must pass.
type Backend interface {
	Settlements
	Reporter
	FinalPruner
	// Bucket returns the named key-value space, creating it if needed.
	Bucket(name string) (KV, error)
	// Close releases the store. It is idempotent.
	Close() error
}

var _ Backend = (*Store)(nil)

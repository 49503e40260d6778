// Package memo remembers the answers of pure functions on the hot paths
// (a signature's signer, a requirements' hash, an address's checksummed
// hex) for the calls that ask again, within a fixed bound.
//
// A Generations is two maps: the newer is filled until it holds Size
// entries, and then it is made the older and the older is dropped. Unlike
// a ristretto cache, whose writes are applied later and may be refused by
// its admission policy, an entry is found by the next Get at once, which
// the settle that follows a verify by milliseconds relies on; and unlike
// an LRU list, a Get writes nothing. Only a function's answer for its own
// key belongs in one, so that no caller can plant a wrong answer: one that
// asks for many keys only churns it.
package memo

import "sync"

// DefaultSize is a generation's Size when it is not set.
const DefaultSize = 4096

// Generations remembers up to 2 × Size entries. The zero value is ready,
// with the DefaultSize.
type Generations[K comparable, V any] struct {
	// Size is the most entries a generation holds; DefaultSize if 0.
	Size int

	mu       sync.Mutex
	cur, old map[K]V
}

// Get returns the value kept for k, if there is one.
func (g *Generations[K, V]) Get(k K) (V, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.cur[k]
	if !ok {
		v, ok = g.old[k]
	}
	return v, ok
}

// Put keeps v for k, in the newer generation, which it first makes the
// older if it is full. Its maps are made at their full size, so that they
// never grow.
func (g *Generations[K, V]) Put(k K, v V) {
	size := g.Size
	if size <= 0 {
		size = DefaultSize
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur == nil || len(g.cur) >= size {
		g.old, g.cur = g.cur, make(map[K]V, size)
	}
	g.cur[k] = v
}

// Clear forgets every entry, keeping the maps' room.
func (g *Generations[K, V]) Clear() {
	g.mu.Lock()
	defer g.mu.Unlock()
	clear(g.cur)
	clear(g.old)
}

// Len is how many entries are kept.
func (g *Generations[K, V]) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.cur) + len(g.old)
}

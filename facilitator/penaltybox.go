package facilitator

import (
	"encoding/binary"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// The penalty box across a fleet. A payer whose settlement reverted is
// refused for a while (payers.reverted); each process keeps its box in
// memory, and, when its store can be shared (a fleet's PostgreSQL store,
// or a bbolt file), also in the store's PenaltiesBucket: a payer boxed by
// one replica is refused by every other, and by this one after a restart.
// A replica reads the shared box only for a payer its own does not hold,
// one read of the key-value space per verification.

// PenaltiesBucket names the key-value space of the shared penalty box:
// payer address → the end of its penalty (unix nanoseconds, big-endian).
const PenaltiesBucket = "x402_penalties"

// kvStore is a store with named key-value spaces.
type kvStore interface {
	Bucket(name string) (store.KV, error)
}

// openBucket opens the key-value space name of st, for what every process
// sharing the store counts (what names it), or nil when st has none.
func openBucket(st store.Settlements, name, what string, log *zap.Logger) store.KV {
	kvs, ok := st.(kvStore)
	if !ok {
		return nil
	}
	kv, err := kvs.Bucket(name)
	if err != nil {
		log.Warn("opening "+what+"; it is kept in this process only", zap.Error(err))
		return nil
	}
	return kv
}

// sharePenalty writes payer's penalty, until, to the shared box, unless
// a longer one is there. A failure is logged: the payer is still boxed
// here.
func (p *payers) sharePenalty(payer common.Address, until time.Time, now time.Time) {
	if p.shared == nil {
		return
	}
	err := p.shared.Update(payer[:], func(old []byte) ([]byte, error) {
		if len(old) == 8 && int64(binary.BigEndian.Uint64(old)) >= until.UnixNano() {
			return nil, nil // a longer penalty stands
		}
		return binary.BigEndian.AppendUint64(nil, uint64(until.UnixNano())), nil
	})
	if err != nil && p.log != nil {
		p.log.Warn("writing a penalty to the shared box", zap.Stringer("payer", payer), zap.Error(err))
	}
	p.prunePenalties(now)
}

// sharedPenalty is when payer's penalty in the shared box ends, if it
// has one that has not.
func (p *payers) sharedPenalty(payer common.Address, now time.Time) (time.Time, bool) {
	if p.shared == nil {
		return time.Time{}, false
	}
	v, err := p.shared.Get(payer[:])
	if err != nil || len(v) != 8 {
		return time.Time{}, false
	}
	until := time.Unix(0, int64(binary.BigEndian.Uint64(v)))
	return until, now.Before(until)
}

// prunePenalties deletes the ended penalties of the shared box, at most
// once an hour per process, so that it holds only the last hour's
// payers (a penalty lasts an hour at most).
func (p *payers) prunePenalties(now time.Time) {
	p.mu.Lock()
	if now.Sub(p.pruned) < time.Hour {
		p.mu.Unlock()
		return
	}
	p.pruned = now
	p.mu.Unlock()
	var ended [][]byte
	p.shared.ForEach(func(k, v []byte) error {
		if len(v) != 8 || !now.Before(time.Unix(0, int64(binary.BigEndian.Uint64(v)))) {
			ended = append(ended, append([]byte(nil), k...))
		}
		return nil
	})
	for _, k := range ended {
		p.shared.Delete(k)
	}
}

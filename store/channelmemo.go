package store

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"
)

// A voucher reads its channel's record twice, once to verify it against
// the mirrored balance (Get) and once in the update that holds the channel
// (BeginEarlyAfter), and the update before wrote those very bytes. The
// record's JSON, with its amounts as big integers, costs about 20 µs to
// decode on a small machine: a tenth of a voucher's CPU. channelMemo
// keeps the last record decoded or written of each channel beside its
// bytes, and hands out a deep copy when the bytes read are the same; the
// bytes stay the only source of truth, so a record another replica wrote
// (a fleet's PostgreSQL store) is decoded anew.

// memoChannels bounds the channels a memo keeps: past it, one is
// forgotten for each new one.
const memoChannels = 4096

// channelMemo is a bounded memo of decoded channel records, safe for
// concurrent use.
type channelMemo struct {
	mu sync.Mutex
	m  map[common.Hash]memoized
}

// memoized is a channel's record and its decoding.
type memoized struct {
	raw []byte
	c   Channel
}

// decode returns the decoding of b, the record of channel id as read.
func (m *channelMemo) decode(id common.Hash, b []byte) (Channel, error) {
	m.mu.Lock()
	e, ok := m.m[id]
	m.mu.Unlock()
	if ok && bytes.Equal(e.raw, b) {
		return e.c.clone(), nil
	}
	c, err := decodeChannel(b)
	if err == nil {
		m.keep(id, b, c)
	}
	return c, err
}

// encode returns c's record, and keeps it as channel id's last.
func (m *channelMemo) encode(id common.Hash, c Channel) ([]byte, error) {
	b, err := json.Marshal(c)
	if err == nil {
		m.keep(id, b, c)
	}
	return b, err
}

// keep records that b, a copy of which it keeps, decodes to c, of which
// it keeps a deep copy. The copy's times carry no monotonic clock reading,
// as a decoded record's do not: a record handed out from the memo compares
// as the one decoded from its bytes would.
func (m *channelMemo) keep(id common.Hash, b []byte, c Channel) {
	e := memoized{raw: bytes.Clone(b), c: c.clone()}
	e.c.SyncedAt, e.c.ClaimedAt, e.c.LastRequest = e.c.SyncedAt.Round(0), e.c.ClaimedAt.Round(0), e.c.LastRequest.Round(0)
	if h := e.c.Hold; h != nil {
		h.Until, h.Began = h.Until.Round(0), h.Began.Round(0)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = make(map[common.Hash]memoized)
	}
	if _, ok := m.m[id]; !ok && len(m.m) >= memoChannels {
		for k := range m.m { // any one: a miss costs only a decode
			delete(m.m, k)
			break
		}
	}
	m.m[id] = e
}

// forget drops channel id's record, deleted from the store.
func (m *channelMemo) forget(id common.Hash) {
	m.mu.Lock()
	delete(m.m, id)
	m.mu.Unlock()
}

// clone is a deep copy of c: nothing of it is shared with c.
func (c Channel) clone() Channel {
	if c.Config != nil {
		cfg := *c.Config
		c.Config = &cfg
	}
	c.Voucher = c.Voucher.clone()
	c.Uncommitted = c.Uncommitted.clone()
	c.Charged, c.Balance, c.TotalClaimed = cloneInt(c.Charged), cloneInt(c.Balance), cloneInt(c.TotalClaimed)
	c.RefundNonce, c.Swept = cloneInt(c.RefundNonce), cloneInt(c.Swept)
	if c.Hold != nil {
		h := *c.Hold
		h.Voucher = *h.Voucher.clone()
		h.Price = cloneInt(h.Price)
		c.Hold = &h
	}
	return c
}

// clone is a deep copy of v, nil if v is.
func (v *Voucher) clone() *Voucher {
	if v == nil {
		return nil
	}
	return &Voucher{Max: cloneInt(v.Max), Signature: slices.Clone(v.Signature)}
}

// cloneInt is a copy of x, nil if x is.
func cloneInt(x *big.Int) *big.Int {
	if x == nil {
		return nil
	}
	return new(big.Int).Set(x)
}

package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// OutboxBucket names the key-value space of the outbox: the final outcomes
// of the settlements whose Record.Notify is set, written by Finish in the
// same commit as the record's final state, so that an outcome the
// merchant is told of (a webhook event) is never lost between the
// settlement and its delivery: not to a crash, a reload, or a replica that
// dies. Package webhook reads the entries, hands them to its senders and
// deletes them.
const OutboxBucket = "x402_outbox"

// OutboxKey is the key of rec's entry in the outbox: its Updated time
// (nanoseconds, big-endian, so entries list in the order they were
// finished) and its replay key. A record is finished once, so it has one
// entry.
func OutboxKey(rec *Record) []byte {
	k := make([]byte, 8, 8+len(rec.Key))
	binary.BigEndian.PutUint64(k, uint64(rec.Updated.UnixNano()))
	return append(k, rec.Key[:]...)
}

// DecodeOutbox reads an outbox entry's value: the final record it tells
// of.
func DecodeOutbox(v []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, fmt.Errorf("decoding an outbox entry: %w", err)
	}
	if !r.State.Final() {
		return nil, fmt.Errorf("decoding an outbox entry: state %q is not final", r.State)
	}
	return &r, nil
}

// OutboxEntry is what Finish writes to the outbox for rec, a record in
// its final state: the key and value (the record as stored, without its
// signed transaction), or a nil key if rec is not to be told (Notify
// unset). Every backend writes it in the transaction that finishes rec.
func OutboxEntry(rec *Record) (key, value []byte, err error) {
	if !rec.Notify || !rec.State.Final() {
		return nil, nil, nil
	}
	v, err := json.Marshal(Trimmed(rec))
	if err != nil {
		return nil, nil, err
	}
	return OutboxKey(rec), v, nil
}

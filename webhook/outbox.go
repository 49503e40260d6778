package webhook

import (
	"bytes"
	"errors"
	"net/url"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// EventOf is the event a final settlement record tells: settled, or
// failed with its reason code. Every field comes from the record, which
// the facilitator wrote from the verified payment and the chain: nothing
// the payer wrote goes into it unchecked. Its ID is derived from the
// payment's replay key, so it is the same on every replica and every
// attempt, and two payments settled in one transaction (a batch) are two
// events.
func EventOf(rec *store.Record) Event {
	typ := EventSettled
	if rec.State != store.StateSettled {
		typ = EventFailed
	}
	ev := Event{
		ID: EventID(typ, rec.Network, rec.Key.Hex()), Type: typ, Time: rec.Updated.UTC(),
		Network: rec.Network, Resource: resourceOf(rec.Resource), Scheme: rec.Scheme,
		Payer: rec.Payer.Hex(), PayTo: rec.PayTo.Hex(), Asset: rec.Asset.Hex(),
	}
	if rec.Amount != nil {
		ev.Amount = rec.Amount.String()
	}
	if rec.TxHash != (common.Hash{}) {
		ev.Transaction = rec.TxHash.Hex()
	}
	if typ == EventFailed && rec.Response != nil {
		ev.Error = string(rec.Response.ErrorCode)
	}
	return ev
}

// resourceOf is the resource URL of an event: the paywall's, without its
// query and fragment (the payer chose them), or "" if it is not an http
// or https URL.
func resourceOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	return u.String()
}

// maxDispatch bounds the outbox entries one Dispatch reads.
const maxDispatch = 256

// errEnough ends a walk of the outbox at maxDispatch entries.
var errEnough = errors.New("enough")

// Dispatch hands the events of outbox (a store's store.OutboxBucket, where
// the store writes each final outcome of a settlement the merchant is told
// of, in the commit that finishes it) to the senders, oldest first, and
// removes each entry once every sender kept its delivery: the entry
// outlives a crash, a reload or a receiver's outage until then. A sender
// keeps one delivery per event (Enqueue), so an entry dispatched twice
// (by two replicas at once, or again after a crash between the two
// steps) is delivered once per webhook. An entry that does not decode is
// removed and logged. It reports how many entries it removed; at most 256
// are read at a time, and the caller calls it again while it removes
// some.
func Dispatch(outbox store.KV, senders []*Sender, log *zap.Logger) (int, error) {
	if log == nil {
		log = zap.NewNop()
	}
	type entry struct{ key, value []byte }
	var entries []entry
	err := outbox.ForEach(func(k, v []byte) error {
		if len(entries) == maxDispatch {
			return errEnough
		}
		entries = append(entries, entry{bytes.Clone(k), bytes.Clone(v)})
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return 0, err
	}
	done := 0
	for _, e := range entries {
		rec, err := store.DecodeOutbox(e.value)
		if err != nil {
			log.Error("dropping an outbox entry that does not decode", zap.Binary("key", e.key), zap.Error(err))
		} else if !enqueue(senders, EventOf(rec), log) {
			continue // kept for the next round
		}
		if err := outbox.Delete(e.key); err != nil {
			return done, err
		}
		done++
	}
	return done, nil
}

// enqueue keeps ev's delivery with every sender, and reports whether all
// of them kept it.
func enqueue(senders []*Sender, ev Event, log *zap.Logger) bool {
	ok := true
	for _, s := range senders {
		if err := s.Enqueue(ev); err != nil {
			log.Warn("keeping a webhook delivery; the event stays in the outbox", zap.String("event", ev.ID), zap.Error(err))
			ok = false
		}
	}
	return ok
}

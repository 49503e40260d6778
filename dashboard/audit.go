package dashboard

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// AuditStore keeps the audit log: one entry per key, in key order. The
// store's key-value spaces (store.KV) have these methods.
type AuditStore interface {
	Put(key, value []byte) error
	ForEach(fn func(key, value []byte) error) error
}

// Entry is one line of the audit log: who did what, to what, and when.
// Entries are written after the action succeeded, and never hold a key's
// secret.
type Entry struct {
	// ID orders entries; it starts with the time, so newer IDs sort later.
	ID string `json:"id"`
	// Time is when the action was done.
	Time time.Time `json:"time"`
	// Actor is who did it: the dashboard's authenticated user, or
	// "admin-api" with the caller's address, or "cli".
	Actor string `json:"actor"`
	// Action is what was done, such as "key.create" or "project.topup".
	Action string `json:"action"`
	// Target is what it was done to: a project's name or a key's ID.
	Target string `json:"target"`
	// Detail says more, such as the new limits or the amount topped up.
	Detail string `json:"detail,omitempty"`
}

// Actions of the audit log.
const (
	ActionProjectCreate = "project.create"
	ActionProjectLimits = "project.limits"
	ActionProjectTopUp  = "project.topup"
	ActionKeyCreate     = "key.create"
	ActionKeyRotate     = "key.rotate"
	ActionKeyDisable    = "key.disable"
)

// audit is the audit log over an AuditStore.
type audit struct {
	store AuditStore
	now   func() time.Time
}

// maxField bounds an entry's text fields, so a caller cannot grow the log
// without limit through a long name or note.
const maxField = 256

func clip(s string) string {
	if len(s) <= maxField {
		return s
	}
	return strings.ToValidUTF8(s[:maxField], "") + "…"
}

// add appends an entry.
func (a *audit) add(actor, action, target, detail string) (Entry, error) {
	now := a.now().UTC()
	var id [16]byte
	binary.BigEndian.PutUint64(id[:8], uint64(now.UnixNano()))
	if _, err := rand.Read(id[8:]); err != nil {
		return Entry{}, err
	}
	e := Entry{ID: hex.EncodeToString(id[:]), Time: now, Actor: clip(actor), Action: action, Target: clip(target), Detail: clip(detail)}
	raw, err := json.Marshal(e)
	if err != nil {
		return Entry{}, err
	}
	if err := a.store.Put([]byte(e.ID), raw); err != nil {
		return Entry{}, fmt.Errorf("writing the audit log: %w", err)
	}
	return e, nil
}

// errCursor is a malformed page cursor.
var errCursor = errors.New("malformed cursor")

// list returns up to limit entries older than the entry before (all if
// before is empty), newest first, and the cursor of the next page.
func (a *audit) list(before string, limit int) ([]Entry, string, error) {
	if before != "" {
		if _, err := hex.DecodeString(before); err != nil || len(before) != 32 {
			return nil, "", errCursor
		}
	}
	var all []Entry
	err := a.store.ForEach(func(k, v []byte) error {
		if before != "" && string(k) >= before {
			return nil
		}
		var e Entry
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("decoding an audit entry: %w", err)
		}
		all = append(all, e)
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	slices.Reverse(all)
	next := ""
	if len(all) > limit {
		all = all[:limit]
		next = all[limit-1].ID
	}
	return all, next, nil
}

// Record writes an entry to the audit log in st, for a change made without
// a Dashboard, such as by `caddy x402 key` on a stopped server's store.
func Record(st AuditStore, actor, action, target, detail string) error {
	_, err := (&audit{store: st, now: time.Now}).add(actor, action, target, detail)
	return err
}

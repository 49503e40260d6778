// Package webhook tells a merchant's own server about payments, at least
// once: each settled or failed payment is an Event, POSTed as JSON to the
// merchant's URL with an HMAC-SHA256 signature over a timestamp and the
// body, retried with exponential backoff for a bounded number of
// attempts. The store writes each outcome to its outbox in the commit
// that finishes the settlement (store.OutboxBucket); Dispatch hands the
// outbox to the Senders, which keep one Delivery per event and webhook in
// the store, so an event survives a crash, a reload or a receiver's
// outage, and a lease in the store makes one replica of a fleet attempt
// each delivery at a time. Receivers deduplicate on the event's id.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the request header that carries the signature:
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">".
const SignatureHeader = "X402-Webhook-Signature"

// DefaultTolerance is how far from now a receiver accepts a signature's
// timestamp, to refuse replays of an old delivery.
const DefaultTolerance = 5 * time.Minute

// Sign returns the signature header's value for body, sent at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Errors of Verify.
var (
	ErrMalformedSignature = errors.New("webhook: malformed signature header")
	ErrBadSignature       = errors.New("webhook: signature does not match")
	ErrStaleSignature     = errors.New("webhook: signature timestamp outside the tolerance")
)

// maxHeader bounds the signature header Verify reads.
const maxHeader = 1024

// Verify checks a signature header against body, as a receiver does: the
// MAC must match, and its timestamp be within tolerance of now (a replay
// of an older delivery is refused).
func Verify(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	if len(header) > maxHeader {
		return ErrMalformedSignature
	}
	var ts string
	var sigs [][]byte
	for part := range strings.SplitSeq(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return ErrMalformedSignature
		}
		switch k {
		case "t":
			if ts != "" {
				return ErrMalformedSignature
			}
			ts = v
		case "v1":
			s, err := hex.DecodeString(v)
			if err != nil || len(s) != sha256.Size {
				return ErrMalformedSignature
			}
			sigs = append(sigs, s)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrMalformedSignature
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w (%s)", ErrStaleSignature, d.Round(time.Second))
	}
	want := mac(secret, ts, body)
	for _, s := range sigs {
		if hmac.Equal(s, want) {
			return nil
		}
	}
	return ErrBadSignature
}

package x402

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// HeaderIdempotencyKey names the header a facilitator client sends with
// POST /settle so that the facilitator can tell the settle that owns a
// payment (and its own retries, which repeat the key) from any other
// request presenting the same payment. See [WithIdempotencyKey].
const HeaderIdempotencyKey = "Idempotency-Key"

// MaxIdempotencyKeySize bounds an idempotency key, in bytes.
const MaxIdempotencyKeySize = 255

type idempotencyKeyCtx struct{}

// WithIdempotencyKey returns ctx carrying the idempotency key of a settle:
// a value the caller picks at random for one paid request and repeats only
// when it retries that same settle. A facilitator hands a settled payment's
// receipt to the settle that got it first and to its retries, and refuses
// it (replay) to any other: one payment pays for one response.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}

// IdempotencyKey returns the idempotency key ctx carries, or "".
func IdempotencyKey(ctx context.Context) string {
	k, _ := ctx.Value(idempotencyKeyCtx{}).(string)
	return k
}

// PaymentID is a payment's identity: the same for every encoding of one
// signed payment (re-indented JSON, other letter case, another v of the
// same signature), and different for different payments. It is what the
// merchant's gate locks while a payment is in use, so that one payment
// cannot be in use by two requests at once however it is re-serialized.
//
// For exact it is the token's one-time nonce of the payer, (network, asset,
// from, nonce), as EIP-3009 allows each once; for exact or upto through
// Permit2, Permit2's one-time nonce of the payer, (network, from, nonce).
// For aa-native it is the
// settlement's request hash on its network, which the settlement contract
// settles once. The scheme payload is decoded leniently; a payload that
// lacks these fields is an error (the facilitator refuses it anyway).
func PaymentID(p *PaymentPayload) ([32]byte, error) {
	var parts []string
	switch p.Accepted.Scheme {
	case SchemeExact, SchemeUpto:
		if id, ok, err := permit2ID(p); ok {
			return id, err
		}
		if p.Accepted.Scheme == SchemeUpto {
			return [32]byte{}, errors.New("upto payload: want a permit2Authorization")
		}
		ex, err := ParseExactPayload(p.Payload)
		if err != nil {
			return [32]byte{}, fmt.Errorf("exact payload: %w", err)
		}
		asset, err1 := ParseAddress(p.Accepted.Asset)
		from, err2 := ParseAddress(ex.Authorization.From)
		nonce, err3 := canonicalHex(ex.Authorization.Nonce)
		if err := errors.Join(err1, err2, err3); err != nil {
			return [32]byte{}, fmt.Errorf("exact payload: %w", err)
		}
		parts = []string{SchemeExact, p.Accepted.Network, hex.EncodeToString(asset[:]), hex.EncodeToString(from[:]), nonce}
	case SchemeAANative:
		var aa AANativePayload
		if err := json.Unmarshal(p.Payload, &aa); err != nil {
			return [32]byte{}, fmt.Errorf("aa-native payload: %w", err)
		}
		rh, err := canonicalHex(aa.SettlementCallSpec.RequestHash)
		if err != nil {
			return [32]byte{}, fmt.Errorf("aa-native payload: requestHash: %w", err)
		}
		parts = []string{SchemeAANative, p.Accepted.Network, rh}
	default:
		return [32]byte{}, fmt.Errorf("scheme %q has no payment identity", p.Accepted.Scheme)
	}
	return sha256.Sum256([]byte(strings.Join(parts, "\x00"))), nil
}

// permit2ID is the identity of a payment through Permit2 (exact's, or
// upto's): Permit2's one-time nonce of the payer on its network, (network,
// Permit2, from, nonce), as Permit2 uses each nonce of an owner once
// whatever the token, amount or witness. ok is false when the payload is
// not a Permit2 payment.
func permit2ID(p *PaymentPayload) (id [32]byte, ok bool, err error) {
	var wire struct {
		Authorization *struct {
			From  string `json:"from"`
			Nonce string `json:"nonce"`
		} `json:"permit2Authorization"`
	}
	if json.Unmarshal(p.Payload, &wire) != nil || wire.Authorization == nil {
		return id, false, nil
	}
	from, err1 := ParseAddress(wire.Authorization.From)
	nonce, err2 := ParseAmount(wire.Authorization.Nonce)
	if err := errors.Join(err1, err2); err != nil {
		return id, true, fmt.Errorf("permit2 payload: %w", err)
	}
	parts := []string{"permit2", p.Accepted.Network, hex.EncodeToString(from[:]), nonce.Text(16)}
	return sha256.Sum256([]byte(strings.Join(parts, "\x00"))), true, nil
}

// canonicalHex is a 0x hex value as 64 lowercase digits (left-padded), so
// that one 32-byte value has one form.
func canonicalHex(s string) (string, error) {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok {
		h, ok = strings.CutPrefix(s, "0X")
	}
	if !ok || len(h) == 0 || len(h) > 64 {
		return "", fmt.Errorf("%q: want 0x and up to 64 hex digits", s)
	}
	h = strings.ToLower(h)
	if _, err := hex.DecodeString(strings.Repeat("0", len(h)%2) + h); err != nil {
		return "", fmt.Errorf("%q: want 0x and hex digits", s)
	}
	return strings.Repeat("0", 64-len(h)) + h, nil
}

// Permit2Deadline is the deadline of a payment through Permit2 (exact's
// or upto's): after it, Permit2 refuses the transfer, so its settlement
// must be mined before. ok is false when the payload is not a Permit2
// payment or its deadline does not parse.
func Permit2Deadline(p *PaymentPayload) (deadline time.Time, ok bool) {
	var wire struct {
		Authorization *struct {
			Deadline string `json:"deadline"`
		} `json:"permit2Authorization"`
	}
	if json.Unmarshal(p.Payload, &wire) != nil || wire.Authorization == nil {
		return time.Time{}, false
	}
	v, err := ParseAmount(wire.Authorization.Deadline)
	if err != nil || !v.IsInt64() {
		return time.Time{}, false
	}
	return time.Unix(v.Int64(), 0), true
}

package x402

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxHeaderSize is the largest x402 header value, in bytes, that is encoded
// or decoded. Larger values get a [*HeaderTooLargeError].
const MaxHeaderSize = 16 << 10

// ErrMalformedHeader is wrapped by every decoding failure other than size:
// the value is not base64, not JSON, or not the expected object.
var ErrMalformedHeader = errors.New("x402: malformed header")

// HeaderTooLargeError reports a header value over [MaxHeaderSize].
type HeaderTooLargeError struct {
	// Size is the length of the refused value in bytes.
	Size int
}

func (e *HeaderTooLargeError) Error() string {
	return fmt.Sprintf("x402: header value is %d bytes, over the %d-byte limit", e.Size, MaxHeaderSize)
}

// EncodeHeader encodes v as an x402 header value: JSON in standard base64
// with padding, the alphabet upstream clients decode (they use atob, which
// refuses base64url).
func EncodeHeader(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("x402: encoding header: %w", err)
	}
	s := base64.StdEncoding.EncodeToString(raw)
	if len(s) > MaxHeaderSize {
		return "", &HeaderTooLargeError{Size: len(s)}
	}
	return s, nil
}

// DecodeHeader decodes an x402 header value into v. It reads standard or URL
// base64, padded or not, as the spec (base64url) and upstream clients
// (standard) write it. Unknown JSON fields are ignored.
func DecodeHeader(value string, v any) error {
	if len(value) > MaxHeaderSize {
		return &HeaderTooLargeError{Size: len(value)}
	}
	raw, err := decodeBase64(strings.TrimSpace(value))
	if err != nil {
		return fmt.Errorf("%w: not base64: %v", ErrMalformedHeader, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%w: not JSON of the expected shape: %v", ErrMalformedHeader, err)
	}
	return nil
}

// decodeBase64 accepts both alphabets, with or without padding, but not a
// mix of the two alphabets.
func decodeBase64(s string) ([]byte, error) {
	if s == "" {
		return nil, errors.New("empty value")
	}
	s = strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// DecodePaymentPayload decodes and validates a PAYMENT-SIGNATURE value.
func DecodePaymentPayload(value string) (*PaymentPayload, error) {
	var p PaymentPayload
	if err := DecodeHeader(value, &p); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformedHeader, err)
	}
	return &p, nil
}

// DecodePaymentRequired decodes and validates a PAYMENT-REQUIRED value.
func DecodePaymentRequired(value string) (*PaymentRequired, error) {
	var p PaymentRequired
	if err := DecodeHeader(value, &p); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformedHeader, err)
	}
	return &p, nil
}

// DecodePaymentResponse decodes a PAYMENT-RESPONSE value: ours, or an
// upstream server's. Upstream's servers (@x402/express and the others built
// on @x402/core) send the facilitator's settle answer without x402Version
// and name the hash "transaction": {success, payer, transaction, network,
// amount}. A value without a version is read as this version, and the
// answer's version is then [Version]; any other version is refused. A
// value must name its network (upstream requires it too), so that an empty
// or unrelated JSON object is refused as malformed.
func DecodePaymentResponse(value string) (*SettleResponse, error) {
	var r SettleResponse
	if err := DecodeHeader(value, &r); err != nil {
		return nil, err
	}
	switch r.X402Version {
	case 0:
		r.X402Version = Version
	case Version:
	default:
		return nil, fmt.Errorf("%w: x402Version is %d, want %d", ErrMalformedHeader, r.X402Version, Version)
	}
	if r.Network == "" {
		return nil, fmt.Errorf("%w: no network", ErrMalformedHeader)
	}
	return &r, nil
}

package x402

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// maxUint256 is 2^256 - 1, the largest amount an ERC-20 can hold.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// ParseAddress parses a 0x-prefixed, 40-hex-digit address in any letter
// case. It does not check an EIP-55 checksum: upstream clients send both
// checksummed and lowercase addresses. It allocates nothing unless the
// address is malformed (a verification parses a dozen).
func ParseAddress(s string) ([20]byte, error) {
	var a [20]byte
	if len(s) != 42 || !strings.HasPrefix(s, "0x") {
		return a, fmt.Errorf("address %q: want 0x and 40 hex digits", s)
	}
	for i := range a {
		hi, ok := fromHex(s[2+2*i])
		lo, ok2 := fromHex(s[3+2*i])
		if !ok || !ok2 {
			return a, fmt.Errorf("address %q: want 0x and 40 hex digits", s)
		}
		a[i] = hi<<4 | lo
	}
	return a, nil
}

// fromHex is the value of the hex digit c.
func fromHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// maxUint256Decimal is maxUint256 in decimal: 78 digits.
var maxUint256Decimal = maxUint256.String()

// ParseAmount parses an amount in atomic units: a decimal integer without
// sign, decimal point or leading zeros, at most 2^256-1.
func ParseAmount(s string) (*big.Int, error) {
	if err := checkAmount(s); err != nil {
		return nil, err
	}
	if len(s) <= 19 {
		// Any 19 digits fit a uint64: one allocation, where SetString
		// takes a reader and a scan (every amount a verify reads).
		n, _ := strconv.ParseUint(s, 10, 64)
		return new(big.Int).SetUint64(n), nil
	}
	v, _ := new(big.Int).SetString(s, 10)
	return v, nil
}

// checkAmount is ParseAmount's check of s, without making the number. An
// amount has one spelling (no sign, no leading zeros), so two amounts that
// pass it are equal exactly when their strings are.
func checkAmount(s string) error {
	if s == "" || len(s) > 78 {
		return fmt.Errorf("amount %q: want a decimal integer of atomic units", s)
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return fmt.Errorf("amount %q: want a decimal integer of atomic units (no sign or decimal point)", s)
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return fmt.Errorf("amount %q: leading zeros are not allowed", s)
	}
	if len(s) == len(maxUint256Decimal) && s > maxUint256Decimal {
		return fmt.Errorf("amount %q: larger than 2^256-1", s)
	}
	return nil
}

// SameAmount reports whether a and b are amounts ParseAmount takes and
// equal, without making either number.
func SameAmount(a, b string) bool {
	return a == b && checkAmount(a) == nil
}

// Validate checks that every field of the requirements is present and well
// formed: a scheme, an eip155 network, a positive amount, and addresses for
// asset and payTo. It does not check that the values are acceptable to a
// particular facilitator.
func (r *PaymentRequirements) Validate() error {
	var errs []error
	if r.Scheme == "" {
		errs = append(errs, errors.New("scheme is missing"))
	}
	if _, err := ParseNetwork(r.Network); err != nil {
		errs = append(errs, err)
	}
	if err := checkAmount(r.Amount); err != nil {
		errs = append(errs, err)
	} else if r.Amount == "0" && r.Scheme != SchemeUpto {
		// An upto settle's requirements carry what is owed, which may be
		// nothing (its payment's accepted offer has the maximum).
		errs = append(errs, errors.New("amount must be greater than zero"))
	}
	if _, err := ParseAddress(r.Asset); err != nil {
		errs = append(errs, fmt.Errorf("asset: %w", err))
	}
	if _, err := ParseAddress(r.PayTo); err != nil {
		errs = append(errs, fmt.Errorf("payTo: %w", err))
	}
	if r.MaxTimeoutSeconds < 0 {
		errs = append(errs, errors.New("maxTimeoutSeconds must not be negative"))
	}
	return errors.Join(errs...)
}

// Validate checks the payload's version, its accepted requirements, and that
// its scheme payload is a JSON object. The scheme payload's own fields are
// checked by the scheme.
func (p *PaymentPayload) Validate() error {
	if p.X402Version != Version {
		return fmt.Errorf("x402Version is %d, want %d", p.X402Version, Version)
	}
	if err := p.Accepted.Validate(); err != nil {
		return fmt.Errorf("accepted: %w", err)
	}
	if t := bytes.TrimSpace(p.Payload); len(t) == 0 || t[0] != '{' {
		return errors.New("payload must be a JSON object")
	}
	return nil
}

// Validate checks a 402 challenge: the version and at least one well-formed
// offer.
func (p *PaymentRequired) Validate() error {
	if p.X402Version != Version {
		return fmt.Errorf("x402Version is %d, want %d", p.X402Version, Version)
	}
	if len(p.Accepts) == 0 {
		return errors.New("accepts is empty")
	}
	for i := range p.Accepts {
		if err := p.Accepts[i].Validate(); err != nil {
			return fmt.Errorf("accepts[%d]: %w", i, err)
		}
	}
	return nil
}

// Validate checks a verify or settle request: a well-formed payment payload
// and well-formed requirements. A request that fails is malformed_request.
func (r *VerifyRequest) Validate() error {
	if r.X402Version != 0 && r.X402Version != Version {
		return fmt.Errorf("x402Version is %d, want %d", r.X402Version, Version)
	}
	if err := r.PaymentPayload.Validate(); err != nil {
		return fmt.Errorf("paymentPayload: %w", err)
	}
	if err := r.PaymentRequirements.Validate(); err != nil {
		return fmt.Errorf("paymentRequirements: %w", err)
	}
	return nil
}

package caddymodule

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/dustin/go-humanize"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// UptoConfig makes a route's offers x402 `upto`: the route's price is the
// maximum a payer signs for (through Permit2), and each response is
// charged for what it used, at Price per unit, never above it. See
// docs/upto.md.
type UptoConfig struct {
	// Per is what is counted: byte (body bytes delivered), second (whole
	// seconds, begun, of the response), or header (the whole number the
	// upstream sets in Header, which the client never sees).
	Per string `json:"per"`
	// Header is the upstream's usage header, with per header.
	Header string `json:"header,omitempty"`
	// Price is the price of one unit, in whole tokens (such as 0.000001),
	// at least one atomic unit of every asset of the route.
	Price string `json:"price"`
	// Hold is the largest response held until it is settled, so that its
	// PAYMENT-RESPONSE goes in a header, which fetch clients read (a
	// longer or flushed response streams, with the settlement in a
	// trailer), such as 64KiB or 0 for none. Default: 64KiB.
	Hold string `json:"hold,omitempty"`
}

// defaultHold is the default of UptoConfig.Hold, in bytes.
const defaultHold = 64 << 10

// parseUpto reads `upto per_byte <price>`, `upto per_second <price>` or
// `upto usage_header <name> <price>`, each with an optional block
// `{ hold <size> }`.
func (h *Handler) parseUpto(d *caddyfile.Dispenser) error {
	args := d.RemainingArgs()
	u := new(UptoConfig)
	switch {
	case len(args) == 2 && args[0] == "per_byte":
		u.Per, u.Price = paywall.UsageBytes, args[1]
	case len(args) == 2 && args[0] == "per_second":
		u.Per, u.Price = paywall.UsageSeconds, args[1]
	case len(args) == 3 && args[0] == "usage_header":
		u.Per, u.Header, u.Price = paywall.UsageHeader, args[1], args[2]
	default:
		return d.Errf("upto takes per_byte <price>, per_second <price> or usage_header <name> <price>")
	}
	h.Upto = u
	return parseBlock(d, d.Nesting(), "x402 upto option", map[string]option{
		"hold": stringOption(&u.Hold),
	})
}

// hold is Hold in bytes.
func (u *UptoConfig) hold() (int, error) {
	if u.Hold == "" {
		return defaultHold, nil
	}
	n, err := humanize.ParseBytes(u.Hold)
	if err != nil || n > 16<<20 {
		return 0, fmt.Errorf("x402 upto hold %q: want a size of at most 16MiB, such as 64KiB, or 0", u.Hold)
	}
	return int(n), nil
}

// validate checks an upto route: a fixed maximum, no other scheme.
func (u *UptoConfig) validate(h *Handler) error {
	var errs []error
	if h.perRequest() || h.PriceService != nil {
		errs = append(errs, errors.New("x402 upto needs a fixed price, the maximum a payer signs for"))
	}
	if slices := h.Schemes; len(slices) > 0 && (len(slices) != 1 || slices[0] != x402.SchemeUpto) {
		errs = append(errs, errors.New("x402 upto offers the upto scheme only; leave schemes out"))
	}
	if h.SettleBefore {
		errs = append(errs, errors.New("x402 upto settles after the response, by what it used; settle_before does not apply"))
	}
	if h.Access != nil {
		errs = append(errs, errors.New("x402 upto buys one response; access windows need a fixed price per payment"))
	}
	switch u.Per {
	case paywall.UsageBytes, paywall.UsageSeconds:
	case paywall.UsageHeader:
		if strings.TrimSpace(u.Header) == "" {
			errs = append(errs, errors.New("x402 upto usage_header needs the header's name"))
		}
	default:
		errs = append(errs, fmt.Errorf("x402 upto per %q: want byte, second or header", u.Per))
	}
	if _, err := u.hold(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// usage is the paywall's meter of an upto route: the price of a unit in
// each asset the route offers.
func (u *UptoConfig) usage(offers []x402.PaymentRequirements, decimals map[string]uint8, usd map[string]bool) (*paywall.Usage, error) {
	hold, err := u.hold()
	if err != nil {
		return nil, err
	}
	us := &paywall.Usage{Per: u.Per, Header: u.Header, Prices: map[string]*big.Int{}, Hold: hold}
	for _, o := range offers {
		asset := strings.ToLower(o.Asset)
		amount, err := paywall.ParseAssetPrice(u.Price, decimals[asset], usd[asset])
		if err != nil {
			return nil, fmt.Errorf("x402 upto price %q in %s: %w", u.Price, o.Asset, err)
		}
		v, _ := x402.ParseAmount(amount)
		if v == nil || v.Sign() == 0 {
			return nil, fmt.Errorf("x402 upto price %q is less than one atomic unit of %s", u.Price, o.Asset)
		}
		us.Prices[asset] = v
	}
	return us, nil
}

// settler is the address the chain's facilitator settles from: the one an
// upto payer names in its witness.
func (c *sharedChain) settler() common.Address {
	return crypto.PubkeyToAddress(c.plan.settler.PublicKey)
}

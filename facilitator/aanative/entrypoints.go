package aanative

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The EntryPoints settled on. A route offers aa-native once per EntryPoint;
// the offer's extra names the EntryPoint and, but for the first's, its
// version. A payment is for the EntryPoint its requirements'
// extra.entryPoint names (the first when it names none): its userOp then
// takes that version's wire form, the account is that version's
// factory's SimpleAccount, the signature is over that version's
// userOpHash, the paymaster is that version's, and simulateValidation runs
// as that version runs it. The settlement call and every other check are
// the same for all.

// EntryPointConfig is one EntryPoint a Scheme settles on, with the
// contracts that serve it.
type EntryPointConfig struct {
	// EntryPoint is the EntryPoint, of any version.
	EntryPoint entrypoint.EntryPoint
	// Factory is its canonical SimpleAccountFactory; Paymaster is the
	// VerifyingPaymaster whose sponsorship is required.
	Factory, Paymaster common.Address
	// TokenPaymaster, if set, is its token paymaster (gas paid in an
	// ERC-20), whose sponsorship is accepted too. See gastoken.go.
	TokenPaymaster common.Address
	// Delegate, if set on an EntryPoint that takes EIP-7702 senders
	// (v0.8), is the account code (Simple7702Account) an EOA may delegate
	// to and pay from; zero refuses EIP-7702 senders. See eip7702.go.
	Delegate common.Address
}

// entryPoints is c's EntryPoints, or, without them, the one v0.6
// EntryPoint its single-EntryPoint fields name.
func (c *Config) entryPoints() []EntryPointConfig {
	if len(c.EntryPoints) > 0 {
		return c.EntryPoints
	}
	if c.EntryPoint == (common.Address{}) {
		return nil
	}
	return []EntryPointConfig{{EntryPoint: entrypoint.NewV06(c.EntryPoint), Factory: c.Factory, Paymaster: c.Paymaster, TokenPaymaster: c.TokenPaymaster}}
}

// validateEntryPoints reports what is wrong with a list of EntryPoints.
func validateEntryPoints(eps []EntryPointConfig) []error {
	var errs []error
	seen := map[common.Address]bool{}
	for i, d := range eps {
		if d.EntryPoint == nil {
			errs = append(errs, fmt.Errorf("entry point %d is missing", i))
			continue
		}
		if d.Factory == (common.Address{}) || d.Paymaster == (common.Address{}) {
			errs = append(errs, fmt.Errorf("entry point %s (v%s) needs its factory and paymaster addresses", d.EntryPoint.Address(), d.EntryPoint.Version()))
		}
		if seen[d.EntryPoint.Address()] {
			errs = append(errs, fmt.Errorf("entry point %s is listed twice", d.EntryPoint.Address()))
		}
		seen[d.EntryPoint.Address()] = true
	}
	if len(eps) == 0 {
		errs = append(errs, errors.New("no entry point is configured"))
	}
	return errs
}

// EntryPoints are the EntryPoints the scheme settles on, in order.
func (s *Scheme) EntryPoints() []entrypoint.EntryPoint {
	out := make([]entrypoint.EntryPoint, len(s.eps))
	for i, d := range s.eps {
		out[i] = d.EntryPoint
	}
	return out
}

// Extras are the extras of the aa-native offers, one per EntryPoint: the
// first is Extra's; the others name their version.
func (s *Scheme) Extras(sponsorURL string) []*x402.Extra {
	out := make([]*x402.Extra, len(s.eps))
	for i, d := range s.eps {
		out[i] = &x402.Extra{EntryPoint: d.EntryPoint.Address().Hex(), Factory: d.Factory.Hex(), Settlement: s.cfg.Settlement.Hex(), SponsorURL: sponsorURL}
		if i > 0 {
			out[i].EntryPointVersion = d.EntryPoint.Version()
		}
	}
	return out
}

// entryPointOf is the EntryPoint req's extra.entryPoint names, the first
// when it names none the scheme settles on.
func (s *Scheme) entryPointOf(req *x402.PaymentRequirements) *EntryPointConfig {
	if req != nil && req.Extra != nil && common.IsHexAddress(req.Extra.EntryPoint) {
		if d := s.at(common.HexToAddress(req.Extra.EntryPoint)); d != nil {
			return d
		}
	}
	return &s.eps[0]
}

// at is the EntryPoint at address, or nil.
func (s *Scheme) at(address common.Address) *EntryPointConfig {
	for i := range s.eps {
		if s.eps[i].EntryPoint.Address() == address {
			return &s.eps[i]
		}
	}
	return nil
}

// ParseCallDataAt is ParseCallData for the SimpleAccount of the EntryPoint
// at entryPoint; an EntryPoint the scheme does not settle on is an error.
func (s *Scheme) ParseCallDataAt(entryPoint common.Address, callData []byte) (*Settlement, error) {
	d := s.at(entryPoint)
	if d == nil {
		return nil, fmt.Errorf("entry point %s is not one this facilitator settles on", entryPoint)
	}
	return s.parseCallData(d.EntryPoint, callData)
}

// EntryPointFor is the EntryPoint at address, or the first when the scheme
// settles on none there: the default offer's.
func (s *Scheme) EntryPointFor(address common.Address) entrypoint.EntryPoint {
	if d := s.at(address); d != nil {
		return d.EntryPoint
	}
	return s.eps[0].EntryPoint
}

// Serves reports whether the scheme settles on the EntryPoint at address.
func (s *Scheme) Serves(address common.Address) bool { return s.at(address) != nil }

// foreignFields names the fields of payload's userOp that only other
// EntryPoint versions than ep's have.
func foreignFields(ep entrypoint.EntryPoint, payload json.RawMessage) []string {
	var shape struct {
		UserOp json.RawMessage `json:"userOp"`
	}
	if json.Unmarshal(payload, &shape) != nil {
		return nil
	}
	return ep.ForeignFields(shape.UserOp)
}

package paymaster

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// The EntryPoints a Service sponsors on. Every method that names an
// entryPoint (pm_sponsor_userop, pm_getPaymasterStubData,
// pm_getPaymasterData, pm_supported_tokens) takes and answers that
// EntryPoint's form of the operation, and that EntryPoint's paymasters
// sign it: the same signer, projects, keys, limits and gas bounds for all.
// Where a version keeps the paymaster's gas limits apart (v0.7), they are
// the paymaster's own choice (entrypoint.EntryPoint.PaymasterGas), never
// the caller's.
//
// With a token paymaster, types 1 and 2 (gas paid in an ERC-20) are served
// on that EntryPoint too. Where the EntryPoint calls postOp once (v0.7:
// HeldUntilLanded), a type 2 payer whose call spends its tokens or revokes
// its allowance makes postOp's transferFrom fail; the EntryPoint undoes the
// call and the deposit pays the gas with nothing in return (v0.6 calls
// postOp again and reverts the bundle instead). So a type 2 operation there
// is held, like a type 0 one, against the project's balance, daily cap and
// per-operation cap until it lands: released whole if the token
// paymaster's GasPaidInToken for it follows, charged its actual cost (and
// its sender and owner suspended, as for a type 0 failure) if not. Type 1
// takes its maximum in tokens in validation, which stands whatever the call
// does, and draws nothing from the project.

// EntryPointConfig is one EntryPoint a Service sponsors on, with the
// paymaster contracts that serve it.
type EntryPointConfig struct {
	// EntryPoint is the EntryPoint, of any version.
	EntryPoint entrypoint.EntryPoint
	// Paymaster is its VerifyingPaymaster, whose verifyingSigner is
	// Config.Signer. Required.
	Paymaster common.Address
	// TokenPaymaster is its token paymaster (types 1 and 2); zero offers
	// type 0 only on this EntryPoint.
	TokenPaymaster common.Address
}

// entryPoints is cfg's EntryPoints, or, without them, the one v0.6
// EntryPoint its single-EntryPoint fields name.
func (c *Config) entryPoints() []EntryPointConfig {
	if len(c.EntryPoints) > 0 {
		return c.EntryPoints
	}
	if c.EntryPoint == (common.Address{}) {
		return nil
	}
	return []EntryPointConfig{{EntryPoint: entrypoint.NewV06(c.EntryPoint), Paymaster: c.Paymaster, TokenPaymaster: c.TokenPaymaster}}
}

// tokenPaymasters are the token paymasters set, in EntryPoint order.
func (s *Service) tokenPaymasters() []common.Address {
	var out []common.Address
	for _, d := range s.eps {
		if d.TokenPaymaster != (common.Address{}) {
			out = append(out, d.TokenPaymaster)
		}
	}
	return out
}

// entrypoints is pm_entrypoints: every EntryPoint served, in order.
func (s *Service) entrypoints(context.Context, *call) (any, *Error) {
	out := make([]string, len(s.eps))
	for i, d := range s.eps {
		out[i] = d.EntryPoint.Address().Hex()
	}
	return out, nil
}

// entryPointOf is the EntryPoint a call's entryPoint parameter raw names.
func (s *Service) entryPointOf(raw json.RawMessage) (*EntryPointConfig, *Error) {
	var ep string
	if err := json.Unmarshal(raw, &ep); err != nil || !common.IsHexAddress(ep) {
		return nil, &Error{Code: codeInvalidParams, Message: "entryPoint: want an address"}
	}
	for i := range s.eps {
		if s.eps[i].EntryPoint.Address() == common.HexToAddress(ep) {
			return &s.eps[i], nil
		}
	}
	served := make([]string, len(s.eps))
	for i, d := range s.eps {
		served[i] = d.EntryPoint.Address().Hex()
	}
	return nil, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("entryPoint %s is not supported; use %s", ep, strings.Join(served, " or "))}
}

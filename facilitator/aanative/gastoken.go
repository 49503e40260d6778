package aanative

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Gas paid in a token. An operation may name, instead of the
// VerifyingPaymaster, the token paymaster of its EntryPoint version
// (EntryPointConfig.TokenPaymaster): the payer then pays its gas in
// an ERC-20, the most it can cost taken in validation (type 1) or checked
// there and taken in postOp (type 2). The paymaster's signature, its
// window and its own balance and allowance checks are simulateValidation's;
// what the facilitator adds is the payment and the gas together: when the
// gas token is the payment's token, the account must hold the amount and
// the operation's maximum gas cost in it, or the settle (type 1: after
// validation took the gas) or the postOp (type 2) would revert.

// GasInToken is what an operation's gas may cost its payer in a token.
type GasInToken struct {
	// Token is the ERC-20 the gas is paid in; Mode is 1 or 2.
	Token common.Address
	Mode  uint8
	// Max is the most the operation's gas can cost in Token, as the token
	// paymaster computes it in validation.
	Max *big.Int
}

// gasInToken reads the token terms of pay's operation if it names the
// token paymaster of its EntryPoint: nil for any other paymaster, an
// invalid_inner_payload refusal for terms that do not decode.
func (s *Scheme) gasInToken(pay *Payment) (*GasInToken, error) {
	tpm := pay.at.TokenPaymaster
	if tpm == (common.Address{}) || pay.Op.Paymaster != tpm {
		return nil, nil
	}
	t, err := pay.EntryPoint.DecodeTokenPaymasterData(&pay.Op)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "token paymaster terms: %v", err)
	}
	// The token paymaster's own maximum, as it computes it in validation.
	return &GasInToken{Token: t.Token, Mode: t.Mode, Max: pay.EntryPoint.MaxTokenCost(&pay.Op, t)}, nil
}

// paymasterOf is the operation's paymaster if it is one the scheme takes:
// the VerifyingPaymaster or the token paymaster of its EntryPoint.
func (s *Scheme) paymasterOf(pay *Payment) (common.Address, bool) {
	paymaster, token := pay.at.Paymaster, pay.at.TokenPaymaster
	named := pay.Op.Paymaster
	if named == (common.Address{}) {
		return paymaster, false
	}
	return paymaster, named == paymaster || (token != (common.Address{}) && named == token)
}

// Reserve is what the payment's settlement may take at most from the
// payer's balance of its token: the amount, and the maximum gas when the
// gas is paid in the same token.
func (p *Payment) Reserve() *big.Int {
	if p.Gas != nil && p.Gas.Token == p.Token {
		return new(big.Int).Add(p.Amount, p.Gas.Max)
	}
	return new(big.Int).Set(p.Amount)
}

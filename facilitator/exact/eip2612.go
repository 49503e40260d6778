package exact

import (
	"encoding/json"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// EIP-2612 gas sponsoring: a Permit2 payment may carry, in upstream's
// eip2612GasSponsoring extension, an EIP-2612 permit of Permit2 that the
// proxy's settleWithPermit submits in the same transaction, so the payer's
// approval of Permit2 costs it no gas and the facilitator no extra
// transaction.

// EIP2612GasSponsoring is the key of upstream's extension that carries an
// EIP-2612 permit of Permit2, in a 402's and a payment's extensions.
const EIP2612GasSponsoring = "eip2612GasSponsoring"

// EIP2612Permit is a payer's signed EIP-2612 permit of Permit2.
type EIP2612Permit struct {
	From, Asset, Spender    common.Address
	Amount, Nonce, Deadline *big.Int
	// Signature is r ‖ s ‖ v with v 27 or 28.
	Signature [65]byte
}

// eip2612Wire is the info of the eip2612GasSponsoring extension.
type eip2612Wire struct {
	From      string `json:"from"`
	Asset     string `json:"asset"`
	Spender   string `json:"spender"`
	Amount    string `json:"amount"`
	Nonce     string `json:"nonce"`
	Deadline  string `json:"deadline"`
	Signature string `json:"signature"`
	Version   string `json:"version"`
}

// decodeEIP2612 reads the eip2612GasSponsoring extension of a payment's
// extensions: nil if there is none.
func decodeEIP2612(extensions json.RawMessage) (*EIP2612Permit, error) {
	if len(extensions) == 0 {
		return nil, nil
	}
	var exts map[string]struct {
		Info *eip2612Wire `json:"info"`
	}
	if err := json.Unmarshal(extensions, &exts); err != nil {
		return nil, nil // extensions of other shapes are not ours to judge
	}
	info := exts[EIP2612GasSponsoring].Info
	if info == nil || info.From == "" || info.Asset == "" || info.Spender == "" || info.Amount == "" ||
		info.Nonce == "" || info.Deadline == "" || info.Signature == "" || info.Version == "" {
		// Upstream's clients echo the 402's declaration ({description,
		// version}) when they send no permit: not a permit, as upstream
		// reads it.
		return nil, nil
	}
	var errs fieldErrs
	p := &EIP2612Permit{
		From:     errs.address("eip2612GasSponsoring.from", info.From),
		Asset:    errs.address("eip2612GasSponsoring.asset", info.Asset),
		Spender:  errs.address("eip2612GasSponsoring.spender", info.Spender),
		Amount:   errs.number("eip2612GasSponsoring.amount", info.Amount),
		Nonce:    errs.number("eip2612GasSponsoring.nonce", info.Nonce),
		Deadline: errs.number("eip2612GasSponsoring.deadline", info.Deadline),
	}
	sig, err := signature65(info.Signature)
	if err != nil {
		errs = append(errs, "eip2612GasSponsoring.signature: "+err.Error())
	}
	if len(errs) > 0 {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "%s", strings.Join(errs, "; "))
	}
	p.Signature = sig
	return p, nil
}

// checkEIP2612 checks the permit of Permit2 a payment carries: the payer's,
// for this asset, to Permit2, of the payment's amount (the proxy requires
// it), valid long enough, and signed by the payer in the token's domain.
// Its nonce is the chain's to judge: the simulation fails on a stale one.
func (s *Scheme) checkEIP2612(p *Permit2Payment, e *EIP2612Permit, asset common.Address, now int64) error {
	switch {
	case e.From != p.From:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.from %s is not the payer %s", e.From, p.From)
	case e.Asset != asset:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.asset %s is not the asset %s", e.Asset, asset)
	case e.Spender != Permit2:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.spender %s is not Permit2 %s", e.Spender, Permit2)
	case e.Amount.Cmp(p.Amount) != 0:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.amount %s is not the permitted amount %s", e.Amount, p.Amount)
	case !e.Deadline.IsInt64() || e.Deadline.Int64() < now+int64(s.cfg.MinValidity/time.Second):
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.deadline %s expires too soon", e.Deadline)
	}
	return s.signedBy(EIP2612Digest(s.domains[asset], e), e.Signature, p.From, "eip2612GasSponsoring.signature")
}

package exact

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The upto scheme's payments are Permit2 payments too (permit2.go), signed
// for x402's upto proxy with a witness that also names the facilitator,
// for a maximum: the offer's and the accepted amount. The requirements of
// a settle carry the amount actually owed, at most that maximum (upstream's
// convention: the server settles with the requirements' amount replaced by
// the usage). Package upto is the scheme; its checks live here, beside the
// Permit2 checks they share.

// DecodeUpto reads an upto payment. Its Amount is the requirements'
// amount: the maximum at verify, the amount owed at settle.
func (s *Scheme) DecodeUpto(req *x402.VerifyRequest) (*scheme.Payment, error) {
	if !isPermit2(req.PaymentPayload.Payload) {
		if isUserOp(req.PaymentPayload.Payload) {
			return nil, x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an aa-native UserOperation, the requirements are upto")
		}
		if isEIP3009(req.PaymentPayload.Payload) {
			return nil, x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an exact EIP-3009 authorization, the requirements are upto")
		}
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "payload is not an upto payment: no permit2Authorization")
	}
	p, err := DecodePermit2(&req.PaymentPayload)
	if err != nil {
		return nil, err
	}
	if !p.Upto {
		return nil, x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an exact permit (its witness names no facilitator), the requirements are upto")
	}
	amount, err := x402.ParseAmount(req.PaymentRequirements.Amount)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "requirements amount: %v", err)
	}
	p.Settle = amount
	asset, _ := x402.ParseAddress(req.PaymentRequirements.Asset)
	pay := &scheme.Payment{
		Key:   p.Key(s.cfg.ChainID),
		Hash:  crypto.Keccak256Hash(p.PayloadHash().Bytes(), scheme.RequirementsHash(&req.PaymentRequirements).Bytes()),
		Payer: p.From, PayTo: p.To, Asset: common.Address(asset), Amount: amount,
		Mechanism: p,
	}
	if p.Deadline.IsInt64() {
		pay.ValidBefore = time.Unix(p.Deadline.Int64(), 0)
	}
	return pay, nil
}

// VerifyUpto checks an upto payment: the accepted offer is the signed
// maximum, the amount owed is at most it, the witness names this
// facilitator's settler and the offer's payTo; then the Permit2 checks,
// for the amount owed.
func (s *Scheme) VerifyUpto(ctx context.Context, pay *scheme.Payment, req *x402.VerifyRequest) error {
	p, ok := pay.Mechanism.(*Permit2Payment)
	if !ok || !p.Upto {
		return fmt.Errorf("the payment was not decoded by DecodeUpto (%T)", pay.Mechanism)
	}
	r, acc := &req.PaymentRequirements, &req.PaymentPayload.Accepted
	if r.Scheme != x402.SchemeUpto || acc.Scheme != r.Scheme {
		return x402.Invalid(x402.ReasonSchemeMismatch, "accepted scheme %q, required %q; this verifier settles %q", acc.Scheme, r.Scheme, x402.SchemeUpto)
	}
	if r.Network != s.network || acc.Network != r.Network {
		return x402.Invalid(x402.ReasonNetworkMismatch, "required network %q, accepted %q; this facilitator settles on %q", r.Network, acc.Network, s.network)
	}
	reqAsset, _ := x402.ParseAddress(r.Asset)
	asset := common.Address(reqAsset)
	if _, ok := s.domains[asset]; !ok {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "asset %s is not allowlisted", asset)
	}
	if a, _ := x402.ParseAddress(acc.Asset); common.Address(a) != asset {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "accepted asset %s differs from the required %s", acc.Asset, asset)
	}
	if max, _ := x402.ParseAmount(acc.Amount); max.Cmp(p.Amount) != 0 {
		return x402.Invalid(x402.ReasonAmountMismatch, "permit2Authorization.permitted.amount %s differs from the accepted maximum %s", p.Amount, acc.Amount)
	}
	if p.Settle.Cmp(p.Amount) > 0 {
		return x402.Invalid(x402.ReasonAmountMismatch, "the amount to settle %s exceeds the signed maximum %s", p.Settle, p.Amount)
	}
	payTo, _ := x402.ParseAddress(r.PayTo)
	if a, _ := x402.ParseAddress(acc.PayTo); a != payTo {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "accepted payTo %s differs from the required %s", acc.PayTo, r.PayTo)
	}
	if p.To != common.Address(payTo) {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "permit2Authorization.witness.to %s is not payTo %s", p.To, common.Address(payTo))
	}
	if p.Facilitator != s.cfg.Settler {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "upto_facilitator_mismatch: the witness names facilitator %s; this facilitator settles from %s", p.Facilitator, s.cfg.Settler)
	}
	return s.verifyPermit2(ctx, p, asset, pay)
}

// Settler is the address this facilitator settles from, which an upto
// payer names as its witness's facilitator.
func (s *Scheme) Settler() common.Address { return s.cfg.Settler }

// isEIP3009 reports whether payload has the shape of an EIP-3009 payment.
func isEIP3009(payload []byte) bool {
	var shape struct {
		Authorization json.RawMessage `json:"authorization"`
	}
	return json.Unmarshal(payload, &shape) == nil && shape.Authorization != nil
}

// UptoSettlement is the upto proxy's settle (or settleWithPermit) of the
// amount owed.
func (s *Scheme) UptoSettlement(pay *scheme.Payment) scheme.Settlement {
	p, ok := pay.Mechanism.(*Permit2Payment)
	if !ok {
		return scheme.Settlement{To: UptoPermit2Proxy}
	}
	return scheme.Settlement{To: UptoPermit2Proxy, Data: p.calldata(s)}
}

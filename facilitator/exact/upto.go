package exact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Upto is x402's upto scheme on EVM chains, a mechanism of exact: the
// payer signs, with Permit2, a transfer of at most a maximum through
// x402's upto Permit2 proxy, with a witness that also names the
// facilitator that may settle it; the merchant settles, after serving,
// the amount the response used. Its checks are the Permit2 mechanism's
// (permit2.go), which it shares with exact, and it is registered under
// its own name beside exact, over the same assets, chain and settler.
//
// The requirements of a settle carry the amount actually owed, at most the
// signed maximum (upstream's convention: the server settles with the
// requirements' amount replaced by the usage). It is [scheme.Deferred]
// (an amount of zero settles without a transaction) and
// [scheme.Credentialed] (only the merchant knows what the response used).
type Upto struct{ ex *Scheme }

// NewUpto returns the upto scheme over ex's assets, chain and settler.
func NewUpto(ex *Scheme) *Upto { return &Upto{ex: ex} }

// Name is "upto".
func (u *Upto) Name() string { return x402.SchemeUpto }

// Decode reads an upto payment. Its Amount is the requirements' amount:
// the maximum at verify, the amount owed at settle.
func (u *Upto) Decode(req *x402.VerifyRequest) (*scheme.Payment, error) {
	s := u.ex
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

// Verify checks an upto payment: the accepted offer is the signed
// maximum, the amount owed is at most it, the witness names this
// facilitator's settler and the offer's payTo; then the Permit2 checks,
// for the amount owed.
func (u *Upto) Verify(ctx context.Context, pay *scheme.Payment, req *x402.VerifyRequest) error {
	s := u.ex
	p, ok := pay.Mechanism.(*Permit2Payment)
	if !ok || !p.Upto {
		return fmt.Errorf("the payment was not decoded by the upto scheme (%T)", pay.Mechanism)
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

// Settlement is the upto proxy's settle (or settleWithPermit) of the
// amount owed.
func (u *Upto) Settlement(pay *scheme.Payment) scheme.Settlement {
	p, ok := pay.Mechanism.(*Permit2Payment)
	if !ok {
		return scheme.Settlement{To: UptoPermit2Proxy}
	}
	return scheme.Settlement{To: UptoPermit2Proxy, Data: p.calldata(u.ex)}
}

// Outcome counts a settlement whose token logged the transfer of the
// amount owed from the payer to payTo, as exact's does.
func (u *Upto) Outcome(rec *store.Record, receipt *types.Receipt) scheme.Outcome {
	return u.ex.Outcome(rec, receipt)
}

// SettledElsewhere finds a transaction other than rec's that settled an
// upto payment, as exact's Permit2 payments are found.
func (u *Upto) SettledElsewhere(ctx context.Context, chain scheme.Chain, pay *scheme.Payment, rec *store.Record) (*types.Receipt, error) {
	return u.ex.SettledElsewhere(ctx, chain, pay, rec)
}

// Extra is what /supported advertises of upto, as upstream's upto
// facilitator does: the facilitator a payer must name (the settler).
func (u *Upto) Extra(string) *x402.Extra {
	return &x402.Extra{FacilitatorAddress: u.ex.Settler().Hex()}
}

// Withdrawn reports whether err refuses, at settle, a payment its payer
// took back after its response was served: a used nonce (replay), or a
// balance, a Permit2 allowance or anything else that makes the
// settlement's simulation revert. Not the requirements' mismatches (the
// merchant's), nor the facilitator's own refusals.
func (u *Upto) Withdrawn(err error) bool {
	var xe *x402.Error
	if !errors.As(err, &xe) {
		return false
	}
	if xe.Reason == x402.ReasonReplay {
		return true
	}
	for _, prefix := range []string{"insufficient balance", "permit2_allowance_required", "the settlement's simulation reverted"} {
		if strings.HasPrefix(xe.Message, prefix) {
			return true
		}
	}
	return false
}

// CredentialReason is why only a caller with a credential may settle an
// upto payment: what it owes is what its response used, which only the
// merchant knows; a payer settling its own permit could settle it for one
// unit while its response streams.
func (u *Upto) CredentialReason() string {
	return "only the merchant knows what the response used"
}

var (
	_ scheme.Scheme       = (*Upto)(nil)
	_ scheme.Finder       = (*Upto)(nil)
	_ scheme.Deferred     = (*Upto)(nil)
	_ scheme.Credentialed = (*Upto)(nil)
)

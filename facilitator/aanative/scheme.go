package aanative

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Name is "aa-native".
func (s *Scheme) Name() string { return x402.SchemeAANative }

// Decode reads an aa-native payment. A payload with the shape of an exact
// authorization is scheme_mismatch.
//
// The request hash is the payer's choice, so the replay key is namespaced
// by chain and settlement contract: it can never equal another scheme's
// key.
func (s *Scheme) Decode(req *x402.VerifyRequest) (*scheme.Payment, error) {
	if isAuthorization(req.PaymentPayload.Payload) {
		return nil, x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an exact authorization, the requirements are aa-native")
	}
	pay, err := s.decodePayload(&req.PaymentPayload, &req.PaymentRequirements)
	if err != nil {
		return nil, err
	}
	return &scheme.Payment{
		Key: crypto.Keccak256Hash([]byte("aa-native"), common.LeftPadBytes(s.cfg.ChainID.Bytes(), 32), s.cfg.Settlement.Bytes(), pay.RequestHash.Bytes()),
		Hash: crypto.Keccak256Hash(pay.UserOpHash.Bytes(), pay.Op.Signature, pay.EntryPoint.PaymasterAndData(&pay.Op),
			scheme.RequirementsHash(&req.PaymentRequirements).Bytes()),
		Payer: pay.Op.Sender, PayTo: pay.Merchant, Asset: pay.Token, Amount: pay.Amount, Reserve: pay.Reserve(),
		UserOpHash: pay.UserOpHash, RequestHash: pay.RequestHash,
		Mechanism: pay,
	}, nil
}

// isAuthorization reports whether payload has the shape of an exact
// payment: an authorization and no userOp.
func isAuthorization(payload json.RawMessage) bool {
	var shape struct {
		Authorization json.RawMessage `json:"authorization"`
		UserOp        json.RawMessage `json:"userOp"`
	}
	return json.Unmarshal(payload, &shape) == nil && shape.Authorization != nil && shape.UserOp == nil
}

// paymentOf is the aa-native decoding of pay.
func paymentOf(pay *scheme.Payment) (*Payment, error) {
	p, ok := pay.Mechanism.(*Payment)
	if !ok {
		return nil, fmt.Errorf("the payment was not decoded by the aa-native scheme (%T)", pay.Mechanism)
	}
	return p, nil
}

// Verify checks a decoded payment against the requirements and the chain
// (see verifyPayment).
func (s *Scheme) Verify(ctx context.Context, pay *scheme.Payment, req *x402.VerifyRequest) error {
	p, err := paymentOf(pay)
	if err != nil {
		return err
	}
	err = s.verifyPayment(ctx, p, &req.PaymentPayload.Accepted, &req.PaymentRequirements)
	// A fleet's store claims the payment only if the account's balance
	// covers it and the account's other settlements in flight.
	pay.Funds = p.funds
	return err
}

// Settlement is the payment's UserOperation, for the bundler.
func (s *Scheme) Settlement(pay *scheme.Payment) scheme.Settlement {
	p, err := paymentOf(pay)
	if err != nil {
		return scheme.Settlement{}
	}
	return scheme.Settlement{Op: &p.Op, EntryPoint: p.EntryPoint}
}

var _ scheme.Scheme = (*Scheme)(nil)

package facilitator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// payment is a decoded payment, before or after verification.
type payment struct {
	scheme string
	key    common.Hash // replay key
	hash   common.Hash // the payment and what it pays for
	payer  common.Address
	payTo  common.Address
	asset  common.Address
	amount *big.Int
	auth   *exact.Authorization // exact
	aa     *aanative.Payment    // aa-native
	owner  string               // settle: who is handed the receipt
}

// decode validates the request and decodes its payment.
func (s *Service) decode(req *x402.VerifyRequest) (*payment, error) {
	if err := req.Validate(); err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "%v", err)
	}
	a, _ := x402.ParseAddress(req.PaymentRequirements.Asset)
	asset := common.Address(a)
	reqHash := requirementsHash(&req.PaymentRequirements)
	if err := acceptedScheme(req); err != nil {
		return nil, err
	}
	switch {
	case req.PaymentRequirements.Scheme == x402.SchemeExact:
		auth, err := exact.Decode(&req.PaymentPayload)
		if err != nil {
			// A payload that decodes is an exact authorization; one that
			// does not may be of the other scheme.
			if mismatch := payloadShape(req); mismatch != nil {
				return nil, mismatch
			}
			return nil, err
		}
		return &payment{
			scheme: x402.SchemeExact, key: auth.Key(s.chainID, asset),
			hash:  crypto.Keccak256Hash(auth.PayloadHash().Bytes(), reqHash.Bytes()),
			payer: auth.From, payTo: auth.To, asset: asset, amount: auth.Value, auth: auth,
		}, nil
	case req.PaymentRequirements.Scheme == x402.SchemeAANative && s.aa != nil:
		if err := payloadShape(req); err != nil {
			return nil, err
		}
		pay, err := s.aa.Decode(&req.PaymentPayload)
		if err != nil {
			return nil, err
		}
		// The request hash is the payer's choice, so its replay key is
		// namespaced by chain and settlement contract: it can never equal
		// another scheme's key.
		key := crypto.Keccak256Hash([]byte("aa-native"), common.LeftPadBytes(s.chainID.Bytes(), 32), s.cfg.AANative.Settlement.Bytes(), pay.RequestHash.Bytes())
		return &payment{
			scheme: x402.SchemeAANative, key: key,
			hash:  crypto.Keccak256Hash(pay.UserOpHash.Bytes(), pay.Op.Signature, pay.Op.PaymasterAndData, reqHash.Bytes()),
			payer: pay.Op.Sender, payTo: pay.Merchant, asset: pay.Token, amount: pay.Amount, aa: pay,
		}, nil
	}
	if err := payloadShape(req); err != nil {
		return nil, err
	}
	return nil, x402.Invalid(x402.ReasonSchemeMismatch, "scheme %q is not supported; this facilitator settles %s", req.PaymentRequirements.Scheme, strings.Join(s.schemes(), " and "))
}

// acceptedScheme refuses a payment whose payer says it accepted another
// scheme than the requirements'.
func acceptedScheme(req *x402.VerifyRequest) error {
	want := req.PaymentRequirements.Scheme
	if got := req.PaymentPayload.Accepted.Scheme; got != want {
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payment is for scheme %q, the requirements are %q", got, want)
	}
	return nil
}

// payloadShape refuses a payload of one scheme presented for requirements
// of another, by its shape, so that it is named scheme_mismatch rather than
// a payload of the requirements' scheme that does not decode.
func payloadShape(req *x402.VerifyRequest) error {
	want := req.PaymentRequirements.Scheme
	var shape struct {
		Authorization json.RawMessage `json:"authorization"`
		UserOp        json.RawMessage `json:"userOp"`
	}
	if json.Unmarshal(req.PaymentPayload.Payload, &shape) != nil {
		return nil // the scheme's decoder names the problem
	}
	switch {
	case want == x402.SchemeAANative && shape.Authorization != nil && shape.UserOp == nil:
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an exact authorization, the requirements are aa-native")
	case want == x402.SchemeExact && shape.UserOp != nil && shape.Authorization == nil:
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an aa-native UserOperation, the requirements are exact")
	}
	return nil
}

func (s *Service) schemes() []string {
	if s.aa != nil {
		return []string{x402.SchemeExact, x402.SchemeAANative}
	}
	return []string{x402.SchemeExact}
}

// verifyScheme runs the payment's scheme checks.
func (s *Service) verifyScheme(ctx context.Context, req *x402.VerifyRequest, p *payment) error {
	if until, refused := s.payers.refusedUntil(p.payer, s.cfg.Now()); refused {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "settlements of %s reverted on chain recently; its payments are refused until %s", p.payer, until.UTC().Format(time.RFC3339))
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	defer cancel()
	if p.aa != nil {
		return s.aa.Verify(ctx, p.aa, &req.PaymentPayload.Accepted, &req.PaymentRequirements)
	}
	return s.exact.Verify(ctx, p.auth, &req.PaymentPayload, &req.PaymentRequirements)
}

// requirementsHash identifies what a payment was settled for, so that a
// duplicate settle returns the original receipt only for the same
// requirements: a payment made for one price or recipient is never reported
// as settled for another.
func requirementsHash(r *x402.PaymentRequirements) common.Hash {
	asset, _ := x402.ParseAddress(r.Asset)
	payTo, _ := x402.ParseAddress(r.PayTo)
	amount, _ := x402.ParseAmount(r.Amount)
	return crypto.Keccak256Hash([]byte(r.Scheme), []byte{0}, []byte(r.Network), []byte{0}, asset[:], payTo[:], amount.Bytes())
}

// verify runs the scheme's checks and then the replay store.
//
// The replay store is read first: a payment this facilitator already took
// would fail the chain's checks for that very reason (a used nonce, a
// deployed account). A payment whose response was written (Served), or
// that failed, is replay; so is one a settle of this process is working on
// right now. One whose settle gave up waiting (503), or whose process died
// before it answered, is valid: it is the same payment retried, and Settle
// resumes its settlement, or hands over its receipt, rather than starting
// another. One whose response another replica is writing, while its store
// handle still looks open, is neither: that replica may have died without
// the store noticing yet, so the answer is errAnswering (503, retry), and
// the retry gets replay once the response is written, or the receipt once
// the store sees the replica gone. A handover is made once, within the
// payment's validity window (handover.go): past either, the payment is
// replay. (This process's own consumers answer replay, as before: they
// are alive, and call Served when they are done.)
func (s *Service) verify(ctx context.Context, req *x402.VerifyRequest, p *payment) error {
	rec, err := s.store.Get(p.key)
	if err != nil {
		return err
	}
	if rec != nil {
		if rec.PayloadHash == p.hash {
			switch {
			case s.busy(p.key):
				return x402.Invalid(x402.ReasonReplay, "this payment is being settled for another request")
			case !rec.State.Final(), rec.State == store.StateSettled && rec.Consumer == "":
				return nil
			case rec.State == store.StateSettled && !rec.Served && rec.ConsumerInstance != "" && s.mayHandOver(rec):
				// Handed to a settle whose process died before it
				// answered: the payer's retry is handed it
				// (store.CanConsume).
				alive, err := s.store.Alive(rec.ConsumerInstance)
				if err != nil {
					return err
				}
				if !alive {
					return nil
				}
				if rec.ConsumerInstance != s.store.Instance() {
					return errAnswering
				}
			}
		}
		return x402.Invalid(x402.ReasonReplay, "this payment was already used (%s)", rec.State)
	}
	return s.verifyScheme(ctx, req, p)
}

// ErrUnavailable wraps verification failures that say nothing of the
// payment: the chain or the store could not be read.
var ErrUnavailable = errors.New("facilitator unavailable")

// errAnswering is the verification of a settled payment whose response a
// live process is writing, but has not written (see verify): the payment
// is neither valid nor spent yet.
var errAnswering = errors.New("the response this payment bought is being written for another request; retry")

// Verify checks a payment without settling it. A refused payment is a
// response with isValid false; an error means the checks could not be made
// (it wraps ErrUnavailable).
func (s *Service) Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	ctx, span := startSpan(ctx, spanVerify)
	setOffer(span, &req.PaymentRequirements)
	res, err := s.verifyRequest(ctx, req)
	endVerify(span, res, err)
	return res, err
}

// verifyRequest is Verify without its span.
func (s *Service) verifyRequest(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	p, err := s.decode(req)
	if err == nil {
		err = s.verify(ctx, req, p)
	}
	var xe *x402.Error
	switch {
	case err == nil:
		return &x402.VerifyResponse{IsValid: true, Payer: p.payer.Hex()}, nil
	case errors.As(err, &xe):
		payer := ""
		if p != nil {
			payer = p.payer.Hex()
		}
		return xe.Response(payer), nil
	case errors.Is(err, errAnswering):
		return &x402.VerifyResponse{IsValid: false, InvalidMessage: err.Error(), Payer: p.payer.Hex()},
			fmt.Errorf("%w: %v", ErrUnavailable, err)
	default:
		s.log.Warn("verify could not complete", zap.Error(err))
		return &x402.VerifyResponse{IsValid: false, InvalidMessage: "the facilitator could not reach the chain; retry"},
			fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
}

package facilitator

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/memo"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// payment is a decoded payment, before or after verification: the core's
// view of it, and the scheme that decoded it.
type payment struct {
	scheme string
	key    common.Hash // replay key
	hash   common.Hash // the payment and what it pays for
	payer  common.Address
	payTo  common.Address
	asset  common.Address
	amount *big.Int
	// reserve is what its settlement may take from the payer's balance of
	// asset: amount, or more (scheme.Payment.Reserve).
	reserve *big.Int
	owner   string // settle: who is handed the receipt

	of         scheme.Scheme     // the scheme that decoded it
	pay        *scheme.Payment   // its decoding
	settlement scheme.Settlement // what settles it on chain: settle sets it, /verify never needs it
}

// decode is decodePayment with the payment's settlement made, for settle.
func (s *Service) decode(req *x402.VerifyRequest) (*payment, error) {
	p, err := s.decodePayment(req)
	if err != nil {
		return nil, err
	}
	p.settlement = p.of.Settlement(p.pay)
	return p, nil
}

// decodePayment validates the request and decodes its payment with the
// scheme its requirements name, without its settlement, which /verify
// never needs (an exact payment's is an ABI-packed call).
func (s *Service) decodePayment(req *x402.VerifyRequest) (*payment, error) {
	if err := req.Validate(); err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "%v", err)
	}
	if err := acceptedScheme(req); err != nil {
		return nil, err
	}
	of, ok := s.table().byName[req.PaymentRequirements.Scheme]
	if !ok {
		return nil, x402.Invalid(x402.ReasonSchemeMismatch, "scheme %q is not supported; this facilitator settles %s", req.PaymentRequirements.Scheme, strings.Join(s.schemeNames(), " and "))
	}
	pay, err := of.Decode(req)
	if err != nil {
		return nil, err
	}
	reserve := pay.Amount
	if pay.Reserve != nil {
		reserve = pay.Reserve
	}
	return &payment{
		scheme: of.Name(), key: pay.Key, hash: pay.Hash,
		payer: pay.Payer, payTo: pay.PayTo, asset: pay.Asset, amount: pay.Amount, reserve: reserve,
		of: of, pay: pay,
	}, nil
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

// schemeNames are the names of the schemes this facilitator settles, in
// the order they were registered.
func (s *Service) schemeNames() []string {
	order := s.table().order
	names := make([]string, len(order))
	for i, sch := range order {
		names[i] = sch.Name()
	}
	return names
}

// verifyScheme runs the payment's scheme checks.
func (s *Service) verifyScheme(ctx context.Context, req *x402.VerifyRequest, p *payment) error {
	if until, refused := s.payers.refusedUntil(p.payer, s.cfg.Now()); refused {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "settlements of %s reverted on chain recently; its payments are refused until %s", p.payer, until.UTC().Format(time.RFC3339))
	}
	// A Bound makes no timer unless a check waits on its Done: exact's
	// shared state reads enforce its deadline themselves.
	ctx, release := scheme.WithBound(ctx, s.cfg.RPCTimeout)
	defer release()
	if err := s.table().tokens.ready(ctx, p.asset); err != nil {
		return err
	}
	if err := p.of.Verify(ctx, p.pay, req); err != nil {
		return err
	}
	if p.pay.Contract {
		if p.pay.Class == (common.Hash{}) {
			// The wallet's class is its code: one read, for contract
			// wallets only (walletbudget.go).
			code, err := s.eth.CodeAt(ctx, p.payer, nil)
			if err != nil {
				return fmt.Errorf("reading the wallet's code: %w", err)
			}
			p.pay.Class = crypto.Keccak256Hash(code)
		}
		if until, paused := s.payers.walletsPaused(p.payer, p.pay.Class, s.cfg.Now()); paused {
			return x402.Invalid(x402.ReasonInvalidInnerPayload, "payments of new wallets like this one (a contract checks their signature) are refused until %s: too many of their settlements reverted on chain in the last hour", until.UTC().Format(time.RFC3339))
		}
	}
	return nil
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

// payerHexes remembers the checksummed hex of the payers lately verified
// (EIP-55's checksum is a Keccak of the address): an agent pays again and
// again from one wallet. An address's hex is a function of it (see memo).
var payerHexes memo.Generations[common.Address, string]

// payerHex is a.Hex(), remembered.
func payerHex(a common.Address) string {
	if h, ok := payerHexes.Get(a); ok {
		return h
	}
	h := a.Hex()
	payerHexes.Put(a, h)
	return h
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
	edge.SetOffer(span, &req.PaymentRequirements)
	res, err := s.verifyRequest(ctx, req)
	edge.EndVerify(span, res, err)
	return res, err
}

// verifyRequest is Verify without its span.
func (s *Service) verifyRequest(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	p, err := s.decodePayment(req)
	if err == nil {
		err = s.verify(ctx, req, p)
	}
	var xe *x402.Error
	switch {
	case err == nil:
		res := &x402.VerifyResponse{IsValid: true, Payer: payerHex(p.payer)}
		if r, ok := p.of.(scheme.Reporter); ok {
			res.Extra = r.Report(p.pay)
		}
		return res, nil
	case errors.As(err, &xe):
		payer := ""
		if p != nil {
			payer = payerHex(p.payer)
		}
		return xe.Response(payer), nil
	case errors.Is(err, errAnswering):
		return &x402.VerifyResponse{IsValid: false, InvalidMessage: err.Error(), Payer: payerHex(p.payer)},
			fmt.Errorf("%w: %v", ErrUnavailable, err)
	default:
		s.log.Warn("verify could not complete", zap.Error(err))
		return &x402.VerifyResponse{IsValid: false, InvalidMessage: "the facilitator could not reach the chain; retry"},
			fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
}

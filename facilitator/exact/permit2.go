package exact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The Permit2 mechanism, for tokens without EIP-3009: the payer signs a
// Permit2 PermitWitnessTransferFrom (EIP-712, in Permit2's domain) whose
// spender is x402's exact Permit2 proxy and whose witness names the
// recipient; the facilitator calls the proxy's settle, which has Permit2
// move the tokens. The payer must have approved Permit2 on the token once,
// or send an EIP-2612 permit of Permit2 with the payment (eip2612.go).
// This file decodes a payment and checks it against its offer; its
// signatures' digests are in permit2_digest.go, its chain reads in
// permit2_chain.go, and the upto scheme's use of it in upto.go.

// Permit2, ExactPermit2Proxy and UptoPermit2Proxy are the canonical
// addresses the payer signs for (the same on every chain; package
// contracts holds them).
var (
	Permit2           = contracts.Permit2Address
	ExactPermit2Proxy = contracts.ExactPermit2ProxyAddress
	UptoPermit2Proxy  = contracts.UptoPermit2ProxyAddress
)

// Permit2Payment is a decoded exact payment through Permit2.
type Permit2Payment struct {
	From, Token, Spender, To common.Address
	Amount, Nonce, Deadline  *big.Int
	ValidAfter               *big.Int
	// Signature is r ‖ s ‖ v with v normalized to 27 or 28.
	Signature [65]byte
	// Permit is the EIP-2612 permit of Permit2 from the payment's
	// eip2612GasSponsoring extension, or nil.
	Permit *EIP2612Permit
	// Upto marks an upto payment: its witness also names the one
	// Facilitator that may settle it, its spender is the upto proxy, and
	// Settle (at most Amount) is what the settlement moves.
	Upto        bool
	Facilitator common.Address
	Settle      *big.Int
}

// permit2Wire is the payload as upstream's client writes it.
type permit2Wire struct {
	Signature     string `json:"signature"`
	Authorization *struct {
		From      string `json:"from"`
		Permitted struct {
			Token  string `json:"token"`
			Amount string `json:"amount"`
		} `json:"permitted"`
		Spender  string `json:"spender"`
		Nonce    string `json:"nonce"`
		Deadline string `json:"deadline"`
		Witness  struct {
			To          string  `json:"to"`
			Facilitator *string `json:"facilitator"`
			ValidAfter  string  `json:"validAfter"`
		} `json:"witness"`
	} `json:"permit2Authorization"`
}

// isPermit2 reports whether payload has the shape of a Permit2 payment.
// A payload that cannot name permit2Authorization (no such key in any
// letter case, no escape) is not one, without decoding it: the common
// EIP-3009 payment pays for no JSON decoding here.
func isPermit2(payload json.RawMessage) bool {
	if !mayHaveKey(payload, "permit2authorization") {
		return false
	}
	var shape struct {
		Authorization json.RawMessage `json:"permit2Authorization"`
	}
	return json.Unmarshal(payload, &shape) == nil && shape.Authorization != nil
}

// mayHaveKey reports whether encoding/json could read the object key
// lower (an ASCII name in lower case, without k or s, whose Unicode case
// folds are not ASCII) from data: data holds it in some letter case, or
// holds an escape, which could spell it.
func mayHaveKey(data []byte, lower string) bool {
	if bytes.IndexByte(data, '\\') >= 0 {
		return true
	}
	for i := 0; i+len(lower) <= len(data); i++ {
		if data[i]|0x20 == lower[0] && bytes.EqualFold(data[i:i+len(lower)], []byte(lower)) {
			return true
		}
	}
	return false
}

// fieldErrs collects the fields of the wrong form while decoding.
type fieldErrs []string

func (e *fieldErrs) address(field, s string) common.Address {
	b, err := x402.ParseAddress(s)
	if err != nil {
		*e = append(*e, field+": "+err.Error())
	}
	return common.Address(b)
}

func (e *fieldErrs) number(field, s string) *big.Int {
	v, err := x402.ParseAmount(s)
	if err != nil {
		*e = append(*e, field+": "+strings.TrimPrefix(err.Error(), "amount "))
		return new(big.Int)
	}
	return v
}

// signature65 parses a 65-byte r ‖ s ‖ v signature, v 0, 1, 27 or 28.
func signature65(s string) ([65]byte, error) {
	var out [65]byte
	sig, err := hexutil.Decode(s)
	if err != nil || len(sig) != 65 {
		return out, errors.New("want 65 bytes in 0x hex (r, s, v)")
	}
	switch v := sig[64]; v {
	case 0, 1:
		sig[64] = v + 27
	case 27, 28:
	default:
		return out, fmt.Errorf("v is %d; want 27 or 28 (or 0 or 1)", v)
	}
	copy(out[:], sig)
	return out, nil
}

// DecodePermit2 parses the payload of a Permit2 payment and its
// eip2612GasSponsoring extension, if any. A payload that does not parse is
// malformed_request; a field of the wrong form is invalid_inner_payload
// naming the field; a signature of the wrong form is signature_invalid.
func DecodePermit2(p *x402.PaymentPayload) (*Permit2Payment, error) {
	var w permit2Wire
	if err := json.Unmarshal(p.Payload, &w); err != nil || w.Authorization == nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "payload is not a Permit2 payment: %v", err)
	}
	a := w.Authorization
	var errs fieldErrs
	pp := &Permit2Payment{
		From:       errs.address("permit2Authorization.from", a.From),
		Token:      errs.address("permit2Authorization.permitted.token", a.Permitted.Token),
		Amount:     errs.number("permit2Authorization.permitted.amount", a.Permitted.Amount),
		Spender:    errs.address("permit2Authorization.spender", a.Spender),
		Nonce:      errs.number("permit2Authorization.nonce", a.Nonce),
		Deadline:   errs.number("permit2Authorization.deadline", a.Deadline),
		To:         errs.address("permit2Authorization.witness.to", a.Witness.To),
		ValidAfter: errs.number("permit2Authorization.witness.validAfter", a.Witness.ValidAfter),
	}
	if f := a.Witness.Facilitator; f != nil {
		pp.Upto, pp.Facilitator = true, errs.address("permit2Authorization.witness.facilitator", *f)
	}
	if len(errs) > 0 {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "%s", strings.Join(errs, "; "))
	}
	sig, err := signature65(w.Signature)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonSignatureInvalid, "signature: %v", err)
	}
	pp.Signature = sig
	if pp.Permit, err = decodeEIP2612(p.Extensions); err != nil {
		return nil, err
	}
	return pp, nil
}

// Key is the payment's replay key: keccak256(chainId ‖ Permit2 ‖ from ‖
// nonce), 32-byte words for the numbers. Permit2 allows each (from, nonce)
// once, whatever the token or spender.
func (p *Permit2Payment) Key(chainID *big.Int) common.Hash {
	return crypto.Keccak256Hash(common.LeftPadBytes(chainID.Bytes(), 32), Permit2.Bytes(), p.From.Bytes(), common.LeftPadBytes(p.Nonce.Bytes(), 32))
}

// PayloadHash identifies the signed permit, to tell a duplicate from a
// different payment under the same key.
func (p *Permit2Payment) PayloadHash() common.Hash {
	return crypto.Keccak256Hash(p.Token.Bytes(), p.Spender.Bytes(), p.To.Bytes(), p.Facilitator.Bytes(), word(p.Amount), word(p.Deadline), word(p.ValidAfter), p.Signature[:])
}

// decodePermit2 is Decode for a Permit2 payload.
func (s *Scheme) decodePermit2(req *x402.VerifyRequest) (*scheme.Payment, error) {
	p, err := DecodePermit2(&req.PaymentPayload)
	if err != nil {
		return nil, err
	}
	asset, _ := x402.ParseAddress(req.PaymentRequirements.Asset)
	pay := &scheme.Payment{
		Key:   p.Key(s.cfg.ChainID),
		Hash:  crypto.Keccak256Hash(p.PayloadHash().Bytes(), scheme.RequirementsHash(&req.PaymentRequirements).Bytes()),
		Payer: p.From, PayTo: p.To, Asset: common.Address(asset), Amount: p.Amount,
		Mechanism: p,
	}
	if p.Deadline.IsInt64() {
		pay.ValidBefore = time.Unix(p.Deadline.Int64(), 0)
	}
	return pay, nil
}

// target is where the settlement call goes: the exact or upto Permit2
// proxy.
func (p *Permit2Payment) target() common.Address {
	if p.Upto {
		return UptoPermit2Proxy
	}
	return ExactPermit2Proxy
}

// call is the settlement: calldata, to the proxy.
func (p *Permit2Payment) call(s *Scheme, _ *scheme.Payment) scheme.Settlement {
	return scheme.Settlement{To: p.target(), Data: p.calldata(s)}
}

// calldata is the settlement call's: the proxy's settleWithPermit when the
// payment carries an EIP-2612 permit, settle otherwise.
func (p *Permit2Payment) calldata(*Scheme) []byte {
	permit := contracts.Permit2PermitTransferFrom{
		Permitted: contracts.Permit2TokenPermissions{Token: p.Token, Amount: p.Amount},
		Nonce:     p.Nonce, Deadline: p.Deadline,
	}
	var permit2612 *contracts.X402Permit2ProxyEIP2612Permit
	if e := p.Permit; e != nil {
		var r, sv [32]byte
		copy(r[:], e.Signature[:32])
		copy(sv[:], e.Signature[32:64])
		permit2612 = &contracts.X402Permit2ProxyEIP2612Permit{Value: e.Amount, Deadline: e.Deadline, R: r, S: sv, V: e.Signature[64]}
	}
	if p.Upto {
		proxy := contracts.NewX402UptoPermit2Proxy()
		amount := p.Settle
		if amount == nil {
			amount = p.Amount
		}
		witness := contracts.X402UptoPermit2ProxyWitness{To: p.To, Facilitator: p.Facilitator, ValidAfter: p.ValidAfter}
		if permit2612 != nil {
			return proxy.PackSettleWithPermit(*permit2612, permit, amount, p.From, witness, p.Signature[:])
		}
		return proxy.PackSettle(permit, amount, p.From, witness, p.Signature[:])
	}
	proxy := contracts.NewX402ExactPermit2Proxy()
	witness := contracts.X402ExactPermit2ProxyWitness{To: p.To, ValidAfter: p.ValidAfter}
	if permit2612 != nil {
		return proxy.PackSettleWithPermit(*permit2612, permit, p.From, witness, p.Signature[:])
	}
	return proxy.PackSettle(permit, p.From, witness, p.Signature[:])
}

// verify checks a Permit2 payment: the offer, the window, the signatures,
// then the chain (block time, balance, Permit2's allowance and nonce) and a
// simulation of the very settlement call, all at one block.
func (p *Permit2Payment) verify(ctx context.Context, s *Scheme, pay *scheme.Payment, req *x402.VerifyRequest) error {
	asset, err := s.matchRequirements(signed{p.To, p.Amount, "permit2Authorization.witness.to", "permit2Authorization.permitted.amount"}, &req.PaymentPayload.Accepted, &req.PaymentRequirements)
	if err != nil {
		return err
	}
	if p.Upto {
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an upto permit (its witness names a facilitator), the requirements are exact")
	}
	if !s.permit2[asset] {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "asset %s is not paid through Permit2 here (its offers name assetTransferMethod eip3009)", asset)
	}
	return s.verifyPermit2(ctx, p, asset, pay)
}

// scheme is the payment's scheme name.
func (p *Permit2Payment) scheme() string {
	if p.Upto {
		return x402.SchemeUpto
	}
	return x402.SchemeExact
}

// moves is what the settlement transfers: Settle for upto, the permitted
// amount for exact.
func (p *Permit2Payment) moves() *big.Int {
	if p.Upto && p.Settle != nil {
		return p.Settle
	}
	return p.Amount
}

// verifyPermit2 is the checks an exact and an upto Permit2 payment share,
// once the offer is matched: the spender, the window, the signatures and
// the chain.
//
// pay, if not nil, is marked Contract when the payer has code: Permit2
// then asks it (ERC-1271) rather than ecrecover, for an EIP-7702 account
// too.
func (s *Scheme) verifyPermit2(ctx context.Context, p *Permit2Payment, asset common.Address, pay *scheme.Payment) error {
	if p.Token != asset {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "permit2Authorization.permitted.token %s is not the asset %s", p.Token, asset)
	}
	if want := p.target(); p.Spender != want {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "permit2Authorization.spender %s is not x402's %s Permit2 proxy %s", p.Spender, p.scheme(), want)
	}
	now := s.cfg.Now()
	if err := s.checkPermit2Window(p, now.Unix()); err != nil {
		return err
	}
	if err := s.signedBy(Permit2Digest(s.cfg.ChainID, p), p.Signature, p.From, "signature"); err != nil {
		return err
	}
	if e := p.Permit; e != nil {
		if err := s.checkEIP2612(p, e, asset, now.Unix()); err != nil {
			return err
		}
	}
	st, err := s.checkPermit2Chain(ctx, asset, p, now)
	if pay != nil {
		pay.Contract, pay.Funds = st.hasCode, st.funds
	}
	return err
}

// checkPermit2Window: validAfter is past (the proxy refuses a payment
// before it) and the deadline leaves MinValidity to settle in.
func (s *Scheme) checkPermit2Window(p *Permit2Payment, now int64) error {
	if !p.ValidAfter.IsInt64() || p.ValidAfter.Int64() > now {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "permit is not valid yet: witness.validAfter %s is after now (%d)", p.ValidAfter, now)
	}
	if need := now + int64(s.cfg.MinValidity/time.Second); p.Deadline.IsInt64() && p.Deadline.Int64() < need {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "permit expires too soon: deadline %s, need at least %d (now + %v)", p.Deadline, need, s.cfg.MinValidity)
	}
	return nil
}

var _ mechanism = (*Permit2Payment)(nil)

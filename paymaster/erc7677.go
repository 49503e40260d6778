package paymaster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// ERC-7677 (Paymaster Web Service Capability) is how wallets and viem ask
// a paymaster for sponsorship: pm_getPaymasterStubData for the values to
// estimate gas with, then pm_getPaymasterData for the signed ones. Both
// take [userOp, entryPoint, chainId, context], and answer the paymaster's
// fields in that EntryPoint's form: paymasterAndData on v0.6
// (PaymasterData), paymaster, paymasterData and the paymaster's gas limits
// on v0.7 (PaymasterDataV07).

// PaymasterData is the result of pm_getPaymasterStubData (with IsFinal
// false) and of pm_getPaymasterData (without it).
type PaymasterData struct {
	// PaymasterAndData is the operation's paymasterAndData: the paymaster's
	// address, abi.encode(validUntil, validAfter) and a 65-byte signature.
	PaymasterAndData hexutil.Bytes `json:"paymasterAndData"`
	// IsFinal is false for stub data: the wallet must call
	// pm_getPaymasterData after estimating gas.
	IsFinal *bool `json:"isFinal,omitempty"`
	// Sponsor names who pays: the key's project.
	Sponsor *Sponsor `json:"sponsor,omitempty"`
}

// PaymasterDataV07 is PaymasterData on EntryPoint v0.7: the paymaster's
// fields apart.
type PaymasterDataV07 struct {
	Paymaster                     common.Address `json:"paymaster"`
	PaymasterData                 hexutil.Bytes  `json:"paymasterData"`
	PaymasterVerificationGasLimit *hexutil.Big   `json:"paymasterVerificationGasLimit"`
	PaymasterPostOpGasLimit       *hexutil.Big   `json:"paymasterPostOpGasLimit"`
	IsFinal                       *bool          `json:"isFinal,omitempty"`
	Sponsor                       *Sponsor       `json:"sponsor,omitempty"`
}

// paymasterResult is an ERC-7677 result: an EntryPoint's paymaster fields
// (entrypoint.EntryPoint.PaymasterFields), then isFinal and sponsor.
type paymasterResult struct {
	fields  any
	isFinal *bool
	sponsor *Sponsor
}

// MarshalJSON writes the paymaster's fields, then isFinal and sponsor, in
// one object.
func (r paymasterResult) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(r.fields)
	if err != nil {
		return nil, err
	}
	tail, err := json.Marshal(struct {
		IsFinal *bool    `json:"isFinal,omitempty"`
		Sponsor *Sponsor `json:"sponsor,omitempty"`
	}{r.isFinal, r.sponsor})
	if err != nil {
		return nil, err
	}
	if len(head) < 2 || head[0] != '{' || string(tail) == "{}" {
		return head, nil
	}
	if string(head) == "{}" {
		return tail, nil
	}
	return append(append(head[:len(head)-1], ','), tail[1:]...), nil
}

// Sponsor is ERC-7677's sponsor information, shown by some wallets.
type Sponsor struct {
	Name string `json:"name"`
}

// stubValidUntil is the stub's validUntil: all 48 bits set, so the stub
// has no more zero bytes than the real paymasterAndData (whose validUntil,
// a time before 2106, has two leading zero bytes): a bundler's
// preVerificationGas estimated with the stub covers the real one.
const stubValidUntil = 1<<48 - 1

// stubSignature is a well-formed signature, without a zero byte, by a
// throwaway key. The VerifyingPaymaster recovers it (OpenZeppelin's ECDSA
// reverts only on a malformed signature), finds it is not its signer's and
// returns SIG_VALIDATION_FAILED: validation takes the real signature's
// code path, so gas estimation works, but a bundler or the EntryPoint
// refuses the operation. The stub is of no use to send.
var stubSignature = func() []byte {
	for i := 0; ; i++ {
		key, err := crypto.ToECDSA(crypto.Keccak256([]byte(fmt.Sprintf("caddy-x402 ERC-7677 stub %d", i))))
		if err != nil {
			continue
		}
		sig, err := contracts.SignHash(common.Hash{}, key)
		if err == nil && !bytes.Contains(sig, []byte{0}) {
			return sig
		}
	}
}()

// erc7677Request is the parsed params of an ERC-7677 call.
type erc7677Request struct {
	ep *EntryPointConfig
	op entrypoint.UserOperation
	sc sponsorContext
}

// parseERC7677 parses [userOp, entryPoint, chainId, context] and checks
// the entry point and chain. A userOp with fields of another EntryPoint
// version is refused. With final set (pm_getPaymasterData), every gas and
// fee field must be given: the signature covers them as they are.
func (s *Service) parseERC7677(c *call, final bool) (erc7677Request, *Error) {
	var req erc7677Request
	if len(c.params) < 3 || len(c.params) > 4 {
		return req, &Error{Code: codeInvalidParams, Message: "params: want [userOp, entryPoint, chainId, context]"}
	}
	d, eerr := s.entryPointOf(c.params[1])
	if eerr != nil {
		return req, eerr
	}
	ep := d.EntryPoint
	if foreign := ep.ForeignFields(c.params[0]); len(foreign) > 0 {
		return req, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("userOp has %s, which EntryPoint v%s does not have: this paymaster serves EntryPoint v%s at %s; send that version's fields", strings.Join(foreign, ", "), ep.Version(), ep.Version(), ep.Address())}
	}
	op, derr := decodeUserOp(ep, c.params[0])
	if derr != nil {
		return req, derr
	}
	if err := s.checkChainID(c.params[2]); err != nil {
		return req, err
	}
	var rawContext json.RawMessage
	if len(c.params) == 4 {
		rawContext = c.params[3]
		if t := bytes.TrimSpace(rawContext); len(t) > 0 && t[0] != '{' && string(t) != "null" {
			return req, &Error{Code: codeInvalidParams, Message: "context: want an object ({type?, token?, validUntil?}) or null"}
		}
	}
	sc, cerr := decodeSponsorContext(rawContext)
	if cerr != nil {
		return req, cerr
	}
	if final {
		if err := gasGiven(op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas, op.MaxFeePerGas, op.MaxPriorityFeePerGas); err != nil {
			return req, err
		}
	}
	req.ep, req.op, req.sc = d, op, sc
	return req, nil
}

// checkChainID refuses a chainId (a 0x hex quantity, or a number) that is
// not this paymaster's chain.
func (s *Service) checkChainID(raw json.RawMessage) *Error {
	var id *big.Int
	var hex string
	if err := json.Unmarshal(raw, &hex); err == nil {
		n, err := hexutil.DecodeBig(hex)
		if err != nil {
			return &Error{Code: codeInvalidParams, Message: fmt.Sprintf("chainId %q: want a 0x hex quantity", hex)}
		}
		id = n
	} else {
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return &Error{Code: codeInvalidParams, Message: "chainId: want a 0x hex quantity"}
		}
		v, ok := new(big.Int).SetString(n.String(), 10)
		if !ok {
			return &Error{Code: codeInvalidParams, Message: "chainId: want a 0x hex quantity"}
		}
		id = v
	}
	if id.Cmp(s.cfg.ChainID) != 0 {
		return &Error{Code: codeInvalidParams, Message: fmt.Sprintf("chainId %s is not this paymaster's chain (%s)", id, hexutil.EncodeBig(s.cfg.ChainID))}
	}
	return nil
}

// paymasterStubData is pm_getPaymasterStubData(userOp, entryPoint,
// chainId, context): stub paymasterAndData for gas estimation, if the
// key's project would sponsor the operation now. It signs nothing,
// reserves nothing and spends nothing; it counts against the key's calls
// per minute like any call.
func (s *Service) paymasterStubData(ctx context.Context, c *call) (any, *Error) {
	p, perr := s.sponsoringProject(c)
	if perr != nil {
		return nil, perr
	}
	req, rerr := s.parseERC7677(c, false)
	if rerr != nil {
		return nil, rerr
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrSender.String(req.op.Sender.Hex()))
	}
	now := s.cfg.Now()
	if _, err := s.validUntil(req.sc, now); err != nil {
		return nil, err
	}
	d, op := req.ep, req.op
	ep := d.EntryPoint
	terms, inToken, terr := s.termsOf(ctx, d, req.sc)
	if terr != nil {
		return nil, terr
	}
	s.setPaymaster(d, &op, inToken, terms)
	if err := s.fillFees(ctx, c, p, &op); err != nil {
		return nil, err
	}
	if op.PreVerificationGas.Sign() == 0 {
		op.PreVerificationGas = ep.PreVerificationGas(op)
	}
	if op.VerificationGasLimit.Sign() == 0 {
		op.VerificationGasLimit = ep.DefaultVerificationGas(op.Deploys())
	}
	if op.CallGasLimit.Sign() == 0 {
		op.CallGasLimit = big.NewInt(250_000)
	}
	if err := s.checkGas(ep, &op, true); err != nil {
		return nil, err
	}
	paidInTokens := inToken && !(ep.HeldUntilLanded() && terms.Mode == TypePostpay)
	if _, err := s.lookLimits(ctx, p, &op, ep.MaxCost(&op), paidInTokens, now); err != nil {
		return nil, err
	}
	final := false
	op.PaymasterData = ep.VerifyingPaymasterData(stubValidUntil, 0, stubSignature)
	if inToken {
		terms.ValidUntil = stubValidUntil
		op.PaymasterData = ep.TokenPaymasterData(terms, stubSignature)
	}
	return paymasterResult{fields: ep.PaymasterFields(&op), isFinal: &final, sponsor: &Sponsor{Name: p.cfg.Name}}, nil
}

// paymasterData is pm_getPaymasterData(userOp, entryPoint, chainId,
// context): the real sponsorship of the operation with its gas and fee
// fields as given, signed and reserved as pm_sponsor_userop does.
func (s *Service) paymasterData(ctx context.Context, c *call) (any, *Error) {
	return s.inSponsorSpan(ctx, c, s.paymasterDataOp)
}

// paymasterDataOp is paymasterData without its span.
func (s *Service) paymasterDataOp(ctx context.Context, c *call) (any, *Error) {
	p, perr := s.sponsoringProject(c)
	if perr != nil {
		return nil, perr
	}
	req, rerr := s.parseERC7677(c, true)
	if rerr != nil {
		return nil, rerr
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrSender.String(req.op.Sender.Hex()))
	}
	op := req.op
	if err := s.sponsorCore(ctx, c, p, req.ep, &op, req.sc, true); err != nil {
		return nil, err
	}
	return paymasterResult{fields: req.ep.EntryPoint.PaymasterFields(&op), sponsor: &Sponsor{Name: p.cfg.Name}}, nil
}

// gasGiven refuses, for pm_getPaymasterData, an operation whose gas or fee
// fields (callGasLimit, verificationGasLimit, preVerificationGas,
// maxFeePerGas, maxPriorityFeePerGas, in that order; both EntryPoint
// versions have them) are zero: the signature covers them as given.
func gasGiven(call, verification, preVerification, maxFee, maxPriority *big.Int) *Error {
	var empty []string
	for i, v := range []*big.Int{call, verification, preVerification, maxFee, maxPriority} {
		if v.Sign() == 0 {
			empty = append(empty, [...]string{"callGasLimit", "verificationGasLimit", "preVerificationGas", "maxFeePerGas", "maxPriorityFeePerGas"}[i])
		}
	}
	if len(empty) == 0 {
		return nil
	}
	return &Error{Code: codeInvalidParams, Message: fmt.Sprintf("userOp: %s is zero: pm_getPaymasterData signs the gas and fee fields as given, so estimate them first (pm_getPaymasterStubData, then eth_estimateUserOperationGas), or use pm_sponsor_userop to have the paymaster fill them", strings.Join(empty, ", "))}
}

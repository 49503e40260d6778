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
	"github.com/caddy-x402/caddy-x402/x402"
)

// ERC-7677 (Paymaster Web Service Capability) is how wallets and viem ask
// a paymaster for sponsorship: pm_getPaymasterStubData for the values to
// estimate gas with, then pm_getPaymasterData for the signed ones. Both
// take [userOp, entryPoint, chainId, context]. This paymaster serves
// EntryPoint v0.6, so both answer paymasterAndData (never v0.7's
// paymaster, paymasterData and paymaster gas limits).

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
	op contracts.UserOperation
	sc sponsorContext
}

// erc7677Op is the userOp of an ERC-7677 call: a v0.6 operation, with the
// fields of other EntryPoint versions caught to be refused.
type erc7677Op struct {
	x402.UserOperation
	Factory                       json.RawMessage `json:"factory"`
	FactoryData                   json.RawMessage `json:"factoryData"`
	Paymaster                     json.RawMessage `json:"paymaster"`
	PaymasterData                 json.RawMessage `json:"paymasterData"`
	PaymasterVerificationGasLimit json.RawMessage `json:"paymasterVerificationGasLimit"`
	PaymasterPostOpGasLimit       json.RawMessage `json:"paymasterPostOpGasLimit"`
	EIP7702Auth                   json.RawMessage `json:"eip7702Auth"`
}

// parseERC7677 parses [userOp, entryPoint, chainId, context] and checks
// the entry point and chain. With final set (pm_getPaymasterData), every
// gas and fee field must be given: the signature covers them as they are.
func (s *Service) parseERC7677(c *call, final bool) (erc7677Request, *Error) {
	var req erc7677Request
	if len(c.params) < 3 || len(c.params) > 4 {
		return req, &Error{Code: codeInvalidParams, Message: "params: want [userOp, entryPoint, chainId, context]"}
	}
	var wire erc7677Op
	if err := json.Unmarshal(c.params[0], &wire); err != nil {
		return req, &Error{Code: codeInvalidParams, Message: "userOp: want an object of 0x hex strings"}
	}
	var v07 []string
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{
		{"factory", wire.Factory}, {"factoryData", wire.FactoryData}, {"paymaster", wire.Paymaster},
		{"paymasterData", wire.PaymasterData}, {"paymasterVerificationGasLimit", wire.PaymasterVerificationGasLimit},
		{"paymasterPostOpGasLimit", wire.PaymasterPostOpGasLimit}, {"eip7702Auth", wire.EIP7702Auth},
	} {
		if len(f.raw) > 0 && string(f.raw) != "null" {
			v07 = append(v07, f.name)
		}
	}
	if len(v07) > 0 {
		return req, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("userOp has %s, which EntryPoint v0.6 does not have: this paymaster serves EntryPoint v0.6 (%s); send initCode and no paymaster fields", strings.Join(v07, ", "), s.cfg.EntryPoint)}
	}
	op, derr := decodeUserOp(&wire.UserOperation)
	if derr != nil {
		return req, derr
	}
	if err := s.checkEntryPoint(c.params[1]); err != nil {
		return req, err
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
	req.op, req.sc = op, sc
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
	if len(c.params) >= 2 && s.isV07(c.params[1]) {
		return s.paymasterStubDataV07(ctx, c, p)
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
	op := req.op
	inToken := *req.sc.Type != TypeFree
	var terms contracts.TokenTerms
	if inToken {
		var terr *Error
		if terms, terr = s.tokenTerms(ctx, req.sc, s.cfg.TokenPaymaster); terr != nil {
			return nil, terr
		}
	}
	pndLen := s.paymasterDataLength(inToken)
	if err := s.fillFees(ctx, c, p, &op); err != nil {
		return nil, err
	}
	// The limits are looked at with the gas given, or the defaults
	// pm_sponsor_userop would fill for an empty field (no chain read).
	if op.PreVerificationGas.Sign() == 0 {
		op.PreVerificationGas = s.preVerificationGas(op, pndLen)
	}
	if op.VerificationGasLimit.Sign() == 0 {
		op.VerificationGasLimit = big.NewInt(200_000)
		if len(op.InitCode) > 0 {
			op.VerificationGasLimit = big.NewInt(600_000)
		}
	}
	if op.CallGasLimit.Sign() == 0 {
		op.CallGasLimit = big.NewInt(250_000)
	}
	if err := s.checkGas(&op, true, pndLen); err != nil {
		return nil, err
	}
	if _, err := s.lookLimits(ctx, p, &op, maxCost(&op), inToken, now); err != nil {
		return nil, err
	}
	final := false
	stub := contracts.PaymasterAndData(s.cfg.Paymaster, stubValidUntil, 0, stubSignature)
	if inToken {
		terms.ValidUntil = stubValidUntil
		stub = contracts.TokenPaymasterAndData(s.cfg.TokenPaymaster, terms, stubSignature)
	}
	return PaymasterData{
		PaymasterAndData: stub,
		IsFinal:          &final,
		Sponsor:          &Sponsor{Name: p.cfg.Name},
	}, nil
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
	if len(c.params) >= 2 && s.isV07(c.params[1]) {
		return s.paymasterDataV07(ctx, c, p)
	}
	req, rerr := s.parseERC7677(c, true)
	if rerr != nil {
		return nil, rerr
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrSender.String(req.op.Sender.Hex()))
	}
	op := req.op
	if err := s.sponsorCore(ctx, c, p, &op, req.sc, true); err != nil {
		return nil, err
	}
	return PaymasterData{PaymasterAndData: op.PaymasterAndData, Sponsor: &Sponsor{Name: p.cfg.Name}}, nil
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

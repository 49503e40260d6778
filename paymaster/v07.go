package paymaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/edge"
)

// EntryPoint v0.7 beside v0.6. With Config.EntryPointV07 and
// Config.PaymasterV07 set, pm_sponsor_userop, pm_getPaymasterStubData and
// pm_getPaymasterData whose entryPoint parameter is the v0.7 EntryPoint
// take and answer the v0.7 (ERC-7769) form of the operation, and the v0.7
// VerifyingPaymaster signs them: the same signer, projects, keys, limits
// and gas bounds as v0.6. The v0.7 paymaster's two gas limits are the
// paymaster's own choice, never the caller's: v0.7PaymasterVerificationGas
// for its ECDSA check and no postOp (the VerifyingPaymaster has none).
//
// With Config.TokenPaymasterV07 set too, types 1 and 2 (gas paid in an
// ERC-20) are served on v0.7 by TokenPaymasterV07, with its own limits
// (v07TokenPaymasterVerificationGas, ep07.TokenPostOpGasLimit). EntryPoint
// v0.7 calls postOp once: if a type 2 payer's call spends its tokens or
// revokes its allowance, postOp's transferFrom fails, the EntryPoint undoes
// the call and the deposit pays the gas with nothing in return (v0.6 calls
// postOp again and reverts the bundle instead). So a type 2 operation on
// v0.7 is held, like a type 0 one, against the project's balance, daily
// cap and per-operation cap until it lands: released whole if the token
// paymaster's GasPaidInToken for it follows, charged its actual cost (and
// its sender and owner suspended, as for a type 0 failure) if not. Type 1
// takes its maximum in tokens in validation, which stands whatever the
// call does, and draws nothing from the project, as on v0.6.

// v07PaymasterVerificationGas is the paymasterVerificationGasLimit the
// paymaster signs: the VerifyingPaymaster's validation (an ECDSA recovery
// over its getHash, about 30,000 gas) with room.
const v07PaymasterVerificationGas = 60_000

// v07TokenPaymasterVerificationGas is the paymasterVerificationGasLimit
// signed for TokenPaymasterV07: its ECDSA check and a transferFrom (type
// 1) or a balance and an allowance read (type 2), with room.
const v07TokenPaymasterVerificationGas = 100_000

// setPaymasterV07 gives op its paymaster, the paymaster's two gas limits
// and a paymasterData of the final length (unsigned): TokenPaymasterV07's
// on terms for a type 1 or 2 operation (inToken), the VerifyingPaymaster's
// otherwise.
func (s *Service) setPaymasterV07(op *ep07.UserOperation, inToken bool, terms contracts.TokenTerms) {
	if inToken {
		op.Paymaster = s.cfg.TokenPaymasterV07
		op.PaymasterVerificationGasLimit = big.NewInt(v07TokenPaymasterVerificationGas)
		op.PaymasterPostOpGasLimit = big.NewInt(ep07.TokenPostOpGasLimit(terms.Mode))
		op.PaymasterData = ep07.TokenPaymasterData(terms, make([]byte, 65))
		return
	}
	op.Paymaster = s.cfg.PaymasterV07
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = big.NewInt(v07PaymasterVerificationGas), new(big.Int)
	op.PaymasterData = ep07.VerifyingPaymasterData(0, 0, make([]byte, 65))
}

// isV07 reports whether the entryPoint parameter raw names the v0.7
// EntryPoint this paymaster serves.
func (s *Service) isV07(raw json.RawMessage) bool {
	var ep string
	return s.cfg.EntryPointV07 != (common.Address{}) && json.Unmarshal(raw, &ep) == nil &&
		common.IsHexAddress(ep) && common.HexToAddress(ep) == s.cfg.EntryPointV07
}

// shadowV06 is op as a v0.6 operation for the checks both versions share
// (fees, the account's owner, the project's limits): the initCode is the
// same, and v0.6's verificationGasLimit covers what v0.7 splits between the
// account and the paymaster.
func shadowV06(op *ep07.UserOperation) contracts.UserOperation {
	return contracts.UserOperation{
		Sender: op.Sender, Nonce: op.Nonce, InitCode: op.InitCode(), CallData: op.CallData,
		CallGasLimit: op.CallGasLimit, VerificationGasLimit: new(big.Int).Add(op.VerificationGasLimit, op.PaymasterVerificationGasLimit),
		PreVerificationGas: op.PreVerificationGas, MaxFeePerGas: op.MaxFeePerGas, MaxPriorityFeePerGas: op.MaxPriorityFeePerGas,
		PaymasterAndData: []byte{}, Signature: op.Signature,
	}
}

// maxCostV07 is the most a v0.7 operation can cost its paymaster: every
// gas limit, the paymaster's two included, at maxFeePerGas (the
// EntryPoint's requiredPrefund).
func maxCostV07(op *ep07.UserOperation) *big.Int {
	gas := new(big.Int).Add(op.VerificationGasLimit, op.CallGasLimit)
	gas.Add(gas, op.PaymasterVerificationGasLimit).Add(gas, op.PaymasterPostOpGasLimit).Add(gas, op.PreVerificationGas)
	return gas.Mul(gas, op.MaxFeePerGas)
}

// preVerificationGasV07 is preVerificationGas for the packed v0.7
// operation with its final paymasterAndData (op's paymaster fields, which
// setPaymasterV07 has set) and a 65-byte signature, priced as for v0.6
// (calldata, 21,000, 18,300 per operation).
func (s *Service) preVerificationGasV07(op ep07.UserOperation) *big.Int {
	filler := func(n int) []byte { return bytes.Repeat([]byte{1}, n) }
	op.PreVerificationGas = big.NewInt(21_000)
	op.PaymasterData = filler(len(op.PaymasterData))
	if len(op.Signature) < 65 {
		op.Signature = filler(65)
	}
	packed := ep07.NewEntryPoint().PackGetUserOpHash(op.Pack())[4:]
	gas := int64(21_000 + 18_300 + 4*((len(packed)+31)/32))
	for _, c := range packed {
		if c == 0 {
			gas += 4
		} else {
			gas += 16
		}
	}
	return big.NewInt(gas)
}

// decodeUserOpV07 parses a v0.7 operation; the paymaster's fields the
// caller sent are replaced by the paymaster's own.
func decodeUserOpV07(raw json.RawMessage) (ep07.UserOperation, *Error) {
	var wire ep07.UserOperationHex
	if err := json.Unmarshal(raw, &wire); err != nil {
		return ep07.UserOperation{}, &Error{Code: codeInvalidParams, Message: "userOp: want a v0.7 operation, an object of 0x hex strings"}
	}
	op, err := wire.Decode(true)
	if err != nil {
		return op, &Error{Code: codeInvalidParams, Message: "invalid v0.7 UserOperation: " + err.Error()}
	}
	return op, nil
}

// sponsorCoreV07 is sponsorCore for a v0.7 operation.
func (s *Service) sponsorCoreV07(ctx context.Context, c *call, p *project, op *ep07.UserOperation, sc sponsorContext, asGiven bool) *Error {
	now := s.cfg.Now()
	validUntil, verr := s.validUntil(sc, now)
	if verr != nil {
		return verr
	}
	var terms contracts.TokenTerms
	inToken := *sc.Type != TypeFree
	if inToken {
		var terr *Error
		if terms, terr = s.tokenTerms(ctx, sc, s.cfg.TokenPaymasterV07); terr != nil {
			return terr
		}
	}
	s.setPaymasterV07(op, inToken, terms)
	shadow := shadowV06(op)
	if err := s.fillFees(ctx, c, p, &shadow); err != nil {
		return err
	}
	op.MaxFeePerGas, op.MaxPriorityFeePerGas = shadow.MaxFeePerGas, shadow.MaxPriorityFeePerGas
	if err := s.fillGasV07(ctx, op); err != nil {
		return err
	}
	if err := s.checkGasV07(op, asGiven); err != nil {
		return err
	}
	cost := maxCostV07(op)
	// Type 2 on v0.7 is held against the project until it lands (see
	// above); type 1 is paid for in validation.
	held := !inToken || terms.Mode == TypePostpay
	shadow = shadowV06(op)
	owner, err := s.lookLimits(ctx, p, &shadow, cost, !held, now)
	if err != nil {
		return err
	}
	if inToken {
		// The contract's maximum: tokenCost(maxCost, rate), maxCost being
		// every gas limit at maxFeePerGas.
		if err := s.checkPayer(ctx, op.Sender, contracts.TokenCost(cost, terms.Rate), terms, s.cfg.TokenPaymasterV07); err != nil {
			return err
		}
		if err := s.signTokenV07(op, terms, uint64(validUntil.Unix())); err != nil {
			return err
		}
	} else {
		s.signV07(op, uint64(validUntil.Unix()))
	}
	if err := s.simulateV07(ctx, op); err != nil {
		return err
	}
	r := reservation{
		Hash: ep07.UserOpHash(*op, s.cfg.EntryPointV07, s.cfg.ChainID), Cost: cost,
		ValidUntil: validUntil.Unix(), Sender: op.Sender, Owner: owner,
	}
	if inToken {
		r.Token = terms.Token
		if !held {
			r.Cost = new(big.Int)
		}
	}
	if err := s.reserve(p, r, cost, now); err != nil {
		return err
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrUserOpHash.String(r.Hash.Hex()))
	}
	return nil
}

// signTokenV07 fills paymasterData with TokenPaymasterV07's terms t,
// signed, valid until validUntil.
func (s *Service) signTokenV07(op *ep07.UserOperation, t contracts.TokenTerms, validUntil uint64) *Error {
	t.ValidUntil = validUntil
	hash, err := ep07.TokenPaymasterHash(*op, s.cfg.TokenPaymasterV07, s.cfg.ChainID, t)
	if err != nil {
		return &Error{Code: codeInvalidParams, Message: "the UserOperation does not encode: " + err.Error()}
	}
	sig, err := contracts.SignHash(hash, s.cfg.Signer)
	if err != nil {
		return &Error{Code: codeInternal, Message: "signing failed"}
	}
	op.PaymasterData = ep07.TokenPaymasterData(t, sig)
	return nil
}

// fillGasV07 fills the gas fields the payer left empty, as fillGas does.
func (s *Service) fillGasV07(ctx context.Context, op *ep07.UserOperation) *Error {
	if op.PreVerificationGas.Sign() == 0 {
		op.PreVerificationGas = s.preVerificationGasV07(*op)
	}
	if op.VerificationGasLimit.Sign() == 0 {
		op.VerificationGasLimit = big.NewInt(150_000)
		if op.Factory != (common.Address{}) {
			op.VerificationGasLimit = big.NewInt(550_000)
		}
	}
	if op.CallGasLimit.Sign() == 0 {
		op.CallGasLimit = s.callGas(ctx, s.cfg.EntryPointV07, op.Sender, op.CallData)
	}
	return nil
}

// checkGasV07 is checkGas for a v0.7 operation: the account's
// verificationGasLimit with the paymaster's under v0.6's bound, the call
// under MaxCallGas, preVerificationGas near the paymaster's own figure.
func (s *Service) checkGasV07(op *ep07.UserOperation, asGiven bool) *Error {
	verification := s.cfg.MaxVerificationGas
	if op.Factory != (common.Address{}) {
		verification = s.cfg.MaxDeployVerificationGas
	}
	pvg := s.preVerificationGasV07(*op)
	pvgBound := new(big.Int).Add(pvg, new(big.Int).Div(pvg, big.NewInt(10)))
	pvgBound.Add(pvgBound, big.NewInt(10_000))
	for _, f := range []struct {
		name  string
		v     *big.Int
		bound *big.Int
	}{
		{"verificationGasLimit", new(big.Int).Add(op.VerificationGasLimit, op.PaymasterVerificationGasLimit), new(big.Int).SetUint64(verification)},
		{"callGasLimit", op.CallGasLimit, new(big.Int).SetUint64(s.cfg.MaxCallGas)},
		{"preVerificationGas", op.PreVerificationGas, pvgBound},
	} {
		if f.v.Cmp(f.bound) > 0 {
			hint := "send 0x to let it fill the field"
			if asGiven {
				hint = "estimate it without padding, or use pm_sponsor_userop to have the paymaster fill it"
			}
			what := f.name
			if what == "verificationGasLimit" {
				what = "verificationGasLimit with the paymaster's " + op.PaymasterVerificationGasLimit.String()
			}
			return &Error{Code: codeInvalidParams, Message: fmt.Sprintf("%s %s is over this paymaster's bound of %s; %s", what, f.v, f.bound, hint)}
		}
	}
	return nil
}

// signV07 fills paymasterData with a v0.7 VerifyingPaymaster signature
// valid until validUntil.
func (s *Service) signV07(op *ep07.UserOperation, validUntil uint64) {
	hash := ep07.VerifyingPaymasterHash(*op, s.cfg.PaymasterV07, s.cfg.ChainID, validUntil, 0)
	sig, err := contracts.SignHash(hash, s.cfg.Signer)
	if err != nil {
		panic(fmt.Sprintf("signing with a valid key: %v", err)) // crypto.Sign fails only on a bad key, which New refuses
	}
	op.PaymasterData = ep07.VerifyingPaymasterData(validUntil, 0, sig)
}

// simulateV07 runs simulateValidation through EntryPointSimulations (a
// state override): a FailedOp is a refusal, blamed on the paymaster (AA3x)
// or on the operation; the paymaster's own signature must hold. The
// account's signature is a well-formed throwaway one, whatever the caller
// sent (a wallet's stub may make OpenZeppelin 5's ECDSA revert): the owner
// signs after the paymaster. For a deployed account it then runs the call
// itself.
func (s *Service) simulateV07(ctx context.Context, op *ep07.UserOperation) *Error {
	sim := *op
	sim.Signature = dummySignature
	call, override := ep07.SimulateValidationCall(sim, s.cfg.EntryPointV07)
	var out hexutil.Bytes
	err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", call, "latest", override)
	if err != nil && revertData(err) == nil {
		return &Error{Code: codeInternal, Message: "the chain could not simulate the operation; retry"}
	}
	v, perr := ep07.ParseSimulation(out, revertData(err))
	switch {
	case errors.Is(perr, ep07.ErrFailedOp):
		code := codeSimulation
		if strings.Contains(perr.Error(), "AA3") {
			code = codePaymasterRejected
		}
		return &Error{Code: code, Message: "simulateValidation: " + strings.TrimPrefix(perr.Error(), "FailedOp: ")}
	case perr != nil:
		return &Error{Code: codeSimulation, Message: perr.Error()}
	case v.Paymaster.SigFailed:
		return &Error{Code: codePaymasterRejected, Message: "simulateValidation: the paymaster's signature does not validate"}
	case v.Paymaster.ValidUntil > 0 && int64(v.Paymaster.ValidUntil) < s.cfg.Now().Unix():
		return &Error{Code: codeOutOfTimeRange, Message: "the operation's validity window has passed; rebuild and resend"}
	}
	var code hexutil.Bytes
	if err := s.cfg.Chain.CallContext(ctx, &code, "eth_getCode", op.Sender, "latest"); err != nil || len(code) == 0 {
		return nil
	}
	exec := map[string]any{"from": s.cfg.EntryPointV07, "to": op.Sender, "data": hexutil.Bytes(op.CallData), "gas": hexutil.EncodeBig(op.CallGasLimit)}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", exec, "latest"); err != nil {
		e := &Error{Code: codeReverted, Message: "the operation's call reverts: " + err.Error()}
		if d := revertData(err); d != nil {
			e.Data = hexutil.Encode(d)
		}
		return e
	}
	return nil
}

// sponsorV07 is pm_sponsor_userop for the v0.7 EntryPoint.
func (s *Service) sponsorV07(ctx context.Context, c *call, p *project) (any, *Error) {
	op, derr := decodeUserOpV07(c.params[0])
	if derr != nil {
		return nil, derr
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrSender.String(op.Sender.Hex()))
	}
	var rawContext json.RawMessage
	if len(c.params) >= 3 {
		rawContext = c.params[2]
	}
	sc, cerr := decodeSponsorContext(rawContext)
	if cerr != nil {
		return nil, cerr
	}
	if err := s.sponsorCoreV07(ctx, c, p, &op, sc, false); err != nil {
		return nil, err
	}
	return op.Hex(), nil
}

// PaymasterDataV07 is the v0.7 result of pm_getPaymasterStubData (with
// IsFinal false) and pm_getPaymasterData (without it).
type PaymasterDataV07 struct {
	Paymaster                     common.Address `json:"paymaster"`
	PaymasterData                 hexutil.Bytes  `json:"paymasterData"`
	PaymasterVerificationGasLimit *hexutil.Big   `json:"paymasterVerificationGasLimit"`
	PaymasterPostOpGasLimit       *hexutil.Big   `json:"paymasterPostOpGasLimit"`
	IsFinal                       *bool          `json:"isFinal,omitempty"`
	Sponsor                       *Sponsor       `json:"sponsor,omitempty"`
}

// parseERC7677V07 is parseERC7677 for a v0.7 operation.
func (s *Service) parseERC7677V07(c *call, final bool) (ep07.UserOperation, sponsorContext, *Error) {
	var sc sponsorContext
	if len(c.params) < 3 || len(c.params) > 4 {
		return ep07.UserOperation{}, sc, &Error{Code: codeInvalidParams, Message: "params: want [userOp, entryPoint, chainId, context]"}
	}
	op, derr := decodeUserOpV07(c.params[0])
	if derr != nil {
		return op, sc, derr
	}
	if err := s.checkChainID(c.params[2]); err != nil {
		return op, sc, err
	}
	var rawContext json.RawMessage
	if len(c.params) == 4 {
		rawContext = c.params[3]
		if t := bytes.TrimSpace(rawContext); len(t) > 0 && t[0] != '{' && string(t) != "null" {
			return op, sc, &Error{Code: codeInvalidParams, Message: "context: want an object ({type?, token?, validUntil?}) or null"}
		}
	}
	sc, cerr := decodeSponsorContext(rawContext)
	if cerr != nil {
		return op, sc, cerr
	}
	if final {
		if err := gasGiven(op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas, op.MaxFeePerGas, op.MaxPriorityFeePerGas); err != nil {
			return op, sc, err
		}
	}
	return op, sc, nil
}

// paymasterStubDataV07 is pm_getPaymasterStubData for a v0.7 operation.
func (s *Service) paymasterStubDataV07(ctx context.Context, c *call, p *project) (any, *Error) {
	op, sc, rerr := s.parseERC7677V07(c, false)
	if rerr != nil {
		return nil, rerr
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrSender.String(op.Sender.Hex()))
	}
	now := s.cfg.Now()
	if _, err := s.validUntil(sc, now); err != nil {
		return nil, err
	}
	var terms contracts.TokenTerms
	inToken := *sc.Type != TypeFree
	if inToken {
		var terr *Error
		if terms, terr = s.tokenTerms(ctx, sc, s.cfg.TokenPaymasterV07); terr != nil {
			return nil, terr
		}
	}
	s.setPaymasterV07(&op, inToken, terms)
	shadow := shadowV06(&op)
	if err := s.fillFees(ctx, c, p, &shadow); err != nil {
		return nil, err
	}
	op.MaxFeePerGas, op.MaxPriorityFeePerGas = shadow.MaxFeePerGas, shadow.MaxPriorityFeePerGas
	if op.PreVerificationGas.Sign() == 0 {
		op.PreVerificationGas = s.preVerificationGasV07(op)
	}
	if op.VerificationGasLimit.Sign() == 0 {
		op.VerificationGasLimit = big.NewInt(150_000)
		if op.Factory != (common.Address{}) {
			op.VerificationGasLimit = big.NewInt(550_000)
		}
	}
	if op.CallGasLimit.Sign() == 0 {
		op.CallGasLimit = big.NewInt(250_000)
	}
	if err := s.checkGasV07(&op, true); err != nil {
		return nil, err
	}
	shadow = shadowV06(&op)
	held := !inToken || terms.Mode == TypePostpay
	if _, err := s.lookLimits(ctx, p, &shadow, maxCostV07(&op), !held, now); err != nil {
		return nil, err
	}
	final := false
	stub := ep07.VerifyingPaymasterData(stubValidUntil, 0, stubSignature)
	if inToken {
		terms.ValidUntil = stubValidUntil
		stub = ep07.TokenPaymasterData(terms, stubSignature)
	}
	return PaymasterDataV07{
		Paymaster: op.Paymaster, PaymasterData: stub,
		PaymasterVerificationGasLimit: (*hexutil.Big)(op.PaymasterVerificationGasLimit), PaymasterPostOpGasLimit: (*hexutil.Big)(op.PaymasterPostOpGasLimit),
		IsFinal: &final, Sponsor: &Sponsor{Name: p.cfg.Name},
	}, nil
}

// paymasterDataV07 is pm_getPaymasterData for a v0.7 operation.
func (s *Service) paymasterDataV07(ctx context.Context, c *call, p *project) (any, *Error) {
	op, sc, rerr := s.parseERC7677V07(c, true)
	if rerr != nil {
		return nil, rerr
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrSender.String(op.Sender.Hex()))
	}
	if err := s.sponsorCoreV07(ctx, c, p, &op, sc, true); err != nil {
		return nil, err
	}
	return PaymasterDataV07{
		Paymaster: op.Paymaster, PaymasterData: op.PaymasterData,
		PaymasterVerificationGasLimit: (*hexutil.Big)(op.PaymasterVerificationGasLimit), PaymasterPostOpGasLimit: (*hexutil.Big)(op.PaymasterPostOpGasLimit),
		Sponsor: &Sponsor{Name: p.cfg.Name},
	}, nil
}

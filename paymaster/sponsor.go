package paymaster

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
	"github.com/ethereum/go-ethereum/rpc"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

func (s *Service) entrypoints(context.Context, *call) (any, *Error) {
	if s.cfg.EntryPointV07 != (common.Address{}) {
		return []string{s.cfg.EntryPoint.Hex(), s.cfg.EntryPointV07.Hex()}, nil
	}
	return []string{s.cfg.EntryPoint.Hex()}, nil
}

// SupportedTokens is the result of pm_supported_tokens.
type SupportedTokens struct {
	// FreeGas is true: type 0 sponsorship, gas paid by the project.
	FreeGas bool `json:"freeGas"`
	// Native describes the gas the paymaster pays in.
	Native NativeGas `json:"native"`
	// Tokens lists the ERC-20 tokens accepted for gas (types 1 and 2),
	// priced now.
	Tokens []SupportedToken `json:"tokens"`
}

// NativeGas is the native coin's gas information.
type NativeGas struct {
	Symbol       string       `json:"symbol"`
	Decimals     int          `json:"decimals"`
	MaxFeePerGas *hexutil.Big `json:"maxFeePerGas"`
	Paymaster    string       `json:"paymaster"`
}

func (s *Service) supportedTokens(ctx context.Context, c *call) (any, *Error) {
	// The entryPoint parameter may name either version; the native
	// paymaster answered is that version's.
	native := s.cfg.Paymaster
	if len(c.params) >= 2 {
		if s.isV07(c.params[1]) {
			native = s.cfg.PaymasterV07
		} else if err := s.checkEntryPoint(c.params[1]); err != nil {
			return nil, err
		}
	}
	p, perr := s.projectOf(c)
	if perr != nil {
		return nil, perr
	}
	ceiling, err := s.feeCeiling(ctx, c, p)
	if err != nil {
		return nil, err
	}
	return SupportedTokens{
		FreeGas: true,
		Native:  NativeGas{Symbol: "ETH", Decimals: 18, MaxFeePerGas: (*hexutil.Big)(ceiling), Paymaster: native.Hex()},
		Tokens:  s.supportedList(ctx),
	}, nil
}

// projectOf is the definition in force of the key's project (nil if it has
// none), read anew for a stored one. A project of another network is
// refused.
func (s *Service) projectOf(c *call) (*project, *Error) {
	p, err := s.lookup(c.key.Project)
	if err != nil {
		s.log.Error("reading the key's project", zap.String("project", c.key.Project), zap.Error(err))
		return nil, &Error{Code: codeInternal, Message: "the project store is unavailable; retry"}
	}
	if p != nil && p.network != s.cfg.Network {
		return nil, &Error{Code: codePaymasterRejected, Message: fmt.Sprintf("the key's project %q is on %s; this paymaster serves %s", c.key.Project, p.network, s.cfg.Network)}
	}
	return p, nil
}

func (s *Service) checkEntryPoint(raw json.RawMessage) *Error {
	var ep string
	if err := json.Unmarshal(raw, &ep); err != nil || !common.IsHexAddress(ep) {
		return &Error{Code: codeInvalidParams, Message: "entryPoint: want an address"}
	}
	if common.HexToAddress(ep) != s.cfg.EntryPoint {
		return &Error{Code: codeInvalidParams, Message: fmt.Sprintf("entryPoint %s is not supported; use %s", ep, s.cfg.EntryPoint)}
	}
	return nil
}

// sponsorContext is the 4th parameter of pm_sponsor_userop.
type sponsorContext struct {
	Type       *int    `json:"type"`
	Token      string  `json:"token,omitempty"`
	ValidUntil *uint64 `json:"validUntil,omitempty"`
}

// feeCeiling is the project's maxFeePerGas ceiling.
func (s *Service) feeCeiling(ctx context.Context, c *call, p *project) (*big.Int, *Error) {
	if p != nil && p.cfg.MaxFeePerGas != nil {
		return p.cfg.MaxFeePerGas, nil
	}
	base, err := s.baseFee(ctx, c)
	if err != nil {
		return nil, err
	}
	return new(big.Int).Add(new(big.Int).Mul(base, big.NewInt(3)), big.NewInt(5_000_000_000)), nil
}

// baseFee is the latest block's base fee, read once for all the calls of
// c's request.
func (s *Service) baseFee(ctx context.Context, c *call) (*big.Int, *Error) {
	if c.reads == nil {
		return readBaseFee(ctx, s.cfg.Chain)
	}
	return c.reads.baseFee(ctx, s.cfg.Chain)
}

// readBaseFee reads the latest block's base fee.
func readBaseFee(ctx context.Context, chain Chain) (*big.Int, *Error) {
	var head struct {
		BaseFee *hexutil.Big `json:"baseFeePerGas"`
	}
	if err := chain.CallContext(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil || head.BaseFee == nil {
		return nil, &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	return head.BaseFee.ToInt(), nil
}

// sponsor is pm_sponsor_userop(userOp, [apiKey], entryPoint, context).
func (s *Service) sponsor(ctx context.Context, c *call) (any, *Error) {
	return s.inSponsorSpan(ctx, c, s.sponsorOp)
}

// inSponsorSpan runs a sponsorship method, op, in the sponsor span, named
// by the key's project and ended with op's refusal, if any.
func (s *Service) inSponsorSpan(ctx context.Context, c *call, op func(context.Context, *call) (any, *Error)) (any, *Error) {
	ctx, span := startSpan(ctx, spanSponsor)
	if span.IsRecording() {
		span.SetAttributes(attrProject.String(c.key.Project))
	}
	res, rerr := op(ctx, c)
	endSponsor(span, rerr)
	return res, rerr
}

// sponsorOp is sponsor without its span.
func (s *Service) sponsorOp(ctx context.Context, c *call) (any, *Error) {
	p, perr := s.sponsoringProject(c)
	if perr != nil {
		return nil, perr
	}
	if len(c.params) < 2 {
		return nil, &Error{Code: codeInvalidParams, Message: "params: want [userOp, entryPoint, context]"}
	}
	if s.isV07(c.params[1]) {
		return s.sponsorV07(ctx, c, p)
	}
	var wire x402.UserOperation
	if err := json.Unmarshal(c.params[0], &wire); err != nil {
		return nil, &Error{Code: codeInvalidParams, Message: "userOp: want an object of 0x hex strings: " + err.Error()}
	}
	op, derr := decodeUserOp(&wire)
	if derr != nil {
		return nil, derr
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrSender.String(op.Sender.Hex()))
	}
	if err := s.checkEntryPoint(c.params[1]); err != nil {
		return nil, err
	}
	var rawContext json.RawMessage
	if len(c.params) >= 3 {
		rawContext = c.params[2]
	}
	sc, cerr := decodeSponsorContext(rawContext)
	if cerr != nil {
		return nil, cerr
	}
	if err := s.sponsorCore(ctx, c, p, &op, sc, false); err != nil {
		return nil, err
	}
	return encodeUserOp(&op), nil
}

// sponsoringProject is the key's project for a sponsorship: it must be
// configured (or stored) on this paymaster.
func (s *Service) sponsoringProject(c *call) (*project, *Error) {
	p, perr := s.projectOf(c)
	if perr != nil {
		return nil, perr
	}
	if p == nil {
		return nil, &Error{Code: codePaymasterRejected, Message: fmt.Sprintf("the key's project %q is not configured on this paymaster", c.key.Project)}
	}
	return p, nil
}

// decodeSponsorContext parses a sponsorship context ({type, token?,
// validUntil?}; null or absent is type 0). Unknown fields are ignored.
func decodeSponsorContext(raw json.RawMessage) (sponsorContext, *Error) {
	sc := sponsorContext{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &sc); err != nil {
			return sc, &Error{Code: codeInvalidParams, Message: "context: want {type, token?, validUntil?}"}
		}
	}
	if sc.Type == nil {
		sc.Type = new(int)
	}
	if *sc.Type < TypeFree || *sc.Type > TypePostpay {
		return sc, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("sponsorship type %d is unknown: want 0 (free gas), 1 (gas prepaid in an ERC-20, the rest refunded) or 2 (gas paid in an ERC-20 after execution)", *sc.Type)}
	}
	return sc, nil
}

// validUntil is the end of a sponsorship's validity asked at now: the
// service's validity, or the context's validUntil (more than 5 s ahead,
// at most an hour). A sponsorship paying in a token is held to the
// token's RateValidity, the window its markup covers: its default end is
// no later, and a later validUntil asked for is refused (-32602), since
// the rate signed in it could not be trusted that long.
func (s *Service) validUntil(sc sponsorContext, now time.Time) (time.Time, *Error) {
	validity, longest := time.Duration(s.validity.Load()), time.Hour
	if *sc.Type != TypeFree && common.IsHexAddress(sc.Token) {
		if t, ok := s.token(common.HexToAddress(sc.Token)); ok {
			validity, longest = min(validity, t.RateValidity), t.RateValidity
			if latest := now.Add(t.RateValidity).Unix(); sc.ValidUntil != nil && *sc.ValidUntil > uint64(latest) {
				return time.Time{}, &Error{Code: codeInvalidParams, Data: map[string]any{"maxValidUntil": latest, "rateValidity": int64(t.RateValidity / time.Second)},
					Message: fmt.Sprintf("validUntil %d is more than %s ahead (now %d): a rate in token %s is signed for at most %s, the price move its markup covers; ask for validUntil %d or earlier, or leave it out", *sc.ValidUntil, t.RateValidity, now.Unix(), t.Address, t.RateValidity, latest)}
			}
		}
	}
	validUntil := now.Add(validity)
	if sc.ValidUntil != nil {
		if int64(min(*sc.ValidUntil, 1<<62)) <= now.Unix()+5 {
			return validUntil, &Error{Code: codeOutOfTimeRange, Message: fmt.Sprintf("validUntil %d is not more than 5 s in the future (now %d); rebuild the operation and resend", *sc.ValidUntil, now.Unix())}
		}
		validUntil = time.Unix(int64(min(*sc.ValidUntil, uint64(now.Add(longest).Unix()))), 0)
	}
	return validUntil, nil
}

// fillFees fills the fee fields the payer left empty from the network, and
// holds maxFeePerGas to the project's ceiling.
func (s *Service) fillFees(ctx context.Context, c *call, p *project, op *contracts.UserOperation) *Error {
	ceiling, err := s.feeCeiling(ctx, c, p)
	if err != nil {
		return err
	}
	if op.MaxPriorityFeePerGas.Sign() == 0 {
		op.MaxPriorityFeePerGas = big.NewInt(1_000_000_000)
	}
	if op.MaxFeePerGas.Sign() == 0 {
		base, err := s.baseFee(ctx, c)
		if err != nil {
			return err
		}
		op.MaxFeePerGas = new(big.Int).Add(new(big.Int).Mul(base, big.NewInt(2)), op.MaxPriorityFeePerGas)
	}
	if op.MaxFeePerGas.Cmp(ceiling) > 0 {
		return &Error{Code: codeThrottled, Message: fmt.Sprintf("maxFeePerGas %s is over the ceiling of %s wei", op.MaxFeePerGas, ceiling)}
	}
	return nil
}

// sponsorCore sponsors op for project p under context sc: it fills the
// gas and fee fields left empty (none, when the caller has refused empty
// ones: asGiven), checks them against the bounds and the project's limits,
// signs, simulates and reserves the operation's maximum cost. On success
// op carries its paymasterAndData; its other fields are as given or
// filled.
func (s *Service) sponsorCore(ctx context.Context, c *call, p *project, op *contracts.UserOperation, sc sponsorContext, asGiven bool) *Error {
	now := s.cfg.Now()
	validUntil, verr := s.validUntil(sc, now)
	if verr != nil {
		return verr
	}
	// Types 1 and 2 are priced now; the rate is signed into the operation.
	var terms contracts.TokenTerms
	inToken := *sc.Type != TypeFree
	if inToken {
		var terr *Error
		if terms, terr = s.tokenTerms(ctx, sc, s.cfg.TokenPaymaster); terr != nil {
			return terr
		}
	}
	pndLen := s.paymasterDataLength(inToken)
	if err := s.fillFees(ctx, c, p, op); err != nil {
		return err
	}
	if err := s.fillGas(ctx, op, pndLen); err != nil {
		return err
	}
	if err := s.checkGas(op, asGiven, pndLen); err != nil {
		return err
	}
	cost := maxCost(op)

	// A cheap look at the limits before the chain work; the real
	// reservation is taken atomically at the end.
	owner, err := s.lookLimits(ctx, p, op, cost, inToken, now)
	if err != nil {
		return err
	}

	if inToken {
		if err := s.checkPayer(ctx, op.Sender, maxTokens(op, terms), terms, s.cfg.TokenPaymaster); err != nil {
			return err
		}
		if err := s.signToken(op, terms, uint64(validUntil.Unix())); err != nil {
			return err
		}
	} else if err := s.sign(ctx, op, uint64(validUntil.Unix())); err != nil {
		return err
	}
	if err := s.simulate(ctx, op); err != nil {
		return err
	}
	r := reservation{
		Hash: contracts.UserOpHash(*op, s.cfg.EntryPoint, s.cfg.ChainID), Cost: cost,
		ValidUntil: validUntil.Unix(), Sender: op.Sender, Owner: owner,
	}
	if inToken {
		r.Cost, r.Token = new(big.Int), terms.Token
	}
	if err := s.reserve(p, r, cost, now); err != nil {
		return err
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrUserOpHash.String(r.Hash.Hex()))
	}
	return nil
}

// lookLimits is a look, without a reservation, at whether p's limits and
// the failure pause let op of maximum cost be sponsored now; it returns
// the account's owner.
func (s *Service) lookLimits(ctx context.Context, p *project, op *contracts.UserOperation, cost *big.Int, inToken bool, now time.Time) (common.Address, *Error) {
	owner, err := s.ownerOf(ctx, op)
	if err != nil {
		return owner, err
	}
	s.refresh(ctx, now, false)
	if err := s.paused(op.Sender, owner, now); err != nil {
		return owner, err
	}
	led, lerr := s.loadProject(p.cfg.Name)
	if lerr != nil {
		s.log.Error("reading the paymaster's ledger", zap.Error(lerr))
		return owner, errLedger()
	}
	return owner, led.check(p, op.Sender, cost, inToken, now)
}

// errLedger answers a request the ledger could not serve; the cause is
// logged.
func errLedger() *Error {
	return &Error{Code: codeInternal, Message: "the sponsorship ledger is unavailable; retry"}
}

// reserve takes r for project p, under the limits in force now: a
// configured project's as configured now (a reload may have changed them
// since the request began), a stored project's as read for this request
// (fn does no I/O of its own, as it runs inside the ledger's update).
// Nothing is taken if a limit refuses it or the ledger fails. cost is the
// operation's maximum cost (r.Cost is 0 for one paid in tokens, unless
// held).
func (s *Service) reserve(p *project, r reservation, cost *big.Int, now time.Time) *Error {
	name := p.cfg.Name
	var refused *Error
	err := s.updateProject(name, func(l *projectLedger) (bool, error) {
		p := p
		if !p.stored {
			if p = s.project(name); p == nil {
				refused = &Error{Code: codePaymasterRejected, Message: fmt.Sprintf("the key's project %q is not configured on this paymaster", name)}
				return false, nil
			}
		}
		if refused = l.check(p, r.Sender, cost, r.paidInTokens(), now); refused != nil {
			return false, nil
		}
		l.reserve(r, now)
		return true, nil
	})
	if err != nil {
		s.log.Error("reserving a sponsorship", zap.Error(err))
		return errLedger()
	}
	return refused
}

// ownerOf is the owner of the operation's SimpleAccount: the createAccount
// argument of its initCode, or the deployed account's owner(). An account
// of another kind has no owner known here (the zero address).
func (s *Service) ownerOf(ctx context.Context, op *contracts.UserOperation) (common.Address, *Error) {
	if len(op.InitCode) >= 20+4+32 {
		return common.BytesToAddress(op.InitCode[24:56]), nil
	}
	var out hexutil.Bytes
	msg := map[string]any{"to": op.Sender, "data": hexutil.Bytes(s.account.PackOwner())}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", msg, "latest"); err != nil {
		if revertData(err) != nil {
			return common.Address{}, nil // not a SimpleAccount
		}
		return common.Address{}, &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	owner, err := s.account.UnpackOwner(out)
	if err != nil {
		return common.Address{}, nil
	}
	return owner, nil
}

// paused refuses a sender, or any account of an owner, whose sponsored
// operation failed in execution within FailurePause.
func (s *Service) paused(sender, owner common.Address, now time.Time) *Error {
	led, err := s.loadService()
	if err != nil {
		s.log.Error("reading the paymaster's ledger", zap.Error(err))
		return errLedger()
	}
	for _, a := range []common.Address{sender, owner} {
		if a == (common.Address{}) {
			continue
		}
		if at, ok := led.Failed[a]; ok {
			if left := s.cfg.FailurePause - now.Sub(time.UnixMilli(at)); left > 0 {
				return &Error{Code: codeThrottled, RetryAfter: left, Message: "a sponsored operation of this account or its owner failed in execution; its sponsorship is suspended"}
			}
		}
	}
	return nil
}

// decodeUserOp parses the spec's hex UserOperation, naming a bad field.
// Gas and fee fields may be empty ("0x" or absent): they are filled in.
func decodeUserOp(w *x402.UserOperation) (contracts.UserOperation, *Error) {
	op, err := contracts.UserOperationHex(*w).Decode(true)
	if err != nil {
		return op, &Error{Code: codeInvalidParams, Message: "invalid UserOperation: " + err.Error()}
	}
	op.PaymasterAndData = []byte{} // the paymaster writes its own
	return op, nil
}

func encodeUserOp(op *contracts.UserOperation) x402.UserOperation {
	return x402.UserOperation(op.Hex())
}

// maxCost is the most an operation can cost its paymaster under EntryPoint
// v0.6: every gas limit at maxFeePerGas, with verification counted three
// times (validation, and postOp's allowance).
func maxCost(op *contracts.UserOperation) *big.Int {
	gas := new(big.Int).Mul(op.VerificationGasLimit, big.NewInt(3))
	gas.Add(gas, op.CallGasLimit).Add(gas, op.PreVerificationGas)
	return gas.Mul(gas, op.MaxFeePerGas)
}

// paymasterDataLength is the length of the final paymasterAndData: the
// TokenPaymaster's (inToken) or the VerifyingPaymaster's.
func (s *Service) paymasterDataLength(inToken bool) int {
	if inToken {
		return contracts.TokenPaymasterDataLength
	}
	return len(contracts.PaymasterAndData(s.cfg.Paymaster, 0, 0, make([]byte, contracts.PaymasterSignatureLength)))
}

// preVerificationGas is what a bundler charges an operation before its
// validation runs, computed as ERC-4337 bundlers do (eth-infinitism's
// calcPreVerificationGas, for a bundle of one): the calldata cost of the
// ABI-packed operation with its final paymasterAndData (pndLen bytes) and a 65-byte
// signature, plus the transaction's 21,000, 18,300 per operation and 4 per
// packed word.
func (s *Service) preVerificationGas(op contracts.UserOperation, pndLen int) *big.Int {
	filler := func(n int) []byte { return bytes.Repeat([]byte{1}, n) }
	op.PreVerificationGas = big.NewInt(21_000)
	op.PaymasterAndData = filler(pndLen)
	if len(op.Signature) < 65 {
		op.Signature = filler(65)
	}
	packed := s.ep.PackSimulateValidation(op)[4:]
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

// checkGas refuses gas fields beyond the bounds the paymaster computes
// itself. The fee alone is not enough: a caller who inflates
// preVerificationGas and then bundles the operation itself collects the
// difference from the paymaster's deposit as the bundle's beneficiary.
// asGiven (ERC-7677) changes the advice: there the paymaster fills nothing.
func (s *Service) checkGas(op *contracts.UserOperation, asGiven bool, pndLen int) *Error {
	verification := s.cfg.MaxVerificationGas
	if len(op.InitCode) > 0 {
		verification = s.cfg.MaxDeployVerificationGas
	}
	pvg := s.preVerificationGas(*op, pndLen)
	pvgBound := new(big.Int).Add(pvg, new(big.Int).Div(pvg, big.NewInt(10)))
	pvgBound.Add(pvgBound, big.NewInt(10_000))
	for _, f := range []struct {
		name  string
		v     *big.Int
		bound *big.Int
	}{
		{"verificationGasLimit", op.VerificationGasLimit, new(big.Int).SetUint64(verification)},
		{"callGasLimit", op.CallGasLimit, new(big.Int).SetUint64(s.cfg.MaxCallGas)},
		{"preVerificationGas", op.PreVerificationGas, pvgBound},
	} {
		if f.v.Cmp(f.bound) > 0 {
			hint := "send 0x to let it fill the field"
			if asGiven {
				hint = "estimate it without padding, or use pm_sponsor_userop to have the paymaster fill it"
			}
			return &Error{Code: codeInvalidParams, Message: fmt.Sprintf("%s %s is over this paymaster's bound of %s; %s", f.name, f.v, f.bound, hint)}
		}
	}
	return nil
}

// fillGas fills the gas fields the payer left empty.
func (s *Service) fillGas(ctx context.Context, op *contracts.UserOperation, pndLen int) *Error {
	if op.PreVerificationGas.Sign() == 0 {
		op.PreVerificationGas = s.preVerificationGas(*op, pndLen)
	}
	if op.VerificationGasLimit.Sign() == 0 {
		op.VerificationGasLimit = big.NewInt(200_000)
		if len(op.InitCode) > 0 {
			op.VerificationGasLimit = big.NewInt(600_000)
		}
	}
	if op.CallGasLimit.Sign() == 0 {
		op.CallGasLimit = s.callGas(ctx, s.cfg.EntryPoint, op.Sender, op.CallData)
	}
	return nil
}

// callGas is the callGasLimit of an operation that left it empty: the
// account's call as entryPoint makes it, estimated, plus a fifth; 250,000
// for an account not deployed yet or a call the node cannot estimate.
func (s *Service) callGas(ctx context.Context, entryPoint, sender common.Address, callData []byte) *big.Int {
	var code hexutil.Bytes
	if err := s.cfg.Chain.CallContext(ctx, &code, "eth_getCode", sender, "latest"); err == nil && len(code) > 0 {
		var est hexutil.Uint64
		msg := map[string]any{"from": entryPoint, "to": sender, "data": hexutil.Bytes(callData)}
		if err := s.cfg.Chain.CallContext(ctx, &est, "eth_estimateGas", msg); err == nil {
			return big.NewInt(int64(est) + int64(est)/5)
		}
	}
	return big.NewInt(250_000)
}

// sign fills paymasterAndData with a VerifyingPaymaster signature valid
// until validUntil.
func (s *Service) sign(ctx context.Context, op *contracts.UserOperation, validUntil uint64) *Error {
	var out hexutil.Bytes
	msg := map[string]any{"to": s.cfg.Paymaster, "data": hexutil.Bytes(s.pm.PackSenderNonce(op.Sender))}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", msg, "latest"); err != nil {
		return &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	senderNonce, err := s.pm.UnpackSenderNonce(out)
	if err != nil {
		return &Error{Code: codeInternal, Message: "the paymaster contract answered unexpectedly"}
	}
	hash, err := contracts.VerifyingPaymasterHash(*op, s.cfg.Paymaster, s.cfg.ChainID, senderNonce, validUntil, 0)
	if err != nil {
		return &Error{Code: codeInvalidParams, Message: "the UserOperation does not encode: " + err.Error()}
	}
	sig, err := contracts.SignHash(hash, s.cfg.Signer)
	if err != nil {
		return &Error{Code: codeInternal, Message: "signing failed"}
	}
	op.PaymasterAndData = contracts.PaymasterAndData(s.cfg.Paymaster, validUntil, 0, sig)
	return nil
}

// dummySignature is a well-formed signature by a throwaway key, so that
// simulation of a not-yet-signed operation reaches the account's signature
// check (which then fails softly) instead of reverting on a malformed one.
var dummySignature = func() []byte {
	key, _ := crypto.ToECDSA(crypto.Keccak256([]byte("caddy-x402 paymaster simulation")))
	sig, _ := contracts.SignHash(common.Hash{}, key)
	return sig
}()

// simulate runs EntryPoint.simulateValidation, which always reverts in
// v0.6: ValidationResult is success; FailedOp is a refusal, blamed on the
// paymaster (AA3x: -32501) or on the operation (-32500). For a deployed
// account it then runs the call itself, and a revert is -32521.
func (s *Service) simulate(ctx context.Context, op *contracts.UserOperation) *Error {
	sim := *op
	if len(sim.Signature) != 65 {
		sim.Signature = dummySignature
	}
	msg := map[string]any{"to": s.cfg.EntryPoint, "data": hexutil.Bytes(s.ep.PackSimulateValidation(sim))}
	var out hexutil.Bytes
	err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", msg, "latest")
	data := revertData(err)
	if data == nil && err != nil {
		// No revert: the call itself failed (a timeout, a dropped
		// connection).
		s.log.Warn("simulating an operation", zap.Error(err))
		return &Error{Code: codeInternal, Message: "the chain could not simulate the operation; retry"}
	}
	if data == nil {
		return &Error{Code: codeInternal, Message: "simulateValidation did not answer as EntryPoint v0.6 does"}
	}
	res, uerr := s.ep.UnpackError(data)
	if uerr != nil {
		res = nil // a known error's selector with its data cut short
	}
	switch r := res.(type) {
	case *contracts.EntryPointValidationResult:
		if r.ReturnInfo.ValidUntil != nil && r.ReturnInfo.ValidUntil.Sign() > 0 && r.ReturnInfo.ValidUntil.Int64() < s.cfg.Now().Unix() {
			return &Error{Code: codeOutOfTimeRange, Message: "the operation's validity window has passed; rebuild and resend"}
		}
	case *contracts.EntryPointFailedOp:
		code := codeSimulation
		if strings.HasPrefix(r.Reason, "AA3") {
			code = codePaymasterRejected
		}
		return &Error{Code: code, Message: "simulateValidation: " + r.Reason, Data: map[string]any{"opIndex": r.OpIndex}}
	default:
		return &Error{Code: codeSimulation, Message: fmt.Sprintf("simulateValidation reverted unexpectedly: %v", uerr)}
	}

	var code hexutil.Bytes
	if err := s.cfg.Chain.CallContext(ctx, &code, "eth_getCode", op.Sender, "latest"); err != nil || len(code) == 0 {
		return nil // not deployed yet: its first operation deploys it
	}
	call := map[string]any{"from": s.cfg.EntryPoint, "to": op.Sender, "data": hexutil.Bytes(op.CallData), "gas": hexutil.EncodeBig(op.CallGasLimit)}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", call, "latest"); err != nil {
		e := &Error{Code: codeReverted, Message: "the operation's call reverts: " + err.Error()}
		if d := revertData(err); d != nil {
			e.Data = hexutil.Encode(d)
		}
		return e
	}
	return nil
}

// revertData returns the data of a reverted call, or nil.
func revertData(err error) []byte {
	var de rpc.DataError
	if err == nil || !errors.As(err, &de) {
		return nil
	}
	s, _ := de.ErrorData().(string)
	b, derr := hexutil.Decode(s)
	if derr != nil || len(b) < 4 {
		return nil
	}
	return b
}

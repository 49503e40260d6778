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
	"github.com/caddy-x402/caddy-x402/entrypoint"
)

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
	native := s.eps[0].Paymaster
	if len(c.params) >= 2 {
		d, err := s.entryPointOf(c.params[1])
		if err != nil {
			return nil, err
		}
		native = d.Paymaster
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
	traceSender(ctx, c.params[0])
	d, eerr := s.entryPointOf(c.params[1])
	if eerr != nil {
		return nil, eerr
	}
	op, derr := decodeUserOp(d.EntryPoint, c.params[0])
	if derr != nil {
		return nil, derr
	}
	var rawContext json.RawMessage
	if len(c.params) >= 3 {
		rawContext = c.params[2]
	}
	sc, cerr := decodeSponsorContext(rawContext)
	if cerr != nil {
		return nil, cerr
	}
	if err := s.sponsorCore(ctx, c, p, d, &op, sc, false); err != nil {
		return nil, err
	}
	return d.EntryPoint.EncodeOp(&op), nil
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
func (s *Service) fillFees(ctx context.Context, c *call, p *project, op *entrypoint.UserOperation) *Error {
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

// sponsorCore sponsors op on EntryPoint d for project p under context sc:
// it gives op this paymaster's fields, fills the gas and fee fields left
// empty (none, when the caller has refused empty ones: asGiven), checks
// them against the bounds and the project's limits, signs, simulates and
// reserves the operation's maximum cost. On success op carries its signed
// paymaster fields; its other fields are as given or filled.
func (s *Service) sponsorCore(ctx context.Context, c *call, p *project, d *EntryPointConfig, op *entrypoint.UserOperation, sc sponsorContext, asGiven bool) *Error {
	now := s.cfg.Now()
	validUntil, verr := s.validUntil(sc, now)
	if verr != nil {
		return verr
	}
	// Types 1 and 2 are priced now; the rate is signed into the operation.
	terms, inToken, terr := s.termsOf(ctx, d, sc)
	if terr != nil {
		return terr
	}
	ep := d.EntryPoint
	s.setPaymaster(d, op, inToken, terms)
	if err := s.fillFees(ctx, c, p, op); err != nil {
		return err
	}
	if err := s.fillGas(ctx, ep, op); err != nil {
		return err
	}
	if err := s.checkGas(ep, op, asGiven); err != nil {
		return err
	}
	cost := ep.MaxCost(op)
	// A type 1 operation is paid for in validation; a type 2 one is too,
	// unless the EntryPoint lets its postOp fail unpaid (see
	// entrypoints.go): then it is held against the project until it lands.
	paidInTokens := inToken && !(ep.HeldUntilLanded() && terms.Mode == TypePostpay)

	// A cheap look at the limits before the chain work; the real
	// reservation is taken atomically at the end.
	owner, err := s.lookLimits(ctx, p, op, cost, paidInTokens, now)
	if err != nil {
		return err
	}

	if inToken {
		if err := s.checkPayer(ctx, op.Sender, ep.MaxTokenCost(op, terms), terms, d.TokenPaymaster); err != nil {
			return err
		}
		if err := s.signToken(ep, op, terms, uint64(validUntil.Unix())); err != nil {
			return err
		}
	} else if err := s.sign(ctx, ep, op, uint64(validUntil.Unix())); err != nil {
		return err
	}
	if err := s.simulate(ctx, ep, op); err != nil {
		return err
	}
	r := reservation{
		Hash: ep.UserOpHash(op, s.cfg.ChainID), Cost: cost,
		ValidUntil: validUntil.Unix(), Sender: op.Sender, Owner: owner,
	}
	if inToken {
		r.Token = terms.Token
		if paidInTokens {
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

// termsOf prices a sponsorship paid in a token (types 1 and 2) on
// EntryPoint d; inToken is false for type 0.
func (s *Service) termsOf(ctx context.Context, d *EntryPointConfig, sc sponsorContext) (terms contracts.TokenTerms, inToken bool, err *Error) {
	if *sc.Type == TypeFree {
		return terms, false, nil
	}
	terms, err = s.tokenTerms(ctx, sc, d.TokenPaymaster)
	return terms, true, err
}

// setPaymaster gives op its paymaster on EntryPoint d, the paymaster's gas
// limits (where the version has them) and a paymasterData of the final
// length, unsigned: the token paymaster's on terms for a type 1 or 2
// operation (inToken), the VerifyingPaymaster's otherwise.
func (s *Service) setPaymaster(d *EntryPointConfig, op *entrypoint.UserOperation, inToken bool, terms contracts.TokenTerms) {
	op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = d.EntryPoint.PaymasterGas(inToken, terms.Mode)
	if inToken {
		op.Paymaster, op.PaymasterData = d.TokenPaymaster, d.EntryPoint.TokenPaymasterData(terms, make([]byte, contracts.PaymasterSignatureLength))
		return
	}
	op.Paymaster, op.PaymasterData = d.Paymaster, d.EntryPoint.VerifyingPaymasterData(0, 0, make([]byte, contracts.PaymasterSignatureLength))
}

// lookLimits is a look, without a reservation, at whether p's limits and
// the failure pause let op of maximum cost be sponsored now; it returns
// the account's owner.
func (s *Service) lookLimits(ctx context.Context, p *project, op *entrypoint.UserOperation, cost *big.Int, inToken bool, now time.Time) (common.Address, *Error) {
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
func (s *Service) ownerOf(ctx context.Context, op *entrypoint.UserOperation) (common.Address, *Error) {
	if initCode := op.InitCode(); len(initCode) >= 20+4+32 {
		return common.BytesToAddress(initCode[24:56]), nil
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

// decodeUserOp parses an operation in ep's wire form, naming a bad field.
// Gas and fee fields may be empty ("0x" or absent): they are filled in.
// The paymaster's fields are the paymaster's own, written later.
func decodeUserOp(ep entrypoint.EntryPoint, raw json.RawMessage) (entrypoint.UserOperation, *Error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return entrypoint.UserOperation{}, &Error{Code: codeInvalidParams, Message: "userOp: want an object of 0x hex strings"}
	}
	op, err := ep.DecodeOp(raw, true)
	if err != nil {
		return op, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("invalid UserOperation for EntryPoint v%s: %v", ep.Version(), err)}
	}
	return op, nil
}

// traceSender records, on the span in ctx, the sender of the operation
// raw: every EntryPoint version names it "sender". It is recorded before
// the operation is decoded, so that a refusal names it too.
func traceSender(ctx context.Context, raw json.RawMessage) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	var op struct {
		Sender string `json:"sender"`
	}
	if json.Unmarshal(raw, &op) == nil && common.IsHexAddress(op.Sender) {
		span.SetAttributes(edge.AttrSender.String(common.HexToAddress(op.Sender).Hex()))
	}
}

// checkGas refuses gas fields beyond the bounds the paymaster computes
// itself. The fee alone is not enough: a caller who inflates
// preVerificationGas and then bundles the operation itself collects the
// difference from the paymaster's deposit as the bundle's beneficiary.
// asGiven (ERC-7677) changes the advice: there the paymaster fills nothing.
// op carries its paymaster's fields at their final length.
func (s *Service) checkGas(ep entrypoint.EntryPoint, op *entrypoint.UserOperation, asGiven bool) *Error {
	verification := s.cfg.MaxVerificationGas
	if op.Deploys() {
		verification = s.cfg.MaxDeployVerificationGas
	}
	pvg := ep.PreVerificationGas(*op)
	pvgBound := new(big.Int).Add(pvg, new(big.Int).Div(pvg, big.NewInt(10)))
	pvgBound.Add(pvgBound, big.NewInt(10_000))
	for _, f := range []struct {
		name  string
		v     *big.Int
		bound *big.Int
	}{
		{"verificationGasLimit", ep.VerificationGas(op), new(big.Int).SetUint64(verification)},
		{"callGasLimit", op.CallGasLimit, new(big.Int).SetUint64(s.cfg.MaxCallGas)},
		{"preVerificationGas", op.PreVerificationGas, pvgBound},
	} {
		if f.v.Cmp(f.bound) > 0 {
			hint := "send 0x to let it fill the field"
			if asGiven {
				hint = "estimate it without padding, or use pm_sponsor_userop to have the paymaster fill it"
			}
			what := f.name
			if what == "verificationGasLimit" && f.v.Cmp(op.VerificationGasLimit) != 0 {
				what = "verificationGasLimit with the paymaster's " + op.PaymasterVerificationGasLimit.String()
			}
			return &Error{Code: codeInvalidParams, Message: fmt.Sprintf("%s %s is over this paymaster's bound of %s; %s", what, f.v, f.bound, hint)}
		}
	}
	return nil
}

// fillGas fills the gas fields the payer left empty; op carries its
// paymaster's fields at their final length.
func (s *Service) fillGas(ctx context.Context, ep entrypoint.EntryPoint, op *entrypoint.UserOperation) *Error {
	if op.PreVerificationGas.Sign() == 0 {
		op.PreVerificationGas = ep.PreVerificationGas(*op)
	}
	if op.VerificationGasLimit.Sign() == 0 {
		op.VerificationGasLimit = ep.DefaultVerificationGas(op.Deploys())
	}
	if op.CallGasLimit.Sign() == 0 {
		op.CallGasLimit = s.callGas(ctx, ep.Address(), op.Sender, op.CallData)
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

// sign fills paymasterData with a VerifyingPaymaster signature valid until
// validUntil; op names the VerifyingPaymaster.
func (s *Service) sign(ctx context.Context, ep entrypoint.EntryPoint, op *entrypoint.UserOperation, validUntil uint64) *Error {
	hash, err := ep.VerifyingPaymasterHash(ctx, s.cfg.Chain, op, s.cfg.ChainID, validUntil, 0)
	if errors.Is(err, entrypoint.ErrChain) {
		s.log.Warn("reading the paymaster's hash", zap.Error(err))
		return &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	if err != nil {
		return &Error{Code: codeInvalidParams, Message: "the UserOperation does not encode: " + err.Error()}
	}
	sig, err := contracts.SignHash(hash, s.cfg.Signer)
	if err != nil {
		return &Error{Code: codeInternal, Message: "signing failed"}
	}
	op.PaymasterData = ep.VerifyingPaymasterData(validUntil, 0, sig)
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

// simulate runs simulateValidation as ep's version does: a FailedOp is a
// refusal, blamed on the paymaster (AA3x: -32501) or on the operation
// (-32500); the paymaster's own signature and window must hold. The
// account's signature is a well-formed throwaway one, whatever the caller
// sent (a wallet's stub may make OpenZeppelin 5's ECDSA revert): the owner
// signs after the paymaster. For a deployed account it then runs the call
// itself, and a revert is -32521.
func (s *Service) simulate(ctx context.Context, ep entrypoint.EntryPoint, op *entrypoint.UserOperation) *Error {
	sim := *op
	sim.Signature = dummySignature
	call, override := ep.SimulationCall(&sim)
	args := []any{call, "latest"}
	if override != nil {
		args = append(args, override)
	}
	var out hexutil.Bytes
	err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", args...)
	revert := revertData(err)
	if err != nil && revert == nil {
		// No revert: the call itself failed (a timeout, a dropped
		// connection).
		s.log.Warn("simulating an operation", zap.Error(err))
		return &Error{Code: codeInternal, Message: "the chain could not simulate the operation; retry"}
	}
	v, perr := ep.ParseSimulation(out, revert)
	var failed *entrypoint.FailedOp
	switch {
	case errors.As(perr, &failed):
		code := codeSimulation
		if strings.HasPrefix(failed.Reason, "AA3") {
			code = codePaymasterRejected
		}
		e := &Error{Code: code, Message: "simulateValidation: " + failed.Reason}
		if failed.OpIndex != nil {
			e.Data = map[string]any{"opIndex": failed.OpIndex}
		}
		return e
	case errors.Is(perr, entrypoint.ErrUnanswered):
		return &Error{Code: codeInternal, Message: fmt.Sprintf("simulateValidation did not answer as EntryPoint v%s does", ep.Version())}
	case perr != nil:
		return &Error{Code: codeSimulation, Message: perr.Error()}
	case v.Paymaster.SigFailed:
		return &Error{Code: codePaymasterRejected, Message: "simulateValidation: the paymaster's signature does not validate"}
	case v.Paymaster.ValidUntil > 0 && int64(v.Paymaster.ValidUntil) < s.cfg.Now().Unix():
		return &Error{Code: codeOutOfTimeRange, Message: "the operation's validity window has passed; rebuild and resend"}
	}

	var code hexutil.Bytes
	if err := s.cfg.Chain.CallContext(ctx, &code, "eth_getCode", op.Sender, "latest"); err != nil || len(code) == 0 {
		return nil // not deployed yet: its first operation deploys it
	}
	exec := map[string]any{"from": ep.Address(), "to": op.Sender, "data": hexutil.Bytes(op.CallData), "gas": hexutil.EncodeBig(op.CallGasLimit)}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", exec, "latest"); err != nil {
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

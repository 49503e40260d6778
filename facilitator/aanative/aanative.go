// Package aanative is x402's aa-native scheme: an ERC-4337 v0.6
// UserOperation from the payer's SimpleAccount that approves the settlement
// contract and calls settle(merchant, token, amount, requestHash), with gas
// sponsored by the facilitator's VerifyingPaymaster or paid by the payer in
// an ERC-20 through its token paymaster (gastoken.go).
//
// It implements [scheme.Scheme] for the facilitator (scheme.go); a mined
// bundle is read in outcome.go, where an operation counts as paid only by
// its own evidence.
//
// Verification runs in a fixed order: the callData against the settlement
// call spec and the requirements, the sender's derivation, the owner's
// signature, the paymaster, EntryPoint.simulateValidation, and last the
// chain's own record of the request hash and the account's balance.
package aanative

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Chain is the chain access verification needs; *rpc.Client has it.
type Chain interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

// Config configures a Scheme.
type Config struct {
	ChainID *big.Int
	// Settlement is X402Settlement.
	Settlement common.Address
	// EntryPoints are the EntryPoints settled on, of any version, each
	// with its factory and paymasters; the first is the default offer's.
	// Empty, the one v0.6 EntryPoint the fields below name. See
	// entrypoints.go.
	EntryPoints []EntryPointConfig
	// EntryPoint, Factory and Paymaster are the v0.6 EntryPoint, the
	// canonical SimpleAccountFactory and the VerifyingPaymaster whose
	// sponsorship is required, when EntryPoints is empty.
	EntryPoint, Factory, Paymaster common.Address
	// TokenPaymaster, if set, is that EntryPoint's token paymaster (gas
	// paid in an ERC-20, sponsorship types 1 and 2), whose sponsorship is
	// accepted beside the VerifyingPaymaster's, when EntryPoints is empty;
	// zero accepts free gas only. See gastoken.go.
	TokenPaymaster common.Address
	// Assets are the allowlisted tokens.
	Assets []common.Address
	// Chain reads the chain.
	Chain Chain
	// Committed returns what the account's unfinished settlements in token
	// will take from its balance; the balance must cover that and the
	// payment. Nil counts nothing.
	Committed func(payer, token common.Address) *big.Int
	// MinValidity is how long after the next block an operation must stay
	// valid (its validUntil, and its paymaster's) to be accepted; default
	// 20 s, time to bundle and include it. An operation that expires
	// between the latest block and the next would revert its whole bundle.
	MinValidity time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Validate reports what is wrong with the configuration.
func (c *Config) Validate() error {
	var errs []error
	if c.ChainID == nil || c.Chain == nil {
		errs = append(errs, errors.New("chain id and chain are required"))
	}
	zero := common.Address{}
	switch {
	case len(c.EntryPoints) > 0:
		if c.Settlement == zero {
			errs = append(errs, errors.New("the settlement address is required"))
		}
		errs = append(errs, validateEntryPoints(c.EntryPoints)...)
		if c.EntryPoint != zero || c.Factory != zero || c.Paymaster != zero || c.TokenPaymaster != zero {
			errs = append(errs, errors.New("give EntryPoints or the single EntryPoint's fields (EntryPoint, Factory, Paymaster, TokenPaymaster), not both"))
		}
	default:
		if c.EntryPoint == zero || c.Factory == zero || c.Settlement == zero || c.Paymaster == zero {
			errs = append(errs, errors.New("entry point, factory, settlement and paymaster addresses are required"))
		}
	}
	if len(c.Assets) == 0 {
		errs = append(errs, errors.New("no assets are allowlisted for aa-native"))
	}
	return errors.Join(errs...)
}

// Scheme verifies aa-native payments.
type Scheme struct {
	cfg     Config
	network string
	eps     []EntryPointConfig
	ep      *contracts.EntryPoint
	account *contracts.SimpleAccount
	factory *contracts.SimpleAccountFactory
	settle  *contracts.X402Settlement
	token   *contracts.DevUSD
}

// New returns a Scheme.
func New(cfg Config) (*Scheme, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MinValidity <= 0 {
		cfg.MinValidity = 20 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Scheme{
		cfg: cfg, network: x402.FormatNetwork(cfg.ChainID.Uint64()), eps: cfg.entryPoints(),
		ep: contracts.NewEntryPoint(), account: contracts.NewSimpleAccount(), factory: contracts.NewSimpleAccountFactory(),
		settle: contracts.NewX402Settlement(), token: contracts.NewDevUSD(),
	}, nil
}

// Extra is what aa-native offers carry in their extra field.
func (s *Scheme) Extra(sponsorURL string) *x402.Extra {
	return s.Extras(sponsorURL)[0]
}

// Assets are the allowlisted tokens.
func (s *Scheme) Assets() []common.Address { return s.cfg.Assets }

// Payment is a decoded aa-native payment.
type Payment struct {
	// Op is the operation, for EntryPoint.
	Op          entrypoint.UserOperation
	EntryPoint  entrypoint.EntryPoint
	Merchant    common.Address
	Token       common.Address
	Amount      *big.Int
	RequestHash common.Hash
	// UserOpHash is the EntryPoint's hash of Op.
	UserOpHash common.Hash
	// Gas is what the operation's gas may cost the payer in a token when
	// it names a token paymaster; nil when its gas is free.
	Gas *GasInToken

	at *EntryPointConfig // EntryPoint with its contracts
	// funds is what checkChain read the account to hold, less the gas in
	// tokens this operation may take beyond its amount: what a fleet's
	// funded claim checks the amounts in flight against (scheme.Payment's
	// Funds); nil before checkChain.
	funds *big.Int
}

// decodePayload parses an aa-native payload for the EntryPoint req names.
// A payload that does not parse is malformed_request; a field of the wrong
// form, or of another EntryPoint version, is invalid_inner_payload.
func (s *Scheme) decodePayload(p *x402.PaymentPayload, req *x402.PaymentRequirements) (*Payment, error) {
	d := s.entryPointOf(req)
	ep := d.EntryPoint
	var raw struct {
		UserOp             map[string]json.RawMessage `json:"userOp"`
		SettlementCallSpec x402.SettlementCallSpec    `json:"settlementCallSpec"`
	}
	if err := json.Unmarshal(p.Payload, &raw); err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "payload is not an aa-native payment: %v", err)
	}
	if foreign := foreignFields(ep, p.Payload); len(foreign) > 0 {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "the offer is for EntryPoint v%s (%s): the userOp takes v%s's fields, not %s", ep.Version(), ep.Address(), ep.Version(), strings.Join(foreign, ", "))
	}
	userOp, _ := json.Marshal(raw.UserOp)
	op, err := ep.DecodeOp(userOp, false)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "userOp (EntryPoint v%s): %v", ep.Version(), err)
	}
	pay, err := s.decodeSpec(raw.SettlementCallSpec)
	if err != nil {
		return nil, err
	}
	pay.Op, pay.EntryPoint, pay.at = op, ep, d
	pay.UserOpHash = ep.UserOpHash(&op, s.cfg.ChainID)
	if pay.Gas, err = s.gasInToken(pay); err != nil {
		return nil, err
	}
	return pay, nil
}

// decodeSpec reads a payload's settlementCallSpec.
func (s *Scheme) decodeSpec(spec x402.SettlementCallSpec) (*Payment, error) {
	var errs []string
	merchant, e1 := x402.ParseAddress(spec.Merchant)
	token, e2 := x402.ParseAddress(spec.Token)
	amount, e3 := x402.ParseAmount(spec.Amount)
	rh, e4 := hexutil.Decode(spec.RequestHash)
	for field, err := range map[string]error{"merchant": e1, "token": e2, "amount": e3} {
		if err != nil {
			errs = append(errs, "settlementCallSpec."+field+": "+err.Error())
		}
	}
	if e4 != nil || len(rh) != 32 || bytes.Equal(rh, make([]byte, 32)) {
		errs = append(errs, "settlementCallSpec.requestHash: want 32 non-zero bytes in 0x hex")
	}
	if len(errs) > 0 {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "%s", strings.Join(errs, "; "))
	}
	return &Payment{Merchant: common.Address(merchant), Token: common.Address(token), Amount: amount, RequestHash: common.BytesToHash(rh)}, nil
}

// Settlement is the settle call a payment's callData makes.
type Settlement struct {
	Merchant, Token common.Address
	Amount          *big.Int
	RequestHash     common.Hash
}

// ParseCallData reads the settlement out of a SimpleAccount callData:
// executeBatch([token, settlement], [approve(settlement, amount),
// settle(…)]) or execute(settlement, 0, settle(…)). Anything else is an
// error saying what it is not.
func (s *Scheme) ParseCallData(callData []byte) (*Settlement, error) {
	return s.parseCallData(s.eps[0].EntryPoint, callData)
}

// parseCallData is ParseCallData for the SimpleAccount of ep's version.
func (s *Scheme) parseCallData(ep entrypoint.EntryPoint, callData []byte) (*Settlement, error) {
	method, calls, err := ep.DecodeAccountCall(callData)
	if err != nil {
		return nil, err
	}
	switch method {
	case "executeBatch":
		if slices.ContainsFunc(calls, func(c entrypoint.Call) bool { return c.Value != nil && c.Value.Sign() != 0 }) {
			return nil, errors.New("executeBatch must send no value")
		}
		if len(calls) != 2 {
			return nil, errors.New("executeBatch must make exactly two calls: approve, then settle")
		}
		dest := []common.Address{calls[0].Target, calls[1].Target}
		if dest[1] != s.cfg.Settlement {
			return nil, fmt.Errorf("the second call goes to %s, not the settlement contract %s", dest[1], s.cfg.Settlement)
		}
		abiToken, _ := contracts.DevUSDMetaData.ParseABI()
		if len(calls[0].Data) < 4 || !bytes.Equal(calls[0].Data[:4], abiToken.Methods["approve"].ID) {
			return nil, errors.New("the first call is not approve(settlement, amount)")
		}
		approve, err := abiToken.Methods["approve"].Inputs.Unpack(calls[0].Data[4:])
		if err != nil {
			return nil, fmt.Errorf("approve does not decode: %v", err)
		}
		settlement, err := s.parseSettle(calls[1].Data)
		if err != nil {
			return nil, err
		}
		if dest[0] != settlement.Token || approve[0].(common.Address) != s.cfg.Settlement || approve[1].(*big.Int).Cmp(settlement.Amount) != 0 {
			return nil, errors.New("approve must be on the paid token, to the settlement contract, for the settled amount")
		}
		return settlement, nil
	case "execute":
		if c := calls[0]; c.Target != s.cfg.Settlement || c.Value == nil || c.Value.Sign() != 0 {
			return nil, fmt.Errorf("execute must call the settlement contract %s with no value", s.cfg.Settlement)
		}
		return s.parseSettle(calls[0].Data)
	}
	return nil, fmt.Errorf("callData calls %s, not execute or executeBatch", method)
}

func (s *Scheme) parseSettle(data []byte) (*Settlement, error) {
	abiSettle, _ := contracts.X402SettlementMetaData.ParseABI()
	if len(data) < 4 || !bytes.Equal(data[:4], abiSettle.Methods["settle"].ID) {
		return nil, errors.New("the call to the settlement contract is not settle(merchant, token, amount, requestHash)")
	}
	args, err := abiSettle.Methods["settle"].Inputs.Unpack(data[4:])
	if err != nil {
		return nil, fmt.Errorf("settle does not decode: %v", err)
	}
	return &Settlement{Merchant: args[0].(common.Address), Token: args[1].(common.Address), Amount: args[2].(*big.Int), RequestHash: args[3].([32]byte)}, nil
}

// verifyPayment checks a decoded payment against the requirements and the
// chain. A refusal is an *x402.Error; any other error means the checks
// could not be made.
func (s *Scheme) verifyPayment(ctx context.Context, pay *Payment, accepted, req *x402.PaymentRequirements) error {
	if err := s.match(pay, accepted, req); err != nil {
		return err
	}
	owner, err := s.owner(ctx, pay)
	if err != nil {
		return err
	}
	signer, err := recoverSigner(pay.EntryPoint.AccountDigest(pay.UserOpHash), pay.Op.Signature)
	if err != nil || signer != owner {
		return x402.Invalid(x402.ReasonSignatureInvalid, "the UserOperation is not signed by the account's owner %s", owner)
	}
	if paymaster, ok := s.paymasterOf(pay); !ok {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the UserOperation is not sponsored by this facilitator's paymaster %s or its token paymaster (ask extra.sponsorUrl)", paymaster)
	}
	if err := s.simulate(ctx, pay); err != nil {
		return err
	}
	return s.checkChain(ctx, pay)
}

// match is check 1: the call spec against the requirements, and the
// callData against the call spec, field for field.
func (s *Scheme) match(pay *Payment, accepted, req *x402.PaymentRequirements) error {
	if req.Scheme != x402.SchemeAANative || accepted.Scheme != req.Scheme {
		return x402.Invalid(x402.ReasonSchemeMismatch, "accepted scheme %q, required %q; this verifier settles %q", accepted.Scheme, req.Scheme, x402.SchemeAANative)
	}
	if req.Network != s.network || accepted.Network != req.Network {
		return x402.Invalid(x402.ReasonNetworkMismatch, "network %q (accepted %q); this facilitator settles on %q", req.Network, accepted.Network, s.network)
	}
	reqAsset, _ := x402.ParseAddress(req.Asset)
	acc, _ := x402.ParseAddress(accepted.Asset)
	allowed := false
	for _, a := range s.cfg.Assets {
		allowed = allowed || a == common.Address(reqAsset)
	}
	if !allowed || acc != reqAsset || pay.Token != common.Address(reqAsset) {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "token %s (required %s) is not allowlisted or differs from the requirements", pay.Token, common.Address(reqAsset))
	}
	amount, _ := x402.ParseAmount(req.Amount)
	accAmount, _ := x402.ParseAmount(accepted.Amount)
	if accAmount.Cmp(amount) != 0 || pay.Amount.Cmp(amount) != 0 {
		return x402.Invalid(x402.ReasonAmountMismatch, "settlement amount %s (accepted %s) differs from the required %s", pay.Amount, accAmount, amount)
	}
	payTo, _ := x402.ParseAddress(req.PayTo)
	accPayTo, _ := x402.ParseAddress(accepted.PayTo)
	if accPayTo != payTo || pay.Merchant != common.Address(payTo) {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "settlement merchant %s (accepted %s) is not payTo %s", pay.Merchant, common.Address(accPayTo), common.Address(payTo))
	}
	call, err := s.parseCallData(pay.EntryPoint, pay.Op.CallData)
	if err != nil {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "%v", err)
	}
	if call.Merchant != pay.Merchant || call.Token != pay.Token || call.Amount.Cmp(pay.Amount) != 0 || call.RequestHash != pay.RequestHash {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the callData's settle(%s, %s, %s, %s) differs from settlementCallSpec", call.Merchant, call.Token, call.Amount, call.RequestHash)
	}
	return nil
}

// owner is check 2: with initCode, the canonical factory must derive the
// sender from (owner, salt); without, the account must exist, and its
// owner is read from it.
func (s *Scheme) owner(ctx context.Context, pay *Payment) (common.Address, error) {
	factory := pay.at.Factory
	if entrypoint.IsEIP7702(&pay.Op) {
		return s.delegatedOwner(ctx, pay)
	}
	if initCode := pay.Op.InitCode(); len(initCode) > 0 {
		if len(initCode) < 24 || common.BytesToAddress(initCode[:20]) != factory {
			return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "initCode must call the canonical factory %s", factory)
		}
		abiFactory, _ := contracts.SimpleAccountFactoryMetaData.ParseABI()
		m := abiFactory.Methods["createAccount"]
		if !bytes.Equal(initCode[20:24], m.ID) {
			return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "initCode must be createAccount(owner, salt)")
		}
		args, err := m.Inputs.Unpack(initCode[24:])
		if err != nil {
			return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "initCode does not decode: %v", err)
		}
		owner, salt := args[0].(common.Address), args[1].(*big.Int)
		var out hexutil.Bytes
		if err := s.call(ctx, factory, s.factory.PackGetAddress(owner, salt), &out); err != nil {
			return common.Address{}, err
		}
		derived, err := s.factory.UnpackGetAddress(out)
		if err != nil {
			return common.Address{}, fmt.Errorf("decoding getAddress: %w", err)
		}
		if derived != pay.Op.Sender {
			return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "sender %s is not the factory's account of owner %s and salt %s (%s)", pay.Op.Sender, owner, salt, derived)
		}
		return owner, nil
	}
	var code hexutil.Bytes
	if err := s.cfg.Chain.CallContext(ctx, &code, "eth_getCode", pay.Op.Sender, "latest"); err != nil {
		return common.Address{}, fmt.Errorf("reading the account: %w", err)
	}
	if len(code) == 0 {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "sender %s is not deployed and the UserOperation has no initCode", pay.Op.Sender)
	}
	if delegatedTo(code, pay) {
		return pay.Op.Sender, nil // an EOA already delegated to the accepted delegate
	}
	var out hexutil.Bytes
	if err := s.call(ctx, pay.Op.Sender, s.account.PackOwner(), &out); err != nil {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "sender %s is not a SimpleAccount", pay.Op.Sender)
	}
	owner, err := s.account.UnpackOwner(out)
	if err != nil {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "sender %s is not a SimpleAccount", pay.Op.Sender)
	}
	return owner, nil
}

func (s *Scheme) call(ctx context.Context, to common.Address, data []byte, out *hexutil.Bytes) error {
	if err := s.cfg.Chain.CallContext(ctx, out, "eth_call", map[string]any{"to": to, "data": hexutil.Bytes(data)}, "latest"); err != nil {
		return fmt.Errorf("calling %s: %w", to, err)
	}
	return nil
}

// recoverSigner recovers the signer of digest (what the account recovers:
// EntryPoint.AccountDigest of the userOpHash), as SimpleAccount does,
// refusing malleable signatures.
func recoverSigner(digest common.Hash, sig []byte) (common.Address, error) {
	if len(sig) != 65 {
		return common.Address{}, errors.New("signature is not 65 bytes")
	}
	s := append([]byte(nil), sig...)
	if s[64] >= 27 {
		s[64] -= 27
	}
	if new(big.Int).SetBytes(s[32:64]).Cmp(new(big.Int).Rsh(crypto.S256().Params().N, 1)) > 0 {
		return common.Address{}, errors.New("high s")
	}
	pub, err := crypto.SigToPub(digest[:], s)
	if err != nil {
		return common.Address{}, err
	}
	return crypto.PubkeyToAddress(*pub), nil
}

// simulate is check 5: simulateValidation as the payment's EntryPoint
// runs it answers the account's and the paymaster's validation data;
// either signature failing refuses, and their time ranges, intersected,
// must cover the next block with MinValidity to spare. FailedOp refuses
// with the AAxx reason.
func (s *Scheme) simulate(ctx context.Context, pay *Payment) error {
	var (
		out  hexutil.Bytes
		head struct {
			Time hexutil.Uint64 `json:"timestamp"`
		}
	)
	call, override := pay.EntryPoint.SimulationCall(&pay.Op)
	args := []any{call, "latest"}
	if override != nil {
		args = append(args, override)
	}
	batch := []rpc.BatchElem{
		{Method: "eth_call", Args: args, Result: &out},
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
	}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return fmt.Errorf("simulating the operation: %w", err)
	}
	if batch[1].Error != nil {
		return fmt.Errorf("reading the latest block: %w", batch[1].Error)
	}
	var revert []byte
	if err := batch[0].Error; err != nil {
		var de rpc.DataError
		if !errors.As(err, &de) {
			return fmt.Errorf("simulating the operation: %w", err)
		}
		str, _ := de.ErrorData().(string)
		if revert, _ = hexutil.Decode(str); len(revert) < 4 {
			return fmt.Errorf("simulateValidation reverted without data: %w", err)
		}
	}
	v, err := pay.EntryPoint.ParseSimulation(out, revert)
	var failed *entrypoint.FailedOp
	switch {
	case errors.As(err, &failed):
		if strings.HasPrefix(failed.Reason, "AA24") || strings.HasPrefix(failed.Reason, "AA34") {
			return x402.Invalid(x402.ReasonSignatureInvalid, "simulateValidation: %s", failed.Reason)
		}
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "simulateValidation: %s", failed.Reason)
	case errors.Is(err, entrypoint.ErrUnanswered):
		return fmt.Errorf("simulating the operation: %w", err)
	case err != nil:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "%v", err)
	case v.Account.SigFailed || v.Paymaster.SigFailed:
		return x402.Invalid(x402.ReasonSignatureInvalid, "simulateValidation: the account or paymaster signature does not validate")
	case v.Account.Aggregator != (common.Address{}):
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "simulateValidation: the account names an aggregator, which this facilitator does not serve")
	}
	next := uint64(max(s.cfg.Now().Unix(), int64(head.Time)+1))
	after := max(v.Account.ValidAfter, v.Paymaster.ValidAfter)
	until := v.Account.ValidUntil
	if p := v.Paymaster.ValidUntil; p > 0 && (until == 0 || p < until) {
		until = p
	}
	if after > next {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the operation is valid only from %d, after the next block (%d)", after, next)
	}
	if until > 0 && until < next+uint64(s.cfg.MinValidity/time.Second) {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the operation's validity ends at %d, too soon after the next block (%d) to be bundled; ask for a fresh sponsorship", until, next)
	}
	return nil
}

// checkChain is check 6 on chain: the request hash is not settled yet, and
// the account holds the amount, with the operation's maximum gas when it
// is paid in the same token, and what its settlements in flight take.
func (s *Scheme) checkChain(ctx context.Context, pay *Payment) error {
	var settled, balance hexutil.Bytes
	call := func(to common.Address, data []byte) map[string]any {
		return map[string]any{"to": to, "data": hexutil.Bytes(data)}
	}
	// What is in flight is read before the chain: a settlement that lands
	// meanwhile is then counted in one or the other, never in neither.
	inFlight := new(big.Int)
	if c := s.cfg.Committed; c != nil {
		inFlight = c(pay.Op.Sender, pay.Token)
	}
	batch := []rpc.BatchElem{
		{Method: "eth_call", Args: []any{call(s.cfg.Settlement, s.settle.PackIsSettled(pay.RequestHash)), "latest"}, Result: &settled},
		{Method: "eth_call", Args: []any{call(pay.Token, s.token.PackBalanceOf(pay.Op.Sender)), "latest"}, Result: &balance},
	}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return fmt.Errorf("reading chain state: %w", err)
	}
	for _, el := range batch {
		if el.Error != nil {
			return fmt.Errorf("reading chain state: %w", el.Error)
		}
	}
	if done, err := s.settle.UnpackIsSettled(settled); err != nil {
		return err
	} else if done {
		return x402.Invalid(x402.ReasonReplay, "requestHash %s is already settled on chain", pay.RequestHash)
	}
	bal, err := s.token.UnpackBalanceOf(balance)
	if err != nil {
		return err
	}
	pay.funds = new(big.Int).Sub(bal, new(big.Int).Sub(pay.Reserve(), pay.Amount))
	if bal.Cmp(pay.Amount) < 0 {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: account %s holds %s, the payment needs %s", pay.Op.Sender, bal, pay.Amount)
	}
	if need := pay.Reserve(); need.Cmp(pay.Amount) > 0 && bal.Cmp(need) < 0 {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: account %s holds %s; the payment needs %s and its gas, paid in the same token, up to %s", pay.Op.Sender, bal, pay.Amount, pay.Gas.Max)
	}
	if need := new(big.Int).Add(pay.Reserve(), inFlight); inFlight.Sign() > 0 && bal.Cmp(need) < 0 {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: account %s holds %s; the payment needs %s (its gas included) and its settlements in flight %s", pay.Op.Sender, bal, pay.Reserve(), inFlight)
	}
	return nil
}

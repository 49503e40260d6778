package facilitator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/clientaddr"
	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Sponsor asks a paymaster, once and without retries, to sponsor an
// operation as sc says (free gas, or gas paid in a token), valid until
// sc.ValidUntil (unix seconds); *paymaster.Client has these methods.
// SponsorOnceAt takes and answers the operation in entryPoint's wire form;
// SponsorOnce is it for a v0.6 operation.
type Sponsor interface {
	SponsorOnce(ctx context.Context, op x402.UserOperation, entryPoint common.Address, sc x402.SponsorContext) (x402.UserOperation, error)
	SponsorOnceAt(ctx context.Context, op json.RawMessage, entryPoint common.Address, sc x402.SponsorContext) (json.RawMessage, error)
}

// SponsorLimits are the budget of anonymous sponsorship: what callers of
// /sponsor, who need no credential, can make the paymaster reserve. They
// keep anonymous callers from filling the project's own limits (in-flight
// operations, per-sender rate), and one client from filling the anonymous
// budget, so that real payers are still sponsored.
type SponsorLimits struct {
	// PerClient bounds sponsorships per client address per minute;
	// default 30. An IPv6 client counts by its /64 (clientaddr.Key).
	PerClient int
	// PerClientOutstanding bounds one client address's sponsorships that
	// are neither settled through this facilitator nor expired; default
	// 10.
	PerClientOutstanding int
	// PerSender bounds sponsorships per smart account per minute; default
	// 10.
	PerSender int
	// MaxOutstanding bounds all anonymous sponsorships that are neither
	// settled nor expired; default 40. Keep it below the paymaster
	// project's in-flight limit (50 by default).
	MaxOutstanding int
	// Validity is how long an anonymous sponsorship stays valid; default 2
	// minutes, enough to sign and pay at once.
	Validity time.Duration
}

func (l *SponsorLimits) defaults() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.PerClient, 30)
	def(&l.PerClientOutstanding, 10)
	def(&l.PerSender, 10)
	def(&l.MaxOutstanding, 40)
	if l.Validity <= 0 {
		l.Validity = 2 * time.Minute
	}
}

// SponsorError is a refusal of /sponsor, with a JSON-RPC code. Its message
// is fixed per code: an anonymous caller learns nothing of the project
// behind the facilitator's key (its name, balance or limits).
type SponsorError struct {
	Code    int
	Message string
}

func (e *SponsorError) Error() string { return e.Message }

// ErrorCode is the JSON-RPC error code.
func (e *SponsorError) ErrorCode() int { return e.Code }

// sponsorBudget counts anonymous sponsorships.
type sponsorBudget struct {
	mu          sync.Mutex
	next        uint64
	clients     map[string][]time.Time
	senders     map[common.Address][]time.Time
	outstanding map[uint64]*sponsorship
}

// sponsorship is an anonymous sponsorship being asked for, or granted and
// not yet settled.
type sponsorship struct {
	client string
	until  time.Time
	op     common.Hash // once granted
}

// recent drops the times older than a minute and returns the rest.
func recent(ts []time.Time, now time.Time) []time.Time {
	kept := ts[:0]
	for _, t := range ts {
		if now.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	return kept
}

// take reserves one anonymous sponsorship for client and sender and returns
// its slot, or says which limit refuses it. The slot counts as
// outstanding from now, so concurrent requests cannot overshoot.
func (b *sponsorBudget) take(l *SponsorLimits, client string, sender common.Address, now time.Time) (uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.clients == nil {
		b.clients, b.senders, b.outstanding = map[string][]time.Time{}, map[common.Address][]time.Time{}, map[uint64]*sponsorship{}
	}
	mine := 0
	for id, sp := range b.outstanding {
		switch {
		case now.After(sp.until):
			delete(b.outstanding, id)
		case sp.client == client:
			mine++
		}
	}
	// Forget idle callers, so the maps hold one minute's callers at most.
	for c, ts := range b.clients {
		if b.clients[c] = recent(ts, now); len(b.clients[c]) == 0 {
			delete(b.clients, c)
		}
	}
	for s, ts := range b.senders {
		if b.senders[s] = recent(ts, now); len(b.senders[s]) == 0 {
			delete(b.senders, s)
		}
	}
	switch {
	case len(b.clients[client]) >= l.PerClient:
		return 0, fmt.Errorf("client %s: %d sponsorships in the last minute", client, l.PerClient)
	case mine >= l.PerClientOutstanding:
		return 0, fmt.Errorf("client %s: %d sponsorships outstanding", client, mine)
	case len(b.senders[sender]) >= l.PerSender:
		return 0, fmt.Errorf("sender %s: %d sponsorships in the last minute", sender, l.PerSender)
	case len(b.outstanding) >= l.MaxOutstanding:
		return 0, fmt.Errorf("%d anonymous sponsorships outstanding", l.MaxOutstanding)
	}
	b.clients[client] = append(b.clients[client], now)
	b.senders[sender] = append(b.senders[sender], now)
	b.next++
	b.outstanding[b.next] = &sponsorship{client: client, until: now.Add(l.Validity)}
	return b.next, nil
}

// granted records the operation a slot was granted for; a zero op frees
// the slot (the paymaster refused).
func (b *sponsorBudget) granted(slot uint64, op common.Hash) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if op == (common.Hash{}) {
		delete(b.outstanding, slot)
	} else if sp := b.outstanding[slot]; sp != nil {
		sp.op = op
	}
}

// settled releases the sponsorship of an operation that reached
// settlement.
func (b *sponsorBudget) settled(op common.Hash) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, sp := range b.outstanding {
		if sp.op == op {
			delete(b.outstanding, id)
		}
	}
}

// sponsorRefusal is the fixed, anonymous message of each paymaster code,
// for an operation whose gas was asked for as gas says.
func sponsorRefusal(code int, gas x402.SponsorContext) *SponsorError {
	msg := "the operation cannot be sponsored"
	switch x402.RPCErrorCode(code) {
	case x402.RPCInvalidParams:
		msg = "the operation's fields are not sponsorable; fill gas fields with 0x to let the sponsor set them"
		if gas.InToken() {
			msg = "the operation's fields are not sponsorable, or its gas token is not accepted for this type; fill gas fields with 0x, and see the paymaster's gas tokens"
		}
	case x402.RPCPaymasterRejected:
		msg = "sponsorship is not available right now"
		if gas.InToken() {
			msg = "the gas cannot be paid in this token now: the account's balance or allowance to the token paymaster is short of the operation's maximum gas cost, or the token cannot be priced"
		}
	case x402.RPCSimulationRejected:
		msg = "the operation fails EntryPoint validation"
	case x402.RPCReverted:
		msg = "the operation's call reverts"
	case x402.RPCOutOfTimeRange:
		msg = "the sponsorship window passed; rebuild the operation and resend"
	case x402.RPCThrottled:
		msg = "sponsorship is busy; retry later with exponential backoff"
	default:
		code = int(x402.RPCInternalError)
	}
	return &SponsorError{Code: code, Message: msg}
}

// SponsorOperationAt asks the paymaster, with the facilitator's own key, to
// sponsor op, an operation in the wire form of the EntryPoint at
// entryPoint (the first this facilitator settles on when it names none of
// them), its gas free or paid in a token as gas says (its ValidUntil is the
// facilitator's, not the caller's), for an anonymous caller at client (its
// address, counted as clientaddr.Key counts it: an IPv6 caller by its
// /64), but only if op's callData is a settlement that pays an offer this
// server issues (the merchant, token and amount of one of its paid
// routes), and only within the anonymous budget of [SponsorLimits]. Payers
// need no key, and the key pays for nothing else. The answer is the
// sponsored operation in the same wire form.
func (s *Service) SponsorOperationAt(ctx context.Context, entryPoint common.Address, op json.RawMessage, gas x402.SponsorContext, client string) (json.RawMessage, error) {
	ctx, span := startSpan(ctx, spanSponsor)
	if span.IsRecording() {
		var shape struct {
			Sender string `json:"sender"`
		}
		if json.Unmarshal(op, &shape) == nil && common.IsHexAddress(shape.Sender) {
			span.SetAttributes(edge.AttrSender.String(common.HexToAddress(shape.Sender).Hex()))
		}
	}
	out, err := s.sponsorOperationAt(ctx, entryPoint, op, gas, client)
	endSponsor(span, err)
	return out, err
}

// SponsorOperation is SponsorOperationAt of a v0.6 operation, on the
// facilitator's first EntryPoint.
func (s *Service) SponsorOperation(ctx context.Context, op x402.UserOperation, gas x402.SponsorContext, client string) (x402.UserOperation, error) {
	raw, err := json.Marshal(op)
	if err != nil {
		return op, err
	}
	var entryPoint common.Address
	if a := s.cfg.AANative; a != nil {
		entryPoint = a.entryPoints()[0].EntryPoint.Address()
	}
	out, err := s.SponsorOperationAt(ctx, entryPoint, raw, gas, client)
	if err != nil {
		return op, err
	}
	var sponsored x402.UserOperation
	if err := json.Unmarshal(out, &sponsored); err != nil {
		return op, fmt.Errorf("%w: %v", errSponsoredUndecodable, err)
	}
	return sponsored, nil
}

// sponsorOperationAt is SponsorOperationAt without its span.
func (s *Service) sponsorOperationAt(ctx context.Context, entryPoint common.Address, op json.RawMessage, gas x402.SponsorContext, client string) (json.RawMessage, error) {
	aa := s.table().sponsor
	if aa == nil || s.cfg.AANative.Sponsor == nil {
		return op, &SponsorError{Code: int(x402.RPCPaymasterRejected), Message: "this facilitator does not sponsor operations"}
	}
	ep := aa.EntryPointFor(entryPoint)
	decoded, err := ep.DecodeOp(op, true)
	if err != nil {
		return op, &SponsorError{Code: int(x402.RPCInvalidParams), Message: "userOp: " + err.Error()}
	}
	var out json.RawMessage
	err = s.sponsorSettlement(ctx, ep.Address(), decoded.Sender, decoded.CallData, gas, client, func(sp Sponsor, sc x402.SponsorContext) (common.Hash, error) {
		if out, err = sp.SponsorOnceAt(ctx, op, ep.Address(), sc); err != nil {
			return common.Hash{}, err
		}
		sponsored, err := ep.DecodeOp(out, false)
		if err != nil {
			return common.Hash{}, fmt.Errorf("%w: %v", errSponsoredUndecodable, err)
		}
		return ep.UserOpHash(&sponsored, s.chainID), nil
	})
	if err != nil {
		return op, err
	}
	return out, nil
}

// errSponsoredUndecodable is a paymaster's answer that does not decode.
var errSponsoredUndecodable = errors.New("the paymaster's sponsored operation does not decode")

// sponsorSettlement sponsors, for client, the operation of sender whose
// callData (of the SimpleAccount of entryPoint's version) must be a
// settlement of one of this server's offers, within the anonymous budget,
// its gas paid as gas says. forward asks the paymaster with the context to
// send (gas with the validity to ask for) and returns the sponsored
// operation's hash.
func (s *Service) sponsorSettlement(ctx context.Context, entryPoint, sender common.Address, callData []byte, gas x402.SponsorContext, client string,
	forward func(sp Sponsor, sc x402.SponsorContext) (common.Hash, error)) error {
	aa := s.table().sponsor
	if aa == nil || s.cfg.AANative.Sponsor == nil || !aa.Serves(entryPoint) {
		return &SponsorError{Code: int(x402.RPCPaymasterRejected), Message: "this facilitator does not sponsor operations"}
	}
	if err := checkGas(gas); err != nil {
		return err
	}
	settle, err := aa.ParseCallDataAt(entryPoint, callData)
	if err != nil {
		return &SponsorError{Code: int(x402.RPCInvalidParams), Message: "only x402 settlements are sponsored: " + err.Error()}
	}
	if settle.RequestHash == (common.Hash{}) {
		return &SponsorError{Code: int(x402.RPCInvalidParams), Message: "the settlement needs a request hash"}
	}
	// Only settlements to a merchant, in a token and of an amount that
	// one of this server's paywall routes offers, so the sponsorship pays
	// for the server's own sales.
	if s.cfg.Offers == nil || !s.cfg.Offers.Issued(aa.Name(), settle.Merchant, settle.Token, settle.Amount) {
		return &SponsorError{Code: int(x402.RPCInvalidParams), Message: "the settlement pays no offer of this server: merchant, token and amount must be those of one of its paid routes"}
	}
	limits := s.sponsorLimits()
	now := s.cfg.Now()
	client = clientaddr.Key(client)
	slot, err := s.sponsors.take(limits, client, sender, now)
	if err != nil {
		s.log.Info("anonymous sponsorship refused", zap.String("client", client), zap.Error(err))
		return sponsorRefusal(int(x402.RPCThrottled), gas)
	}
	sc := x402.SponsorContext{Type: gas.Type, Token: gas.Token, ValidUntil: uint64(now.Add(limits.Validity).Unix())}
	hash, err := forward(s.cfg.AANative.Sponsor, sc)
	if errors.Is(err, errSponsoredUndecodable) {
		s.sponsors.granted(slot, common.Hash{})
		s.log.Error("sponsoring", zap.Error(err))
		return sponsorRefusal(int(x402.RPCInternalError), gas)
	}
	if err != nil {
		s.sponsors.granted(slot, common.Hash{})
		code := int(x402.RPCInternalError)
		var coded interface{ ErrorCode() int }
		if errors.As(err, &coded) {
			code = coded.ErrorCode()
		}
		s.log.Info("the paymaster refused a sponsorship", zap.String("client", client), zap.Int("code", code), zap.Error(err))
		return sponsorRefusal(code, gas)
	}
	s.sponsors.granted(slot, hash)
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(edge.AttrUserOpHash.String(hash.Hex()))
	}
	return nil
}

// checkGas refuses a sponsorship context of an unknown type, or of a
// token type without a token's address; which tokens are accepted is the
// paymaster's to say.
func checkGas(gas x402.SponsorContext) error {
	switch {
	case gas.Type == x402.SponsorFree && gas.Token == "":
		return nil
	case gas.Type == x402.SponsorFree:
		return &SponsorError{Code: int(x402.RPCInvalidParams), Message: "context.token is for types 1 and 2; type 0 is free gas"}
	case !gas.InToken():
		return &SponsorError{Code: int(x402.RPCInvalidParams), Message: "context.type: want 0 (free gas), 1 (gas prepaid in a token) or 2 (gas paid in a token after the call)"}
	case !common.IsHexAddress(gas.Token):
		return &SponsorError{Code: int(x402.RPCInvalidParams), Message: "context.token: types 1 and 2 need the gas token's address"}
	}
	return nil
}

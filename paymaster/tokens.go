package paymaster

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// Sponsorship types, as NERO's paymaster platform numbers them.
const (
	// TypeFree is type 0: the project pays the gas.
	TypeFree = 0
	// TypePrepay is type 1: the payer pays the gas in an ERC-20, its
	// maximum taken before the operation runs and the rest refunded after.
	TypePrepay = contracts.TokenModePrepay
	// TypePostpay is type 2: the payer pays the actual gas in an ERC-20
	// after the operation runs.
	TypePostpay = contracts.TokenModePostpay
)

// Defaults of a Token.
const (
	// DefaultMarkupBps is a token's markup over its price unless it says
	// otherwise: 5%, for the price's moves while a signed rate is valid.
	DefaultMarkupBps = 500
	// DefaultFeedMaxAge is how old a price feed's latest round may be
	// unless a token says otherwise: two hours, twice the one-hour
	// heartbeat of Chainlink's ETH/USD feeds.
	DefaultFeedMaxAge = 2 * time.Hour
	// VolatilityBpsPerMinute is the move of a token's price against ETH
	// per minute that its markup is assumed to cover, from which a token's
	// default RateValidity is derived: 1% a minute, so the default 5%
	// markup covers a rate signed for 5 minutes.
	VolatilityBpsPerMinute = 100
	// MinRateValidity is the shortest RateValidity: a token's derived one
	// is never shorter (a markup under 2% still lets a payer bundle its
	// operation, and a facilitator's anonymous sponsorship, valid for 2
	// minutes by default, pay in it), and a configured one is refused
	// below it.
	MinRateValidity = 2 * time.Minute
	// MaxRateValidity is the longest RateValidity, the longest validUntil
	// the paymaster signs at all.
	MaxRateValidity = time.Hour
)

// Token is an ERC-20 in which payers may pay their gas (types 1 and 2),
// through the TokenPaymaster (Config.TokenPaymaster). Its price is fixed
// (Price) or read from a Chainlink AggregatorV3 feed (Feed); the rate
// signed into an operation is that price plus the markup, and holds for the
// operation whatever the price does after.
type Token struct {
	// Address is the token's contract. Its symbol and decimals are read
	// from it.
	Address common.Address
	// Types are the sponsorship types it serves, of 1 and 2; default both.
	Types []int
	// Price is a fixed price: how many whole tokens one ETH of gas costs
	// (3000 for a dollar stablecoin with ETH at $3,000). Exactly one of
	// Price and Feed is set.
	Price *big.Rat
	// Feed is a Chainlink AggregatorV3 whose answer is the price of one
	// ETH in the token's peg (ETH/USD for a dollar stablecoin).
	Feed common.Address
	// FeedMaxAge is how old the feed's latest round may be before the
	// token is refused; default DefaultFeedMaxAge.
	FeedMaxAge time.Duration
	// MarkupBps is the markup over the price in basis points; nil is
	// DefaultMarkupBps, 0 none.
	MarkupBps *int
	// RateValidity is the longest a rate signed in this token stays valid:
	// an operation paying in it is signed until at most this long after
	// the paymaster signs it, and a payer asking for a later validUntil
	// is refused, so the price cannot move past the markup while the
	// signature holds. Zero derives it from the markup: MarkupBps over
	// VolatilityBpsPerMinute minutes (5 minutes for 5%), at least
	// MinRateValidity and at most MaxRateValidity.
	RateValidity time.Duration
}

// validateTokens reports what is wrong with tokens, for the EntryPoints
// eps and their token paymasters.
func validateTokens(tokens []Token, eps []EntryPointConfig) error {
	var errs []error
	seen := map[common.Address]bool{}
	if len(tokens) > 0 && !slices.ContainsFunc(eps, func(d EntryPointConfig) bool { return d.TokenPaymaster != (common.Address{}) }) {
		errs = append(errs, errors.New("tokens need a token paymaster's address"))
	}
	for _, t := range tokens {
		name := t.Address.Hex()
		if t.Address == (common.Address{}) || seen[t.Address] {
			errs = append(errs, fmt.Errorf("token %s: addresses must be set and unique", name))
		}
		seen[t.Address] = true
		if (t.Price == nil) == (t.Feed == common.Address{}) {
			errs = append(errs, fmt.Errorf("token %s: set either a fixed price or a price feed", name))
		}
		if t.Price != nil && t.Price.Sign() <= 0 {
			errs = append(errs, fmt.Errorf("token %s: the price must be positive", name))
		}
		if t.FeedMaxAge < 0 {
			errs = append(errs, fmt.Errorf("token %s: the feed's maximum age must not be negative", name))
		}
		if t.MarkupBps != nil && (*t.MarkupBps < 0 || *t.MarkupBps > 100_000) {
			errs = append(errs, fmt.Errorf("token %s: markup must be 0 to 100,000 basis points", name))
		}
		if t.RateValidity != 0 && (t.RateValidity < MinRateValidity || t.RateValidity > MaxRateValidity) {
			errs = append(errs, fmt.Errorf("token %s: rate validity %s must be from %s to %s (or 0, derived from the markup)", name, t.RateValidity, MinRateValidity, MaxRateValidity))
		}
		for _, ty := range t.Types {
			if ty != TypePrepay && ty != TypePostpay {
				errs = append(errs, fmt.Errorf("token %s: type %d: want 1 or 2", name, ty))
			}
		}
	}
	return errors.Join(errs...)
}

// withDefaults is t with its defaults applied; the caller's values are
// copied.
func (t Token) withDefaults() Token {
	t.Types = slices.Clone(t.Types)
	if len(t.Types) == 0 {
		t.Types = []int{TypePrepay, TypePostpay}
	}
	slices.Sort(t.Types)
	t.Types = slices.Compact(t.Types)
	if t.Price != nil {
		t.Price = new(big.Rat).Set(t.Price)
	}
	if t.FeedMaxAge == 0 {
		t.FeedMaxAge = DefaultFeedMaxAge
	}
	markup := DefaultMarkupBps
	if t.MarkupBps != nil {
		markup = *t.MarkupBps
	}
	t.MarkupBps = &markup
	if t.RateValidity == 0 {
		t.RateValidity = rateValidity(markup)
	}
	return t
}

// rateValidity is the RateValidity a markup of markupBps covers: the
// minutes VolatilityBpsPerMinute takes to use it up, within
// [MinRateValidity, MaxRateValidity].
func rateValidity(markupBps int) time.Duration {
	d := time.Duration(markupBps) * time.Minute / VolatilityBpsPerMinute
	return min(max(d, MinRateValidity), MaxRateValidity)
}

// SetTokens replaces the tokens accepted for gas, as a config reload does.
func (s *Service) SetTokens(tokens []Token) error {
	if err := validateTokens(tokens, s.eps); err != nil {
		return fmt.Errorf("paymaster tokens: %w", err)
	}
	m := make([]Token, len(tokens))
	for i, t := range tokens {
		m[i] = t.withDefaults()
	}
	s.tokens.Store(&m)
	return nil
}

// token is the accepted token at addr, if any.
func (s *Service) token(addr common.Address) (Token, bool) {
	for _, t := range *s.tokens.Load() {
		if t.Address == addr {
			return t, true
		}
	}
	return Token{}, false
}

// tokenMeta is a token's symbol and decimals, read once from its
// contract, and why it is refused as a gas token, if it is (a fee on
// transfer, probeDelivery).
type tokenMeta struct {
	symbol   string
	decimals uint8
	refused  string
}

// metaCache keeps the tokenMeta of tokens and the decimals of feeds.
type metaCache struct {
	mu     sync.Mutex
	tokens map[common.Address]tokenMeta
	feeds  map[common.Address]uint8
}

// ERC-20 and AggregatorV3 selectors the paymaster calls.
var (
	selSymbol          = []byte{0x95, 0xd8, 0x9b, 0x41}
	selDecimals        = []byte{0x31, 0x3c, 0xe5, 0x67}
	selBalanceOf       = []byte{0x70, 0xa0, 0x82, 0x31}
	selAllowance       = []byte{0xdd, 0x62, 0xed, 0x3e}
	selLatestRoundData = []byte{0xfe, 0xaf, 0x96, 0x8c}
)

// callView runs a view call and returns its output.
func (s *Service) callView(ctx context.Context, to common.Address, data []byte) ([]byte, error) {
	var out hexutil.Bytes
	msg := map[string]any{"to": to, "data": hexutil.Bytes(data)}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", msg, "latest"); err != nil {
		return nil, err
	}
	return out, nil
}

// word is the i-th 32-byte word of out, or an error if out is short.
func word(out []byte, i int) (*big.Int, error) {
	if len(out) < 32*(i+1) {
		return nil, fmt.Errorf("a %d-byte answer has no word %d", len(out), i)
	}
	return new(big.Int).SetBytes(out[32*i : 32*(i+1)]), nil
}

// decimalsOf reads decimals() of a token or a feed.
func (s *Service) decimalsOf(ctx context.Context, addr common.Address) (uint8, error) {
	out, err := s.callView(ctx, addr, selDecimals)
	if err != nil {
		return 0, err
	}
	d, err := word(out, 0)
	if err != nil || !d.IsUint64() || d.Uint64() > 36 {
		return 0, fmt.Errorf("decimals() of %s: want at most 36", addr)
	}
	return uint8(d.Uint64()), nil
}

// meta reads (once) a token's symbol and decimals.
func (s *Service) meta(ctx context.Context, addr common.Address) (tokenMeta, error) {
	s.metas.mu.Lock()
	m, ok := s.metas.tokens[addr]
	s.metas.mu.Unlock()
	if ok {
		return m, nil
	}
	d, err := s.decimalsOf(ctx, addr)
	if err != nil {
		return m, err
	}
	out, err := s.callView(ctx, addr, selSymbol)
	if err != nil {
		return m, err
	}
	m = tokenMeta{symbol: decodeSymbol(out), decimals: d}
	if m.refused, err = s.probeDelivery(ctx, addr, d); err != nil {
		return m, err
	}
	if m.refused != "" {
		s.log.Error("gas token refused", zap.Stringer("token", addr), zap.String("reason", m.refused))
	}
	s.metas.mu.Lock()
	if s.metas.tokens == nil {
		s.metas.tokens = map[common.Address]tokenMeta{}
	}
	s.metas.tokens[addr] = m
	s.metas.mu.Unlock()
	return m, nil
}

// decodeSymbol reads an ABI string, or a bytes32 (as some old tokens
// answer), keeping printable ASCII only; "" if it is neither.
func decodeSymbol(out []byte) string {
	var raw []byte
	if off, err := word(out, 0); err == nil && off.IsUint64() && off.Uint64() == 32 {
		if n, err := word(out, 1); err == nil && n.IsUint64() && n.Uint64() <= uint64(len(out)-64) {
			raw = out[64 : 64+n.Uint64()]
		}
	} else if len(out) == 32 {
		raw = []byte(strings.TrimRight(string(out), "\x00"))
	}
	clean := make([]byte, 0, min(len(raw), 32))
	for _, c := range raw {
		if c >= 0x20 && c < 0x7f && len(clean) < 32 {
			clean = append(clean, c)
		}
	}
	return string(clean)
}

// quote is a token's price now: its rate (token units per 1e18 wei, the
// markup included), with where the price came from.
type quote struct {
	meta   tokenMeta
	rate   *big.Int
	source string // "fixed" or "feed"
}

// errNoPrice is a price that cannot be had now (a stale or broken feed).
type errNoPrice struct{ reason string }

func (e errNoPrice) Error() string { return e.reason }

// errRefused is a configured token the token paymasters would refuse (one
// that delivers less than it sends).
type errRefused struct{ reason string }

func (e errRefused) Error() string { return e.reason }

// quote prices t now.
func (s *Service) quote(ctx context.Context, t Token) (quote, error) {
	m, err := s.meta(ctx, t.Address)
	if err != nil {
		return quote{}, fmt.Errorf("reading the token's symbol and decimals: %w", err)
	}
	if m.refused != "" {
		return quote{}, errRefused{m.refused}
	}
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(m.decimals)), nil)
	// price is token units per ETH before the markup.
	var price *big.Rat
	source := "fixed"
	if t.Price != nil {
		price = new(big.Rat).Mul(t.Price, new(big.Rat).SetInt(unit))
	} else {
		source = "feed"
		if price, err = s.feedPrice(ctx, t, unit); err != nil {
			return quote{}, err
		}
	}
	price.Mul(price, big.NewRat(int64(10_000+*t.MarkupBps), 10_000))
	// Rounded up: the payer pays at least the price.
	rate := new(big.Int).Quo(new(big.Int).Add(price.Num(), new(big.Int).Sub(price.Denom(), big.NewInt(1))), price.Denom())
	if rate.Sign() <= 0 || rate.BitLen() > 128 {
		return quote{}, errNoPrice{fmt.Sprintf("the price of %s is out of range", t.Address)}
	}
	return quote{meta: m, rate: rate, source: source}, nil
}

// feedPrice is the feed's price of one ETH in token units (unit per
// whole token), refused if its round is older than the token's bound or
// its answer not positive.
func (s *Service) feedPrice(ctx context.Context, t Token, unit *big.Int) (*big.Rat, error) {
	s.metas.mu.Lock()
	fd, ok := s.metas.feeds[t.Feed]
	s.metas.mu.Unlock()
	if !ok {
		d, err := s.decimalsOf(ctx, t.Feed)
		if err != nil {
			return nil, fmt.Errorf("reading the price feed's decimals: %w", err)
		}
		fd = d
		s.metas.mu.Lock()
		if s.metas.feeds == nil {
			s.metas.feeds = map[common.Address]uint8{}
		}
		s.metas.feeds[t.Feed] = fd
		s.metas.mu.Unlock()
	}
	out, err := s.callView(ctx, t.Feed, selLatestRoundData)
	if err != nil {
		return nil, fmt.Errorf("reading the price feed: %w", err)
	}
	answer, err := word(out, 1)
	if err != nil {
		return nil, errNoPrice{"the price feed answered unexpectedly"}
	}
	updated, err := word(out, 3)
	if err != nil {
		return nil, errNoPrice{"the price feed answered unexpectedly"}
	}
	if answer.Bit(255) == 1 || answer.Sign() == 0 {
		return nil, errNoPrice{fmt.Sprintf("the price feed %s answers a price that is not positive", t.Feed)}
	}
	now := s.cfg.Now()
	if !updated.IsInt64() || now.Sub(time.Unix(updated.Int64(), 0)) > t.FeedMaxAge {
		return nil, errNoPrice{fmt.Sprintf("the price feed %s was last updated at %s, more than %s ago", t.Feed, updated, t.FeedMaxAge)}
	}
	feedUnit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(fd)), nil)
	return new(big.Rat).SetFrac(new(big.Int).Mul(answer, unit), feedUnit), nil
}

// SupportedToken is an entry of pm_supported_tokens' tokens.
type SupportedToken struct {
	// Token is the token's address.
	Token string `json:"token"`
	// Symbol and Decimals are read from the token.
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
	// Types are the sponsorship types it serves (1, 2).
	Types []int `json:"types"`
	// Price is how many whole tokens one ETH of gas costs now, the markup
	// included, as a decimal string; absent if it cannot be priced now.
	Price string `json:"price,omitempty"`
	// Rate is the same in token units per 1e18 wei: what would be signed.
	Rate string `json:"rate,omitempty"`
	// MarkupBps is the markup over the price, in basis points.
	MarkupBps int `json:"markupBps"`
	// RateValidity is how many seconds a rate signed in the token stays
	// valid at most: the latest validUntil an operation paying in it may
	// ask for is this far ahead of the paymaster's clock.
	RateValidity int64 `json:"rateValidity"`
	// Source is where the price comes from: "fixed" or "feed".
	Source string `json:"source"`
	// Paymasters are the token paymasters by EntryPoint version (such as
	// "0.7"): the one an operation of that version names, which the
	// payer's allowance must be to. An allowance to one is not an
	// allowance to another.
	Paymasters map[string]string `json:"paymasters,omitempty"`
	// Paymaster is Paymasters' v0.6 entry and PaymasterV07 its v0.7 one,
	// under the names this answer had before there were more versions;
	// each absent if tokens are not served on that version.
	Paymaster    string `json:"paymaster,omitempty"`
	PaymasterV07 string `json:"paymasterV07,omitempty"`
	// Unavailable says why the token cannot be used now (a stale feed).
	Unavailable string `json:"unavailable,omitempty"`
}

// supportedList prices every accepted token now.
func (s *Service) supportedList(ctx context.Context) []SupportedToken {
	tokens := *s.tokens.Load()
	out := make([]SupportedToken, 0, len(tokens))
	for _, t := range tokens {
		st := SupportedToken{Token: t.Address.Hex(), Types: t.Types, MarkupBps: *t.MarkupBps, RateValidity: int64(t.RateValidity / time.Second), Source: "fixed"}
		for _, d := range s.eps {
			if d.TokenPaymaster == (common.Address{}) {
				continue
			}
			if st.Paymasters == nil {
				st.Paymasters = map[string]string{}
			}
			st.Paymasters[d.EntryPoint.Version()] = d.TokenPaymaster.Hex()
		}
		st.Paymaster, st.PaymasterV07 = st.Paymasters["0.6"], st.Paymasters["0.7"]
		if t.Price == nil {
			st.Source = "feed"
		}
		q, err := s.quote(ctx, t)
		if err != nil {
			st.Unavailable = err.Error()
			if m, merr := s.meta(ctx, t.Address); merr == nil {
				st.Symbol, st.Decimals = m.symbol, int(m.decimals)
			}
			out = append(out, st)
			continue
		}
		st.Symbol, st.Decimals, st.Rate = q.meta.symbol, int(q.meta.decimals), q.rate.String()
		unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(q.meta.decimals)), nil)
		st.Price = new(big.Rat).SetFrac(q.rate, unit).FloatString(int(q.meta.decimals))
		out = append(out, st)
	}
	return out
}

// tokenTerms checks a type 1 or 2 context against the accepted tokens and
// prices it now, for the token paymaster pm of the operation's EntryPoint
// (zero if it has none); the terms lack their window.
func (s *Service) tokenTerms(ctx context.Context, sc sponsorContext, pm common.Address) (contracts.TokenTerms, *Error) {
	ty := *sc.Type
	if len(*s.tokens.Load()) == 0 {
		return contracts.TokenTerms{}, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("sponsorship type %d (gas paid in an ERC-20 token) is not offered by this paymaster: it accepts no tokens; use type 0", ty)}
	}
	if pm == (common.Address{}) {
		return contracts.TokenTerms{}, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("sponsorship type %d (gas paid in an ERC-20 token) is not offered on this EntryPoint: the paymaster has no token paymaster for it; use type 0, or the other EntryPoint version", ty)}
	}
	if !common.IsHexAddress(sc.Token) {
		return contracts.TokenTerms{}, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("context.token: type %d needs the address of a token of pm_supported_tokens", ty)}
	}
	t, ok := s.token(common.HexToAddress(sc.Token))
	if !ok {
		return contracts.TokenTerms{}, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("token %s is not accepted for gas; see pm_supported_tokens", sc.Token)}
	}
	if !slices.Contains(t.Types, ty) {
		return contracts.TokenTerms{}, &Error{Code: codeInvalidParams, Message: fmt.Sprintf("token %s is accepted for types %v, not type %d", sc.Token, t.Types, ty)}
	}
	q, err := s.quote(ctx, t)
	if err != nil {
		var np errNoPrice
		var rf errRefused
		if errors.As(err, &rf) {
			return contracts.TokenTerms{}, &Error{Code: codePaymasterRejected, Message: rf.reason}
		}
		if errors.As(err, &np) {
			return contracts.TokenTerms{}, &Error{Code: codePaymasterRejected, Message: "token " + sc.Token + " cannot be priced now: " + np.reason}
		}
		s.log.Warn("pricing a gas token", zap.Stringer("token", t.Address), zap.Error(err))
		return contracts.TokenTerms{}, &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	return contracts.TokenTerms{Mode: uint8(ty), Token: t.Address, Rate: q.rate}, nil
}

// checkPayer refuses, before anything is signed, a sender whose token
// balance or allowance to the token paymaster pm is below need, the
// operation's maximum token cost: the paymaster would refuse it in
// validation.
func (s *Service) checkPayer(ctx context.Context, sender common.Address, need *big.Int, t contracts.TokenTerms, pm common.Address) *Error {
	m, err := s.meta(ctx, t.Token)
	if err != nil {
		return &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	balOut, err := s.callView(ctx, t.Token, append(slices.Clone(selBalanceOf), common.LeftPadBytes(sender.Bytes(), 32)...))
	if err != nil {
		return &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	allowOut, err := s.callView(ctx, t.Token, slices.Concat(selAllowance, common.LeftPadBytes(sender.Bytes(), 32), common.LeftPadBytes(pm.Bytes(), 32)))
	if err != nil {
		return &Error{Code: codeInternal, Message: "the chain could not be read; retry"}
	}
	balance, berr := word(balOut, 0)
	allowance, aerr := word(allowOut, 0)
	if berr != nil || aerr != nil {
		return &Error{Code: codeInternal, Message: "the token answered unexpectedly"}
	}
	data := map[string]any{"token": t.Token.Hex(), "paymaster": pm.Hex(), "required": need.String(), "balance": balance.String(), "allowance": allowance.String()}
	if balance.Cmp(need) < 0 {
		return &Error{Code: codePaymasterRejected, Data: data, Message: fmt.Sprintf("the sender's %s balance (%s units) is below the operation's maximum gas cost in tokens (%s units)", m.symbol, balance, need)}
	}
	if allowance.Cmp(need) < 0 {
		return &Error{Code: codePaymasterRejected, Data: data, Message: fmt.Sprintf("the sender's %s allowance to the token paymaster %s (%s units) is below the operation's maximum gas cost in tokens (%s units); approve it first", m.symbol, pm, allowance, need)}
	}
	return nil
}

// signToken fills paymasterData with the token paymaster's terms t,
// signed, valid until validUntil; op names the token paymaster.
func (s *Service) signToken(ep entrypoint.EntryPoint, op *entrypoint.UserOperation, t contracts.TokenTerms, validUntil uint64) *Error {
	t.ValidUntil = validUntil
	hash, err := ep.TokenPaymasterHash(op, s.cfg.ChainID, t)
	if err != nil {
		return &Error{Code: codeInvalidParams, Message: "the UserOperation does not encode: " + err.Error()}
	}
	sig, err := contracts.SignHash(hash, s.cfg.Signer)
	if err != nil {
		return &Error{Code: codeInternal, Message: "signing failed"}
	}
	op.PaymasterData = ep.TokenPaymasterData(t, sig)
	return nil
}

// GasToken is an accepted gas token for operators: its entry of
// pm_supported_tokens, and what the token paymasters hold of it.
type GasToken struct {
	SupportedToken
	// Collected is the token paymasters' balance of the token (v0.6's and
	// v0.7's together), in token units: the gas paid in it and not yet
	// withdrawn; nil if it could not be read.
	Collected *big.Int
}

// GasTokens lists the tokens accepted for gas, priced now, with what the
// token paymasters have collected of each.
func (s *Service) GasTokens(ctx context.Context) []GasToken {
	list := s.supportedList(ctx)
	out := make([]GasToken, len(list))
	for i, st := range list {
		out[i] = GasToken{SupportedToken: st}
		total := new(big.Int)
		for _, pm := range s.tokenPaymasters() {
			bal, err := s.callView(ctx, common.HexToAddress(st.Token), append(slices.Clone(selBalanceOf), common.LeftPadBytes(pm.Bytes(), 32)...))
			if err != nil {
				total = nil
				break
			}
			b, err := word(bal, 0)
			if err != nil {
				total = nil
				break
			}
			total.Add(total, b)
		}
		out[i].Collected = total
	}
	return out
}

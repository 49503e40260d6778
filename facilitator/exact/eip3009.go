package exact

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The EIP-3009 mechanism: the payer signs a TransferWithAuthorization
// (EIP-712, in the token's own domain) and the facilitator submits
// transferWithAuthorization on the token.

// Authorization is a decoded exact payment.
type Authorization struct {
	From, To    common.Address
	Value       *big.Int
	ValidAfter  *big.Int
	ValidBefore *big.Int
	Nonce       [32]byte
	// Signature is r ‖ s ‖ v with v normalized to 27 or 28.
	Signature [65]byte
	// signedFor is the asset in whose domain Decode recovered the
	// signature to From, so that verification need not recover it again.
	signedFor common.Address
}

// Key is the payment's replay key:
// keccak256(chainId ‖ asset ‖ from ‖ nonce), with the chain id as 32 bytes.
// It is unique per authorization because the token itself allows each
// (from, nonce) once.
func (a *Authorization) Key(chainID *big.Int, asset common.Address) common.Hash {
	return AuthorizationKey(chainID, asset, a.From, a.Nonce)
}

// AuthorizationKey is the replay key of from's EIP-3009 authorization
// nonce on asset (see Authorization.Key): what a settlement's
// AuthorizationUsed log names is matched to its payment by it.
func AuthorizationKey(chainID *big.Int, asset, from common.Address, nonce [32]byte) common.Hash {
	if chainID.Sign() < 0 || chainID.BitLen() > 256 {
		return crypto.Keccak256Hash(common.LeftPadBytes(chainID.Bytes(), 32), asset.Bytes(), from.Bytes(), nonce[:])
	}
	var buf [32 + 2*common.AddressLength + 32]byte
	fillUint(buf[:32], chainID)
	copy(buf[32:], asset[:])
	copy(buf[32+common.AddressLength:], from[:])
	copy(buf[32+2*common.AddressLength:], nonce[:])
	return crypto.Keccak256Hash(buf[:])
}

// PayloadHash identifies the exact authorization, to tell a duplicate from a
// different payment under the same key.
func (a *Authorization) PayloadHash() common.Hash {
	if !fitsWord(a.Value) || !fitsWord(a.ValidAfter) || !fitsWord(a.ValidBefore) {
		return crypto.Keccak256Hash(
			a.To.Bytes(), common.LeftPadBytes(a.Value.Bytes(), 32),
			common.LeftPadBytes(a.ValidAfter.Bytes(), 32), common.LeftPadBytes(a.ValidBefore.Bytes(), 32),
			a.Signature[:],
		)
	}
	// The same bytes in one buffer: each number as a 32-byte word.
	var buf [common.AddressLength + 3*32 + 65]byte
	copy(buf[:], a.To[:])
	fillUint(buf[20:52], a.Value)
	fillUint(buf[52:84], a.ValidAfter)
	fillUint(buf[84:116], a.ValidBefore)
	copy(buf[116:], a.Signature[:])
	return crypto.Keccak256Hash(buf[:])
}

// fitsWord reports whether v is a number fillUint writes as it is: 0 to
// 2^256-1 (LeftPadBytes of its Bytes, a 32-byte word).
func fitsWord(v *big.Int) bool {
	return v != nil && v.Sign() >= 0 && v.BitLen() <= 256
}

// DecodeAuthorization parses the payload of an EIP-3009 payment. A payload
// that does not parse is malformed_request; a field of the wrong form is
// invalid_inner_payload naming the field; a signature of the wrong form is
// signature_invalid.
func DecodeAuthorization(p *x402.PaymentPayload) (*Authorization, error) {
	raw, a, err := decodeFields(p)
	if err != nil {
		return nil, err
	}
	sig, err := hexutil.Decode(raw.Signature)
	if err != nil || len(sig) != 65 {
		return nil, x402.Invalid(x402.ReasonSignatureInvalid, "signature: want 65 bytes in 0x hex (r, s, v)")
	}
	if a.Signature, err = eoaSignature(sig); err != nil {
		return nil, err
	}
	return a, nil
}

// decodeFields parses an exact payload and its authorization's fields,
// leaving the signature to the mechanism.
func decodeFields(p *x402.PaymentPayload) (*x402.ExactPayload, *Authorization, error) {
	raw, err := x402.ParseExactPayload(p.Payload)
	if err != nil {
		return nil, nil, x402.Invalid(x402.ReasonMalformedRequest, "payload is not an exact payment: %v", err)
	}
	ra := raw.Authorization
	var (
		a    Authorization
		errs []string
	)
	address := func(field, s string) common.Address {
		b, err := x402.ParseAddress(s)
		if err != nil {
			errs = append(errs, "authorization."+field+": "+err.Error())
		}
		return common.Address(b)
	}
	number := func(field, s string) *big.Int {
		v, err := x402.ParseAmount(s)
		if err != nil {
			errs = append(errs, "authorization."+field+": "+strings.TrimPrefix(err.Error(), "amount "))
			return new(big.Int)
		}
		return v
	}
	a.From = address("from", ra.From)
	a.To = address("to", ra.To)
	a.Value = number("value", ra.Value)
	a.ValidAfter = number("validAfter", ra.ValidAfter)
	a.ValidBefore = number("validBefore", ra.ValidBefore)
	if nonce, err := hexutil.Decode(ra.Nonce); err != nil || len(nonce) != 32 {
		errs = append(errs, fmt.Sprintf("authorization.nonce %q: want 0x and 64 hex digits", ra.Nonce))
	} else {
		copy(a.Nonce[:], nonce)
	}
	if len(errs) > 0 {
		return nil, nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "%s", strings.Join(errs, "; "))
	}
	return raw, &a, nil
}

// eoaSignature reads a 65-byte r ‖ s ‖ v signature, with v normalized to 27
// or 28.
func eoaSignature(sig []byte) ([65]byte, error) {
	var out [65]byte
	switch v := sig[64]; v {
	case 0, 1:
		sig[64] = v + 27
	case 27, 28:
	default:
		return out, x402.Invalid(x402.ReasonSignatureInvalid, "signature v is %d; want 27 or 28 (or 0 or 1)", v)
	}
	copy(out[:], sig)
	return out, nil
}

// halfN is half the secp256k1 order: larger s values are the malleable twin
// of a valid signature, which EIP-2 and the token refuse.
var halfN = new(big.Int).Rsh(crypto.S256().Params().N, 1)

// verify is the mechanism's checks (see verifyAuthorization).
func (a *Authorization) verify(ctx context.Context, s *Scheme, pay *scheme.Payment, req *x402.VerifyRequest) error {
	st, err := s.verifyAuthorization(ctx, a, &req.PaymentPayload, &req.PaymentRequirements)
	if pay != nil {
		// An EIP-7702 account: a token may ask its delegate, not ecrecover.
		pay.Contract = st.hasCode
		pay.Funds = st.balance
	}
	return err
}

// verifyAuthorization checks a decoded authorization against the
// requirements and the chain. A refusal is an *x402.Error; any other error
// means the check could not be made (the chain did not answer) and says
// nothing of the payment.
func (s *Scheme) verifyAuthorization(ctx context.Context, a *Authorization, p *x402.PaymentPayload, req *x402.PaymentRequirements) (chainState, error) {
	asset, err := s.matchRequirements(signed{a.To, a.Value, "authorization.to", "authorization.value"}, &p.Accepted, req)
	if err != nil {
		return chainState{}, err
	}
	if s.permit2[asset] {
		return chainState{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "asset %s is paid through Permit2 here (assetTransferMethod permit2), not with EIP-3009", asset)
	}
	now := s.cfg.Now()
	if err := s.checkWindow(a, now.Unix()); err != nil {
		return chainState{}, err
	}
	if a.signedFor != asset {
		if err := s.checkSignature(s.Digest(asset, a), a); err != nil {
			return chainState{}, err
		}
	}
	return s.checkChain(ctx, asset, a, now)
}

// matchRequirements is check 1: scheme, network, asset, amount and payTo,
// of the accepted offer against the requirements and of the requirements
// against what this facilitator settles, and the signed recipient and
// amount against them.
func (s *Scheme) matchRequirements(sg signed, accepted, req *x402.PaymentRequirements) (common.Address, error) {
	if req.Scheme != x402.SchemeExact || accepted.Scheme != req.Scheme {
		return common.Address{}, x402.Invalid(x402.ReasonSchemeMismatch, "accepted scheme %q, required %q; this verifier settles %q", accepted.Scheme, req.Scheme, x402.SchemeExact)
	}
	if req.Network != s.network {
		return common.Address{}, x402.Invalid(x402.ReasonNetworkMismatch, "required network %q; this facilitator settles on %q", req.Network, s.network)
	}
	if accepted.Network != req.Network {
		return common.Address{}, x402.Invalid(x402.ReasonNetworkMismatch, "accepted network %q differs from the required %q", accepted.Network, req.Network)
	}
	reqAsset, _ := x402.ParseAddress(req.Asset)
	asset := common.Address(reqAsset)
	if _, ok := s.domains[asset]; !ok {
		return common.Address{}, x402.Invalid(x402.ReasonAssetNotAllowed, "asset %s is not allowlisted", asset)
	}
	if acc, _ := x402.ParseAddress(accepted.Asset); common.Address(acc) != asset {
		return common.Address{}, x402.Invalid(x402.ReasonAssetNotAllowed, "accepted asset %s differs from the required %s", accepted.Asset, asset)
	}
	if !x402.SameAmount(accepted.Amount, req.Amount) {
		return common.Address{}, x402.Invalid(x402.ReasonAmountMismatch, "accepted amount %s differs from the required %s", accepted.Amount, req.Amount)
	}
	if !equalsAmount(sg.value, req.Amount) {
		return common.Address{}, x402.Invalid(x402.ReasonAmountMismatch, "%s %s differs from the required amount %s", sg.valueField, sg.value, req.Amount)
	}
	payTo, _ := x402.ParseAddress(req.PayTo)
	if acc, _ := x402.ParseAddress(accepted.PayTo); acc != payTo {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "accepted payTo %s differs from the required %s", accepted.PayTo, req.PayTo)
	}
	if sg.to != common.Address(payTo) {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "%s %s is not payTo %s", sg.toField, sg.to, common.Address(payTo))
	}
	return asset, nil
}

// equalsAmount reports whether v is the amount s, which ParseAmount
// takes; an amount that fits a uint64 is compared without making it.
func equalsAmount(v *big.Int, s string) bool {
	if len(s) <= 19 {
		n, err := strconv.ParseUint(s, 10, 64)
		return err == nil && (len(s) == 1 || s[0] != '0') && v.IsUint64() && v.Uint64() == n
	}
	amount, err := x402.ParseAmount(s)
	return err == nil && v.Cmp(amount) == 0
}

// signed is what a payment signs that the requirements fix: the recipient
// and the amount, with their fields' names for the refusals.
type signed struct {
	to                  common.Address
	value               *big.Int
	toField, valueField string
}

// checkWindow is check 2 against the wall clock. The token requires
// validAfter < block time < validBefore, and a block's time is at least the
// wall clock, so validAfter must be in the past; validBefore must leave
// MinValidity to settle in.
func (s *Scheme) checkWindow(a *Authorization, now int64) error {
	if !a.ValidAfter.IsInt64() || a.ValidAfter.Int64() >= now {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "authorization is not valid yet: validAfter %s is not before now (%d)", a.ValidAfter, now)
	}
	need := now + int64(s.cfg.MinValidity/time.Second)
	if a.ValidBefore.IsInt64() && a.ValidBefore.Int64() < need {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "authorization expires too soon: validBefore %s, need at least %d (now + %v)", a.ValidBefore, need, s.cfg.MinValidity)
	}
	return nil
}

// checkSignature is checks 3 and 4: low s, and the signer is `from`.
func (s *Scheme) checkSignature(digest common.Hash, a *Authorization) error {
	if new(big.Int).SetBytes(a.Signature[32:64]).Cmp(halfN) > 0 {
		return x402.Invalid(x402.ReasonSignatureInvalid, "signature s is in the upper half of the curve order (malleable); the token refuses it")
	}
	signer, err := s.recovered.signer(digest, a.Signature)
	if err != nil {
		return x402.Invalid(x402.ReasonSignatureInvalid, "signature does not recover: %v", err)
	}
	if signer != a.From {
		return x402.Invalid(x402.ReasonSignatureInvalid, "signature is by %s, not authorization.from %s (wrong key, chain id or token domain)", signer, a.From)
	}
	return nil
}

// checkChain is check 5, plus check 2 against the chain's clock: the latest
// block's time, the payer's balance and the nonce's state, read at one
// block (see reader). It returns what it read.
func (s *Scheme) checkChain(ctx context.Context, asset common.Address, a *Authorization, now time.Time) (chainState, error) {
	// What is in flight is read before the chain: a settlement that lands
	// meanwhile is then counted in one or the other, never in neither.
	inFlight := new(big.Int)
	if c := s.cfg.Committed; c != nil {
		inFlight = c(a.From, asset)
	}
	st, err := s.reads.state(ctx, stateQuery{token: asset, from: a.From, nonce: a.Nonce})
	if err != nil {
		return st, fmt.Errorf("reading chain state: %w", err)
	}
	chainNow := max(now.Unix(), int64(min(st.time, math.MaxInt64)))
	if need := chainNow + int64(s.cfg.MinValidity/time.Second); a.ValidBefore.IsInt64() && a.ValidBefore.Int64() < need {
		return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "authorization expires too soon for the chain's clock: validBefore %s, latest block at %d", a.ValidBefore, st.time)
	}
	if st.balance.Cmp(a.Value) < 0 {
		return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: %s holds %s, the payment needs %s", a.From, st.balance, a.Value)
	}
	if inFlight.Sign() > 0 && st.balance.Cmp(new(big.Int).Add(a.Value, inFlight)) < 0 {
		return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: %s holds %s; the payment needs %s and its settlements in flight %s", a.From, st.balance, a.Value, inFlight)
	}
	if st.used {
		return st, x402.Invalid(x402.ReasonReplay, "authorization nonce %s of %s is already used or cancelled on chain", hexutil.Encode(a.Nonce[:]), a.From)
	}
	return st, nil
}

// call is the settlement call (see Call), sent to the asset.
func (a *Authorization) call(s *Scheme, pay *scheme.Payment) scheme.Settlement {
	return scheme.Settlement{To: pay.Asset, Data: s.Call(a)}
}

// Call returns the settlement call: transferWithAuthorization(from, to,
// value, validAfter, validBefore, nonce, v, r, s) on the asset. The v, r, s
// form is the one every EIP-3009 token (including older USDC) has.
func (s *Scheme) Call(a *Authorization) []byte {
	var r, sv [32]byte
	copy(r[:], a.Signature[:32])
	copy(sv[:], a.Signature[32:64])
	return s.token.PackTransferWithAuthorization0(a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, a.Signature[64], r, sv)
}

var (
	domainTypeHash   = crypto.Keccak256Hash([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"))
	transferTypeHash = crypto.Keccak256Hash([]byte("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"))
)

// DomainSeparator is the EIP-712 domain separator of an EIP-3009 token.
func DomainSeparator(name, version string, chainID *big.Int, token common.Address) common.Hash {
	return crypto.Keccak256Hash(
		domainTypeHash[:],
		crypto.Keccak256([]byte(name)), crypto.Keccak256([]byte(version)),
		common.LeftPadBytes(chainID.Bytes(), 32), common.LeftPadBytes(token.Bytes(), 32),
	)
}

// Digest is the EIP-712 hash the payer signed, with the asset's cached
// domain separator.
func (s *Scheme) Digest(asset common.Address, a *Authorization) common.Hash {
	var buf [7 * 32]byte
	copy(buf[0:], transferTypeHash[:])
	copy(buf[32+12:], a.From[:])
	copy(buf[64+12:], a.To[:])
	a.Value.FillBytes(buf[96:128])
	fillUint(buf[128:160], a.ValidAfter)
	fillUint(buf[160:192], a.ValidBefore)
	copy(buf[192:], a.Nonce[:])
	structHash := crypto.Keccak256(buf[:])
	domain := s.domains[asset]
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, domain[:], structHash)
}

// fillUint writes v big-endian into a 32-byte word; v fits (ParseAmount
// bounds it to 256 bits).
func fillUint(word []byte, v *big.Int) {
	if v.IsUint64() {
		clear(word)
		binary.BigEndian.PutUint64(word[24:], v.Uint64())
		return
	}
	v.FillBytes(word)
}

// authorizationUsed is the topic of EIP-3009's
// AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce).
var authorizationUsed = crypto.Keccak256Hash([]byte("AuthorizationUsed(address,bytes32)"))

// usedBy lists the transactions that logged the authorization's
// AuthorizationUsed on the asset since block from.
func (a *Authorization) usedBy(ctx context.Context, chain scheme.Chain, pay *scheme.Payment, from uint64) ([]common.Hash, error) {
	logs, err := chain.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), Addresses: []common.Address{pay.Asset},
		Topics: [][]common.Hash{{authorizationUsed}, {common.BytesToHash(a.From[:])}, {common.Hash(a.Nonce)}},
	})
	if err != nil {
		return nil, err
	}
	txs := make([]common.Hash, 0, len(logs))
	for _, l := range logs {
		if !l.Removed {
			txs = append(txs, l.TxHash)
		}
	}
	return txs, nil
}

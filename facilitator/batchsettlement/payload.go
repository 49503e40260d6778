package batchsettlement

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The payload types a payer sends (scheme_batch_settlement_evm.md, "Client:
// Payment Construction").
const (
	TypeDeposit = "deposit"
	TypeVoucher = "voucher"
	TypeRefund  = "refund"
)

// maxUint128 is the largest amount a channel holds or a voucher names.
var maxUint128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))

// maxSignature bounds a signature's length: 65 bytes for an EOA, more for a
// contract wallet's ERC-1271 signature, never a megabyte.
const maxSignature = 4096

// Payment is a decoded batch-settlement payment: the channel, the payer's
// voucher, and the deposit or refund it carries. Verify fills in Snapshot.
type Payment struct {
	// Type is TypeDeposit, TypeVoucher or TypeRefund, or a merchant's
	// TypeClaim or TypeSettle.
	Type string
	// Config is the channel's configuration, and ChannelID the id the
	// payer claims it has (Verify checks that it does).
	Config    batchsettle.ChannelConfig
	ChannelID common.Hash
	// MaxClaimable is the voucher's cumulative ceiling, and Signature the
	// payer's (or its payer authorizer's) signature of it.
	MaxClaimable *big.Int
	Signature    []byte
	// Deposit is a deposit payload's deposit; nil otherwise.
	Deposit *Deposit
	// Refund is a refund payload's refund; nil otherwise.
	Refund *Refund
	// Claim is a merchant's claim payload (TypeClaim); nil otherwise. Its
	// Config is its first row's channel.
	Claim *Claim
	// Sweep is a merchant's settle payload (TypeSettle); nil otherwise.
	// Its Config holds only its receiver and token.
	Sweep *Sweep
	// Snapshot is the channel as Verify read it from the chain.
	Snapshot Snapshot
}

// Deposit is what a deposit payload moves into the channel, and the payer's
// authorization of it: exactly one of ERC3009 and Permit2.
type Deposit struct {
	Amount  *big.Int
	ERC3009 *ERC3009Authorization
	Permit2 *Permit2Authorization
}

// ERC3009Authorization is a deposit's EIP-3009 ReceiveWithAuthorization to
// the ERC-3009 collector, its nonce derived from the channel id and Salt.
type ERC3009Authorization struct {
	ValidAfter, ValidBefore, Salt *big.Int
	Signature                     []byte
}

// Permit2Authorization is a deposit's Permit2 witness transfer to the
// Permit2 collector, its witness the channel id.
type Permit2Authorization struct {
	From, Token, Spender    common.Address
	Amount, Nonce, Deadline *big.Int
	Witness                 common.Hash
	Signature               []byte
}

// Refund is a refund payload's request: Amount nil asks for everything
// unclaimed. A server that completed the payload adds Nonce (the channel's
// refund nonce) and the receiver authorizer's signature of the refund.
type Refund struct {
	Amount        *big.Int
	Nonce         *big.Int
	AuthorizerSig []byte
	// Claim is the claim of the channel's last vouchers a server sends
	// with its completed refund, so that what was served is claimed in
	// the refund's transaction, before the rest goes back; nil if none.
	Claim *Claim
	// Operator is set for a refund the receiver side started (an
	// operator's refund of what a channel holds unclaimed): it carries no
	// payer voucher, so the receiver authorizer's signature of its amount
	// at the channel's refund nonce is its only authorization, and it is
	// refused without one.
	Operator bool
}

// Snapshot is a channel's on-chain state, as every /verify and /settle
// answer reports it.
type Snapshot struct {
	Balance, TotalClaimed *big.Int
	// WithdrawRequestedAt is when a timed withdrawal began (unix seconds),
	// zero if none is pending; WithdrawAmount is what it asked for.
	WithdrawRequestedAt uint64
	WithdrawAmount      *big.Int
	RefundNonce         *big.Int
}

// State is s as the wire's channel state of channel id.
func (s Snapshot) State(id common.Hash) x402.ChannelState {
	return x402.ChannelState{
		ChannelID: id.Hex(), Balance: dec(s.Balance), TotalClaimed: dec(s.TotalClaimed),
		WithdrawRequestedAt: int64(s.WithdrawRequestedAt), RefundNonce: dec(s.RefundNonce),
	}
}

func dec(v *big.Int) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

// The wire forms, as upstream's client writes them: addresses and hashes
// in 0x hex, amounts in decimal strings, withdrawDelay a JSON number.
type (
	wirePayload struct {
		Type          string       `json:"type"`
		ChannelConfig *wireConfig  `json:"channelConfig"`
		Voucher       *wireVoucher `json:"voucher"`
		Deposit       *wireDeposit `json:"deposit"`
		Amount        *string      `json:"amount"`
		RefundNonce   *string      `json:"refundNonce"`
		RefundSig     *string      `json:"refundAuthorizerSignature"`
		Claims        []any        `json:"claims"`
	}
	wireConfig struct {
		Payer              string      `json:"payer"`
		PayerAuthorizer    string      `json:"payerAuthorizer"`
		Receiver           string      `json:"receiver"`
		ReceiverAuthorizer string      `json:"receiverAuthorizer"`
		Token              string      `json:"token"`
		WithdrawDelay      json.Number `json:"withdrawDelay"`
		Salt               string      `json:"salt"`
	}
	wireVoucher struct {
		ChannelID          string `json:"channelId"`
		MaxClaimableAmount string `json:"maxClaimableAmount"`
		Signature          string `json:"signature"`
	}
	wireDeposit struct {
		Amount        string `json:"amount"`
		Authorization struct {
			ERC3009 *struct {
				ValidAfter  string `json:"validAfter"`
				ValidBefore string `json:"validBefore"`
				Salt        string `json:"salt"`
				Signature   string `json:"signature"`
			} `json:"erc3009Authorization"`
			Permit2 *struct {
				From      string `json:"from"`
				Permitted struct {
					Token  string `json:"token"`
					Amount string `json:"amount"`
				} `json:"permitted"`
				Spender  string `json:"spender"`
				Nonce    string `json:"nonce"`
				Deadline string `json:"deadline"`
				Witness  struct {
					ChannelID string `json:"channelId"`
				} `json:"witness"`
				Signature string `json:"signature"`
			} `json:"permit2Authorization"`
		} `json:"authorization"`
	}
)

// DecodePayload reads a batch-settlement payment payload: a deposit, a
// voucher or a refund, or a merchant's claim or sweep. A refusal is a *Refusal: the payload type's
// malformed code naming the field that is wrong. It reads no chain.
func DecodePayload(data []byte) (*Payment, error) {
	var w wirePayload
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return nil, refuse(CodePayloadType, "payload is not a batch-settlement payload: %v", err)
	}
	if dec.More() {
		return nil, refuse(CodePayloadType, "payload has data after its object")
	}
	switch w.Type {
	case TypeClaim:
		return decodeClaim(data)
	case TypeSettle:
		return decodeSweep(data)
	}
	bad := map[string]Code{TypeDeposit: CodeDepositPayload, TypeVoucher: CodeVoucherPayload, TypeRefund: CodeRefundPayload}[w.Type]
	if bad == "" {
		return nil, refuse(CodePayloadType, "payload type %q is not deposit, voucher, refund, claim or settle", w.Type)
	}
	p := &Payment{Type: w.Type}
	var f fields
	f.code = bad
	if w.ChannelConfig == nil {
		return nil, refuse(bad, "channelConfig is missing")
	}
	operator := w.Type == TypeRefund && w.Voucher == nil
	if w.Voucher == nil && !operator {
		return nil, refuse(bad, "voucher is missing")
	}
	c := w.ChannelConfig
	p.Config = batchsettle.ChannelConfig{
		Payer: f.address("channelConfig.payer", c.Payer), PayerAuthorizer: f.address("channelConfig.payerAuthorizer", c.PayerAuthorizer),
		Receiver: f.address("channelConfig.receiver", c.Receiver), ReceiverAuthorizer: f.address("channelConfig.receiverAuthorizer", c.ReceiverAuthorizer),
		Token: f.address("channelConfig.token", c.Token), WithdrawDelay: f.delay(c.WithdrawDelay), Salt: f.hash("channelConfig.salt", c.Salt),
	}
	if operator {
		// An operator's refund: no payer voucher, and the receiver
		// authorizer's signature is required (Scheme.Decode fills in the
		// channel id, which needs the contract's domain).
		p.MaxClaimable = new(big.Int)
	} else {
		p.ChannelID = f.hash("voucher.channelId", w.Voucher.ChannelID)
		p.MaxClaimable = f.amount("voucher.maxClaimableAmount", w.Voucher.MaxClaimableAmount, maxUint128)
		p.Signature = f.bytes("voucher.signature", w.Voucher.Signature)
	}
	switch w.Type {
	case TypeDeposit:
		p.Deposit = f.deposit(w.Deposit)
	case TypeRefund:
		p.Refund = f.refund(&w)
		p.Refund.Operator = operator
		if operator && f.err == nil && p.Refund.AuthorizerSig == nil {
			return nil, refuse(bad, "voucher is missing: a refund without the payer's voucher needs refundAuthorizerSignature, amount and refundNonce")
		}
		if operator {
			p.Signature = p.Refund.AuthorizerSig
		}
		if w.Claims != nil && f.err == nil {
			c, err := readClaim(data, CodeRefundPayload)
			if err != nil {
				return nil, err
			}
			p.Refund.Claim = c
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	return p, nil
}

// fields decodes a payload's fields one by one, keeping the first
// refusal, so that DecodePayload reads as the list of its fields.
type fields struct {
	code Code
	err  *Refusal
}

func (f *fields) fail(format string, args ...any) {
	if f.err == nil {
		f.err = refuse(f.code, format, args...)
	}
}

func (f *fields) address(name, s string) common.Address {
	a, err := x402.ParseAddress(s)
	if err != nil {
		f.fail("%s: %v", name, err)
	}
	return common.Address(a)
}

func (f *fields) hash(name, s string) common.Hash {
	b, err := hexutil.Decode(s)
	if err != nil || len(b) != common.HashLength {
		f.fail("%s %q: want 0x and 64 hex digits", name, s)
		return common.Hash{}
	}
	return common.BytesToHash(b)
}

// amount parses a decimal amount of at most max.
func (f *fields) amount(name, s string, max *big.Int) *big.Int {
	v, err := x402.ParseAmount(s)
	if err != nil {
		f.fail("%s: %v", name, err)
		return new(big.Int)
	}
	if v.Cmp(max) > 0 {
		f.fail("%s %s: larger than %s", name, s, max)
	}
	return v
}

func (f *fields) bytes(name, s string) []byte {
	b, err := hexutil.Decode(s)
	if err != nil || len(b) == 0 || len(b) > maxSignature {
		f.fail("%s: want 0x and up to %d bytes of hex", name, maxSignature)
		return nil
	}
	return b
}

// delay parses withdrawDelay, a JSON number that is a uint40.
func (f *fields) delay(n json.Number) *big.Int {
	v, err := strconv.ParseUint(n.String(), 10, 40)
	if err != nil {
		f.fail("channelConfig.withdrawDelay %q: want a whole number of seconds", n)
		return new(big.Int)
	}
	return new(big.Int).SetUint64(v)
}

func (f *fields) deposit(w *wireDeposit) *Deposit {
	if w == nil {
		f.fail("deposit is missing")
		return nil
	}
	d := &Deposit{Amount: f.amount("deposit.amount", w.Amount, maxUint128)}
	if d.Amount.Sign() == 0 {
		f.fail("deposit.amount must be greater than zero")
	}
	e, p := w.Authorization.ERC3009, w.Authorization.Permit2
	switch {
	case (e == nil) == (p == nil):
		f.fail("deposit.authorization must carry exactly one of erc3009Authorization and permit2Authorization")
	case e != nil:
		max := new(big.Int).Lsh(big.NewInt(1), 256)
		max.Sub(max, big.NewInt(1))
		d.ERC3009 = &ERC3009Authorization{
			ValidAfter:  f.amount("erc3009Authorization.validAfter", e.ValidAfter, max),
			ValidBefore: f.amount("erc3009Authorization.validBefore", e.ValidBefore, max),
			Salt:        f.number("erc3009Authorization.salt", e.Salt),
			Signature:   f.bytes("erc3009Authorization.signature", e.Signature),
		}
	default:
		max := new(big.Int).Lsh(big.NewInt(1), 256)
		max.Sub(max, big.NewInt(1))
		d.Permit2 = &Permit2Authorization{
			From: f.address("permit2Authorization.from", p.From), Token: f.address("permit2Authorization.permitted.token", p.Permitted.Token),
			Spender: f.address("permit2Authorization.spender", p.Spender),
			Amount:  f.amount("permit2Authorization.permitted.amount", p.Permitted.Amount, max),
			Nonce:   f.amount("permit2Authorization.nonce", p.Nonce, max), Deadline: f.amount("permit2Authorization.deadline", p.Deadline, max),
			Witness: f.hash("permit2Authorization.witness.channelId", p.Witness.ChannelID), Signature: f.bytes("permit2Authorization.signature", p.Signature),
		}
	}
	return d
}

// number parses a uint256 written either as 0x hex (upstream's client
// writes the ERC-3009 salt so) or in decimal.
func (f *fields) number(name, s string) *big.Int {
	if len(s) > 2 && s[:2] == "0x" {
		b, err := hexutil.Decode(s)
		if err != nil || len(b) > 32 {
			f.fail("%s %q: want a 0x hex number of at most 32 bytes", name, s)
			return new(big.Int)
		}
		return new(big.Int).SetBytes(b)
	}
	max := new(big.Int).Lsh(big.NewInt(1), 256)
	return f.amount(name, s, max.Sub(max, big.NewInt(1)))
}

func (f *fields) refund(w *wirePayload) *Refund {
	r := &Refund{}
	if w.Amount != nil {
		r.Amount = f.amount("amount", *w.Amount, maxUint128)
		if f.err == nil && r.Amount.Sign() == 0 {
			f.err = refuse(CodeRefundAmountInvalid, "amount must be greater than zero (omit it for a full refund)")
		}
	}
	if w.RefundNonce != nil {
		max := new(big.Int).Lsh(big.NewInt(1), 256)
		r.Nonce = f.amount("refundNonce", *w.RefundNonce, max.Sub(max, big.NewInt(1)))
	}
	if w.RefundSig != nil {
		r.AuthorizerSig = f.bytes("refundAuthorizerSignature", *w.RefundSig)
		if r.Nonce == nil || r.Amount == nil {
			f.fail("refundAuthorizerSignature needs amount and refundNonce, which it signs")
		}
	}
	return r
}

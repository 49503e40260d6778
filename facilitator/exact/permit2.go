package exact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The Permit2 mechanism, for tokens without EIP-3009: the payer signs a
// Permit2 PermitWitnessTransferFrom (EIP-712, in Permit2's domain) whose
// spender is x402's exact Permit2 proxy and whose witness names the
// recipient; the facilitator calls the proxy's settle, which has Permit2
// move the tokens. The payer must have approved Permit2 on the token once:
// a payment may carry, in upstream's eip2612GasSponsoring extension, an
// EIP-2612 permit of Permit2 that the proxy's settleWithPermit submits in
// the same transaction, so the approval costs the payer no gas and the
// facilitator no extra transaction.

// Permit2, ExactPermit2Proxy and UptoPermit2Proxy are the canonical
// addresses the payer signs for (the same on every chain; package
// contracts holds them).
var (
	Permit2           = contracts.Permit2Address
	ExactPermit2Proxy = contracts.ExactPermit2ProxyAddress
	UptoPermit2Proxy  = contracts.UptoPermit2ProxyAddress
)

// EIP2612GasSponsoring is the key of upstream's extension that carries an
// EIP-2612 permit of Permit2, in a 402's and a payment's extensions.
const EIP2612GasSponsoring = "eip2612GasSponsoring"

// Permit2Payment is a decoded exact payment through Permit2.
type Permit2Payment struct {
	From, Token, Spender, To common.Address
	Amount, Nonce, Deadline  *big.Int
	ValidAfter               *big.Int
	// Signature is r ‖ s ‖ v with v normalized to 27 or 28.
	Signature [65]byte
	// Permit is the EIP-2612 permit of Permit2 from the payment's
	// eip2612GasSponsoring extension, or nil.
	Permit *EIP2612Permit
	// Upto marks an upto payment: its witness also names the one
	// Facilitator that may settle it, its spender is the upto proxy, and
	// Settle (at most Amount) is what the settlement moves.
	Upto        bool
	Facilitator common.Address
	Settle      *big.Int
}

// EIP2612Permit is a payer's signed EIP-2612 permit of Permit2.
type EIP2612Permit struct {
	From, Asset, Spender    common.Address
	Amount, Nonce, Deadline *big.Int
	// Signature is r ‖ s ‖ v with v 27 or 28.
	Signature [65]byte
}

// permit2Wire is the payload as upstream's client writes it.
type permit2Wire struct {
	Signature     string `json:"signature"`
	Authorization *struct {
		From      string `json:"from"`
		Permitted struct {
			Token  string `json:"token"`
			Amount string `json:"amount"`
		} `json:"permitted"`
		Spender  string `json:"spender"`
		Nonce    string `json:"nonce"`
		Deadline string `json:"deadline"`
		Witness  struct {
			To          string  `json:"to"`
			Facilitator *string `json:"facilitator"`
			ValidAfter  string  `json:"validAfter"`
		} `json:"witness"`
	} `json:"permit2Authorization"`
}

// eip2612Wire is the info of the eip2612GasSponsoring extension.
type eip2612Wire struct {
	From      string `json:"from"`
	Asset     string `json:"asset"`
	Spender   string `json:"spender"`
	Amount    string `json:"amount"`
	Nonce     string `json:"nonce"`
	Deadline  string `json:"deadline"`
	Signature string `json:"signature"`
	Version   string `json:"version"`
}

// isPermit2 reports whether payload has the shape of a Permit2 payment.
func isPermit2(payload json.RawMessage) bool {
	var shape struct {
		Authorization json.RawMessage `json:"permit2Authorization"`
	}
	return json.Unmarshal(payload, &shape) == nil && shape.Authorization != nil
}

// fieldErrs collects the fields of the wrong form while decoding.
type fieldErrs []string

func (e *fieldErrs) address(field, s string) common.Address {
	b, err := x402.ParseAddress(s)
	if err != nil {
		*e = append(*e, field+": "+err.Error())
	}
	return common.Address(b)
}

func (e *fieldErrs) number(field, s string) *big.Int {
	v, err := x402.ParseAmount(s)
	if err != nil {
		*e = append(*e, field+": "+strings.TrimPrefix(err.Error(), "amount "))
		return new(big.Int)
	}
	return v
}

// signature65 parses a 65-byte r ‖ s ‖ v signature, v 0, 1, 27 or 28.
func signature65(s string) ([65]byte, error) {
	var out [65]byte
	sig, err := hexutil.Decode(s)
	if err != nil || len(sig) != 65 {
		return out, errors.New("want 65 bytes in 0x hex (r, s, v)")
	}
	switch v := sig[64]; v {
	case 0, 1:
		sig[64] = v + 27
	case 27, 28:
	default:
		return out, fmt.Errorf("v is %d; want 27 or 28 (or 0 or 1)", v)
	}
	copy(out[:], sig)
	return out, nil
}

// DecodePermit2 parses the payload of a Permit2 payment and its
// eip2612GasSponsoring extension, if any. A payload that does not parse is
// malformed_request; a field of the wrong form is invalid_inner_payload
// naming the field; a signature of the wrong form is signature_invalid.
func DecodePermit2(p *x402.PaymentPayload) (*Permit2Payment, error) {
	var w permit2Wire
	if err := json.Unmarshal(p.Payload, &w); err != nil || w.Authorization == nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "payload is not a Permit2 payment: %v", err)
	}
	a := w.Authorization
	var errs fieldErrs
	pp := &Permit2Payment{
		From:       errs.address("permit2Authorization.from", a.From),
		Token:      errs.address("permit2Authorization.permitted.token", a.Permitted.Token),
		Amount:     errs.number("permit2Authorization.permitted.amount", a.Permitted.Amount),
		Spender:    errs.address("permit2Authorization.spender", a.Spender),
		Nonce:      errs.number("permit2Authorization.nonce", a.Nonce),
		Deadline:   errs.number("permit2Authorization.deadline", a.Deadline),
		To:         errs.address("permit2Authorization.witness.to", a.Witness.To),
		ValidAfter: errs.number("permit2Authorization.witness.validAfter", a.Witness.ValidAfter),
	}
	if f := a.Witness.Facilitator; f != nil {
		pp.Upto, pp.Facilitator = true, errs.address("permit2Authorization.witness.facilitator", *f)
	}
	if len(errs) > 0 {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "%s", strings.Join(errs, "; "))
	}
	sig, err := signature65(w.Signature)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonSignatureInvalid, "signature: %v", err)
	}
	pp.Signature = sig
	if pp.Permit, err = decodeEIP2612(p.Extensions); err != nil {
		return nil, err
	}
	return pp, nil
}

// decodeEIP2612 reads the eip2612GasSponsoring extension of a payment's
// extensions: nil if there is none.
func decodeEIP2612(extensions json.RawMessage) (*EIP2612Permit, error) {
	if len(extensions) == 0 {
		return nil, nil
	}
	var exts map[string]struct {
		Info *eip2612Wire `json:"info"`
	}
	if err := json.Unmarshal(extensions, &exts); err != nil {
		return nil, nil // extensions of other shapes are not ours to judge
	}
	info := exts[EIP2612GasSponsoring].Info
	if info == nil || info.From == "" || info.Asset == "" || info.Spender == "" || info.Amount == "" ||
		info.Nonce == "" || info.Deadline == "" || info.Signature == "" || info.Version == "" {
		// Upstream's clients echo the 402's declaration ({description,
		// version}) when they send no permit: not a permit, as upstream
		// reads it.
		return nil, nil
	}
	var errs fieldErrs
	p := &EIP2612Permit{
		From:     errs.address("eip2612GasSponsoring.from", info.From),
		Asset:    errs.address("eip2612GasSponsoring.asset", info.Asset),
		Spender:  errs.address("eip2612GasSponsoring.spender", info.Spender),
		Amount:   errs.number("eip2612GasSponsoring.amount", info.Amount),
		Nonce:    errs.number("eip2612GasSponsoring.nonce", info.Nonce),
		Deadline: errs.number("eip2612GasSponsoring.deadline", info.Deadline),
	}
	sig, err := signature65(info.Signature)
	if err != nil {
		errs = append(errs, "eip2612GasSponsoring.signature: "+err.Error())
	}
	if len(errs) > 0 {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "%s", strings.Join(errs, "; "))
	}
	p.Signature = sig
	return p, nil
}

// Key is the payment's replay key: keccak256(chainId ‖ Permit2 ‖ from ‖
// nonce), 32-byte words for the numbers. Permit2 allows each (from, nonce)
// once, whatever the token or spender.
func (p *Permit2Payment) Key(chainID *big.Int) common.Hash {
	return crypto.Keccak256Hash(common.LeftPadBytes(chainID.Bytes(), 32), Permit2.Bytes(), p.From.Bytes(), common.LeftPadBytes(p.Nonce.Bytes(), 32))
}

// PayloadHash identifies the signed permit, to tell a duplicate from a
// different payment under the same key.
func (p *Permit2Payment) PayloadHash() common.Hash {
	return crypto.Keccak256Hash(p.Token.Bytes(), p.Spender.Bytes(), p.To.Bytes(), p.Facilitator.Bytes(), word(p.Amount), word(p.Deadline), word(p.ValidAfter), p.Signature[:])
}

func word(v *big.Int) []byte { return common.LeftPadBytes(v.Bytes(), 32) }

// decodePermit2 is Decode for a Permit2 payload.
func (s *Scheme) decodePermit2(req *x402.VerifyRequest) (*scheme.Payment, error) {
	p, err := DecodePermit2(&req.PaymentPayload)
	if err != nil {
		return nil, err
	}
	asset, _ := x402.ParseAddress(req.PaymentRequirements.Asset)
	pay := &scheme.Payment{
		Key:   p.Key(s.cfg.ChainID),
		Hash:  crypto.Keccak256Hash(p.PayloadHash().Bytes(), scheme.RequirementsHash(&req.PaymentRequirements).Bytes()),
		Payer: p.From, PayTo: p.To, Asset: common.Address(asset), Amount: p.Amount,
		Mechanism: p,
	}
	if p.Deadline.IsInt64() {
		pay.ValidBefore = time.Unix(p.Deadline.Int64(), 0)
	}
	return pay, nil
}

var (
	permit2DomainTypeHash = crypto.Keccak256Hash([]byte("EIP712Domain(string name,uint256 chainId,address verifyingContract)"))
	tokenPermissionsHash  = crypto.Keccak256Hash([]byte("TokenPermissions(address token,uint256 amount)"))
	exactWitnessTypeHash  = crypto.Keccak256Hash([]byte("Witness(address to,uint256 validAfter)"))
	exactPermitTypeHash   = crypto.Keccak256Hash([]byte("PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,uint256 validAfter)"))
	uptoWitnessTypeHash   = crypto.Keccak256Hash([]byte("Witness(address to,address facilitator,uint256 validAfter)"))
	uptoPermitTypeHash    = crypto.Keccak256Hash([]byte("PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)"))
	eip2612PermitTypeHash = crypto.Keccak256Hash([]byte("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"))
)

// Permit2Domain is Permit2's EIP-712 domain separator on a chain.
func Permit2Domain(chainID *big.Int) common.Hash {
	return crypto.Keccak256Hash(permit2DomainTypeHash[:], crypto.Keccak256([]byte("Permit2")), word(chainID), word(new(big.Int).SetBytes(Permit2[:])))
}

// Permit2Digest is the EIP-712 hash the payer of an exact (or upto)
// Permit2 payment signs.
func Permit2Digest(chainID *big.Int, p *Permit2Payment) common.Hash {
	permitted := crypto.Keccak256(tokenPermissionsHash[:], common.LeftPadBytes(p.Token[:], 32), word(p.Amount))
	witness := crypto.Keccak256(exactWitnessTypeHash[:], common.LeftPadBytes(p.To[:], 32), word(p.ValidAfter))
	typeHash := exactPermitTypeHash
	if p.Upto {
		witness = crypto.Keccak256(uptoWitnessTypeHash[:], common.LeftPadBytes(p.To[:], 32), common.LeftPadBytes(p.Facilitator[:], 32), word(p.ValidAfter))
		typeHash = uptoPermitTypeHash
	}
	structHash := crypto.Keccak256(typeHash[:], permitted, common.LeftPadBytes(p.Spender[:], 32), word(p.Nonce), word(p.Deadline), witness)
	domain := Permit2Domain(chainID)
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, domain[:], structHash)
}

// EIP2612Digest is the EIP-712 hash of an EIP-2612 permit in a token's
// domain.
func EIP2612Digest(domain common.Hash, p *EIP2612Permit) common.Hash {
	structHash := crypto.Keccak256(eip2612PermitTypeHash[:], common.LeftPadBytes(p.From[:], 32), common.LeftPadBytes(p.Spender[:], 32), word(p.Amount), word(p.Nonce), word(p.Deadline))
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, domain[:], structHash)
}

// signedBy checks that sig, with low s, recovers to signer over digest.
func signedBy(digest common.Hash, sig [65]byte, signer common.Address, what string) error {
	if new(big.Int).SetBytes(sig[32:64]).Cmp(halfN) > 0 {
		return x402.Invalid(x402.ReasonSignatureInvalid, "%s: s is in the upper half of the curve order (malleable)", what)
	}
	sig[64] -= 27
	pub, err := crypto.Ecrecover(digest[:], sig[:])
	if err != nil {
		return x402.Invalid(x402.ReasonSignatureInvalid, "%s does not recover: %v", what, err)
	}
	if got := common.BytesToAddress(crypto.Keccak256(pub[1:])[12:]); got != signer {
		return x402.Invalid(x402.ReasonSignatureInvalid, "%s is by %s, not %s (wrong key, chain id or domain)", what, got, signer)
	}
	return nil
}

// target is where the settlement call goes: the exact or upto Permit2
// proxy.
func (p *Permit2Payment) target() common.Address {
	if p.Upto {
		return UptoPermit2Proxy
	}
	return ExactPermit2Proxy
}

// call is the settlement: calldata, to the proxy.
func (p *Permit2Payment) call(s *Scheme, _ *scheme.Payment) scheme.Settlement {
	return scheme.Settlement{To: p.target(), Data: p.calldata(s)}
}

// calldata is the settlement call's: the proxy's settleWithPermit when the
// payment carries an EIP-2612 permit, settle otherwise.
func (p *Permit2Payment) calldata(*Scheme) []byte {
	permit := contracts.Permit2PermitTransferFrom{
		Permitted: contracts.Permit2TokenPermissions{Token: p.Token, Amount: p.Amount},
		Nonce:     p.Nonce, Deadline: p.Deadline,
	}
	var permit2612 *contracts.X402Permit2ProxyEIP2612Permit
	if e := p.Permit; e != nil {
		var r, sv [32]byte
		copy(r[:], e.Signature[:32])
		copy(sv[:], e.Signature[32:64])
		permit2612 = &contracts.X402Permit2ProxyEIP2612Permit{Value: e.Amount, Deadline: e.Deadline, R: r, S: sv, V: e.Signature[64]}
	}
	if p.Upto {
		proxy := contracts.NewX402UptoPermit2Proxy()
		amount := p.Settle
		if amount == nil {
			amount = p.Amount
		}
		witness := contracts.X402UptoPermit2ProxyWitness{To: p.To, Facilitator: p.Facilitator, ValidAfter: p.ValidAfter}
		if permit2612 != nil {
			return proxy.PackSettleWithPermit(*permit2612, permit, amount, p.From, witness, p.Signature[:])
		}
		return proxy.PackSettle(permit, amount, p.From, witness, p.Signature[:])
	}
	proxy := contracts.NewX402ExactPermit2Proxy()
	witness := contracts.X402ExactPermit2ProxyWitness{To: p.To, ValidAfter: p.ValidAfter}
	if permit2612 != nil {
		return proxy.PackSettleWithPermit(*permit2612, permit, p.From, witness, p.Signature[:])
	}
	return proxy.PackSettle(permit, p.From, witness, p.Signature[:])
}

// usedBy lists the transactions that settled this very payment since
// block from. Permit2 logs no event of a signature transfer's nonce, and
// the proxy's Settled names no payment, so they are found in three steps,
// all bounded by one head block: Permit2's nonce bitmap at the head says
// whether the nonce is used at all (if not, nothing up to the head used
// it); the token's Transfer logs from the payer to the witness's recipient
// name the candidates; and a candidate counts only if it is a call to the
// payment's proxy whose arguments are this payment's signed permit (see
// carriedBy). The reorganisations in between are the caller's to mind: a
// candidate's receipt is read again, and a settlement's finality is
// watched by the facilitator. A proxy called from inside another contract is
// not found: only a transaction's own calldata is read.
func (p *Permit2Payment) usedBy(ctx context.Context, chain scheme.Chain, _ *scheme.Payment, from uint64) ([]common.Hash, error) {
	rd, ok := chain.(permit2Chain)
	if !ok {
		return nil, fmt.Errorf("the chain access (%T) cannot read contract state and transactions", chain)
	}
	head, err := chain.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the head: %w", err)
	}
	if from > head {
		return nil, nil
	}
	at := new(big.Int).SetUint64(head)
	bits, err := rd.CallContract(ctx, ethereum.CallMsg{To: &Permit2, Data: permit2ABI.PackNonceBitmap(p.From, new(big.Int).Rsh(p.Nonce, 8))}, at)
	if err != nil {
		return nil, fmt.Errorf("reading Permit2's nonce bitmap: %w", err)
	}
	if len(bits) != 32 {
		return nil, errors.New("reading Permit2's nonce bitmap: Permit2 answered less than a word")
	}
	if !p.nonceUsed(bits) {
		return nil, nil
	}
	logs, err := chain.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), ToBlock: at, Addresses: []common.Address{p.Token},
		Topics: [][]common.Hash{{transferTopic}, {common.BytesToHash(p.From[:])}, {common.BytesToHash(p.To[:])}},
	})
	if err != nil {
		return nil, err
	}
	var txs []common.Hash
	seen := make(map[common.Hash]bool, len(logs))
	for i := len(logs) - 1; i >= 0; i-- { // the newest first
		l := logs[i]
		if l.Removed || seen[l.TxHash] {
			continue
		}
		seen[l.TxHash] = true
		tx, pending, err := rd.TransactionByHash(ctx, l.TxHash)
		switch {
		case errors.Is(err, ethereum.NotFound):
			continue // reorganised out since the logs were read
		case err != nil:
			return nil, fmt.Errorf("reading transaction %s: %w", l.TxHash, err)
		case pending || tx.To() == nil || *tx.To() != p.target():
			continue
		}
		if p.carriedBy(tx.Data()) {
			txs = append(txs, l.TxHash)
		}
	}
	return txs, nil
}

// nonceUsed reports whether bitmap, the word of Permit2's nonceBitmap
// that holds the payment's nonce, marks it used.
func (p *Permit2Payment) nonceUsed(bitmap []byte) bool {
	bit := new(big.Int).And(p.Nonce, big.NewInt(0xff)).Int64()
	return new(big.Int).SetBytes(bitmap).Bit(int(bit)) == 1
}

// permit2Chain is the chain access usedBy needs beyond scheme.Chain;
// *ethclient.Client has it.
type permit2Chain interface {
	CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error)
	TransactionByHash(ctx context.Context, hash common.Hash) (tx *types.Transaction, pending bool, err error)
}

// The proxies' ABIs, to read a settlement call's arguments.
var (
	exactProxyABI = contracts.NewX402ExactPermit2Proxy().GetABI()
	uptoProxyABI  = contracts.NewX402UptoPermit2Proxy().GetABI()
)

// carriedBy reports whether data, the calldata of a transaction to the
// payment's proxy, settles this payment: it is the proxy's settle or
// settleWithPermit, and its owner, permit (token, amount, nonce,
// deadline) and witness (recipient, validAfter and, for upto, the
// facilitator) are the payment's. Those and the spender (the proxy the
// transaction called) are everything the payer's Permit2 signature covers,
// and Permit2 checked that signature on chain for them: a transaction
// with the same owner and nonce but any other term is another payment (a
// neighbour with the same amounts differs at least in its nonce), while
// this payment's signature in another encoding (Permit2 also takes a
// 64-byte compact one) is still this payment. The amount an upto call
// settled is the record's to judge (Outcome).
func (p *Permit2Payment) carriedBy(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	a := exactProxyABI
	if p.Upto {
		a = uptoProxyABI
	}
	m, err := a.MethodById(data[:4])
	if err != nil || (m.Name != "settle" && m.Name != "settleWithPermit") {
		return false
	}
	args := map[string]any{}
	if err := m.Inputs.UnpackIntoMap(args, data[4:]); err != nil {
		return false
	}
	owner, ok := args["owner"].(common.Address)
	if !ok || owner != p.From {
		return false
	}
	permit, ok := abi.ConvertType(args["permit"], new(contracts.Permit2PermitTransferFrom)).(*contracts.Permit2PermitTransferFrom)
	if !ok || permit.Permitted.Token != p.Token || !equal(permit.Permitted.Amount, p.Amount) ||
		!equal(permit.Nonce, p.Nonce) || !equal(permit.Deadline, p.Deadline) {
		return false
	}
	if p.Upto {
		w, ok := abi.ConvertType(args["witness"], new(contracts.X402UptoPermit2ProxyWitness)).(*contracts.X402UptoPermit2ProxyWitness)
		return ok && w.To == p.To && w.Facilitator == p.Facilitator && equal(w.ValidAfter, p.ValidAfter)
	}
	w, ok := abi.ConvertType(args["witness"], new(contracts.X402ExactPermit2ProxyWitness)).(*contracts.X402ExactPermit2ProxyWitness)
	return ok && w.To == p.To && equal(w.ValidAfter, p.ValidAfter)
}

// equal reports whether a and b are both set and equal.
func equal(a, b *big.Int) bool { return a != nil && b != nil && a.Cmp(b) == 0 }

// verify checks a Permit2 payment: the offer, the window, the signatures,
// then the chain (block time, balance, Permit2's allowance and nonce) and a
// simulation of the very settlement call, all at one block.
func (p *Permit2Payment) verify(ctx context.Context, s *Scheme, pay *scheme.Payment, req *x402.VerifyRequest) error {
	asset, err := s.matchRequirements(signed{p.To, p.Amount, "permit2Authorization.witness.to", "permit2Authorization.permitted.amount"}, &req.PaymentPayload.Accepted, &req.PaymentRequirements)
	if err != nil {
		return err
	}
	if p.Upto {
		return x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an upto permit (its witness names a facilitator), the requirements are exact")
	}
	if !s.permit2[asset] {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "asset %s is not paid through Permit2 here (its offers name assetTransferMethod eip3009)", asset)
	}
	return s.verifyPermit2(ctx, p, asset, pay)
}

// scheme is the payment's scheme name.
func (p *Permit2Payment) scheme() string {
	if p.Upto {
		return x402.SchemeUpto
	}
	return x402.SchemeExact
}

// moves is what the settlement transfers: Settle for upto, the permitted
// amount for exact.
func (p *Permit2Payment) moves() *big.Int {
	if p.Upto && p.Settle != nil {
		return p.Settle
	}
	return p.Amount
}

// verifyPermit2 is the checks an exact and an upto Permit2 payment share,
// once the offer is matched: the spender, the window, the signatures and
// the chain.
//
// pay, if not nil, is marked Contract when the payer has code: Permit2
// then asks it (ERC-1271) rather than ecrecover, for an EIP-7702 account
// too.
func (s *Scheme) verifyPermit2(ctx context.Context, p *Permit2Payment, asset common.Address, pay *scheme.Payment) error {
	if p.Token != asset {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "permit2Authorization.permitted.token %s is not the asset %s", p.Token, asset)
	}
	if want := p.target(); p.Spender != want {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "permit2Authorization.spender %s is not x402's %s Permit2 proxy %s", p.Spender, p.scheme(), want)
	}
	now := s.cfg.Now()
	if err := s.checkPermit2Window(p, now.Unix()); err != nil {
		return err
	}
	if err := signedBy(Permit2Digest(s.cfg.ChainID, p), p.Signature, p.From, "signature"); err != nil {
		return err
	}
	if e := p.Permit; e != nil {
		if err := s.checkEIP2612(p, e, asset, now.Unix()); err != nil {
			return err
		}
	}
	hasCode, err := s.checkPermit2Chain(ctx, asset, p, now)
	if pay != nil {
		pay.Contract = hasCode
	}
	return err
}

// checkPermit2Window: validAfter is past (the proxy refuses a payment
// before it) and the deadline leaves MinValidity to settle in.
func (s *Scheme) checkPermit2Window(p *Permit2Payment, now int64) error {
	if !p.ValidAfter.IsInt64() || p.ValidAfter.Int64() > now {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "permit is not valid yet: witness.validAfter %s is after now (%d)", p.ValidAfter, now)
	}
	if need := now + int64(s.cfg.MinValidity/time.Second); p.Deadline.IsInt64() && p.Deadline.Int64() < need {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "permit expires too soon: deadline %s, need at least %d (now + %v)", p.Deadline, need, s.cfg.MinValidity)
	}
	return nil
}

// checkEIP2612 checks the permit of Permit2 a payment carries: the payer's,
// for this asset, to Permit2, of the payment's amount (the proxy requires
// it), valid long enough, and signed by the payer in the token's domain.
// Its nonce is the chain's to judge: the simulation fails on a stale one.
func (s *Scheme) checkEIP2612(p *Permit2Payment, e *EIP2612Permit, asset common.Address, now int64) error {
	switch {
	case e.From != p.From:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.from %s is not the payer %s", e.From, p.From)
	case e.Asset != asset:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.asset %s is not the asset %s", e.Asset, asset)
	case e.Spender != Permit2:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.spender %s is not Permit2 %s", e.Spender, Permit2)
	case e.Amount.Cmp(p.Amount) != 0:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.amount %s is not the permitted amount %s", e.Amount, p.Amount)
	case !e.Deadline.IsInt64() || e.Deadline.Int64() < now+int64(s.cfg.MinValidity/time.Second):
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "eip2612GasSponsoring.deadline %s expires too soon", e.Deadline)
	}
	return signedBy(EIP2612Digest(s.domains[asset], e), e.Signature, p.From, "eip2612GasSponsoring.signature")
}

var (
	permit2ABI   = contracts.NewPermit2()
	selAllowance = crypto.Keccak256([]byte("allowance(address,address)"))[:4]
)

// checkPermit2Chain reads, in one batch at the latest block, the block's
// time, the payer's balance, its allowance of Permit2 and the word of
// Permit2's nonce bitmap, and simulates the settlement call.
func (s *Scheme) checkPermit2Chain(ctx context.Context, asset common.Address, p *Permit2Payment, now time.Time) (hasCode bool, err error) {
	inFlight := new(big.Int)
	if c := s.cfg.Committed; c != nil {
		inFlight = c(p.From, asset)
	}
	var (
		head                                struct{ Time hexutil.Uint64 }
		balance, allowance, bits, sim, code hexutil.Bytes
		proxy                               = p.target()
		permit2                             = Permit2
		amount                              = p.moves()
	)
	allowanceCall := append(append([]byte{}, selAllowance...), append(common.LeftPadBytes(p.From[:], 32), common.LeftPadBytes(Permit2[:], 32)...)...)
	batch := []rpc.BatchElem{
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
		{Method: "eth_call", Args: []any{callArgs{To: &asset, Data: s.token.PackBalanceOf(p.From)}, "latest"}, Result: &balance},
		{Method: "eth_call", Args: []any{callArgs{To: &asset, Data: allowanceCall}, "latest"}, Result: &allowance},
		{Method: "eth_call", Args: []any{callArgs{To: &permit2, Data: permit2ABI.PackNonceBitmap(p.From, new(big.Int).Rsh(p.Nonce, 8))}, "latest"}, Result: &bits},
		{Method: "eth_call", Args: []any{simArgs{From: s.cfg.Settler, To: proxy, Data: p.calldata(s)}, "latest"}, Result: &sim},
		{Method: "eth_getCode", Args: []any{p.From, "latest"}, Result: &code},
	}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return hasCode, fmt.Errorf("reading chain state: %w", err)
	}
	for _, b := range append(batch[:4:4], batch[5]) {
		if b.Error != nil {
			return hasCode, fmt.Errorf("reading chain state (%s): %w", b.Method, b.Error)
		}
	}
	hasCode = len(code) > 0
	if len(balance) != 32 || len(allowance) != 32 || len(bits) != 32 {
		return hasCode, errors.New("reading chain state: the token or Permit2 answered less than a word")
	}
	chainNow := max(now.Unix(), int64(min(uint64(head.Time), math.MaxInt64)))
	if need := chainNow + int64(s.cfg.MinValidity/time.Second); p.Deadline.IsInt64() && p.Deadline.Int64() < need {
		return hasCode, x402.Invalid(x402.ReasonInvalidInnerPayload, "permit expires too soon for the chain's clock: deadline %s, latest block at %d", p.Deadline, head.Time)
	}
	if p.nonceUsed(bits) {
		return hasCode, x402.Invalid(x402.ReasonReplay, "Permit2 nonce %s of %s is already used or invalidated", p.Nonce, p.From)
	}
	bal := new(big.Int).SetBytes(balance)
	if need := new(big.Int).Add(amount, inFlight); bal.Cmp(need) < 0 {
		return hasCode, x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: %s holds %s; the payment needs %s and its settlements in flight %s", p.From, bal, amount, inFlight)
	}
	allowed := new(big.Int).SetBytes(allowance)
	if p.Permit == nil {
		if need := new(big.Int).Add(amount, inFlight); allowed.Cmp(need) < 0 {
			return hasCode, x402.Invalid(x402.ReasonInvalidInnerPayload, "permit2_allowance_required: %s allows Permit2 %s of the token; the payment needs %s and its settlements in flight %s (approve Permit2, or send an eip2612GasSponsoring permit)", p.From, allowed, amount, inFlight)
		}
	} else if inFlight.Sign() > 0 && allowed.Cmp(new(big.Int).Add(amount, inFlight)) < 0 {
		// The permit sets the allowance to this payment's amount: it
		// would take the allowance the settlements in flight count on.
		return hasCode, x402.Invalid(x402.ReasonInvalidInnerPayload, "a settlement of %s is in flight and this payment's EIP-2612 permit would replace its allowance; retry once it is mined", p.From)
	}
	if err := batch[4].Error; err != nil {
		var de rpc.DataError
		if errors.As(err, &de) || strings.Contains(err.Error(), "revert") {
			return hasCode, x402.Invalid(x402.ReasonInvalidInnerPayload, "the settlement's simulation reverted: %v", err)
		}
		return hasCode, fmt.Errorf("simulating the settlement: %w", err)
	}
	return hasCode, nil
}

// simArgs are the arguments of the settlement's simulation: from the
// settler, which the upto proxy requires to be the witness's facilitator.
type simArgs struct {
	From common.Address `json:"from"`
	To   common.Address `json:"to"`
	Data hexutil.Bytes  `json:"data"`
}

var _ mechanism = (*Permit2Payment)(nil)

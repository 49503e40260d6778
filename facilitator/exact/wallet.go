package exact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The contract-wallet mechanism: the same EIP-3009 transfer as eip3009.go,
// signed by a contract wallet rather than an EOA. The token checks the
// signature itself (SignatureChecker: ECDSA by `from`, else ERC-1271
// isValidSignature on `from`'s code), so the settlement is the bytes form
// of transferWithAuthorization. Three kinds of payer take this path:
//
//   - a deployed wallet (ERC-1271), whatever its signature's form;
//   - an undeployed wallet whose signature is wrapped in ERC-6492
//     (factory, factory calldata, inner signature, magic suffix): the
//     settlement deploys it through Multicall3's aggregate3, the factory
//     call first, in the transaction that moves the tokens;
//   - an EIP-7702 EOA whose signature is not its key's ECDSA signature but
//     one its delegate's isValidSignature accepts. (A 7702 EOA that signs
//     with its key is an EOA to eip3009.go: ecrecover still names it.)
//
// Verification cannot check such a signature off chain: it runs the
// WalletProbe's creation code in an eth_call, which deploys the wallet if
// need be, checks the signature and runs the transfer, every step that
// runs the payer's code (factory, wallet) bounded by Config.WalletGas, and
// refuses a payment whose settlement would cost more. Settlement carries
// the same bound as MaxGas, so the estimate at settle time holds it too.

// erc6492Magic ends an ERC-6492 signature:
// bytes32(uint256(keccak256("erc6492.invalid.signature")) - 1).
var erc6492Magic = common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")

// maxSignature bounds a wallet's signature, ERC-6492 wrapper included.
const maxSignature = 4096

// erc6492Wrapper is abi.encode(address factory, bytes factoryCalldata,
// bytes signature), what precedes the magic suffix.
var erc6492Wrapper = abi.Arguments{{Type: abiType("address")}, {Type: abiType("bytes")}, {Type: abiType("bytes")}}

// probeAnswer is what WalletProbe's constructor returns:
// abi.encode(uint256 verdict, uint256 deployGas, uint256 transferGas, bytes revertData).
var probeAnswer = abi.Arguments{{Type: abiType("uint256")}, {Type: abiType("uint256")}, {Type: abiType("uint256")}, {Type: abiType("bytes")}}

// abiType is the ABI type named t; t is a constant of this file.
func abiType(t string) abi.Type {
	typ, err := abi.NewType(t, "", nil)
	if err != nil {
		panic(err)
	}
	return typ
}

// WalletAuthorization is an exact payment signed by a contract wallet.
type WalletAuthorization struct {
	// Authorization holds the transfer's fields; its Signature is unused.
	Authorization
	// Signature is what the wallet checks: the signature as sent, or the
	// inner signature of an ERC-6492 wrapper.
	Signature []byte
	// Factory and FactoryData deploy the wallet (ERC-6492); Factory is
	// zero when the signature is not wrapped.
	Factory     common.Address
	FactoryData []byte
	// sent is the signature as sent, wrapper included.
	sent []byte
	// notEOA says why a 65-byte signature is not `from`'s ECDSA
	// signature, for the refusal when no wallet accepts it either.
	notEOA string
}

// PayloadHash identifies the payment as signed, wrapper included.
func (w *WalletAuthorization) PayloadHash() common.Hash {
	a := &w.Authorization
	return crypto.Keccak256Hash(
		a.To.Bytes(), common.LeftPadBytes(a.Value.Bytes(), 32),
		common.LeftPadBytes(a.ValidAfter.Bytes(), 32), common.LeftPadBytes(a.ValidBefore.Bytes(), 32),
		w.sent,
	)
}

// decodeSigned decodes an EIP-3009 payment and picks its mechanism by its
// signature: 65 bytes that recover to `from` in asset's domain are an EOA's
// (eip3009.go), even inside an ERC-6492 wrapper, whose deployment is then
// dropped (no wallet's address has a key, so nothing needs deploying);
// anything else is a contract wallet's. A payment in an asset that is not
// allowlisted stays an EOA's, for verify to refuse.
func (s *Scheme) decodeSigned(p *x402.PaymentPayload, asset common.Address) (mechanism, *Authorization, error) {
	raw, a, err := decodeFields(p)
	if err != nil {
		return nil, nil, err
	}
	sent, err := hexutil.Decode(raw.Signature)
	if err != nil || len(sent) == 0 || len(sent) > maxSignature {
		return nil, nil, x402.Invalid(x402.ReasonSignatureInvalid, "signature: want 0x hex of 1 to %d bytes (r, s, v of an EOA, or a contract wallet's)", maxSignature)
	}
	// The wallet's view is made only for a signature that is not the
	// payer's ECDSA signature: most payments are.
	var (
		factory      common.Address
		factoryData  []byte
		inner        = sent
		notEOA       string
		unsignedAuth = *a
	)
	if bytes.HasSuffix(sent, erc6492Magic) {
		if factory, factoryData, inner, err = unwrap6492(sent); err != nil {
			return nil, nil, err
		}
	}
	if len(inner) == 65 {
		_, known := s.domains[asset]
		var buf [65]byte // eoaSignature normalizes v in place
		copy(buf[:], inner)
		sig, err := eoaSignature(buf[:])
		if err == nil {
			a.Signature = sig
			if !known {
				return a, a, nil
			}
			err = s.checkSignature(s.Digest(asset, a), a)
		}
		var xe *x402.Error
		switch {
		case err == nil:
			a.signedFor = asset
			return a, a, nil
		case !known:
			return nil, nil, err
		case errors.As(err, &xe):
			notEOA = xe.Message
		}
	}
	w := &WalletAuthorization{Authorization: unsignedAuth, Signature: inner, Factory: factory, FactoryData: factoryData, sent: sent, notEOA: notEOA}
	return w, &w.Authorization, nil
}

// unwrap6492 splits an ERC-6492 signature.
func unwrap6492(sig []byte) (common.Address, []byte, []byte, error) {
	v, err := erc6492Wrapper.Unpack(sig[:len(sig)-len(erc6492Magic)])
	if err != nil {
		return common.Address{}, nil, nil, x402.Invalid(x402.ReasonSignatureInvalid, "signature ends with ERC-6492's magic suffix but is not abi.encode(factory, factoryCalldata, signature): %v", err)
	}
	factory, _ := v[0].(common.Address)
	data, _ := v[1].([]byte)
	inner, _ := v[2].([]byte)
	if factory == (common.Address{}) || len(data) == 0 || len(inner) == 0 {
		return common.Address{}, nil, nil, x402.Invalid(x402.ReasonSignatureInvalid, "ERC-6492 signature: factory, factory calldata and inner signature are all required")
	}
	return factory, data, inner, nil
}

// The probe's verdicts (WalletProbe.sol).
const (
	probeOK = iota
	probeFactoryReverted
	probeNotDeployed
	probeBadSignature
	probeTransferReverted
	probeNoMulticall
)

// probeArgs are an eth_call's arguments with a gas limit.
type probeArgs struct {
	Data hexutil.Bytes  `json:"data"`
	Gas  hexutil.Uint64 `json:"gas"`
}

// verify checks a contract wallet's payment: the fields, the window and
// the chain's state as an EOA's are checked, then the probe.
func (w *WalletAuthorization) verify(ctx context.Context, s *Scheme, pay *scheme.Payment, req *x402.VerifyRequest) error {
	if pay != nil {
		pay.Contract = true
	}
	a := &w.Authorization
	asset, err := s.matchRequirements(signed{a.To, a.Value, "authorization.to", "authorization.value"}, &req.PaymentPayload.Accepted, &req.PaymentRequirements)
	if err != nil {
		return err
	}
	now := s.cfg.Now()
	if err := s.checkWindow(a, now.Unix()); err != nil {
		return err
	}
	st, err := s.checkChain(ctx, asset, a, now)
	if err != nil {
		return err
	}
	if !st.hasCode && w.Factory == (common.Address{}) {
		// Nothing at from can accept a signature that is not its key's:
		// refused without running the probe.
		return w.refuseSignature()
	}
	if !st.hasCode && pay != nil {
		// Not deployed yet: the wallets of one ERC-6492 factory are one
		// class of the budget of contract-wallet reverts.
		pay.Class = crypto.Keccak256Hash([]byte("erc6492 factory"), w.Factory.Bytes())
	}
	return s.probe(ctx, asset, w)
}

// probe runs WalletProbe for w at the latest block and reads its verdict.
func (s *Scheme) probe(ctx context.Context, asset common.Address, w *WalletAuthorization) error {
	budget := s.cfg.WalletGas
	code := append(common.FromHex(contracts.WalletProbeMetaData.Bin), contracts.NewWalletProbe().PackConstructor(
		asset, w.From, s.Digest(asset, &w.Authorization), w.Signature, w.Factory, w.FactoryData,
		s.transferCall(w), new(big.Int).SetUint64(budget), s.cfg.Multicall3)...)
	var out hexutil.Bytes
	// Three steps of at most budget each, and the probe's own work.
	batch := []rpc.BatchElem{{Method: "eth_call", Args: []any{probeArgs{Data: code, Gas: hexutil.Uint64(3*budget + 500_000)}, "latest"}, Result: &out}}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return fmt.Errorf("probing the wallet: %w", err)
	}
	if err := batch[0].Error; err != nil {
		if reverted(err) {
			return x402.Invalid(x402.ReasonInvalidInnerPayload, "the wallet's checks did not complete: %v", err)
		}
		return fmt.Errorf("probing the wallet: %w", err)
	}
	v, err := probeAnswer.Unpack(out)
	if err != nil {
		return fmt.Errorf("decoding the wallet probe's answer: %w", err)
	}
	verdict, _ := v[0].(*big.Int)
	deployGas, _ := v[1].(*big.Int)
	transferGas, _ := v[2].(*big.Int)
	detail, _ := v[3].([]byte)
	if verdict == nil || deployGas == nil || transferGas == nil || !verdict.IsUint64() {
		return errors.New("the wallet probe answered out of range")
	}
	switch verdict.Uint64() {
	case probeOK:
	case probeFactoryReverted:
		if deployGas.Uint64()*64 >= budget*63 {
			return x402.Invalid(x402.ReasonInvalidInnerPayload, "deploying the wallet through the ERC-6492 factory %s takes more than the %d gas this facilitator spends at most on a wallet's payment", w.Factory, budget)
		}
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the ERC-6492 factory %s reverted deploying the wallet (within %d gas): %s", w.Factory, budget, revertReason(detail))
	case probeNoMulticall:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "this facilitator cannot deploy a wallet on this chain: no Multicall3 at %s; pay from a deployed wallet", s.cfg.Multicall3)
	case probeNotDeployed:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the ERC-6492 factory %s did not deploy a wallet at authorization.from %s", w.Factory, w.From)
	case probeBadSignature:
		if w.Factory == (common.Address{}) {
			return w.refuseSignature()
		}
		return x402.Invalid(x402.ReasonSignatureInvalid, "the wallet %s, once deployed, does not accept the signature (ERC-1271)", w.From)
	case probeTransferReverted:
		if isSignatureRevert(detail) {
			return x402.Invalid(x402.ReasonSignatureInvalid, "the token refuses the wallet's signature: %s", revertReason(detail))
		}
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the token refuses the transfer: %s", revertReason(detail))
	default:
		return fmt.Errorf("the wallet probe answered verdict %s", verdict)
	}
	if used := new(big.Int).Add(deployGas, transferGas); used.Cmp(new(big.Int).SetUint64(budget)) > 0 {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "settling the wallet's payment takes %s gas (deployment %s, transfer %s), more than the %d gas this facilitator spends at most on a wallet's payment", used, deployGas, transferGas, budget)
	}
	return nil
}

// refuseSignature refuses a signature that is neither from's ECDSA
// signature nor accepted by its code.
func (w *WalletAuthorization) refuseSignature() error {
	if w.notEOA != "" {
		return x402.Invalid(x402.ReasonSignatureInvalid, "%s; nor does code at %s accept it (ERC-1271; an undeployed wallet needs an ERC-6492 signature)", w.notEOA, w.From)
	}
	return x402.Invalid(x402.ReasonSignatureInvalid, "the signature is neither the ECDSA signature of authorization.from %s nor one its code accepts (ERC-1271); an undeployed wallet needs an ERC-6492 signature", w.From)
}

// selInvalidSignature is the selector of DevUSD's InvalidSignature().
var selInvalidSignature = crypto.Keccak256([]byte("InvalidSignature()"))[:4]

// isSignatureRevert reports whether a token's revert data says the
// signature is wrong: DevUSD's InvalidSignature(), or a reason string
// that names the signature (USDC's "FiatTokenV2: invalid signature").
func isSignatureRevert(data []byte) bool {
	if len(data) >= 4 && bytes.Equal(data[:4], selInvalidSignature) {
		return true
	}
	reason, err := abi.UnpackRevert(data)
	return err == nil && strings.Contains(strings.ToLower(reason), "signature")
}

// revertReason renders revert data for a refusal's message.
func revertReason(data []byte) string {
	if reason, err := abi.UnpackRevert(data); err == nil {
		return fmt.Sprintf("%q", reason)
	}
	if len(data) == 0 {
		return "no reason given"
	}
	if len(data) > 68 {
		data = data[:68]
	}
	return "revert data " + hexutil.Encode(data)
}

// transferCall is transferWithAuthorization(from, to, value, validAfter,
// validBefore, nonce, bytes signature) with the wallet's signature.
func (s *Scheme) transferCall(w *WalletAuthorization) []byte {
	a := &w.Authorization
	return s.token.PackTransferWithAuthorization(a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, w.Signature)
}

// call is the settlement: the transfer on the asset, or, for an ERC-6492
// signature, Multicall3's aggregate3 of the factory's call (allowed to
// fail: the wallet may have been deployed meanwhile by anyone) and the
// transfer (not allowed to fail), so that the wallet is deployed only by a
// transaction that also pays. Its gas is bounded by WalletGas, with room
// for the transaction's own costs.
func (w *WalletAuthorization) call(s *Scheme, pay *scheme.Payment) scheme.Settlement {
	transfer := s.transferCall(w)
	max := (s.cfg.WalletGas + walletOverhead) * 5 / 4
	if w.Factory == (common.Address{}) {
		return scheme.Settlement{To: pay.Asset, Data: transfer, MaxGas: max}
	}
	return scheme.Settlement{To: s.cfg.Multicall3, MaxGas: max, Data: s.multicall.PackAggregate3([]contracts.Multicall3Call3{
		{Target: w.Factory, AllowFailure: true, CallData: w.FactoryData},
		{Target: pay.Asset, AllowFailure: false, CallData: transfer},
	})}
}

// walletOverhead is the gas of a wallet's settlement beyond what the probe
// measures: the transaction's base cost and calldata, and Multicall3.
const walletOverhead = 21_000 + 16*maxSignature + 20_000

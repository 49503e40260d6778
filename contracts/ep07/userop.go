package ep07

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// UserOperation is a v0.7 UserOperation unpacked, with the fields of
// ERC-7769's v0.7 JSON: the form a payer fills, a bundler takes and a
// paymaster answers. Factory is zero when the account exists; Paymaster is
// zero when the operation pays its own gas.
type UserOperation struct {
	Sender                        common.Address
	Nonce                         *big.Int
	Factory                       common.Address
	FactoryData                   []byte
	CallData                      []byte
	CallGasLimit                  *big.Int
	VerificationGasLimit          *big.Int
	PreVerificationGas            *big.Int
	MaxFeePerGas                  *big.Int
	MaxPriorityFeePerGas          *big.Int
	Paymaster                     common.Address
	PaymasterVerificationGasLimit *big.Int
	PaymasterPostOpGasLimit       *big.Int
	PaymasterData                 []byte
	Signature                     []byte
}

// uint128Max bounds the gas fields that the packing puts in 16 bytes.
var uint128Max = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))

// two128 packs two 128-bit values into one word: high ‖ low.
func two128(high, low *big.Int) [32]byte {
	var w [32]byte
	orZero(high).FillBytes(w[:16])
	orZero(low).FillBytes(w[16:])
	return w
}

func orZero(n *big.Int) *big.Int {
	if n == nil || n.Sign() < 0 || n.Cmp(uint128Max) > 0 {
		return new(big.Int) // Check refuses these; the packing never panics
	}
	return n
}

// Check reports a gas field that does not fit its 128 bits (or is
// negative), and a factory without data or factory data without a factory.
func (op *UserOperation) Check() error {
	var errs []string
	for name, v := range map[string]*big.Int{
		"callGasLimit": op.CallGasLimit, "verificationGasLimit": op.VerificationGasLimit,
		"maxFeePerGas": op.MaxFeePerGas, "maxPriorityFeePerGas": op.MaxPriorityFeePerGas,
		"paymasterVerificationGasLimit": op.PaymasterVerificationGasLimit, "paymasterPostOpGasLimit": op.PaymasterPostOpGasLimit,
	} {
		if v != nil && (v.Sign() < 0 || v.Cmp(uint128Max) > 0) {
			errs = append(errs, name+" does not fit 128 bits")
		}
	}
	if op.PreVerificationGas != nil && (op.PreVerificationGas.Sign() < 0 || op.PreVerificationGas.BitLen() > 256) {
		errs = append(errs, "preVerificationGas does not fit 256 bits")
	}
	if op.Nonce == nil || op.Nonce.Sign() < 0 || op.Nonce.BitLen() > 256 {
		errs = append(errs, "nonce does not fit 256 bits")
	}
	if (op.Factory == common.Address{}) != (len(op.FactoryData) == 0) {
		errs = append(errs, "factory and factoryData go together")
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// InitCode is factory ‖ factoryData, or empty.
func (op *UserOperation) InitCode() []byte {
	if (op.Factory == common.Address{}) {
		return []byte{}
	}
	return append(op.Factory.Bytes(), op.FactoryData...)
}

// PaymasterAndData is paymaster ‖ paymasterVerificationGasLimit (16 bytes)
// ‖ paymasterPostOpGasLimit (16 bytes) ‖ paymasterData, or empty.
func (op *UserOperation) PaymasterAndData() []byte {
	if (op.Paymaster == common.Address{}) {
		return []byte{}
	}
	w := two128(op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit)
	out := append(op.Paymaster.Bytes(), w[:]...)
	return append(out, op.PaymasterData...)
}

// Pack is the operation as the EntryPoint takes it: accountGasLimits =
// verificationGasLimit ‖ callGasLimit, gasFees = maxPriorityFeePerGas ‖
// maxFeePerGas, initCode and paymasterAndData concatenated.
func (op *UserOperation) Pack() PackedUserOperation {
	return PackedUserOperation{
		Sender: op.Sender, Nonce: nonNil(op.Nonce),
		InitCode: op.InitCode(), CallData: nonNilBytes(op.CallData),
		AccountGasLimits:   two128(op.VerificationGasLimit, op.CallGasLimit),
		PreVerificationGas: nonNil(op.PreVerificationGas),
		GasFees:            two128(op.MaxPriorityFeePerGas, op.MaxFeePerGas),
		PaymasterAndData:   op.PaymasterAndData(), Signature: nonNilBytes(op.Signature),
	}
}

func nonNil(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Unpack is the inverse of Pack; it fails on an initCode shorter than an
// address, or a paymasterAndData shorter than its 52-byte head.
func Unpack(p PackedUserOperation) (UserOperation, error) {
	op := UserOperation{
		Sender: p.Sender, Nonce: p.Nonce, CallData: p.CallData, PreVerificationGas: p.PreVerificationGas,
		VerificationGasLimit: new(big.Int).SetBytes(p.AccountGasLimits[:16]), CallGasLimit: new(big.Int).SetBytes(p.AccountGasLimits[16:]),
		MaxPriorityFeePerGas: new(big.Int).SetBytes(p.GasFees[:16]), MaxFeePerGas: new(big.Int).SetBytes(p.GasFees[16:]),
		Signature: p.Signature,
	}
	switch n := len(p.InitCode); {
	case n == 0:
	case n < 20:
		return op, errors.New("initCode is shorter than an address")
	default:
		op.Factory, op.FactoryData = common.BytesToAddress(p.InitCode[:20]), p.InitCode[20:]
	}
	switch n := len(p.PaymasterAndData); {
	case n == 0:
	case n < PaymasterDataOffset:
		return op, fmt.Errorf("paymasterAndData is shorter than its %d-byte head", PaymasterDataOffset)
	default:
		pnd := p.PaymasterAndData
		op.Paymaster = common.BytesToAddress(pnd[:20])
		op.PaymasterVerificationGasLimit = new(big.Int).SetBytes(pnd[20:36])
		op.PaymasterPostOpGasLimit = new(big.Int).SetBytes(pnd[36:52])
		op.PaymasterData = pnd[52:]
	}
	return op, nil
}

// PaymasterDataOffset is where paymasterData starts in paymasterAndData
// (UserOperationLib.PAYMASTER_DATA_OFFSET).
const PaymasterDataOffset = 52

var (
	uint256T, _ = abi.NewType("uint256", "", nil)
	uint48T, _  = abi.NewType("uint48", "", nil)
	addressT, _ = abi.NewType("address", "", nil)
	bytes32T, _ = abi.NewType("bytes32", "", nil)

	// packArgs is UserOperationLib.encode of 0.7.0.
	packArgs = abi.Arguments{
		{Type: addressT}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
		{Type: bytes32T}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
	}
	outerArgs     = abi.Arguments{{Type: bytes32T}, {Type: addressT}, {Type: uint256T}}
	validityArgs  = abi.Arguments{{Type: uint48T}, {Type: uint48T}}
	paymasterArgs = abi.Arguments{
		{Type: addressT}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
		{Type: bytes32T}, {Type: uint256T}, {Type: uint256T}, {Type: bytes32T},
		{Type: uint256T}, {Type: addressT}, {Type: uint48T}, {Type: uint48T},
	}
)

// UserOpHash is EntryPoint v0.7's getUserOpHash:
// keccak256(abi.encode(keccak256(pack(op)), entryPoint, chainId)), where
// pack encodes sender, nonce, keccak(initCode), keccak(callData),
// accountGasLimits, preVerificationGas, gasFees and keccak(paymasterAndData).
// op must pass Check.
func UserOpHash(op UserOperation, entryPoint common.Address, chainID *big.Int) common.Hash {
	p := op.Pack()
	inner, err := packArgs.Pack(p.Sender, p.Nonce,
		crypto.Keccak256Hash(p.InitCode), crypto.Keccak256Hash(p.CallData),
		p.AccountGasLimits, p.PreVerificationGas, p.GasFees, crypto.Keccak256Hash(p.PaymasterAndData))
	if err != nil {
		panic(fmt.Sprintf("packing a v0.7 UserOperation: %v", err)) // a value over 256 bits: Check refuses it
	}
	outer, err := outerArgs.Pack(crypto.Keccak256Hash(inner), entryPoint, chainID)
	if err != nil {
		panic(fmt.Sprintf("packing a v0.7 UserOperation hash: %v", err))
	}
	return crypto.Keccak256Hash(outer)
}

// VerifyingPaymasterData is the VerifyingPaymaster's paymasterData:
// abi.encode(uint48 validUntil, uint48 validAfter) ‖ signature.
func VerifyingPaymasterData(validUntil, validAfter uint64, signature []byte) []byte {
	window, err := validityArgs.Pack(new(big.Int).SetUint64(validUntil), new(big.Int).SetUint64(validAfter))
	if err != nil {
		panic(fmt.Sprintf("packing a validity window: %v", err)) // over 48 bits
	}
	return append(window, signature...)
}

// VerifyingPaymasterHash is VerifyingPaymaster.getHash of 0.7.0, computed
// off-chain: the hash its signer signs (as an Ethereum signed message). It
// covers the operation's fields but the paymasterData and the signature,
// the paymaster's two gas limits, the chain, the paymaster and the window;
// unlike v0.6 there is no sender nonce of the paymaster's.
func VerifyingPaymasterHash(op UserOperation, paymaster common.Address, chainID *big.Int, validUntil, validAfter uint64) common.Hash {
	p := op.Pack()
	limits := two128(op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit)
	enc, err := paymasterArgs.Pack(p.Sender, p.Nonce,
		crypto.Keccak256Hash(p.InitCode), crypto.Keccak256Hash(p.CallData),
		p.AccountGasLimits, new(big.Int).SetBytes(limits[:]), p.PreVerificationGas, p.GasFees,
		chainID, paymaster, new(big.Int).SetUint64(validUntil), new(big.Int).SetUint64(validAfter))
	if err != nil {
		panic(fmt.Sprintf("packing a v0.7 paymaster hash: %v", err))
	}
	return crypto.Keccak256Hash(enc)
}

// UserOperationHex is the ERC-7769 wire form of a v0.7 UserOperation: every
// value a 0x hex string, absent factory and paymaster fields omitted.
type UserOperationHex struct {
	Sender                        string `json:"sender"`
	Nonce                         string `json:"nonce"`
	Factory                       string `json:"factory,omitempty"`
	FactoryData                   string `json:"factoryData,omitempty"`
	CallData                      string `json:"callData"`
	CallGasLimit                  string `json:"callGasLimit"`
	VerificationGasLimit          string `json:"verificationGasLimit"`
	PreVerificationGas            string `json:"preVerificationGas"`
	MaxFeePerGas                  string `json:"maxFeePerGas"`
	MaxPriorityFeePerGas          string `json:"maxPriorityFeePerGas"`
	Paymaster                     string `json:"paymaster,omitempty"`
	PaymasterVerificationGasLimit string `json:"paymasterVerificationGasLimit,omitempty"`
	PaymasterPostOpGasLimit       string `json:"paymasterPostOpGasLimit,omitempty"`
	PaymasterData                 string `json:"paymasterData,omitempty"`
	Signature                     string `json:"signature"`
}

// Decode parses the operation, naming every malformed field. With
// unfilled set, the gas and fee fields, the paymaster's and the signature
// may be empty, as before sponsorship; sender, nonce and callData are
// always required.
func (h UserOperationHex) Decode(unfilled bool) (UserOperation, error) {
	var (
		op UserOperation
		f  contracts.HexFields
	)
	op.Sender = f.Address("sender", h.Sender, false)
	op.Nonce = f.Quantity("nonce", h.Nonce, false)
	op.Factory = f.Address("factory", h.Factory, true)
	op.FactoryData = f.Data("factoryData", h.FactoryData, true)
	op.CallData = f.Data("callData", h.CallData, false)
	op.CallGasLimit = f.Quantity("callGasLimit", h.CallGasLimit, unfilled)
	op.VerificationGasLimit = f.Quantity("verificationGasLimit", h.VerificationGasLimit, unfilled)
	op.PreVerificationGas = f.Quantity("preVerificationGas", h.PreVerificationGas, unfilled)
	op.MaxFeePerGas = f.Quantity("maxFeePerGas", h.MaxFeePerGas, unfilled)
	op.MaxPriorityFeePerGas = f.Quantity("maxPriorityFeePerGas", h.MaxPriorityFeePerGas, unfilled)
	op.Paymaster = f.Address("paymaster", h.Paymaster, true)
	paid := op.Paymaster != common.Address{}
	op.PaymasterVerificationGasLimit = f.Quantity("paymasterVerificationGasLimit", h.PaymasterVerificationGasLimit, unfilled || !paid)
	op.PaymasterPostOpGasLimit = f.Quantity("paymasterPostOpGasLimit", h.PaymasterPostOpGasLimit, unfilled || !paid)
	op.PaymasterData = f.Data("paymasterData", h.PaymasterData, true)
	op.Signature = f.Data("signature", h.Signature, unfilled)
	if len(op.CallData) == 0 && !f.Failed() {
		f.Fail("callData is required")
	}
	if !f.Failed() {
		if err := op.Check(); err != nil {
			f.Fail(err.Error())
		}
	}
	return op, f.Err()
}

// Hex returns the wire form of op.
func (op *UserOperation) Hex() UserOperationHex {
	h := UserOperationHex{
		Sender: op.Sender.Hex(), Nonce: hexutil.EncodeBig(nonNil(op.Nonce)), CallData: hexutil.Encode(nonNilBytes(op.CallData)),
		CallGasLimit: hexutil.EncodeBig(nonNil(op.CallGasLimit)), VerificationGasLimit: hexutil.EncodeBig(nonNil(op.VerificationGasLimit)),
		PreVerificationGas: hexutil.EncodeBig(nonNil(op.PreVerificationGas)),
		MaxFeePerGas:       hexutil.EncodeBig(nonNil(op.MaxFeePerGas)), MaxPriorityFeePerGas: hexutil.EncodeBig(nonNil(op.MaxPriorityFeePerGas)),
		Signature: hexutil.Encode(nonNilBytes(op.Signature)),
	}
	if (op.Factory != common.Address{}) {
		h.Factory, h.FactoryData = op.Factory.Hex(), hexutil.Encode(nonNilBytes(op.FactoryData))
	}
	if (op.Paymaster != common.Address{}) {
		h.Paymaster = op.Paymaster.Hex()
		h.PaymasterVerificationGasLimit = hexutil.EncodeBig(nonNil(op.PaymasterVerificationGasLimit))
		h.PaymasterPostOpGasLimit = hexutil.EncodeBig(nonNil(op.PaymasterPostOpGasLimit))
		h.PaymasterData = hexutil.Encode(nonNilBytes(op.PaymasterData))
	}
	return h
}

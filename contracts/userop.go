package contracts

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

var (
	// userOpArgs is the argument list of the EntryPoint's getUserOpHash: a
	// UserOperation's raw ABI encoding. It is parsed on first use, not at
	// init: only the paymaster's sponsorship needs it, and parsing the
	// EntryPoint's ABI allocates about 400 KB.
	userOpArgs = sync.OnceValue(func() abi.Arguments {
		parsed, err := EntryPointMetaData.ParseABI()
		if err != nil {
			panic(fmt.Sprintf("parsing the EntryPoint's ABI: %v", err)) // generated, checked by go generate
		}
		return parsed.Methods["getUserOpHash"].Inputs
	})
	uint256T, _ = abi.NewType("uint256", "", nil)
	uint48T, _  = abi.NewType("uint48", "", nil)
	addressT, _ = abi.NewType("address", "", nil)
	bytes32T, _ = abi.NewType("bytes32", "", nil)
	bytesT, _   = abi.NewType("bytes", "", nil)

	// userOpHashArgs is UserOperationLib.pack of EntryPoint v0.6.
	userOpHashArgs = abi.Arguments{
		{Type: addressT}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
		{Type: uint256T}, {Type: uint256T}, {Type: uint256T}, {Type: uint256T}, {Type: uint256T},
		{Type: bytes32T},
	}
	entryPointHashArgs = abi.Arguments{{Type: bytes32T}, {Type: addressT}, {Type: uint256T}}
	paymasterHashArgs  = abi.Arguments{{Type: bytesT}, {Type: uint256T}, {Type: addressT}, {Type: uint256T}, {Type: uint48T}, {Type: uint48T}}
	validityArgs       = abi.Arguments{{Type: uint48T}, {Type: uint48T}}
)

// UserOpHash is EntryPoint v0.6's getUserOpHash: the hash an account owner
// signs, which covers every field but the signature, the EntryPoint and the
// chain.
func UserOpHash(op UserOperation, entryPoint common.Address, chainID *big.Int) common.Hash {
	packed, err := userOpHashArgs.Pack(
		op.Sender, op.Nonce,
		crypto.Keccak256Hash(op.InitCode), crypto.Keccak256Hash(op.CallData),
		op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas,
		op.MaxFeePerGas, op.MaxPriorityFeePerGas,
		crypto.Keccak256Hash(op.PaymasterAndData),
	)
	if err != nil {
		panic(fmt.Sprintf("packing a UserOperation: %v", err)) // nil big.Int fields
	}
	outer, err := entryPointHashArgs.Pack(crypto.Keccak256Hash(packed), entryPoint, chainID)
	if err != nil {
		panic(fmt.Sprintf("packing a UserOperation hash: %v", err))
	}
	return crypto.Keccak256Hash(outer)
}

// PaymasterSignatureLength is the length of the VerifyingPaymaster's ECDSA
// signature inside paymasterAndData.
const PaymasterSignatureLength = 65

// PaymasterAndData builds the paymasterAndData of the VerifyingPaymaster:
// paymaster ‖ abi.encode(uint48 validUntil, uint48 validAfter) ‖ signature.
func PaymasterAndData(paymaster common.Address, validUntil, validAfter uint64, signature []byte) []byte {
	window, err := validityArgs.Pack(new(big.Int).SetUint64(validUntil), new(big.Int).SetUint64(validAfter))
	if err != nil {
		panic(fmt.Sprintf("packing a validity window: %v", err)) // over 48 bits
	}
	out := append(paymaster.Bytes(), window...)
	return append(out, signature...)
}

// VerifyingPaymasterHash is VerifyingPaymaster.getHash of
// @account-abstraction/contracts 0.6.0, computed off-chain: the hash its
// signer signs (as an Ethereum signed message) to sponsor op. senderNonce is
// the paymaster's senderNonce(op.sender).
//
// getHash hashes the UserOperation's raw ABI encoding up to paymasterAndData,
// whose head holds the offset of the signature field, which depends on the
// length of paymasterAndData. The hash is therefore computed with
// paymasterAndData at its final length (with a 65-byte signature), whatever
// op.PaymasterAndData holds.
func VerifyingPaymasterHash(op UserOperation, paymaster common.Address, chainID, senderNonce *big.Int, validUntil, validAfter uint64) (common.Hash, error) {
	op.PaymasterAndData = PaymasterAndData(paymaster, validUntil, validAfter, make([]byte, PaymasterSignatureLength))
	enc, err := userOpArgs().Pack(op)
	if err != nil {
		return common.Hash{}, fmt.Errorf("encoding the UserOperation: %w", err)
	}
	// enc is the offset of the (dynamic) tuple, then the tuple. Head word 9
	// of the tuple is the offset of paymasterAndData's length word.
	tuple := enc[32:]
	pndOffset := new(big.Int).SetBytes(tuple[9*32 : 10*32])
	if !pndOffset.IsUint64() || pndOffset.Uint64() > uint64(len(tuple)) {
		return common.Hash{}, fmt.Errorf("malformed UserOperation encoding")
	}
	packed, err := paymasterHashArgs.Pack(
		tuple[:pndOffset.Uint64()], chainID, paymaster, senderNonce,
		new(big.Int).SetUint64(validUntil), new(big.Int).SetUint64(validAfter),
	)
	if err != nil {
		return common.Hash{}, fmt.Errorf("encoding the paymaster hash: %w", err)
	}
	return crypto.Keccak256Hash(packed), nil
}

// SignHash signs hash as an Ethereum signed message (EIP-191 version 0x45),
// as ECDSA.toEthSignedMessageHash expects: the form both SimpleAccount (over
// the UserOperation hash) and VerifyingPaymaster (over its hash) verify. The
// result is r ‖ s ‖ v with v in {27, 28}.
func SignHash(hash common.Hash, key *ecdsa.PrivateKey) ([]byte, error) {
	sig, err := crypto.Sign(accounts.TextHash(hash[:]), key)
	if err != nil {
		return nil, err
	}
	sig[64] += 27
	return sig, nil
}

// UserOperationHex is the wire form of a v0.6 UserOperation: every value a
// 0x hex string. It has the fields of x402.UserOperation, which converts to
// it directly.
type UserOperationHex struct {
	Sender               string `json:"sender"`
	Nonce                string `json:"nonce"`
	InitCode             string `json:"initCode"`
	CallData             string `json:"callData"`
	CallGasLimit         string `json:"callGasLimit"`
	VerificationGasLimit string `json:"verificationGasLimit"`
	PreVerificationGas   string `json:"preVerificationGas"`
	MaxFeePerGas         string `json:"maxFeePerGas"`
	MaxPriorityFeePerGas string `json:"maxPriorityFeePerGas"`
	PaymasterAndData     string `json:"paymasterAndData"`
	Signature            string `json:"signature"`
}

// HexFields decodes the 0x hex fields of an operation's wire form, one by
// one, keeping a message for every malformed field: the decoding both
// versions' UserOperationHex share.
type HexFields struct {
	errs []string
}

// Quantity decodes a 0x hex quantity; optional lets "" and "0x" be zero.
func (f *HexFields) Quantity(field, v string, optional bool) *big.Int {
	if optional && (v == "" || v == "0x") {
		return new(big.Int)
	}
	n, err := hexutil.DecodeBig(v)
	if err != nil {
		f.errs = append(f.errs, fmt.Sprintf("%s %q: want a 0x hex quantity", field, v))
		return new(big.Int)
	}
	return n
}

// Data decodes 0x hex bytes; optional lets "" and "0x" be empty.
func (f *HexFields) Data(field, v string, optional bool) []byte {
	if optional && (v == "" || v == "0x") {
		return []byte{}
	}
	b, err := hexutil.Decode(v)
	if err != nil {
		f.errs = append(f.errs, fmt.Sprintf("%s: want 0x hex bytes", field))
	}
	return b
}

// Address decodes a 0x address; optional lets "" and "0x" be zero.
func (f *HexFields) Address(field, v string, optional bool) common.Address {
	if optional && (v == "" || v == "0x") {
		return common.Address{}
	}
	if !common.IsHexAddress(v) || !strings.HasPrefix(v, "0x") {
		f.errs = append(f.errs, fmt.Sprintf("%s %q: want an address", field, v))
	}
	return common.HexToAddress(v)
}

// Fail adds a message of its own.
func (f *HexFields) Fail(msg string) { f.errs = append(f.errs, msg) }

// Failed reports whether a field was malformed.
func (f *HexFields) Failed() bool { return len(f.errs) > 0 }

// Err is every message, or nil.
func (f *HexFields) Err() error {
	if len(f.errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(f.errs, "; "))
}

// Decode parses the operation, naming every malformed field. With
// unfilled set, the gas and fee fields, paymasterAndData and signature may
// be empty ("" or "0x"), as before sponsorship; sender, nonce and callData
// are always required.
func (h UserOperationHex) Decode(unfilled bool) (UserOperation, error) {
	var (
		op UserOperation
		f  HexFields
	)
	op.Sender = f.Address("sender", h.Sender, false)
	op.Nonce = f.Quantity("nonce", h.Nonce, false)
	op.InitCode = f.Data("initCode", h.InitCode, true)
	op.CallData = f.Data("callData", h.CallData, false)
	op.CallGasLimit = f.Quantity("callGasLimit", h.CallGasLimit, unfilled)
	op.VerificationGasLimit = f.Quantity("verificationGasLimit", h.VerificationGasLimit, unfilled)
	op.PreVerificationGas = f.Quantity("preVerificationGas", h.PreVerificationGas, unfilled)
	op.MaxFeePerGas = f.Quantity("maxFeePerGas", h.MaxFeePerGas, unfilled)
	op.MaxPriorityFeePerGas = f.Quantity("maxPriorityFeePerGas", h.MaxPriorityFeePerGas, unfilled)
	op.PaymasterAndData = f.Data("paymasterAndData", h.PaymasterAndData, unfilled)
	op.Signature = f.Data("signature", h.Signature, unfilled)
	if len(op.CallData) == 0 && !f.Failed() {
		f.Fail("callData is required")
	}
	return op, f.Err()
}

// Hex returns the wire form of op.
func (op *UserOperation) Hex() UserOperationHex {
	return UserOperationHex{
		Sender: op.Sender.Hex(), Nonce: hexutil.EncodeBig(op.Nonce),
		InitCode: hexutil.Encode(op.InitCode), CallData: hexutil.Encode(op.CallData),
		CallGasLimit: hexutil.EncodeBig(op.CallGasLimit), VerificationGasLimit: hexutil.EncodeBig(op.VerificationGasLimit),
		PreVerificationGas: hexutil.EncodeBig(op.PreVerificationGas),
		MaxFeePerGas:       hexutil.EncodeBig(op.MaxFeePerGas), MaxPriorityFeePerGas: hexutil.EncodeBig(op.MaxPriorityFeePerGas),
		PaymasterAndData: hexutil.Encode(op.PaymasterAndData), Signature: hexutil.Encode(op.Signature),
	}
}

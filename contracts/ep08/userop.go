package ep08

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// EIP7702Marker is the factory of an operation whose sender is an EOA
// delegated by EIP-7702: 0x7702 padded to an address. Its factoryData, if
// any, is a call the EntryPoint makes to initialise the delegated account.
var EIP7702Marker = common.HexToAddress("0x7702000000000000000000000000000000000000")

// IsEIP7702InitCode reports whether initCode marks an EIP-7702 sender, as
// the EntryPoint reads it: at least two bytes, whose first twenty (zero
// padded) are EIP7702Marker.
func IsEIP7702InitCode(initCode []byte) bool {
	if len(initCode) < 2 {
		return false
	}
	head := make([]byte, 20)
	copy(head, initCode[:min(len(initCode), 20)])
	return bytes.Equal(head, EIP7702Marker.Bytes())
}

var (
	uint256T, _ = abi.NewType("uint256", "", nil)
	addressT, _ = abi.NewType("address", "", nil)
	bytes32T, _ = abi.NewType("bytes32", "", nil)

	// structArgs is UserOperationLib.encode of 0.8.0: the type hash, then
	// the PackedUserOperation's fields, the dynamic ones hashed.
	structArgs = abi.Arguments{
		{Type: bytes32T}, {Type: addressT}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
		{Type: bytes32T}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
	}
	domainArgs = abi.Arguments{{Type: bytes32T}, {Type: bytes32T}, {Type: bytes32T}, {Type: uint256T}, {Type: addressT}}
)

// PackedUserOpTypeHash is the EIP-712 type hash of v0.8's user operation
// (EntryPoint.getPackedUserOpTypeHash).
var PackedUserOpTypeHash = crypto.Keccak256Hash([]byte("PackedUserOperation(address sender,uint256 nonce,bytes initCode,bytes callData,bytes32 accountGasLimits,uint256 preVerificationGas,bytes32 gasFees,bytes paymasterAndData)"))

// eip712DomainTypeHash is EIP-712's type hash of a domain with a name, a
// version, a chain id and a verifying contract.
var eip712DomainTypeHash = crypto.Keccak256Hash([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"))

// DomainSeparator is the EIP-712 domain separator of the EntryPoint at
// entryPoint on chainID: name "ERC4337", version "1"
// (EntryPoint.getDomainSeparatorV4).
func DomainSeparator(entryPoint common.Address, chainID *big.Int) common.Hash {
	enc, err := domainArgs.Pack(eip712DomainTypeHash, crypto.Keccak256Hash([]byte("ERC4337")), crypto.Keccak256Hash([]byte("1")), chainID, entryPoint)
	if err != nil {
		panic(fmt.Sprintf("packing the v0.8 domain: %v", err)) // a chain id over 256 bits
	}
	return crypto.Keccak256Hash(enc)
}

// InitCodeHash is the initCode hash getUserOpHash covers: keccak256 of the
// initCode, or, for an EIP-7702 sender, of its delegate followed by the
// initCode past the marker (the delegate the EntryPoint reads from the
// sender's code; the caller names it).
func InitCodeHash(initCode []byte, delegate common.Address) common.Hash {
	if !IsEIP7702InitCode(initCode) {
		return crypto.Keccak256Hash(initCode)
	}
	if len(initCode) <= 20 {
		return crypto.Keccak256Hash(delegate.Bytes())
	}
	return crypto.Keccak256Hash(delegate.Bytes(), initCode[20:])
}

// UserOpHash is EntryPoint v0.8's getUserOpHash: the EIP-712 hash of the
// packed operation in the domain of the EntryPoint at entryPoint on
// chainID. delegate is the sender's EIP-7702 delegate, read only when the
// operation's initCode is the marker. op must pass Check.
func UserOpHash(op ep07.UserOperation, delegate, entryPoint common.Address, chainID *big.Int) common.Hash {
	p := op.Pack()
	enc, err := structArgs.Pack(PackedUserOpTypeHash, p.Sender, p.Nonce,
		InitCodeHash(p.InitCode, delegate), crypto.Keccak256Hash(p.CallData),
		p.AccountGasLimits, p.PreVerificationGas, p.GasFees, crypto.Keccak256Hash(p.PaymasterAndData))
	if err != nil {
		panic(fmt.Sprintf("packing a v0.8 UserOperation: %v", err)) // a value over 256 bits: Check refuses it
	}
	sep := DomainSeparator(entryPoint, chainID)
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, sep.Bytes(), crypto.Keccak256(enc))
}

// Delegation is the code EIP-7702 gives an EOA that delegates to delegate:
// 0xef0100 ‖ delegate.
func Delegation(delegate common.Address) []byte {
	return types.AddressToDelegation(delegate)
}

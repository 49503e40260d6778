package entrypoint

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// UserOperation is an operation of any version, unpacked as ERC-7769
// writes v0.7's: the factory apart from its data, the paymaster apart from
// its data and its two gas limits. Each version packs it its own way; a
// version without paymaster gas limits (v0.6) ignores them. Factory is
// zero when the account exists; Paymaster is zero when the operation pays
// its own gas. Nil amounts read as zero.
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
	// EIP7702Auth is the sender's EIP-7702 authorization, for versions
	// whose accounts may be an EOA's delegation (v0.8 on: its initCode is
	// then the 0x7702 marker, and its hash covers the delegate); nil for
	// any other operation. v0.6 and v0.7 have none.
	EIP7702Auth *types.SetCodeAuthorization
}

// InitCode is factory ‖ factoryData, or empty when the account exists.
func (op *UserOperation) InitCode() []byte {
	if op.Factory == (common.Address{}) {
		return []byte{}
	}
	return append(op.Factory.Bytes(), op.FactoryData...)
}

// Deploys reports whether op creates its account.
func (op *UserOperation) Deploys() bool { return op.Factory != (common.Address{}) }

// SetInitCode splits initCode into the factory and its data; it fails on
// one shorter than an address.
func (op *UserOperation) SetInitCode(initCode []byte) error {
	switch n := len(initCode); {
	case n == 0:
		op.Factory, op.FactoryData = common.Address{}, nil
	case n < common.AddressLength:
		return errors.New("initCode is shorter than an address")
	default:
		op.Factory, op.FactoryData = common.BytesToAddress(initCode[:20]), bytes.Clone(initCode[20:])
	}
	return nil
}

// FailedOp is an operation the EntryPoint refused (FailedOp, or v0.7's
// FailedOpWithRevert) with its AAxx reason. OpIndex is nil where the
// version's answer is not read for it; Inner is the revert data of
// FailedOpWithRevert, nil otherwise.
type FailedOp struct {
	OpIndex *big.Int
	Reason  string
	Inner   []byte
}

// Call is one call an account makes: its target, the wei it sends (nil
// is zero) and its calldata.
type Call struct {
	Target common.Address
	Value  *big.Int
	Data   []byte
}

// Error is "FailedOp: " and the reason.
func (e *FailedOp) Error() string { return "FailedOp: " + e.Reason }

// Validation is what simulateValidation answers: each party's validation
// data unpacked (PreOpGas, Prefund, Account, Paymaster). A version that
// merges the two (v0.6) gives the merged time range to both, and a failed
// account signature to Account only. It is package ep07's type, whose
// EntryPointSimulations first answered it apart.
type Validation = ep07.Validation

// ValidationData is one party's validation verdict: a failed signature,
// an aggregator, and a time range (ValidUntil 0 means no end).
type ValidationData = ep07.ValidationData

// orZero is n, or a new zero for nil.
func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

// calldataGas is preVerificationGas for packed, the ABI encoding of an
// operation (eth-infinitism's calcPreVerificationGas for a bundle of one):
// 16 a non-zero byte and 4 a zero one, 4 a word, 21,000 and 18,300.
func calldataGas(packed []byte) *big.Int {
	gas := int64(21_000 + 18_300 + 4*((len(packed)+31)/32))
	for _, c := range packed {
		if c == 0 {
			gas += 4
		} else {
			gas += 16
		}
	}
	return big.NewInt(gas)
}

// filler is n non-zero bytes, standing for data not signed yet.
func filler(n int) []byte { return bytes.Repeat([]byte{1}, n) }

// errShort names a field too short to split.
func errShort(field string, n int) error {
	return fmt.Errorf("%s is shorter than its %d-byte head", field, n)
}

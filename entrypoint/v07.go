package entrypoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// v07 is EntryPoint v0.7 (@account-abstraction/contracts 0.7.0): the
// PackedUserOperation (gas limits and fees two to a word), the paymaster's
// own verification and postOp gas limits, and simulateValidation run by
// EntryPointSimulations in the EntryPoint's place (a state override).
type v07 struct {
	address common.Address
	ep      *ep07.EntryPoint
}

func init() { versions["0.7"] = NewV07 }

// NewV07 is EntryPoint v0.7 deployed at address.
func NewV07(address common.Address) EntryPoint {
	return &v07{address: address, ep: ep07.NewEntryPoint()}
}

// The paymaster gas limits our paymaster signs on v0.7.
const (
	// v07PaymasterVerificationGas is the VerifyingPaymaster's validation
	// (an ECDSA recovery over its getHash, about 30,000 gas) with room; it
	// has no postOp.
	v07PaymasterVerificationGas = 60_000
	// v07TokenPaymasterVerificationGas is TokenPaymasterV07's: its ECDSA
	// check and a transferFrom (type 1) or a balance and an allowance read
	// (type 2), with room.
	v07TokenPaymasterVerificationGas = 100_000
)

// Version is "0.7".
func (e *v07) Version() string { return "0.7" }

// Address is where the EntryPoint is deployed.
func (e *v07) Address() common.Address { return e.address }

// ToV07 is op in package ep07's form.
func ToV07(op *UserOperation) ep07.UserOperation {
	return ep07.UserOperation{
		Sender: op.Sender, Nonce: op.Nonce, Factory: op.Factory, FactoryData: op.FactoryData, CallData: op.CallData,
		CallGasLimit: op.CallGasLimit, VerificationGasLimit: op.VerificationGasLimit, PreVerificationGas: op.PreVerificationGas,
		MaxFeePerGas: op.MaxFeePerGas, MaxPriorityFeePerGas: op.MaxPriorityFeePerGas,
		Paymaster: op.Paymaster, PaymasterVerificationGasLimit: op.PaymasterVerificationGasLimit,
		PaymasterPostOpGasLimit: op.PaymasterPostOpGasLimit, PaymasterData: op.PaymasterData, Signature: op.Signature,
	}
}

// FromV07 is a package ep07 operation as a UserOperation.
func FromV07(op ep07.UserOperation) UserOperation {
	return UserOperation{
		Sender: op.Sender, Nonce: op.Nonce, Factory: op.Factory, FactoryData: op.FactoryData, CallData: op.CallData,
		CallGasLimit: op.CallGasLimit, VerificationGasLimit: op.VerificationGasLimit, PreVerificationGas: op.PreVerificationGas,
		MaxFeePerGas: op.MaxFeePerGas, MaxPriorityFeePerGas: op.MaxPriorityFeePerGas,
		Paymaster: op.Paymaster, PaymasterVerificationGasLimit: op.PaymasterVerificationGasLimit,
		PaymasterPostOpGasLimit: op.PaymasterPostOpGasLimit, PaymasterData: op.PaymasterData, Signature: op.Signature,
	}
}

// DecodeOp parses ERC-7769's v0.7 wire form.
func (e *v07) DecodeOp(raw json.RawMessage, unfilled bool) (UserOperation, error) {
	var wire ep07.UserOperationHex
	if err := json.Unmarshal(raw, &wire); err != nil {
		return UserOperation{}, fmt.Errorf("want a v0.7 operation, an object of 0x hex strings: %w", err)
	}
	op, err := wire.Decode(unfilled)
	if err != nil {
		return UserOperation{}, err
	}
	return FromV07(op), nil
}

// EncodeOp is op as an ep07.UserOperationHex.
func (e *v07) EncodeOp(op *UserOperation) any {
	p := ToV07(op)
	return p.Hex()
}

// ForeignFields names the v0.6 fields raw carries.
func (e *v07) ForeignFields(raw json.RawMessage) []string {
	return present(raw, "initCode", "paymasterAndData")
}

// PaymasterFields is ERC-7677's v0.7 result: the paymaster, its data and
// its two gas limits.
func (e *v07) PaymasterFields(op *UserOperation) any {
	return struct {
		Paymaster                     common.Address `json:"paymaster"`
		PaymasterData                 hexutil.Bytes  `json:"paymasterData"`
		PaymasterVerificationGasLimit *hexutil.Big   `json:"paymasterVerificationGasLimit"`
		PaymasterPostOpGasLimit       *hexutil.Big   `json:"paymasterPostOpGasLimit"`
	}{op.Paymaster, op.PaymasterData, (*hexutil.Big)(op.PaymasterVerificationGasLimit), (*hexutil.Big)(op.PaymasterPostOpGasLimit)}
}

// UserOpHash is v0.7's getUserOpHash.
func (e *v07) UserOpHash(op *UserOperation, chainID *big.Int) common.Hash {
	return ep07.UserOpHash(ToV07(op), e.address, chainID)
}

// AccountDigest is EIP-191's signed message of userOpHash, as
// SimpleAccount 0.7.0 recovers it.
func (e *v07) AccountDigest(userOpHash common.Hash) common.Hash {
	return common.BytesToHash(accounts.TextHash(userOpHash[:]))
}

// EIP7702 is false: v0.7 reads no delegation.
func (e *v07) EIP7702() bool { return false }

// PaymasterAndData is paymaster ‖ its two gas limits ‖ paymasterData.
func (e *v07) PaymasterAndData(op *UserOperation) []byte {
	p := ToV07(op)
	return p.PaymasterAndData()
}

// VerifyingPaymasterHash is VerifyingPaymaster.getHash of 0.7.0; it reads
// nothing.
func (e *v07) VerifyingPaymasterHash(_ context.Context, _ Caller, op *UserOperation, chainID *big.Int, validUntil, validAfter uint64) (common.Hash, error) {
	return ep07.VerifyingPaymasterHash(ToV07(op), op.Paymaster, chainID, validUntil, validAfter), nil
}

// TokenPaymasterHash is TokenPaymasterV07.getHash (contracts/src).
func (e *v07) TokenPaymasterHash(op *UserOperation, chainID *big.Int, t contracts.TokenTerms) (common.Hash, error) {
	return ep07.TokenPaymasterHash(ToV07(op), op.Paymaster, chainID, t)
}

// VerifyingPaymasterData is the VerifyingPaymaster's of 0.7.0.
func (e *v07) VerifyingPaymasterData(validUntil, validAfter uint64, signature []byte) []byte {
	return ep07.VerifyingPaymasterData(validUntil, validAfter, signature)
}

// TokenPaymasterData is TokenPaymasterV07's.
func (e *v07) TokenPaymasterData(t contracts.TokenTerms, signature []byte) []byte {
	return ep07.TokenPaymasterData(t, signature)
}

// DecodeTokenPaymasterData reads TokenPaymasterV07's paymasterData
// (exactly 130 bytes).
func (e *v07) DecodeTokenPaymasterData(op *UserOperation) (contracts.TokenTerms, error) {
	t, _, err := ep07.DecodeTokenPaymasterData(op.PaymasterData)
	return t, err
}

// PaymasterGas is 60,000 and no postOp for the VerifyingPaymaster;
// 100,000 and ep07.TokenPostOpGasLimit for TokenPaymasterV07.
func (e *v07) PaymasterGas(token bool, mode uint8) (verification, postOp *big.Int) {
	if token {
		return big.NewInt(v07TokenPaymasterVerificationGas), big.NewInt(ep07.TokenPostOpGasLimit(mode))
	}
	return big.NewInt(v07PaymasterVerificationGas), new(big.Int)
}

// MaxCost is every gas limit, the paymaster's two included, at
// maxFeePerGas (the EntryPoint's requiredPrefund).
func (e *v07) MaxCost(op *UserOperation) *big.Int {
	gas := new(big.Int).Add(orZero(op.VerificationGasLimit), orZero(op.CallGasLimit))
	gas.Add(gas, orZero(op.PaymasterVerificationGasLimit)).Add(gas, orZero(op.PaymasterPostOpGasLimit)).Add(gas, orZero(op.PreVerificationGas))
	return gas.Mul(gas, orZero(op.MaxFeePerGas))
}

// MaxTokenCost is tokenCost(MaxCost): the postOp's gas is in MaxCost.
func (e *v07) MaxTokenCost(op *UserOperation, t contracts.TokenTerms) *big.Int {
	return contracts.TokenCost(e.MaxCost(op), t.Rate)
}

// HeldUntilLanded is true: v0.7 calls postOp once, and a type 2 payer who
// spends its tokens in the call leaves the deposit unpaid.
func (e *v07) HeldUntilLanded() bool { return true }

// PreVerificationGas prices the packed operation in getUserOpHash's
// calldata, paymasterData filled to its final length.
func (e *v07) PreVerificationGas(op UserOperation) *big.Int {
	op.PreVerificationGas = big.NewInt(21_000)
	op.PaymasterData = filler(len(op.PaymasterData))
	if len(op.Signature) < 65 {
		op.Signature = filler(65)
	}
	p := ToV07(&op)
	return calldataGas(e.ep.PackGetUserOpHash(p.Pack())[4:])
}

// VerificationGas is the account's verificationGasLimit and the
// paymaster's.
func (e *v07) VerificationGas(op *UserOperation) *big.Int {
	return new(big.Int).Add(orZero(op.VerificationGasLimit), orZero(op.PaymasterVerificationGasLimit))
}

// DefaultVerificationGas is 150,000, or 550,000 to deploy (the
// paymaster's limit is apart).
func (e *v07) DefaultVerificationGas(deploy bool) *big.Int {
	if deploy {
		return big.NewInt(550_000)
	}
	return big.NewInt(150_000)
}

// account07 is the ABI of SimpleAccount 0.7.0.
var account07 = sync.OnceValue(func() *abi.ABI { return mustABI(ep07.SimpleAccountMetaData.ParseABI()) })

// DecodeAccountCall reads execute or executeBatch(dest[], value[],
// func[]).
func (e *v07) DecodeAccountCall(callData []byte) (string, []Call, error) {
	return decodeAccountCall(account07(), callData)
}

// EncodeAccountCall is execute, or executeBatch(dest[], value[], func[])
// with value[] empty when every value is zero.
func (e *v07) EncodeAccountCall(calls []Call) ([]byte, error) {
	return encodeAccountCall(account07(), calls, true)
}

// PackHandleOps is handleOps of packed v0.7 operations.
func (e *v07) PackHandleOps(ops []UserOperation, beneficiary common.Address) []byte {
	packed := make([]ep07.PackedUserOperation, len(ops))
	for i := range ops {
		p := ToV07(&ops[i])
		packed[i] = p.Pack()
	}
	return e.ep.PackHandleOps(packed, beneficiary)
}

// handleOps07 is EntryPoint 0.7.0's handleOps.
var handleOps07 = sync.OnceValue(func() abi.Method {
	return mustABI(ep07.EntryPointMetaData.ParseABI()).Methods["handleOps"]
})

// BundleSenders reads handleOps(PackedUserOperation[], beneficiary).
func (e *v07) BundleSenders(input []byte) ([]common.Address, bool) {
	return bundleSenders(handleOps07(), input, func(op ep07.PackedUserOperation) common.Address { return op.Sender })
}

// FailedOp decodes FailedOp(opIndex, reason) and
// FailedOpWithRevert(opIndex, reason, inner).
func (e *v07) FailedOp(revert []byte) (*FailedOp, bool) {
	if len(revert) < 4 {
		return nil, false
	}
	res, err := e.ep.UnpackError(revert)
	if err != nil {
		return nil, false // a known error's selector, its data cut short
	}
	switch f := res.(type) {
	case *ep07.EntryPointFailedOp:
		return &FailedOp{OpIndex: f.OpIndex, Reason: f.Reason}, true
	case *ep07.EntryPointFailedOpWithRevert:
		return &FailedOp{OpIndex: f.OpIndex, Reason: f.Reason, Inner: f.Inner}, true
	}
	return nil, false
}

// SimulationCall is EntryPointSimulations.simulateValidation(op) in the
// EntryPoint's place.
func (e *v07) SimulationCall(op *UserOperation) (map[string]any, map[common.Address]map[string]any) {
	return ep07.SimulateValidationCall(ToV07(op), e.address)
}

// ParseSimulation reads EntryPointSimulations' answer.
func (e *v07) ParseSimulation(out, revert []byte) (Validation, error) {
	v, err := ep07.ParseSimulation(out, revert)
	if errors.Is(err, ep07.ErrFailedOp) {
		return Validation{}, &FailedOp{Reason: errReason(err)}
	}
	return v, err
}

// errReason is the AAxx reason of an ep07.ErrFailedOp.
func errReason(err error) string {
	s, prefix := err.Error(), ep07.ErrFailedOp.Error()+": "
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):]
	}
	return s
}

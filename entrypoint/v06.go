package entrypoint

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ethereum/go-ethereum/accounts"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// v06 is EntryPoint v0.6 (@account-abstraction/contracts 0.6.0): initCode
// and paymasterAndData packed in the operation, one verificationGasLimit
// for the account and the paymaster, simulateValidation on the EntryPoint
// itself, always reverting (ValidationResult on success).
type v06 struct {
	address common.Address
	ep      *contracts.EntryPoint
	pm      *contracts.VerifyingPaymaster
}

func init() { versions["0.6"] = NewV06 }

// NewV06 is EntryPoint v0.6 deployed at address.
func NewV06(address common.Address) EntryPoint {
	return &v06{address: address, ep: contracts.NewEntryPoint(), pm: contracts.NewVerifyingPaymaster()}
}

// Version is "0.6".
func (e *v06) Version() string { return "0.6" }

// Address is where the EntryPoint is deployed.
func (e *v06) Address() common.Address { return e.address }

// packed is op in v0.6's form: initCode and paymasterAndData concatenated.
func (e *v06) packed(op *UserOperation) contracts.UserOperation {
	return contracts.UserOperation{
		Sender: op.Sender, Nonce: orZero(op.Nonce), InitCode: op.InitCode(), CallData: nonNilBytes(op.CallData),
		CallGasLimit: orZero(op.CallGasLimit), VerificationGasLimit: orZero(op.VerificationGasLimit),
		PreVerificationGas: orZero(op.PreVerificationGas),
		MaxFeePerGas:       orZero(op.MaxFeePerGas), MaxPriorityFeePerGas: orZero(op.MaxPriorityFeePerGas),
		PaymasterAndData: e.PaymasterAndData(op), Signature: nonNilBytes(op.Signature),
	}
}

// FromV06 is a v0.6 operation unpacked: initCode into the factory and its
// data, paymasterAndData into the paymaster and its data. It fails on an
// initCode or a paymasterAndData shorter than an address.
func FromV06(p contracts.UserOperation) (UserOperation, error) {
	op := UserOperation{
		Sender: p.Sender, Nonce: p.Nonce, CallData: p.CallData,
		CallGasLimit: p.CallGasLimit, VerificationGasLimit: p.VerificationGasLimit, PreVerificationGas: p.PreVerificationGas,
		MaxFeePerGas: p.MaxFeePerGas, MaxPriorityFeePerGas: p.MaxPriorityFeePerGas,
		Signature: p.Signature,
	}
	if err := op.SetInitCode(p.InitCode); err != nil {
		return op, err
	}
	switch n := len(p.PaymasterAndData); {
	case n == 0:
	case n < common.AddressLength:
		return op, errShort("paymasterAndData", common.AddressLength)
	default:
		op.Paymaster, op.PaymasterData = common.BytesToAddress(p.PaymasterAndData[:20]), p.PaymasterAndData[20:]
	}
	return op, nil
}

// DecodeOp parses v0.6's wire form (x402.UserOperation).
func (e *v06) DecodeOp(raw json.RawMessage, unfilled bool) (UserOperation, error) {
	var wire contracts.UserOperationHex
	if err := json.Unmarshal(raw, &wire); err != nil {
		return UserOperation{}, fmt.Errorf("want an object of 0x hex strings: %w", err)
	}
	p, err := wire.Decode(unfilled)
	if err != nil {
		return UserOperation{}, err
	}
	return FromV06(p)
}

// EncodeOp is op as a contracts.UserOperationHex, which x402.UserOperation
// converts to.
func (e *v06) EncodeOp(op *UserOperation) any { return e.Hex(op) }

// Hex is op in v0.6's wire form.
func (e *v06) Hex(op *UserOperation) contracts.UserOperationHex {
	p := e.packed(op)
	return p.Hex()
}

// ForeignFields names the v0.7 (and later) fields raw carries.
func (e *v06) ForeignFields(raw json.RawMessage) []string {
	return present(raw, "factory", "factoryData", "paymaster", "paymasterData",
		"paymasterVerificationGasLimit", "paymasterPostOpGasLimit", "eip7702Auth")
}

// PaymasterFields is {paymasterAndData}.
func (e *v06) PaymasterFields(op *UserOperation) any {
	return struct {
		PaymasterAndData hexutil.Bytes `json:"paymasterAndData"`
	}{e.PaymasterAndData(op)}
}

// AccountDigest is EIP-191's signed message of userOpHash, as
// SimpleAccount 0.6.0 recovers it.
func (e *v06) AccountDigest(userOpHash common.Hash) common.Hash {
	return common.BytesToHash(accounts.TextHash(userOpHash[:]))
}

// EIP7702 is false: v0.6 reads no delegation.
func (e *v06) EIP7702() bool { return false }

// UserOpHash is v0.6's getUserOpHash.
func (e *v06) UserOpHash(op *UserOperation, chainID *big.Int) common.Hash {
	return contracts.UserOpHash(e.packed(op), e.address, chainID)
}

// PaymasterAndData is paymaster ‖ paymasterData; v0.6 has no paymaster
// gas limits.
func (e *v06) PaymasterAndData(op *UserOperation) []byte {
	if op.Paymaster == (common.Address{}) {
		return []byte{}
	}
	return append(op.Paymaster.Bytes(), op.PaymasterData...)
}

// VerifyingPaymasterHash is VerifyingPaymaster.getHash of 0.6.0, which
// covers the paymaster's senderNonce of the sender, read from the chain.
func (e *v06) VerifyingPaymasterHash(ctx context.Context, chain Caller, op *UserOperation, chainID *big.Int, validUntil, validAfter uint64) (common.Hash, error) {
	var out hexutil.Bytes
	msg := map[string]any{"to": op.Paymaster, "data": hexutil.Bytes(e.pm.PackSenderNonce(op.Sender))}
	if err := chain.CallContext(ctx, &out, "eth_call", msg, "latest"); err != nil {
		return common.Hash{}, fmt.Errorf("%w: senderNonce: %w", ErrChain, err)
	}
	senderNonce, err := e.pm.UnpackSenderNonce(out)
	if err != nil {
		return common.Hash{}, fmt.Errorf("%w: the paymaster contract answered unexpectedly: %w", ErrChain, err)
	}
	return contracts.VerifyingPaymasterHash(e.packed(op), op.Paymaster, chainID, senderNonce, validUntil, validAfter)
}

// TokenPaymasterHash is TokenPaymaster.getHash (contracts/src).
func (e *v06) TokenPaymasterHash(op *UserOperation, chainID *big.Int, t contracts.TokenTerms) (common.Hash, error) {
	return contracts.TokenPaymasterHash(e.packed(op), op.Paymaster, chainID, t)
}

// VerifyingPaymasterData is abi.encode(uint48 validUntil, uint48
// validAfter) ‖ signature, as on v0.7.
func (e *v06) VerifyingPaymasterData(validUntil, validAfter uint64, signature []byte) []byte {
	return ep07.VerifyingPaymasterData(validUntil, validAfter, signature)
}

// TokenPaymasterData is TokenPaymaster's terms ‖ signature (what follows
// the paymaster in its paymasterAndData).
func (e *v06) TokenPaymasterData(t contracts.TokenTerms, signature []byte) []byte {
	return append(t.Bytes(), signature...)
}

// DecodeTokenPaymasterData reads TokenPaymaster's paymasterAndData
// (exactly 150 bytes).
func (e *v06) DecodeTokenPaymasterData(op *UserOperation) (contracts.TokenTerms, error) {
	_, t, _, err := contracts.DecodeTokenPaymasterAndData(e.PaymasterAndData(op))
	return t, err
}

// PaymasterGas is zeros: v0.6 operations carry no paymaster gas limits.
func (e *v06) PaymasterGas(bool, uint8) (verification, postOp *big.Int) {
	return new(big.Int), new(big.Int)
}

// MaxCost is every gas limit at maxFeePerGas, verification counted three
// times (validation, and postOp's allowance).
func (e *v06) MaxCost(op *UserOperation) *big.Int {
	gas := new(big.Int).Mul(orZero(op.VerificationGasLimit), big.NewInt(3))
	gas.Add(gas, orZero(op.CallGasLimit)).Add(gas, orZero(op.PreVerificationGas))
	return gas.Mul(gas, orZero(op.MaxFeePerGas))
}

// MaxTokenCost is TokenPaymaster's maximum: MaxCost and its postOp's gas
// at maxFeePerGas, in tokens.
func (e *v06) MaxTokenCost(op *UserOperation, t contracts.TokenTerms) *big.Int {
	gas := new(big.Int).Add(e.MaxCost(op), new(big.Int).Mul(big.NewInt(contracts.TokenMaxPostOpGas(t.Mode)), orZero(op.MaxFeePerGas)))
	return contracts.TokenCost(gas, t.Rate)
}

// HeldUntilLanded is false: v0.6 calls a failed postOp again and reverts
// the bundle, so type 2 never leaves the deposit unpaid.
func (e *v06) HeldUntilLanded() bool { return false }

// PreVerificationGas prices the operation packed in simulateValidation's
// calldata, paymasterAndData filled to its final length.
func (e *v06) PreVerificationGas(op UserOperation) *big.Int {
	p := e.packed(&op)
	p.PreVerificationGas = big.NewInt(21_000)
	p.PaymasterAndData = filler(len(p.PaymasterAndData))
	if len(p.Signature) < 65 {
		p.Signature = filler(65)
	}
	return calldataGas(e.ep.PackSimulateValidation(p)[4:])
}

// VerificationGas is verificationGasLimit, which covers the paymaster's
// validation too.
func (e *v06) VerificationGas(op *UserOperation) *big.Int { return orZero(op.VerificationGasLimit) }

// DefaultVerificationGas is 200,000, or 600,000 to deploy.
func (e *v06) DefaultVerificationGas(deploy bool) *big.Int {
	if deploy {
		return big.NewInt(600_000)
	}
	return big.NewInt(200_000)
}

// account06 is the ABI of SimpleAccount 0.6.0.
var account06 = sync.OnceValue(func() *abi.ABI { return mustABI(contracts.SimpleAccountMetaData.ParseABI()) })

// DecodeAccountCall reads execute or executeBatch(dest[], func[]).
func (e *v06) DecodeAccountCall(callData []byte) (string, []Call, error) {
	return decodeAccountCall(account06(), callData)
}

// EncodeAccountCall is execute, or executeBatch(dest[], func[]), which
// sends no value.
func (e *v06) EncodeAccountCall(calls []Call) ([]byte, error) {
	return encodeAccountCall(account06(), calls, false)
}

// PackHandleOps is handleOps of v0.6 operations.
func (e *v06) PackHandleOps(ops []UserOperation, beneficiary common.Address) []byte {
	packed := make([]contracts.UserOperation, len(ops))
	for i := range ops {
		packed[i] = e.packed(&ops[i])
	}
	return e.ep.PackHandleOps(packed, beneficiary)
}

// handleOps06 is EntryPoint 0.6.0's handleOps.
var handleOps06 = sync.OnceValue(func() abi.Method {
	return mustABI(contracts.EntryPointMetaData.ParseABI()).Methods["handleOps"]
})

// BundleSenders reads handleOps(UserOperation[], beneficiary).
func (e *v06) BundleSenders(input []byte) ([]common.Address, bool) {
	return bundleSenders(handleOps06(), input, func(op contracts.UserOperation) common.Address { return op.Sender })
}

// FailedOp decodes FailedOp(opIndex, reason).
func (e *v06) FailedOp(revert []byte) (*FailedOp, bool) {
	if len(revert) < 4 {
		return nil, false
	}
	res, err := e.ep.UnpackError(revert)
	if f, ok := res.(*contracts.EntryPointFailedOp); ok && err == nil {
		return &FailedOp{OpIndex: f.OpIndex, Reason: f.Reason}, true
	}
	return nil, false
}

// SimulationCall is EntryPoint.simulateValidation(op); no override.
func (e *v06) SimulationCall(op *UserOperation) (map[string]any, map[common.Address]map[string]any) {
	return map[string]any{"to": e.address, "data": hexutil.Bytes(e.ep.PackSimulateValidation(e.packed(op)))}, nil
}

// ParseSimulation reads v0.6's revert: ValidationResult, or FailedOp.
func (e *v06) ParseSimulation(_, revert []byte) (Validation, error) {
	if len(revert) < 4 {
		return Validation{}, fmt.Errorf("%w: EntryPoint v0.6 always reverts", ErrUnanswered)
	}
	res, uerr := e.ep.UnpackError(revert)
	if uerr != nil {
		res = nil // a known error's selector with its data cut short
	}
	switch r := res.(type) {
	case *contracts.EntryPointValidationResult:
		ri := r.ReturnInfo
		window := ValidationData{ValidAfter: u64(ri.ValidAfter), ValidUntil: u64(ri.ValidUntil)}
		account := window
		account.SigFailed = ri.SigFailed
		return Validation{PreOpGas: ri.PreOpGas, Prefund: ri.Prefund, Account: account, Paymaster: window}, nil
	case *contracts.EntryPointFailedOp:
		return Validation{}, &FailedOp{OpIndex: r.OpIndex, Reason: r.Reason}
	}
	return Validation{}, fmt.Errorf("simulateValidation reverted unexpectedly with %x: %v", revert[:4], uerr)
}

// u64 is n as a uint64 (a uint48 of the EntryPoint), 0 for nil.
func u64(n *big.Int) uint64 {
	if n == nil || !n.IsUint64() {
		return 0
	}
	return n.Uint64()
}

func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// present names the keys of raw's object whose value is set (not null).
func present(raw json.RawMessage, keys ...string) []string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return nil
	}
	var out []string
	for _, k := range keys {
		if v, ok := fields[k]; ok && string(v) != "null" {
			out = append(out, k)
		}
	}
	return out
}

package entrypoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/contracts/ep08"
)

// v08 is EntryPoint v0.8 (@account-abstraction/contracts 0.8.0). It is
// v0.7 on the wire and in gas (the PackedUserOperation, the paymaster's
// two gas limits, requiredPrefund, postOp called once, FailedOp,
// simulation through EntryPointSimulations in the EntryPoint's place), and
// our VerifyingPaymasterV08 and TokenPaymasterV08 keep v0.7's paymaster
// data and hashes, so it embeds v07 for those. What differs is here: the
// EIP-712 userOpHash, the EIP-7702 sender (the 0x7702 initCode marker, its
// delegate in the hash, its authorization in the wire form, the
// simulation and the bundle's gas), and SimpleAccount's
// executeBatch(Call[]).
type v08 struct {
	*v07
	ep *ep08.EntryPoint
}

func init() { versions["0.8"] = NewV08 }

// NewV08 is EntryPoint v0.8 deployed at address.
func NewV08(address common.Address) EntryPoint {
	return &v08{v07: &v07{address: address, ep: ep07.NewEntryPoint()}, ep: ep08.NewEntryPoint()}
}

// Version is "0.8".
func (e *v08) Version() string { return "0.8" }

// EIP7702Marker is the factory of an operation whose sender is an EOA
// delegated by EIP-7702 (initCode 0x7702, padded to an address).
var EIP7702Marker = ep08.EIP7702Marker

// EIP7702 is true: an EOA delegated by EIP-7702 sends operations with the
// 0x7702 marker.
func (e *v08) EIP7702() bool { return true }

// IsEIP7702 reports whether op's sender is an EOA delegated by EIP-7702:
// its factory is the 0x7702 marker.
func IsEIP7702(op *UserOperation) bool { return op.Factory == EIP7702Marker }

// delegate is the delegate op's authorization names, zero without one.
func delegate(op *UserOperation) common.Address {
	if op.EIP7702Auth == nil {
		return common.Address{}
	}
	return op.EIP7702Auth.Address
}

// DecodeOp parses ERC-7769's v0.8 wire form: v0.7's, with the 0x7702
// factory marker and eip7702Auth.
func (e *v08) DecodeOp(raw json.RawMessage, unfilled bool) (UserOperation, error) {
	var wire ep08.UserOperationHex
	if err := json.Unmarshal(raw, &wire); err != nil {
		return UserOperation{}, fmt.Errorf("want a v0.8 operation, an object of 0x hex strings: %w", err)
	}
	op, auth, err := wire.Decode(unfilled)
	if err != nil {
		return UserOperation{}, err
	}
	out := FromV07(op)
	out.EIP7702Auth = auth
	return out, nil
}

// EncodeOp is op as an ep08.UserOperationHex.
func (e *v08) EncodeOp(op *UserOperation) any {
	p := ToV07(op)
	return ep08.Hex(&p, op.EIP7702Auth)
}

// UserOpHash is v0.8's getUserOpHash, the EIP-712 hash; an EIP-7702
// sender's delegate is its authorization's (as the EntryPoint reads it
// from the sender's code once the authorization is applied).
func (e *v08) UserOpHash(op *UserOperation, chainID *big.Int) common.Hash {
	return ep08.UserOpHash(ToV07(op), delegate(op), e.address, chainID)
}

// AccountDigest is userOpHash itself: SimpleAccount and
// Simple7702Account 0.8.0 recover the EIP-712 hash, as
// eth_signTypedData_v4 signs it.
func (e *v08) AccountDigest(userOpHash common.Hash) common.Hash { return userOpHash }

// PreVerificationGas is v0.7's, plus what a set-code transaction charges
// for an EIP-7702 sender's authorization (EIP-7702's per-authorization
// cost, for an account that may be empty).
func (e *v08) PreVerificationGas(op UserOperation) *big.Int {
	gas := e.v07.PreVerificationGas(op)
	if op.EIP7702Auth != nil {
		gas.Add(gas, big.NewInt(int64(params.CallNewAccountGas))) // 25,000: EIP-7702's PER_EMPTY_ACCOUNT_COST
	}
	return gas
}

// account08 is the ABI of SimpleAccount 0.8.0 (Simple7702Account's
// execute and executeBatch are the same: BaseAccount's).
var account08 = sync.OnceValue(func() *abi.ABI { return mustABI(ep08.SimpleAccountMetaData.ParseABI()) })

// DecodeAccountCall reads execute or executeBatch(Call[]).
func (e *v08) DecodeAccountCall(callData []byte) (string, []Call, error) {
	if len(callData) < 4 {
		return "", nil, errors.New("callData is empty")
	}
	m, err := account08().MethodById(callData[:4])
	if err != nil || m.Name != "executeBatch" {
		return decodeAccountCall(account08(), callData)
	}
	args, err := m.Inputs.Unpack(callData[4:])
	if err != nil || len(args) != 1 {
		return m.Name, nil, fmt.Errorf("callData does not decode as executeBatch: %v", err)
	}
	batch, ok := abi.ConvertType(args[0], new([]ep08.BaseAccountCall)).(*[]ep08.BaseAccountCall)
	if !ok {
		return m.Name, nil, errors.New("callData does not decode as executeBatch")
	}
	calls := make([]Call, len(*batch))
	for i, c := range *batch {
		calls[i] = Call{Target: c.Target, Value: orZero(c.Value), Data: c.Data}
	}
	return m.Name, calls, nil
}

// EncodeAccountCall is execute for one call, executeBatch(Call[]) for
// more.
func (e *v08) EncodeAccountCall(calls []Call) ([]byte, error) {
	if len(calls) == 1 {
		return account08().Pack("execute", calls[0].Target, orZero(calls[0].Value), calls[0].Data)
	}
	batch := make([]ep08.BaseAccountCall, len(calls))
	for i, c := range calls {
		batch[i] = ep08.BaseAccountCall{Target: c.Target, Value: orZero(c.Value), Data: c.Data}
	}
	return account08().Pack("executeBatch", batch)
}

// PackHandleOps is handleOps of packed v0.8 operations.
func (e *v08) PackHandleOps(ops []UserOperation, beneficiary common.Address) []byte {
	packed := make([]ep08.PackedUserOperation, len(ops))
	for i := range ops {
		p := ToV07(&ops[i])
		packed[i] = ep08.PackedUserOperation(p.Pack())
	}
	return e.ep.PackHandleOps(packed, beneficiary)
}

// handleOps08 is EntryPoint 0.8.0's handleOps.
var handleOps08 = sync.OnceValue(func() abi.Method {
	return mustABI(ep08.EntryPointMetaData.ParseABI()).Methods["handleOps"]
})

// BundleSenders reads handleOps(PackedUserOperation[], beneficiary).
func (e *v08) BundleSenders(input []byte) ([]common.Address, bool) {
	return bundleSenders(handleOps08(), input, func(op ep08.PackedUserOperation) common.Address { return op.Sender })
}

// SimulationCall is EntryPointSimulations.simulateValidation(op) in the
// EntryPoint's place; an EIP-7702 sender with an authorization gets its
// delegation in the override too, as the bundle's authorization would set
// it.
func (e *v08) SimulationCall(op *UserOperation) (map[string]any, map[common.Address]map[string]any) {
	var d *common.Address
	if IsEIP7702(op) && op.EIP7702Auth != nil {
		a := op.EIP7702Auth.Address
		d = &a
	}
	return ep08.SimulateValidationCall(ToV07(op), d, e.address)
}

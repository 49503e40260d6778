package ep07

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// SimulateValidationCall is the eth_call arguments that run
// EntryPointSimulations.simulateValidation(op) in entryPoint's place: the
// call object and the state override that swaps in the simulations' code.
// Pass them as eth_call's first and third parameters ("latest" between).
func SimulateValidationCall(op UserOperation, entryPoint common.Address) (call map[string]any, override map[common.Address]map[string]any) {
	sim := Simulations()
	data, err := sim.ABI.Pack("simulateValidation", op.Pack())
	if err != nil {
		panic(fmt.Sprintf("packing simulateValidation: %v", err)) // a value over 256 bits: Check refuses it
	}
	return map[string]any{"to": entryPoint, "data": hexutil.Bytes(data)},
		map[common.Address]map[string]any{entryPoint: {"code": hexutil.Bytes(sim.Code)}}
}

// Validation is what simulateValidation returns: each party's validation
// data unpacked.
type Validation struct {
	// PreOpGas and Prefund are the gas used before execution and the
	// deposit the operation needs.
	PreOpGas, Prefund *big.Int
	// Account and Paymaster are the account's and the paymaster's verdicts.
	Account, Paymaster ValidationData
}

// ValidationData is an unpacked validationData word: an aggregator (1
// means the signature failed) and a time range (ValidUntil 0 means no end).
type ValidationData struct {
	SigFailed              bool
	Aggregator             common.Address
	ValidAfter, ValidUntil uint64
}

// ParseValidationData unpacks validationData: aggregator (160 bits) ‖
// validUntil (48) ‖ validAfter (48), from the low bits up.
func ParseValidationData(v *big.Int) ValidationData {
	var w [32]byte
	if v != nil && v.Sign() >= 0 && v.BitLen() <= 256 {
		v.FillBytes(w[:])
	}
	agg := common.BytesToAddress(w[12:])
	until := new(big.Int).SetBytes(w[6:12]).Uint64()
	after := new(big.Int).SetBytes(w[:6]).Uint64()
	return ValidationData{SigFailed: agg == common.BytesToAddress([]byte{1}), Aggregator: agg, ValidAfter: after, ValidUntil: until}
}

// ErrFailedOp is a simulation the EntryPoint refused: FailedOp or
// FailedOpWithRevert, with its AAxx reason.
var ErrFailedOp = errors.New("FailedOp")

// ParseSimulation reads simulateValidation's answer: out on success, or
// revert (the revert data) on a refusal, which is ErrFailedOp with the
// reason. Any other answer is an error without ErrFailedOp.
func ParseSimulation(out, revert []byte) (Validation, error) {
	sim := Simulations()
	if revert != nil {
		if len(revert) >= 4 {
			for _, name := range []string{"FailedOp", "FailedOpWithRevert"} {
				e := sim.ABI.Errors[name]
				if [4]byte(revert[:4]) != [4]byte(e.ID[:4]) {
					continue
				}
				args, err := e.Inputs.Unpack(revert[4:])
				if err != nil || len(args) < 2 {
					break
				}
				reason, _ := args[1].(string)
				return Validation{}, fmt.Errorf("%w: %s", ErrFailedOp, reason)
			}
		}
		return Validation{}, fmt.Errorf("simulateValidation reverted with %x", revert[:min(len(revert), 4)])
	}
	res, err := sim.ABI.Unpack("simulateValidation", out)
	if err != nil || len(res) != 1 {
		return Validation{}, fmt.Errorf("simulateValidation answered unexpectedly: %v", err)
	}
	info := reflect.ValueOf(res[0])
	if info.Kind() == reflect.Struct {
		info = info.FieldByName("ReturnInfo")
	}
	field := func(name string) *big.Int {
		if info.Kind() != reflect.Struct {
			return nil
		}
		n, _ := info.FieldByName(name).Interface().(*big.Int)
		return n
	}
	r := struct{ PreOpGas, Prefund, AccountValidationData, PaymasterValidationData *big.Int }{
		field("PreOpGas"), field("Prefund"), field("AccountValidationData"), field("PaymasterValidationData"),
	}
	if r.PreOpGas == nil || r.AccountValidationData == nil || r.PaymasterValidationData == nil {
		return Validation{}, errors.New("simulateValidation answered without its returnInfo")
	}
	return Validation{
		PreOpGas: r.PreOpGas, Prefund: r.Prefund,
		Account: ParseValidationData(r.AccountValidationData), Paymaster: ParseValidationData(r.PaymasterValidationData),
	}, nil
}

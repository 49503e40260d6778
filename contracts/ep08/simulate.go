package ep08

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// SimulateValidationCall is the eth_call arguments that run
// EntryPointSimulations.simulateValidation(op) in entryPoint's place: the
// call object and the state override that swaps in the simulations' code.
// With delegate set, the override also gives the sender the code its
// EIP-7702 authorization would (an eth_call applies no authorization), as
// bundlers simulate a delegation not yet on chain. Pass them as eth_call's
// first and third parameters ("latest" between).
func SimulateValidationCall(op ep07.UserOperation, delegate *common.Address, entryPoint common.Address) (call map[string]any, override map[common.Address]map[string]any) {
	sim := Simulations()
	data, err := sim.ABI.Pack("simulateValidation", PackedUserOperation(op.Pack()))
	if err != nil {
		panic(fmt.Sprintf("packing simulateValidation: %v", err)) // a value over 256 bits: Check refuses it
	}
	override = map[common.Address]map[string]any{entryPoint: {"code": hexutil.Bytes(sim.Code)}}
	if delegate != nil {
		override[op.Sender] = map[string]any{"code": hexutil.Bytes(Delegation(*delegate))}
	}
	return map[string]any{"to": entryPoint, "data": hexutil.Bytes(data)}, override
}

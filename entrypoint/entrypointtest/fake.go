// Package entrypointtest is an EntryPoint version of its own for tests, as
// httptest is a server: Fake has its own wire form, hashes, paymaster
// data, costs, account calls and simulation, so that a test can show that
// a consumer of entrypoint.EntryPoint (the paymaster, aa-native, the
// bundler) serves a version it has never heard of. A test's chain answers
// the fake's simulation with Fake.Answer.
package entrypointtest

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"github.com/ethereum/go-ethereum/accounts"
	"math/big"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// Fake is a test EntryPoint version, "9.9-test", at At.
type Fake struct {
	// At is where the fake EntryPoint is.
	At common.Address
	// Refuse, if set, says which operations simulation refuses with
	// FailedOp "AA33 fake refusal".
	Refuse func(op *entrypoint.UserOperation) bool

	hashed atomic.Int32
}

var _ entrypoint.EntryPoint = (*Fake)(nil)

// The fake's numbers: what its paymaster signs for its own gas, what it
// charges before verification, and the account's default verification.
const (
	PaymasterGas       = 1234
	PreVerificationGas = 30_000
	VerificationGas    = 100_000
)

// simulationID starts the fake's simulation calldata; accountID its
// account calls.
var (
	simulationID = []byte{0xfa, 0x4e, 0x51, 0x30}
	accountID    = []byte{0xfa, 0x4e, 0xac, 0xc7}
)

// Hashed is how many times the paymaster's hash has been asked for.
func (f *Fake) Hashed() int { return int(f.hashed.Load()) }

// Version is "9.9-test".
func (f *Fake) Version() string { return "9.9-test" }

// Address is At.
func (f *Fake) Address() common.Address { return f.At }

// Wire is the fake's wire form of an operation.
type Wire struct {
	Sender        common.Address `json:"sender"`
	Nonce         *hexutil.Big   `json:"nonce"`
	Factory       common.Address `json:"factory"`
	FactoryData   hexutil.Bytes  `json:"factoryData"`
	CallData      hexutil.Bytes  `json:"callData"`
	CallGas       *hexutil.Big   `json:"callGas,omitempty"`
	VerifyGas     *hexutil.Big   `json:"verifyGas,omitempty"`
	PreVerifyGas  *hexutil.Big   `json:"preVerifyGas,omitempty"`
	MaxFee        *hexutil.Big   `json:"maxFee,omitempty"`
	MaxPriority   *hexutil.Big   `json:"maxPriority,omitempty"`
	Paymaster     common.Address `json:"paymaster"`
	PaymasterGas  *hexutil.Big   `json:"paymasterGas,omitempty"`
	PaymasterData hexutil.Bytes  `json:"paymasterData"`
	Signature     hexutil.Bytes  `json:"signature"`
}

func orZero(h *hexutil.Big) *big.Int {
	if h == nil {
		return new(big.Int)
	}
	return new(big.Int).Set(h.ToInt())
}

// DecodeOp parses Wire.
func (f *Fake) DecodeOp(raw json.RawMessage, _ bool) (entrypoint.UserOperation, error) {
	var w Wire
	if err := json.Unmarshal(raw, &w); err != nil {
		return entrypoint.UserOperation{}, err
	}
	if len(w.CallData) == 0 {
		return entrypoint.UserOperation{}, errors.New("callData is required")
	}
	return entrypoint.UserOperation{
		Sender: w.Sender, Nonce: orZero(w.Nonce), Factory: w.Factory, FactoryData: w.FactoryData, CallData: w.CallData,
		CallGasLimit: orZero(w.CallGas), VerificationGasLimit: orZero(w.VerifyGas), PreVerificationGas: orZero(w.PreVerifyGas),
		MaxFeePerGas: orZero(w.MaxFee), MaxPriorityFeePerGas: orZero(w.MaxPriority),
		Paymaster: w.Paymaster, PaymasterVerificationGasLimit: orZero(w.PaymasterGas), PaymasterPostOpGasLimit: new(big.Int),
		PaymasterData: w.PaymasterData, Signature: w.Signature,
	}, nil
}

// EncodeOp is Wire.
func (f *Fake) EncodeOp(op *entrypoint.UserOperation) any {
	return Wire{
		Sender: op.Sender, Nonce: (*hexutil.Big)(op.Nonce), Factory: op.Factory, FactoryData: op.FactoryData, CallData: op.CallData,
		CallGas: (*hexutil.Big)(op.CallGasLimit), VerifyGas: (*hexutil.Big)(op.VerificationGasLimit), PreVerifyGas: (*hexutil.Big)(op.PreVerificationGas),
		MaxFee: (*hexutil.Big)(op.MaxFeePerGas), MaxPriority: (*hexutil.Big)(op.MaxPriorityFeePerGas),
		Paymaster: op.Paymaster, PaymasterGas: (*hexutil.Big)(op.PaymasterVerificationGasLimit), PaymasterData: op.PaymasterData, Signature: op.Signature,
	}
}

// ForeignFields names initCode, which the fake does not have.
func (f *Fake) ForeignFields(raw json.RawMessage) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		if _, ok := m["initCode"]; ok {
			return []string{"initCode"}
		}
	}
	return nil
}

// PaymasterFields is {fakePaymaster, fakePaymasterData}.
func (f *Fake) PaymasterFields(op *entrypoint.UserOperation) any {
	return map[string]any{"fakePaymaster": op.Paymaster, "fakePaymasterData": hexutil.Bytes(op.PaymasterData)}
}

// body is what the fake's hashes cover: every field but the signature and
// the paymaster's data.
func (f *Fake) body(op *entrypoint.UserOperation, chainID *big.Int) []byte {
	var b bytes.Buffer
	b.WriteString("fake entry point")
	b.Write(f.At.Bytes())
	b.Write(op.Sender.Bytes())
	for _, n := range []*big.Int{op.Nonce, op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas, op.MaxFeePerGas, op.PaymasterVerificationGasLimit, chainID} {
		b.Write(common.BigToHash(n).Bytes())
	}
	b.Write(op.InitCode())
	b.Write(op.CallData)
	b.Write(op.Paymaster.Bytes())
	return b.Bytes()
}

// UserOpHash hashes the body and the paymaster's data.
func (f *Fake) UserOpHash(op *entrypoint.UserOperation, chainID *big.Int) common.Hash {
	return crypto.Keccak256Hash(f.body(op, chainID), op.PaymasterData)
}

// AccountDigest is EIP-191's signed message of userOpHash, as the
// accounts of v0.6 and v0.7 sign.
func (f *Fake) AccountDigest(userOpHash common.Hash) common.Hash {
	return common.BytesToHash(accounts.TextHash(userOpHash[:]))
}

// EIP7702 is false: the fake version has no EIP-7702 senders.
func (f *Fake) EIP7702() bool { return false }

// PaymasterAndData is paymaster ‖ paymasterData.
func (f *Fake) PaymasterAndData(op *entrypoint.UserOperation) []byte {
	return append(op.Paymaster.Bytes(), op.PaymasterData...)
}

// VerifyingPaymasterHash hashes the body and the window; it counts the
// calls.
func (f *Fake) VerifyingPaymasterHash(_ context.Context, _ entrypoint.Caller, op *entrypoint.UserOperation, chainID *big.Int, validUntil, validAfter uint64) (common.Hash, error) {
	f.hashed.Add(1)
	return crypto.Keccak256Hash([]byte("fake paymaster"), f.body(op, chainID), binary.BigEndian.AppendUint64(nil, validUntil), binary.BigEndian.AppendUint64(nil, validAfter)), nil
}

// TokenPaymasterHash hashes the body and the terms.
func (f *Fake) TokenPaymasterHash(op *entrypoint.UserOperation, chainID *big.Int, t contracts.TokenTerms) (common.Hash, error) {
	return crypto.Keccak256Hash([]byte("fake token paymaster"), f.body(op, chainID), t.Bytes()), nil
}

// VerifyingPaymasterData is validUntil (8 bytes) ‖ signature.
func (f *Fake) VerifyingPaymasterData(validUntil, _ uint64, signature []byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, validUntil), signature...)
}

// TokenPaymasterData is terms ‖ signature.
func (f *Fake) TokenPaymasterData(t contracts.TokenTerms, signature []byte) []byte {
	return append(t.Bytes(), signature...)
}

// DecodeTokenPaymasterData reads the terms ahead of the signature.
func (f *Fake) DecodeTokenPaymasterData(op *entrypoint.UserOperation) (contracts.TokenTerms, error) {
	if len(op.PaymasterData) < contracts.TokenTermsLength {
		return contracts.TokenTerms{}, errors.New("short token paymaster data")
	}
	return contracts.DecodeTokenTerms(op.PaymasterData[:contracts.TokenTermsLength])
}

// PaymasterGas is PaymasterGas and no postOp.
func (f *Fake) PaymasterGas(bool, uint8) (*big.Int, *big.Int) {
	return big.NewInt(PaymasterGas), new(big.Int)
}

// MaxCost is every gas limit at maxFeePerGas.
func (f *Fake) MaxCost(op *entrypoint.UserOperation) *big.Int {
	gas := new(big.Int).Add(op.VerificationGasLimit, op.CallGasLimit)
	gas.Add(gas, op.PreVerificationGas).Add(gas, op.PaymasterVerificationGasLimit)
	return gas.Mul(gas, op.MaxFeePerGas)
}

// MaxTokenCost is MaxCost in tokens.
func (f *Fake) MaxTokenCost(op *entrypoint.UserOperation, t contracts.TokenTerms) *big.Int {
	return contracts.TokenCost(f.MaxCost(op), t.Rate)
}

// HeldUntilLanded is false.
func (f *Fake) HeldUntilLanded() bool { return false }

// PreVerificationGas is PreVerificationGas, whatever the operation.
func (f *Fake) PreVerificationGas(entrypoint.UserOperation) *big.Int {
	return big.NewInt(PreVerificationGas)
}

// VerificationGas is the account's limit and the paymaster's.
func (f *Fake) VerificationGas(op *entrypoint.UserOperation) *big.Int {
	return new(big.Int).Add(op.VerificationGasLimit, op.PaymasterVerificationGasLimit)
}

// DefaultVerificationGas is VerificationGas.
func (f *Fake) DefaultVerificationGas(bool) *big.Int { return big.NewInt(VerificationGas) }

// DecodeAccountCall reads EncodeAccountCall's form.
func (f *Fake) DecodeAccountCall(callData []byte) (string, []entrypoint.Call, error) {
	if !bytes.HasPrefix(callData, accountID) || len(callData) < 5 {
		return "", nil, errors.New("callData is not the fake account's call")
	}
	n, rest := int(callData[4]), callData[5:]
	calls := make([]entrypoint.Call, 0, n)
	for range n {
		if len(rest) < 20+32+4 {
			return "", nil, errors.New("the fake account's call is cut short")
		}
		c := entrypoint.Call{Target: common.BytesToAddress(rest[:20]), Value: new(big.Int).SetBytes(rest[20:52])}
		size := int(binary.BigEndian.Uint32(rest[52:56]))
		if rest = rest[56:]; len(rest) < size {
			return "", nil, errors.New("the fake account's call is cut short")
		}
		c.Data, rest = rest[:size], rest[size:]
		calls = append(calls, c)
	}
	if n == 1 {
		return "execute", calls, nil
	}
	return "executeBatch", calls, nil
}

// EncodeAccountCall is accountID ‖ count ‖ (target ‖ value ‖ length ‖
// data)….
func (f *Fake) EncodeAccountCall(calls []entrypoint.Call) ([]byte, error) {
	out := append(bytes.Clone(accountID), byte(len(calls)))
	for _, c := range calls {
		value := c.Value
		if value == nil {
			value = new(big.Int)
		}
		out = append(out, c.Target.Bytes()...)
		out = append(out, common.BigToHash(value).Bytes()...)
		out = binary.BigEndian.AppendUint32(out, uint32(len(c.Data)))
		out = append(out, c.Data...)
	}
	return out, nil
}

// PackHandleOps is the fake's bundle: its senders, one after the other.
func (f *Fake) PackHandleOps(ops []entrypoint.UserOperation, beneficiary common.Address) []byte {
	out := beneficiary.Bytes()
	for _, op := range ops {
		out = append(out, op.Sender.Bytes()...)
	}
	return out
}

// BundleSenders reads PackHandleOps' bundle.
func (f *Fake) BundleSenders(input []byte) ([]common.Address, bool) {
	if len(input) < common.AddressLength || len(input)%common.AddressLength != 0 {
		return nil, false
	}
	var out []common.Address
	for rest := input[common.AddressLength:]; len(rest) > 0; rest = rest[common.AddressLength:] {
		out = append(out, common.BytesToAddress(rest[:common.AddressLength]))
	}
	return out, true
}

// FailedOp reads what Answer reverts with.
func (f *Fake) FailedOp(revert []byte) (*entrypoint.FailedOp, bool) {
	if !bytes.Equal(revert, refusal) {
		return nil, false
	}
	return &entrypoint.FailedOp{OpIndex: new(big.Int), Reason: "AA33 fake refusal"}, true
}

// SimulationCall is a call to At: simulationID, then 1 where Refuse
// refuses op.
func (f *Fake) SimulationCall(op *entrypoint.UserOperation) (map[string]any, map[common.Address]map[string]any) {
	data := append(bytes.Clone(simulationID), 0)
	if f.Refuse != nil && f.Refuse(op) {
		data[len(data)-1] = 1
	}
	return map[string]any{"to": f.At, "data": hexutil.Bytes(data)}, nil
}

// refusal is what Answer reverts a refused simulation with.
var refusal = []byte{0xfa, 0x11, 0xed, 0x00}

// Answer is what a chain answers an eth_call of data to At: out on
// success, revert for a refusal; ok is false for data that is not the
// fake's simulation.
func (f *Fake) Answer(data []byte) (out, revert []byte, ok bool) {
	if len(data) != len(simulationID)+1 || !bytes.HasPrefix(data, simulationID) {
		return nil, nil, false
	}
	if data[len(data)-1] == 1 {
		return nil, bytes.Clone(refusal), true
	}
	return []byte{1}, nil, true
}

// ParseSimulation refuses what FailedOp reads and passes any answer.
func (f *Fake) ParseSimulation(_, revert []byte) (entrypoint.Validation, error) {
	if revert != nil {
		if failed, ok := f.FailedOp(revert); ok {
			return entrypoint.Validation{}, failed
		}
		return entrypoint.Validation{}, errors.New("the fake simulation reverted unexpectedly")
	}
	return entrypoint.Validation{}, nil
}

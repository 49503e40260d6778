// Package entrypoint is the ERC-4337 EntryPoint as its users see it: one
// interface for every version, and one file per version (v06.go, v07.go)
// that implements it over the bindings of package contracts. The
// paymaster, the aa-native scheme, the bundler and the Go client hold an
// EntryPoint and a UserOperation and never ask which version they have:
// the user-operation hash, the packing of the paymaster's fields, the
// maximum cost, the pre-verification gas, the gas the verification bound
// holds, simulation and its failures are the version's.
//
// It sits above contracts (the bindings and hashes of each version) and
// below every package that builds, sponsors, checks or submits an
// operation.
//
// A new version is a new file: a type that implements EntryPoint over its
// bindings, and an init function that adds its constructor to the
// versions New knows. v0.8 is such a file (v08.go, which embeds v07 and
// overrides what differs): its EIP-712 userOpHash is UserOpHash, its
// SimpleAccount's executeBatch(Call[]) is DecodeAccountCall and
// EncodeAccountCall, and an EIP-7702 sender's authorization travels in
// UserOperation.EIP7702Auth (its initCode being the 0x7702 marker, which
// Factory holds), which the bundler sends in a set-code transaction. Two
// methods were added for it, where the interface fell short: AccountDigest
// (v0.8's accounts recover the EIP-712 hash itself, not its EIP-191
// message, which the consumers had assumed) and EIP7702 (whether a
// version's operations may come from a delegated EOA).
package entrypoint

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// EntryPoint is one deployed EntryPoint of one version. Every method but
// VerifyingPaymasterHash is pure: chain access stays with the caller, who
// may batch it.
type EntryPoint interface {
	// Version is the version's name, as offers carry it in
	// extra.entryPointVersion: "0.6", "0.7", "0.8".
	Version() string
	// Address is where this EntryPoint is deployed.
	Address() common.Address

	// DecodeOp parses the version's wire form of an operation, naming
	// every malformed field. With unfilled set, the gas and fee fields, the
	// paymaster's and the signature may be empty, as before sponsorship.
	DecodeOp(raw json.RawMessage, unfilled bool) (UserOperation, error)
	// EncodeOp is op in the version's wire form, ready for encoding/json.
	EncodeOp(op *UserOperation) any
	// ForeignFields names the wire fields raw carries that only other
	// versions have (v0.6's initCode on v0.7, v0.7's factory on v0.6);
	// empty when raw has none.
	ForeignFields(raw json.RawMessage) []string
	// PaymasterFields is the ERC-7677 result of op's paymaster fields in
	// the version's wire form (paymasterAndData on v0.6; paymaster,
	// paymasterData and the paymaster's two gas limits on v0.7).
	PaymasterFields(op *UserOperation) any

	// UserOpHash is the EntryPoint's getUserOpHash of op on chainID.
	UserOpHash(op *UserOperation, chainID *big.Int) common.Hash
	// AccountDigest is the digest the owner of this version's
	// SimpleAccount (or, from v0.8, an EIP-7702 sender's own key) signs
	// for an operation whose hash is userOpHash: EIP-191's signed message
	// of it on v0.6 and v0.7, the EIP-712 hash itself on v0.8. (Added for
	// v0.8: before it, every version's account signed EIP-191.)
	AccountDigest(userOpHash common.Hash) common.Hash
	// EIP7702 reports whether this version's operations may come from an
	// EOA delegated by EIP-7702 (v0.8 on): Factory EIP7702Marker, the
	// authorization in EIP7702Auth, carried by the bundle's set-code
	// transaction. (Added for v0.8.)
	EIP7702() bool
	// PaymasterAndData is op's paymaster fields packed as the EntryPoint
	// reads them; empty without a paymaster.
	PaymasterAndData(op *UserOperation) []byte
	// VerifyingPaymasterHash is the hash op's VerifyingPaymaster (of this
	// version, at op.Paymaster) signs to sponsor op from validAfter to
	// validUntil. It may read the chain (v0.6's hash covers the
	// paymaster's senderNonce of op.Sender).
	VerifyingPaymasterHash(ctx context.Context, chain Caller, op *UserOperation, chainID *big.Int, validUntil, validAfter uint64) (common.Hash, error)
	// TokenPaymasterHash is the hash the token paymaster of this version
	// (at op.Paymaster) signs so that op pays its gas on terms t.
	TokenPaymasterHash(op *UserOperation, chainID *big.Int, t contracts.TokenTerms) (common.Hash, error)
	// VerifyingPaymasterData is the VerifyingPaymaster's paymasterData of
	// this version: its validity window and its signature.
	VerifyingPaymasterData(validUntil, validAfter uint64, signature []byte) []byte
	// TokenPaymasterData is the token paymaster's paymasterData of this
	// version: its terms t and its signature.
	TokenPaymasterData(t contracts.TokenTerms, signature []byte) []byte
	// DecodeTokenPaymasterData reads the terms out of the paymaster data
	// of op, which names this version's token paymaster.
	DecodeTokenPaymasterData(op *UserOperation) (contracts.TokenTerms, error)
	// PaymasterGas is the paymasterVerificationGasLimit and
	// paymasterPostOpGasLimit our paymaster signs: the VerifyingPaymaster's
	// (token false) or the token paymaster's in mode. A version whose
	// operations carry no paymaster gas limits answers zeros.
	PaymasterGas(token bool, mode uint8) (verification, postOp *big.Int)

	// MaxCost is the most op can cost its paymaster's deposit: the
	// EntryPoint's required prefund, in wei.
	MaxCost(op *UserOperation) *big.Int
	// MaxTokenCost is the most the token paymaster of this version takes
	// in tokens for op on terms t, as it computes it in validation.
	MaxTokenCost(op *UserOperation, t contracts.TokenTerms) *big.Int
	// HeldUntilLanded reports whether a sponsorship paid in tokens after
	// execution (type 2) is held against the project's balance until it
	// lands: where the EntryPoint calls postOp once, a failed postOp
	// leaves the deposit unpaid.
	HeldUntilLanded() bool
	// PreVerificationGas is what a bundler charges op before validation:
	// the calldata of the packed operation with its paymaster fields at
	// their final length (op's) and a 65-byte signature, plus the
	// transaction's 21,000 and 18,300 per operation.
	PreVerificationGas(op UserOperation) *big.Int
	// VerificationGas is the gas op's verification may spend, as the
	// paymaster's bound holds it: the account's limit, with the
	// paymaster's where the version keeps it apart.
	VerificationGas(op *UserOperation) *big.Int
	// DefaultVerificationGas is the account's verificationGasLimit for an
	// operation that left it empty; deploy when it creates its account.
	DefaultVerificationGas(deploy bool) *big.Int

	// DecodeAccountCall reads the call of this version's SimpleAccount
	// that callData makes: method is "execute" (one call) or
	// "executeBatch"; a value the version's executeBatch does not carry is
	// zero.
	DecodeAccountCall(callData []byte) (method string, calls []Call, err error)
	// EncodeAccountCall is the callData of this version's SimpleAccount
	// that makes calls: execute for one, executeBatch for more.
	EncodeAccountCall(calls []Call) ([]byte, error)

	// PackHandleOps is the calldata of handleOps(ops, beneficiary): a
	// bundle.
	PackHandleOps(ops []UserOperation, beneficiary common.Address) []byte
	// BundleSenders is the sender of each operation of input, handleOps
	// calldata of this version; ok is false for any other calldata.
	BundleSenders(input []byte) (senders []common.Address, ok bool)
	// FailedOp decodes the revert of a bundle (handleOps, or its
	// simulation) that names the operation at fault; ok is false for any
	// other revert.
	FailedOp(revert []byte) (failed *FailedOp, ok bool)

	// SimulationCall is the eth_call that runs simulateValidation of op:
	// the call object and, where the version needs one, a state override
	// (eth_call's third parameter, after "latest"); override is nil
	// otherwise.
	SimulationCall(op *UserOperation) (call map[string]any, override map[common.Address]map[string]any)
	// ParseSimulation reads that call's answer: out when it returned,
	// revert (the revert data) when it reverted. A refusal is a
	// *FailedOp; any other answer the version does not give is another
	// error.
	ParseSimulation(out, revert []byte) (Validation, error)
}

// ErrChain wraps a chain read that failed (not a revert).
var ErrChain = errors.New("reading the chain")

// ErrUnanswered is a simulation that answered neither as the version's
// success nor as a refusal: the node, not the operation, is at fault.
var ErrUnanswered = errors.New("simulateValidation did not answer as the EntryPoint does")

// Caller is the chain access VerifyingPaymasterHash needs: an RPC client's
// CallContext.
type Caller interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
}

// Of returns the EntryPoint of eps at address, or nil.
func Of(eps []EntryPoint, address common.Address) EntryPoint {
	for _, ep := range eps {
		if ep.Address() == address {
			return ep
		}
	}
	return nil
}

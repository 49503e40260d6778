// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package batchsettle

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// X402BatchSettlementChannelConfig is an auto generated low-level Go binding around an user-defined struct.
type X402BatchSettlementChannelConfig struct {
	Payer              common.Address
	PayerAuthorizer    common.Address
	Receiver           common.Address
	ReceiverAuthorizer common.Address
	Token              common.Address
	WithdrawDelay      *big.Int
	Salt               [32]byte
}

// X402BatchSettlementVoucher is an auto generated low-level Go binding around an user-defined struct.
type X402BatchSettlementVoucher struct {
	Channel            X402BatchSettlementChannelConfig
	MaxClaimableAmount *big.Int
}

// X402BatchSettlementVoucherClaim is an auto generated low-level Go binding around an user-defined struct.
type X402BatchSettlementVoucherClaim struct {
	Voucher      X402BatchSettlementVoucher
	Signature    []byte
	TotalClaimed *big.Int
}

// ERC3009DepositCollectorMetaData contains all meta data concerning the ERC3009DepositCollector contract.
var ERC3009DepositCollectorMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"}],\"name\":\"AddressEmptyCode\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"AddressInsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FailedInnerCall\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"OnlyX402BatchSettlement\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"SafeERC20FailedOperation\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"collectorData\",\"type\":\"bytes\"}],\"name\":\"collect\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"x402BatchSettlement\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "1aa6e2d4b405c204c8a353b71785d69592",
	Bin: "0x6080604052348015600e575f5ffd5b506107af8061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c80634dec6d9514610038578063e416d8d31461007c575b5f5ffd5b610053734020074e9df2ce1dee5a9c1b5c3f541d02a1000381565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200160405180910390f35b61008f61008a3660046104be565b610091565b005b33734020074e9df2ce1dee5a9c1b5c3f541d02a10003146100de576040517f9794beb900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8080806100ee8587018761058c565b93509350935093508873ffffffffffffffffffffffffffffffffffffffff166388b7ab638b308b88888d89604051602001610133929190918252602082015260400190565b60405160208183030381529060405280519060200120886040518863ffffffff1660e01b815260040161016c9796959493929190610698565b5f604051808303815f87803b158015610183575f5ffd5b505af1158015610195573d5f5f3e3d5ffd5b506101bb9250505073ffffffffffffffffffffffffffffffffffffffff8a16338a6101c7565b50505050505050505050565b6040805173ffffffffffffffffffffffffffffffffffffffff8416602482015260448082018490528251808303909101815260649091019091526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fa9059cbb00000000000000000000000000000000000000000000000000000000179052610254908490610259565b505050565b5f61027a73ffffffffffffffffffffffffffffffffffffffff8416836102f2565b905080515f1415801561029e57508080602001905181019061029c9190610744565b155b15610254576040517f5274afe700000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff841660048201526024015b60405180910390fd5b60606102ff83835f610306565b9392505050565b606081471015610344576040517fcd7860590000000000000000000000000000000000000000000000000000000081523060048201526024016102e9565b5f5f8573ffffffffffffffffffffffffffffffffffffffff16848660405161036c9190610763565b5f6040518083038185875af1925050503d805f81146103a6576040519150601f19603f3d011682016040523d82523d5f602084013e6103ab565b606091505b50915091506103bb8683836103c5565b9695505050505050565b6060826103da576103d582610454565b6102ff565b81511580156103fe575073ffffffffffffffffffffffffffffffffffffffff84163b155b1561044d576040517f9996b31500000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff851660048201526024016102e9565b50806102ff565b8051156104645780518082602001fd5b6040517f1425ea4200000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b803573ffffffffffffffffffffffffffffffffffffffff811681146104b9575f5ffd5b919050565b5f5f5f5f5f5f60a087890312156104d3575f5ffd5b6104dc87610496565b95506104ea60208801610496565b94506040870135935060608701359250608087013567ffffffffffffffff811115610513575f5ffd5b8701601f81018913610523575f5ffd5b803567ffffffffffffffff811115610539575f5ffd5b89602082840101111561054a575f5ffd5b60208201935080925050509295509295509295565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b5f5f5f5f6080858703121561059f575f5ffd5b843593506020850135925060408501359150606085013567ffffffffffffffff8111156105ca575f5ffd5b8501601f810187136105da575f5ffd5b803567ffffffffffffffff8111156105f4576105f461055f565b6040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0603f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8501160116810181811067ffffffffffffffff821117156106605761066061055f565b604052818152828201602001891015610677575f5ffd5b816020840160208301375f6020838301015280935050505092959194509250565b73ffffffffffffffffffffffffffffffffffffffff8816815273ffffffffffffffffffffffffffffffffffffffff871660208201528560408201528460608201528360808201528260a082015260e060c08201525f82518060e0840152806020850161010085015e5f61010082850101526101007fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505098975050505050505050565b5f60208284031215610754575f5ffd5b815180151581146102ff575f5ffd5b5f82518060208501845e5f92019182525091905056fea2646970667358221220f86bcc2ccfdc2c8c09efde45e8eae02e71e5adde9143e50254ec0f36be81ce2564736f6c63430008250033",
}

// ERC3009DepositCollector is an auto generated Go binding around an Ethereum contract.
type ERC3009DepositCollector struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *ERC3009DepositCollector) GetABI() abi.ABI {
	return c.abi
}

// NewERC3009DepositCollector creates a new instance of ERC3009DepositCollector.
func NewERC3009DepositCollector() *ERC3009DepositCollector {
	parsed, err := ERC3009DepositCollectorMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &ERC3009DepositCollector{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *ERC3009DepositCollector) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackCollect is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe416d8d3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes collectorData) returns()
func (eRC3009DepositCollector *ERC3009DepositCollector) PackCollect(payer common.Address, token common.Address, amount *big.Int, channelId [32]byte, collectorData []byte) []byte {
	enc, err := eRC3009DepositCollector.abi.Pack("collect", payer, token, amount, channelId, collectorData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCollect is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe416d8d3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes collectorData) returns()
func (eRC3009DepositCollector *ERC3009DepositCollector) TryPackCollect(payer common.Address, token common.Address, amount *big.Int, channelId [32]byte, collectorData []byte) ([]byte, error) {
	return eRC3009DepositCollector.abi.Pack("collect", payer, token, amount, channelId, collectorData)
}

// PackX402BatchSettlement is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4dec6d95.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function x402BatchSettlement() view returns(address)
func (eRC3009DepositCollector *ERC3009DepositCollector) PackX402BatchSettlement() []byte {
	enc, err := eRC3009DepositCollector.abi.Pack("x402BatchSettlement")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackX402BatchSettlement is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4dec6d95.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function x402BatchSettlement() view returns(address)
func (eRC3009DepositCollector *ERC3009DepositCollector) TryPackX402BatchSettlement() ([]byte, error) {
	return eRC3009DepositCollector.abi.Pack("x402BatchSettlement")
}

// UnpackX402BatchSettlement is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4dec6d95.
//
// Solidity: function x402BatchSettlement() view returns(address)
func (eRC3009DepositCollector *ERC3009DepositCollector) UnpackX402BatchSettlement(data []byte) (common.Address, error) {
	out, err := eRC3009DepositCollector.abi.Unpack("x402BatchSettlement", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (eRC3009DepositCollector *ERC3009DepositCollector) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], eRC3009DepositCollector.abi.Errors["AddressEmptyCode"].ID.Bytes()[:4]) {
		return eRC3009DepositCollector.UnpackAddressEmptyCodeError(raw[4:])
	}
	if bytes.Equal(raw[:4], eRC3009DepositCollector.abi.Errors["AddressInsufficientBalance"].ID.Bytes()[:4]) {
		return eRC3009DepositCollector.UnpackAddressInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], eRC3009DepositCollector.abi.Errors["FailedInnerCall"].ID.Bytes()[:4]) {
		return eRC3009DepositCollector.UnpackFailedInnerCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], eRC3009DepositCollector.abi.Errors["OnlyX402BatchSettlement"].ID.Bytes()[:4]) {
		return eRC3009DepositCollector.UnpackOnlyX402BatchSettlementError(raw[4:])
	}
	if bytes.Equal(raw[:4], eRC3009DepositCollector.abi.Errors["SafeERC20FailedOperation"].ID.Bytes()[:4]) {
		return eRC3009DepositCollector.UnpackSafeERC20FailedOperationError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// ERC3009DepositCollectorAddressEmptyCode represents a AddressEmptyCode error raised by the ERC3009DepositCollector contract.
type ERC3009DepositCollectorAddressEmptyCode struct {
	Target common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AddressEmptyCode(address target)
func ERC3009DepositCollectorAddressEmptyCodeErrorID() common.Hash {
	return common.HexToHash("0x9996b315c842ff135b8fc4a08ad5df1c344efbc03d2687aecc0678050d2aac89")
}

// UnpackAddressEmptyCodeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AddressEmptyCode(address target)
func (eRC3009DepositCollector *ERC3009DepositCollector) UnpackAddressEmptyCodeError(raw []byte) (*ERC3009DepositCollectorAddressEmptyCode, error) {
	out := new(ERC3009DepositCollectorAddressEmptyCode)
	if err := eRC3009DepositCollector.abi.UnpackIntoInterface(out, "AddressEmptyCode", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ERC3009DepositCollectorAddressInsufficientBalance represents a AddressInsufficientBalance error raised by the ERC3009DepositCollector contract.
type ERC3009DepositCollectorAddressInsufficientBalance struct {
	Account common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AddressInsufficientBalance(address account)
func ERC3009DepositCollectorAddressInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xcd7860599b9fd41bcf04bec8b7a59cb8b83ebbb59480bead3f13259df2ace421")
}

// UnpackAddressInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AddressInsufficientBalance(address account)
func (eRC3009DepositCollector *ERC3009DepositCollector) UnpackAddressInsufficientBalanceError(raw []byte) (*ERC3009DepositCollectorAddressInsufficientBalance, error) {
	out := new(ERC3009DepositCollectorAddressInsufficientBalance)
	if err := eRC3009DepositCollector.abi.UnpackIntoInterface(out, "AddressInsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ERC3009DepositCollectorFailedInnerCall represents a FailedInnerCall error raised by the ERC3009DepositCollector contract.
type ERC3009DepositCollectorFailedInnerCall struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FailedInnerCall()
func ERC3009DepositCollectorFailedInnerCallErrorID() common.Hash {
	return common.HexToHash("0x1425ea42df7c932537f94e8b917ea9c5931f140fb6e8098822ef05dc56222ca9")
}

// UnpackFailedInnerCallError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FailedInnerCall()
func (eRC3009DepositCollector *ERC3009DepositCollector) UnpackFailedInnerCallError(raw []byte) (*ERC3009DepositCollectorFailedInnerCall, error) {
	out := new(ERC3009DepositCollectorFailedInnerCall)
	if err := eRC3009DepositCollector.abi.UnpackIntoInterface(out, "FailedInnerCall", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ERC3009DepositCollectorOnlyX402BatchSettlement represents a OnlyX402BatchSettlement error raised by the ERC3009DepositCollector contract.
type ERC3009DepositCollectorOnlyX402BatchSettlement struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OnlyX402BatchSettlement()
func ERC3009DepositCollectorOnlyX402BatchSettlementErrorID() common.Hash {
	return common.HexToHash("0x9794beb9a4ed84875f4613850b52e4fda54022cdb5ef864ebc1d150c7987b10b")
}

// UnpackOnlyX402BatchSettlementError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OnlyX402BatchSettlement()
func (eRC3009DepositCollector *ERC3009DepositCollector) UnpackOnlyX402BatchSettlementError(raw []byte) (*ERC3009DepositCollectorOnlyX402BatchSettlement, error) {
	out := new(ERC3009DepositCollectorOnlyX402BatchSettlement)
	if err := eRC3009DepositCollector.abi.UnpackIntoInterface(out, "OnlyX402BatchSettlement", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// ERC3009DepositCollectorSafeERC20FailedOperation represents a SafeERC20FailedOperation error raised by the ERC3009DepositCollector contract.
type ERC3009DepositCollectorSafeERC20FailedOperation struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SafeERC20FailedOperation(address token)
func ERC3009DepositCollectorSafeERC20FailedOperationErrorID() common.Hash {
	return common.HexToHash("0x5274afe73c98b4749fc91ffae6b7b574e7842cb2144a159e9377a5f20b32edf9")
}

// UnpackSafeERC20FailedOperationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SafeERC20FailedOperation(address token)
func (eRC3009DepositCollector *ERC3009DepositCollector) UnpackSafeERC20FailedOperationError(raw []byte) (*ERC3009DepositCollectorSafeERC20FailedOperation, error) {
	out := new(ERC3009DepositCollectorSafeERC20FailedOperation)
	if err := eRC3009DepositCollector.abi.UnpackIntoInterface(out, "SafeERC20FailedOperation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2DepositCollectorMetaData contains all meta data concerning the Permit2DepositCollector contract.
var Permit2DepositCollectorMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"OnlyX402BatchSettlement\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Permit2612AmountMismatch\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"EIP2612PermitFailedWithData\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"errorCode\",\"type\":\"uint256\"}],\"name\":\"EIP2612PermitFailedWithPanic\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"string\",\"name\":\"reason\",\"type\":\"string\"}],\"name\":\"EIP2612PermitFailedWithReason\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DEPOSIT_WITNESS_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"DEPOSIT_WITNESS_TYPE_STRING\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"PERMIT2\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"collectorData\",\"type\":\"bytes\"}],\"name\":\"collect\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"x402BatchSettlement\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "8226826d9a3e5e04565f75b56866619ef8",
	Bin: "0x6080604052348015600e575f5ffd5b50610aee8061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610064575f3560e01c80634f8299761161004d5780634f829976146100c65780636afdd850146100fb578063e416d8d314610111575f5ffd5b806322971aa0146100685780634dec6d9514610086575b5f5ffd5b610070610126565b60405161007d91906105eb565b60405180910390f35b6100a1734020074e9df2ce1dee5a9c1b5c3f541d02a1000381565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200161007d565b6100ed7fba0000097e86dabe64178afe31109221193339a6861598f2133fcbdc92c8447981565b60405190815260200161007d565b6100a16e22d473030f116ddee9f6b43ac78ba381565b61012461011f36600461062c565b610142565b005b6040518060a0016040528060668152602001610a536066913981565b33734020074e9df2ce1dee5a9c1b5c3f541d02a100031461018f576040517f9794beb900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f80808061019f858701876107d3565b935093509350935080515f146101bb576101bb8a8a8a846102e9565b6040805160a08101825273ffffffffffffffffffffffffffffffffffffffff8b1660608201908152608082018b905281526020808201879052818301869052825180840184523381528082018c905292516e22d473030f116ddee9f6b43ac78ba39363137c29fe939290918f9161025f917fba0000097e86dabe64178afe31109221193339a6861598f2133fcbdc92c84479918f9101918252602082015260400190565b604051602081830303815290604052805190602001206040518060a0016040528060668152602001610a5360669139886040518763ffffffff1660e01b81526004016102b09695949392919061084a565b5f604051808303815f87803b1580156102c7575f5ffd5b505af11580156102d9573d5f5f3e3d5ffd5b5050505050505050505050505050565b5f5f5f5f5f858060200190518101906103029190610910565b94509450945094509450868514610345576040517f050cda4900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6040517fd505accf00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff8a811660048301526e22d473030f116ddee9f6b43ac78ba36024830152604482018790526064820186905260ff8516608483015260a4820184905260c4820183905289169063d505accf9060e4015f604051808303815f87803b1580156103e5575f5ffd5b505af19250505080156103f6575060015b6105945761040261095c565b806308c379a00361048c5750610416610975565b806104215750610508565b8973ffffffffffffffffffffffffffffffffffffffff168973ffffffffffffffffffffffffffffffffffffffff167f0fea7e5a0e14e9f700b9b0666ffd524bacb9ceb9e6234ea2bfb8e1d0ee2365e78360405161047e91906105eb565b60405180910390a350610594565b634e487b71036105085761049e610a35565b906104a95750610508565b8973ffffffffffffffffffffffffffffffffffffffff168973ffffffffffffffffffffffffffffffffffffffff167f278207c426558a8c6ef49e9a3c6f87d257ca5c1852f0c988ad5caf894d1976238360405161047e91815260200190565b3d808015610531576040519150601f19603f3d011682016040523d82523d5f602084013e610536565b606091505b508973ffffffffffffffffffffffffffffffffffffffff168973ffffffffffffffffffffffffffffffffffffffff167f41d715076dfd9c1fd3135fbb7675020aab7fb8e82349a0cd5aaa970dcfb816fe8360405161047e91906105eb565b505050505050505050565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b602081525f6105fd602083018461059f565b9392505050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610627575f5ffd5b919050565b5f5f5f5f5f5f60a08789031215610641575f5ffd5b61064a87610604565b955061065860208801610604565b94506040870135935060608701359250608087013567ffffffffffffffff811115610681575f5ffd5b8701601f81018913610691575f5ffd5b803567ffffffffffffffff8111156106a7575f5ffd5b8960208284010111156106b8575f5ffd5b60208201935080925050509295509295509295565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f830116810181811067ffffffffffffffff8211171561073e5761073e6106cd565b6040525050565b5f82601f830112610754575f5ffd5b813567ffffffffffffffff81111561076e5761076e6106cd565b6040516107a360207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f85011601826106fa565b8181528460208386010111156107b7575f5ffd5b816020850160208301375f918101602001919091529392505050565b5f5f5f5f608085870312156107e6575f5ffd5b8435935060208501359250604085013567ffffffffffffffff81111561080a575f5ffd5b61081687828801610745565b925050606085013567ffffffffffffffff811115610832575f5ffd5b61083e87828801610745565b91505092959194509250565b610875818851805173ffffffffffffffffffffffffffffffffffffffff168252602090810151910152565b60208701516040820152604087015160608201526108b66080820187805173ffffffffffffffffffffffffffffffffffffffff168252602090810151910152565b73ffffffffffffffffffffffffffffffffffffffff851660c08201528360e08201526101406101008201525f6108f061014083018561059f565b828103610120840152610903818561059f565b9998505050505050505050565b5f5f5f5f5f60a08688031215610924575f5ffd5b855160208701516040880151919650945060ff81168114610943575f5ffd5b6060870151608090970151959894975095949392505050565b5f60033d11156109725760045f5f3e505f5160e01c5b90565b5f60443d10156109825790565b6040517ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc3d016004823e80513d602482011167ffffffffffffffff821117156109ca57505090565b808201805167ffffffffffffffff8111156109e6575050505090565b7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc3d8501016020828401011115610a1e575050505090565b610a2d602082850101856106fa565b509392505050565b5f5f60233d1115610a4e57602060045f3e50505f516001905b909156fe4465706f7369745769746e657373207769746e657373294465706f7369745769746e6573732862797465733332206368616e6e656c496429546f6b656e5065726d697373696f6e73286164647265737320746f6b656e2c75696e7432353620616d6f756e7429a2646970667358221220607fa0d54526c07635b0f269008f17c43128a55e4df9ac780b8e9d04260724ed64736f6c63430008250033",
}

// Permit2DepositCollector is an auto generated Go binding around an Ethereum contract.
type Permit2DepositCollector struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Permit2DepositCollector) GetABI() abi.ABI {
	return c.abi
}

// NewPermit2DepositCollector creates a new instance of Permit2DepositCollector.
func NewPermit2DepositCollector() *Permit2DepositCollector {
	parsed, err := Permit2DepositCollectorMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Permit2DepositCollector{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Permit2DepositCollector) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackDEPOSITWITNESSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4f829976.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DEPOSIT_WITNESS_TYPEHASH() view returns(bytes32)
func (permit2DepositCollector *Permit2DepositCollector) PackDEPOSITWITNESSTYPEHASH() []byte {
	enc, err := permit2DepositCollector.abi.Pack("DEPOSIT_WITNESS_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDEPOSITWITNESSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4f829976.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DEPOSIT_WITNESS_TYPEHASH() view returns(bytes32)
func (permit2DepositCollector *Permit2DepositCollector) TryPackDEPOSITWITNESSTYPEHASH() ([]byte, error) {
	return permit2DepositCollector.abi.Pack("DEPOSIT_WITNESS_TYPEHASH")
}

// UnpackDEPOSITWITNESSTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4f829976.
//
// Solidity: function DEPOSIT_WITNESS_TYPEHASH() view returns(bytes32)
func (permit2DepositCollector *Permit2DepositCollector) UnpackDEPOSITWITNESSTYPEHASH(data []byte) ([32]byte, error) {
	out, err := permit2DepositCollector.abi.Unpack("DEPOSIT_WITNESS_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackDEPOSITWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x22971aa0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DEPOSIT_WITNESS_TYPE_STRING() view returns(string)
func (permit2DepositCollector *Permit2DepositCollector) PackDEPOSITWITNESSTYPESTRING() []byte {
	enc, err := permit2DepositCollector.abi.Pack("DEPOSIT_WITNESS_TYPE_STRING")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDEPOSITWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x22971aa0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DEPOSIT_WITNESS_TYPE_STRING() view returns(string)
func (permit2DepositCollector *Permit2DepositCollector) TryPackDEPOSITWITNESSTYPESTRING() ([]byte, error) {
	return permit2DepositCollector.abi.Pack("DEPOSIT_WITNESS_TYPE_STRING")
}

// UnpackDEPOSITWITNESSTYPESTRING is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x22971aa0.
//
// Solidity: function DEPOSIT_WITNESS_TYPE_STRING() view returns(string)
func (permit2DepositCollector *Permit2DepositCollector) UnpackDEPOSITWITNESSTYPESTRING(data []byte) (string, error) {
	out, err := permit2DepositCollector.abi.Unpack("DEPOSIT_WITNESS_TYPE_STRING", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackPERMIT2 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6afdd850.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function PERMIT2() view returns(address)
func (permit2DepositCollector *Permit2DepositCollector) PackPERMIT2() []byte {
	enc, err := permit2DepositCollector.abi.Pack("PERMIT2")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPERMIT2 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6afdd850.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function PERMIT2() view returns(address)
func (permit2DepositCollector *Permit2DepositCollector) TryPackPERMIT2() ([]byte, error) {
	return permit2DepositCollector.abi.Pack("PERMIT2")
}

// UnpackPERMIT2 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6afdd850.
//
// Solidity: function PERMIT2() view returns(address)
func (permit2DepositCollector *Permit2DepositCollector) UnpackPERMIT2(data []byte) (common.Address, error) {
	out, err := permit2DepositCollector.abi.Unpack("PERMIT2", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCollect is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe416d8d3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes collectorData) returns()
func (permit2DepositCollector *Permit2DepositCollector) PackCollect(payer common.Address, token common.Address, amount *big.Int, channelId [32]byte, collectorData []byte) []byte {
	enc, err := permit2DepositCollector.abi.Pack("collect", payer, token, amount, channelId, collectorData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCollect is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe416d8d3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes collectorData) returns()
func (permit2DepositCollector *Permit2DepositCollector) TryPackCollect(payer common.Address, token common.Address, amount *big.Int, channelId [32]byte, collectorData []byte) ([]byte, error) {
	return permit2DepositCollector.abi.Pack("collect", payer, token, amount, channelId, collectorData)
}

// PackX402BatchSettlement is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4dec6d95.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function x402BatchSettlement() view returns(address)
func (permit2DepositCollector *Permit2DepositCollector) PackX402BatchSettlement() []byte {
	enc, err := permit2DepositCollector.abi.Pack("x402BatchSettlement")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackX402BatchSettlement is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4dec6d95.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function x402BatchSettlement() view returns(address)
func (permit2DepositCollector *Permit2DepositCollector) TryPackX402BatchSettlement() ([]byte, error) {
	return permit2DepositCollector.abi.Pack("x402BatchSettlement")
}

// UnpackX402BatchSettlement is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4dec6d95.
//
// Solidity: function x402BatchSettlement() view returns(address)
func (permit2DepositCollector *Permit2DepositCollector) UnpackX402BatchSettlement(data []byte) (common.Address, error) {
	out, err := permit2DepositCollector.abi.Unpack("x402BatchSettlement", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// Permit2DepositCollectorEIP2612PermitFailedWithData represents a EIP2612PermitFailedWithData event raised by the Permit2DepositCollector contract.
type Permit2DepositCollectorEIP2612PermitFailedWithData struct {
	Token common.Address
	Owner common.Address
	Data  []byte
	Raw   *types.Log // Blockchain specific contextual infos
}

const Permit2DepositCollectorEIP2612PermitFailedWithDataEventName = "EIP2612PermitFailedWithData"

// ContractEventName returns the user-defined event name.
func (Permit2DepositCollectorEIP2612PermitFailedWithData) ContractEventName() string {
	return Permit2DepositCollectorEIP2612PermitFailedWithDataEventName
}

// UnpackEIP2612PermitFailedWithDataEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EIP2612PermitFailedWithData(address indexed token, address indexed owner, bytes data)
func (permit2DepositCollector *Permit2DepositCollector) UnpackEIP2612PermitFailedWithDataEvent(log *types.Log) (*Permit2DepositCollectorEIP2612PermitFailedWithData, error) {
	event := "EIP2612PermitFailedWithData"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != permit2DepositCollector.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(Permit2DepositCollectorEIP2612PermitFailedWithData)
	if len(log.Data) > 0 {
		if err := permit2DepositCollector.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range permit2DepositCollector.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// Permit2DepositCollectorEIP2612PermitFailedWithPanic represents a EIP2612PermitFailedWithPanic event raised by the Permit2DepositCollector contract.
type Permit2DepositCollectorEIP2612PermitFailedWithPanic struct {
	Token     common.Address
	Owner     common.Address
	ErrorCode *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const Permit2DepositCollectorEIP2612PermitFailedWithPanicEventName = "EIP2612PermitFailedWithPanic"

// ContractEventName returns the user-defined event name.
func (Permit2DepositCollectorEIP2612PermitFailedWithPanic) ContractEventName() string {
	return Permit2DepositCollectorEIP2612PermitFailedWithPanicEventName
}

// UnpackEIP2612PermitFailedWithPanicEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EIP2612PermitFailedWithPanic(address indexed token, address indexed owner, uint256 errorCode)
func (permit2DepositCollector *Permit2DepositCollector) UnpackEIP2612PermitFailedWithPanicEvent(log *types.Log) (*Permit2DepositCollectorEIP2612PermitFailedWithPanic, error) {
	event := "EIP2612PermitFailedWithPanic"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != permit2DepositCollector.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(Permit2DepositCollectorEIP2612PermitFailedWithPanic)
	if len(log.Data) > 0 {
		if err := permit2DepositCollector.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range permit2DepositCollector.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// Permit2DepositCollectorEIP2612PermitFailedWithReason represents a EIP2612PermitFailedWithReason event raised by the Permit2DepositCollector contract.
type Permit2DepositCollectorEIP2612PermitFailedWithReason struct {
	Token  common.Address
	Owner  common.Address
	Reason string
	Raw    *types.Log // Blockchain specific contextual infos
}

const Permit2DepositCollectorEIP2612PermitFailedWithReasonEventName = "EIP2612PermitFailedWithReason"

// ContractEventName returns the user-defined event name.
func (Permit2DepositCollectorEIP2612PermitFailedWithReason) ContractEventName() string {
	return Permit2DepositCollectorEIP2612PermitFailedWithReasonEventName
}

// UnpackEIP2612PermitFailedWithReasonEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EIP2612PermitFailedWithReason(address indexed token, address indexed owner, string reason)
func (permit2DepositCollector *Permit2DepositCollector) UnpackEIP2612PermitFailedWithReasonEvent(log *types.Log) (*Permit2DepositCollectorEIP2612PermitFailedWithReason, error) {
	event := "EIP2612PermitFailedWithReason"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != permit2DepositCollector.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(Permit2DepositCollectorEIP2612PermitFailedWithReason)
	if len(log.Data) > 0 {
		if err := permit2DepositCollector.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range permit2DepositCollector.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (permit2DepositCollector *Permit2DepositCollector) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], permit2DepositCollector.abi.Errors["OnlyX402BatchSettlement"].ID.Bytes()[:4]) {
		return permit2DepositCollector.UnpackOnlyX402BatchSettlementError(raw[4:])
	}
	if bytes.Equal(raw[:4], permit2DepositCollector.abi.Errors["Permit2612AmountMismatch"].ID.Bytes()[:4]) {
		return permit2DepositCollector.UnpackPermit2612AmountMismatchError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// Permit2DepositCollectorOnlyX402BatchSettlement represents a OnlyX402BatchSettlement error raised by the Permit2DepositCollector contract.
type Permit2DepositCollectorOnlyX402BatchSettlement struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error OnlyX402BatchSettlement()
func Permit2DepositCollectorOnlyX402BatchSettlementErrorID() common.Hash {
	return common.HexToHash("0x9794beb9a4ed84875f4613850b52e4fda54022cdb5ef864ebc1d150c7987b10b")
}

// UnpackOnlyX402BatchSettlementError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error OnlyX402BatchSettlement()
func (permit2DepositCollector *Permit2DepositCollector) UnpackOnlyX402BatchSettlementError(raw []byte) (*Permit2DepositCollectorOnlyX402BatchSettlement, error) {
	out := new(Permit2DepositCollectorOnlyX402BatchSettlement)
	if err := permit2DepositCollector.abi.UnpackIntoInterface(out, "OnlyX402BatchSettlement", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2DepositCollectorPermit2612AmountMismatch represents a Permit2612AmountMismatch error raised by the Permit2DepositCollector contract.
type Permit2DepositCollectorPermit2612AmountMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Permit2612AmountMismatch()
func Permit2DepositCollectorPermit2612AmountMismatchErrorID() common.Hash {
	return common.HexToHash("0x050cda497e70d136409d6ab7072a104828e2ffb4be43a59d07e1a5960d8cb9a3")
}

// UnpackPermit2612AmountMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Permit2612AmountMismatch()
func (permit2DepositCollector *Permit2DepositCollector) UnpackPermit2612AmountMismatchError(raw []byte) (*Permit2DepositCollectorPermit2612AmountMismatch, error) {
	out := new(Permit2DepositCollectorPermit2612AmountMismatch)
	if err := permit2DepositCollector.abi.UnpackIntoInterface(out, "Permit2612AmountMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementMetaData contains all meta data concerning the X402BatchSettlement contract.
var X402BatchSettlementMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"}],\"name\":\"AddressEmptyCode\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"AddressInsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ClaimExceedsBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ClaimExceedsCeiling\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DepositCollectionFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"DepositOverflow\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"EmptyBatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"FailedInnerCall\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidChannel\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidCollector\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidRefundNonce\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignature\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotAuthorizedToClaim\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotAuthorizedToFinalizeWithdraw\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotAuthorizedToRefund\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotReceiverAuthorizer\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NothingToWithdraw\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ReentrancyGuardReentrantCall\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"SafeERC20FailedOperation\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WithdrawAmountExceedsAvailable\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WithdrawDelayNotElapsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WithdrawDelayOutOfRange\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WithdrawalAlreadyPending\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WithdrawalNotPending\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroDeposit\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroRefund\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"indexed\":false,\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"}],\"name\":\"ChannelClosed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"indexed\":false,\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"}],\"name\":\"ChannelCreated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"claimAmount\",\"type\":\"uint128\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"newTotalClaimed\",\"type\":\"uint128\"}],\"name\":\"Claimed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"newBalance\",\"type\":\"uint128\"}],\"name\":\"Deposited\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"EIP712DomainChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"}],\"name\":\"Refunded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"}],\"name\":\"Settled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"}],\"name\":\"WithdrawFinalized\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"},{\"indexed\":false,\"internalType\":\"uint40\",\"name\":\"finalizeAfter\",\"type\":\"uint40\"}],\"name\":\"WithdrawInitiated\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"CHANNEL_CONFIG_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"CLAIM_BATCH_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"CLAIM_ENTRY_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MAX_WITHDRAW_DELAY\",\"outputs\":[{\"internalType\":\"uint40\",\"name\":\"\",\"type\":\"uint40\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MIN_WITHDRAW_DELAY\",\"outputs\":[{\"internalType\":\"uint40\",\"name\":\"\",\"type\":\"uint40\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"REFUND_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"VOUCHER_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"}],\"name\":\"channels\",\"outputs\":[{\"internalType\":\"uint128\",\"name\":\"balance\",\"type\":\"uint128\"},{\"internalType\":\"uint128\",\"name\":\"totalClaimed\",\"type\":\"uint128\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"channel\",\"type\":\"tuple\"},{\"internalType\":\"uint128\",\"name\":\"maxClaimableAmount\",\"type\":\"uint128\"}],\"internalType\":\"structX402BatchSettlement.Voucher\",\"name\":\"voucher\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"uint128\",\"name\":\"totalClaimed\",\"type\":\"uint128\"}],\"internalType\":\"structX402BatchSettlement.VoucherClaim[]\",\"name\":\"voucherClaims\",\"type\":\"tuple[]\"}],\"name\":\"claim\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"channel\",\"type\":\"tuple\"},{\"internalType\":\"uint128\",\"name\":\"maxClaimableAmount\",\"type\":\"uint128\"}],\"internalType\":\"structX402BatchSettlement.Voucher\",\"name\":\"voucher\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"uint128\",\"name\":\"totalClaimed\",\"type\":\"uint128\"}],\"internalType\":\"structX402BatchSettlement.VoucherClaim[]\",\"name\":\"voucherClaims\",\"type\":\"tuple[]\"},{\"internalType\":\"bytes\",\"name\":\"authorizerSignature\",\"type\":\"bytes\"}],\"name\":\"claimWithSignature\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"},{\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"},{\"internalType\":\"address\",\"name\":\"collector\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"collectorData\",\"type\":\"bytes\"}],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"eip712Domain\",\"outputs\":[{\"internalType\":\"bytes1\",\"name\":\"fields\",\"type\":\"bytes1\"},{\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"version\",\"type\":\"string\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"verifyingContract\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"internalType\":\"uint256[]\",\"name\":\"extensions\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"}],\"name\":\"finalizeWithdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"}],\"name\":\"getChannelId\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"channel\",\"type\":\"tuple\"},{\"internalType\":\"uint128\",\"name\":\"maxClaimableAmount\",\"type\":\"uint128\"}],\"internalType\":\"structX402BatchSettlement.Voucher\",\"name\":\"voucher\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"uint128\",\"name\":\"totalClaimed\",\"type\":\"uint128\"}],\"internalType\":\"structX402BatchSettlement.VoucherClaim[]\",\"name\":\"voucherClaims\",\"type\":\"tuple[]\"}],\"name\":\"getClaimBatchDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"}],\"name\":\"getRefundDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"},{\"internalType\":\"uint128\",\"name\":\"maxClaimableAmount\",\"type\":\"uint128\"}],\"name\":\"getVoucherDigest\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"},{\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"}],\"name\":\"initiateWithdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes[]\",\"name\":\"data\",\"type\":\"bytes[]\"}],\"name\":\"multicall\",\"outputs\":[{\"internalType\":\"bytes[]\",\"name\":\"results\",\"type\":\"bytes[]\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"}],\"name\":\"pendingWithdrawals\",\"outputs\":[{\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"},{\"internalType\":\"uint40\",\"name\":\"initiatedAt\",\"type\":\"uint40\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"receivers\",\"outputs\":[{\"internalType\":\"uint128\",\"name\":\"totalClaimed\",\"type\":\"uint128\"},{\"internalType\":\"uint128\",\"name\":\"totalSettled\",\"type\":\"uint128\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"},{\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"}],\"name\":\"refund\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"channelId\",\"type\":\"bytes32\"}],\"name\":\"refundNonce\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payerAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"receiverAuthorizer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint40\",\"name\":\"withdrawDelay\",\"type\":\"uint40\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"internalType\":\"structX402BatchSettlement.ChannelConfig\",\"name\":\"config\",\"type\":\"tuple\"},{\"internalType\":\"uint128\",\"name\":\"amount\",\"type\":\"uint128\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"receiverAuthorizerSignature\",\"type\":\"bytes\"}],\"name\":\"refundWithSignature\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"receiver\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "951525d1d60144f136fd5b37aedc5dc024",
	Bin: "0x6080604052348015600e575f5ffd5b5061395a8061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061019a575f3560e01c806394739e87116100e8578063ba94ec0d11610093578063e25cf1891161006e578063e25cf189146104c7578063e43ce1f2146104da578063e88377b1146104ed578063f0dc792e14610500575f5ffd5b8063ba94ec0d1461047a578063cf5cf3dc146104a1578063dce4bfae146104b4575f5ffd5b8063ae159439116100c3578063ae159439146103e2578063b77433e9146103eb578063b7f06ebe146103fe575f5ffd5b806394739e87146103885780639db32a8f146103af578063ac9650d8146103c2575f5ffd5b806353ab0fae1161014857806384b0196e1161012357806384b0196e14610333578063862bb1991461034e5780638e4a68ac14610361575f5ffd5b806353ab0fae146102b05780635e5e0b87146102d75780637a7ebd7b146102ea575f5ffd5b806321ff63891161017857806321ff63891461020d57806329237b0c1461028a578063488ccc3b1461029d575f5ffd5b8063140f1e751461019e5780631e69ef40146101b35780631fc3277d146101ed575b5f5ffd5b6101b16101ac366004613074565b61051f565b005b6101da7fbe23ad087435072cd69b49cc5b92de10ee610fce7ae0ab428307972d764bb21681565b6040519081526020015b60405180910390f35b6101f762278d0081565b60405164ffffffffff90911681526020016101e4565b61026161021b3660046130e9565b600360209081525f92835260408084209091529082529020546fffffffffffffffffffffffffffffffff8082169170010000000000000000000000000000000090041682565b604080516fffffffffffffffffffffffffffffffff9384168152929091166020830152016101e4565b6101b161029836600461315b565b610b55565b6101da6102ab36600461315b565b610d26565b6101da7f42bd57c010b870c2e96203c66341f28a6a19b4d56a74533a8eb5f706b9fd6d5781565b6101da6102e536600461319a565b610fb9565b6102616102f83660046131b4565b5f602081905290815260409020546fffffffffffffffffffffffffffffffff8082169170010000000000000000000000000000000090041682565b61033b610ff0565b6040516101e49796959493929190613217565b6101da61035c3660046132d6565b6110c4565b6101da7f1c9a06ceab9b0ebbd3301dc56c9111bb6d9af421356dc9ccb3b7084c755db30881565b6101da7f1e1bd6ff84c3e0d9029a292b212e039c0ca97ec497c55191a4a5874294609a6981565b6101b16103bd3660046130e9565b611121565b6103d56103d036600461315b565b6112ce565b6040516101e491906132f7565b6101f761038481565b6101b16103f9366004613378565b6113b4565b61044c61040c3660046131b4565b60026020525f90815260409020546fffffffffffffffffffffffffffffffff811690700100000000000000000000000000000000900464ffffffffff1682565b604080516fffffffffffffffffffffffffffffffff909316835264ffffffffff9091166020830152016101e4565b6101da7f30b9a0367528fca13c3e8ec6134c3113f1887ebe7a1ad61de0955aac288b0cf581565b6101b16104af3660046133c9565b61150d565b6101b16104c23660046133c9565b611856565b6101da6104d53660046133f3565b611985565b6101b16104e8366004613425565b6119ea565b6101b16104fb36600461319a565b611de5565b6101da61050e3660046131b4565b60016020525f908152604090205481565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c801561057a576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d5f61058c6020890189613491565b73ffffffffffffffffffffffffffffffffffffffff1614806105d257505f6105ba6060890160408a01613491565b73ffffffffffffffffffffffffffffffffffffffff16145b8061060157505f6105e96080890160608a01613491565b73ffffffffffffffffffffffffffffffffffffffff16145b8061063057505f61061860a0890160808a01613491565b73ffffffffffffffffffffffffffffffffffffffff16145b15610667576040517fea3a9a3900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b61038461067a60c0890160a08a016134be565b64ffffffffff1610806106a5575062278d0061069c60c0890160a08a016134be565b64ffffffffff16115b156106dc576040517f4574fab600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b856fffffffffffffffffffffffffffffffff165f03610727576040517f56316e8700000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff8516610774576040517f18b1afd400000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f61077e88610fb9565b5f8181526020819052604090208054919250906fffffffffffffffffffffffffffffffff908116906107b1908290613504565b6fffffffffffffffffffffffffffffffff16896fffffffffffffffffffffffffffffffff16111561080e576040517f1132981b00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b610818898261352c565b82547fffffffffffffffffffffffffffffffff00000000000000000000000000000000166fffffffffffffffffffffffffffffffff919091161782555f61086560a08c0160808d01613491565b6040517f70a082310000000000000000000000000000000000000000000000000000000081523060048201529091505f9073ffffffffffffffffffffffffffffffffffffffff8316906370a0823190602401602060405180830381865afa1580156108d2573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906108f69190613554565b905073ffffffffffffffffffffffffffffffffffffffff8a1663e416d8d361092160208f018f613491565b8e60800160208101906109349190613491565b8e898e8e6040518763ffffffff1660e01b81526004016109599695949392919061356b565b5f604051808303815f87803b158015610970575f5ffd5b505af1158015610982573d5f5f3e3d5ffd5b505050508a6fffffffffffffffffffffffffffffffff16816109a49190613611565b6040517f70a0823100000000000000000000000000000000000000000000000000000000815230600482015273ffffffffffffffffffffffffffffffffffffffff8416906370a0823190602401602060405180830381865afa158015610a0c573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610a309190613554565b14610a67576040517feb43592c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6fffffffffffffffffffffffffffffffff8316158015610aac5750835470010000000000000000000000000000000090046fffffffffffffffffffffffffffffffff16155b15610aea57847f69d8248d5566bdb2ebc4d218970710d8378a2ff9b709a999e052b71970f808fa8d604051610ae19190613704565b60405180910390a25b33857f6c2a09353b5e75e70d0b9778b80a413809bb235d46c211811c474b3346791d898d610b18818861352c565b604080516fffffffffffffffffffffffffffffffff93841681529290911660208301520160405180910390a350505050505f825d50505050505050565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c8015610bb0576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d825f819003610bef576040517fc2e5347d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f5b81811015610d1b5736868683818110610c0c57610c0c613712565b9050602002810190610c1e919061373f565b9050610c306060820160408301613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff1614158015610ca65750610c766080820160608301613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff1614155b15610cdd576040517fdefb706900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b610d12878784818110610cf257610cf2613712565b9050602002810190610d04919061373f565b610d0d83610fb9565b61220d565b50600101610bf1565b50505f825d50505050565b5f81818167ffffffffffffffff811115610d4257610d4261377b565b604051908082528060200260200182016040528015610d6b578160200160208202803683370190505b5090505f5b82811015610e5c5736868683818110610d8b57610d8b613712565b9050602002810190610d9d919061373f565b90507f30b9a0367528fca13c3e8ec6134c3113f1887ebe7a1ad61de0955aac288b0cf5610dc982610fb9565b610dda610100840160e085016137a8565b610dec610140850161012086016137a8565b6040805160208101959095528401929092526fffffffffffffffffffffffffffffffff908116606084015216608082015260a00160405160208183030381529060405280519060200120838381518110610e4857610e48613712565b602090810291909101015250600101610d70565b50610fae7f42bd57c010b870c2e96203c66341f28a6a19b4d56a74533a8eb5f706b9fd6d5782604051602001610e9291906137c1565b60405160208183030381529060405280519060200120604051602001610ec2929190918252602082015260400190565b60405160208183030381529060405280519060200120604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f6020808301919091527fe03c502b9066cc6f23a8f0f48ed32cb7d506f9f0a2d0055449f256846a770e9a828401527fc89efdaa54c0f20c7adf612882df0950f5a951637e0307cdcb4c672f298b8bc660608301524660808301523060a0808401919091528351808403909101815260c083019384905280519101207f1901000000000000000000000000000000000000000000000000000000000000835260c282015260e201919091526042902090565b925050505b92915050565b5f610fb37f1c9a06ceab9b0ebbd3301dc56c9111bb6d9af421356dc9ccb3b7084c755db30883604051602001610ec29291906137f6565b5f6060808280808346308380604051908082528060200260200182016040528015611025578160200160208202803683370190505b50604080518082018252601581527f7834303220426174636820536574746c656d656e7400000000000000000000006020808301919091528251808401909352600183527f3100000000000000000000000000000000000000000000000000000000000000908301527f0f000000000000000000000000000000000000000000000000000000000000009d909c50909a50939850919650945092509050565b604080517f1e1bd6ff84c3e0d9029a292b212e039c0ca97ec497c55191a4a5874294609a6960208201529081018390526fffffffffffffffffffffffffffffffff821660608201525f9061111a90608001610ec2565b9392505050565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c801561117c576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d73ffffffffffffffffffffffffffffffffffffffff8085165f908152600360209081526040808320938716835292905290812080549091906111ea906fffffffffffffffffffffffffffffffff700100000000000000000000000000000000820481169116613504565b9050806fffffffffffffffffffffffffffffffff165f0361120c5750506112c5565b81546fffffffffffffffffffffffffffffffff908116700100000000000000000000000000000000810217835561125e9073ffffffffffffffffffffffffffffffffffffffff87169088908416612659565b6040516fffffffffffffffffffffffffffffffff82168152339073ffffffffffffffffffffffffffffffffffffffff87811691908916907f7337b4386b690fdb8ba66905b92b9d45d33bc6626ee2620c905fb150ec0cc47d9060200160405180910390a450505b5f825d50505050565b604080515f8152602081019091526060908267ffffffffffffffff8111156112f8576112f861377b565b60405190808252806020026020018201604052801561132b57816020015b60608152602001906001900390816113165790505b5091505f5b838110156113ac576113873086868481811061134e5761134e613712565b9050602002810190611360919061380b565b8560405160200161137393929190613883565b6040516020818303038152906040526126eb565b83828151811061139957611399613712565b6020908102919091010152600101611330565b505092915050565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c801561140f576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d5f61141d88610fb9565b5f818152600160205260409020549091508614611466576040517f164f1afe00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6114bf61147960808a0160608b01613491565b61148483898b611985565b87878080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061276192505050565b6114f5576040517f8baa579f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6115008882896127da565b505f825d50505050505050565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c8015611568576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d6115796020850185613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff16141580156115ef57506115bf6040850160208601613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff1614155b15611626576040517fea3a9a3900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b826fffffffffffffffffffffffffffffffff165f03611671576040517fd0d04f6000000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f61167b85610fb9565b5f818152600260205260409020805491925090700100000000000000000000000000000000900464ffffffffff16156116e0576040517fa2aed0f000000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8281526020819052604090208054611721906fffffffffffffffffffffffffffffffff700100000000000000000000000000000000820481169116613504565b6fffffffffffffffffffffffffffffffff16866fffffffffffffffffffffffffffffffff16111561177e576040517f6d3d576400000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b815464ffffffffff42908116700100000000000000000000000000000000027fffffffffffffffffffffff0000000000000000000000000000000000000000009092166fffffffffffffffffffffffffffffffff891617919091178355837fe4280d0d903c7f258f62b07c62f262377cbaa23f7791d78126e6446e0f0e3c238861180e60c08c0160a08d016134be565b6118189085613898565b604080516fffffffffffffffffffffffffffffffff909316835264ffffffffff90911660208301520160405180910390a2505050505f825d50505050565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c80156118b1576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d6118c56060850160408601613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff161415801561193b575061190b6080850160608601613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff1614155b15611972576040517f7864f00800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6112c58461197f86610fb9565b856127da565b604080517fbe23ad087435072cd69b49cc5b92de10ee610fce7ae0ab428307972d764bb2166020820152908101849052606081018390526fffffffffffffffffffffffffffffffff821660808201525f906119e29060a001610ec2565b949350505050565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c8015611a45576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d845f819003611a84576040517fc2e5347d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f87875f818110611a9757611a97613712565b9050602002810190611aa9919061373f565b611aba906080810190606001613491565b90505f8267ffffffffffffffff811115611ad657611ad661377b565b604051908082528060200260200182016040528015611aff578160200160208202803683370190505b5090505f8367ffffffffffffffff811115611b1c57611b1c61377b565b604051908082528060200260200182016040528015611b45578160200160208202803683370190505b5090505f5b84811015611ccd57368b8b83818110611b6557611b65613712565b9050602002810190611b77919061373f565b905073ffffffffffffffffffffffffffffffffffffffff8516611ba06080830160608401613491565b73ffffffffffffffffffffffffffffffffffffffff1614611bed576040517ff5e2237d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f611bf782610fb9565b905080858481518110611c0c57611c0c613712565b60209081029190910101527f30b9a0367528fca13c3e8ec6134c3113f1887ebe7a1ad61de0955aac288b0cf581611c4a610100850160e086016137a8565b611c5c610140860161012087016137a8565b6040805160208101959095528401929092526fffffffffffffffffffffffffffffffff908116606084015216608082015260a00160405160208183030381529060405280519060200120848481518110611cb857611cb8613712565b60209081029190910101525050600101611b4a565b505f611d047f42bd57c010b870c2e96203c66341f28a6a19b4d56a74533a8eb5f706b9fd6d5783604051602001610e9291906137c1565b9050611d4684828b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061276192505050565b611d7c576040517f8baa579f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f5b85811015611dd457611dcc8c8c83818110611d9b57611d9b613712565b9050602002810190611dad919061373f565b858381518110611dbf57611dbf613712565b602002602001015161220d565b600101611d7e565b5050505050505f825d505050505050565b7f3596da1dfa53dd06eb6910a7a1d3101e540701301b073821caf450efa82ec3d8805c8015611e40576040517f3ee5aeb500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6001825d611e516020840184613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff1614158015611ec75750611e976040840160208501613491565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff1614155b15611efe576040517f15f969d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f611f0884610fb9565b5f8181526002602090815260408083208151808301909252546fffffffffffffffffffffffffffffffff81168252700100000000000000000000000000000000900464ffffffffff169181018290529293509003611f92576040517f3a0a1ca600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b611fa260c0860160a087016134be565b64ffffffffff16816020015164ffffffffff16611fbf9190613611565b421015611ff8576040517ff396582700000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f82815260026020908152604080832080547fffffffffffffffffffffff000000000000000000000000000000000000000000169055908290528120825181549192916120779190612072906fffffffffffffffffffffffffffffffff700100000000000000000000000000000000820481169116613504565b612ae9565b82549091505f9061209b9083906fffffffffffffffffffffffffffffffff16613504565b83547fffffffffffffffffffffffffffffffff00000000000000000000000000000000166fffffffffffffffffffffffffffffffff8281169190911785556040519084168152909150339086907f546ce1e2242cd930c196bd08b894443562d709b4fffe4f028a75a6d233efc6e39060200160405180910390a36fffffffffffffffffffffffffffffffff811615801561215a5750825470010000000000000000000000000000000090046fffffffffffffffffffffffffffffffff16155b1561219857847f8d5942f197f362dfd44dfdc1b0b7a9721c9151b67f55817c83349271d3c08d378960405161218f9190613704565b60405180910390a25b6fffffffffffffffffffffffffffffffff821615612200576122006121c060208a018a613491565b6fffffffffffffffffffffffffffffffff84166121e360a08c0160808d01613491565b73ffffffffffffffffffffffffffffffffffffffff169190612659565b50505050505f825d505050565b5f818152602081905260408120805490917001000000000000000000000000000000009091046fffffffffffffffffffffffffffffffff1690612258610140860161012087016137a8565b9050816fffffffffffffffffffffffffffffffff16816fffffffffffffffffffffffffffffffff161161228c575050505050565b61229d610100860160e087016137a8565b6fffffffffffffffffffffffffffffffff16816fffffffffffffffffffffffffffffffff1611156122fa576040517ff178977500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b82546fffffffffffffffffffffffffffffffff908116908216111561234b576040517f7d8242b600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b845f6123628661035c610100850160e086016137a8565b90505f806123766040850160208601613491565b73ffffffffffffffffffffffffffffffffffffffff1614612447575f806123de846123a56101008d018d61380b565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92019190915250612b2292505050565b5090925090505f8160038111156123f7576123f76138b5565b14801561243e575061240f6040860160208701613491565b73ffffffffffffffffffffffffffffffffffffffff168273ffffffffffffffffffffffffffffffffffffffff16145b925050506124a2565b61249f6124576020850185613491565b836124666101008c018c61380b565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061276192505050565b90505b806124d9576040517f8baa579f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f6124e48686613504565b87546fffffffffffffffffffffffffffffffff80881670010000000000000000000000000000000002911617885590508060035f6125286060880160408901613491565b73ffffffffffffffffffffffffffffffffffffffff16815260208101919091526040015f9081209061256060a0880160808901613491565b73ffffffffffffffffffffffffffffffffffffffff16815260208101919091526040015f90812080549091906125a99084906fffffffffffffffffffffffffffffffff1661352c565b92506101000a8154816fffffffffffffffffffffffffffffffff02191690836fffffffffffffffffffffffffffffffff1602179055503373ffffffffffffffffffffffffffffffffffffffff16887f36bd546bb573e8921fdbfd934bbed62d872796b01792cd240cce27f79dd3eddd83886040516126469291906fffffffffffffffffffffffffffffffff92831681529116602082015260400190565b60405180910390a3505050505050505050565b6040805173ffffffffffffffffffffffffffffffffffffffff8416602482015260448082018490528251808303909101815260649091019091526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fa9059cbb000000000000000000000000000000000000000000000000000000001790526126e6908490612b6b565b505050565b60605f5f8473ffffffffffffffffffffffffffffffffffffffff168460405161271491906138e2565b5f60405180830381855af49150503d805f811461274c576040519150601f19603f3d011682016040523d82523d5f602084013e612751565b606091505b5091509150610fae858383612c04565b5f5f5f61276e8585612b22565b5090925090505f816003811115612787576127876138b5565b1480156127bf57508573ffffffffffffffffffffffffffffffffffffffff168273ffffffffffffffffffffffffffffffffffffffff16145b806127d057506127d0868686612c93565b9695505050505050565b806fffffffffffffffffffffffffffffffff165f03612825576040517fd758525c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f82815260016020818152604080842080549093019092558290528120805490919061287f908490612072906fffffffffffffffffffffffffffffffff700100000000000000000000000000000000820481169116613504565b9050806fffffffffffffffffffffffffffffffff165f036128a1575050505050565b81545f906128c29083906fffffffffffffffffffffffffffffffff16613504565b83547fffffffffffffffffffffffffffffffff00000000000000000000000000000000166fffffffffffffffffffffffffffffffff82161784555f868152600260205260409020805491925090700100000000000000000000000000000000900464ffffffffff16156129e15780546fffffffffffffffffffffffffffffffff90811690841610612985575f86815260026020526040902080547fffffffffffffffffffffff0000000000000000000000000000000000000000001690556129e1565b8054839082905f906129aa9084906fffffffffffffffffffffffffffffffff16613504565b92506101000a8154816fffffffffffffffffffffffffffffffff02191690836fffffffffffffffffffffffffffffffff1602179055505b6040516fffffffffffffffffffffffffffffffff84168152339087907fa84286cf8ebc7903a663c77c8d99aa92b600d4c2fcca872a5d4a663db4eb394b9060200160405180910390a36fffffffffffffffffffffffffffffffff8216158015612a6f5750835470010000000000000000000000000000000090046fffffffffffffffffffffffffffffffff16155b15612aad57857f8d5942f197f362dfd44dfdc1b0b7a9721c9151b67f55817c83349271d3c08d3788604051612aa49190613704565b60405180910390a25b612ae0612abd6020890189613491565b6fffffffffffffffffffffffffffffffff85166121e360a08b0160808c01613491565b50505050505050565b5f816fffffffffffffffffffffffffffffffff16836fffffffffffffffffffffffffffffffff1610612b1b578161111a565b5090919050565b5f5f5f8351604103612b59576020840151604085015160608601515f1a612b4b88828585612ddb565b955095509550505050612b64565b505081515f91506002905b9250925092565b5f612b8c73ffffffffffffffffffffffffffffffffffffffff841683612ece565b905080515f14158015612bb0575080806020019051810190612bae91906138ed565b155b156126e6576040517f5274afe700000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff841660048201526024015b60405180910390fd5b606082612c1957612c1482612edb565b61111a565b8151158015612c3d575073ffffffffffffffffffffffffffffffffffffffff84163b155b15612c8c576040517f9996b31500000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff85166004820152602401612bfb565b508061111a565b5f5f5f8573ffffffffffffffffffffffffffffffffffffffff168585604051602401612cc092919061390c565b604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe08184030181529181526020820180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167f1626ba7e0000000000000000000000000000000000000000000000000000000017905251612d4191906138e2565b5f60405180830381855afa9150503d805f8114612d79576040519150601f19603f3d011682016040523d82523d5f602084013e612d7e565b606091505b5091509150818015612d9257506020815110155b80156127d0575080517f1626ba7e0000000000000000000000000000000000000000000000000000000090612dd09083016020908101908401613554565b149695505050505050565b5f80807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0841115612e1457505f91506003905082612ec4565b604080515f808252602082018084528a905260ff891692820192909252606081018790526080810186905260019060a0016020604051602081039080840390855afa158015612e65573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff8116612ebb57505f925060019150829050612ec4565b92505f91508190505b9450945094915050565b606061111a83835f612f1d565b805115612eeb5780518082602001fd5b6040517f1425ea4200000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b606081471015612f5b576040517fcd786059000000000000000000000000000000000000000000000000000000008152306004820152602401612bfb565b5f5f8573ffffffffffffffffffffffffffffffffffffffff168486604051612f8391906138e2565b5f6040518083038185875af1925050503d805f8114612fbd576040519150601f19603f3d011682016040523d82523d5f602084013e612fc2565b606091505b50915091506127d0868383612c04565b5f60e08284031215612fe2575f5ffd5b50919050565b80356fffffffffffffffffffffffffffffffff81168114613007575f5ffd5b919050565b803573ffffffffffffffffffffffffffffffffffffffff81168114613007575f5ffd5b5f5f83601f84011261303f575f5ffd5b50813567ffffffffffffffff811115613056575f5ffd5b60208301915083602082850101111561306d575f5ffd5b9250929050565b5f5f5f5f5f6101408688031215613089575f5ffd5b6130938787612fd2565b94506130a160e08701612fe8565b93506130b0610100870161300c565b925061012086013567ffffffffffffffff8111156130cc575f5ffd5b6130d88882890161302f565b969995985093965092949392505050565b5f5f604083850312156130fa575f5ffd5b6131038361300c565b91506131116020840161300c565b90509250929050565b5f5f83601f84011261312a575f5ffd5b50813567ffffffffffffffff811115613141575f5ffd5b6020830191508360208260051b850101111561306d575f5ffd5b5f5f6020838503121561316c575f5ffd5b823567ffffffffffffffff811115613182575f5ffd5b61318e8582860161311a565b90969095509350505050565b5f60e082840312156131aa575f5ffd5b61111a8383612fd2565b5f602082840312156131c4575f5ffd5b5035919050565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b7fff000000000000000000000000000000000000000000000000000000000000008816815260e060208201525f61325160e08301896131cb565b828103604084015261326381896131cb565b6060840188905273ffffffffffffffffffffffffffffffffffffffff8716608085015260a0840186905283810360c0850152845180825260208087019350909101905f5b818110156132c55783518352602093840193909201916001016132a7565b50909b9a5050505050505050505050565b5f5f604083850312156132e7575f5ffd5b8235915061311160208401612fe8565b5f602082016020835280845180835260408501915060408160051b8601019250602086015f5b8281101561336c577fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc08786030184526133578583516131cb565b9450602093840193919091019060010161331d565b50929695505050505050565b5f5f5f5f5f610140868803121561338d575f5ffd5b6133978787612fd2565b94506133a560e08701612fe8565b9350610100860135925061012086013567ffffffffffffffff8111156130cc575f5ffd5b5f5f61010083850312156133db575f5ffd5b6133e58484612fd2565b915061311160e08401612fe8565b5f5f5f60608486031215613405575f5ffd5b833592506020840135915061341c60408501612fe8565b90509250925092565b5f5f5f5f60408587031215613438575f5ffd5b843567ffffffffffffffff81111561344e575f5ffd5b61345a8782880161311a565b909550935050602085013567ffffffffffffffff811115613479575f5ffd5b6134858782880161302f565b95989497509550505050565b5f602082840312156134a1575f5ffd5b61111a8261300c565b803564ffffffffff81168114613007575f5ffd5b5f602082840312156134ce575f5ffd5b61111a826134aa565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b6fffffffffffffffffffffffffffffffff8281168282160390811115610fb357610fb36134d7565b6fffffffffffffffffffffffffffffffff8181168382160190811115610fb357610fb36134d7565b5f60208284031215613564575f5ffd5b5051919050565b73ffffffffffffffffffffffffffffffffffffffff8716815273ffffffffffffffffffffffffffffffffffffffff861660208201526fffffffffffffffffffffffffffffffff8516604082015283606082015260a060808201528160a0820152818360c08301375f81830160c090810191909152601f9092017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe016010195945050505050565b80820180821115610fb357610fb36134d7565b73ffffffffffffffffffffffffffffffffffffffff6136428261300c565b16825273ffffffffffffffffffffffffffffffffffffffff6136666020830161300c565b16602083015273ffffffffffffffffffffffffffffffffffffffff61368d6040830161300c565b16604083015273ffffffffffffffffffffffffffffffffffffffff6136b46060830161300c565b16606083015273ffffffffffffffffffffffffffffffffffffffff6136db6080830161300c565b1660808301526136ed60a082016134aa565b64ffffffffff1660a083015260c090810135910152565b60e08101610fb38284613624565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f82357ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec1833603018112613771575f5ffd5b9190910192915050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b5f602082840312156137b8575f5ffd5b61111a82612fe8565b81515f90829060208501835b828110156137eb5781518452602093840193909101906001016137cd565b509195945050505050565b828152610100810161111a6020830184613624565b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe184360301811261383e575f5ffd5b83018035915067ffffffffffffffff821115613858575f5ffd5b60200191503681900382131561306d575f5ffd5b5f81518060208401855e5f93019283525090919050565b828482375f8382015f81526127d0818561386c565b64ffffffffff8181168382160190811115610fb357610fb36134d7565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b5f61111a828461386c565b5f602082840312156138fd575f5ffd5b8151801515811461111a575f5ffd5b828152604060208201525f6119e260408301846131cb56fea2646970667358221220aecbd856332defedd3368c79ea672d2222301e5f25152b66b29489521306f30164736f6c63430008250033",
}

// X402BatchSettlement is an auto generated Go binding around an Ethereum contract.
type X402BatchSettlement struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *X402BatchSettlement) GetABI() abi.ABI {
	return c.abi
}

// NewX402BatchSettlement creates a new instance of X402BatchSettlement.
func NewX402BatchSettlement() *X402BatchSettlement {
	parsed, err := X402BatchSettlementMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &X402BatchSettlement{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *X402BatchSettlement) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackCHANNELCONFIGTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8e4a68ac.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CHANNEL_CONFIG_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackCHANNELCONFIGTYPEHASH() []byte {
	enc, err := x402BatchSettlement.abi.Pack("CHANNEL_CONFIG_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCHANNELCONFIGTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8e4a68ac.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CHANNEL_CONFIG_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackCHANNELCONFIGTYPEHASH() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("CHANNEL_CONFIG_TYPEHASH")
}

// UnpackCHANNELCONFIGTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8e4a68ac.
//
// Solidity: function CHANNEL_CONFIG_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackCHANNELCONFIGTYPEHASH(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("CHANNEL_CONFIG_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackCLAIMBATCHTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x53ab0fae.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CLAIM_BATCH_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackCLAIMBATCHTYPEHASH() []byte {
	enc, err := x402BatchSettlement.abi.Pack("CLAIM_BATCH_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCLAIMBATCHTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x53ab0fae.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CLAIM_BATCH_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackCLAIMBATCHTYPEHASH() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("CLAIM_BATCH_TYPEHASH")
}

// UnpackCLAIMBATCHTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x53ab0fae.
//
// Solidity: function CLAIM_BATCH_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackCLAIMBATCHTYPEHASH(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("CLAIM_BATCH_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackCLAIMENTRYTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba94ec0d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CLAIM_ENTRY_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackCLAIMENTRYTYPEHASH() []byte {
	enc, err := x402BatchSettlement.abi.Pack("CLAIM_ENTRY_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCLAIMENTRYTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba94ec0d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CLAIM_ENTRY_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackCLAIMENTRYTYPEHASH() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("CLAIM_ENTRY_TYPEHASH")
}

// UnpackCLAIMENTRYTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xba94ec0d.
//
// Solidity: function CLAIM_ENTRY_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackCLAIMENTRYTYPEHASH(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("CLAIM_ENTRY_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackMAXWITHDRAWDELAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1fc3277d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_WITHDRAW_DELAY() view returns(uint40)
func (x402BatchSettlement *X402BatchSettlement) PackMAXWITHDRAWDELAY() []byte {
	enc, err := x402BatchSettlement.abi.Pack("MAX_WITHDRAW_DELAY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXWITHDRAWDELAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1fc3277d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_WITHDRAW_DELAY() view returns(uint40)
func (x402BatchSettlement *X402BatchSettlement) TryPackMAXWITHDRAWDELAY() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("MAX_WITHDRAW_DELAY")
}

// UnpackMAXWITHDRAWDELAY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1fc3277d.
//
// Solidity: function MAX_WITHDRAW_DELAY() view returns(uint40)
func (x402BatchSettlement *X402BatchSettlement) UnpackMAXWITHDRAWDELAY(data []byte) (*big.Int, error) {
	out, err := x402BatchSettlement.abi.Unpack("MAX_WITHDRAW_DELAY", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMINWITHDRAWDELAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xae159439.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MIN_WITHDRAW_DELAY() view returns(uint40)
func (x402BatchSettlement *X402BatchSettlement) PackMINWITHDRAWDELAY() []byte {
	enc, err := x402BatchSettlement.abi.Pack("MIN_WITHDRAW_DELAY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMINWITHDRAWDELAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xae159439.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MIN_WITHDRAW_DELAY() view returns(uint40)
func (x402BatchSettlement *X402BatchSettlement) TryPackMINWITHDRAWDELAY() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("MIN_WITHDRAW_DELAY")
}

// UnpackMINWITHDRAWDELAY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xae159439.
//
// Solidity: function MIN_WITHDRAW_DELAY() view returns(uint40)
func (x402BatchSettlement *X402BatchSettlement) UnpackMINWITHDRAWDELAY(data []byte) (*big.Int, error) {
	out, err := x402BatchSettlement.abi.Unpack("MIN_WITHDRAW_DELAY", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackREFUNDTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1e69ef40.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function REFUND_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackREFUNDTYPEHASH() []byte {
	enc, err := x402BatchSettlement.abi.Pack("REFUND_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackREFUNDTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1e69ef40.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function REFUND_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackREFUNDTYPEHASH() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("REFUND_TYPEHASH")
}

// UnpackREFUNDTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1e69ef40.
//
// Solidity: function REFUND_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackREFUNDTYPEHASH(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("REFUND_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackVOUCHERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94739e87.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function VOUCHER_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackVOUCHERTYPEHASH() []byte {
	enc, err := x402BatchSettlement.abi.Pack("VOUCHER_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVOUCHERTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94739e87.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function VOUCHER_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackVOUCHERTYPEHASH() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("VOUCHER_TYPEHASH")
}

// UnpackVOUCHERTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x94739e87.
//
// Solidity: function VOUCHER_TYPEHASH() view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackVOUCHERTYPEHASH(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("VOUCHER_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackChannels is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7a7ebd7b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function channels(bytes32 channelId) view returns(uint128 balance, uint128 totalClaimed)
func (x402BatchSettlement *X402BatchSettlement) PackChannels(channelId [32]byte) []byte {
	enc, err := x402BatchSettlement.abi.Pack("channels", channelId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackChannels is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7a7ebd7b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function channels(bytes32 channelId) view returns(uint128 balance, uint128 totalClaimed)
func (x402BatchSettlement *X402BatchSettlement) TryPackChannels(channelId [32]byte) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("channels", channelId)
}

// ChannelsOutput serves as a container for the return parameters of contract
// method Channels.
type ChannelsOutput struct {
	Balance      *big.Int
	TotalClaimed *big.Int
}

// UnpackChannels is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7a7ebd7b.
//
// Solidity: function channels(bytes32 channelId) view returns(uint128 balance, uint128 totalClaimed)
func (x402BatchSettlement *X402BatchSettlement) UnpackChannels(data []byte) (ChannelsOutput, error) {
	out, err := x402BatchSettlement.abi.Unpack("channels", data)
	outstruct := new(ChannelsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Balance = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.TotalClaimed = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackClaim is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x29237b0c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function claim((((address,address,address,address,address,uint40,bytes32),uint128),bytes,uint128)[] voucherClaims) returns()
func (x402BatchSettlement *X402BatchSettlement) PackClaim(voucherClaims []X402BatchSettlementVoucherClaim) []byte {
	enc, err := x402BatchSettlement.abi.Pack("claim", voucherClaims)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackClaim is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x29237b0c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function claim((((address,address,address,address,address,uint40,bytes32),uint128),bytes,uint128)[] voucherClaims) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackClaim(voucherClaims []X402BatchSettlementVoucherClaim) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("claim", voucherClaims)
}

// PackClaimWithSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe43ce1f2.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function claimWithSignature((((address,address,address,address,address,uint40,bytes32),uint128),bytes,uint128)[] voucherClaims, bytes authorizerSignature) returns()
func (x402BatchSettlement *X402BatchSettlement) PackClaimWithSignature(voucherClaims []X402BatchSettlementVoucherClaim, authorizerSignature []byte) []byte {
	enc, err := x402BatchSettlement.abi.Pack("claimWithSignature", voucherClaims, authorizerSignature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackClaimWithSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe43ce1f2.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function claimWithSignature((((address,address,address,address,address,uint40,bytes32),uint128),bytes,uint128)[] voucherClaims, bytes authorizerSignature) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackClaimWithSignature(voucherClaims []X402BatchSettlementVoucherClaim, authorizerSignature []byte) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("claimWithSignature", voucherClaims, authorizerSignature)
}

// PackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x140f1e75.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deposit((address,address,address,address,address,uint40,bytes32) config, uint128 amount, address collector, bytes collectorData) returns()
func (x402BatchSettlement *X402BatchSettlement) PackDeposit(config X402BatchSettlementChannelConfig, amount *big.Int, collector common.Address, collectorData []byte) []byte {
	enc, err := x402BatchSettlement.abi.Pack("deposit", config, amount, collector, collectorData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x140f1e75.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deposit((address,address,address,address,address,uint40,bytes32) config, uint128 amount, address collector, bytes collectorData) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackDeposit(config X402BatchSettlementChannelConfig, amount *big.Int, collector common.Address, collectorData []byte) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("deposit", config, amount, collector, collectorData)
}

// PackEip712Domain is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x84b0196e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function eip712Domain() view returns(bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)
func (x402BatchSettlement *X402BatchSettlement) PackEip712Domain() []byte {
	enc, err := x402BatchSettlement.abi.Pack("eip712Domain")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEip712Domain is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x84b0196e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function eip712Domain() view returns(bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)
func (x402BatchSettlement *X402BatchSettlement) TryPackEip712Domain() ([]byte, error) {
	return x402BatchSettlement.abi.Pack("eip712Domain")
}

// Eip712DomainOutput serves as a container for the return parameters of contract
// method Eip712Domain.
type Eip712DomainOutput struct {
	Fields            [1]byte
	Name              string
	Version           string
	ChainId           *big.Int
	VerifyingContract common.Address
	Salt              [32]byte
	Extensions        []*big.Int
}

// UnpackEip712Domain is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x84b0196e.
//
// Solidity: function eip712Domain() view returns(bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)
func (x402BatchSettlement *X402BatchSettlement) UnpackEip712Domain(data []byte) (Eip712DomainOutput, error) {
	out, err := x402BatchSettlement.abi.Unpack("eip712Domain", data)
	outstruct := new(Eip712DomainOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Fields = *abi.ConvertType(out[0], new([1]byte)).(*[1]byte)
	outstruct.Name = *abi.ConvertType(out[1], new(string)).(*string)
	outstruct.Version = *abi.ConvertType(out[2], new(string)).(*string)
	outstruct.ChainId = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.VerifyingContract = *abi.ConvertType(out[4], new(common.Address)).(*common.Address)
	outstruct.Salt = *abi.ConvertType(out[5], new([32]byte)).(*[32]byte)
	outstruct.Extensions = *abi.ConvertType(out[6], new([]*big.Int)).(*[]*big.Int)
	return *outstruct, nil
}

// PackFinalizeWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe88377b1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function finalizeWithdraw((address,address,address,address,address,uint40,bytes32) config) returns()
func (x402BatchSettlement *X402BatchSettlement) PackFinalizeWithdraw(config X402BatchSettlementChannelConfig) []byte {
	enc, err := x402BatchSettlement.abi.Pack("finalizeWithdraw", config)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFinalizeWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe88377b1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function finalizeWithdraw((address,address,address,address,address,uint40,bytes32) config) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackFinalizeWithdraw(config X402BatchSettlementChannelConfig) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("finalizeWithdraw", config)
}

// PackGetChannelId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5e5e0b87.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getChannelId((address,address,address,address,address,uint40,bytes32) config) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackGetChannelId(config X402BatchSettlementChannelConfig) []byte {
	enc, err := x402BatchSettlement.abi.Pack("getChannelId", config)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetChannelId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5e5e0b87.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getChannelId((address,address,address,address,address,uint40,bytes32) config) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackGetChannelId(config X402BatchSettlementChannelConfig) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("getChannelId", config)
}

// UnpackGetChannelId is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5e5e0b87.
//
// Solidity: function getChannelId((address,address,address,address,address,uint40,bytes32) config) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackGetChannelId(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("getChannelId", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGetClaimBatchDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x488ccc3b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getClaimBatchDigest((((address,address,address,address,address,uint40,bytes32),uint128),bytes,uint128)[] voucherClaims) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackGetClaimBatchDigest(voucherClaims []X402BatchSettlementVoucherClaim) []byte {
	enc, err := x402BatchSettlement.abi.Pack("getClaimBatchDigest", voucherClaims)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetClaimBatchDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x488ccc3b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getClaimBatchDigest((((address,address,address,address,address,uint40,bytes32),uint128),bytes,uint128)[] voucherClaims) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackGetClaimBatchDigest(voucherClaims []X402BatchSettlementVoucherClaim) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("getClaimBatchDigest", voucherClaims)
}

// UnpackGetClaimBatchDigest is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x488ccc3b.
//
// Solidity: function getClaimBatchDigest((((address,address,address,address,address,uint40,bytes32),uint128),bytes,uint128)[] voucherClaims) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackGetClaimBatchDigest(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("getClaimBatchDigest", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGetRefundDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe25cf189.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackGetRefundDigest(channelId [32]byte, nonce *big.Int, amount *big.Int) []byte {
	enc, err := x402BatchSettlement.abi.Pack("getRefundDigest", channelId, nonce, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetRefundDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe25cf189.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackGetRefundDigest(channelId [32]byte, nonce *big.Int, amount *big.Int) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("getRefundDigest", channelId, nonce, amount)
}

// UnpackGetRefundDigest is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe25cf189.
//
// Solidity: function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackGetRefundDigest(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("getRefundDigest", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackGetVoucherDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x862bb199.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) PackGetVoucherDigest(channelId [32]byte, maxClaimableAmount *big.Int) []byte {
	enc, err := x402BatchSettlement.abi.Pack("getVoucherDigest", channelId, maxClaimableAmount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetVoucherDigest is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x862bb199.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) TryPackGetVoucherDigest(channelId [32]byte, maxClaimableAmount *big.Int) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("getVoucherDigest", channelId, maxClaimableAmount)
}

// UnpackGetVoucherDigest is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x862bb199.
//
// Solidity: function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) view returns(bytes32)
func (x402BatchSettlement *X402BatchSettlement) UnpackGetVoucherDigest(data []byte) ([32]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("getVoucherDigest", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackInitiateWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcf5cf3dc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function initiateWithdraw((address,address,address,address,address,uint40,bytes32) config, uint128 amount) returns()
func (x402BatchSettlement *X402BatchSettlement) PackInitiateWithdraw(config X402BatchSettlementChannelConfig, amount *big.Int) []byte {
	enc, err := x402BatchSettlement.abi.Pack("initiateWithdraw", config, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackInitiateWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcf5cf3dc.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function initiateWithdraw((address,address,address,address,address,uint40,bytes32) config, uint128 amount) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackInitiateWithdraw(config X402BatchSettlementChannelConfig, amount *big.Int) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("initiateWithdraw", config, amount)
}

// PackMulticall is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xac9650d8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function multicall(bytes[] data) returns(bytes[] results)
func (x402BatchSettlement *X402BatchSettlement) PackMulticall(data [][]byte) []byte {
	enc, err := x402BatchSettlement.abi.Pack("multicall", data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMulticall is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xac9650d8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function multicall(bytes[] data) returns(bytes[] results)
func (x402BatchSettlement *X402BatchSettlement) TryPackMulticall(data [][]byte) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("multicall", data)
}

// UnpackMulticall is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xac9650d8.
//
// Solidity: function multicall(bytes[] data) returns(bytes[] results)
func (x402BatchSettlement *X402BatchSettlement) UnpackMulticall(data []byte) ([][]byte, error) {
	out, err := x402BatchSettlement.abi.Unpack("multicall", data)
	if err != nil {
		return *new([][]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([][]byte)).(*[][]byte)
	return out0, nil
}

// PackPendingWithdrawals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb7f06ebe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pendingWithdrawals(bytes32 channelId) view returns(uint128 amount, uint40 initiatedAt)
func (x402BatchSettlement *X402BatchSettlement) PackPendingWithdrawals(channelId [32]byte) []byte {
	enc, err := x402BatchSettlement.abi.Pack("pendingWithdrawals", channelId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPendingWithdrawals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb7f06ebe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pendingWithdrawals(bytes32 channelId) view returns(uint128 amount, uint40 initiatedAt)
func (x402BatchSettlement *X402BatchSettlement) TryPackPendingWithdrawals(channelId [32]byte) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("pendingWithdrawals", channelId)
}

// PendingWithdrawalsOutput serves as a container for the return parameters of contract
// method PendingWithdrawals.
type PendingWithdrawalsOutput struct {
	Amount      *big.Int
	InitiatedAt *big.Int
}

// UnpackPendingWithdrawals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb7f06ebe.
//
// Solidity: function pendingWithdrawals(bytes32 channelId) view returns(uint128 amount, uint40 initiatedAt)
func (x402BatchSettlement *X402BatchSettlement) UnpackPendingWithdrawals(data []byte) (PendingWithdrawalsOutput, error) {
	out, err := x402BatchSettlement.abi.Unpack("pendingWithdrawals", data)
	outstruct := new(PendingWithdrawalsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Amount = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.InitiatedAt = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackReceivers is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x21ff6389.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function receivers(address receiver, address token) view returns(uint128 totalClaimed, uint128 totalSettled)
func (x402BatchSettlement *X402BatchSettlement) PackReceivers(receiver common.Address, token common.Address) []byte {
	enc, err := x402BatchSettlement.abi.Pack("receivers", receiver, token)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReceivers is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x21ff6389.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function receivers(address receiver, address token) view returns(uint128 totalClaimed, uint128 totalSettled)
func (x402BatchSettlement *X402BatchSettlement) TryPackReceivers(receiver common.Address, token common.Address) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("receivers", receiver, token)
}

// ReceiversOutput serves as a container for the return parameters of contract
// method Receivers.
type ReceiversOutput struct {
	TotalClaimed *big.Int
	TotalSettled *big.Int
}

// UnpackReceivers is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x21ff6389.
//
// Solidity: function receivers(address receiver, address token) view returns(uint128 totalClaimed, uint128 totalSettled)
func (x402BatchSettlement *X402BatchSettlement) UnpackReceivers(data []byte) (ReceiversOutput, error) {
	out, err := x402BatchSettlement.abi.Unpack("receivers", data)
	outstruct := new(ReceiversOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.TotalClaimed = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.TotalSettled = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdce4bfae.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refund((address,address,address,address,address,uint40,bytes32) config, uint128 amount) returns()
func (x402BatchSettlement *X402BatchSettlement) PackRefund(config X402BatchSettlementChannelConfig, amount *big.Int) []byte {
	enc, err := x402BatchSettlement.abi.Pack("refund", config, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefund is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdce4bfae.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refund((address,address,address,address,address,uint40,bytes32) config, uint128 amount) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackRefund(config X402BatchSettlementChannelConfig, amount *big.Int) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("refund", config, amount)
}

// PackRefundNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf0dc792e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refundNonce(bytes32 channelId) view returns(uint256)
func (x402BatchSettlement *X402BatchSettlement) PackRefundNonce(channelId [32]byte) []byte {
	enc, err := x402BatchSettlement.abi.Pack("refundNonce", channelId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefundNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf0dc792e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refundNonce(bytes32 channelId) view returns(uint256)
func (x402BatchSettlement *X402BatchSettlement) TryPackRefundNonce(channelId [32]byte) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("refundNonce", channelId)
}

// UnpackRefundNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf0dc792e.
//
// Solidity: function refundNonce(bytes32 channelId) view returns(uint256)
func (x402BatchSettlement *X402BatchSettlement) UnpackRefundNonce(data []byte) (*big.Int, error) {
	out, err := x402BatchSettlement.abi.Unpack("refundNonce", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRefundWithSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb77433e9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function refundWithSignature((address,address,address,address,address,uint40,bytes32) config, uint128 amount, uint256 nonce, bytes receiverAuthorizerSignature) returns()
func (x402BatchSettlement *X402BatchSettlement) PackRefundWithSignature(config X402BatchSettlementChannelConfig, amount *big.Int, nonce *big.Int, receiverAuthorizerSignature []byte) []byte {
	enc, err := x402BatchSettlement.abi.Pack("refundWithSignature", config, amount, nonce, receiverAuthorizerSignature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRefundWithSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb77433e9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function refundWithSignature((address,address,address,address,address,uint40,bytes32) config, uint128 amount, uint256 nonce, bytes receiverAuthorizerSignature) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackRefundWithSignature(config X402BatchSettlementChannelConfig, amount *big.Int, nonce *big.Int, receiverAuthorizerSignature []byte) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("refundWithSignature", config, amount, nonce, receiverAuthorizerSignature)
}

// PackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9db32a8f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settle(address receiver, address token) returns()
func (x402BatchSettlement *X402BatchSettlement) PackSettle(receiver common.Address, token common.Address) []byte {
	enc, err := x402BatchSettlement.abi.Pack("settle", receiver, token)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9db32a8f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settle(address receiver, address token) returns()
func (x402BatchSettlement *X402BatchSettlement) TryPackSettle(receiver common.Address, token common.Address) ([]byte, error) {
	return x402BatchSettlement.abi.Pack("settle", receiver, token)
}

// X402BatchSettlementChannelClosed represents a ChannelClosed event raised by the X402BatchSettlement contract.
type X402BatchSettlementChannelClosed struct {
	ChannelId [32]byte
	Config    X402BatchSettlementChannelConfig
	Raw       *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementChannelClosedEventName = "ChannelClosed"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementChannelClosed) ContractEventName() string {
	return X402BatchSettlementChannelClosedEventName
}

// UnpackChannelClosedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event ChannelClosed(bytes32 indexed channelId, (address,address,address,address,address,uint40,bytes32) config)
func (x402BatchSettlement *X402BatchSettlement) UnpackChannelClosedEvent(log *types.Log) (*X402BatchSettlementChannelClosed, error) {
	event := "ChannelClosed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementChannelClosed)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementChannelCreated represents a ChannelCreated event raised by the X402BatchSettlement contract.
type X402BatchSettlementChannelCreated struct {
	ChannelId [32]byte
	Config    X402BatchSettlementChannelConfig
	Raw       *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementChannelCreatedEventName = "ChannelCreated"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementChannelCreated) ContractEventName() string {
	return X402BatchSettlementChannelCreatedEventName
}

// UnpackChannelCreatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event ChannelCreated(bytes32 indexed channelId, (address,address,address,address,address,uint40,bytes32) config)
func (x402BatchSettlement *X402BatchSettlement) UnpackChannelCreatedEvent(log *types.Log) (*X402BatchSettlementChannelCreated, error) {
	event := "ChannelCreated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementChannelCreated)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementClaimed represents a Claimed event raised by the X402BatchSettlement contract.
type X402BatchSettlementClaimed struct {
	ChannelId       [32]byte
	Sender          common.Address
	ClaimAmount     *big.Int
	NewTotalClaimed *big.Int
	Raw             *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementClaimedEventName = "Claimed"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementClaimed) ContractEventName() string {
	return X402BatchSettlementClaimedEventName
}

// UnpackClaimedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed)
func (x402BatchSettlement *X402BatchSettlement) UnpackClaimedEvent(log *types.Log) (*X402BatchSettlementClaimed, error) {
	event := "Claimed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementClaimed)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementDeposited represents a Deposited event raised by the X402BatchSettlement contract.
type X402BatchSettlementDeposited struct {
	ChannelId  [32]byte
	Sender     common.Address
	Amount     *big.Int
	NewBalance *big.Int
	Raw        *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementDepositedEventName = "Deposited"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementDeposited) ContractEventName() string {
	return X402BatchSettlementDepositedEventName
}

// UnpackDepositedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newBalance)
func (x402BatchSettlement *X402BatchSettlement) UnpackDepositedEvent(log *types.Log) (*X402BatchSettlementDeposited, error) {
	event := "Deposited"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementDeposited)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementEIP712DomainChanged represents a EIP712DomainChanged event raised by the X402BatchSettlement contract.
type X402BatchSettlementEIP712DomainChanged struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementEIP712DomainChangedEventName = "EIP712DomainChanged"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementEIP712DomainChanged) ContractEventName() string {
	return X402BatchSettlementEIP712DomainChangedEventName
}

// UnpackEIP712DomainChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EIP712DomainChanged()
func (x402BatchSettlement *X402BatchSettlement) UnpackEIP712DomainChangedEvent(log *types.Log) (*X402BatchSettlementEIP712DomainChanged, error) {
	event := "EIP712DomainChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementEIP712DomainChanged)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementRefunded represents a Refunded event raised by the X402BatchSettlement contract.
type X402BatchSettlementRefunded struct {
	ChannelId [32]byte
	Sender    common.Address
	Amount    *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementRefundedEventName = "Refunded"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementRefunded) ContractEventName() string {
	return X402BatchSettlementRefundedEventName
}

// UnpackRefundedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount)
func (x402BatchSettlement *X402BatchSettlement) UnpackRefundedEvent(log *types.Log) (*X402BatchSettlementRefunded, error) {
	event := "Refunded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementRefunded)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementSettled represents a Settled event raised by the X402BatchSettlement contract.
type X402BatchSettlementSettled struct {
	Receiver common.Address
	Token    common.Address
	Sender   common.Address
	Amount   *big.Int
	Raw      *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementSettledEventName = "Settled"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementSettled) ContractEventName() string {
	return X402BatchSettlementSettledEventName
}

// UnpackSettledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount)
func (x402BatchSettlement *X402BatchSettlement) UnpackSettledEvent(log *types.Log) (*X402BatchSettlementSettled, error) {
	event := "Settled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementSettled)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementWithdrawFinalized represents a WithdrawFinalized event raised by the X402BatchSettlement contract.
type X402BatchSettlementWithdrawFinalized struct {
	ChannelId [32]byte
	Sender    common.Address
	Amount    *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementWithdrawFinalizedEventName = "WithdrawFinalized"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementWithdrawFinalized) ContractEventName() string {
	return X402BatchSettlementWithdrawFinalizedEventName
}

// UnpackWithdrawFinalizedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WithdrawFinalized(bytes32 indexed channelId, address indexed sender, uint128 amount)
func (x402BatchSettlement *X402BatchSettlement) UnpackWithdrawFinalizedEvent(log *types.Log) (*X402BatchSettlementWithdrawFinalized, error) {
	event := "WithdrawFinalized"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementWithdrawFinalized)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// X402BatchSettlementWithdrawInitiated represents a WithdrawInitiated event raised by the X402BatchSettlement contract.
type X402BatchSettlementWithdrawInitiated struct {
	ChannelId     [32]byte
	Amount        *big.Int
	FinalizeAfter *big.Int
	Raw           *types.Log // Blockchain specific contextual infos
}

const X402BatchSettlementWithdrawInitiatedEventName = "WithdrawInitiated"

// ContractEventName returns the user-defined event name.
func (X402BatchSettlementWithdrawInitiated) ContractEventName() string {
	return X402BatchSettlementWithdrawInitiatedEventName
}

// UnpackWithdrawInitiatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 finalizeAfter)
func (x402BatchSettlement *X402BatchSettlement) UnpackWithdrawInitiatedEvent(log *types.Log) (*X402BatchSettlementWithdrawInitiated, error) {
	event := "WithdrawInitiated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402BatchSettlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchSettlementWithdrawInitiated)
	if len(log.Data) > 0 {
		if err := x402BatchSettlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402BatchSettlement.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (x402BatchSettlement *X402BatchSettlement) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["AddressEmptyCode"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackAddressEmptyCodeError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["AddressInsufficientBalance"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackAddressInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["ClaimExceedsBalance"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackClaimExceedsBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["ClaimExceedsCeiling"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackClaimExceedsCeilingError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["DepositCollectionFailed"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackDepositCollectionFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["DepositOverflow"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackDepositOverflowError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["EmptyBatch"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackEmptyBatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["FailedInnerCall"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackFailedInnerCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["InvalidChannel"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackInvalidChannelError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["InvalidCollector"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackInvalidCollectorError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["InvalidRefundNonce"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackInvalidRefundNonceError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["InvalidSignature"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackInvalidSignatureError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["NotAuthorizedToClaim"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackNotAuthorizedToClaimError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["NotAuthorizedToFinalizeWithdraw"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackNotAuthorizedToFinalizeWithdrawError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["NotAuthorizedToRefund"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackNotAuthorizedToRefundError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["NotReceiverAuthorizer"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackNotReceiverAuthorizerError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["NothingToWithdraw"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackNothingToWithdrawError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["ReentrancyGuardReentrantCall"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackReentrancyGuardReentrantCallError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["SafeERC20FailedOperation"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackSafeERC20FailedOperationError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["WithdrawAmountExceedsAvailable"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackWithdrawAmountExceedsAvailableError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["WithdrawDelayNotElapsed"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackWithdrawDelayNotElapsedError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["WithdrawDelayOutOfRange"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackWithdrawDelayOutOfRangeError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["WithdrawalAlreadyPending"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackWithdrawalAlreadyPendingError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["WithdrawalNotPending"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackWithdrawalNotPendingError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["ZeroDeposit"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackZeroDepositError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402BatchSettlement.abi.Errors["ZeroRefund"].ID.Bytes()[:4]) {
		return x402BatchSettlement.UnpackZeroRefundError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// X402BatchSettlementAddressEmptyCode represents a AddressEmptyCode error raised by the X402BatchSettlement contract.
type X402BatchSettlementAddressEmptyCode struct {
	Target common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AddressEmptyCode(address target)
func X402BatchSettlementAddressEmptyCodeErrorID() common.Hash {
	return common.HexToHash("0x9996b315c842ff135b8fc4a08ad5df1c344efbc03d2687aecc0678050d2aac89")
}

// UnpackAddressEmptyCodeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AddressEmptyCode(address target)
func (x402BatchSettlement *X402BatchSettlement) UnpackAddressEmptyCodeError(raw []byte) (*X402BatchSettlementAddressEmptyCode, error) {
	out := new(X402BatchSettlementAddressEmptyCode)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "AddressEmptyCode", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementAddressInsufficientBalance represents a AddressInsufficientBalance error raised by the X402BatchSettlement contract.
type X402BatchSettlementAddressInsufficientBalance struct {
	Account common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AddressInsufficientBalance(address account)
func X402BatchSettlementAddressInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xcd7860599b9fd41bcf04bec8b7a59cb8b83ebbb59480bead3f13259df2ace421")
}

// UnpackAddressInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AddressInsufficientBalance(address account)
func (x402BatchSettlement *X402BatchSettlement) UnpackAddressInsufficientBalanceError(raw []byte) (*X402BatchSettlementAddressInsufficientBalance, error) {
	out := new(X402BatchSettlementAddressInsufficientBalance)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "AddressInsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementClaimExceedsBalance represents a ClaimExceedsBalance error raised by the X402BatchSettlement contract.
type X402BatchSettlementClaimExceedsBalance struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ClaimExceedsBalance()
func X402BatchSettlementClaimExceedsBalanceErrorID() common.Hash {
	return common.HexToHash("0x7d8242b644ed15fd2ba487e6c0b4cd8132eeaec22a2a10eac4c365a7f6132dce")
}

// UnpackClaimExceedsBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ClaimExceedsBalance()
func (x402BatchSettlement *X402BatchSettlement) UnpackClaimExceedsBalanceError(raw []byte) (*X402BatchSettlementClaimExceedsBalance, error) {
	out := new(X402BatchSettlementClaimExceedsBalance)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "ClaimExceedsBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementClaimExceedsCeiling represents a ClaimExceedsCeiling error raised by the X402BatchSettlement contract.
type X402BatchSettlementClaimExceedsCeiling struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ClaimExceedsCeiling()
func X402BatchSettlementClaimExceedsCeilingErrorID() common.Hash {
	return common.HexToHash("0xf1789775d20e6d801e1dcc76eab01f1cb47cdae0c7ca47c1339d503e1850128f")
}

// UnpackClaimExceedsCeilingError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ClaimExceedsCeiling()
func (x402BatchSettlement *X402BatchSettlement) UnpackClaimExceedsCeilingError(raw []byte) (*X402BatchSettlementClaimExceedsCeiling, error) {
	out := new(X402BatchSettlementClaimExceedsCeiling)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "ClaimExceedsCeiling", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementDepositCollectionFailed represents a DepositCollectionFailed error raised by the X402BatchSettlement contract.
type X402BatchSettlementDepositCollectionFailed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DepositCollectionFailed()
func X402BatchSettlementDepositCollectionFailedErrorID() common.Hash {
	return common.HexToHash("0xeb43592c973aefddc2c72f3fcc1cd6babb3269a7dda5fedb2a98f5e1934613f1")
}

// UnpackDepositCollectionFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DepositCollectionFailed()
func (x402BatchSettlement *X402BatchSettlement) UnpackDepositCollectionFailedError(raw []byte) (*X402BatchSettlementDepositCollectionFailed, error) {
	out := new(X402BatchSettlementDepositCollectionFailed)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "DepositCollectionFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementDepositOverflow represents a DepositOverflow error raised by the X402BatchSettlement contract.
type X402BatchSettlementDepositOverflow struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error DepositOverflow()
func X402BatchSettlementDepositOverflowErrorID() common.Hash {
	return common.HexToHash("0x1132981b50988e5bf5914c2cdbec86f17b96e379b9fe376f3978c42411aafcd6")
}

// UnpackDepositOverflowError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error DepositOverflow()
func (x402BatchSettlement *X402BatchSettlement) UnpackDepositOverflowError(raw []byte) (*X402BatchSettlementDepositOverflow, error) {
	out := new(X402BatchSettlementDepositOverflow)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "DepositOverflow", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementEmptyBatch represents a EmptyBatch error raised by the X402BatchSettlement contract.
type X402BatchSettlementEmptyBatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error EmptyBatch()
func X402BatchSettlementEmptyBatchErrorID() common.Hash {
	return common.HexToHash("0xc2e5347df6cf8d1bf68f8a9651642312bd381b900d857d97cd665976180d6ae0")
}

// UnpackEmptyBatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error EmptyBatch()
func (x402BatchSettlement *X402BatchSettlement) UnpackEmptyBatchError(raw []byte) (*X402BatchSettlementEmptyBatch, error) {
	out := new(X402BatchSettlementEmptyBatch)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "EmptyBatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementFailedInnerCall represents a FailedInnerCall error raised by the X402BatchSettlement contract.
type X402BatchSettlementFailedInnerCall struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FailedInnerCall()
func X402BatchSettlementFailedInnerCallErrorID() common.Hash {
	return common.HexToHash("0x1425ea42df7c932537f94e8b917ea9c5931f140fb6e8098822ef05dc56222ca9")
}

// UnpackFailedInnerCallError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FailedInnerCall()
func (x402BatchSettlement *X402BatchSettlement) UnpackFailedInnerCallError(raw []byte) (*X402BatchSettlementFailedInnerCall, error) {
	out := new(X402BatchSettlementFailedInnerCall)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "FailedInnerCall", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementInvalidChannel represents a InvalidChannel error raised by the X402BatchSettlement contract.
type X402BatchSettlementInvalidChannel struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidChannel()
func X402BatchSettlementInvalidChannelErrorID() common.Hash {
	return common.HexToHash("0xea3a9a39ade8da556b2a0eb84fb492a877b9b1359a1d967769c796bffb21eff6")
}

// UnpackInvalidChannelError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidChannel()
func (x402BatchSettlement *X402BatchSettlement) UnpackInvalidChannelError(raw []byte) (*X402BatchSettlementInvalidChannel, error) {
	out := new(X402BatchSettlementInvalidChannel)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "InvalidChannel", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementInvalidCollector represents a InvalidCollector error raised by the X402BatchSettlement contract.
type X402BatchSettlementInvalidCollector struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidCollector()
func X402BatchSettlementInvalidCollectorErrorID() common.Hash {
	return common.HexToHash("0x18b1afd44def9c8e2335a0b175a19408f7f5ef09683ee05e2f45e8042eb0d72d")
}

// UnpackInvalidCollectorError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidCollector()
func (x402BatchSettlement *X402BatchSettlement) UnpackInvalidCollectorError(raw []byte) (*X402BatchSettlementInvalidCollector, error) {
	out := new(X402BatchSettlementInvalidCollector)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "InvalidCollector", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementInvalidRefundNonce represents a InvalidRefundNonce error raised by the X402BatchSettlement contract.
type X402BatchSettlementInvalidRefundNonce struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidRefundNonce()
func X402BatchSettlementInvalidRefundNonceErrorID() common.Hash {
	return common.HexToHash("0x164f1afe58c9ccb5990cf2f541ddec23cbaf091017a27897e515431a0b4fe8bf")
}

// UnpackInvalidRefundNonceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidRefundNonce()
func (x402BatchSettlement *X402BatchSettlement) UnpackInvalidRefundNonceError(raw []byte) (*X402BatchSettlementInvalidRefundNonce, error) {
	out := new(X402BatchSettlementInvalidRefundNonce)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "InvalidRefundNonce", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementInvalidSignature represents a InvalidSignature error raised by the X402BatchSettlement contract.
type X402BatchSettlementInvalidSignature struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidSignature()
func X402BatchSettlementInvalidSignatureErrorID() common.Hash {
	return common.HexToHash("0x8baa579fce362245063d36f11747a89dd489c54795634fc673cc0e0db51fedc5")
}

// UnpackInvalidSignatureError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidSignature()
func (x402BatchSettlement *X402BatchSettlement) UnpackInvalidSignatureError(raw []byte) (*X402BatchSettlementInvalidSignature, error) {
	out := new(X402BatchSettlementInvalidSignature)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "InvalidSignature", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementNotAuthorizedToClaim represents a NotAuthorizedToClaim error raised by the X402BatchSettlement contract.
type X402BatchSettlementNotAuthorizedToClaim struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotAuthorizedToClaim()
func X402BatchSettlementNotAuthorizedToClaimErrorID() common.Hash {
	return common.HexToHash("0xdefb7069aa3adba68f883d732ad2b24c087173487331fccb11d60d1fe7e970a0")
}

// UnpackNotAuthorizedToClaimError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotAuthorizedToClaim()
func (x402BatchSettlement *X402BatchSettlement) UnpackNotAuthorizedToClaimError(raw []byte) (*X402BatchSettlementNotAuthorizedToClaim, error) {
	out := new(X402BatchSettlementNotAuthorizedToClaim)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "NotAuthorizedToClaim", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementNotAuthorizedToFinalizeWithdraw represents a NotAuthorizedToFinalizeWithdraw error raised by the X402BatchSettlement contract.
type X402BatchSettlementNotAuthorizedToFinalizeWithdraw struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotAuthorizedToFinalizeWithdraw()
func X402BatchSettlementNotAuthorizedToFinalizeWithdrawErrorID() common.Hash {
	return common.HexToHash("0x15f969d5c9e170be2291c083d6b150e6fcebf00ef2d8be6550ae6c3dc50dabdb")
}

// UnpackNotAuthorizedToFinalizeWithdrawError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotAuthorizedToFinalizeWithdraw()
func (x402BatchSettlement *X402BatchSettlement) UnpackNotAuthorizedToFinalizeWithdrawError(raw []byte) (*X402BatchSettlementNotAuthorizedToFinalizeWithdraw, error) {
	out := new(X402BatchSettlementNotAuthorizedToFinalizeWithdraw)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "NotAuthorizedToFinalizeWithdraw", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementNotAuthorizedToRefund represents a NotAuthorizedToRefund error raised by the X402BatchSettlement contract.
type X402BatchSettlementNotAuthorizedToRefund struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotAuthorizedToRefund()
func X402BatchSettlementNotAuthorizedToRefundErrorID() common.Hash {
	return common.HexToHash("0x7864f008ee834500b7f2733a6014e3f8eea31d50246cafde51f13a9311acfd40")
}

// UnpackNotAuthorizedToRefundError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotAuthorizedToRefund()
func (x402BatchSettlement *X402BatchSettlement) UnpackNotAuthorizedToRefundError(raw []byte) (*X402BatchSettlementNotAuthorizedToRefund, error) {
	out := new(X402BatchSettlementNotAuthorizedToRefund)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "NotAuthorizedToRefund", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementNotReceiverAuthorizer represents a NotReceiverAuthorizer error raised by the X402BatchSettlement contract.
type X402BatchSettlementNotReceiverAuthorizer struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotReceiverAuthorizer()
func X402BatchSettlementNotReceiverAuthorizerErrorID() common.Hash {
	return common.HexToHash("0xf5e2237d61f9c9a130c1b6459a9c805b19d61228df4da0c80ec97c91b5bc3fb8")
}

// UnpackNotReceiverAuthorizerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotReceiverAuthorizer()
func (x402BatchSettlement *X402BatchSettlement) UnpackNotReceiverAuthorizerError(raw []byte) (*X402BatchSettlementNotReceiverAuthorizer, error) {
	out := new(X402BatchSettlementNotReceiverAuthorizer)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "NotReceiverAuthorizer", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementNothingToWithdraw represents a NothingToWithdraw error raised by the X402BatchSettlement contract.
type X402BatchSettlementNothingToWithdraw struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NothingToWithdraw()
func X402BatchSettlementNothingToWithdrawErrorID() common.Hash {
	return common.HexToHash("0xd0d04f60bf4f7629141a1f00f5d2908fa0f3e15bf4cbf8bb8edc6fcbdf2509fa")
}

// UnpackNothingToWithdrawError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NothingToWithdraw()
func (x402BatchSettlement *X402BatchSettlement) UnpackNothingToWithdrawError(raw []byte) (*X402BatchSettlementNothingToWithdraw, error) {
	out := new(X402BatchSettlementNothingToWithdraw)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "NothingToWithdraw", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementReentrancyGuardReentrantCall represents a ReentrancyGuardReentrantCall error raised by the X402BatchSettlement contract.
type X402BatchSettlementReentrancyGuardReentrantCall struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ReentrancyGuardReentrantCall()
func X402BatchSettlementReentrancyGuardReentrantCallErrorID() common.Hash {
	return common.HexToHash("0x3ee5aeb571de7fc460830b4d0017439a1ca56fb0bc39062227ade4fe4a24c1ca")
}

// UnpackReentrancyGuardReentrantCallError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ReentrancyGuardReentrantCall()
func (x402BatchSettlement *X402BatchSettlement) UnpackReentrancyGuardReentrantCallError(raw []byte) (*X402BatchSettlementReentrancyGuardReentrantCall, error) {
	out := new(X402BatchSettlementReentrancyGuardReentrantCall)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "ReentrancyGuardReentrantCall", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementSafeERC20FailedOperation represents a SafeERC20FailedOperation error raised by the X402BatchSettlement contract.
type X402BatchSettlementSafeERC20FailedOperation struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SafeERC20FailedOperation(address token)
func X402BatchSettlementSafeERC20FailedOperationErrorID() common.Hash {
	return common.HexToHash("0x5274afe73c98b4749fc91ffae6b7b574e7842cb2144a159e9377a5f20b32edf9")
}

// UnpackSafeERC20FailedOperationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SafeERC20FailedOperation(address token)
func (x402BatchSettlement *X402BatchSettlement) UnpackSafeERC20FailedOperationError(raw []byte) (*X402BatchSettlementSafeERC20FailedOperation, error) {
	out := new(X402BatchSettlementSafeERC20FailedOperation)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "SafeERC20FailedOperation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementWithdrawAmountExceedsAvailable represents a WithdrawAmountExceedsAvailable error raised by the X402BatchSettlement contract.
type X402BatchSettlementWithdrawAmountExceedsAvailable struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WithdrawAmountExceedsAvailable()
func X402BatchSettlementWithdrawAmountExceedsAvailableErrorID() common.Hash {
	return common.HexToHash("0x6d3d5764eb95e3a6e5f7fa0be3c1d9073f1cf249735f075c057bad7a3474c94a")
}

// UnpackWithdrawAmountExceedsAvailableError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WithdrawAmountExceedsAvailable()
func (x402BatchSettlement *X402BatchSettlement) UnpackWithdrawAmountExceedsAvailableError(raw []byte) (*X402BatchSettlementWithdrawAmountExceedsAvailable, error) {
	out := new(X402BatchSettlementWithdrawAmountExceedsAvailable)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "WithdrawAmountExceedsAvailable", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementWithdrawDelayNotElapsed represents a WithdrawDelayNotElapsed error raised by the X402BatchSettlement contract.
type X402BatchSettlementWithdrawDelayNotElapsed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WithdrawDelayNotElapsed()
func X402BatchSettlementWithdrawDelayNotElapsedErrorID() common.Hash {
	return common.HexToHash("0xf3965827abb4b3501eba40fbc36bf95518923256f8e4150f82d6abaf898dfecb")
}

// UnpackWithdrawDelayNotElapsedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WithdrawDelayNotElapsed()
func (x402BatchSettlement *X402BatchSettlement) UnpackWithdrawDelayNotElapsedError(raw []byte) (*X402BatchSettlementWithdrawDelayNotElapsed, error) {
	out := new(X402BatchSettlementWithdrawDelayNotElapsed)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "WithdrawDelayNotElapsed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementWithdrawDelayOutOfRange represents a WithdrawDelayOutOfRange error raised by the X402BatchSettlement contract.
type X402BatchSettlementWithdrawDelayOutOfRange struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WithdrawDelayOutOfRange()
func X402BatchSettlementWithdrawDelayOutOfRangeErrorID() common.Hash {
	return common.HexToHash("0x4574fab68d66a7482499780fe2cf118b6bf35c8ed02b94811df48a01231e8390")
}

// UnpackWithdrawDelayOutOfRangeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WithdrawDelayOutOfRange()
func (x402BatchSettlement *X402BatchSettlement) UnpackWithdrawDelayOutOfRangeError(raw []byte) (*X402BatchSettlementWithdrawDelayOutOfRange, error) {
	out := new(X402BatchSettlementWithdrawDelayOutOfRange)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "WithdrawDelayOutOfRange", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementWithdrawalAlreadyPending represents a WithdrawalAlreadyPending error raised by the X402BatchSettlement contract.
type X402BatchSettlementWithdrawalAlreadyPending struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WithdrawalAlreadyPending()
func X402BatchSettlementWithdrawalAlreadyPendingErrorID() common.Hash {
	return common.HexToHash("0xa2aed0f0fb41b1f15d5794b35460e07faf6ebe60d83540c80e89b1f06eca9396")
}

// UnpackWithdrawalAlreadyPendingError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WithdrawalAlreadyPending()
func (x402BatchSettlement *X402BatchSettlement) UnpackWithdrawalAlreadyPendingError(raw []byte) (*X402BatchSettlementWithdrawalAlreadyPending, error) {
	out := new(X402BatchSettlementWithdrawalAlreadyPending)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "WithdrawalAlreadyPending", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementWithdrawalNotPending represents a WithdrawalNotPending error raised by the X402BatchSettlement contract.
type X402BatchSettlementWithdrawalNotPending struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WithdrawalNotPending()
func X402BatchSettlementWithdrawalNotPendingErrorID() common.Hash {
	return common.HexToHash("0x3a0a1ca689ec71617ac2a09f285d91cf55fffc1e4a31ad8aeebcc94abb3a85b3")
}

// UnpackWithdrawalNotPendingError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WithdrawalNotPending()
func (x402BatchSettlement *X402BatchSettlement) UnpackWithdrawalNotPendingError(raw []byte) (*X402BatchSettlementWithdrawalNotPending, error) {
	out := new(X402BatchSettlementWithdrawalNotPending)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "WithdrawalNotPending", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementZeroDeposit represents a ZeroDeposit error raised by the X402BatchSettlement contract.
type X402BatchSettlementZeroDeposit struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroDeposit()
func X402BatchSettlementZeroDepositErrorID() common.Hash {
	return common.HexToHash("0x56316e877e9063fd05b03c347d61a4639470c3199f0bdddd28efee0a5f8b6b02")
}

// UnpackZeroDepositError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroDeposit()
func (x402BatchSettlement *X402BatchSettlement) UnpackZeroDepositError(raw []byte) (*X402BatchSettlementZeroDeposit, error) {
	out := new(X402BatchSettlementZeroDeposit)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "ZeroDeposit", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402BatchSettlementZeroRefund represents a ZeroRefund error raised by the X402BatchSettlement contract.
type X402BatchSettlementZeroRefund struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroRefund()
func X402BatchSettlementZeroRefundErrorID() common.Hash {
	return common.HexToHash("0xd758525c34181c802038c9e1709640cd49191c6bc9afb13a57391cfe9abab6e8")
}

// UnpackZeroRefundError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroRefund()
func (x402BatchSettlement *X402BatchSettlement) UnpackZeroRefundError(raw []byte) (*X402BatchSettlementZeroRefund, error) {
	out := new(X402BatchSettlementZeroRefund)
	if err := x402BatchSettlement.abi.UnpackIntoInterface(out, "ZeroRefund", raw); err != nil {
		return nil, err
	}
	return out, nil
}

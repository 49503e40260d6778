// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

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

// EntryPointMemoryUserOp is an auto generated low-level Go binding around an user-defined struct.
type EntryPointMemoryUserOp struct {
	Sender               common.Address
	Nonce                *big.Int
	CallGasLimit         *big.Int
	VerificationGasLimit *big.Int
	PreVerificationGas   *big.Int
	Paymaster            common.Address
	MaxFeePerGas         *big.Int
	MaxPriorityFeePerGas *big.Int
}

// EntryPointUserOpInfo is an auto generated low-level Go binding around an user-defined struct.
type EntryPointUserOpInfo struct {
	MUserOp       EntryPointMemoryUserOp
	UserOpHash    [32]byte
	Prefund       *big.Int
	ContextOffset *big.Int
	PreOpGas      *big.Int
}

// IEntryPointAggregatorStakeInfo is an auto generated low-level Go binding around an user-defined struct.
type IEntryPointAggregatorStakeInfo struct {
	Aggregator common.Address
	StakeInfo  IStakeManagerStakeInfo
}

// IEntryPointReturnInfo is an auto generated low-level Go binding around an user-defined struct.
type IEntryPointReturnInfo struct {
	PreOpGas         *big.Int
	Prefund          *big.Int
	SigFailed        bool
	ValidAfter       *big.Int
	ValidUntil       *big.Int
	PaymasterContext []byte
}

// IEntryPointUserOpsPerAggregator is an auto generated low-level Go binding around an user-defined struct.
type IEntryPointUserOpsPerAggregator struct {
	UserOps    []UserOperation
	Aggregator common.Address
	Signature  []byte
}

// IStakeManagerDepositInfo is an auto generated low-level Go binding around an user-defined struct.
type IStakeManagerDepositInfo struct {
	Deposit         *big.Int
	Staked          bool
	Stake           *big.Int
	UnstakeDelaySec uint32
	WithdrawTime    *big.Int
}

// IStakeManagerStakeInfo is an auto generated low-level Go binding around an user-defined struct.
type IStakeManagerStakeInfo struct {
	Stake           *big.Int
	UnstakeDelaySec *big.Int
}

// Multicall3Call is an auto generated low-level Go binding around an user-defined struct.
type Multicall3Call struct {
	Target   common.Address
	CallData []byte
}

// Multicall3Call3 is an auto generated low-level Go binding around an user-defined struct.
type Multicall3Call3 struct {
	Target       common.Address
	AllowFailure bool
	CallData     []byte
}

// Multicall3Result is an auto generated low-level Go binding around an user-defined struct.
type Multicall3Result struct {
	Success    bool
	ReturnData []byte
}

// Permit2PermitTransferFrom is an auto generated low-level Go binding around an user-defined struct.
type Permit2PermitTransferFrom struct {
	Permitted Permit2TokenPermissions
	Nonce     *big.Int
	Deadline  *big.Int
}

// Permit2SignatureTransferDetails is an auto generated low-level Go binding around an user-defined struct.
type Permit2SignatureTransferDetails struct {
	To              common.Address
	RequestedAmount *big.Int
}

// Permit2TokenPermissions is an auto generated low-level Go binding around an user-defined struct.
type Permit2TokenPermissions struct {
	Token  common.Address
	Amount *big.Int
}

// UserOperation is an auto generated low-level Go binding around an user-defined struct.
type UserOperation struct {
	Sender               common.Address
	Nonce                *big.Int
	InitCode             []byte
	CallData             []byte
	CallGasLimit         *big.Int
	VerificationGasLimit *big.Int
	PreVerificationGas   *big.Int
	MaxFeePerGas         *big.Int
	MaxPriorityFeePerGas *big.Int
	PaymasterAndData     []byte
	Signature            []byte
}

// X402ExactPermit2ProxyWitness is an auto generated low-level Go binding around an user-defined struct.
type X402ExactPermit2ProxyWitness struct {
	To         common.Address
	ValidAfter *big.Int
}

// X402Permit2ProxyEIP2612Permit is an auto generated low-level Go binding around an user-defined struct.
type X402Permit2ProxyEIP2612Permit struct {
	Value    *big.Int
	Deadline *big.Int
	R        [32]byte
	S        [32]byte
	V        uint8
}

// X402UptoPermit2ProxyWitness is an auto generated low-level Go binding around an user-defined struct.
type X402UptoPermit2ProxyWitness struct {
	To          common.Address
	Facilitator common.Address
	ValidAfter  *big.Int
}

// DevPermitTokenMetaData contains all meta data concerning the DevPermitToken contract.
var DevPermitTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"signer\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"}],\"name\":\"InvalidPermitSigner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"name\":\"PermitExpired\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DOMAIN_SEPARATOR\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"PERMIT_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"subtractedValue\",\"type\":\"uint256\"}],\"name\":\"decreaseAllowance\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"addedValue\",\"type\":\"uint256\"}],\"name\":\"increaseAllowance\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"nonces\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"}],\"name\":\"permit\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"renounceOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"version\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	ID:  "d2aa3e510878a142dfe709bd7e1a3713db",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161186838038061186883398101604081905261002e9161015b565b8181600361003c838261024f565b506004610049828261024f565b50505061006261005d61006960201b60201c565b61006d565b505061030d565b3390565b600580546001600160a01b038381166001600160a01b0319831681179093556040519116919082907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0905f90a35050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f8301126100e1575f5ffd5b81516001600160401b038111156100fa576100fa6100be565b604051601f8201601f19908116603f011681016001600160401b0381118282101715610128576101286100be565b60405281815283820160200185101561013f575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f6040838503121561016c575f5ffd5b82516001600160401b03811115610181575f5ffd5b61018d858286016100d2565b602085015190935090506001600160401b038111156101aa575f5ffd5b6101b6858286016100d2565b9150509250929050565b600181811c908216806101d457607f821691505b6020821081036101f257634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561024a578282111561024a57805f5260205f20601f840160051c602085101561022357505f5b90810190601f840160051c035f5b81811015610246575f83820155600101610231565b5050505b505050565b81516001600160401b03811115610268576102686100be565b61027c8161027684546101c0565b846101f8565b6020601f8211600181146102ae575f83156102975750848201515b5f19600385901b1c1916600184901b178455610306565b5f84815260208120601f198516915b828110156102dd57878501518255602094850194600190920191016102bd565b50848210156102fa57868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b61154e8061031a5f395ff3fe608060405234801561000f575f5ffd5b5060043610610163575f3560e01c806370a08231116100c7578063a457c2d71161007d578063d505accf11610063578063d505accf1461031e578063dd62ed3e14610331578063f2fde38b14610376575f5ffd5b8063a457c2d7146102f8578063a9059cbb1461030b575f5ffd5b80637ecebe00116100ad5780637ecebe00146102a95780638da5cb5b146102c857806395d89b41146102f0575f5ffd5b806370a082311461026c578063715018a6146102a1575f5ffd5b8063313ce5671161011c5780633950935111610102578063395093511461020b57806340c10f191461021e57806354fd4d5014610233575f5ffd5b8063313ce567146101f45780633644e51514610203575f5ffd5b806318160ddd1161014c57806318160ddd146101a857806323b872dd146101ba57806330adf81f146101cd575f5ffd5b806306fdde0314610167578063095ea7b314610185575b5f5ffd5b61016f610389565b60405161017c9190611288565b60405180910390f35b610198610193366004611303565b610419565b604051901515815260200161017c565b6002545b60405190815260200161017c565b6101986101c836600461132b565b610432565b6101ac7f6e71edae12b1b97f4d1f60370fef10105fa2faae0126114a169c64845d6126c981565b6040516006815260200161017c565b6101ac610455565b610198610219366004611303565b6104e9565b61023161022c366004611303565b610534565b005b60408051808201909152600181527f3100000000000000000000000000000000000000000000000000000000000000602082015261016f565b6101ac61027a366004611365565b73ffffffffffffffffffffffffffffffffffffffff165f9081526020819052604090205490565b61023161054a565b6101ac6102b7366004611365565b60066020525f908152604090205481565b60055460405173ffffffffffffffffffffffffffffffffffffffff909116815260200161017c565b61016f61055d565b610198610306366004611303565b61056c565b610198610319366004611303565b610641565b61023161032c366004611385565b61064e565b6101ac61033f3660046113f2565b73ffffffffffffffffffffffffffffffffffffffff9182165f90815260016020908152604080832093909416825291909152205490565b610231610384366004611365565b610834565b60606003805461039890611423565b80601f01602080910402602001604051908101604052809291908181526020018280546103c490611423565b801561040f5780601f106103e65761010080835404028352916020019161040f565b820191905f5260205f20905b8154815290600101906020018083116103f257829003601f168201915b5050505050905090565b5f336104268185856108eb565b60019150505b92915050565b5f3361043f858285610a9d565b61044a858585610b73565b506001949350505050565b5f7f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f61047f610389565b80516020918201206040805192830193909352918101919091527fc89efdaa54c0f20c7adf612882df0950f5a951637e0307cdcb4c672f298b8bc660608201524660808201523060a082015260c00160405160208183030381529060405280519060200120905090565b335f81815260016020908152604080832073ffffffffffffffffffffffffffffffffffffffff87168452909152812054909190610426908290869061052f9087906114a1565b6108eb565b61053c610de0565b6105468282610e61565b5050565b610552610de0565b61055b5f610f52565b565b60606004805461039890611423565b335f81815260016020908152604080832073ffffffffffffffffffffffffffffffffffffffff8716845290915281205490919083811015610634576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602560248201527f45524332303a2064656372656173656420616c6c6f77616e63652062656c6f7760448201527f207a65726f00000000000000000000000000000000000000000000000000000060648201526084015b60405180910390fd5b61044a82868684036108eb565b5f33610426818585610b73565b8342111561068b576040517f9e96b26f0000000000000000000000000000000000000000000000000000000081526004810185905260240161062b565b73ffffffffffffffffffffffffffffffffffffffff87165f90815260066020526040812080547f6e71edae12b1b97f4d1f60370fef10105fa2faae0126114a169c64845d6126c9918a918a918a9190866106e4836114b4565b9091555060408051602081019690965273ffffffffffffffffffffffffffffffffffffffff94851690860152929091166060840152608083015260a082015260c0810186905260e0016040516020818303038152906040528051906020012090505f61079761078f610754610455565b846040517f19010000000000000000000000000000000000000000000000000000000000008152600281019290925260228201526042902090565b868686610fc8565b90508873ffffffffffffffffffffffffffffffffffffffff168173ffffffffffffffffffffffffffffffffffffffff161461081e576040517f32b1358800000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff80831660048301528a16602482015260440161062b565b6108298989896108eb565b505050505050505050565b61083c610de0565b73ffffffffffffffffffffffffffffffffffffffff81166108df576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f4f776e61626c653a206e6577206f776e657220697320746865207a65726f206160448201527f6464726573730000000000000000000000000000000000000000000000000000606482015260840161062b565b6108e881610f52565b50565b73ffffffffffffffffffffffffffffffffffffffff831661098d576040517f08c379a0000000000000000000000000000000000000000000000000000000008152602060048201526024808201527f45524332303a20617070726f76652066726f6d20746865207a65726f2061646460448201527f7265737300000000000000000000000000000000000000000000000000000000606482015260840161062b565b73ffffffffffffffffffffffffffffffffffffffff8216610a30576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45524332303a20617070726f766520746f20746865207a65726f20616464726560448201527f7373000000000000000000000000000000000000000000000000000000000000606482015260840161062b565b73ffffffffffffffffffffffffffffffffffffffff8381165f8181526001602090815260408083209487168084529482529182902085905590518481527f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925910160405180910390a3505050565b73ffffffffffffffffffffffffffffffffffffffff8381165f908152600160209081526040808320938616835292905220547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff8114610b6d5781811015610b60576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f45524332303a20696e73756666696369656e7420616c6c6f77616e6365000000604482015260640161062b565b610b6d84848484036108eb565b50505050565b73ffffffffffffffffffffffffffffffffffffffff8316610c16576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602560248201527f45524332303a207472616e736665722066726f6d20746865207a65726f20616460448201527f6472657373000000000000000000000000000000000000000000000000000000606482015260840161062b565b73ffffffffffffffffffffffffffffffffffffffff8216610cb9576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602360248201527f45524332303a207472616e7366657220746f20746865207a65726f206164647260448201527f6573730000000000000000000000000000000000000000000000000000000000606482015260840161062b565b73ffffffffffffffffffffffffffffffffffffffff83165f9081526020819052604090205481811015610d6e576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f45524332303a207472616e7366657220616d6f756e742065786365656473206260448201527f616c616e63650000000000000000000000000000000000000000000000000000606482015260840161062b565b73ffffffffffffffffffffffffffffffffffffffff8481165f81815260208181526040808320878703905593871680835291849020805487019055925185815290927fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a3610b6d565b60055473ffffffffffffffffffffffffffffffffffffffff16331461055b576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e6572604482015260640161062b565b73ffffffffffffffffffffffffffffffffffffffff8216610ede576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45524332303a206d696e7420746f20746865207a65726f206164647265737300604482015260640161062b565b8060025f828254610eef91906114a1565b909155505073ffffffffffffffffffffffffffffffffffffffff82165f81815260208181526040808320805486019055518481527fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a35050565b6005805473ffffffffffffffffffffffffffffffffffffffff8381167fffffffffffffffffffffffff0000000000000000000000000000000000000000831681179093556040519116919082907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0905f90a35050565b5f5f5f610fd787878787610fee565b91509150610fe4816110d6565b5095945050505050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a083111561102357505f905060036110cd565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015611074573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff81166110c7575f600192509250506110cd565b91505f90505b94509492505050565b5f8160048111156110e9576110e96114eb565b036110f15750565b6001816004811115611105576111056114eb565b0361116c576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f45434453413a20696e76616c6964207369676e61747572650000000000000000604482015260640161062b565b6002816004811115611180576111806114eb565b036111e7576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45434453413a20696e76616c6964207369676e6174757265206c656e67746800604482015260640161062b565b60038160048111156111fb576111fb6114eb565b036108e8576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45434453413a20696e76616c6964207369676e6174757265202773272076616c60448201527f7565000000000000000000000000000000000000000000000000000000000000606482015260840161062b565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505092915050565b803573ffffffffffffffffffffffffffffffffffffffff811681146112fe575f5ffd5b919050565b5f5f60408385031215611314575f5ffd5b61131d836112db565b946020939093013593505050565b5f5f5f6060848603121561133d575f5ffd5b611346846112db565b9250611354602085016112db565b929592945050506040919091013590565b5f60208284031215611375575f5ffd5b61137e826112db565b9392505050565b5f5f5f5f5f5f5f60e0888a03121561139b575f5ffd5b6113a4886112db565b96506113b2602089016112db565b95506040880135945060608801359350608088013560ff811681146113d5575f5ffd5b9699959850939692959460a0840135945060c09093013592915050565b5f5f60408385031215611403575f5ffd5b61140c836112db565b915061141a602084016112db565b90509250929050565b600181811c9082168061143757607f821691505b60208210810361146e577f4e487b71000000000000000000000000000000000000000000000000000000005f52602260045260245ffd5b50919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b8082018082111561042c5761042c611474565b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff82036114e4576114e4611474565b5060010190565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffdfea2646970667358221220297ade5492ecb91249a6a96b7f6ae2e22f33b7a11b86ccd90b68fcecc1c3e84964736f6c63430008250033",
}

// DevPermitToken is an auto generated Go binding around an Ethereum contract.
type DevPermitToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *DevPermitToken) GetABI() abi.ABI {
	return c.abi
}

// NewDevPermitToken creates a new instance of DevPermitToken.
func NewDevPermitToken() *DevPermitToken {
	parsed, err := DevPermitTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &DevPermitToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *DevPermitToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_) returns()
func (devPermitToken *DevPermitToken) PackConstructor(name_ string, symbol_ string) []byte {
	enc, err := devPermitToken.abi.Pack("", name_, symbol_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDOMAINSEPARATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3644e515.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (devPermitToken *DevPermitToken) PackDOMAINSEPARATOR() []byte {
	enc, err := devPermitToken.abi.Pack("DOMAIN_SEPARATOR")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDOMAINSEPARATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3644e515.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (devPermitToken *DevPermitToken) TryPackDOMAINSEPARATOR() ([]byte, error) {
	return devPermitToken.abi.Pack("DOMAIN_SEPARATOR")
}

// UnpackDOMAINSEPARATOR is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3644e515.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (devPermitToken *DevPermitToken) UnpackDOMAINSEPARATOR(data []byte) ([32]byte, error) {
	out, err := devPermitToken.abi.Unpack("DOMAIN_SEPARATOR", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackPERMITTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x30adf81f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function PERMIT_TYPEHASH() view returns(bytes32)
func (devPermitToken *DevPermitToken) PackPERMITTYPEHASH() []byte {
	enc, err := devPermitToken.abi.Pack("PERMIT_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPERMITTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x30adf81f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function PERMIT_TYPEHASH() view returns(bytes32)
func (devPermitToken *DevPermitToken) TryPackPERMITTYPEHASH() ([]byte, error) {
	return devPermitToken.abi.Pack("PERMIT_TYPEHASH")
}

// UnpackPERMITTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x30adf81f.
//
// Solidity: function PERMIT_TYPEHASH() view returns(bytes32)
func (devPermitToken *DevPermitToken) UnpackPERMITTYPEHASH(data []byte) ([32]byte, error) {
	out, err := devPermitToken.abi.Unpack("PERMIT_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (devPermitToken *DevPermitToken) PackAllowance(owner common.Address, spender common.Address) []byte {
	enc, err := devPermitToken.abi.Pack("allowance", owner, spender)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (devPermitToken *DevPermitToken) TryPackAllowance(owner common.Address, spender common.Address) ([]byte, error) {
	return devPermitToken.abi.Pack("allowance", owner, spender)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (devPermitToken *DevPermitToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := devPermitToken.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) PackApprove(spender common.Address, amount *big.Int) []byte {
	enc, err := devPermitToken.abi.Pack("approve", spender, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) TryPackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	return devPermitToken.abi.Pack("approve", spender, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) UnpackApprove(data []byte) (bool, error) {
	out, err := devPermitToken.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (devPermitToken *DevPermitToken) PackBalanceOf(account common.Address) []byte {
	enc, err := devPermitToken.abi.Pack("balanceOf", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (devPermitToken *DevPermitToken) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return devPermitToken.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (devPermitToken *DevPermitToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := devPermitToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() pure returns(uint8)
func (devPermitToken *DevPermitToken) PackDecimals() []byte {
	enc, err := devPermitToken.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() pure returns(uint8)
func (devPermitToken *DevPermitToken) TryPackDecimals() ([]byte, error) {
	return devPermitToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (devPermitToken *DevPermitToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := devPermitToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDecreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa457c2d7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (devPermitToken *DevPermitToken) PackDecreaseAllowance(spender common.Address, subtractedValue *big.Int) []byte {
	enc, err := devPermitToken.abi.Pack("decreaseAllowance", spender, subtractedValue)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa457c2d7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (devPermitToken *DevPermitToken) TryPackDecreaseAllowance(spender common.Address, subtractedValue *big.Int) ([]byte, error) {
	return devPermitToken.abi.Pack("decreaseAllowance", spender, subtractedValue)
}

// UnpackDecreaseAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa457c2d7.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (devPermitToken *DevPermitToken) UnpackDecreaseAllowance(data []byte) (bool, error) {
	out, err := devPermitToken.abi.Unpack("decreaseAllowance", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIncreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x39509351.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (devPermitToken *DevPermitToken) PackIncreaseAllowance(spender common.Address, addedValue *big.Int) []byte {
	enc, err := devPermitToken.abi.Pack("increaseAllowance", spender, addedValue)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIncreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x39509351.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (devPermitToken *DevPermitToken) TryPackIncreaseAllowance(spender common.Address, addedValue *big.Int) ([]byte, error) {
	return devPermitToken.abi.Pack("increaseAllowance", spender, addedValue)
}

// UnpackIncreaseAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x39509351.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (devPermitToken *DevPermitToken) UnpackIncreaseAllowance(data []byte) (bool, error) {
	out, err := devPermitToken.abi.Unpack("increaseAllowance", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (devPermitToken *DevPermitToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := devPermitToken.abi.Pack("mint", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (devPermitToken *DevPermitToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return devPermitToken.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (devPermitToken *DevPermitToken) PackName() []byte {
	enc, err := devPermitToken.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (devPermitToken *DevPermitToken) TryPackName() ([]byte, error) {
	return devPermitToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (devPermitToken *DevPermitToken) UnpackName(data []byte) (string, error) {
	out, err := devPermitToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackNonces is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7ecebe00.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nonces(address ) view returns(uint256)
func (devPermitToken *DevPermitToken) PackNonces(arg0 common.Address) []byte {
	enc, err := devPermitToken.abi.Pack("nonces", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNonces is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7ecebe00.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nonces(address ) view returns(uint256)
func (devPermitToken *DevPermitToken) TryPackNonces(arg0 common.Address) ([]byte, error) {
	return devPermitToken.abi.Pack("nonces", arg0)
}

// UnpackNonces is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7ecebe00.
//
// Solidity: function nonces(address ) view returns(uint256)
func (devPermitToken *DevPermitToken) UnpackNonces(data []byte) (*big.Int, error) {
	out, err := devPermitToken.abi.Unpack("nonces", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (devPermitToken *DevPermitToken) PackOwner() []byte {
	enc, err := devPermitToken.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (devPermitToken *DevPermitToken) TryPackOwner() ([]byte, error) {
	return devPermitToken.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (devPermitToken *DevPermitToken) UnpackOwner(data []byte) (common.Address, error) {
	out, err := devPermitToken.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd505accf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) returns()
func (devPermitToken *DevPermitToken) PackPermit(owner common.Address, spender common.Address, value *big.Int, deadline *big.Int, v uint8, r [32]byte, s [32]byte) []byte {
	enc, err := devPermitToken.abi.Pack("permit", owner, spender, value, deadline, v, r, s)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd505accf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) returns()
func (devPermitToken *DevPermitToken) TryPackPermit(owner common.Address, spender common.Address, value *big.Int, deadline *big.Int, v uint8, r [32]byte, s [32]byte) ([]byte, error) {
	return devPermitToken.abi.Pack("permit", owner, spender, value, deadline, v, r, s)
}

// PackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceOwnership() returns()
func (devPermitToken *DevPermitToken) PackRenounceOwnership() []byte {
	enc, err := devPermitToken.abi.Pack("renounceOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceOwnership() returns()
func (devPermitToken *DevPermitToken) TryPackRenounceOwnership() ([]byte, error) {
	return devPermitToken.abi.Pack("renounceOwnership")
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (devPermitToken *DevPermitToken) PackSymbol() []byte {
	enc, err := devPermitToken.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (devPermitToken *DevPermitToken) TryPackSymbol() ([]byte, error) {
	return devPermitToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (devPermitToken *DevPermitToken) UnpackSymbol(data []byte) (string, error) {
	out, err := devPermitToken.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (devPermitToken *DevPermitToken) PackTotalSupply() []byte {
	enc, err := devPermitToken.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (devPermitToken *DevPermitToken) TryPackTotalSupply() ([]byte, error) {
	return devPermitToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (devPermitToken *DevPermitToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := devPermitToken.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := devPermitToken.abi.Pack("transfer", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return devPermitToken.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := devPermitToken.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) PackTransferFrom(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := devPermitToken.abi.Pack("transferFrom", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) TryPackTransferFrom(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return devPermitToken.abi.Pack("transferFrom", from, to, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (devPermitToken *DevPermitToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := devPermitToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (devPermitToken *DevPermitToken) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := devPermitToken.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (devPermitToken *DevPermitToken) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return devPermitToken.abi.Pack("transferOwnership", newOwner)
}

// PackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function version() pure returns(string)
func (devPermitToken *DevPermitToken) PackVersion() []byte {
	enc, err := devPermitToken.abi.Pack("version")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function version() pure returns(string)
func (devPermitToken *DevPermitToken) TryPackVersion() ([]byte, error) {
	return devPermitToken.abi.Pack("version")
}

// UnpackVersion is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x54fd4d50.
//
// Solidity: function version() pure returns(string)
func (devPermitToken *DevPermitToken) UnpackVersion(data []byte) (string, error) {
	out, err := devPermitToken.abi.Unpack("version", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// DevPermitTokenApproval represents a Approval event raised by the DevPermitToken contract.
type DevPermitTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const DevPermitTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (DevPermitTokenApproval) ContractEventName() string {
	return DevPermitTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (devPermitToken *DevPermitToken) UnpackApprovalEvent(log *types.Log) (*DevPermitTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devPermitToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevPermitTokenApproval)
	if len(log.Data) > 0 {
		if err := devPermitToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devPermitToken.abi.Events[event].Inputs {
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

// DevPermitTokenOwnershipTransferred represents a OwnershipTransferred event raised by the DevPermitToken contract.
type DevPermitTokenOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const DevPermitTokenOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (DevPermitTokenOwnershipTransferred) ContractEventName() string {
	return DevPermitTokenOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (devPermitToken *DevPermitToken) UnpackOwnershipTransferredEvent(log *types.Log) (*DevPermitTokenOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devPermitToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevPermitTokenOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := devPermitToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devPermitToken.abi.Events[event].Inputs {
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

// DevPermitTokenTransfer represents a Transfer event raised by the DevPermitToken contract.
type DevPermitTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const DevPermitTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (DevPermitTokenTransfer) ContractEventName() string {
	return DevPermitTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (devPermitToken *DevPermitToken) UnpackTransferEvent(log *types.Log) (*DevPermitTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devPermitToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevPermitTokenTransfer)
	if len(log.Data) > 0 {
		if err := devPermitToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devPermitToken.abi.Events[event].Inputs {
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
func (devPermitToken *DevPermitToken) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], devPermitToken.abi.Errors["InvalidPermitSigner"].ID.Bytes()[:4]) {
		return devPermitToken.UnpackInvalidPermitSignerError(raw[4:])
	}
	if bytes.Equal(raw[:4], devPermitToken.abi.Errors["PermitExpired"].ID.Bytes()[:4]) {
		return devPermitToken.UnpackPermitExpiredError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// DevPermitTokenInvalidPermitSigner represents a InvalidPermitSigner error raised by the DevPermitToken contract.
type DevPermitTokenInvalidPermitSigner struct {
	Signer common.Address
	Owner  common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidPermitSigner(address signer, address owner)
func DevPermitTokenInvalidPermitSignerErrorID() common.Hash {
	return common.HexToHash("0x32b1358899740c177da607cb6d8253279929debc44d385ad981219fb94096a6d")
}

// UnpackInvalidPermitSignerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidPermitSigner(address signer, address owner)
func (devPermitToken *DevPermitToken) UnpackInvalidPermitSignerError(raw []byte) (*DevPermitTokenInvalidPermitSigner, error) {
	out := new(DevPermitTokenInvalidPermitSigner)
	if err := devPermitToken.abi.UnpackIntoInterface(out, "InvalidPermitSigner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevPermitTokenPermitExpired represents a PermitExpired error raised by the DevPermitToken contract.
type DevPermitTokenPermitExpired struct {
	Deadline *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error PermitExpired(uint256 deadline)
func DevPermitTokenPermitExpiredErrorID() common.Hash {
	return common.HexToHash("0x9e96b26fa430cdb94aa7d06991102a0577730e9f5f52f05b4f010c56a086c2ad")
}

// UnpackPermitExpiredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error PermitExpired(uint256 deadline)
func (devPermitToken *DevPermitToken) UnpackPermitExpiredError(raw []byte) (*DevPermitTokenPermitExpired, error) {
	out := new(DevPermitTokenPermitExpired)
	if err := devPermitToken.abi.UnpackIntoInterface(out, "PermitExpired", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevUSDMetaData contains all meta data concerning the DevUSD contract.
var DevUSDMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"version_\",\"type\":\"string\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"authorizer\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"}],\"name\":\"AuthorizationAlreadyUsed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"validBefore\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"name\":\"AuthorizationExpired\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"name\":\"AuthorizationNotYetValid\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"payee\",\"type\":\"address\"}],\"name\":\"CallerNotPayee\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidShortString\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignature\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"str\",\"type\":\"string\"}],\"name\":\"StringTooLong\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"authorizer\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"}],\"name\":\"AuthorizationCanceled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"authorizer\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"}],\"name\":\"AuthorizationUsed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"EIP712DomainChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"CANCEL_AUTHORIZATION_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"DOMAIN_SEPARATOR\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"RECEIVE_WITH_AUTHORIZATION_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"TRANSFER_WITH_AUTHORIZATION_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"authorizer\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"}],\"name\":\"authorizationState\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"authorizer\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"}],\"name\":\"cancelAuthorization\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"authorizer\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"cancelAuthorization\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"subtractedValue\",\"type\":\"uint256\"}],\"name\":\"decreaseAllowance\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"eip712Domain\",\"outputs\":[{\"internalType\":\"bytes1\",\"name\":\"fields\",\"type\":\"bytes1\"},{\"internalType\":\"string\",\"name\":\"name\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"version\",\"type\":\"string\"},{\"internalType\":\"uint256\",\"name\":\"chainId\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"verifyingContract\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"},{\"internalType\":\"uint256[]\",\"name\":\"extensions\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"addedValue\",\"type\":\"uint256\"}],\"name\":\"increaseAllowance\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validBefore\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"receiveWithAuthorization\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validBefore\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"}],\"name\":\"receiveWithAuthorization\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"renounceOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validBefore\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"transferWithAuthorization\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"validBefore\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"}],\"name\":\"transferWithAuthorization\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"version\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "36a899b6f0e9dc137f70b8a1ca261a3e66",
	Bin: "0x610160604052348015610010575f5ffd5b5060405161250138038061250183398101604081905261002f91610277565b82818184600361003f8382610395565b50600461004c8282610395565b5061005c91508390506005610111565b6101205261006b816006610111565b61014052815160208084019190912060e052815190820120610100524660a0526100f760e05161010051604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201529081019290925260608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b60805250503060c05261010933610143565b5050506104ab565b5f60208351101561012c5761012583610194565b905061013d565b816101378482610395565b5060ff90505b92915050565b600780546001600160a01b038381166001600160a01b0319831681179093556040519116919082907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0905f90a35050565b5f5f829050601f815111156101c7578260405163305a27a960e01b81526004016101be9190610453565b60405180910390fd5b80516101d282610488565b179392505050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f8301126101fd575f5ffd5b81516001600160401b03811115610216576102166101da565b604051601f8201601f19908116603f011681016001600160401b0381118282101715610244576102446101da565b60405281815283820160200185101561025b575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f5f60608486031215610289575f5ffd5b83516001600160401b0381111561029e575f5ffd5b6102aa868287016101ee565b602086015190945090506001600160401b038111156102c7575f5ffd5b6102d3868287016101ee565b604086015190935090506001600160401b038111156102f0575f5ffd5b6102fc868287016101ee565b9150509250925092565b600181811c9082168061031a57607f821691505b60208210810361033857634e487b7160e01b5f52602260045260245ffd5b50919050565b601f821115610390578282111561039057805f5260205f20601f840160051c602085101561036957505f5b90810190601f840160051c035f5b8181101561038c575f83820155600101610377565b5050505b505050565b81516001600160401b038111156103ae576103ae6101da565b6103c2816103bc8454610306565b8461033e565b6020601f8211600181146103f4575f83156103dd5750848201515b5f19600385901b1c1916600184901b17845561044c565b5f84815260208120601f198516915b828110156104235787850151825560209485019460019092019101610403565b508482101561044057868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80516020808301519190811015610338575f1960209190910360031b1b16919050565b60805160a05160c05160e0516101005161012051610140516120056104fc5f395f61069f01525f61067401525f61114d01525f61112501525f61108001525f6110aa01525f6110d401526120055ff3fe608060405234801561000f575f5ffd5b50600436106101bb575f3560e01c806388b7ab63116100f3578063cf09299511610093578063e3ee160e1161006e578063e3ee160e14610420578063e94a010214610433578063ef55bec614610478578063f2fde38b1461048b575f5ffd5b8063cf092995146103a1578063d9169487146103b4578063dd62ed3e146103db575f5ffd5b8063a0cc6a68116100ce578063a0cc6a6814610341578063a457c2d714610368578063a9059cbb1461037b578063b7b728991461038e575f5ffd5b806388b7ab63146102fe5780638da5cb5b1461031157806395d89b4114610339575f5ffd5b806340c10f191161015e57806370a082311161013957806370a082311461027f578063715018a6146102b45780637f2eecc3146102bc57806384b0196e146102e3575f5ffd5b806340c10f191461024f57806354fd4d50146102645780635a049a701461026c575f5ffd5b806323b872dd1161019957806323b872dd14610212578063313ce567146102255780633644e51514610234578063395093511461023c575f5ffd5b806306fdde03146101bf578063095ea7b3146101dd57806318160ddd14610200575b5f5ffd5b6101c761049e565b6040516101d49190611a84565b60405180910390f35b6101f06101eb366004611ac5565b61052e565b60405190151581526020016101d4565b6002545b6040519081526020016101d4565b6101f0610220366004611aed565b610547565b604051600681526020016101d4565b61020461056a565b6101f061024a366004611ac5565b610578565b61026261025d366004611ac5565b6105c3565b005b6101c76105d9565b61026261027a366004611b37565b6105f1565b61020461028d366004611b81565b73ffffffffffffffffffffffffffffffffffffffff165f9081526020819052604090205490565b610262610654565b6102047fd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de881565b6102eb610667565b6040516101d49796959493929190611b9a565b61026261030c366004611d4e565b61070a565b60075460405173ffffffffffffffffffffffffffffffffffffffff90911681526020016101d4565b6101c76107c0565b6102047f7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a226781565b6101f0610376366004611ac5565b6107cf565b6101f0610389366004611ac5565b61089f565b61026261039c366004611dcd565b6108ac565b6102626103af366004611d4e565b6109b0565b6102047f158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a159742981565b6102046103e9366004611e20565b73ffffffffffffffffffffffffffffffffffffffff9182165f90815260016020908152604080832093909416825291909152205490565b61026261042e366004611e51565b6109e0565b6101f0610441366004611ac5565b73ffffffffffffffffffffffffffffffffffffffff919091165f908152600860209081526040808320938352929052205460ff1690565b610262610486366004611e51565b610a53565b610262610499366004611b81565b610abb565b6060600380546104ad90611ecc565b80601f01602080910402602001604051908101604052809291908181526020018280546104d990611ecc565b80156105245780601f106104fb57610100808354040283529160200191610524565b820191905f5260205f20905b81548152906001019060200180831161050757829003601f168201915b5050505050905090565b5f3361053b818585610b72565b60019150505b92915050565b5f33610554858285610d24565b61055f858585610dfa565b506001949350505050565b5f610573611067565b905090565b335f81815260016020908152604080832073ffffffffffffffffffffffffffffffffffffffff8716845290915281205490919061053b90829086906105be908790611f1d565b610b72565b6105cb61119d565b6105d5828261121e565b5050565b60605f6105e4610667565b5092979650505050505050565b60408051602081018490529081018290527fff0000000000000000000000000000000000000000000000000000000000000060f885901b16606082015261064d90869086906061016040516020818303038152906040526108ac565b5050505050565b61065c61119d565b6106655f61130f565b565b5f6060808280808361069a7f00000000000000000000000000000000000000000000000000000000000000006005611385565b6106c57f00000000000000000000000000000000000000000000000000000000000000006006611385565b604080515f808252602082019092527f0f000000000000000000000000000000000000000000000000000000000000009b939a50919850469750309650945092509050565b73ffffffffffffffffffffffffffffffffffffffff8616331461077c576040517fa54718e800000000000000000000000000000000000000000000000000000000815233600482015273ffffffffffffffffffffffffffffffffffffffff871660248201526044015b60405180910390fd5b6107ac7fd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de88888888888888861142e565b6107b7878787610dfa565b50505050505050565b6060600480546104ad90611ecc565b335f81815260016020908152604080832073ffffffffffffffffffffffffffffffffffffffff8716845290915281205490919083811015610892576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602560248201527f45524332303a2064656372656173656420616c6c6f77616e63652062656c6f7760448201527f207a65726f0000000000000000000000000000000000000000000000000000006064820152608401610773565b61055f8286868403610b72565b5f3361053b818585610dfa565b6108b683836115a3565b604080517f158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429602082015273ffffffffffffffffffffffffffffffffffffffff8516918101919091526060810183905261092b9084906080015b604051602081830303815290604052805190602001208361162c565b73ffffffffffffffffffffffffffffffffffffffff83165f81815260086020908152604080832086845290915280822080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00166001179055518492917f1cdd46ff242716cdaa72d159d339a485b3438398348d68f09d7c8c0a59353d8191a3505050565b6107ac7f7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a22678888888888888861142e565b610a4889898989898988888b604051602001610a3493929190928352602083019190915260f81b7fff0000000000000000000000000000000000000000000000000000000000000016604082015260410190565b6040516020818303038152906040526109b0565b505050505050505050565b610a4889898989898988888b604051602001610aa793929190928352602083019190915260f81b7fff0000000000000000000000000000000000000000000000000000000000000016604082015260410190565b60405160208183030381529060405261070a565b610ac361119d565b73ffffffffffffffffffffffffffffffffffffffff8116610b66576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f4f776e61626c653a206e6577206f776e657220697320746865207a65726f206160448201527f64647265737300000000000000000000000000000000000000000000000000006064820152608401610773565b610b6f8161130f565b50565b73ffffffffffffffffffffffffffffffffffffffff8316610c14576040517f08c379a0000000000000000000000000000000000000000000000000000000008152602060048201526024808201527f45524332303a20617070726f76652066726f6d20746865207a65726f2061646460448201527f72657373000000000000000000000000000000000000000000000000000000006064820152608401610773565b73ffffffffffffffffffffffffffffffffffffffff8216610cb7576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45524332303a20617070726f766520746f20746865207a65726f20616464726560448201527f73730000000000000000000000000000000000000000000000000000000000006064820152608401610773565b73ffffffffffffffffffffffffffffffffffffffff8381165f8181526001602090815260408083209487168084529482529182902085905590518481527f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925910160405180910390a3505050565b73ffffffffffffffffffffffffffffffffffffffff8381165f908152600160209081526040808320938616835292905220547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff8114610df45781811015610de7576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f45524332303a20696e73756666696369656e7420616c6c6f77616e63650000006044820152606401610773565b610df48484848403610b72565b50505050565b73ffffffffffffffffffffffffffffffffffffffff8316610e9d576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602560248201527f45524332303a207472616e736665722066726f6d20746865207a65726f20616460448201527f64726573730000000000000000000000000000000000000000000000000000006064820152608401610773565b73ffffffffffffffffffffffffffffffffffffffff8216610f40576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602360248201527f45524332303a207472616e7366657220746f20746865207a65726f206164647260448201527f65737300000000000000000000000000000000000000000000000000000000006064820152608401610773565b73ffffffffffffffffffffffffffffffffffffffff83165f9081526020819052604090205481811015610ff5576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f45524332303a207472616e7366657220616d6f756e742065786365656473206260448201527f616c616e636500000000000000000000000000000000000000000000000000006064820152608401610773565b73ffffffffffffffffffffffffffffffffffffffff8481165f81815260208181526040808320878703905593871680835291849020805487019055925185815290927fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a3610df4565b5f3073ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000161480156110cc57507f000000000000000000000000000000000000000000000000000000000000000046145b156110f657507f000000000000000000000000000000000000000000000000000000000000000090565b610573604080517f8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f60208201527f0000000000000000000000000000000000000000000000000000000000000000918101919091527f000000000000000000000000000000000000000000000000000000000000000060608201524660808201523060a08201525f9060c00160405160208183030381529060405280519060200120905090565b60075473ffffffffffffffffffffffffffffffffffffffff163314610665576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e65726044820152606401610773565b73ffffffffffffffffffffffffffffffffffffffff821661129b576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45524332303a206d696e7420746f20746865207a65726f2061646472657373006044820152606401610773565b8060025f8282546112ac9190611f1d565b909155505073ffffffffffffffffffffffffffffffffffffffff82165f81815260208181526040808320805486019055518481527fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a35050565b6007805473ffffffffffffffffffffffffffffffffffffffff8381167fffffffffffffffffffffffff0000000000000000000000000000000000000000831681179093556040519116919082907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0905f90a35050565b606060ff831461139f576113988361167a565b9050610541565b8180546113ab90611ecc565b80601f01602080910402602001604051908101604052809291908181526020018280546113d790611ecc565b80156114225780601f106113f957610100808354040283529160200191611422565b820191905f5260205f20905b81548152906001019060200180831161140557829003601f168201915b50505050509050610541565b834211611470576040517f498ff9a200000000000000000000000000000000000000000000000000000000815260048101859052426024820152604401610773565b8242106114b2576040517fb3fcd33e00000000000000000000000000000000000000000000000000000000815260048101849052426024820152604401610773565b6114bc87836115a3565b60408051602081018a905273ffffffffffffffffffffffffffffffffffffffff808a169282019290925290871660608201526080810186905260a0810185905260c0810184905260e081018390526115199088906101000161090f565b73ffffffffffffffffffffffffffffffffffffffff87165f81815260086020908152604080832086845290915280822080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00166001179055518492917f98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a591a35050505050505050565b73ffffffffffffffffffffffffffffffffffffffff82165f90815260086020908152604080832084845290915290205460ff16156105d5576040517fd309466d00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff8316600482015260248101829052604401610773565b61163f83611639846116b7565b836116fe565b611675576040517f8baa579f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505050565b60605f61168683611776565b6040805160208082528183019092529192505f91906020820181803683375050509182525060208101929092525090565b5f6105416116c3611067565b836040517f19010000000000000000000000000000000000000000000000000000000000008152600281019290925260228201526042902090565b5f5f5f61170b85856117b6565b90925090505f81600481111561172357611723611f55565b14801561175b57508573ffffffffffffffffffffffffffffffffffffffff168273ffffffffffffffffffffffffffffffffffffffff16145b8061176c575061176c8686866117f8565b9695505050505050565b5f60ff8216601f811115610541576040517fb3512b0c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f5f82516041036117ea576020830151604084015160608501515f1a6117de87828585611950565b945094505050506117f1565b505f905060025b9250929050565b5f5f5f8573ffffffffffffffffffffffffffffffffffffffff16631626ba7e60e01b868660405160240161182d929190611f82565b604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe08184030181529181526020820180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fffffffff000000000000000000000000000000000000000000000000000000009094169390931790925290516118b69190611fa2565b5f60405180830381855afa9150503d805f81146118ee576040519150601f19603f3d011682016040523d82523d5f602084013e6118f3565b606091505b509150915081801561190757506020815110155b801561176c575080517f1626ba7e00000000000000000000000000000000000000000000000000000000906119459083016020908101908401611fb8565b149695505050505050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a083111561198557505f90506003611a2f565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa1580156119d6573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff8116611a29575f60019250925050611a2f565b91505f90505b94509492505050565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b602081525f611a966020830184611a38565b9392505050565b803573ffffffffffffffffffffffffffffffffffffffff81168114611ac0575f5ffd5b919050565b5f5f60408385031215611ad6575f5ffd5b611adf83611a9d565b946020939093013593505050565b5f5f5f60608486031215611aff575f5ffd5b611b0884611a9d565b9250611b1660208501611a9d565b929592945050506040919091013590565b803560ff81168114611ac0575f5ffd5b5f5f5f5f5f60a08688031215611b4b575f5ffd5b611b5486611a9d565b945060208601359350611b6960408701611b27565b94979396509394606081013594506080013592915050565b5f60208284031215611b91575f5ffd5b611a9682611a9d565b7fff000000000000000000000000000000000000000000000000000000000000008816815260e060208201525f611bd460e0830189611a38565b8281036040840152611be68189611a38565b6060840188905273ffffffffffffffffffffffffffffffffffffffff8716608085015260a0840186905283810360c0850152845180825260208087019350909101905f5b81811015611c48578351835260209384019390920191600101611c2a565b50909b9a5050505050505050505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b5f82601f830112611c95575f5ffd5b813567ffffffffffffffff811115611caf57611caf611c59565b6040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0603f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8501160116810181811067ffffffffffffffff82111715611d1b57611d1b611c59565b604052818152838201602001851015611d32575f5ffd5b816020850160208301375f918101602001919091529392505050565b5f5f5f5f5f5f5f60e0888a031215611d64575f5ffd5b611d6d88611a9d565b9650611d7b60208901611a9d565b955060408801359450606088013593506080880135925060a0880135915060c088013567ffffffffffffffff811115611db2575f5ffd5b611dbe8a828b01611c86565b91505092959891949750929550565b5f5f5f60608486031215611ddf575f5ffd5b611de884611a9d565b925060208401359150604084013567ffffffffffffffff811115611e0a575f5ffd5b611e1686828701611c86565b9150509250925092565b5f5f60408385031215611e31575f5ffd5b611e3a83611a9d565b9150611e4860208401611a9d565b90509250929050565b5f5f5f5f5f5f5f5f5f6101208a8c031215611e6a575f5ffd5b611e738a611a9d565b9850611e8160208b01611a9d565b975060408a0135965060608a0135955060808a0135945060a08a01359350611eab60c08b01611b27565b989b979a50959894979396929550929360e081013593506101000135919050565b600181811c90821680611ee057607f821691505b602082108103611f17577f4e487b71000000000000000000000000000000000000000000000000000000005f52602260045260245ffd5b50919050565b80820180821115610541577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b828152604060208201525f611f9a6040830184611a38565b949350505050565b5f82518060208501845e5f920191825250919050565b5f60208284031215611fc8575f5ffd5b505191905056fea2646970667358221220d3f70b46640f295c51d1e52536aff5b9586659ac85265adf1c74f51666ae242c64736f6c63430008250033",
}

// DevUSD is an auto generated Go binding around an Ethereum contract.
type DevUSD struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *DevUSD) GetABI() abi.ABI {
	return c.abi
}

// NewDevUSD creates a new instance of DevUSD.
func NewDevUSD() *DevUSD {
	parsed, err := DevUSDMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &DevUSD{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *DevUSD) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_, string version_) returns()
func (devUSD *DevUSD) PackConstructor(name_ string, symbol_ string, version_ string) []byte {
	enc, err := devUSD.abi.Pack("", name_, symbol_, version_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackCANCELAUTHORIZATIONTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd9169487.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function CANCEL_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) PackCANCELAUTHORIZATIONTYPEHASH() []byte {
	enc, err := devUSD.abi.Pack("CANCEL_AUTHORIZATION_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCANCELAUTHORIZATIONTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd9169487.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function CANCEL_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) TryPackCANCELAUTHORIZATIONTYPEHASH() ([]byte, error) {
	return devUSD.abi.Pack("CANCEL_AUTHORIZATION_TYPEHASH")
}

// UnpackCANCELAUTHORIZATIONTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd9169487.
//
// Solidity: function CANCEL_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) UnpackCANCELAUTHORIZATIONTYPEHASH(data []byte) ([32]byte, error) {
	out, err := devUSD.abi.Unpack("CANCEL_AUTHORIZATION_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackDOMAINSEPARATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3644e515.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (devUSD *DevUSD) PackDOMAINSEPARATOR() []byte {
	enc, err := devUSD.abi.Pack("DOMAIN_SEPARATOR")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDOMAINSEPARATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3644e515.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (devUSD *DevUSD) TryPackDOMAINSEPARATOR() ([]byte, error) {
	return devUSD.abi.Pack("DOMAIN_SEPARATOR")
}

// UnpackDOMAINSEPARATOR is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3644e515.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (devUSD *DevUSD) UnpackDOMAINSEPARATOR(data []byte) ([32]byte, error) {
	out, err := devUSD.abi.Unpack("DOMAIN_SEPARATOR", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackRECEIVEWITHAUTHORIZATIONTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7f2eecc3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function RECEIVE_WITH_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) PackRECEIVEWITHAUTHORIZATIONTYPEHASH() []byte {
	enc, err := devUSD.abi.Pack("RECEIVE_WITH_AUTHORIZATION_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRECEIVEWITHAUTHORIZATIONTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7f2eecc3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function RECEIVE_WITH_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) TryPackRECEIVEWITHAUTHORIZATIONTYPEHASH() ([]byte, error) {
	return devUSD.abi.Pack("RECEIVE_WITH_AUTHORIZATION_TYPEHASH")
}

// UnpackRECEIVEWITHAUTHORIZATIONTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7f2eecc3.
//
// Solidity: function RECEIVE_WITH_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) UnpackRECEIVEWITHAUTHORIZATIONTYPEHASH(data []byte) ([32]byte, error) {
	out, err := devUSD.abi.Unpack("RECEIVE_WITH_AUTHORIZATION_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackTRANSFERWITHAUTHORIZATIONTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa0cc6a68.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function TRANSFER_WITH_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) PackTRANSFERWITHAUTHORIZATIONTYPEHASH() []byte {
	enc, err := devUSD.abi.Pack("TRANSFER_WITH_AUTHORIZATION_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTRANSFERWITHAUTHORIZATIONTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa0cc6a68.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function TRANSFER_WITH_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) TryPackTRANSFERWITHAUTHORIZATIONTYPEHASH() ([]byte, error) {
	return devUSD.abi.Pack("TRANSFER_WITH_AUTHORIZATION_TYPEHASH")
}

// UnpackTRANSFERWITHAUTHORIZATIONTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa0cc6a68.
//
// Solidity: function TRANSFER_WITH_AUTHORIZATION_TYPEHASH() view returns(bytes32)
func (devUSD *DevUSD) UnpackTRANSFERWITHAUTHORIZATIONTYPEHASH(data []byte) ([32]byte, error) {
	out, err := devUSD.abi.Unpack("TRANSFER_WITH_AUTHORIZATION_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (devUSD *DevUSD) PackAllowance(owner common.Address, spender common.Address) []byte {
	enc, err := devUSD.abi.Pack("allowance", owner, spender)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (devUSD *DevUSD) TryPackAllowance(owner common.Address, spender common.Address) ([]byte, error) {
	return devUSD.abi.Pack("allowance", owner, spender)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (devUSD *DevUSD) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := devUSD.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (devUSD *DevUSD) PackApprove(spender common.Address, amount *big.Int) []byte {
	enc, err := devUSD.abi.Pack("approve", spender, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (devUSD *DevUSD) TryPackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	return devUSD.abi.Pack("approve", spender, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (devUSD *DevUSD) UnpackApprove(data []byte) (bool, error) {
	out, err := devUSD.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackAuthorizationState is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe94a0102.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function authorizationState(address authorizer, bytes32 nonce) view returns(bool)
func (devUSD *DevUSD) PackAuthorizationState(authorizer common.Address, nonce [32]byte) []byte {
	enc, err := devUSD.abi.Pack("authorizationState", authorizer, nonce)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAuthorizationState is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe94a0102.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function authorizationState(address authorizer, bytes32 nonce) view returns(bool)
func (devUSD *DevUSD) TryPackAuthorizationState(authorizer common.Address, nonce [32]byte) ([]byte, error) {
	return devUSD.abi.Pack("authorizationState", authorizer, nonce)
}

// UnpackAuthorizationState is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xe94a0102.
//
// Solidity: function authorizationState(address authorizer, bytes32 nonce) view returns(bool)
func (devUSD *DevUSD) UnpackAuthorizationState(data []byte) (bool, error) {
	out, err := devUSD.abi.Unpack("authorizationState", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (devUSD *DevUSD) PackBalanceOf(account common.Address) []byte {
	enc, err := devUSD.abi.Pack("balanceOf", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (devUSD *DevUSD) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return devUSD.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (devUSD *DevUSD) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := devUSD.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackCancelAuthorization is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5a049a70.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (devUSD *DevUSD) PackCancelAuthorization(authorizer common.Address, nonce [32]byte, v uint8, r [32]byte, s [32]byte) []byte {
	enc, err := devUSD.abi.Pack("cancelAuthorization", authorizer, nonce, v, r, s)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCancelAuthorization is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5a049a70.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (devUSD *DevUSD) TryPackCancelAuthorization(authorizer common.Address, nonce [32]byte, v uint8, r [32]byte, s [32]byte) ([]byte, error) {
	return devUSD.abi.Pack("cancelAuthorization", authorizer, nonce, v, r, s)
}

// PackCancelAuthorization0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb7b72899.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature) returns()
func (devUSD *DevUSD) PackCancelAuthorization0(authorizer common.Address, nonce [32]byte, signature []byte) []byte {
	enc, err := devUSD.abi.Pack("cancelAuthorization0", authorizer, nonce, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCancelAuthorization0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb7b72899.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature) returns()
func (devUSD *DevUSD) TryPackCancelAuthorization0(authorizer common.Address, nonce [32]byte, signature []byte) ([]byte, error) {
	return devUSD.abi.Pack("cancelAuthorization0", authorizer, nonce, signature)
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() pure returns(uint8)
func (devUSD *DevUSD) PackDecimals() []byte {
	enc, err := devUSD.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() pure returns(uint8)
func (devUSD *DevUSD) TryPackDecimals() ([]byte, error) {
	return devUSD.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (devUSD *DevUSD) UnpackDecimals(data []byte) (uint8, error) {
	out, err := devUSD.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDecreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa457c2d7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (devUSD *DevUSD) PackDecreaseAllowance(spender common.Address, subtractedValue *big.Int) []byte {
	enc, err := devUSD.abi.Pack("decreaseAllowance", spender, subtractedValue)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa457c2d7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (devUSD *DevUSD) TryPackDecreaseAllowance(spender common.Address, subtractedValue *big.Int) ([]byte, error) {
	return devUSD.abi.Pack("decreaseAllowance", spender, subtractedValue)
}

// UnpackDecreaseAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa457c2d7.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (devUSD *DevUSD) UnpackDecreaseAllowance(data []byte) (bool, error) {
	out, err := devUSD.abi.Unpack("decreaseAllowance", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackEip712Domain is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x84b0196e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function eip712Domain() view returns(bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)
func (devUSD *DevUSD) PackEip712Domain() []byte {
	enc, err := devUSD.abi.Pack("eip712Domain")
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
func (devUSD *DevUSD) TryPackEip712Domain() ([]byte, error) {
	return devUSD.abi.Pack("eip712Domain")
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
func (devUSD *DevUSD) UnpackEip712Domain(data []byte) (Eip712DomainOutput, error) {
	out, err := devUSD.abi.Unpack("eip712Domain", data)
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

// PackIncreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x39509351.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (devUSD *DevUSD) PackIncreaseAllowance(spender common.Address, addedValue *big.Int) []byte {
	enc, err := devUSD.abi.Pack("increaseAllowance", spender, addedValue)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIncreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x39509351.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (devUSD *DevUSD) TryPackIncreaseAllowance(spender common.Address, addedValue *big.Int) ([]byte, error) {
	return devUSD.abi.Pack("increaseAllowance", spender, addedValue)
}

// UnpackIncreaseAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x39509351.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (devUSD *DevUSD) UnpackIncreaseAllowance(data []byte) (bool, error) {
	out, err := devUSD.abi.Unpack("increaseAllowance", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (devUSD *DevUSD) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := devUSD.abi.Pack("mint", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (devUSD *DevUSD) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return devUSD.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (devUSD *DevUSD) PackName() []byte {
	enc, err := devUSD.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (devUSD *DevUSD) TryPackName() ([]byte, error) {
	return devUSD.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (devUSD *DevUSD) UnpackName(data []byte) (string, error) {
	out, err := devUSD.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (devUSD *DevUSD) PackOwner() []byte {
	enc, err := devUSD.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (devUSD *DevUSD) TryPackOwner() ([]byte, error) {
	return devUSD.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (devUSD *DevUSD) UnpackOwner(data []byte) (common.Address, error) {
	out, err := devUSD.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackReceiveWithAuthorization is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x88b7ab63.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature) returns()
func (devUSD *DevUSD) PackReceiveWithAuthorization(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, signature []byte) []byte {
	enc, err := devUSD.abi.Pack("receiveWithAuthorization", from, to, value, validAfter, validBefore, nonce, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReceiveWithAuthorization is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x88b7ab63.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature) returns()
func (devUSD *DevUSD) TryPackReceiveWithAuthorization(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, signature []byte) ([]byte, error) {
	return devUSD.abi.Pack("receiveWithAuthorization", from, to, value, validAfter, validBefore, nonce, signature)
}

// PackReceiveWithAuthorization0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xef55bec6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (devUSD *DevUSD) PackReceiveWithAuthorization0(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, v uint8, r [32]byte, s [32]byte) []byte {
	enc, err := devUSD.abi.Pack("receiveWithAuthorization0", from, to, value, validAfter, validBefore, nonce, v, r, s)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReceiveWithAuthorization0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xef55bec6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (devUSD *DevUSD) TryPackReceiveWithAuthorization0(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, v uint8, r [32]byte, s [32]byte) ([]byte, error) {
	return devUSD.abi.Pack("receiveWithAuthorization0", from, to, value, validAfter, validBefore, nonce, v, r, s)
}

// PackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceOwnership() returns()
func (devUSD *DevUSD) PackRenounceOwnership() []byte {
	enc, err := devUSD.abi.Pack("renounceOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceOwnership() returns()
func (devUSD *DevUSD) TryPackRenounceOwnership() ([]byte, error) {
	return devUSD.abi.Pack("renounceOwnership")
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (devUSD *DevUSD) PackSymbol() []byte {
	enc, err := devUSD.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (devUSD *DevUSD) TryPackSymbol() ([]byte, error) {
	return devUSD.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (devUSD *DevUSD) UnpackSymbol(data []byte) (string, error) {
	out, err := devUSD.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (devUSD *DevUSD) PackTotalSupply() []byte {
	enc, err := devUSD.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (devUSD *DevUSD) TryPackTotalSupply() ([]byte, error) {
	return devUSD.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (devUSD *DevUSD) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := devUSD.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (devUSD *DevUSD) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := devUSD.abi.Pack("transfer", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (devUSD *DevUSD) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return devUSD.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (devUSD *DevUSD) UnpackTransfer(data []byte) (bool, error) {
	out, err := devUSD.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (devUSD *DevUSD) PackTransferFrom(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := devUSD.abi.Pack("transferFrom", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (devUSD *DevUSD) TryPackTransferFrom(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return devUSD.abi.Pack("transferFrom", from, to, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (devUSD *DevUSD) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := devUSD.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (devUSD *DevUSD) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := devUSD.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (devUSD *DevUSD) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return devUSD.abi.Pack("transferOwnership", newOwner)
}

// PackTransferWithAuthorization is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcf092995.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature) returns()
func (devUSD *DevUSD) PackTransferWithAuthorization(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, signature []byte) []byte {
	enc, err := devUSD.abi.Pack("transferWithAuthorization", from, to, value, validAfter, validBefore, nonce, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferWithAuthorization is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcf092995.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature) returns()
func (devUSD *DevUSD) TryPackTransferWithAuthorization(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, signature []byte) ([]byte, error) {
	return devUSD.abi.Pack("transferWithAuthorization", from, to, value, validAfter, validBefore, nonce, signature)
}

// PackTransferWithAuthorization0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe3ee160e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (devUSD *DevUSD) PackTransferWithAuthorization0(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, v uint8, r [32]byte, s [32]byte) []byte {
	enc, err := devUSD.abi.Pack("transferWithAuthorization0", from, to, value, validAfter, validBefore, nonce, v, r, s)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferWithAuthorization0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe3ee160e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) returns()
func (devUSD *DevUSD) TryPackTransferWithAuthorization0(from common.Address, to common.Address, value *big.Int, validAfter *big.Int, validBefore *big.Int, nonce [32]byte, v uint8, r [32]byte, s [32]byte) ([]byte, error) {
	return devUSD.abi.Pack("transferWithAuthorization0", from, to, value, validAfter, validBefore, nonce, v, r, s)
}

// PackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function version() view returns(string)
func (devUSD *DevUSD) PackVersion() []byte {
	enc, err := devUSD.abi.Pack("version")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54fd4d50.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function version() view returns(string)
func (devUSD *DevUSD) TryPackVersion() ([]byte, error) {
	return devUSD.abi.Pack("version")
}

// UnpackVersion is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x54fd4d50.
//
// Solidity: function version() view returns(string)
func (devUSD *DevUSD) UnpackVersion(data []byte) (string, error) {
	out, err := devUSD.abi.Unpack("version", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// DevUSDApproval represents a Approval event raised by the DevUSD contract.
type DevUSDApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const DevUSDApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (DevUSDApproval) ContractEventName() string {
	return DevUSDApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (devUSD *DevUSD) UnpackApprovalEvent(log *types.Log) (*DevUSDApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devUSD.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevUSDApproval)
	if len(log.Data) > 0 {
		if err := devUSD.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devUSD.abi.Events[event].Inputs {
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

// DevUSDAuthorizationCanceled represents a AuthorizationCanceled event raised by the DevUSD contract.
type DevUSDAuthorizationCanceled struct {
	Authorizer common.Address
	Nonce      [32]byte
	Raw        *types.Log // Blockchain specific contextual infos
}

const DevUSDAuthorizationCanceledEventName = "AuthorizationCanceled"

// ContractEventName returns the user-defined event name.
func (DevUSDAuthorizationCanceled) ContractEventName() string {
	return DevUSDAuthorizationCanceledEventName
}

// UnpackAuthorizationCanceledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)
func (devUSD *DevUSD) UnpackAuthorizationCanceledEvent(log *types.Log) (*DevUSDAuthorizationCanceled, error) {
	event := "AuthorizationCanceled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devUSD.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevUSDAuthorizationCanceled)
	if len(log.Data) > 0 {
		if err := devUSD.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devUSD.abi.Events[event].Inputs {
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

// DevUSDAuthorizationUsed represents a AuthorizationUsed event raised by the DevUSD contract.
type DevUSDAuthorizationUsed struct {
	Authorizer common.Address
	Nonce      [32]byte
	Raw        *types.Log // Blockchain specific contextual infos
}

const DevUSDAuthorizationUsedEventName = "AuthorizationUsed"

// ContractEventName returns the user-defined event name.
func (DevUSDAuthorizationUsed) ContractEventName() string {
	return DevUSDAuthorizationUsedEventName
}

// UnpackAuthorizationUsedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)
func (devUSD *DevUSD) UnpackAuthorizationUsedEvent(log *types.Log) (*DevUSDAuthorizationUsed, error) {
	event := "AuthorizationUsed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devUSD.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevUSDAuthorizationUsed)
	if len(log.Data) > 0 {
		if err := devUSD.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devUSD.abi.Events[event].Inputs {
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

// DevUSDEIP712DomainChanged represents a EIP712DomainChanged event raised by the DevUSD contract.
type DevUSDEIP712DomainChanged struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const DevUSDEIP712DomainChangedEventName = "EIP712DomainChanged"

// ContractEventName returns the user-defined event name.
func (DevUSDEIP712DomainChanged) ContractEventName() string {
	return DevUSDEIP712DomainChangedEventName
}

// UnpackEIP712DomainChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event EIP712DomainChanged()
func (devUSD *DevUSD) UnpackEIP712DomainChangedEvent(log *types.Log) (*DevUSDEIP712DomainChanged, error) {
	event := "EIP712DomainChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devUSD.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevUSDEIP712DomainChanged)
	if len(log.Data) > 0 {
		if err := devUSD.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devUSD.abi.Events[event].Inputs {
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

// DevUSDOwnershipTransferred represents a OwnershipTransferred event raised by the DevUSD contract.
type DevUSDOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const DevUSDOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (DevUSDOwnershipTransferred) ContractEventName() string {
	return DevUSDOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (devUSD *DevUSD) UnpackOwnershipTransferredEvent(log *types.Log) (*DevUSDOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devUSD.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevUSDOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := devUSD.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devUSD.abi.Events[event].Inputs {
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

// DevUSDTransfer represents a Transfer event raised by the DevUSD contract.
type DevUSDTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const DevUSDTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (DevUSDTransfer) ContractEventName() string {
	return DevUSDTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (devUSD *DevUSD) UnpackTransferEvent(log *types.Log) (*DevUSDTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != devUSD.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(DevUSDTransfer)
	if len(log.Data) > 0 {
		if err := devUSD.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range devUSD.abi.Events[event].Inputs {
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
func (devUSD *DevUSD) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], devUSD.abi.Errors["AuthorizationAlreadyUsed"].ID.Bytes()[:4]) {
		return devUSD.UnpackAuthorizationAlreadyUsedError(raw[4:])
	}
	if bytes.Equal(raw[:4], devUSD.abi.Errors["AuthorizationExpired"].ID.Bytes()[:4]) {
		return devUSD.UnpackAuthorizationExpiredError(raw[4:])
	}
	if bytes.Equal(raw[:4], devUSD.abi.Errors["AuthorizationNotYetValid"].ID.Bytes()[:4]) {
		return devUSD.UnpackAuthorizationNotYetValidError(raw[4:])
	}
	if bytes.Equal(raw[:4], devUSD.abi.Errors["CallerNotPayee"].ID.Bytes()[:4]) {
		return devUSD.UnpackCallerNotPayeeError(raw[4:])
	}
	if bytes.Equal(raw[:4], devUSD.abi.Errors["InvalidShortString"].ID.Bytes()[:4]) {
		return devUSD.UnpackInvalidShortStringError(raw[4:])
	}
	if bytes.Equal(raw[:4], devUSD.abi.Errors["InvalidSignature"].ID.Bytes()[:4]) {
		return devUSD.UnpackInvalidSignatureError(raw[4:])
	}
	if bytes.Equal(raw[:4], devUSD.abi.Errors["StringTooLong"].ID.Bytes()[:4]) {
		return devUSD.UnpackStringTooLongError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// DevUSDAuthorizationAlreadyUsed represents a AuthorizationAlreadyUsed error raised by the DevUSD contract.
type DevUSDAuthorizationAlreadyUsed struct {
	Authorizer common.Address
	Nonce      [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuthorizationAlreadyUsed(address authorizer, bytes32 nonce)
func DevUSDAuthorizationAlreadyUsedErrorID() common.Hash {
	return common.HexToHash("0xd309466d0e5c5e3b306abfb2c1e7f3b4318b670dbd1236cc92288848a27384cb")
}

// UnpackAuthorizationAlreadyUsedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuthorizationAlreadyUsed(address authorizer, bytes32 nonce)
func (devUSD *DevUSD) UnpackAuthorizationAlreadyUsedError(raw []byte) (*DevUSDAuthorizationAlreadyUsed, error) {
	out := new(DevUSDAuthorizationAlreadyUsed)
	if err := devUSD.abi.UnpackIntoInterface(out, "AuthorizationAlreadyUsed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevUSDAuthorizationExpired represents a AuthorizationExpired error raised by the DevUSD contract.
type DevUSDAuthorizationExpired struct {
	ValidBefore *big.Int
	Timestamp   *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuthorizationExpired(uint256 validBefore, uint256 timestamp)
func DevUSDAuthorizationExpiredErrorID() common.Hash {
	return common.HexToHash("0xb3fcd33ed67bdd224ccc14f6533b25e252d81b4b443c2c5e165224150577780e")
}

// UnpackAuthorizationExpiredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuthorizationExpired(uint256 validBefore, uint256 timestamp)
func (devUSD *DevUSD) UnpackAuthorizationExpiredError(raw []byte) (*DevUSDAuthorizationExpired, error) {
	out := new(DevUSDAuthorizationExpired)
	if err := devUSD.abi.UnpackIntoInterface(out, "AuthorizationExpired", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevUSDAuthorizationNotYetValid represents a AuthorizationNotYetValid error raised by the DevUSD contract.
type DevUSDAuthorizationNotYetValid struct {
	ValidAfter *big.Int
	Timestamp  *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AuthorizationNotYetValid(uint256 validAfter, uint256 timestamp)
func DevUSDAuthorizationNotYetValidErrorID() common.Hash {
	return common.HexToHash("0x498ff9a24fee64a25c0c8f1f3e83602db532319abbebc95c85a258c1bf05a806")
}

// UnpackAuthorizationNotYetValidError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AuthorizationNotYetValid(uint256 validAfter, uint256 timestamp)
func (devUSD *DevUSD) UnpackAuthorizationNotYetValidError(raw []byte) (*DevUSDAuthorizationNotYetValid, error) {
	out := new(DevUSDAuthorizationNotYetValid)
	if err := devUSD.abi.UnpackIntoInterface(out, "AuthorizationNotYetValid", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevUSDCallerNotPayee represents a CallerNotPayee error raised by the DevUSD contract.
type DevUSDCallerNotPayee struct {
	Caller common.Address
	Payee  common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error CallerNotPayee(address caller, address payee)
func DevUSDCallerNotPayeeErrorID() common.Hash {
	return common.HexToHash("0xa54718e8ee343ccf83c247876bbd4f07d8d33cac5e65a4dd9884af928f98a19b")
}

// UnpackCallerNotPayeeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error CallerNotPayee(address caller, address payee)
func (devUSD *DevUSD) UnpackCallerNotPayeeError(raw []byte) (*DevUSDCallerNotPayee, error) {
	out := new(DevUSDCallerNotPayee)
	if err := devUSD.abi.UnpackIntoInterface(out, "CallerNotPayee", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevUSDInvalidShortString represents a InvalidShortString error raised by the DevUSD contract.
type DevUSDInvalidShortString struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidShortString()
func DevUSDInvalidShortStringErrorID() common.Hash {
	return common.HexToHash("0xb3512b0c6163e5f0bafab72bb631b9d58cd7a731b082f910338aa21c83d5c274")
}

// UnpackInvalidShortStringError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidShortString()
func (devUSD *DevUSD) UnpackInvalidShortStringError(raw []byte) (*DevUSDInvalidShortString, error) {
	out := new(DevUSDInvalidShortString)
	if err := devUSD.abi.UnpackIntoInterface(out, "InvalidShortString", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevUSDInvalidSignature represents a InvalidSignature error raised by the DevUSD contract.
type DevUSDInvalidSignature struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidSignature()
func DevUSDInvalidSignatureErrorID() common.Hash {
	return common.HexToHash("0x8baa579fce362245063d36f11747a89dd489c54795634fc673cc0e0db51fedc5")
}

// UnpackInvalidSignatureError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidSignature()
func (devUSD *DevUSD) UnpackInvalidSignatureError(raw []byte) (*DevUSDInvalidSignature, error) {
	out := new(DevUSDInvalidSignature)
	if err := devUSD.abi.UnpackIntoInterface(out, "InvalidSignature", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// DevUSDStringTooLong represents a StringTooLong error raised by the DevUSD contract.
type DevUSDStringTooLong struct {
	Str string
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error StringTooLong(string str)
func DevUSDStringTooLongErrorID() common.Hash {
	return common.HexToHash("0x305a27a93f8e33b7392df0a0f91d6fc63847395853c45991eec52dbf24d72381")
}

// UnpackStringTooLongError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error StringTooLong(string str)
func (devUSD *DevUSD) UnpackStringTooLongError(raw []byte) (*DevUSDStringTooLong, error) {
	out := new(DevUSDStringTooLong)
	if err := devUSD.abi.UnpackIntoInterface(out, "StringTooLong", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// EOADelegateMetaData contains all meta data concerning the EOADelegate contract.
var EOADelegateMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"hash\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "b38da1be614a5a071a42fa102ee7b03d04",
	Bin: "0x6080604052348015600e575f5ffd5b506103528061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610029575f3560e01c80631626ba7e1461002d575b5f5ffd5b61004061003b366004610278565b610075565b6040517fffffffff00000000000000000000000000000000000000000000000000000000909116815260200160405180910390f35b5f5f5f6100b78686868080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061014e92505050565b90925090505f8160048111156100cf576100cf6102ef565b1480156100f1575073ffffffffffffffffffffffffffffffffffffffff821630145b1561012157507f1626ba7e0000000000000000000000000000000000000000000000000000000091506101479050565b507fffffffff000000000000000000000000000000000000000000000000000000009150505b9392505050565b5f5f8251604103610182576020830151604084015160608501515f1a61017687828585610190565b94509450505050610189565b505f905060025b9250929050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a08311156101c557505f9050600361026f565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015610216573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff8116610269575f6001925092505061026f565b91505f90505b94509492505050565b5f5f5f6040848603121561028a575f5ffd5b83359250602084013567ffffffffffffffff8111156102a7575f5ffd5b8401601f810186136102b7575f5ffd5b803567ffffffffffffffff8111156102cd575f5ffd5b8660208284010111156102de575f5ffd5b939660209190910195509293505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffdfea26469706673582212207adc3d41846130cc84ea765f18d8e9d8f04e4c56058aa3456268f36b6c04fe7164736f6c63430008250033",
}

// EOADelegate is an auto generated Go binding around an Ethereum contract.
type EOADelegate struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *EOADelegate) GetABI() abi.ABI {
	return c.abi
}

// NewEOADelegate creates a new instance of EOADelegate.
func NewEOADelegate() *EOADelegate {
	parsed, err := EOADelegateMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &EOADelegate{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *EOADelegate) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (eOADelegate *EOADelegate) PackIsValidSignature(hash [32]byte, signature []byte) []byte {
	enc, err := eOADelegate.abi.Pack("isValidSignature", hash, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (eOADelegate *EOADelegate) TryPackIsValidSignature(hash [32]byte, signature []byte) ([]byte, error) {
	return eOADelegate.abi.Pack("isValidSignature", hash, signature)
}

// UnpackIsValidSignature is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (eOADelegate *EOADelegate) UnpackIsValidSignature(data []byte) ([4]byte, error) {
	out, err := eOADelegate.abi.Unpack("isValidSignature", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// EntryPointMetaData contains all meta data concerning the EntryPoint contract.
var EntryPointMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"preOpGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"paid\",\"type\":\"uint256\"},{\"internalType\":\"uint48\",\"name\":\"validAfter\",\"type\":\"uint48\"},{\"internalType\":\"uint48\",\"name\":\"validUntil\",\"type\":\"uint48\"},{\"internalType\":\"bool\",\"name\":\"targetSuccess\",\"type\":\"bool\"},{\"internalType\":\"bytes\",\"name\":\"targetResult\",\"type\":\"bytes\"}],\"name\":\"ExecutionResult\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"opIndex\",\"type\":\"uint256\"},{\"internalType\":\"string\",\"name\":\"reason\",\"type\":\"string\"}],\"name\":\"FailedOp\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"}],\"name\":\"SenderAddressResult\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"aggregator\",\"type\":\"address\"}],\"name\":\"SignatureValidationFailed\",\"type\":\"error\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"preOpGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"prefund\",\"type\":\"uint256\"},{\"internalType\":\"bool\",\"name\":\"sigFailed\",\"type\":\"bool\"},{\"internalType\":\"uint48\",\"name\":\"validAfter\",\"type\":\"uint48\"},{\"internalType\":\"uint48\",\"name\":\"validUntil\",\"type\":\"uint48\"},{\"internalType\":\"bytes\",\"name\":\"paymasterContext\",\"type\":\"bytes\"}],\"internalType\":\"structIEntryPoint.ReturnInfo\",\"name\":\"returnInfo\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"internalType\":\"structIStakeManager.StakeInfo\",\"name\":\"senderInfo\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"internalType\":\"structIStakeManager.StakeInfo\",\"name\":\"factoryInfo\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"internalType\":\"structIStakeManager.StakeInfo\",\"name\":\"paymasterInfo\",\"type\":\"tuple\"}],\"name\":\"ValidationResult\",\"type\":\"error\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"preOpGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"prefund\",\"type\":\"uint256\"},{\"internalType\":\"bool\",\"name\":\"sigFailed\",\"type\":\"bool\"},{\"internalType\":\"uint48\",\"name\":\"validAfter\",\"type\":\"uint48\"},{\"internalType\":\"uint48\",\"name\":\"validUntil\",\"type\":\"uint48\"},{\"internalType\":\"bytes\",\"name\":\"paymasterContext\",\"type\":\"bytes\"}],\"internalType\":\"structIEntryPoint.ReturnInfo\",\"name\":\"returnInfo\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"internalType\":\"structIStakeManager.StakeInfo\",\"name\":\"senderInfo\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"internalType\":\"structIStakeManager.StakeInfo\",\"name\":\"factoryInfo\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"internalType\":\"structIStakeManager.StakeInfo\",\"name\":\"paymasterInfo\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"aggregator\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"uint256\",\"name\":\"stake\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"internalType\":\"structIStakeManager.StakeInfo\",\"name\":\"stakeInfo\",\"type\":\"tuple\"}],\"internalType\":\"structIEntryPoint.AggregatorStakeInfo\",\"name\":\"aggregatorInfo\",\"type\":\"tuple\"}],\"name\":\"ValidationResultWithAggregation\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"userOpHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"factory\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"paymaster\",\"type\":\"address\"}],\"name\":\"AccountDeployed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"BeforeExecution\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"totalDeposit\",\"type\":\"uint256\"}],\"name\":\"Deposited\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"aggregator\",\"type\":\"address\"}],\"name\":\"SignatureAggregatorChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"totalStaked\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"unstakeDelaySec\",\"type\":\"uint256\"}],\"name\":\"StakeLocked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"withdrawTime\",\"type\":\"uint256\"}],\"name\":\"StakeUnlocked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"withdrawAddress\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"StakeWithdrawn\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"userOpHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"paymaster\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"success\",\"type\":\"bool\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"actualGasCost\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"actualGasUsed\",\"type\":\"uint256\"}],\"name\":\"UserOperationEvent\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"userOpHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"bytes\",\"name\":\"revertReason\",\"type\":\"bytes\"}],\"name\":\"UserOperationRevertReason\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"withdrawAddress\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawn\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"SIG_VALIDATION_FAILED\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"}],\"name\":\"_validateSenderAndPaymaster\",\"outputs\":[],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint32\",\"name\":\"unstakeDelaySec\",\"type\":\"uint32\"}],\"name\":\"addStake\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"depositTo\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"deposits\",\"outputs\":[{\"internalType\":\"uint112\",\"name\":\"deposit\",\"type\":\"uint112\"},{\"internalType\":\"bool\",\"name\":\"staked\",\"type\":\"bool\"},{\"internalType\":\"uint112\",\"name\":\"stake\",\"type\":\"uint112\"},{\"internalType\":\"uint32\",\"name\":\"unstakeDelaySec\",\"type\":\"uint32\"},{\"internalType\":\"uint48\",\"name\":\"withdrawTime\",\"type\":\"uint48\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"getDepositInfo\",\"outputs\":[{\"components\":[{\"internalType\":\"uint112\",\"name\":\"deposit\",\"type\":\"uint112\"},{\"internalType\":\"bool\",\"name\":\"staked\",\"type\":\"bool\"},{\"internalType\":\"uint112\",\"name\":\"stake\",\"type\":\"uint112\"},{\"internalType\":\"uint32\",\"name\":\"unstakeDelaySec\",\"type\":\"uint32\"},{\"internalType\":\"uint48\",\"name\":\"withdrawTime\",\"type\":\"uint48\"}],\"internalType\":\"structIStakeManager.DepositInfo\",\"name\":\"info\",\"type\":\"tuple\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint192\",\"name\":\"key\",\"type\":\"uint192\"}],\"name\":\"getNonce\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"}],\"name\":\"getSenderAddress\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"userOp\",\"type\":\"tuple\"}],\"name\":\"getUserOpHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation[]\",\"name\":\"userOps\",\"type\":\"tuple[]\"},{\"internalType\":\"contractIAggregator\",\"name\":\"aggregator\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structIEntryPoint.UserOpsPerAggregator[]\",\"name\":\"opsPerAggregator\",\"type\":\"tuple[]\"},{\"internalType\":\"addresspayable\",\"name\":\"beneficiary\",\"type\":\"address\"}],\"name\":\"handleAggregatedOps\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation[]\",\"name\":\"ops\",\"type\":\"tuple[]\"},{\"internalType\":\"addresspayable\",\"name\":\"beneficiary\",\"type\":\"address\"}],\"name\":\"handleOps\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint192\",\"name\":\"key\",\"type\":\"uint192\"}],\"name\":\"incrementNonce\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"paymaster\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"}],\"internalType\":\"structEntryPoint.MemoryUserOp\",\"name\":\"mUserOp\",\"type\":\"tuple\"},{\"internalType\":\"bytes32\",\"name\":\"userOpHash\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"prefund\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"contextOffset\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preOpGas\",\"type\":\"uint256\"}],\"internalType\":\"structEntryPoint.UserOpInfo\",\"name\":\"opInfo\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"context\",\"type\":\"bytes\"}],\"name\":\"innerHandleOp\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"actualGasCost\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint192\",\"name\":\"\",\"type\":\"uint192\"}],\"name\":\"nonceSequenceNumber\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"op\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"targetCallData\",\"type\":\"bytes\"}],\"name\":\"simulateHandleOp\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"userOp\",\"type\":\"tuple\"}],\"name\":\"simulateValidation\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"unlockStake\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"withdrawAddress\",\"type\":\"address\"}],\"name\":\"withdrawStake\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"withdrawAddress\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"withdrawAmount\",\"type\":\"uint256\"}],\"name\":\"withdrawTo\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "21cf95c4b1af6a99395089c97a16f202e5",
	Bin: "0x60a0604052604051600e906047565b604051809103905ff0801580156026573d5f5f3e3d5ffd5b506001600160a01b0316608052348015603d575f5ffd5b5060016002556054565b61023e80614e5983390190565b608051614de66100735f395f8181611605015261394f0152614de65ff3fe60806040526004361061015a575f3560e01c80638f41ec5a116100bb578063bb9fe6bf11610071578063d6383f9411610057578063d6383f94146104ea578063ee21942314610509578063fc7e286d14610528575f5ffd5b8063bb9fe6bf146104b7578063c23a5cea146104cb575f5ffd5b80639b249f69116100a15780639b249f6914610466578063a619353114610485578063b760faf9146104a4575f5ffd5b80638f41ec5a14610433578063957122ab14610447575f5ffd5b8063205c2878116101105780634b1d7cf5116100f65780634b1d7cf5146102655780635287ce121461028457806370a08231146103e2575f5ffd5b8063205c28781461022757806335567e1a14610246575f5ffd5b80631b2e01b8116101405780631b2e01b8146101a05780631d732756146101e95780631fad948c14610208575f5ffd5b80630396cb601461016e5780630bd28e3b14610181575f5ffd5b3661016a5761016833610600565b005b5f5ffd5b61016861017c366004613cbf565b61067a565b34801561018c575f5ffd5b5061016861019b366004613d0e565b6109f9565b3480156101ab575f5ffd5b506101d66101ba366004613d53565b600160209081525f928352604080842090915290825290205481565b6040519081526020015b60405180910390f35b3480156101f4575f5ffd5b506101d6610203366004613f9d565b610a40565b348015610213575f5ffd5b5061016861022236600461409e565b610be7565b348015610232575f5ffd5b506101686102413660046140f1565b610d5d565b348015610251575f5ffd5b506101d6610260366004613d53565b610f5a565b348015610270575f5ffd5b5061016861027f36600461409e565b610fd4565b34801561028f575f5ffd5b5061037161029e36600461411b565b6040805160a0810182525f808252602082018190529181018290526060810182905260808101919091525073ffffffffffffffffffffffffffffffffffffffff165f9081526020818152604091829020825160a08101845281546dffffffffffffffffffffffffffff80821683526e010000000000000000000000000000820460ff161515948301949094526f0100000000000000000000000000000090049092169282019290925260019091015463ffffffff81166060830152640100000000900465ffffffffffff16608082015290565b6040516101e091905f60a0820190506dffffffffffffffffffffffffffff83511682526020830151151560208301526dffffffffffffffffffffffffffff604084015116604083015263ffffffff606084015116606083015265ffffffffffff608084015116608083015292915050565b3480156103ed575f5ffd5b506101d66103fc36600461411b565b73ffffffffffffffffffffffffffffffffffffffff165f908152602081905260409020546dffffffffffffffffffffffffffff1690565b34801561043e575f5ffd5b506101d6600181565b348015610452575f5ffd5b50610168610461366004614136565b611471565b348015610471575f5ffd5b506101686104803660046141b8565b6115c6565b348015610490575f5ffd5b506101d661049f36600461420e565b6116c9565b6101686104b236600461411b565b610600565b3480156104c2575f5ffd5b5061016861170a565b3480156104d6575f5ffd5b506101686104e536600461411b565b6118bf565b3480156104f5575f5ffd5b50610168610504366004614240565b611bba565b348015610514575f5ffd5b5061016861052336600461420e565b611cdc565b348015610533575f5ffd5b506105b361054236600461411b565b5f60208190529081526040902080546001909101546dffffffffffffffffffffffffffff808316926e010000000000000000000000000000810460ff16926f010000000000000000000000000000009091049091169063ffffffff811690640100000000900465ffffffffffff1685565b604080516dffffffffffffffffffffffffffff96871681529415156020860152929094169183019190915263ffffffff16606082015265ffffffffffff909116608082015260a0016101e0565b61060a8134612036565b73ffffffffffffffffffffffffffffffffffffffff81165f8181526020818152604091829020805492516dffffffffffffffffffffffffffff909316835292917f2da466a7b24304f47e87fa2e1e5a81b9831ce54fec19055ce277ca2f39ba42c491015b60405180910390a25050565b335f90815260208190526040902063ffffffff82166106fa576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601a60248201527f6d757374207370656369667920756e7374616b652064656c617900000000000060448201526064015b60405180910390fd5b600181015463ffffffff9081169083161015610772576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601c60248201527f63616e6e6f7420646563726561736520756e7374616b652074696d650000000060448201526064016106f1565b80545f906107a49034906f0100000000000000000000000000000090046dffffffffffffffffffffffffffff166142ce565b90505f811161080f576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601260248201527f6e6f207374616b6520737065636966696564000000000000000000000000000060448201526064016106f1565b6dffffffffffffffffffffffffffff811115610887576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600e60248201527f7374616b65206f766572666c6f7700000000000000000000000000000000000060448201526064016106f1565b6040805160a08101825283546dffffffffffffffffffffffffffff90811682526001602080840182815286841685870190815263ffffffff808b16606088019081525f608089018181523380835296829052908a9020985189549551945189166f01000000000000000000000000000000027fffffff0000000000000000000000000000ffffffffffffffffffffffffffffff9515156e010000000000000000000000000000027fffffffffffffffffffffffffffffffffff0000000000000000000000000000009097169190991617949094179290921695909517865551949092018054925165ffffffffffff16640100000000027fffffffffffffffffffffffffffffffffffffffffffff00000000000000000000909316949093169390931717905590517fa5ae833d0bb1dcd632d98a8b70973e8516812898e19bf27b70071ebc8dc52c01906109ec908490879091825263ffffffff16602082015260400190565b60405180910390a2505050565b335f90815260016020908152604080832077ffffffffffffffffffffffffffffffffffffffffffffffff851684529091528120805491610a38836142e1565b919050555050565b5f5f5a9050333014610aae576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f4141393220696e7465726e616c2063616c6c206f6e6c7900000000000000000060448201526064016106f1565b8451604081015160608201518101611388015a1015610aef577fdeaddead000000000000000000000000000000000000000000000000000000005f5260205ffd5b87515f9015610b8a575f610b08845f01515f8c86612132565b905080610b88575f610b1b610800612148565b805190915015610b8257845f015173ffffffffffffffffffffffffffffffffffffffff168a602001517f1c4fada7374c0a9ee8841fc38afe82932dc0f8e69012e927f061a8bae611a201876020015184604051610b79929190614364565b60405180910390a35b60019250505b505b5f88608001515a8603019050610bd95f838b8b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92019190915250889250612173915050565b9a9950505050505050505050565b610bef612544565b815f8167ffffffffffffffff811115610c0a57610c0a613d86565b604051908082528060200260200182016040528015610c4357816020015b610c30613c2a565b815260200190600190039081610c285790505b5090505f5b82811015610cb8575f828281518110610c6357610c6361437c565b602002602001015190505f5f610c9d848a8a87818110610c8557610c8561437c565b9050602002810190610c9791906143a9565b856125b5565b91509150610cad8483835f6127f4565b505050600101610c48565b506040515f907fbb47ee3e183a558b1a2ff0874b079f3fc5478b7454eacf2bfc5af2ff5878f972908290a15f5b83811015610d4057610d3481888884818110610d0357610d0361437c565b9050602002810190610d1591906143a9565b858481518110610d2757610d2761437c565b6020026020010151612a47565b90910190600101610ce5565b50610d4b8482612bc5565b505050610d586001600255565b505050565b335f90815260208190526040902080546dffffffffffffffffffffffffffff16821115610de6576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601960248201527f576974686472617720616d6f756e7420746f6f206c617267650000000000000060448201526064016106f1565b8054610e039083906dffffffffffffffffffffffffffff166143e5565b81547fffffffffffffffffffffffffffffffffffff0000000000000000000000000000166dffffffffffffffffffffffffffff919091161781556040805173ffffffffffffffffffffffffffffffffffffffff851681526020810184905233917fd1c19fbcd4551a5edfb66d43d2e337c04837afda3482b42bdf569a8fccdae5fb910160405180910390a25f8373ffffffffffffffffffffffffffffffffffffffff16836040515f6040518083038185875af1925050503d805f8114610ee4576040519150601f19603f3d011682016040523d82523d5f602084013e610ee9565b606091505b5050905080610f54576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601260248201527f6661696c656420746f207769746864726177000000000000000000000000000060448201526064016106f1565b50505050565b73ffffffffffffffffffffffffffffffffffffffff82165f90815260016020908152604080832077ffffffffffffffffffffffffffffffffffffffffffffffff8516845290915290819020549082901b7fffffffffffffffffffffffffffffffffffffffffffffffff000000000000000016175b92915050565b610fdc612544565b815f805b828110156111c95736868683818110610ffb57610ffb61437c565b905060200281019061100d91906143f8565b9050365f61101b838061442a565b90925090505f611031604085016020860161411b565b90507fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff73ffffffffffffffffffffffffffffffffffffffff8216016110d2576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f4141393620696e76616c69642061676772656761746f7200000000000000000060448201526064016106f1565b73ffffffffffffffffffffffffffffffffffffffff8116156111ad5773ffffffffffffffffffffffffffffffffffffffff811663e3563a4f8484611119604089018961448e565b6040518563ffffffff1660e01b81526004016111389493929190614699565b5f6040518083038186803b15801561114e575f5ffd5b505afa92505050801561115f575060015b6111ad576040517f86a9f75000000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff821660048201526024016106f1565b6111b782876142ce565b95505060019093019250610fe0915050565b505f8167ffffffffffffffff8111156111e4576111e4613d86565b60405190808252806020026020018201604052801561121d57816020015b61120a613c2a565b8152602001906001900390816112025790505b506040519091507fbb47ee3e183a558b1a2ff0874b079f3fc5478b7454eacf2bfc5af2ff5878f972905f90a15f805b8481101561131d57368888838181106112675761126761437c565b905060200281019061127991906143f8565b9050365f611287838061442a565b90925090505f61129d604085016020860161411b565b9050815f5b8181101561130b575f8989815181106112bd576112bd61437c565b602002602001015190505f5f6112df8b898987818110610c8557610c8561437c565b915091506112ef848383896127f4565b8a6112f9816142e1565b9b5050600190930192506112a2915050565b50506001909401935061124c92505050565b505f905080805b8581101561142d573689898381811061133f5761133f61437c565b905060200281019061135191906143f8565b9050611363604082016020830161411b565b73ffffffffffffffffffffffffffffffffffffffff167f575ff3acadd5ab348fe1855e217e0f3678f8d767d7494c9f9fefbee2e17cca4d60405160405180910390a2365f6113b1838061442a565b9092509050805f5b8181101561141c576113fb888585848181106113d7576113d761437c565b90506020028101906113e991906143a9565b8b8b81518110610d2757610d2761437c565b61140590886142ce565b965087611411816142e1565b9850506001016113b9565b505060019093019250611324915050565b506040515f907f575ff3acadd5ab348fe1855e217e0f3678f8d767d7494c9f9fefbee2e17cca4d908290a26114628682612bc5565b5050505050610d586001600255565b83158015611494575073ffffffffffffffffffffffffffffffffffffffff83163b155b156114fb576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601960248201527f41413230206163636f756e74206e6f74206465706c6f7965640000000000000060448201526064016106f1565b6014811061158b575f611511601482848661475f565b61151a91614786565b60601c9050803b5f03611589576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601b60248201527f41413330207061796d6173746572206e6f74206465706c6f796564000000000060448201526064016106f1565b505b6040517f08c379a0000000000000000000000000000000000000000000000000000000008152602060048201525f60248201526044016106f1565b6040517f570e1a360000000000000000000000000000000000000000000000000000000081525f9073ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000169063570e1a369061163c90869086906004016147ec565b6020604051808303815f875af1158015611658573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061167c91906147ff565b6040517f6ca7b80600000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff821660048201529091506024016106f1565b5f6116d382612d08565b6040805160208101929092523090820152466060820152608001604051602081830303815290604052805190602001209050919050565b335f9081526020819052604081206001810154909163ffffffff909116900361178f576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600a60248201527f6e6f74207374616b65640000000000000000000000000000000000000000000060448201526064016106f1565b80546e010000000000000000000000000000900460ff1661180c576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601160248201527f616c726561647920756e7374616b696e6700000000000000000000000000000060448201526064016106f1565b60018101545f906118239063ffffffff164261481a565b6001830180547fffffffffffffffffffffffffffffffffffffffffffff000000000000ffffffff1664010000000065ffffffffffff84169081029190911790915583547fffffffffffffffffffffffffffffffffff00ffffffffffffffffffffffffffff16845560405190815290915033907ffa9b3c14cc825c412c9ed81b3ba365a5b459439403f18829e572ed53a4180f0a9060200161066e565b335f90815260208190526040902080546f0100000000000000000000000000000090046dffffffffffffffffffffffffffff1680611959576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601460248201527f4e6f207374616b6520746f20776974686472617700000000000000000000000060448201526064016106f1565b6001820154640100000000900465ffffffffffff166119d4576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f6d7573742063616c6c20756e6c6f636b5374616b65282920666972737400000060448201526064016106f1565b60018201544264010000000090910465ffffffffffff161115611a53576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601b60248201527f5374616b65207769746864726177616c206973206e6f7420647565000000000060448201526064016106f1565b6001820180547fffffffffffffffffffffffffffffffffffffffffffff0000000000000000000016905581547fffffff0000000000000000000000000000ffffffffffffffffffffffffffffff1682556040805173ffffffffffffffffffffffffffffffffffffffff851681526020810183905233917fb7c918e0e249f999e965cafeb6c664271b3f4317d296461500e71da39f0cbda3910160405180910390a25f8373ffffffffffffffffffffffffffffffffffffffff16826040515f6040518083038185875af1925050503d805f8114611b4a576040519150601f19603f3d011682016040523d82523d5f602084013e611b4f565b606091505b5050905080610f54576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f6661696c656420746f207769746864726177207374616b65000000000000000060448201526064016106f1565b611bc2613c2a565b611bcb85612d20565b5f5f611bd85f88856125b5565b915091505f611be78383612e0e565b9050611bf1435f52565b5f611bfd5f8a87612a47565b9050611c07435f52565b5f606073ffffffffffffffffffffffffffffffffffffffff8a1615611c92578973ffffffffffffffffffffffffffffffffffffffff168989604051611c4d929190614838565b5f604051808303815f865af19150503d805f8114611c86576040519150601f19603f3d011682016040523d82523d5f602084013e611c8b565b606091505b5090925090505b8660800151838560200151866040015185856040517f8b7ac9800000000000000000000000000000000000000000000000000000000081526004016106f196959493929190614847565b611ce4613c2a565b611ced82612d20565b5f5f611cfa5f85856125b5565b845160a001516040805180820182525f808252602080830182815273ffffffffffffffffffffffffffffffffffffffff958616835282825284832080546dffffffffffffffffffffffffffff6f01000000000000000000000000000000918290048116875260019283015463ffffffff9081169094528d51518851808a018a5287815280870188815291909a16875286865288872080549390930490911689529101549091169052835180850190945281845283015293955091935090365f611dc660408a018a61448e565b90925090505f6014821015611ddb575f611df5565b611de860145f848661475f565b611df191614786565b60601c5b6040805180820182525f808252602080830182815273ffffffffffffffffffffffffffffffffffffffff861683529082905292902080546f0100000000000000000000000000000090046dffffffffffffffffffffffffffff1682526001015463ffffffff1690915290915093505050505f611e718686612e0e565b90505f815f015190505f600173ffffffffffffffffffffffffffffffffffffffff168273ffffffffffffffffffffffffffffffffffffffff161490505f6040518060c001604052808b6080015181526020018b6040015181526020018315158152602001856020015165ffffffffffff168152602001856040015165ffffffffffff168152602001611f048c6060015190565b9052905073ffffffffffffffffffffffffffffffffffffffff831615801590611f44575073ffffffffffffffffffffffffffffffffffffffff8316600114155b15611ffc5760408051808201825273ffffffffffffffffffffffffffffffffffffffff8516808252825180840184525f80825260208083018281529382528181529085902080546f0100000000000000000000000000000090046dffffffffffffffffffffffffffff1683526001015463ffffffff169092529082015290517ffaecb4e40000000000000000000000000000000000000000000000000000000081526106f1908390899089908c9086906004016148ed565b808686896040517fe0cff05f0000000000000000000000000000000000000000000000000000000081526004016106f19493929190614979565b73ffffffffffffffffffffffffffffffffffffffff82165f908152602081905260408120805490919061207a9084906dffffffffffffffffffffffffffff166142ce565b90506dffffffffffffffffffffffffffff8111156120f4576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601060248201527f6465706f736974206f766572666c6f770000000000000000000000000000000060448201526064016106f1565b81547fffffffffffffffffffffffffffffffffffff0000000000000000000000000000166dffffffffffffffffffffffffffff919091161790555050565b5f5f5f845160208601878987f195945050505050565b60603d828111156121565750815b604051602082018101604052818152815f602083013e9392505050565b5f5f5a85519091505f908161218782612ef2565b60a083015190915073ffffffffffffffffffffffffffffffffffffffff81166121b357825193506123f8565b8093505f885111156123f857868202955060028a60028111156121d8576121d86149cf565b1461226b5760608301516040517fa9a2340900000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff83169163a9a2340991612238908e908d908c906004016149fc565b5f604051808303815f88803b15801561224f575f5ffd5b5087f1158015612261573d5f5f3e3d5ffd5b50505050506123f8565b60608301516040517fa9a2340900000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff83169163a9a23409916122c6908e908d908c906004016149fc565b5f604051808303815f88803b1580156122dd575f5ffd5b5087f1935050505080156122ef575060015b6123f8576122fb614a59565b806308c379a00361238b575061230f614a72565b8061231a575061238d565b8b8160405160200161232c9190614b49565b604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0818403018152908290527f220266b60000000000000000000000000000000000000000000000000000000082526106f19291600401614364565b505b8a6040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526012908201527f4141353020706f73744f70207265766572740000000000000000000000000000606082015260800190565b5a8503870196508187029550858960400151101561247a578a6040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f191815260406020808301829052908201527f414135312070726566756e642062656c6f772061637475616c476173436f7374606082015260800190565b604089015186900361248c8582612036565b5f808c60028111156124a0576124a06149cf565b1490508460a0015173ffffffffffffffffffffffffffffffffffffffff16855f015173ffffffffffffffffffffffffffffffffffffffff168c602001517f49628fd1471006c1482da88028e9ce4dbb080b815c9b0344d39e5a8e6ec1419f8860200151858d8f60405161252c949392919093845291151560208401526040830152606082015260800190565b60405180910390a45050505050505095945050505050565b60028054036125af576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c0060448201526064016106f1565b60028055565b5f5f5f5a84519091506125c88682612f21565b6125d1866116c9565b6020860152604081015160608201516080830151171760e087013517610100870135176effffffffffffffffffffffffffffff81111561266d576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f41413934206761732076616c756573206f766572666c6f77000000000000000060448201526064016106f1565b5f5f6126788461303e565b90506126868a8a8a84613096565b8551602087015191995091935061269d91906133a4565b61270c57896040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f1918152604060208201819052601a908201527f4141323520696e76616c6964206163636f756e74206e6f6e6365000000000000606082015260800190565b612714435f52565b60a084015160609073ffffffffffffffffffffffffffffffffffffffff1615612749576127448b8b8b85876133fe565b975090505b5f5a87039050808b60a0013510156127c6578b6040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f1918152604060208201819052601e908201527f41413430206f76657220766572696669636174696f6e4761734c696d69740000606082015260800190565b60408a018390528160608b015260c08b01355a8803018a608001818152505050505050505050935093915050565b5f5f6127ff856136ba565b915091508173ffffffffffffffffffffffffffffffffffffffff168373ffffffffffffffffffffffffffffffffffffffff16146128a157856040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526014908201527f41413234207369676e6174757265206572726f72000000000000000000000000606082015260800190565b801561291257856040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526017908201527f414132322065787069726564206f72206e6f7420647565000000000000000000606082015260800190565b5f61291c856136ba565b9250905073ffffffffffffffffffffffffffffffffffffffff8116156129a757866040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526014908201527f41413334207369676e6174757265206572726f72000000000000000000000000606082015260800190565b8115612a3e57866040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526021908201527f41413332207061796d61737465722065787069726564206f72206e6f7420647560608201527f6500000000000000000000000000000000000000000000000000000000000000608082015260a00190565b50505050505050565b5f5f5a90505f612a58846060015190565b905030631d732756612a6d606088018861448e565b87856040518563ffffffff1660e01b8152600401612a8e9493929190614b7a565b6020604051808303815f875af1925050508015612ae6575060408051601f3d9081017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0168201909252612ae391810190614c4b565b60015b612bb9575f60205f5f3e505f517f21522153000000000000000000000000000000000000000000000000000000008101612b8557866040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f1918152604060208201819052600f908201527f41413935206f7574206f66206761730000000000000000000000000000000000606082015260800190565b5f85608001515a612b9690866143e5565b612ba091906142ce565b9050612bb0886002888685612173565b94505050612bbc565b92505b50509392505050565b73ffffffffffffffffffffffffffffffffffffffff8216612c42576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f4141393020696e76616c69642062656e6566696369617279000000000000000060448201526064016106f1565b5f8273ffffffffffffffffffffffffffffffffffffffff16826040515f6040518083038185875af1925050503d805f8114612c98576040519150601f19603f3d011682016040523d82523d5f602084013e612c9d565b606091505b5050905080610d58576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f41413931206661696c65642073656e6420746f2062656e65666963696172790060448201526064016106f1565b5f612d1282613709565b805190602001209050919050565b3063957122ab612d33604084018461448e565b612d40602086018661411b565b612d4e61012087018761448e565b6040518663ffffffff1660e01b8152600401612d6e959493929190614c62565b5f6040518083038186803b158015612d84575f5ffd5b505afa925050508015612d95575060015b612e0b57612da1614a59565b806308c379a003612e015750612db5614a72565b80612dc05750612e03565b805115612dfd575f816040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f1929190614364565b5050565b505b3d5f5f3e3d5ffd5b50565b604080516060810182525f8082526020820181905291810182905290612e33846137e6565b90505f612e3f846137e6565b825190915073ffffffffffffffffffffffffffffffffffffffff8116612e63575080515b602080840151604080860151928501519085015191929165ffffffffffff8083169085161015612e91578193505b8065ffffffffffff168365ffffffffffff161115612ead578092505b50506040805160608101825273ffffffffffffffffffffffffffffffffffffffff909416845265ffffffffffff92831660208501529116908201529250505092915050565b60c081015160e08201515f9190808203612f0d575092915050565b612f1982488301613862565b949350505050565b612f2e602083018361411b565b73ffffffffffffffffffffffffffffffffffffffff16815260208083013590820152608080830135604083015260a0830135606083015260c0808401359183019190915260e0808401359183019190915261010083013590820152365f612f9961012085018561448e565b9092509050801561303257601481101561300f576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f4141393320696e76616c6964207061796d6173746572416e644461746100000060448201526064016106f1565b61301c60145f838561475f565b61302591614786565b60601c60a0840152610f54565b5f60a084015250505050565b60a08101515f90819073ffffffffffffffffffffffffffffffffffffffff1661306857600161306b565b60035b60ff1690505f8360800151828560600151028560400151010190508360c00151810292505050919050565b5f5f5f5a85518051919250906130b989886130b460408c018c61448e565b613879565b60a08201516130c6435f52565b5f73ffffffffffffffffffffffffffffffffffffffff821661312c5773ffffffffffffffffffffffffffffffffffffffff83165f908152602081905260409020546dffffffffffffffffffffffffffff1688811161312657808903613128565b5f5b9150505b606084015160208a01516040517f3a871cdd00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff861692633a871cdd92909161318c918f918790600401614ca4565b6020604051808303815f8887f1935050505080156131e5575060408051601f3d9081017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe01682019092526131e291810190614c4b565b60015b61328f576131f1614a59565b806308c379a0036132225750613205614a72565b806132105750613224565b8b8160405160200161232c9190614cc8565b505b8a6040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526016908201527f4141323320726576657274656420286f72204f4f472900000000000000000000606082015260800190565b955073ffffffffffffffffffffffffffffffffffffffff82166133915773ffffffffffffffffffffffffffffffffffffffff83165f90815260208190526040902080546dffffffffffffffffffffffffffff16808a1115613355578c6040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526017908201527f41413231206469646e2774207061792070726566756e64000000000000000000606082015260800190565b81547fffffffffffffffffffffffffffffffffffff000000000000000000000000000016908a90036dffffffffffffffffffffffffffff161790555b5a85039650505050505094509492505050565b73ffffffffffffffffffffffffffffffffffffffff82165f90815260016020908152604080832084821c808552925282208054849167ffffffffffffffff83169190856133f0836142e1565b909155501495945050505050565b825160608181015190915f91848111613473576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f4141343120746f6f206c6974746c6520766572696669636174696f6e4761730060448201526064016106f1565b60a082015173ffffffffffffffffffffffffffffffffffffffff81165f90815260208190526040902080548784039291906dffffffffffffffffffffffffffff1689811015613527578c6040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f1918152604060208201819052601e908201527f41413331207061796d6173746572206465706f73697420746f6f206c6f770000606082015260800190565b898103825f015f6101000a8154816dffffffffffffffffffffffffffff02191690836dffffffffffffffffffffffffffff1602179055508273ffffffffffffffffffffffffffffffffffffffff1663f465c77e858e8e602001518e6040518563ffffffff1660e01b81526004016135a093929190614ca4565b5f604051808303815f8887f1935050505080156135fc57506040513d5f823e601f3d9081017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe01682016040526135f99190810190614cf9565b60015b6136a657613608614a59565b806308c379a003613639575061361c614a72565b80613627575061363b565b8d8160405160200161232c9190614d7f565b505b8c6040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f19181526040602082018190526016908201527f4141333320726576657274656420286f72204f4f472900000000000000000000606082015260800190565b909e909d509b505050505050505050505050565b5f5f825f036136cd57505f928392509050565b5f6136d7846137e6565b9050806040015165ffffffffffff164211806136fe5750806020015165ffffffffffff1642105b905194909350915050565b6060813560208301355f613728613723604087018761448e565b613c18565b90505f61373b613723606088018861448e565b9050608086013560a087013560c088013560e08901356101008a01355f6137696137236101208e018e61448e565b6040805173ffffffffffffffffffffffffffffffffffffffff9c909c1660208d01528b81019a909a5260608b019890985250608089019590955260a088019390935260c087019190915260e08601526101008501526101208401526101408084019190915281518084039091018152610160909201905292915050565b604080516060810182525f80825260208201819052918101919091528160a081901c65ffffffffffff81165f03613820575065ffffffffffff5b6040805160608101825273ffffffffffffffffffffffffffffffffffffffff909316835260d09490941c602083015265ffffffffffff16928101929092525090565b5f8183106138705781613872565b825b9392505050565b8015610f545782515173ffffffffffffffffffffffffffffffffffffffff81163b1561390a57846040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f1918152604060208201819052601f908201527f414131302073656e64657220616c726561647920636f6e737472756374656400606082015260800190565b8351606001516040517f570e1a360000000000000000000000000000000000000000000000000000000081525f9173ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000169163570e1a36919061398790889088906004016147ec565b6020604051808303815f8887f11580156139a3573d5f5f3e3d5ffd5b50505050506040513d601f19601f820116820180604052508101906139c891906147ff565b905073ffffffffffffffffffffffffffffffffffffffff8116613a5057856040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f1918152604060208201819052601b908201527f4141313320696e6974436f6465206661696c6564206f72204f4f470000000000606082015260800190565b8173ffffffffffffffffffffffffffffffffffffffff168173ffffffffffffffffffffffffffffffffffffffff1614613aed57856040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f191815260406020808301829052908201527f4141313420696e6974436f6465206d7573742072657475726e2073656e646572606082015260800190565b8073ffffffffffffffffffffffffffffffffffffffff163b5f03613b7557856040517f220266b60000000000000000000000000000000000000000000000000000000081526004016106f191815260406020808301829052908201527f4141313520696e6974436f6465206d757374206372656174652073656e646572606082015260800190565b5f613b83601482868861475f565b613b8c91614786565b60601c90508273ffffffffffffffffffffffffffffffffffffffff1686602001517fd51a9c61267aa6196961883ecf5ff2da6619c37dac0fa92122513fb32c032d2d83895f015160a00151604051613c0792919073ffffffffffffffffffffffffffffffffffffffff92831681529116602082015260400190565b60405180910390a350505050505050565b5f604051828085833790209392505050565b6040518060a00160405280613ca16040518061010001604052805f73ffffffffffffffffffffffffffffffffffffffff1681526020015f81526020015f81526020015f81526020015f81526020015f73ffffffffffffffffffffffffffffffffffffffff1681526020015f81526020015f81525090565b81526020015f81526020015f81526020015f81526020015f81525090565b5f60208284031215613ccf575f5ffd5b813563ffffffff81168114613872575f5ffd5b803577ffffffffffffffffffffffffffffffffffffffffffffffff81168114613d09575f5ffd5b919050565b5f60208284031215613d1e575f5ffd5b61387282613ce2565b73ffffffffffffffffffffffffffffffffffffffff81168114612e0b575f5ffd5b8035613d0981613d27565b5f5f60408385031215613d64575f5ffd5b8235613d6f81613d27565b9150613d7d60208401613ce2565b90509250929050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b60a0810181811067ffffffffffffffff82111715613dd357613dd3613d86565b60405250565b610100810181811067ffffffffffffffff82111715613dd357613dd3613d86565b7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f830116810181811067ffffffffffffffff82111715613e3e57613e3e613d86565b6040525050565b5f67ffffffffffffffff821115613e5e57613e5e613d86565b50601f017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe01660200190565b5f818303610180811215613e9c575f5ffd5b604051613ea881613db3565b809250610100821215613eb9575f5ffd5b6040519150613ec782613dd9565b613ed084613d48565b825260208481013590830152604080850135908301526060808501359083015260808085013590830152613f0660a08501613d48565b60a083015260c0848101359083015260e0808501359083015290815261010083013560208201526101208301356040820152610140830135606082015261016090920135608090920191909152919050565b5f5f83601f840112613f68575f5ffd5b50813567ffffffffffffffff811115613f7f575f5ffd5b602083019150836020828501011115613f96575f5ffd5b9250929050565b5f5f5f5f6101c08587031215613fb1575f5ffd5b843567ffffffffffffffff811115613fc7575f5ffd5b8501601f81018713613fd7575f5ffd5b8035613fe281613e45565b604051613fef8282613dfa565b828152896020848601011115614003575f5ffd5b826020850160208301375f60208483010152809750505050506140298660208701613e8a565b92506101a085013567ffffffffffffffff811115614045575f5ffd5b61405187828801613f58565b95989497509550505050565b5f5f83601f84011261406d575f5ffd5b50813567ffffffffffffffff811115614084575f5ffd5b6020830191508360208260051b8501011115613f96575f5ffd5b5f5f5f604084860312156140b0575f5ffd5b833567ffffffffffffffff8111156140c6575f5ffd5b6140d28682870161405d565b90945092505060208401356140e681613d27565b809150509250925092565b5f5f60408385031215614102575f5ffd5b823561410d81613d27565b946020939093013593505050565b5f6020828403121561412b575f5ffd5b813561387281613d27565b5f5f5f5f5f6060868803121561414a575f5ffd5b853567ffffffffffffffff811115614160575f5ffd5b61416c88828901613f58565b909650945050602086013561418081613d27565b9250604086013567ffffffffffffffff81111561419b575f5ffd5b6141a788828901613f58565b969995985093965092949392505050565b5f5f602083850312156141c9575f5ffd5b823567ffffffffffffffff8111156141df575f5ffd5b6141eb85828601613f58565b90969095509350505050565b5f6101608284031215614208575f5ffd5b50919050565b5f6020828403121561421e575f5ffd5b813567ffffffffffffffff811115614234575f5ffd5b612f19848285016141f7565b5f5f5f5f60608587031215614253575f5ffd5b843567ffffffffffffffff811115614269575f5ffd5b614275878288016141f7565b945050602085013561428681613d27565b9250604085013567ffffffffffffffff811115614045575f5ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b80820180821115610fce57610fce6142a1565b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff8203614311576143116142a1565b5060010190565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b828152604060208201525f612f196040830184614318565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f82357ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffea18336030181126143db575f5ffd5b9190910192915050565b81810381811115610fce57610fce6142a1565b5f82357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa18336030181126143db575f5ffd5b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe184360301811261445d575f5ffd5b83018035915067ffffffffffffffff821115614477575f5ffd5b6020019150600581901b3603821315613f96575f5ffd5b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe18436030181126144c1575f5ffd5b83018035915067ffffffffffffffff8211156144db575f5ffd5b602001915036819003821315613f96575f5ffd5b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe1843603018112614522575f5ffd5b830160208101925035905067ffffffffffffffff811115614541575f5ffd5b803603821315613f96575f5ffd5b81835281816020850137505f602082840101525f60207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f840116840101905092915050565b6145bd826145a383613d48565b73ffffffffffffffffffffffffffffffffffffffff169052565b602081810135908301525f6145d560408301836144ef565b61016060408601526145ec6101608601828461454f565b9150506145fc60608401846144ef565b858303606087015261460f83828461454f565b6080868101359088015260a0808701359088015260c0808701359088015260e08087013590880152610100808701359088015292506146559150506101208401846144ef565b85830361012087015261466983828461454f565b9250505061467b6101408401846144ef565b85830361014087015261468f83828461454f565b9695505050505050565b604080825281018490525f6060600586901b8301810190830187837ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffea136839003015b8982101561473d577fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa08786030184528235818112614717575f5ffd5b614723868d8301614596565b9550506020830192506020840193506001820191506146db565b50505050828103602084015261475481858761454f565b979650505050505050565b5f5f8585111561476d575f5ffd5b83861115614779575f5ffd5b5050820193919092039150565b80357fffffffffffffffffffffffffffffffffffffffff00000000000000000000000081169060148410156147e5577fffffffffffffffffffffffffffffffffffffffff000000000000000000000000808560140360031b1b82161691505b5092915050565b602081525f612f1960208301848661454f565b5f6020828403121561480f575f5ffd5b815161387281613d27565b65ffffffffffff8181168382160190811115610fce57610fce6142a1565b818382375f9101908152919050565b86815285602082015265ffffffffffff8516604082015265ffffffffffff84166060820152821515608082015260c060a08201525f61488960c0830184614318565b98975050505050505050565b805182526020810151602083015260408101511515604083015265ffffffffffff606082015116606083015265ffffffffffff60808201511660808301525f60a082015160c060a0850152612f1960c0850182614318565b61014081525f614901610140830188614895565b905061491a602083018780518252602090810151910152565b845160608301526020948501516080830152835160a08301529284015160c0820152815173ffffffffffffffffffffffffffffffffffffffff1660e0820152908301518051610100830152909201516101209092019190915292915050565b60e081525f61498b60e0830187614895565b90506149a4602083018680518252602090810151910152565b8351606083015260208401516080830152825160a0830152602083015160c083015295945050505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b5f60038510614a32577f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b84825260606020830152614a496060830185614318565b9050826040830152949350505050565b5f60033d1115614a6f5760045f5f3e505f5160e01c5b90565b5f60443d1015614a7f5790565b6040517ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc3d016004823e80513d602482011167ffffffffffffffff82111715614ac757505090565b808201805167ffffffffffffffff811115614ae3575050505090565b7ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc3d8501016020828401011115614b1b575050505090565b614b2a60208285010185613dfa565b509392505050565b5f81518060208401855e5f93019283525090919050565b7f4141353020706f73744f702072657665727465643a200000000000000000000081525f6138726016830184614b32565b6101c081525f614b8f6101c08301868861454f565b845173ffffffffffffffffffffffffffffffffffffffff8151166020850152602081015160408501526040810151606085015260608101516080850152608081015160a085015273ffffffffffffffffffffffffffffffffffffffff60a08201511660c085015260c081015160e085015260e08101516101008501525060208501516101208401526040850151610140840152606085015161016084015260808501516101808401528281036101a08401526147548185614318565b5f60208284031215614c5b575f5ffd5b5051919050565b606081525f614c7560608301878961454f565b73ffffffffffffffffffffffffffffffffffffffff86166020840152828103604084015261488981858761454f565b606081525f614cb66060830186614596565b60208301949094525060400152919050565b7f414132332072657665727465643a20000000000000000000000000000000000081525f613872600f830184614b32565b5f5f60408385031215614d0a575f5ffd5b825167ffffffffffffffff811115614d20575f5ffd5b8301601f81018513614d30575f5ffd5b8051614d3b81613e45565b604051614d488282613dfa565b828152876020848601011115614d5c575f5ffd5b8260208501602083015e5f60209382018401529590910151949694955050505050565b7f414133332072657665727465643a20000000000000000000000000000000000081525f613872600f830184614b3256fea264697066735822122034e82a135ca91386816b8a65d9251b9997622e203052935772620262c35aa72364736f6c634300082500336080604052348015600e575f5ffd5b506102228061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610029575f3560e01c8063570e1a361461002d575b5f5ffd5b61004061003b3660046100f1565b610069565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200160405180910390f35b5f80610078601482858761015f565b61008191610186565b60601c90505f610094846014818861015f565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92018290525084519495509360209350849250905082850182875af190505f519350806100e8575f93505b50505092915050565b5f5f60208385031215610102575f5ffd5b823567ffffffffffffffff811115610118575f5ffd5b8301601f81018513610128575f5ffd5b803567ffffffffffffffff81111561013e575f5ffd5b85602082840101111561014f575f5ffd5b6020919091019590945092505050565b5f5f8585111561016d575f5ffd5b83861115610179575f5ffd5b5050820193919092039150565b80357fffffffffffffffffffffffffffffffffffffffff00000000000000000000000081169060148410156101e5577fffffffffffffffffffffffffffffffffffffffff000000000000000000000000808560140360031b1b82161691505b509291505056fea2646970667358221220a0cb9e5d087d580ce8b8824cd53861216ec4fab62ca422881c9d190665b6de3064736f6c63430008250033",
}

// EntryPoint is an auto generated Go binding around an Ethereum contract.
type EntryPoint struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *EntryPoint) GetABI() abi.ABI {
	return c.abi
}

// NewEntryPoint creates a new instance of EntryPoint.
func NewEntryPoint() *EntryPoint {
	parsed, err := EntryPointMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &EntryPoint{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *EntryPoint) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackSIGVALIDATIONFAILED is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8f41ec5a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function SIG_VALIDATION_FAILED() view returns(uint256)
func (entryPoint *EntryPoint) PackSIGVALIDATIONFAILED() []byte {
	enc, err := entryPoint.abi.Pack("SIG_VALIDATION_FAILED")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSIGVALIDATIONFAILED is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8f41ec5a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function SIG_VALIDATION_FAILED() view returns(uint256)
func (entryPoint *EntryPoint) TryPackSIGVALIDATIONFAILED() ([]byte, error) {
	return entryPoint.abi.Pack("SIG_VALIDATION_FAILED")
}

// UnpackSIGVALIDATIONFAILED is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8f41ec5a.
//
// Solidity: function SIG_VALIDATION_FAILED() view returns(uint256)
func (entryPoint *EntryPoint) UnpackSIGVALIDATIONFAILED(data []byte) (*big.Int, error) {
	out, err := entryPoint.abi.Unpack("SIG_VALIDATION_FAILED", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackValidateSenderAndPaymaster is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x957122ab.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function _validateSenderAndPaymaster(bytes initCode, address sender, bytes paymasterAndData) view returns()
func (entryPoint *EntryPoint) PackValidateSenderAndPaymaster(initCode []byte, sender common.Address, paymasterAndData []byte) []byte {
	enc, err := entryPoint.abi.Pack("_validateSenderAndPaymaster", initCode, sender, paymasterAndData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackValidateSenderAndPaymaster is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x957122ab.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function _validateSenderAndPaymaster(bytes initCode, address sender, bytes paymasterAndData) view returns()
func (entryPoint *EntryPoint) TryPackValidateSenderAndPaymaster(initCode []byte, sender common.Address, paymasterAndData []byte) ([]byte, error) {
	return entryPoint.abi.Pack("_validateSenderAndPaymaster", initCode, sender, paymasterAndData)
}

// PackAddStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0396cb60.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addStake(uint32 unstakeDelaySec) payable returns()
func (entryPoint *EntryPoint) PackAddStake(unstakeDelaySec uint32) []byte {
	enc, err := entryPoint.abi.Pack("addStake", unstakeDelaySec)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0396cb60.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addStake(uint32 unstakeDelaySec) payable returns()
func (entryPoint *EntryPoint) TryPackAddStake(unstakeDelaySec uint32) ([]byte, error) {
	return entryPoint.abi.Pack("addStake", unstakeDelaySec)
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (entryPoint *EntryPoint) PackBalanceOf(account common.Address) []byte {
	enc, err := entryPoint.abi.Pack("balanceOf", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (entryPoint *EntryPoint) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return entryPoint.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (entryPoint *EntryPoint) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := entryPoint.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDepositTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb760faf9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function depositTo(address account) payable returns()
func (entryPoint *EntryPoint) PackDepositTo(account common.Address) []byte {
	enc, err := entryPoint.abi.Pack("depositTo", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDepositTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb760faf9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function depositTo(address account) payable returns()
func (entryPoint *EntryPoint) TryPackDepositTo(account common.Address) ([]byte, error) {
	return entryPoint.abi.Pack("depositTo", account)
}

// PackDeposits is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfc7e286d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deposits(address ) view returns(uint112 deposit, bool staked, uint112 stake, uint32 unstakeDelaySec, uint48 withdrawTime)
func (entryPoint *EntryPoint) PackDeposits(arg0 common.Address) []byte {
	enc, err := entryPoint.abi.Pack("deposits", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeposits is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfc7e286d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deposits(address ) view returns(uint112 deposit, bool staked, uint112 stake, uint32 unstakeDelaySec, uint48 withdrawTime)
func (entryPoint *EntryPoint) TryPackDeposits(arg0 common.Address) ([]byte, error) {
	return entryPoint.abi.Pack("deposits", arg0)
}

// DepositsOutput serves as a container for the return parameters of contract
// method Deposits.
type DepositsOutput struct {
	Deposit         *big.Int
	Staked          bool
	Stake           *big.Int
	UnstakeDelaySec uint32
	WithdrawTime    *big.Int
}

// UnpackDeposits is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfc7e286d.
//
// Solidity: function deposits(address ) view returns(uint112 deposit, bool staked, uint112 stake, uint32 unstakeDelaySec, uint48 withdrawTime)
func (entryPoint *EntryPoint) UnpackDeposits(data []byte) (DepositsOutput, error) {
	out, err := entryPoint.abi.Unpack("deposits", data)
	outstruct := new(DepositsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Deposit = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Staked = *abi.ConvertType(out[1], new(bool)).(*bool)
	outstruct.Stake = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.UnstakeDelaySec = *abi.ConvertType(out[3], new(uint32)).(*uint32)
	outstruct.WithdrawTime = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackGetDepositInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5287ce12.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getDepositInfo(address account) view returns((uint112,bool,uint112,uint32,uint48) info)
func (entryPoint *EntryPoint) PackGetDepositInfo(account common.Address) []byte {
	enc, err := entryPoint.abi.Pack("getDepositInfo", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetDepositInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5287ce12.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getDepositInfo(address account) view returns((uint112,bool,uint112,uint32,uint48) info)
func (entryPoint *EntryPoint) TryPackGetDepositInfo(account common.Address) ([]byte, error) {
	return entryPoint.abi.Pack("getDepositInfo", account)
}

// UnpackGetDepositInfo is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5287ce12.
//
// Solidity: function getDepositInfo(address account) view returns((uint112,bool,uint112,uint32,uint48) info)
func (entryPoint *EntryPoint) UnpackGetDepositInfo(data []byte) (IStakeManagerDepositInfo, error) {
	out, err := entryPoint.abi.Unpack("getDepositInfo", data)
	if err != nil {
		return *new(IStakeManagerDepositInfo), err
	}
	out0 := *abi.ConvertType(out[0], new(IStakeManagerDepositInfo)).(*IStakeManagerDepositInfo)
	return out0, nil
}

// PackGetNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x35567e1a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getNonce(address sender, uint192 key) view returns(uint256 nonce)
func (entryPoint *EntryPoint) PackGetNonce(sender common.Address, key *big.Int) []byte {
	enc, err := entryPoint.abi.Pack("getNonce", sender, key)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x35567e1a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getNonce(address sender, uint192 key) view returns(uint256 nonce)
func (entryPoint *EntryPoint) TryPackGetNonce(sender common.Address, key *big.Int) ([]byte, error) {
	return entryPoint.abi.Pack("getNonce", sender, key)
}

// UnpackGetNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x35567e1a.
//
// Solidity: function getNonce(address sender, uint192 key) view returns(uint256 nonce)
func (entryPoint *EntryPoint) UnpackGetNonce(data []byte) (*big.Int, error) {
	out, err := entryPoint.abi.Unpack("getNonce", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetSenderAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9b249f69.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getSenderAddress(bytes initCode) returns()
func (entryPoint *EntryPoint) PackGetSenderAddress(initCode []byte) []byte {
	enc, err := entryPoint.abi.Pack("getSenderAddress", initCode)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetSenderAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9b249f69.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getSenderAddress(bytes initCode) returns()
func (entryPoint *EntryPoint) TryPackGetSenderAddress(initCode []byte) ([]byte, error) {
	return entryPoint.abi.Pack("getSenderAddress", initCode)
}

// PackGetUserOpHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa6193531.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getUserOpHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp) view returns(bytes32)
func (entryPoint *EntryPoint) PackGetUserOpHash(userOp UserOperation) []byte {
	enc, err := entryPoint.abi.Pack("getUserOpHash", userOp)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetUserOpHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa6193531.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getUserOpHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp) view returns(bytes32)
func (entryPoint *EntryPoint) TryPackGetUserOpHash(userOp UserOperation) ([]byte, error) {
	return entryPoint.abi.Pack("getUserOpHash", userOp)
}

// UnpackGetUserOpHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa6193531.
//
// Solidity: function getUserOpHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp) view returns(bytes32)
func (entryPoint *EntryPoint) UnpackGetUserOpHash(data []byte) ([32]byte, error) {
	out, err := entryPoint.abi.Unpack("getUserOpHash", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackHandleAggregatedOps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b1d7cf5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function handleAggregatedOps(((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)[],address,bytes)[] opsPerAggregator, address beneficiary) returns()
func (entryPoint *EntryPoint) PackHandleAggregatedOps(opsPerAggregator []IEntryPointUserOpsPerAggregator, beneficiary common.Address) []byte {
	enc, err := entryPoint.abi.Pack("handleAggregatedOps", opsPerAggregator, beneficiary)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHandleAggregatedOps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b1d7cf5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function handleAggregatedOps(((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)[],address,bytes)[] opsPerAggregator, address beneficiary) returns()
func (entryPoint *EntryPoint) TryPackHandleAggregatedOps(opsPerAggregator []IEntryPointUserOpsPerAggregator, beneficiary common.Address) ([]byte, error) {
	return entryPoint.abi.Pack("handleAggregatedOps", opsPerAggregator, beneficiary)
}

// PackHandleOps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1fad948c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function handleOps((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)[] ops, address beneficiary) returns()
func (entryPoint *EntryPoint) PackHandleOps(ops []UserOperation, beneficiary common.Address) []byte {
	enc, err := entryPoint.abi.Pack("handleOps", ops, beneficiary)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHandleOps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1fad948c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function handleOps((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)[] ops, address beneficiary) returns()
func (entryPoint *EntryPoint) TryPackHandleOps(ops []UserOperation, beneficiary common.Address) ([]byte, error) {
	return entryPoint.abi.Pack("handleOps", ops, beneficiary)
}

// PackIncrementNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0bd28e3b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function incrementNonce(uint192 key) returns()
func (entryPoint *EntryPoint) PackIncrementNonce(key *big.Int) []byte {
	enc, err := entryPoint.abi.Pack("incrementNonce", key)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIncrementNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0bd28e3b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function incrementNonce(uint192 key) returns()
func (entryPoint *EntryPoint) TryPackIncrementNonce(key *big.Int) ([]byte, error) {
	return entryPoint.abi.Pack("incrementNonce", key)
}

// PackInnerHandleOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1d732756.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function innerHandleOp(bytes callData, ((address,uint256,uint256,uint256,uint256,address,uint256,uint256),bytes32,uint256,uint256,uint256) opInfo, bytes context) returns(uint256 actualGasCost)
func (entryPoint *EntryPoint) PackInnerHandleOp(callData []byte, opInfo EntryPointUserOpInfo, context []byte) []byte {
	enc, err := entryPoint.abi.Pack("innerHandleOp", callData, opInfo, context)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackInnerHandleOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1d732756.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function innerHandleOp(bytes callData, ((address,uint256,uint256,uint256,uint256,address,uint256,uint256),bytes32,uint256,uint256,uint256) opInfo, bytes context) returns(uint256 actualGasCost)
func (entryPoint *EntryPoint) TryPackInnerHandleOp(callData []byte, opInfo EntryPointUserOpInfo, context []byte) ([]byte, error) {
	return entryPoint.abi.Pack("innerHandleOp", callData, opInfo, context)
}

// UnpackInnerHandleOp is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1d732756.
//
// Solidity: function innerHandleOp(bytes callData, ((address,uint256,uint256,uint256,uint256,address,uint256,uint256),bytes32,uint256,uint256,uint256) opInfo, bytes context) returns(uint256 actualGasCost)
func (entryPoint *EntryPoint) UnpackInnerHandleOp(data []byte) (*big.Int, error) {
	out, err := entryPoint.abi.Unpack("innerHandleOp", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackNonceSequenceNumber is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1b2e01b8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nonceSequenceNumber(address , uint192 ) view returns(uint256)
func (entryPoint *EntryPoint) PackNonceSequenceNumber(arg0 common.Address, arg1 *big.Int) []byte {
	enc, err := entryPoint.abi.Pack("nonceSequenceNumber", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNonceSequenceNumber is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1b2e01b8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nonceSequenceNumber(address , uint192 ) view returns(uint256)
func (entryPoint *EntryPoint) TryPackNonceSequenceNumber(arg0 common.Address, arg1 *big.Int) ([]byte, error) {
	return entryPoint.abi.Pack("nonceSequenceNumber", arg0, arg1)
}

// UnpackNonceSequenceNumber is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1b2e01b8.
//
// Solidity: function nonceSequenceNumber(address , uint192 ) view returns(uint256)
func (entryPoint *EntryPoint) UnpackNonceSequenceNumber(data []byte) (*big.Int, error) {
	out, err := entryPoint.abi.Unpack("nonceSequenceNumber", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSimulateHandleOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd6383f94.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function simulateHandleOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) op, address target, bytes targetCallData) returns()
func (entryPoint *EntryPoint) PackSimulateHandleOp(op UserOperation, target common.Address, targetCallData []byte) []byte {
	enc, err := entryPoint.abi.Pack("simulateHandleOp", op, target, targetCallData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSimulateHandleOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd6383f94.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function simulateHandleOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) op, address target, bytes targetCallData) returns()
func (entryPoint *EntryPoint) TryPackSimulateHandleOp(op UserOperation, target common.Address, targetCallData []byte) ([]byte, error) {
	return entryPoint.abi.Pack("simulateHandleOp", op, target, targetCallData)
}

// PackSimulateValidation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xee219423.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function simulateValidation((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp) returns()
func (entryPoint *EntryPoint) PackSimulateValidation(userOp UserOperation) []byte {
	enc, err := entryPoint.abi.Pack("simulateValidation", userOp)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSimulateValidation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xee219423.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function simulateValidation((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp) returns()
func (entryPoint *EntryPoint) TryPackSimulateValidation(userOp UserOperation) ([]byte, error) {
	return entryPoint.abi.Pack("simulateValidation", userOp)
}

// PackUnlockStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb9fe6bf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unlockStake() returns()
func (entryPoint *EntryPoint) PackUnlockStake() []byte {
	enc, err := entryPoint.abi.Pack("unlockStake")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnlockStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb9fe6bf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unlockStake() returns()
func (entryPoint *EntryPoint) TryPackUnlockStake() ([]byte, error) {
	return entryPoint.abi.Pack("unlockStake")
}

// PackWithdrawStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc23a5cea.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawStake(address withdrawAddress) returns()
func (entryPoint *EntryPoint) PackWithdrawStake(withdrawAddress common.Address) []byte {
	enc, err := entryPoint.abi.Pack("withdrawStake", withdrawAddress)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc23a5cea.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawStake(address withdrawAddress) returns()
func (entryPoint *EntryPoint) TryPackWithdrawStake(withdrawAddress common.Address) ([]byte, error) {
	return entryPoint.abi.Pack("withdrawStake", withdrawAddress)
}

// PackWithdrawTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x205c2878.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawTo(address withdrawAddress, uint256 withdrawAmount) returns()
func (entryPoint *EntryPoint) PackWithdrawTo(withdrawAddress common.Address, withdrawAmount *big.Int) []byte {
	enc, err := entryPoint.abi.Pack("withdrawTo", withdrawAddress, withdrawAmount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x205c2878.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawTo(address withdrawAddress, uint256 withdrawAmount) returns()
func (entryPoint *EntryPoint) TryPackWithdrawTo(withdrawAddress common.Address, withdrawAmount *big.Int) ([]byte, error) {
	return entryPoint.abi.Pack("withdrawTo", withdrawAddress, withdrawAmount)
}

// EntryPointAccountDeployed represents a AccountDeployed event raised by the EntryPoint contract.
type EntryPointAccountDeployed struct {
	UserOpHash [32]byte
	Sender     common.Address
	Factory    common.Address
	Paymaster  common.Address
	Raw        *types.Log // Blockchain specific contextual infos
}

const EntryPointAccountDeployedEventName = "AccountDeployed"

// ContractEventName returns the user-defined event name.
func (EntryPointAccountDeployed) ContractEventName() string {
	return EntryPointAccountDeployedEventName
}

// UnpackAccountDeployedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster)
func (entryPoint *EntryPoint) UnpackAccountDeployedEvent(log *types.Log) (*EntryPointAccountDeployed, error) {
	event := "AccountDeployed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointAccountDeployed)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointBeforeExecution represents a BeforeExecution event raised by the EntryPoint contract.
type EntryPointBeforeExecution struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const EntryPointBeforeExecutionEventName = "BeforeExecution"

// ContractEventName returns the user-defined event name.
func (EntryPointBeforeExecution) ContractEventName() string {
	return EntryPointBeforeExecutionEventName
}

// UnpackBeforeExecutionEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BeforeExecution()
func (entryPoint *EntryPoint) UnpackBeforeExecutionEvent(log *types.Log) (*EntryPointBeforeExecution, error) {
	event := "BeforeExecution"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointBeforeExecution)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointDeposited represents a Deposited event raised by the EntryPoint contract.
type EntryPointDeposited struct {
	Account      common.Address
	TotalDeposit *big.Int
	Raw          *types.Log // Blockchain specific contextual infos
}

const EntryPointDepositedEventName = "Deposited"

// ContractEventName returns the user-defined event name.
func (EntryPointDeposited) ContractEventName() string {
	return EntryPointDepositedEventName
}

// UnpackDepositedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Deposited(address indexed account, uint256 totalDeposit)
func (entryPoint *EntryPoint) UnpackDepositedEvent(log *types.Log) (*EntryPointDeposited, error) {
	event := "Deposited"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointDeposited)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointSignatureAggregatorChanged represents a SignatureAggregatorChanged event raised by the EntryPoint contract.
type EntryPointSignatureAggregatorChanged struct {
	Aggregator common.Address
	Raw        *types.Log // Blockchain specific contextual infos
}

const EntryPointSignatureAggregatorChangedEventName = "SignatureAggregatorChanged"

// ContractEventName returns the user-defined event name.
func (EntryPointSignatureAggregatorChanged) ContractEventName() string {
	return EntryPointSignatureAggregatorChangedEventName
}

// UnpackSignatureAggregatorChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SignatureAggregatorChanged(address indexed aggregator)
func (entryPoint *EntryPoint) UnpackSignatureAggregatorChangedEvent(log *types.Log) (*EntryPointSignatureAggregatorChanged, error) {
	event := "SignatureAggregatorChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointSignatureAggregatorChanged)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointStakeLocked represents a StakeLocked event raised by the EntryPoint contract.
type EntryPointStakeLocked struct {
	Account         common.Address
	TotalStaked     *big.Int
	UnstakeDelaySec *big.Int
	Raw             *types.Log // Blockchain specific contextual infos
}

const EntryPointStakeLockedEventName = "StakeLocked"

// ContractEventName returns the user-defined event name.
func (EntryPointStakeLocked) ContractEventName() string {
	return EntryPointStakeLockedEventName
}

// UnpackStakeLockedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event StakeLocked(address indexed account, uint256 totalStaked, uint256 unstakeDelaySec)
func (entryPoint *EntryPoint) UnpackStakeLockedEvent(log *types.Log) (*EntryPointStakeLocked, error) {
	event := "StakeLocked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointStakeLocked)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointStakeUnlocked represents a StakeUnlocked event raised by the EntryPoint contract.
type EntryPointStakeUnlocked struct {
	Account      common.Address
	WithdrawTime *big.Int
	Raw          *types.Log // Blockchain specific contextual infos
}

const EntryPointStakeUnlockedEventName = "StakeUnlocked"

// ContractEventName returns the user-defined event name.
func (EntryPointStakeUnlocked) ContractEventName() string {
	return EntryPointStakeUnlockedEventName
}

// UnpackStakeUnlockedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event StakeUnlocked(address indexed account, uint256 withdrawTime)
func (entryPoint *EntryPoint) UnpackStakeUnlockedEvent(log *types.Log) (*EntryPointStakeUnlocked, error) {
	event := "StakeUnlocked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointStakeUnlocked)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointStakeWithdrawn represents a StakeWithdrawn event raised by the EntryPoint contract.
type EntryPointStakeWithdrawn struct {
	Account         common.Address
	WithdrawAddress common.Address
	Amount          *big.Int
	Raw             *types.Log // Blockchain specific contextual infos
}

const EntryPointStakeWithdrawnEventName = "StakeWithdrawn"

// ContractEventName returns the user-defined event name.
func (EntryPointStakeWithdrawn) ContractEventName() string {
	return EntryPointStakeWithdrawnEventName
}

// UnpackStakeWithdrawnEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event StakeWithdrawn(address indexed account, address withdrawAddress, uint256 amount)
func (entryPoint *EntryPoint) UnpackStakeWithdrawnEvent(log *types.Log) (*EntryPointStakeWithdrawn, error) {
	event := "StakeWithdrawn"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointStakeWithdrawn)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointUserOperationEvent represents a UserOperationEvent event raised by the EntryPoint contract.
type EntryPointUserOperationEvent struct {
	UserOpHash    [32]byte
	Sender        common.Address
	Paymaster     common.Address
	Nonce         *big.Int
	Success       bool
	ActualGasCost *big.Int
	ActualGasUsed *big.Int
	Raw           *types.Log // Blockchain specific contextual infos
}

const EntryPointUserOperationEventEventName = "UserOperationEvent"

// ContractEventName returns the user-defined event name.
func (EntryPointUserOperationEvent) ContractEventName() string {
	return EntryPointUserOperationEventEventName
}

// UnpackUserOperationEventEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)
func (entryPoint *EntryPoint) UnpackUserOperationEventEvent(log *types.Log) (*EntryPointUserOperationEvent, error) {
	event := "UserOperationEvent"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointUserOperationEvent)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointUserOperationRevertReason represents a UserOperationRevertReason event raised by the EntryPoint contract.
type EntryPointUserOperationRevertReason struct {
	UserOpHash   [32]byte
	Sender       common.Address
	Nonce        *big.Int
	RevertReason []byte
	Raw          *types.Log // Blockchain specific contextual infos
}

const EntryPointUserOperationRevertReasonEventName = "UserOperationRevertReason"

// ContractEventName returns the user-defined event name.
func (EntryPointUserOperationRevertReason) ContractEventName() string {
	return EntryPointUserOperationRevertReasonEventName
}

// UnpackUserOperationRevertReasonEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason)
func (entryPoint *EntryPoint) UnpackUserOperationRevertReasonEvent(log *types.Log) (*EntryPointUserOperationRevertReason, error) {
	event := "UserOperationRevertReason"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointUserOperationRevertReason)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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

// EntryPointWithdrawn represents a Withdrawn event raised by the EntryPoint contract.
type EntryPointWithdrawn struct {
	Account         common.Address
	WithdrawAddress common.Address
	Amount          *big.Int
	Raw             *types.Log // Blockchain specific contextual infos
}

const EntryPointWithdrawnEventName = "Withdrawn"

// ContractEventName returns the user-defined event name.
func (EntryPointWithdrawn) ContractEventName() string {
	return EntryPointWithdrawnEventName
}

// UnpackWithdrawnEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawn(address indexed account, address withdrawAddress, uint256 amount)
func (entryPoint *EntryPoint) UnpackWithdrawnEvent(log *types.Log) (*EntryPointWithdrawn, error) {
	event := "Withdrawn"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != entryPoint.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(EntryPointWithdrawn)
	if len(log.Data) > 0 {
		if err := entryPoint.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range entryPoint.abi.Events[event].Inputs {
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
func (entryPoint *EntryPoint) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], entryPoint.abi.Errors["ExecutionResult"].ID.Bytes()[:4]) {
		return entryPoint.UnpackExecutionResultError(raw[4:])
	}
	if bytes.Equal(raw[:4], entryPoint.abi.Errors["FailedOp"].ID.Bytes()[:4]) {
		return entryPoint.UnpackFailedOpError(raw[4:])
	}
	if bytes.Equal(raw[:4], entryPoint.abi.Errors["SenderAddressResult"].ID.Bytes()[:4]) {
		return entryPoint.UnpackSenderAddressResultError(raw[4:])
	}
	if bytes.Equal(raw[:4], entryPoint.abi.Errors["SignatureValidationFailed"].ID.Bytes()[:4]) {
		return entryPoint.UnpackSignatureValidationFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], entryPoint.abi.Errors["ValidationResult"].ID.Bytes()[:4]) {
		return entryPoint.UnpackValidationResultError(raw[4:])
	}
	if bytes.Equal(raw[:4], entryPoint.abi.Errors["ValidationResultWithAggregation"].ID.Bytes()[:4]) {
		return entryPoint.UnpackValidationResultWithAggregationError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// EntryPointExecutionResult represents a ExecutionResult error raised by the EntryPoint contract.
type EntryPointExecutionResult struct {
	PreOpGas      *big.Int
	Paid          *big.Int
	ValidAfter    *big.Int
	ValidUntil    *big.Int
	TargetSuccess bool
	TargetResult  []byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ExecutionResult(uint256 preOpGas, uint256 paid, uint48 validAfter, uint48 validUntil, bool targetSuccess, bytes targetResult)
func EntryPointExecutionResultErrorID() common.Hash {
	return common.HexToHash("0x8b7ac980c9a57f7f2f74cf7613c27791f7331eb23a5ffb50336b4b39f85073e8")
}

// UnpackExecutionResultError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ExecutionResult(uint256 preOpGas, uint256 paid, uint48 validAfter, uint48 validUntil, bool targetSuccess, bytes targetResult)
func (entryPoint *EntryPoint) UnpackExecutionResultError(raw []byte) (*EntryPointExecutionResult, error) {
	out := new(EntryPointExecutionResult)
	if err := entryPoint.abi.UnpackIntoInterface(out, "ExecutionResult", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// EntryPointFailedOp represents a FailedOp error raised by the EntryPoint contract.
type EntryPointFailedOp struct {
	OpIndex *big.Int
	Reason  string
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error FailedOp(uint256 opIndex, string reason)
func EntryPointFailedOpErrorID() common.Hash {
	return common.HexToHash("0x220266b6eadfd2488e398d00abc1c765e1f119da6226c1b55ec9cc0186560475")
}

// UnpackFailedOpError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error FailedOp(uint256 opIndex, string reason)
func (entryPoint *EntryPoint) UnpackFailedOpError(raw []byte) (*EntryPointFailedOp, error) {
	out := new(EntryPointFailedOp)
	if err := entryPoint.abi.UnpackIntoInterface(out, "FailedOp", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// EntryPointSenderAddressResult represents a SenderAddressResult error raised by the EntryPoint contract.
type EntryPointSenderAddressResult struct {
	Sender common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SenderAddressResult(address sender)
func EntryPointSenderAddressResultErrorID() common.Hash {
	return common.HexToHash("0x6ca7b806055bb56d141e3a30604d4c6540fe6f010574d1b40dfd951da77b956d")
}

// UnpackSenderAddressResultError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SenderAddressResult(address sender)
func (entryPoint *EntryPoint) UnpackSenderAddressResultError(raw []byte) (*EntryPointSenderAddressResult, error) {
	out := new(EntryPointSenderAddressResult)
	if err := entryPoint.abi.UnpackIntoInterface(out, "SenderAddressResult", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// EntryPointSignatureValidationFailed represents a SignatureValidationFailed error raised by the EntryPoint contract.
type EntryPointSignatureValidationFailed struct {
	Aggregator common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SignatureValidationFailed(address aggregator)
func EntryPointSignatureValidationFailedErrorID() common.Hash {
	return common.HexToHash("0x86a9f750e187f100e9e8a18befbbf44e6f512d6f78cfe16a061541aaaad52523")
}

// UnpackSignatureValidationFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SignatureValidationFailed(address aggregator)
func (entryPoint *EntryPoint) UnpackSignatureValidationFailedError(raw []byte) (*EntryPointSignatureValidationFailed, error) {
	out := new(EntryPointSignatureValidationFailed)
	if err := entryPoint.abi.UnpackIntoInterface(out, "SignatureValidationFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// EntryPointValidationResult represents a ValidationResult error raised by the EntryPoint contract.
type EntryPointValidationResult struct {
	ReturnInfo    IEntryPointReturnInfo
	SenderInfo    IStakeManagerStakeInfo
	FactoryInfo   IStakeManagerStakeInfo
	PaymasterInfo IStakeManagerStakeInfo
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ValidationResult((uint256,uint256,bool,uint48,uint48,bytes) returnInfo, (uint256,uint256) senderInfo, (uint256,uint256) factoryInfo, (uint256,uint256) paymasterInfo)
func EntryPointValidationResultErrorID() common.Hash {
	return common.HexToHash("0xe0cff05fc1f42f3f70ba555460161fb054cc6b212c0da5cb0fc7a625e623a3b5")
}

// UnpackValidationResultError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ValidationResult((uint256,uint256,bool,uint48,uint48,bytes) returnInfo, (uint256,uint256) senderInfo, (uint256,uint256) factoryInfo, (uint256,uint256) paymasterInfo)
func (entryPoint *EntryPoint) UnpackValidationResultError(raw []byte) (*EntryPointValidationResult, error) {
	out := new(EntryPointValidationResult)
	if err := entryPoint.abi.UnpackIntoInterface(out, "ValidationResult", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// EntryPointValidationResultWithAggregation represents a ValidationResultWithAggregation error raised by the EntryPoint contract.
type EntryPointValidationResultWithAggregation struct {
	ReturnInfo     IEntryPointReturnInfo
	SenderInfo     IStakeManagerStakeInfo
	FactoryInfo    IStakeManagerStakeInfo
	PaymasterInfo  IStakeManagerStakeInfo
	AggregatorInfo IEntryPointAggregatorStakeInfo
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ValidationResultWithAggregation((uint256,uint256,bool,uint48,uint48,bytes) returnInfo, (uint256,uint256) senderInfo, (uint256,uint256) factoryInfo, (uint256,uint256) paymasterInfo, (address,(uint256,uint256)) aggregatorInfo)
func EntryPointValidationResultWithAggregationErrorID() common.Hash {
	return common.HexToHash("0xfaecb4e48e912cf4f16a0b6aa9e4bbbe51688c4eb6340439668ae3662d39b5c8")
}

// UnpackValidationResultWithAggregationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ValidationResultWithAggregation((uint256,uint256,bool,uint48,uint48,bytes) returnInfo, (uint256,uint256) senderInfo, (uint256,uint256) factoryInfo, (uint256,uint256) paymasterInfo, (address,(uint256,uint256)) aggregatorInfo)
func (entryPoint *EntryPoint) UnpackValidationResultWithAggregationError(raw []byte) (*EntryPointValidationResultWithAggregation, error) {
	out := new(EntryPointValidationResultWithAggregation)
	if err := entryPoint.abi.UnpackIntoInterface(out, "ValidationResultWithAggregation", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// FeeTokenMetaData contains all meta data concerning the FeeToken contract.
var FeeTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"feeBps_\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"subtractedValue\",\"type\":\"uint256\"}],\"name\":\"decreaseAllowance\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"feeBps\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"addedValue\",\"type\":\"uint256\"}],\"name\":\"increaseAllowance\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"bps\",\"type\":\"uint256\"}],\"name\":\"setFee\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "ace35063e52b6a489adf4003b492b50b47",
	Bin: "0x608060405234801561000f575f5ffd5b506040516111a23803806111a283398101604081905261002e916100fb565b604051806040016040528060098152602001682332b2902a37b5b2b760b91b8152506040518060400160405280600381526020016246454560e81b815250816003908161007b91906101b5565b50600461008882826101b5565b50505061009a816100a060201b60201c565b50610273565b6127108111156100f65760405162461bcd60e51b815260206004820152601760248201527f466565546f6b656e3a20666565206f7665722031303025000000000000000000604482015260640160405180910390fd5b600555565b5f6020828403121561010b575f5ffd5b5051919050565b634e487b7160e01b5f52604160045260245ffd5b600181811c9082168061013a57607f821691505b60208210810361015857634e487b7160e01b5f52602260045260245ffd5b50919050565b601f8211156101b057828211156101b057805f5260205f20601f840160051c602085101561018957505f5b90810190601f840160051c035f5b818110156101ac575f83820155600101610197565b5050505b505050565b81516001600160401b038111156101ce576101ce610112565b6101e2816101dc8454610126565b8461015e565b6020601f821160018114610214575f83156101fd5750848201515b5f19600385901b1c1916600184901b17845561026c565b5f84815260208120601f198516915b828110156102435787850151825560209485019460019092019101610223565b508482101561026057868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b610f22806102805f395ff3fe608060405234801561000f575f5ffd5b50600436106100e5575f3560e01c806340c10f191161008857806395d89b411161006357806395d89b41146101d7578063a457c2d7146101df578063a9059cbb146101f2578063dd62ed3e14610205575f5ffd5b806340c10f191461017a57806369fe0e2d1461018f57806370a08231146101a2575f5ffd5b806323b872dd116100c357806323b872dd1461013c57806324a9d8531461014f578063313ce567146101585780633950935114610167575f5ffd5b806306fdde03146100e9578063095ea7b31461010757806318160ddd1461012a575b5f5ffd5b6100f161024a565b6040516100fe9190610cb4565b60405180910390f35b61011a610115366004610d2f565b6102da565b60405190151581526020016100fe565b6002545b6040519081526020016100fe565b61011a61014a366004610d57565b6102f3565b61012e60055481565b604051600681526020016100fe565b61011a610175366004610d2f565b610316565b61018d610188366004610d2f565b610361565b005b61018d61019d366004610d91565b61036f565b61012e6101b0366004610da8565b73ffffffffffffffffffffffffffffffffffffffff165f9081526020819052604090205490565b6100f16103e5565b61011a6101ed366004610d2f565b6103f4565b61011a610200366004610d2f565b6104c4565b61012e610213366004610dc8565b73ffffffffffffffffffffffffffffffffffffffff9182165f90815260016020908152604080832093909416825291909152205490565b60606003805461025990610df9565b80601f016020809104026020016040519081016040528092919081815260200182805461028590610df9565b80156102d05780601f106102a7576101008083540402835291602001916102d0565b820191905f5260205f20905b8154815290600101906020018083116102b357829003601f168201915b5050505050905090565b5f336102e78185856104d1565b60019150505b92915050565b5f33610300858285610684565b61030b85858561075a565b506001949350505050565b335f81815260016020908152604080832073ffffffffffffffffffffffffffffffffffffffff871684529091528120549091906102e7908290869061035c908790610e77565b6104d1565b61036b828261079c565b5050565b6127108111156103e0576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f466565546f6b656e3a20666565206f766572203130302500000000000000000060448201526064015b60405180910390fd5b600555565b60606004805461025990610df9565b335f81815260016020908152604080832073ffffffffffffffffffffffffffffffffffffffff87168452909152812054909190838110156104b7576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602560248201527f45524332303a2064656372656173656420616c6c6f77616e63652062656c6f7760448201527f207a65726f00000000000000000000000000000000000000000000000000000060648201526084016103d7565b61030b82868684036104d1565b5f336102e781858561075a565b73ffffffffffffffffffffffffffffffffffffffff8316610573576040517f08c379a0000000000000000000000000000000000000000000000000000000008152602060048201526024808201527f45524332303a20617070726f76652066726f6d20746865207a65726f2061646460448201527f726573730000000000000000000000000000000000000000000000000000000060648201526084016103d7565b73ffffffffffffffffffffffffffffffffffffffff8216610616576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45524332303a20617070726f766520746f20746865207a65726f20616464726560448201527f737300000000000000000000000000000000000000000000000000000000000060648201526084016103d7565b73ffffffffffffffffffffffffffffffffffffffff8381165f8181526001602090815260408083209487168084529482529182902085905590518481527f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b92591015b60405180910390a3505050565b73ffffffffffffffffffffffffffffffffffffffff8381165f908152600160209081526040808320938616835292905220547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff81146107545781811015610747576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f45524332303a20696e73756666696369656e7420616c6c6f77616e636500000060448201526064016103d7565b61075484848484036104d1565b50505050565b5f6127106005548361076c9190610e8a565b6107769190610ea1565b9050801561078857610788848261088d565b61075484846107978486610ed9565b610a47565b73ffffffffffffffffffffffffffffffffffffffff8216610819576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45524332303a206d696e7420746f20746865207a65726f20616464726573730060448201526064016103d7565b8060025f82825461082a9190610e77565b909155505073ffffffffffffffffffffffffffffffffffffffff82165f81815260208181526040808320805486019055518481527fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a35050565b73ffffffffffffffffffffffffffffffffffffffff8216610930576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602160248201527f45524332303a206275726e2066726f6d20746865207a65726f2061646472657360448201527f730000000000000000000000000000000000000000000000000000000000000060648201526084016103d7565b73ffffffffffffffffffffffffffffffffffffffff82165f90815260208190526040902054818110156109e5576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45524332303a206275726e20616d6f756e7420657863656564732062616c616e60448201527f636500000000000000000000000000000000000000000000000000000000000060648201526084016103d7565b73ffffffffffffffffffffffffffffffffffffffff83165f818152602081815260408083208686039055600280548790039055518581529192917fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9101610677565b73ffffffffffffffffffffffffffffffffffffffff8316610aea576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602560248201527f45524332303a207472616e736665722066726f6d20746865207a65726f20616460448201527f647265737300000000000000000000000000000000000000000000000000000060648201526084016103d7565b73ffffffffffffffffffffffffffffffffffffffff8216610b8d576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602360248201527f45524332303a207472616e7366657220746f20746865207a65726f206164647260448201527f657373000000000000000000000000000000000000000000000000000000000060648201526084016103d7565b73ffffffffffffffffffffffffffffffffffffffff83165f9081526020819052604090205481811015610c42576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f45524332303a207472616e7366657220616d6f756e742065786365656473206260448201527f616c616e6365000000000000000000000000000000000000000000000000000060648201526084016103d7565b73ffffffffffffffffffffffffffffffffffffffff8481165f81815260208181526040808320878703905593871680835291849020805487019055925185815290927fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a3610754565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505092915050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610d2a575f5ffd5b919050565b5f5f60408385031215610d40575f5ffd5b610d4983610d07565b946020939093013593505050565b5f5f5f60608486031215610d69575f5ffd5b610d7284610d07565b9250610d8060208501610d07565b929592945050506040919091013590565b5f60208284031215610da1575f5ffd5b5035919050565b5f60208284031215610db8575f5ffd5b610dc182610d07565b9392505050565b5f5f60408385031215610dd9575f5ffd5b610de283610d07565b9150610df060208401610d07565b90509250929050565b600181811c90821680610e0d57607f821691505b602082108103610e44577f4e487b71000000000000000000000000000000000000000000000000000000005f52602260045260245ffd5b50919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b808201808211156102ed576102ed610e4a565b80820281158282048414176102ed576102ed610e4a565b5f82610ed4577f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b500490565b818103818111156102ed576102ed610e4a56fea26469706673582212206a6a40681bfab7917de1cda15149789fde0abc45a94cbedede716e0c83c86bfa64736f6c63430008250033",
}

// FeeToken is an auto generated Go binding around an Ethereum contract.
type FeeToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *FeeToken) GetABI() abi.ABI {
	return c.abi
}

// NewFeeToken creates a new instance of FeeToken.
func NewFeeToken() *FeeToken {
	parsed, err := FeeTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &FeeToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *FeeToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(uint256 feeBps_) returns()
func (feeToken *FeeToken) PackConstructor(feeBps_ *big.Int) []byte {
	enc, err := feeToken.abi.Pack("", feeBps_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (feeToken *FeeToken) PackAllowance(owner common.Address, spender common.Address) []byte {
	enc, err := feeToken.abi.Pack("allowance", owner, spender)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (feeToken *FeeToken) TryPackAllowance(owner common.Address, spender common.Address) ([]byte, error) {
	return feeToken.abi.Pack("allowance", owner, spender)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address owner, address spender) view returns(uint256)
func (feeToken *FeeToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := feeToken.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (feeToken *FeeToken) PackApprove(spender common.Address, amount *big.Int) []byte {
	enc, err := feeToken.abi.Pack("approve", spender, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (feeToken *FeeToken) TryPackApprove(spender common.Address, amount *big.Int) ([]byte, error) {
	return feeToken.abi.Pack("approve", spender, amount)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 amount) returns(bool)
func (feeToken *FeeToken) UnpackApprove(data []byte) (bool, error) {
	out, err := feeToken.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (feeToken *FeeToken) PackBalanceOf(account common.Address) []byte {
	enc, err := feeToken.abi.Pack("balanceOf", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (feeToken *FeeToken) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return feeToken.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (feeToken *FeeToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := feeToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() pure returns(uint8)
func (feeToken *FeeToken) PackDecimals() []byte {
	enc, err := feeToken.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() pure returns(uint8)
func (feeToken *FeeToken) TryPackDecimals() ([]byte, error) {
	return feeToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() pure returns(uint8)
func (feeToken *FeeToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := feeToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDecreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa457c2d7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (feeToken *FeeToken) PackDecreaseAllowance(spender common.Address, subtractedValue *big.Int) []byte {
	enc, err := feeToken.abi.Pack("decreaseAllowance", spender, subtractedValue)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa457c2d7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (feeToken *FeeToken) TryPackDecreaseAllowance(spender common.Address, subtractedValue *big.Int) ([]byte, error) {
	return feeToken.abi.Pack("decreaseAllowance", spender, subtractedValue)
}

// UnpackDecreaseAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa457c2d7.
//
// Solidity: function decreaseAllowance(address spender, uint256 subtractedValue) returns(bool)
func (feeToken *FeeToken) UnpackDecreaseAllowance(data []byte) (bool, error) {
	out, err := feeToken.abi.Unpack("decreaseAllowance", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackFeeBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x24a9d853.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function feeBps() view returns(uint256)
func (feeToken *FeeToken) PackFeeBps() []byte {
	enc, err := feeToken.abi.Pack("feeBps")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFeeBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x24a9d853.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function feeBps() view returns(uint256)
func (feeToken *FeeToken) TryPackFeeBps() ([]byte, error) {
	return feeToken.abi.Pack("feeBps")
}

// UnpackFeeBps is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x24a9d853.
//
// Solidity: function feeBps() view returns(uint256)
func (feeToken *FeeToken) UnpackFeeBps(data []byte) (*big.Int, error) {
	out, err := feeToken.abi.Unpack("feeBps", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackIncreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x39509351.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (feeToken *FeeToken) PackIncreaseAllowance(spender common.Address, addedValue *big.Int) []byte {
	enc, err := feeToken.abi.Pack("increaseAllowance", spender, addedValue)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIncreaseAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x39509351.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (feeToken *FeeToken) TryPackIncreaseAllowance(spender common.Address, addedValue *big.Int) ([]byte, error) {
	return feeToken.abi.Pack("increaseAllowance", spender, addedValue)
}

// UnpackIncreaseAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x39509351.
//
// Solidity: function increaseAllowance(address spender, uint256 addedValue) returns(bool)
func (feeToken *FeeToken) UnpackIncreaseAllowance(data []byte) (bool, error) {
	out, err := feeToken.abi.Unpack("increaseAllowance", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (feeToken *FeeToken) PackMint(to common.Address, amount *big.Int) []byte {
	enc, err := feeToken.abi.Pack("mint", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 amount) returns()
func (feeToken *FeeToken) TryPackMint(to common.Address, amount *big.Int) ([]byte, error) {
	return feeToken.abi.Pack("mint", to, amount)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (feeToken *FeeToken) PackName() []byte {
	enc, err := feeToken.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (feeToken *FeeToken) TryPackName() ([]byte, error) {
	return feeToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (feeToken *FeeToken) UnpackName(data []byte) (string, error) {
	out, err := feeToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSetFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x69fe0e2d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setFee(uint256 bps) returns()
func (feeToken *FeeToken) PackSetFee(bps *big.Int) []byte {
	enc, err := feeToken.abi.Pack("setFee", bps)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetFee is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x69fe0e2d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setFee(uint256 bps) returns()
func (feeToken *FeeToken) TryPackSetFee(bps *big.Int) ([]byte, error) {
	return feeToken.abi.Pack("setFee", bps)
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (feeToken *FeeToken) PackSymbol() []byte {
	enc, err := feeToken.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (feeToken *FeeToken) TryPackSymbol() ([]byte, error) {
	return feeToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (feeToken *FeeToken) UnpackSymbol(data []byte) (string, error) {
	out, err := feeToken.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (feeToken *FeeToken) PackTotalSupply() []byte {
	enc, err := feeToken.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (feeToken *FeeToken) TryPackTotalSupply() ([]byte, error) {
	return feeToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (feeToken *FeeToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := feeToken.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (feeToken *FeeToken) PackTransfer(to common.Address, amount *big.Int) []byte {
	enc, err := feeToken.abi.Pack("transfer", to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (feeToken *FeeToken) TryPackTransfer(to common.Address, amount *big.Int) ([]byte, error) {
	return feeToken.abi.Pack("transfer", to, amount)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 amount) returns(bool)
func (feeToken *FeeToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := feeToken.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (feeToken *FeeToken) PackTransferFrom(from common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := feeToken.abi.Pack("transferFrom", from, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (feeToken *FeeToken) TryPackTransferFrom(from common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return feeToken.abi.Pack("transferFrom", from, to, amount)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 amount) returns(bool)
func (feeToken *FeeToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := feeToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// FeeTokenApproval represents a Approval event raised by the FeeToken contract.
type FeeTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const FeeTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (FeeTokenApproval) ContractEventName() string {
	return FeeTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (feeToken *FeeToken) UnpackApprovalEvent(log *types.Log) (*FeeTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != feeToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(FeeTokenApproval)
	if len(log.Data) > 0 {
		if err := feeToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range feeToken.abi.Events[event].Inputs {
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

// FeeTokenTransfer represents a Transfer event raised by the FeeToken contract.
type FeeTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const FeeTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (FeeTokenTransfer) ContractEventName() string {
	return FeeTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (feeToken *FeeToken) UnpackTransferEvent(log *types.Log) (*FeeTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != feeToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(FeeTokenTransfer)
	if len(log.Data) > 0 {
		if err := feeToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range feeToken.abi.Events[event].Inputs {
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

// FreeRiderAccountMetaData contains all meta data concerning the FreeRiderAccount contract.
var FreeRiderAccountMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"anEntryPoint\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"anOwner\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"entryPoint\",\"outputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"dest\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"func\",\"type\":\"bytes\"}],\"name\":\"execute\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"dest\",\"type\":\"address[]\"},{\"internalType\":\"bytes[]\",\"name\":\"func\",\"type\":\"bytes[]\"}],\"name\":\"executeBatch\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getNonce\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"lastPaidBlock\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"userOp\",\"type\":\"tuple\"},{\"internalType\":\"bytes32\",\"name\":\"userOpHash\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"missingAccountFunds\",\"type\":\"uint256\"}],\"name\":\"validateUserOp\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"validationData\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "03bcec1ce5666551f00a72ad7f94d7340e",
	Bin: "0x60a060405234801561000f575f5ffd5b50604051610c9f380380610c9f83398101604081905261002e9161006c565b6001600160a01b039182166080525f80546001600160a01b031916919092161790556100a4565b6001600160a01b0381168114610069575f5ffd5b50565b5f5f6040838503121561007d575f5ffd5b825161008881610055565b602084015190925061009981610055565b809150509250929050565b608051610bd66100c95f395f818160ff015281816102e901526103b90152610bd65ff3fe608060405234801561000f575f5ffd5b506004361061007a575f3560e01c8063b0d691fe11610058578063b0d691fe146100fd578063b61d27f614610123578063d087d28814610136578063f6aced511461013e575f5ffd5b806318dfb3c71461007e5780633a871cdd146100935780638da5cb5b146100b9575b5f5ffd5b61009161008c366004610939565b610147565b005b6100a66100a13660046109a5565b61026c565b6040519081526020015b60405180910390f35b5f546100d89073ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020016100b0565b7f00000000000000000000000000000000000000000000000000000000000000006100d8565b610091610131366004610a1c565b610291565b6100a66102e6565b6100a660015481565b61014f6103a1565b8281146101bd576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601360248201527f77726f6e67206172726179206c656e677468730000000000000000000000000060448201526064015b60405180910390fd5b6101c5610442565b15610266575f5b838110156102645761025c8585838181106101e9576101e9610a9f565b90506020020160208101906101fe9190610acc565b5f85858581811061021157610211610a9f565b90506020028101906102239190610ae5565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061045b92505050565b6001016101cc565b505b50505050565b5f6102756103a1565b61027f84846104d4565b905061028a82610560565b9392505050565b6102996103a1565b6102a1610442565b1561026657610266848484848080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061045b92505050565b5f7f00000000000000000000000000000000000000000000000000000000000000006040517f35567e1a0000000000000000000000000000000000000000000000000000000081523060048201525f602482015273ffffffffffffffffffffffffffffffffffffffff91909116906335567e1a90604401602060405180830381865afa158015610378573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061039c9190610b46565b905090565b3373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614610440576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601c60248201527f6163636f756e743a206e6f742066726f6d20456e747279506f696e740000000060448201526064016101b4565b565b5f436001540361045157505f90565b5043600190815590565b5f5f8473ffffffffffffffffffffffffffffffffffffffff1684846040516104839190610b5d565b5f6040518083038185875af1925050503d805f81146104bd576040519150601f19603f3d011682016040523d82523d5f602084013e6104c2565b606091505b50915091508161026457805160208201fd5b5f61052b6104e6610140850185610ae5565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061052592508691506105c89050565b906105fa565b5f5473ffffffffffffffffffffffffffffffffffffffff90811691161461055457506001610557565b505f5b92915050565b50565b801561055d576040515f9033907fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff90849084818181858888f193505050503d805f8114610264576040519150601f19603f3d011682016040523d82523d5f602084013e610264565b7f19457468657265756d205369676e6564204d6573736167653a0a3332000000005f908152601c91909152603c902090565b5f5f5f610607858561061c565b915091506106148161065e565b509392505050565b5f5f8251604103610650576020830151604084015160608501515f1a61064487828585610810565b94509450505050610657565b505f905060025b9250929050565b5f81600481111561067157610671610b73565b036106795750565b600181600481111561068d5761068d610b73565b036106f4576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f45434453413a20696e76616c6964207369676e6174757265000000000000000060448201526064016101b4565b600281600481111561070857610708610b73565b0361076f576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45434453413a20696e76616c6964207369676e6174757265206c656e6774680060448201526064016101b4565b600381600481111561078357610783610b73565b0361055d576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45434453413a20696e76616c6964207369676e6174757265202773272076616c60448201527f756500000000000000000000000000000000000000000000000000000000000060648201526084016101b4565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a083111561084557505f905060036108ef565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015610896573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff81166108e9575f600192509250506108ef565b91505f90505b94509492505050565b5f5f83601f840112610908575f5ffd5b50813567ffffffffffffffff81111561091f575f5ffd5b6020830191508360208260051b8501011115610657575f5ffd5b5f5f5f5f6040858703121561094c575f5ffd5b843567ffffffffffffffff811115610962575f5ffd5b61096e878288016108f8565b909550935050602085013567ffffffffffffffff81111561098d575f5ffd5b610999878288016108f8565b95989497509550505050565b5f5f5f606084860312156109b7575f5ffd5b833567ffffffffffffffff8111156109cd575f5ffd5b840161016081870312156109df575f5ffd5b95602085013595506040909401359392505050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610a17575f5ffd5b919050565b5f5f5f5f60608587031215610a2f575f5ffd5b610a38856109f4565b935060208501359250604085013567ffffffffffffffff811115610a5a575f5ffd5b8501601f81018713610a6a575f5ffd5b803567ffffffffffffffff811115610a80575f5ffd5b876020828401011115610a91575f5ffd5b949793965060200194505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f60208284031215610adc575f5ffd5b61028a826109f4565b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe1843603018112610b18575f5ffd5b83018035915067ffffffffffffffff821115610b32575f5ffd5b602001915036819003821315610657575f5ffd5b5f60208284031215610b56575f5ffd5b5051919050565b5f82518060208501845e5f920191825250919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffdfea26469706673582212207a7fec260f6cbd7cdca7a58d25e65a81127ec7aba449011c987ca30745e4d6d164736f6c63430008250033",
}

// FreeRiderAccount is an auto generated Go binding around an Ethereum contract.
type FreeRiderAccount struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *FreeRiderAccount) GetABI() abi.ABI {
	return c.abi
}

// NewFreeRiderAccount creates a new instance of FreeRiderAccount.
func NewFreeRiderAccount() *FreeRiderAccount {
	parsed, err := FreeRiderAccountMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &FreeRiderAccount{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *FreeRiderAccount) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address anEntryPoint, address anOwner) returns()
func (freeRiderAccount *FreeRiderAccount) PackConstructor(anEntryPoint common.Address, anOwner common.Address) []byte {
	enc, err := freeRiderAccount.abi.Pack("", anEntryPoint, anOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function entryPoint() view returns(address)
func (freeRiderAccount *FreeRiderAccount) PackEntryPoint() []byte {
	enc, err := freeRiderAccount.abi.Pack("entryPoint")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function entryPoint() view returns(address)
func (freeRiderAccount *FreeRiderAccount) TryPackEntryPoint() ([]byte, error) {
	return freeRiderAccount.abi.Pack("entryPoint")
}

// UnpackEntryPoint is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb0d691fe.
//
// Solidity: function entryPoint() view returns(address)
func (freeRiderAccount *FreeRiderAccount) UnpackEntryPoint(data []byte) (common.Address, error) {
	out, err := freeRiderAccount.abi.Unpack("entryPoint", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function execute(address dest, uint256 value, bytes func) returns()
func (freeRiderAccount *FreeRiderAccount) PackExecute(dest common.Address, value *big.Int, arg2 []byte) []byte {
	enc, err := freeRiderAccount.abi.Pack("execute", dest, value, arg2)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function execute(address dest, uint256 value, bytes func) returns()
func (freeRiderAccount *FreeRiderAccount) TryPackExecute(dest common.Address, value *big.Int, arg2 []byte) ([]byte, error) {
	return freeRiderAccount.abi.Pack("execute", dest, value, arg2)
}

// PackExecuteBatch is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18dfb3c7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function executeBatch(address[] dest, bytes[] func) returns()
func (freeRiderAccount *FreeRiderAccount) PackExecuteBatch(dest []common.Address, arg1 [][]byte) []byte {
	enc, err := freeRiderAccount.abi.Pack("executeBatch", dest, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecuteBatch is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18dfb3c7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function executeBatch(address[] dest, bytes[] func) returns()
func (freeRiderAccount *FreeRiderAccount) TryPackExecuteBatch(dest []common.Address, arg1 [][]byte) ([]byte, error) {
	return freeRiderAccount.abi.Pack("executeBatch", dest, arg1)
}

// PackGetNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd087d288.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getNonce() view returns(uint256)
func (freeRiderAccount *FreeRiderAccount) PackGetNonce() []byte {
	enc, err := freeRiderAccount.abi.Pack("getNonce")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd087d288.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getNonce() view returns(uint256)
func (freeRiderAccount *FreeRiderAccount) TryPackGetNonce() ([]byte, error) {
	return freeRiderAccount.abi.Pack("getNonce")
}

// UnpackGetNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd087d288.
//
// Solidity: function getNonce() view returns(uint256)
func (freeRiderAccount *FreeRiderAccount) UnpackGetNonce(data []byte) (*big.Int, error) {
	out, err := freeRiderAccount.abi.Unpack("getNonce", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackLastPaidBlock is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf6aced51.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function lastPaidBlock() view returns(uint256)
func (freeRiderAccount *FreeRiderAccount) PackLastPaidBlock() []byte {
	enc, err := freeRiderAccount.abi.Pack("lastPaidBlock")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLastPaidBlock is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf6aced51.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function lastPaidBlock() view returns(uint256)
func (freeRiderAccount *FreeRiderAccount) TryPackLastPaidBlock() ([]byte, error) {
	return freeRiderAccount.abi.Pack("lastPaidBlock")
}

// UnpackLastPaidBlock is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf6aced51.
//
// Solidity: function lastPaidBlock() view returns(uint256)
func (freeRiderAccount *FreeRiderAccount) UnpackLastPaidBlock(data []byte) (*big.Int, error) {
	out, err := freeRiderAccount.abi.Unpack("lastPaidBlock", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (freeRiderAccount *FreeRiderAccount) PackOwner() []byte {
	enc, err := freeRiderAccount.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (freeRiderAccount *FreeRiderAccount) TryPackOwner() ([]byte, error) {
	return freeRiderAccount.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (freeRiderAccount *FreeRiderAccount) UnpackOwner(data []byte) (common.Address, error) {
	out, err := freeRiderAccount.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackValidateUserOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3a871cdd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns(uint256 validationData)
func (freeRiderAccount *FreeRiderAccount) PackValidateUserOp(userOp UserOperation, userOpHash [32]byte, missingAccountFunds *big.Int) []byte {
	enc, err := freeRiderAccount.abi.Pack("validateUserOp", userOp, userOpHash, missingAccountFunds)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackValidateUserOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3a871cdd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns(uint256 validationData)
func (freeRiderAccount *FreeRiderAccount) TryPackValidateUserOp(userOp UserOperation, userOpHash [32]byte, missingAccountFunds *big.Int) ([]byte, error) {
	return freeRiderAccount.abi.Pack("validateUserOp", userOp, userOpHash, missingAccountFunds)
}

// UnpackValidateUserOp is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3a871cdd.
//
// Solidity: function validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns(uint256 validationData)
func (freeRiderAccount *FreeRiderAccount) UnpackValidateUserOp(data []byte) (*big.Int, error) {
	out, err := freeRiderAccount.abi.Unpack("validateUserOp", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// Multicall3MetaData contains all meta data concerning the Multicall3 contract.
var Multicall3MetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"allowFailure\",\"type\":\"bool\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall3.Call3[]\",\"name\":\"calls\",\"type\":\"tuple[]\"}],\"name\":\"aggregate3\",\"outputs\":[{\"components\":[{\"internalType\":\"bool\",\"name\":\"success\",\"type\":\"bool\"},{\"internalType\":\"bytes\",\"name\":\"returnData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall3.Result[]\",\"name\":\"returnData\",\"type\":\"tuple[]\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bool\",\"name\":\"requireSuccess\",\"type\":\"bool\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall3.Call[]\",\"name\":\"calls\",\"type\":\"tuple[]\"}],\"name\":\"tryAggregate\",\"outputs\":[{\"components\":[{\"internalType\":\"bool\",\"name\":\"success\",\"type\":\"bool\"},{\"internalType\":\"bytes\",\"name\":\"returnData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall3.Result[]\",\"name\":\"returnData\",\"type\":\"tuple[]\"}],\"stateMutability\":\"payable\",\"type\":\"function\"}]",
	ID:  "83e1cd9ddbdf7165bbbdf799c695bdb670",
	Bin: "0x6080604052348015600e575f5ffd5b506107c08061001c5f395ff3fe608060405260043610610028575f3560e01c806382ad56cb1461002c578063bce38bd714610055575b5f5ffd5b61003f61003a366004610486565b610068565b60405161004c91906104c5565b60405180910390f35b61003f6100633660046105b0565b61024c565b60608167ffffffffffffffff811115610083576100836105ff565b6040519080825280602002602001820160405280156100c857816020015b604080518082019091525f8152606060208201528152602001906001900390816100a15790505b5090505f5b8281101561024557368484838181106100e8576100e861062c565b90506020028101906100fa9190610659565b90505f8061010b6020840184610695565b73ffffffffffffffffffffffffffffffffffffffff1661012e60408501856106cf565b60405161013c929190610730565b5f604051808303815f865af19150503d805f8114610175576040519150601f19603f3d011682016040523d82523d5f602084013e61017a565b606091505b50915091508115801561019a5750610198604084016020850161073f565b155b15610206576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f4d756c746963616c6c333a2063616c6c206661696c656400000000000000000060448201526064015b60405180910390fd5b604051806040016040528083151581526020018281525085858151811061022f5761022f61062c565b60209081029190910101525050506001016100cd565b5092915050565b60608167ffffffffffffffff811115610267576102676105ff565b6040519080825280602002602001820160405280156102ac57816020015b604080518082019091525f8152606060208201528152602001906001900390816102855790505b5090505f5b82811015610436575f5f8585848181106102cd576102cd61062c565b90506020028101906102df9190610758565b6102ed906020810190610695565b73ffffffffffffffffffffffffffffffffffffffff168686858181106103155761031561062c565b90506020028101906103279190610758565b6103359060208101906106cf565b604051610343929190610730565b5f604051808303815f865af19150503d805f811461037c576040519150601f19603f3d011682016040523d82523d5f602084013e610381565b606091505b5091509150811580156103915750865b156103f8576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f4d756c746963616c6c333a2063616c6c206661696c656400000000000000000060448201526064016101fd565b60405180604001604052808315158152602001828152508484815181106104215761042161062c565b602090810291909101015250506001016102b1565b509392505050565b5f5f83601f84011261044e575f5ffd5b50813567ffffffffffffffff811115610465575f5ffd5b6020830191508360208260051b850101111561047f575f5ffd5b9250929050565b5f5f60208385031215610497575f5ffd5b823567ffffffffffffffff8111156104ad575f5ffd5b6104b98582860161043e565b90969095509350505050565b5f602082016020835280845180835260408501915060408160051b8601019250602086015f5b82811015610590577fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc08786030184528151805115158652602081015190506040602087015280518060408801528060208301606089015e5f6060828901015260607fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f830116880101965050506020820191506020840193506001810190506104eb565b50929695505050505050565b803580151581146105ab575f5ffd5b919050565b5f5f5f604084860312156105c2575f5ffd5b6105cb8461059c565b9250602084013567ffffffffffffffff8111156105e6575f5ffd5b6105f28682870161043e565b9497909650939450505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f82357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa183360301811261068b575f5ffd5b9190910192915050565b5f602082840312156106a5575f5ffd5b813573ffffffffffffffffffffffffffffffffffffffff811681146106c8575f5ffd5b9392505050565b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe1843603018112610702575f5ffd5b83018035915067ffffffffffffffff82111561071c575f5ffd5b60200191503681900382131561047f575f5ffd5b818382375f9101908152919050565b5f6020828403121561074f575f5ffd5b6106c88261059c565b5f82357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc183360301811261068b575f5ffdfea264697066735822122063a238dfdb3cf5245ab81dec5ac67877b4cdd2ccd17637b8c12542847ba929f264736f6c63430008250033",
}

// Multicall3 is an auto generated Go binding around an Ethereum contract.
type Multicall3 struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Multicall3) GetABI() abi.ABI {
	return c.abi
}

// NewMulticall3 creates a new instance of Multicall3.
func NewMulticall3() *Multicall3 {
	parsed, err := Multicall3MetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Multicall3{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Multicall3) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAggregate3 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82ad56cb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function aggregate3((address,bool,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) PackAggregate3(calls []Multicall3Call3) []byte {
	enc, err := multicall3.abi.Pack("aggregate3", calls)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAggregate3 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82ad56cb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function aggregate3((address,bool,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) TryPackAggregate3(calls []Multicall3Call3) ([]byte, error) {
	return multicall3.abi.Pack("aggregate3", calls)
}

// UnpackAggregate3 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x82ad56cb.
//
// Solidity: function aggregate3((address,bool,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) UnpackAggregate3(data []byte) ([]Multicall3Result, error) {
	out, err := multicall3.abi.Unpack("aggregate3", data)
	if err != nil {
		return *new([]Multicall3Result), err
	}
	out0 := *abi.ConvertType(out[0], new([]Multicall3Result)).(*[]Multicall3Result)
	return out0, nil
}

// PackTryAggregate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbce38bd7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tryAggregate(bool requireSuccess, (address,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) PackTryAggregate(requireSuccess bool, calls []Multicall3Call) []byte {
	enc, err := multicall3.abi.Pack("tryAggregate", requireSuccess, calls)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTryAggregate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbce38bd7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tryAggregate(bool requireSuccess, (address,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) TryPackTryAggregate(requireSuccess bool, calls []Multicall3Call) ([]byte, error) {
	return multicall3.abi.Pack("tryAggregate", requireSuccess, calls)
}

// UnpackTryAggregate is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbce38bd7.
//
// Solidity: function tryAggregate(bool requireSuccess, (address,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) UnpackTryAggregate(data []byte) ([]Multicall3Result, error) {
	out, err := multicall3.abi.Unpack("tryAggregate", data)
	if err != nil {
		return *new([]Multicall3Result), err
	}
	out0 := *abi.ConvertType(out[0], new([]Multicall3Result)).(*[]Multicall3Result)
	return out0, nil
}

// OpenPaymasterMetaData contains all meta data concerning the OpenPaymaster contract.
var OpenPaymasterMetaData = bind.MetaData{
	ABI: "[{\"stateMutability\":\"nonpayable\",\"type\":\"fallback\"}]",
	ID:  "49929c1974d4ea61d50e350a8903441ed6",
	Bin: "0x6080604052348015600e575f5ffd5b5060de80601a5f395ff3fe6080604052348015600e575f5ffd5b505f36606060405180602001604052805f8152505f6040516020016032929190604e565b6040516020818303038152906040529050915050805190602001f35b604081525f83518060408401528060208601606085015e5f6060828501015260607fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f830116840101915050826020830152939250505056fea2646970667358221220ec1f31f38fbf865067187066ce12372d8321db59ce09b8aee6751fab9a28e42764736f6c63430008250033",
}

// OpenPaymaster is an auto generated Go binding around an Ethereum contract.
type OpenPaymaster struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *OpenPaymaster) GetABI() abi.ABI {
	return c.abi
}

// NewOpenPaymaster creates a new instance of OpenPaymaster.
func NewOpenPaymaster() *OpenPaymaster {
	parsed, err := OpenPaymasterMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &OpenPaymaster{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *OpenPaymaster) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// OwnerWalletMetaData contains all meta data concerning the OwnerWallet contract.
var OwnerWalletMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AlreadyInitialized\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"execute\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"}],\"name\":\"initialize\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"hash\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "4352df94813bdaa72c9aac312c8c6f79c5",
	Bin: "0x6080604052348015600e575f5ffd5b505f80546001600160a01b0319163017905561069a8061002d5f395ff3fe608060405260043610610041575f3560e01c80631626ba7e1461004c5780638da5cb5b146100a1578063b61d27f6146100f1578063c4d66de81461011d575f5ffd5b3661004857005b5f5ffd5b348015610057575f5ffd5b5061006b6100663660046104f6565b61013e565b6040517fffffffff0000000000000000000000000000000000000000000000000000000090911681526020015b60405180910390f35b3480156100ac575f5ffd5b505f546100cc9073ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610098565b3480156100fc575f5ffd5b5061011061010b366004610566565b61021b565b60405161009891906105bc565b348015610128575f5ffd5b5061013c61013736600461060f565b6102f9565b005b5f5f5f6101808686868080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061038e92505050565b90925090505f81600481111561019857610198610628565b1480156101be57505f5473ffffffffffffffffffffffffffffffffffffffff8381169116145b156101ee57507f1626ba7e0000000000000000000000000000000000000000000000000000000091506102149050565b507fffffffff000000000000000000000000000000000000000000000000000000009150505b9392505050565b5f5460609073ffffffffffffffffffffffffffffffffffffffff163314610274576040517f245aecd300000000000000000000000000000000000000000000000000000000815233600482015260240160405180910390fd5b5f5f8673ffffffffffffffffffffffffffffffffffffffff1686868660405161029e929190610655565b5f6040518083038185875af1925050503d805f81146102d8576040519150601f19603f3d011682016040523d82523d5f602084013e6102dd565b606091505b5091509150816102ef57805160208201fd5b9695505050505050565b5f5473ffffffffffffffffffffffffffffffffffffffff1615610348576040517f0dc149f000000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f80547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff92909216919091179055565b5f5f82516041036103c2576020830151604084015160608501515f1a6103b6878285856103d0565b945094505050506103c9565b505f905060025b9250929050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a083111561040557505f905060036104af565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015610456573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff81166104a9575f600192509250506104af565b91505f90505b94509492505050565b5f5f83601f8401126104c8575f5ffd5b50813567ffffffffffffffff8111156104df575f5ffd5b6020830191508360208285010111156103c9575f5ffd5b5f5f5f60408486031215610508575f5ffd5b83359250602084013567ffffffffffffffff811115610525575f5ffd5b610531868287016104b8565b9497909650939450505050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610561575f5ffd5b919050565b5f5f5f5f60608587031215610579575f5ffd5b6105828561053e565b935060208501359250604085013567ffffffffffffffff8111156105a4575f5ffd5b6105b0878288016104b8565b95989497509550505050565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505092915050565b5f6020828403121561061f575f5ffd5b6102148261053e565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b818382375f910190815291905056fea264697066735822122028a17e94cc7b5ec2fce2b20c4668dcd2994b6d2a6c3df17ceea6a1db35c7e52064736f6c63430008250033",
}

// OwnerWallet is an auto generated Go binding around an Ethereum contract.
type OwnerWallet struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *OwnerWallet) GetABI() abi.ABI {
	return c.abi
}

// NewOwnerWallet creates a new instance of OwnerWallet.
func NewOwnerWallet() *OwnerWallet {
	parsed, err := OwnerWalletMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &OwnerWallet{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *OwnerWallet) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function execute(address to, uint256 value, bytes data) returns(bytes)
func (ownerWallet *OwnerWallet) PackExecute(to common.Address, value *big.Int, data []byte) []byte {
	enc, err := ownerWallet.abi.Pack("execute", to, value, data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function execute(address to, uint256 value, bytes data) returns(bytes)
func (ownerWallet *OwnerWallet) TryPackExecute(to common.Address, value *big.Int, data []byte) ([]byte, error) {
	return ownerWallet.abi.Pack("execute", to, value, data)
}

// UnpackExecute is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb61d27f6.
//
// Solidity: function execute(address to, uint256 value, bytes data) returns(bytes)
func (ownerWallet *OwnerWallet) UnpackExecute(data []byte) ([]byte, error) {
	out, err := ownerWallet.abi.Unpack("execute", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// PackInitialize is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc4d66de8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function initialize(address owner_) returns()
func (ownerWallet *OwnerWallet) PackInitialize(owner common.Address) []byte {
	enc, err := ownerWallet.abi.Pack("initialize", owner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackInitialize is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc4d66de8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function initialize(address owner_) returns()
func (ownerWallet *OwnerWallet) TryPackInitialize(owner common.Address) ([]byte, error) {
	return ownerWallet.abi.Pack("initialize", owner)
}

// PackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (ownerWallet *OwnerWallet) PackIsValidSignature(hash [32]byte, signature []byte) []byte {
	enc, err := ownerWallet.abi.Pack("isValidSignature", hash, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (ownerWallet *OwnerWallet) TryPackIsValidSignature(hash [32]byte, signature []byte) ([]byte, error) {
	return ownerWallet.abi.Pack("isValidSignature", hash, signature)
}

// UnpackIsValidSignature is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (ownerWallet *OwnerWallet) UnpackIsValidSignature(data []byte) ([4]byte, error) {
	out, err := ownerWallet.abi.Unpack("isValidSignature", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (ownerWallet *OwnerWallet) PackOwner() []byte {
	enc, err := ownerWallet.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (ownerWallet *OwnerWallet) TryPackOwner() ([]byte, error) {
	return ownerWallet.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (ownerWallet *OwnerWallet) UnpackOwner(data []byte) (common.Address, error) {
	out, err := ownerWallet.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (ownerWallet *OwnerWallet) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], ownerWallet.abi.Errors["AlreadyInitialized"].ID.Bytes()[:4]) {
		return ownerWallet.UnpackAlreadyInitializedError(raw[4:])
	}
	if bytes.Equal(raw[:4], ownerWallet.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return ownerWallet.UnpackNotOwnerError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// OwnerWalletAlreadyInitialized represents a AlreadyInitialized error raised by the OwnerWallet contract.
type OwnerWalletAlreadyInitialized struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AlreadyInitialized()
func OwnerWalletAlreadyInitializedErrorID() common.Hash {
	return common.HexToHash("0x0dc149f07762891dbcea3fe72770f3d63a1863fc54b2f084e8c59ec476996927")
}

// UnpackAlreadyInitializedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AlreadyInitialized()
func (ownerWallet *OwnerWallet) UnpackAlreadyInitializedError(raw []byte) (*OwnerWalletAlreadyInitialized, error) {
	out := new(OwnerWalletAlreadyInitialized)
	if err := ownerWallet.abi.UnpackIntoInterface(out, "AlreadyInitialized", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OwnerWalletNotOwner represents a NotOwner error raised by the OwnerWallet contract.
type OwnerWalletNotOwner struct {
	Caller common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner(address caller)
func OwnerWalletNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x245aecd3fabbd17d6c3c92dc7f0ab916ea8cbf6fc1862c8b56893090ac3fff4c")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner(address caller)
func (ownerWallet *OwnerWallet) UnpackNotOwnerError(raw []byte) (*OwnerWalletNotOwner, error) {
	out := new(OwnerWalletNotOwner)
	if err := ownerWallet.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// OwnerWalletFactoryMetaData contains all meta data concerning the OwnerWalletFactory contract.
var OwnerWalletFactoryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"WalletCreated\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"createWallet\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"getAddress\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"implementation\",\"outputs\":[{\"internalType\":\"contractOwnerWallet\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "bfd1fddf6ae1b8c0873d873d6376d6bed7",
	Bin: "0x60a0604052348015600e575f5ffd5b506040516019906042565b604051809103905ff0801580156031573d5f5f3e3d5ffd5b506001600160a01b0316608052604f565b6106c7806104bf83390190565b60805161044c6100735f395f818160480152818160e70152610185015261044c5ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80635c60da1b146100435780637ac4ed6414610093578063b20ca818146100a6575b5f5ffd5b61006a7f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200160405180910390f35b61006a6100a13660046103d4565b6100b9565b61006a6100b43660046103d4565b61012e565b6040805173ffffffffffffffffffffffffffffffffffffffff841660208201529081018290525f90610125907f000000000000000000000000000000000000000000000000000000000000000090606001604051602081830303815290604052805190602001206102b0565b90505b92915050565b5f61013983836100b9565b90505f8173ffffffffffffffffffffffffffffffffffffffff163b11610128576040805173ffffffffffffffffffffffffffffffffffffffff851660208201529081018390526101c3907f0000000000000000000000000000000000000000000000000000000000000000906060016040516020818303038152906040528051906020012061030f565b6040517fc4d66de800000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff85811660048301529192509082169063c4d66de8906024015f604051808303815f87803b15801561022d575f5ffd5b505af115801561023f573d5f5f3e3d5ffd5b505050508273ffffffffffffffffffffffffffffffffffffffff168173ffffffffffffffffffffffffffffffffffffffff167fbdbcb584581e4f688b28038d847fa0c73130b688da678029bcb98e32fec769a2846040516102a291815260200190565b60405180910390a392915050565b6040513060388201526f5af43d82803e903d91602b57fd5bf3ff602482015260148101839052733d602d80600a3d3981f3363d3d373d3d3d363d738152605881018290526037600c820120607882015260556043909101205f90610125565b5f763d602d80600a3d3981f3363d3d373d3d3d363d730000008360601b60e81c175f526e5af43d82803e903d91602b57fd5bf38360781b1760205281603760095ff5905073ffffffffffffffffffffffffffffffffffffffff8116610128576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f455243313136373a2063726561746532206661696c6564000000000000000000604482015260640160405180910390fd5b5f5f604083850312156103e5575f5ffd5b823573ffffffffffffffffffffffffffffffffffffffff81168114610408575f5ffd5b94602093909301359350505056fea2646970667358221220ef8e47e85633cc85eb9bf03cb508e4d8b9c4634916c21e43666c3bd5a9c4f93764736f6c634300082500336080604052348015600e575f5ffd5b505f80546001600160a01b0319163017905561069a8061002d5f395ff3fe608060405260043610610041575f3560e01c80631626ba7e1461004c5780638da5cb5b146100a1578063b61d27f6146100f1578063c4d66de81461011d575f5ffd5b3661004857005b5f5ffd5b348015610057575f5ffd5b5061006b6100663660046104f6565b61013e565b6040517fffffffff0000000000000000000000000000000000000000000000000000000090911681526020015b60405180910390f35b3480156100ac575f5ffd5b505f546100cc9073ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610098565b3480156100fc575f5ffd5b5061011061010b366004610566565b61021b565b60405161009891906105bc565b348015610128575f5ffd5b5061013c61013736600461060f565b6102f9565b005b5f5f5f6101808686868080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061038e92505050565b90925090505f81600481111561019857610198610628565b1480156101be57505f5473ffffffffffffffffffffffffffffffffffffffff8381169116145b156101ee57507f1626ba7e0000000000000000000000000000000000000000000000000000000091506102149050565b507fffffffff000000000000000000000000000000000000000000000000000000009150505b9392505050565b5f5460609073ffffffffffffffffffffffffffffffffffffffff163314610274576040517f245aecd300000000000000000000000000000000000000000000000000000000815233600482015260240160405180910390fd5b5f5f8673ffffffffffffffffffffffffffffffffffffffff1686868660405161029e929190610655565b5f6040518083038185875af1925050503d805f81146102d8576040519150601f19603f3d011682016040523d82523d5f602084013e6102dd565b606091505b5091509150816102ef57805160208201fd5b9695505050505050565b5f5473ffffffffffffffffffffffffffffffffffffffff1615610348576040517f0dc149f000000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f80547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff92909216919091179055565b5f5f82516041036103c2576020830151604084015160608501515f1a6103b6878285856103d0565b945094505050506103c9565b505f905060025b9250929050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a083111561040557505f905060036104af565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015610456573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff81166104a9575f600192509250506104af565b91505f90505b94509492505050565b5f5f83601f8401126104c8575f5ffd5b50813567ffffffffffffffff8111156104df575f5ffd5b6020830191508360208285010111156103c9575f5ffd5b5f5f5f60408486031215610508575f5ffd5b83359250602084013567ffffffffffffffff811115610525575f5ffd5b610531868287016104b8565b9497909650939450505050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610561575f5ffd5b919050565b5f5f5f5f60608587031215610579575f5ffd5b6105828561053e565b935060208501359250604085013567ffffffffffffffff8111156105a4575f5ffd5b6105b0878288016104b8565b95989497509550505050565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505092915050565b5f6020828403121561061f575f5ffd5b6102148261053e565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b818382375f910190815291905056fea264697066735822122028a17e94cc7b5ec2fce2b20c4668dcd2994b6d2a6c3df17ceea6a1db35c7e52064736f6c63430008250033",
}

// OwnerWalletFactory is an auto generated Go binding around an Ethereum contract.
type OwnerWalletFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *OwnerWalletFactory) GetABI() abi.ABI {
	return c.abi
}

// NewOwnerWalletFactory creates a new instance of OwnerWalletFactory.
func NewOwnerWalletFactory() *OwnerWalletFactory {
	parsed, err := OwnerWalletFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &OwnerWalletFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *OwnerWalletFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackCreateWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb20ca818.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createWallet(address owner, bytes32 salt) returns(address wallet)
func (ownerWalletFactory *OwnerWalletFactory) PackCreateWallet(owner common.Address, salt [32]byte) []byte {
	enc, err := ownerWalletFactory.abi.Pack("createWallet", owner, salt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb20ca818.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createWallet(address owner, bytes32 salt) returns(address wallet)
func (ownerWalletFactory *OwnerWalletFactory) TryPackCreateWallet(owner common.Address, salt [32]byte) ([]byte, error) {
	return ownerWalletFactory.abi.Pack("createWallet", owner, salt)
}

// UnpackCreateWallet is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb20ca818.
//
// Solidity: function createWallet(address owner, bytes32 salt) returns(address wallet)
func (ownerWalletFactory *OwnerWalletFactory) UnpackCreateWallet(data []byte) (common.Address, error) {
	out, err := ownerWalletFactory.abi.Unpack("createWallet", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackGetAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7ac4ed64.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getAddress(address owner, bytes32 salt) view returns(address)
func (ownerWalletFactory *OwnerWalletFactory) PackGetAddress(owner common.Address, salt [32]byte) []byte {
	enc, err := ownerWalletFactory.abi.Pack("getAddress", owner, salt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7ac4ed64.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getAddress(address owner, bytes32 salt) view returns(address)
func (ownerWalletFactory *OwnerWalletFactory) TryPackGetAddress(owner common.Address, salt [32]byte) ([]byte, error) {
	return ownerWalletFactory.abi.Pack("getAddress", owner, salt)
}

// UnpackGetAddress is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7ac4ed64.
//
// Solidity: function getAddress(address owner, bytes32 salt) view returns(address)
func (ownerWalletFactory *OwnerWalletFactory) UnpackGetAddress(data []byte) (common.Address, error) {
	out, err := ownerWalletFactory.abi.Unpack("getAddress", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackImplementation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c60da1b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function implementation() view returns(address)
func (ownerWalletFactory *OwnerWalletFactory) PackImplementation() []byte {
	enc, err := ownerWalletFactory.abi.Pack("implementation")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackImplementation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c60da1b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function implementation() view returns(address)
func (ownerWalletFactory *OwnerWalletFactory) TryPackImplementation() ([]byte, error) {
	return ownerWalletFactory.abi.Pack("implementation")
}

// UnpackImplementation is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5c60da1b.
//
// Solidity: function implementation() view returns(address)
func (ownerWalletFactory *OwnerWalletFactory) UnpackImplementation(data []byte) (common.Address, error) {
	out, err := ownerWalletFactory.abi.Unpack("implementation", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// OwnerWalletFactoryWalletCreated represents a WalletCreated event raised by the OwnerWalletFactory contract.
type OwnerWalletFactoryWalletCreated struct {
	Wallet common.Address
	Owner  common.Address
	Salt   [32]byte
	Raw    *types.Log // Blockchain specific contextual infos
}

const OwnerWalletFactoryWalletCreatedEventName = "WalletCreated"

// ContractEventName returns the user-defined event name.
func (OwnerWalletFactoryWalletCreated) ContractEventName() string {
	return OwnerWalletFactoryWalletCreatedEventName
}

// UnpackWalletCreatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event WalletCreated(address indexed wallet, address indexed owner, bytes32 salt)
func (ownerWalletFactory *OwnerWalletFactory) UnpackWalletCreatedEvent(log *types.Log) (*OwnerWalletFactoryWalletCreated, error) {
	event := "WalletCreated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != ownerWalletFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(OwnerWalletFactoryWalletCreated)
	if len(log.Data) > 0 {
		if err := ownerWalletFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range ownerWalletFactory.abi.Events[event].Inputs {
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

// Permit2MetaData contains all meta data concerning the Permit2 contract.
var Permit2MetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"maxAmount\",\"type\":\"uint256\"}],\"name\":\"InvalidAmount\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidContractSignature\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidNonce\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignature\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSignatureLength\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidSigner\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"signatureDeadline\",\"type\":\"uint256\"}],\"name\":\"SignatureExpired\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"word\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"mask\",\"type\":\"uint256\"}],\"name\":\"UnorderedNonceInvalidation\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"DOMAIN_SEPARATOR\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"PERMIT_TRANSFER_FROM_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"TOKEN_PERMISSIONS_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"wordPos\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"mask\",\"type\":\"uint256\"}],\"name\":\"invalidateUnorderedNonces\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"nonceBitmap\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.TokenPermissions\",\"name\":\"permitted\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.PermitTransferFrom\",\"name\":\"permit\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"requestedAmount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.SignatureTransferDetails\",\"name\":\"transferDetails\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"permitTransferFrom\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.TokenPermissions\",\"name\":\"permitted\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.PermitTransferFrom\",\"name\":\"permit\",\"type\":\"tuple\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"requestedAmount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.SignatureTransferDetails\",\"name\":\"transferDetails\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"witness\",\"type\":\"bytes32\"},{\"internalType\":\"string\",\"name\":\"witnessTypeString\",\"type\":\"string\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"permitWitnessTransferFrom\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "69d2eb24ec363c9d3cddcc2895ddeec5f7",
	Bin: "0x6080604052348015600e575f5ffd5b506111538061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061007a575f3560e01c80633644e515116100585780633644e515146100df5780633ff9dcb1146101605780634fe02b4414610173578063696c11e51461019a575f5ffd5b8063137c29fe1461007e57806329b1dc041461009357806330f28b7a146100cc575b5f5ffd5b61009161008c366004610d7a565b6101c1565b005b6100ba7f939c21a48a8dbe3a9a2404a1d46691e4d39f6583d6ec6b35714604c986d8010681565b60405190815260200160405180910390f35b6100916100da366004610e28565b61027e565b6100ba604080517f8cad95687ba82c2ce50e74f7b754645e5117c3a5bec8151c0726d5857980a86660208201527f9ac997416e8ff9d2ff6bebeb7149f65cdae5e32e2b90440b566bb3044041d36a918101919091524660608201523060808201525f9060a00160405160208183030381529060405280519060200120905090565b61009161016e366004610e9c565b610308565b6100ba610181366004610ebc565b5f60208181529281526040808220909352908152205481565b6100ba7f618358ac3db8dc274f0cd8829da7e234bd48cd73c4a740aede1adec9846d06a181565b5f6040518060a00160405280606481526020016110ba6064913985856040516020016101ef93929190610efb565b6040516020818303038152906040528051906020012090505f816102148b5f01610360565b6040805160208101939093528281019190915233606083810191909152908c013560808301528b013560a082015260c0810188905260e0016040516020818303038152906040528051906020012090506102728a8a8a8488886103e1565b50505050505050505050565b5f7f939c21a48a8dbe3a9a2404a1d46691e4d39f6583d6ec6b35714604c986d801066102a987610360565b604080516020810193909352828101919091523360608381019190915290880135608083015287013560a082015260c0016040516020818303038152906040528051906020012090506103008686868487876103e1565b505050505050565b335f8181526020818152604080832086845282529182902080548517905581518581529081018490527f3704902f963766a4e561bbaab6e6cdc1b1dd12f6e9e99648da8843b3f46b918d910160405180910390a25050565b5f7f618358ac3db8dc274f0cd8829da7e234bd48cd73c4a740aede1adec9846d06a161038f6020840184610f19565b6040805160208181019490945273ffffffffffffffffffffffffffffffffffffffff90921690820152908301356060820152608001604051602081830303815290604052805190602001209050919050565b856060013542111561042a576040517fcd21db4f000000000000000000000000000000000000000000000000000000008152606087013560048201526024015b60405180910390fd5b602080870135908601351115610472576040517f3728b83d00000000000000000000000000000000000000000000000000000000815260208701356004820152602401610421565b61048084876040013561059f565b61055d8282610506604080517f8cad95687ba82c2ce50e74f7b754645e5117c3a5bec8151c0726d5857980a86660208201527f9ac997416e8ff9d2ff6bebeb7149f65cdae5e32e2b90440b566bb3044041d36a918101919091524660608201523060808201525f9060a00160405160208183030381529060405280519060200120905090565b6040517f190100000000000000000000000000000000000000000000000000000000000060208201526022810191909152604281018790526062016040516020818303038152906040528051906020012087610622565b6103008461056e6020880188610f19565b60208089013590610581908b018b610f19565b73ffffffffffffffffffffffffffffffffffffffff1692919061095b565b73ffffffffffffffffffffffffffffffffffffffff82165f90815260208181526040808320600885901c845290915281208054600160ff85161b9081189182905591818316900361061c576040517f756688fe00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b50505050565b73ffffffffffffffffffffffffffffffffffffffff81163b15610759576040517f1626ba7e0000000000000000000000000000000000000000000000000000000081525f9073ffffffffffffffffffffffffffffffffffffffff831690631626ba7e9061069790869089908990600401610f39565b602060405180830381865afa1580156106b2573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906106d69190610f8c565b90507fffffffff0000000000000000000000000000000000000000000000000000000081167f1626ba7e0000000000000000000000000000000000000000000000000000000014610753576040517fb0669cbc00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5061061c565b5f8080604186900361079a5761077186880188610e9c565b90935091508686604081811061078957610789610fcb565b919091013560f81c91506108239050565b60408690036107f1575f6107b087890189610e9c565b9094507f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff8116935090506107e960ff82901c601b610ff8565b915050610823565b6040517f4be6321b00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b604080515f8082526020820180845288905260ff841692820192909252606081018590526080810184905260019060a0016020604051602081039080840390855afa158015610874573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff81166108ec576040517f8baa579f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b8473ffffffffffffffffffffffffffffffffffffffff168173ffffffffffffffffffffffffffffffffffffffff1614610951576040517f815e1d6400000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5050505050505050565b6040805173ffffffffffffffffffffffffffffffffffffffff8581166024830152848116604483015260648083018590528351808403909101815260849092018352602080830180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167f23b872dd0000000000000000000000000000000000000000000000000000000017905283518085019094528084527f5361666545524332303a206c6f772d6c6576656c2063616c6c206661696c65649084015261061c928792915f91610a2d918516908490610ade565b905080515f1480610a4d575080806020019051810190610a4d919061103c565b610ad9576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602a60248201527f5361666545524332303a204552433230206f7065726174696f6e20646964206e60448201527f6f742073756363656564000000000000000000000000000000000000000000006064820152608401610421565b505050565b6060610aec84845f85610af4565b949350505050565b606082471015610b86576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f416464726573733a20696e73756666696369656e742062616c616e636520666f60448201527f722063616c6c00000000000000000000000000000000000000000000000000006064820152608401610421565b5f5f8673ffffffffffffffffffffffffffffffffffffffff168587604051610bae919061105b565b5f6040518083038185875af1925050503d805f8114610be8576040519150601f19603f3d011682016040523d82523d5f602084013e610bed565b606091505b5091509150610bfe87838387610c09565b979650505050505050565b60608315610c9e5782515f03610c975773ffffffffffffffffffffffffffffffffffffffff85163b610c97576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f416464726573733a2063616c6c20746f206e6f6e2d636f6e74726163740000006044820152606401610421565b5081610aec565b610aec8383815115610cb35781518083602001fd5b806040517f08c379a00000000000000000000000000000000000000000000000000000000081526004016104219190611066565b5f60808284031215610cf7575f5ffd5b50919050565b5f60408284031215610cf7575f5ffd5b803573ffffffffffffffffffffffffffffffffffffffff81168114610d30575f5ffd5b919050565b5f5f83601f840112610d45575f5ffd5b50813567ffffffffffffffff811115610d5c575f5ffd5b602083019150836020828501011115610d73575f5ffd5b9250929050565b5f5f5f5f5f5f5f5f610140898b031215610d92575f5ffd5b610d9c8a8a610ce7565b9750610dab8a60808b01610cfd565b9650610db960c08a01610d0d565b955060e0890135945061010089013567ffffffffffffffff811115610ddc575f5ffd5b610de88b828c01610d35565b90955093505061012089013567ffffffffffffffff811115610e08575f5ffd5b610e148b828c01610d35565b999c989b5096995094979396929594505050565b5f5f5f5f5f6101008688031215610e3d575f5ffd5b610e478787610ce7565b9450610e568760808801610cfd565b9350610e6460c08701610d0d565b925060e086013567ffffffffffffffff811115610e7f575f5ffd5b610e8b88828901610d35565b969995985093965092949392505050565b5f5f60408385031215610ead575f5ffd5b50508035926020909101359150565b5f5f60408385031215610ecd575f5ffd5b610ed683610d0d565b946020939093013593505050565b5f81518060208401855e5f93019283525090919050565b5f610f068286610ee4565b838582375f930192835250909392505050565b5f60208284031215610f29575f5ffd5b610f3282610d0d565b9392505050565b83815260406020820152816040820152818360608301375f818301606090810191909152601f9092017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe016010192915050565b5f60208284031215610f9c575f5ffd5b81517fffffffff0000000000000000000000000000000000000000000000000000000081168114610f32575f5ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b60ff8181168382160190811115611036577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b92915050565b5f6020828403121561104c575f5ffd5b81518015158114610f32575f5ffd5b5f610f328284610ee4565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8301168401019150509291505056fe5065726d69745769746e6573735472616e7366657246726f6d28546f6b656e5065726d697373696f6e73207065726d69747465642c61646472657373207370656e6465722c75696e74323536206e6f6e63652c75696e7432353620646561646c696e652ca26469706673582212204f3f677069df992c046dd7cce6168e8001aa59cd72de9d5f26a1a9d888ce88a864736f6c63430008250033",
}

// Permit2 is an auto generated Go binding around an Ethereum contract.
type Permit2 struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Permit2) GetABI() abi.ABI {
	return c.abi
}

// NewPermit2 creates a new instance of Permit2.
func NewPermit2() *Permit2 {
	parsed, err := Permit2MetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Permit2{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Permit2) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackDOMAINSEPARATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3644e515.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (permit2 *Permit2) PackDOMAINSEPARATOR() []byte {
	enc, err := permit2.abi.Pack("DOMAIN_SEPARATOR")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDOMAINSEPARATOR is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3644e515.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (permit2 *Permit2) TryPackDOMAINSEPARATOR() ([]byte, error) {
	return permit2.abi.Pack("DOMAIN_SEPARATOR")
}

// UnpackDOMAINSEPARATOR is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3644e515.
//
// Solidity: function DOMAIN_SEPARATOR() view returns(bytes32)
func (permit2 *Permit2) UnpackDOMAINSEPARATOR(data []byte) ([32]byte, error) {
	out, err := permit2.abi.Unpack("DOMAIN_SEPARATOR", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackPERMITTRANSFERFROMTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x29b1dc04.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function PERMIT_TRANSFER_FROM_TYPEHASH() view returns(bytes32)
func (permit2 *Permit2) PackPERMITTRANSFERFROMTYPEHASH() []byte {
	enc, err := permit2.abi.Pack("PERMIT_TRANSFER_FROM_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPERMITTRANSFERFROMTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x29b1dc04.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function PERMIT_TRANSFER_FROM_TYPEHASH() view returns(bytes32)
func (permit2 *Permit2) TryPackPERMITTRANSFERFROMTYPEHASH() ([]byte, error) {
	return permit2.abi.Pack("PERMIT_TRANSFER_FROM_TYPEHASH")
}

// UnpackPERMITTRANSFERFROMTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x29b1dc04.
//
// Solidity: function PERMIT_TRANSFER_FROM_TYPEHASH() view returns(bytes32)
func (permit2 *Permit2) UnpackPERMITTRANSFERFROMTYPEHASH(data []byte) ([32]byte, error) {
	out, err := permit2.abi.Unpack("PERMIT_TRANSFER_FROM_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackTOKENPERMISSIONSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x696c11e5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function TOKEN_PERMISSIONS_TYPEHASH() view returns(bytes32)
func (permit2 *Permit2) PackTOKENPERMISSIONSTYPEHASH() []byte {
	enc, err := permit2.abi.Pack("TOKEN_PERMISSIONS_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTOKENPERMISSIONSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x696c11e5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function TOKEN_PERMISSIONS_TYPEHASH() view returns(bytes32)
func (permit2 *Permit2) TryPackTOKENPERMISSIONSTYPEHASH() ([]byte, error) {
	return permit2.abi.Pack("TOKEN_PERMISSIONS_TYPEHASH")
}

// UnpackTOKENPERMISSIONSTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x696c11e5.
//
// Solidity: function TOKEN_PERMISSIONS_TYPEHASH() view returns(bytes32)
func (permit2 *Permit2) UnpackTOKENPERMISSIONSTYPEHASH(data []byte) ([32]byte, error) {
	out, err := permit2.abi.Unpack("TOKEN_PERMISSIONS_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackInvalidateUnorderedNonces is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3ff9dcb1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) returns()
func (permit2 *Permit2) PackInvalidateUnorderedNonces(wordPos *big.Int, mask *big.Int) []byte {
	enc, err := permit2.abi.Pack("invalidateUnorderedNonces", wordPos, mask)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackInvalidateUnorderedNonces is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3ff9dcb1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) returns()
func (permit2 *Permit2) TryPackInvalidateUnorderedNonces(wordPos *big.Int, mask *big.Int) ([]byte, error) {
	return permit2.abi.Pack("invalidateUnorderedNonces", wordPos, mask)
}

// PackNonceBitmap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4fe02b44.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nonceBitmap(address , uint256 ) view returns(uint256)
func (permit2 *Permit2) PackNonceBitmap(arg0 common.Address, arg1 *big.Int) []byte {
	enc, err := permit2.abi.Pack("nonceBitmap", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNonceBitmap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4fe02b44.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nonceBitmap(address , uint256 ) view returns(uint256)
func (permit2 *Permit2) TryPackNonceBitmap(arg0 common.Address, arg1 *big.Int) ([]byte, error) {
	return permit2.abi.Pack("nonceBitmap", arg0, arg1)
}

// UnpackNonceBitmap is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4fe02b44.
//
// Solidity: function nonceBitmap(address , uint256 ) view returns(uint256)
func (permit2 *Permit2) UnpackNonceBitmap(data []byte) (*big.Int, error) {
	out, err := permit2.abi.Unpack("nonceBitmap", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackPermitTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x30f28b7a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function permitTransferFrom(((address,uint256),uint256,uint256) permit, (address,uint256) transferDetails, address owner, bytes signature) returns()
func (permit2 *Permit2) PackPermitTransferFrom(permit Permit2PermitTransferFrom, transferDetails Permit2SignatureTransferDetails, owner common.Address, signature []byte) []byte {
	enc, err := permit2.abi.Pack("permitTransferFrom", permit, transferDetails, owner, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPermitTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x30f28b7a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function permitTransferFrom(((address,uint256),uint256,uint256) permit, (address,uint256) transferDetails, address owner, bytes signature) returns()
func (permit2 *Permit2) TryPackPermitTransferFrom(permit Permit2PermitTransferFrom, transferDetails Permit2SignatureTransferDetails, owner common.Address, signature []byte) ([]byte, error) {
	return permit2.abi.Pack("permitTransferFrom", permit, transferDetails, owner, signature)
}

// PackPermitWitnessTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x137c29fe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function permitWitnessTransferFrom(((address,uint256),uint256,uint256) permit, (address,uint256) transferDetails, address owner, bytes32 witness, string witnessTypeString, bytes signature) returns()
func (permit2 *Permit2) PackPermitWitnessTransferFrom(permit Permit2PermitTransferFrom, transferDetails Permit2SignatureTransferDetails, owner common.Address, witness [32]byte, witnessTypeString string, signature []byte) []byte {
	enc, err := permit2.abi.Pack("permitWitnessTransferFrom", permit, transferDetails, owner, witness, witnessTypeString, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPermitWitnessTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x137c29fe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function permitWitnessTransferFrom(((address,uint256),uint256,uint256) permit, (address,uint256) transferDetails, address owner, bytes32 witness, string witnessTypeString, bytes signature) returns()
func (permit2 *Permit2) TryPackPermitWitnessTransferFrom(permit Permit2PermitTransferFrom, transferDetails Permit2SignatureTransferDetails, owner common.Address, witness [32]byte, witnessTypeString string, signature []byte) ([]byte, error) {
	return permit2.abi.Pack("permitWitnessTransferFrom", permit, transferDetails, owner, witness, witnessTypeString, signature)
}

// Permit2UnorderedNonceInvalidation represents a UnorderedNonceInvalidation event raised by the Permit2 contract.
type Permit2UnorderedNonceInvalidation struct {
	Owner common.Address
	Word  *big.Int
	Mask  *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const Permit2UnorderedNonceInvalidationEventName = "UnorderedNonceInvalidation"

// ContractEventName returns the user-defined event name.
func (Permit2UnorderedNonceInvalidation) ContractEventName() string {
	return Permit2UnorderedNonceInvalidationEventName
}

// UnpackUnorderedNonceInvalidationEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask)
func (permit2 *Permit2) UnpackUnorderedNonceInvalidationEvent(log *types.Log) (*Permit2UnorderedNonceInvalidation, error) {
	event := "UnorderedNonceInvalidation"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != permit2.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(Permit2UnorderedNonceInvalidation)
	if len(log.Data) > 0 {
		if err := permit2.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range permit2.abi.Events[event].Inputs {
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
func (permit2 *Permit2) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], permit2.abi.Errors["InvalidAmount"].ID.Bytes()[:4]) {
		return permit2.UnpackInvalidAmountError(raw[4:])
	}
	if bytes.Equal(raw[:4], permit2.abi.Errors["InvalidContractSignature"].ID.Bytes()[:4]) {
		return permit2.UnpackInvalidContractSignatureError(raw[4:])
	}
	if bytes.Equal(raw[:4], permit2.abi.Errors["InvalidNonce"].ID.Bytes()[:4]) {
		return permit2.UnpackInvalidNonceError(raw[4:])
	}
	if bytes.Equal(raw[:4], permit2.abi.Errors["InvalidSignature"].ID.Bytes()[:4]) {
		return permit2.UnpackInvalidSignatureError(raw[4:])
	}
	if bytes.Equal(raw[:4], permit2.abi.Errors["InvalidSignatureLength"].ID.Bytes()[:4]) {
		return permit2.UnpackInvalidSignatureLengthError(raw[4:])
	}
	if bytes.Equal(raw[:4], permit2.abi.Errors["InvalidSigner"].ID.Bytes()[:4]) {
		return permit2.UnpackInvalidSignerError(raw[4:])
	}
	if bytes.Equal(raw[:4], permit2.abi.Errors["SignatureExpired"].ID.Bytes()[:4]) {
		return permit2.UnpackSignatureExpiredError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// Permit2InvalidAmount represents a InvalidAmount error raised by the Permit2 contract.
type Permit2InvalidAmount struct {
	MaxAmount *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidAmount(uint256 maxAmount)
func Permit2InvalidAmountErrorID() common.Hash {
	return common.HexToHash("0x3728b83da61d63401ac13ad617e59d729e6cb5ed67c24fa9dc4e9b626307fd6e")
}

// UnpackInvalidAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidAmount(uint256 maxAmount)
func (permit2 *Permit2) UnpackInvalidAmountError(raw []byte) (*Permit2InvalidAmount, error) {
	out := new(Permit2InvalidAmount)
	if err := permit2.abi.UnpackIntoInterface(out, "InvalidAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2InvalidContractSignature represents a InvalidContractSignature error raised by the Permit2 contract.
type Permit2InvalidContractSignature struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidContractSignature()
func Permit2InvalidContractSignatureErrorID() common.Hash {
	return common.HexToHash("0xb0669cbc44dcc813760e2b75f75ec6b5f9f11c5a9277f3ad2e7a63052ae97f7a")
}

// UnpackInvalidContractSignatureError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidContractSignature()
func (permit2 *Permit2) UnpackInvalidContractSignatureError(raw []byte) (*Permit2InvalidContractSignature, error) {
	out := new(Permit2InvalidContractSignature)
	if err := permit2.abi.UnpackIntoInterface(out, "InvalidContractSignature", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2InvalidNonce represents a InvalidNonce error raised by the Permit2 contract.
type Permit2InvalidNonce struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidNonce()
func Permit2InvalidNonceErrorID() common.Hash {
	return common.HexToHash("0x756688fec2871909d72599c334b663ffcc94654c438569966c7fd3ab3a351f34")
}

// UnpackInvalidNonceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidNonce()
func (permit2 *Permit2) UnpackInvalidNonceError(raw []byte) (*Permit2InvalidNonce, error) {
	out := new(Permit2InvalidNonce)
	if err := permit2.abi.UnpackIntoInterface(out, "InvalidNonce", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2InvalidSignature represents a InvalidSignature error raised by the Permit2 contract.
type Permit2InvalidSignature struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidSignature()
func Permit2InvalidSignatureErrorID() common.Hash {
	return common.HexToHash("0x8baa579fce362245063d36f11747a89dd489c54795634fc673cc0e0db51fedc5")
}

// UnpackInvalidSignatureError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidSignature()
func (permit2 *Permit2) UnpackInvalidSignatureError(raw []byte) (*Permit2InvalidSignature, error) {
	out := new(Permit2InvalidSignature)
	if err := permit2.abi.UnpackIntoInterface(out, "InvalidSignature", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2InvalidSignatureLength represents a InvalidSignatureLength error raised by the Permit2 contract.
type Permit2InvalidSignatureLength struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidSignatureLength()
func Permit2InvalidSignatureLengthErrorID() common.Hash {
	return common.HexToHash("0x4be6321b1c5c52e8bf12be29c94fdc79660cce8a7886a11425ece4c2331dafa7")
}

// UnpackInvalidSignatureLengthError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidSignatureLength()
func (permit2 *Permit2) UnpackInvalidSignatureLengthError(raw []byte) (*Permit2InvalidSignatureLength, error) {
	out := new(Permit2InvalidSignatureLength)
	if err := permit2.abi.UnpackIntoInterface(out, "InvalidSignatureLength", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2InvalidSigner represents a InvalidSigner error raised by the Permit2 contract.
type Permit2InvalidSigner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidSigner()
func Permit2InvalidSignerErrorID() common.Hash {
	return common.HexToHash("0x815e1d64efb74fbe314c20a2b8a2335d18bce12a19165e447fa36bcb35959528")
}

// UnpackInvalidSignerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidSigner()
func (permit2 *Permit2) UnpackInvalidSignerError(raw []byte) (*Permit2InvalidSigner, error) {
	out := new(Permit2InvalidSigner)
	if err := permit2.abi.UnpackIntoInterface(out, "InvalidSigner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// Permit2SignatureExpired represents a SignatureExpired error raised by the Permit2 contract.
type Permit2SignatureExpired struct {
	SignatureDeadline *big.Int
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error SignatureExpired(uint256 signatureDeadline)
func Permit2SignatureExpiredErrorID() common.Hash {
	return common.HexToHash("0xcd21db4f5222c209a625f44a7faa4c7077b21128ed96c96bd5c3a0f7bcc95d38")
}

// UnpackSignatureExpiredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error SignatureExpired(uint256 signatureDeadline)
func (permit2 *Permit2) UnpackSignatureExpiredError(raw []byte) (*Permit2SignatureExpired, error) {
	out := new(Permit2SignatureExpired)
	if err := permit2.abi.UnpackIntoInterface(out, "SignatureExpired", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// RogueFactoryMetaData contains all meta data concerning the RogueFactory contract.
var RogueFactoryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"burn\",\"outputs\":[],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"create\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"fail\",\"outputs\":[],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"salt\",\"type\":\"bytes32\"}],\"name\":\"getAddress\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"nothing\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "89144d067d19d5ee5fc483ee3747be8d29",
	Bin: "0x6080604052348015600e575f5ffd5b506105dd8061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610064575f3560e01c806344df8e701161004d57806344df8e70146100a65780637368a8ce146100ae578063a9cc4718146100c1575f5ffd5b806321f8a72114610068578063448f30a3146100a4575b5f5ffd5b61007b610076366004610278565b6100c9565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200160405180910390f35b005b6100a4610198565b61007b6100bc366004610278565b6101a0565b6100a46101d2565b5f5f604051806020016100db9061026b565b7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe082820381018352601f90910116604081815282516020938401207fff00000000000000000000000000000000000000000000000000000000000000848401523060601b7fffffffffffffffffffffffffffffffffffffffff00000000000000000000000016602184015260358301969096526055808301969096528051808303909601865260759091019052835193019290922092915050565b565b610196610238565b5f816040516101ae9061026b565b8190604051809103905ff59050801580156101cb573d5f5f3e3d5ffd5b5092915050565b6040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601060248201527f526f677565466163746f72793a206e6f00000000000000000000000000000000604482015260640160405180910390fd5b5f5b806001146102685760408051602080820193909352815180820384018152908201909152805191012061023a565b50565b6103188061029083390190565b5f60208284031215610288575f5ffd5b503591905056fe6080604052348015600e575f5ffd5b506102fc8061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80631626ba7e1461004357806321175b4a1461008c578063295a5212146100a1575b5f5ffd5b6100566100513660046101c5565b6100ba565b6040517fffffffff0000000000000000000000000000000000000000000000000000000090911681526020015b60405180910390f35b61009f61009a36600461023c565b61014e565b005b5f546100ad9060ff1681565b6040516100839190610287565b5f60015f5460ff1660028111156100d3576100d361025a565b036100ff57507fffffffff00000000000000000000000000000000000000000000000000000000610147565b60025f5460ff1660028111156101175761011761025a565b0361012457610124610192565b507f1626ba7e000000000000000000000000000000000000000000000000000000005b9392505050565b5f80548291907fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016600183600281111561018a5761018a61025a565b021790555050565b5f5b806001146101c257604080516020808201939093528151808203840181529082019091528051910120610194565b50565b5f5f5f604084860312156101d7575f5ffd5b83359250602084013567ffffffffffffffff8111156101f4575f5ffd5b8401601f81018613610204575f5ffd5b803567ffffffffffffffff81111561021a575f5ffd5b86602082840101111561022b575f5ffd5b939660209190910195509293505050565b5f6020828403121561024c575f5ffd5b813560038110610147575f5ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b60208101600383106102c0577f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b9190529056fea2646970667358221220be1cb6aabf372554f30d4c5faf9c90d5ebd691880f1280b57ff0fcd2d6649d0464736f6c63430008250033a26469706673582212204b00b08ee35c71c0c36a20c86208fd4b82fb63436165a7568c9acfef3b1c782c64736f6c63430008250033",
}

// RogueFactory is an auto generated Go binding around an Ethereum contract.
type RogueFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *RogueFactory) GetABI() abi.ABI {
	return c.abi
}

// NewRogueFactory creates a new instance of RogueFactory.
func NewRogueFactory() *RogueFactory {
	parsed, err := RogueFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &RogueFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *RogueFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x44df8e70.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function burn() pure returns()
func (rogueFactory *RogueFactory) PackBurn() []byte {
	enc, err := rogueFactory.abi.Pack("burn")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x44df8e70.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function burn() pure returns()
func (rogueFactory *RogueFactory) TryPackBurn() ([]byte, error) {
	return rogueFactory.abi.Pack("burn")
}

// PackCreate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7368a8ce.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function create(bytes32 salt) returns(address)
func (rogueFactory *RogueFactory) PackCreate(salt [32]byte) []byte {
	enc, err := rogueFactory.abi.Pack("create", salt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7368a8ce.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function create(bytes32 salt) returns(address)
func (rogueFactory *RogueFactory) TryPackCreate(salt [32]byte) ([]byte, error) {
	return rogueFactory.abi.Pack("create", salt)
}

// UnpackCreate is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7368a8ce.
//
// Solidity: function create(bytes32 salt) returns(address)
func (rogueFactory *RogueFactory) UnpackCreate(data []byte) (common.Address, error) {
	out, err := rogueFactory.abi.Unpack("create", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackFail is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9cc4718.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function fail() pure returns()
func (rogueFactory *RogueFactory) PackFail() []byte {
	enc, err := rogueFactory.abi.Pack("fail")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFail is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9cc4718.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function fail() pure returns()
func (rogueFactory *RogueFactory) TryPackFail() ([]byte, error) {
	return rogueFactory.abi.Pack("fail")
}

// PackGetAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x21f8a721.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getAddress(bytes32 salt) view returns(address)
func (rogueFactory *RogueFactory) PackGetAddress(salt [32]byte) []byte {
	enc, err := rogueFactory.abi.Pack("getAddress", salt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x21f8a721.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getAddress(bytes32 salt) view returns(address)
func (rogueFactory *RogueFactory) TryPackGetAddress(salt [32]byte) ([]byte, error) {
	return rogueFactory.abi.Pack("getAddress", salt)
}

// UnpackGetAddress is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x21f8a721.
//
// Solidity: function getAddress(bytes32 salt) view returns(address)
func (rogueFactory *RogueFactory) UnpackGetAddress(data []byte) (common.Address, error) {
	out, err := rogueFactory.abi.Unpack("getAddress", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackNothing is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x448f30a3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nothing() returns()
func (rogueFactory *RogueFactory) PackNothing() []byte {
	enc, err := rogueFactory.abi.Pack("nothing")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNothing is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x448f30a3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nothing() returns()
func (rogueFactory *RogueFactory) TryPackNothing() ([]byte, error) {
	return rogueFactory.abi.Pack("nothing")
}

// RogueWalletMetaData contains all meta data concerning the RogueWallet contract.
var RogueWalletMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"mode\",\"outputs\":[{\"internalType\":\"enumRogueWallet.Mode\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"enumRogueWallet.Mode\",\"name\":\"m\",\"type\":\"uint8\"}],\"name\":\"setMode\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "f853dfa9206bc076bd194e4632378ff122",
	Bin: "0x6080604052348015600e575f5ffd5b506102fc8061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c80631626ba7e1461004357806321175b4a1461008c578063295a5212146100a1575b5f5ffd5b6100566100513660046101c5565b6100ba565b6040517fffffffff0000000000000000000000000000000000000000000000000000000090911681526020015b60405180910390f35b61009f61009a36600461023c565b61014e565b005b5f546100ad9060ff1681565b6040516100839190610287565b5f60015f5460ff1660028111156100d3576100d361025a565b036100ff57507fffffffff00000000000000000000000000000000000000000000000000000000610147565b60025f5460ff1660028111156101175761011761025a565b0361012457610124610192565b507f1626ba7e000000000000000000000000000000000000000000000000000000005b9392505050565b5f80548291907fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016600183600281111561018a5761018a61025a565b021790555050565b5f5b806001146101c257604080516020808201939093528151808203840181529082019091528051910120610194565b50565b5f5f5f604084860312156101d7575f5ffd5b83359250602084013567ffffffffffffffff8111156101f4575f5ffd5b8401601f81018613610204575f5ffd5b803567ffffffffffffffff81111561021a575f5ffd5b86602082840101111561022b575f5ffd5b939660209190910195509293505050565b5f6020828403121561024c575f5ffd5b813560038110610147575f5ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b60208101600383106102c0577f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b9190529056fea2646970667358221220be1cb6aabf372554f30d4c5faf9c90d5ebd691880f1280b57ff0fcd2d6649d0464736f6c63430008250033",
}

// RogueWallet is an auto generated Go binding around an Ethereum contract.
type RogueWallet struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *RogueWallet) GetABI() abi.ABI {
	return c.abi
}

// NewRogueWallet creates a new instance of RogueWallet.
func NewRogueWallet() *RogueWallet {
	parsed, err := RogueWalletMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &RogueWallet{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *RogueWallet) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isValidSignature(bytes32 , bytes ) view returns(bytes4)
func (rogueWallet *RogueWallet) PackIsValidSignature(arg0 [32]byte, arg1 []byte) []byte {
	enc, err := rogueWallet.abi.Pack("isValidSignature", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isValidSignature(bytes32 , bytes ) view returns(bytes4)
func (rogueWallet *RogueWallet) TryPackIsValidSignature(arg0 [32]byte, arg1 []byte) ([]byte, error) {
	return rogueWallet.abi.Pack("isValidSignature", arg0, arg1)
}

// UnpackIsValidSignature is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 , bytes ) view returns(bytes4)
func (rogueWallet *RogueWallet) UnpackIsValidSignature(data []byte) ([4]byte, error) {
	out, err := rogueWallet.abi.Unpack("isValidSignature", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x295a5212.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mode() view returns(uint8)
func (rogueWallet *RogueWallet) PackMode() []byte {
	enc, err := rogueWallet.abi.Pack("mode")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x295a5212.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mode() view returns(uint8)
func (rogueWallet *RogueWallet) TryPackMode() ([]byte, error) {
	return rogueWallet.abi.Pack("mode")
}

// UnpackMode is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x295a5212.
//
// Solidity: function mode() view returns(uint8)
func (rogueWallet *RogueWallet) UnpackMode(data []byte) (uint8, error) {
	out, err := rogueWallet.abi.Unpack("mode", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackSetMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x21175b4a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setMode(uint8 m) returns()
func (rogueWallet *RogueWallet) PackSetMode(m uint8) []byte {
	enc, err := rogueWallet.abi.Pack("setMode", m)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetMode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x21175b4a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setMode(uint8 m) returns()
func (rogueWallet *RogueWallet) TryPackSetMode(m uint8) ([]byte, error) {
	return rogueWallet.abi.Pack("setMode", m)
}

// SettablePriceFeedMetaData contains all meta data concerning the SettablePriceFeed contract.
var SettablePriceFeedMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"decimals_\",\"type\":\"uint8\"},{\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"latestRoundData\",\"outputs\":[{\"internalType\":\"uint80\",\"name\":\"roundId\",\"type\":\"uint80\"},{\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"startedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint80\",\"name\":\"answeredInRound\",\"type\":\"uint80\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"int256\",\"name\":\"answer\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt\",\"type\":\"uint256\"}],\"name\":\"set\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "22e017b8527a3a953ace9a8e436fb01e5b",
	Bin: "0x60a060405234801561000f575f5ffd5b506040516102e63803806102e683398101604081905261002e91610090565b60ff831660805261003f8282610047565b505050610100565b5f8281556001829055600280546001600160501b031691610067836100c9565b91906101000a8154816001600160501b0302191690836001600160501b03160217905550505050565b5f5f5f606084860312156100a2575f5ffd5b835160ff811681146100b2575f5ffd5b602085015160409095015190969495509392505050565b5f6001600160501b0382166002600160501b031981016100f757634e487b7160e01b5f52601160045260245ffd5b60010192915050565b6080516101cf6101175f395f604801526101cf5ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c8063313ce56714610043578063a22c554014610081578063feaf968c14610096575b5f5ffd5b61006a7f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff90911681526020015b60405180910390f35b61009461008f366004610124565b6100d2565b005b6002545f546001546040805169ffffffffffffffffffff909416808552602085019390935283018190526060830152608082015260a001610078565b5f82815560018290556002805469ffffffffffffffffffff16916100f583610144565b91906101000a81548169ffffffffffffffffffff021916908369ffffffffffffffffffff160217905550505050565b5f5f60408385031215610135575f5ffd5b50508035926020909101359150565b5f69ffffffffffffffffffff821669ffffffffffffffffffff8103610190577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b6001019291505056fea2646970667358221220809bb1916eb5d59feac9237da5a623caffd5a34db9fd8c8c0daf98266df14c1564736f6c63430008250033",
}

// SettablePriceFeed is an auto generated Go binding around an Ethereum contract.
type SettablePriceFeed struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SettablePriceFeed) GetABI() abi.ABI {
	return c.abi
}

// NewSettablePriceFeed creates a new instance of SettablePriceFeed.
func NewSettablePriceFeed() *SettablePriceFeed {
	parsed, err := SettablePriceFeedMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SettablePriceFeed{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SettablePriceFeed) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(uint8 decimals_, int256 answer, uint256 updatedAt) returns()
func (settablePriceFeed *SettablePriceFeed) PackConstructor(decimals_ uint8, answer *big.Int, updatedAt *big.Int) []byte {
	enc, err := settablePriceFeed.abi.Pack("", decimals_, answer, updatedAt)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (settablePriceFeed *SettablePriceFeed) PackDecimals() []byte {
	enc, err := settablePriceFeed.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (settablePriceFeed *SettablePriceFeed) TryPackDecimals() ([]byte, error) {
	return settablePriceFeed.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (settablePriceFeed *SettablePriceFeed) UnpackDecimals(data []byte) (uint8, error) {
	out, err := settablePriceFeed.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (settablePriceFeed *SettablePriceFeed) PackLatestRoundData() []byte {
	enc, err := settablePriceFeed.abi.Pack("latestRoundData")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (settablePriceFeed *SettablePriceFeed) TryPackLatestRoundData() ([]byte, error) {
	return settablePriceFeed.abi.Pack("latestRoundData")
}

// LatestRoundDataOutput serves as a container for the return parameters of contract
// method LatestRoundData.
type LatestRoundDataOutput struct {
	RoundId         *big.Int
	Answer          *big.Int
	StartedAt       *big.Int
	UpdatedAt       *big.Int
	AnsweredInRound *big.Int
}

// UnpackLatestRoundData is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfeaf968c.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
func (settablePriceFeed *SettablePriceFeed) UnpackLatestRoundData(data []byte) (LatestRoundDataOutput, error) {
	out, err := settablePriceFeed.abi.Unpack("latestRoundData", data)
	outstruct := new(LatestRoundDataOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.RoundId = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Answer = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.StartedAt = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.UpdatedAt = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.AnsweredInRound = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackSet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa22c5540.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function set(int256 answer, uint256 updatedAt) returns()
func (settablePriceFeed *SettablePriceFeed) PackSet(answer *big.Int, updatedAt *big.Int) []byte {
	enc, err := settablePriceFeed.abi.Pack("set", answer, updatedAt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa22c5540.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function set(int256 answer, uint256 updatedAt) returns()
func (settablePriceFeed *SettablePriceFeed) TryPackSet(answer *big.Int, updatedAt *big.Int) ([]byte, error) {
	return settablePriceFeed.abi.Pack("set", answer, updatedAt)
}

// SimpleAccountMetaData contains all meta data concerning the SimpleAccount contract.
var SimpleAccountMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"anEntryPoint\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"previousAdmin\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"newAdmin\",\"type\":\"address\"}],\"name\":\"AdminChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"beacon\",\"type\":\"address\"}],\"name\":\"BeaconUpgraded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"version\",\"type\":\"uint8\"}],\"name\":\"Initialized\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"contractIEntryPoint\",\"name\":\"entryPoint\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"}],\"name\":\"SimpleAccountInitialized\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"implementation\",\"type\":\"address\"}],\"name\":\"Upgraded\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"addDeposit\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"entryPoint\",\"outputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"dest\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"func\",\"type\":\"bytes\"}],\"name\":\"execute\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"dest\",\"type\":\"address[]\"},{\"internalType\":\"bytes[]\",\"name\":\"func\",\"type\":\"bytes[]\"}],\"name\":\"executeBatch\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getDeposit\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getNonce\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"anOwner\",\"type\":\"address\"}],\"name\":\"initialize\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"},{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"onERC1155BatchReceived\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"onERC1155Received\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"onERC721Received\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"proxiableUUID\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes4\",\"name\":\"interfaceId\",\"type\":\"bytes4\"}],\"name\":\"supportsInterface\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"name\":\"tokensReceived\",\"outputs\":[],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newImplementation\",\"type\":\"address\"}],\"name\":\"upgradeTo\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newImplementation\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"upgradeToAndCall\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"userOp\",\"type\":\"tuple\"},{\"internalType\":\"bytes32\",\"name\":\"userOpHash\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"missingAccountFunds\",\"type\":\"uint256\"}],\"name\":\"validateUserOp\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"validationData\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"withdrawAddress\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdrawDepositTo\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "b7eded05e0b2e271263826fad54e1e9a01",
	Bin: "0x60c060405230608052348015610013575f5ffd5b5060405161249c38038061249c83398101604081905261003291610109565b6001600160a01b03811660a05261004761004d565b50610136565b5f54610100900460ff16156100b85760405162461bcd60e51b815260206004820152602760248201527f496e697469616c697a61626c653a20636f6e747261637420697320696e697469604482015266616c697a696e6760c81b606482015260840160405180910390fd5b5f5460ff90811614610107575f805460ff191660ff9081179091556040519081527f7f26b83ff96e1f2b6a682f133852f6798a09c465da95921460cefb38474024989060200160405180910390a15b565b5f60208284031215610119575f5ffd5b81516001600160a01b038116811461012f575f5ffd5b9392505050565b60805160a0516122f86101a45f395f818161031c01528181610858015281816108fb01528181610d1701528181610f5f01528181610fa6015281816112f3015261157c01525f8181610644015281816106f4015281816109ba01528181610a6a0152610bb201526122f85ff3fe608060405260043610610125575f3560e01c806352d1902d116100a1578063bc197c8111610071578063c4d66de811610057578063c4d66de8146103ba578063d087d288146103d9578063f23a6e61146103ed575f5ffd5b8063bc197c811461035f578063c399ec88146103a6575f5ffd5b806352d1902d146102a45780638da5cb5b146102b8578063b0d691fe1461030e578063b61d27f614610340575f5ffd5b80633659cfe6116100f65780634a58db19116100dc5780634a58db191461026a5780634d44560d146102725780634f1ef28614610291575f5ffd5b80633659cfe61461021e5780633a871cdd1461023d575f5ffd5b806223de291461013057806301ffc9a714610156578063150b7a021461018a57806318dfb3c7146101ff575f5ffd5b3661012c57005b5f5ffd5b34801561013b575f5ffd5b5061015461014a366004611c2d565b5050505050505050565b005b348015610161575f5ffd5b50610175610170366004611cdc565b610432565b60405190151581526020015b60405180910390f35b348015610195575f5ffd5b506101ce6101a4366004611d1b565b7f150b7a020000000000000000000000000000000000000000000000000000000095945050505050565b6040517fffffffff000000000000000000000000000000000000000000000000000000009091168152602001610181565b34801561020a575f5ffd5b50610154610219366004611dca565b610516565b348015610229575f5ffd5b50610154610238366004611e36565b61062d565b348015610248575f5ffd5b5061025c610257366004611e51565b610831565b604051908152602001610181565b610154610856565b34801561027d575f5ffd5b5061015461028c366004611ea0565b6108f1565b61015461029f366004611ef7565b6109a3565b3480156102af575f5ffd5b5061025c610b99565b3480156102c3575f5ffd5b505f546102e99062010000900473ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610181565b348015610319575f5ffd5b507f00000000000000000000000000000000000000000000000000000000000000006102e9565b34801561034b575f5ffd5b5061015461035a366004611ffa565b610c84565b34801561036a575f5ffd5b506101ce610379366004612046565b7fbc197c810000000000000000000000000000000000000000000000000000000098975050505050505050565b3480156103b1575f5ffd5b5061025c610cd2565b3480156103c5575f5ffd5b506101546103d4366004611e36565b610d86565b3480156103e4575f5ffd5b5061025c610f13565b3480156103f8575f5ffd5b506101ce6104073660046120e9565b7ff23a6e61000000000000000000000000000000000000000000000000000000009695505050505050565b5f7fffffffff0000000000000000000000000000000000000000000000000000000082167f150b7a020000000000000000000000000000000000000000000000000000000014806104c457507fffffffff0000000000000000000000000000000000000000000000000000000082167f4e2312e000000000000000000000000000000000000000000000000000000000145b8061051057507fffffffff0000000000000000000000000000000000000000000000000000000082167f01ffc9a700000000000000000000000000000000000000000000000000000000145b92915050565b61051e610f8e565b82811461058c576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601360248201527f77726f6e67206172726179206c656e677468730000000000000000000000000060448201526064015b60405180910390fd5b5f5b838110156106265761061e8585838181106105ab576105ab612160565b90506020020160208101906105c09190611e36565b5f8585858181106105d3576105d3612160565b90506020028101906105e5919061218d565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061105692505050565b60010161058e565b5050505050565b73ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001630036106f2576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f64656c656761746563616c6c00000000000000000000000000000000000000006064820152608401610583565b7f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff166107677f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc5473ffffffffffffffffffffffffffffffffffffffff1690565b73ffffffffffffffffffffffffffffffffffffffff161461080a576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f6163746976652070726f787900000000000000000000000000000000000000006064820152608401610583565b610813816110cf565b604080515f8082526020820190925261082e918391906110d7565b50565b5f61083a6112db565b610844848461137a565b905061084f8261142f565b9392505050565b7f00000000000000000000000000000000000000000000000000000000000000006040517fb760faf900000000000000000000000000000000000000000000000000000000815230600482015273ffffffffffffffffffffffffffffffffffffffff919091169063b760faf99034906024015f604051808303818588803b1580156108df575f5ffd5b505af1158015610626573d5f5f3e3d5ffd5b6108f9611497565b7f00000000000000000000000000000000000000000000000000000000000000006040517f205c287800000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff848116600483015260248201849052919091169063205c2878906044015f604051808303815f87803b158015610989575f5ffd5b505af115801561099b573d5f5f3e3d5ffd5b505050505050565b73ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000163003610a68576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f64656c656761746563616c6c00000000000000000000000000000000000000006064820152608401610583565b7f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff16610add7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc5473ffffffffffffffffffffffffffffffffffffffff1690565b73ffffffffffffffffffffffffffffffffffffffff1614610b80576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f6163746976652070726f787900000000000000000000000000000000000000006064820152608401610583565b610b89826110cf565b610b95828260016110d7565b5050565b5f3073ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614610c5f576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152603860248201527f555550535570677261646561626c653a206d757374206e6f742062652063616c60448201527f6c6564207468726f7567682064656c656761746563616c6c00000000000000006064820152608401610583565b507f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc90565b610c8c610f8e565b610ccc848484848080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061105692505050565b50505050565b6040517f70a082310000000000000000000000000000000000000000000000000000000081523060048201525f9073ffffffffffffffffffffffffffffffffffffffff7f000000000000000000000000000000000000000000000000000000000000000016906370a08231906024015b602060405180830381865afa158015610d5d573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610d8191906121ee565b905090565b5f54610100900460ff1615808015610da457505f54600160ff909116105b80610dbd5750303b158015610dbd57505f5460ff166001145b610e49576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602e60248201527f496e697469616c697a61626c653a20636f6e747261637420697320616c72656160448201527f647920696e697469616c697a65640000000000000000000000000000000000006064820152608401610583565b5f80547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff001660011790558015610ea5575f80547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00ff166101001790555b610eae82611527565b8015610b95575f80547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00ff169055604051600181527f7f26b83ff96e1f2b6a682f133852f6798a09c465da95921460cefb38474024989060200160405180910390a15050565b6040517f35567e1a0000000000000000000000000000000000000000000000000000000081523060048201525f602482018190529073ffffffffffffffffffffffffffffffffffffffff7f000000000000000000000000000000000000000000000000000000000000000016906335567e1a90604401610d42565b3373ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000161480610fee57505f5462010000900473ffffffffffffffffffffffffffffffffffffffff1633145b611054576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f6163636f756e743a206e6f74204f776e6572206f7220456e747279506f696e746044820152606401610583565b565b5f5f8473ffffffffffffffffffffffffffffffffffffffff16848460405161107e9190612205565b5f6040518083038185875af1925050503d805f81146110b8576040519150601f19603f3d011682016040523d82523d5f602084013e6110bd565b606091505b50915091508161062657805160208201fd5b61082e611497565b7f4910fdfa16fed3260ed0e7147f7cc6da11a60208b5b9406d12a635614ffd91435460ff161561110f5761110a836115c5565b505050565b8273ffffffffffffffffffffffffffffffffffffffff166352d1902d6040518163ffffffff1660e01b8152600401602060405180830381865afa925050508015611194575060408051601f3d9081017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0168201909252611191918101906121ee565b60015b611220576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602e60248201527f45524331393637557067726164653a206e657720696d706c656d656e7461746960448201527f6f6e206973206e6f7420555550530000000000000000000000000000000000006064820152608401610583565b7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc81146112cf576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602960248201527f45524331393637557067726164653a20756e737570706f727465642070726f7860448201527f6961626c655555494400000000000000000000000000000000000000000000006064820152608401610583565b5061110a8383836116cf565b3373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614611054576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601c60248201527f6163636f756e743a206e6f742066726f6d20456e747279506f696e74000000006044820152606401610583565b7f19457468657265756d205369676e6564204d6573736167653a0a3332000000005f908152601c829052603c81206113f56113b961014086018661218d565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525085939250506116f39050565b5f5462010000900473ffffffffffffffffffffffffffffffffffffffff908116911614611426576001915050610510565b505f9392505050565b801561082e576040515f9033907fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff90849084818181858888f193505050503d805f8114610626576040519150601f19603f3d011682016040523d82523d5f602084013e610626565b5f5462010000900473ffffffffffffffffffffffffffffffffffffffff163314806114c157503330145b611054576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600a60248201527f6f6e6c79206f776e6572000000000000000000000000000000000000000000006044820152606401610583565b5f80547fffffffffffffffffffff0000000000000000000000000000000000000000ffff166201000073ffffffffffffffffffffffffffffffffffffffff8481168202929092178084556040519190048216927f0000000000000000000000000000000000000000000000000000000000000000909216917f47e55c76e7a6f1fd8996a1da8008c1ea29699cca35e7bcd057f2dec313b6e5de91a350565b73ffffffffffffffffffffffffffffffffffffffff81163b611669576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602d60248201527f455243313936373a206e657720696d706c656d656e746174696f6e206973206e60448201527f6f74206120636f6e7472616374000000000000000000000000000000000000006064820152608401610583565b7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc80547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff92909216919091179055565b6116d883611715565b5f825111806116e45750805b1561110a57610ccc8383611761565b5f5f5f6117008585611786565b9150915061170d816117c8565b509392505050565b61171e816115c5565b60405173ffffffffffffffffffffffffffffffffffffffff8216907fbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b905f90a250565b606061084f838360405180606001604052806027815260200161229c6027913961197a565b5f5f82516041036117ba576020830151604084015160608501515f1a6117ae878285856119fb565b945094505050506117c1565b505f905060025b9250929050565b5f8160048111156117db576117db61221b565b036117e35750565b60018160048111156117f7576117f761221b565b0361185e576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f45434453413a20696e76616c6964207369676e617475726500000000000000006044820152606401610583565b60028160048111156118725761187261221b565b036118d9576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45434453413a20696e76616c6964207369676e6174757265206c656e677468006044820152606401610583565b60038160048111156118ed576118ed61221b565b0361082e576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45434453413a20696e76616c6964207369676e6174757265202773272076616c60448201527f75650000000000000000000000000000000000000000000000000000000000006064820152608401610583565b60605f5f8573ffffffffffffffffffffffffffffffffffffffff16856040516119a39190612205565b5f60405180830381855af49150503d805f81146119db576040519150601f19603f3d011682016040523d82523d5f602084013e6119e0565b606091505b50915091506119f186838387611ae3565b9695505050505050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0831115611a3057505f90506003611ada565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015611a81573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff8116611ad4575f60019250925050611ada565b91505f90505b94509492505050565b60608315611b785782515f03611b715773ffffffffffffffffffffffffffffffffffffffff85163b611b71576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f416464726573733a2063616c6c20746f206e6f6e2d636f6e74726163740000006044820152606401610583565b5081611b82565b611b828383611b8a565b949350505050565b815115611b9a5781518083602001fd5b806040517f08c379a00000000000000000000000000000000000000000000000000000000081526004016105839190612248565b73ffffffffffffffffffffffffffffffffffffffff8116811461082e575f5ffd5b5f5f83601f840112611bff575f5ffd5b50813567ffffffffffffffff811115611c16575f5ffd5b6020830191508360208285010111156117c1575f5ffd5b5f5f5f5f5f5f5f5f60c0898b031215611c44575f5ffd5b8835611c4f81611bce565b97506020890135611c5f81611bce565b96506040890135611c6f81611bce565b955060608901359450608089013567ffffffffffffffff811115611c91575f5ffd5b611c9d8b828c01611bef565b90955093505060a089013567ffffffffffffffff811115611cbc575f5ffd5b611cc88b828c01611bef565b999c989b5096995094979396929594505050565b5f60208284031215611cec575f5ffd5b81357fffffffff000000000000000000000000000000000000000000000000000000008116811461084f575f5ffd5b5f5f5f5f5f60808688031215611d2f575f5ffd5b8535611d3a81611bce565b94506020860135611d4a81611bce565b935060408601359250606086013567ffffffffffffffff811115611d6c575f5ffd5b611d7888828901611bef565b969995985093965092949392505050565b5f5f83601f840112611d99575f5ffd5b50813567ffffffffffffffff811115611db0575f5ffd5b6020830191508360208260051b85010111156117c1575f5ffd5b5f5f5f5f60408587031215611ddd575f5ffd5b843567ffffffffffffffff811115611df3575f5ffd5b611dff87828801611d89565b909550935050602085013567ffffffffffffffff811115611e1e575f5ffd5b611e2a87828801611d89565b95989497509550505050565b5f60208284031215611e46575f5ffd5b813561084f81611bce565b5f5f5f60608486031215611e63575f5ffd5b833567ffffffffffffffff811115611e79575f5ffd5b84016101608187031215611e8b575f5ffd5b95602085013595506040909401359392505050565b5f5f60408385031215611eb1575f5ffd5b8235611ebc81611bce565b946020939093013593505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b5f5f60408385031215611f08575f5ffd5b8235611f1381611bce565b9150602083013567ffffffffffffffff811115611f2e575f5ffd5b8301601f81018513611f3e575f5ffd5b803567ffffffffffffffff811115611f5857611f58611eca565b6040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0603f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8501160116810181811067ffffffffffffffff82111715611fc457611fc4611eca565b604052818152828201602001871015611fdb575f5ffd5b816020840160208301375f602083830101528093505050509250929050565b5f5f5f5f6060858703121561200d575f5ffd5b843561201881611bce565b935060208501359250604085013567ffffffffffffffff81111561203a575f5ffd5b611e2a87828801611bef565b5f5f5f5f5f5f5f5f60a0898b03121561205d575f5ffd5b883561206881611bce565b9750602089013561207881611bce565b9650604089013567ffffffffffffffff811115612093575f5ffd5b61209f8b828c01611d89565b909750955050606089013567ffffffffffffffff8111156120be575f5ffd5b6120ca8b828c01611d89565b909550935050608089013567ffffffffffffffff811115611cbc575f5ffd5b5f5f5f5f5f5f60a087890312156120fe575f5ffd5b863561210981611bce565b9550602087013561211981611bce565b94506040870135935060608701359250608087013567ffffffffffffffff811115612142575f5ffd5b61214e89828a01611bef565b979a9699509497509295939492505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe18436030181126121c0575f5ffd5b83018035915067ffffffffffffffff8211156121da575f5ffd5b6020019150368190038213156117c1575f5ffd5b5f602082840312156121fe575f5ffd5b5051919050565b5f82518060208501845e5f920191825250919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8301168401019150509291505056fe416464726573733a206c6f772d6c6576656c2064656c65676174652063616c6c206661696c6564a26469706673582212208b14b2b8d816a2a0a4d3affb1e797337fbcf85177ddec3a0b84a1a114f618c2264736f6c63430008250033",
}

// SimpleAccount is an auto generated Go binding around an Ethereum contract.
type SimpleAccount struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SimpleAccount) GetABI() abi.ABI {
	return c.abi
}

// NewSimpleAccount creates a new instance of SimpleAccount.
func NewSimpleAccount() *SimpleAccount {
	parsed, err := SimpleAccountMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SimpleAccount{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SimpleAccount) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address anEntryPoint) returns()
func (simpleAccount *SimpleAccount) PackConstructor(anEntryPoint common.Address) []byte {
	enc, err := simpleAccount.abi.Pack("", anEntryPoint)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAddDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4a58db19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addDeposit() payable returns()
func (simpleAccount *SimpleAccount) PackAddDeposit() []byte {
	enc, err := simpleAccount.abi.Pack("addDeposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4a58db19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addDeposit() payable returns()
func (simpleAccount *SimpleAccount) TryPackAddDeposit() ([]byte, error) {
	return simpleAccount.abi.Pack("addDeposit")
}

// PackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function entryPoint() view returns(address)
func (simpleAccount *SimpleAccount) PackEntryPoint() []byte {
	enc, err := simpleAccount.abi.Pack("entryPoint")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function entryPoint() view returns(address)
func (simpleAccount *SimpleAccount) TryPackEntryPoint() ([]byte, error) {
	return simpleAccount.abi.Pack("entryPoint")
}

// UnpackEntryPoint is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb0d691fe.
//
// Solidity: function entryPoint() view returns(address)
func (simpleAccount *SimpleAccount) UnpackEntryPoint(data []byte) (common.Address, error) {
	out, err := simpleAccount.abi.Unpack("entryPoint", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function execute(address dest, uint256 value, bytes func) returns()
func (simpleAccount *SimpleAccount) PackExecute(dest common.Address, value *big.Int, arg2 []byte) []byte {
	enc, err := simpleAccount.abi.Pack("execute", dest, value, arg2)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb61d27f6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function execute(address dest, uint256 value, bytes func) returns()
func (simpleAccount *SimpleAccount) TryPackExecute(dest common.Address, value *big.Int, arg2 []byte) ([]byte, error) {
	return simpleAccount.abi.Pack("execute", dest, value, arg2)
}

// PackExecuteBatch is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18dfb3c7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function executeBatch(address[] dest, bytes[] func) returns()
func (simpleAccount *SimpleAccount) PackExecuteBatch(dest []common.Address, arg1 [][]byte) []byte {
	enc, err := simpleAccount.abi.Pack("executeBatch", dest, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExecuteBatch is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18dfb3c7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function executeBatch(address[] dest, bytes[] func) returns()
func (simpleAccount *SimpleAccount) TryPackExecuteBatch(dest []common.Address, arg1 [][]byte) ([]byte, error) {
	return simpleAccount.abi.Pack("executeBatch", dest, arg1)
}

// PackGetDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc399ec88.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getDeposit() view returns(uint256)
func (simpleAccount *SimpleAccount) PackGetDeposit() []byte {
	enc, err := simpleAccount.abi.Pack("getDeposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc399ec88.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getDeposit() view returns(uint256)
func (simpleAccount *SimpleAccount) TryPackGetDeposit() ([]byte, error) {
	return simpleAccount.abi.Pack("getDeposit")
}

// UnpackGetDeposit is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc399ec88.
//
// Solidity: function getDeposit() view returns(uint256)
func (simpleAccount *SimpleAccount) UnpackGetDeposit(data []byte) (*big.Int, error) {
	out, err := simpleAccount.abi.Unpack("getDeposit", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd087d288.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getNonce() view returns(uint256)
func (simpleAccount *SimpleAccount) PackGetNonce() []byte {
	enc, err := simpleAccount.abi.Pack("getNonce")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd087d288.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getNonce() view returns(uint256)
func (simpleAccount *SimpleAccount) TryPackGetNonce() ([]byte, error) {
	return simpleAccount.abi.Pack("getNonce")
}

// UnpackGetNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd087d288.
//
// Solidity: function getNonce() view returns(uint256)
func (simpleAccount *SimpleAccount) UnpackGetNonce(data []byte) (*big.Int, error) {
	out, err := simpleAccount.abi.Unpack("getNonce", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackInitialize is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc4d66de8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function initialize(address anOwner) returns()
func (simpleAccount *SimpleAccount) PackInitialize(anOwner common.Address) []byte {
	enc, err := simpleAccount.abi.Pack("initialize", anOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackInitialize is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc4d66de8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function initialize(address anOwner) returns()
func (simpleAccount *SimpleAccount) TryPackInitialize(anOwner common.Address) ([]byte, error) {
	return simpleAccount.abi.Pack("initialize", anOwner)
}

// PackOnERC1155BatchReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbc197c81.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function onERC1155BatchReceived(address , address , uint256[] , uint256[] , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) PackOnERC1155BatchReceived(arg0 common.Address, arg1 common.Address, arg2 []*big.Int, arg3 []*big.Int, arg4 []byte) []byte {
	enc, err := simpleAccount.abi.Pack("onERC1155BatchReceived", arg0, arg1, arg2, arg3, arg4)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOnERC1155BatchReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbc197c81.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function onERC1155BatchReceived(address , address , uint256[] , uint256[] , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) TryPackOnERC1155BatchReceived(arg0 common.Address, arg1 common.Address, arg2 []*big.Int, arg3 []*big.Int, arg4 []byte) ([]byte, error) {
	return simpleAccount.abi.Pack("onERC1155BatchReceived", arg0, arg1, arg2, arg3, arg4)
}

// UnpackOnERC1155BatchReceived is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbc197c81.
//
// Solidity: function onERC1155BatchReceived(address , address , uint256[] , uint256[] , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) UnpackOnERC1155BatchReceived(data []byte) ([4]byte, error) {
	out, err := simpleAccount.abi.Unpack("onERC1155BatchReceived", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOnERC1155Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf23a6e61.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function onERC1155Received(address , address , uint256 , uint256 , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) PackOnERC1155Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 *big.Int, arg4 []byte) []byte {
	enc, err := simpleAccount.abi.Pack("onERC1155Received", arg0, arg1, arg2, arg3, arg4)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOnERC1155Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf23a6e61.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function onERC1155Received(address , address , uint256 , uint256 , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) TryPackOnERC1155Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 *big.Int, arg4 []byte) ([]byte, error) {
	return simpleAccount.abi.Pack("onERC1155Received", arg0, arg1, arg2, arg3, arg4)
}

// UnpackOnERC1155Received is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf23a6e61.
//
// Solidity: function onERC1155Received(address , address , uint256 , uint256 , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) UnpackOnERC1155Received(data []byte) ([4]byte, error) {
	out, err := simpleAccount.abi.Unpack("onERC1155Received", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOnERC721Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x150b7a02.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function onERC721Received(address , address , uint256 , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) PackOnERC721Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 []byte) []byte {
	enc, err := simpleAccount.abi.Pack("onERC721Received", arg0, arg1, arg2, arg3)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOnERC721Received is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x150b7a02.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function onERC721Received(address , address , uint256 , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) TryPackOnERC721Received(arg0 common.Address, arg1 common.Address, arg2 *big.Int, arg3 []byte) ([]byte, error) {
	return simpleAccount.abi.Pack("onERC721Received", arg0, arg1, arg2, arg3)
}

// UnpackOnERC721Received is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x150b7a02.
//
// Solidity: function onERC721Received(address , address , uint256 , bytes ) pure returns(bytes4)
func (simpleAccount *SimpleAccount) UnpackOnERC721Received(data []byte) ([4]byte, error) {
	out, err := simpleAccount.abi.Unpack("onERC721Received", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (simpleAccount *SimpleAccount) PackOwner() []byte {
	enc, err := simpleAccount.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (simpleAccount *SimpleAccount) TryPackOwner() ([]byte, error) {
	return simpleAccount.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (simpleAccount *SimpleAccount) UnpackOwner(data []byte) (common.Address, error) {
	out, err := simpleAccount.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackProxiableUUID is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x52d1902d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function proxiableUUID() view returns(bytes32)
func (simpleAccount *SimpleAccount) PackProxiableUUID() []byte {
	enc, err := simpleAccount.abi.Pack("proxiableUUID")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackProxiableUUID is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x52d1902d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function proxiableUUID() view returns(bytes32)
func (simpleAccount *SimpleAccount) TryPackProxiableUUID() ([]byte, error) {
	return simpleAccount.abi.Pack("proxiableUUID")
}

// UnpackProxiableUUID is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x52d1902d.
//
// Solidity: function proxiableUUID() view returns(bytes32)
func (simpleAccount *SimpleAccount) UnpackProxiableUUID(data []byte) ([32]byte, error) {
	out, err := simpleAccount.abi.Unpack("proxiableUUID", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (simpleAccount *SimpleAccount) PackSupportsInterface(interfaceId [4]byte) []byte {
	enc, err := simpleAccount.abi.Pack("supportsInterface", interfaceId)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSupportsInterface is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01ffc9a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (simpleAccount *SimpleAccount) TryPackSupportsInterface(interfaceId [4]byte) ([]byte, error) {
	return simpleAccount.abi.Pack("supportsInterface", interfaceId)
}

// UnpackSupportsInterface is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x01ffc9a7.
//
// Solidity: function supportsInterface(bytes4 interfaceId) view returns(bool)
func (simpleAccount *SimpleAccount) UnpackSupportsInterface(data []byte) (bool, error) {
	out, err := simpleAccount.abi.Unpack("supportsInterface", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTokensReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0023de29.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokensReceived(address , address , address , uint256 , bytes , bytes ) pure returns()
func (simpleAccount *SimpleAccount) PackTokensReceived(arg0 common.Address, arg1 common.Address, arg2 common.Address, arg3 *big.Int, arg4 []byte, arg5 []byte) []byte {
	enc, err := simpleAccount.abi.Pack("tokensReceived", arg0, arg1, arg2, arg3, arg4, arg5)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokensReceived is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0023de29.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokensReceived(address , address , address , uint256 , bytes , bytes ) pure returns()
func (simpleAccount *SimpleAccount) TryPackTokensReceived(arg0 common.Address, arg1 common.Address, arg2 common.Address, arg3 *big.Int, arg4 []byte, arg5 []byte) ([]byte, error) {
	return simpleAccount.abi.Pack("tokensReceived", arg0, arg1, arg2, arg3, arg4, arg5)
}

// PackUpgradeTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3659cfe6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function upgradeTo(address newImplementation) returns()
func (simpleAccount *SimpleAccount) PackUpgradeTo(newImplementation common.Address) []byte {
	enc, err := simpleAccount.abi.Pack("upgradeTo", newImplementation)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUpgradeTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3659cfe6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function upgradeTo(address newImplementation) returns()
func (simpleAccount *SimpleAccount) TryPackUpgradeTo(newImplementation common.Address) ([]byte, error) {
	return simpleAccount.abi.Pack("upgradeTo", newImplementation)
}

// PackUpgradeToAndCall is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4f1ef286.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function upgradeToAndCall(address newImplementation, bytes data) payable returns()
func (simpleAccount *SimpleAccount) PackUpgradeToAndCall(newImplementation common.Address, data []byte) []byte {
	enc, err := simpleAccount.abi.Pack("upgradeToAndCall", newImplementation, data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUpgradeToAndCall is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4f1ef286.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function upgradeToAndCall(address newImplementation, bytes data) payable returns()
func (simpleAccount *SimpleAccount) TryPackUpgradeToAndCall(newImplementation common.Address, data []byte) ([]byte, error) {
	return simpleAccount.abi.Pack("upgradeToAndCall", newImplementation, data)
}

// PackValidateUserOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3a871cdd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns(uint256 validationData)
func (simpleAccount *SimpleAccount) PackValidateUserOp(userOp UserOperation, userOpHash [32]byte, missingAccountFunds *big.Int) []byte {
	enc, err := simpleAccount.abi.Pack("validateUserOp", userOp, userOpHash, missingAccountFunds)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackValidateUserOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3a871cdd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns(uint256 validationData)
func (simpleAccount *SimpleAccount) TryPackValidateUserOp(userOp UserOperation, userOpHash [32]byte, missingAccountFunds *big.Int) ([]byte, error) {
	return simpleAccount.abi.Pack("validateUserOp", userOp, userOpHash, missingAccountFunds)
}

// UnpackValidateUserOp is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3a871cdd.
//
// Solidity: function validateUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns(uint256 validationData)
func (simpleAccount *SimpleAccount) UnpackValidateUserOp(data []byte) (*big.Int, error) {
	out, err := simpleAccount.abi.Unpack("validateUserOp", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackWithdrawDepositTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4d44560d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawDepositTo(address withdrawAddress, uint256 amount) returns()
func (simpleAccount *SimpleAccount) PackWithdrawDepositTo(withdrawAddress common.Address, amount *big.Int) []byte {
	enc, err := simpleAccount.abi.Pack("withdrawDepositTo", withdrawAddress, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawDepositTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4d44560d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawDepositTo(address withdrawAddress, uint256 amount) returns()
func (simpleAccount *SimpleAccount) TryPackWithdrawDepositTo(withdrawAddress common.Address, amount *big.Int) ([]byte, error) {
	return simpleAccount.abi.Pack("withdrawDepositTo", withdrawAddress, amount)
}

// SimpleAccountAdminChanged represents a AdminChanged event raised by the SimpleAccount contract.
type SimpleAccountAdminChanged struct {
	PreviousAdmin common.Address
	NewAdmin      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const SimpleAccountAdminChangedEventName = "AdminChanged"

// ContractEventName returns the user-defined event name.
func (SimpleAccountAdminChanged) ContractEventName() string {
	return SimpleAccountAdminChangedEventName
}

// UnpackAdminChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event AdminChanged(address previousAdmin, address newAdmin)
func (simpleAccount *SimpleAccount) UnpackAdminChangedEvent(log *types.Log) (*SimpleAccountAdminChanged, error) {
	event := "AdminChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != simpleAccount.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SimpleAccountAdminChanged)
	if len(log.Data) > 0 {
		if err := simpleAccount.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range simpleAccount.abi.Events[event].Inputs {
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

// SimpleAccountBeaconUpgraded represents a BeaconUpgraded event raised by the SimpleAccount contract.
type SimpleAccountBeaconUpgraded struct {
	Beacon common.Address
	Raw    *types.Log // Blockchain specific contextual infos
}

const SimpleAccountBeaconUpgradedEventName = "BeaconUpgraded"

// ContractEventName returns the user-defined event name.
func (SimpleAccountBeaconUpgraded) ContractEventName() string {
	return SimpleAccountBeaconUpgradedEventName
}

// UnpackBeaconUpgradedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event BeaconUpgraded(address indexed beacon)
func (simpleAccount *SimpleAccount) UnpackBeaconUpgradedEvent(log *types.Log) (*SimpleAccountBeaconUpgraded, error) {
	event := "BeaconUpgraded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != simpleAccount.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SimpleAccountBeaconUpgraded)
	if len(log.Data) > 0 {
		if err := simpleAccount.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range simpleAccount.abi.Events[event].Inputs {
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

// SimpleAccountInitialized represents a Initialized event raised by the SimpleAccount contract.
type SimpleAccountInitialized struct {
	Version uint8
	Raw     *types.Log // Blockchain specific contextual infos
}

const SimpleAccountInitializedEventName = "Initialized"

// ContractEventName returns the user-defined event name.
func (SimpleAccountInitialized) ContractEventName() string {
	return SimpleAccountInitializedEventName
}

// UnpackInitializedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Initialized(uint8 version)
func (simpleAccount *SimpleAccount) UnpackInitializedEvent(log *types.Log) (*SimpleAccountInitialized, error) {
	event := "Initialized"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != simpleAccount.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SimpleAccountInitialized)
	if len(log.Data) > 0 {
		if err := simpleAccount.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range simpleAccount.abi.Events[event].Inputs {
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

// SimpleAccountSimpleAccountInitialized represents a SimpleAccountInitialized event raised by the SimpleAccount contract.
type SimpleAccountSimpleAccountInitialized struct {
	EntryPoint common.Address
	Owner      common.Address
	Raw        *types.Log // Blockchain specific contextual infos
}

const SimpleAccountSimpleAccountInitializedEventName = "SimpleAccountInitialized"

// ContractEventName returns the user-defined event name.
func (SimpleAccountSimpleAccountInitialized) ContractEventName() string {
	return SimpleAccountSimpleAccountInitializedEventName
}

// UnpackSimpleAccountInitializedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SimpleAccountInitialized(address indexed entryPoint, address indexed owner)
func (simpleAccount *SimpleAccount) UnpackSimpleAccountInitializedEvent(log *types.Log) (*SimpleAccountSimpleAccountInitialized, error) {
	event := "SimpleAccountInitialized"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != simpleAccount.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SimpleAccountSimpleAccountInitialized)
	if len(log.Data) > 0 {
		if err := simpleAccount.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range simpleAccount.abi.Events[event].Inputs {
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

// SimpleAccountUpgraded represents a Upgraded event raised by the SimpleAccount contract.
type SimpleAccountUpgraded struct {
	Implementation common.Address
	Raw            *types.Log // Blockchain specific contextual infos
}

const SimpleAccountUpgradedEventName = "Upgraded"

// ContractEventName returns the user-defined event name.
func (SimpleAccountUpgraded) ContractEventName() string {
	return SimpleAccountUpgradedEventName
}

// UnpackUpgradedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Upgraded(address indexed implementation)
func (simpleAccount *SimpleAccount) UnpackUpgradedEvent(log *types.Log) (*SimpleAccountUpgraded, error) {
	event := "Upgraded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != simpleAccount.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SimpleAccountUpgraded)
	if len(log.Data) > 0 {
		if err := simpleAccount.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range simpleAccount.abi.Events[event].Inputs {
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

// SimpleAccountFactoryMetaData contains all meta data concerning the SimpleAccountFactory contract.
var SimpleAccountFactoryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"_entryPoint\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"accountImplementation\",\"outputs\":[{\"internalType\":\"contractSimpleAccount\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"}],\"name\":\"createAccount\",\"outputs\":[{\"internalType\":\"contractSimpleAccount\",\"name\":\"ret\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"salt\",\"type\":\"uint256\"}],\"name\":\"getAddress\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "3ff87124a8c7113ed7c2ee1fec3ca87c42",
	Bin: "0x60a060405234801561000f575f5ffd5b50604051612ed3380380612ed383398101604081905261002e91610084565b8060405161003b90610077565b6001600160a01b039091168152602001604051809103905ff080158015610064573d5f5f3e3d5ffd5b506001600160a01b0316608052506100b1565b61249c80610a3783390190565b5f60208284031215610094575f5ffd5b81516001600160a01b03811681146100aa575f5ffd5b9392505050565b6080516109616100d65f395f8181604801528181610110015261024f01526109615ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c806311464fbe146100435780635fbfb9cf146100935780638cb84e18146100a6575b5f5ffd5b61006a7f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200160405180910390f35b61006a6100a1366004610392565b6100b9565b61006a6100b4366004610392565b6101e7565b5f5f6100c584846101e7565b905073ffffffffffffffffffffffffffffffffffffffff81163b80156100ed575090506101e1565b60405173ffffffffffffffffffffffffffffffffffffffff8616602482015284907f000000000000000000000000000000000000000000000000000000000000000090604401604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe08184030181529181526020820180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fc4d66de800000000000000000000000000000000000000000000000000000000179052516101b390610385565b6101be9291906103d4565b8190604051809103905ff59050801580156101db573d5f5f3e3d5ffd5b50925050505b92915050565b5f61034e825f1b604051806020016101fe90610385565b7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe082820381018352601f90910116604081905273ffffffffffffffffffffffffffffffffffffffff871660248201527f000000000000000000000000000000000000000000000000000000000000000090604401604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0818403018152918152602080830180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fc4d66de80000000000000000000000000000000000000000000000000000000017905290516102f7939291016103d4565b604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe081840301815290829052610333929160200161045b565b60405160208183030381529060405280519060200120610355565b9392505050565b5f61034e8383305f604051836040820152846020820152828152600b8101905060ff815360559020949350505050565b6104b48061047883390190565b5f5f604083850312156103a3575f5ffd5b823573ffffffffffffffffffffffffffffffffffffffff811681146103c6575f5ffd5b946020939093013593505050565b73ffffffffffffffffffffffffffffffffffffffff83168152604060208201525f82518060408401528060208501606085015e5f6060828501015260607fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8301168401019150509392505050565b5f81518060208401855e5f93019283525090919050565b5f61046f6104698386610444565b84610444565b94935050505056fe60806040526040516104b43803806104b4833981016040819052610022916102b0565b61002d82825f610034565b50506103ca565b61003d8361005f565b5f825111806100495750805b1561005a57610058838361009e565b505b505050565b610068816100ca565b6040516001600160a01b038216907fbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b905f90a250565b60606100c3838360405180606001604052806027815260200161048d6027913961017d565b9392505050565b6001600160a01b0381163b61013c5760405162461bcd60e51b815260206004820152602d60248201527f455243313936373a206e657720696d706c656d656e746174696f6e206973206e60448201526c1bdd08184818dbdb9d1c9858dd609a1b60648201526084015b60405180910390fd5b7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc80546001600160a01b0319166001600160a01b0392909216919091179055565b60605f5f856001600160a01b031685604051610199919061037f565b5f60405180830381855af49150503d805f81146101d1576040519150601f19603f3d011682016040523d82523d5f602084013e6101d6565b606091505b5090925090506101e8868383876101f2565b9695505050505050565b606083156102605782515f03610259576001600160a01b0385163b6102595760405162461bcd60e51b815260206004820152601d60248201527f416464726573733a2063616c6c20746f206e6f6e2d636f6e74726163740000006044820152606401610133565b508161026a565b61026a8383610272565b949350505050565b8151156102825781518083602001fd5b8060405162461bcd60e51b81526004016101339190610395565b634e487b7160e01b5f52604160045260245ffd5b5f5f604083850312156102c1575f5ffd5b82516001600160a01b03811681146102d7575f5ffd5b60208401519092506001600160401b038111156102f2575f5ffd5b8301601f81018513610302575f5ffd5b80516001600160401b0381111561031b5761031b61029c565b604051601f8201601f19908116603f011681016001600160401b03811182821017156103495761034961029c565b604052818152828201602001871015610360575f5ffd5b8160208401602083015e5f602083830101528093505050509250929050565b5f82518060208501845e5f920191825250919050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b60b7806103d65f395ff3fe608060405236601057600e6013565b005b600e5b601f601b6021565b6064565b565b5f605f7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc5473ffffffffffffffffffffffffffffffffffffffff1690565b905090565b365f5f375f5f365f845af43d5f5f3e808015607d573d5ff35b3d5ffdfea2646970667358221220270dd059bdadde57632bc1bdbc062acb0e8760772368383dfa80ce2bee87f9d564736f6c63430008250033416464726573733a206c6f772d6c6576656c2064656c65676174652063616c6c206661696c6564a264697066735822122012393c473c180635ba1f866b661dbe0196623d7bb1e1e4124f40e8186f4872f464736f6c6343000825003360c060405230608052348015610013575f5ffd5b5060405161249c38038061249c83398101604081905261003291610109565b6001600160a01b03811660a05261004761004d565b50610136565b5f54610100900460ff16156100b85760405162461bcd60e51b815260206004820152602760248201527f496e697469616c697a61626c653a20636f6e747261637420697320696e697469604482015266616c697a696e6760c81b606482015260840160405180910390fd5b5f5460ff90811614610107575f805460ff191660ff9081179091556040519081527f7f26b83ff96e1f2b6a682f133852f6798a09c465da95921460cefb38474024989060200160405180910390a15b565b5f60208284031215610119575f5ffd5b81516001600160a01b038116811461012f575f5ffd5b9392505050565b60805160a0516122f86101a45f395f818161031c01528181610858015281816108fb01528181610d1701528181610f5f01528181610fa6015281816112f3015261157c01525f8181610644015281816106f4015281816109ba01528181610a6a0152610bb201526122f85ff3fe608060405260043610610125575f3560e01c806352d1902d116100a1578063bc197c8111610071578063c4d66de811610057578063c4d66de8146103ba578063d087d288146103d9578063f23a6e61146103ed575f5ffd5b8063bc197c811461035f578063c399ec88146103a6575f5ffd5b806352d1902d146102a45780638da5cb5b146102b8578063b0d691fe1461030e578063b61d27f614610340575f5ffd5b80633659cfe6116100f65780634a58db19116100dc5780634a58db191461026a5780634d44560d146102725780634f1ef28614610291575f5ffd5b80633659cfe61461021e5780633a871cdd1461023d575f5ffd5b806223de291461013057806301ffc9a714610156578063150b7a021461018a57806318dfb3c7146101ff575f5ffd5b3661012c57005b5f5ffd5b34801561013b575f5ffd5b5061015461014a366004611c2d565b5050505050505050565b005b348015610161575f5ffd5b50610175610170366004611cdc565b610432565b60405190151581526020015b60405180910390f35b348015610195575f5ffd5b506101ce6101a4366004611d1b565b7f150b7a020000000000000000000000000000000000000000000000000000000095945050505050565b6040517fffffffff000000000000000000000000000000000000000000000000000000009091168152602001610181565b34801561020a575f5ffd5b50610154610219366004611dca565b610516565b348015610229575f5ffd5b50610154610238366004611e36565b61062d565b348015610248575f5ffd5b5061025c610257366004611e51565b610831565b604051908152602001610181565b610154610856565b34801561027d575f5ffd5b5061015461028c366004611ea0565b6108f1565b61015461029f366004611ef7565b6109a3565b3480156102af575f5ffd5b5061025c610b99565b3480156102c3575f5ffd5b505f546102e99062010000900473ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610181565b348015610319575f5ffd5b507f00000000000000000000000000000000000000000000000000000000000000006102e9565b34801561034b575f5ffd5b5061015461035a366004611ffa565b610c84565b34801561036a575f5ffd5b506101ce610379366004612046565b7fbc197c810000000000000000000000000000000000000000000000000000000098975050505050505050565b3480156103b1575f5ffd5b5061025c610cd2565b3480156103c5575f5ffd5b506101546103d4366004611e36565b610d86565b3480156103e4575f5ffd5b5061025c610f13565b3480156103f8575f5ffd5b506101ce6104073660046120e9565b7ff23a6e61000000000000000000000000000000000000000000000000000000009695505050505050565b5f7fffffffff0000000000000000000000000000000000000000000000000000000082167f150b7a020000000000000000000000000000000000000000000000000000000014806104c457507fffffffff0000000000000000000000000000000000000000000000000000000082167f4e2312e000000000000000000000000000000000000000000000000000000000145b8061051057507fffffffff0000000000000000000000000000000000000000000000000000000082167f01ffc9a700000000000000000000000000000000000000000000000000000000145b92915050565b61051e610f8e565b82811461058c576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601360248201527f77726f6e67206172726179206c656e677468730000000000000000000000000060448201526064015b60405180910390fd5b5f5b838110156106265761061e8585838181106105ab576105ab612160565b90506020020160208101906105c09190611e36565b5f8585858181106105d3576105d3612160565b90506020028101906105e5919061218d565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061105692505050565b60010161058e565b5050505050565b73ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001630036106f2576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f64656c656761746563616c6c00000000000000000000000000000000000000006064820152608401610583565b7f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff166107677f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc5473ffffffffffffffffffffffffffffffffffffffff1690565b73ffffffffffffffffffffffffffffffffffffffff161461080a576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f6163746976652070726f787900000000000000000000000000000000000000006064820152608401610583565b610813816110cf565b604080515f8082526020820190925261082e918391906110d7565b50565b5f61083a6112db565b610844848461137a565b905061084f8261142f565b9392505050565b7f00000000000000000000000000000000000000000000000000000000000000006040517fb760faf900000000000000000000000000000000000000000000000000000000815230600482015273ffffffffffffffffffffffffffffffffffffffff919091169063b760faf99034906024015f604051808303818588803b1580156108df575f5ffd5b505af1158015610626573d5f5f3e3d5ffd5b6108f9611497565b7f00000000000000000000000000000000000000000000000000000000000000006040517f205c287800000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff848116600483015260248201849052919091169063205c2878906044015f604051808303815f87803b158015610989575f5ffd5b505af115801561099b573d5f5f3e3d5ffd5b505050505050565b73ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000163003610a68576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f64656c656761746563616c6c00000000000000000000000000000000000000006064820152608401610583565b7f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff16610add7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc5473ffffffffffffffffffffffffffffffffffffffff1690565b73ffffffffffffffffffffffffffffffffffffffff1614610b80576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602c60248201527f46756e6374696f6e206d7573742062652063616c6c6564207468726f7567682060448201527f6163746976652070726f787900000000000000000000000000000000000000006064820152608401610583565b610b89826110cf565b610b95828260016110d7565b5050565b5f3073ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614610c5f576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152603860248201527f555550535570677261646561626c653a206d757374206e6f742062652063616c60448201527f6c6564207468726f7567682064656c656761746563616c6c00000000000000006064820152608401610583565b507f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc90565b610c8c610f8e565b610ccc848484848080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525061105692505050565b50505050565b6040517f70a082310000000000000000000000000000000000000000000000000000000081523060048201525f9073ffffffffffffffffffffffffffffffffffffffff7f000000000000000000000000000000000000000000000000000000000000000016906370a08231906024015b602060405180830381865afa158015610d5d573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610d8191906121ee565b905090565b5f54610100900460ff1615808015610da457505f54600160ff909116105b80610dbd5750303b158015610dbd57505f5460ff166001145b610e49576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602e60248201527f496e697469616c697a61626c653a20636f6e747261637420697320616c72656160448201527f647920696e697469616c697a65640000000000000000000000000000000000006064820152608401610583565b5f80547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff001660011790558015610ea5575f80547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00ff166101001790555b610eae82611527565b8015610b95575f80547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00ff169055604051600181527f7f26b83ff96e1f2b6a682f133852f6798a09c465da95921460cefb38474024989060200160405180910390a15050565b6040517f35567e1a0000000000000000000000000000000000000000000000000000000081523060048201525f602482018190529073ffffffffffffffffffffffffffffffffffffffff7f000000000000000000000000000000000000000000000000000000000000000016906335567e1a90604401610d42565b3373ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000161480610fee57505f5462010000900473ffffffffffffffffffffffffffffffffffffffff1633145b611054576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f6163636f756e743a206e6f74204f776e6572206f7220456e747279506f696e746044820152606401610583565b565b5f5f8473ffffffffffffffffffffffffffffffffffffffff16848460405161107e9190612205565b5f6040518083038185875af1925050503d805f81146110b8576040519150601f19603f3d011682016040523d82523d5f602084013e6110bd565b606091505b50915091508161062657805160208201fd5b61082e611497565b7f4910fdfa16fed3260ed0e7147f7cc6da11a60208b5b9406d12a635614ffd91435460ff161561110f5761110a836115c5565b505050565b8273ffffffffffffffffffffffffffffffffffffffff166352d1902d6040518163ffffffff1660e01b8152600401602060405180830381865afa925050508015611194575060408051601f3d9081017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0168201909252611191918101906121ee565b60015b611220576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602e60248201527f45524331393637557067726164653a206e657720696d706c656d656e7461746960448201527f6f6e206973206e6f7420555550530000000000000000000000000000000000006064820152608401610583565b7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc81146112cf576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602960248201527f45524331393637557067726164653a20756e737570706f727465642070726f7860448201527f6961626c655555494400000000000000000000000000000000000000000000006064820152608401610583565b5061110a8383836116cf565b3373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614611054576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601c60248201527f6163636f756e743a206e6f742066726f6d20456e747279506f696e74000000006044820152606401610583565b7f19457468657265756d205369676e6564204d6573736167653a0a3332000000005f908152601c829052603c81206113f56113b961014086018661218d565b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525085939250506116f39050565b5f5462010000900473ffffffffffffffffffffffffffffffffffffffff908116911614611426576001915050610510565b505f9392505050565b801561082e576040515f9033907fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff90849084818181858888f193505050503d805f8114610626576040519150601f19603f3d011682016040523d82523d5f602084013e610626565b5f5462010000900473ffffffffffffffffffffffffffffffffffffffff163314806114c157503330145b611054576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600a60248201527f6f6e6c79206f776e6572000000000000000000000000000000000000000000006044820152606401610583565b5f80547fffffffffffffffffffff0000000000000000000000000000000000000000ffff166201000073ffffffffffffffffffffffffffffffffffffffff8481168202929092178084556040519190048216927f0000000000000000000000000000000000000000000000000000000000000000909216917f47e55c76e7a6f1fd8996a1da8008c1ea29699cca35e7bcd057f2dec313b6e5de91a350565b73ffffffffffffffffffffffffffffffffffffffff81163b611669576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602d60248201527f455243313936373a206e657720696d706c656d656e746174696f6e206973206e60448201527f6f74206120636f6e7472616374000000000000000000000000000000000000006064820152608401610583565b7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc80547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff92909216919091179055565b6116d883611715565b5f825111806116e45750805b1561110a57610ccc8383611761565b5f5f5f6117008585611786565b9150915061170d816117c8565b509392505050565b61171e816115c5565b60405173ffffffffffffffffffffffffffffffffffffffff8216907fbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b905f90a250565b606061084f838360405180606001604052806027815260200161229c6027913961197a565b5f5f82516041036117ba576020830151604084015160608501515f1a6117ae878285856119fb565b945094505050506117c1565b505f905060025b9250929050565b5f8160048111156117db576117db61221b565b036117e35750565b60018160048111156117f7576117f761221b565b0361185e576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f45434453413a20696e76616c6964207369676e617475726500000000000000006044820152606401610583565b60028160048111156118725761187261221b565b036118d9576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45434453413a20696e76616c6964207369676e6174757265206c656e677468006044820152606401610583565b60038160048111156118ed576118ed61221b565b0361082e576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45434453413a20696e76616c6964207369676e6174757265202773272076616c60448201527f75650000000000000000000000000000000000000000000000000000000000006064820152608401610583565b60605f5f8573ffffffffffffffffffffffffffffffffffffffff16856040516119a39190612205565b5f60405180830381855af49150503d805f81146119db576040519150601f19603f3d011682016040523d82523d5f602084013e6119e0565b606091505b50915091506119f186838387611ae3565b9695505050505050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0831115611a3057505f90506003611ada565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015611a81573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff8116611ad4575f60019250925050611ada565b91505f90505b94509492505050565b60608315611b785782515f03611b715773ffffffffffffffffffffffffffffffffffffffff85163b611b71576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f416464726573733a2063616c6c20746f206e6f6e2d636f6e74726163740000006044820152606401610583565b5081611b82565b611b828383611b8a565b949350505050565b815115611b9a5781518083602001fd5b806040517f08c379a00000000000000000000000000000000000000000000000000000000081526004016105839190612248565b73ffffffffffffffffffffffffffffffffffffffff8116811461082e575f5ffd5b5f5f83601f840112611bff575f5ffd5b50813567ffffffffffffffff811115611c16575f5ffd5b6020830191508360208285010111156117c1575f5ffd5b5f5f5f5f5f5f5f5f60c0898b031215611c44575f5ffd5b8835611c4f81611bce565b97506020890135611c5f81611bce565b96506040890135611c6f81611bce565b955060608901359450608089013567ffffffffffffffff811115611c91575f5ffd5b611c9d8b828c01611bef565b90955093505060a089013567ffffffffffffffff811115611cbc575f5ffd5b611cc88b828c01611bef565b999c989b5096995094979396929594505050565b5f60208284031215611cec575f5ffd5b81357fffffffff000000000000000000000000000000000000000000000000000000008116811461084f575f5ffd5b5f5f5f5f5f60808688031215611d2f575f5ffd5b8535611d3a81611bce565b94506020860135611d4a81611bce565b935060408601359250606086013567ffffffffffffffff811115611d6c575f5ffd5b611d7888828901611bef565b969995985093965092949392505050565b5f5f83601f840112611d99575f5ffd5b50813567ffffffffffffffff811115611db0575f5ffd5b6020830191508360208260051b85010111156117c1575f5ffd5b5f5f5f5f60408587031215611ddd575f5ffd5b843567ffffffffffffffff811115611df3575f5ffd5b611dff87828801611d89565b909550935050602085013567ffffffffffffffff811115611e1e575f5ffd5b611e2a87828801611d89565b95989497509550505050565b5f60208284031215611e46575f5ffd5b813561084f81611bce565b5f5f5f60608486031215611e63575f5ffd5b833567ffffffffffffffff811115611e79575f5ffd5b84016101608187031215611e8b575f5ffd5b95602085013595506040909401359392505050565b5f5f60408385031215611eb1575f5ffd5b8235611ebc81611bce565b946020939093013593505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b5f5f60408385031215611f08575f5ffd5b8235611f1381611bce565b9150602083013567ffffffffffffffff811115611f2e575f5ffd5b8301601f81018513611f3e575f5ffd5b803567ffffffffffffffff811115611f5857611f58611eca565b6040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0603f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8501160116810181811067ffffffffffffffff82111715611fc457611fc4611eca565b604052818152828201602001871015611fdb575f5ffd5b816020840160208301375f602083830101528093505050509250929050565b5f5f5f5f6060858703121561200d575f5ffd5b843561201881611bce565b935060208501359250604085013567ffffffffffffffff81111561203a575f5ffd5b611e2a87828801611bef565b5f5f5f5f5f5f5f5f60a0898b03121561205d575f5ffd5b883561206881611bce565b9750602089013561207881611bce565b9650604089013567ffffffffffffffff811115612093575f5ffd5b61209f8b828c01611d89565b909750955050606089013567ffffffffffffffff8111156120be575f5ffd5b6120ca8b828c01611d89565b909550935050608089013567ffffffffffffffff811115611cbc575f5ffd5b5f5f5f5f5f5f60a087890312156120fe575f5ffd5b863561210981611bce565b9550602087013561211981611bce565b94506040870135935060608701359250608087013567ffffffffffffffff811115612142575f5ffd5b61214e89828a01611bef565b979a9699509497509295939492505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe18436030181126121c0575f5ffd5b83018035915067ffffffffffffffff8211156121da575f5ffd5b6020019150368190038213156117c1575f5ffd5b5f602082840312156121fe575f5ffd5b5051919050565b5f82518060208501845e5f920191825250919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8301168401019150509291505056fe416464726573733a206c6f772d6c6576656c2064656c65676174652063616c6c206661696c6564a26469706673582212208b14b2b8d816a2a0a4d3affb1e797337fbcf85177ddec3a0b84a1a114f618c2264736f6c63430008250033",
}

// SimpleAccountFactory is an auto generated Go binding around an Ethereum contract.
type SimpleAccountFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SimpleAccountFactory) GetABI() abi.ABI {
	return c.abi
}

// NewSimpleAccountFactory creates a new instance of SimpleAccountFactory.
func NewSimpleAccountFactory() *SimpleAccountFactory {
	parsed, err := SimpleAccountFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SimpleAccountFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SimpleAccountFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address _entryPoint) returns()
func (simpleAccountFactory *SimpleAccountFactory) PackConstructor(_entryPoint common.Address) []byte {
	enc, err := simpleAccountFactory.abi.Pack("", _entryPoint)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAccountImplementation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x11464fbe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function accountImplementation() view returns(address)
func (simpleAccountFactory *SimpleAccountFactory) PackAccountImplementation() []byte {
	enc, err := simpleAccountFactory.abi.Pack("accountImplementation")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAccountImplementation is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x11464fbe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function accountImplementation() view returns(address)
func (simpleAccountFactory *SimpleAccountFactory) TryPackAccountImplementation() ([]byte, error) {
	return simpleAccountFactory.abi.Pack("accountImplementation")
}

// UnpackAccountImplementation is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x11464fbe.
//
// Solidity: function accountImplementation() view returns(address)
func (simpleAccountFactory *SimpleAccountFactory) UnpackAccountImplementation(data []byte) (common.Address, error) {
	out, err := simpleAccountFactory.abi.Unpack("accountImplementation", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCreateAccount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5fbfb9cf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createAccount(address owner, uint256 salt) returns(address ret)
func (simpleAccountFactory *SimpleAccountFactory) PackCreateAccount(owner common.Address, salt *big.Int) []byte {
	enc, err := simpleAccountFactory.abi.Pack("createAccount", owner, salt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateAccount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5fbfb9cf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createAccount(address owner, uint256 salt) returns(address ret)
func (simpleAccountFactory *SimpleAccountFactory) TryPackCreateAccount(owner common.Address, salt *big.Int) ([]byte, error) {
	return simpleAccountFactory.abi.Pack("createAccount", owner, salt)
}

// UnpackCreateAccount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5fbfb9cf.
//
// Solidity: function createAccount(address owner, uint256 salt) returns(address ret)
func (simpleAccountFactory *SimpleAccountFactory) UnpackCreateAccount(data []byte) (common.Address, error) {
	out, err := simpleAccountFactory.abi.Unpack("createAccount", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackGetAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8cb84e18.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getAddress(address owner, uint256 salt) view returns(address)
func (simpleAccountFactory *SimpleAccountFactory) PackGetAddress(owner common.Address, salt *big.Int) []byte {
	enc, err := simpleAccountFactory.abi.Pack("getAddress", owner, salt)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetAddress is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8cb84e18.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getAddress(address owner, uint256 salt) view returns(address)
func (simpleAccountFactory *SimpleAccountFactory) TryPackGetAddress(owner common.Address, salt *big.Int) ([]byte, error) {
	return simpleAccountFactory.abi.Pack("getAddress", owner, salt)
}

// UnpackGetAddress is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8cb84e18.
//
// Solidity: function getAddress(address owner, uint256 salt) view returns(address)
func (simpleAccountFactory *SimpleAccountFactory) UnpackGetAddress(data []byte) (common.Address, error) {
	out, err := simpleAccountFactory.abi.Unpack("getAddress", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// TokenPaymasterMetaData contains all meta data concerning the TokenPaymaster contract.
var TokenPaymasterMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"anEntryPoint\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"signer\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"mode\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"rate\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"gasCost\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"tokenCost\",\"type\":\"uint256\"}],\"name\":\"GasPaidInToken\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MODE_POSTPAY\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"MODE_PREPAY\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"POST_OP_GAS_POSTPAY\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"POST_OP_GAS_PREPAY\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"POST_OP_GAS_REVERTED\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint32\",\"name\":\"unstakeDelaySec\",\"type\":\"uint32\"}],\"name\":\"addStake\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"decodeTerms\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"mode\",\"type\":\"uint8\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint48\",\"name\":\"validUntil\",\"type\":\"uint48\"},{\"internalType\":\"uint48\",\"name\":\"validAfter\",\"type\":\"uint48\"},{\"internalType\":\"uint256\",\"name\":\"rate\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"entryPoint\",\"outputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getDeposit\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"op\",\"type\":\"tuple\"},{\"internalType\":\"uint8\",\"name\":\"mode\",\"type\":\"uint8\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"rate\",\"type\":\"uint256\"},{\"internalType\":\"uint48\",\"name\":\"validUntil\",\"type\":\"uint48\"},{\"internalType\":\"uint48\",\"name\":\"validAfter\",\"type\":\"uint48\"}],\"name\":\"getHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"mode\",\"type\":\"uint8\"}],\"name\":\"maxPostOpGas\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"enumIPaymaster.PostOpMode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"internalType\":\"bytes\",\"name\":\"context\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"actualGasCost\",\"type\":\"uint256\"}],\"name\":\"postOp\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"renounceOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"gasCost\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"rate\",\"type\":\"uint256\"}],\"name\":\"tokenCost\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"unlockStake\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"verifyingSigner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"withdrawAddress\",\"type\":\"address\"}],\"name\":\"withdrawStake\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"withdrawAddress\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdrawTo\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdrawToken\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "78fb911315d01f892e3c2e00df84805c46",
	Bin: "0x60c060405234801561000f575f5ffd5b5060405161270a38038061270a83398101604081905261002e916100b6565b8161003833610050565b6001600160a01b039081166080521660a052506100ee565b5f80546001600160a01b038381166001600160a01b0319831681178455604051919092169283917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e09190a35050565b6001600160a01b03811681146100b3575f5ffd5b50565b5f5f604083850312156100c7575f5ffd5b82516100d28161009f565b60208401519092506100e38161009f565b809150509250929050565b60805160a0516125c36101475f395f818161020b015261162101525f818161032b015281816104d60152818161059c015281816107b6015281816108780152818161090201528181610af90152610e2801526125c35ff3fe608060405260043610610178575f3560e01c8063aae66598116100d1578063c661b2921161007c578063f2e0040211610057578063f2e0040214610401578063f2fde38b14610420578063f465c77e1461043f575f5ffd5b8063c661b292146103b3578063d0e30db0146103e5578063dccce60b146103ed575f5ffd5b8063bb9fe6bf116100ac578063bb9fe6bf1461036c578063c23a5cea14610380578063c399ec881461039f575f5ffd5b8063aae66598146102fb578063b0d691fe1461031a578063b8af33e41461034d575f5ffd5b806362c3a124116101315780639d033cee1161010c5780639d033cee146102b2578063a83ed1b9146102c7578063a9a23409146102dc575f5ffd5b806362c3a12414610252578063715018a6146102755780638da5cb5b14610289575f5ffd5b80631ab71ecd116101615780631ab71ecd146101b0578063205c2878146101db57806323d9ac9b146101fa575f5ffd5b806301e336671461017c5780630396cb601461019d575b5f5ffd5b348015610187575f5ffd5b5061019b610196366004611e6d565b61046c565b005b61019b6101ab366004611eab565b61049a565b3480156101bb575f5ffd5b506101c4600281565b60405160ff90911681526020015b60405180910390f35b3480156101e6575f5ffd5b5061019b6101f5366004611ece565b610548565b348015610205575f5ffd5b5061022d7f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020016101d2565b34801561025d575f5ffd5b5061026761cf0881565b6040519081526020016101d2565b348015610280575f5ffd5b5061019b6105dd565b348015610294575f5ffd5b505f5473ffffffffffffffffffffffffffffffffffffffff1661022d565b3480156102bd575f5ffd5b50610267613a9881565b3480156102d2575f5ffd5b5061026761a7f881565b3480156102e7575f5ffd5b5061019b6102f6366004611f36565b6105f0565b348015610306575f5ffd5b50610267610315366004611fd2565b61060a565b348015610325575f5ffd5b5061022d7f000000000000000000000000000000000000000000000000000000000000000081565b348015610358575f5ffd5b50610267610367366004612057565b61078d565b348015610377575f5ffd5b5061019b6107ac565b34801561038b575f5ffd5b5061019b61039a366004612077565b61082b565b3480156103aa575f5ffd5b506102676108d2565b3480156103be575f5ffd5b506103d26103cd366004612092565b610985565b6040516101d297969594939291906120d1565b61019b610acb565b3480156103f8575f5ffd5b506101c4600181565b34801561040c575f5ffd5b5061026761041b366004612169565b610b51565b34801561042b575f5ffd5b5061019b61043a366004612077565b610b6e565b34801561044a575f5ffd5b5061045e610459366004612182565b610c25565b6040516101d2929190612218565b610474610c48565b61049573ffffffffffffffffffffffffffffffffffffffff84168383610cc8565b505050565b6104a2610c48565b6040517f0396cb6000000000000000000000000000000000000000000000000000000000815263ffffffff821660048201527f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff1690630396cb609034906024015f604051808303818588803b15801561052e575f5ffd5b505af1158015610540573d5f5f3e3d5ffd5b505050505050565b610550610c48565b6040517f205c287800000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff8381166004830152602482018390527f0000000000000000000000000000000000000000000000000000000000000000169063205c2878906044015f604051808303815f87803b15801561052e575f5ffd5b6105e5610c48565b6105ee5f610d9c565b565b6105f8610e10565b61060484848484610eaf565b50505050565b5f806106196020890189612077565b602089013561062b60408b018b612239565b60405161063992919061229a565b60405190819003902061064f60608c018c612239565b60405161065d92919061229a565b6040805191829003822073ffffffffffffffffffffffffffffffffffffffff909516602083015281019290925260608201526080808201929092529089013560a08083019190915289013560c08083019190915289013560e0808301919091528901356101008083019190915289013561012082015261014001604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe08184030181528282528051602091820120908301819052469183019190915230606083015260ff8916608083015273ffffffffffffffffffffffffffffffffffffffff881660a083015260c0820187905265ffffffffffff80871660e08401528516610100830152915061012001604051602081830303815290604052805190602001209150509695505050505050565b5f6107a38383670de0b6b3a76400006001611063565b90505b92915050565b6107b4610c48565b7f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff1663bb9fe6bf6040518163ffffffff1660e01b81526004015f604051808303815f87803b158015610819575f5ffd5b505af1158015610604573d5f5f3e3d5ffd5b610833610c48565b6040517fc23a5cea00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff82811660048301527f0000000000000000000000000000000000000000000000000000000000000000169063c23a5cea906024015f604051808303815f87803b1580156108b9575f5ffd5b505af11580156108cb573d5f5f3e3d5ffd5b5050505050565b6040517f70a082310000000000000000000000000000000000000000000000000000000081523060048201525f907f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff16906370a0823190602401602060405180830381865afa15801561095c573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061098091906122a9565b905090565b5f80808080368160968814610a21576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152603260248201527f546f6b656e5061796d61737465723a207061796d6173746572416e644461746160448201527f206d75737420626520313530206279746573000000000000000000000000000060648201526084015b60405180910390fd5b88886014818110610a3457610a346122c0565b919091013560f81c9750610a4e9050602960158a8c6122ed565b610a5791612314565b60601c9550610a6a602f60298a8c6122ed565b610a739161237a565b60d01c9450610a866035602f8a8c6122ed565b610a8f9161237a565b60d01c9350610aa2605560358a8c6122ed565b610aab916123df565b9250610abb609660558a8c6122ed565b9150915092959891949750929550565b6040517fb760faf90000000000000000000000000000000000000000000000000000000081523060048201527f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff169063b760faf99034906024015f604051808303818588803b1580156108b9575f5ffd5b5f60ff8216600114610b655761cf086107a6565b613a9892915050565b610b76610c48565b73ffffffffffffffffffffffffffffffffffffffff8116610c19576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f4f776e61626c653a206e6577206f776e657220697320746865207a65726f206160448201527f64647265737300000000000000000000000000000000000000000000000000006064820152608401610a18565b610c2281610d9c565b50565b60605f610c30610e10565b610c3b8585856110c0565b915091505b935093915050565b5f5473ffffffffffffffffffffffffffffffffffffffff1633146105ee576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e65726044820152606401610a18565b60405173ffffffffffffffffffffffffffffffffffffffff83166024820152604481018290526104959084907fa9059cbb00000000000000000000000000000000000000000000000000000000906064015b604080517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe08184030181529190526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fffffffff000000000000000000000000000000000000000000000000000000009093169290921790915261111c565b5f805473ffffffffffffffffffffffffffffffffffffffff8381167fffffffffffffffffffffffff0000000000000000000000000000000000000000831681178455604051919092169283917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e09190a35050565b3373ffffffffffffffffffffffffffffffffffffffff7f000000000000000000000000000000000000000000000000000000000000000016146105ee576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601560248201527f53656e646572206e6f7420456e747279506f696e7400000000000000000000006044820152606401610a18565b5f808080808080610ec2898b018b61241b565b96509650965096509650965096505f818314610ef057610eeb83610ee648856124af565b611229565b610ef2565b825b90505f60ff8916600114610f295760028d6002811115610f1457610f146124c2565b14610f215761a7f8610f2d565b61cf08610f2d565b613a985b90505f610f3a83836124ef565b610f44908c6124af565b90505f610f5a610f54838a61078d565b88611229565b90507fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff60ff8c1601610fdf5760028f6002811115610f9a57610f9a6124c2565b03610fa6575085610fea565b80871115610fda57610fda89610fbc838a612506565b73ffffffffffffffffffffffffffffffffffffffff8d169190610cc8565b610fea565b610fea8a8a8361123e565b6040805160ff8d168152602081018a90529081018390526060810182905273ffffffffffffffffffffffffffffffffffffffff808c1691908b16907f629033f2dc7ed0330edf2c3536ca09edbfc7b1c995dcf658570f6f873b3e8d059060800160405180910390a3505050505050505050505050505050565b5f5f611070868686611414565b90506001836002811115611086576110866124c2565b1480156110a257505f848061109d5761109d612519565b868809115b156110b5576110b26001826124af565b90505b90505b949350505050565b60605f5f5f5f5f5f6110d18a611540565b94509450945094509450806110ff575060408051602081019091525f815295506001179350610c4092505050565b61110c8a8686868c611681565b9a91995090975050505050505050565b5f61117d826040518060400160405280602081526020017f5361666545524332303a206c6f772d6c6576656c2063616c6c206661696c65648152508573ffffffffffffffffffffffffffffffffffffffff16611a8d9092919063ffffffff16565b905080515f148061119d57508080602001905181019061119d9190612546565b610495576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602a60248201527f5361666545524332303a204552433230206f7065726174696f6e20646964206e60448201527f6f742073756363656564000000000000000000000000000000000000000000006064820152608401610a18565b5f81831061123757816107a3565b5090919050565b6040517f70a082310000000000000000000000000000000000000000000000000000000081523060048201525f9073ffffffffffffffffffffffffffffffffffffffff8516906370a0823190602401602060405180830381865afa1580156112a8573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906112cc91906122a9565b90506112f073ffffffffffffffffffffffffffffffffffffffff8516843085611a9b565b6112fa82826124af565b6040517f70a0823100000000000000000000000000000000000000000000000000000000815230600482015273ffffffffffffffffffffffffffffffffffffffff8616906370a0823190602401602060405180830381865afa158015611362573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061138691906122a9565b1015610604576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602e60248201527f546f6b656e5061796d61737465723a20746f6b656e2064656c6976657265642060448201527f6c657373207468616e2073656e740000000000000000000000000000000000006064820152608401610a18565b5f80807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff858709858702925082811083820303915050805f0361146a5783828161146057611460612519565b0492505050611539565b8084116114d3576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601560248201527f4d6174683a206d756c446976206f766572666c6f7700000000000000000000006044820152606401610a18565b5f848688098519600190810187169687900496828603819004959092119093035f82900391909104909201919091029190911760038402600290811880860282030280860282030280860282030280860282030280860282030280860290910302029150505b9392505050565b5f808080808080368161155a6103cd6101208c018c612239565b959e50939c509a509096509450925090506115765f8585611af9565b95505f6115bc61158a8c8c8c8c8a8a61060a565b7f19457468657265756d205369676e6564204d6573736167653a0a3332000000005f908152601c91909152603c902090565b90505f5f6115ff8386868080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92019190915250611b2f92505050565b90925090505f816004811115611617576116176124c2565b14801561166f57507f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff168273ffffffffffffffffffffffffffffffffffffffff16145b97505050505050505091939590929450565b606060ff851660011480611698575060ff85166002145b6116fe576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601c60248201527f546f6b656e5061796d61737465723a20756e6b6e6f776e206d6f6465000000006044820152606401610a18565b5f8311611767576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601960248201527f546f6b656e5061796d61737465723a207a65726f2072617465000000000000006044820152606401610a18565b5f6117938760e0013561177988610b51565b61178391906124ef565b61178d90856124af565b8561078d565b90505f6117a36020890189612077565b90507fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff60ff8816016117df576117da86828461123e565b611a23565b6040517f70a0823100000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff82811660048301528391908816906370a0823190602401602060405180830381865afa15801561184c573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061187091906122a9565b10156118fe576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602560248201527f546f6b656e5061796d61737465723a20746f6b656e2062616c616e636520746f60448201527f6f206c6f770000000000000000000000000000000000000000000000000000006064820152608401610a18565b6040517fdd62ed3e00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff828116600483015230602483015283919088169063dd62ed3e90604401602060405180830381865afa158015611971573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061199591906122a9565b1015611a23576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602160248201527f546f6b656e5061796d61737465723a20616c6c6f77616e636520746f6f206c6f60448201527f77000000000000000000000000000000000000000000000000000000000000006064820152608401610a18565b6040805160ff98909816602089015273ffffffffffffffffffffffffffffffffffffffff96871688820152951660608701526080860193909352505060a083015260e08381013560c084015261010093840135818401528151808403909101815292909101905290565b60606110b884845f85611b71565b60405173ffffffffffffffffffffffffffffffffffffffff808516602483015283166044820152606481018290526106049085907f23b872dd0000000000000000000000000000000000000000000000000000000090608401610d1a565b5f60d08265ffffffffffff16901b60a08465ffffffffffff16901b85611b1f575f611b22565b60015b60ff161717949350505050565b5f5f8251604103611b63576020830151604084015160608501515f1a611b5787828585611c86565b94509450505050611b6a565b505f905060025b9250929050565b606082471015611c03576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f416464726573733a20696e73756666696369656e742062616c616e636520666f60448201527f722063616c6c00000000000000000000000000000000000000000000000000006064820152608401610a18565b5f5f8673ffffffffffffffffffffffffffffffffffffffff168587604051611c2b9190612565565b5f6040518083038185875af1925050503d805f8114611c65576040519150601f19603f3d011682016040523d82523d5f602084013e611c6a565b606091505b5091509150611c7b87838387611d6e565b979650505050505050565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0831115611cbb57505f90506003611d65565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015611d0c573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff8116611d5f575f60019250925050611d65565b91505f90505b94509492505050565b60608315611e035782515f03611dfc5773ffffffffffffffffffffffffffffffffffffffff85163b611dfc576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f416464726573733a2063616c6c20746f206e6f6e2d636f6e74726163740000006044820152606401610a18565b50816110b8565b6110b88383815115611e185781518083602001fd5b806040517f08c379a0000000000000000000000000000000000000000000000000000000008152600401610a18919061257b565b73ffffffffffffffffffffffffffffffffffffffff81168114610c22575f5ffd5b5f5f5f60608486031215611e7f575f5ffd5b8335611e8a81611e4c565b92506020840135611e9a81611e4c565b929592945050506040919091013590565b5f60208284031215611ebb575f5ffd5b813563ffffffff81168114611539575f5ffd5b5f5f60408385031215611edf575f5ffd5b8235611eea81611e4c565b946020939093013593505050565b5f5f83601f840112611f08575f5ffd5b50813567ffffffffffffffff811115611f1f575f5ffd5b602083019150836020828501011115611b6a575f5ffd5b5f5f5f5f60608587031215611f49575f5ffd5b843560038110611f57575f5ffd5b9350602085013567ffffffffffffffff811115611f72575f5ffd5b611f7e87828801611ef8565b9598909750949560400135949350505050565b5f6101608284031215611fa2575f5ffd5b50919050565b803560ff81168114611fb8575f5ffd5b919050565b803565ffffffffffff81168114611fb8575f5ffd5b5f5f5f5f5f5f60c08789031215611fe7575f5ffd5b863567ffffffffffffffff811115611ffd575f5ffd5b61200989828a01611f91565b96505061201860208801611fa8565b9450604087013561202881611e4c565b93506060870135925061203d60808801611fbd565b915061204b60a08801611fbd565b90509295509295509295565b5f5f60408385031215612068575f5ffd5b50508035926020909101359150565b5f60208284031215612087575f5ffd5b813561153981611e4c565b5f5f602083850312156120a3575f5ffd5b823567ffffffffffffffff8111156120b9575f5ffd5b6120c585828601611ef8565b90969095509350505050565b60ff8816815273ffffffffffffffffffffffffffffffffffffffff8716602082015265ffffffffffff8616604082015265ffffffffffff8516606082015283608082015260c060a08201528160c0820152818360e08301375f81830160e090810191909152601f9092017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe01601019695505050505050565b5f60208284031215612179575f5ffd5b6107a382611fa8565b5f5f5f60608486031215612194575f5ffd5b833567ffffffffffffffff8111156121aa575f5ffd5b6121b686828701611f91565b9660208601359650604090950135949350505050565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b604081525f61222a60408301856121cc565b90508260208301529392505050565b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe184360301811261226c575f5ffd5b83018035915067ffffffffffffffff821115612286575f5ffd5b602001915036819003821315611b6a575f5ffd5b818382375f9101908152919050565b5f602082840312156122b9575f5ffd5b5051919050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f5f858511156122fb575f5ffd5b83861115612307575f5ffd5b5050820193919092039150565b80357fffffffffffffffffffffffffffffffffffffffff0000000000000000000000008116906014841015612373577fffffffffffffffffffffffffffffffffffffffff000000000000000000000000808560140360031b1b82161691505b5092915050565b80357fffffffffffff00000000000000000000000000000000000000000000000000008116906006841015612373577fffffffffffff0000000000000000000000000000000000000000000000000000808560060360031b1b82161691505092915050565b803560208310156107a6577fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff602084900360031b1b1692915050565b5f5f5f5f5f5f5f60e0888a031215612431575f5ffd5b61243a88611fa8565b9650602088013561244a81611e4c565b9550604088013561245a81611e4c565b969995985095966060810135965060808101359560a0820135955060c0909101359350915050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b808201808211156107a6576107a6612482565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b80820281158282048414176107a6576107a6612482565b818103818111156107a6576107a6612482565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b5f60208284031215612556575f5ffd5b81518015158114611539575f5ffd5b5f82518060208501845e5f920191825250919050565b602081525f6107a360208301846121cc56fea26469706673582212205bf99361c8aa53236495402199ac608f1555d67e6102ee23f5544826f979ceb764736f6c63430008250033",
}

// TokenPaymaster is an auto generated Go binding around an Ethereum contract.
type TokenPaymaster struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TokenPaymaster) GetABI() abi.ABI {
	return c.abi
}

// NewTokenPaymaster creates a new instance of TokenPaymaster.
func NewTokenPaymaster() *TokenPaymaster {
	parsed, err := TokenPaymasterMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TokenPaymaster{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TokenPaymaster) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address anEntryPoint, address signer) returns()
func (tokenPaymaster *TokenPaymaster) PackConstructor(anEntryPoint common.Address, signer common.Address) []byte {
	enc, err := tokenPaymaster.abi.Pack("", anEntryPoint, signer)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackMODEPOSTPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1ab71ecd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_POSTPAY() view returns(uint8)
func (tokenPaymaster *TokenPaymaster) PackMODEPOSTPAY() []byte {
	enc, err := tokenPaymaster.abi.Pack("MODE_POSTPAY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODEPOSTPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1ab71ecd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_POSTPAY() view returns(uint8)
func (tokenPaymaster *TokenPaymaster) TryPackMODEPOSTPAY() ([]byte, error) {
	return tokenPaymaster.abi.Pack("MODE_POSTPAY")
}

// UnpackMODEPOSTPAY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1ab71ecd.
//
// Solidity: function MODE_POSTPAY() view returns(uint8)
func (tokenPaymaster *TokenPaymaster) UnpackMODEPOSTPAY(data []byte) (uint8, error) {
	out, err := tokenPaymaster.abi.Unpack("MODE_POSTPAY", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackMODEPREPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdccce60b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MODE_PREPAY() view returns(uint8)
func (tokenPaymaster *TokenPaymaster) PackMODEPREPAY() []byte {
	enc, err := tokenPaymaster.abi.Pack("MODE_PREPAY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMODEPREPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdccce60b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MODE_PREPAY() view returns(uint8)
func (tokenPaymaster *TokenPaymaster) TryPackMODEPREPAY() ([]byte, error) {
	return tokenPaymaster.abi.Pack("MODE_PREPAY")
}

// UnpackMODEPREPAY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdccce60b.
//
// Solidity: function MODE_PREPAY() view returns(uint8)
func (tokenPaymaster *TokenPaymaster) UnpackMODEPREPAY(data []byte) (uint8, error) {
	out, err := tokenPaymaster.abi.Unpack("MODE_PREPAY", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackPOSTOPGASPOSTPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa83ed1b9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function POST_OP_GAS_POSTPAY() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) PackPOSTOPGASPOSTPAY() []byte {
	enc, err := tokenPaymaster.abi.Pack("POST_OP_GAS_POSTPAY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPOSTOPGASPOSTPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa83ed1b9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function POST_OP_GAS_POSTPAY() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) TryPackPOSTOPGASPOSTPAY() ([]byte, error) {
	return tokenPaymaster.abi.Pack("POST_OP_GAS_POSTPAY")
}

// UnpackPOSTOPGASPOSTPAY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa83ed1b9.
//
// Solidity: function POST_OP_GAS_POSTPAY() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) UnpackPOSTOPGASPOSTPAY(data []byte) (*big.Int, error) {
	out, err := tokenPaymaster.abi.Unpack("POST_OP_GAS_POSTPAY", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackPOSTOPGASPREPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9d033cee.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function POST_OP_GAS_PREPAY() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) PackPOSTOPGASPREPAY() []byte {
	enc, err := tokenPaymaster.abi.Pack("POST_OP_GAS_PREPAY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPOSTOPGASPREPAY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9d033cee.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function POST_OP_GAS_PREPAY() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) TryPackPOSTOPGASPREPAY() ([]byte, error) {
	return tokenPaymaster.abi.Pack("POST_OP_GAS_PREPAY")
}

// UnpackPOSTOPGASPREPAY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9d033cee.
//
// Solidity: function POST_OP_GAS_PREPAY() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) UnpackPOSTOPGASPREPAY(data []byte) (*big.Int, error) {
	out, err := tokenPaymaster.abi.Unpack("POST_OP_GAS_PREPAY", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackPOSTOPGASREVERTED is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x62c3a124.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function POST_OP_GAS_REVERTED() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) PackPOSTOPGASREVERTED() []byte {
	enc, err := tokenPaymaster.abi.Pack("POST_OP_GAS_REVERTED")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPOSTOPGASREVERTED is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x62c3a124.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function POST_OP_GAS_REVERTED() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) TryPackPOSTOPGASREVERTED() ([]byte, error) {
	return tokenPaymaster.abi.Pack("POST_OP_GAS_REVERTED")
}

// UnpackPOSTOPGASREVERTED is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x62c3a124.
//
// Solidity: function POST_OP_GAS_REVERTED() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) UnpackPOSTOPGASREVERTED(data []byte) (*big.Int, error) {
	out, err := tokenPaymaster.abi.Unpack("POST_OP_GAS_REVERTED", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackAddStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0396cb60.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addStake(uint32 unstakeDelaySec) payable returns()
func (tokenPaymaster *TokenPaymaster) PackAddStake(unstakeDelaySec uint32) []byte {
	enc, err := tokenPaymaster.abi.Pack("addStake", unstakeDelaySec)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0396cb60.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addStake(uint32 unstakeDelaySec) payable returns()
func (tokenPaymaster *TokenPaymaster) TryPackAddStake(unstakeDelaySec uint32) ([]byte, error) {
	return tokenPaymaster.abi.Pack("addStake", unstakeDelaySec)
}

// PackDecodeTerms is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc661b292.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decodeTerms(bytes data) pure returns(uint8 mode, address token, uint48 validUntil, uint48 validAfter, uint256 rate, bytes signature)
func (tokenPaymaster *TokenPaymaster) PackDecodeTerms(data []byte) []byte {
	enc, err := tokenPaymaster.abi.Pack("decodeTerms", data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecodeTerms is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc661b292.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decodeTerms(bytes data) pure returns(uint8 mode, address token, uint48 validUntil, uint48 validAfter, uint256 rate, bytes signature)
func (tokenPaymaster *TokenPaymaster) TryPackDecodeTerms(data []byte) ([]byte, error) {
	return tokenPaymaster.abi.Pack("decodeTerms", data)
}

// DecodeTermsOutput serves as a container for the return parameters of contract
// method DecodeTerms.
type DecodeTermsOutput struct {
	Mode       uint8
	Token      common.Address
	ValidUntil *big.Int
	ValidAfter *big.Int
	Rate       *big.Int
	Signature  []byte
}

// UnpackDecodeTerms is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc661b292.
//
// Solidity: function decodeTerms(bytes data) pure returns(uint8 mode, address token, uint48 validUntil, uint48 validAfter, uint256 rate, bytes signature)
func (tokenPaymaster *TokenPaymaster) UnpackDecodeTerms(data []byte) (DecodeTermsOutput, error) {
	out, err := tokenPaymaster.abi.Unpack("decodeTerms", data)
	outstruct := new(DecodeTermsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Mode = *abi.ConvertType(out[0], new(uint8)).(*uint8)
	outstruct.Token = *abi.ConvertType(out[1], new(common.Address)).(*common.Address)
	outstruct.ValidUntil = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.ValidAfter = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.Rate = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	outstruct.Signature = *abi.ConvertType(out[5], new([]byte)).(*[]byte)
	return *outstruct, nil
}

// PackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deposit() payable returns()
func (tokenPaymaster *TokenPaymaster) PackDeposit() []byte {
	enc, err := tokenPaymaster.abi.Pack("deposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deposit() payable returns()
func (tokenPaymaster *TokenPaymaster) TryPackDeposit() ([]byte, error) {
	return tokenPaymaster.abi.Pack("deposit")
}

// PackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function entryPoint() view returns(address)
func (tokenPaymaster *TokenPaymaster) PackEntryPoint() []byte {
	enc, err := tokenPaymaster.abi.Pack("entryPoint")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function entryPoint() view returns(address)
func (tokenPaymaster *TokenPaymaster) TryPackEntryPoint() ([]byte, error) {
	return tokenPaymaster.abi.Pack("entryPoint")
}

// UnpackEntryPoint is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb0d691fe.
//
// Solidity: function entryPoint() view returns(address)
func (tokenPaymaster *TokenPaymaster) UnpackEntryPoint(data []byte) (common.Address, error) {
	out, err := tokenPaymaster.abi.Unpack("entryPoint", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackGetDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc399ec88.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getDeposit() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) PackGetDeposit() []byte {
	enc, err := tokenPaymaster.abi.Pack("getDeposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc399ec88.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getDeposit() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) TryPackGetDeposit() ([]byte, error) {
	return tokenPaymaster.abi.Pack("getDeposit")
}

// UnpackGetDeposit is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc399ec88.
//
// Solidity: function getDeposit() view returns(uint256)
func (tokenPaymaster *TokenPaymaster) UnpackGetDeposit(data []byte) (*big.Int, error) {
	out, err := tokenPaymaster.abi.Unpack("getDeposit", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xaae66598.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) op, uint8 mode, address token, uint256 rate, uint48 validUntil, uint48 validAfter) view returns(bytes32)
func (tokenPaymaster *TokenPaymaster) PackGetHash(op UserOperation, mode uint8, token common.Address, rate *big.Int, validUntil *big.Int, validAfter *big.Int) []byte {
	enc, err := tokenPaymaster.abi.Pack("getHash", op, mode, token, rate, validUntil, validAfter)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xaae66598.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) op, uint8 mode, address token, uint256 rate, uint48 validUntil, uint48 validAfter) view returns(bytes32)
func (tokenPaymaster *TokenPaymaster) TryPackGetHash(op UserOperation, mode uint8, token common.Address, rate *big.Int, validUntil *big.Int, validAfter *big.Int) ([]byte, error) {
	return tokenPaymaster.abi.Pack("getHash", op, mode, token, rate, validUntil, validAfter)
}

// UnpackGetHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xaae66598.
//
// Solidity: function getHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) op, uint8 mode, address token, uint256 rate, uint48 validUntil, uint48 validAfter) view returns(bytes32)
func (tokenPaymaster *TokenPaymaster) UnpackGetHash(data []byte) ([32]byte, error) {
	out, err := tokenPaymaster.abi.Unpack("getHash", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackMaxPostOpGas is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2e00402.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function maxPostOpGas(uint8 mode) pure returns(uint256)
func (tokenPaymaster *TokenPaymaster) PackMaxPostOpGas(mode uint8) []byte {
	enc, err := tokenPaymaster.abi.Pack("maxPostOpGas", mode)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMaxPostOpGas is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2e00402.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function maxPostOpGas(uint8 mode) pure returns(uint256)
func (tokenPaymaster *TokenPaymaster) TryPackMaxPostOpGas(mode uint8) ([]byte, error) {
	return tokenPaymaster.abi.Pack("maxPostOpGas", mode)
}

// UnpackMaxPostOpGas is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf2e00402.
//
// Solidity: function maxPostOpGas(uint8 mode) pure returns(uint256)
func (tokenPaymaster *TokenPaymaster) UnpackMaxPostOpGas(data []byte) (*big.Int, error) {
	out, err := tokenPaymaster.abi.Unpack("maxPostOpGas", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (tokenPaymaster *TokenPaymaster) PackOwner() []byte {
	enc, err := tokenPaymaster.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (tokenPaymaster *TokenPaymaster) TryPackOwner() ([]byte, error) {
	return tokenPaymaster.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (tokenPaymaster *TokenPaymaster) UnpackOwner(data []byte) (common.Address, error) {
	out, err := tokenPaymaster.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPostOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9a23409.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function postOp(uint8 mode, bytes context, uint256 actualGasCost) returns()
func (tokenPaymaster *TokenPaymaster) PackPostOp(mode uint8, context []byte, actualGasCost *big.Int) []byte {
	enc, err := tokenPaymaster.abi.Pack("postOp", mode, context, actualGasCost)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPostOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9a23409.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function postOp(uint8 mode, bytes context, uint256 actualGasCost) returns()
func (tokenPaymaster *TokenPaymaster) TryPackPostOp(mode uint8, context []byte, actualGasCost *big.Int) ([]byte, error) {
	return tokenPaymaster.abi.Pack("postOp", mode, context, actualGasCost)
}

// PackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceOwnership() returns()
func (tokenPaymaster *TokenPaymaster) PackRenounceOwnership() []byte {
	enc, err := tokenPaymaster.abi.Pack("renounceOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceOwnership() returns()
func (tokenPaymaster *TokenPaymaster) TryPackRenounceOwnership() ([]byte, error) {
	return tokenPaymaster.abi.Pack("renounceOwnership")
}

// PackTokenCost is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb8af33e4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tokenCost(uint256 gasCost, uint256 rate) pure returns(uint256)
func (tokenPaymaster *TokenPaymaster) PackTokenCost(gasCost *big.Int, rate *big.Int) []byte {
	enc, err := tokenPaymaster.abi.Pack("tokenCost", gasCost, rate)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTokenCost is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb8af33e4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tokenCost(uint256 gasCost, uint256 rate) pure returns(uint256)
func (tokenPaymaster *TokenPaymaster) TryPackTokenCost(gasCost *big.Int, rate *big.Int) ([]byte, error) {
	return tokenPaymaster.abi.Pack("tokenCost", gasCost, rate)
}

// UnpackTokenCost is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb8af33e4.
//
// Solidity: function tokenCost(uint256 gasCost, uint256 rate) pure returns(uint256)
func (tokenPaymaster *TokenPaymaster) UnpackTokenCost(data []byte) (*big.Int, error) {
	out, err := tokenPaymaster.abi.Unpack("tokenCost", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (tokenPaymaster *TokenPaymaster) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := tokenPaymaster.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (tokenPaymaster *TokenPaymaster) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return tokenPaymaster.abi.Pack("transferOwnership", newOwner)
}

// PackUnlockStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb9fe6bf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unlockStake() returns()
func (tokenPaymaster *TokenPaymaster) PackUnlockStake() []byte {
	enc, err := tokenPaymaster.abi.Pack("unlockStake")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnlockStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb9fe6bf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unlockStake() returns()
func (tokenPaymaster *TokenPaymaster) TryPackUnlockStake() ([]byte, error) {
	return tokenPaymaster.abi.Pack("unlockStake")
}

// PackVerifyingSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23d9ac9b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function verifyingSigner() view returns(address)
func (tokenPaymaster *TokenPaymaster) PackVerifyingSigner() []byte {
	enc, err := tokenPaymaster.abi.Pack("verifyingSigner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVerifyingSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23d9ac9b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function verifyingSigner() view returns(address)
func (tokenPaymaster *TokenPaymaster) TryPackVerifyingSigner() ([]byte, error) {
	return tokenPaymaster.abi.Pack("verifyingSigner")
}

// UnpackVerifyingSigner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23d9ac9b.
//
// Solidity: function verifyingSigner() view returns(address)
func (tokenPaymaster *TokenPaymaster) UnpackVerifyingSigner(data []byte) (common.Address, error) {
	out, err := tokenPaymaster.abi.Unpack("verifyingSigner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackWithdrawStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc23a5cea.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawStake(address withdrawAddress) returns()
func (tokenPaymaster *TokenPaymaster) PackWithdrawStake(withdrawAddress common.Address) []byte {
	enc, err := tokenPaymaster.abi.Pack("withdrawStake", withdrawAddress)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc23a5cea.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawStake(address withdrawAddress) returns()
func (tokenPaymaster *TokenPaymaster) TryPackWithdrawStake(withdrawAddress common.Address) ([]byte, error) {
	return tokenPaymaster.abi.Pack("withdrawStake", withdrawAddress)
}

// PackWithdrawTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x205c2878.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawTo(address withdrawAddress, uint256 amount) returns()
func (tokenPaymaster *TokenPaymaster) PackWithdrawTo(withdrawAddress common.Address, amount *big.Int) []byte {
	enc, err := tokenPaymaster.abi.Pack("withdrawTo", withdrawAddress, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x205c2878.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawTo(address withdrawAddress, uint256 amount) returns()
func (tokenPaymaster *TokenPaymaster) TryPackWithdrawTo(withdrawAddress common.Address, amount *big.Int) ([]byte, error) {
	return tokenPaymaster.abi.Pack("withdrawTo", withdrawAddress, amount)
}

// PackWithdrawToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01e33667.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawToken(address token, address to, uint256 amount) returns()
func (tokenPaymaster *TokenPaymaster) PackWithdrawToken(token common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := tokenPaymaster.abi.Pack("withdrawToken", token, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x01e33667.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawToken(address token, address to, uint256 amount) returns()
func (tokenPaymaster *TokenPaymaster) TryPackWithdrawToken(token common.Address, to common.Address, amount *big.Int) ([]byte, error) {
	return tokenPaymaster.abi.Pack("withdrawToken", token, to, amount)
}

// TokenPaymasterGasPaidInToken represents a GasPaidInToken event raised by the TokenPaymaster contract.
type TokenPaymasterGasPaidInToken struct {
	Sender    common.Address
	Token     common.Address
	Mode      uint8
	Rate      *big.Int
	GasCost   *big.Int
	TokenCost *big.Int
	Raw       *types.Log // Blockchain specific contextual infos
}

const TokenPaymasterGasPaidInTokenEventName = "GasPaidInToken"

// ContractEventName returns the user-defined event name.
func (TokenPaymasterGasPaidInToken) ContractEventName() string {
	return TokenPaymasterGasPaidInTokenEventName
}

// UnpackGasPaidInTokenEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event GasPaidInToken(address indexed sender, address indexed token, uint8 mode, uint256 rate, uint256 gasCost, uint256 tokenCost)
func (tokenPaymaster *TokenPaymaster) UnpackGasPaidInTokenEvent(log *types.Log) (*TokenPaymasterGasPaidInToken, error) {
	event := "GasPaidInToken"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != tokenPaymaster.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TokenPaymasterGasPaidInToken)
	if len(log.Data) > 0 {
		if err := tokenPaymaster.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range tokenPaymaster.abi.Events[event].Inputs {
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

// TokenPaymasterOwnershipTransferred represents a OwnershipTransferred event raised by the TokenPaymaster contract.
type TokenPaymasterOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const TokenPaymasterOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (TokenPaymasterOwnershipTransferred) ContractEventName() string {
	return TokenPaymasterOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (tokenPaymaster *TokenPaymaster) UnpackOwnershipTransferredEvent(log *types.Log) (*TokenPaymasterOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != tokenPaymaster.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TokenPaymasterOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := tokenPaymaster.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range tokenPaymaster.abi.Events[event].Inputs {
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

// TransferProbeMetaData contains all meta data concerning the TransferProbe contract.
var TransferProbeMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"}]",
	ID:  "253f18587c304949e91a81730818e06f8b",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161045c38038061045c83398101604081905261002e916103a2565b6040516370a0823160e01b81526001600160a01b0383811660048301525f91908516906370a0823190602401602060405180830381865afa158015610075573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061009991906103e3565b6040516001600160a01b0385166024820152604481018490529091506100f190859060640160408051601f198184030181529190526020810180516001600160e01b0390811663a9059cbb60e01b179091526102b316565b6040516370a0823160e01b81526001600160a01b0384811660048301525f91908616906370a0823190602401602060405180830381865afa158015610138573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061015c91906103e3565b604051306024820152604481018590529091506101ab90869060640160408051601f198184030181529190526020810180516001600160e01b0390811663095ea7b360e01b179091526102b316565b6040513060248201526001600160a01b03851660448201526064810184905261020690869060840160408051601f198184030181529190526020810180516001600160e01b039081166323b872dd60e01b179091526102b316565b6040516370a0823160e01b81526001600160a01b0385811660048301525f91908716906370a0823190602401602060405180830381865afa15801561024d573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061027191906103e3565b90505f61027e84846103fa565b61028884846103fa565b6040805160208101939093528201526060016040516020818303038152906040529050805160208201f35b5f5f836001600160a01b0316836040516102cd919061041f565b5f604051808303815f865af19150503d805f8114610306576040519150601f19603f3d011682016040523d82523d5f602084013e61030b565b606091505b50915091508180156103355750805115806103355750808060200190518101906103359190610435565b6103855760405162461bcd60e51b815260206004820181905260248201527f5472616e7366657250726f62653a20746f6b656e2063616c6c206661696c6564604482015260640160405180910390fd5b50505050565b6001600160a01b038116811461039f575f5ffd5b50565b5f5f5f606084860312156103b4575f5ffd5b83516103bf8161038b565b60208501519093506103d08161038b565b6040949094015192959394509192915050565b5f602082840312156103f3575f5ffd5b5051919050565b8181038181111561041957634e487b7160e01b5f52601160045260245ffd5b92915050565b5f82518060208501845e5f920191825250919050565b5f60208284031215610445575f5ffd5b81518015158114610454575f5ffd5b939250505056fe",
}

// TransferProbe is an auto generated Go binding around an Ethereum contract.
type TransferProbe struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TransferProbe) GetABI() abi.ABI {
	return c.abi
}

// NewTransferProbe creates a new instance of TransferProbe.
func NewTransferProbe() *TransferProbe {
	parsed, err := TransferProbeMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TransferProbe{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TransferProbe) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address token, address to, uint256 amount) returns()
func (transferProbe *TransferProbe) PackConstructor(token common.Address, to common.Address, amount *big.Int) []byte {
	enc, err := transferProbe.abi.Pack("", token, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// VerifyingPaymasterMetaData contains all meta data concerning the VerifyingPaymaster contract.
var VerifyingPaymasterMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"_entryPoint\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"_verifyingSigner\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"uint32\",\"name\":\"unstakeDelaySec\",\"type\":\"uint32\"}],\"name\":\"addStake\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"entryPoint\",\"outputs\":[{\"internalType\":\"contractIEntryPoint\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getDeposit\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"userOp\",\"type\":\"tuple\"},{\"internalType\":\"uint48\",\"name\":\"validUntil\",\"type\":\"uint48\"},{\"internalType\":\"uint48\",\"name\":\"validAfter\",\"type\":\"uint48\"}],\"name\":\"getHash\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"}],\"name\":\"parsePaymasterAndData\",\"outputs\":[{\"internalType\":\"uint48\",\"name\":\"validUntil\",\"type\":\"uint48\"},{\"internalType\":\"uint48\",\"name\":\"validAfter\",\"type\":\"uint48\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"enumIPaymaster.PostOpMode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"internalType\":\"bytes\",\"name\":\"context\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"actualGasCost\",\"type\":\"uint256\"}],\"name\":\"postOp\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"renounceOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"senderNonce\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"unlockStake\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"initCode\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"callGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"verificationGasLimit\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"preVerificationGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"maxPriorityFeePerGas\",\"type\":\"uint256\"},{\"internalType\":\"bytes\",\"name\":\"paymasterAndData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"internalType\":\"structUserOperation\",\"name\":\"userOp\",\"type\":\"tuple\"},{\"internalType\":\"bytes32\",\"name\":\"userOpHash\",\"type\":\"bytes32\"},{\"internalType\":\"uint256\",\"name\":\"maxCost\",\"type\":\"uint256\"}],\"name\":\"validatePaymasterUserOp\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"context\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"validationData\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"verifyingSigner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"withdrawAddress\",\"type\":\"address\"}],\"name\":\"withdrawStake\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"withdrawAddress\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdrawTo\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "024e431e45aca79711aec12a20a197dd62",
	Bin: "0x60c060405234801561000f575f5ffd5b5060405161165138038061165183398101604081905261002e916100b6565b8161003833610050565b6001600160a01b039081166080521660a052506100ee565b5f80546001600160a01b038381166001600160a01b0319831681178455604051919092169283917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e09190a35050565b6001600160a01b03811681146100b3575f5ffd5b50565b5f5f604083850312156100c7575f5ffd5b82516100d28161009f565b60208401519092506100e38161009f565b809150509250929050565b60805160a05161150a6101475f395f81816101380152610c4a01525f8181610278015281816103710152818161043701528181610553015281816106150152818161069f0152818161075001526109d1015261150a5ff3fe6080604052600436106100ef575f3560e01c8063a9a2340911610087578063c399ec8811610057578063c399ec88146102cd578063d0e30db0146102e1578063f2fde38b146102e9578063f465c77e14610308575f5ffd5b8063a9a2340914610248578063b0d691fe14610267578063bb9fe6bf1461029a578063c23a5cea146102ae575f5ffd5b80638da5cb5b116100c25780638da5cb5b1461019857806394d4ad60146101c157806394e1fc19146101f05780639c90b4431461021d575f5ffd5b80630396cb60146100f3578063205c28781461010857806323d9ac9b14610127578063715018a614610184575b5f5ffd5b61010661010136600461100b565b610335565b005b348015610113575f5ffd5b50610106610122366004611056565b6103e3565b348015610132575f5ffd5b5061015a7f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020015b60405180910390f35b34801561018f575f5ffd5b50610106610478565b3480156101a3575f5ffd5b505f5473ffffffffffffffffffffffffffffffffffffffff1661015a565b3480156101cc575f5ffd5b506101e06101db3660046110be565b61048b565b60405161017b94939291906110fd565b3480156101fb575f5ffd5b5061020f61020a366004611198565b6104c7565b60405190815260200161017b565b348015610228575f5ffd5b5061020f6102373660046111f2565b60016020525f908152604090205481565b348015610253575f5ffd5b5061010661026236600461120d565b61052f565b348015610272575f5ffd5b5061015a7f000000000000000000000000000000000000000000000000000000000000000081565b3480156102a5575f5ffd5b50610106610549565b3480156102b9575f5ffd5b506101066102c83660046111f2565b6105c8565b3480156102d8575f5ffd5b5061020f61066f565b610106610722565b3480156102f4575f5ffd5b506101066103033660046111f2565b6107a8565b348015610313575f5ffd5b50610327610322366004611268565b610864565b60405161017b9291906112fe565b61033d610887565b6040517f0396cb6000000000000000000000000000000000000000000000000000000000815263ffffffff821660048201527f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff1690630396cb609034906024015f604051808303818588803b1580156103c9575f5ffd5b505af11580156103db573d5f5f3e3d5ffd5b505050505050565b6103eb610887565b6040517f205c287800000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff8381166004830152602482018390527f0000000000000000000000000000000000000000000000000000000000000000169063205c2878906044015f604051808303815f87803b1580156103c9575f5ffd5b610480610887565b6104895f610907565b565b5f80368161049d60546014878961131f565b8101906104aa9190611346565b90945092506104bc856054818961131f565b949793965094505050565b5f6104d18461097b565b73ffffffffffffffffffffffffffffffffffffffff8535165f908152600160209081526040918290205491516105109392469230928991899101611377565b6040516020818303038152906040528051906020012090509392505050565b6105376109b9565b61054384848484610a58565b50505050565b610551610887565b7f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff1663bb9fe6bf6040518163ffffffff1660e01b81526004015f604051808303815f87803b1580156105b6575f5ffd5b505af1158015610543573d5f5f3e3d5ffd5b6105d0610887565b6040517fc23a5cea00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff82811660048301527f0000000000000000000000000000000000000000000000000000000000000000169063c23a5cea906024015f604051808303815f87803b158015610656575f5ffd5b505af1158015610668573d5f5f3e3d5ffd5b5050505050565b6040517f70a082310000000000000000000000000000000000000000000000000000000081523060048201525f907f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff16906370a0823190602401602060405180830381865afa1580156106f9573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061071d91906113d3565b905090565b6040517fb760faf90000000000000000000000000000000000000000000000000000000081523060048201527f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff169063b760faf99034906024015f604051808303818588803b158015610656575f5ffd5b6107b0610887565b73ffffffffffffffffffffffffffffffffffffffff8116610858576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f4f776e61626c653a206e6577206f776e657220697320746865207a65726f206160448201527f646472657373000000000000000000000000000000000000000000000000000060648201526084015b60405180910390fd5b61086181610907565b50565b60605f61086f6109b9565b61087a858585610aba565b915091505b935093915050565b5f5473ffffffffffffffffffffffffffffffffffffffff163314610489576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e6572604482015260640161084f565b5f805473ffffffffffffffffffffffffffffffffffffffff8381167fffffffffffffffffffffffff0000000000000000000000000000000000000000831681178455604051919092169283917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e09190a35050565b6060365f61098d6101208501856113ea565b915091508360208184030360405194506020810185016040528085528082602087013750505050919050565b3373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614610489576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601560248201527f53656e646572206e6f7420456e747279506f696e740000000000000000000000604482015260640161084f565b6040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600d60248201527f6d757374206f7665727269646500000000000000000000000000000000000000604482015260640161084f565b60605f80803681610ad26101db6101208b018b6113ea565b929650909450925090506040811480610aeb5750604181145b610b7957604080517f08c379a00000000000000000000000000000000000000000000000000000000081526020600482015260248101919091527f566572696679696e675061796d61737465723a20696e76616c6964207369676e60448201527f6174757265206c656e67746820696e207061796d6173746572416e6444617461606482015260840161084f565b5f610bba610b888b87876104c7565b7f19457468657265756d205369676e6564204d6573736167653a0a3332000000005f908152601c91909152603c902090565b73ffffffffffffffffffffffffffffffffffffffff8b35165f908152600160205260408120805492935090610bee8361144b565b9190505550610c328184848080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92019190915250610cd792505050565b73ffffffffffffffffffffffffffffffffffffffff167f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff1614610cae57610c9060018686610cf9565b60405180602001604052805f8152509096509650505050505061087f565b610cb95f8686610cf9565b60408051602081019091525f81529b909a5098505050505050505050565b5f5f5f610ce48585610d2f565b91509150610cf181610d71565b509392505050565b5f60d08265ffffffffffff16901b60a08465ffffffffffff16901b85610d1f575f610d22565b60015b60ff161717949350505050565b5f5f8251604103610d63576020830151604084015160608501515f1a610d5787828585610f23565b94509450505050610d6a565b505f905060025b9250929050565b5f816004811115610d8457610d846114a7565b03610d8c5750565b6001816004811115610da057610da06114a7565b03610e07576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f45434453413a20696e76616c6964207369676e61747572650000000000000000604482015260640161084f565b6002816004811115610e1b57610e1b6114a7565b03610e82576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f45434453413a20696e76616c6964207369676e6174757265206c656e67746800604482015260640161084f565b6003816004811115610e9657610e966114a7565b03610861576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602260248201527f45434453413a20696e76616c6964207369676e6174757265202773272076616c60448201527f7565000000000000000000000000000000000000000000000000000000000000606482015260840161084f565b5f807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0831115610f5857505f90506003611002565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015610fa9573d5f5f3e3d5ffd5b50506040517fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0015191505073ffffffffffffffffffffffffffffffffffffffff8116610ffc575f60019250925050611002565b91505f90505b94509492505050565b5f6020828403121561101b575f5ffd5b813563ffffffff8116811461102e575f5ffd5b9392505050565b73ffffffffffffffffffffffffffffffffffffffff81168114610861575f5ffd5b5f5f60408385031215611067575f5ffd5b823561107281611035565b946020939093013593505050565b5f5f83601f840112611090575f5ffd5b50813567ffffffffffffffff8111156110a7575f5ffd5b602083019150836020828501011115610d6a575f5ffd5b5f5f602083850312156110cf575f5ffd5b823567ffffffffffffffff8111156110e5575f5ffd5b6110f185828601611080565b90969095509350505050565b65ffffffffffff8516815265ffffffffffff8416602082015260606040820152816060820152818360808301375f818301608090810191909152601f9092017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe01601019392505050565b5f6101608284031215611178575f5ffd5b50919050565b803565ffffffffffff81168114611193575f5ffd5b919050565b5f5f5f606084860312156111aa575f5ffd5b833567ffffffffffffffff8111156111c0575f5ffd5b6111cc86828701611167565b9350506111db6020850161117e565b91506111e96040850161117e565b90509250925092565b5f60208284031215611202575f5ffd5b813561102e81611035565b5f5f5f5f60608587031215611220575f5ffd5b84356003811061122e575f5ffd5b9350602085013567ffffffffffffffff811115611249575f5ffd5b61125587828801611080565b9598909750949560400135949350505050565b5f5f5f6060848603121561127a575f5ffd5b833567ffffffffffffffff811115611290575f5ffd5b61129c86828701611167565b9660208601359650604090950135949350505050565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b604081525f61131060408301856112b2565b90508260208301529392505050565b5f5f8585111561132d575f5ffd5b83861115611339575f5ffd5b5050820193919092039150565b5f5f60408385031215611357575f5ffd5b6113608361117e565b915061136e6020840161117e565b90509250929050565b60c081525f61138960c08301896112b2565b60208301979097525073ffffffffffffffffffffffffffffffffffffffff949094166040850152606084019290925265ffffffffffff90811660808401521660a090910152919050565b5f602082840312156113e3575f5ffd5b5051919050565b5f5f83357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe184360301811261141d575f5ffd5b83018035915067ffffffffffffffff821115611437575f5ffd5b602001915036819003821315610d6a575f5ffd5b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff82036114a0577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b5060010190565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffdfea264697066735822122096fcdba94a25e6c9b4c05928270fc1fdd8f5ad440c249b601f47d7204f97dd5b64736f6c63430008250033",
}

// VerifyingPaymaster is an auto generated Go binding around an Ethereum contract.
type VerifyingPaymaster struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *VerifyingPaymaster) GetABI() abi.ABI {
	return c.abi
}

// NewVerifyingPaymaster creates a new instance of VerifyingPaymaster.
func NewVerifyingPaymaster() *VerifyingPaymaster {
	parsed, err := VerifyingPaymasterMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &VerifyingPaymaster{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *VerifyingPaymaster) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address _entryPoint, address _verifyingSigner) returns()
func (verifyingPaymaster *VerifyingPaymaster) PackConstructor(_entryPoint common.Address, _verifyingSigner common.Address) []byte {
	enc, err := verifyingPaymaster.abi.Pack("", _entryPoint, _verifyingSigner)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAddStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0396cb60.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addStake(uint32 unstakeDelaySec) payable returns()
func (verifyingPaymaster *VerifyingPaymaster) PackAddStake(unstakeDelaySec uint32) []byte {
	enc, err := verifyingPaymaster.abi.Pack("addStake", unstakeDelaySec)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0396cb60.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addStake(uint32 unstakeDelaySec) payable returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackAddStake(unstakeDelaySec uint32) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("addStake", unstakeDelaySec)
}

// PackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deposit() payable returns()
func (verifyingPaymaster *VerifyingPaymaster) PackDeposit() []byte {
	enc, err := verifyingPaymaster.abi.Pack("deposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deposit() payable returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackDeposit() ([]byte, error) {
	return verifyingPaymaster.abi.Pack("deposit")
}

// PackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function entryPoint() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) PackEntryPoint() []byte {
	enc, err := verifyingPaymaster.abi.Pack("entryPoint")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEntryPoint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb0d691fe.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function entryPoint() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) TryPackEntryPoint() ([]byte, error) {
	return verifyingPaymaster.abi.Pack("entryPoint")
}

// UnpackEntryPoint is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb0d691fe.
//
// Solidity: function entryPoint() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) UnpackEntryPoint(data []byte) (common.Address, error) {
	out, err := verifyingPaymaster.abi.Unpack("entryPoint", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackGetDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc399ec88.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getDeposit() view returns(uint256)
func (verifyingPaymaster *VerifyingPaymaster) PackGetDeposit() []byte {
	enc, err := verifyingPaymaster.abi.Pack("getDeposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc399ec88.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getDeposit() view returns(uint256)
func (verifyingPaymaster *VerifyingPaymaster) TryPackGetDeposit() ([]byte, error) {
	return verifyingPaymaster.abi.Pack("getDeposit")
}

// UnpackGetDeposit is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc399ec88.
//
// Solidity: function getDeposit() view returns(uint256)
func (verifyingPaymaster *VerifyingPaymaster) UnpackGetDeposit(data []byte) (*big.Int, error) {
	out, err := verifyingPaymaster.abi.Unpack("getDeposit", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94e1fc19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, uint48 validUntil, uint48 validAfter) view returns(bytes32)
func (verifyingPaymaster *VerifyingPaymaster) PackGetHash(userOp UserOperation, validUntil *big.Int, validAfter *big.Int) []byte {
	enc, err := verifyingPaymaster.abi.Pack("getHash", userOp, validUntil, validAfter)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetHash is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94e1fc19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, uint48 validUntil, uint48 validAfter) view returns(bytes32)
func (verifyingPaymaster *VerifyingPaymaster) TryPackGetHash(userOp UserOperation, validUntil *big.Int, validAfter *big.Int) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("getHash", userOp, validUntil, validAfter)
}

// UnpackGetHash is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x94e1fc19.
//
// Solidity: function getHash((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, uint48 validUntil, uint48 validAfter) view returns(bytes32)
func (verifyingPaymaster *VerifyingPaymaster) UnpackGetHash(data []byte) ([32]byte, error) {
	out, err := verifyingPaymaster.abi.Unpack("getHash", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) PackOwner() []byte {
	enc, err := verifyingPaymaster.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) TryPackOwner() ([]byte, error) {
	return verifyingPaymaster.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) UnpackOwner(data []byte) (common.Address, error) {
	out, err := verifyingPaymaster.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackParsePaymasterAndData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94d4ad60.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function parsePaymasterAndData(bytes paymasterAndData) pure returns(uint48 validUntil, uint48 validAfter, bytes signature)
func (verifyingPaymaster *VerifyingPaymaster) PackParsePaymasterAndData(paymasterAndData []byte) []byte {
	enc, err := verifyingPaymaster.abi.Pack("parsePaymasterAndData", paymasterAndData)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackParsePaymasterAndData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x94d4ad60.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function parsePaymasterAndData(bytes paymasterAndData) pure returns(uint48 validUntil, uint48 validAfter, bytes signature)
func (verifyingPaymaster *VerifyingPaymaster) TryPackParsePaymasterAndData(paymasterAndData []byte) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("parsePaymasterAndData", paymasterAndData)
}

// ParsePaymasterAndDataOutput serves as a container for the return parameters of contract
// method ParsePaymasterAndData.
type ParsePaymasterAndDataOutput struct {
	ValidUntil *big.Int
	ValidAfter *big.Int
	Signature  []byte
}

// UnpackParsePaymasterAndData is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x94d4ad60.
//
// Solidity: function parsePaymasterAndData(bytes paymasterAndData) pure returns(uint48 validUntil, uint48 validAfter, bytes signature)
func (verifyingPaymaster *VerifyingPaymaster) UnpackParsePaymasterAndData(data []byte) (ParsePaymasterAndDataOutput, error) {
	out, err := verifyingPaymaster.abi.Unpack("parsePaymasterAndData", data)
	outstruct := new(ParsePaymasterAndDataOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.ValidUntil = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.ValidAfter = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.Signature = *abi.ConvertType(out[2], new([]byte)).(*[]byte)
	return *outstruct, nil
}

// PackPostOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9a23409.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function postOp(uint8 mode, bytes context, uint256 actualGasCost) returns()
func (verifyingPaymaster *VerifyingPaymaster) PackPostOp(mode uint8, context []byte, actualGasCost *big.Int) []byte {
	enc, err := verifyingPaymaster.abi.Pack("postOp", mode, context, actualGasCost)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPostOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9a23409.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function postOp(uint8 mode, bytes context, uint256 actualGasCost) returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackPostOp(mode uint8, context []byte, actualGasCost *big.Int) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("postOp", mode, context, actualGasCost)
}

// PackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceOwnership() returns()
func (verifyingPaymaster *VerifyingPaymaster) PackRenounceOwnership() []byte {
	enc, err := verifyingPaymaster.abi.Pack("renounceOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceOwnership() returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackRenounceOwnership() ([]byte, error) {
	return verifyingPaymaster.abi.Pack("renounceOwnership")
}

// PackSenderNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9c90b443.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function senderNonce(address ) view returns(uint256)
func (verifyingPaymaster *VerifyingPaymaster) PackSenderNonce(arg0 common.Address) []byte {
	enc, err := verifyingPaymaster.abi.Pack("senderNonce", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSenderNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9c90b443.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function senderNonce(address ) view returns(uint256)
func (verifyingPaymaster *VerifyingPaymaster) TryPackSenderNonce(arg0 common.Address) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("senderNonce", arg0)
}

// UnpackSenderNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9c90b443.
//
// Solidity: function senderNonce(address ) view returns(uint256)
func (verifyingPaymaster *VerifyingPaymaster) UnpackSenderNonce(data []byte) (*big.Int, error) {
	out, err := verifyingPaymaster.abi.Unpack("senderNonce", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (verifyingPaymaster *VerifyingPaymaster) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := verifyingPaymaster.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("transferOwnership", newOwner)
}

// PackUnlockStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb9fe6bf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unlockStake() returns()
func (verifyingPaymaster *VerifyingPaymaster) PackUnlockStake() []byte {
	enc, err := verifyingPaymaster.abi.Pack("unlockStake")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnlockStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbb9fe6bf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unlockStake() returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackUnlockStake() ([]byte, error) {
	return verifyingPaymaster.abi.Pack("unlockStake")
}

// PackValidatePaymasterUserOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf465c77e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function validatePaymasterUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 maxCost) returns(bytes context, uint256 validationData)
func (verifyingPaymaster *VerifyingPaymaster) PackValidatePaymasterUserOp(userOp UserOperation, userOpHash [32]byte, maxCost *big.Int) []byte {
	enc, err := verifyingPaymaster.abi.Pack("validatePaymasterUserOp", userOp, userOpHash, maxCost)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackValidatePaymasterUserOp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf465c77e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function validatePaymasterUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 maxCost) returns(bytes context, uint256 validationData)
func (verifyingPaymaster *VerifyingPaymaster) TryPackValidatePaymasterUserOp(userOp UserOperation, userOpHash [32]byte, maxCost *big.Int) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("validatePaymasterUserOp", userOp, userOpHash, maxCost)
}

// ValidatePaymasterUserOpOutput serves as a container for the return parameters of contract
// method ValidatePaymasterUserOp.
type ValidatePaymasterUserOpOutput struct {
	Context        []byte
	ValidationData *big.Int
}

// UnpackValidatePaymasterUserOp is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf465c77e.
//
// Solidity: function validatePaymasterUserOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes) userOp, bytes32 userOpHash, uint256 maxCost) returns(bytes context, uint256 validationData)
func (verifyingPaymaster *VerifyingPaymaster) UnpackValidatePaymasterUserOp(data []byte) (ValidatePaymasterUserOpOutput, error) {
	out, err := verifyingPaymaster.abi.Unpack("validatePaymasterUserOp", data)
	outstruct := new(ValidatePaymasterUserOpOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Context = *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	outstruct.ValidationData = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackVerifyingSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23d9ac9b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function verifyingSigner() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) PackVerifyingSigner() []byte {
	enc, err := verifyingPaymaster.abi.Pack("verifyingSigner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVerifyingSigner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23d9ac9b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function verifyingSigner() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) TryPackVerifyingSigner() ([]byte, error) {
	return verifyingPaymaster.abi.Pack("verifyingSigner")
}

// UnpackVerifyingSigner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23d9ac9b.
//
// Solidity: function verifyingSigner() view returns(address)
func (verifyingPaymaster *VerifyingPaymaster) UnpackVerifyingSigner(data []byte) (common.Address, error) {
	out, err := verifyingPaymaster.abi.Unpack("verifyingSigner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackWithdrawStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc23a5cea.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawStake(address withdrawAddress) returns()
func (verifyingPaymaster *VerifyingPaymaster) PackWithdrawStake(withdrawAddress common.Address) []byte {
	enc, err := verifyingPaymaster.abi.Pack("withdrawStake", withdrawAddress)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc23a5cea.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawStake(address withdrawAddress) returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackWithdrawStake(withdrawAddress common.Address) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("withdrawStake", withdrawAddress)
}

// PackWithdrawTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x205c2878.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdrawTo(address withdrawAddress, uint256 amount) returns()
func (verifyingPaymaster *VerifyingPaymaster) PackWithdrawTo(withdrawAddress common.Address, amount *big.Int) []byte {
	enc, err := verifyingPaymaster.abi.Pack("withdrawTo", withdrawAddress, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdrawTo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x205c2878.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdrawTo(address withdrawAddress, uint256 amount) returns()
func (verifyingPaymaster *VerifyingPaymaster) TryPackWithdrawTo(withdrawAddress common.Address, amount *big.Int) ([]byte, error) {
	return verifyingPaymaster.abi.Pack("withdrawTo", withdrawAddress, amount)
}

// VerifyingPaymasterOwnershipTransferred represents a OwnershipTransferred event raised by the VerifyingPaymaster contract.
type VerifyingPaymasterOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const VerifyingPaymasterOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (VerifyingPaymasterOwnershipTransferred) ContractEventName() string {
	return VerifyingPaymasterOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (verifyingPaymaster *VerifyingPaymaster) UnpackOwnershipTransferredEvent(log *types.Log) (*VerifyingPaymasterOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifyingPaymaster.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifyingPaymasterOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := verifyingPaymaster.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifyingPaymaster.abi.Events[event].Inputs {
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

// WalletProbeMetaData contains all meta data concerning the WalletProbe contract.
var WalletProbeMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"bytes32\",\"name\":\"digest\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"},{\"internalType\":\"address\",\"name\":\"factory\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"factoryData\",\"type\":\"bytes\"},{\"internalType\":\"bytes\",\"name\":\"transferCall\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"gasBudget\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"multicall\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"}]",
	ID:  "ecab0af658d2a2cd8bfbcd569914fd0d75",
	Bin: "0x608060405234801561000f575f5ffd5b506040516106b13803806106b183398101604081905261002e916104f1565b5f808060606001600160a01b0389161580159061005357506001600160a01b0385163b155b156100615760059350610121565b6001600160a01b0389161580159061008157506001600160a01b038c163b155b15610121575f5a90505f5f8b6001600160a01b0316898c6040516100a591906105d6565b5f604051808303815f8787f1925050503d805f81146100df576040519150601f19603f3d011682016040523d82523d5f602084013e6100e4565b606091505b50915091505a6100f490846105ec565b955081610107576001965080935061011d565b8e6001600160a01b03163b5f0361011d57600296505b5050505b8315801561013857506101368c8c8c896101f9565b155b1561014257600393505b836101c8575f5a90505f5f8f6001600160a01b0316898b60405161016691906105d6565b5f604051808303815f8787f1925050503d805f81146101a0576040519150601f19603f3d011682016040523d82523d5f602084013e6101a5565b606091505b50915091505a6101b590846105ec565b9450816101c457600496508093505b5050505b5f848484846040516020016101e0949392919061063f565b6040516020818303038152906040529050805160208201f35b5f80806102068686610344565b90925090505f81600481111561021e5761021e61066d565b14801561023c5750866001600160a01b0316826001600160a01b0316145b1561024c5760019250505061033c565b866001600160a01b03163b5f03610267575f9250505061033c565b5f5f886001600160a01b0316868989604051602401610287929190610681565b60408051601f198184030181529181526020820180516001600160e01b0316630b135d3f60e11b179052516102bc91906105d6565b5f604051808303818686fa925050503d805f81146102f5576040519150601f19603f3d011682016040523d82523d5f602084013e6102fa565b606091505b509150915081801561030e57506020815110155b801561033557508051630b135d3f60e11b906103339083016020908101908401610699565b145b9450505050505b949350505050565b5f5f8251604103610378576020830151604084015160608501515f1a61036c87828585610386565b9450945050505061037f565b505f905060025b9250929050565b5f806fa2a8918ca85bafe22016d0b997e4df60600160ff1b038311156103b157505f90506003610430565b604080515f8082526020820180845289905260ff881692820192909252606081018690526080810185905260019060a0016020604051602081039080840390855afa158015610402573d5f5f3e3d5ffd5b5050604051601f1901519150506001600160a01b03811661042a575f60019250925050610430565b91505f90505b94509492505050565b80516001600160a01b038116811461044f575f5ffd5b919050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610477575f5ffd5b81516001600160401b0381111561049057610490610454565b604051601f8201601f19908116603f011681016001600160401b03811182821017156104be576104be610454565b6040528181528382016020018510156104d5575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f5f5f5f5f5f5f5f6101208a8c03121561050a575f5ffd5b6105138a610439565b985061052160208b01610439565b60408b015160608c015191995097506001600160401b03811115610543575f5ffd5b61054f8c828d01610468565b96505061055e60808b01610439565b60a08b01519095506001600160401b03811115610579575f5ffd5b6105858c828d01610468565b60c08c015190955090506001600160401b038111156105a2575f5ffd5b6105ae8c828d01610468565b60e08c015190945092506105c790506101008b01610439565b90509295985092959850929598565b5f82518060208501845e5f920191825250919050565b8181038181111561060b57634e487b7160e01b5f52601160045260245ffd5b92915050565b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b848152836020820152826040820152608060608201525f6106636080830184610611565b9695505050505050565b634e487b7160e01b5f52602160045260245ffd5b828152604060208201525f61033c6040830184610611565b5f602082840312156106a9575f5ffd5b505191905056fe",
}

// WalletProbe is an auto generated Go binding around an Ethereum contract.
type WalletProbe struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *WalletProbe) GetABI() abi.ABI {
	return c.abi
}

// NewWalletProbe creates a new instance of WalletProbe.
func NewWalletProbe() *WalletProbe {
	parsed, err := WalletProbeMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &WalletProbe{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *WalletProbe) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address token, address from, bytes32 digest, bytes signature, address factory, bytes factoryData, bytes transferCall, uint256 gasBudget, address multicall) returns()
func (walletProbe *WalletProbe) PackConstructor(token common.Address, from common.Address, digest [32]byte, signature []byte, factory common.Address, factoryData []byte, transferCall []byte, gasBudget *big.Int, multicall common.Address) []byte {
	enc, err := walletProbe.abi.Pack("", token, from, digest, signature, factory, factoryData, transferCall, gasBudget, multicall)
	if err != nil {
		panic(err)
	}
	return enc
}

// X402BatchMetaData contains all meta data concerning the X402Batch contract.
var X402BatchMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"Malformed\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"nonce\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"bytes\",\"name\":\"reason\",\"type\":\"bytes\"}],\"name\":\"TransferFailed\",\"type\":\"event\"},{\"stateMutability\":\"nonpayable\",\"type\":\"fallback\"}]",
	ID:  "24a43eb1e7c6519cc01e96e725fa01b5e0",
	Bin: "0x6080604052348015600e575f5ffd5b5061060c8061001c5f395ff3fe608060405234801561000f575f5ffd5b505f366060816008610023609460016103fc565b61002d9083610415565b6100389060076103fc565b6100429190610415565b67ffffffffffffffff81111561005a5761005a61044d565b6040519080825280601f01601f191660200182016040528015610084576020820181803683370190505b5091505f5f5f5f5b8482101561033c575f8888848181106100a7576100a761047a565b60019586019592013560f81c9250508116156100f4578883896100cb8260146103fc565b926100d8939291906104a7565b6100e1916104ce565b60601c94506100f16014846103fc565b92505b60028116156101345788838961010b8260146103fc565b92610118939291906104a7565b610121916104ce565b60601c93506101316014846103fc565b92505b73ffffffffffffffffffffffffffffffffffffffff8516158061016b575073ffffffffffffffffffffffffffffffffffffffff8416155b8061017f5750609461017d8488610534565b105b156101b6576040517f07b6ad3f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6101d8858585846004165f036101cd57601b6101d0565b601c5b60ff1661034c565b61032c57816007166001901b60f81b87600384901c815181106101fd576101fd61047a565b0160200180517fff00000000000000000000000000000000000000000000000000000000000000928316921691909117905f82901a9053506040513d81523d5f602083013e3d601f017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0168101602001604052898961027d8660346103fc565b906102898760546103fc565b92610296939291906104a7565b61029f91610547565b8a858b6102ad8260146103fc565b926102ba939291906104a7565b6102c3916104ce565b60601c73ffffffffffffffffffffffffffffffffffffffff168773ffffffffffffffffffffffffffffffffffffffff167f4b2474a4b3695e3e0876ceaeb673202c032c686f80a4cfe57af395f1676de7fb846040516103229190610583565b60405180910390a4505b506094919091019060010161008c565b5050505050915050805190602001f35b5f5f63e3ee160e60e01b9050604051818152843560601c6004820152856024820152601485013560801c6044820152602485013560c01c6064820152602c85013560c01c6084820152603485013560a48201528360c4820152605485013560e482015260748501356101048201525f5f610124835f8b5af1979650505050505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b8082018082111561040f5761040f6103cf565b92915050565b5f82610448577f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b500490565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f5f858511156104b5575f5ffd5b838611156104c1575f5ffd5b5050820193919092039150565b80357fffffffffffffffffffffffffffffffffffffffff000000000000000000000000811690601484101561052d577fffffffffffffffffffffffffffffffffffffffff000000000000000000000000808560140360031b1b82161691505b5092915050565b8181038181111561040f5761040f6103cf565b8035602083101561040f577fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff602084900360031b1b1692915050565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8301168401019150509291505056fea2646970667358221220fa64af84b7cdb6e8e3ddcdaab8fa8139cd2505cacf83eacc13d93c73baa864cc64736f6c63430008250033",
}

// X402Batch is an auto generated Go binding around an Ethereum contract.
type X402Batch struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *X402Batch) GetABI() abi.ABI {
	return c.abi
}

// NewX402Batch creates a new instance of X402Batch.
func NewX402Batch() *X402Batch {
	parsed, err := X402BatchMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &X402Batch{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *X402Batch) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// X402BatchTransferFailed represents a TransferFailed event raised by the X402Batch contract.
type X402BatchTransferFailed struct {
	Token  common.Address
	From   common.Address
	Nonce  [32]byte
	Reason []byte
	Raw    *types.Log // Blockchain specific contextual infos
}

const X402BatchTransferFailedEventName = "TransferFailed"

// ContractEventName returns the user-defined event name.
func (X402BatchTransferFailed) ContractEventName() string {
	return X402BatchTransferFailedEventName
}

// UnpackTransferFailedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event TransferFailed(address indexed token, address indexed from, bytes32 indexed nonce, bytes reason)
func (x402Batch *X402Batch) UnpackTransferFailedEvent(log *types.Log) (*X402BatchTransferFailed, error) {
	event := "TransferFailed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402Batch.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402BatchTransferFailed)
	if len(log.Data) > 0 {
		if err := x402Batch.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402Batch.abi.Events[event].Inputs {
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
func (x402Batch *X402Batch) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], x402Batch.abi.Errors["Malformed"].ID.Bytes()[:4]) {
		return x402Batch.UnpackMalformedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// X402BatchMalformed represents a Malformed error raised by the X402Batch contract.
type X402BatchMalformed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Malformed()
func X402BatchMalformedErrorID() common.Hash {
	return common.HexToHash("0x07b6ad3ff7dbc4002539ae21306d8899743aedf933b34101681c6906979f10a5")
}

// UnpackMalformedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Malformed()
func (x402Batch *X402Batch) UnpackMalformedError(raw []byte) (*X402BatchMalformed, error) {
	out := new(X402BatchMalformed)
	if err := x402Batch.abi.UnpackIntoInterface(out, "Malformed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402ExactPermit2ProxyMetaData contains all meta data concerning the X402ExactPermit2Proxy contract.
var X402ExactPermit2ProxyMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"InvalidAmount\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidDestination\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidPermit2Address\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"PaymentTooEarly\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Permit2612AmountMismatch\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"Settled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"SettledWithPermit\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"PERMIT2\",\"outputs\":[{\"internalType\":\"contractPermit2\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WITNESS_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WITNESS_TYPE_STRING\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.TokenPermissions\",\"name\":\"permitted\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.PermitTransferFrom\",\"name\":\"permit\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"}],\"internalType\":\"structX402ExactPermit2Proxy.Witness\",\"name\":\"witness\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"}],\"internalType\":\"structX402Permit2Proxy.EIP2612Permit\",\"name\":\"permit2612\",\"type\":\"tuple\"},{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.TokenPermissions\",\"name\":\"permitted\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.PermitTransferFrom\",\"name\":\"permit\",\"type\":\"tuple\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"}],\"internalType\":\"structX402ExactPermit2Proxy.Witness\",\"name\":\"witness\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"settleWithPermit\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "23cf86df9d73b5fdb594f3abe171f640a3",
	Bin: "0x6080604052348015600e575f5ffd5b5060015f556109d9806100205f395ff3fe608060405234801561000f575f5ffd5b5060043610610064575f3560e01c80632c03ae6a1161004d5780632c03ae6a1461009b5780636afdd850146100d0578063fa3403781461010b575f5ffd5b806313cd3b5314610068578063156e21521461007d575b5f5ffd5b61007b610076366004610692565b61011e565b005b61008561016b565b6040516100929190610752565b60405180910390f35b6100c27fd97b3239a7f32295517bd14cb074edfdd188dfe5eb42f802bb26d4fd1eb12c3781565b604051908152602001610092565b6100e66e22d473030f116ddee9f6b43ac78ba381565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610092565b61007b61011936600461076b565b610187565b6101266101f1565b6101338585858585610266565b6040517f97088ec3606cfe8cc112180570d03fcde05f9b8e1bfef8e27784eaf5dd5691b6905f90a161016460015f55565b5050505050565b6040518060a00160405280606481526020016109406064913981565b61018f6101f1565b6101ab61019f60208701876107f9565b85886020890135610400565b6101b88585858585610266565b6040517fde5b89d10fc800c459329c382fabfcad0be0ed7e5328e01fae04e507b09ef5d8905f90a16101e960015f55565b505050505050565b60025f5403610260576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015260640160405180910390fd5b60025f55565b60208501355f036102a3576040517f2c5211c600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6102be846102b460208601866107f9565b8560200135610526565b604080518082019091526e22d473030f116ddee9f6b43ac78ba39063137c29fe908790806102ef60208901896107f9565b73ffffffffffffffffffffffffffffffffffffffff16815260208a8101359181019190915288907fd97b3239a7f32295517bd14cb074edfdd188dfe5eb42f802bb26d4fd1eb12c3790610344908a018a6107f9565b6040805160208181019490945273ffffffffffffffffffffffffffffffffffffffff90921690820152908901356060820152608001604051602081830303815290604052805190602001206040518060a00160405280606481526020016109406064913988886040518863ffffffff1660e01b81526004016103cc9796959493929190610859565b5f604051808303815f87803b1580156103e3575f5ffd5b505af11580156103f5573d5f5f3e3d5ffd5b505050505050505050565b8135811461043a576040517f050cda4900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff841663d505accf846e22d473030f116ddee9f6b43ac78ba38535602087013561047e60a0890160808a0161091f565b604080517fffffffff0000000000000000000000000000000000000000000000000000000060e089901b16815273ffffffffffffffffffffffffffffffffffffffff96871660048201529590941660248601526044850192909252606484015260ff16608483015285013560a4820152606085013560c482015260e4015f604051808303815f87803b158015610512575f5ffd5b505af1925050508015610164575050505050565b73ffffffffffffffffffffffffffffffffffffffff8316610573576040517f49e27cff00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82166105c0576040517fac6b05f500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b804210156105fa576040517fa65539fa00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505050565b5f6080828403121561060f575f5ffd5b50919050565b803573ffffffffffffffffffffffffffffffffffffffff81168114610638575f5ffd5b919050565b5f6040828403121561060f575f5ffd5b5f5f83601f84011261065d575f5ffd5b50813567ffffffffffffffff811115610674575f5ffd5b60208301915083602082850101111561068b575f5ffd5b9250929050565b5f5f5f5f5f61010086880312156106a7575f5ffd5b6106b187876105ff565b94506106bf60808701610615565b93506106ce8760a0880161063d565b925060e086013567ffffffffffffffff8111156106e9575f5ffd5b6106f58882890161064d565b969995985093965092949392505050565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b602081525f6107646020830184610706565b9392505050565b5f5f5f5f5f5f8688036101a0811215610782575f5ffd5b60a081121561078f575f5ffd5b508695506107a08860a089016105ff565b94506107af6101208801610615565b93506107bf88610140890161063d565b925061018087013567ffffffffffffffff8111156107db575f5ffd5b6107e789828a0161064d565b979a9699509497509295939492505050565b5f60208284031215610809575f5ffd5b61076482610615565b81835281816020850137505f602082840101525f60207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f840116840101905092915050565b73ffffffffffffffffffffffffffffffffffffffff61087789610615565b168152602088810135818301526040808a0135908301526060808a013590830152875173ffffffffffffffffffffffffffffffffffffffff16608083015287015160a08201525f6108e060c083018873ffffffffffffffffffffffffffffffffffffffff169052565b8560e08301526101406101008301526108fd610140830186610706565b828103610120840152610911818587610812565b9a9950505050505050505050565b5f6020828403121561092f575f5ffd5b813560ff81168114610764575f5ffdfe5769746e657373207769746e65737329546f6b656e5065726d697373696f6e73286164647265737320746f6b656e2c75696e7432353620616d6f756e74295769746e657373286164647265737320746f2c75696e743235362076616c6964416674657229a2646970667358221220908afdfe43ea368107bfadef053efec114f7b8e98fa669dbc4966c61c0e2fee864736f6c63430008250033",
}

// X402ExactPermit2Proxy is an auto generated Go binding around an Ethereum contract.
type X402ExactPermit2Proxy struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *X402ExactPermit2Proxy) GetABI() abi.ABI {
	return c.abi
}

// NewX402ExactPermit2Proxy creates a new instance of X402ExactPermit2Proxy.
func NewX402ExactPermit2Proxy() *X402ExactPermit2Proxy {
	parsed, err := X402ExactPermit2ProxyMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &X402ExactPermit2Proxy{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *X402ExactPermit2Proxy) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackPERMIT2 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6afdd850.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function PERMIT2() view returns(address)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) PackPERMIT2() []byte {
	enc, err := x402ExactPermit2Proxy.abi.Pack("PERMIT2")
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
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) TryPackPERMIT2() ([]byte, error) {
	return x402ExactPermit2Proxy.abi.Pack("PERMIT2")
}

// UnpackPERMIT2 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6afdd850.
//
// Solidity: function PERMIT2() view returns(address)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackPERMIT2(data []byte) (common.Address, error) {
	out, err := x402ExactPermit2Proxy.abi.Unpack("PERMIT2", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackWITNESSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2c03ae6a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function WITNESS_TYPEHASH() view returns(bytes32)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) PackWITNESSTYPEHASH() []byte {
	enc, err := x402ExactPermit2Proxy.abi.Pack("WITNESS_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWITNESSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2c03ae6a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function WITNESS_TYPEHASH() view returns(bytes32)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) TryPackWITNESSTYPEHASH() ([]byte, error) {
	return x402ExactPermit2Proxy.abi.Pack("WITNESS_TYPEHASH")
}

// UnpackWITNESSTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2c03ae6a.
//
// Solidity: function WITNESS_TYPEHASH() view returns(bytes32)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackWITNESSTYPEHASH(data []byte) ([32]byte, error) {
	out, err := x402ExactPermit2Proxy.abi.Unpack("WITNESS_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x156e2152.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) PackWITNESSTYPESTRING() []byte {
	enc, err := x402ExactPermit2Proxy.abi.Pack("WITNESS_TYPE_STRING")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x156e2152.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) TryPackWITNESSTYPESTRING() ([]byte, error) {
	return x402ExactPermit2Proxy.abi.Pack("WITNESS_TYPE_STRING")
}

// UnpackWITNESSTYPESTRING is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackWITNESSTYPESTRING(data []byte) (string, error) {
	out, err := x402ExactPermit2Proxy.abi.Unpack("WITNESS_TYPE_STRING", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x13cd3b53.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settle(((address,uint256),uint256,uint256) permit, address owner, (address,uint256) witness, bytes signature) returns()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) PackSettle(permit Permit2PermitTransferFrom, owner common.Address, witness X402ExactPermit2ProxyWitness, signature []byte) []byte {
	enc, err := x402ExactPermit2Proxy.abi.Pack("settle", permit, owner, witness, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x13cd3b53.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settle(((address,uint256),uint256,uint256) permit, address owner, (address,uint256) witness, bytes signature) returns()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) TryPackSettle(permit Permit2PermitTransferFrom, owner common.Address, witness X402ExactPermit2ProxyWitness, signature []byte) ([]byte, error) {
	return x402ExactPermit2Proxy.abi.Pack("settle", permit, owner, witness, signature)
}

// PackSettleWithPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfa340378.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settleWithPermit((uint256,uint256,bytes32,bytes32,uint8) permit2612, ((address,uint256),uint256,uint256) permit, address owner, (address,uint256) witness, bytes signature) returns()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) PackSettleWithPermit(permit2612 X402Permit2ProxyEIP2612Permit, permit Permit2PermitTransferFrom, owner common.Address, witness X402ExactPermit2ProxyWitness, signature []byte) []byte {
	enc, err := x402ExactPermit2Proxy.abi.Pack("settleWithPermit", permit2612, permit, owner, witness, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettleWithPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfa340378.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settleWithPermit((uint256,uint256,bytes32,bytes32,uint8) permit2612, ((address,uint256),uint256,uint256) permit, address owner, (address,uint256) witness, bytes signature) returns()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) TryPackSettleWithPermit(permit2612 X402Permit2ProxyEIP2612Permit, permit Permit2PermitTransferFrom, owner common.Address, witness X402ExactPermit2ProxyWitness, signature []byte) ([]byte, error) {
	return x402ExactPermit2Proxy.abi.Pack("settleWithPermit", permit2612, permit, owner, witness, signature)
}

// X402ExactPermit2ProxySettled represents a Settled event raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxySettled struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const X402ExactPermit2ProxySettledEventName = "Settled"

// ContractEventName returns the user-defined event name.
func (X402ExactPermit2ProxySettled) ContractEventName() string {
	return X402ExactPermit2ProxySettledEventName
}

// UnpackSettledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Settled()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackSettledEvent(log *types.Log) (*X402ExactPermit2ProxySettled, error) {
	event := "Settled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402ExactPermit2Proxy.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402ExactPermit2ProxySettled)
	if len(log.Data) > 0 {
		if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402ExactPermit2Proxy.abi.Events[event].Inputs {
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

// X402ExactPermit2ProxySettledWithPermit represents a SettledWithPermit event raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxySettledWithPermit struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const X402ExactPermit2ProxySettledWithPermitEventName = "SettledWithPermit"

// ContractEventName returns the user-defined event name.
func (X402ExactPermit2ProxySettledWithPermit) ContractEventName() string {
	return X402ExactPermit2ProxySettledWithPermitEventName
}

// UnpackSettledWithPermitEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SettledWithPermit()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackSettledWithPermitEvent(log *types.Log) (*X402ExactPermit2ProxySettledWithPermit, error) {
	event := "SettledWithPermit"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402ExactPermit2Proxy.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402ExactPermit2ProxySettledWithPermit)
	if len(log.Data) > 0 {
		if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402ExactPermit2Proxy.abi.Events[event].Inputs {
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
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], x402ExactPermit2Proxy.abi.Errors["InvalidAmount"].ID.Bytes()[:4]) {
		return x402ExactPermit2Proxy.UnpackInvalidAmountError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402ExactPermit2Proxy.abi.Errors["InvalidDestination"].ID.Bytes()[:4]) {
		return x402ExactPermit2Proxy.UnpackInvalidDestinationError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402ExactPermit2Proxy.abi.Errors["InvalidOwner"].ID.Bytes()[:4]) {
		return x402ExactPermit2Proxy.UnpackInvalidOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402ExactPermit2Proxy.abi.Errors["InvalidPermit2Address"].ID.Bytes()[:4]) {
		return x402ExactPermit2Proxy.UnpackInvalidPermit2AddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402ExactPermit2Proxy.abi.Errors["PaymentTooEarly"].ID.Bytes()[:4]) {
		return x402ExactPermit2Proxy.UnpackPaymentTooEarlyError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402ExactPermit2Proxy.abi.Errors["Permit2612AmountMismatch"].ID.Bytes()[:4]) {
		return x402ExactPermit2Proxy.UnpackPermit2612AmountMismatchError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// X402ExactPermit2ProxyInvalidAmount represents a InvalidAmount error raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxyInvalidAmount struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidAmount()
func X402ExactPermit2ProxyInvalidAmountErrorID() common.Hash {
	return common.HexToHash("0x2c5211c6cb73b16841677a034781e8336d18ce66df858e54153c86854e11f7b8")
}

// UnpackInvalidAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidAmount()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackInvalidAmountError(raw []byte) (*X402ExactPermit2ProxyInvalidAmount, error) {
	out := new(X402ExactPermit2ProxyInvalidAmount)
	if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, "InvalidAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402ExactPermit2ProxyInvalidDestination represents a InvalidDestination error raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxyInvalidDestination struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidDestination()
func X402ExactPermit2ProxyInvalidDestinationErrorID() common.Hash {
	return common.HexToHash("0xac6b05f542ae1b66b4b43710bf4773616692aad79ee0fe8cb9c5db0f38dd0764")
}

// UnpackInvalidDestinationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidDestination()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackInvalidDestinationError(raw []byte) (*X402ExactPermit2ProxyInvalidDestination, error) {
	out := new(X402ExactPermit2ProxyInvalidDestination)
	if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, "InvalidDestination", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402ExactPermit2ProxyInvalidOwner represents a InvalidOwner error raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxyInvalidOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidOwner()
func X402ExactPermit2ProxyInvalidOwnerErrorID() common.Hash {
	return common.HexToHash("0x49e27cffb37b1ca4a9bf5318243b2014d13f940af232b8552c208bdea15739da")
}

// UnpackInvalidOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidOwner()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackInvalidOwnerError(raw []byte) (*X402ExactPermit2ProxyInvalidOwner, error) {
	out := new(X402ExactPermit2ProxyInvalidOwner)
	if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, "InvalidOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402ExactPermit2ProxyInvalidPermit2Address represents a InvalidPermit2Address error raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxyInvalidPermit2Address struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidPermit2Address()
func X402ExactPermit2ProxyInvalidPermit2AddressErrorID() common.Hash {
	return common.HexToHash("0x59106c89c9b272a2d1f1659a6166b3441b4dd6dd32f75473f5484e8766f47110")
}

// UnpackInvalidPermit2AddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidPermit2Address()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackInvalidPermit2AddressError(raw []byte) (*X402ExactPermit2ProxyInvalidPermit2Address, error) {
	out := new(X402ExactPermit2ProxyInvalidPermit2Address)
	if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, "InvalidPermit2Address", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402ExactPermit2ProxyPaymentTooEarly represents a PaymentTooEarly error raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxyPaymentTooEarly struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error PaymentTooEarly()
func X402ExactPermit2ProxyPaymentTooEarlyErrorID() common.Hash {
	return common.HexToHash("0xa65539fa34358c9b74d7a9931e9f563c9c02f41d47fa53ce79e35e1cadee70d6")
}

// UnpackPaymentTooEarlyError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error PaymentTooEarly()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackPaymentTooEarlyError(raw []byte) (*X402ExactPermit2ProxyPaymentTooEarly, error) {
	out := new(X402ExactPermit2ProxyPaymentTooEarly)
	if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, "PaymentTooEarly", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402ExactPermit2ProxyPermit2612AmountMismatch represents a Permit2612AmountMismatch error raised by the X402ExactPermit2Proxy contract.
type X402ExactPermit2ProxyPermit2612AmountMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Permit2612AmountMismatch()
func X402ExactPermit2ProxyPermit2612AmountMismatchErrorID() common.Hash {
	return common.HexToHash("0x050cda497e70d136409d6ab7072a104828e2ffb4be43a59d07e1a5960d8cb9a3")
}

// UnpackPermit2612AmountMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Permit2612AmountMismatch()
func (x402ExactPermit2Proxy *X402ExactPermit2Proxy) UnpackPermit2612AmountMismatchError(raw []byte) (*X402ExactPermit2ProxyPermit2612AmountMismatch, error) {
	out := new(X402ExactPermit2ProxyPermit2612AmountMismatch)
	if err := x402ExactPermit2Proxy.abi.UnpackIntoInterface(out, "Permit2612AmountMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402SettlementMetaData contains all meta data concerning the X402Settlement contract.
var X402SettlementMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"tokens\",\"type\":\"address[]\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"requestHash\",\"type\":\"bytes32\"}],\"name\":\"AlreadySettled\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"}],\"name\":\"TokenNotAllowed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAmount\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroRequestHash\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Paused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"requestHash\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"payer\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"merchant\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Settled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"allowed\",\"type\":\"bool\"}],\"name\":\"TokenAllowed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"Unpaused\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"isSettled\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"isTokenAllowed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"paused\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"renounceOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"allowed\",\"type\":\"bool\"}],\"name\":\"setTokenAllowed\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"merchant\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"requestHash\",\"type\":\"bytes32\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"unpause\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "4246782d85969b7eacfc1aa5146fa4dafe",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161109138038061109183398101604081905261002e91610189565b61003733610086565b5f805460ff60a01b191681555b815181101561007f5761007782828151811061006257610062610253565b602002602001015160016100d560201b60201c565b600101610044565b5050610267565b5f80546001600160a01b038381166001600160a01b0319831681178455604051919092169283917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e09190a35050565b6001600160a01b0382166100fc5760405163d92e233d60e01b815260040160405180910390fd5b6001600160a01b0382165f81815260026020908152604091829020805460ff191685151590811790915591519182527f9a8e30a8658b96ab3f034ce4bac6806278b4aee5880ccdd1ac35e4ed5bb31d23910160405180910390a25050565b634e487b7160e01b5f52604160045260245ffd5b80516001600160a01b0381168114610184575f5ffd5b919050565b5f60208284031215610199575f5ffd5b81516001600160401b038111156101ae575f5ffd5b8201601f810184136101be575f5ffd5b80516001600160401b038111156101d7576101d761015a565b604051600582901b90603f8201601f191681016001600160401b03811182821017156102055761020561015a565b604052918252602081840181019290810187841115610222575f5ffd5b6020850194505b838510156102485761023a8561016e565b815260209485019401610229565b509695505050505050565b634e487b7160e01b5f52603260045260245ffd5b610e1d806102745f395ff3fe608060405234801561000f575f5ffd5b50600436106100b9575f3560e01c80638da5cb5b11610072578063d4729c7211610058578063d4729c7214610166578063f2fde38b14610179578063f9eaee0d1461018c575f5ffd5b80638da5cb5b1461011d578063bd07f3c914610144575f5ffd5b80635c975abb116100a25780635c975abb146100da578063715018a61461010d5780638456cb5914610115575f5ffd5b806315f69012146100bd5780633f4ba83a146100d2575b5f5ffd5b6100d06100cb366004610cb8565b6101ae565b005b6100d06101c4565b5f5474010000000000000000000000000000000000000000900460ff165b60405190151581526020015b60405180910390f35b6100d06101d6565b6100d06101e7565b5f5460405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610104565b6100f8610152366004610ced565b60016020525f908152604090205460ff1681565b6100d0610174366004610d04565b6101f7565b6100d0610187366004610d43565b61045b565b6100f861019a366004610d43565b60026020525f908152604090205460ff1681565b6101b6610512565b6101c08282610592565b5050565b6101cc610512565b6101d4610668565b565b6101de610512565b6101d45f6106e4565b6101ef610512565b6101d4610758565b6101ff6107c6565b73ffffffffffffffffffffffffffffffffffffffff84161580610236575073ffffffffffffffffffffffffffffffffffffffff8316155b1561026d576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b815f036102a6576040517f1f2a200500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b806102dd576040517f6f5990e300000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff83165f9081526002602052604090205460ff16610358576040517f94403b7000000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff841660048201526024015b60405180910390fd5b5f8181526001602052604090205460ff16156103a3576040517fb196a44a0000000000000000000000000000000000000000000000000000000081526004810182905260240161034f565b5f81815260016020819052604090912080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff001690911790556103fe73ffffffffffffffffffffffffffffffffffffffff841633868561084a565b6040805173ffffffffffffffffffffffffffffffffffffffff858116825260208201859052861691339184917ff9ce8733f4fe0b8d822b408e23a3fb9d57fb202f6fe87f52448ac12b52cb9fa9910160405180910390a450505050565b610463610512565b73ffffffffffffffffffffffffffffffffffffffff8116610506576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f4f776e61626c653a206e6577206f776e657220697320746865207a65726f206160448201527f6464726573730000000000000000000000000000000000000000000000000000606482015260840161034f565b61050f816106e4565b50565b5f5473ffffffffffffffffffffffffffffffffffffffff1633146101d4576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e6572604482015260640161034f565b73ffffffffffffffffffffffffffffffffffffffff82166105df576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82165f8181526002602090815260409182902080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff001685151590811790915591519182527f9a8e30a8658b96ab3f034ce4bac6806278b4aee5880ccdd1ac35e4ed5bb31d23910160405180910390a25050565b6106706108e5565b5f80547fffffffffffffffffffffff00ffffffffffffffffffffffffffffffffffffffff1690557f5db9ee0a495bf2e6ff9c91a7834c1ba4fdd244a5e8aa4e537bd38aeae4b073aa335b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200160405180910390a1565b5f805473ffffffffffffffffffffffffffffffffffffffff8381167fffffffffffffffffffffffff0000000000000000000000000000000000000000831681178455604051919092169283917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e09190a35050565b6107606107c6565b5f80547fffffffffffffffffffffff00ffffffffffffffffffffffffffffffffffffffff16740100000000000000000000000000000000000000001790557f62e78cea01bee320cd4e420270b5ea74000d11b0c9f74754ebdbfc544b05a2586106ba3390565b5f5474010000000000000000000000000000000000000000900460ff16156101d4576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601060248201527f5061757361626c653a2070617573656400000000000000000000000000000000604482015260640161034f565b6040805173ffffffffffffffffffffffffffffffffffffffff85811660248301528416604482015260648082018490528251808303909101815260849091019091526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167f23b872dd000000000000000000000000000000000000000000000000000000001790526108df908590610968565b50505050565b5f5474010000000000000000000000000000000000000000900460ff166101d4576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601460248201527f5061757361626c653a206e6f7420706175736564000000000000000000000000604482015260640161034f565b5f6109c9826040518060400160405280602081526020017f5361666545524332303a206c6f772d6c6576656c2063616c6c206661696c65648152508573ffffffffffffffffffffffffffffffffffffffff16610a7a9092919063ffffffff16565b905080515f14806109e95750808060200190518101906109e99190610d63565b610a75576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602a60248201527f5361666545524332303a204552433230206f7065726174696f6e20646964206e60448201527f6f74207375636365656400000000000000000000000000000000000000000000606482015260840161034f565b505050565b6060610a8884845f85610a90565b949350505050565b606082471015610b22576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152602660248201527f416464726573733a20696e73756666696369656e742062616c616e636520666f60448201527f722063616c6c0000000000000000000000000000000000000000000000000000606482015260840161034f565b5f5f8673ffffffffffffffffffffffffffffffffffffffff168587604051610b4a9190610d7e565b5f6040518083038185875af1925050503d805f8114610b84576040519150601f19603f3d011682016040523d82523d5f602084013e610b89565b606091505b5091509150610b9a87838387610ba5565b979650505050505050565b60608315610c3a5782515f03610c335773ffffffffffffffffffffffffffffffffffffffff85163b610c33576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f416464726573733a2063616c6c20746f206e6f6e2d636f6e7472616374000000604482015260640161034f565b5081610a88565b610a888383815115610c4f5781518083602001fd5b806040517f08c379a000000000000000000000000000000000000000000000000000000000815260040161034f9190610d94565b803573ffffffffffffffffffffffffffffffffffffffff81168114610ca6575f5ffd5b919050565b801515811461050f575f5ffd5b5f5f60408385031215610cc9575f5ffd5b610cd283610c83565b91506020830135610ce281610cab565b809150509250929050565b5f60208284031215610cfd575f5ffd5b5035919050565b5f5f5f5f60808587031215610d17575f5ffd5b610d2085610c83565b9350610d2e60208601610c83565b93969395505050506040820135916060013590565b5f60208284031215610d53575f5ffd5b610d5c82610c83565b9392505050565b5f60208284031215610d73575f5ffd5b8151610d5c81610cab565b5f82518060208501845e5f920191825250919050565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f8301168401019150509291505056fea2646970667358221220dfb49abb4ca6fa6897ffa3d73f5e21d03c5b6330b17a711015cb65b484eba4f964736f6c63430008250033",
}

// X402Settlement is an auto generated Go binding around an Ethereum contract.
type X402Settlement struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *X402Settlement) GetABI() abi.ABI {
	return c.abi
}

// NewX402Settlement creates a new instance of X402Settlement.
func NewX402Settlement() *X402Settlement {
	parsed, err := X402SettlementMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &X402Settlement{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *X402Settlement) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address[] tokens) returns()
func (x402Settlement *X402Settlement) PackConstructor(tokens []common.Address) []byte {
	enc, err := x402Settlement.abi.Pack("", tokens)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackIsSettled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbd07f3c9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isSettled(bytes32 ) view returns(bool)
func (x402Settlement *X402Settlement) PackIsSettled(arg0 [32]byte) []byte {
	enc, err := x402Settlement.abi.Pack("isSettled", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsSettled is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbd07f3c9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isSettled(bytes32 ) view returns(bool)
func (x402Settlement *X402Settlement) TryPackIsSettled(arg0 [32]byte) ([]byte, error) {
	return x402Settlement.abi.Pack("isSettled", arg0)
}

// UnpackIsSettled is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbd07f3c9.
//
// Solidity: function isSettled(bytes32 ) view returns(bool)
func (x402Settlement *X402Settlement) UnpackIsSettled(data []byte) (bool, error) {
	out, err := x402Settlement.abi.Unpack("isSettled", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsTokenAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf9eaee0d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isTokenAllowed(address ) view returns(bool)
func (x402Settlement *X402Settlement) PackIsTokenAllowed(arg0 common.Address) []byte {
	enc, err := x402Settlement.abi.Pack("isTokenAllowed", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsTokenAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf9eaee0d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isTokenAllowed(address ) view returns(bool)
func (x402Settlement *X402Settlement) TryPackIsTokenAllowed(arg0 common.Address) ([]byte, error) {
	return x402Settlement.abi.Pack("isTokenAllowed", arg0)
}

// UnpackIsTokenAllowed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xf9eaee0d.
//
// Solidity: function isTokenAllowed(address ) view returns(bool)
func (x402Settlement *X402Settlement) UnpackIsTokenAllowed(data []byte) (bool, error) {
	out, err := x402Settlement.abi.Unpack("isTokenAllowed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (x402Settlement *X402Settlement) PackOwner() []byte {
	enc, err := x402Settlement.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (x402Settlement *X402Settlement) TryPackOwner() ([]byte, error) {
	return x402Settlement.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (x402Settlement *X402Settlement) UnpackOwner(data []byte) (common.Address, error) {
	out, err := x402Settlement.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8456cb59.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pause() returns()
func (x402Settlement *X402Settlement) PackPause() []byte {
	enc, err := x402Settlement.abi.Pack("pause")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8456cb59.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pause() returns()
func (x402Settlement *X402Settlement) TryPackPause() ([]byte, error) {
	return x402Settlement.abi.Pack("pause")
}

// PackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function paused() view returns(bool)
func (x402Settlement *X402Settlement) PackPaused() []byte {
	enc, err := x402Settlement.abi.Pack("paused")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function paused() view returns(bool)
func (x402Settlement *X402Settlement) TryPackPaused() ([]byte, error) {
	return x402Settlement.abi.Pack("paused")
}

// UnpackPaused is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5c975abb.
//
// Solidity: function paused() view returns(bool)
func (x402Settlement *X402Settlement) UnpackPaused(data []byte) (bool, error) {
	out, err := x402Settlement.abi.Unpack("paused", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceOwnership() returns()
func (x402Settlement *X402Settlement) PackRenounceOwnership() []byte {
	enc, err := x402Settlement.abi.Pack("renounceOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceOwnership() returns()
func (x402Settlement *X402Settlement) TryPackRenounceOwnership() ([]byte, error) {
	return x402Settlement.abi.Pack("renounceOwnership")
}

// PackSetTokenAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x15f69012.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setTokenAllowed(address token, bool allowed) returns()
func (x402Settlement *X402Settlement) PackSetTokenAllowed(token common.Address, allowed bool) []byte {
	enc, err := x402Settlement.abi.Pack("setTokenAllowed", token, allowed)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetTokenAllowed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x15f69012.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setTokenAllowed(address token, bool allowed) returns()
func (x402Settlement *X402Settlement) TryPackSetTokenAllowed(token common.Address, allowed bool) ([]byte, error) {
	return x402Settlement.abi.Pack("setTokenAllowed", token, allowed)
}

// PackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd4729c72.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settle(address merchant, address token, uint256 amount, bytes32 requestHash) returns()
func (x402Settlement *X402Settlement) PackSettle(merchant common.Address, token common.Address, amount *big.Int, requestHash [32]byte) []byte {
	enc, err := x402Settlement.abi.Pack("settle", merchant, token, amount, requestHash)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd4729c72.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settle(address merchant, address token, uint256 amount, bytes32 requestHash) returns()
func (x402Settlement *X402Settlement) TryPackSettle(merchant common.Address, token common.Address, amount *big.Int, requestHash [32]byte) ([]byte, error) {
	return x402Settlement.abi.Pack("settle", merchant, token, amount, requestHash)
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (x402Settlement *X402Settlement) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := x402Settlement.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (x402Settlement *X402Settlement) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return x402Settlement.abi.Pack("transferOwnership", newOwner)
}

// PackUnpause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f4ba83a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function unpause() returns()
func (x402Settlement *X402Settlement) PackUnpause() []byte {
	enc, err := x402Settlement.abi.Pack("unpause")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUnpause is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3f4ba83a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function unpause() returns()
func (x402Settlement *X402Settlement) TryPackUnpause() ([]byte, error) {
	return x402Settlement.abi.Pack("unpause")
}

// X402SettlementOwnershipTransferred represents a OwnershipTransferred event raised by the X402Settlement contract.
type X402SettlementOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const X402SettlementOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (X402SettlementOwnershipTransferred) ContractEventName() string {
	return X402SettlementOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (x402Settlement *X402Settlement) UnpackOwnershipTransferredEvent(log *types.Log) (*X402SettlementOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402Settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402SettlementOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := x402Settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402Settlement.abi.Events[event].Inputs {
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

// X402SettlementPaused represents a Paused event raised by the X402Settlement contract.
type X402SettlementPaused struct {
	Account common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const X402SettlementPausedEventName = "Paused"

// ContractEventName returns the user-defined event name.
func (X402SettlementPaused) ContractEventName() string {
	return X402SettlementPausedEventName
}

// UnpackPausedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Paused(address account)
func (x402Settlement *X402Settlement) UnpackPausedEvent(log *types.Log) (*X402SettlementPaused, error) {
	event := "Paused"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402Settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402SettlementPaused)
	if len(log.Data) > 0 {
		if err := x402Settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402Settlement.abi.Events[event].Inputs {
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

// X402SettlementSettled represents a Settled event raised by the X402Settlement contract.
type X402SettlementSettled struct {
	RequestHash [32]byte
	Payer       common.Address
	Merchant    common.Address
	Token       common.Address
	Amount      *big.Int
	Raw         *types.Log // Blockchain specific contextual infos
}

const X402SettlementSettledEventName = "Settled"

// ContractEventName returns the user-defined event name.
func (X402SettlementSettled) ContractEventName() string {
	return X402SettlementSettledEventName
}

// UnpackSettledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Settled(bytes32 indexed requestHash, address indexed payer, address indexed merchant, address token, uint256 amount)
func (x402Settlement *X402Settlement) UnpackSettledEvent(log *types.Log) (*X402SettlementSettled, error) {
	event := "Settled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402Settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402SettlementSettled)
	if len(log.Data) > 0 {
		if err := x402Settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402Settlement.abi.Events[event].Inputs {
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

// X402SettlementTokenAllowed represents a TokenAllowed event raised by the X402Settlement contract.
type X402SettlementTokenAllowed struct {
	Token   common.Address
	Allowed bool
	Raw     *types.Log // Blockchain specific contextual infos
}

const X402SettlementTokenAllowedEventName = "TokenAllowed"

// ContractEventName returns the user-defined event name.
func (X402SettlementTokenAllowed) ContractEventName() string {
	return X402SettlementTokenAllowedEventName
}

// UnpackTokenAllowedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event TokenAllowed(address indexed token, bool allowed)
func (x402Settlement *X402Settlement) UnpackTokenAllowedEvent(log *types.Log) (*X402SettlementTokenAllowed, error) {
	event := "TokenAllowed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402Settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402SettlementTokenAllowed)
	if len(log.Data) > 0 {
		if err := x402Settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402Settlement.abi.Events[event].Inputs {
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

// X402SettlementUnpaused represents a Unpaused event raised by the X402Settlement contract.
type X402SettlementUnpaused struct {
	Account common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const X402SettlementUnpausedEventName = "Unpaused"

// ContractEventName returns the user-defined event name.
func (X402SettlementUnpaused) ContractEventName() string {
	return X402SettlementUnpausedEventName
}

// UnpackUnpausedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Unpaused(address account)
func (x402Settlement *X402Settlement) UnpackUnpausedEvent(log *types.Log) (*X402SettlementUnpaused, error) {
	event := "Unpaused"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402Settlement.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402SettlementUnpaused)
	if len(log.Data) > 0 {
		if err := x402Settlement.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402Settlement.abi.Events[event].Inputs {
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
func (x402Settlement *X402Settlement) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], x402Settlement.abi.Errors["AlreadySettled"].ID.Bytes()[:4]) {
		return x402Settlement.UnpackAlreadySettledError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402Settlement.abi.Errors["TokenNotAllowed"].ID.Bytes()[:4]) {
		return x402Settlement.UnpackTokenNotAllowedError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402Settlement.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return x402Settlement.UnpackZeroAddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402Settlement.abi.Errors["ZeroAmount"].ID.Bytes()[:4]) {
		return x402Settlement.UnpackZeroAmountError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402Settlement.abi.Errors["ZeroRequestHash"].ID.Bytes()[:4]) {
		return x402Settlement.UnpackZeroRequestHashError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// X402SettlementAlreadySettled represents a AlreadySettled error raised by the X402Settlement contract.
type X402SettlementAlreadySettled struct {
	RequestHash [32]byte
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AlreadySettled(bytes32 requestHash)
func X402SettlementAlreadySettledErrorID() common.Hash {
	return common.HexToHash("0xb196a44a365168bc3e1ae2c1014617dc39aff01f0da4be83e6808ad8c8b8200d")
}

// UnpackAlreadySettledError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AlreadySettled(bytes32 requestHash)
func (x402Settlement *X402Settlement) UnpackAlreadySettledError(raw []byte) (*X402SettlementAlreadySettled, error) {
	out := new(X402SettlementAlreadySettled)
	if err := x402Settlement.abi.UnpackIntoInterface(out, "AlreadySettled", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402SettlementTokenNotAllowed represents a TokenNotAllowed error raised by the X402Settlement contract.
type X402SettlementTokenNotAllowed struct {
	Token common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TokenNotAllowed(address token)
func X402SettlementTokenNotAllowedErrorID() common.Hash {
	return common.HexToHash("0x94403b7099477045d56a4ad621224a9a16fcb7e4b0d02e508215a9bf747a12d4")
}

// UnpackTokenNotAllowedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TokenNotAllowed(address token)
func (x402Settlement *X402Settlement) UnpackTokenNotAllowedError(raw []byte) (*X402SettlementTokenNotAllowed, error) {
	out := new(X402SettlementTokenNotAllowed)
	if err := x402Settlement.abi.UnpackIntoInterface(out, "TokenNotAllowed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402SettlementZeroAddress represents a ZeroAddress error raised by the X402Settlement contract.
type X402SettlementZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func X402SettlementZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (x402Settlement *X402Settlement) UnpackZeroAddressError(raw []byte) (*X402SettlementZeroAddress, error) {
	out := new(X402SettlementZeroAddress)
	if err := x402Settlement.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402SettlementZeroAmount represents a ZeroAmount error raised by the X402Settlement contract.
type X402SettlementZeroAmount struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAmount()
func X402SettlementZeroAmountErrorID() common.Hash {
	return common.HexToHash("0x1f2a2005cb66a8e145327e8814e243a0996aec9bfe1e15a495778b1236dbd485")
}

// UnpackZeroAmountError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAmount()
func (x402Settlement *X402Settlement) UnpackZeroAmountError(raw []byte) (*X402SettlementZeroAmount, error) {
	out := new(X402SettlementZeroAmount)
	if err := x402Settlement.abi.UnpackIntoInterface(out, "ZeroAmount", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402SettlementZeroRequestHash represents a ZeroRequestHash error raised by the X402Settlement contract.
type X402SettlementZeroRequestHash struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroRequestHash()
func X402SettlementZeroRequestHashErrorID() common.Hash {
	return common.HexToHash("0x6f5990e3af4b3989d883096a149dd506e3173b3982dd49ec3e486981c5261f53")
}

// UnpackZeroRequestHashError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroRequestHash()
func (x402Settlement *X402Settlement) UnpackZeroRequestHashError(raw []byte) (*X402SettlementZeroRequestHash, error) {
	out := new(X402SettlementZeroRequestHash)
	if err := x402Settlement.abi.UnpackIntoInterface(out, "ZeroRequestHash", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402UptoPermit2ProxyMetaData contains all meta data concerning the X402UptoPermit2Proxy contract.
var X402UptoPermit2ProxyMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"AmountExceedsPermitted\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidDestination\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidPermit2Address\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"PaymentTooEarly\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Permit2612AmountMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"UnauthorizedFacilitator\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"Settled\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[],\"name\":\"SettledWithPermit\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"PERMIT2\",\"outputs\":[{\"internalType\":\"contractPermit2\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WITNESS_TYPEHASH\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"WITNESS_TYPE_STRING\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.TokenPermissions\",\"name\":\"permitted\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.PermitTransferFrom\",\"name\":\"permit\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"facilitator\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"}],\"internalType\":\"structX402UptoPermit2Proxy.Witness\",\"name\":\"witness\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"settle\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"}],\"internalType\":\"structX402Permit2Proxy.EIP2612Permit\",\"name\":\"permit2612\",\"type\":\"tuple\"},{\"components\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.TokenPermissions\",\"name\":\"permitted\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"nonce\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"}],\"internalType\":\"structPermit2.PermitTransferFrom\",\"name\":\"permit\",\"type\":\"tuple\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"components\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"facilitator\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"validAfter\",\"type\":\"uint256\"}],\"internalType\":\"structX402UptoPermit2Proxy.Witness\",\"name\":\"witness\",\"type\":\"tuple\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"settleWithPermit\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "ec619e287623ae3867bc039692b9cb76d1",
	Bin: "0x6080604052348015600e575f5ffd5b5060015f55610a8f806100205f395ff3fe608060405234801561000f575f5ffd5b5060043610610064575f3560e01c80632c03ae6a1161004d5780632c03ae6a1461009b5780636afdd850146100d0578063ff11e7b41461010b575f5ffd5b8063016c174814610068578063156e21521461007d575b5f5ffd5b61007b610076366004610720565b61011e565b005b61008561018a565b6040516100929190610804565b60405180910390f35b6100c27fd4171c445a74218b01d4fd8af34ff1106580ea1e36ff837e64484bfaa2253b7581565b604051908152602001610092565b6100e66e22d473030f116ddee9f6b43ac78ba381565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610092565b61007b61011936600461081d565b6101a6565b6101266101f5565b610142610136602088018861089b565b858960208a013561026a565b610150868686868686610394565b6040517fde5b89d10fc800c459329c382fabfcad0be0ed7e5328e01fae04e507b09ef5d8905f90a161018160015f55565b50505050505050565b6040518060a00160405280607881526020016109e26078913981565b6101ae6101f5565b6101bc868686868686610394565b6040517f97088ec3606cfe8cc112180570d03fcde05f9b8e1bfef8e27784eaf5dd5691b6905f90a16101ed60015f55565b505050505050565b60025f5403610264576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015260640160405180910390fd5b60025f55565b813581146102a4576040517f050cda4900000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff841663d505accf846e22d473030f116ddee9f6b43ac78ba3853560208701356102e860a0890160808a016108b4565b604080517fffffffff0000000000000000000000000000000000000000000000000000000060e089901b16815273ffffffffffffffffffffffffffffffffffffffff96871660048201529590941660248601526044850192909252606484015260ff16608483015285013560a4820152606085013560c482015260e4015f604051808303815f87803b15801561037c575f5ffd5b505af192505050801561038d575060015b5050505050565b6103a4604084016020850161089b565b73ffffffffffffffffffffffffffffffffffffffff163373ffffffffffffffffffffffffffffffffffffffff1614610408576040517f0f6fae8700000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6020860135851115610446576040517ffe64b4c700000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b61046184610457602086018661089b565b85604001356105b4565b604080518082019091526e22d473030f116ddee9f6b43ac78ba39063137c29fe90889080610492602089018961089b565b73ffffffffffffffffffffffffffffffffffffffff16815260209081018a905288907fd4171c445a74218b01d4fd8af34ff1106580ea1e36ff837e64484bfaa2253b75906104e2908a018a61089b565b6104f260408b0160208c0161089b565b60408051602081019490945273ffffffffffffffffffffffffffffffffffffffff9283168482015291166060830152890135608082015260a001604051602081830303815290604052805190602001206040518060a00160405280607881526020016109e26078913988886040518863ffffffff1660e01b815260040161057f979695949392919061091b565b5f604051808303815f87803b158015610596575f5ffd5b505af11580156105a8573d5f5f3e3d5ffd5b50505050505050505050565b73ffffffffffffffffffffffffffffffffffffffff8316610601576040517f49e27cff00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff821661064e576040517fac6b05f500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b80421015610688576040517fa65539fa00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505050565b5f6080828403121561069d575f5ffd5b50919050565b803573ffffffffffffffffffffffffffffffffffffffff811681146106c6575f5ffd5b919050565b5f6060828403121561069d575f5ffd5b5f5f83601f8401126106eb575f5ffd5b50813567ffffffffffffffff811115610702575f5ffd5b602083019150836020828501011115610719575f5ffd5b9250929050565b5f5f5f5f5f5f5f8789036101e0811215610738575f5ffd5b60a0811215610745575f5ffd5b508796506107568960a08a0161068d565b9550610120880135945061076d61014089016106a3565b935061077d896101608a016106cb565b92506101c088013567ffffffffffffffff811115610799575f5ffd5b6107a58a828b016106db565b989b979a50959850939692959293505050565b5f81518084528060208401602086015e5f6020828601015260207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011685010191505092915050565b602081525f61081660208301846107b8565b9392505050565b5f5f5f5f5f5f6101408789031215610833575f5ffd5b61083d888861068d565b95506080870135945061085260a088016106a3565b93506108618860c089016106cb565b925061012087013567ffffffffffffffff81111561087d575f5ffd5b61088989828a016106db565b979a9699509497509295939492505050565b5f602082840312156108ab575f5ffd5b610816826106a3565b5f602082840312156108c4575f5ffd5b813560ff81168114610816575f5ffd5b81835281816020850137505f602082840101525f60207fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f840116840101905092915050565b73ffffffffffffffffffffffffffffffffffffffff610939896106a3565b168152602088810135818301526040808a0135908301526060808a013590830152875173ffffffffffffffffffffffffffffffffffffffff16608083015287015160a08201525f6109a260c083018873ffffffffffffffffffffffffffffffffffffffff169052565b8560e08301526101406101008301526109bf6101408301866107b8565b8281036101208401526109d38185876108d4565b9a995050505050505050505056fe5769746e657373207769746e65737329546f6b656e5065726d697373696f6e73286164647265737320746f6b656e2c75696e7432353620616d6f756e74295769746e657373286164647265737320746f2c6164647265737320666163696c697461746f722c75696e743235362076616c6964416674657229a26469706673582212205ea1a82e194f933717209dfb2aa125da10849354423db3f19a1619872b4e008b64736f6c63430008250033",
}

// X402UptoPermit2Proxy is an auto generated Go binding around an Ethereum contract.
type X402UptoPermit2Proxy struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *X402UptoPermit2Proxy) GetABI() abi.ABI {
	return c.abi
}

// NewX402UptoPermit2Proxy creates a new instance of X402UptoPermit2Proxy.
func NewX402UptoPermit2Proxy() *X402UptoPermit2Proxy {
	parsed, err := X402UptoPermit2ProxyMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &X402UptoPermit2Proxy{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *X402UptoPermit2Proxy) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackPERMIT2 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6afdd850.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function PERMIT2() view returns(address)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) PackPERMIT2() []byte {
	enc, err := x402UptoPermit2Proxy.abi.Pack("PERMIT2")
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
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) TryPackPERMIT2() ([]byte, error) {
	return x402UptoPermit2Proxy.abi.Pack("PERMIT2")
}

// UnpackPERMIT2 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6afdd850.
//
// Solidity: function PERMIT2() view returns(address)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackPERMIT2(data []byte) (common.Address, error) {
	out, err := x402UptoPermit2Proxy.abi.Unpack("PERMIT2", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackWITNESSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2c03ae6a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function WITNESS_TYPEHASH() view returns(bytes32)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) PackWITNESSTYPEHASH() []byte {
	enc, err := x402UptoPermit2Proxy.abi.Pack("WITNESS_TYPEHASH")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWITNESSTYPEHASH is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2c03ae6a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function WITNESS_TYPEHASH() view returns(bytes32)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) TryPackWITNESSTYPEHASH() ([]byte, error) {
	return x402UptoPermit2Proxy.abi.Pack("WITNESS_TYPEHASH")
}

// UnpackWITNESSTYPEHASH is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x2c03ae6a.
//
// Solidity: function WITNESS_TYPEHASH() view returns(bytes32)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackWITNESSTYPEHASH(data []byte) ([32]byte, error) {
	out, err := x402UptoPermit2Proxy.abi.Unpack("WITNESS_TYPEHASH", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x156e2152.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) PackWITNESSTYPESTRING() []byte {
	enc, err := x402UptoPermit2Proxy.abi.Pack("WITNESS_TYPE_STRING")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWITNESSTYPESTRING is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x156e2152.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) TryPackWITNESSTYPESTRING() ([]byte, error) {
	return x402UptoPermit2Proxy.abi.Pack("WITNESS_TYPE_STRING")
}

// UnpackWITNESSTYPESTRING is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x156e2152.
//
// Solidity: function WITNESS_TYPE_STRING() view returns(string)
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackWITNESSTYPESTRING(data []byte) (string, error) {
	out, err := x402UptoPermit2Proxy.abi.Unpack("WITNESS_TYPE_STRING", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xff11e7b4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settle(((address,uint256),uint256,uint256) permit, uint256 amount, address owner, (address,address,uint256) witness, bytes signature) returns()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) PackSettle(permit Permit2PermitTransferFrom, amount *big.Int, owner common.Address, witness X402UptoPermit2ProxyWitness, signature []byte) []byte {
	enc, err := x402UptoPermit2Proxy.abi.Pack("settle", permit, amount, owner, witness, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettle is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xff11e7b4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settle(((address,uint256),uint256,uint256) permit, uint256 amount, address owner, (address,address,uint256) witness, bytes signature) returns()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) TryPackSettle(permit Permit2PermitTransferFrom, amount *big.Int, owner common.Address, witness X402UptoPermit2ProxyWitness, signature []byte) ([]byte, error) {
	return x402UptoPermit2Proxy.abi.Pack("settle", permit, amount, owner, witness, signature)
}

// PackSettleWithPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x016c1748.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function settleWithPermit((uint256,uint256,bytes32,bytes32,uint8) permit2612, ((address,uint256),uint256,uint256) permit, uint256 amount, address owner, (address,address,uint256) witness, bytes signature) returns()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) PackSettleWithPermit(permit2612 X402Permit2ProxyEIP2612Permit, permit Permit2PermitTransferFrom, amount *big.Int, owner common.Address, witness X402UptoPermit2ProxyWitness, signature []byte) []byte {
	enc, err := x402UptoPermit2Proxy.abi.Pack("settleWithPermit", permit2612, permit, amount, owner, witness, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSettleWithPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x016c1748.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function settleWithPermit((uint256,uint256,bytes32,bytes32,uint8) permit2612, ((address,uint256),uint256,uint256) permit, uint256 amount, address owner, (address,address,uint256) witness, bytes signature) returns()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) TryPackSettleWithPermit(permit2612 X402Permit2ProxyEIP2612Permit, permit Permit2PermitTransferFrom, amount *big.Int, owner common.Address, witness X402UptoPermit2ProxyWitness, signature []byte) ([]byte, error) {
	return x402UptoPermit2Proxy.abi.Pack("settleWithPermit", permit2612, permit, amount, owner, witness, signature)
}

// X402UptoPermit2ProxySettled represents a Settled event raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxySettled struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const X402UptoPermit2ProxySettledEventName = "Settled"

// ContractEventName returns the user-defined event name.
func (X402UptoPermit2ProxySettled) ContractEventName() string {
	return X402UptoPermit2ProxySettledEventName
}

// UnpackSettledEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Settled()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackSettledEvent(log *types.Log) (*X402UptoPermit2ProxySettled, error) {
	event := "Settled"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402UptoPermit2Proxy.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402UptoPermit2ProxySettled)
	if len(log.Data) > 0 {
		if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402UptoPermit2Proxy.abi.Events[event].Inputs {
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

// X402UptoPermit2ProxySettledWithPermit represents a SettledWithPermit event raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxySettledWithPermit struct {
	Raw *types.Log // Blockchain specific contextual infos
}

const X402UptoPermit2ProxySettledWithPermitEventName = "SettledWithPermit"

// ContractEventName returns the user-defined event name.
func (X402UptoPermit2ProxySettledWithPermit) ContractEventName() string {
	return X402UptoPermit2ProxySettledWithPermitEventName
}

// UnpackSettledWithPermitEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SettledWithPermit()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackSettledWithPermitEvent(log *types.Log) (*X402UptoPermit2ProxySettledWithPermit, error) {
	event := "SettledWithPermit"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != x402UptoPermit2Proxy.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(X402UptoPermit2ProxySettledWithPermit)
	if len(log.Data) > 0 {
		if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range x402UptoPermit2Proxy.abi.Events[event].Inputs {
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
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], x402UptoPermit2Proxy.abi.Errors["AmountExceedsPermitted"].ID.Bytes()[:4]) {
		return x402UptoPermit2Proxy.UnpackAmountExceedsPermittedError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402UptoPermit2Proxy.abi.Errors["InvalidDestination"].ID.Bytes()[:4]) {
		return x402UptoPermit2Proxy.UnpackInvalidDestinationError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402UptoPermit2Proxy.abi.Errors["InvalidOwner"].ID.Bytes()[:4]) {
		return x402UptoPermit2Proxy.UnpackInvalidOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402UptoPermit2Proxy.abi.Errors["InvalidPermit2Address"].ID.Bytes()[:4]) {
		return x402UptoPermit2Proxy.UnpackInvalidPermit2AddressError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402UptoPermit2Proxy.abi.Errors["PaymentTooEarly"].ID.Bytes()[:4]) {
		return x402UptoPermit2Proxy.UnpackPaymentTooEarlyError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402UptoPermit2Proxy.abi.Errors["Permit2612AmountMismatch"].ID.Bytes()[:4]) {
		return x402UptoPermit2Proxy.UnpackPermit2612AmountMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], x402UptoPermit2Proxy.abi.Errors["UnauthorizedFacilitator"].ID.Bytes()[:4]) {
		return x402UptoPermit2Proxy.UnpackUnauthorizedFacilitatorError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// X402UptoPermit2ProxyAmountExceedsPermitted represents a AmountExceedsPermitted error raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxyAmountExceedsPermitted struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AmountExceedsPermitted()
func X402UptoPermit2ProxyAmountExceedsPermittedErrorID() common.Hash {
	return common.HexToHash("0xfe64b4c79c64499c7b848a8b3ba618f45c6f9ef21365d5d7e24aeb3ff041c552")
}

// UnpackAmountExceedsPermittedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AmountExceedsPermitted()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackAmountExceedsPermittedError(raw []byte) (*X402UptoPermit2ProxyAmountExceedsPermitted, error) {
	out := new(X402UptoPermit2ProxyAmountExceedsPermitted)
	if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, "AmountExceedsPermitted", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402UptoPermit2ProxyInvalidDestination represents a InvalidDestination error raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxyInvalidDestination struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidDestination()
func X402UptoPermit2ProxyInvalidDestinationErrorID() common.Hash {
	return common.HexToHash("0xac6b05f542ae1b66b4b43710bf4773616692aad79ee0fe8cb9c5db0f38dd0764")
}

// UnpackInvalidDestinationError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidDestination()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackInvalidDestinationError(raw []byte) (*X402UptoPermit2ProxyInvalidDestination, error) {
	out := new(X402UptoPermit2ProxyInvalidDestination)
	if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, "InvalidDestination", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402UptoPermit2ProxyInvalidOwner represents a InvalidOwner error raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxyInvalidOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidOwner()
func X402UptoPermit2ProxyInvalidOwnerErrorID() common.Hash {
	return common.HexToHash("0x49e27cffb37b1ca4a9bf5318243b2014d13f940af232b8552c208bdea15739da")
}

// UnpackInvalidOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidOwner()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackInvalidOwnerError(raw []byte) (*X402UptoPermit2ProxyInvalidOwner, error) {
	out := new(X402UptoPermit2ProxyInvalidOwner)
	if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, "InvalidOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402UptoPermit2ProxyInvalidPermit2Address represents a InvalidPermit2Address error raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxyInvalidPermit2Address struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidPermit2Address()
func X402UptoPermit2ProxyInvalidPermit2AddressErrorID() common.Hash {
	return common.HexToHash("0x59106c89c9b272a2d1f1659a6166b3441b4dd6dd32f75473f5484e8766f47110")
}

// UnpackInvalidPermit2AddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidPermit2Address()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackInvalidPermit2AddressError(raw []byte) (*X402UptoPermit2ProxyInvalidPermit2Address, error) {
	out := new(X402UptoPermit2ProxyInvalidPermit2Address)
	if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, "InvalidPermit2Address", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402UptoPermit2ProxyPaymentTooEarly represents a PaymentTooEarly error raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxyPaymentTooEarly struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error PaymentTooEarly()
func X402UptoPermit2ProxyPaymentTooEarlyErrorID() common.Hash {
	return common.HexToHash("0xa65539fa34358c9b74d7a9931e9f563c9c02f41d47fa53ce79e35e1cadee70d6")
}

// UnpackPaymentTooEarlyError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error PaymentTooEarly()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackPaymentTooEarlyError(raw []byte) (*X402UptoPermit2ProxyPaymentTooEarly, error) {
	out := new(X402UptoPermit2ProxyPaymentTooEarly)
	if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, "PaymentTooEarly", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402UptoPermit2ProxyPermit2612AmountMismatch represents a Permit2612AmountMismatch error raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxyPermit2612AmountMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Permit2612AmountMismatch()
func X402UptoPermit2ProxyPermit2612AmountMismatchErrorID() common.Hash {
	return common.HexToHash("0x050cda497e70d136409d6ab7072a104828e2ffb4be43a59d07e1a5960d8cb9a3")
}

// UnpackPermit2612AmountMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Permit2612AmountMismatch()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackPermit2612AmountMismatchError(raw []byte) (*X402UptoPermit2ProxyPermit2612AmountMismatch, error) {
	out := new(X402UptoPermit2ProxyPermit2612AmountMismatch)
	if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, "Permit2612AmountMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// X402UptoPermit2ProxyUnauthorizedFacilitator represents a UnauthorizedFacilitator error raised by the X402UptoPermit2Proxy contract.
type X402UptoPermit2ProxyUnauthorizedFacilitator struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error UnauthorizedFacilitator()
func X402UptoPermit2ProxyUnauthorizedFacilitatorErrorID() common.Hash {
	return common.HexToHash("0x0f6fae871871fa0fd46c599941c98ffc4031e3ee5fe33675d627b18699e5ae52")
}

// UnpackUnauthorizedFacilitatorError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error UnauthorizedFacilitator()
func (x402UptoPermit2Proxy *X402UptoPermit2Proxy) UnpackUnauthorizedFacilitatorError(raw []byte) (*X402UptoPermit2ProxyUnauthorizedFacilitator, error) {
	out := new(X402UptoPermit2ProxyUnauthorizedFacilitator)
	if err := x402UptoPermit2Proxy.abi.UnpackIntoInterface(out, "UnauthorizedFacilitator", raw); err != nil {
		return nil, err
	}
	return out, nil
}

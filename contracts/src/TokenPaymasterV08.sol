// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {BasePaymaster} from "@account-abstraction/contracts-v08/core/BasePaymaster.sol";
import {IEntryPoint} from "@account-abstraction/contracts-v08/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts-v08/interfaces/PackedUserOperation.sol";
import {Eip7702Support} from "@account-abstraction/contracts-v08/core/Eip7702Support.sol";
import {UserOperationLib} from "@account-abstraction/contracts-v08/core/UserOperationLib.sol";
import {_packValidationData} from "@account-abstraction/contracts-v08/core/Helpers.sol";
import {IERC20} from "@openzeppelin/contracts-v51/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts-v51/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts-v51/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts-v51/utils/cryptography/MessageHashUtils.sol";
import {Math} from "@openzeppelin/contracts-v51/utils/math/Math.sol";

/// @title TokenPaymasterV08
/// @notice caddy-x402's ERC-4337 v0.8 paymaster for gas paid in an ERC-20
/// token: TokenPaymaster's terms and modes, for EntryPoint v0.8. The
/// off-chain paymaster service signs, for one operation, the token, its
/// exchange rate and the paymaster's two gas limits.
///  - 1 (prepay): validation takes the operation's maximum cost in tokens
///    from the sender; postOp refunds what was not used. Validation's
///    transfer stands whatever happens after, so the deposit is always
///    covered.
///  - 2 (postpay): validation checks that the sender's balance and its
///    allowance cover the maximum cost; postOp takes the actual cost. If
///    the operation spent the tokens or revoked the allowance, postOp
///    reverts and EntryPoint v0.8, which never calls postOp twice, undoes
///    the operation's call and pays its gas from the deposit. Mode 2 on
///    v0.8 therefore carries a bounded exposure, which the off-chain
///    service holds against the project's balance until the operation lands
///    (and charges it if no GasPaidInToken followed).
/// Every transfer to this paymaster (mode 1's in validation, mode 2's in
/// postOp) is measured by this paymaster's balance before and after it: a
/// token that delivers less than it was asked to send (a fee on transfer,
/// switched on at any time) makes it revert, so the operation is refused
/// (mode 1) or postOp fails as when the payer cannot pay (mode 2).
/// It is TokenPaymasterV07 built on the v0.8 contracts (OpenZeppelin 5.1):
/// the same terms, paymasterAndData and getHash (an EIP-7702 marker hashed
/// padded to 20 bytes, however it is packed), so one Go encoding serves
/// both; the chain id and this paymaster's address in getHash keep a
/// signature for one from being replayed on the other.
/// @dev paymasterAndData, 182 bytes, packed:
///   [0:20] this paymaster, [20:36] paymasterVerificationGasLimit,
///   [36:52] paymasterPostOpGasLimit (both uint128, signed),
///   [52] mode (1 or 2), [53:73] token, [73:79] validUntil (uint48),
///   [79:85] validAfter (uint48), [85:117] rate (uint256: token units per
///   1e18 wei, markup included), [117:182] signature of the signer over
///   getHash (EIP-191).
/// The token cost of an operation is ceil(gasCost * rate / 1e18), where
/// gasCost is the actualGasCost the EntryPoint hands postOp plus, at the
/// operation's gas price, postOp's own gas (the POST_OP_GAS constants) and
/// an upper bound of the EntryPoint's penalty for unused execution gas
/// (10% of the call and postOp limits left unused; the account's unused
/// verification gas is counted as used by the call, which makes the bound
/// high by at most a tenth of it). It never exceeds the maximum taken or
/// checked in validation.
contract TokenPaymasterV08 is BasePaymaster {
    using SafeERC20 for IERC20;
    using UserOperationLib for PackedUserOperation;

    /// @notice Mode 1: the maximum cost is taken in validation, the rest
    /// refunded in postOp.
    uint8 public constant MODE_PREPAY = 1;
    /// @notice Mode 2: the actual cost is taken in postOp.
    uint8 public constant MODE_POSTPAY = 2;
    /// @notice Gas charged for postOp itself in mode 1 (a refund between
    /// two balances validation warmed).
    uint256 public constant POST_OP_GAS_PREPAY = 20000;
    /// @notice Gas charged for postOp itself in mode 2 (a transferFrom that
    /// writes the allowance and the paymaster's balance).
    uint256 public constant POST_OP_GAS_POSTPAY = 45000;
    /// @notice The EntryPoint's penalty on unused execution gas, percent.
    uint256 public constant PENALTY_PERCENT = 10;

    uint256 private constant TERMS_OFFSET = 52; // UserOperationLib.PAYMASTER_DATA_OFFSET
    uint256 private constant DATA_LENGTH = 182;

    /// @notice The key whose signature authorizes an operation, its token,
    /// its rate and the paymaster's gas limits.
    address public immutable verifyingSigner;

    /// @notice Gas of the operation userOpHash was paid in tokens. gasCost
    /// is the wei charged (see the contract's notes), tokenCost the tokens
    /// kept for it.
    event GasPaidInToken(
        bytes32 indexed userOpHash,
        address indexed sender,
        address indexed token,
        uint8 mode,
        uint256 rate,
        uint256 gasCost,
        uint256 tokenCost
    );

    /// @dev What postOp needs of validation.
    struct Context {
        uint8 mode;
        address token;
        address sender;
        bytes32 userOpHash;
        uint256 rate;
        uint256 maxTokens;
        uint256 preOpGasLimit;
        uint256 executionGasLimit;
    }

    constructor(IEntryPoint anEntryPoint, address signer) BasePaymaster(anEntryPoint) {
        verifyingSigner = signer;
    }

    /// @notice The hash the signer signs (as an Ethereum signed message) to
    /// let op pay its gas in token at rate within [validAfter, validUntil].
    /// It covers every field of op but the paymaster's data and the
    /// signature, the paymaster's two gas limits, the chain, this paymaster
    /// and the terms.
    function getHash(
        PackedUserOperation calldata op,
        uint8 mode,
        address token,
        uint256 rate,
        uint48 validUntil,
        uint48 validAfter
    ) public view returns (bytes32) {
        bytes32 opHash = keccak256(
            abi.encode(
                op.sender,
                op.nonce,
                _initCodeHash(op.initCode),
                keccak256(op.callData),
                op.accountGasLimits,
                uint256(bytes32(op.paymasterAndData[20:TERMS_OFFSET])),
                op.preVerificationGas,
                op.gasFees
            )
        );
        return keccak256(abi.encode(opHash, block.chainid, address(this), mode, token, rate, validUntil, validAfter));
    }

    /// @notice Splits paymasterAndData into its terms and signature.
    function decodeTerms(bytes calldata data)
        public
        pure
        returns (uint8 mode, address token, uint48 validUntil, uint48 validAfter, uint256 rate, bytes calldata signature)
    {
        require(data.length == DATA_LENGTH, "TokenPaymasterV08: paymasterAndData must be 182 bytes");
        mode = uint8(data[52]);
        token = address(bytes20(data[53:73]));
        validUntil = uint48(bytes6(data[73:79]));
        validAfter = uint48(bytes6(data[79:85]));
        rate = uint256(bytes32(data[85:117]));
        signature = data[117:182];
    }

    /// @notice The tokens gas of gasCost wei costs at rate, rounded up.
    function tokenCost(uint256 gasCost, uint256 rate) public pure returns (uint256) {
        return Math.mulDiv(gasCost, rate, 1e18, Math.Rounding.Ceil);
    }

    /// @notice The gas charged for an operation in mode on top of the
    /// actualGasCost handed to postOp: postOp's own gas and the bound of
    /// the EntryPoint's penalty. usedGas is actualGasCost over the gas
    /// price; preOpGasLimit and executionGasLimit are the operation's.
    function addedGas(uint8 mode, uint256 usedGas, uint256 preOpGasLimit, uint256 executionGasLimit)
        public
        pure
        returns (uint256)
    {
        uint256 postGas = mode == MODE_PREPAY ? POST_OP_GAS_PREPAY : POST_OP_GAS_POSTPAY;
        // Gas the EntryPoint counts as execution: what was used past the
        // verification limits, with postOp's. Low when verification used
        // less than its limits, which makes the penalty's bound high.
        uint256 used = usedGas + postGas;
        uint256 executed = used > preOpGasLimit ? used - preOpGasLimit : 0;
        uint256 penalty = executionGasLimit > executed ? (executionGasLimit - executed) * PENALTY_PERCENT / 100 : 0;
        return postGas + penalty;
    }

    /// @notice Sends collected tokens to `to`.
    function withdrawToken(IERC20 token, address to, uint256 amount) external onlyOwner {
        token.safeTransfer(to, amount);
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata op, bytes32 userOpHash, uint256 maxCost)
        internal
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint8 mode, address token, uint256 rate, uint256 window, bool signed) = _checkTerms(op);
        if (!signed) {
            return ("", window | 1);
        }
        return (_take(op, userOpHash, mode, token, rate, maxCost), window);
    }

    /// @dev The terms of op's paymasterAndData, its validity window as
    /// validation data (without the failure bit), and whether the signer
    /// signed them.
    function _checkTerms(PackedUserOperation calldata op)
        private
        view
        returns (uint8 mode, address token, uint256 rate, uint256 window, bool signed)
    {
        uint48 validUntil;
        uint48 validAfter;
        bytes calldata signature;
        (mode, token, validUntil, validAfter, rate, signature) = decodeTerms(op.paymasterAndData);
        window = _packValidationData(false, validUntil, validAfter);
        bytes32 hash =
            MessageHashUtils.toEthSignedMessageHash(getHash(op, mode, token, rate, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        signed = err == ECDSA.RecoverError.NoError && recovered == verifyingSigner;
    }

    /// @dev Takes (mode 1) or checks (mode 2) the most op can cost in
    /// tokens and returns postOp's context. maxCost is every gas limit, the
    /// paymaster's included, at maxFeePerGas: the most the EntryPoint can
    /// charge the deposit.
    function _take(
        PackedUserOperation calldata op,
        bytes32 userOpHash,
        uint8 mode,
        address token,
        uint256 rate,
        uint256 maxCost
    ) private returns (bytes memory) {
        require(mode == MODE_PREPAY || mode == MODE_POSTPAY, "TokenPaymasterV08: unknown mode");
        require(rate > 0, "TokenPaymasterV08: zero rate");
        Context memory c = Context({
            mode: mode,
            token: token,
            sender: op.sender,
            userOpHash: userOpHash,
            rate: rate,
            maxTokens: tokenCost(maxCost, rate),
            preOpGasLimit: op.preVerificationGas + op.unpackVerificationGasLimit() + op.unpackPaymasterVerificationGasLimit(),
            executionGasLimit: op.unpackCallGasLimit() + op.unpackPostOpGasLimit()
        });
        if (mode == MODE_PREPAY) {
            _pull(token, c.sender, c.maxTokens);
        } else {
            require(IERC20(token).balanceOf(c.sender) >= c.maxTokens, "TokenPaymasterV08: token balance too low");
            require(
                IERC20(token).allowance(c.sender, address(this)) >= c.maxTokens, "TokenPaymasterV08: allowance too low"
            );
        }
        return abi.encode(c);
    }

    /// @dev Takes amount of token from `from` and reverts unless this
    /// paymaster's balance grew by all of it.
    function _pull(address token, address from, uint256 amount) private {
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(from, address(this), amount);
        require(
            IERC20(token).balanceOf(address(this)) >= before + amount,
            "TokenPaymasterV08: token delivered less than sent"
        );
    }

    function _postOp(PostOpMode, bytes calldata context, uint256 actualGasCost, uint256 actualUserOpFeePerGas)
        internal
        override
    {
        Context memory c = abi.decode(context, (Context));
        uint256 usedGas = actualUserOpFeePerGas == 0 ? 0 : actualGasCost / actualUserOpFeePerGas;
        uint256 gasCost = actualGasCost
            + addedGas(c.mode, usedGas, c.preOpGasLimit, c.executionGasLimit) * actualUserOpFeePerGas;
        uint256 cost = Math.min(tokenCost(gasCost, c.rate), c.maxTokens);
        if (c.mode == MODE_PREPAY) {
            if (c.maxTokens > cost) {
                IERC20(c.token).safeTransfer(c.sender, c.maxTokens - cost);
            }
        } else {
            // Reverts if the sender cannot pay, or the token delivers less:
            // the EntryPoint then undoes the operation's call.
            _pull(c.token, c.sender, cost);
        }
        emit GasPaidInToken(c.userOpHash, c.sender, c.token, c.mode, c.rate, gasCost, cost);
    }

    /// @dev The initCode getHash covers: an EIP-7702 sender's marker is
    /// taken padded to 20 bytes whether the bundle packs it short ("0x7702",
    /// as viem does) or padded (as ERC-7769's factory field reads), so one
    /// signature serves both packings; any other initCode as it is.
    function _initCodeHash(bytes calldata initCode) private pure returns (bytes32) {
        if (!Eip7702Support._isEip7702InitCode(initCode)) {
            return keccak256(initCode);
        }
        bytes20 marker = bytes20(Eip7702Support.INITCODE_EIP7702_MARKER);
        return initCode.length <= 20
            ? keccak256(abi.encodePacked(marker))
            : keccak256(abi.encodePacked(marker, initCode[20:]));
    }
}

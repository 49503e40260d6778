// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {UserOperation} from "@account-abstraction/contracts/interfaces/UserOperation.sol";
import {_packValidationData} from "@account-abstraction/contracts/core/Helpers.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title TokenPaymaster
/// @notice caddy-x402's ERC-4337 v0.6 paymaster for gas paid in an ERC-20
/// token. The off-chain paymaster service signs, for one operation, the
/// token and its exchange rate, so the rate cannot change between signing
/// and execution. Two modes:
///  - 1 (prepay): validation takes the operation's maximum cost in tokens
///    from the sender (transferFrom); postOp refunds what was not used.
///  - 2 (postpay): validation checks that the sender's balance and its
///    allowance to this paymaster cover the maximum cost; postOp takes the
///    actual cost. If that fails (the operation spent the tokens or revoked
///    the allowance), the EntryPoint undoes the operation and calls postOp
///    again (postOpReverted), which takes the cost once more and reverts the
///    whole bundle if it still cannot: the deposit never pays for gas that
///    was not paid for in tokens.
/// Every transfer to this paymaster (mode 1's in validation, mode 2's in
/// postOp) is measured by this paymaster's balance before and after it: a
/// token that delivers less than it was asked to send (a fee on transfer,
/// switched on at any time) makes it revert, so the operation is refused
/// (mode 1) or the bundle reverts (mode 2), and the deposit never advances
/// gas against tokens that did not arrive.
/// @dev paymasterAndData, 150 bytes, packed:
///   [0:20] this paymaster, [20] mode (1 or 2), [21:41] token,
///   [41:47] validUntil (uint48), [47:53] validAfter (uint48),
///   [53:85] rate (uint256: token units per 1e18 wei, markup included),
///   [85:150] signature of the signer over getHash (EIP-191).
/// The token cost of gas g (wei) is ceil((g + postOpGas * gasPrice) *
/// rate / 1e18): the postOp's own gas, which the EntryPoint adds after
/// postOp returns, is covered by the POST_OP_GAS constants. Validation reads only the
/// sender's token balance and allowance (storage associated with the
/// sender, and with this staked paymaster), as ERC-4337's storage rules
/// allow a staked paymaster.
contract TokenPaymaster is BasePaymaster {
    using SafeERC20 for IERC20;

    /// @notice Mode 1: the maximum cost is taken in validation, the rest
    /// refunded in postOp.
    uint8 public constant MODE_PREPAY = 1;
    /// @notice Mode 2: the actual cost is taken in postOp.
    uint8 public constant MODE_POSTPAY = 2;
    /// @notice Gas charged for postOp itself, on top of actualGasCost, in
    /// mode 1 (a refund between two warm balances: about 10,000 gas).
    uint256 public constant POST_OP_GAS_PREPAY = 15000;
    /// @notice The same in mode 2 (a transferFrom that writes the
    /// allowance and the paymaster's cold balance, measured by two
    /// balanceOf calls: about 39,500 gas).
    uint256 public constant POST_OP_GAS_POSTPAY = 43000;
    /// @notice The same in mode 2 after postOp failed once
    /// (postOpReverted), when the second postOp finds every slot cold again.
    uint256 public constant POST_OP_GAS_REVERTED = 53000;

    uint256 private constant DATA_LENGTH = 150;

    /// @notice The key whose signature authorizes an operation, its token
    /// and its rate.
    address public immutable verifyingSigner;

    /// @notice Gas of an operation was paid in tokens. gasCost is the wei
    /// charged (actualGasCost plus postOp's gas at the operation's gas price),
    /// tokenCost the tokens kept for it.
    event GasPaidInToken(
        address indexed sender, address indexed token, uint8 mode, uint256 rate, uint256 gasCost, uint256 tokenCost
    );

    constructor(IEntryPoint anEntryPoint, address signer) BasePaymaster(anEntryPoint) {
        verifyingSigner = signer;
    }

    /// @notice The hash the signer signs (as an Ethereum signed message) to
    /// let op pay its gas in token at rate within [validAfter, validUntil].
    /// It covers every field of op but paymasterAndData and signature, the
    /// chain, this paymaster and the terms.
    function getHash(
        UserOperation calldata op,
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
                keccak256(op.initCode),
                keccak256(op.callData),
                op.callGasLimit,
                op.verificationGasLimit,
                op.preVerificationGas,
                op.maxFeePerGas,
                op.maxPriorityFeePerGas
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
        require(data.length == DATA_LENGTH, "TokenPaymaster: paymasterAndData must be 150 bytes");
        mode = uint8(data[20]);
        token = address(bytes20(data[21:41]));
        validUntil = uint48(bytes6(data[41:47]));
        validAfter = uint48(bytes6(data[47:53]));
        rate = uint256(bytes32(data[53:85]));
        signature = data[85:150];
    }

    /// @notice The most gas charged for postOp in mode, on top of
    /// actualGasCost: what validation counts in an operation's maximum cost.
    function maxPostOpGas(uint8 mode) public pure returns (uint256) {
        return mode == MODE_PREPAY ? POST_OP_GAS_PREPAY : POST_OP_GAS_REVERTED;
    }

    /// @notice The tokens gas of gasCost wei costs at rate, rounded up.
    function tokenCost(uint256 gasCost, uint256 rate) public pure returns (uint256) {
        return Math.mulDiv(gasCost, rate, 1e18, Math.Rounding.Up);
    }

    /// @notice Sends collected tokens to `to`.
    function withdrawToken(IERC20 token, address to, uint256 amount) external onlyOwner {
        token.safeTransfer(to, amount);
    }

    function _validatePaymasterUserOp(UserOperation calldata op, bytes32, uint256 maxCost)
        internal
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint8 mode, address token, uint256 rate, uint256 window, bool signed) = _checkTerms(op);
        if (!signed) {
            return ("", window | 1);
        }
        return (_take(op, mode, token, rate, maxCost), window);
    }

    /// @dev Takes (mode 1) or checks (mode 2) the most op can cost in
    /// tokens and returns postOp's context.
    function _take(UserOperation calldata op, uint8 mode, address token, uint256 rate, uint256 maxCost)
        private
        returns (bytes memory)
    {
        require(mode == MODE_PREPAY || mode == MODE_POSTPAY, "TokenPaymaster: unknown mode");
        require(rate > 0, "TokenPaymaster: zero rate");
        // maxCost already holds verificationGasLimit thrice (validation and
        // postOp); postOp's gas is charged on top of actualGasCost, so it is
        // part of the most an operation can cost.
        uint256 maxTokens = tokenCost(maxCost + maxPostOpGas(mode) * op.maxFeePerGas, rate);
        address sender = op.sender;
        if (mode == MODE_PREPAY) {
            _pull(token, sender, maxTokens);
        } else {
            require(IERC20(token).balanceOf(sender) >= maxTokens, "TokenPaymaster: token balance too low");
            require(IERC20(token).allowance(sender, address(this)) >= maxTokens, "TokenPaymaster: allowance too low");
        }
        return abi.encode(mode, token, sender, rate, maxTokens, op.maxFeePerGas, op.maxPriorityFeePerGas);
    }

    /// @dev The terms of op's paymasterAndData, its validity window as
    /// validation data (without the failure bit), and whether the signer
    /// signed them.
    function _checkTerms(UserOperation calldata op)
        private
        view
        returns (uint8 mode, address token, uint256 rate, uint256 window, bool signed)
    {
        uint48 validUntil;
        uint48 validAfter;
        bytes calldata signature;
        (mode, token, validUntil, validAfter, rate, signature) = decodeTerms(op.paymasterAndData);
        window = _packValidationData(false, validUntil, validAfter);
        bytes32 hash = ECDSA.toEthSignedMessageHash(getHash(op, mode, token, rate, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError err) = ECDSA.tryRecover(hash, signature);
        signed = err == ECDSA.RecoverError.NoError && recovered == verifyingSigner;
    }

    /// @dev Takes amount of token from `from` and reverts unless this
    /// paymaster's balance grew by all of it.
    function _pull(address token, address from, uint256 amount) private {
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(from, address(this), amount);
        require(
            IERC20(token).balanceOf(address(this)) >= before + amount, "TokenPaymaster: token delivered less than sent"
        );
    }

    function _postOp(PostOpMode postMode, bytes calldata context, uint256 actualGasCost) internal override {
        (
            uint8 mode,
            address token,
            address sender,
            uint256 rate,
            uint256 maxTokens,
            uint256 maxFeePerGas,
            uint256 maxPriorityFeePerGas
        ) = abi.decode(context, (uint8, address, address, uint256, uint256, uint256, uint256));
        // The EntryPoint's gas price of the operation (getUserOpGasPrice).
        uint256 gasPrice = maxFeePerGas == maxPriorityFeePerGas
            ? maxFeePerGas
            : Math.min(maxFeePerGas, maxPriorityFeePerGas + block.basefee);
        uint256 postGas = mode == MODE_PREPAY
            ? POST_OP_GAS_PREPAY
            : (postMode == PostOpMode.postOpReverted ? POST_OP_GAS_REVERTED : POST_OP_GAS_POSTPAY);
        uint256 gasCost = actualGasCost + postGas * gasPrice;
        uint256 cost = Math.min(tokenCost(gasCost, rate), maxTokens);
        if (mode == MODE_PREPAY) {
            // After a failed refund (postOpReverted) the prepayment is kept
            // whole: nothing more can fail.
            if (postMode == PostOpMode.postOpReverted) {
                cost = maxTokens;
            } else if (maxTokens > cost) {
                IERC20(token).safeTransfer(sender, maxTokens - cost);
            }
        } else {
            // Reverts if the sender cannot pay, or the token delivers less:
            // in postOpReverted mode that reverts the bundle, and the
            // deposit pays nothing.
            _pull(token, sender, cost);
        }
        emit GasPaidInToken(sender, token, mode, rate, gasCost, cost);
    }
}

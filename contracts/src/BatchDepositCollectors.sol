// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

import {IERC20} from "@openzeppelin/contracts-v5/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts-v5/token/ERC20/utils/SafeERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts-v5/token/ERC20/extensions/IERC20Permit.sol";

/// @title IDepositCollector
/// @notice How X402BatchSettlement pulls a deposit: the collector moves
/// `amount` of `token` from `payer` to the calling settlement contract,
/// authorized by `collectorData`; the settlement contract checks that its
/// balance went up by exactly `amount`.
interface IDepositCollector {
    /// @notice Moves `amount` of `token` from `payer` to the caller for the
    /// channel `channelId`.
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external;
}

/// @dev The ERC-3009 call the collector makes (the token must be the
/// recipient's caller: `to` is the collector).
interface IReceiveWithAuthorization {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
}

/// @dev The part of Permit2's SignatureTransfer the collector calls.
interface IPermit2Witness {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom memory permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

/// @title BatchDepositCollector
/// @notice What both collectors share: only the settlement contract at its
/// canonical address may make them collect, so nobody can spend a payer's
/// authorization to send its tokens elsewhere.
/// @dev The address is a constant, not a constructor argument, so that the
/// devnet's genesis can place the runtime code as it is.
abstract contract BatchDepositCollector is IDepositCollector {
    /// @notice The settlement contract this collector delivers to.
    address public constant x402BatchSettlement = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    /// @notice The caller of `collect` is not the settlement contract.
    error OnlyX402BatchSettlement();

    modifier onlySettlement() {
        if (msg.sender != x402BatchSettlement) revert OnlyX402BatchSettlement();
        _;
    }
}

/// @title ERC3009DepositCollector
/// @notice Collects a deposit with the payer's EIP-3009
/// `receiveWithAuthorization` to this collector, whose nonce binds the
/// channel: keccak256(abi.encode(channelId, salt)). The payer signs once and
/// pays no gas; whoever sends the deposit pays it.
contract ERC3009DepositCollector is BatchDepositCollector {
    using SafeERC20 for IERC20;

    /// @inheritdoc IDepositCollector
    /// @dev `collectorData` is abi.encode(uint256 validAfter, uint256
    /// validBefore, uint256 salt, bytes signature).
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
        onlySettlement
    {
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        IReceiveWithAuthorization(token).receiveWithAuthorization(
            payer, address(this), amount, validAfter, validBefore, keccak256(abi.encode(channelId, salt)), signature
        );
        IERC20(token).safeTransfer(msg.sender, amount);
    }
}

/// @title Permit2DepositCollector
/// @notice Collects a deposit with a Permit2 signature transfer from the
/// payer straight to the settlement contract, whose witness binds the
/// channel (DepositWitness(bytes32 channelId)). An optional EIP-2612 permit
/// of Permit2 runs first; if it fails the transfer is still tried (the
/// allowance may already be there) and the failure is logged.
contract Permit2DepositCollector is BatchDepositCollector {
    /// @notice Uniswap's Permit2 at its canonical address.
    address public constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

    /// @notice The witness type string handed to Permit2 (its referenced
    /// types in EIP-712 order).
    string public constant DEPOSIT_WITNESS_TYPE_STRING =
        "DepositWitness witness)DepositWitness(bytes32 channelId)TokenPermissions(address token,uint256 amount)";
    /// @notice EIP-712 type hash of the deposit's witness.
    bytes32 public constant DEPOSIT_WITNESS_TYPEHASH = keccak256("DepositWitness(bytes32 channelId)");

    /// @notice The EIP-2612 permit's value is not the deposit's amount.
    error Permit2612AmountMismatch();

    /// @notice The EIP-2612 permit reverted with `reason`.
    event EIP2612PermitFailedWithReason(address indexed token, address indexed owner, string reason);
    /// @notice The EIP-2612 permit panicked with `errorCode`.
    event EIP2612PermitFailedWithPanic(address indexed token, address indexed owner, uint256 errorCode);
    /// @notice The EIP-2612 permit reverted with `data`.
    event EIP2612PermitFailedWithData(address indexed token, address indexed owner, bytes data);

    /// @inheritdoc IDepositCollector
    /// @dev `collectorData` is abi.encode(uint256 nonce, uint256 deadline,
    /// bytes permit2Signature, bytes eip2612PermitData), the last empty or
    /// abi.encode(uint256 value, uint256 deadline, uint8 v, bytes32 r,
    /// bytes32 s).
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
        onlySettlement
    {
        (uint256 nonce, uint256 deadline, bytes memory signature, bytes memory permit2612) =
            abi.decode(collectorData, (uint256, uint256, bytes, bytes));
        if (permit2612.length != 0) _permit(payer, token, amount, permit2612);
        IPermit2Witness(PERMIT2).permitWitnessTransferFrom(
            IPermit2Witness.PermitTransferFrom(IPermit2Witness.TokenPermissions(token, amount), nonce, deadline),
            IPermit2Witness.SignatureTransferDetails(msg.sender, amount),
            payer,
            keccak256(abi.encode(DEPOSIT_WITNESS_TYPEHASH, channelId)),
            DEPOSIT_WITNESS_TYPE_STRING,
            signature
        );
    }

    /// @dev Tries the payer's EIP-2612 permit of Permit2, logging a failure.
    function _permit(address payer, address token, uint256 amount, bytes memory data) private {
        (uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) =
            abi.decode(data, (uint256, uint256, uint8, bytes32, bytes32));
        if (value != amount) revert Permit2612AmountMismatch();
        try IERC20Permit(token).permit(payer, PERMIT2, value, deadline, v, r, s) {}
        catch Error(string memory reason) {
            emit EIP2612PermitFailedWithReason(token, payer, reason);
        } catch Panic(uint256 code) {
            emit EIP2612PermitFailedWithPanic(token, payer, code);
        } catch (bytes memory data_) {
            emit EIP2612PermitFailedWithData(token, payer, data_);
        }
    }
}

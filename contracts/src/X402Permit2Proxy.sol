// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/security/ReentrancyGuard.sol";

import {Permit2} from "./Permit2.sol";

/// @title X402Permit2Proxy
/// @notice What x402's exact and upto Permit2 proxies share: the canonical
/// Permit2, the EIP-2612 permit of Permit2 that settleWithPermit submits
/// first, and their errors and events (upstream's, so that a facilitator
/// written for upstream's proxies reads ours).
/// @dev Placed at its canonical address by the genesis without running a
/// constructor: PERMIT2 is a constant, and the reentrancy guard works from
/// zeroed storage.
abstract contract X402Permit2Proxy is ReentrancyGuard {
    /// @notice The canonical Permit2.
    Permit2 public constant PERMIT2 = Permit2(0x000000000022D473030F116dDEE9F6B43aC78BA3);

    /// @notice An EIP-2612 permit of Permit2, signed by the payer.
    struct EIP2612Permit {
        uint256 value;
        uint256 deadline;
        bytes32 r;
        bytes32 s;
        uint8 v;
    }

    /// @notice settle() moved the tokens.
    event Settled();
    /// @notice settleWithPermit() moved the tokens.
    event SettledWithPermit();

    /// @notice Never thrown here (Permit2 is a constant); kept for upstream's ABI.
    error InvalidPermit2Address();
    /// @notice The witness's destination is the zero address.
    error InvalidDestination();
    /// @notice The witness's validAfter is in the future.
    error PaymentTooEarly();
    /// @notice The owner is the zero address.
    error InvalidOwner();
    /// @notice The EIP-2612 permit's value is not the Permit2 permit's amount.
    error Permit2612AmountMismatch();

    function _checkParties(address owner, address to, uint256 validAfter) internal view {
        if (owner == address(0)) revert InvalidOwner();
        if (to == address(0)) revert InvalidDestination();
        if (block.timestamp < validAfter) revert PaymentTooEarly();
    }

    /// @dev A failing permit is ignored: the allowance may exist already
    /// (a front-run permit), and if it does not, Permit2's transfer reverts.
    function _permit(address token, address owner, EIP2612Permit calldata p, uint256 permitted) internal {
        if (p.value != permitted) revert Permit2612AmountMismatch();
        try IERC20Permit(token).permit(owner, address(PERMIT2), p.value, p.deadline, p.v, p.r, p.s) {} catch {}
    }
}

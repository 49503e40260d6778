// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Multicall3
/// @notice The devnet's stand-in for Multicall3 (0xcA11bde05977b3631167028862bE2a173976CA11
/// on most EVM chains): only `aggregate3`, with the same signature and
/// semantics, which the facilitator uses to deploy an ERC-6492 wallet and
/// settle its payment in one transaction, and `tryAggregate`, which
/// upstream x402's batch-settlement facilitator reads channels with. It
/// holds nothing and has no owner.
contract Multicall3 {
    /// @notice One call: its target, whether it may fail, and its calldata.
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    /// @notice One call of tryAggregate: its target and its calldata.
    struct Call {
        address target;
        bytes callData;
    }

    /// @notice One call's result.
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Makes the calls in order and returns their results; reverts
    /// if a call that may not fail fails.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            Call3 calldata c = calls[i];
            (bool ok, bytes memory ret) = c.target.call(c.callData);
            if (!ok && !c.allowFailure) revert("Multicall3: call failed");
            returnData[i] = Result(ok, ret);
        }
    }

    /// @notice Makes the calls in order and returns their results; with
    /// `requireSuccess`, reverts if any fails.
    function tryAggregate(bool requireSuccess, Call[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!ok && requireSuccess) revert("Multicall3: call failed");
            returnData[i] = Result(ok, ret);
        }
    }
}

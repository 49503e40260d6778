// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title OpenPaymaster
/// @notice TEST ONLY: an ERC-4337 v0.6 paymaster that sponsors every
/// operation from its EntryPoint deposit. The facilitator's tests use it
/// where v0.6's VerifyingPaymaster cannot serve: that one signs over a
/// per-sender nonce, so two operations of one sender never share a bundle,
/// while paymasters without one (v0.7's VerifyingPaymaster among them)
/// sponsor several operations of a sender at once. Never deploy it anywhere
/// but a test chain: anyone can spend its deposit.
/// @dev It answers every call, validatePaymasterUserOp among them, from its
/// fallback, so that its ABI has no function whose binding would clash with
/// VerifyingPaymaster's.
contract OpenPaymaster {
    /// @notice Answers validatePaymasterUserOp (and anything else) with an
    /// empty context and validation data 0: valid, with no time range. With
    /// an empty context the EntryPoint never calls postOp.
    fallback(bytes calldata) external returns (bytes memory) {
        return abi.encode(bytes(""), uint256(0));
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Permit2} from "./Permit2.sol";
import {X402Permit2Proxy} from "./X402Permit2Proxy.sol";

/// @title X402ExactPermit2Proxy
/// @notice The spender of x402 `exact` payments by Permit2: it moves the
/// whole permitted amount to the witness's `to`, which the payer signed, so
/// a facilitator can neither change the amount nor redirect it. Interface,
/// witness type and events are upstream x402's x402ExactPermit2Proxy's.
contract X402ExactPermit2Proxy is X402Permit2Proxy {
    /// @notice The payer's witness: the recipient and the earliest time.
    struct Witness {
        address to;
        uint256 validAfter;
    }

    /// @notice The witness's type, as Permit2's witnessTypeString.
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,uint256 validAfter)";
    /// @notice keccak256("Witness(address to,uint256 validAfter)")
    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,uint256 validAfter)");

    /// @notice The permitted amount is zero.
    error InvalidAmount();

    /// @notice Settles a payment whose payer has approved Permit2.
    function settle(
        Permit2.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _settle(permit, owner, witness, signature);
        emit Settled();
    }

    /// @notice Submits the payer's EIP-2612 permit of Permit2, then settles.
    function settleWithPermit(
        EIP2612Permit calldata permit2612,
        Permit2.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _permit(permit.permitted.token, owner, permit2612, permit.permitted.amount);
        _settle(permit, owner, witness, signature);
        emit SettledWithPermit();
    }

    function _settle(
        Permit2.PermitTransferFrom calldata permit,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) private {
        if (permit.permitted.amount == 0) revert InvalidAmount();
        _checkParties(owner, witness.to, witness.validAfter);
        PERMIT2.permitWitnessTransferFrom(
            permit,
            Permit2.SignatureTransferDetails({to: witness.to, requestedAmount: permit.permitted.amount}),
            owner,
            keccak256(abi.encode(WITNESS_TYPEHASH, witness.to, witness.validAfter)),
            WITNESS_TYPE_STRING,
            signature
        );
    }
}

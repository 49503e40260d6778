// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Permit2} from "./Permit2.sol";
import {X402Permit2Proxy} from "./X402Permit2Proxy.sol";

/// @title X402UptoPermit2Proxy
/// @notice The spender of x402 `upto` payments: the payer signs a maximum,
/// and the facilitator the payer named in the witness (and only it) moves
/// any amount up to it, once, to the witness's `to`. Interface, witness
/// type and events are upstream x402's x402UptoPermit2Proxy's.
contract X402UptoPermit2Proxy is X402Permit2Proxy {
    /// @notice The payer's witness: the recipient, the one facilitator that
    /// may settle, and the earliest time.
    struct Witness {
        address to;
        address facilitator;
        uint256 validAfter;
    }

    /// @notice The witness's type, as Permit2's witnessTypeString.
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)";
    /// @notice keccak256("Witness(address to,address facilitator,uint256 validAfter)")
    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,address facilitator,uint256 validAfter)");

    /// @notice The amount is above the permitted maximum.
    error AmountExceedsPermitted();
    /// @notice The caller is not the witness's facilitator.
    error UnauthorizedFacilitator();

    /// @notice Settles amount (at most the permitted) of a payment whose
    /// payer has approved Permit2.
    function settle(
        Permit2.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _settle(permit, amount, owner, witness, signature);
        emit Settled();
    }

    /// @notice Submits the payer's EIP-2612 permit of Permit2, then settles.
    function settleWithPermit(
        EIP2612Permit calldata permit2612,
        Permit2.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _permit(permit.permitted.token, owner, permit2612, permit.permitted.amount);
        _settle(permit, amount, owner, witness, signature);
        emit SettledWithPermit();
    }

    function _settle(
        Permit2.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) private {
        if (msg.sender != witness.facilitator) revert UnauthorizedFacilitator();
        if (amount > permit.permitted.amount) revert AmountExceedsPermitted();
        _checkParties(owner, witness.to, witness.validAfter);
        PERMIT2.permitWitnessTransferFrom(
            permit,
            Permit2.SignatureTransferDetails({to: witness.to, requestedAmount: amount}),
            owner,
            keccak256(abi.encode(WITNESS_TYPEHASH, witness.to, witness.facilitator, witness.validAfter)),
            WITNESS_TYPE_STRING,
            signature
        );
    }
}

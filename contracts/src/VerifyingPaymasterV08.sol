// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {BasePaymaster} from "@account-abstraction/contracts-v08/core/BasePaymaster.sol";
import {IEntryPoint} from "@account-abstraction/contracts-v08/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts-v08/interfaces/PackedUserOperation.sol";
import {Eip7702Support} from "@account-abstraction/contracts-v08/core/Eip7702Support.sol";
import {_packValidationData} from "@account-abstraction/contracts-v08/core/Helpers.sol";
import {ECDSA} from "@openzeppelin/contracts-v51/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts-v51/utils/cryptography/MessageHashUtils.sol";

/// @title VerifyingPaymasterV08
/// @notice caddy-x402's ERC-4337 v0.8 paymaster of free gas: it pays for an
/// operation its off-chain signer signed, within the window signed with it.
/// The npm package account-abstraction/contracts 0.8.0 ships no paymaster; this one
/// keeps the paymasterAndData and getHash of 0.7.0's sample
/// VerifyingPaymaster (an EIP-7702 marker hashed padded to 20 bytes,
/// however it is packed), so the paymaster service signs for both with one
/// encoding, and the chain id and this paymaster's address in the hash keep
/// a signature for one from paying on the other.
/// @dev paymasterAndData, packed:
///   [0:20] this paymaster, [20:36] paymasterVerificationGasLimit,
///   [36:52] paymasterPostOpGasLimit (both uint128, signed),
///   [52:116] abi.encode(uint48 validUntil, uint48 validAfter),
///   [116:] the signer's 64- or 65-byte signature over getHash (EIP-191).
contract VerifyingPaymasterV08 is BasePaymaster {
    uint256 private constant WINDOW_OFFSET = 52; // UserOperationLib.PAYMASTER_DATA_OFFSET
    uint256 private constant SIGNATURE_OFFSET = 116;

    /// @notice The key whose signature sponsors an operation.
    address public immutable verifyingSigner;

    constructor(IEntryPoint anEntryPoint, address signer) BasePaymaster(anEntryPoint) {
        verifyingSigner = signer;
    }

    /// @notice The hash the signer signs (as an Ethereum signed message) to
    /// sponsor op within [validAfter, validUntil]: every field of op but
    /// the paymaster's data and the signature, the paymaster's two gas
    /// limits, the chain and this paymaster.
    function getHash(PackedUserOperation calldata op, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(
                op.sender,
                op.nonce,
                _initCodeHash(op.initCode),
                keccak256(op.callData),
                op.accountGasLimits,
                uint256(bytes32(op.paymasterAndData[20:WINDOW_OFFSET])),
                op.preVerificationGas,
                op.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    /// @notice Splits paymasterAndData into the window and the signature.
    function decodeWindow(bytes calldata data)
        public
        pure
        returns (uint48 validUntil, uint48 validAfter, bytes calldata signature)
    {
        require(data.length >= SIGNATURE_OFFSET, "VerifyingPaymasterV08: paymasterAndData too short");
        (validUntil, validAfter) = abi.decode(data[WINDOW_OFFSET:SIGNATURE_OFFSET], (uint48, uint48));
        signature = data[SIGNATURE_OFFSET:];
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata op, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) = decodeWindow(op.paymasterAndData);
        require(
            signature.length == 64 || signature.length == 65, "VerifyingPaymasterV08: signature must be 64 or 65 bytes"
        );
        bytes32 hash = MessageHashUtils.toEthSignedMessageHash(getHash(op, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        bool failed = err != ECDSA.RecoverError.NoError || recovered != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
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

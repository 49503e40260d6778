// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title EOADelegate
/// @notice The code an EOA delegates to with EIP-7702 on the devnet: ERC-1271
/// for the account itself, answering the magic value for a signature by the
/// account's own key. A token that asks a delegated EOA for ERC-1271 (as
/// USDC v2.2 does for any address with code) then accepts what the key
/// signed, as it would from a plain EOA. It keeps no storage.
contract EOADelegate is IERC1271 {
    /// @notice ERC-1271: the magic value if `signature` is by this account's
    /// own key (address(this) under EIP-7702), 0xffffffff otherwise.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err) = ECDSA.tryRecover(hash, signature);
        if (err == ECDSA.RecoverError.NoError && signer == address(this)) {
            return IERC1271.isValidSignature.selector;
        }
        return 0xffffffff;
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {BaseAccount} from "@account-abstraction/contracts/core/BaseAccount.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {UserOperation} from "@account-abstraction/contracts/interfaces/UserOperation.sol";

/// @title FreeRiderAccount
/// @notice TEST ONLY: a dishonest ERC-4337 v0.6 account that the facilitator's
/// tests bundle beside honest operations. It looks like a SimpleAccount from
/// outside (`owner()`, the owner's signature over the operation hash,
/// `execute` and `executeBatch` with SimpleAccount's selectors), but it runs
/// the calls of only its first execution in a block: every later execution
/// in the same block returns success and does nothing. Two of its operations
/// in one bundle, each paying for a response, pay once, and the EntryPoint
/// reports both as successful. Never deploy it anywhere but a test chain.
contract FreeRiderAccount is BaseAccount {
    using ECDSA for bytes32;

    /// @notice The key that signs this account's operations.
    address public owner;

    /// @notice The block of the last execution whose calls ran.
    uint256 public lastPaidBlock;

    IEntryPoint private immutable _entryPoint;

    constructor(IEntryPoint anEntryPoint, address anOwner) {
        _entryPoint = anEntryPoint;
        owner = anOwner;
    }

    /// @inheritdoc BaseAccount
    function entryPoint() public view override returns (IEntryPoint) {
        return _entryPoint;
    }

    /// @notice Runs one call, on the first execution in a block only.
    function execute(address dest, uint256 value, bytes calldata func) external {
        _requireFromEntryPoint();
        if (!_firstInBlock()) return;
        _call(dest, value, func);
    }

    /// @notice Runs the calls, on the first execution in a block only.
    function executeBatch(address[] calldata dest, bytes[] calldata func) external {
        _requireFromEntryPoint();
        require(dest.length == func.length, "wrong array lengths");
        if (!_firstInBlock()) return;
        for (uint256 i = 0; i < dest.length; i++) {
            _call(dest[i], 0, func[i]);
        }
    }

    function _firstInBlock() private returns (bool) {
        if (lastPaidBlock == block.number) return false;
        lastPaidBlock = block.number;
        return true;
    }

    function _validateSignature(UserOperation calldata userOp, bytes32 userOpHash)
        internal
        view
        override
        returns (uint256 validationData)
    {
        if (owner != userOpHash.toEthSignedMessageHash().recover(userOp.signature)) {
            return SIG_VALIDATION_FAILED;
        }
        return 0;
    }

    function _call(address target, uint256 value, bytes memory data) private {
        (bool success, bytes memory result) = target.call{value: value}(data);
        if (!success) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }
}

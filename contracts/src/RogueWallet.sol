// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";

/// @title RogueWallet
/// @notice TEST ONLY: a contract wallet whose ERC-1271 answer anyone can
/// change, for the facilitator's attack tests: it approves every signature,
/// refuses every one, or burns all the gas it is given (out of gas). Never deploy it
/// anywhere but a test chain.
contract RogueWallet is IERC1271 {
    /// @notice How isValidSignature answers.
    enum Mode {
        ApproveAll,
        RefuseAll,
        BurnGas
    }

    /// @notice The current answer.
    Mode public mode;

    /// @notice Sets how isValidSignature answers; anyone may.
    function setMode(Mode m) external {
        mode = m;
    }

    /// @notice ERC-1271, as the mode says.
    function isValidSignature(bytes32, bytes calldata) external view returns (bytes4) {
        if (mode == Mode.RefuseAll) return 0xffffffff;
        if (mode == Mode.BurnGas) _burn();
        return IERC1271.isValidSignature.selector;
    }
}

/// @dev Runs until it is out of gas.
function _burn() pure {
    uint256 x;
    while (x != 1) {
        x = uint256(keccak256(abi.encode(x)));
    }
}

/// @title RogueFactory
/// @notice TEST ONLY: an ERC-6492 factory that deploys a RogueWallet with
/// CREATE2, or misbehaves: reverts, burns its gas, or deploys nothing.
contract RogueFactory {
    /// @notice Deploys a RogueWallet under `salt`.
    function create(bytes32 salt) external returns (address) {
        return address(new RogueWallet{salt: salt}());
    }

    /// @notice The address `create(salt)` deploys to.
    function getAddress(bytes32 salt) external view returns (address) {
        bytes32 initHash = keccak256(type(RogueWallet).creationCode);
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initHash)))));
    }

    /// @notice Always reverts.
    function fail() external pure {
        revert("RogueFactory: no");
    }

    /// @notice Burns all the gas it is given (and reverts, out of gas).
    function burn() external pure {
        _burn();
    }

    /// @notice Succeeds and deploys nothing.
    function nothing() external {}
}

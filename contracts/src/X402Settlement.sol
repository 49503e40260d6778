// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/security/Pausable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title X402Settlement
/// @notice The on-chain half of x402's `aa-native` scheme. A payer's smart
/// account approves this contract and calls `settle` in one UserOperation;
/// the contract pulls the tokens to the merchant and records the request
/// hash, so one payment request can be settled at most once.
contract X402Settlement is Ownable, Pausable {
    using SafeERC20 for IERC20;

    /// @notice Whether a payment request has been settled.
    mapping(bytes32 => bool) public isSettled;

    /// @notice Whether a token may be used for settlement.
    mapping(address => bool) public isTokenAllowed;

    /// @notice A payment was settled: `amount` of `token` moved from `payer`
    /// to `merchant` for the request `requestHash`.
    event Settled(
        bytes32 indexed requestHash, address indexed payer, address indexed merchant, address token, uint256 amount
    );

    /// @notice The owner allowed or disallowed a token.
    event TokenAllowed(address indexed token, bool allowed);

    /// @notice The merchant or token address is zero.
    error ZeroAddress();
    /// @notice The amount is zero.
    error ZeroAmount();
    /// @notice The request hash is zero.
    error ZeroRequestHash();
    /// @notice The token is not on the allowlist.
    error TokenNotAllowed(address token);
    /// @notice The request hash was settled before.
    error AlreadySettled(bytes32 requestHash);

    constructor(address[] memory tokens) {
        for (uint256 i = 0; i < tokens.length; i++) {
            _setTokenAllowed(tokens[i], true);
        }
    }

    /// @notice Pulls `amount` of `token` from the caller to `merchant` and
    /// records `requestHash` as settled. The caller must have approved this
    /// contract for at least `amount`.
    function settle(address merchant, address token, uint256 amount, bytes32 requestHash) external whenNotPaused {
        if (merchant == address(0) || token == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        if (requestHash == bytes32(0)) revert ZeroRequestHash();
        if (!isTokenAllowed[token]) revert TokenNotAllowed(token);
        if (isSettled[requestHash]) revert AlreadySettled(requestHash);

        isSettled[requestHash] = true;
        IERC20(token).safeTransferFrom(msg.sender, merchant, amount);
        emit Settled(requestHash, msg.sender, merchant, token, amount);
    }

    /// @notice Adds a token to, or removes it from, the allowlist.
    function setTokenAllowed(address token, bool allowed) external onlyOwner {
        _setTokenAllowed(token, allowed);
    }

    /// @notice Stops all settlement until `unpause`.
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Resumes settlement.
    function unpause() external onlyOwner {
        _unpause();
    }

    function _setTokenAllowed(address token, bool allowed) private {
        if (token == address(0)) revert ZeroAddress();
        isTokenAllowed[token] = allowed;
        emit TokenAllowed(token, allowed);
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title FeeToken
/// @notice TEST ONLY: an ERC-20 of 6 decimals that keeps a fee on every
/// transfer: the sender is debited the amount sent, the recipient credited
/// that amount less feeBps of it (the fee is burnt). Anyone can mint and
/// anyone can set the fee, so the paymaster's tests can configure it as a
/// gas token with a fee, or switch the fee on after it was accepted. Never
/// deploy it anywhere but a test chain.
contract FeeToken is ERC20 {
    /// @notice The fee kept on a transfer, in basis points of the amount.
    uint256 public feeBps;

    constructor(uint256 feeBps_) ERC20("Fee Token", "FEE") {
        setFee(feeBps_);
    }

    /// @notice Six decimals, like USDC.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Sets the fee, at most 10,000 basis points.
    function setFee(uint256 bps) public {
        require(bps <= 10000, "FeeToken: fee over 100%");
        feeBps = bps;
    }

    /// @notice Creates amount tokens for to.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        uint256 fee = amount * feeBps / 10000;
        if (fee > 0) {
            _burn(from, fee);
        }
        super._transfer(from, to, amount - fee);
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title SettablePriceFeed
/// @notice TEST ONLY: a Chainlink AggregatorV3 whose answer and update time
/// anyone can set, so the paymaster's tests can price a gas token from a
/// feed that is fresh, stale or broken. Never deploy it anywhere but a test
/// chain.
contract SettablePriceFeed {
    /// @notice The answer's decimals (8 for Chainlink's USD feeds).
    uint8 public immutable decimals;

    int256 private _answer;
    uint256 private _updatedAt;
    uint80 private _round;

    constructor(uint8 decimals_, int256 answer, uint256 updatedAt) {
        decimals = decimals_;
        set(answer, updatedAt);
    }

    /// @notice Starts a new round with answer, updated at updatedAt.
    function set(int256 answer, uint256 updatedAt) public {
        _answer = answer;
        _updatedAt = updatedAt;
        _round++;
    }

    /// @notice The latest round, as AggregatorV3Interface answers it.
    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_round, _answer, _updatedAt, _updatedAt, _round);
    }
}

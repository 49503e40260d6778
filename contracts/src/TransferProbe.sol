// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title TransferProbe
/// @notice Never deployed: the paymaster service runs its creation code in
/// an eth_call without a recipient, with the token's balance of the address
/// it is created at set by a state override, to see whether a gas token
/// delivers what it is asked to send. The constructor sends `amount` of
/// `token` to `to` with transfer, then again with transferFrom (after
/// approving itself), and returns, instead of code, abi.encode(uint256
/// byTransfer, uint256 byTransferFrom): what `to`'s balance grew by each
/// time. It reverts if a call fails or the balance shrinks.
contract TransferProbe {
    constructor(IERC20 token, address to, uint256 amount) {
        uint256 b0 = token.balanceOf(to);
        _call(address(token), abi.encodeCall(IERC20.transfer, (to, amount)));
        uint256 b1 = token.balanceOf(to);
        _call(address(token), abi.encodeCall(IERC20.approve, (address(this), amount)));
        _call(address(token), abi.encodeCall(IERC20.transferFrom, (address(this), to, amount)));
        uint256 b2 = token.balanceOf(to);
        bytes memory out = abi.encode(b1 - b0, b2 - b1);
        assembly {
            return(add(out, 32), mload(out))
        }
    }

    /// @dev Calls token with data; a token that returns nothing succeeds,
    /// one that returns false fails.
    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "TransferProbe: token call failed");
    }
}

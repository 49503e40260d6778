// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title X402Batch
/// @notice Settles many `exact` (EIP-3009) payments in one transaction: for
/// each it calls the token's `transferWithAuthorization(from, to, value,
/// validAfter, validBefore, nonce, v, r, s)`. A payment whose transfer
/// reverts fails alone: the others settle, and it is logged as
/// `TransferFailed` with the token's revert data. A payment that settled
/// is the token's own `AuthorizationUsed(from, nonce)` log followed by its
/// `Transfer(from, to, value)` log; nothing else is logged for it.
///
/// The contract holds nothing and has no owner: anyone may call it, and it
/// can only move what payers signed, to whom they signed it (the signed
/// authorization names the recipient).
///
/// The calldata is packed, with no selector (the fallback takes it). It is
/// a sequence of items; each is
///
///   flags (1 byte: bit 0, a token follows; bit 1, a recipient follows;
///          bit 2, v is 28 rather than 27)
///   [token (20)] [to (20)]
///   from (20) value (16, uint128) validAfter (8) validBefore (8)
///   nonce (32) r (32) s (32)
///
/// so consecutive payments of one token to one recipient share them. The
/// first item must name both. The answer is a bitmap, one bit per item
/// (item i is bit i % 8 of byte i / 8), set where the transfer failed: an
/// eth_call of a batch says which payments would fail.
contract X402Batch {
    /// @notice The transfer of `from`'s authorization `nonce` on `token`
    /// reverted with `reason`; that payment was not settled.
    event TransferFailed(address indexed token, address indexed from, bytes32 indexed nonce, bytes reason);

    /// @notice The calldata is not a sequence of whole items, or its first
    /// item names no token or recipient.
    error Malformed();

    /// @dev transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)
    bytes4 private constant TRANSFER_WITH_AUTHORIZATION = 0xe3ee160e;

    /// @dev The bytes of an item after its flags and shared addresses.
    uint256 private constant ITEM = 148;

    fallback(bytes calldata data) external returns (bytes memory failed) {
        uint256 end = data.length;
        failed = new bytes((end / (ITEM + 1) + 7) / 8);
        address token;
        address to;
        uint256 at;
        uint256 i;
        while (at < end) {
            uint256 flags = uint8(data[at]);
            unchecked {
                ++at;
            }
            if (flags & 1 != 0) {
                token = address(bytes20(data[at:at + 20]));
                at += 20;
            }
            if (flags & 2 != 0) {
                to = address(bytes20(data[at:at + 20]));
                at += 20;
            }
            if (token == address(0) || to == address(0) || end - at < ITEM) revert Malformed();
            if (!_transfer(token, to, at, flags & 4 != 0 ? 28 : 27)) {
                failed[i >> 3] |= bytes1(uint8(1 << (i & 7)));
                bytes memory reason;
                assembly ("memory-safe") {
                    reason := mload(0x40)
                    mstore(reason, returndatasize())
                    returndatacopy(add(reason, 0x20), 0, returndatasize())
                    mstore(0x40, add(add(reason, 0x20), and(add(returndatasize(), 31), not(31))))
                }
                emit TransferFailed(token, address(bytes20(data[at:at + 20])), bytes32(data[at + 52:at + 84]), reason);
            }
            unchecked {
                at += ITEM;
                ++i;
            }
        }
    }

    /// @dev Calls transferWithAuthorization on token with the item at `at`
    /// in the calldata, built in scratch memory past the free pointer (not
    /// kept, so memory does not grow with the batch). True if it did not
    /// revert.
    function _transfer(address token, address to, uint256 at, uint256 v) private returns (bool ok) {
        bytes4 selector = TRANSFER_WITH_AUTHORIZATION;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, selector)
            mstore(add(p, 0x04), shr(96, calldataload(at))) // from
            mstore(add(p, 0x24), to)
            mstore(add(p, 0x44), shr(128, calldataload(add(at, 20)))) // value
            mstore(add(p, 0x64), shr(192, calldataload(add(at, 36)))) // validAfter
            mstore(add(p, 0x84), shr(192, calldataload(add(at, 44)))) // validBefore
            mstore(add(p, 0xa4), calldataload(add(at, 52))) // nonce
            mstore(add(p, 0xc4), v)
            mstore(add(p, 0xe4), calldataload(add(at, 84))) // r
            mstore(add(p, 0x104), calldataload(add(at, 116))) // s
            ok := call(gas(), token, 0, p, 0x124, 0, 0)
        }
    }
}

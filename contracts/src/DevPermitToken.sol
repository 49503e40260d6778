// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title DevPermitToken
/// @notice The dev chain's token without EIP-3009: a plain ERC-20 of 6
/// decimals with EIP-2612 permit, paid through Permit2 (x402 `exact` with
/// assetTransferMethod permit2, and `upto`).
/// @dev EIP-2612 is written out rather than taken from OpenZeppelin's
/// ERC20Permit, whose eip712Domain() would clash in the Go bindings with
/// DevUSD's. The domain is (name, "1", chain id, this).
contract DevPermitToken is ERC20, Ownable {
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    /// @notice keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)")
    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    /// @notice The next permit nonce of each owner.
    mapping(address => uint256) public nonces;

    /// @notice The permit's deadline has passed.
    error PermitExpired(uint256 deadline);
    /// @notice The permit is not signed by its owner.
    error InvalidPermitSigner(address signer, address owner);

    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}

    /// @notice Six decimals, like USDC.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice The EIP-712 domain version of permit.
    function version() external pure returns (string memory) {
        return "1";
    }

    /// @notice The EIP-712 domain separator of permit on this chain.
    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name())), keccak256("1"), block.chainid, address(this)));
    }

    /// @notice EIP-2612: sets spender's allowance of owner's tokens to value
    /// with owner's signature.
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        if (block.timestamp > deadline) revert PermitExpired(deadline);
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, nonces[owner]++, deadline));
        address signer = ECDSA.recover(ECDSA.toTypedDataHash(DOMAIN_SEPARATOR(), structHash), v, r, s);
        if (signer != owner) revert InvalidPermitSigner(signer, owner);
        _approve(owner, spender, value);
    }

    /// @notice Mints new tokens; only the owner may.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}

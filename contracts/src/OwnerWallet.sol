// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";

/// @title OwnerWallet
/// @notice A minimal contract wallet of one owner key: it holds tokens, the
/// owner moves them with `execute`, and it signs for itself with ERC-1271,
/// answering the magic value for the owner's ECDSA signature of a hash. It
/// is what the devnet offers to pay x402's `exact` as a smart wallet, deployed
/// or counterfactual (ERC-6492) through OwnerWalletFactory, which deploys
/// each wallet as an EIP-1167 clone of one implementation.
contract OwnerWallet is IERC1271 {
    /// @notice The key that signs for this wallet.
    address public owner;

    /// @notice The caller is not the owner.
    error NotOwner(address caller);
    /// @notice The wallet has its owner already.
    error AlreadyInitialized();

    /// @dev The implementation itself is locked: it never gets an owner.
    constructor() {
        owner = address(this);
    }

    /// @notice Sets the owner of a new clone; the factory calls it in the
    /// transaction that deploys the clone.
    function initialize(address owner_) external {
        if (owner != address(0)) revert AlreadyInitialized();
        owner = owner_;
    }

    /// @notice ERC-1271: the magic value if `signature` is the owner's ECDSA
    /// signature of `hash` (65 bytes, low s), 0xffffffff otherwise.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err) = ECDSA.tryRecover(hash, signature);
        if (err == ECDSA.RecoverError.NoError && signer == owner) {
            return IERC1271.isValidSignature.selector;
        }
        return 0xffffffff;
    }

    /// @notice Calls `to` with `value` and `data` on the owner's behalf.
    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory) {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        (bool ok, bytes memory ret) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        return ret;
    }

    /// @notice Accepts ETH.
    receive() external payable {}
}

/// @title OwnerWalletFactory
/// @notice Deploys OwnerWallets as EIP-1167 clones with CREATE2, so that a
/// wallet's address is known (`getAddress`) and can hold tokens and sign
/// before it exists. It is the factory an ERC-6492 signature of an
/// undeployed OwnerWallet names. The salt of a clone binds its owner, so no
/// one can deploy a wallet at an owner's address with another owner.
contract OwnerWalletFactory {
    /// @notice The wallet every clone delegates to.
    OwnerWallet public immutable implementation;

    constructor() {
        implementation = new OwnerWallet();
    }

    /// @notice A wallet was deployed.
    event WalletCreated(address indexed wallet, address indexed owner, bytes32 salt);

    /// @notice Deploys the wallet of `owner` and `salt`, or returns it if it
    /// exists already (so that a second deployment does not revert).
    function createWallet(address owner, bytes32 salt) external returns (address wallet) {
        wallet = getAddress(owner, salt);
        if (wallet.code.length > 0) return wallet;
        wallet = Clones.cloneDeterministic(address(implementation), keccak256(abi.encode(owner, salt)));
        OwnerWallet(payable(wallet)).initialize(owner);
        emit WalletCreated(wallet, owner, salt);
    }

    /// @notice The address of the wallet of `owner` and `salt`, deployed or not.
    function getAddress(address owner, bytes32 salt) public view returns (address) {
        return Clones.predictDeterministicAddress(address(implementation), keccak256(abi.encode(owner, salt)));
    }
}

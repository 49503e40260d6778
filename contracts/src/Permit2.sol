// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";

/// @title Permit2
/// @notice The signature-transfer half of Uniswap's Permit2, the part x402
/// uses, for the caddy-x402 dev chain: permitTransferFrom and
/// permitWitnessTransferFrom with Permit2's EIP-712 domain ("Permit2", no
/// version), unordered nonces in a bitmap, and invalidateUnorderedNonces.
/// Its interface, type strings, errors and digests are Permit2's, so that a
/// client signing for the canonical Permit2 signs for this one.
/// @dev The genesis places the runtime code at the canonical address
/// 0x000000000022D473030F116dDEE9F6B43aC78BA3 without running a
/// constructor, so nothing depends on construction: the domain separator is
/// computed from block.chainid and address(this) at each call.
contract Permit2 {
    using SafeERC20 for IERC20;

    /// @notice The token and largest amount a signature permits.
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    /// @notice A signed permit of one token transfer.
    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    /// @notice Where the spender sends the tokens, and how many.
    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    /// @notice keccak256("TokenPermissions(address token,uint256 amount)")
    bytes32 public constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    /// @notice The type hash of a permit without witness.
    bytes32 public constant PERMIT_TRANSFER_FROM_TYPEHASH = keccak256(
        "PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)"
    );
    string private constant WITNESS_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("Permit2");

    /// @notice Used nonces: a bit per nonce, 256 to a word, by owner and word.
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;

    /// @notice The owner invalidated nonces of one word.
    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    /// @notice The permit's deadline has passed.
    error SignatureExpired(uint256 signatureDeadline);
    /// @notice The spender asked for more than the permit allows.
    error InvalidAmount(uint256 maxAmount);
    /// @notice The nonce was used or invalidated.
    error InvalidNonce();
    /// @notice The signature is not 64 or 65 bytes.
    error InvalidSignatureLength();
    /// @notice The signature does not recover.
    error InvalidSignature();
    /// @notice The signature is someone else's.
    error InvalidSigner();
    /// @notice The owner contract refused the signature (ERC-1271).
    error InvalidContractSignature();

    /// @notice Permit2's EIP-712 domain separator on this chain.
    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, block.chainid, address(this)));
    }

    /// @notice Transfers with a signed permit.
    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external {
        bytes32 dataHash = keccak256(
            abi.encode(PERMIT_TRANSFER_FROM_TYPEHASH, _hashPermissions(permit.permitted), msg.sender, permit.nonce, permit.deadline)
        );
        _transfer(permit, transferDetails, owner, dataHash, signature);
    }

    /// @notice Transfers with a signed permit that also signs the spender's
    /// witness, of the type witnessTypeString completes.
    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        bytes32 typeHash = keccak256(abi.encodePacked(WITNESS_STUB, witnessTypeString));
        bytes32 dataHash = keccak256(
            abi.encode(typeHash, _hashPermissions(permit.permitted), msg.sender, permit.nonce, permit.deadline, witness)
        );
        _transfer(permit, transferDetails, owner, dataHash, signature);
    }

    /// @notice Invalidates the nonces of mask in word wordPos of the caller's.
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    function _hashPermissions(TokenPermissions calldata p) private pure returns (bytes32) {
        return keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, p.token, p.amount));
    }

    function _transfer(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 dataHash,
        bytes calldata signature
    ) private {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (transferDetails.requestedAmount > permit.permitted.amount) revert InvalidAmount(permit.permitted.amount);
        _useNonce(owner, permit.nonce);
        _verify(signature, keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), dataHash)), owner);
        IERC20(permit.permitted.token).safeTransferFrom(owner, transferDetails.to, transferDetails.requestedAmount);
    }

    function _useNonce(address owner, uint256 nonce) private {
        uint256 bit = 1 << uint8(nonce);
        uint256 flipped = nonceBitmap[owner][nonce >> 8] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }

    function _verify(bytes calldata signature, bytes32 digest, address claimedSigner) private view {
        if (claimedSigner.code.length > 0) {
            bytes4 magic = IERC1271(claimedSigner).isValidSignature(digest, signature);
            if (magic != IERC1271.isValidSignature.selector) revert InvalidContractSignature();
            return;
        }
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (signature.length == 65) {
            (r, s) = abi.decode(signature, (bytes32, bytes32));
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            bytes32 vs;
            (r, vs) = abi.decode(signature, (bytes32, bytes32));
            s = vs & bytes32(0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff);
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            revert InvalidSignatureLength();
        }
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
        if (signer != claimedSigner) revert InvalidSigner();
    }
}

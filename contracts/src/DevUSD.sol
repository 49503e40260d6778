// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// @title DevUSD
/// @notice The stablecoin of the caddy-x402 dev chain: an ERC-20 with 6
/// decimals and EIP-3009 (transfer, receive and cancel with authorization),
/// the same surface x402's `exact` scheme uses on USDC.
/// @dev Signatures are checked with OpenZeppelin's SignatureChecker: ECDSA
/// with low-s and v in {27, 28} for EOAs, ERC-1271 for contract wallets.
contract DevUSD is ERC20, EIP712, Ownable {
    /// @notice keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)")
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    /// @notice keccak256("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)")
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    /// @notice keccak256("CancelAuthorization(address authorizer,bytes32 nonce)")
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    mapping(address => mapping(bytes32 => bool)) private _authorizationStates;

    /// @notice An authorization was used to move tokens.
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    /// @notice An authorization was cancelled before use.
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    /// @notice The authorization's validAfter is still in the future.
    error AuthorizationNotYetValid(uint256 validAfter, uint256 timestamp);
    /// @notice The authorization's validBefore has passed.
    error AuthorizationExpired(uint256 validBefore, uint256 timestamp);
    /// @notice The nonce was already used or cancelled.
    error AuthorizationAlreadyUsed(address authorizer, bytes32 nonce);
    /// @notice The signature is not the authorizer's.
    error InvalidSignature();
    /// @notice receiveWithAuthorization was called by someone other than the payee.
    error CallerNotPayee(address caller, address payee);

    constructor(string memory name_, string memory symbol_, string memory version_)
        ERC20(name_, symbol_)
        EIP712(name_, version_)
    {}

    /// @notice Six decimals, like USDC.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice The EIP-712 domain version that signatures must use.
    function version() external view returns (string memory) {
        (, , string memory domainVersion, , , , ) = eip712Domain();
        return domainVersion;
    }

    /// @notice The EIP-712 domain separator of this token on this chain.
    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice Mints new tokens; only the owner may.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice Whether the authorizer's nonce has been used or cancelled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    /// @notice Executes a transfer with a signed authorization (v, r, s form).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    }

    /// @notice Executes a transfer with a signed authorization (bytes form,
    /// which also accepts ERC-1271 signatures of contract wallets).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public {
        _useAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
        _transfer(from, to, value);
    }

    /// @notice Receives a transfer with a signed authorization; the caller must
    /// be the payee, which stops front-running of the authorization.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        receiveWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    }

    /// @notice Receives a transfer with a signed authorization (bytes form).
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public {
        if (to != msg.sender) revert CallerNotPayee(msg.sender, to);
        _useAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
        _transfer(from, to, value);
    }

    /// @notice Cancels an unused authorization (v, r, s form).
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    /// @notice Cancels an unused authorization (bytes form).
    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) public {
        _requireUnused(authorizer, nonce);
        _requireSignedBy(authorizer, keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)), signature);
        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _useAuthorization(
        bytes32 typeHash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        // solhint-disable-next-line not-rely-on-time
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid(validAfter, block.timestamp);
        // solhint-disable-next-line not-rely-on-time
        if (block.timestamp >= validBefore) revert AuthorizationExpired(validBefore, block.timestamp);
        _requireUnused(from, nonce);
        _requireSignedBy(
            from, keccak256(abi.encode(typeHash, from, to, value, validAfter, validBefore, nonce)), signature
        );
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
    }

    function _requireUnused(address authorizer, bytes32 nonce) private view {
        if (_authorizationStates[authorizer][nonce]) revert AuthorizationAlreadyUsed(authorizer, nonce);
    }

    function _requireSignedBy(address signer, bytes32 structHash, bytes memory signature) private view {
        if (!SignatureChecker.isValidSignatureNow(signer, _hashTypedDataV4(structHash), signature)) {
            revert InvalidSignature();
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

import {IERC20} from "@openzeppelin/contracts-v5/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts-v5/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts-v5/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts-v5/utils/cryptography/SignatureChecker.sol";
import {Multicall} from "@openzeppelin/contracts-v5/utils/Multicall.sol";
import {IERC5267} from "@openzeppelin/contracts-v5/interfaces/IERC5267.sol";

import {IDepositCollector} from "./BatchDepositCollectors.sol";

/// @title X402BatchSettlement
/// @notice The devnet's implementation of x402's `batch-settlement` escrow
/// (unidirectional payment channels), written for caddy-x402 from the
/// scheme's EVM binding and the published ABI of upstream's
/// `x402BatchSettlement`: the same functions, events, EIP-712 domain
/// ("x402 Batch Settlement", "1"), type hashes and channel ids, so that
/// upstream's clients sign for it unchanged. On a real chain use upstream's
/// audited deployment at the same canonical address.
///
/// A channel is the EIP-712 hash of its immutable config. The payer funds it
/// through a deposit collector; the receiver side claims the payer's
/// cumulative vouchers (many channels in one call), which only moves
/// accounting; `settle` sweeps what was claimed to the receiver in one
/// transfer. The payer gets unclaimed funds back by a cooperative refund of
/// the receiver side, or unilaterally by a timed withdrawal.
///
/// The domain separator is computed at each use from `block.chainid` and
/// `address(this)`; nothing depends on a constructor, so the devnet places
/// the runtime code at the canonical address as it is.
contract X402BatchSettlement is Multicall, IERC5267 {
    using SafeERC20 for IERC20;

    /// @notice What a channel is; its EIP-712 hash is the channel id.
    struct ChannelConfig {
        address payer;
        address payerAuthorizer;
        address receiver;
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    /// @notice What a channel holds and what of it the receiver claimed.
    struct ChannelState {
        uint128 balance;
        uint128 totalClaimed;
    }

    /// @notice A timed withdrawal in progress; `initiatedAt` is zero if none.
    struct WithdrawalState {
        uint128 amount;
        uint40 initiatedAt;
    }

    /// @notice What a receiver claimed of a token, and what of it was swept.
    struct ReceiverState {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    /// @notice What the payer signs: a cumulative ceiling for its channel.
    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    /// @notice A voucher, its signature, and the cumulative total the
    /// receiver side claims with it.
    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    /// @notice The shortest timed withdrawal a channel may have.
    uint40 public constant MIN_WITHDRAW_DELAY = 900;
    /// @notice The longest timed withdrawal a channel may have.
    uint40 public constant MAX_WITHDRAW_DELAY = 2592000;

    /// @notice EIP-712 type hash of ChannelConfig.
    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    /// @notice EIP-712 type hash of the payer's Voucher.
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    /// @notice EIP-712 type hash of the receiver authorizer's Refund.
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    /// @notice EIP-712 type hash of one row of a ClaimBatch.
    bytes32 public constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    /// @notice EIP-712 type hash of the receiver authorizer's ClaimBatch.
    bytes32 public constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("x402 Batch Settlement");
    bytes32 private constant VERSION_HASH = keccak256("1");

    /// @dev The transient slot of the reentrancy lock.
    bytes32 private constant LOCK_SLOT = keccak256("caddy-x402.batch-settlement.lock");

    /// @notice Each channel's balance and claimed total.
    mapping(bytes32 channelId => ChannelState) public channels;
    /// @notice The nonce the next refundWithSignature of a channel must carry.
    mapping(bytes32 channelId => uint256) public refundNonce;
    /// @notice Each channel's timed withdrawal in progress.
    mapping(bytes32 channelId => WithdrawalState) public pendingWithdrawals;
    /// @notice What each receiver claimed and was swept, by token.
    mapping(address receiver => mapping(address token => ReceiverState)) public receivers;

    /// @notice A channel's balance went up from nothing, with nothing claimed.
    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    /// @notice A channel's balance went back to nothing, with nothing claimed.
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    /// @notice `amount` went into a channel.
    event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newBalance);
    /// @notice The receiver side claimed `claimAmount` more of a channel.
    event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed);
    /// @notice `amount` of claimed `token` went to `receiver`.
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    /// @notice `amount` of a channel went back to its payer by a cooperative refund.
    event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount);
    /// @notice The payer started a timed withdrawal, final after `finalizeAfter`.
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 finalizeAfter);
    /// @notice A timed withdrawal ended, paying `amount` to the payer.
    event WithdrawFinalized(bytes32 indexed channelId, address indexed sender, uint128 amount);

    error InvalidChannel();
    error ZeroDeposit();
    error DepositOverflow();
    error InvalidSignature();
    error NotReceiverAuthorizer();
    error NotAuthorizedToClaim();
    error NotAuthorizedToRefund();
    error ClaimExceedsCeiling();
    error ClaimExceedsBalance();
    error WithdrawalAlreadyPending();
    error WithdrawalNotPending();
    error NotAuthorizedToFinalizeWithdraw();
    error WithdrawDelayNotElapsed();
    error NothingToWithdraw();
    error WithdrawAmountExceedsAvailable();
    error WithdrawDelayOutOfRange();
    error EmptyBatch();
    error DepositCollectionFailed();
    error InvalidCollector();
    error InvalidRefundNonce();
    error ZeroRefund();
    /// @notice A guarded function was entered again before it returned.
    error ReentrancyGuardReentrantCall();

    /// @dev One guarded call at a time, the lock in transient storage
    /// (EIP-1153), so it costs no storage refund dance.
    modifier nonReentrant() {
        bytes32 slot = LOCK_SLOT;
        bool locked;
        assembly ("memory-safe") {
            locked := tload(slot)
        }
        if (locked) revert ReentrancyGuardReentrantCall();
        assembly ("memory-safe") {
            tstore(slot, 1)
        }
        _;
        assembly ("memory-safe") {
            tstore(slot, 0)
        }
    }

    // ---------------------------------------------------------------- deposit

    /// @notice Funds the channel of `config` with `amount`, which `collector`
    /// pulls from the payer using `collectorData` (its signed authorization).
    /// The contract's balance of the token must go up by exactly `amount`.
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        if (
            config.payer == address(0) || config.receiver == address(0) || config.receiverAuthorizer == address(0)
                || config.token == address(0)
        ) revert InvalidChannel();
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) {
            revert WithdrawDelayOutOfRange();
        }
        if (amount == 0) revert ZeroDeposit();
        if (collector == address(0)) revert InvalidCollector();

        bytes32 id = getChannelId(config);
        ChannelState storage ch = channels[id];
        uint128 before = ch.balance;
        if (amount > type(uint128).max - before) revert DepositOverflow();
        ch.balance = before + amount;

        IERC20 token = IERC20(config.token);
        uint256 held = token.balanceOf(address(this));
        IDepositCollector(collector).collect(config.payer, config.token, amount, id, collectorData);
        if (token.balanceOf(address(this)) != held + amount) revert DepositCollectionFailed();

        if (before == 0 && ch.totalClaimed == 0) emit ChannelCreated(id, config);
        emit Deposited(id, msg.sender, amount, before + amount);
    }

    // ------------------------------------------------------- claim and settle

    /// @notice Records the claims of `voucherClaims`; the caller must be the
    /// receiver or the receiver authorizer of every row's channel.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        uint256 n = voucherClaims.length;
        if (n == 0) revert EmptyBatch();
        for (uint256 i; i < n; ++i) {
            ChannelConfig calldata c = voucherClaims[i].voucher.channel;
            if (msg.sender != c.receiver && msg.sender != c.receiverAuthorizer) revert NotAuthorizedToClaim();
            _claim(voucherClaims[i], getChannelId(c));
        }
    }

    /// @notice Records the claims of `voucherClaims`, which the receiver
    /// authorizer common to every row signed as a ClaimBatch; anyone may
    /// send it.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        uint256 n = voucherClaims.length;
        if (n == 0) revert EmptyBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        // One pass: each row's channel id serves both the batch's digest and
        // the row's own claim, which only runs once the batch's signature
        // holds, so the rows' ids are kept.
        bytes32[] memory ids = new bytes32[](n);
        bytes32[] memory entries = new bytes32[](n);
        for (uint256 i; i < n; ++i) {
            VoucherClaim calldata vc = voucherClaims[i];
            if (vc.voucher.channel.receiverAuthorizer != authorizer) revert NotReceiverAuthorizer();
            bytes32 id = getChannelId(vc.voucher.channel);
            ids[i] = id;
            entries[i] = keccak256(abi.encode(CLAIM_ENTRY_TYPEHASH, id, vc.voucher.maxClaimableAmount, vc.totalClaimed));
        }
        bytes32 digest = _typedHash(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
        if (!SignatureChecker.isValidSignatureNow(authorizer, digest, authorizerSignature)) revert InvalidSignature();
        for (uint256 i; i < n; ++i) {
            _claim(voucherClaims[i], ids[i]);
        }
    }

    /// @notice Sends `receiver` everything of `token` claimed for it and not
    /// yet sent; anyone may call it, and it does nothing when nothing is due.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverState storage rs = receivers[receiver][token];
        uint128 due = rs.totalClaimed - rs.totalSettled;
        if (due == 0) return;
        rs.totalSettled = rs.totalClaimed;
        IERC20(token).safeTransfer(receiver, due);
        emit Settled(receiver, token, msg.sender, due);
    }

    // ------------------------------------------------------------- withdrawal

    /// @notice Starts the payer's timed withdrawal of `amount`, at most the
    /// unclaimed balance; it can be finished `withdrawDelay` seconds later.
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert InvalidChannel();
        if (amount == 0) revert NothingToWithdraw();
        bytes32 id = getChannelId(config);
        WithdrawalState storage w = pendingWithdrawals[id];
        if (w.initiatedAt != 0) revert WithdrawalAlreadyPending();
        ChannelState storage ch = channels[id];
        if (amount > ch.balance - ch.totalClaimed) revert WithdrawAmountExceedsAvailable();
        uint40 now_ = uint40(block.timestamp);
        w.amount = amount;
        w.initiatedAt = now_;
        emit WithdrawInitiated(id, amount, now_ + config.withdrawDelay);
    }

    /// @notice Finishes the payer's timed withdrawal once its delay passed,
    /// paying what was asked, or what is still unclaimed if that is less.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) {
            revert NotAuthorizedToFinalizeWithdraw();
        }
        bytes32 id = getChannelId(config);
        WithdrawalState memory w = pendingWithdrawals[id];
        if (w.initiatedAt == 0) revert WithdrawalNotPending();
        if (block.timestamp < uint256(w.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();
        delete pendingWithdrawals[id];

        ChannelState storage ch = channels[id];
        uint128 out = _min(w.amount, ch.balance - ch.totalClaimed);
        uint128 left = ch.balance - out;
        ch.balance = left;
        emit WithdrawFinalized(id, msg.sender, out);
        if (left == 0 && ch.totalClaimed == 0) emit ChannelClosed(id, config);
        if (out != 0) IERC20(config.token).safeTransfer(config.payer, out);
    }

    // ----------------------------------------------------------------- refund

    /// @notice Returns up to `amount` of the unclaimed balance to the payer;
    /// only the receiver or the receiver authorizer may call it. It advances
    /// the channel's refund nonce even when nothing is left to return.
    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotAuthorizedToRefund();
        _refund(config, getChannelId(config), amount);
    }

    /// @notice The same as `refund`, authorized by the receiver authorizer's
    /// Refund signature over the channel's current nonce; anyone may send it.
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 id = getChannelId(config);
        if (nonce != refundNonce[id]) revert InvalidRefundNonce();
        if (!SignatureChecker.isValidSignatureNow(
                config.receiverAuthorizer, getRefundDigest(id, nonce, amount), receiverAuthorizerSignature
            )) revert InvalidSignature();
        _refund(config, id, amount);
    }

    // ------------------------------------------------------------------ views

    /// @notice The id of the channel of `config`: its EIP-712 hash under this
    /// contract's domain, so it differs between chains and deployments.
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _typedHash(keccak256(abi.encode(CHANNEL_CONFIG_TYPEHASH, config)));
    }

    /// @notice The EIP-712 digest a payer signs for a voucher.
    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedHash(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    /// @notice The EIP-712 digest the receiver authorizer signs for a refund.
    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedHash(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    /// @notice The EIP-712 digest the receiver authorizer signs for a batch
    /// of claims (defined for an empty batch too, which no claim accepts).
    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        uint256 n = voucherClaims.length;
        bytes32[] memory entries = new bytes32[](n);
        for (uint256 i; i < n; ++i) {
            VoucherClaim calldata vc = voucherClaims[i];
            entries[i] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH, getChannelId(vc.voucher.channel), vc.voucher.maxClaimableAmount, vc.totalClaimed
                )
            );
        }
        return _typedHash(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
    }

    /// @notice The EIP-712 domain (ERC-5267).
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", "x402 Batch Settlement", "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    // --------------------------------------------------------------- internal

    /// @dev Applies one claim row of channel `id`. A total at or below what
    /// was already claimed is a no-op (a replayed claim costs nothing).
    function _claim(VoucherClaim calldata vc, bytes32 id) private {
        ChannelState storage ch = channels[id];
        uint128 claimed = ch.totalClaimed;
        uint128 total = vc.totalClaimed;
        if (total <= claimed) return;
        if (total > vc.voucher.maxClaimableAmount) revert ClaimExceedsCeiling();
        if (total > ch.balance) revert ClaimExceedsBalance();

        ChannelConfig calldata c = vc.voucher.channel;
        bytes32 digest = getVoucherDigest(id, vc.voucher.maxClaimableAmount);
        bool ok;
        if (c.payerAuthorizer != address(0)) {
            (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(digest, vc.signature);
            ok = err == ECDSA.RecoverError.NoError && signer == c.payerAuthorizer;
        } else {
            ok = SignatureChecker.isValidSignatureNow(c.payer, digest, vc.signature);
        }
        if (!ok) revert InvalidSignature();

        uint128 delta = total - claimed;
        ch.totalClaimed = total;
        receivers[c.receiver][c.token].totalClaimed += delta;
        emit Claimed(id, msg.sender, delta, total);
    }

    /// @dev The cooperative refund both entry points share: the nonce moves
    /// first, then at most the unclaimed balance goes back, shrinking (or
    /// ending) a timed withdrawal in progress by as much.
    function _refund(ChannelConfig calldata config, bytes32 id, uint128 amount) private {
        if (amount == 0) revert ZeroRefund();
        unchecked {
            ++refundNonce[id];
        }
        ChannelState storage ch = channels[id];
        uint128 out = _min(amount, ch.balance - ch.totalClaimed);
        if (out == 0) return;
        uint128 left = ch.balance - out;
        ch.balance = left;

        WithdrawalState storage w = pendingWithdrawals[id];
        if (w.initiatedAt != 0) {
            if (out >= w.amount) delete pendingWithdrawals[id];
            else w.amount -= out;
        }
        emit Refunded(id, msg.sender, out);
        if (left == 0 && ch.totalClaimed == 0) emit ChannelClosed(id, config);
        IERC20(config.token).safeTransfer(config.payer, out);
    }

    /// @dev The EIP-712 digest of `structHash` under this contract's domain.
    function _typedHash(bytes32 structHash) private view returns (bytes32 digest) {
        bytes32 domain = keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(p, hex"1901")
            mstore(add(p, 0x02), domain)
            mstore(add(p, 0x22), structHash)
            digest := keccak256(p, 0x42)
        }
    }

    function _min(uint128 a, uint128 b) private pure returns (uint128) {
        return a < b ? a : b;
    }
}

// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title WalletProbe
/// @notice Never deployed: the facilitator runs its creation code in an
/// eth_call without a recipient (as ERC-6492's deployless
/// UniversalSigValidator is run), and the constructor returns its findings
/// instead of code. For a payment from a contract wallet, in one call at one
/// block: it deploys the wallet through its ERC-6492 factory if it has no
/// code yet, checks that the factory put code at the payer's address, checks
/// the signature (ECDSA, then ERC-1271, as OpenZeppelin's SignatureChecker
/// does), and runs the token's transferWithAuthorization. Each step that runs
/// the wallet's or the factory's code gets at most `gasBudget` gas, and the
/// gas each used is returned, so the facilitator can refuse a payment whose
/// settlement would cost more than it allows before it pays for anything.
contract WalletProbe {
    /// @notice The probe's verdicts, in the order the steps run.
    uint256 internal constant OK = 0;
    uint256 internal constant FACTORY_REVERTED = 1;
    uint256 internal constant NOT_DEPLOYED = 2;
    uint256 internal constant BAD_SIGNATURE = 3;
    uint256 internal constant TRANSFER_REVERTED = 4;
    uint256 internal constant NO_MULTICALL = 5;

    /// @notice Runs the probe and returns abi.encode(uint256 verdict,
    /// uint256 deployGas, uint256 transferGas, bytes revertData). A
    /// deployment's settlement goes through `multicall`, which must have code.
    constructor(
        address token,
        address from,
        bytes32 digest,
        bytes memory signature,
        address factory,
        bytes memory factoryData,
        bytes memory transferCall,
        uint256 gasBudget,
        address multicall
    ) {
        uint256 verdict = OK;
        uint256 deployGas;
        uint256 transferGas;
        bytes memory detail;
        if (factory != address(0) && multicall.code.length == 0) {
            verdict = NO_MULTICALL;
        } else if (factory != address(0) && from.code.length == 0) {
            uint256 before = gasleft();
            (bool ok, bytes memory ret) = factory.call{gas: gasBudget}(factoryData);
            deployGas = before - gasleft();
            if (!ok) {
                verdict = FACTORY_REVERTED;
                detail = ret;
            } else if (from.code.length == 0) {
                verdict = NOT_DEPLOYED;
            }
        }
        if (verdict == OK && !_signed(from, digest, signature, gasBudget)) {
            verdict = BAD_SIGNATURE;
        }
        if (verdict == OK) {
            uint256 before = gasleft();
            (bool ok, bytes memory ret) = token.call{gas: gasBudget}(transferCall);
            transferGas = before - gasleft();
            if (!ok) {
                verdict = TRANSFER_REVERTED;
                detail = ret;
            }
        }
        bytes memory out = abi.encode(verdict, deployGas, transferGas, detail);
        assembly {
            return(add(out, 32), mload(out))
        }
    }

    /// @dev ECDSA by `from`'s key, or ERC-1271 from its code, within `gasBudget`.
    function _signed(address from, bytes32 digest, bytes memory signature, uint256 gasBudget)
        private
        view
        returns (bool)
    {
        (address signer, ECDSA.RecoverError err) = ECDSA.tryRecover(digest, signature);
        if (err == ECDSA.RecoverError.NoError && signer == from) return true;
        if (from.code.length == 0) return false;
        (bool ok, bytes memory ret) =
            from.staticcall{gas: gasBudget}(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && ret.length >= 32 && abi.decode(ret, (bytes32)) == bytes32(IERC1271.isValidSignature.selector);
    }
}

// Package contracts holds caddy-x402's on-chain half: the Solidity sources of
// the devnet stablecoin (DevUSD, an ERC-20 with EIP-3009), of the aa-native
// settlement contract (X402Settlement), of the exact batch contract
// (X402Batch, with its packed calldata in batch.go) and of the paymaster for
// gas paid in an ERC-20 (TokenPaymaster, with its paymasterAndData and
// signing hash in Go), the ERC-4337 v0.6 contracts they work with
// (EntryPoint, SimpleAccountFactory, SimpleAccount, VerifyingPaymaster from
// @account-abstraction/contracts@0.6.0), and abigen v2 bindings for all of
// them. FreeRiderAccount (a dishonest account), OpenPaymaster (a paymaster
// that sponsors every operation), SettablePriceFeed (a settable Chainlink
// feed) and FeeToken (a token that keeps a fee on transfer) are test-only:
// tests deploy them on a devnet; see their sources. WalletProbe and
// TransferProbe are never deployed: the facilitator and the paymaster run
// their creation code in an eth_call.
//
// EntryPoint v0.8's contracts are compiled in a build of their own into
// ep08/combined.json and bound in package ep08.
//
// The build is pinned: solc 0.8.37 from npm, standard JSON, optimizer on,
// EVM version cancun. combined.json and bindings.go are generated and
// committed; `go generate ./contracts` rebuilds them byte for byte, which CI
// checks.
package contracts

//go:generate npm ci --silent --no-audit --no-fund
//go:generate node compile.mjs
//go:generate go tool abigen --v2 --combined-json combined.json --pkg contracts --out bindings.go --exc src/TokenPaymasterV07.sol:*,@account-abstraction/contracts-v07/core/EntryPoint.sol:*,@account-abstraction/contracts-v07/samples/SimpleAccountFactory.sol:*,@account-abstraction/contracts-v07/samples/SimpleAccount.sol:*,@account-abstraction/contracts-v07/samples/VerifyingPaymaster.sol:*
//go:generate go tool abigen --v2 --combined-json combined.json --pkg ep07 --out ep07/bindings.go --exc src/DevUSD.sol:*,src/X402Settlement.sol:*,src/X402Batch.sol:*,src/TokenPaymaster.sol:*,src/Permit2.sol:*,src/X402ExactPermit2Proxy.sol:*,src/X402UptoPermit2Proxy.sol:*,src/DevPermitToken.sol:*,src/OwnerWallet.sol:*,src/EOADelegate.sol:*,src/Multicall3.sol:*,src/WalletProbe.sol:*,src/TransferProbe.sol:*,src/FreeRiderAccount.sol:*,src/OpenPaymaster.sol:*,src/SettablePriceFeed.sol:*,src/FeeToken.sol:*,src/RogueWallet.sol:*,@account-abstraction/contracts/core/EntryPoint.sol:*,@account-abstraction/contracts/samples/SimpleAccountFactory.sol:*,@account-abstraction/contracts/samples/SimpleAccount.sol:*,@account-abstraction/contracts/samples/VerifyingPaymaster.sol:*
//go:generate go tool abigen --v2 --combined-json ep08/combined.json --pkg ep08 --out ep08/bindings.go
//go:generate go tool abigen --v2 --combined-json batchsettle/combined.json --pkg batchsettle --out batchsettle/bindings.go

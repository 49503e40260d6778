// Package wellknown holds the fixed, public values of caddy-x402's dev
// chain: its test mnemonic and key derivation, chain id, default address,
// stablecoin and the addresses its genesis gives the contracts.
//
// It is light on purpose. Package devnet, which runs the chain, links
// go-ethereum's node, and a Caddy built with the nodevnet tag leaves it out
// while it still reads these values (the devnet's defaults, the paymaster's
// and the faucet's development keys); that build then idles in less memory.
package wellknown

import (
	"fmt"
	"net"
	"strconv"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// The dev chain's defaults.
const (
	// ChainID is the dev chain's chain id, the one Hardhat and Anvil use.
	ChainID = 31337
	// Addr is where the dev chain serves JSON-RPC over HTTP by default.
	Addr = "127.0.0.1:8545"
	// Accounts is how many accounts of TestMnemonic the chain funds.
	Accounts = 10
	// TokenName, TokenSymbol and TokenVersion name the devnet stablecoin
	// and its EIP-712 domain.
	TokenName    = "Devnet USD"
	TokenSymbol  = "dUSD"
	TokenVersion = "1"
	// TokenDecimals is the devnet stablecoin's decimals, like USDC.
	TokenDecimals = 6
	// PermitTokenName and PermitTokenSymbol name the devnet's token
	// without EIP-3009 (EIP-2612 permit, EIP-712 version "1"), paid
	// through Permit2.
	PermitTokenName   = "Devnet Permit Token"
	PermitTokenSymbol = "dPT"
	// PaymasterSignerIndex is the mnemonic index of the VerifyingPaymaster's
	// signer, just past the funded accounts of the default configuration.
	PaymasterSignerIndex = 10
)

// Contracts are the addresses of the dev chain's predeployed contracts.
type Contracts struct {
	// EntryPoint is the ERC-4337 v0.6 EntryPoint.
	EntryPoint common.Address
	// AccountFactory is the SimpleAccountFactory, the canonical factory of
	// aa-native smart accounts.
	AccountFactory common.Address
	// AccountImplementation is the SimpleAccount the factory's proxies use.
	AccountImplementation common.Address
	// Paymaster is the VerifyingPaymaster, with an EntryPoint deposit.
	Paymaster common.Address
	// Token is the DevUSD stablecoin (6 decimals, EIP-3009).
	Token common.Address
	// Settlement is the X402Settlement contract, with Token allowlisted.
	Settlement common.Address
	// Batch is the X402Batch contract, which settles many exact payments
	// in one transaction.
	Batch common.Address
	// TokenPaymaster is the TokenPaymaster (gas paid in an ERC-20), signed
	// for by the VerifyingPaymaster's signer, with an EntryPoint deposit
	// and stake.
	TokenPaymaster common.Address
	// PermitToken is the DevPermitToken (6 decimals, EIP-2612, no
	// EIP-3009).
	PermitToken common.Address
	// Permit2, ExactPermit2Proxy and UptoPermit2Proxy are Permit2 and
	// x402's two Permit2 proxies, at their canonical addresses
	// (contracts.Permit2Address and the proxies' beside it).
	Permit2, ExactPermit2Proxy, UptoPermit2Proxy common.Address
	// BatchSettlement, ERC3009DepositCollector and Permit2DepositCollector
	// are our implementation of x402's batch-settlement contracts (payment
	// channels), at upstream's canonical addresses
	// (contracts.BatchSettlementAddress and the collectors' beside it).
	BatchSettlement, ERC3009DepositCollector, Permit2DepositCollector common.Address
	// WalletFactory is the OwnerWalletFactory: CREATE2 clones of an
	// ERC-1271 wallet of one owner key, the devnet's smart-wallet payers of
	// exact (deployed, or counterfactual with ERC-6492).
	WalletFactory common.Address
	// EOADelegate is the code the devnet's EOAs delegate to with EIP-7702
	// (ERC-1271 for the account's own key).
	EOADelegate common.Address
	// Multicall3 is a stand-in for Multicall3's aggregate3 at the address it
	// has on most chains (contracts.Multicall3Address).
	Multicall3 common.Address
	// SmartAccounts are the counterfactual SimpleAccounts (salt 0) of the
	// funded accounts, in the same order; each holds tokens, no code yet.
	SmartAccounts []common.Address
	// Wallets are the counterfactual OwnerWallets (salt 0) of the funded
	// accounts, in the same order; each holds tokens, no code yet.
	Wallets []common.Address

	// EntryPointV07 is the ERC-4337 v0.7 EntryPoint, at its canonical
	// address (ep07.Address), with its SenderCreator at the canonical
	// ep07.SenderCreatorAddress.
	EntryPointV07 common.Address
	// AccountFactoryV07 is the v0.7 SimpleAccountFactory.
	AccountFactoryV07 common.Address
	// AccountImplementationV07 is the v0.7 SimpleAccount its proxies use.
	AccountImplementationV07 common.Address
	// PaymasterV07 is the v0.7 VerifyingPaymaster, with the same signer
	// as Paymaster and an EntryPoint v0.7 deposit.
	PaymasterV07 common.Address
	// TokenPaymasterV07 is the v0.7 TokenPaymasterV07 (gas paid in an
	// ERC-20 on EntryPoint v0.7), with the same signer, deposit and stake
	// as TokenPaymaster, owned like it by account #0.
	TokenPaymasterV07 common.Address
	// SmartAccountsV07 are the funded accounts' counterfactual v0.7
	// SimpleAccounts (salt 0), in the same order; each holds tokens.
	SmartAccountsV07 []common.Address

	// EntryPointV08 is the ERC-4337 v0.8 EntryPoint, at its canonical
	// address (ep08.Address), with its SenderCreator at the canonical
	// ep08.SenderCreatorAddress.
	EntryPointV08 common.Address
	// AccountFactoryV08 is the v0.8 SimpleAccountFactory.
	AccountFactoryV08 common.Address
	// AccountImplementationV08 is the v0.8 SimpleAccount its proxies use.
	AccountImplementationV08 common.Address
	// PaymasterV08 is our VerifyingPaymasterV08, with the same signer as
	// Paymaster and an EntryPoint v0.8 deposit.
	PaymasterV08 common.Address
	// TokenPaymasterV08 is our TokenPaymasterV08 (gas paid in an ERC-20 on
	// EntryPoint v0.8), with the same signer, deposit and stake as
	// TokenPaymaster, owned like it by account #0.
	TokenPaymasterV08 common.Address
	// Simple7702Account is the v0.8 Simple7702Account, the delegate an
	// EOA names in its EIP-7702 authorization to send v0.8 operations as
	// its own account.
	Simple7702Account common.Address
	// SmartAccountsV08 are the funded accounts' counterfactual v0.8
	// SimpleAccounts (salt 0), in the same order; each holds tokens.
	SmartAccountsV08 []common.Address
}

// EntryPointSet is one EntryPoint version's contracts on the dev chain.
type EntryPointSet struct {
	EntryPoint, AccountFactory, Paymaster, TokenPaymaster common.Address
	// Delegate is the account code an EOA delegates to with EIP-7702 to
	// send this version's operations; zero where the version takes none.
	Delegate common.Address
}

// EntryPointSets are the dev chain's EntryPoints by version (as package
// entrypoint names them), each with its factory and paymasters: the
// defaults of an entry_point on the devnet. A version the dev chain adds
// is a line here.
func (c Contracts) EntryPointSets() map[string]EntryPointSet {
	return map[string]EntryPointSet{
		"0.6": {c.EntryPoint, c.AccountFactory, c.Paymaster, c.TokenPaymaster, common.Address{}},
		"0.7": {c.EntryPointV07, c.AccountFactoryV07, c.PaymasterV07, c.TokenPaymasterV07, common.Address{}},
		"0.8": {c.EntryPointV08, c.AccountFactoryV08, c.PaymasterV08, c.TokenPaymasterV08, c.Simple7702Account},
	}
}

// WalletDeployer deploys the devnet's smart-wallet contracts (the
// OwnerWalletFactory with its nonce 0, the EOADelegate with 1) in the
// genesis, so that their addresses do not depend on what account #0
// deploys. No one has its key: it is a hash.
var WalletDeployer = common.BytesToAddress(crypto.Keccak256([]byte("caddy-x402 devnet wallet deployer"))[12:])

// EntryPointV07 is EntryPoint v0.7's canonical address, where the dev
// chain puts it too.
var EntryPointV07 = common.HexToAddress("0x0000000071727De22E5E9d8BAf0edAc6f37da032")

// DeployerV07 deploys the dev chain's v0.7 factory and paymaster at
// genesis, with nonces of its own so that v0.6's addresses stay put. It is
// keyless: keccak256("caddy-x402 devnet v0.7 deployer")'s last 20 bytes.
var DeployerV07 = common.BytesToAddress(crypto.Keccak256([]byte("caddy-x402 devnet v0.7 deployer")))

// EntryPointV08 is EntryPoint v0.8's canonical address, where the dev
// chain puts it too.
var EntryPointV08 = common.HexToAddress("0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108")

// DeployerV08 deploys the dev chain's v0.8 contracts at genesis, with
// nonces of its own so that the other versions' addresses stay put. It is
// keyless: keccak256("caddy-x402 devnet v0.8 deployer")'s last 20 bytes.
var DeployerV08 = common.BytesToAddress(crypto.Keccak256([]byte("caddy-x402 devnet v0.8 deployer")))

// GenesisContracts returns where the default dev chain's genesis puts its
// contracts, known before it starts: account 0 of TestMnemonic deploys the
// EntryPoint, the SimpleAccountFactory, the VerifyingPaymaster, the token,
// the settlement contract, the batch contract, the TokenPaymaster and the
// permit token with its nonces 0 to 7, and Permit2, its proxies and the
// batch-settlement contracts are at their canonical addresses. The smart-wallet contracts are WalletDeployer's,
// and Multicall3 is at its usual address. The v0.7 EntryPoint is at its
// canonical address; DeployerV07 deploys the v0.7 factory, paymaster and
// token paymaster with its nonces 1 to 3 (nonce 0 built the EntryPoint,
// which genesis moves to its canonical address), and DeployerV08 does the
// same for v0.8, with Simple7702Account at its nonce 4. SmartAccounts, AccountImplementation and their
// v0.7 counterparts are not set. Package devnet's tests hold the chain to it.
var GenesisContracts = sync.OnceValue(func() Contracts {
	key, err := DeriveKey(TestMnemonic, 0)
	if err != nil {
		panic(fmt.Sprintf("deriving the devnet's deployer: %v", err)) // a constant mnemonic
	}
	deployer := crypto.PubkeyToAddress(key.PublicKey)
	return Contracts{
		EntryPoint:     crypto.CreateAddress(deployer, 0),
		AccountFactory: crypto.CreateAddress(deployer, 1),
		Paymaster:      crypto.CreateAddress(deployer, 2),
		Token:          crypto.CreateAddress(deployer, 3),
		Settlement:     crypto.CreateAddress(deployer, 4),
		Batch:          crypto.CreateAddress(deployer, 5),
		TokenPaymaster: crypto.CreateAddress(deployer, 6),
		PermitToken:    crypto.CreateAddress(deployer, 7),

		Permit2: contracts.Permit2Address, ExactPermit2Proxy: contracts.ExactPermit2ProxyAddress, UptoPermit2Proxy: contracts.UptoPermit2ProxyAddress,
		BatchSettlement: contracts.BatchSettlementAddress, ERC3009DepositCollector: contracts.ERC3009DepositCollectorAddress,
		Permit2DepositCollector: contracts.Permit2DepositCollectorAddress,
		WalletFactory:           crypto.CreateAddress(WalletDeployer, 0),
		EOADelegate:             crypto.CreateAddress(WalletDeployer, 1),
		Multicall3:              contracts.Multicall3Address,

		EntryPointV07:     EntryPointV07,
		AccountFactoryV07: crypto.CreateAddress(DeployerV07, 1),
		PaymasterV07:      crypto.CreateAddress(DeployerV07, 2),
		TokenPaymasterV07: crypto.CreateAddress(DeployerV07, 3),

		EntryPointV08:     EntryPointV08,
		AccountFactoryV08: crypto.CreateAddress(DeployerV08, 1),
		PaymasterV08:      crypto.CreateAddress(DeployerV08, 2),
		TokenPaymasterV08: crypto.CreateAddress(DeployerV08, 3),
		Simple7702Account: crypto.CreateAddress(DeployerV08, 4),
	}
})

// SplitAddr splits a dev chain's host:port; an empty host is 127.0.0.1,
// and port 0 asks for a free port.
func SplitAddr(addr string) (string, int, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("RPC address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("RPC address %q: bad port", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return host, port, nil
}

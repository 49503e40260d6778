package contracts

import "github.com/ethereum/go-ethereum/common"

// The canonical addresses of Permit2 and of x402's two Permit2 proxies, the
// same on every chain: upstream's clients sign for them, the exact and upto
// schemes settle through them, and the devnet's genesis puts their code
// there.
var (
	Permit2Address           = common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")
	ExactPermit2ProxyAddress = common.HexToAddress("0x402085c248EeA27D92E8b30b2C58ed07f9E20001")
	UptoPermit2ProxyAddress  = common.HexToAddress("0x4020A4f3b7b90ccA423B9fabCc0CE57C6C240002")
)

// Multicall3Address is where Multicall3 lives on most EVM chains (deployed
// with a presigned transaction); exact settles an undeployed ERC-6492
// wallet's payment through its aggregate3, and the devnet puts a stand-in
// there.
var Multicall3Address = common.HexToAddress("0xcA11bde05977b3631167028862bE2a173976CA11")

// The canonical addresses of x402's batch-settlement contracts, the same on
// every chain: upstream's clients derive channel ids from the settlement
// contract's address and sign deposits for the collectors, and the devnet's
// genesis puts our implementation's code there (package batchsettle).
var (
	BatchSettlementAddress         = common.HexToAddress("0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003")
	ERC3009DepositCollectorAddress = common.HexToAddress("0x4020806089470a89826cB9fB1f4059150b550004")
	Permit2DepositCollectorAddress = common.HexToAddress("0x4020425FAf3B746C082C2f942b4E5159887B0005")
)

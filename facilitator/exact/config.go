package exact

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
)

// Asset is an allowlisted EIP-3009 token and its EIP-712 domain.
type Asset struct {
	// Address is the token contract.
	Address common.Address
	// Name and Version are the token's EIP-712 domain name and version, as
	// the contract has them (USDC: "USD Coin" or "USDC", and "2").
	Name, Version string
	// Decimals, if not zero, is what the token's decimals() must answer
	// (see CheckTokens); verification does not use it.
	Decimals uint8
	// Permit2 marks a token without EIP-3009, paid through Permit2 and
	// x402's exact Permit2 proxy (assetTransferMethod "permit2"); Name and
	// Version are then its EIP-2612 domain, for the permits of Permit2
	// that payments may carry.
	Permit2 bool
}

// Chain is the chain access verification needs: batched JSON-RPC calls.
// *rpc.Client has it.
type Chain interface {
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

// Config configures a Scheme.
type Config struct {
	// ChainID is the chain the facilitator settles on.
	ChainID *big.Int
	// Assets is the allowlist.
	Assets []Asset
	// Chain reads balances and authorization state.
	Chain Chain
	// Settler is the address that sends settlements: the facilitator an
	// upto payment must name, and the sender of the simulations.
	Settler common.Address
	// MinValidity is how long an authorization must stay valid after
	// verification, to leave time to settle; default 6 s.
	MinValidity time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Committed returns what the payer's unfinished settlements in token
	// will take from its balance; the balance must cover that and the
	// payment, or the settlement would revert on chain at the settler's
	// cost. Nil counts nothing.
	Committed func(payer, token common.Address) *big.Int
	// GroupSize bounds how many payments' chain state one eth_call reads,
	// when concurrent verifications share it; default 32, at most 256.
	GroupSize int
	// WalletGas bounds what a contract wallet's payment may make the
	// settler spend on the payer's code: the gas of its deployment
	// (ERC-6492) and its transfer (with the wallet's ERC-1271 check)
	// together. A payment over it is refused at verify, and its settlement
	// transaction's gas limit holds it (with the transaction's own costs);
	// default 300,000.
	WalletGas uint64
	// Multicall3 is where Multicall3 lives: the settlement of an ERC-6492
	// payment deploys the wallet and pays in one aggregate3 call to it;
	// default 0xcA11bde05977b3631167028862bE2a173976CA11, its address on
	// most chains (and the devnet's).
	Multicall3 common.Address
	// Parallel is how many of those eth_calls may be under way before a
	// verification's read waits to share the next one; default 2. A read
	// waits at most for the calls that were under way when it came, and a
	// read that fills a group goes out at once. Against a near node, whose
	// calls take under 5 ms on average, one call is under way at a time
	// whatever Parallel says, until it is 5 ms old: waiting for it costs a
	// read less than the round trip it saves both sides (see reader).
	Parallel int
}

// maxWalletGas bounds Config.WalletGas: a block's worth of a payer's code
// is no payment's.
const maxWalletGas = 10_000_000

// Validate reports what is wrong with the configuration.
func (c Config) Validate() error {
	var errs []error
	if c.ChainID == nil || c.ChainID.Sign() <= 0 {
		errs = append(errs, errors.New("chain id is missing"))
	}
	if len(c.Assets) == 0 {
		errs = append(errs, errors.New("no assets are allowlisted for the exact scheme"))
	}
	for i, a := range c.Assets {
		if a.Address == (common.Address{}) || a.Name == "" || a.Version == "" {
			errs = append(errs, fmt.Errorf("asset %d: address, EIP-712 name and version are all required", i))
		}
	}
	if c.Chain == nil {
		errs = append(errs, errors.New("chain is missing"))
	}
	if c.GroupSize < 0 || c.GroupSize > maxGroupSize || c.Parallel < 0 {
		errs = append(errs, fmt.Errorf("group size must be 0 to %d, and parallel reads not negative", maxGroupSize))
	}
	if c.WalletGas > maxWalletGas {
		errs = append(errs, fmt.Errorf("wallet gas %d is over %d", c.WalletGas, maxWalletGas))
	}
	return errors.Join(errs...)
}

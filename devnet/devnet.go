// Package devnet runs an embedded Ethereum development chain in-process:
// go-ethereum with a simulated beacon, every caddy-x402 contract predeployed
// in the genesis block, and the well-known test accounts funded with ETH and
// the devnet stablecoin.
//
// It is what lets a newcomer pay and settle for real on one machine, with no
// outside chain: the default Caddy configuration, the tests, the examples and
// the benchmarks all start one. Its JSON-RPC is served over HTTP, so anything
// that speaks Ethereum (ethclient, viem, a bundler, a wallet) can use it.
//
// By default a block is sealed as soon as a transaction arrives. In that mode
// a block's time is max(now, parent+1), so a burst of blocks moves the
// chain's clock ahead of the wall clock; the devnet caps that lead at
// MaxClockLead by waiting, and compares of validity windows should still use
// the latest block's time as well as the wall clock.
package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/eth/tracers"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"

	// Native tracers (callTracer, prestateTracer) for debug_trace* calls,
	// which bundlers and explorers use.
	_ "github.com/ethereum/go-ethereum/eth/tracers/native"
)

// Defaults of [Config], and the dev chain's other fixed values; package
// wellknown holds them for code that must not link the chain.
const (
	DefaultChainID      = wellknown.ChainID
	DefaultAddr         = wellknown.Addr
	DefaultAccounts     = wellknown.Accounts
	DefaultTokenName    = wellknown.TokenName
	DefaultTokenSymbol  = wellknown.TokenSymbol
	DefaultTokenVersion = wellknown.TokenVersion
	// TokenDecimals is the devnet stablecoin's decimals, like USDC.
	TokenDecimals = wellknown.TokenDecimals
	// PaymasterSignerIndex is the mnemonic index of the VerifyingPaymaster's
	// signer, just past the funded accounts of the default configuration.
	PaymasterSignerIndex = wellknown.PaymasterSignerIndex
	// TestMnemonic is the well-known development mnemonic used by Hardhat,
	// Anvil and Foundry. Its accounts are public: never send real funds to
	// them.
	TestMnemonic = wellknown.TestMnemonic
)

// Contracts are the addresses of the predeployed contracts.
type Contracts = wellknown.Contracts

// DeriveKey returns the private key at m/44'/60'/0'/0/index of a BIP-39
// mnemonic with an empty passphrase (see [wellknown.DeriveKey]).
func DeriveKey(mnemonic string, index uint32) (*ecdsa.PrivateKey, error) {
	return wellknown.DeriveKey(mnemonic, index)
}

var (
	ether = big.NewInt(params.Ether)
	// DefaultAccountETH is each funded account's balance: 10,000 ETH.
	DefaultAccountETH = new(big.Int).Mul(big.NewInt(10_000), ether)
	// DefaultAccountTokens is each funded account's token balance:
	// 1,000,000 tokens of 6 decimals.
	DefaultAccountTokens = big.NewInt(1_000_000_000_000)
	// DefaultPaymasterDeposit is the paymaster's EntryPoint deposit: 1,000 ETH.
	DefaultPaymasterDeposit = new(big.Int).Mul(big.NewInt(1_000), ether)
	// DefaultPaymasterStake is the paymaster's EntryPoint stake: 1 ETH.
	DefaultPaymasterStake = new(big.Int).Set(ether)
)

// Config configures a devnet. The zero value is the default devnet.
type Config struct {
	// ChainID is the chain id; default 31337.
	ChainID uint64
	// Addr is the host:port of the HTTP JSON-RPC server; default
	// 127.0.0.1:8545. Port 0 picks a free port.
	Addr string
	// BlockPeriod seals a block every period, in whole seconds. Zero, the
	// default, seals a block as soon as a transaction arrives.
	BlockPeriod time.Duration
	// Mnemonic derives the funded accounts; default TestMnemonic.
	Mnemonic string
	// Accounts is how many accounts of the mnemonic are funded; default 10.
	// Account 0 deploys and owns the contracts.
	Accounts int
	// AccountETH is each funded account's ETH balance in wei; default
	// 10,000 ETH.
	AccountETH *big.Int
	// AccountTokens is each funded account's token balance in atomic units;
	// default 1,000,000 tokens.
	AccountTokens *big.Int
	// PaymasterDeposit is the EntryPoint deposit in wei of each paymaster
	// (the VerifyingPaymaster and the TokenPaymaster);
	// default 1,000 ETH.
	PaymasterDeposit *big.Int
	// TokenName, TokenSymbol and TokenVersion name the stablecoin and its
	// EIP-712 domain; defaults "Devnet USD", "dUSD" and "1".
	TokenName, TokenSymbol, TokenVersion string
	// GasLimit is the block gas limit; default 30,000,000.
	GasLimit uint64
	// Logger receives the devnet's own log lines; nil logs nothing.
	Logger *zap.Logger
}

func (c Config) withDefaults() Config {
	if c.ChainID == 0 {
		c.ChainID = DefaultChainID
	}
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.Mnemonic == "" {
		c.Mnemonic = TestMnemonic
	}
	if c.Accounts == 0 {
		c.Accounts = DefaultAccounts
	}
	if c.AccountETH == nil {
		c.AccountETH = DefaultAccountETH
	}
	if c.AccountTokens == nil {
		c.AccountTokens = DefaultAccountTokens
	}
	if c.PaymasterDeposit == nil {
		c.PaymasterDeposit = DefaultPaymasterDeposit
	}
	if c.TokenName == "" {
		c.TokenName = DefaultTokenName
	}
	if c.TokenSymbol == "" {
		c.TokenSymbol = DefaultTokenSymbol
	}
	if c.TokenVersion == "" {
		c.TokenVersion = DefaultTokenVersion
	}
	if c.GasLimit == 0 {
		c.GasLimit = 30_000_000
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	return c
}

// Validate reports what is wrong with the configuration, after defaults.
func (c Config) Validate() error {
	c = c.withDefaults()
	var errs []error
	if _, _, err := wellknown.SplitAddr(c.Addr); err != nil {
		errs = append(errs, err)
	}
	if c.BlockPeriod < 0 || c.BlockPeriod%time.Second != 0 {
		errs = append(errs, fmt.Errorf("block period %v: want zero or whole seconds", c.BlockPeriod))
	}
	if c.Accounts < 1 || c.Accounts > PaymasterSignerIndex {
		errs = append(errs, fmt.Errorf("accounts %d: want 1 to %d", c.Accounts, PaymasterSignerIndex))
	}
	for name, v := range map[string]*big.Int{"account ETH": c.AccountETH, "account tokens": c.AccountTokens, "paymaster deposit": c.PaymasterDeposit} {
		if v.Sign() < 0 {
			errs = append(errs, fmt.Errorf("%s must not be negative", name))
		}
	}
	if c.GasLimit < 5_000_000 {
		errs = append(errs, fmt.Errorf("gas limit %d is too low to deploy the EntryPoint", c.GasLimit))
	}
	return errors.Join(errs...)
}

// Token describes the devnet stablecoin.
type Token struct {
	Address  common.Address
	Name     string
	Symbol   string
	Version  string
	Decimals uint8
}

// Devnet is a running development chain. Its fields are set by [Start] and
// must not be changed.
type Devnet struct {
	// URL is the HTTP JSON-RPC endpoint, such as http://127.0.0.1:8545.
	URL string
	// ChainID is the chain id.
	ChainID *big.Int
	// Contracts are the predeployed contracts.
	Contracts Contracts
	// Token is the devnet stablecoin.
	Token Token
	// Accounts are the funded accounts, in mnemonic order. Accounts[0]
	// deployed and owns the token, the settlement contract and the paymaster.
	Accounts []Account
	// PaymasterSigner is the VerifyingPaymaster's off-chain signer (not
	// funded; it only signs).
	PaymasterSigner Account

	node    *node.Node
	backend *eth.Ethereum
	beacon  *catalyst.SimulatedBeacon
	log     *zap.Logger
	// ctx is the devnet's life: Close cancels it, which stops the sealer
	// and ends every Wait.
	ctx    context.Context
	cancel context.CancelFunc
	// sealer seals on demand; nil with a block period. sealed is closed
	// once it has stopped.
	sealer *sealer
	sealed chan struct{}
	// seal is held while a block is sealed, so that Reorg and the seal
	// loop take turns.
	seal *sync.Mutex
	// period is Config.BlockPeriod.
	period time.Duration
}

// clock is the on-demand sealer's view of the wall clock: what time it is
// and a timer. Start gives it the real one; tests give it one they move, so
// that they watch the sealer wait rather than time it.
type clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// wallClock is the real clock.
type wallClock struct{}

func (wallClock) Now() time.Time                         { return time.Now() }
func (wallClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Start builds the genesis, starts the chain and its HTTP JSON-RPC server,
// and returns once the RPC answers. Close it when done.
func Start(ctx context.Context, cfg Config) (*Devnet, error) {
	return startWith(ctx, cfg, options{clk: wallClock{}})
}

// options are what tests change in a devnet beyond its Config.
type options struct {
	// clk is the clock the on-demand sealer paces itself by.
	clk clock
	// deaf makes the on-demand sealer drop the pool's announcements of new
	// transactions, so that only its backstop seals them.
	deaf bool
}

// startWith is Start with test options.
func startWith(ctx context.Context, cfg Config, opt options) (*Devnet, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("devnet config: %w", err)
	}
	cfg = cfg.withDefaults()
	started := time.Now()

	accounts, err := deriveAccounts(cfg.Mnemonic, 0, cfg.Accounts)
	if err != nil {
		return nil, err
	}
	signers, err := deriveAccounts(cfg.Mnemonic, PaymasterSignerIndex, 1)
	if err != nil {
		return nil, err
	}
	funded := make([]common.Address, len(accounts))
	for i, a := range accounts {
		funded[i] = a.Address
	}
	genesis, contracts, err := buildGenesis(genesisPlan{
		chainID:          cfg.ChainID,
		deployer:         accounts[0].Address,
		paymasterSigner:  signers[0].Address,
		funded:           funded,
		accountETH:       cfg.AccountETH,
		accountTokens:    cfg.AccountTokens,
		paymasterDeposit: cfg.PaymasterDeposit,
		paymasterStake:   DefaultPaymasterStake,
		tokenName:        cfg.TokenName,
		tokenSymbol:      cfg.TokenSymbol,
		tokenVersion:     cfg.TokenVersion,
		permitName:       wellknown.PermitTokenName,
		permitSymbol:     wellknown.PermitTokenSymbol,
		gasLimit:         cfg.GasLimit,
		// Calls against the latest block before the first transaction run
		// at the genesis time; it must be now, not 1970.
		timestamp: uint64(started.Unix()),
	})
	if err != nil {
		return nil, fmt.Errorf("building genesis: %w", err)
	}

	host, port, _ := wellknown.SplitAddr(cfg.Addr)
	stack, err := node.New(&node.Config{
		Name:                 "caddy-x402-devnet",
		DataDir:              "", // in memory
		HTTPHost:             host,
		HTTPPort:             port,
		HTTPModules:          []string{"eth", "net", "web3", "txpool", "debug"},
		HTTPVirtualHosts:     []string{"*"},
		HTTPCors:             []string{"*"},
		HTTPTimeouts:         rpc.DefaultHTTPTimeouts,
		BatchRequestLimit:    node.DefaultConfig.BatchRequestLimit,
		BatchResponseMaxSize: node.DefaultConfig.BatchResponseMaxSize,
		HTTPBodyLimit:        node.DefaultConfig.HTTPBodyLimit,
		P2P:                  p2p.Config{NoDiscovery: true, MaxPeers: 0},
	})
	if err != nil {
		return nil, fmt.Errorf("creating node: %w", err)
	}
	ethConf := ethconfig.Defaults
	ethConf.Genesis = genesis
	ethConf.NetworkId = cfg.ChainID
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	// eth_call and eth_estimateGas may run for a minute, not geth's 5 s:
	// a loaded test machine running a hundred simulations at once (the
	// paymaster's concurrency tests under -race) took longer, and the
	// caller saw a timeout where the chain would have answered.
	ethConf.RPCEVMTimeout = time.Minute
	// A dev chain takes bursts (a soak test, a batch of payments, a test's
	// thousand transactions) that geth's mainnet limits would silently cut:
	// transactions arrive in the queue and are promoted by a background
	// loop, and a queue over GlobalQueue (or an account's over
	// AccountQueue) in between loses its newest transactions, which then
	// never mine. The devnet holds far more.
	ethConf.TxPool.GlobalQueue, ethConf.TxPool.AccountQueue = 1<<16, 1<<14
	ethConf.TxPool.GlobalSlots, ethConf.TxPool.AccountSlots = 1<<16, 1<<14
	// See minerRecommit: a builder starved for geth's 2 s sealed empty
	// blocks with transactions pending.
	ethConf.Miner.Recommit = minerRecommit
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("creating chain: %w", err)
	}
	stack.RegisterAPIs(tracers.APIs(backend.APIBackend))
	stack.RegisterAPIs([]rpc.API{{
		Namespace: "eth",
		Service:   filters.NewFilterAPI(filters.NewFilterSystem(backend.APIBackend, filters.Config{})),
	}})
	beacon, err := catalyst.NewSimulatedBeacon(uint64(cfg.BlockPeriod/time.Second), common.Address{}, backend)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("creating beacon: %w", err)
	}
	// With a period, the beacon's lifecycle seals on a timer. Without one,
	// the devnet's own sealer seals as transactions arrive. It subscribes
	// to the pool here, before the node serves RPC: a transaction sent the
	// moment Start returns must not be announced before anyone listens.
	stack.RegisterLifecycle(beacon)
	seal := new(sync.Mutex)
	var s *sealer
	if cfg.BlockPeriod == 0 {
		s = newSealer(backend, beacon, seal, opt.clk, cfg.Logger, uint256.MustFromBig(ethConf.Miner.GasPrice))
		s.deaf = opt.deaf
	}
	if err := stack.Start(); err != nil {
		if s != nil {
			s.sub.Unsubscribe()
		}
		stack.Close()
		return nil, fmt.Errorf("starting node on %s: %w", cfg.Addr, err)
	}
	life, cancel := context.WithCancel(context.Background())
	sealed := make(chan struct{})
	if s != nil {
		go func() {
			defer close(sealed)
			s.run(life)
		}()
	} else {
		close(sealed)
	}

	d := &Devnet{
		URL:       stack.HTTPEndpoint(),
		ChainID:   new(big.Int).SetUint64(cfg.ChainID),
		Contracts: contracts,
		Token: Token{
			Address: contracts.Token, Name: cfg.TokenName, Symbol: cfg.TokenSymbol,
			Version: cfg.TokenVersion, Decimals: TokenDecimals,
		},
		Accounts:        accounts,
		PaymasterSigner: signers[0],
		node:            stack,
		backend:         backend,
		beacon:          beacon,
		log:             cfg.Logger,
		ctx:             life,
		cancel:          cancel,
		sealer:          s,
		sealed:          sealed,
		seal:            seal,
		period:          cfg.BlockPeriod,
	}
	if err := d.waitReady(ctx); err != nil {
		d.Close()
		return nil, err
	}
	d.log.Info("devnet started",
		zap.String("rpc", d.URL),
		zap.Uint64("chain_id", cfg.ChainID),
		zap.Stringer("token", contracts.Token),
		zap.Stringer("entry_point", contracts.EntryPoint),
		zap.Stringer("account_factory", contracts.AccountFactory),
		zap.Stringer("paymaster", contracts.Paymaster),
		zap.Stringer("settlement", contracts.Settlement),
		zap.Stringer("batch", contracts.Batch),
		zap.Stringer("token_paymaster", contracts.TokenPaymaster),
		zap.Stringer("token_paymaster_v07", contracts.TokenPaymasterV07),
		zap.Duration("took", time.Since(started)))
	return d, nil
}

// waitReady returns once the HTTP RPC answers with the right chain id.
func (d *Devnet) waitReady(ctx context.Context) error {
	client, err := rpc.DialContext(ctx, d.URL)
	if err != nil {
		return fmt.Errorf("dialing devnet RPC: %w", err)
	}
	defer client.Close()
	var id string
	if err := client.CallContext(ctx, &id, "eth_chainId"); err != nil {
		return fmt.Errorf("devnet RPC not answering: %w", err)
	}
	if want := "0x" + d.ChainID.Text(16); id != want {
		return fmt.Errorf("devnet RPC answers chain id %s, want %s", id, want)
	}
	return nil
}

// AdjustTime seals an empty block whose time is the latest block's time plus
// adjustment, moving the chain's clock forward. Tests use it for validity
// windows.
func (d *Devnet) AdjustTime(adjustment time.Duration) error {
	// Take turns with the on-demand sealer: the beacon seals one block at
	// a time.
	d.seal.Lock()
	defer d.seal.Unlock()
	return d.beacon.AdjustTime(adjustment)
}

// Seal seals a block at once with the pool's pending transactions, however
// far the chain's clock runs ahead of the wall clock. A test that moved the
// clock past MaxClockLead with AdjustTime (a payment channel's withdraw
// delay, say) seals its next transactions with it, which the on-demand
// sealer would hold until the wall clock caught up.
func (d *Devnet) Seal() common.Hash {
	d.seal.Lock()
	defer d.seal.Unlock()
	if err := d.backend.TxPool().Sync(); err != nil {
		d.log.Warn("syncing the pool before a seal", zap.Error(err))
	}
	return d.beacon.Commit()
}

// Attach returns a JSON-RPC client connected to the chain in process: no
// HTTP, and it takes subscriptions (eth_subscribe newHeads). Close it when
// done; it stops working when the devnet closes.
func (d *Devnet) Attach() *rpc.Client {
	return d.node.Attach()
}

// Reorg replaces the latest depth blocks of the chain with depth+1 new
// ones, as a chain reorganisation would: the head moves back to the block
// depth below it, and new blocks are sealed on top of that, one more than
// were replaced, so the new branch is the longer. With keep, the replaced
// blocks' transactions go back to the pool (as a node reinjects them) and
// the first new block includes them again, in a block with another hash;
// without it they are dropped, and their senders must broadcast them
// again. Reorg returns the hashes of the replaced blocks.
//
// Reorg is for a devnet that seals on demand (Config.BlockPeriod 0). It
// fails if transactions are pending; seal them first.
func (d *Devnet) Reorg(depth uint64, keep bool) ([]common.Hash, error) {
	if d.period != 0 {
		return nil, errors.New("devnet: Reorg needs a devnet that seals on demand")
	}
	if depth == 0 {
		return nil, errors.New("devnet: Reorg needs a depth of at least 1")
	}
	d.seal.Lock()
	defer d.seal.Unlock()
	backend := d.backend
	chain := backend.BlockChain()
	head := chain.CurrentBlock()
	if head.Number.Uint64() < depth {
		return nil, fmt.Errorf("devnet: the chain has %d blocks; cannot replace %d", head.Number.Uint64(), depth)
	}
	replaced := make([]common.Hash, 0, depth)
	var txs []common.Hash
	for n := head.Number.Uint64(); n > head.Number.Uint64()-depth; n-- {
		b := chain.GetBlockByNumber(n)
		replaced = append(replaced, b.Hash())
		for _, tx := range b.Transactions() {
			txs = append(txs, tx.Hash())
		}
	}
	base := chain.GetHeaderByNumber(head.Number.Uint64() - depth)
	if err := d.beacon.Fork(base.Hash()); err != nil {
		return nil, fmt.Errorf("devnet: rewinding to block %d: %w", base.Number.Uint64(), err)
	}
	// The pool takes the replaced blocks' transactions back when it sees
	// the new head, in the background: wait for them, so that they are
	// dropped, or mined in the first new block, and not later.
	pool := backend.TxPool()
	for deadline := time.Now().Add(5 * time.Second); ; {
		if err := pool.Sync(); err != nil {
			return nil, fmt.Errorf("devnet: syncing the pool: %w", err)
		}
		if !slices.ContainsFunc(txs, func(h common.Hash) bool { return !pool.Has(h) }) || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if !keep {
		d.beacon.Rollback()
	}
	for range depth + 1 {
		d.beacon.Commit()
		if err := pool.Sync(); err != nil {
			return nil, fmt.Errorf("devnet: syncing the pool: %w", err)
		}
	}
	d.log.Info("devnet reorganised", zap.Uint64("depth", depth), zap.Bool("kept_transactions", keep),
		zap.Uint64("head", chain.CurrentBlock().Number.Uint64()))
	return replaced, nil
}

// Close stops the chain and its RPC server.
func (d *Devnet) Close() error {
	if d.node == nil {
		return nil
	}
	d.cancel()
	<-d.sealed
	err := d.node.Close()
	d.node = nil
	d.log.Info("devnet stopped")
	return err
}

// Account is a funded development account.
type Account struct {
	// Address is the account's address.
	Address common.Address
	// Key is the account's private key.
	Key *ecdsa.PrivateKey
}

// deriveAccounts derives the accounts at indexes [from, from+n).
func deriveAccounts(mnemonic string, from, n int) ([]Account, error) {
	accounts := make([]Account, n)
	for i := range accounts {
		key, err := DeriveKey(mnemonic, uint32(from+i))
		if err != nil {
			return nil, fmt.Errorf("deriving account %d: %w", from+i, err)
		}
		accounts[i] = Account{Address: crypto.PubkeyToAddress(key.PublicKey), Key: key}
	}
	return accounts, nil
}

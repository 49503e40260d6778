package devnet

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
)

// chainConfig is geth's dev chain on every fork up to Osaka. Bogota and
// Amsterdam are left off: Bogota's gas repricing breaks the EntryPoint's
// first UserOperation.
func chainConfig(chainID uint64) *params.ChainConfig {
	c := *params.AllDevChainProtocolChanges
	c.ChainID = new(big.Int).SetUint64(chainID)
	c.BogotaTime = nil
	c.AmsterdamTime = nil
	return &c
}

// recorder collects, while constructors and setup calls run in an in-memory
// EVM, every contract created and every storage slot written, so the final
// state can be copied into the genesis alloc. Geth's state-change hooks do
// not fire inside runtime.Create, so it watches SSTORE at the opcode level.
type recorder struct {
	created []common.Address
	slots   map[common.Address]map[common.Hash]struct{}
}

func (r *recorder) hooks() *tracing.Hooks {
	return &tracing.Hooks{
		OnEnter: func(_ int, typ byte, _, to common.Address, _ []byte, _ uint64, _ *big.Int) {
			if op := vm.OpCode(typ); op == vm.CREATE || op == vm.CREATE2 {
				r.created = append(r.created, to)
			}
		},
		OnOpcode: func(_ uint64, op byte, _, _ uint64, scope tracing.OpContext, _ []byte, _ int, _ error) {
			if vm.OpCode(op) != vm.SSTORE {
				return
			}
			stack := scope.StackData()
			if len(stack) == 0 {
				return
			}
			addr := scope.Address()
			if r.slots[addr] == nil {
				r.slots[addr] = make(map[common.Hash]struct{})
			}
			r.slots[addr][common.Hash(stack[len(stack)-1].Bytes32())] = struct{}{}
		},
	}
}

// genesisPlan is what buildGenesis deploys and funds.
type genesisPlan struct {
	chainID          uint64
	deployer         common.Address
	paymasterSigner  common.Address
	funded           []common.Address
	accountETH       *big.Int
	accountTokens    *big.Int
	paymasterDeposit *big.Int
	paymasterStake   *big.Int
	tokenName        string
	tokenSymbol      string
	tokenVersion     string
	permitName       string
	permitSymbol     string
	gasLimit         uint64
	timestamp        uint64
}

// buildGenesis runs the constructors of every contract and the setup calls
// (mints, allowlist, paymaster deposit and stake) from the deployer in an
// in-memory EVM, then returns a genesis whose alloc holds the resulting code,
// storage, balances and nonces. Bytecode alone would be wrong: the
// EntryPoint, the factory, the paymaster and EIP-712 store values at
// construction.
func buildGenesis(p genesisPlan) (*core.Genesis, Contracts, error) {
	var c Contracts
	st, err := state.New(types.EmptyRootHash, state.NewDatabaseForTesting())
	if err != nil {
		return nil, c, err
	}
	rec := &recorder{slots: make(map[common.Address]map[common.Hash]struct{})}
	chain := chainConfig(p.chainID)
	cfg := &runtime.Config{
		ChainConfig: chain,
		Origin:      p.deployer,
		GasLimit:    p.gasLimit,
		BaseFee:     big.NewInt(0),
		State:       st,
		EVMConfig:   vm.Config{Tracer: rec.hooks()},
	}
	// The deployer pays the deposit and stake; its genesis balance is set
	// afterwards like every other account's.
	budget := new(big.Int).Add(p.paymasterDeposit, p.paymasterStake)
	// Two of each: the VerifyingPaymasters' and the TokenPaymasters'.
	budget.Mul(budget, big.NewInt(2))
	st.AddBalance(wellknown.DeployerV07, uint256.MustFromBig(budget), tracing.BalanceChangeUnspecified)
	st.AddBalance(wellknown.DeployerV08, uint256.MustFromBig(budget), tracing.BalanceChangeUnspecified)
	st.AddBalance(p.deployer, uint256.MustFromBig(budget), tracing.BalanceChangeUnspecified)

	deploy := func(name string, md *bind.MetaData, args []byte) (common.Address, error) {
		code := append(common.FromHex(md.Bin), args...)
		_, addr, _, err := runtime.Create(code, cfg)
		if err != nil {
			return common.Address{}, fmt.Errorf("deploying %s: %w", name, err)
		}
		return addr, nil
	}
	call := func(what string, to common.Address, input []byte, value *big.Int) error {
		cfg.Value = value
		defer func() { cfg.Value = nil }()
		if _, _, err := runtime.Call(to, input, cfg); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}

	if err := deployContracts(p, &c, deploy); err != nil {
		return nil, c, err
	}
	placed, err := placeCanonical(st, &c)
	if err != nil {
		return nil, c, err
	}
	// The smart-wallet contracts come from a deployer of their own, so
	// their addresses do not move with account #0's deployments.
	cfg.Origin = wellknown.WalletDeployer
	if c.WalletFactory, err = deploy("OwnerWalletFactory", &contracts.OwnerWalletFactoryMetaData, nil); err != nil {
		return nil, c, err
	}
	if c.EOADelegate, err = deploy("EOADelegate", &contracts.EOADelegateMetaData, nil); err != nil {
		return nil, c, err
	}
	cfg.Origin = p.deployer
	if err := counterfactualAccounts(p, cfg, &c); err != nil {
		return nil, c, err
	}
	if err := deployEP07(p, st, rec, cfg, &c, call); err != nil {
		return nil, c, err
	}
	if err := deployEP08(p, st, rec, cfg, &c, call); err != nil {
		return nil, c, err
	}
	if err := fundAccounts(p, &c, call); err != nil {
		return nil, c, err
	}
	alloc, err := genesisAlloc(p, st, rec, placed, chain, &c)
	if err != nil {
		return nil, c, err
	}
	return &core.Genesis{
		Config:     chain,
		GasLimit:   p.gasLimit,
		BaseFee:    big.NewInt(params.InitialBaseFee),
		Difficulty: big.NewInt(0),
		Timestamp:  p.timestamp,
		Alloc:      alloc,
	}, c, nil
}

// deployContracts deploys the v0.6 contracts, the tokens, the settlement
// and batch contracts and the token paymaster from p's deployer.
func deployContracts(p genesisPlan, c *Contracts, deploy func(name string, md *bind.MetaData, args []byte) (common.Address, error)) error {
	var err error
	steps := []struct {
		at   *common.Address
		name string
		md   *bind.MetaData
		args func() []byte // read once the addresses before it are known
	}{
		{&c.EntryPoint, "EntryPoint", &contracts.EntryPointMetaData, func() []byte { return nil }},
		{&c.AccountFactory, "SimpleAccountFactory", &contracts.SimpleAccountFactoryMetaData, func() []byte {
			return contracts.NewSimpleAccountFactory().PackConstructor(c.EntryPoint)
		}},
		{&c.Paymaster, "VerifyingPaymaster", &contracts.VerifyingPaymasterMetaData, func() []byte {
			return contracts.NewVerifyingPaymaster().PackConstructor(c.EntryPoint, p.paymasterSigner)
		}},
		{&c.Token, "DevUSD", &contracts.DevUSDMetaData, func() []byte {
			return contracts.NewDevUSD().PackConstructor(p.tokenName, p.tokenSymbol, p.tokenVersion)
		}},
		{&c.Settlement, "X402Settlement", &contracts.X402SettlementMetaData, func() []byte {
			return contracts.NewX402Settlement().PackConstructor([]common.Address{c.Token})
		}},
		{&c.Batch, "X402Batch", &contracts.X402BatchMetaData, func() []byte { return nil }},
		{&c.TokenPaymaster, "TokenPaymaster", &contracts.TokenPaymasterMetaData, func() []byte {
			return contracts.NewTokenPaymaster().PackConstructor(c.EntryPoint, p.paymasterSigner)
		}},
		{&c.PermitToken, "DevPermitToken", &contracts.DevPermitTokenMetaData, func() []byte {
			return contracts.NewDevPermitToken().PackConstructor(p.permitName, p.permitSymbol)
		}},
	}
	for _, s := range steps {
		if *s.at, err = deploy(s.name, s.md, s.args()); err != nil {
			return err
		}
	}
	return nil
}

// placeCanonical puts Permit2, the x402 proxies and the batch-settlement
// contracts at their canonical addresses, the ones upstream's clients sign
// for, and returns those addresses. Their runtime code is placed there as it is: none of it
// depends on a constructor (no immutables; the domain separator is
// computed from address(this) at each call).
func placeCanonical(st *state.StateDB, c *Contracts) ([]common.Address, error) {
	canonical := []struct {
		addr *common.Address
		at   common.Address
		md   *bind.MetaData
	}{
		{&c.Permit2, contracts.Permit2Address, &contracts.Permit2MetaData},
		{&c.ExactPermit2Proxy, contracts.ExactPermit2ProxyAddress, &contracts.X402ExactPermit2ProxyMetaData},
		{&c.UptoPermit2Proxy, contracts.UptoPermit2ProxyAddress, &contracts.X402UptoPermit2ProxyMetaData},
		{&c.BatchSettlement, contracts.BatchSettlementAddress, &batchsettle.X402BatchSettlementMetaData},
		{&c.ERC3009DepositCollector, contracts.ERC3009DepositCollectorAddress, &batchsettle.ERC3009DepositCollectorMetaData},
		{&c.Permit2DepositCollector, contracts.Permit2DepositCollectorAddress, &batchsettle.Permit2DepositCollectorMetaData},
	}
	var placed []common.Address
	for _, k := range canonical {
		runtimeCode, err := deployedCode(k.md)
		if err != nil {
			return nil, err
		}
		st.SetCode(k.at, runtimeCode, tracing.CodeChangeUnspecified)
		*k.addr = k.at
		placed = append(placed, k.at)
	}
	return placed, nil
}

// counterfactualAccounts reads the factory's SimpleAccount implementation and each
// funded key's counterfactual accounts: its smart account (SimpleAccount,
// salt 0), which gets tokens too so that aa-native payments work from the
// same test keys and deploys itself on first use, and its OwnerWallet
// (salt 0), undeployed, which its first exact payment deploys (ERC-6492).
func counterfactualAccounts(p genesisPlan, cfg *runtime.Config, c *Contracts) error {
	factory := contracts.NewSimpleAccountFactory()
	// The factory deploys its SimpleAccount implementation in its constructor.
	impl, _, err := runtime.Call(c.AccountFactory, factory.PackAccountImplementation(), cfg)
	if err != nil {
		return fmt.Errorf("reading accountImplementation: %w", err)
	}
	if c.AccountImplementation, err = factory.UnpackAccountImplementation(impl); err != nil {
		return err
	}
	c.SmartAccounts = make([]common.Address, len(p.funded))
	for i, a := range p.funded {
		out, _, err := runtime.Call(c.AccountFactory, factory.PackGetAddress(a, new(big.Int)), cfg)
		if err != nil {
			return fmt.Errorf("deriving the smart account of %s: %w", a, err)
		}
		if c.SmartAccounts[i], err = factory.UnpackGetAddress(out); err != nil {
			return err
		}
	}
	walletFactory := contracts.NewOwnerWalletFactory()
	c.Wallets = make([]common.Address, len(p.funded))
	for i, a := range p.funded {
		out, _, err := runtime.Call(c.WalletFactory, walletFactory.PackGetAddress(a, [32]byte{}), cfg)
		if err != nil {
			return fmt.Errorf("deriving the OwnerWallet of %s: %w", a, err)
		}
		if c.Wallets[i], err = walletFactory.UnpackGetAddress(out); err != nil {
			return err
		}
	}
	return nil
}

// fundAccounts mints both tokens to every funded key and its accounts,
// and deposits (and stakes) for the paymaster and the token paymaster.
func fundAccounts(p genesisPlan, c *Contracts, call func(what string, to common.Address, input []byte, value *big.Int) error) error {
	token, permitTok := contracts.NewDevUSD(), contracts.NewDevPermitToken()
	paymaster, tokenPM := contracts.NewVerifyingPaymaster(), contracts.NewTokenPaymaster()
	for _, a := range slices.Concat(p.funded, c.SmartAccounts, c.Wallets, c.SmartAccountsV07, c.SmartAccountsV08) {
		if err := call("minting to "+a.Hex(), c.Token, token.PackMint(a, p.accountTokens), nil); err != nil {
			return err
		}
		if err := call("minting dPT to "+a.Hex(), c.PermitToken, permitTok.PackMint(a, p.accountTokens), nil); err != nil {
			return err
		}
	}
	if err := call("depositing for the paymaster", c.Paymaster, paymaster.PackDeposit(), p.paymasterDeposit); err != nil {
		return err
	}
	// The TokenPaymaster has the same deposit and stake: a staked
	// paymaster may read its senders' token balances and allowances in
	// validation under ERC-4337's storage rules.
	if err := call("depositing for the token paymaster", c.TokenPaymaster, tokenPM.PackDeposit(), p.paymasterDeposit); err != nil {
		return err
	}
	if p.paymasterStake.Sign() > 0 {
		if err := call("staking the paymaster", c.Paymaster, paymaster.PackAddStake(86400), p.paymasterStake); err != nil {
			return err
		}
		if err := call("staking the token paymaster", c.TokenPaymaster, tokenPM.PackAddStake(86400), p.paymasterStake); err != nil {
			return err
		}
	}
	return nil
}

// genesisAlloc is the genesis alloc of what the in-memory EVM left: the
// code, storage, balance and nonce of every contract created or placed,
// Multicall3, the funded keys' ETH, and the deployers' nonces.
func genesisAlloc(p genesisPlan, st *state.StateDB, rec *recorder, placed []common.Address, chain *params.ChainConfig, c *Contracts) (types.GenesisAlloc, error) {
	alloc := core.SystemContractAllocs()
	for _, addr := range append(rec.created, placed...) {
		code := st.GetCode(addr)
		if len(code) == 0 {
			continue // creation reverted
		}
		storage := make(map[common.Hash]common.Hash)
		for slot := range rec.slots[addr] {
			if v := st.GetState(addr, slot); v != (common.Hash{}) {
				storage[slot] = v
			}
		}
		alloc[addr] = types.Account{
			Code:    code,
			Storage: storage,
			Balance: st.GetBalance(addr).ToBig(),
			Nonce:   st.GetNonce(addr),
		}
	}
	// Multicall3 has no constructor and no storage: its runtime code goes
	// at the address it has on most chains.
	// Its creation code, run as a call in a scratch state, returns it.
	multicall, _, err := runtime.Execute(common.FromHex(contracts.Multicall3MetaData.Bin), nil, &runtime.Config{ChainConfig: chain})
	if err != nil {
		return nil, fmt.Errorf("building Multicall3: %w", err)
	}
	c.Multicall3 = contracts.Multicall3Address
	alloc[c.Multicall3] = types.Account{Code: multicall, Balance: new(big.Int)}
	for _, a := range p.funded {
		alloc[a] = types.Account{Balance: new(big.Int).Set(p.accountETH), Nonce: st.GetNonce(a)}
	}
	alloc[wellknown.DeployerV07] = types.Account{Balance: new(big.Int), Nonce: st.GetNonce(wellknown.DeployerV07)}
	alloc[wellknown.DeployerV08] = types.Account{Balance: new(big.Int), Nonce: st.GetNonce(wellknown.DeployerV08)}
	if _, ok := alloc[p.deployer]; !ok {
		alloc[p.deployer] = types.Account{Balance: new(big.Int), Nonce: st.GetNonce(p.deployer)}
	}
	return alloc, nil
}

// deployedCode is the runtime code of a contract whose constructor takes no
// arguments and leaves no storage: its constructor is run in a scratch
// state, so that the genesis's deployer nonces stay as they are.
func deployedCode(md *bind.MetaData) ([]byte, error) {
	st, err := state.New(types.EmptyRootHash, state.NewDatabaseForTesting())
	if err != nil {
		return nil, err
	}
	code, _, _, err := runtime.Create(common.FromHex(md.Bin), &runtime.Config{State: st, GasLimit: 30_000_000, BaseFee: big.NewInt(0)})
	if err != nil {
		return nil, fmt.Errorf("running the constructor of %s: %w", md.ID, err)
	}
	return code, nil
}

// moveContract moves a contract built at from to to, with code as its
// code: its nonce and the storage rec saw written go along, and from is
// emptied (left out of the alloc).
func moveContract(st *state.StateDB, rec *recorder, from, to common.Address, code []byte) {
	st.SetCode(to, code, tracing.CodeChangeUnspecified)
	st.SetNonce(to, st.GetNonce(from), tracing.NonceChangeUnspecified)
	slots := make(map[common.Hash]struct{})
	for slot := range rec.slots[from] {
		st.SetState(to, slot, st.GetState(from, slot))
		slots[slot] = struct{}{}
	}
	rec.slots[to] = slots
	st.SetCode(from, nil, tracing.CodeChangeUnspecified)
	rec.created = append(rec.created, to)
}

// deployEP07 deploys EntryPoint v0.7 at its canonical address, and the v0.7
// SimpleAccountFactory and VerifyingPaymaster (deposit and stake as v0.6's)
// from wellknown.DeployerV07, and derives the funded keys' v0.7 smart
// accounts. It runs before the mints, which include those accounts.
//
// The EntryPoint is built at DeployerV07's first CREATE address, then its
// code and storage move to the canonical address. Its constructor created
// its SenderCreator and holds that address as an immutable in its code;
// the SenderCreator moves to the canonical ep07.SenderCreatorAddress (the
// canonical EntryPoint's first CREATE, which EntryPointSimulations
// assumes) and the immutable is patched to match.
func deployEP07(p genesisPlan, st *state.StateDB, rec *recorder, cfg *runtime.Config, c *Contracts,
	call func(what string, to common.Address, input []byte, value *big.Int) error) error {
	origin := cfg.Origin
	cfg.Origin = wellknown.DeployerV07
	defer func() { cfg.Origin = origin }()

	var (
		factory   = ep07.NewSimpleAccountFactory()
		paymaster = ep07.NewVerifyingPaymaster()
		tokenPM   = ep07.NewTokenPaymasterV07()
	)
	_, built, _, err := runtime.Create(common.FromHex(ep07.EntryPointMetaData.Bin), cfg)
	if err != nil {
		return fmt.Errorf("deploying EntryPoint v0.7: %w", err)
	}
	builtCreator := crypto.CreateAddress(built, 1)
	code := st.GetCode(built)
	if len(st.GetCode(builtCreator)) == 0 || !bytes.Contains(code, builtCreator.Bytes()) {
		return fmt.Errorf("EntryPoint v0.7 did not create its SenderCreator at %s", builtCreator)
	}
	move := func(from, to common.Address, code []byte) { moveContract(st, rec, from, to, code) }
	move(builtCreator, ep07.SenderCreatorAddress, st.GetCode(builtCreator))
	move(built, wellknown.EntryPointV07, bytes.ReplaceAll(code, builtCreator.Bytes(), ep07.SenderCreatorAddress.Bytes()))
	c.EntryPointV07 = wellknown.EntryPointV07

	deploy := func(name string, bin string, args []byte) (common.Address, error) {
		_, addr, _, err := runtime.Create(append(common.FromHex(bin), args...), cfg)
		if err != nil {
			return common.Address{}, fmt.Errorf("deploying %s v0.7: %w", name, err)
		}
		return addr, nil
	}
	if c.AccountFactoryV07, err = deploy("SimpleAccountFactory", ep07.SimpleAccountFactoryMetaData.Bin, factory.PackConstructor(c.EntryPointV07)); err != nil {
		return err
	}
	if c.PaymasterV07, err = deploy("VerifyingPaymaster", ep07.VerifyingPaymasterMetaData.Bin, paymaster.PackConstructor(c.EntryPointV07, p.paymasterSigner)); err != nil {
		return err
	}
	if c.TokenPaymasterV07, err = deploy("TokenPaymasterV07", ep07.TokenPaymasterV07MetaData.Bin, tokenPM.PackConstructor(c.EntryPointV07, p.paymasterSigner)); err != nil {
		return err
	}
	impl, _, err := runtime.Call(c.AccountFactoryV07, factory.PackAccountImplementation(), cfg)
	if err != nil {
		return fmt.Errorf("reading the v0.7 accountImplementation: %w", err)
	}
	if c.AccountImplementationV07, err = factory.UnpackAccountImplementation(impl); err != nil {
		return err
	}
	for _, a := range p.funded {
		out, _, err := runtime.Call(c.AccountFactoryV07, factory.PackGetAddress(a, new(big.Int)), cfg)
		if err != nil {
			return fmt.Errorf("deriving the v0.7 smart account of %s: %w", a, err)
		}
		acct, err := factory.UnpackGetAddress(out)
		if err != nil {
			return err
		}
		c.SmartAccountsV07 = append(c.SmartAccountsV07, acct)
	}
	if err := call("depositing for the v0.7 paymaster", c.PaymasterV07, paymaster.PackDeposit(), p.paymasterDeposit); err != nil {
		return err
	}
	if p.paymasterStake.Sign() > 0 {
		if err := call("staking the v0.7 paymaster", c.PaymasterV07, paymaster.PackAddStake(86400), p.paymasterStake); err != nil {
			return err
		}
	}
	// The token paymaster: the same deposit and stake (it reads the
	// sender's token storage in validation), and account #0 as its owner,
	// as of v0.6's, to withdraw what it collects.
	if err := call("depositing for the v0.7 token paymaster", c.TokenPaymasterV07, tokenPM.PackDeposit(), p.paymasterDeposit); err != nil {
		return err
	}
	if p.paymasterStake.Sign() > 0 {
		if err := call("staking the v0.7 token paymaster", c.TokenPaymasterV07, tokenPM.PackAddStake(86400), p.paymasterStake); err != nil {
			return err
		}
	}
	return call("handing the v0.7 token paymaster to account #0", c.TokenPaymasterV07, tokenPM.PackTransferOwnership(origin), nil)
}

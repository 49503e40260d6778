package devnet

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts/ep08"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
)

// deployEP08 deploys EntryPoint v0.8 at its canonical address, and the v0.8
// SimpleAccountFactory, our VerifyingPaymasterV08 and TokenPaymasterV08
// (deposits and stakes as v0.6's) and Simple7702Account from
// wellknown.DeployerV08, and derives the funded keys' v0.8 smart accounts.
// It runs before the mints, which include those accounts.
//
// As v0.7's, the EntryPoint is built at DeployerV08's first CREATE address
// and moved, with its SenderCreator, to the canonical addresses. v0.8's
// code holds more of where it was built, as immutables, and each is
// patched: the SenderCreator's address in the EntryPoint, the
// EntryPoint's in the SenderCreator (which serves only its EntryPoint),
// and the EntryPoint's own address and EIP-712 domain separator, which
// OpenZeppelin's EIP712 caches (a mismatch would only cost gas: the
// separator would be computed on every call).
func deployEP08(p genesisPlan, st *state.StateDB, rec *recorder, cfg *runtime.Config, c *Contracts,
	call func(what string, to common.Address, input []byte, value *big.Int) error) error {
	origin := cfg.Origin
	cfg.Origin = wellknown.DeployerV08
	defer func() { cfg.Origin = origin }()

	_, built, _, err := runtime.Create(common.FromHex(ep08.EntryPointMetaData.Bin), cfg)
	if err != nil {
		return fmt.Errorf("deploying EntryPoint v0.8: %w", err)
	}
	builtCreator := crypto.CreateAddress(built, 1)
	code, creatorCode := st.GetCode(built), st.GetCode(builtCreator)
	chainID := new(big.Int).SetUint64(p.chainID)
	builtSep, sep := ep08.DomainSeparator(built, chainID), ep08.DomainSeparator(wellknown.EntryPointV08, chainID)
	for _, want := range []struct {
		in, what []byte
		name     string
	}{
		{code, builtCreator.Bytes(), "its SenderCreator's address"},
		{code, built.Bytes(), "its own address"},
		{code, builtSep.Bytes(), "its domain separator"},
		{creatorCode, built.Bytes(), "the SenderCreator's EntryPoint"},
	} {
		if !bytes.Contains(want.in, want.what) {
			return fmt.Errorf("EntryPoint v0.8 built at %s: %s is not in its code", built, want.name)
		}
	}
	code = bytes.ReplaceAll(code, builtCreator.Bytes(), ep08.SenderCreatorAddress.Bytes())
	code = bytes.ReplaceAll(code, built.Bytes(), wellknown.EntryPointV08.Bytes())
	code = bytes.ReplaceAll(code, builtSep.Bytes(), sep.Bytes())
	moveContract(st, rec, builtCreator, ep08.SenderCreatorAddress, bytes.ReplaceAll(creatorCode, built.Bytes(), wellknown.EntryPointV08.Bytes()))
	moveContract(st, rec, built, wellknown.EntryPointV08, code)
	c.EntryPointV08 = wellknown.EntryPointV08

	var (
		factory   = ep08.NewSimpleAccountFactory()
		paymaster = ep08.NewVerifyingPaymasterV08()
		tokenPM   = ep08.NewTokenPaymasterV08()
	)
	deploy := func(name string, bin string, args []byte) (common.Address, error) {
		_, addr, _, err := runtime.Create(append(common.FromHex(bin), args...), cfg)
		if err != nil {
			return common.Address{}, fmt.Errorf("deploying %s v0.8: %w", name, err)
		}
		return addr, nil
	}
	if c.AccountFactoryV08, err = deploy("SimpleAccountFactory", ep08.SimpleAccountFactoryMetaData.Bin, factory.PackConstructor(c.EntryPointV08)); err != nil {
		return err
	}
	if c.PaymasterV08, err = deploy("VerifyingPaymasterV08", ep08.VerifyingPaymasterV08MetaData.Bin, paymaster.PackConstructor(c.EntryPointV08, p.paymasterSigner)); err != nil {
		return err
	}
	if c.TokenPaymasterV08, err = deploy("TokenPaymasterV08", ep08.TokenPaymasterV08MetaData.Bin, tokenPM.PackConstructor(c.EntryPointV08, p.paymasterSigner)); err != nil {
		return err
	}
	if c.Simple7702Account, err = deploy("Simple7702Account", ep08.Simple7702AccountMetaData.Bin, nil); err != nil {
		return err
	}
	impl, _, err := runtime.Call(c.AccountFactoryV08, factory.PackAccountImplementation(), cfg)
	if err != nil {
		return fmt.Errorf("reading the v0.8 accountImplementation: %w", err)
	}
	if c.AccountImplementationV08, err = factory.UnpackAccountImplementation(impl); err != nil {
		return err
	}
	for _, a := range p.funded {
		out, _, err := runtime.Call(c.AccountFactoryV08, factory.PackGetAddress(a, new(big.Int)), cfg)
		if err != nil {
			return fmt.Errorf("deriving the v0.8 smart account of %s: %w", a, err)
		}
		acct, err := factory.UnpackGetAddress(out)
		if err != nil {
			return err
		}
		c.SmartAccountsV08 = append(c.SmartAccountsV08, acct)
	}
	for _, pm := range []struct {
		what    string
		address common.Address
	}{{"paymaster", c.PaymasterV08}, {"token paymaster", c.TokenPaymasterV08}} {
		if err := call("depositing for the v0.8 "+pm.what, pm.address, paymaster.PackDeposit(), p.paymasterDeposit); err != nil {
			return err
		}
		if p.paymasterStake.Sign() > 0 {
			if err := call("staking the v0.8 "+pm.what, pm.address, paymaster.PackAddStake(86400), p.paymasterStake); err != nil {
				return err
			}
		}
	}
	// v0.8's BasePaymaster is Ownable2Step: account #0 accepts.
	if err := call("handing the v0.8 token paymaster to account #0", c.TokenPaymasterV08, tokenPM.PackTransferOwnership(origin), nil); err != nil {
		return err
	}
	cfg.Origin = origin
	return call("accepting the v0.8 token paymaster as account #0", c.TokenPaymasterV08, tokenPM.PackAcceptOwnership(), nil)
}

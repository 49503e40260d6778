//go:build !nodevnet

package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/x402"
)

// embedsDevnet reports whether this build has the embedded dev chain; the
// nodevnet build tag leaves it out.
const embedsDevnet = true

// errNoDevnet is what a build without the dev chain says of network
// devnet; this build has one.
var errNoDevnet error

// startDevnet starts the embedded dev chain on addr, and checks that its
// contracts are where the offers, built before it started, say they are.
func startDevnet(ctx context.Context, addr string, chainID uint64, log *zap.Logger) (*devChain, error) {
	d, err := devnet.Start(ctx, devnet.Config{Addr: addr, ChainID: chainID, Logger: log})
	if err != nil {
		return nil, err
	}
	want, tok := wellknown.GenesisContracts(), devnetAsset()
	got := d.Contracts
	if got.EntryPoint != want.EntryPoint || got.AccountFactory != want.AccountFactory || got.Paymaster != want.Paymaster ||
		got.Token != want.Token || got.Settlement != want.Settlement || got.TokenPaymaster != want.TokenPaymaster || got.TokenPaymasterV07 != want.TokenPaymasterV07 ||
		got.WalletFactory != want.WalletFactory || got.EOADelegate != want.EOADelegate ||
		d.Token.Name != tok.Name || d.Token.Version != tok.Version || d.Token.Decimals != tok.Decimals || d.ChainID.Uint64() != chainID {
		d.Close()
		return nil, errors.New("the devnet's contracts are not at the addresses of wellknown.GenesisContracts; update it with the devnet's genesis")
	}
	return &devChain{url: d.URL, attach: d.Attach, close: d.Close}, nil
}

func devnetCommand() *cobra.Command {
	var (
		addr    string
		chainID uint64
		period  time.Duration
	)
	c := &cobra.Command{
		Use:   "devnet [--addr 127.0.0.1:8545] [--chain-id 31337] [--block-period 0]",
		Short: "Run the embedded Ethereum dev chain with the x402 contracts",
		Long: `
Runs an in-process Ethereum dev chain (go-ethereum) until interrupted. Every
caddy-x402 contract is predeployed: the DevUSD stablecoin (6 decimals,
EIP-3009), the ERC-4337 v0.6 EntryPoint, SimpleAccountFactory and
VerifyingPaymaster (with a deposit), and the X402Settlement contract. The first
10 accounts of the test mnemonic hold 10,000 ETH and 1,000,000 DevUSD each.

By default a block is sealed as soon as a transaction arrives; --block-period
seals one every period instead.

The chain lives in memory: stopping it discards it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serveDevnet(ctx, devnet.Config{
				Addr:        addr,
				ChainID:     chainID,
				BlockPeriod: period,
				Logger:      caddy.Log().Named("x402.devnet"),
			}, cmd.OutOrStdout())
		},
	}
	c.Flags().StringVar(&addr, "addr", devnet.DefaultAddr, "host:port of the JSON-RPC server (port 0 picks a free one)")
	c.Flags().Uint64Var(&chainID, "chain-id", devnet.DefaultChainID, "chain id")
	c.Flags().DurationVar(&period, "block-period", 0, "seal a block every period, in whole seconds (0: on each transaction)")
	return c
}

// serveDevnet starts a devnet, writes what a developer needs to use it to w,
// and runs it until ctx is done.
func serveDevnet(ctx context.Context, cfg devnet.Config, w io.Writer) error {
	startCtx, cancel := context.WithTimeout(ctx, time.Minute)
	d, err := devnet.Start(startCtx, cfg)
	cancel()
	if err != nil {
		return err
	}
	defer d.Close()
	writeBanner(w, d)
	<-ctx.Done()
	return nil
}

func writeBanner(w io.Writer, d *devnet.Devnet) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "caddy-x402 devnet\n\n")
	fmt.Fprintf(tw, "RPC\t%s\n", d.URL)
	fmt.Fprintf(tw, "Network\t%s (chain id %s)\n", x402.FormatNetwork(d.ChainID.Uint64()), d.ChainID)
	fmt.Fprintf(tw, "Token\t%s  %s (%s), %d decimals, EIP-712 version %q\n", d.Token.Address, d.Token.Name, d.Token.Symbol, d.Token.Decimals, d.Token.Version)
	fmt.Fprintf(tw, "EntryPoint v0.6\t%s\n", d.Contracts.EntryPoint)
	fmt.Fprintf(tw, "SimpleAccountFactory\t%s\n", d.Contracts.AccountFactory)
	fmt.Fprintf(tw, "VerifyingPaymaster\t%s  (signer %s)\n", d.Contracts.Paymaster, d.PaymasterSigner.Address)
	fmt.Fprintf(tw, "X402Settlement\t%s\n", d.Contracts.Settlement)
	fmt.Fprintf(tw, "X402Batch\t%s\n", d.Contracts.Batch)
	tw.Flush()
	fmt.Fprintf(w, "\nAccounts of the public test mnemonic %q.\nTheir keys are known to everyone: never use them on a real chain.\n\n", devnet.TestMnemonic)
	for i, a := range d.Accounts {
		role := ""
		if i == 0 {
			role = "  (deployer, owns the contracts)"
		}
		fmt.Fprintf(w, "  #%d  %s  key 0x%x%s\n", i, a.Address, crypto.FromECDSA(a.Key), role)
	}
	// A paymaster run apart from the facilitator (its own x402_paymaster)
	// signs with this key, which holds no funds: its deposit is in the
	// EntryPoint, topped up by #0, the paymaster contract's owner.
	fmt.Fprintf(w, "  #%d  %s  key 0x%x  (the VerifyingPaymaster's signer: signer_key of a separate x402_paymaster)\n",
		devnet.PaymasterSignerIndex, d.PaymasterSigner.Address, crypto.FromECDSA(d.PaymasterSigner.Key))
	fmt.Fprintf(w, "\nA separate x402_paymaster needs: rpc (RPC above), signer_key (#%d), entry_point and paymaster (above).\n"+
		"A facilitator needs: rpc, settler_key (a funded account, one per facilitator or fleet), asset (Token above).\n", devnet.PaymasterSignerIndex)
	fmt.Fprintf(w, "\nPress Ctrl-C to stop.\n")
}

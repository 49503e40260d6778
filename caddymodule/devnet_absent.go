//go:build nodevnet

package caddymodule

import (
	"context"
	"errors"

	"github.com/spf13/cobra"
	"go.uber.org/zap"
)

// embedsDevnet reports whether this build has the embedded dev chain; the
// nodevnet build tag left it out.
const embedsDevnet = false

// errNoDevnet is what this build says of network devnet.
var errNoDevnet = errors.New(`network devnet: this Caddy was built with the nodevnet tag, without the embedded dev chain; configure a real chain (network, rpc, settler_key, asset), or run a dev chain apart with "caddy x402 devnet" of a build without the tag and point rpc at it`)

// startDevnet is refused in a build without the dev chain; App.Validate
// refuses network devnet before it is reached.
func startDevnet(context.Context, string, uint64, *zap.Logger) (*devChain, error) {
	return nil, errNoDevnet
}

// devnetCommand is `caddy x402 devnet`, which says that this build has no
// dev chain.
func devnetCommand() *cobra.Command {
	return &cobra.Command{
		Use:                "devnet",
		Short:              "Not in this build (built with the nodevnet tag)",
		DisableFlagParsing: true, // so that any flags get the same answer
		RunE: func(*cobra.Command, []string) error {
			return errors.New("this Caddy was built with the nodevnet tag, without the embedded dev chain; build without the tag to run it")
		},
	}
}

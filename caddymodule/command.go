// Package caddymodule adapts caddy-x402 to Caddy: its modules, Caddyfile
// directives and CLI subcommands. It holds wiring only; the work is done by
// the plain packages it adapts.
//
// Built with the nodevnet tag (go build -tags nodevnet), it leaves out the
// embedded dev chain (package devnet, which links go-ethereum's node): a
// production binary is then smaller and idles in less memory. Network
// "devnet" and `caddy x402 devnet` say that the build has no dev chain.
package caddymodule

import (
	caddycmd "github.com/caddyserver/caddy/v2/cmd"
	"github.com/spf13/cobra"
)

func init() {
	caddycmd.RegisterCommand(caddycmd.Command{
		Name:  "x402",
		Usage: "<subcommand>",
		Short: "caddy-x402 tools (dev chain, paymaster keys)",
		Long: `
Tools of caddy-x402, the x402 payment module for Caddy.

  devnet   run the embedded Ethereum dev chain, with the x402 contracts
           predeployed and the test accounts funded
  key      manage the paymaster's API keys in the x402 store file
  store    check, back up and restore the x402 store file
`,
		CobraFunc: func(cmd *cobra.Command) {
			cmd.AddCommand(devnetCommand(), keyCommand(), storeCommand())
		},
	})
}

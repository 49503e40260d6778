package caddymodule

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/caddy-x402/caddy-x402/facilitator/store"
	"github.com/caddy-x402/caddy-x402/paymaster"
)

// keyCommand is `caddy x402 key`: the paymaster's API keys in a store file.
func keyCommand() *cobra.Command {
	var storePath string
	c := &cobra.Command{
		Use:   "key create|rotate|revoke|list --store <file>",
		Short: "Manage the paymaster's API keys",
		Long: `
Manages the paymaster's API keys in the x402 store file (the x402 app's
store_path). Keys are shown once, at creation; the store keeps only their
SHA-256. Rotating or revoking a key disables it at once.

The store is a bbolt file that one process opens at a time: run these
commands while Caddy is stopped, or against a copy. A --store that does not
exist is refused, so that a mistyped path does not create an empty store;
create --init makes a new one.`,
	}
	c.PersistentFlags().StringVar(&storePath, "store", "", "the x402 store file (required)")
	var initStore bool // create --init
	open := func(run func(ks *paymaster.Keys, out io.Writer) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			if storePath == "" {
				return errors.New("--store is required: the x402 app's store_path")
			}
			if _, err := os.Stat(storePath); errors.Is(err, fs.ErrNotExist) && !initStore {
				return fmt.Errorf("store %s does not exist: give the x402 app's store_path (or create --init to make a new store)", storePath)
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("opening the store: %w", err)
			}
			st, err := store.Open(store.Config{Path: storePath})
			if err != nil {
				return err
			}
			defer st.Close()
			b, err := st.Bucket("paymaster_keys")
			if err != nil {
				return err
			}
			return run(&paymaster.Keys{Store: b}, cmd.OutOrStdout())
		}
	}
	var project, network, scopes string
	create := &cobra.Command{
		Use:   "create --project <name> [--network testnet|mainnet] [--scopes paymaster:read,paymaster:sponsor,facilitator:settle,txapi:send] [--init]",
		Short: "Create a key; it is printed once",
		Args:  cobra.NoArgs,
		RunE: open(func(ks *paymaster.Keys, out io.Writer) error {
			secret, rec, err := ks.Create(project, network, strings.Split(scopes, ","))
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s\n\nid %s, project %s (%s), scopes %s\nThis key is shown once; the store keeps only its hash.\n", secret, rec.ID, rec.Project, rec.Network, strings.Join(rec.Scopes, ","))
			return nil
		}),
	}
	create.Flags().StringVar(&project, "project", "", "the project the key belongs to")
	create.Flags().StringVar(&network, "network", "testnet", "testnet or mainnet")
	create.Flags().StringVar(&scopes, "scopes", paymaster.ScopeRead+","+paymaster.ScopeSponsor, "comma-separated scopes, of "+strings.Join(paymaster.Scopes, ", "))
	create.Flags().BoolVar(&initStore, "init", false, "create the store file if it does not exist")
	rotate := &cobra.Command{
		Use:   "rotate <id>",
		Short: "Disable a key and create its replacement",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return open(func(ks *paymaster.Keys, out io.Writer) error {
				secret, rec, err := ks.Rotate(args[0])
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "%s\n\nreplaces %s (now disabled); new id %s\nThis key is shown once.\n", secret, args[0], rec.ID)
				return nil
			})(cmd, nil)
		},
	}
	revoke := &cobra.Command{
		Use:   "revoke <id>",
		Short: "Disable a key at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return open(func(ks *paymaster.Keys, out io.Writer) error {
				if err := ks.Revoke(args[0]); err != nil {
					return err
				}
				fmt.Fprintf(out, "revoked %s\n", args[0])
				return nil
			})(cmd, nil)
		},
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List keys (never the secrets)",
		Args:  cobra.NoArgs,
		RunE: open(func(ks *paymaster.Keys, out io.Writer) error {
			keys, err := ks.List()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPROJECT\tNETWORK\tSCOPES\tSTATE\tCREATED")
			for _, k := range keys {
				state := "active"
				if k.Disabled {
					state = "disabled"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Project, k.Network, strings.Join(k.Scopes, ","), state, k.Created.Format("2006-01-02 15:04"))
			}
			return tw.Flush()
		}),
	}
	c.AddCommand(create, rotate, revoke, list)
	return c
}

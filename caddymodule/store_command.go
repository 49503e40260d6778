package caddymodule

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/caddy-x402/caddy-x402/store"
)

// storeCommand is `caddy x402 store`: check, back up and restore the store
// file.
func storeCommand() *cobra.Command {
	var storePath string
	c := &cobra.Command{
		Use:   "store check|backup|restore|compact --store <file>",
		Short: "Check, back up, restore or compact the x402 store file",
		Long: `
Checks, backs up and restores the x402 store file (the x402 app's
store_path): the bbolt file that holds the settlement records, the
paymaster's API keys and the faucet's timestamps.

Caddy refuses to start on a damaged or empty store file, and names it. Each
clean shutdown writes a checked backup beside the store, <file>.bak. To
recover:

  caddy x402 store check   --store <file>
  caddy x402 store restore --store <file> --from <file>.bak

restore keeps the file it replaces as <file>.corrupt-<time>. What was written
after the backup is lost to the store.

The file never shrinks by itself: the pages of the settlement records that
settlement_retention deletes are reused by later writes. compact rewrites
the file without its free pages, after a retention was first set on a store
that had grown for long:

  caddy x402 store compact --store <file>

The store is a bbolt file that one process opens at a time: run these
commands while Caddy is stopped.`,
	}
	c.PersistentFlags().StringVar(&storePath, "store", "", "the x402 store file (required)")
	requireStore := func() error {
		if storePath == "" {
			return errors.New("--store is required: the x402 app's store_path")
		}
		return nil
	}

	check := &cobra.Command{
		Use:   "check --store <file>",
		Short: "Verify the store file without changing it; fails if it is damaged",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireStore(); err != nil {
				return err
			}
			sum, err := store.Check(storePath)
			if err != nil {
				return err
			}
			return writeSummary(cmd.OutOrStdout(), storePath, sum)
		},
	}

	var (
		to    string
		force bool
	)
	backup := &cobra.Command{
		Use:   "backup --store <file> --to <backup> [--force]",
		Short: "Write a consistent, checked copy of the store file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireStore(); err != nil {
				return err
			}
			if to == "" {
				return errors.New("--to is required: where to write the backup")
			}
			if !force {
				if _, err := os.Lstat(to); err == nil {
					return fmt.Errorf("%s exists; pass --force to replace it", to)
				} else if !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("backing up to %s: %w", to, err)
				}
			}
			if err := store.Backup(storePath, to); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "backed up %s to %s\n", storePath, to)
			return nil
		},
	}
	backup.Flags().StringVar(&to, "to", "", "the backup file to write (required)")
	backup.Flags().BoolVar(&force, "force", false, "replace an existing backup file")

	var from string
	restore := &cobra.Command{
		Use:   "restore --store <file> --from <backup>",
		Short: "Put a checked backup in place of the store file, keeping the old file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireStore(); err != nil {
				return err
			}
			if from == "" {
				return errors.New("--from is required: the backup to restore, such as the store file with .bak appended")
			}
			aside, err := store.Restore(storePath, from)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "restored %s from %s\n", storePath, from)
			if aside != "" {
				fmt.Fprintf(out, "the file it replaced is kept as %s\n", aside)
			}
			return nil
		},
	}
	restore.Flags().StringVar(&from, "from", "", "the backup file to restore (required)")

	compact := &cobra.Command{
		Use:   "compact --store <file>",
		Short: "Rewrite the store file without its free pages, giving their space back",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireStore(); err != nil {
				return err
			}
			before, after, err := store.Compact(storePath)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "compacted %s: %d bytes, was %d\n", storePath, after, before)
			return nil
		},
	}

	c.AddCommand(check, backup, restore, compact)
	return c
}

// writeSummary prints what store check found in a sound store.
func writeSummary(w io.Writer, path string, sum store.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "store %s: ok\n", path)
	fmt.Fprintf(tw, "  settlements\t%d\t(%d unfinished)\n", sum.Settlements, sum.Unfinished)
	for _, name := range slices.Sorted(maps.Keys(sum.Buckets)) {
		fmt.Fprintf(tw, "  %s\t%d\n", name, sum.Buckets[name])
	}
	return tw.Flush()
}

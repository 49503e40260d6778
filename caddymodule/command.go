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
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/caddyserver/caddy/v2"
	caddycmd "github.com/caddyserver/caddy/v2/cmd"
	"github.com/spf13/cobra"

	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
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

// keyCommand is `caddy x402 key`: the paymaster's API keys, through the
// admin API of a running Caddy, or in a store file while Caddy is stopped.
func keyCommand() *cobra.Command {
	var storePath, address string
	c := &cobra.Command{
		Use:   "key create|rotate|revoke|list [--address <admin>] [--store <file>]",
		Short: "Manage the paymaster's API keys",
		Long: `
Manages the paymaster's API keys. Keys are shown once, at creation; the
store keeps only their SHA-256. Rotating or revoking a key disables it at
once.

While Caddy runs, the commands go through its admin API (--address, default
the CADDY_ADMIN environment variable or localhost:2019), which writes the
change to the dashboard's audit log; create then needs a project that the
paymaster knows. While Caddy is stopped, --store names the x402 store file
(the x402 app's store_path) to change directly: a bbolt file is opened by
one process at a time. A --store that does not exist is refused, so that a
mistyped path does not create an empty store; create --init makes a new
one.`,
	}
	c.PersistentFlags().StringVar(&storePath, "store", "", "the x402 store file, used when Caddy is not running")
	c.PersistentFlags().StringVar(&address, "address", "", "the admin endpoint of a running Caddy (default $CADDY_ADMIN or localhost:2019)")
	var initStore bool // create --init
	run := func(do func(k keyAdmin, out io.Writer) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			addr := cmp.Or(address, os.Getenv("CADDY_ADMIN"), caddy.DefaultAdminListen)
			admin := adminKeys{addr: addr}
			switch err := admin.probe(); {
			case err == nil:
				fmt.Fprintf(cmd.ErrOrStderr(), "through the admin API of the Caddy running at %s\n", addr)
				return do(admin, cmd.OutOrStdout())
			case !errors.Is(err, errAdminDown):
				return err
			}
			if storePath == "" {
				return fmt.Errorf("no Caddy answers at %s, and --store is not given: start Caddy (or give its admin --address), or give --store, the x402 app's store_path, while Caddy is stopped", addr)
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
			keys, err := paymaster.OpenKeys(st)
			if err != nil {
				return err
			}
			audit, err := dashboard.OpenAudit(st)
			if err != nil {
				return err
			}
			return do(storeKeys{keys: keys, audit: audit}, cmd.OutOrStdout())
		}
	}
	var project, network, scopes string
	create := &cobra.Command{
		Use:   "create --project <name> [--network testnet|mainnet] [--scopes paymaster:read,paymaster:sponsor,facilitator:settle,txapi:send] [--init]",
		Short: "Create a key; it is printed once",
		Args:  cobra.NoArgs,
		RunE: run(func(k keyAdmin, out io.Writer) error {
			secret, rec, err := k.create(project, network, strings.Split(scopes, ","))
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s\n\nid %s, project %s (%s), scopes %s\nThis key is shown once; the store keeps only its hash.\n", secret, rec.ID, rec.Project, rec.Network, strings.Join(rec.Scopes, ","))
			return nil
		}),
	}
	create.Flags().StringVar(&project, "project", "", "the project the key belongs to")
	create.Flags().StringVar(&network, "network", "testnet", "testnet or mainnet (through the admin API, the project's network is used)")
	create.Flags().StringVar(&scopes, "scopes", paymaster.ScopeRead+","+paymaster.ScopeSponsor, "comma-separated scopes, of "+strings.Join(paymaster.Scopes, ", "))
	create.Flags().BoolVar(&initStore, "init", false, "create the store file if it does not exist")
	rotate := &cobra.Command{
		Use:   "rotate <id>",
		Short: "Disable a key and create its replacement",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(func(k keyAdmin, out io.Writer) error {
				secret, rec, err := k.rotate(args[0])
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
			return run(func(k keyAdmin, out io.Writer) error {
				if err := k.revoke(args[0]); err != nil {
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
		RunE: run(func(k keyAdmin, out io.Writer) error {
			keys, err := k.list()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPROJECT\tNETWORK\tSCOPES\tSTATE\tCREATED\tLAST USED")
			for _, k := range keys {
				state, used := "active", "never"
				if k.Disabled {
					state = "disabled"
				}
				if !k.LastUsed.IsZero() {
					used = k.LastUsed.Format("2006-01-02 15:04")
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Project, k.Network, strings.Join(k.Scopes, ","), state, k.Created.Format("2006-01-02 15:04"), used)
			}
			return tw.Flush()
		}),
	}
	c.AddCommand(create, rotate, revoke, list)
	return c
}

// cliUserAgent marks the key command's admin requests, for the audit log.
const cliUserAgent = "caddy-x402-cli"

// keyAdmin is where the key command makes its changes.
type keyAdmin interface {
	create(project, network string, scopes []string) (string, dashboard.KeyView, error)
	rotate(id string) (string, dashboard.KeyView, error)
	revoke(id string) error
	list() ([]dashboard.KeyView, error)
}

// errAdminDown: no Caddy answers at the admin address.
var errAdminDown = errors.New("no Caddy answers at the admin address")

// adminKeys changes keys through a running Caddy's admin API.
type adminKeys struct{ addr string }

// call makes an admin request and decodes its JSON answer into v.
func (a adminKeys) call(method, uri string, body, v any) error {
	var rd io.Reader
	h := http.Header{"User-Agent": {cliUserAgent}}
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	if method != http.MethodGet {
		// The admin API refuses a change not declared JSON, body or not.
		h.Set("Content-Type", "application/json")
	}
	resp, err := caddycmd.AdminAPIRequest(a.addr, method, adminPrefix+strings.TrimPrefix(uri, "/"), h, rd)
	if err != nil {
		// AdminAPIRequest turns an error answer into an error of its body.
		return fmt.Errorf("the admin API at %s: %s", a.addr, adminMessage(err.Error()))
	}
	defer resp.Body.Close()
	if v == nil {
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v); err != nil {
		return fmt.Errorf("decoding the admin API's answer: %w", err)
	}
	return nil
}

// adminMessage is the message of an admin API error body, if it is one.
func adminMessage(s string) string {
	if i := strings.Index(s, "{"); i >= 0 {
		var e struct {
			Message string `json:"message"`
			Error   string `json:"error"`
		}
		if json.Unmarshal([]byte(s[i:]), &e) == nil && cmp.Or(e.Message, e.Error) != "" {
			return cmp.Or(e.Message, e.Error)
		}
	}
	return s
}

// probe reports whether a Caddy with the x402 admin API answers: no
// listener at the address is errAdminDown.
func (a adminKeys) probe() error {
	na, err := caddy.ParseNetworkAddress(a.addr)
	if err != nil {
		return fmt.Errorf("admin address %s: %w", a.addr, err)
	}
	conn, err := net.DialTimeout(na.Network, na.JoinHostPort(0), 3*time.Second)
	if err != nil {
		return fmt.Errorf("%w: %v", errAdminDown, err)
	}
	conn.Close()
	var v struct{}
	return a.call(http.MethodGet, "/keys?project=-", nil, &v)
}

func (a adminKeys) create(project, _ string, scopes []string) (string, dashboard.KeyView, error) {
	var v dashboard.NewKeyView
	err := a.call(http.MethodPost, "/keys", map[string]any{"project": project, "scopes": scopes}, &v)
	return v.Key, v.Record, err
}

func (a adminKeys) rotate(id string) (string, dashboard.KeyView, error) {
	var v dashboard.NewKeyView
	err := a.call(http.MethodPost, "/keys/"+url.PathEscape(id)+"/rotate", nil, &v)
	return v.Key, v.Record, err
}

func (a adminKeys) revoke(id string) error {
	return a.call(http.MethodPost, "/keys/"+url.PathEscape(id)+"/disable", nil, nil)
}

func (a adminKeys) list() ([]dashboard.KeyView, error) {
	var v struct {
		Keys []dashboard.KeyView `json:"keys"`
	}
	err := a.call(http.MethodGet, "/keys", nil, &v)
	return v.Keys, err
}

// storeKeys changes keys in a store file, writing the audit log there.
type storeKeys struct {
	keys  *paymaster.Keys
	audit dashboard.AuditStore
}

func (s storeKeys) create(project, network string, scopes []string) (string, dashboard.KeyView, error) {
	secret, rec, err := s.keys.Create(project, network, scopes)
	if err != nil {
		return "", dashboard.KeyView{}, err
	}
	return secret, dashboard.ViewKey(*rec), dashboard.Record(s.audit, "cli", dashboard.ActionKeyCreate, rec.ID, project+"; "+strings.Join(rec.Scopes, ","))
}

func (s storeKeys) rotate(id string) (string, dashboard.KeyView, error) {
	secret, rec, err := s.keys.Rotate(id)
	if err != nil {
		return "", dashboard.KeyView{}, err
	}
	return secret, dashboard.ViewKey(*rec), dashboard.Record(s.audit, "cli", dashboard.ActionKeyRotate, id, "replaced by "+rec.ID)
}

func (s storeKeys) revoke(id string) error {
	if err := s.keys.Revoke(id); err != nil {
		return err
	}
	return dashboard.Record(s.audit, "cli", dashboard.ActionKeyDisable, id, "")
}

func (s storeKeys) list() ([]dashboard.KeyView, error) {
	keys, err := s.keys.List()
	out := make([]dashboard.KeyView, len(keys))
	for i, k := range keys {
		out[i] = dashboard.ViewKey(k)
	}
	return out, err
}

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

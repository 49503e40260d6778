package caddymodule

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/dashboard"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
)

// noCaddy is an admin address where no Caddy answers, so that the key
// command uses the store.
const noCaddy = "127.0.0.1:1"

func runKey(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := keyCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

func TestKeyCommand(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	out, err := runKey(t, "create", "--address", noCaddy, "--store", path, "--init", "--project", "demo", "--scopes", "paymaster:sponsor")
	if err != nil {
		t.Fatalf("create: %v\n%s", err, out)
	}
	secret := strings.Fields(out)[0]
	if !strings.HasPrefix(secret, "pmk_") || !strings.Contains(out, "shown once") {
		t.Fatalf("create printed %q", out)
	}
	list, err := runKey(t, "list", "--address", noCaddy, "--store", path)
	if err != nil || strings.Contains(list, secret) || !strings.Contains(list, "demo") || !strings.Contains(list, "active") {
		t.Fatalf("list: %v\n%s", err, list)
	}
	id := secret[:12]
	rotated, err := runKey(t, "rotate", "--address", noCaddy, "--store", path, id)
	if err != nil {
		t.Fatalf("rotate: %v %s", err, rotated)
	}
	fresh := strings.Fields(rotated)[0]

	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	ks, _ := paymaster.OpenKeys(st)
	old, _ := ks.Lookup(secret)
	now, _ := ks.Lookup(fresh)
	// The changes made on the store are in the audit log, by "cli".
	audit, _ := dashboard.OpenAudit(st)
	var actions []string
	audit.ForEach(func(_, v []byte) error {
		if !strings.Contains(string(v), `"actor":"cli"`) || strings.Contains(string(v), secret) {
			t.Errorf("audit entry %s", v)
		}
		actions = append(actions, string(v))
		return nil
	})
	st.Close()
	if len(actions) != 2 || !strings.Contains(actions[0], "key.create") || !strings.Contains(actions[1], "key.rotate") {
		t.Fatalf("audit log after create and rotate: %v", actions)
	}
	if old == nil || !old.Disabled || now == nil || now.Disabled || !now.Has(paymaster.ScopeSponsor) {
		t.Fatalf("after rotate: old %+v, new %+v", old, now)
	}
	if out, err := runKey(t, "revoke", "--address", noCaddy, "--store", path, fresh[:12]); err != nil {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if _, err := runKey(t, "revoke", "--address", noCaddy, "--store", path, "pmk_unknown"); err == nil {
		t.Fatal("revoking an unknown key succeeded")
	}
	if _, err := runKey(t, "list", "--address", noCaddy); err == nil || !strings.Contains(err.Error(), "--store is not given") {
		t.Fatalf("no store: %v", err)
	}
	if _, err := runKey(t, "create", "--address", noCaddy, "--store", path, "--project", "demo", "--scopes", "admin"); err == nil {
		t.Fatal("a bad scope was accepted")
	}
}

// TestKeyCommandStoreMustExist: a mistyped --store is refused, and nothing
// is created, unless create is given --init.
func TestKeyCommandStoreMustExist(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
	}{
		{"create", []string{"create", "--project", "demo"}},
		{"list", []string{"list"}},
		{"rotate", []string{"rotate", "pmk_12345678"}},
		{"revoke", []string{"revoke", "pmk_12345678"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			typo := filepath.Join(t.TempDir(), "x402.bd")
			out, err := runKey(t, append(tc.args, "--address", noCaddy, "--store", typo)...)
			if err == nil || !strings.Contains(err.Error(), "store "+typo+" does not exist") || !strings.Contains(err.Error(), "--init") {
				t.Fatalf("err = %v\n%s", err, out)
			}
			if _, err := os.Stat(typo); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the mistyped store was created: %v", err)
			}
		})
	}
	t.Run("create --init", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "x402.db")
		out, err := runKey(t, "create", "--address", noCaddy, "--init", "--store", path, "--project", "demo", "--scopes", "txapi:send")
		if err != nil || !strings.HasPrefix(out, "pmk_") {
			t.Fatalf("%v\n%s", err, out)
		}
		if list, err := runKey(t, "list", "--address", noCaddy, "--store", path); err != nil || !strings.Contains(list, "txapi:send") {
			t.Fatalf("list after --init: %v\n%s", err, list)
		}
	})
	t.Run("help lists every scope", func(t *testing.T) {
		t.Parallel()
		out, _ := runKey(t, "create", "--help")
		for _, scope := range paymaster.Scopes {
			if !strings.Contains(out, scope) {
				t.Errorf("create --help does not list %s:\n%s", scope, out)
			}
		}
	})
}

func TestPaymasterCaddyfile(t *testing.T) {
	t.Parallel()
	var h PaymasterHandler
	input := "x402_paymaster {\n signer_key {env.PM}\n validity 5m\n project demo {\n  balance 10\n  tx_per_minute 30\n  max_in_flight 50\n  daily_gas_cap 2.5\n  max_fee_per_gas 100\n }\n}"
	if err := h.UnmarshalCaddyfile(caddyfileDispenser(input)); err != nil {
		t.Fatal(err)
	}
	p, err := h.Projects[0].project()
	if err != nil || p.Balance.String() != "10000000000000000000" || p.DailyGasCap.String() != "2500000000000000000" || p.MaxFeePerGas.String() != "100000000000" || p.TxPerMinute != 30 {
		t.Fatalf("%+v %v", p, err)
	}
	for _, bad := range []struct{ in, want string }{
		{"x402_paymaster {\n project demo {\n  balance 1\n  tx_per_minute many\n }\n}", "positive whole number"},
		{"x402_paymaster {\n project demo {\n  balance 1\n  colour blue\n }\n}", `unknown project option "colour"`},
		{"x402_paymaster {\n gas free\n}", `unknown x402_paymaster option "gas"`},
	} {
		var h PaymasterHandler
		err := h.UnmarshalCaddyfile(caddyfileDispenser(bad.in))
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), "Testfile:") {
			t.Errorf("%q: err = %v, want %q", bad.in, err, bad.want)
		}
	}
	// What parses but is not valid, Validate refuses.
	for _, bad := range []struct {
		in, want string
		devnet   bool
	}{
		{"x402_paymaster {\n}", "at least one project", true},
		{"x402_paymaster {\n project demo {\n  tx_per_minute 30\n }\n}", "project demo: a balance (ETH) is required", true},
		{"x402_paymaster {\n project demo {\n  balance lots\n }\n}", "project demo balance", true},
		{"x402_paymaster {\n signer_key 0xac09\n project demo {\n  balance 1\n }\n}", "signer_key must be an {env.*} or {file.*} placeholder", true},
		{"x402_paymaster {\n dev_key k\n project demo {\n  balance 1\n }\n}", "dev_key is for the devnet only", false},
		{"x402_paymaster {\n project demo {\n  balance 1\n }\n}", "signer_key, entry_point and paymaster are required outside the devnet", false},
	} {
		h := PaymasterHandler{devnet: bad.devnet}
		if err := h.UnmarshalCaddyfile(caddyfileDispenser(bad.in)); err != nil {
			t.Fatalf("%q: %v", bad.in, err)
		}
		if err := h.Validate(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: Validate = %v, want %q", bad.in, err, bad.want)
		}
	}
}

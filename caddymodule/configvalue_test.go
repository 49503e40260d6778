package caddymodule

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/paymaster"
)

// Not parallel: it sets environment variables.
func TestExpand(t *testing.T) {
	t.Setenv("X402_TEST_RPC", "http://10.0.0.1:8545")
	t.Setenv("X402_TEST_EMPTY", "")
	file := filepath.Join(t.TempDir(), "pay_to")
	if err := os.WriteFile(file, []byte("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in, want, err string
	}{
		{"literal", "https://mainnet.base.org", "https://mainnet.base.org", ""},
		{"env", "{env.X402_TEST_RPC}", "http://10.0.0.1:8545", ""},
		{"env inside a value", "{env.X402_TEST_RPC}/v1", "http://10.0.0.1:8545/v1", ""},
		{"file, trailing newline trimmed", "{file." + file + "}", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", ""},
		{"unset env", "{env.X402_TEST_UNSET_VARIABLE}", "", "rpc {env.X402_TEST_UNSET_VARIABLE}: "},
		{"empty env", "{env.X402_TEST_EMPTY}", "", "rpc {env.X402_TEST_EMPTY}: "},
		{"missing file", "{file./nonexistent/x402}", "", "rpc {file./nonexistent/x402}: "},
		{"unknown placeholder", "{http.request.host}", "", "rpc {http.request.host}: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.in
			err := expand(configValue{"rpc", &v})
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err = %v, want it to start with %q", err, tc.err)
				}
				if v != tc.in {
					t.Fatalf("a failed value was changed to %q", v)
				}
				return
			}
			if err != nil || v != tc.want {
				t.Fatalf("got %q, %v; want %q", v, err, tc.want)
			}
		})
	}
}

func TestConfigAddress(t *testing.T) {
	t.Parallel()
	const good = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
	tests := []struct {
		name, in, err string
	}{
		{"checksummed", good, ""},
		{"lowercase", strings.ToLower(good), ""},
		{"uppercase", "0x" + strings.ToUpper(good[2:]), ""},
		{"bad checksum", "0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC", `pay_to "0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC" fails its EIP-55 checksum (did you mean ` + good + `?)`},
		{"no 0x", good[2:] + "00", `pay_to "3C44`},
		{"short", good[:41], "want 0x and 40 hex digits"},
		{"not hex", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BZ", "want 0x and 40 hex digits"},
		{"placeholder left", "{env.X402_PAY_TO}", "want 0x and 40 hex digits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := configAddress("pay_to", tc.in)
			if tc.err == "" {
				if err != nil || a.Hex() != good {
					t.Fatalf("got %s, %v", a.Hex(), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

func TestClaimStore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		first, network string
		caip2          string
		err            string
	}{
		{"same devnet", NetworkDevnet, NetworkDevnet, "eip155:31337", ""},
		{"same real chain", "eip155:8453", "eip155:8453", "eip155:8453", ""},
		{"devnet store on a real chain", NetworkDevnet, "eip155:8453", "eip155:8453",
			"store /data/x402.db was created for the dev chain (chain id 31337): its settlements and keys are the demo's, and it cannot serve eip155:8453 (chain id 8453)"},
		{"devnet store on a real chain with the devnet's chain id", NetworkDevnet, "eip155:31337", "eip155:31337", "created for the dev chain"},
		{"real store on the devnet", "eip155:8453", NetworkDevnet, "eip155:31337",
			"store /data/x402.db was created for network eip155:8453 (chain id 8453) and cannot serve the dev chain (chain id 31337)"},
		{"another real chain", "eip155:8453", "eip155:1", "eip155:1", "created for network eip155:8453"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			meta := memKeyStore{}
			firstCAIP2 := tc.first
			if firstCAIP2 == NetworkDevnet {
				firstCAIP2 = "eip155:31337"
			}
			if err := claimStore(meta, "/data/x402.db", tc.first, firstCAIP2); err != nil {
				t.Fatalf("a new store: %v", err)
			}
			if string(meta["network"]) != tc.first {
				t.Fatalf("recorded network %q", meta["network"])
			}
			err := claimStore(meta, "/data/x402.db", tc.network, tc.caip2)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
			if string(meta["network"]) != tc.first {
				t.Fatalf("a refused claim changed the record to %q", meta["network"])
			}
		})
	}
}

func TestDevKeyStore(t *testing.T) {
	t.Parallel()
	bucket := memKeyStore{}
	stored := &paymaster.Keys{Store: bucket}
	real, _, err := stored.Create("demo", "mainnet", []string{paymaster.ScopeSponsor})
	if err != nil {
		t.Fatal(err)
	}
	// A record an earlier version stored, with scopes the dev key never had.
	if err := stored.Import(DevPaymasterKey, "demo", "testnet", []string{paymaster.ScopeSettle}); err != nil {
		t.Fatal(err)
	}
	if removed, err := removeKeyRecord(bucket, DevPaymasterKey); !removed || err != nil {
		t.Fatalf("removing the stored dev key: %v %v", removed, err)
	}
	if removed, err := removeKeyRecord(bucket, DevPaymasterKey); removed || err != nil {
		t.Fatalf("removing it again: %v %v", removed, err)
	}
	if len(bucket) != 1 {
		t.Fatalf("the bucket has %d records, want the real key's only", len(bucket))
	}

	dev, err := newDevKeyStore(bucket, DevPaymasterKey, "demo", []string{paymaster.ScopeRead, paymaster.ScopeSponsor})
	if err != nil {
		t.Fatal(err)
	}
	ks := &paymaster.Keys{Store: dev}
	if k, err := ks.Authorize(DevPaymasterKey, paymaster.ScopeSponsor); err != nil || k.Project != "demo" {
		t.Fatalf("the dev key: %+v %v", k, err)
	}
	if _, err := ks.Authorize(DevPaymasterKey, paymaster.ScopeSettle); err == nil {
		t.Fatal("the dev key has facilitator:settle")
	}
	if _, err := ks.Authorize(real, paymaster.ScopeSponsor); err != nil {
		t.Fatalf("a stored key through the dev store: %v", err)
	}
	if err := ks.Revoke(DevPaymasterKey[:12]); err == nil {
		t.Fatal("the dev key was revoked")
	}
	if _, _, err := ks.Create("demo", "testnet", []string{paymaster.ScopeRead}); err != nil {
		t.Fatalf("creating a key through the dev store: %v", err)
	}
	if len(bucket) != 2 {
		t.Fatalf("the bucket has %d records, want the two created keys", len(bucket))
	}
	if v, _ := bucket.Get(dev.hash); v != nil {
		t.Fatal("the dev key was written to the bucket")
	}
	listed, err := ks.List()
	if err != nil || len(listed) != 3 {
		t.Fatalf("list: %d keys, %v", len(listed), err)
	}
}

// The x402 app resolves the placeholders of a network's v0.7 and token
// paymaster options as it does entry_point's.
func TestAppExpandsV07Options(t *testing.T) {
	const addr = "0x1000000000000000000000000000000000000001"
	t.Setenv("X402_TEST_ADDR", addr)
	t.Setenv("X402_TEST_BUNDLER", "http://10.0.0.2:4337")
	a := &App{NetworkConfig: NetworkConfig{
		Network: "eip155:8453", EntryPointV07: "{env.X402_TEST_ADDR}", AccountFactoryV07: "{env.X402_TEST_ADDR}",
		PaymasterV07: "{env.X402_TEST_ADDR}", BundlerURLV07: "{env.X402_TEST_BUNDLER}",
		TokenPaymaster: "{env.X402_TEST_ADDR}", TokenPaymasterV07: "{env.X402_TEST_ADDR}",
	}}
	if err := a.expand(); err != nil {
		t.Fatal(err)
	}
	n := a.NetworkConfig
	for name, got := range map[string]string{
		"entry_point_v07": n.EntryPointV07, "account_factory_v07": n.AccountFactoryV07, "paymaster_v07": n.PaymasterV07,
		"token_paymaster": n.TokenPaymaster, "token_paymaster_v07": n.TokenPaymasterV07,
	} {
		if got != addr {
			t.Errorf("%s = %q, want %s", name, got, addr)
		}
	}
	if n.BundlerURLV07 != "http://10.0.0.2:4337" {
		t.Errorf("bundler_url_v07 = %q", n.BundlerURLV07)
	}
}

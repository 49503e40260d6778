package caddymodule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/ethereum/go-ethereum/crypto"
	"go.yaml.in/yaml/v3"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
)

// validateConfig does what `caddy validate` does with a config: decode it
// strictly, provision every module, and clean them up. Tests that use it
// are not parallel: provisioning touches Caddy's global state (the TLS
// app's certificate cache).
func validateConfig(t *testing.T, cfgJSON []byte) error {
	t.Helper()
	var cfg *caddy.Config
	if err := caddy.StrictUnmarshalJSON(caddy.RemoveMetaFields(cfgJSON), &cfg); err != nil {
		t.Fatalf("decoding config: %v", err)
	}
	return caddy.Validate(cfg)
}

// validateCaddyfile is `caddy validate --adapter caddyfile`.
func validateCaddyfile(t *testing.T, cf string) error {
	t.Helper()
	return validateConfig(t, adaptCaddyfile(t, cf))
}

// adaptCaddyfile is `caddy adapt`.
func adaptCaddyfile(t *testing.T, cf string) []byte {
	t.Helper()
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		t.Fatalf("adapting: %v", err)
	}
	return cfgJSON
}

// runCaddyfile runs cf as `caddy run` does, with the admin endpoint off,
// or reloads it over the config that runs. stop stops Caddy; it is also
// called when the test ends. Tests that use it are not parallel: Caddy
// runs one config at a time.
func runCaddyfile(t *testing.T, cf string) (stop func(), err error) {
	t.Helper()
	var cfg map[string]any
	if err := json.Unmarshal(adaptCaddyfile(t, cf), &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["admin"] = map[string]any{"disabled": true}
	cfgJSON, _ := json.Marshal(cfg)
	if err := caddy.Load(cfgJSON, true); err != nil {
		return func() {}, err
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			if err := caddy.Stop(); err != nil {
				t.Errorf("stopping Caddy: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop, nil
}

// startChain starts a devnet with chainID, standing for a real chain.
func startChain(t *testing.T, chainID uint64) *devnet.Devnet {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0", ChainID: chainID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestNoNetworkRefused: without the x402 global option, no x402 handler
// provisions, and the error says how to choose the dev chain or a real one.
func TestNoNetworkRefused(t *testing.T) {
	tests := []struct{ name, site string }{
		{"paid route", "x402 0.01 {\n\t\tpay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n\t}\n\trespond \"paid\""},
		{"facilitator", "x402_facilitator"},
		{"paymaster", "x402_paymaster {\n\t\tproject demo {\n\t\t\tbalance 1\n\t\t}\n\t}"},
		{"txapi", "x402_txapi"},
		{"empty x402 block", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cf := "http://:8080 {\n\t" + tc.site + "\n}\n"
			if tc.site == "" {
				cf = "{\n\tx402 {\n\t\tstore_path /tmp/x402-never-opened.db\n\t}\n}\n" + "http://:8080 {\n\tx402 0.01 {\n\t\tpay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n\t}\n}\n"
			}
			err := validateCaddyfile(t, cf)
			if err == nil || !strings.Contains(err.Error(), "the x402 app has no network: add the global option `x402 { network devnet }`") ||
				!strings.Contains(err.Error(), "`network`, `rpc`, `settler_key` and `asset`") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// TestChecksumRefused: a mixed-case address with a bad EIP-55 checksum
// anywhere in the config fails validation, naming the option and the
// correct form.
func TestChecksumRefused(t *testing.T) {
	// A remote facilitator: the app and paid routes provision without a
	// chain.
	const remote = `{
	x402 {
		network eip155:8453
		facilitator_url http://127.0.0.1:9
		asset %s "USD Coin" 2 6
	}
}
http://:8080 {
	x402_path_guard
	x402 0.01 {
		pay_to %s
		%s
	}
	respond "paid"
}
`
	// The embedded devnet: for the handlers that need the app's chain.
	const embedded = `{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:0
	}
}
http://:4021 {
	%s
}
`
	const (
		usdc    = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
		badUSDC = "0x833589fcD6eDb6E08f4c7C32D4f71b54bdA02913"
		payTo   = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
		badPay  = "0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC"
		ep      = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
		badEP   = "0x5fbDB2315678afecb367f032d93F642f64180aa3"
		dusd    = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"
		badDUSD = "0xcf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"
	)
	tests := []struct {
		name, cf, want string
	}{
		{"pay_to", fmt.Sprintf(remote, usdc, badPay, ""), `x402 pay_to "` + badPay + `" fails its EIP-55 checksum (did you mean ` + payTo + `?)`},
		{"route asset", fmt.Sprintf(remote, usdc, payTo, "asset "+badUSDC), `x402 asset "` + badUSDC + `" fails its EIP-55 checksum (did you mean ` + usdc + `?)`},
		{"app asset", fmt.Sprintf(remote, badUSDC, payTo, ""), `asset 0: address "` + badUSDC + `" fails its EIP-55 checksum (did you mean ` + usdc + `?)`},
		{"app entry_point", strings.Replace(fmt.Sprintf(remote, usdc, payTo, ""), "network", "entry_point "+badEP+"\n\t\tnetwork", 1),
			`entry_point "` + badEP + `" fails its EIP-55 checksum (did you mean ` + ep + `?)`},
		{"paymaster entry_point", fmt.Sprintf(embedded, "x402_paymaster {\n\t\tentry_point "+badEP+"\n\t\tproject demo {\n\t\t\tbalance 1\n\t\t}\n\t}"),
			`x402_paymaster entry_point "` + badEP + `" fails its EIP-55 checksum (did you mean ` + ep + `?)`},
		{"txapi token", fmt.Sprintf(embedded, "x402_txapi {\n\t\ttoken "+badDUSD+"\n\t}"),
			`x402_txapi token "` + badDUSD + `" fails its EIP-55 checksum (did you mean ` + dusd + `?)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := validateCaddyfile(t, tc.cf); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("JSON pay_to", func(t *testing.T) {
		cfg := `{"apps":{
			"x402":{"network":"eip155:8453","facilitator_url":"http://127.0.0.1:9","assets":[{"address":"` + usdc + `","name":"USD Coin","version":"2"}]},
			"http":{"servers":{"srv0":{"listen":[":8080"],"routes":[{"handle":[{"handler":"x402","pay_to":"` + badPay + `","amount":"10000"}]}]}}}}}`
		want := `x402 pay_to "` + badPay + `" fails its EIP-55 checksum (did you mean ` + payTo + `?)`
		if err := validateConfig(t, []byte(cfg)); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want %q", err, want)
		}
	})
	t.Run("lowercase and uppercase pass", func(t *testing.T) {
		cf := fmt.Sprintf(remote, "0x"+strings.ToUpper(usdc[2:]), strings.ToLower(payTo), "")
		if err := validateCaddyfile(t, cf); err != nil {
			t.Fatal(err)
		}
	})
}

// TestKubernetesExampleValidates runs `caddy validate` on the Caddyfile of
// examples/kubernetes/sidecar.yaml with the environment its Deployment
// gives the container, once the user has set X402_PAY_TO as the manifest
// says. The RPC is a devnet on the example's chain id, the Secret's key a
// test key, and the data volume a temporary directory.
func TestKubernetesExampleValidates(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "examples", "kubernetes", "sidecar.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var caddyfile string
	env := map[string]string{}
	var dataMount string
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	for {
		var doc struct {
			Kind string            `yaml:"kind"`
			Data map[string]string `yaml:"data"`
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct {
							Name string `yaml:"name"`
							Env  []struct {
								Name  string `yaml:"name"`
								Value string `yaml:"value"`
							} `yaml:"env"`
							VolumeMounts []struct {
								Name      string `yaml:"name"`
								MountPath string `yaml:"mountPath"`
							} `yaml:"volumeMounts"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			break
		}
		switch doc.Kind {
		case "ConfigMap":
			caddyfile = doc.Data["Caddyfile"]
		case "Deployment":
			for _, c := range doc.Spec.Template.Spec.Containers {
				if c.Name != "caddy-x402" {
					continue
				}
				for _, e := range c.Env {
					env[e.Name] = e.Value
				}
				for _, m := range c.VolumeMounts {
					if m.Name == "x402-data" {
						dataMount = m.MountPath
					}
				}
			}
		}
	}
	if caddyfile == "" || len(env) == 0 || dataMount == "" {
		t.Fatalf("the manifest lacks the ConfigMap's Caddyfile, the container's env or the data volume:\n%q\n%v\n%q", caddyfile, env, dataMount)
	}
	for _, want := range []string{"rpc {env.X402_RPC_URL}", "pay_to {env.X402_PAY_TO}", "settler_key {env.X402_SETTLER_KEY}"} {
		if !strings.Contains(caddyfile, want) {
			t.Fatalf("the example's Caddyfile no longer has %q; update this test", want)
		}
	}

	chain := startChain(t, 8453) // the example's network, eip155:8453
	settler, _ := devnet.DeriveKey(devnet.TestMnemonic, 8)
	env["X402_RPC_URL"] = chain.URL
	env["X402_SETTLER_KEY"] = fmt.Sprintf("%x", crypto.FromECDSA(settler)) // from the Secret
	for k, v := range env {
		t.Setenv(k, v)
	}
	data := t.TempDir()
	caddyfile = strings.ReplaceAll(caddyfile, dataMount, data) // the volume

	t.Run("the manifest's pay_to must be replaced", func(t *testing.T) {
		err := validateCaddyfile(t, caddyfile)
		if err == nil || !strings.Contains(err.Error(), `x402 pay_to "`+env["X402_PAY_TO"]+`": want 0x and 40 hex digits`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Setenv("X402_PAY_TO", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC") // as the user sets it
	if err := validateCaddyfile(t, caddyfile); err != nil {
		t.Fatalf("caddy validate: %v", err)
	}
	storeFile := filepath.Join(data, "facilitator.db")
	if _, err := os.Stat(storeFile); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("caddy validate touched the store on the volume: %v", err)
	}
	t.Run("caddy run", func(t *testing.T) {
		// Starting dials the RPC in the environment and opens the store on
		// the volume.
		// The dev chain stands in for Base with its own token, as the
		// facilitator reads the asset's domain from the chain at start.
		cf := standInToken(t, caddyfile, chain)
		stop, err := runCaddyfile(t, strings.ReplaceAll(cf, "http://:8080", fmt.Sprintf("http://127.0.0.1:%d", freePort(t))))
		if err != nil {
			t.Fatalf("caddy run: %v", err)
		}
		defer stop()
		if _, err := os.Stat(storeFile); err != nil {
			t.Fatalf("the store was not opened on the volume: %v", err)
		}
	})

	t.Run("a bad pay_to in the environment", func(t *testing.T) {
		t.Setenv("X402_PAY_TO", "0x3c44CdDdB6a900fa2b585dd299e03d12FA4293BC")
		err := validateCaddyfile(t, caddyfile)
		if err == nil || !strings.Contains(err.Error(), "did you mean 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC?") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("an unset variable", func(t *testing.T) {
		t.Setenv("X402_RPC_URL", "")
		err := validateCaddyfile(t, caddyfile)
		if err == nil || !strings.Contains(err.Error(), "x402 rpc {env.X402_RPC_URL}") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestStoreNetwork: a store remembers the network it was made for. The
// devnet's public paymaster key is never written to it, a record of it
// that an earlier version left is deleted, and a dev chain's store is
// refused for a real chain.
func TestStoreNetwork(t *testing.T) {
	dir := t.TempDir()
	devStore := filepath.Join(dir, "dev.db")

	// The demo, with its store kept in a file.
	devnetCaddyfile := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:0
		store_path %s
	}
}
http://127.0.0.1:%d {
	x402_paymaster {
		project demo {
			balance 1
		}
	}
}
`, devStore, freePort(t))
	stop, err := runCaddyfile(t, devnetCaddyfile)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if network, stored := readStore(t, devStore); network != NetworkDevnet || stored {
		t.Fatalf("after the devnet: network %q, dev key stored %v", network, stored)
	}

	chain := startChain(t, 8453)
	settler, _ := devnet.DeriveKey(devnet.TestMnemonic, 8)
	t.Setenv("X402_TEST_RPC", chain.URL)
	t.Setenv("X402_TEST_SETTLER", fmt.Sprintf("%x", crypto.FromECDSA(settler)))
	realCaddyfile := func(path string) string {
		return standInToken(t, fmt.Sprintf(`{
	x402 {
		network eip155:8453
		rpc {env.X402_TEST_RPC}
		settler_key {env.X402_TEST_SETTLER}
		store_path %s
		asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USD Coin" 2 6
	}
}
`, path), chain)
	}

	t.Run("a devnet store is refused for a real chain", func(t *testing.T) {
		stop, err := runCaddyfile(t, realCaddyfile(devStore))
		stop()
		want := "store " + devStore + " was created for the dev chain (chain id 31337)"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "cannot serve eip155:8453") {
			t.Fatalf("err = %v, want %q", err, want)
		}
		if network, _ := readStore(t, devStore); network != NetworkDevnet {
			t.Fatalf("the refused store now says %q", network)
		}
	})
	t.Run("an earlier version's dev key is deleted", func(t *testing.T) {
		// A store as earlier versions left it: no network recorded, and the
		// dev key imported.
		legacy := filepath.Join(dir, "legacy.db")
		st, err := store.Open(store.Config{Path: legacy})
		if err != nil {
			t.Fatal(err)
		}
		ks, _ := paymaster.OpenKeys(st)
		if err := ks.Import(DevPaymasterKey, "demo", "testnet", []string{paymaster.ScopeRead, paymaster.ScopeSponsor}); err != nil {
			t.Fatal(err)
		}
		real, _, err := ks.Create("demo", "mainnet", []string{paymaster.ScopeSponsor})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		if _, stored := readStore(t, legacy); !stored {
			t.Fatal("setup: the dev key is not in the store")
		}

		stop, err := runCaddyfile(t, realCaddyfile(legacy))
		if err != nil {
			t.Fatal(err)
		}
		stop()
		network, stored := readStore(t, legacy)
		if network != "eip155:8453" || stored {
			t.Fatalf("after a real chain: network %q, dev key stored %v", network, stored)
		}
		st, _ = store.Open(store.Config{Path: legacy})
		defer st.Close()
		ks, _ = paymaster.OpenKeys(st)
		if k, err := ks.Authorize(real, paymaster.ScopeSponsor); err != nil || k == nil {
			t.Fatalf("the real key went with the dev key: %v", err)
		}
	})
}

// readStore is the network a store records, and whether it holds a record
// of the devnet's public paymaster key.
func readStore(t *testing.T, path string) (network string, devKeyStored bool) {
	t.Helper()
	devHash, _, err := keyRecord(DevPaymasterKey, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	meta, _ := st.Bucket(metaBucket)
	pm, _ := paymaster.OpenStorage(st)
	keys := pm.Keys
	n, _ := meta.Get([]byte("network"))
	v, _ := keys.Get(devHash)
	return string(n), v != nil
}

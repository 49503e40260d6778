package caddymodule

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/ethereum/go-ethereum/common"
)

var update = flag.Bool("update", false, "rewrite the adapt golden files")

// TestAdaptGolden adapts each testdata/adapt/*.caddyfile and compares the
// JSON with its golden file.
func TestAdaptGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "adapt", "*.caddyfile"))
	if len(files) == 0 {
		t.Fatal("no golden Caddyfiles")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out, warnings, err := caddyconfig.GetAdapter("caddyfile").Adapt(in, map[string]any{"filename": f})
			if err != nil {
				t.Fatal(err)
			}
			if len(warnings) > 0 {
				t.Errorf("warnings: %+v", warnings)
			}
			var pretty bytes.Buffer
			json.Indent(&pretty, out, "", "\t")
			pretty.WriteByte('\n')
			golden := strings.TrimSuffix(f, ".caddyfile") + ".json"
			if *update {
				os.WriteFile(golden, pretty.Bytes(), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Fatalf("adapted:\n%s\nwant:\n%s", pretty.Bytes(), want)
			}
		})
	}
}

func TestHandlerCaddyfileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input, want string
	}{
		{"two prices", "x402 0.01 0.02", "wrong argument count"},
		{"unknown", "x402 0.01 {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n colour blue\n}", `unknown x402 subdirective "colour"`},
		{"pay_to twice", "x402 0.01 {\n pay_to a b\n}", "pay_to takes exactly one value"},
		{"bad timeout", "x402 0.01 {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n max_timeout soon\n}", `max_timeout "soon"`},
		{"settle_before with arg", "x402 0.01 {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n settle_before yes\n}", "wrong argument count"},
		{"empty schemes", "x402 0.01 {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n schemes\n}", "wrong argument count"},
		{"upto unit", "x402 0.01 {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n upto per_token 1\n}", "upto takes per_byte"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var h Handler
			err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "Testfile:") {
				t.Fatalf("error %q does not say the line", err)
			}
		})
	}
	var h Handler
	if err := h.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402 0.05 {\n pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n asset 0xa 0xb\n schemes exact\n settle_before\n}")); err != nil {
		t.Fatal(err)
	}
	if h.Price != "0.05" || len(h.Assets) != 2 || !h.SettleBefore || h.Schemes[0] != "exact" {
		t.Fatalf("parsed %+v", h)
	}
}

// confirmations, wallet_gas and wallet_reverts reach the app, and Validate
// bounds them: confirmations by the depth the finality watcher follows,
// wallet_gas by what exact allows.
func TestAppConfirmations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		option, n string
		valid     bool
	}{
		{"confirmations", "0", true}, {"confirmations", "3", true}, {"confirmations", "64", true}, {"confirmations", "65", false},
		{"wallet_gas", "500000", true}, {"wallet_gas", "10000000", true}, {"wallet_gas", "10000001", false},
		{"wallet_reverts", "5", true}, {"wallet_reverts", "100000", true}, {"wallet_reverts", "100001", false},
	} {
		var a App
		if err := a.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402 {\n network devnet\n " + tc.option + " " + tc.n + "\n}")); err != nil {
			t.Fatalf("%s %s: %v", tc.option, tc.n, err)
		}
		if got := map[string]int{"confirmations": a.Confirmations, "wallet_gas": a.WalletGas, "wallet_reverts": a.WalletReverts}[tc.option]; strconv.Itoa(got) != tc.n {
			t.Fatalf("%s %s parsed as %d", tc.option, tc.n, got)
		}
		if err := a.Validate(); (err == nil) != tc.valid {
			t.Fatalf("%s %s: Validate = %v, want valid %v", tc.option, tc.n, err, tc.valid)
		}
	}
}

// batch reaches the app, with its block, at the top level and in a
// network's block; outside the devnet it needs its contract.
func TestAppBatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     BatchConfig
		valid    bool
	}{
		{"devnet default", "x402 {\n network devnet\n batch\n}", BatchConfig{}, true},
		{"options", "x402 {\n network devnet\n batch {\n  max_payments 200\n  max_wait 5ms\n  max_gas 12000000\n }\n}",
			BatchConfig{MaxPayments: 200, MaxWait: caddy.Duration(5 * time.Millisecond), MaxGas: 12_000_000}, true},
		{"contract", "x402 {\n network devnet\n batch 0x5FC8d32690cc91D4c39d9d3abcBD16989F875707\n}", BatchConfig{Contract: "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707"}, true},
		{"network block", "x402 {\n network devnet {\n  batch {\n   max_wait 2ms\n  }\n }\n}", BatchConfig{MaxWait: caddy.Duration(2 * time.Millisecond)}, true},
		{"real chain without contract", "x402 {\n network eip155:8453\n rpc https://rpc.example\n settler_key {env.KEY}\n asset usdc\n batch\n}", BatchConfig{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var a App
			if err := a.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.in)); err != nil {
				t.Fatal(err)
			}
			b := a.Batch
			if len(a.Networks) > 0 {
				b = a.Networks[0].Batch
			}
			if b == nil || *b != tc.want {
				t.Fatalf("batch parsed as %+v, want %+v", b, tc.want)
			}
			if err := a.Validate(); (err == nil) != tc.valid {
				t.Fatalf("Validate = %v, want valid %v", err, tc.valid)
			}
		})
	}
}

// settlement_retention reaches the app as a duration, off as -1, and
// Validate refuses less than a day.
func TestAppSettlementRetention(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in    string
		want  time.Duration
		valid bool
	}{{"30d", 30 * 24 * time.Hour, true}, {"24h", 24 * time.Hour, true}, {"off", -1, true}, {"12h", 12 * time.Hour, false}} {
		var a App
		if err := a.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402 {\n network devnet\n settlement_retention " + tc.in + "\n}")); err != nil {
			t.Fatalf("settlement_retention %s: %v", tc.in, err)
		}
		if time.Duration(a.SettlementRetention) != tc.want {
			t.Fatalf("settlement_retention %s parsed as %v", tc.in, time.Duration(a.SettlementRetention))
		}
		if err := a.Validate(); (err == nil) != tc.valid {
			t.Fatalf("settlement_retention %s: Validate = %v, want valid %v", tc.in, err, tc.valid)
		}
	}
}

func TestAppCaddyfileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input, want string
	}{
		{"argument", "x402 devnet", "wrong argument count"},
		{"unknown", "x402 {\n colour blue\n}", `unknown x402 option "colour"`},
		{"asset arity", "x402 {\n asset 0xabc USDC\n}", `asset decimals "USDC": want a whole number from 0 to 36`},
		{"asset arity", "x402 {\n asset 0xabc a b 6 7\n}", "<address> <eip712-name> <eip712-version> [<decimals>], or <address> [<decimals>] for a token without EIP-3009, got 5 values"},
		{"asset decimals", "x402 {\n asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 USDC 2 many\n}", `asset decimals "many"`},
		{"permit2 without a domain", "x402 {\n asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 6 permit2\n}", "needs its EIP-2612 name and version"},
		{"receipt timeout", "x402 {\n receipt_timeout later\n}", `receipt_timeout "later"`},
		{"confirmations", "x402 {\n confirmations -1\n}", `confirmations "-1": want a whole number of blocks`},
		{"retention", "x402 {\n settlement_retention never\n}", `settlement_retention "never": want a duration, such as 30d, or off`},
		{"retention zero", "x402 {\n settlement_retention 0s\n}", `settlement_retention "0s": want a duration`},
		{"network twice", "x402 {\n network a b\n}", "network takes exactly one value"},
		{"batch values", "x402 {\n batch a b\n}", "batch takes at most one value"},
		{"batch option", "x402 {\n batch {\n  colour blue\n }\n}", `unknown batch option "colour"`},
		{"batch gas", "x402 {\n batch {\n  max_gas 10\n }\n}", `max_gas "10": want a whole number of gas`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var a App
			err := a.UnmarshalCaddyfile(caddyfile.NewTestDispenser(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Testfile:") {
				t.Fatalf("err = %v, want %q with the line", err, tc.want)
			}
		})
	}
	var f FacilitatorHandler
	if err := f.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402_facilitator extra")); err == nil {
		t.Fatal("x402_facilitator took an argument")
	}
}

func TestAppValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		app  App
		want string
	}{
		{"literal key", App{NetworkConfig: NetworkConfig{Network: "devnet", SettlerKey: "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"}}, "must be an {env.*} or {file.*} placeholder"},
		{"bad network", App{NetworkConfig: NetworkConfig{Network: "basechain"}}, "not a CAIP-2 id"},
		{"v1 network name", App{NetworkConfig: NetworkConfig{Network: "base"}}, `"base" is x402 v1's name of a network; give its CAIP-2 id, eip155:8453`},
		{"real chain without rpc", App{NetworkConfig: NetworkConfig{Network: "eip155:8453", Assets: []AssetConfig{{Address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Name: "USD Coin", Version: "2"}}}}, "rpc and settler_key are required"},
		{"real chain without assets", App{NetworkConfig: NetworkConfig{Network: "eip155:8453", RPC: "http://x", SettlerKey: "{env.K}"}}, "at least one token"},
		{"remote facilitator on devnet", App{NetworkConfig: NetworkConfig{Network: "devnet"}, FacilitatorURL: "http://f"}, "CAIP-2 id"},
		{"bad asset", App{NetworkConfig: NetworkConfig{Network: "devnet", Assets: []AssetConfig{{Address: "usdc"}}}}, "asset 0"},
		{"no network", App{}, "add the global option `x402 { network devnet }`"},
		{"no network, remote facilitator", App{FacilitatorURL: "http://f"}, "`x402 { network devnet }`"},
		{"asset checksum", App{NetworkConfig: NetworkConfig{Network: "devnet", Assets: []AssetConfig{{Address: "0x833589fcD6eDb6E08f4c7C32D4f71b54bdA02913", Name: "USD Coin", Version: "2"}}}},
			`asset 0: address "0x833589fcD6eDb6E08f4c7C32D4f71b54bdA02913" fails its EIP-55 checksum (did you mean 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913?)`},
		{"entry_point checksum", App{NetworkConfig: NetworkConfig{Network: "devnet", EntryPoint: "0x5fbDB2315678afecb367f032d93F642f64180aa3"}},
			`entry_point "0x5fbDB2315678afecb367f032d93F642f64180aa3" fails its EIP-55 checksum (did you mean 0x5FbDB2315678afecb367f032d93F642f64180aa3?)`},
		{"settlement checksum", App{NetworkConfig: NetworkConfig{Network: "devnet", Settlement: "0xdc64a140Aa3E981100a9becA4E685f962f0cF6C9"}}, "settlement \"0xdc64a140Aa3E981100a9becA4E685f962f0cF6C9\" fails its EIP-55 checksum (did you mean 0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9?)"},
		{"devnet_addr on a real chain", App{NetworkConfig: NetworkConfig{Network: "eip155:8453", RPC: "http://x", SettlerKey: "{env.K}", DevnetAddr: "127.0.0.1:8545", Assets: []AssetConfig{{Address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Name: "USD Coin", Version: "2"}}}}, "devnet_addr is only for network devnet"},
		{"literal database URL", App{NetworkConfig: NetworkConfig{Network: "eip155:8453", RPC: "http://x", SettlerKey: "{env.K}", Assets: []AssetConfig{{Address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Name: "USD Coin", Version: "2"}}}, Database: "postgres://x402:ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80@db/x402"}, "store postgres (database) must be an {env.*} or {file.*} placeholder"},
		{"database and store_path", App{NetworkConfig: NetworkConfig{Network: "eip155:8453", RPC: "http://x", SettlerKey: "{env.K}", StorePath: "/x.db", Assets: []AssetConfig{{Address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Name: "USD Coin", Version: "2"}}}, Database: "{env.DB}"}, "exclusive"},
		{"database on the embedded devnet", App{NetworkConfig: NetworkConfig{Network: "devnet"}, Database: "{env.DB}"}, "run the dev chain apart"},
		{"negative database_max_conns", App{NetworkConfig: NetworkConfig{Network: "devnet"}, DatabaseMaxConns: -1}, "database_max_conns must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.app.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80") {
				t.Fatal("the error echoes the key")
			}
		})
	}
}

// TestHandlerValidate: the x402 handler's options are checked by Validate,
// which Caddy calls after Provision (and Provision calls first), not by
// the Caddyfile parser.
func TestHandlerValidate(t *testing.T) {
	t.Parallel()
	const payTo = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
	mcpTools := []MCPTool{{Name: "search", Price: "0.01"}}
	tests := []struct {
		name string
		h    Handler
		want string
	}{
		{"no pay_to", Handler{Price: "0.01"}, "needs pay_to"},
		{"no price", Handler{PayTo: payTo}, "needs a price"},
		{"price and amount", Handler{PayTo: payTo, Price: "0.01", Amount: "5"}, "not both"},
		{"bad amount", Handler{PayTo: payTo, Amount: "-5"}, "x402 amount"},
		{"unknown scheme", Handler{PayTo: payTo, Price: "0.01", Schemes: []string{"deferred"}}, `scheme "deferred" is not supported`},
		{"upto without usage", Handler{PayTo: payTo, Price: "0.01", Schemes: []string{"upto"}}, "needs the upto option"},
		{"upto and exact", Handler{PayTo: payTo, Price: "0.01", Schemes: []string{"exact"}, Upto: &UptoConfig{Per: "byte", Price: "0.000001"}}, "upto scheme only"},
		{"upto per request", Handler{PayTo: payTo, Price: "{http.request.header.X-Price}", Upto: &UptoConfig{Per: "byte", Price: "0.000001"}}, "needs a fixed price"},
		{"upto settle_before", Handler{PayTo: payTo, Price: "0.01", SettleBefore: true, Upto: &UptoConfig{Per: "second", Price: "0.000001"}}, "settle_before does not apply"},
		{"upto with batch-settlement and exact", Handler{PayTo: payTo, Price: "0.01", Schemes: []string{"batch-settlement", "exact"}, Upto: &UptoConfig{Per: "byte", Price: "0.000001"}}, "upto scheme only"},
		{"upto header unnamed", Handler{PayTo: payTo, Price: "0.01", Upto: &UptoConfig{Per: "header", Price: "0.000001"}}, "needs the header's name"},
		{"bad origin", Handler{PayTo: payTo, Price: "0.01", Origin: "api.example.com"}, `origin "api.example.com"`},
		{"negative timeout", Handler{PayTo: payTo, Price: "0.01", MaxTimeout: -1}, "max_timeout must not be negative"},
		{"mcp without tools", Handler{PayTo: payTo, MCP: &MCPConfig{}}, "at least one priced tool"},
		{"mcp transport", Handler{PayTo: payTo, MCP: &MCPConfig{Transport: "stdio", Tools: mcpTools}}, `transport "stdio"`},
		{"mcp tool twice", Handler{PayTo: payTo, MCP: &MCPConfig{Tools: append(mcpTools, mcpTools...)}}, "priced twice"},
		{"mcp tool without price", Handler{PayTo: payTo, MCP: &MCPConfig{Tools: []MCPTool{{Name: "search"}}}}, "or the route a price_service"},
		{"mcp placeholder price", Handler{PayTo: payTo, MCP: &MCPConfig{Tools: []MCPTool{{Name: "search", Price: "{vars.price}"}}}}, "placeholders"},
		{"mcp route price", Handler{PayTo: payTo, Price: "0.01", MCP: &MCPConfig{Tools: mcpTools}}, "a route price does not apply"},
		{"mcp upto", Handler{PayTo: payTo, Upto: &UptoConfig{Per: "byte", Price: "0.000001"}, MCP: &MCPConfig{Tools: mcpTools}}, "upto does not apply"},
		{"mcp settle_before", Handler{PayTo: payTo, SettleBefore: true, MCP: &MCPConfig{Tools: mcpTools}}, "settle_before does not apply"},
		{"mcp access cookie", Handler{PayTo: payTo, Access: &AccessConfig{Duration: caddy.Duration(time.Hour), CookiePath: "/mcp"}, MCP: &MCPConfig{Tools: mcpTools}}, "access cookie_path does not apply"},
		{"mcp access on broadcast", Handler{PayTo: payTo, Access: &AccessConfig{Duration: caddy.Duration(time.Hour)}, ServeOnBroadcast: &BroadcastConfig{MaxInFlight: "1"}, MCP: &MCPConfig{Tools: mcpTools}}, "a route with access serves after inclusion"},
		{"mcp bazaar", Handler{PayTo: payTo, Bazaar: &BazaarConfig{}, MCP: &MCPConfig{Tools: mcpTools}}, "bazaar does not apply"},
		{"mcp max_body", Handler{PayTo: payTo, MCP: &MCPConfig{Tools: mcpTools, MaxBody: "lots"}}, "max_body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := tc.h.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	ok := Handler{PayTo: payTo, Price: "0.01", Schemes: []string{"exact", "aa-native"}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("a valid handler: %v", err)
	}
	for _, per := range []string{"byte", "second", "header"} {
		ok = Handler{PayTo: payTo, Price: "0.01", Schemes: []string{"batch-settlement"}, Upto: &UptoConfig{Per: per, Header: "X-Units", Price: "0.000001"}}
		if err := ok.Validate(); err != nil {
			t.Fatalf("a channel route metered per %s: %v", per, err)
		}
	}
	ok = Handler{PayTo: payTo, Schemes: []string{"exact", "aa-native"}, MCP: &MCPConfig{Transport: "sse", Tools: mcpTools, MaxBody: "2MiB"}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("a valid MCP handler: %v", err)
	}
}

// Not parallel: it sets an environment variable.
func TestSecretKeyErrors(t *testing.T) {
	t.Setenv("X402_BAD_KEY", "not-a-key-0123")
	t.Setenv("X402_EMPTY_KEY", " ")
	tests := []struct{ name, placeholder, want string }{
		{"not a key", "{env.X402_BAD_KEY}", "settler_key {env.X402_BAD_KEY} is not a hex secp256k1 private key"},
		{"empty", "{env.X402_EMPTY_KEY}", "settler_key {env.X402_EMPTY_KEY} is empty"},
		{"unset", "{env.X402_UNSET_KEY}", "settler_key {env.X402_UNSET_KEY}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := App{NetworkConfig: NetworkConfig{Network: "devnet", SettlerKey: tc.placeholder}}
			_, err := a.plan(&a.NetworkConfig, false, true)
			if err == nil || strings.Contains(err.Error(), "not-a-key-0123") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func caddyfileDispenser(input string) *caddyfile.Dispenser { return caddyfile.NewTestDispenser(input) }

// TestTxAPIValidate: x402_txapi's options are checked by Validate, with
// what Provision learned of the x402 app (the devnet, the settler).
func TestTxAPIValidate(t *testing.T) {
	t.Parallel()
	settler := common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
	tests := []struct {
		name string
		h    TxAPIHandler
		want string
	}{
		{"literal wallet key", TxAPIHandler{WalletKey: "0xac09", devnet: true}, "wallet_key must be an {env.*} or {file.*} placeholder"},
		{"no wallet off the devnet", TxAPIHandler{}, "wallet_key is required outside the devnet"},
		{"the settler's wallet", TxAPIHandler{devnet: true, wallet: settler, settler: settler}, "must not be the settler key"},
		{"token checksum", TxAPIHandler{devnet: true, Token: "0xcf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"}, "x402_txapi token"},
		{"bad amount", TxAPIHandler{devnet: true, MaxValue: "a lot"}, "x402_txapi max_value"},
		{"too many decimals", TxAPIHandler{devnet: true, FaucetMaxAmount: "0.0000001"}, "x402_txapi faucet_max_amount"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := tc.h.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	ok := TxAPIHandler{devnet: true, MaxValue: "0.5", FaucetMaxAmount: "10.5", FaucetCooldown: 1}
	if err := ok.Validate(); err != nil {
		t.Fatalf("a valid handler: %v", err)
	}
}

// merchant_name reaches the app, and from it each route's paywall page.
func TestAppMerchantName(t *testing.T) {
	t.Parallel()
	var a App
	if err := a.UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402 {\n network devnet\n merchant_name \"Acme Reports\"\n}")); err != nil {
		t.Fatal(err)
	}
	if a.MerchantName != "Acme Reports" {
		t.Fatalf("merchant_name = %q", a.MerchantName)
	}
	if err := (&App{}).UnmarshalCaddyfile(caddyfile.NewTestDispenser("x402 {\n network devnet\n merchant_name\n}")); err == nil {
		t.Fatal("merchant_name without a name was taken")
	}
}

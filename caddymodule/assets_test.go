package caddymodule

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/tokens"
	"github.com/caddy-x402/caddy-x402/x402"
)

// assetLine is an asset given by address in a Caddyfile.
var assetLine = regexp.MustCompile(`(?m)^(\s*)asset 0x[0-9a-fA-F]{40}\b.*$`)

// standInToken puts the dev chain's own token in place of the assets cf
// gives by address, for a dev chain that stands in for a real one: the
// facilitator reads each asset's domain from the chain when it starts,
// and the dev chain has no USDC.
func standInToken(t *testing.T, cf string, chain *devnet.Devnet) string {
	t.Helper()
	if !assetLine.MatchString(cf) {
		t.Fatal("the Caddyfile gives no asset by address; update this test")
	}
	return assetLine.ReplaceAllString(cf, fmt.Sprintf(`${1}asset %s "%s" "%s" %d`, chain.Token.Address.Hex(), chain.Token.Name, chain.Token.Version, chain.Token.Decimals))
}

// knownTokenCaddyfile is a site on network that takes `asset usdc` and
// prices in dollars.
func knownTokenCaddyfile(network, asset, price string) string {
	return fmt.Sprintf(`{
	x402 {
		network %s
		rpc http://127.0.0.1:9
		settler_key {env.X402_TOKENS_SETTLER_KEY}
		asset %s
	}
}
http://127.0.0.1:8080 {
	x402_path_guard
	x402 %s {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid"
}
`, network, asset, price)
}

// TestKnownTokens: `asset usdc` on each network of the table resolves to
// the issuer's address, EIP-712 domain and decimals, and a route priced
// `$0.001` on it adapts and validates offline (caddy validate, with an
// RPC that answers nothing); so does the same token given by address,
// which takes its symbol and peg from the table.
func TestKnownTokens(t *testing.T) {
	t.Setenv("X402_TOKENS_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	for _, want := range tokens.All() {
		t.Run(want.Network, func(t *testing.T) {
			var app App
			if err := json.Unmarshal(appJSON(t, knownTokenCaddyfile(want.Network, "usdc", "$0.001")), &app); err != nil {
				t.Fatal(err)
			}
			if err := app.resolveAssets(); err != nil {
				t.Fatal(err)
			}
			got := app.Assets[0]
			if got.Address != want.Address.Hex() || got.Name != want.Name || got.Version != want.Version || got.Decimals != want.Decimals || got.symbol() != "USDC" || !got.usdPegged() {
				t.Fatalf("asset usdc on %s: %+v, want %+v", want.Network, got, want)
			}
			for _, asset := range []string{"usdc", "USDC", fmt.Sprintf(`%s "%s" "%s" %d`, want.Address.Hex(), want.Name, want.Version, want.Decimals)} {
				if err := validateCaddyfile(t, knownTokenCaddyfile(want.Network, asset, "$0.001")); err != nil {
					t.Fatalf("asset %s, price $0.001: %v", asset, err)
				}
			}
		})
	}
}

// appJSON is the x402 app of cf, adapted.
func appJSON(t *testing.T, cf string) []byte {
	t.Helper()
	var cfg struct {
		Apps map[string]json.RawMessage `json:"apps"`
	}
	if err := json.Unmarshal(adaptCaddyfile(t, cf), &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.Apps["x402"]
}

// TestKnownTokensRefused: what a token's name cannot do is refused
// offline, naming what would do: a name the network does not have, usdc
// on the devnet, values beside a name, a token given by address whose
// domain disagrees with the table, a price in dollars of a token that is
// not known to be pegged, a known token's address on a network it does not
// live on, and an x402 v1 network name.
func TestKnownTokensRefused(t *testing.T) {
	t.Setenv("X402_TOKENS_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	devnetCf := func(asset, price string) string {
		return strings.Replace(knownTokenCaddyfile("devnet", asset, price), "rpc http://127.0.0.1:9\n\t\tsettler_key {env.X402_TOKENS_SETTLER_KEY}", "devnet_addr 127.0.0.1:0", 1)
	}
	for _, tc := range []struct{ name, cf, want string }{
		{"unknown name", knownTokenCaddyfile("eip155:8453", "usdt", "0.01"), `"usdt" is not a token known on network eip155:8453 (known: usdc)`},
		{"network without names", knownTokenCaddyfile("eip155:689", "usdc", "0.01"), "no token is known by name on network eip155:689"},
		{"usdc on the devnet", devnetCf("usdc", "0.01"), `"usdc" is not a token of the devnet, whose stablecoin is dusd`},
		{"wrong domain by address", knownTokenCaddyfile("eip155:8453", `0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USDC" 2 6`, "0.01"), `has EIP-712 name "USD Coin" version "2", not "USDC" "2"`},
		{"wrong decimals by address", knownTokenCaddyfile("eip155:84532", `0x036CbD53842c5426634e7929541eC2318f3dCF7e USDC 2 18`, "0.01"), "6 decimals, not 18"},
		{"wrong decimals without a domain", knownTokenCaddyfile("eip155:84532", `0x036CbD53842c5426634e7929541eC2318f3dCF7e 18`, "0.01"), "the USDC of Base Sepolia at 0x036CbD53842c5426634e7929541eC2318f3dCF7e has 6 decimals, not 18"},
		{"dollars of an unknown token", knownTokenCaddyfile("eip155:8453", `0x4200000000000000000000000000000000000006 "Wrapped Ether" 1 18`, "$0.01"), `price "$0.01" is in US dollars, but the token is not one known to be pegged`},
		{"dollars and too many places", knownTokenCaddyfile("eip155:8453", "usdc", "$0.0000001"), "more than 6 decimal places"},
		// Issue 41: the network is blamed, not the asset or the price.
		{"another network's token", knownTokenCaddyfile("eip155:85432", `0x036CbD53842c5426634e7929541eC2318f3dCF7e "USDC" 2 6`, "0.01"),
			"0x036CbD53842c5426634e7929541eC2318f3dCF7e is the USDC of Base Sepolia (eip155:84532), not a token of network eip155:85432; did you mean network eip155:84532?"},
		{"another network's token, priced in dollars", knownTokenCaddyfile("eip155:85432", `0x036CbD53842c5426634e7929541eC2318f3dCF7e "USDC" 2 6`, "$0.001"),
			"did you mean network eip155:84532?"},
		{"a v1 network name", knownTokenCaddyfile("base-sepolia", "usdc", "0.01"), `"base-sepolia" is x402 v1's name of a network; give its CAIP-2 id, eip155:84532`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := validateCaddyfile(t, tc.cf)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("values beside a name", func(t *testing.T) {
		_, err := parseCaddyfile(knownTokenCaddyfile("eip155:8453", "usdc 6", "0.01"))
		if err == nil || !strings.Contains(err.Error(), "asset usdc names a well-known token, which takes no more values") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("devnet dusd", func(t *testing.T) {
		if err := validateCaddyfile(t, devnetCf("dusd", "$0.01")); err != nil {
			t.Fatal(err)
		}
	})
}

// parseCaddyfile adapts cf, returning the adapter's error rather than
// failing the test.
func parseCaddyfile(cf string) ([]byte, error) {
	out, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "Caddyfile"})
	return out, err
}

// TestWrongDomainRefusedAtStart: a dev chain's token given with a wrong
// EIP-712 name or version, or wrong decimals, on a network that the table
// does not know (a dev chain standing in for a real one) validates
// offline, where nothing reads the chain, but Caddy refuses to start it,
// and the error names the token's own values. On network devnet, whose
// token the table knows, caddy validate refuses it already.
func TestWrongDomainRefusedAtStart(t *testing.T) {
	chain := startChain(t, 31337)
	t.Setenv("X402_TOKENS_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	tok := chain.Token.Address.Hex()
	give := fmt.Sprintf(`give: asset %s "Devnet USD" "1" 6`, tok)
	cases := []struct{ asset, want string }{
		{fmt.Sprintf(`%s "Devnet USDX" 1 6`, tok), `the token's EIP-712 domain is name "Devnet USD" version "1", not name "Devnet USDX" version "1"`},
		{fmt.Sprintf(`%s "Devnet USD" 2`, tok), `not name "Devnet USD" version "2"`},
		{fmt.Sprintf(`%s "Devnet USD" 1 18`, tok), "the token has 6 decimals, not 18"},
	}
	for _, tc := range cases {
		t.Run(tc.asset, func(t *testing.T) {
			cf := fmt.Sprintf(`{
	x402 {
		network eip155:31337
		rpc %s
		settler_key {env.X402_TOKENS_SETTLER_KEY}
		store_path %s/x402.db
		asset %s
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid"
}
`, chain.URL, filepath.ToSlash(t.TempDir()), tc.asset, freePort(t))
			if err := validateCaddyfile(t, cf); err != nil {
				t.Fatalf("caddy validate, which reads no chain: %v", err)
			}
			_, err := runCaddyfile(t, cf)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), give) {
				t.Fatalf("caddy run: %v, want %q and %q", err, tc.want, give)
			}
		})
	}
	t.Run("on reload", func(t *testing.T) {
		// A reload that adds a network whose token is misnamed is
		// refused, naming the token's values, and the running config
		// keeps serving.
		other := startChain(t, 84532)
		dir, api := filepath.ToSlash(t.TempDir()), freePort(t)
		network := func(id, rpc, asset, store string) string {
			return fmt.Sprintf("\t\tnetwork %s {\n\t\t\trpc %s\n\t\t\tsettler_key {env.X402_TOKENS_SETTLER_KEY}\n\t\t\tasset %s\n\t\t\tstore_path %s/%s.db\n\t\t}\n", id, rpc, asset, dir, store)
		}
		config := func(networks string) string {
			return fmt.Sprintf("{\n\tx402 {\n%s\t}\n}\nhttp://127.0.0.1:%d {\n\tx402_path_guard\n\tx402 0.01 {\n\t\tpay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n\t}\n\trespond \"paid\"\n}\n", networks, api)
		}
		first := network("eip155:31337", chain.URL, fmt.Sprintf(`%s "Devnet USD" 1 6`, tok), "a")
		if _, err := runCaddyfile(t, config(first)); err != nil {
			t.Fatal(err)
		}
		_, err := runCaddyfile(t, config(first+network("eip155:84532", other.URL, fmt.Sprintf(`%s "Devnet USDX" 1 6`, other.Token.Address.Hex()), "b")))
		if err == nil || !strings.Contains(err.Error(), "network eip155:84532") || !strings.Contains(err.Error(), cases[0].want) {
			t.Fatalf("reload: %v, want %q", err, cases[0].want)
		}
		resp, body := httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/", api), nil)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil || len(pr.Accepts) != 1 || pr.Accepts[0].Network != "eip155:31337" {
			t.Fatalf("the running config after the refused reload: %d %s (%v)", resp.StatusCode, body, err)
		}
	})
	t.Run("network devnet", func(t *testing.T) {
		cf := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:0
		asset %s
	}
}
http://127.0.0.1:8080 {
	x402_path_guard
	x402 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid"
}
`, cases[0].asset)
		err := validateCaddyfile(t, cf)
		if err == nil || !strings.Contains(err.Error(), `the dUSD of devnet at `+tok+` has EIP-712 name "Devnet USD" version "1", not "Devnet USDX" "1"`) {
			t.Fatalf("caddy validate: %v", err)
		}
	})
}

// TestTokenCheckedAtFirstContact: a network whose chain is down when
// Caddy starts cannot have its token checked then; once the chain
// answers, the network starts in the background and reads its token
// before the first payment in it is verified. Its token's wrong EIP-712
// name refuses that payment (402, asset_not_allowed) instead of letting
// it fail on chain, and the error log names the right values; the first
// network's payments settle throughout.
func TestTokenCheckedAtFirstContact(t *testing.T) {
	defer func(d time.Duration) { networkRetry = d }(networkRetry)
	networkRetry = 200 * time.Millisecond
	a := startChain(t, 31337)
	portB := freePort(t)
	t.Setenv("X402_DOWN_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	api := freePort(t)
	dir := filepath.ToSlash(t.TempDir())
	logfile := dir + "/caddy.log"
	cf := fmt.Sprintf(`{
	log {
		output file %s
		level ERROR
	}
	x402 {
		network eip155:31337 {
			rpc %s
			settler_key {env.X402_DOWN_SETTLER_KEY}
			asset dusd-stand-in
			store_path %s/a.db
		}
		network eip155:84532 {
			rpc http://127.0.0.1:%d
			settler_key {env.X402_DOWN_SETTLER_KEY}
			asset %s "Devnet USDX" "1" 6
			store_path %s/b.db
		}
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 $0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid content"
}
`, logfile, a.URL, dir, portB, a.Token.Address.Hex(), dir, api)
	cf = strings.Replace(cf, "asset dusd-stand-in", fmt.Sprintf(`asset %s "%s" "%s" 6`, a.Token.Address.Hex(), a.Token.Name, a.Token.Version), 1)
	if _, err := runCaddyfile(t, cf); err == nil {
		t.Fatal("a price in dollars of tokens not known to be pegged started")
	}
	cf = strings.Replace(cf, "x402 $0.01", "x402 0.01", 1)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("Caddy did not start with its second network down: %v", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/", api)
	pay := func(network string, key *ecdsa.PrivateKey) (*http.Response, string) {
		t.Helper()
		resp, body := httpGet(t, base, nil)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil || len(pr.Accepts) != 2 {
			t.Fatalf("402: %d %s (%v)", resp.StatusCode, body, err)
		}
		i := slices.IndexFunc(pr.Accepts, func(o x402.PaymentRequirements) bool { return o.Network == network })
		p, err := (&client.Transport{Key: key, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[i])
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		return httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: h})
	}
	if resp, body := pay("eip155:31337", mustKey(t, 1)); resp.StatusCode != 200 {
		t.Fatalf("paying on the first network: %d %s", resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := devnet.Start(ctx, devnet.Config{Addr: fmt.Sprintf("127.0.0.1:%d", portB), ChainID: 84532})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	eth := ethclient.NewClient(b.Attach())
	payer := crypto.PubkeyToAddress(mustKey(t, 2).PublicKey)
	before := tokenBalance(t, eth, b.Token.Address, payer)
	for {
		resp, body := pay("eip155:84532", mustKey(t, 2))
		if resp.StatusCode == http.StatusPaymentRequired {
			pr, _ := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
			if pr == nil || !strings.Contains(pr.Error, "disagrees with the token on chain") {
				t.Fatalf("402: %s %+v, want the asset refused", body, pr)
			}
			break
		}
		if resp.StatusCode != http.StatusServiceUnavailable || ctx.Err() != nil {
			t.Fatalf("paying on the second network: %d %s, want 503 until it starts, then 402", resp.StatusCode, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if after := tokenBalance(t, eth, b.Token.Address, payer); after.Cmp(before) != 0 {
		t.Fatalf("the refused payment moved tokens: %s, then %s", before, after)
	}
	if resp, body := pay("eip155:31337", mustKey(t, 3)); resp.StatusCode != 200 {
		t.Fatalf("paying on the first network afterwards: %d %s", resp.StatusCode, body)
	}
	logs, err := os.ReadFile(logfile)
	if err != nil {
		t.Fatal(err)
	}
	line := grepLines(string(logs), "disagrees with its configuration")
	if !strings.Contains(line, `"level":"error"`) || !strings.Contains(line, `name \"Devnet USD\" version \"1\", not name \"Devnet USDX\"`) {
		t.Fatalf("the error log has no line naming the token's domain:\n%s", logs)
	}
}

// TestDevnetTokenByName: on the devnet `asset dusd` names its stablecoin
// and `$0.01` prices in dollars: the 402 asks for 10000 atomic units, the
// browser page names the token dUSD rather than its address, and a
// payment settles.
func TestDevnetTokenByName(t *testing.T) {
	api := freePort(t)
	cf := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:0
		asset dusd
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 $0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
		asset dusd
	}
	respond "paid content"
}
`, api)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/", api)
	tok := devnetAsset().Address
	resp, body := httpGet(t, base, map[string]string{"Accept": "text/html"})
	if resp.StatusCode != http.StatusPaymentRequired || !strings.Contains(body, `<span class="price">0.01 dUSD</span>`) {
		t.Fatalf("page: %d\n%s\nwant the price as 0.01 dUSD (token %s)", resp.StatusCode, body, tok)
	}
	resp, body = httpGet(t, base, nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 1 || pr.Accepts[0].Amount != "10000" || pr.Accepts[0].Asset != tok {
		t.Fatalf("402: %d %s %+v (%v)", resp.StatusCode, body, pr, err)
	}
	p, err := (&client.Transport{Key: mustKey(t, 1), MaxAmount: big.NewInt(10000)}).Pay(pr, &pr.Accepts[0])
	if err != nil {
		t.Fatal(err)
	}
	h, _ := x402.EncodeHeader(p)
	resp, body = httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: h})
	if resp.StatusCode != 200 || body != "paid content" {
		t.Fatalf("paying: %d %s", resp.StatusCode, body)
	}
}

// TestReadmeRealChainValidates: the README's Caddyfile for a real chain,
// `asset usdc` on Base Sepolia priced `$0.001`, validates offline as
// `caddy validate` does (nothing reads the chain), once pay_to is an
// address, and its route asks for 1000 atomic units of Base Sepolia's
// USDC.
func TestReadmeRealChainValidates(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, _ := fencedBlocks(string(b))
	i := slices.IndexFunc(blocks, func(bl fencedBlock) bool {
		return bl.lang == "caddyfile" && strings.Contains(bl.body, "network eip155:84532") &&
			strings.Contains(bl.body, "asset usdc") && strings.Contains(bl.body, "x402 $0.001 {")
	})
	if i < 0 {
		t.Fatal("the README has no Caddyfile with network eip155:84532, asset usdc and x402 $0.001")
	}
	t.Setenv("X402_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	cf := strings.ReplaceAll(blocks[i].body, "0xYourAddress", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
	if err := validateCaddyfile(t, cf); err != nil {
		t.Fatalf("caddy validate of the README's Caddyfile (line %d): %v", blocks[i].line, err)
	}
	usdc, _ := tokens.Lookup("eip155:84532", "usdc")
	amount, err := priceOf("$0.001", AssetConfig{Address: usdc.Address.Hex(), Decimals: usdc.Decimals, known: &usdc})
	if err != nil || amount != "1000" {
		t.Fatalf("$0.001 of Base Sepolia's USDC: %q (%v), want 1000", amount, err)
	}
}

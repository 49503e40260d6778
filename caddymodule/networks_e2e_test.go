package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// networksCaddyfile is an app of two networks, two dev chains standing
// for real ones, each with its own store (a bbolt file, or a schema of
// one PostgreSQL database); /paid/ is offered on both, /b/ on the second
// only.
const networksCaddyfile = `{
	x402 {
		network eip155:{{idA}} {
			rpc {{rpcA}}
			settler_key {env.X402_NETWORKS_SETTLER_KEY}
			asset {{tokenA}} "{{nameA}}" "{{versionA}}" 6
			{{storeA}}
		}
		network eip155:{{idB}} {
			rpc {{rpcB}}
			settler_key {env.X402_NETWORKS_SETTLER_KEY}
			asset {{tokenB}} "{{nameB}}" "{{versionB}}" 6
			{{storeB}}
		}
		receipt_timeout 5s
		{{store}}
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	metrics /metrics
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		respond "paid content"
	}
	handle /b/* {
		x402 0.01 {
			pay_to {{merchant}}
			networks eip155:{{idB}}
		}
		respond "b content"
	}
}

http://127.0.0.1:{{fac}} {
	handle /dashboard/* {
		x402_dashboard {
			path_prefix /dashboard/
			allow_anonymous
		}
	}
	handle {
		x402_facilitator
	}
}
`

// TestSeveralNetworks: one Caddy takes payments on two chains of
// different chain ids. The 402 offers one accept per network; /supported
// lists both (and the v1 kind of the one v1 names); a payment on each settles on its own chain, paid once, to
// the merchant; a route limited to one network offers only it. Then the
// second chain dies: its payments answer 503 with Retry-After while the
// first's keep settling, /health names the dead network, and the metrics
// count each payment under its own network. It runs with a bbolt store
// per network, and with one PostgreSQL database in which each network
// keeps its own schema.
func TestSeveralNetworks(t *testing.T) {
	dir := t.TempDir()
	t.Run("bolt", func(t *testing.T) {
		testSeveralNetworks(t, "", "store_path "+filepath.ToSlash(dir)+"/a.db", "store_path "+filepath.ToSlash(dir)+"/b.db")
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t, "the several-networks test on PostgreSQL")
		t.Setenv("X402_NETWORKS_DB", url)
		testSeveralNetworks(t, "store postgres {env.X402_NETWORKS_DB}",
			"database_schema "+pgtest.Schema(t, url, "x402_neta_"), "database_schema "+pgtest.Schema(t, url, "x402_netb_"))
	})
}

func testSeveralNetworks(t *testing.T, storeOpt, storeA, storeB string) {
	a, b := startChain(t, 31337), startChain(t, 84532)
	settler := mustKey(t, 0)
	t.Setenv("X402_NETWORKS_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(settler)))
	merchant := crypto.PubkeyToAddress(mustKey(t, 2).PublicKey)
	api, fac := freePort(t), freePort(t)
	cf := strings.NewReplacer(
		"{{idA}}", a.ChainID.String(), "{{rpcA}}", a.URL, "{{tokenA}}", a.Token.Address.Hex(), "{{nameA}}", a.Token.Name, "{{versionA}}", a.Token.Version,
		"{{idB}}", b.ChainID.String(), "{{rpcB}}", b.URL, "{{tokenB}}", b.Token.Address.Hex(), "{{nameB}}", b.Token.Name, "{{versionB}}", b.Token.Version,
		"{{store}}", storeOpt, "{{storeA}}", storeA, "{{storeB}}", storeB, "{{merchant}}", merchant.Hex(),
		"{{api}}", fmt.Sprint(api), "{{fac}}", fmt.Sprint(fac),
	).Replace(networksCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", api)
	facURL := fmt.Sprintf("http://127.0.0.1:%d", fac)
	netA, netB := x402.FormatNetwork(a.ChainID.Uint64()), x402.FormatNetwork(b.ChainID.Uint64())
	payer := mustKey(t, 1)

	// The 402s: one accept per network on /paid/, the second's only on /b/.
	offers := func(path string) (*x402.PaymentRequired, []string) {
		t.Helper()
		resp, body := httpGet(t, base+path, nil)
		if resp.StatusCode != http.StatusPaymentRequired {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil {
			t.Fatal(err)
		}
		var nets []string
		for _, o := range pr.Accepts {
			nets = append(nets, o.Network)
		}
		return pr, nets
	}
	prPaid, nets := offers("/paid/x")
	if fmt.Sprint(nets) != fmt.Sprint([]string{netA, netB}) {
		t.Fatalf("/paid/ offers networks %v, want %s and %s", nets, netA, netB)
	}
	if _, nets := offers("/b/x"); fmt.Sprint(nets) != fmt.Sprint([]string{netB}) {
		t.Fatalf("/b/ offers networks %v, want %s only", nets, netB)
	}

	// /supported lists both networks, each with its asset.
	resp, body := httpGet(t, facURL+"/supported", nil)
	var sup x402.Supported
	if err := json.Unmarshal([]byte(body), &sup); err != nil || resp.StatusCode != 200 {
		t.Fatalf("/supported: %d %s (%v)", resp.StatusCode, body, err)
	}
	var kinds []string
	for _, k := range sup.Kinds {
		kinds = append(kinds, fmt.Sprintf("v%d %s@%s", k.X402Version, k.Scheme, k.Network))
	}
	// 84532 has a v1 name, base-sepolia, which v1 clients pay in.
	if fmt.Sprint(kinds) != fmt.Sprint([]string{"v2 exact@" + netA, "v2 upto@" + netA, "v2 exact@" + netB, "v2 upto@" + netB, "v1 exact@base-sepolia"}) {
		t.Fatalf("/supported kinds %v", kinds)
	}

	// A payment on each network settles on its own chain.
	chains := map[string]*devnet.Devnet{netA: a, netB: b}
	pay := func(path string, pr *x402.PaymentRequired, network string) (*http.Response, string) {
		t.Helper()
		for i := range pr.Accepts {
			if pr.Accepts[i].Network != network {
				continue
			}
			p, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[i])
			if err != nil {
				t.Fatal(err)
			}
			h, _ := x402.EncodeHeader(p)
			return httpGet(t, base+path, map[string]string{x402.HeaderPaymentSignature: h})
		}
		t.Fatalf("no offer on %s", network)
		return nil, ""
	}
	for _, network := range []string{netA, netB} {
		chain := chains[network]
		eth, err := ethclient.Dial(chain.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer eth.Close()
		before := tokenBalance(t, eth, chain.Token.Address, merchant)
		resp, body := pay("/paid/x", prPaid, network)
		if resp.StatusCode != 200 || body != "paid content" {
			t.Fatalf("paying on %s: %d %s", network, resp.StatusCode, body)
		}
		receipt, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
		if err != nil || !receipt.Success || receipt.Network != network {
			t.Fatalf("paying on %s: receipt %+v (%v)", network, receipt, err)
		}
		r, err := eth.TransactionReceipt(context.Background(), common.HexToHash(receipt.TransactionHash))
		if err != nil || r.Status != 1 {
			t.Fatalf("paying on %s: the transaction %s is not mined on its chain: %v", network, receipt.TransactionHash, err)
		}
		if got := new(big.Int).Sub(tokenBalance(t, eth, chain.Token.Address, merchant), before); got.Int64() != 10000 {
			t.Fatalf("paying on %s: the merchant got %s, want 10000", network, got)
		}
	}

	// The second chain dies. Its payments answer 503 with Retry-After;
	// the first's keep settling.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if resp, body := pay("/paid/x", prPaid, netB); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("paying on the dead %s: %d (Retry-After %q) %s, want 503 with Retry-After", netB, resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if resp, body := pay("/paid/x", prPaid, netA); resp.StatusCode != 200 {
		t.Fatalf("paying on %s while %s is down: %d %s", netA, netB, resp.StatusCode, body)
	}
	resp, body = httpGet(t, facURL+"/health", nil)
	var health x402.Health
	if err := json.Unmarshal([]byte(body), &health); err != nil {
		t.Fatalf("/health: %s (%v)", body, err)
	}
	if health.Status != "degraded" || health.Dependencies["chain "+netB] != "unreachable" || health.Dependencies["chain "+netA] != "ok" {
		t.Fatalf("/health with %s down: %d %s", netB, resp.StatusCode, body)
	}

	// The dashboard shows each network's payments on its own page, with
	// a switch between them; the second network's has no keys of its own.
	txs := map[string][]string{}
	for _, network := range []string{netA, netB} {
		path := "/dashboard/payments"
		if network == netB {
			path = "/dashboard/networks/" + netB + "/payments"
		}
		resp, page := httpGet(t, facURL+path, nil)
		if resp.StatusCode != 200 || !strings.Contains(page, `href="/dashboard/networks/`+netB+`/payments"`) || !strings.Contains(page, `href="/dashboard/payments"`) {
			t.Fatalf("dashboard of %s: %d, without the network switch:\n%s", network, resp.StatusCode, page)
		}
		txs[network] = regexp.MustCompile(`0x[0-9a-f]{64}`).FindAllString(page, -1)
	}
	for _, tx := range txs[netB] {
		if slices.Contains(txs[netA], tx) {
			t.Errorf("the dashboard of %s shows %s, a transaction of %s", netA, tx, netB)
		}
	}
	if len(txs[netA]) == 0 || len(txs[netB]) == 0 {
		t.Errorf("dashboard transactions by network: %v", txs)
	}
	if resp, _ := httpGet(t, facURL+"/dashboard/networks/"+netB+"/keys", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the second network's dashboard serves keys: %d", resp.StatusCode)
	}
	if resp, _ := httpGet(t, facURL+"/dashboard/networks/eip155:1/", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the dashboard of a network the app does not have: %d", resp.StatusCode)
	}

	// Each payment is counted under its own network.
	_, metrics := httpGet(t, base+"/metrics", nil)
	for network, want := range map[string]string{netA: "2", netB: "1"} {
		labels := fmt.Sprintf(`asset="%s",host="127.0.0.1",network="%s",result="settled",scheme="exact",server=`, chains[network].Token.Address.Hex(), network)
		found := false
		for _, l := range strings.Split(metrics, "\n") {
			found = found || strings.Contains(l, labels) && strings.HasSuffix(l, "} "+want)
		}
		if !found {
			t.Errorf("metrics lack %s settled payments on %s", want, network)
		}
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", grepLines(metrics, "caddy_x402_payments_total"))
	}
}

// httpGet gets url with header, and returns the response and its body.
func httpGet(t *testing.T, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	c := &http.Client{Timeout: time.Minute}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// tokenBalance is who's balance of a DevUSD token.
func tokenBalance(t *testing.T, eth *ethclient.Client, token, who common.Address) *big.Int {
	t.Helper()
	tok := contracts.NewDevUSD()
	out, err := eth.CallContract(context.Background(), ethereum.CallMsg{To: &token, Data: tok.PackBalanceOf(who)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tok.UnpackBalanceOf(out)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// grepLines are the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestSeveralNetworksRefused: what a config of several networks gets
// wrong is refused when it loads, naming the network and the option.
func TestSeveralNetworksRefused(t *testing.T) {
	t.Setenv("X402_NETWORKS_REFUSED_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	// Each network's own USDC: another network's address is refused.
	usdc := map[string]string{
		"eip155:8453":  `asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USD Coin" 2`,
		"eip155:84532": `asset 0x036CbD53842c5426634e7929541eC2318f3dCF7e "USDC" 2`,
	}
	block := func(network, extra string) string {
		return "\t\tnetwork " + network + " {\n\t\t\trpc http://127.0.0.1:9\n\t\t\tsettler_key {env.X402_NETWORKS_REFUSED_KEY}\n\t\t\t" + usdc[network] + "\n\t\t\t" + extra + "\n\t\t}\n"
	}
	site := "http://:8080 {\n\tx402_path_guard\n\tx402 0.01 {\n\t\tpay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n\t\t%s\n\t}\n\trespond \"paid\"\n}\n"
	tests := []struct{ name, app, route, want string }{
		{"top level and blocks", "\t\trpc http://127.0.0.1:9\n" + block("eip155:8453", ""), "", "either at the top level, for one network, or in network blocks"},
		{"network twice", block("eip155:8453", "") + block("eip155:8453", ""), "", "network eip155:8453 is given twice"},
		{"shared store_path", block("eip155:8453", "store_path /tmp/x402-shared.db") + block("eip155:84532", "store_path /tmp/x402-shared.db"), "", `networks eip155:8453 and eip155:84532 share store_path "/tmp/x402-shared.db"`},
		{"shared schema", "\t\tstore postgres {env.X402_NETWORKS_REFUSED_KEY}\n" + block("eip155:8453", "database_schema x402") + block("eip155:84532", "database_schema x402"), "", `share database_schema "x402"`},
		{"aa-native on the second network", block("eip155:8453", "") + block("eip155:84532", "entry_point 0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789\n\t\t\taccount_factory 0x9406Cc6185a346906296840746125a0E44976454\n\t\t\tsettlement 0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9\n\t\t\tpaymaster 0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"), "", "network eip155:84532: aa-native is served on the first network only"},
		{"chain_id on a real chain", block("eip155:8453", "chain_id 8453") + block("eip155:84532", ""), "", "network eip155:8453: chain_id is only for network devnet"},
		{"route on another network", block("eip155:8453", "") + block("eip155:84532", ""), "networks eip155:1", `x402 networks: "eip155:1" is not a network of the x402 app (eip155:8453, eip155:84532)`},
		{"route names a network twice", block("eip155:8453", "") + block("eip155:84532", ""), "networks eip155:8453 eip155:8453", `"eip155:8453" is named twice`},
		{"asset of no route network", block("eip155:8453", "") + block("eip155:84532", ""), "networks eip155:84532\n\t\tasset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "is not among the assets of the route's networks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cf := "{\n\tx402 {\n" + tc.app + "\t}\n}\n" + fmt.Sprintf(site, tc.route)
			err := validateCaddyfile(t, cf)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q\n%s", err, tc.want, cf)
			}
		})
	}
}

// TestNetworkSchemas: in an app of several networks on PostgreSQL, each
// network's tables are in a schema named after it unless its block names
// one; a single network keeps the connection's search_path.
func TestNetworkSchemas(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n     NetworkConfig
		multi bool
		want  string
	}{
		{NetworkConfig{Network: "eip155:8453"}, false, ""},
		{NetworkConfig{Network: "eip155:8453"}, true, "x402_eip155_8453"},
		{NetworkConfig{Network: "eip155:8453", DatabaseSchema: "shop"}, true, "shop"},
		{NetworkConfig{Network: "devnet", ChainID: 84532}, true, "x402_eip155_84532"},
	}
	for _, tc := range tests {
		if got := tc.n.schema(tc.multi); got != tc.want {
			t.Errorf("schema of %+v (several networks: %v) = %q, want %q", tc.n, tc.multi, got, tc.want)
		}
	}
}

// TestTwoEmbeddedDevnets: an app may run two embedded dev chains, told
// apart by chain_id (84532 stands in for Base Sepolia, a network that x402
// v1 clients know by name); a payment on the second settles there.
func TestTwoEmbeddedDevnets(t *testing.T) {
	api := freePort(t)
	cf := fmt.Sprintf(`{
	x402 {
		network devnet {
			devnet_addr 127.0.0.1:0
		}
		network devnet {
			chain_id 84532
			devnet_addr 127.0.0.1:0
		}
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid content"
}
`, api)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/", api)
	resp, body := httpGet(t, base, nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 2 || pr.Accepts[0].Network != "eip155:31337" || pr.Accepts[1].Network != "eip155:84532" {
		t.Fatalf("402: %d %s %+v (%v)", resp.StatusCode, body, pr, err)
	}
	p, err := (&client.Transport{Key: mustKey(t, 1), MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[1])
	if err != nil {
		t.Fatal(err)
	}
	h, _ := x402.EncodeHeader(p)
	resp, body = httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: h})
	receipt, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
	if resp.StatusCode != 200 || err != nil || !receipt.Success || receipt.Network != "eip155:84532" {
		t.Fatalf("paying on the second devnet: %d %s %+v (%v)", resp.StatusCode, body, receipt, err)
	}
}

// TestAssetWithoutEIP3009: a token given without an EIP-712 domain (one
// without EIP-3009, as NERO's are) is offered with aa-native only, never
// with exact, whose authorization it could not take; the facilitator
// runs without exact when no asset has a domain.
func TestAssetWithoutEIP3009(t *testing.T) {
	api, fac := freePort(t), freePort(t)
	cf := fmt.Sprintf(`{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:0
		asset %s 6
		sponsor_url http://127.0.0.1:%d/sponsor
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
		schemes exact aa-native
	}
	respond "paid content"
}
http://127.0.0.1:%d {
	x402_facilitator
}
`, devnetAsset().Address, fac, api, fac)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	resp, body := httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/", api), nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) != 1 || pr.Accepts[0].Scheme != x402.SchemeAANative {
		t.Fatalf("402: %d %s %+v (%v), want one aa-native accept", resp.StatusCode, body, pr, err)
	}
	_, body = httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/supported", fac), nil)
	var sup x402.Supported
	if err := json.Unmarshal([]byte(body), &sup); err != nil || len(sup.Kinds) != 1 || sup.Kinds[0].Scheme != x402.SchemeAANative {
		t.Fatalf("/supported: %s (%v), want aa-native only", body, err)
	}
}

// TestNetworkDownAtStart: a network other than the first whose chain is
// down when Caddy starts does not stop Caddy: the first network takes
// payments, the second's answer 503 with Retry-After, and once its chain
// answers it starts in the background and its payments settle.
func TestNetworkDownAtStart(t *testing.T) {
	defer func(d time.Duration) { networkRetry = d }(networkRetry)
	networkRetry = 200 * time.Millisecond
	a := startChain(t, 31337)
	portB := freePort(t)
	t.Setenv("X402_DOWN_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	api := freePort(t)
	dir := filepath.ToSlash(t.TempDir())
	cf := fmt.Sprintf(`{
	x402 {
		network eip155:31337 {
			rpc %s
			settler_key {env.X402_DOWN_SETTLER_KEY}
			asset %s "%s" "%s" 6
			store_path %s/a.db
		}
		network eip155:84532 {
			rpc http://127.0.0.1:%d
			settler_key {env.X402_DOWN_SETTLER_KEY}
			asset %s "%s" "%s" 6
			store_path %s/b.db
		}
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	x402 0.01 {
		pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
	}
	respond "paid content"
}
`, a.URL, a.Token.Address.Hex(), a.Token.Name, a.Token.Version, dir, portB, a.Token.Address.Hex(), a.Token.Name, a.Token.Version, dir, api)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatalf("Caddy did not start with its second network down: %v", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/", api)
	pay := func(network string) *http.Response {
		t.Helper()
		resp, body := httpGet(t, base, nil)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if err != nil || len(pr.Accepts) != 2 {
			t.Fatalf("402: %d %s (%v)", resp.StatusCode, body, err)
		}
		i := slices.IndexFunc(pr.Accepts, func(o x402.PaymentRequirements) bool { return o.Network == network })
		p, err := (&client.Transport{Key: mustKey(t, 1), MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[i])
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		resp, _ = httpGet(t, base, map[string]string{x402.HeaderPaymentSignature: h})
		return resp
	}
	if resp := pay("eip155:31337"); resp.StatusCode != 200 {
		t.Fatalf("paying on the first network: %d", resp.StatusCode)
	}
	if resp := pay("eip155:84532"); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("paying on the network that is down: %d (Retry-After %q), want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := devnet.Start(ctx, devnet.Config{Addr: fmt.Sprintf("127.0.0.1:%d", portB), ChainID: 84532})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	for {
		resp := pay("eip155:84532")
		if resp.StatusCode == 200 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the second network never started once its chain answered: %d", resp.StatusCode)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestChainDownAtStart: Caddy starts, as a sidecar must, while its only
// chain's RPC does not answer: the free route serves, an unpaid request
// gets its 402, a payment answers 503 with Retry-After, /health is
// degraded (503); once the chain answers, the payment settles. A config
// that is wrong rather than unreachable (an RPC of another chain id) is
// still refused at start.
func TestChainDownAtStart(t *testing.T) {
	defer func(d time.Duration) { networkRetry = d }(networkRetry)
	networkRetry = 200 * time.Millisecond
	port := freePort(t)
	t.Setenv("X402_SIDECAR_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	api, fac := freePort(t), freePort(t)
	token := devnetAsset()
	cf := fmt.Sprintf(`{
	x402 {
		network eip155:84532
		rpc http://127.0.0.1:%d
		settler_key {env.X402_SIDECAR_SETTLER_KEY}
		asset %s "%s" "%s" 6
		store_path %s/sidecar.db
	}
}
http://127.0.0.1:%d {
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC
		}
		respond "paid content"
	}
	handle /free {
		respond "free content"
	}
}
http://127.0.0.1:%d {
	x402_facilitator
}
`, port, token.Address, token.Name, token.Version, filepath.ToSlash(t.TempDir()), api, fac)
	stop, err := runCaddyfile(t, cf)
	if err != nil {
		t.Fatalf("Caddy did not start with its chain down: %v", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", api)
	if resp, body := httpGet(t, base+"/free", nil); resp.StatusCode != 200 || body != "free content" {
		t.Fatalf("the free route with the chain down: %d %s", resp.StatusCode, body)
	}
	pay := func() *http.Response {
		t.Helper()
		resp, body := httpGet(t, base+"/paid/x", nil)
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != http.StatusPaymentRequired || err != nil {
			t.Fatalf("unpaid: %d %s (%v)", resp.StatusCode, body, err)
		}
		p, err := (&client.Transport{Key: mustKey(t, 1), MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[0])
		if err != nil {
			t.Fatal(err)
		}
		h, _ := x402.EncodeHeader(p)
		resp, _ = httpGet(t, base+"/paid/x", map[string]string{x402.HeaderPaymentSignature: h})
		return resp
	}
	if resp := pay(); resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("paying with the chain down: %d (Retry-After %q), want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	resp, body := httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/health", fac), nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, `"degraded"`) || !strings.Contains(body, `"chain":"unreachable"`) {
		t.Fatalf("/health with the chain down: %d %s", resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	chain, err := devnet.Start(ctx, devnet.Config{Addr: fmt.Sprintf("127.0.0.1:%d", port), ChainID: 84532})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	for {
		resp := pay()
		if resp.StatusCode == 200 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("payments never resumed once the chain answered: %d", resp.StatusCode)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Another chain's RPC is a mistake, not an outage.
	stop()
	other := startChain(t, 31337)
	wrong := strings.Replace(cf, fmt.Sprintf("rpc http://127.0.0.1:%d", port), "rpc "+other.URL, 1)
	wrong = strings.Replace(wrong, "sidecar.db", "sidecar-wrong.db", 1)
	if _, err := runCaddyfile(t, wrong); err == nil || !strings.Contains(err.Error(), "the RPC serves chain 31337, but the network is eip155:84532") {
		t.Fatalf("an RPC of another chain: %v", err)
	}
}

// TestSidecarMistakesRefused: `caddy validate` refuses a pay_to of the
// zero address and an rpc without a scheme.
func TestSidecarMistakesRefused(t *testing.T) {
	t.Setenv("X402_MISTAKE_KEY", fmt.Sprintf("%x", crypto.FromECDSA(mustKey(t, 0))))
	tests := []struct{ name, rpc, payTo, want string }{
		{"zero pay_to", "http://127.0.0.1:9", "0x0000000000000000000000000000000000000000", "pay_to is the zero address"},
		{"rpc without a scheme", "127.0.0.1:8545", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", `rpc "127.0.0.1:8545": want an http://, https://, ws:// or wss:// URL`},
		{"rpc of another scheme", "ftp://node", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", `rpc "ftp://node"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cf := fmt.Sprintf(`{
	x402 {
		network eip155:8453
		rpc %s
		settler_key {env.X402_MISTAKE_KEY}
		asset 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "USD Coin" 2 6
	}
}
http://:8080 {
	x402_path_guard
	x402 0.01 {
		pay_to %s
	}
	respond "paid"
}
`, tc.rpc, tc.payTo)
			if err := validateCaddyfile(t, cf); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

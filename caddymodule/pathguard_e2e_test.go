package caddymodule

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/pathguard"
	"github.com/caddy-x402/caddy-x402/x402"
)

// servletLike is an upstream that reads a request target the way a
// lenient servlet container does: it drops each segment's ";" parameters,
// decodes the path (%2F becomes a separator), reads "\" as "/", and
// resolves dot segments. It serves the paid report at /paid/report.
func servletLike(w http.ResponseWriter, r *http.Request) {
	target, _, _ := strings.Cut(r.RequestURI, "?")
	segs := strings.Split(target, "/")
	for i, s := range segs {
		segs[i], _, _ = strings.Cut(s, ";")
	}
	p, err := url.PathUnescape(strings.Join(segs, "/"))
	if err != nil {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	switch path.Clean(strings.ReplaceAll(p, `\`, "/")) {
	case "/paid/report":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"report":"the paid report"}`)
	case "/free":
		io.WriteString(w, "free content")
	default:
		http.NotFound(w, r)
	}
}

const paidMarker = "the paid report"

// rawGet sends target as it is, in an HTTP/1.1 request line, to addr, so
// that no client normalises it first.
func rawGet(t *testing.T, addr, target string) (*http.Response, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %q: %v", target, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

const pathsCaddyfile = `{
	admin off
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
	}
}

# The issue's layout: the paid matcher, then a free catch-all.
http://:{{old}} {
	bind 127.0.0.1
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		reverse_proxy {{upstream}}
	}
	handle {
		reverse_proxy {{upstream}}
	}
}

# The new layout: free paths listed, the catch-all paid; ";" allowed.
http://:{{new}} {
	bind 127.0.0.1
	x402_path_guard allow_path_params
	handle /free {
		reverse_proxy {{upstream}}
	}
	handle {
		x402 0.01 {
			pay_to {{merchant}}
		}
		reverse_proxy {{upstream}}
	}
}
`

// TestPathSpellingsNeverFree: through Caddy on the devnet, in front of an
// upstream that normalises paths as servlet containers do, every spelling
// of the paid path gets a JSON 402 or a JSON 400, never the paid body;
// the free route and a real payment still work. Not parallel: Caddy runs
// one config at a time.
func TestPathSpellingsNeverFree(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(servletLike))
	defer upstream.Close()
	upAddr := strings.TrimPrefix(upstream.URL, "http://")

	// The upstream really does serve the paid report for these spellings:
	// without the guard, the free catch-all would hand it out.
	bypasses := []string{
		"/paid;x/report", "/paid;jsessionid=1/report", "/paid/report;jsessionid=1", `/paid\report`,
		"/paid%5Creport", "/paid%5creport", "/paid%2Freport", "/free/..;/paid/report", "/free/../paid/report",
		"/free/%2e%2e/paid/report",
	}
	for _, target := range bypasses {
		if resp, body := rawGet(t, upAddr, target); resp.StatusCode != 200 || !strings.Contains(body, paidMarker) {
			t.Fatalf("the test upstream does not serve %q as the paid report: %d %q", target, resp.StatusCode, body)
		}
	}

	ports := map[string]int{}
	for _, name := range []string{"chain", "old", "new"} {
		ports[name] = freePort(t)
	}
	merchant := common.HexToAddress("0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65") // test account #4
	cf := pathsCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{upstream}}", upAddr).Replace(cf)
	if err := caddy.Load(adaptCaddyfile(t, cf), true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	oldAddr, newAddr := fmt.Sprintf("127.0.0.1:%d", ports["old"]), fmt.Sprintf("127.0.0.1:%d", ports["new"])

	refused := func(reason pathguard.Refusal) func(t *testing.T, resp *http.Response, body string) {
		return func(t *testing.T, resp *http.Response, body string) {
			var got pathguard.Body
			if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json" ||
				json.Unmarshal([]byte(body), &got) != nil || got.Error != "path_refused" || got.Reason != reason || got.Message == "" {
				t.Fatalf("want a JSON 400 path_refused %s, got %d %q %q", reason, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
		}
	}
	challenged := func(t *testing.T, resp *http.Response, body string) {
		pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
		if resp.StatusCode != 402 || err != nil || !json.Valid([]byte(body)) || pr.Accepts[0].PayTo != merchant.Hex() {
			t.Fatalf("want a JSON 402 challenge, got %d %v %q", resp.StatusCode, err, body)
		}
	}
	tests := []struct {
		addr, target string
		want         func(t *testing.T, resp *http.Response, body string)
	}{
		{oldAddr, "/paid/report", challenged},
		{oldAddr, "/PAID/report", challenged},
		{oldAddr, "//paid/report", challenged},
		{oldAddr, "/paid/report?q=a;b", challenged},
		{oldAddr, "/paid;x/report", refused(pathguard.PathParameter)},
		{oldAddr, "/paid;jsessionid=1/report", refused(pathguard.PathParameter)},
		{oldAddr, "/paid/report;jsessionid=1", refused(pathguard.PathParameter)},
		{oldAddr, "/paid%3Bx/report", refused(pathguard.PathParameter)},
		{oldAddr, `/paid\report`, refused(pathguard.Backslash)},
		{oldAddr, "/paid%5Creport", refused(pathguard.Backslash)},
		{oldAddr, "/paid%5creport", refused(pathguard.Backslash)},
		{oldAddr, "/paid%255Creport", refused(pathguard.Backslash)},
		{oldAddr, "/paid%2Freport", refused(pathguard.EncodedSlash)},
		{oldAddr, "/paid%2freport", refused(pathguard.EncodedSlash)},
		{oldAddr, "/free/..;/paid/report", refused(pathguard.PathParameter)},
		{oldAddr, "/free/../paid/report", refused(pathguard.DotSegment)},
		{oldAddr, "/free/%2e%2e/paid/report", refused(pathguard.DotSegment)},
		{oldAddr, "/paid%0A/report", refused(pathguard.Control)},
		{oldAddr, "/paid%00/report", refused(pathguard.Control)},
		{oldAddr, "/paid%E2%80%A8/report", refused(pathguard.LineSeparator)},
		{oldAddr, "/paid\u2029/report", refused(pathguard.LineSeparator)},
		{oldAddr, "http://" + oldAddr + "/paid;x/report", refused(pathguard.PathParameter)},
		// With ";" allowed, a spelling the paid matcher misses falls to
		// the paid catch-all, not to a free route.
		{newAddr, "/paid/report", challenged},
		{newAddr, "/paid;x/report", challenged},
		{newAddr, "/paid;jsessionid=1/report", challenged},
		{newAddr, "/free;jsessionid=1", challenged},
		{newAddr, "/free/..;/paid/report", refused(pathguard.DotSegment)},
		{newAddr, "/paid%5Creport", refused(pathguard.Backslash)},
		{newAddr, "/paid%2Freport", refused(pathguard.EncodedSlash)},
	}
	for _, tc := range tests {
		t.Run(tc.addr[strings.LastIndexByte(tc.addr, ':'):]+tc.target, func(t *testing.T) {
			resp, body := rawGet(t, tc.addr, tc.target)
			if strings.Contains(body, paidMarker) {
				t.Fatalf("served the paid report for free: %d %q", resp.StatusCode, body)
			}
			tc.want(t, resp, body)
		})
	}

	t.Run("free routes stay open", func(t *testing.T) {
		for _, addr := range []string{oldAddr, newAddr} {
			for _, target := range []string{"/free", "/free?a=1;b=2"} {
				if resp, body := rawGet(t, addr, target); resp.StatusCode != 200 || body != "free content" {
					t.Fatalf("%s%s: %d %q", addr, target, resp.StatusCode, body)
				}
			}
		}
	})
	t.Run("a payment still buys the report", func(t *testing.T) {
		eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
		if err != nil {
			t.Fatal(err)
		}
		defer eth.Close()
		e := &e2e{t: t, eth: eth, token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9")}
		payer := mustKey(t, 5)
		for _, addr := range []string{oldAddr, newAddr} {
			before := e.balance(merchant)
			c := &http.Client{Transport: &client.Transport{Key: payer, MaxAmount: big.NewInt(10_000)}}
			resp, err := c.Get("http://" + addr + "/paid/report")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			receipt, ok, err := client.Receipt(resp)
			if resp.StatusCode != 200 || !strings.Contains(string(body), paidMarker) || !ok || err != nil || !receipt.Success ||
				!strings.EqualFold(receipt.Payer, crypto.PubkeyToAddress(payer.PublicKey).Hex()) {
				t.Fatalf("%s: %d %q %+v %v", addr, resp.StatusCode, body, receipt, err)
			}
			if _, err := waitReceipt(eth, receipt.TransactionHash); err != nil {
				t.Fatal(err)
			}
			if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 10_000 {
				t.Fatalf("%s: the merchant got %s, want 10000", addr, got)
			}
		}
	})
}

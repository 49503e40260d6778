package caddymodule

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
)

// readmePayerCommand is a `go run ./examples/payer …` line of the README
// or docs/*.md and the sample output written under it, as `# ` lines.
type readmePayerCommand struct {
	file   string
	args   []string
	sample []string
}

// readmePayerCommands finds the payer commands in the sh blocks of a
// Markdown file.
func readmePayerCommands(t *testing.T, file, readme string) []readmePayerCommand {
	t.Helper()
	var (
		cmds    []readmePayerCommand
		inBlock bool
		cur     *readmePayerCommand
	)
	sc := bufio.NewScanner(strings.NewReader(readme))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```sh":
			inBlock = true
		case line == "```":
			inBlock, cur = false, nil
		case !inBlock:
		case strings.HasPrefix(line, "go run ./examples/payer"):
			cmds = append(cmds, readmePayerCommand{file: file, args: strings.Fields(strings.TrimPrefix(line, "go run ./examples/payer"))})
			cur = &cmds[len(cmds)-1]
		case cur != nil && strings.HasPrefix(line, "# "):
			cur.sample = append(cur.sample, strings.TrimPrefix(line, "# "))
		default:
			cur = nil
		}
	}
	return cmds
}

// samplePattern matches a line of sample output: "…" stands for elided
// hex digits (a transaction or operation hash), everything else is
// literal.
func samplePattern(line string) *regexp.Regexp {
	parts := strings.Split(line, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, "[0-9a-fA-F]+") + "$")
}

// distinctFreePorts picks a free TCP port for each name, all different:
// each listener stays open until every port is chosen.
func distinctFreePorts(t *testing.T, names ...string) map[string]int {
	t.Helper()
	ports := map[string]int{}
	for _, name := range names {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports[name] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// TestReadmePayerOutput runs the README's walkthrough: the demo of
// Caddyfile.example (on free ports), then each `go run ./examples/payer`
// command of the README and docs/*.md, and compares what the payer prints
// with the sample output written under it, line for line, so that the two
// cannot drift.
func TestReadmePayerOutput(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	var cmds []readmePayerCommand
	for _, doc := range docFiles(t) {
		cmds = append(cmds, readmePayerCommands(t, doc.path, doc.text)...)
	}
	if len(cmds) < 2 {
		t.Fatalf("the README and docs/*.md have %d payer commands, want the exact and the aa-native one", len(cmds))
	}
	for _, c := range cmds {
		if len(c.sample) == 0 {
			t.Fatalf("%s: `go run ./examples/payer %s` has no sample output", c.file, strings.Join(c.args, " "))
		}
	}

	// The demo, as the README runs it, on free ports and without the
	// admin endpoint.
	example, err := os.ReadFile(filepath.Join("..", "Caddyfile.example"))
	if err != nil {
		t.Fatal(err)
	}
	// The ports are held until all are chosen, so no two are the same,
	// and replaced in one pass, so a new port is never rewritten.
	ports := distinctFreePorts(t, "8080", "9000", "4021", "4338", "4339", "chain", "chain2")
	cf := regexp.MustCompile(`:(8080|9000|4021|4338|4339)\b`).ReplaceAllStringFunc(string(example), func(m string) string {
		return fmt.Sprintf(":%d", ports[m[1:]])
	})
	chain, chain2 := ports["chain"], ports["chain2"]
	cf = strings.Replace(cf, "devnet_addr 127.0.0.1:8545\n", fmt.Sprintf("devnet_addr 127.0.0.1:%d\n", chain), 1)
	cf = strings.Replace(cf, "devnet_addr 127.0.0.1:8546\n", fmt.Sprintf("devnet_addr 127.0.0.1:%d\n", chain2), 1)
	startLog := filepath.Join(t.TempDir(), "caddy.log")
	cf = strings.Replace(cf, "{\n", fmt.Sprintf("{\n\tadmin off\n\tlog {\n\t\toutput file %s\n\t}\n", filepath.ToSlash(startLog)), 1)
	cf = strings.ReplaceAll(cf, "output stderr", "output discard")
	// The upstream (the merchant's app) shows what X-Payer it got on /free.
	const free = "respond /free `{\"free\":\"anyone can read this\"}`"
	if !strings.Contains(cf, free) {
		t.Fatal("Caddyfile.example's upstream no longer answers /free as this test expects; update it")
	}
	cf = strings.Replace(cf, free, `respond /free "payer=[{http.request.header.X-Payer}]"`, 1)
	if !strings.Contains(cf, fmt.Sprintf("devnet_addr 127.0.0.1:%d\n", chain2)) {
		t.Fatal("Caddyfile.example no longer says `network devnet`; update this test")
	}
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "Caddyfile.example"})
	if err != nil {
		t.Fatalf("adapting Caddyfile.example: %v", err)
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading Caddyfile.example: %v", err)
	}
	defer caddy.Stop()

	api := fmt.Sprintf("http://localhost:%d", ports["8080"])
	// One line for people per site: where it is and what it serves, and
	// on the demo the dashboard's login.
	logged, _ := os.ReadFile(startLog)
	for _, want := range []string{
		fmt.Sprintf("x402: http://localhost:%d serves a paid API (3 paid routes)", ports["8080"]),
		fmt.Sprintf("x402: http://localhost:%d serves the facilitator (/health, /supported, /verify, /settle), the developer API (/api/v1/)", ports["4021"]),
		fmt.Sprintf("x402: http://localhost:%d serves the paymaster (JSON-RPC)", ports["4338"]),
		fmt.Sprintf("x402: http://localhost:%d serves the dashboard (the demo's login: user admin, password x402-demo-local-only)", ports["4339"]),
	} {
		if !strings.Contains(string(logged), want) {
			t.Errorf("the start log lacks %q:\n%s", want, grepLines(string(logged), "x402: "))
		}
	}
	// The demo's paid report is discoverable on its facilitator.
	if resp, err := http.Get(fmt.Sprintf("http://localhost:%d/discovery/resources", ports["4021"])); err != nil {
		t.Fatal(err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), fmt.Sprintf(`"resource":"http://localhost:%d/paid/report"`, ports["8080"])) {
			t.Errorf("the demo's /discovery/resources: %d %s", resp.StatusCode, body)
		}
	}
	// A client's own X-Payer does not reach the upstream on a free route.
	req, _ := http.NewRequest(http.MethodGet, api+"/free", nil)
	req.Header.Set("X-Payer", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "payer=[]" {
			t.Errorf("/free with a client's X-Payer: the upstream got %q, want none", body)
		}
	}
	// The demo's second dev chain stands for base-sepolia, so upstream's
	// x402 v1 clients pay it too, beside the v2 payers below.
	t.Run("x402 v1 clients", func(t *testing.T) {
		_, fetch, axios := v1Clients(t, v1Interop(t), api+"/paid/report", 5, 6)
		for name, r := range map[string]v1ClientResult{"x402-fetch": fetch, "x402-axios": axios} {
			if r.Status != 200 || !strings.Contains(r.Body, "the paid report") || r.Receipt == nil || r.Receipt.Network != "base-sepolia" || r.Receipt.Transaction == "" {
				t.Errorf("%s paying the demo: %+v", name, r)
			}
		}
	})
	for _, c := range cmds {
		t.Run(c.file+" "+strings.Join(c.args, " "), func(t *testing.T) {
			args := []string{"run", "./examples/payer"}
			for _, a := range c.args {
				args = append(args, strings.ReplaceAll(a, "http://localhost:8080", api))
			}
			// The smart account's address is read from the chain.
			args = append(args, "-rpc", fmt.Sprintf("http://127.0.0.1:%d", chain))
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, goCmd, args...)
			cmd.Dir = ".."
			cmd.Env = append(os.Environ(), "X402_KEY=") // the default payer, test account #1
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			got := strings.Split(strings.TrimRight(strings.ReplaceAll(string(out), api, "http://localhost:8080"), "\n"), "\n")
			if len(got) != len(c.sample) {
				t.Fatalf("the payer printed %d lines, %s shows %d:\n%s\n%s:\n%s", len(got), c.file, len(c.sample), strings.Join(got, "\n"), c.file, strings.Join(c.sample, "\n"))
			}
			for i, want := range c.sample {
				if !samplePattern(want).MatchString(got[i]) {
					t.Errorf("line %d: the payer printed\n\t%s\n%s shows\n\t%s", i+1, got[i], c.file, want)
				}
			}
		})
	}
	// The README's agent, paying the demo's /tools/search through a
	// payment channel with upstream's client, as the README runs it: one
	// deposit of the demo's min_deposit (0.05 dUSD), a voucher a call, and
	// what it did not spend back.
	t.Run("the README's agent", func(t *testing.T) {
		readme, err := os.ReadFile(filepath.Join("..", "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^node agent\.mjs (\S+) (\d+) (refund)\b`).FindStringSubmatch(string(readme))
		if m == nil {
			t.Fatal("the README no longer runs `node agent.mjs <url> <calls> refund`; update this test")
		}
		calls, _ := strconv.Atoi(m[2])
		// The default payer, test account #1.
		run := runAgent(t, fmt.Sprintf("http://127.0.0.1:%d", chain), "", strings.ReplaceAll(m[1], "http://localhost:8080", api), m[2], m[3])
		if len(run.Calls) != calls {
			t.Fatalf("the agent answered %d calls, want %d:\n%s", len(run.Calls), calls, run.stderr)
		}
		for i, c := range run.Calls {
			if c.Status != http.StatusOK || c.Receipt == nil || (i == 0) != (c.Receipt.TransactionHash != "") {
				t.Errorf("call %d: %d %+v (only the first deposits)", i+1, c.Status, c.Receipt)
			}
		}
		const deposit = 50_000 // Caddyfile.example's min_deposit 0.05, in dUSD's units
		if first := run.Calls[0].Receipt; first == nil || first.Amount != strconv.Itoa(deposit) {
			t.Errorf("the deposit: %+v, want %d", first, deposit)
		}
		if r := run.Refund; r == nil || !r.Success || r.Amount != strconv.Itoa(deposit-calls*1000) {
			t.Errorf("the refund: %+v, want %d back\n%s", r, deposit-calls*1000, run.stderr)
		}
	})
}

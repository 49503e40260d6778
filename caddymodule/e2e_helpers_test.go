package caddymodule

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

const e2eCaddyfile = `{
	admin 127.0.0.1:{{admin}}
	log {
		output file {{logfile}}
		level DEBUG
	}
	# The recipe of docs/logs-and-metrics.md: one line a payment, in a file of its own.
	log payments {
		output file {{paylog}}
		include http.handlers.x402
	}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		settler_key {env.X402_E2E_SETTLER_KEY}
		paymaster_url http://127.0.0.1:{{paymaster}}
		sponsor_url http://127.0.0.1:{{facilitator}}/sponsor
		# The tests pay many times at once from one address.
		sponsor_limits {
			per_client 1000
			per_client_outstanding 1000
			per_sender 1000
			max_outstanding 1000
		}
	}
}

http://:{{upstream}} {
	bind 127.0.0.1
	respond /paid/report ` + "`" + `{"report":"paid content"}` + "`" + `
	respond /paid/whoami "payer={http.request.header.X-Payer}"
	respond /paid/broken "upstream broke" 500
	respond /free "free content"
}

# A site address with a host, so the metrics' host label names it.
http://127.0.0.1:{{api}} {
	x402_path_guard
	bind 127.0.0.1
	handle /paid/stream {
		x402 {
			pay_to {{merchant}}
			price 0.01
		}
		reverse_proxy {{stream}} {
			flush_interval -1
		}
	}
	handle /remote/* {
		x402 0.01 {
			pay_to {{merchant}}
			facilitator_url http://127.0.0.1:{{facilitator}}
		}
		reverse_proxy 127.0.0.1:{{upstream}} {
			rewrite /paid/report
		}
	}
	handle /aa/* {
		x402 0.01 {
			pay_to {{merchant}}
			schemes aa-native
		}
		reverse_proxy 127.0.0.1:{{upstream}} {
			rewrite /paid/report
		}
	}
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
			description "e2e report"
		}
		reverse_proxy 127.0.0.1:{{upstream}} {
			header_up X-Payer {http.x402.payer}
		}
	}
	handle {
		reverse_proxy 127.0.0.1:{{upstream}}
	}
}

http://:{{facilitator}} {
	bind 127.0.0.1
	handle /api/v1/* {
		x402_txapi
	}
	handle {
		x402_facilitator
	}
}

http://:{{paymaster}} {
	bind 127.0.0.1
	x402_paymaster {
		project demo {
			balance 100
			max_in_flight 500
		}
		gas_token {{token}} {
			price 3000
			markup 2.5%
		}
	}
}
`

// metricSeries is one series of a scraped metric.
type metricSeries struct {
	labels map[string]string
	value  float64
}

// scrape is the admin endpoint's /metrics, by metric name.
type scrape map[string][]metricSeries

var metricLabel = regexp.MustCompile(`(\w+)="((?:[^"\\]|\\.)*)"`)

// metrics scrapes the admin endpoint's /metrics, which must answer 200: a
// collector registered twice would fail the gathering.
func (e *e2e) metrics() scrape {
	e.t.Helper()
	resp, err := http.Get(e.admin + "/metrics")
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		e.t.Fatalf("/metrics: %d %s", resp.StatusCode, body)
	}
	out := scrape{}
	for _, line := range strings.Split(string(body), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, _ := strings.Cut(line, "{")
		labels := map[string]string{}
		if rest != "" {
			var set string
			set, rest, _ = strings.Cut(rest, "}")
			for _, m := range metricLabel.FindAllStringSubmatch(set, -1) {
				labels[m[1]] = m[2]
			}
		} else {
			name, rest, _ = strings.Cut(line, " ")
		}
		v, err := strconv.ParseFloat(strings.Fields(rest)[0], 64)
		if err != nil {
			e.t.Fatalf("metric line %q: %v", line, err)
		}
		out[name] = append(out[name], metricSeries{labels: labels, value: v})
	}
	return out
}

// series are the series of name whose labels include want.
func (s scrape) series(name string, want map[string]string) []metricSeries {
	var out []metricSeries
	for _, series := range s[name] {
		match := true
		for k, v := range want {
			match = match && series.labels[k] == v
		}
		if match {
			out = append(out, series)
		}
	}
	return out
}

// sum adds the values of the series of name whose labels include want.
func (s scrape) sum(name string, want map[string]string) float64 {
	var total float64
	for _, series := range s.series(name, want) {
		total += series.value
	}
	return total
}

func mustKey(t *testing.T, i uint32) *ecdsa.PrivateKey {
	k, err := devnet.DeriveKey(devnet.TestMnemonic, i)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// nodePayer returns examples/node-payer with its npm packages installed.
func nodePayer(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; .ci/run installs it")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "examples", "node-payer"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@x402", "fetch")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--silent")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	return dir
}

func waitReceipt(eth *ethclient.Client, tx string) (*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		r, err := eth.TransactionReceipt(ctx, common.HexToHash(tx))
		if err == nil {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// agentRun is what examples/node-payer/agent.mjs printed: its JSON line
// on stdout, and its lines for people on stderr.
type agentRun struct {
	Calls []struct {
		Status  int                  `json:"status"`
		Receipt *x402.SettleResponse `json:"receipt"`
	} `json:"calls"`
	Refund *x402.SettleResponse `json:"refund"`
	stderr string
}

// runAgent runs `node agent.mjs args...` with the chain at rpc, paying
// with key (0x hex; "" for the script's default, test account #1), within
// 3 minutes (its calls take a second or two), and fails t unless it exits
// 0 and prints one JSON line.
func runAgent(t *testing.T, rpc, key string, args ...string) agentRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"agent.mjs"}, args...)...)
	cmd.Dir = nodePayer(t)
	cmd.Env = []string{"RPC=" + rpc}
	if key != "" {
		cmd.Env = append(cmd.Env, "X402_KEY="+key)
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "X402_KEY=") && !strings.HasPrefix(kv, "RPC=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node agent.mjs %s (within 3 minutes): %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	var run agentRun
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatalf("node agent.mjs %s printed %s: %v\n%s", strings.Join(args, " "), out, err, stderr.String())
	}
	run.stderr = stderr.String()
	return run
}

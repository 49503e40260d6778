package main

// The fleet tests run the built binary as separate OS processes: three
// replicas of one merchant, sharing one devnet and one PostgreSQL schema,
// as a Kubernetes Deployment of three sidecars would. They need PostgreSQL
// (X402_TEST_DATABASE_URL) and skip without it.

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"text/template"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// binDir is where caddyBinary builds the caddy binary; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	code := func() int {
		dir, err := os.MkdirTemp("", "caddy-x402-xcaddy-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		binDir = dir
		return m.Run()
	}()
	os.Exit(code)
}

// buildCaddy builds the caddy binary of this package, once, for the tests
// that run it as a process (the fleet tests and the browser test); a run
// whose tests all skip builds nothing.
var buildCaddy = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "caddy")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building caddy: %w\n%s", err, out)
	}
	return bin, nil
})

// caddyBinary is the path of the caddy binary, built on first use.
func caddyBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildCaddy()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// fleet is a devnet, a PostgreSQL schema and the replicas that share them.
type fleet struct {
	t        *testing.T
	chain    *devnet.Devnet
	eth      *ethclient.Client
	dbURL    string // what the replicas connect to (the proxy, if any)
	schema   string
	merchant common.Address
	replicas []*replica
	// storePath is the bbolt file of a merchant without PostgreSQL; empty
	// for a fleet on PostgreSQL.
	storePath string
	// webhook is the URL of the merchant's webhook, signed with
	// fleetWebhookSecret; empty for none.
	webhook string
	// mcp is the host:port of an MCP server the replicas charge for at
	// /mcp (fleet_mcp_test.go); empty for none.
	mcp string
	// channels offers batch-settlement at /tool, with the receiver
	// authorizer fleetAuthorizer (channels_crash_test.go).
	channels bool
}

// fleetWebhookSecret signs the deliveries of fleet.webhook.
const fleetWebhookSecret = "fleet-webhook-secret-0123456789"

// replica is one caddy process.
type replica struct {
	name string
	url  string // http://127.0.0.1:port
	cmd  *exec.Cmd
	log  *lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startProcess starts cmd with its output in log, and stops it when the
// test ends: SIGTERM, then SIGKILL after 15 s. If the test failed, it logs
// the last lines of log, as what's. The channel closes when cmd exits.
func startProcess(t *testing.T, cmd *exec.Cmd, what string, log *lockedBuffer) <-chan struct{} {
	t.Helper()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("log of %s:\n%s", what, tail(log.String(), 80))
		}
	})
	return done
}

// newFleet starts a devnet sealing a block a second and makes a fresh
// schema; startReplicas starts the processes.
func newFleet(t *testing.T) *fleet {
	t.Helper()
	base := pgtest.URL(t, "the fleet tests")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0", BlockPeriod: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	schema := pgtest.Schema(t, base, "fleet_")
	key, _ := crypto.GenerateKey()
	return &fleet{t: t, chain: d, eth: eth, dbURL: base, schema: schema, merchant: crypto.PubkeyToAddress(key.PublicKey)}
}

var caddyfile = template.Must(template.New("Caddyfile").Parse(`{
	admin 127.0.0.1:{{.Admin}}
	auto_https off
	grace_period 20s
	x402 {
		network {{.Network}}
		rpc {env.X402_RPC_URL}
		settler_key {env.X402_SETTLER_KEY}
{{- if .Store}}
		store_path {{.Store}}
{{- else}}
		store postgres {env.X402_DATABASE_URL}
		database_schema {{.Schema}}
		claim_takeover 15s
{{- end}}
		asset {{.Token}} "{{.TokenName}}" {{.TokenVersion}} 6
		receipt_timeout 20s
{{- if .Channels}}
		batch_settlement {
			receiver_authorizer_key {env.X402_RECEIVER_AUTHORIZER_KEY}
			withdraw_delay 15m
			claim_every 0
		}
{{- end}}
{{- if .Webhook}}
		webhook {{.Webhook}} {
			secret {env.X402_FLEET_WEBHOOK_SECRET}
		}
{{- end}}
	}
}

http://127.0.0.1:{{.Port}} {
	x402_path_guard
	handle /paid {
		x402 {
			pay_to {{.Merchant}}
			amount 1000
		}
		respond "paid content {{.Name}}" 200
	}
	handle /brief {
		x402 {
			pay_to {{.Merchant}}
			amount 1000
			max_timeout 3s
		}
		respond "brief content {{.Name}}" 200
	}
{{- if .Channels}}
	handle /tool {
		x402 {
			pay_to {{.Merchant}}
			amount 100
			schemes batch-settlement
		}
		respond "tool answer {{.Name}}" 200
	}
{{- end}}
{{- if .MCP}}
	handle /mcp {
		x402 {
			pay_to {{.Merchant}}
			mcp {
				tool search 0.001
			}
		}
		reverse_proxy {{.MCP}}
	}
{{- end}}
	handle /x402/* {
		x402_facilitator
	}
}
`))

// freePort returns a port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// start starts one more replica and waits until its /health answers 200.
func (f *fleet) start(name string) *replica {
	f.t.Helper()
	return f.startWith(name, caddyBinary(f.t))
}

// startWith is start with the binary bin and extra environment variables.
func (f *fleet) startWith(name, bin string, env ...string) *replica {
	f.t.Helper()
	dir := f.t.TempDir()
	port, admin := freePort(f.t), freePort(f.t)
	var cfg bytes.Buffer
	err := caddyfile.Execute(&cfg, map[string]any{
		"Admin": admin, "Port": port, "Network": x402.FormatNetwork(f.chain.ChainID.Uint64()), "Schema": f.schema,
		"Token": f.chain.Token.Address.Hex(), "TokenName": f.chain.Token.Name, "TokenVersion": f.chain.Token.Version,
		"Merchant": f.merchant.Hex(), "Name": name, "Store": f.storePath, "Webhook": f.webhook, "MCP": f.mcp, "Channels": f.channels,
	})
	if err != nil {
		f.t.Fatal(err)
	}
	path := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(path, cfg.Bytes(), 0o600); err != nil {
		f.t.Fatal(err)
	}
	r := &replica{name: name, url: fmt.Sprintf("http://127.0.0.1:%d", port), log: new(lockedBuffer), done: make(chan struct{})}
	r.cmd = exec.Command(bin, "run", "--config", path, "--adapter", "caddyfile")
	r.cmd.Env = append(os.Environ(),
		"X402_RPC_URL="+f.chain.URL,
		"X402_SETTLER_KEY="+hex.EncodeToString(crypto.FromECDSA(f.chain.Accounts[0].Key)),
		"X402_DATABASE_URL="+f.dbURL,
		"X402_FLEET_WEBHOOK_SECRET="+fleetWebhookSecret,
		"X402_RECEIVER_AUTHORIZER_KEY="+hex.EncodeToString(crypto.FromECDSA(f.chain.Accounts[3].Key)),
		"XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir, "HOME="+dir,
	)
	r.cmd.Env = append(r.cmd.Env, env...)
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	if err := r.cmd.Start(); err != nil {
		f.t.Fatal(err)
	}
	go func() {
		r.cmd.Wait()
		close(r.done)
	}()
	f.t.Cleanup(func() {
		r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.done:
		case <-time.After(15 * time.Second):
			r.cmd.Process.Kill()
			<-r.done
		}
		if f.t.Failed() {
			f.t.Logf("log of replica %s:\n%s", r.name, tail(r.log.String(), 60))
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(r.url + "/x402/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-r.done:
			f.t.Fatalf("replica %s exited: %s", name, tail(r.log.String(), 40))
		default:
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("replica %s did not become healthy: %s", name, tail(r.log.String(), 40))
		}
		time.Sleep(100 * time.Millisecond) // polling for the replica to start
	}
	f.replicas = append(f.replicas, r)
	return r
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// leaseTakenAfter is how long after t a live replica logged that it took
// the delivery lease, or -1 if none did.
func (f *fleet) leaseTakenAfter(t time.Time) time.Duration {
	for _, r := range f.replicas {
		select {
		case <-r.done:
			continue
		default:
		}
		for _, line := range strings.Split(r.log.String(), "\n") {
			if !strings.Contains(line, "delivering the settler's transactions for the fleet") {
				continue
			}
			var entry struct {
				TS float64 `json:"ts"`
			}
			if json.Unmarshal([]byte(line), &entry) == nil {
				at := time.Unix(0, int64(entry.TS*1e9))
				if at.After(t) {
					return at.Sub(t).Round(time.Millisecond)
				}
			}
		}
	}
	return -1
}

// delivering reports whether r's log says it took the delivery lease
// (and has not lost it since).
func (r *replica) delivering() bool {
	log := r.log.String()
	took := strings.LastIndex(log, "delivering the settler's transactions for the fleet")
	return took >= 0 && strings.LastIndex(log, "lost the settler's delivery lease") < took
}

// payment signs a payment of the merchant's offer with payer's key: the
// value of a PAYMENT-SIGNATURE header.
func (f *fleet) payment(payer *ecdsa.PrivateKey) string {
	f.t.Helper()
	resp, err := http.Get(f.replicas[0].url + "/paid")
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired {
		f.t.Fatalf("unpaid request: %d", resp.StatusCode)
	}
	var challenge x402.PaymentRequired
	if err := x402.DecodeHeader(resp.Header.Get(x402.HeaderPaymentRequired), &challenge); err != nil {
		f.t.Fatal(err)
	}
	payer402 := &client.Transport{Key: payer, MaxAmount: big.NewInt(1000)}
	payload, err := payer402.Pay(&challenge, &challenge.Accepts[0])
	if err != nil {
		f.t.Fatal(err)
	}
	header, err := x402.EncodeHeader(payload)
	if err != nil {
		f.t.Fatal(err)
	}
	return header
}

// outcome is what one paid request got.
type outcome struct {
	status     int
	retryAfter string
	body       string
	err        error
}

// present sends the payment to r once.
func present(r *replica, payment string) outcome {
	req, _ := http.NewRequest(http.MethodGet, r.url+"/paid", nil)
	req.Header.Set(x402.HeaderPaymentSignature, payment)
	c := &http.Client{Timeout: 60 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return outcome{err: err}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return outcome{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(body)}
}

// transfers counts the token's transfers to the merchant on chain.
func (f *fleet) transfers() int {
	f.t.Helper()
	logs, err := f.eth.FilterLogs(context.Background(), ethereum.FilterQuery{
		FromBlock: big.NewInt(0), Addresses: []common.Address{f.chain.Token.Address},
		Topics: [][]common.Hash{{crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))}, nil, {common.BytesToHash(f.merchant[:])}},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return len(logs)
}

// fundPayers makes n payers, each with ETH for nothing and tokens for
// `payments` payments of 1000.
func (f *fleet) fundPayers(n, payments int) []*ecdsa.PrivateKey {
	f.t.Helper()
	ctx := context.Background()
	funder := f.chain.Accounts[3]
	nonce, err := f.eth.PendingNonceAt(ctx, funder.Address)
	if err != nil {
		f.t.Fatal(err)
	}
	signer := types.LatestSignerForChainID(f.chain.ChainID)
	keys := make([]*ecdsa.PrivateKey, n)
	var last common.Hash
	for i := range keys {
		keys[i], _ = crypto.GenerateKey()
		to := crypto.PubkeyToAddress(keys[i].PublicKey)
		data := transferCall(to, big.NewInt(int64(1000*payments)))
		tx := types.MustSignNewTx(funder.Key, signer, &types.DynamicFeeTx{
			ChainID: f.chain.ChainID, Nonce: nonce, To: &f.chain.Token.Address, Gas: 100_000,
			GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Data: data,
		})
		nonce++
		if err := f.eth.SendTransaction(ctx, tx); err != nil {
			f.t.Fatal(err)
		}
		last = tx.Hash()
	}
	if _, err := f.chain.Wait(ctx, last); err != nil {
		f.t.Fatal(err)
	}
	return keys
}

// transferCall is the calldata of ERC-20 transfer(to, amount).
func transferCall(to common.Address, amount *big.Int) []byte {
	data := crypto.Keccak256([]byte("transfer(address,uint256)"))[:4]
	data = append(data, common.LeftPadBytes(to[:], 32)...)
	return append(data, common.LeftPadBytes(amount.Bytes(), 32)...)
}

// The same payment presented to all three replicas at once buys one
// response: one 200, one transfer on chain; the others are refused (402
// replay) or told to retry (503), never served.
func TestFleetSamePaymentToAllReplicas(t *testing.T) {
	t.Parallel()
	f := newFleet(t)
	for _, name := range []string{"a", "b", "c"} {
		f.start(name)
	}
	payers := f.fundPayers(5, 1)
	for round, payer := range payers {
		payment := f.payment(payer)
		var (
			wg   sync.WaitGroup
			outs = make([]outcome, len(f.replicas))
		)
		for i, r := range f.replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i] = present(r, payment)
			}()
		}
		wg.Wait()
		served := 0
		for i, o := range outs {
			switch {
			case o.err != nil:
				t.Fatalf("round %d, replica %d: %v", round, i, o.err)
			case o.status == http.StatusOK:
				served++
			case o.status == http.StatusPaymentRequired, o.status == http.StatusServiceUnavailable:
				if strings.Contains(o.body, "paid content") {
					t.Fatalf("round %d: a refusal carried the paid content: %q", round, o.body)
				}
			default:
				t.Fatalf("round %d, replica %d: status %d %q", round, i, o.status, o.body)
			}
		}
		// A 503 only asks the payer to retry: retrying must not serve it twice.
		for _, r := range f.replicas {
			if o := present(r, payment); o.status == http.StatusOK {
				served++
			}
		}
		if served != 1 {
			t.Fatalf("round %d: one payment was served %d times (%+v)", round, served, outs)
		}
	}
	if n := f.transfers(); n != len(payers) {
		t.Fatalf("%d transfers on chain for %d payments", n, len(payers))
	}
}

// payUntilServed presents one payment to the replicas in turn until one
// serves it, as a payer behind a load balancer retries: after a refused
// connection, a reset (its replica died) or a 503. It returns the number of
// 200s it saw (one, unless a payment was served twice) or an error.
func payUntilServed(replicas []*replica, payment string, deadline time.Time, first int) (served int, err error) {
	var last outcome
	for i := first; time.Now().Before(deadline); i++ {
		r := replicas[i%len(replicas)]
		select {
		case <-r.done:
			continue // the load balancer no longer routes to it
		default:
		}
		last = present(r, payment)
		switch {
		case last.err == nil && last.status == http.StatusOK:
			return 1, nil
		case last.err == nil && last.status == http.StatusPaymentRequired:
			return 0, fmt.Errorf("402 from %s: %s", r.name, last.body)
		case last.err == nil && last.status != http.StatusServiceUnavailable:
			return 0, fmt.Errorf("status %d from %s: %s", last.status, r.name, last.body)
		}
		time.Sleep(200 * time.Millisecond) // the payer's back-off before a retry
	}
	return 0, fmt.Errorf("not served before the deadline; last answer %+v", last)
}

// kill -9 of the replica that delivers the settler's transactions, in the
// middle of a burst of 100 payments spread over three replicas: another
// replica takes the lease over, and every payment is served exactly once,
// with exactly one transfer on chain each. And the same with SIGTERM, a
// graceful shutdown (Kubernetes' rolling update): the replica finishes its
// requests in flight within Caddy's grace period and hands the lease over.
func TestFleetKillDeliveringReplica(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			stopDeliverer(t, sig)
		})
	}
}

// stopDeliverer is TestFleetKillDeliveringReplica with one signal.
func stopDeliverer(t *testing.T, sig syscall.Signal) {
	f := newFleet(t)
	for _, name := range []string{"a", "b", "c"} {
		f.start(name)
	}
	const payments = 100
	payers := f.fundPayers(payments, 1)
	signed := make([]string, payments)
	for i, p := range payers {
		signed[i] = f.payment(p)
	}
	var (
		wg        sync.WaitGroup
		servedN   atomic.Int64
		finished  atomic.Int64
		killed    = make(chan *replica, 1)
		errs      = make(chan error, payments)
		killedAt  atomic.Int64 // unix nanoseconds
		recovered atomic.Int64 // the first payment served after the kill
	)
	began := time.Now()
	deadline := began.Add(3 * time.Minute)
	sem := make(chan struct{}, 20)
	for i, payment := range signed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			n, err := payUntilServed(f.replicas, payment, deadline, i)
			servedN.Add(int64(n))
			if at := killedAt.Load(); n == 1 && at != 0 {
				recovered.CompareAndSwap(0, time.Now().UnixNano())
			}
			if err != nil {
				errs <- fmt.Errorf("payment %d: %w", i, err)
			}
			if finished.Add(1) == payments/3 {
				for _, r := range f.replicas {
					if r.delivering() {
						killedAt.Store(time.Now().UnixNano())
						r.cmd.Process.Signal(sig)
						<-r.done
						killed <- r
						return
					}
				}
				errs <- errors.New("no replica says it delivers")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	select {
	case r := <-killed:
		t.Logf("stopped the delivering replica %s with %v after %d payments; all %d done in %v; the first payment after it was served %v later; another replica took the lease %v after the signal",
			r.name, sig, payments/3, payments, time.Since(began).Round(time.Millisecond), time.Duration(recovered.Load()-killedAt.Load()).Round(time.Millisecond),
			f.leaseTakenAfter(time.Unix(0, killedAt.Load())))
	default:
		t.Fatal("the delivering replica was not killed")
	}
	if n := servedN.Load(); n != payments {
		t.Errorf("%d payments served, want %d", n, payments)
	}
	if n := f.transfers(); n != payments {
		t.Errorf("%d transfers on chain for %d payments", n, payments)
	}
	took := 0
	for _, r := range f.replicas {
		select {
		case <-r.done:
			continue // the killed one
		default:
		}
		if r.delivering() {
			took++
		}
	}
	if took != 1 {
		t.Errorf("%d live replicas say they deliver after the kill, want 1", took)
	}
}

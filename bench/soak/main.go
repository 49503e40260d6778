// Command soak is the load driver of bench/soak.sh, a long run of one Caddy
// with caddy-x402 against a dev chain, to show that it stays healthy over
// time rather than how fast it is.
//
// At a steady rate it mixes free requests, payments in both schemes (exact
// from EOAs, aa-native from ERC-4337 smart accounts), replays of payments
// that already bought a response, two requests racing with one payment, a
// deliberate upstream fault behind a paid route, and malformed requests
// (PAYMENT-SIGNATURE headers and facilitator bodies). It counts statuses by
// kind against what each kind may get, samples the Caddy process's memory,
// goroutines and file descriptors along the way, and at the end reads the
// chain: every payment that bought a response must have been settled
// exactly once, in the transaction its receipt names, and nothing else may
// have been. It prints a Markdown summary and exits 1 if an invariant
// fails.
//
//	soak env       print the devnet's settler and paymaster signer keys
//	               (public test keys) as shell assignments, for soak.sh
//	soak [flags]   run against a Caddy that soak.sh started
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/devnet"
)

// config is what a run is told on its command line.
type config struct {
	Duration    time.Duration
	Concurrency int
	Rate        float64 // operations per second offered, in total
	Samples     int     // process samples under load, evenly spaced

	API         string // the paid API's base URL
	Facilitator string // the facilitator's base URL
	Admin       string // Caddy's admin endpoint
	RPC         string // the chain's JSON-RPC
	PayTo       common.Address
	CaddyPID    int
	DevnetPID   int
	StorePath   string // Caddy's bbolt store, whose mapped pages are told apart
	PaymentsLog string // the x402 handler's settlement log lines
	OutDir      string // where goroutine profiles are saved

	ExactPayers int // EOAs paying exact, shared by the workers
	AAPayers    int // smart accounts paying aa-native, one payment at a time each
	Mix         mix

	Commit string // what soak.sh built, for the summary
	Devnet string // how the chain runs, for the summary
}

// Validate checks the configuration before anything is started.
func (c *config) Validate() error {
	var errs []error
	if c.Duration <= 0 {
		errs = append(errs, errors.New("-duration must be positive"))
	}
	if c.Concurrency < 1 {
		errs = append(errs, errors.New("-concurrency must be at least 1"))
	}
	if c.Rate <= 0 {
		errs = append(errs, errors.New("-rate must be positive"))
	}
	if c.Samples < 3 {
		errs = append(errs, errors.New("-samples must be at least 3 (start, middle, end)"))
	}
	if c.CaddyPID <= 0 {
		errs = append(errs, errors.New("-caddy-pid is required"))
	}
	if c.PayTo == (common.Address{}) {
		errs = append(errs, errors.New("-pay-to is required"))
	}
	if c.ExactPayers < 1 || c.AAPayers < 1 {
		errs = append(errs, errors.New("-exact-payers and -aa-payers must be at least 1"))
	}
	if c.Mix.total() == 0 {
		errs = append(errs, errors.New("-mix has no weight"))
	}
	return errors.Join(errs...)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "env" {
		printEnv()
		return
	}
	var (
		cfg   config
		payTo string
		mixS  string
	)
	flag.DurationVar(&cfg.Duration, "duration", 20*time.Minute, "how long to run the load")
	flag.IntVar(&cfg.Concurrency, "concurrency", 32, "workers sending requests")
	flag.Float64Var(&cfg.Rate, "rate", 40, "operations per second offered in total (a paid operation is two requests)")
	flag.IntVar(&cfg.Samples, "samples", 11, "process samples under load, evenly spaced (the first is start, the middle one middle, the last end)")
	flag.StringVar(&cfg.API, "api", "http://127.0.0.1:9301", "the paid API")
	flag.StringVar(&cfg.Facilitator, "facilitator", "http://127.0.0.1:9302", "the facilitator")
	flag.StringVar(&cfg.Admin, "admin", "http://127.0.0.1:9309", "Caddy's admin endpoint")
	flag.StringVar(&cfg.RPC, "rpc", "http://127.0.0.1:9345", "the chain's JSON-RPC")
	flag.StringVar(&payTo, "pay-to", "", "the merchant address of the paid routes (fresh for the run)")
	flag.IntVar(&cfg.CaddyPID, "caddy-pid", 0, "the Caddy process to sample")
	flag.IntVar(&cfg.DevnetPID, "devnet-pid", 0, "the devnet process to sample, if it runs apart")
	flag.StringVar(&cfg.StorePath, "store", "", "Caddy's store file (store_path), whose pages mapped in memory are reported apart")
	flag.StringVar(&cfg.PaymentsLog, "payments-log", "", "the log of the logger http.handlers.x402, whose settlement lines are counted")
	flag.StringVar(&cfg.OutDir, "out", "", "a directory for Caddy's goroutine profiles at the idle, middle and end samples")
	flag.IntVar(&cfg.ExactPayers, "exact-payers", 16, "EOAs paying exact")
	flag.IntVar(&cfg.AAPayers, "aa-payers", 48, "smart accounts paying aa-native")
	flag.StringVar(&mixS, "mix", defaultMix, "weights of the operations")
	flag.StringVar(&cfg.Commit, "commit", "", "the commit under test, for the summary")
	flag.StringVar(&cfg.Devnet, "devnet", "out of process (caddy x402 devnet)", "how the dev chain runs, for the summary")
	flag.Parse()
	if common.IsHexAddress(payTo) {
		cfg.PayTo = common.HexToAddress(payTo)
	}
	var err error
	if cfg.Mix, err = parseMix(mixS); err != nil {
		fail(err)
	}
	if err := cfg.Validate(); err != nil {
		fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ok, err := run(ctx, &cfg)
	if err != nil {
		fail(err)
	}
	if !ok {
		os.Exit(1)
	}
}

// run sets the payers up, runs the load, checks the chain and prints the
// summary. It reports whether every invariant held.
func run(ctx context.Context, cfg *config) (bool, error) {
	d, err := newDriver(ctx, cfg)
	if err != nil {
		return false, err
	}
	defer d.close()
	logf("setting up %d exact payers and %d aa-native smart accounts", cfg.ExactPayers, cfg.AAPayers)
	if err := d.setup(ctx); err != nil {
		return false, fmt.Errorf("setting up: %w", err)
	}
	logf("load: %s, %d workers, %.0f operations/s offered; from block %d", cfg.Duration, cfg.Concurrency, cfg.Rate, d.startBlock)
	d.load(ctx)
	logf("load done; draining and reading the chain")
	d.drain()
	chk, err := d.checkChain(context.Background())
	if err != nil {
		return false, fmt.Errorf("reading the chain: %w", err)
	}
	return d.report(os.Stdout, chk), nil
}

// printEnv prints the devnet's settler (test account #0) and paymaster
// signer keys, which the devnet derives from its public test mnemonic, so
// that soak.sh can hand them to Caddy without writing them down.
func printEnv() {
	settler, err := devnet.DeriveKey(devnet.TestMnemonic, 0)
	if err != nil {
		fail(err)
	}
	signer, err := devnet.DeriveKey(devnet.TestMnemonic, devnet.PaymasterSignerIndex)
	if err != nil {
		fail(err)
	}
	fmt.Printf("SOAK_SETTLER_KEY=%x\nSOAK_PM_SIGNER_KEY=%x\n", crypto.FromECDSA(settler), crypto.FromECDSA(signer))
}

// mix is the weight of each operation.
type mix map[op]int

const defaultMix = "free=25,exact=22,aa=15,replay=10,bad-header=10,bad-facilitator=10,race=4,fault=4"

func parseMix(s string) (mix, error) {
	m := mix{}
	for part := range strings.SplitSeq(s, ",") {
		name, w, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(w)
		if !ok || err != nil || n < 0 {
			return nil, fmt.Errorf("-mix: %q is not name=weight", part)
		}
		o := op(name)
		if !o.valid() {
			return nil, fmt.Errorf("-mix: unknown operation %q (want %s)", name, strings.Join(opNames(), ", "))
		}
		m[o] = n
	}
	return m, nil
}

func (m mix) total() int {
	t := 0
	for _, w := range m {
		t += w
	}
	return t
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05")+" soak: "+format+"\n", args...)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "soak:", err)
	os.Exit(2)
}

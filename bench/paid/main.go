// Command paid is the driver of bench/paid.sh: it times paid requests
// through a Caddy with caddy-x402 that runs the embedded devnet, against
// free requests to the same upstream in the same run.
//
// It reads the paid route's 402 challenge once, then sends exact-scheme
// paid requests one at a time, each with a payment of its own signed by one
// of the devnet's funded test accounts (#1 to #payers of the public test
// mnemonic) before its timer starts, and a free request beside each one.
// Only the request that carries PAYMENT-SIGNATURE is timed: the 402 is not
// part of it. A second figure sends small batches of paid requests at once.
//
// The devnet seals a block on demand, but each block is at least a second
// after its parent, and once the chain's clock leads the wall clock by
// devnet.MaxClockLead it seals one block a second. Paid requests faster
// than one a second would soon measure that pacing instead of the server,
// so the driver waits before each request (or batch) while the chain's
// head is more than -max-lead ahead of the wall clock, and sends one
// request (or batch) an -interval on average. Each interval is spread by
// -jitter, so that requests do not keep one phase against the server's
// periodic work (the facilitator's finality check runs every second).
//
// Every paid answer must be 200 with a PAYMENT-RESPONSE that names a
// transaction; after the timed part the driver reads each transaction's
// receipt (status 1) and the token balances of the payers and the merchant,
// which must have moved by exactly the price of each paid answer. With
// -access-log and -payments-log (Caddy's access log of the paid site and
// the log of http.handlers.x402) it also splits each paid request's time
// into settlement, the rest of the server's time, and the time outside
// the server; with -spans (Caddy's output, when the paid route has
// `tracing` and OTEL_TRACES_EXPORTER=console) into the paywall's and the
// facilitator's steps. It prints a Markdown summary; the exit status is 1 if a paid
// request failed or a check did not hold.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/caddy-x402/caddy-x402/devnet"
)

// config is what a run is told on its command line.
type config struct {
	API         string        // the paid API's base URL
	PaidPath    string        // the paid route
	FreePath    string        // the free route to the same upstream
	RPC         string        // the devnet's JSON-RPC
	N           int           // timed paid requests, one at a time
	Warmup      int           // untimed paid requests first
	Interval    time.Duration // between sequential requests (or batches), on average
	Jitter      float64       // the spread of Interval, a fraction of it
	MaxLead     time.Duration // of the chain's clock over the wall clock
	Concurrency int           // paid requests a batch in the second figure; 0 skips it
	Batches     int           // batches in the second figure
	Payers      int           // devnet accounts #1 to #Payers pay
	AccessLog   string        // Caddy's access log of the paid site, for the breakdown
	PaymentsLog string        // the log of http.handlers.x402, for the breakdown
	Spans       string        // Caddy's output with the spans of its tracing, for the steps
	Commit      string        // what paid.sh built, for the summary
}

// Validate checks the configuration before anything is sent.
func (c *config) Validate() error {
	var errs []error
	if c.N < 1 {
		errs = append(errs, errors.New("-n must be at least 1"))
	}
	if c.Warmup < 0 || c.Concurrency < 0 || c.Batches < 0 {
		errs = append(errs, errors.New("-warmup, -concurrency and -batches must not be negative"))
	}
	if c.Interval < 0 {
		errs = append(errs, errors.New("-interval must not be negative"))
	}
	if c.Jitter < 0 || c.Jitter >= 1 {
		errs = append(errs, errors.New("-jitter must be at least 0 and below 1"))
	}
	if c.MaxLead <= 0 || c.MaxLead >= devnet.MaxClockLead {
		errs = append(errs, fmt.Errorf("-max-lead must be above 0 and below devnet.MaxClockLead (%v)", devnet.MaxClockLead))
	}
	if c.Payers < 1 || c.Payers >= devnet.DefaultAccounts {
		errs = append(errs, fmt.Errorf("-payers must be 1 to %d (#0 is the settler)", devnet.DefaultAccounts-1))
	}
	if (c.AccessLog == "") != (c.PaymentsLog == "") {
		errs = append(errs, errors.New("-access-log and -payments-log go together"))
	}
	return errors.Join(errs...)
}

func main() {
	var cfg config
	flag.StringVar(&cfg.API, "api", "http://127.0.0.1:9401", "the paid API's base URL")
	flag.StringVar(&cfg.PaidPath, "paid", "/paid/report", "the paid route")
	flag.StringVar(&cfg.FreePath, "free", "/free", "the free route, to the same upstream")
	flag.StringVar(&cfg.RPC, "rpc", "http://127.0.0.1:9445", "the devnet's JSON-RPC (devnet_addr)")
	flag.IntVar(&cfg.N, "n", 150, "timed paid requests, one at a time")
	flag.IntVar(&cfg.Warmup, "warmup", 10, "untimed paid and free requests first")
	flag.DurationVar(&cfg.Interval, "interval", time.Second, "from one sequential request (or batch) to the next")
	flag.Float64Var(&cfg.Jitter, "jitter", 0.25, "spread each interval uniformly by this fraction of it, either way")
	flag.DurationVar(&cfg.MaxLead, "max-lead", 10*time.Second, "wait while the chain's head is this far ahead of the wall clock")
	flag.IntVar(&cfg.Concurrency, "concurrency", 8, "paid requests sent at once in the second figure (0: none)")
	flag.IntVar(&cfg.Batches, "batches", 20, "batches in the second figure")
	flag.IntVar(&cfg.Payers, "payers", 8, "devnet test accounts #1 to #payers pay")
	flag.StringVar(&cfg.AccessLog, "access-log", "", "Caddy's access log of the paid site (for the breakdown)")
	flag.StringVar(&cfg.PaymentsLog, "payments-log", "", "the log of http.handlers.x402 (for the breakdown)")
	flag.StringVar(&cfg.Spans, "spans", "", "Caddy's output with its spans (tracing with OTEL_TRACES_EXPORTER=console), for the steps")
	flag.StringVar(&cfg.Commit, "commit", "", "the commit under test, for the summary")
	flag.Parse()
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

// run sets the payers up, sends the requests, checks the chain and prints
// the summary. It reports whether every paid request succeeded and every
// check held.
func run(ctx context.Context, cfg *config) (bool, error) {
	d, err := newDriver(ctx, cfg)
	if err != nil {
		return false, err
	}
	defer d.close()
	logf("offer: %s %s of %s to %s on %s", d.offer.Scheme, d.offer.Amount, d.offer.Asset, d.offer.PayTo, d.offer.Network)
	before, err := d.balances(ctx)
	if err != nil {
		return false, err
	}
	logf("warm-up: %d paid and free requests", cfg.Warmup)
	if err := d.sequential(ctx, phaseWarmup, cfg.Warmup); err != nil {
		return false, err
	}
	logf("sequential: %d paid and free requests, one every %v", cfg.N, cfg.Interval)
	if err := d.sequential(ctx, phaseSequential, cfg.N); err != nil {
		return false, err
	}
	if cfg.Concurrency > 0 && cfg.Batches > 0 {
		logf("concurrent: %d batches of %d paid requests, then as many free", cfg.Batches, cfg.Concurrency)
		if err := d.concurrent(ctx, cfg.Batches, cfg.Concurrency); err != nil {
			return false, err
		}
	}
	logf("reading receipts and balances")
	chk, err := d.check(ctx, before)
	if err != nil {
		return false, fmt.Errorf("reading the chain: %w", err)
	}
	var br *breakdown
	if cfg.AccessLog != "" {
		if br, err = d.breakdown(cfg.AccessLog, cfg.PaymentsLog); err != nil {
			logf("no breakdown: %v", err)
		}
	}
	var st *steps
	if cfg.Spans != "" {
		if st, err = d.spanSteps(cfg.Spans); err != nil {
			logf("no steps: %v", err)
		}
	}
	return d.report(os.Stdout, chk, br, st), nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05")+" paid: "+format+"\n", args...)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "paid:", err)
	os.Exit(2)
}

// Command broadcast is the driver of bench/broadcast.sh: it times paid
// requests through a Caddy whose chain seals a block every period, on a
// route that serves on broadcast (serve_on_broadcast) and on one that
// waits for inclusion (the default), alternately, in the same run.
//
// Each paid request carries an exact payment of its own, signed by one of
// the devnet's test accounts (#1 to #payers) before its timer starts; the
// timer covers the request with PAYMENT-SIGNATURE only (verify, upstream,
// settle or broadcast, 200 with PAYMENT-RESPONSE). Before each request it
// pauses a random time up to the block period, so that requests meet the
// chain's blocks at every phase: the default route's latency is the rest
// of the block it arrives in, and its mean is half a period.
//
// Every answer must be 200 with a successful PAYMENT-RESPONSE naming a
// transaction; once the timed part is done, the driver waits for each
// transaction's receipt, which must succeed (the route serving on
// broadcast answers before it exists). It prints one Markdown table row a
// route (p50, p90, p99 and max); the exit status is 1 if a request or a
// check failed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// route is one paid route of the run and what it saw.
type route struct {
	name, path string
	challenge  *x402.PaymentRequired
	took       []time.Duration
	txs        []common.Hash
	failed     int
}

func main() {
	api := flag.String("api", "http://127.0.0.1:9501", "the paid API's base URL")
	rpcURL := flag.String("rpc", "http://127.0.0.1:9545", "the chain's JSON-RPC")
	period := flag.Duration("period", time.Second, "the chain's block period: each request is preceded by a random pause up to it")
	n := flag.Int("n", 60, "timed paid requests a route")
	warmup := flag.Int("warmup", 3, "untimed paid requests a route first")
	payers := flag.Int("payers", 8, "devnet test accounts #1 to #payers pay")
	label := flag.String("label", "", "the run's label in the table, such as the block period")
	flag.Parse()
	if *n < 1 || *warmup < 0 || *period <= 0 || *payers < 1 || *payers >= devnet.DefaultAccounts {
		fail(errors.New("want -n ≥ 1, -warmup ≥ 0, -period > 0 and -payers from 1 to 9"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	eth, err := ethclient.DialContext(ctx, *rpcURL)
	if err != nil {
		fail(err)
	}
	defer eth.Close()
	var keys []*client.Transport
	for i := 1; i <= *payers; i++ {
		key, err := devnet.DeriveKey(devnet.TestMnemonic, uint32(i))
		if err != nil {
			fail(err)
		}
		keys = append(keys, &client.Transport{Key: key, MaxAmount: big.NewInt(1 << 40), Schemes: []string{x402.SchemeExact}})
	}
	hc := &http.Client{Timeout: time.Minute}
	routes := []*route{{name: "serve_on_broadcast", path: "/fast/report"}, {name: "after inclusion (default)", path: "/slow/report"}}
	for _, r := range routes {
		if r.challenge, err = challenge(ctx, hc, *api+r.path); err != nil {
			fail(err)
		}
	}
	turn := 0
	for i := range *warmup + *n {
		for _, j := range rand.Perm(len(routes)) {
			r := routes[j]
			p, err := keys[turn%len(keys)].Pay(r.challenge, &r.challenge.Accepts[0])
			turn++
			if err != nil {
				fail(err)
			}
			header, _ := x402.EncodeHeader(p)
			select {
			case <-ctx.Done():
				fail(ctx.Err())
			case <-time.After(rand.N(*period)):
			}
			took, tx, err := paid(ctx, hc, *api+r.path, header)
			if i < *warmup {
				continue
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "broadcast: %s: %v\n", r.path, err)
				r.failed++
				continue
			}
			r.took, r.txs = append(r.took, took), append(r.txs, tx)
		}
	}
	ok := true
	for _, r := range routes {
		for _, tx := range r.txs {
			if err := mined(ctx, eth, tx); err != nil {
				fmt.Fprintf(os.Stderr, "broadcast: %s: transaction %s: %v\n", r.path, tx, err)
				r.failed++
			}
		}
		slices.Sort(r.took)
		fmt.Printf("| %s | %s | %d | %s | %s | %s | %s | %d |\n", *label, r.name, len(r.took),
			ms(quantile(r.took, 0.5)), ms(quantile(r.took, 0.9)), ms(quantile(r.took, 0.99)), ms(quantile(r.took, 1)), r.failed)
		ok = ok && r.failed == 0
	}
	if !ok {
		os.Exit(1)
	}
}

// challenge reads url's 402.
func challenge(ctx context.Context, hc *http.Client, url string) (*x402.PaymentRequired, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
}

// paid times one paid request and checks its answer.
func paid(ctx context.Context, hc *http.Client, url, payment string) (time.Duration, common.Hash, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set(x402.HeaderPaymentSignature, payment)
	began := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		return 0, common.Hash{}, err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(began)
	res, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
	if resp.StatusCode != http.StatusOK || err != nil || !res.Success || res.TransactionHash == "" {
		return 0, common.Hash{}, fmt.Errorf("answered %d %.200s (PAYMENT-RESPONSE %+v, %v)", resp.StatusCode, body, res, err)
	}
	return took, common.HexToHash(res.TransactionHash), nil
}

// mined waits for tx's receipt, which must succeed.
func mined(ctx context.Context, eth *ethclient.Client, tx common.Hash) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		r, err := eth.TransactionReceipt(ctx, tx)
		if err == nil {
			if r.Status != 1 {
				return errors.New("reverted")
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// quantile is the q-quantile of sorted (nearest rank), 0 when empty.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "broadcast:", err)
	os.Exit(2)
}

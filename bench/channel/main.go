// Command channel is the driver of bench/channel.sh: it times
// voucher-paid requests (the batch-settlement scheme) through a Caddy with
// caddy-x402 against free requests to the same upstream, in the same run.
//
// It reads the paid route's 402 once, deposits into a channel with devnet
// test account #1 (one transaction, not timed), then sends -n vouchers one
// at a time, each signed before its timer starts, and a free request beside
// each. Every paid answer must be 200 with a PAYMENT-RESPONSE whose charged
// total is the driver's own. It prints a Markdown summary.
//
// With -upstream-delay, the upstream is this driver's own HTTP server on
// 127.0.0.1:9502, which answers after that delay (an API that does some
// work), reached through the Caddyfile's /slow/ routes: a paid request's
// store write then runs beside the upstream's work, as it would in front
// of a real API.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"slices"
	"time"

	"github.com/caddy-x402/caddy-x402/channels/channelstest"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/x402"
)

func main() {
	api := flag.String("api", "http://127.0.0.1:9501", "the paid API")
	paidPath := flag.String("paid", "/tools/search", "the voucher-paid route")
	freePath := flag.String("free", "/free", "the free route to the same upstream")
	n := flag.Int("n", 500, "timed requests of each kind")
	warmup := flag.Int("warmup", 50, "untimed requests of each kind first")
	delay := flag.Duration("upstream-delay", 0, "serve the upstream from this driver on 127.0.0.1:9502, answering after this delay, through the /slow/ routes")
	flag.Parse()
	if *delay > 0 {
		if err := slowUpstream(*delay); err != nil {
			log.Fatal(err)
		}
		*paidPath, *freePath = "/slow"+*paidPath, "/slow"+*freePath
	}
	if err := run(*api, *paidPath, *freePath, *n, *warmup); err != nil {
		log.Fatal(err)
	}
}

func run(api, paidPath, freePath string, n, warmup int) error {
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	resp, err := c.Get(api + paidPath)
	if err != nil {
		return err
	}
	resp.Body.Close()
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil || len(pr.Accepts) == 0 {
		return fmt.Errorf("the paid route's 402: %v", err)
	}
	offer := pr.Accepts[0]
	price, err := x402.ParseAmount(offer.Amount)
	if err != nil {
		return err
	}
	key, err := wellknown.DeriveKey(wellknown.TestMnemonic, 1)
	if err != nil {
		return err
	}
	g := wellknown.GenesisContracts()
	chainID, err := x402.ParseNetwork(offer.Network)
	if err != nil {
		return err
	}
	id := new(big.Int).SetUint64(chainID)
	payer := channelstest.New(key, offer, batchsettle.NewDomain(id, g.BatchSettlement), g.ERC3009DepositCollector,
		contracts.TokenDomain{Name: offer.Extra.Name, Version: offer.Extra.Version, ChainID: id, Token: g.Token})
	// A fresh salt: a run never meets an earlier run's channel.
	payer.Config.Salt = [32]byte(big.NewInt(time.Now().UnixNano()).FillBytes(make([]byte, 32)))
	total := int64(n+warmup+1) * price.Int64()
	charged := int64(0)
	do := func(path, header string) (time.Duration, *http.Response, error) {
		req, _ := http.NewRequest(http.MethodGet, api+path, nil)
		if header != "" {
			req.Header.Set(x402.HeaderPaymentSignature, header)
		}
		began := time.Now()
		resp, err := c.Do(req)
		if err != nil {
			return 0, nil, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return time.Since(began), resp, nil
	}
	pay := func(typ string, deposit int64) (time.Duration, error) {
		h, err := payer.Header(typ, charged+price.Int64(), deposit, 0)
		if err != nil {
			return 0, err
		}
		took, resp, err := do(paidPath, h)
		if err != nil {
			return 0, err
		}
		var res x402.SettleResponse
		if resp.StatusCode != http.StatusOK || x402.DecodeHeader(resp.Header.Get(x402.HeaderPaymentResponse), &res) != nil ||
			res.Extra == nil || res.Extra.ChannelState == nil || res.Extra.ChannelState.ChargedCumulativeAmount != fmt.Sprint(charged+price.Int64()) {
			return 0, fmt.Errorf("a %s: %d, %+v", typ, resp.StatusCode, res)
		}
		charged += price.Int64()
		return took, nil
	}
	if _, err := pay("deposit", total); err != nil {
		return err
	}
	var paid, free []time.Duration
	for i := range n + warmup {
		p, err := pay("voucher", 0)
		if err != nil {
			return err
		}
		f, resp, err := do(freePath, "")
		if err != nil || resp.StatusCode != http.StatusOK {
			return fmt.Errorf("the free route: %v", err)
		}
		if i >= warmup {
			paid, free = append(paid, p), append(free, f)
		}
	}
	q := func(d []time.Duration, p float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(p*float64(len(s)-1))].Microseconds()) / 1000
	}
	w := os.Stdout
	fmt.Fprintf(w, "| one at a time | n | p50 ms | p90 ms | p99 ms |\n|---|---|---|---|---|\n")
	fmt.Fprintf(w, "| voucher-paid | %d | %.3f | %.3f | %.3f |\n", len(paid), q(paid, .5), q(paid, .9), q(paid, .99))
	fmt.Fprintf(w, "| free | %d | %.3f | %.3f | %.3f |\n", len(free), q(free, .5), q(free, .9), q(free, .99))
	fmt.Fprintf(w, "\nVoucher-paid p50 against free p50: **%.2f×**; %d vouchers, one deposit, charged %d in all.\n", q(paid, .5)/q(free, .5), len(paid)+warmup, charged)
	return nil
}

// slowUpstream serves the upstream on 127.0.0.1:9502: every answer after
// delay.
func slowUpstream(delay time.Duration) error {
	ln, err := net.Listen("tcp", "127.0.0.1:9502")
	if err != nil {
		return err
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"tool":"answer","results":["a","b"]}`)
	}))
	return nil
}

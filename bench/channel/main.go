// Command channel is the driver of bench/channel.sh: it times
// voucher-paid requests (the batch-settlement scheme) through a Caddy with
// caddy-x402 against free requests to the same upstream, in the same run.
//
// It reads the paid route's 402 once, deposits into a channel with devnet
// test account #1 (one transaction, not timed), then sends -n vouchers one
// at a time, each signed before its timer starts, and a free request beside
// each. With -c, that many channels (of the same account, each its own
// deposit and connection) do so at once, and it reports the throughput. Every paid answer must be 200 with a PAYMENT-RESPONSE whose charged
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
	n := flag.Int("n", 500, "timed requests of each kind (of each channel, with -c)")
	warmup := flag.Int("warmup", 50, "untimed requests of each kind first")
	conc := flag.Int("c", 1, "channels paying at once, each on its own connection (one deposit each)")
	delay := flag.Duration("upstream-delay", 0, "serve the upstream from this driver on 127.0.0.1:9502, answering after this delay, through the /slow/ routes")
	flag.Parse()
	if *delay > 0 {
		if err := slowUpstream(*delay); err != nil {
			log.Fatal(err)
		}
		*paidPath, *freePath = "/slow"+*paidPath, "/slow"+*freePath
	}
	if err := run(*api, *paidPath, *freePath, *n, *warmup, max(1, *conc)); err != nil {
		log.Fatal(err)
	}
}

// channel is one channel's run: its payer, client and timings.
type channel struct {
	api, paidPath, freePath string
	c                       *http.Client
	payer                   *channelstest.Payer
	price, charged          int64
	paid, free              []time.Duration
}

func run(api, paidPath, freePath string, n, warmup, conc int) error {
	resp, err := http.Get(api + paidPath)
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
	total := int64(n+warmup+1) * price.Int64()
	chans := make([]*channel, conc)
	for i := range chans {
		payer := channelstest.New(key, offer, batchsettle.NewDomain(id, g.BatchSettlement), g.ERC3009DepositCollector,
			contracts.TokenDomain{Name: offer.Extra.Name, Version: offer.Extra.Version, ChainID: id, Token: g.Token})
		// A fresh salt: a run never meets an earlier run's channel.
		payer.Config.Salt = [32]byte(big.NewInt(time.Now().UnixNano() + int64(i)).FillBytes(make([]byte, 32)))
		chans[i] = &channel{api: api, paidPath: paidPath, freePath: freePath, payer: payer, price: price.Int64(),
			c: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}}
		// The deposits one at a time: each is a transaction of the one
		// payer account.
		if _, err := chans[i].pay("deposit", total); err != nil {
			return err
		}
	}
	errs := make(chan error, conc)
	began := time.Now()
	for _, ch := range chans {
		go func() { errs <- ch.loop(n, warmup) }()
	}
	for range chans {
		if err := <-errs; err != nil {
			return err
		}
	}
	took := time.Since(began)
	var paid, free []time.Duration
	charged := int64(0)
	for _, ch := range chans {
		paid, free = append(paid, ch.paid...), append(free, ch.free...)
		charged += ch.charged
	}
	q := func(d []time.Duration, p float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(p*float64(len(s)-1))].Microseconds()) / 1000
	}
	w := os.Stdout
	fmt.Fprintf(w, "| %d channel(s) at once | n | p50 ms | p90 ms | p99 ms |\n|---|---|---|---|---|\n", conc)
	fmt.Fprintf(w, "| voucher-paid | %d | %.3f | %.3f | %.3f |\n", len(paid), q(paid, .5), q(paid, .9), q(paid, .99))
	fmt.Fprintf(w, "| free | %d | %.3f | %.3f | %.3f |\n", len(free), q(free, .5), q(free, .9), q(free, .99))
	if conc > 1 {
		fmt.Fprintf(w, "\n%d vouchers and %d free requests in %.2f s (warm-up included): %.0f vouchers/s.\n",
			conc*(n+warmup), conc*(n+warmup), took.Seconds(), float64(conc*(n+warmup))/took.Seconds())
	}
	fmt.Fprintf(w, "\nVoucher-paid p50 against free p50: **%.2f×**; %d vouchers, %d deposit(s), charged %d in all.\n", q(paid, .5)/q(free, .5), len(paid)+conc*warmup, conc, charged)
	return nil
}

// do sends one request to path, with a payment header if set, and times
// it.
func (ch *channel) do(path, header string) (time.Duration, *http.Response, error) {
	req, _ := http.NewRequest(http.MethodGet, ch.api+path, nil)
	if header != "" {
		req.Header.Set(x402.HeaderPaymentSignature, header)
	}
	began := time.Now()
	resp, err := ch.c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return time.Since(began), resp, nil
}

// pay pays one request of the channel: a deposit (of deposit) or a
// voucher, signed before its timer starts; the answer must charge the
// driver's own total.
func (ch *channel) pay(typ string, deposit int64) (time.Duration, error) {
	h, err := ch.payer.Header(typ, ch.charged+ch.price, deposit, 0)
	if err != nil {
		return 0, err
	}
	took, resp, err := ch.do(ch.paidPath, h)
	if err != nil {
		return 0, err
	}
	var res x402.SettleResponse
	if resp.StatusCode != http.StatusOK || x402.DecodeHeader(resp.Header.Get(x402.HeaderPaymentResponse), &res) != nil ||
		res.Extra == nil || res.Extra.ChannelState == nil || res.Extra.ChannelState.ChargedCumulativeAmount != fmt.Sprint(ch.charged+ch.price) {
		return 0, fmt.Errorf("a %s: %d, %+v", typ, resp.StatusCode, res)
	}
	ch.charged += ch.price
	return took, nil
}

// loop sends the channel's vouchers, a free request beside each.
func (ch *channel) loop(n, warmup int) error {
	for i := range n + warmup {
		p, err := ch.pay("voucher", 0)
		if err != nil {
			return err
		}
		f, resp, err := ch.do(ch.freePath, "")
		if err != nil || resp.StatusCode != http.StatusOK {
			return fmt.Errorf("the free route: %v", err)
		}
		if i >= warmup {
			ch.paid, ch.free = append(ch.paid, p), append(ch.free, f)
		}
	}
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

package facilitator

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/x402"
)

// BenchmarkVoucherAgainstExact compares the verification of a
// batch-settlement voucher with that of an exact payment of the same
// price, through the same facilitator on the embedded devnet, in process
// as Caddy's paywall verifies: the voucher's signature against the
// channel the store holds (deposited once, untimed), and the exact
// payment's signature against the payer's balance and nonce on chain,
// read through the shared state call. Each iteration verifies one of each,
// in turns, every payment distinct and signed before the timer starts, so
// that each recovers its signature. It reports the median of each (µs)
// and their ratio (voucher/exact); ns/op is the pair's.
func BenchmarkVoucherAgainstExact(b *testing.B) {
	const price, deposit = 100, 40_000_000
	e, c := newChannelEnv(b, deposit)
	d := e.chain
	voucher := c.request
	var deposited x402.SettleResponse
	if resp := e.post("settle", voucher(c.payload("deposit", price, deposit)), &deposited); resp.StatusCode != http.StatusOK || !deposited.Success {
		b.Fatalf("settling the deposit: %d %+v", resp.StatusCode, deposited)
	}
	if b.N >= deposit/price {
		b.Fatalf("%d iterations: the deposit covers %d distinct vouchers", b.N, deposit/price-1)
	}
	vouchers, exacts := make([]*x402.VerifyRequest, b.N), make([]*x402.VerifyRequest, b.N)
	for i := range b.N {
		vouchers[i] = voucher(c.payload("voucher", int64(price*(i+1)), 0))
		exacts[i] = e.pay(d.Accounts[1+i%8], c.cfg.Receiver, price)
	}
	took := map[string][]time.Duration{}
	verify := func(kind string, req *x402.VerifyRequest) {
		start := time.Now()
		res, err := e.svc.Verify(context.Background(), req)
		took[kind] = append(took[kind], time.Since(start))
		if err != nil || !res.IsValid {
			b.Fatalf("%s: %+v, %v", kind, res, err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			verify("voucher", vouchers[i])
			verify("exact", exacts[i])
		} else {
			verify("exact", exacts[i])
			verify("voucher", vouchers[i])
		}
	}
	b.StopTimer()
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2]) / float64(time.Microsecond)
	}
	v, x := median(took["voucher"]), median(took["exact"])
	b.ReportMetric(v, "voucher-µs")
	b.ReportMetric(x, "exact-µs")
	b.ReportMetric(v/x, "voucher/exact")
}

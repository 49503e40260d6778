package facilitator

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
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
	e := newEnvB(b, envOptions{})
	e.stop()
	e.cfg.BatchSettlement = &BatchSettlement{}
	e.start()
	d := e.chain
	key, err := crypto.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	payer := crypto.PubkeyToAddress(key.PublicKey)
	receiver, authorizer := d.Accounts[2].Address, d.Accounts[3].Address
	const price, deposit = 100, 40_000_000
	e.fundTokens(payer, deposit)
	c := &channelPayer{e: e, key: key, dom: batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement), cfg: batchsettle.ChannelConfig{
		Payer: payer, PayerAuthorizer: payer, Receiver: receiver, ReceiverAuthorizer: authorizer,
		Token: d.Token.Address, WithdrawDelay: big.NewInt(900),
	}}
	offer := x402.PaymentRequirements{
		Scheme: x402.SchemeBatchSettlement, Network: e.network, Amount: "100", Asset: d.Token.Address.Hex(), PayTo: receiver.Hex(),
		MaxTimeoutSeconds: 60, Extra: &x402.Extra{ReceiverAuthorizer: authorizer.Hex(), WithdrawDelay: 900, Name: d.Token.Name, Version: d.Token.Version},
	}
	voucher := func(payload json.RawMessage) *x402.VerifyRequest {
		return &x402.VerifyRequest{PaymentPayload: x402.PaymentPayload{X402Version: x402.Version, Accepted: offer, Payload: payload}, PaymentRequirements: offer}
	}
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
		exacts[i] = e.pay(d.Accounts[1+i%8], receiver, price)
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

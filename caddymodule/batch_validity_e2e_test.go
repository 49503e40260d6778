package caddymodule

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// batchWaitCaddyfile batches the network's exact payments with a max_wait
// of 6 s, and serves /fast/ on broadcast.
const batchWaitCaddyfile = `{
	x402 {
		network eip155:{{id}}
		rpc {{rpc}}
		settler_key {env.X402_BATCHWAIT_SETTLER_KEY}
		asset {{token}} "{{name}}" "{{version}}" 6
		store_path {{store}}
		batch {{batch}} {
			max_wait 6s
		}
		serve_on_broadcast {
			max_in_flight 0.10
			penalty 1h
		}
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	metrics /metrics
	handle /fast/* {
		x402 0.01 {
			pay_to {{merchant}}
			serve_on_broadcast {
				max_per_payer 1
				max_in_flight 0.10
			}
		}
		respond "fast content"
	}
}
`

// payValid signs key's payment of path's offer, valid for the next
// seconds.
func (b *broadcastEnv) payValid(key *ecdsa.PrivateKey, path string, seconds int) string {
	b.t.Helper()
	resp, _ := httpGet(b.t, b.base+path, nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		b.t.Fatal(err)
	}
	offer := pr.Accepts[0]
	offer.MaxTimeoutSeconds = seconds
	p, err := (&client.Transport{Key: key, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &offer)
	if err != nil {
		b.t.Fatal(err)
	}
	h, _ := x402.EncodeHeader(p)
	return h
}

// TestBatchWaitServesNothingUnpaid runs Caddy on a chain that seals a
// block every 2 s, batching with a max_wait of 6 s and serving /fast/ on
// broadcast. Three payers sign payments valid for 7 s, just after a block,
// and do nothing else; an honest payer's is valid for a minute. The batch
// used to wait the full 6 s: its simulation, at the latest block, passed,
// it was announced, and mined in the next block, after the short payments
// expired: their transfers failed in it, and the three were served unpaid
// (their balances never moved) and boxed. Now each
// short payment is sent by its send-by time, within its validity: every
// request is answered 200 and paid on chain (or, on a machine too slow
// for that, 503 with nothing served), caddy_x402_served_unpaid_total stays
// 0, and every payer, paying again, is served and pays.
func TestBatchWaitServesNothingUnpaid(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	chain, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0", BlockPeriod: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chain.Close() })
	eth, err := ethclient.Dial(chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	t.Setenv("X402_BATCHWAIT_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(chain.Accounts[0].Key)))
	merchant := chain.Accounts[2].Address
	api := freePort(t)
	cf := strings.NewReplacer(
		"{{id}}", chain.ChainID.String(), "{{rpc}}", chain.URL, "{{token}}", chain.Token.Address.Hex(),
		"{{name}}", chain.Token.Name, "{{version}}", chain.Token.Version, "{{store}}", filepath.Join(t.TempDir(), "x402.db"),
		"{{merchant}}", merchant.Hex(), "{{api}}", fmt.Sprint(api), "{{batch}}", chain.Contracts.Batch.Hex(),
	).Replace(batchWaitCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	b := &broadcastEnv{t: t, chain: chain, eth: eth, base: fmt.Sprintf("http://127.0.0.1:%d", api)}
	servedUnpaid := func() float64 {
		return (&e2e{t: t, admin: b.base}).metrics().sum("caddy_x402_served_unpaid_total", nil)
	}
	const price = 10_000 // 0.01 dUSD
	payers := []devnet.Account{chain.Accounts[1], chain.Accounts[3], chain.Accounts[4], chain.Accounts[5]}
	balances := func() []*big.Int {
		out := make([]*big.Int, len(payers))
		for i, p := range payers {
			out[i] = tokenBalance(t, eth, chain.Token.Address, p.Address)
		}
		return out
	}

	// round pays /fast/ once from each payer at once, each payment valid
	// for seconds[i], and checks that whatever was served was paid.
	round := func(name string, seconds []int) {
		t.Helper()
		before, merchantBefore := balances(), tokenBalance(t, eth, chain.Token.Address, merchant)
		// Signed just after a block: the batch that waited 6 s was
		// simulated in the block before they expire and mined in the one
		// after.
		b.nextBlock()
		payments := make([]string, len(payers))
		for i, p := range payers {
			payments[i] = b.payValid(p.Key, "/fast/x", seconds[i])
		}
		type answer struct {
			status int
			body   string
			res    *x402.SettleResponse
		}
		answers := make([]answer, len(payers))
		var wg sync.WaitGroup
		for i := range payers {
			wg.Go(func() {
				resp, body := httpGet(t, b.base+"/fast/x", map[string]string{x402.HeaderPaymentSignature: payments[i]})
				res, _ := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
				answers[i] = answer{resp.StatusCode, body, res}
			})
		}
		wg.Wait()
		var served int64
		for i, a := range answers {
			switch {
			case a.status == http.StatusOK && a.body == "fast content" && a.res != nil && a.res.Success:
				served++
				// Served on broadcast: wait for its transaction, then
				// its payer must have paid.
				receipt, err := waitReceipt(eth, a.res.TransactionHash)
				if err != nil || receipt.Status != 1 {
					t.Fatalf("%s: payer %d's settlement %s: %v %v", name, i, a.res.TransactionHash, receipt, err)
				}
				if got := new(big.Int).Sub(before[i], tokenBalance(t, eth, chain.Token.Address, payers[i].Address)); got.Int64() != price {
					t.Errorf("%s: payer %d was served and paid %s, want %d", name, i, got, price)
				}
			case a.status == http.StatusServiceUnavailable && seconds[i] < 60:
				t.Logf("%s: payer %d's payment lapsed in the queue (a slow machine): %s", name, i, a.body)
				if got := tokenBalance(t, eth, chain.Token.Address, payers[i].Address); got.Cmp(before[i]) != 0 {
					t.Errorf("%s: payer %d was answered 503 and paid %s", name, i, new(big.Int).Sub(before[i], got))
				}
			default:
				t.Errorf("%s: payer %d (valid %d s): %d %s %+v", name, i, seconds[i], a.status, a.body, a.res)
			}
		}
		if got := new(big.Int).Sub(tokenBalance(t, eth, chain.Token.Address, merchant), merchantBefore); got.Int64() != served*price {
			t.Errorf("%s: the merchant got %s for %d responses, want %d", name, got, served, served*price)
		}
		if got := servedUnpaid(); got != 0 {
			t.Errorf("%s: caddy_x402_served_unpaid_total = %v, want 0", name, got)
		}
	}
	round("short payments", []int{60, 7, 7, 7})
	// Nobody was boxed, by the facilitator (it would refuse them: 402) or
	// by the paywall (only a payment served unpaid boxes): all pay again.
	round("again", []int{60, 60, 60, 60})
}

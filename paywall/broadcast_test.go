package paywall_test

import (
	"context"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestBroadcastPenalty: on a chain that seals a block a second, a payer
// that moves its tokens away (with a higher tip) before paying is served
// before the block, then reported served unpaid and put in the penalty
// box. Once the facilitator's own penalty (a minute) is over, the payer,
// paying honestly, is not served on broadcast: it waits for inclusion.
func TestBroadcastPenalty(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	skew := time.Duration(0)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return time.Now().Add(skew) }
	bc := newBroadcastChain(t, time.Second, now, 20*time.Second)
	d, eth, fac, offer, network := bc.d, bc.eth, bc.fac, bc.offer, bc.network
	exposure := &paywall.Exposure{Penalty: time.Hour}
	unpaid := make(chan *paywall.Event, 4)
	// onBroadcast is whether each answer was served on broadcast (before
	// its settlement was mined): the paywall's own word, whatever the
	// blocks' timing on a loaded machine.
	onBroadcast := make(chan bool, 8)
	pw, err := paywall.New(paywall.Config{
		Accepts: []x402.PaymentRequirements{offer}, Facilitator: fac,
		Broadcast: &paywall.Broadcast{Exposure: exposure, MaxInFlight: map[string]*big.Int{paywall.AssetKey(network, offer.Asset): big.NewInt(10 * price)}},
		Hooks: paywall.Hooks{
			AfterSettle: func(_ *http.Request, e *paywall.Event) { onBroadcast <- e.Broadcast },
			AfterBroadcast: func(_ *http.Request, e *paywall.Event) {
				if !e.Settle.Success {
					unpaid <- e
				}
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(pw.Handler(report))
	t.Cleanup(srv.Close)

	head := func() uint64 {
		n, err := eth.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	transfer := bc.transfer
	// pay pays as key; ok is false when the payment was refused (its
	// tokens left before it was verified).
	pay := func(key *devnet.Account) (res *x402.SettleResponse, served bool, ok bool) {
		p, err := (&client.Transport{Key: key.Key, Now: now}).Pay(&x402.PaymentRequired{X402Version: 2, Accepts: []x402.PaymentRequirements{offer}}, &offer)
		if err != nil {
			t.Fatal(err)
		}
		header, _ := x402.EncodeHeader(p)
		resp, body := do(t, srv.URL+"/report", header)
		if resp.StatusCode == http.StatusPaymentRequired {
			return nil, false, false
		}
		res, _ = x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
		if resp.StatusCode != 200 || res == nil || !res.Success {
			t.Fatalf("paying: %d %s", resp.StatusCode, body)
		}
		select {
		case served = <-onBroadcast:
		case <-time.After(time.Minute):
			t.Fatal("no settlement was reported for an answered payment (waited a minute)")
		}
		return res, served, true
	}
	attacker, sink := &d.Accounts[3], &d.Accounts[9]
	balance := (&env{t: t, chain: d, eth: eth}).balance(attacker.Address)

	// Front-run: the tokens leave in the same block as the settlement,
	// before it. On a loaded machine a block can be sealed between the
	// transfer and the payment's verification, which then refuses it: the
	// tokens come back and the attacker tries again, at most 5 times.
	var res *x402.SettleResponse
	for attempt := 0; ; attempt++ {
		for h := head(); head() == h; {
			time.Sleep(5 * time.Millisecond) // polling for the next block
		}
		transfer(attacker, sink.Address, balance)
		r, served, ok := pay(attacker)
		if ok {
			if !served {
				t.Fatal("the front-runner's payment was not served on broadcast")
			}
			res = r
			break
		}
		if attempt == 4 {
			t.Fatal("the front-run never reached the paywall before its transfer was mined (5 attempts)")
		}
		if _, err := d.Wait(ctx, transfer(sink, attacker.Address, balance)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case e := <-unpaid:
		if e.Settle.Success || e.Settle.Payer != attacker.Address.Hex() {
			t.Fatalf("served unpaid: %+v", e.Settle)
		}
	case <-time.After(time.Minute):
		t.Fatal("the failed settlement was not reported")
	}
	if r, err := eth.TransactionReceipt(ctx, common.HexToHash(res.TransactionHash)); err != nil || r.Status != 0 {
		t.Fatalf("the front-run settlement: %v %v, want it reverted", r, err)
	}
	if !exposure.Boxed(attacker.Address.Hex()) || exposure.Boxed(sink.Address.Hex()) {
		t.Fatal("the penalty box")
	}

	// Past the facilitator's penalty, honest again: it waits for inclusion.
	mu.Lock()
	skew = 2 * time.Minute
	mu.Unlock()
	if _, err := d.Wait(ctx, transfer(sink, attacker.Address, big.NewInt(10*price))); err != nil {
		t.Fatal(err)
	}
	res, served, ok := pay(attacker)
	if !ok || served {
		t.Fatalf("a boxed payer was served before inclusion (paid %v, on broadcast %v)", ok, served)
	}
	if r, err := eth.TransactionReceipt(ctx, common.HexToHash(res.TransactionHash)); err != nil || r.Status != 1 {
		t.Fatalf("the boxed payer's honest settlement: %v %v", r, err)
	}
	select {
	case e := <-unpaid:
		t.Fatalf("an honest payment reported unpaid: %+v", e.Settle)
	default:
	}
}

// broadcastChain is a devnet sealing a block every period, and a
// facilitator on it (with the clock now) offering the devnet's token.
type broadcastChain struct {
	t       *testing.T
	d       *devnet.Devnet
	eth     *ethclient.Client
	fac     *facilitator.Service
	offer   x402.PaymentRequirements
	network string
}

func newBroadcastChain(t *testing.T, period time.Duration, now func() time.Time, receiptTimeout time.Duration) *broadcastChain {
	t.Helper()
	ctx := context.Background()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0", BlockPeriod: period})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	chain, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(chain.Close)
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	network := x402.FormatNetwork(d.ChainID.Uint64())
	fac, err := facilitator.New(ctx, facilitator.Config{
		Network: network, Chain: chain, Records: st, SettlerKey: d.Accounts[0].Key, Now: now,
		Assets:         []facilitator.Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}},
		ReceiptTimeout: receiptTimeout,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fac.Close() })
	offer := x402.PaymentRequirements{
		Scheme: x402.SchemeExact, Network: network, Amount: big.NewInt(price).String(),
		Asset: d.Token.Address.Hex(), PayTo: d.Accounts[2].Address.Hex(),
		Extra: &x402.Extra{Name: d.Token.Name, Version: d.Token.Version},
	}
	return &broadcastChain{t: t, d: d, eth: eth, fac: fac, offer: offer, network: network}
}

// transfer sends amount of the devnet's token from from to to with a tip
// high enough to be mined before the settler's transactions of the same
// block; it does not wait.
func (b *broadcastChain) transfer(from *devnet.Account, to common.Address, amount *big.Int) common.Hash {
	ctx := context.Background()
	nonce, _ := b.eth.PendingNonceAt(ctx, from.Address)
	token := b.d.Token.Address
	tx, _ := types.SignNewTx(from.Key, types.LatestSignerForChainID(b.d.ChainID), &types.DynamicFeeTx{
		ChainID: b.d.ChainID, Nonce: nonce, To: &token, Data: contracts.NewDevUSD().PackTransfer(to, amount), Gas: 100_000,
		GasTipCap: big.NewInt(100e9), GasFeeCap: big.NewInt(500e9),
	})
	if err := b.eth.SendTransaction(ctx, tx); err != nil {
		b.t.Fatal(err)
	}
	return tx.Hash()
}

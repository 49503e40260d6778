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

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// broadcastCaddyfile has a route serving on broadcast (/fast/, at most one
// unsettled payment per payer and 0.03 dUSD in flight) and one serving
// after inclusion, as by default (/slow/), on a chain that seals a block
// every period.
const broadcastCaddyfile = `{
	x402 {
		network eip155:{{id}}
		rpc {{rpc}}
		settler_key {env.X402_BROADCAST_SETTLER_KEY}
		asset {{token}} "{{name}}" "{{version}}" 6
		store_path {{store}}
		serve_on_broadcast {
			max_in_flight 0.05
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
				max_in_flight 0.03
			}
		}
		respond "fast content"
	}
	handle /slow/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		respond "slow content"
	}
	handle /dashboard/* {
		x402_dashboard {
			path_prefix /dashboard/
			allow_anonymous
		}
	}
}
`

// broadcastEnv is Caddy with broadcastCaddyfile on its chain.
type broadcastEnv struct {
	t     *testing.T
	chain *devnet.Devnet
	eth   *ethclient.Client
	base  string
}

// pay signs key's payment of path's offer.
func (b *broadcastEnv) pay(key *ecdsa.PrivateKey, path string) string {
	b.t.Helper()
	resp, _ := httpGet(b.t, b.base+path, nil)
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	if err != nil {
		b.t.Fatal(err)
	}
	p, err := (&client.Transport{Key: key, MaxAmount: big.NewInt(1 << 62)}).Pay(pr, &pr.Accepts[0])
	if err != nil {
		b.t.Fatal(err)
	}
	h, _ := x402.EncodeHeader(p)
	return h
}

// get requests path with a payment, and reads the head of the chain as
// the answer arrived.
func (b *broadcastEnv) get(path, payment string) (resp *http.Response, body string, head uint64, res *x402.SettleResponse) {
	b.t.Helper()
	resp, body = httpGet(b.t, b.base+path, map[string]string{x402.HeaderPaymentSignature: payment})
	head = b.head()
	res, _ = x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
	return resp, body, head, res
}

func (b *broadcastEnv) head() uint64 {
	b.t.Helper()
	n, err := b.eth.BlockNumber(context.Background())
	if err != nil {
		b.t.Fatal(err)
	}
	return n
}

// nextBlock waits for the chain's next block, so that what follows has a
// block period before the one after.
func (b *broadcastEnv) nextBlock() {
	b.t.Helper()
	h := b.head()
	for deadline := time.Now().Add(time.Minute); b.head() == h; {
		if time.Now().After(deadline) {
			b.t.Fatal("no new block")
		}
		time.Sleep(5 * time.Millisecond) // polling the chain for the event
	}
}

// send sends a token transfer from key with a tip high enough to be mined
// before the settler's transactions in the same block; it does not wait.
func (b *broadcastEnv) send(key *ecdsa.PrivateKey, to common.Address, amount *big.Int) common.Hash {
	b.t.Helper()
	ctx := context.Background()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := b.eth.PendingNonceAt(ctx, from)
	if err != nil {
		b.t.Fatal(err)
	}
	token := b.chain.Token.Address
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(b.chain.ChainID), &types.DynamicFeeTx{
		ChainID: b.chain.ChainID, Nonce: nonce, To: &token, Data: contracts.NewDevUSD().PackTransfer(to, amount), Gas: 100_000,
		GasTipCap: big.NewInt(100e9), GasFeeCap: big.NewInt(500e9),
	})
	if err := b.eth.SendTransaction(ctx, tx); err != nil {
		b.t.Fatal(err)
	}
	return tx.Hash()
}

// TestServeOnBroadcast runs Caddy on a chain that seals a block every 2 s.
// An honest payment on the route serving on broadcast is answered before
// the block that includes its settlement; on the default route, after it.
// Payers that front-run their own settlement (they move their tokens away,
// with a higher tip, before paying) get at most the route's bound served
// for free (three of 0.01 within 0.03; a second payment of one of them,
// and a fourth payer, wait for inclusion and get 402), each counted in
// caddy_x402_served_unpaid_total and on the dashboard; they are then
// refused (the facilitator's penalty box), and the bounds are free again
// for an honest payer.
func TestServeOnBroadcast(t *testing.T) {
	old := refusalFlush
	t.Cleanup(func() { refusalFlush = old }) // after Caddy stopped, below
	refusalFlush = 100 * time.Millisecond
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
	t.Setenv("X402_BROADCAST_SETTLER_KEY", fmt.Sprintf("%x", crypto.FromECDSA(chain.Accounts[0].Key)))
	merchant := chain.Accounts[2].Address
	api := freePort(t)
	cf := strings.NewReplacer(
		"{{id}}", chain.ChainID.String(), "{{rpc}}", chain.URL, "{{token}}", chain.Token.Address.Hex(),
		"{{name}}", chain.Token.Name, "{{version}}", chain.Token.Version, "{{store}}", filepath.Join(t.TempDir(), "x402.db"),
		"{{merchant}}", merchant.Hex(), "{{api}}", fmt.Sprint(api),
	).Replace(broadcastCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	b := &broadcastEnv{t: t, chain: chain, eth: eth, base: fmt.Sprintf("http://127.0.0.1:%d", api)}
	scrape := func() float64 {
		return (&e2e{t: t, admin: b.base}).metrics().sum("caddy_x402_served_unpaid_total", nil)
	}
	honest, sink := chain.Accounts[1], chain.Accounts[9].Address

	// Served before its block, on the route that opted in.
	b.nextBlock()
	resp, body, head, res := b.get("/fast/x", b.pay(honest.Key, "/fast/x"))
	if resp.StatusCode != 200 || body != "fast content" || res == nil || !res.Success || res.TransactionHash == "" {
		t.Fatalf("/fast/: %d %s %+v", resp.StatusCode, body, res)
	}
	receipt, err := waitReceipt(eth, res.TransactionHash)
	if err != nil || receipt.Status != 1 {
		t.Fatalf("the settlement of /fast/: %v %v", receipt, err)
	}
	if receipt.BlockNumber.Uint64() <= head {
		t.Fatalf("/fast/ was answered at block %d, after its settlement's block %d", head, receipt.BlockNumber)
	}

	// After it, on the default route.
	b.nextBlock()
	resp, body, head, res = b.get("/slow/x", b.pay(honest.Key, "/slow/x"))
	if resp.StatusCode != 200 || body != "slow content" || res == nil || !res.Success {
		t.Fatalf("/slow/: %d %s %+v", resp.StatusCode, body, res)
	}
	if receipt, err := eth.TransactionReceipt(ctx, common.HexToHash(res.TransactionHash)); err != nil || receipt.BlockNumber.Uint64() > head {
		t.Fatalf("/slow/ was answered before its settlement was mined: %v %v (head %d)", receipt, err, head)
	}

	// Four payers front-run their settlements in one block period.
	attackers := []devnet.Account{chain.Accounts[3], chain.Accounts[4], chain.Accounts[5], chain.Accounts[6]}
	b.nextBlock()
	var drains []common.Hash
	for _, a := range attackers {
		drains = append(drains, b.send(a.Key, sink, tokenBalance(t, eth, chain.Token.Address, a.Address)))
	}
	for i, a := range attackers[:3] {
		resp, body, _, res := b.get("/fast/x", b.pay(a.Key, "/fast/x"))
		if resp.StatusCode != 200 || body != "fast content" || res == nil || !res.Success {
			t.Fatalf("attacker %d, within the bounds: %d %s %+v", i, resp.StatusCode, body, res)
		}
	}
	// Past them: the first attacker's second payment (one per payer), and
	// the fourth attacker (0.03 in flight on the route) wait for inclusion,
	// where their settlements fail.
	var wg sync.WaitGroup
	for i, a := range []devnet.Account{attackers[0], attackers[3]} {
		payment := b.pay(a.Key, "/fast/x")
		wg.Go(func() {
			resp, body := httpGet(t, b.base+"/fast/x", map[string]string{x402.HeaderPaymentSignature: payment})
			if resp.StatusCode != http.StatusPaymentRequired {
				t.Errorf("past the bounds (%d): %d %s", i, resp.StatusCode, body)
			}
		})
	}
	wg.Wait()
	for _, h := range drains {
		if r, err := chain.Wait(ctx, h); err != nil || r.Status != 1 {
			t.Fatalf("a drain: %v %v", r, err)
		}
	}
	for deadline := time.Now().Add(time.Minute); scrape() < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("caddy_x402_served_unpaid_total = %v, want 3", scrape())
		}
		time.Sleep(50 * time.Millisecond) // polling for the settlements' outcome
	}
	if got := scrape(); got != 3 {
		t.Fatalf("caddy_x402_served_unpaid_total = %v, want 3", got)
	}
	for deadline := time.Now().Add(time.Minute); ; {
		_, page := httpGet(t, b.base+"/dashboard/refused", nil)
		if strings.Contains(page, `id="served-unpaid-total">3<`) && strings.Contains(page, attackers[0].Address.Hex()) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the refused page:\n%s", page)
		}
		time.Sleep(100 * time.Millisecond) // polling for the refusals' flush
	}

	// The first attacker, paying honestly now, is in the facilitator's
	// penalty box first (refused, for a minute: see docs/security.md),
	// then in the paywall's (it waits for inclusion; TestBroadcastPenalty).
	refund := b.send(chain.Accounts[9].Key, attackers[0].Address, big.NewInt(50_000))
	if _, err := chain.Wait(ctx, refund); err != nil {
		t.Fatal(err)
	}
	resp, body, _, _ = b.get("/fast/x", b.pay(attackers[0].Key, "/fast/x"))
	if resp.StatusCode != http.StatusPaymentRequired || !strings.Contains(body, "reverted on chain recently") {
		t.Fatalf("the boxed payer: %d %s", resp.StatusCode, body)
	}
	// The bounds were released with the failures: an honest payer is
	// served before its block again.
	b.nextBlock()
	resp, body, head, res = b.get("/fast/x", b.pay(chain.Accounts[7].Key, "/fast/x"))
	if resp.StatusCode != 200 || res == nil || !res.Success {
		t.Fatalf("an honest payer after the attack: %d %s %+v", resp.StatusCode, body, res)
	}
	if receipt, err := waitReceipt(eth, res.TransactionHash); err != nil || receipt.Status != 1 || receipt.BlockNumber.Uint64() <= head {
		t.Fatalf("an honest payer after the attack was not served before its block %v %v (head %d)", receipt, err, head)
	}
	if got := scrape(); got != 3 {
		t.Fatalf("caddy_x402_served_unpaid_total = %v after honest payments, want 3", got)
	}
}

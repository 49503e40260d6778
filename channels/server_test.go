package channels_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/channels"
	"github.com/caddy-x402/caddy-x402/channels/channelstest"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// rig is a devnet, the embedded facilitator with batch-settlement, and
// two replicas' paywalls over one channel store (two handles of one
// bbolt file stand for a fleet's PostgreSQL: store.Channels is one atomic
// update per step on either).
type rig struct {
	t        *testing.T
	d        *devnet.Devnet
	fac      *facilitator.Service
	offer    x402.PaymentRequirements
	dom      batchsettle.Domain
	servers  []*httptest.Server
	srvs     []*channels.Server // the replicas' channel servers
	channels *store.Channels
	served   atomic.Int64
	// gate, when set, holds the upstream until it is closed.
	gate chan struct{}
	// skew is added to the servers' clock (nanoseconds).
	skew atomic.Int64
	// during, when set, runs in the upstream while it serves /during.
	during func()
}

func newRig(t *testing.T, mutate ...func(*paywall.Config)) *rig {
	t.Helper()
	return newRigWith(t, nil, mutate...)
}

// newRigWith is newRig whose replicas' channel servers are configured by
// ch as well.
func newRigWith(t *testing.T, ch func(*channels.Config, *store.Store), mutate ...func(*paywall.Config)) *rig {
	t.Helper()
	d, err := devnet.Start(context.Background(), devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	chain, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(chain.Close)
	network := x402.FormatNetwork(d.ChainID.Uint64())
	fac, err := facilitator.New(context.Background(), facilitator.Config{
		Network: network, Chain: chain, Records: st, SettlerKey: d.Accounts[0].Key,
		Assets:          []facilitator.Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}},
		ReceiptTimeout:  20 * time.Second,
		BatchSettlement: &facilitator.BatchSettlement{},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fac.Close() })
	kv, err := st.Bucket(store.ChannelBucket)
	if err != nil {
		t.Fatal(err)
	}
	authorizer := d.Accounts[3]
	r := &rig{t: t, d: d, fac: fac, channels: store.NewChannels(kv), dom: batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement)}
	r.offer = x402.PaymentRequirements{
		Scheme: x402.SchemeBatchSettlement, Network: network, Amount: "100", Asset: d.Token.Address.Hex(), PayTo: d.Accounts[2].Address.Hex(),
		MaxTimeoutSeconds: 60, Extra: &x402.Extra{ReceiverAuthorizer: authorizer.Address.Hex(), WithdrawDelay: 900, Name: d.Token.Name, Version: d.Token.Version},
	}
	upstream := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.gate != nil {
			<-r.gate
		}
		r.served.Add(1)
		switch req.URL.Path {
		case "/fail":
			http.Error(w, "upstream failure", http.StatusInternalServerError)
			return
		case "/metered":
			w.Header().Set("X-Units", "37")
		case "/over":
			w.Header().Set("X-Units", "5000")
		case "/during":
			r.during()
		case "/bytes":
			// n bytes, in writes of 10, flushed after each when asked:
			// a stream.
			n, _ := strconv.Atoi(req.URL.Query().Get("n"))
			for i := 0; i < n; i += 10 {
				if _, err := w.Write([]byte("0123456789")[:min(10, n-i)]); err != nil {
					return
				}
				if req.URL.Query().Has("flush") {
					w.(http.Flusher).Flush()
				}
			}
			return
		}
		fmt.Fprint(w, "tool answer")
	})
	for range 2 {
		cc := channels.Config{Store: r.channels, ChainID: d.ChainID, Settlement: d.Contracts.BatchSettlement, Authorizer: authorizer.Key,
			Now: func() time.Time { return time.Now().Add(time.Duration(r.skew.Load())) }}
		if ch != nil {
			ch(&cc, st)
		}
		srv, err := channels.New(cc)
		if err != nil {
			t.Fatal(err)
		}
		r.srvs = append(r.srvs, srv)
		cfg := paywall.Config{Accepts: []x402.PaymentRequirements{r.offer}, Facilitator: fac, Channels: srv}
		for _, m := range mutate {
			m(&cfg)
		}
		pw, err := paywall.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(pw.Handler(upstream))
		t.Cleanup(hs.Close)
		r.servers = append(r.servers, hs)
	}
	return r
}

// payer is a channelstest.Payer failing the test on an error.
type payer struct {
	*channelstest.Payer
	r *rig
}

// newPayer is a payer with the devnet's funded account i.
func (r *rig) newPayer(i int) *payer {
	d := r.d
	return &payer{r: r, Payer: channelstest.New(d.Accounts[i].Key, r.offer, r.dom, d.Contracts.ERC3009DepositCollector,
		contracts.TokenDomain{Name: d.Token.Name, Version: d.Token.Version, ChainID: d.ChainID, Token: d.Token.Address})}
}

func (p *payer) id() common.Hash { return p.ID() }

// header is Header, failing the test on an error.
func (p *payer) header(typ string, max, deposit, refund int64, _ x402.PaymentRequirements) string {
	p.r.t.Helper()
	h, err := p.Header(typ, max, deposit, refund)
	if err != nil {
		p.r.t.Fatal(err)
	}
	return h
}

// answer is one paid request's answer.
type answer struct {
	status  int
	receipt *x402.SettleResponse
	pr      *x402.PaymentRequired
}

// pay sends a request to replica i, path "/tool" unless given, paid with h.
func (r *rig) pay(i int, h string, path ...string) answer {
	r.t.Helper()
	p := "/tool"
	if len(path) > 0 {
		p = path[0]
	}
	req, _ := http.NewRequest(http.MethodGet, r.servers[i].URL+p, nil)
	req.Header.Set(x402.HeaderPaymentSignature, h)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	resp.Body.Close()
	a := answer{status: resp.StatusCode}
	if v := resp.Header.Get(x402.HeaderPaymentResponse); v != "" {
		var res x402.SettleResponse
		if err := x402.DecodeHeader(v, &res); err == nil {
			a.receipt = &res
		}
	}
	if v := resp.Header.Get(x402.HeaderPaymentRequired); v != "" {
		a.pr, _ = x402.DecodePaymentRequired(v)
	}
	return a
}

// charged is what channel id has charged once no request holds it: a
// charge is committed after its response was flushed, so the client may
// read the answer a moment before (bounded: 10 s).
func (r *rig) charged(id common.Hash) int64 {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, ok, err := r.channels.Get(id)
		if err != nil || !ok {
			r.t.Fatalf("channel %s: %v %v", id, ok, err)
		}
		if c.Hold == nil || r.gate != nil {
			return c.Charged.Int64()
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("channel %s was still held 10 s after its response", id)
		}
		time.Sleep(5 * time.Millisecond) // waiting for the served request's commit
	}
}

// TestChannelAttacks: what a payer (or anyone holding its payments) might
// try against a merchant's channels, across two replicas of one store;
// each is refused and nothing is charged or served for it.
func TestChannelAttacks(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	p := r.newPayer(4)
	// A deposit of 1,000 pays the first request.
	if a := r.pay(0, p.header("deposit", 100, 1000, 0, r.offer)); a.status != 200 || a.receipt == nil || a.receipt.TransactionHash == "" {
		t.Fatalf("the deposit: %+v", a)
	}
	v2 := p.header("voucher", 200, 0, 0, r.offer)
	if a := r.pay(1, v2); a.status != 200 || a.receipt.Extra.ChannelState.ChargedCumulativeAmount != "200" {
		t.Fatalf("a voucher on the other replica: %+v", a)
	}
	// Replayed at once on the replica that did not serve it, while the
	// served request's hold waits for its commit: busy (or, once
	// committed, the corrective 402), never served.
	if a := r.pay(0, v2); a.status != 402 || a.pr == nil || (!strings.HasPrefix(a.pr.Error, channels.CodeChannelBusy) && a.pr.Error != channels.CodeCumulativeAmountMismatch) {
		t.Fatalf("a voucher replayed at once on the other replica: %+v %+v", a, a.pr)
	}
	r.charged(p.id()) // its commit

	t.Run("a voucher replayed, on either replica, gets the corrective 402", func(t *testing.T) {
		for i := range 2 {
			a := r.pay(i, v2)
			if a.status != 402 || a.pr == nil || a.pr.Error != channels.CodeCumulativeAmountMismatch {
				t.Fatalf("replica %d: %+v", i, a)
			}
			x := a.pr.Accepts[0].Extra
			if x.ChannelState == nil || x.ChannelState.ChargedCumulativeAmount != "200" || x.VoucherState == nil || x.VoucherState.SignedMaxClaimable != "200" {
				t.Fatalf("the corrective 402's extra %+v", x)
			}
		}
		if r.charged(p.id()) != 200 {
			t.Fatalf("charged %d after replays", r.charged(p.id()))
		}
	})

	t.Run("a voucher above the deposit is refused", func(t *testing.T) {
		before := r.served.Load()
		// 1,100 is above the balance of 1,000 (and not the charged 200
		// plus the price either).
		if a := r.pay(0, p.header("voucher", 1100, 0, 0, r.offer)); a.status != 402 {
			t.Fatalf("%+v", a)
		}
		if r.served.Load() != before || r.charged(p.id()) != 200 {
			t.Fatal("served or charged past the deposit")
		}
	})

	t.Run("a 402 whose receiver or receiver authorizer a client swapped pays nothing", func(t *testing.T) {
		thief := r.newPayer(5)
		thief.Config.Receiver = r.d.Accounts[8].Address
		if a := r.pay(0, thief.header("deposit", 100, 1000, 0, r.offer)); a.status != 402 {
			t.Fatalf("a channel to another receiver: %+v", a)
		}
		other := r.newPayer(6)
		other.Config.ReceiverAuthorizer = other.Config.Payer
		if a := r.pay(0, other.header("deposit", 100, 1000, 0, r.offer)); a.status != 402 {
			t.Fatalf("a channel whose receiver authorizer is the payer: %+v", a)
		}
		tok := r.newPayer(7)
		tok.Config.Token = r.d.Contracts.PermitToken
		if a := r.pay(0, tok.header("deposit", 100, 1000, 0, r.offer)); a.status != 402 {
			t.Fatalf("a channel in another token: %+v", a)
		}
	})

	t.Run("an upstream failure charges nothing and the voucher pays again", func(t *testing.T) {
		v3 := p.header("voucher", 300, 0, 0, r.offer)
		if a := r.pay(0, v3, "/fail"); a.status != 500 || r.charged(p.id()) != 200 {
			t.Fatalf("%+v, charged %d", a, r.charged(p.id()))
		}
		if a := r.pay(1, v3); a.status != 200 || r.charged(p.id()) != 300 {
			t.Fatalf("%+v, charged %d", a, r.charged(p.id()))
		}
	})

	t.Run("two requests of one channel racing on two replicas: one is served", func(t *testing.T) {
		v4 := p.header("voucher", 400, 0, 0, r.offer)
		before := r.served.Load()
		r.gate = make(chan struct{})
		var wg sync.WaitGroup
		answers := make([]answer, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = r.pay(i, v4)
			}()
		}
		// One holds the channel at the gate; the other is refused, as busy
		// or (if it comes after the commit) as spent.
		deadline := time.After(20 * time.Second)
		for {
			c, _, _ := r.channels.Get(p.id())
			if c.Hold != nil {
				break
			}
			select {
			case <-deadline:
				t.Fatal("no request held the channel within 20 s")
			case <-time.After(10 * time.Millisecond):
			}
		}
		close(r.gate)
		wg.Wait()
		r.gate = nil
		ok, busy := 0, 0
		for _, a := range answers {
			switch {
			case a.status == 200:
				ok++
			case a.status == 402 && a.pr != nil && (strings.HasPrefix(a.pr.Error, channels.CodeChannelBusy) || a.pr.Error == channels.CodeCumulativeAmountMismatch):
				// Busy while the other holds the channel, or, arriving after
				// it committed, a voucher already spent.
				busy++
			}
		}
		if ok != 1 || busy != 1 || r.served.Load()-before != 1 || r.charged(p.id()) != 400 {
			t.Fatalf("answers %+v; served %d, charged %d", answers, r.served.Load()-before, r.charged(p.id()))
		}
	})

	t.Run("the cooperative refund returns exactly the rest", func(t *testing.T) {
		payerBefore, receiverBefore := balance(t, r, p.Config.Payer), balance(t, r, p.Config.Receiver)
		a := r.pay(1, p.header("refund", 400, 0, 0, r.offer))
		if a.status != 200 || a.receipt == nil || !a.receipt.Success || a.receipt.Amount != "600" {
			t.Fatalf("the refund: %+v %+v", a, a.receipt)
		}
		if got := new(big.Int).Sub(balance(t, r, p.Config.Payer), payerBefore); got.Int64() != 600 {
			t.Errorf("the payer got %v back, want the 600 unspent", got)
		}
		if got := new(big.Int).Sub(balance(t, r, p.Config.Receiver), receiverBefore); got.Int64() != 400 {
			t.Errorf("the receiver got %v, want the 400 served", got)
		}
		if _, ok, _ := r.channels.Get(p.id()); ok {
			t.Error("the channel's record outlived its full refund")
		}
		// The refunded channel pays nothing more.
		if a := r.pay(0, p.header("voucher", 500, 0, 0, r.offer)); a.status != 402 {
			t.Fatalf("a voucher after the refund: %+v", a)
		}
	})
}

// sent is how many transactions the facilitator's settler has sent.
func (r *rig) sent() uint64 {
	r.t.Helper()
	eth := ethclient.NewClient(r.d.Attach())
	defer eth.Close()
	n, err := eth.PendingNonceAt(context.Background(), r.d.Accounts[0].Address)
	if err != nil {
		r.t.Fatal(err)
	}
	return n
}

func balance(t *testing.T, r *rig, who common.Address) *big.Int {
	t.Helper()
	eth := ethclient.NewClient(r.d.Attach())
	defer eth.Close()
	token := contracts.NewDevUSD()
	to := r.d.Token.Address
	out, err := eth.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: token.PackBalanceOf(who)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := token.UnpackBalanceOf(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// send sends a transaction from key to to with data, and waits for its
// receipt (bounded by the devnet's Wait).
func (r *rig) send(key *ecdsa.PrivateKey, to common.Address, data []byte) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	eth := ethclient.NewClient(r.d.Attach())
	defer eth.Close()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := eth.PendingNonceAt(ctx, from)
	if err != nil {
		r.t.Fatal(err)
	}
	gas, err := eth.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Data: data})
	if err != nil {
		r.t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(r.d.ChainID), &types.DynamicFeeTx{
		ChainID: r.d.ChainID, Nonce: nonce, To: &to, Data: data, Gas: gas + gas/4, GasTipCap: tip, GasFeeCap: new(big.Int).Mul(tip, big.NewInt(100)),
	})
	if err := eth.SendTransaction(ctx, tx); err != nil {
		r.t.Fatal(err)
	}
	if rec, err := r.d.Wait(ctx, tx.Hash()); err != nil || rec.Status != types.ReceiptStatusSuccessful {
		r.t.Fatalf("waiting for %s: %v %+v", tx.Hash(), err, rec)
	}
}

// TestChannelWithdrawal: a payer that starts a timed withdrawal and keeps
// spending. The server learns of it from the facilitator's next read of
// the channel (its mirror is fresh for 30 s) and goes on charging only
// while the withdrawal is more than 5 minutes from its end, so that every
// served voucher can be claimed before the balance leaves.
func TestChannelWithdrawal(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	p := r.newPayer(4)
	if a := r.pay(0, p.header("deposit", 100, 1000, 0, r.offer)); a.status != 200 {
		t.Fatalf("the deposit: %+v", a)
	}
	r.send(p.Key, r.d.Contracts.BatchSettlement, batchsettle.NewX402BatchSettlement().PackInitiateWithdraw(p.Config, big.NewInt(1000)))
	// Within the mirror's freshness the voucher verifies locally.
	if a := r.pay(0, p.header("voucher", 200, 0, 0, r.offer)); a.status != 200 {
		t.Fatalf("a voucher right after the withdrawal began: %+v", a)
	}
	// A minute later the facilitator reads the channel again: the
	// withdrawal is seen and there are 14 minutes left, so it is served.
	r.skew.Store(int64(time.Minute))
	if a := r.pay(1, p.header("voucher", 300, 0, 0, r.offer)); a.status != 200 || a.receipt.Extra.ChannelState.WithdrawRequestedAt == 0 {
		t.Fatalf("a voucher a minute into the withdrawal: %+v", a)
	}
	c, _, _ := r.channels.Get(p.id())
	if c.WithdrawRequestedAt == 0 {
		t.Fatal("the channel's mirror has no withdrawal")
	}
	// Eleven minutes in (4 left, under the 5-minute margin): refused.
	r.skew.Store(int64(11 * time.Minute))
	before := r.served.Load()
	a := r.pay(0, p.header("voucher", 400, 0, 0, r.offer))
	if a.status != 402 || a.pr == nil || !strings.Contains(a.pr.Error, "being withdrawn") || r.served.Load() != before {
		t.Fatalf("a voucher 4 minutes before the withdrawal ends: %+v", a)
	}
	if r.charged(p.id()) != 300 {
		t.Fatalf("charged %d, want the 300 served", r.charged(p.id()))
	}
}

// TestChannelMetered: a route that charges each call by the units its
// upstream reports (the upto option's usage header), at most the price:
// the PAYMENT-RESPONSE says the charge, the channel is charged exactly
// it, the payer's next voucher builds on it, and the client never sees
// the usage header.
func TestChannelMetered(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(c *paywall.Config) {
		c.Usage = &paywall.Usage{Per: paywall.UsageHeader, Header: "X-Units", Prices: map[string]*big.Int{strings.ToLower(c.Accepts[0].Asset): big.NewInt(1)}}
	})
	p := r.newPayer(4)
	a := r.pay(0, p.header("deposit", 100, 1000, 0, r.offer), "/metered")
	if a.status != 200 || a.receipt.Extra.ChargedAmount != "37" || a.receipt.Extra.ChannelState.ChargedCumulativeAmount != "37" {
		t.Fatalf("a metered deposit: %+v %+v", a, a.receipt)
	}
	r.charged(p.id()) // committed before another replica is asked: see TestChannelMeteredBytes
	a = r.pay(1, p.header("voucher", 137, 0, 0, r.offer), "/over")
	if a.status != 200 || a.receipt.Extra.ChargedAmount != "100" || a.receipt.Extra.ChannelState.ChargedCumulativeAmount != "137" {
		t.Fatalf("a call reporting more than the price buys: %+v %+v", a, a.receipt)
	}
	if r.charged(p.id()) != 137 {
		t.Fatalf("charged %d, want 137", r.charged(p.id()))
	}
	if a := r.pay(0, p.header("voucher", 237, 0, 0, r.offer), "/tool"); a.status != 200 || a.receipt.Extra.ChargedAmount != "0" {
		t.Fatalf("a call reporting no usage: %+v %+v", a, a.receipt)
	}
}

// metered is one answer of a metered route, read to its end: its body,
// and the PAYMENT-RESPONSE of its header or its trailer.
type metered struct {
	status  int
	body    string
	receipt *x402.SettleResponse
	trailer bool   // the receipt came as a trailer
	cut     string // X402-Budget
}

// payMetered sends a request to replica i for path, paid with h, and
// reads the answer to its end.
func (r *rig) payMetered(i int, h, path string) metered {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, r.servers[i].URL+path, nil)
	req.Header.Set(x402.HeaderPaymentSignature, h)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	a := metered{status: resp.StatusCode, body: string(body), cut: resp.Header.Get(paywall.BudgetTrailer) + resp.Trailer.Get(paywall.BudgetTrailer)}
	v := resp.Header.Get(x402.HeaderPaymentResponse)
	if v == "" {
		v, a.trailer = resp.Trailer.Get(x402.HeaderPaymentResponse), true
	}
	if v != "" {
		var res x402.SettleResponse
		if err := x402.DecodeHeader(v, &res); err != nil {
			r.t.Fatal(err)
		}
		a.receipt = &res
	}
	return a
}

// TestChannelMeteredBytes: a route metered per byte (1 atomic unit a byte,
// the price 100, responses of up to 64 bytes held): a deposit's short
// answer is charged its 40 bytes, with PAYMENT-RESPONSE a header and the
// deposit settled before it was served; a long answer ends cleanly at the
// 100 bytes the price buys, charged 100, PAYMENT-RESPONSE a trailer; a
// flushed stream of 30 bytes is charged 30; a client that read no trailer
// and built its voucher on the price meets the corrective 402 with the
// true total and pays on; an upstream failure charges nothing; and the
// channel's charged total is exactly what the answers said.
func TestChannelMeteredBytes(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(c *paywall.Config) {
		c.Usage = &paywall.Usage{Per: paywall.UsageBytes, Hold: 64, Prices: map[string]*big.Int{strings.ToLower(c.Accepts[0].Asset): big.NewInt(1)}}
	})
	p := r.newPayer(5)
	a := r.payMetered(0, p.header("deposit", 100, 1000, 0, r.offer), "/bytes?n=40")
	if a.status != 200 || a.receipt == nil || a.trailer || a.receipt.TransactionHash == "" || a.receipt.Extra.ChargedAmount != "40" || len(a.body) != 40 {
		t.Fatalf("a metered deposit: %+v %+v", a, a.receipt)
	}
	// A charge is committed after its handler returned. The next request
	// of the channel on the same replica waits for it; another replica
	// would find the channel busy until then (or, for a voucher built on
	// the full price, charge the full price: the payer signed for it), so
	// the test lets it land before it asks another.
	r.charged(p.id())
	a = r.payMetered(1, p.header("voucher", 140, 0, 0, r.offer), "/bytes?n=300")
	if a.status != 200 || a.receipt == nil || !a.trailer || a.receipt.Extra.ChargedAmount != "100" || len(a.body) != 100 || a.cut != "exhausted" {
		t.Fatalf("an answer longer than the price buys: %d bytes, cut %q, %+v %+v", len(a.body), a.cut, a, a.receipt)
	}
	if got := a.receipt.Extra.ChannelState.ChargedCumulativeAmount; got != "140" || a.receipt.TransactionHash != "" {
		t.Fatalf("the trailer's channel state: charged %s, transaction %q", got, a.receipt.TransactionHash)
	}
	r.charged(p.id())
	a = r.payMetered(0, p.header("voucher", 240, 0, 0, r.offer), "/bytes?n=30&flush")
	if a.status != 200 || a.receipt == nil || !a.trailer || a.receipt.Extra.ChargedAmount != "30" || len(a.body) != 30 {
		t.Fatalf("a short stream: %+v %+v", a, a.receipt)
	}
	if got := r.charged(p.id()); got != 170 {
		t.Fatalf("charged %d, want 40+100+30", got)
	}
	// A client that read no trailer signs on the price: the corrective 402
	// tells it the true total.
	b := r.pay(1, p.header("voucher", 340, 0, 0, r.offer))
	if b.status != http.StatusPaymentRequired || b.pr == nil || b.pr.Error != channels.CodeCumulativeAmountMismatch {
		t.Fatalf("a voucher on the price after a cheaper stream: %+v", b)
	}
	if st := b.pr.Accepts[0].Extra.ChannelState; st == nil || st.ChargedCumulativeAmount != "170" {
		t.Fatalf("the corrective 402's state: %+v", b.pr.Accepts[0].Extra)
	}
	served := r.served.Load()
	if a := r.payMetered(1, p.header("voucher", 270, 0, 0, r.offer), "/fail"); a.status != 500 || a.receipt != nil {
		t.Fatalf("an upstream failure: %+v", a)
	}
	if a := r.payMetered(0, p.header("voucher", 270, 0, 0, r.offer), "/bytes?n=5"); a.status != 200 || a.receipt.Extra.ChargedAmount != "5" {
		t.Fatalf("the voucher after a failure: %+v %+v", a, a.receipt)
	}
	// Back to back on one replica, each charged less than the price: each
	// voucher builds on the charge the last answer said, which the
	// replica committed before it began the next.
	total := int64(175)
	for range 10 {
		a := r.payMetered(0, p.header("voucher", total+100, 0, 0, r.offer), "/bytes?n=5")
		if a.status != 200 || a.receipt == nil || a.receipt.Extra.ChargedAmount != "5" {
			t.Fatalf("a call of 5 bytes after %d charged: %+v %+v", total, a, a.receipt)
		}
		total += 5
	}
	if got := r.charged(p.id()); got != 225 || r.served.Load() != served+12 {
		t.Fatalf("charged %d (want 175+10×5), served %d more (want 12)", got, r.served.Load()-served)
	}
}

// TestChannelMeteredSeconds: a route metered per second charges the
// seconds begun (a quick answer: one), at most the price.
func TestChannelMeteredSeconds(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(c *paywall.Config) {
		c.Usage = &paywall.Usage{Per: paywall.UsageSeconds, Hold: 1 << 10, Prices: map[string]*big.Int{strings.ToLower(c.Accepts[0].Asset): big.NewInt(7)}}
	})
	p := r.newPayer(7)
	a := r.payMetered(0, p.header("deposit", 100, 1000, 0, r.offer), "/tool")
	if a.status != 200 || a.receipt == nil || a.receipt.Extra.ChargedAmount != "7" || a.body != "tool answer" {
		t.Fatalf("a one-second answer: %+v %+v", a, a.receipt)
	}
	a = r.payMetered(1, p.header("voucher", 107, 0, 0, r.offer), "/tool")
	if a.status != 200 || a.receipt == nil || a.receipt.Extra.ChargedAmount != "7" || a.receipt.Extra.ChannelState.ChargedCumulativeAmount != "14" {
		t.Fatalf("the next: %+v %+v", a, a.receipt)
	}
	if got := r.charged(p.id()); got != 14 {
		t.Fatalf("charged %d, want 14", got)
	}
}

// TestChannelDepositFrontRun: a payer whose deposit verified moves its
// tokens away while its first request is being served (a front-run of the
// deposit's authorization). The deposit fails when the response is
// decided: the upstream's answer is dropped for a 402, nothing is
// charged, and the channel's mirror is the chain's again (no deposit), so
// no voucher verifies against the deposit that never happened.
func TestChannelDepositFrontRun(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	p := r.newPayer(6)
	held := balance(t, r, p.Config.Payer)
	r.during = func() {
		r.send(p.Key, r.d.Token.Address, contracts.NewDevUSD().PackTransfer(r.d.Accounts[9].Address, held))
	}
	a := r.pay(0, p.header("deposit", 100, 1000, 0, r.offer), "/during")
	if a.status != http.StatusPaymentRequired || (a.receipt != nil && a.receipt.Success) {
		t.Fatalf("a deposit front-run while served: %+v %+v", a, a.receipt)
	}
	c, ok, err := r.channels.Get(p.id())
	if err != nil || !ok || c.Charged.Sign() != 0 || c.Balance.Sign() != 0 || c.Hold != nil {
		t.Fatalf("the channel after the failed deposit: %+v (%v %v)", c, ok, err)
	}
	if a := r.pay(1, p.header("voucher", 100, 0, 0, r.offer)); a.status != http.StatusPaymentRequired {
		t.Fatalf("a voucher on the channel whose deposit failed: %+v", a)
	}
}

// TestChannelBadInput: payloads that are not a payer's channel payment get
// a structured 4xx with upstream's code, never a panic or a 5xx, and
// reach no upstream.
func TestChannelBadInput(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	p := r.newPayer(4)
	header := func(payload string) string {
		h, err := x402.EncodeHeader(x402.PaymentPayload{X402Version: x402.Version, Accepted: r.offer, Payload: json.RawMessage(payload)})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	good := p.header("voucher", 100, 0, 0, r.offer)
	var pp x402.PaymentPayload
	if err := x402.DecodeHeader(good, &pp); err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	json.Unmarshal(pp.Payload, &fields)
	with := func(k, v string) string {
		m := map[string]json.RawMessage{}
		for kk, vv := range fields {
			m[kk] = vv
		}
		m[k] = json.RawMessage(v)
		b, _ := json.Marshal(m)
		return header(string(b))
	}
	for _, tc := range []struct {
		name, header string
		status       int
		code         string
	}{
		{"a string", header(`"voucher"`), 400, "malformed_request"},
		{"an unknown type", with("type", `"gift"`), 400, "invalid_batch_settlement_evm_payload_type"},
		{"a claim", header(`{"type":"claim","claims":[],"claimAuthorizerSignature":"0x"}`), 400, "invalid_batch_settlement_evm_claim_payload"},
		{"a ceiling of 2^200", with("voucher", `{"channelId":"`+p.id().Hex()+`","maxClaimableAmount":"`+new(big.Int).Lsh(big.NewInt(1), 200).String()+`","signature":"0x00"}`), 400, "invalid_batch_settlement_evm_voucher_payload"},
		{"another channel's id", with("voucher", `{"channelId":"0x`+strings.Repeat("ab", 32)+`","maxClaimableAmount":"100","signature":"0x00"}`), 402, "invalid_batch_settlement_evm_channel_id_mismatch"},
		{"no channel config", with("channelConfig", `null`), 400, "invalid_batch_settlement_evm_voucher_payload"},
		{"a voucher on no channel", good, 402, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := r.served.Load()
			req, _ := http.NewRequest(http.MethodGet, r.servers[0].URL+"/tool", nil)
			req.Header.Set(x402.HeaderPaymentSignature, tc.header)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			err = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || err != nil || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %s (%v): %v", resp.StatusCode, resp.Header.Get("Content-Type"), err, body)
			}
			if msg, _ := body["error"].(string); !strings.HasPrefix(msg, tc.code) {
				t.Errorf("error %q, want it to start with %q", msg, tc.code)
			}
			if r.served.Load() != before {
				t.Error("the upstream served it")
			}
		})
	}
}

// TestChannelMinDeposit: a deposit below the offer's extra.minDeposit
// (which costs the facilitator a transaction for too little) is refused
// before anything is read or sent; one at the minimum is taken.
func TestChannelMinDeposit(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(c *paywall.Config) {
		extra := *c.Accepts[0].Extra
		extra.MinDeposit = "5000"
		c.Accepts[0].Extra = &extra
	})
	p := r.newPayer(4)
	a := r.pay(0, p.header("deposit", 100, 4999, 0, r.offer))
	if a.status != http.StatusPaymentRequired || a.pr == nil || !strings.HasPrefix(a.pr.Error, channels.CodeDepositBelowMinimum) || r.served.Load() != 0 {
		t.Fatalf("a deposit below the minimum: %+v", a)
	}
	if a := r.pay(1, p.header("deposit", 100, 5000, 0, r.offer)); a.status != http.StatusOK {
		t.Fatalf("a deposit of the minimum: %+v", a)
	}
}

// TestChannelPartialRefundMinimum: a partial refund below the offer's
// minDeposit is refused (each refund is a transaction at the merchant's
// gas), one of at least that, or of everything left, is sent.
func TestChannelPartialRefundMinimum(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(c *paywall.Config) {
		extra := *c.Accepts[0].Extra
		extra.MinDeposit = "1000"
		c.Accepts[0].Extra = &extra
	})
	p := r.newPayer(4)
	if a := r.pay(0, p.header("deposit", 100, 5000, 0, r.offer)); a.status != http.StatusOK {
		t.Fatalf("the deposit: %+v", a)
	}
	r.charged(p.id()) // the deposit's request is committed
	if a := r.pay(0, p.header("refund", 100, 0, 1, r.offer)); a.status != http.StatusPaymentRequired {
		t.Fatalf("a refund of 1: %+v", a)
	}
	if a := r.pay(1, p.header("refund", 100, 0, 1000, r.offer)); a.status != http.StatusOK || a.receipt.Amount != "1000" {
		t.Fatalf("a refund of 1000: %+v %+v", a, a.receipt)
	}
	if a := r.pay(0, p.header("refund", 100, 0, 0, r.offer)); a.status != http.StatusOK || a.receipt.Amount != "3900" {
		t.Fatalf("a refund of the rest: %+v %+v %+v", a, a.receipt, a.pr)
	}
}

// TestChannelSponsorshipBudget: the deposits and refunds a merchant pays
// the gas of are counted per payer across the replicas (one store): with
// 2 a payer, a deposit and a refund use them, and the payer's next deposit
// is refused with 429 and Retry-After before anything is sent, on either
// replica, while another payer still deposits and vouchers are never
// counted.
func TestChannelSponsorshipBudget(t *testing.T) {
	t.Parallel()
	r := newRigWith(t, func(c *channels.Config, st *store.Store) {
		sp, err := store.OpenSponsored(st)
		if err != nil {
			t.Fatal(err)
		}
		c.Sponsored, c.SponsoredLimits = sp, store.SponsoredLimits{PerPayer: 2, Total: 10, Window: time.Hour}
	})
	p := r.newPayer(4)
	// Deposits refused before anything was sent (a voucher's ceiling that
	// is not the price) cost no gas, and count nothing.
	for i := range 3 {
		if a := r.pay(i%2, p.header("deposit", 150, 1000, 0, r.offer)); a.status != http.StatusPaymentRequired {
			t.Fatalf("a deposit with a mismatched ceiling: %+v", a)
		}
	}
	if a := r.pay(0, p.header("deposit", 100, 1000, 0, r.offer)); a.status != 200 {
		t.Fatalf("the first deposit: %+v", a)
	}
	r.charged(p.id())
	for i := range 3 {
		if a := r.pay(i%2, p.header("voucher", int64(200+100*i), 0, 0, r.offer)); a.status != 200 {
			t.Fatalf("voucher %d: %+v", i, a)
		}
		r.charged(p.id())
	}
	if a := r.pay(1, p.header("refund", 400, 0, 0, r.offer)); a.status != 200 {
		t.Fatalf("the refund: %+v", a)
	}
	served, sent := r.served.Load(), r.sent()
	q := r.newPayer(4) // the same payer, a new channel
	q.Config.Salt[0] ^= 1
	for i := range 2 {
		req, _ := http.NewRequest(http.MethodGet, r.servers[i].URL+"/tool", nil)
		req.Header.Set(x402.HeaderPaymentSignature, q.header("deposit", 100, 1000, 0, r.offer))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), channels.CodeSponsorshipExhausted) || retry < 3500 || retry > 3601 {
			t.Fatalf("a third sponsored transaction of one payer on replica %d: %d, Retry-After %d, %s", i, resp.StatusCode, retry, body)
		}
	}
	if r.served.Load() != served || r.sent() != sent {
		t.Fatalf("a refused deposit reached the upstream (%d more) or the chain (%d more transactions)", r.served.Load()-served, r.sent()-sent)
	}
	if a := r.pay(0, r.newPayer(5).header("deposit", 100, 1000, 0, r.offer)); a.status != 200 {
		t.Fatalf("another payer's deposit: %+v", a)
	}
}

// countingKV counts the writes of the channels' space.
type countingKV struct {
	store.EarlyKV
	writes atomic.Int64
}

func (c *countingKV) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	c.writes.Add(1)
	return c.EarlyKV.Update(key, fn)
}

func (c *countingKV) UpdateEarly(key []byte, fn func(old []byte) ([]byte, error)) (func() error, error) {
	c.writes.Add(1)
	return c.EarlyKV.UpdateEarly(key, fn)
}

// TestChannelCommitFolded: back-to-back vouchers of a channel on one
// replica write the store once each (the hold, with the last request's
// commit), not twice (a hold, then a commit); Close commits the last
// charge still waiting. Charged totals are the same either way.
func TestChannelCommitFolded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		delay time.Duration
	}{
		{"folded", time.Hour}, // nothing commits alone but Close
		{"alone", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ck *countingKV
			r := newRigWith(t, func(c *channels.Config, st *store.Store) {
				if ck == nil {
					kv, err := st.Bucket(store.ChannelBucket)
					if err != nil {
						t.Fatal(err)
					}
					ck = &countingKV{EarlyKV: kv.(store.EarlyKV)}
				}
				c.Store, c.CommitDelay = store.NewChannels(ck), tc.delay
			})
			p := r.newPayer(4)
			if a := r.pay(0, p.header("deposit", 100, 5000, 0, r.offer)); a.status != 200 {
				t.Fatalf("the deposit: %+v", a)
			}
			if tc.delay < 0 {
				r.charged(p.id()) // the deposit's commit, after its handler returned
			}
			before := ck.writes.Load()
			const n = 10
			for i := range n {
				max := int64(200 + 100*i)
				if a := r.pay(0, p.header("voucher", max, 0, 0, r.offer)); a.status != 200 || a.receipt.Extra.ChannelState.ChargedCumulativeAmount != strconv.FormatInt(max, 10) {
					t.Fatalf("voucher %d: %+v", i, a)
				}
			}
			// Close waits for the last charge's commit (after its handler
			// returned), and commits one still waiting for a next hold.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := r.srvs[0].Close(ctx); err != nil {
				t.Fatal(err)
			}
			writes := ck.writes.Load() - before
			t.Logf("%d vouchers wrote the channels' space %d times", n, writes)
			if tc.delay > 0 && writes != n+1 {
				t.Errorf("%d writes for %d vouchers, want one each and the last commit", writes, n)
			}
			if tc.delay < 0 && writes != 2*n {
				t.Errorf("%d writes for %d vouchers committed alone, want two each", writes, n)
			}
			c, _, err := r.channels.Get(p.id())
			if err != nil || c.Hold != nil || c.Charged.Int64() != 100*(n+1) || c.Voucher == nil || c.Voucher.Max.Int64() != 100*(n+1) {
				t.Fatalf("after Close: %+v, %v; want %d charged and no hold", c, err, 100*(n+1))
			}
		})
	}
}

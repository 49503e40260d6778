package sender

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/devnet"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want error
	}{
		{&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, ErrUnreachable},
		{fmt.Errorf("Post \"http://x\": %w", &net.OpError{Op: "dial", Err: errors.New("boom")}), ErrUnreachable},
		{errors.New("nonce too low: next nonce 7, tx nonce 5"), ErrNonceTooLow},
		{errors.New("insufficient funds for gas * price + value"), ErrRejected},
		{errors.New("replacement transaction underpriced"), ErrRejected},
		{errors.New("replacement transaction underpriced"), errNonceHeld},
		{errors.New("txpool is full"), ErrRejected},
		{errors.New("txpool is full"), errPrice},
		{errors.New("transaction underpriced"), errPrice},
		{errors.New("transaction gas price below minimum: gas tip cap 1, minimum needed 1000000"), errPrice},
		{errors.New("max fee per gas less than block base fee: address 0x, maxFeePerGas: 1, baseFee: 7"), errPrice},
		{errors.New("tx fee (8.00 ether) exceeds the configured cap (1.00 ether)"), ErrRejected},
		{errors.New("transaction gas limit too high (cap: 16777216, tx: 17981685)"), ErrRejected},
		{errors.New("already known"), errAlreadyKnown},
		{errors.New("context deadline exceeded"), nil},
	}
	for _, tc := range tests {
		got := classify(tc.err)
		if tc.want == nil {
			for _, s := range []error{ErrUnreachable, ErrNonceTooLow, ErrRejected, errAlreadyKnown, errPrice, errNonceHeld} {
				if errors.Is(got, s) {
					t.Errorf("classify(%v) = %v; an ambiguous error must stay unclassified", tc.err, got)
				}
			}
			continue
		}
		if !errors.Is(got, tc.want) {
			t.Errorf("classify(%v) = %v, want %v", tc.err, got, tc.want)
		}
		if errors.Is(got, errNonceHeld) && errors.Is(got, errPrice) {
			t.Errorf("classify(%v) = %v: both held and priced", tc.err, got)
		}
	}
	if classify(nil) != nil {
		t.Error("classify(nil) != nil")
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	if err := (Config{}).Validate(); err == nil {
		t.Fatal("empty config accepted")
	}
	key, _ := crypto.GenerateKey()
	good := Config{Backend: &ethclient.Client{}, Batcher: &rpc.Client{}, Key: key, ChainID: big.NewInt(1)}
	if err := good.Validate(); err != nil {
		t.Fatalf("good config: %v", err)
	}
	for name, mutate := range map[string]func(*Config){
		"negative check interval": func(c *Config) { c.CheckInterval = -time.Second },
		"negative replace after":  func(c *Config) { c.ReplaceAfter = -time.Second },
		"zero fee ceiling":        func(c *Config) { c.MaxFeePerGas = new(big.Int) },
	} {
		c := good
		mutate(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func startChain(t *testing.T) (*devnet.Devnet, *rpc.Client, *ethclient.Client) {
	t.Helper()
	return startChainWith(t, devnet.Config{})
}

// startChainWith starts a devnet on a free port and dials it.
func startChainWith(t *testing.T, cfg devnet.Config) (*devnet.Devnet, *rpc.Client, *ethclient.Client) {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	d, err := devnet.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	rc, eth := dial(t, d.URL)
	return d, rc, eth
}

func dial(t *testing.T, url string) (*rpc.Client, *ethclient.Client) {
	t.Helper()
	rc, err := rpc.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	return rc, ethclient.NewClient(rc)
}

// newSender returns a Sender that is closed when the test ends.
func newSender(t *testing.T, cfg Config) *Sender {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// waitLimit is how long a test waits for something that must happen (a
// receipt, a condition) before it calls it lost. It is no measure of
// speed: a loaded 2-core machine running the race detector takes seconds
// where an idle one takes milliseconds, and a deadline of a few seconds
// made tests fail there (TestLostBatchIsBroadcastAgain's payers waited at
// most 5 s).
const waitLimit = 2 * time.Minute

// waitFor polls cond until it holds, or fails the test after waitLimit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		<-tick.C
	}
}

// waiting reports whether a transaction with this nonce waits in Send for
// a lower nonce.
func (s *Sender) waiting(nonce uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.ready[nonce]
	return ok
}

// senderGoroutines counts the goroutines running code of a Sender.
func senderGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.Contains(g, []byte("facilitator/sender.(*Sender).")) || bytes.Contains(g, []byte("facilitator/sender.New.")) {
			count++
		}
	}
	return count
}

// TestMain fails the package if a Sender's goroutine outlives the tests,
// every one of which closes its Senders.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if n := senderGoroutines(); n > 0 {
			fmt.Fprintf(os.Stderr, "%d goroutines of a Sender outlived the tests\n", n)
			code = 1
		}
	}
	os.Exit(code)
}

// Close stops the loop and waits for the deliveries Release started; no
// goroutine of the Sender is left.
func TestCloseStopsLoop(t *testing.T) {
	// Not parallel: it counts every Sender goroutine of the process.
	d, rc, eth := startChain(t)
	before := senderGoroutines()
	s, err := New(Config{Backend: eth, Batcher: rc, Key: d.Accounts[7].Key, ChainID: d.ChainID, CheckInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the loop runs", func() bool { return senderGoroutines() > before })
	ctx := context.Background()
	tx, err := s.Sign(ctx, d.Accounts[4].Address, nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, tx); err != nil {
		t.Fatal(err)
	}
	released, err := s.Sign(ctx, d.Accounts[4].Address, nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	s.Release(released.Nonce())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := senderGoroutines(); n != before {
		t.Fatalf("%d goroutines of the Sender outlived Close", n-before)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	// Send and Wait still work after Close.
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	if r, err := s.Wait(wctx, tx.Hash()); err != nil || r.Status != 1 {
		t.Fatalf("wait after Close: %v, %v", r, err)
	}
	if n := senderGoroutines(); n != before {
		t.Fatalf("%d goroutines of the Sender outlived Close", n-before)
	}
}

// Transactions handed to Send out of nonce order are delivered in order, and
// a released nonce is filled so the ones after it are mined.
func TestOrderedDeliveryAndRelease(t *testing.T) {
	t.Parallel()
	d, rc, eth := startChain(t)
	key := d.Accounts[3].Key
	s := newSender(t, Config{Backend: eth, Batcher: rc, Key: key, ChainID: d.ChainID})
	ctx := context.Background()
	to := d.Accounts[4].Address
	var txs []*types.Transaction
	for i := 0; i < 6; i++ {
		tx, err := s.Sign(ctx, to, nil, 21_000)
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	// Release nonce 2; send the rest backwards, concurrently.
	s.Release(txs[2].Nonce())
	var wg sync.WaitGroup
	for i := len(txs) - 1; i >= 0; i-- {
		if i == 2 {
			continue
		}
		wg.Add(1)
		go func(tx *types.Transaction) {
			defer wg.Done()
			if err := s.Send(ctx, tx); err != nil {
				t.Errorf("send nonce %d: %v", tx.Nonce(), err)
			}
		}(txs[i])
		if i > 0 {
			// Make the reverse order real: it waits for the lower nonces.
			waitFor(t, fmt.Sprintf("nonce %d waits", txs[i].Nonce()), func() bool { return s.waiting(txs[i].Nonce()) })
		}
	}
	wg.Wait()
	for i, tx := range txs {
		if i == 2 {
			continue
		}
		wctx, cancel := context.WithTimeout(ctx, waitLimit)
		r, err := s.Wait(wctx, tx.Hash())
		cancel()
		if err != nil || r.Status != 1 {
			t.Fatalf("nonce %d: receipt %v, %v", tx.Nonce(), r, err)
		}
	}
	nonce, _ := eth.NonceAt(ctx, s.Address(), nil)
	if nonce != txs[5].Nonce()+1 {
		t.Fatalf("account nonce %d, want %d (the released nonce filled)", nonce, txs[5].Nonce()+1)
	}
	if _, err := eth.TransactionReceipt(ctx, txs[2].Hash()); err == nil {
		t.Fatal("the released transaction itself was mined")
	}
}

func TestSendToDeadNode(t *testing.T) {
	t.Parallel()
	d, _, _ := startChain(t)
	// No keep-alive: once the node is down, a request fails to connect
	// (unreachable) rather than dying on a reused connection (ambiguous).
	rc, err := rpc.DialOptions(context.Background(), d.URL, rpc.WithHTTPClient(&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	eth := ethclient.NewClient(rc)
	s := newSender(t, Config{Backend: eth, Batcher: rc, Key: d.Accounts[5].Key, ChainID: d.ChainID})
	tx, err := s.Sign(context.Background(), d.Accounts[4].Address, nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if err := s.Send(context.Background(), tx); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("send to a dead node: %v", err)
	}
	if _, err := s.Sign(context.Background(), d.Accounts[4].Address, nil, 21_000); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("sign with a dead node: %v", err)
	}
}

package sender

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
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
		{errors.New("transaction gas limit too high (cap: 16777216, tx: 17981685)"), ErrRejected},
		{errors.New("already known"), errAlreadyKnown},
		{errors.New("context deadline exceeded"), nil},
	}
	for _, tc := range tests {
		got := classify(tc.err)
		if tc.want == nil {
			for _, s := range []error{ErrUnreachable, ErrNonceTooLow, ErrRejected, errAlreadyKnown} {
				if errors.Is(got, s) {
					t.Errorf("classify(%v) = %v; an ambiguous error must stay unclassified", tc.err, got)
				}
			}
			continue
		}
		if !errors.Is(got, tc.want) {
			t.Errorf("classify(%v) = %v, want %v", tc.err, got, tc.want)
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
}

func startChain(t *testing.T) (*devnet.Devnet, *rpc.Client, *ethclient.Client) {
	t.Helper()
	d, err := devnet.Start(context.Background(), devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	rc, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	return d, rc, ethclient.NewClient(rc)
}

// Transactions handed to Send out of nonce order are delivered in order, and
// a released nonce is filled so the ones after it are mined.
func TestOrderedDeliveryAndRelease(t *testing.T) {
	t.Parallel()
	d, rc, eth := startChain(t)
	key := d.Accounts[3].Key
	s, err := New(Config{Backend: eth, Batcher: rc, Key: key, ChainID: d.ChainID})
	if err != nil {
		t.Fatal(err)
	}
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
		time.Sleep(10 * time.Millisecond) // make the reverse order real
	}
	wg.Wait()
	for i, tx := range txs {
		if i == 2 {
			continue
		}
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
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
	s, err := New(Config{Backend: eth, Batcher: rc, Key: d.Accounts[5].Key, ChainID: d.ChainID})
	if err != nil {
		t.Fatal(err)
	}
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

package sender

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
)

// notMined asserts that the node, once it can tell, does not know a
// receipt of hash: it looks again while the node answers that its
// transaction indexer is behind, which a loaded go-ethereum does for a
// moment after each block.
func notMined(t *testing.T, eth *ethclient.Client, hash common.Hash, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		_, err := eth.TransactionReceipt(ctx, hash)
		if !Indexing(err) {
			if !errors.Is(err, ethereum.NotFound) {
				t.Fatalf("%s: %v, want not found", what, err)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: the node still indexes: %v", what, err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Indexing knows go-ethereum's "transaction indexing is in progress" as
// ethclient returns it, and nothing else. A fresh devnet answers it for
// every unknown transaction until its first block (its indexer starts
// with the first head), as a real node does while it indexes.
func TestIndexing(t *testing.T) {
	t.Parallel()
	d, rc, eth := startChain(t)
	p := newFaultProxy(t, d.URL)
	_, proxied := dial(t, p.URL)
	ctx := context.Background()
	unknown := common.HexToHash("0x5eed")
	_, fresh := eth.TransactionReceipt(ctx, unknown)
	_, _, freshByHash := eth.TransactionByHash(ctx, unknown)
	p.indexingFor(unknown, 1)
	_, relayed := proxied.TransactionReceipt(ctx, unknown)
	if n := p.indexedCount(); n != 1 {
		t.Fatalf("the proxy answered %d lookups with the indexing error, want 1", n)
	}
	to := d.Accounts[4].Address
	starved, err := types.SignNewTx(d.Accounts[1].Key, types.LatestSignerForChainID(d.ChainID), &types.LegacyTx{Nonce: 0, To: &to, Gas: 1, GasPrice: big.NewInt(1_000_000_000)})
	if err != nil {
		t.Fatal(err)
	}
	refused := eth.SendTransaction(ctx, starved)
	// A block, after which the indexer catches up and the node can say
	// "not found".
	s := newSender(t, Config{Backend: eth, Batcher: rc, Key: d.Accounts[7].Key, ChainID: d.ChainID})
	mined, err := s.Sign(ctx, to, nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, mined); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Wait(ctx, mined.Hash()); err != nil {
		t.Fatal(err)
	}
	notMined(t, eth, unknown, "an unknown transaction after a block")
	_, notFound := eth.TransactionReceipt(ctx, unknown)
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"receipt lookup on a fresh chain", fresh, true},
		{"transaction lookup on a fresh chain", freshByHash, true},
		{"relayed by a gateway", relayed, true},
		{"wrapped", fmt.Errorf("reading a receipt: %w", fresh), true},
		{"message only, as another client may relay it", errors.New("Transaction indexing is in progress"), true},
		{"not found", notFound, false},
		{"a refused transaction", refused, false},
		{"no error", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.err == nil && tc.name != "no error" {
				t.Fatal("the node gave no error")
			}
			if got := Indexing(tc.err); got != tc.want {
				t.Fatalf("Indexing(%v) = %v, want %v", tc.err, got, tc.want)
			}
			if tc.want && errors.Is(tc.err, ethereum.NotFound) {
				t.Fatalf("%v reads as not found", tc.err)
			}
		})
	}
}

// Wait reads a node that answers its receipt lookups with "transaction
// indexing is in progress" as one that has no receipt yet: it waits, and
// returns the receipt once the node gives it.
func TestWaitThroughIndexing(t *testing.T) {
	t.Parallel()
	d, _, _ := startChain(t)
	p := newFaultProxy(t, d.URL)
	rc, eth := dial(t, p.URL)
	s := newSender(t, Config{Backend: eth, Batcher: rc, Key: d.Accounts[7].Key, ChainID: d.ChainID})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tx, err := s.Sign(ctx, d.Accounts[4].Address, nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	const times = 3
	p.indexingFor(tx.Hash(), times)
	if err := s.Send(ctx, tx); err != nil {
		t.Fatal(err)
	}
	r, err := s.Wait(ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful || r.TxHash != tx.Hash() {
		t.Fatalf("wait: %v, %v", r, err)
	}
	if n := p.indexedCount(); n != times {
		t.Fatalf("the proxy answered %d lookups with the indexing error, want %d", n, times)
	}
}

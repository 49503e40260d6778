package sender

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// countingBatcher counts the batches that read receipts and the new-head
// subscriptions made through it.
type countingBatcher struct {
	*rpc.Client
	receiptBatches atomic.Int64
	subscriptions  atomic.Int64
}

func (c *countingBatcher) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	if len(b) > 0 && b[0].Method == "eth_getTransactionReceipt" {
		c.receiptBatches.Add(1)
	}
	return c.Client.BatchCallContext(ctx, b)
}

func (c *countingBatcher) EthSubscribe(ctx context.Context, channel any, args ...any) (*rpc.ClientSubscription, error) {
	c.subscriptions.Add(1)
	return c.Client.EthSubscribe(ctx, channel, args...)
}

// Concurrent Waits share the watcher: their receipts are read in batches,
// fewer rounds than Waits, not a poll loop each; over HTTP (no subscriptions)
// and in process (a round on each new head).
func TestWaitsShareOneWatcher(t *testing.T) {
	t.Parallel()
	for _, inProcess := range []bool{false, true} {
		name := "http"
		if inProcess {
			name = "in-process"
		}
		t.Run(name, func(t *testing.T) {
			d, rc, _ := startChain(t)
			if inProcess {
				rc = d.Attach()
				t.Cleanup(rc.Close)
			}
			counter := &countingBatcher{Client: rc}
			s := newSender(t, Config{Backend: ethclient.NewClient(rc), Batcher: counter, Key: d.Accounts[6].Key, ChainID: d.ChainID})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			// Few enough blocks that the devnet seals them at once (see
			// devnet.MaxClockLead), however they are spread.
			const n = 12
			txs := make([]*types.Transaction, n)
			for i := range txs {
				tx, err := s.Sign(ctx, d.Accounts[5].Address, nil, 21_000)
				if err != nil {
					t.Fatal(err)
				}
				txs[i] = tx
			}
			var wg sync.WaitGroup
			for _, tx := range txs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := s.Send(ctx, tx); err != nil {
						t.Errorf("send: %v", err)
						return
					}
					r, err := s.Wait(ctx, tx.Hash())
					if err != nil || r.TxHash != tx.Hash() || r.Status != types.ReceiptStatusSuccessful {
						t.Errorf("wait %s: %v, %v", tx.Hash(), r, err)
					}
				}()
			}
			wg.Wait()
			batches := counter.receiptBatches.Load()
			t.Logf("%d Waits: %d receipt batches, %d subscriptions", n, batches, counter.subscriptions.Load())
			if batches >= n {
				t.Errorf("%d receipt batches for %d Waits: not shared", batches, n)
			}
			if inProcess && counter.subscriptions.Load() == 0 {
				t.Error("the in-process connection takes subscriptions, but the watcher did not subscribe")
			}
			if !inProcess && counter.subscriptions.Load() != 0 {
				t.Error("subscribed over HTTP")
			}
		})
	}
}

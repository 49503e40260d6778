package facilitator

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/x402"
)

// mineBlock seals a block on the on-demand devnet with a transfer of its
// own, from an account no payment uses.
func (e *env) mineBlock() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	from := e.chain.Accounts[7]
	nonce, err := e.eth.PendingNonceAt(ctx, from.Address)
	if err != nil {
		e.t.Fatal(err)
	}
	head, err := e.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	to := e.chain.Accounts[8].Address
	tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &to, Gas: 21_000,
		GasTipCap: big.NewInt(1_000_000_000), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(3)), big.NewInt(1_000_000_000)),
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.chain.Wait(ctx, tx.Hash()); err != nil {
		var status map[string]any
		e.rpc.Call(&status, "txpool_status")
		e.t.Fatalf("mining a block: %v (pool %v)", err, status)
	}
}

// A reorganisation 1 to 3 blocks deep after a settlement was reported
// (Confirmations 0, the devnet's default): the finality watcher notices,
// and a transaction the new branch dropped is broadcast again and mined
// again, so the merchant is paid once, as the answer said.
func TestReorgAfterSettle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.stop()
	e.cfg.FinalityCheck = 20 * time.Millisecond
	e.start()
	merchant := e.chain.Accounts[9].Address
	for _, c := range []struct {
		depth uint64
		keep  bool
	}{{1, false}, {2, false}, {3, false}, {2, true}} {
		t.Run(fmt.Sprintf("depth=%d/keep=%v", c.depth, c.keep), func(t *testing.T) {
			before := e.balance(merchant)
			reorgs := e.svc.Reorganised()
			res, err := e.svc.Settle(context.Background(), e.pay(e.chain.Accounts[1], merchant, 1_000))
			if err != nil || !res.Success {
				t.Fatalf("settle: %+v, %v", res, err)
			}
			for range c.depth - 1 {
				e.mineBlock()
			}
			waitUntil(t, "the watcher follows the settlement", func() bool {
				e.svc.final.mu.Lock()
				defer e.svc.final.mu.Unlock()
				return len(e.svc.final.fresh) == 0
			})
			replaced, err := e.chain.Reorg(c.depth, c.keep)
			if err != nil {
				t.Fatal(err)
			}
			old, _ := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
			if old != nil && old.BlockHash == replaced[len(replaced)-1] {
				t.Fatal("the settlement is still in its replaced block")
			}
			waitUntil(t, "the watcher notices the reorganisation", func() bool { return e.svc.Reorganised().Total() > reorgs.Total() })
			// Counted once, as moved or dropped: which depends on whether
			// the transaction is in the new branch when the watcher looks
			// (a dropped one may have been broadcast again and mined).
			if got := e.svc.Reorganised(); got.Total() != reorgs.Total()+1 || got.Reverted != reorgs.Reverted {
				t.Errorf("reorganisations %+v, then %+v", reorgs, got)
			}
			var receipt *types.Receipt
			waitUntil(t, "the settlement is mined again", func() bool {
				receipt, _ = e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
				// Not the receipt of a replaced block, which the node's
				// index may still hold for a moment.
				return receipt != nil && !slices.Contains(replaced, receipt.BlockHash)
			})
			if receipt.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("mined again and reverted: %+v", receipt)
			}
			if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 1_000 {
				t.Fatalf("the merchant got %s, want 1000 once", got)
			}
		})
	}
}

// With Confirmations, a settle is not reported final until its block is
// that deep; a reorganisation that drops its transaction before then is
// not reported at all: the settle broadcasts it again and counts again.
func TestConfirmationsSurviveReorg(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{receiptTimeout: time.Minute})
	e.stop()
	e.cfg.Confirmations = 2
	e.start()
	merchant := e.chain.Accounts[9].Address
	before := e.balance(merchant)
	settler := e.svc.Settler()
	nonce, err := e.eth.NonceAt(context.Background(), settler, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *x402.SettleResponse, 1)
	go func() {
		res, err := e.svc.Settle(context.Background(), e.pay(e.chain.Accounts[2], merchant, 700))
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	waitUntil(t, "the settlement is mined", func() bool {
		n, _ := e.eth.NonceAt(context.Background(), settler, nil)
		return n > nonce
	})
	select {
	case res := <-done:
		t.Fatalf("answered with no confirmation: %+v", res)
	default:
	}
	if _, err := e.chain.Reorg(1, false); err != nil {
		t.Fatal(err)
	}
	if n, _ := e.eth.NonceAt(context.Background(), settler, nil); n != nonce {
		t.Fatalf("the settler's nonce is %d after the reorganisation, want %d", n, nonce)
	}
	var res *x402.SettleResponse
	for res == nil {
		select {
		case res = <-done:
		default:
			e.mineBlock()
		}
	}
	if !res.Success {
		t.Fatalf("settle: %+v", res)
	}
	receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
	if err != nil {
		t.Fatalf("the reported transaction is not on the chain: %v", err)
	}
	head, _ := e.eth.BlockNumber(context.Background())
	if head < receipt.BlockNumber.Uint64()+2 {
		t.Fatalf("reported at block %d with its transaction in block %d: fewer than 2 confirmations", head, receipt.BlockNumber.Uint64())
	}
	if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 700 {
		t.Fatalf("the merchant got %s, want 700 once", got)
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

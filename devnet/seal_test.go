package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// The sealer and the chain clock: block periods, time adjustment, the
// clock's lead over the wall clock, reorganisations, sealing on demand
// under load, and the bounded waits.

func TestBlockPeriod(t *testing.T) {
	t.Parallel()
	c := start(t, Config{BlockPeriod: time.Second})
	ctx := context.Background()
	first, err := c.client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		n, err := c.client.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n >= first+2 {
			return // blocks are sealed without transactions
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("no blocks sealed with a 1 s period")
}

func TestAdjustTime(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	before, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AdjustTime(time.Hour); err != nil {
		t.Fatal(err)
	}
	after, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if after.Time < before.Time+3600 {
		t.Fatalf("block time moved from %d to %d, want +3600", before.Time, after.Time)
	}
}

func TestPortInUse(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	addr := c.URL[len("http://"):]
	_, err := Start(context.Background(), Config{Addr: addr})
	if err == nil {
		t.Fatal("second devnet started on a busy port")
	}
	t.Logf("busy port: %v", err)
}

// transfer signs and sends a transfer of 1 wei with nonce, and returns it
// without waiting for it to be mined.
func (c *chain) transfer(ctx context.Context, key *ecdsa.PrivateKey, to common.Address, nonce uint64) (*types.Transaction, error) {
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, err
	}
	tip := big.NewInt(1_000_000_000)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.ChainID), &types.DynamicFeeTx{
		ChainID: c.ChainID, Nonce: nonce, To: &to, Value: big.NewInt(1), Gas: 21_000,
		GasTipCap: tip, GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
	})
	if err != nil {
		return nil, err
	}
	return tx, c.client.SendTransaction(ctx, tx)
}

// manualClock is a clock that moves only when the test moves it. After
// hands each timer to the test on timers, so the test sees the sealer
// wait, and fires it itself.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers chan manualTimer
}

// manualTimer is a timer the sealer started: it waits d.
type manualTimer struct {
	d    time.Duration
	fire chan time.Time
}

func newManualClock() *manualClock {
	// Buffered, so that a timer the test does not take cannot hold the
	// sealer (and Close, which waits for it).
	return &manualClock{timers: make(chan manualTimer, 16)}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *manualClock) After(d time.Duration) <-chan time.Time {
	t := manualTimer{d: d, fire: make(chan time.Time, 1)}
	c.timers <- t
	return t.fire
}

// The on-demand sealer never seals on a parent stamped more than
// MaxClockLead after its clock: with the chain pushed past the lead, a
// transaction waits for exactly the excess, no block is sealed while it
// waits, and the block sealed once the clock has moved is stamped
// MaxClockLead plus one second ahead, no more. The clock is the test's, so
// nothing here depends on how fast the machine is.
func TestClockLeadIsBounded(t *testing.T) {
	t.Parallel()
	clk := newManualClock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := startWith(ctx, Config{Addr: "127.0.0.1:0"}, options{clk: clk})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	client, err := ethclient.DialContext(ctx, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	c := &chain{Devnet: d, t: t, client: client}

	genesis, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	clk.set(time.Unix(int64(genesis.Time), 0))
	// A block stamped an hour past the lead, as a burst of blocks or a
	// test's AdjustTime leaves the chain.
	const ahead = MaxClockLead + time.Hour
	if err := d.AdjustTime(ahead); err != nil {
		t.Fatal(err)
	}
	parent, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if parent.Time != genesis.Time+uint64(ahead/time.Second) {
		t.Fatalf("adjusted block at %d, want %d", parent.Time, genesis.Time+uint64(ahead/time.Second))
	}
	for i, want := range []time.Duration{time.Hour, time.Second, time.Second} {
		tx, err := c.transfer(ctx, c.Accounts[2].Key, c.Accounts[3].Address, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		mined := make(chan *types.Receipt, 1)
		go func() {
			if r, err := d.Wait(ctx, tx.Hash()); err == nil {
				mined <- r
			}
		}()
		var timer manualTimer
		select {
		case timer = <-clk.timers:
		case r := <-mined:
			t.Fatalf("transaction %d mined in block %d at %d without waiting; clock at %d", i, r.BlockNumber, parent.Time, clk.Now().Unix())
		case <-ctx.Done():
			t.Fatalf("transaction %d: the sealer neither sealed nor waited", i)
		}
		if timer.d != want {
			t.Fatalf("transaction %d: the sealer waits %v on a parent %v ahead, want %v",
				i, timer.d, time.Unix(int64(parent.Time), 0).Sub(clk.Now()), want)
		}
		// The sealer is waiting on the timer: nothing is sealed meanwhile.
		if head, err := client.HeaderByNumber(ctx, nil); err != nil || head.Hash() != parent.Hash() {
			t.Fatalf("transaction %d: head %v (%v) while the sealer waits, want block %d", i, head.Number, err, parent.Number)
		}
		now := clk.Now().Add(timer.d)
		clk.set(now)
		timer.fire <- now
		var r *types.Receipt
		select {
		case r = <-mined:
		case <-ctx.Done():
			t.Fatalf("transaction %d not mined once the clock moved", i)
		}
		block, err := client.HeaderByHash(ctx, r.BlockHash)
		if err != nil {
			t.Fatal(err)
		}
		if block.ParentHash != parent.Hash() {
			t.Fatalf("transaction %d mined in block %d, want the one after %d", i, block.Number, parent.Number)
		}
		if lead := time.Unix(int64(block.Time), 0).Sub(now); lead != MaxClockLead+time.Second {
			t.Fatalf("transaction %d: block stamped %v ahead of the clock, want %v", i, lead, MaxClockLead+time.Second)
		}
		parent = block
	}
}

// Reorg replaces the latest blocks: kept transactions are mined again in
// a block of another hash, dropped ones are gone until sent again.
func TestReorg(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx := context.Background()
	to := c.Accounts[5].Address
	for _, depth := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("keep/depth=%d", depth), func(t *testing.T) {
			receipt := c.send(c.Accounts[1].Key, to, nil, 21_000)
			for range depth - 1 { // bury it, so the reorg replaces depth blocks
				c.send(c.Accounts[2].Key, to, nil, 21_000)
			}
			head, _ := c.client.BlockNumber(ctx)
			replaced, err := c.Reorg(depth, true)
			if err != nil {
				t.Fatal(err)
			}
			if uint64(len(replaced)) != depth || !slices.Contains(replaced, receipt.BlockHash) {
				t.Fatalf("replaced %v, want %d blocks with %s", replaced, depth, receipt.BlockHash)
			}
			after, err := c.client.TransactionReceipt(ctx, receipt.TxHash)
			if err != nil {
				t.Fatalf("the kept transaction is not mined again: %v", err)
			}
			if after.BlockHash == receipt.BlockHash {
				t.Fatalf("still in block %s", after.BlockHash)
			}
			if now, _ := c.client.BlockNumber(ctx); now != head+1 {
				t.Fatalf("head %d after replacing %d blocks of %d, want %d", now, depth, head, head+1)
			}
		})
	}
	t.Run("drop", func(t *testing.T) {
		before, _ := c.client.BalanceAt(ctx, to, nil)
		tx := c.send(c.Accounts[3].Key, to, nil, 21_000)
		if _, err := c.Reorg(1, false); err != nil {
			t.Fatal(err)
		}
		if err := c.lookUp(tx.TxHash); !errors.Is(err, ethereum.NotFound) {
			t.Fatalf("the dropped transaction: %v, want not found", err)
		}
		if after, _ := c.client.BalanceAt(ctx, to, nil); after.Cmp(before) != 0 {
			t.Fatalf("balance %s after the reorg, want %s", after, before)
		}
		// The chain goes on: new transactions are mined.
		c.send(c.Accounts[6].Key, to, nil, 21_000)
	})
	t.Run("subscription", func(t *testing.T) {
		rc := c.Attach()
		defer rc.Close()
		heads := make(chan *types.Header, 8)
		sub, err := rc.EthSubscribe(ctx, heads, "newHeads")
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		c.send(c.Accounts[4].Key, to, nil, 21_000)
		select {
		case h := <-heads:
			if h.Number.Sign() <= 0 {
				t.Fatalf("head %v", h.Number)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no new head on the in-process connection")
		}
	})
}

// A burst of transactions, far more events than the seal loop's channel
// holds, is mined: the loop drains the pool's events while it seals (it
// used to stop reading them, and the pool's feed and the sealing waited on
// each other for ever). Six accounts send 200 transactions each, every
// account's in one JSON-RPC batch, all at once; the test then waits for
// every account's nonce to reach 200. It used to send them one request at
// a time and wait for each receipt within 2 minutes, which a loaded
// machine with the race detector did not always manage (twice in a
// -count=3 run): that timed the machine, not the loop.
func TestSealOnDemandUnderLoad(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rc, err := rpc.DialContext(ctx, c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	const perAccount = 200
	tip := big.NewInt(1_000_000_000)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), tip)
	to := c.Accounts[9].Address
	senders := c.Accounts[1:7]
	var wg sync.WaitGroup
	for _, a := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			batch := make([]rpc.BatchElem, perAccount)
			for n := range uint64(perAccount) {
				tx, err := types.SignNewTx(a.Key, types.LatestSignerForChainID(c.ChainID), &types.DynamicFeeTx{
					ChainID: c.ChainID, Nonce: n, To: &to, Gas: 21_000, GasTipCap: tip, GasFeeCap: feeCap,
				})
				if err != nil {
					t.Error(err)
					return
				}
				raw, err := tx.MarshalBinary()
				if err != nil {
					t.Error(err)
					return
				}
				batch[n] = rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{hexutil.Encode(raw)}, Result: new(common.Hash)}
			}
			if err := rc.BatchCallContext(ctx, batch); err != nil {
				t.Errorf("sending %s's batch: %v", a.Address, err)
				return
			}
			for n, e := range batch {
				if e.Error != nil {
					t.Errorf("%s's transaction %d: %v", a.Address, n, e.Error)
					return
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, a := range senders {
		for pause := 5 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
			n, err := c.client.NonceAt(ctx, a.Address, nil)
			if err == nil && n == perAccount {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %d of %d transactions mined (%v)", a.Address, n, perAccount, err)
			case <-time.After(pause):
			}
		}
	}
}

// The backstop seals what no announcement did. The sealer here is deaf:
// it drops every announcement of the pool, as a wake-up was lost when
// geth's block builder, starved of CPU, sealed an empty block for it, or
// when a transaction reached a fresh devnet before the sealer subscribed.
// Each transaction must be mined all the same, on a fresh chain and on one
// with blocks, one at a time and several at once; the wait for each is
// bounded and says what it waited for. Without the backstop the first
// transaction is never mined.
func TestBackstopSealsLostWakeUps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// rounds of concurrent transactions, from as many accounts.
		rounds, concurrent int
	}{
		{"one transaction on a fresh chain", 1, 1},
		{"one at a time", 4, 1},
		{"several at once", 2, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			d, err := startWith(ctx, Config{Addr: "127.0.0.1:0"}, options{clk: wallClock{}, deaf: true})
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			t.Cleanup(func() { d.Close() })
			client, err := ethclient.DialContext(ctx, d.URL)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(client.Close)
			c := &chain{Devnet: d, t: t, client: client}
			for round := range tc.rounds {
				txs := make([]*types.Transaction, tc.concurrent)
				for i := range txs {
					if txs[i], err = c.transfer(ctx, c.Accounts[1+i].Key, c.Accounts[9].Address, uint64(round)); err != nil {
						t.Fatal(err)
					}
				}
				for _, tx := range txs {
					wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
					r, err := d.Wait(wctx, tx.Hash())
					wcancel()
					if err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
					if r.Status != types.ReceiptStatusSuccessful {
						t.Fatalf("round %d: transaction %s failed", round, tx.Hash())
					}
				}
			}
			if d.sealer.rescues.Load() == 0 {
				t.Fatal("mined with no backstop seal, by a deaf sealer")
			}
		})
	}
}

// Wait is bounded and says what it waited for: a transaction the pool
// cannot execute (its nonce leaves a gap) is never mined, and Wait gives
// up when its context ends, or the devnet closes, naming the transaction
// and where the pool holds it.
func TestWaitIsBounded(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gap, err := c.transfer(ctx, c.Accounts[4].Key, c.Accounts[9].Address, 5)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		hash common.Hash
		want []string
	}{
		{"queued", gap.Hash(), []string{gap.Hash().Hex(), "not mined after", "queued", "1 queued transactions", "head block 0"}},
		{"unknown", common.HexToHash("0x01"), []string{"not mined after", "does not hold it"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Subtests start when a parallel slot frees, long after the
			// test's set-up on a loaded machine: their bounds start here.
			wctx, wcancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer wcancel()
			_, err := c.Wait(wctx, tc.hash)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Wait: %v, want a deadline exceeded", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Wait: %q does not say %q", err, w)
				}
			}
		})
	}
	t.Run("closed", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		other, err := Start(ctx, Config{Addr: "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() {
			_, err := other.Wait(ctx, gap.Hash())
			waited <- err
		}()
		other.Close()
		select {
		case err := <-waited:
			if !errors.Is(err, errClosed) {
				t.Fatalf("Wait on a closed devnet: %v, want %v", err, errClosed)
			}
		case <-ctx.Done():
			t.Fatal("Wait did not end when the devnet closed")
		}
	})
}

// BenchmarkTransactionToReceipt is the on-demand sealer's latency: one
// transfer sent and its receipt read, one at a time, as a test's set-up
// does; the backstop's seals are reported, and should be none (compare
// with benchstat across changes to the sealer). The sealer's clock is an hour ahead, so
// that a block a transaction does not meet MaxClockLead's pacing.
func BenchmarkTransactionToReceipt(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	d, err := startWith(ctx, Config{Addr: "127.0.0.1:0"}, options{clk: laterClock{time.Hour}})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	client, err := ethclient.DialContext(ctx, d.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	c := &chain{Devnet: d, client: client}
	var nonce uint64
	for b.Loop() {
		tx, err := c.transfer(ctx, d.Accounts[1].Key, d.Accounts[9].Address, nonce)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := d.Wait(ctx, tx.Hash()); err != nil {
			b.Fatal(err)
		}
		nonce++
	}
	// Rescues on an idle machine: none.
	b.ReportMetric(float64(d.sealer.rescues.Load()), "rescues")
}

// laterClock is the wall clock moved by a duration.
type laterClock struct{ by time.Duration }

func (c laterClock) Now() time.Time                       { return time.Now().Add(c.by) }
func (laterClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// A transaction the next block cannot take, but the one after can, is
// mined: its fee cap is below the next block's base fee and above the
// base fee after an empty block. Its announcement spends itself on an
// empty block, and the sealer used to stop there (it read "nothing
// included" as "nothing includable"), leaving it pending for good: the
// lost seal, deterministic. The backstop sees it includable on the new
// head and seals it in the block after.
func TestSealsWhatAnEmptyBlockMadeIncludable(t *testing.T) {
	t.Parallel()
	c := start(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.backend.BlockChain().Config()
	next := eip1559.CalcBaseFee(cfg, head)
	empty := &types.Header{
		Number: new(big.Int).Add(head.Number, big.NewInt(1)), Time: head.Time + 1,
		GasLimit: head.GasLimit, BaseFee: next,
	}
	after := eip1559.CalcBaseFee(cfg, empty)
	tip := ethconfig.Defaults.Miner.GasPrice
	feeCap := new(big.Int).Add(after, tip)
	if feeCap.Cmp(new(big.Int).Add(next, tip)) >= 0 {
		t.Fatalf("base fee %s then %s after an empty block: no fee cap between them", next, after)
	}
	tx, err := types.SignNewTx(c.Accounts[7].Key, types.LatestSignerForChainID(c.ChainID), &types.DynamicFeeTx{
		ChainID: c.ChainID, Nonce: 0, To: &c.Accounts[9].Address, Gas: 21_000, GasTipCap: tip, GasFeeCap: feeCap,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	r, err := c.Wait(wctx, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if want := head.Number.Uint64() + 2; r.BlockNumber.Uint64() != want {
		t.Fatalf("mined in block %d, want %d, after an empty one", r.BlockNumber, want)
	}
}

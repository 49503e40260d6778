// Command batch is the driver of bench/batch.sh: the gas and calldata a
// payment costs when the facilitator settles exact payments one a
// transaction (as upstream's facilitator does: transferWithAuthorization
// on the token, v, r, s) and when it batches them (facilitator.Batching,
// the X402Batch contract), side by side in one run on an embedded devnet.
//
// For each burst size (-sizes, default 1,10,50,200) it settles that many
// payments at once through two in-process facilitators, one without
// batching and one with (its MaxPayments the burst size, so the burst is
// one transaction), each with its own settler key and store, and reads
// every settlement's receipt and transaction: gas used and calldata bytes,
// per payment. Every payment must settle, and the merchant's balance must
// move by exactly the prices. It prints a Markdown table; the exit status
// is 1 if a payment failed, a check did not hold, or a burst of 50 costs
// more than 0.70 of the unbatched gas a payment or 0.8 of its calldata.
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// price is each payment's amount, in the token's units.
const price = 10_000

func main() {
	sizes := flag.String("sizes", "1,10,50,200", "burst sizes, comma-separated")
	flag.Parse()
	if err := run(*sizes); err != nil {
		fmt.Fprintln(os.Stderr, "batch:", err)
		os.Exit(1)
	}
}

// mode is one facilitator of the run.
type mode struct {
	name string
	svc  *facilitator.Service
}

// figure is what a burst cost.
type figure struct {
	txs             int
	gas, calldata   uint64
	perGas, perData float64
}

func run(sizeList string) error {
	ctx := context.Background()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		return err
	}
	defer d.Close()
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		return err
	}
	defer eth.Close()
	dir, err := os.MkdirTemp("", "x402-batch-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	network := x402.FormatNetwork(d.ChainID.Uint64())
	open := func(name string, settler int, batch *facilitator.Batching) (*mode, error) {
		st, err := store.Open(store.Config{Path: filepath.Join(dir, name+".db")})
		if err != nil {
			return nil, err
		}
		svc, err := facilitator.New(ctx, facilitator.Config{
			Network: network, Chain: d.Attach(), Records: st, SettlerKey: d.Accounts[settler].Key,
			Assets: []facilitator.Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}},
			Batch:  batch, ReceiptTimeout: 2 * time.Minute,
		})
		if err != nil {
			return nil, err
		}
		return &mode{name: name, svc: svc}, nil
	}
	var sizes []int
	for _, f := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return fmt.Errorf("size %q: want a positive whole number", f)
		}
		sizes = append(sizes, n)
	}
	merchant := d.Accounts[8].Address
	payers := d.Accounts[1:8]
	fmt.Printf("| burst | unbatched gas/payment | calldata B/payment | batched gas/payment | calldata B/payment | transactions | gas ratio | calldata ratio |\n|---|---|---|---|---|---|---|---|\n")
	failed := false
	for _, n := range sizes {
		plain, err := open(fmt.Sprintf("plain-%d", n), 0, nil)
		if err != nil {
			return err
		}
		batched, err := open(fmt.Sprintf("batched-%d", n), 9, &facilitator.Batching{Contract: d.Contracts.Batch, MaxPayments: n, MaxWait: time.Minute, MaxGas: 15_000_000})
		if err != nil {
			return err
		}
		var figs [2]figure
		for i, m := range []*mode{plain, batched} {
			before, err := balance(ctx, eth, d.Token.Address, merchant)
			if err != nil {
				return err
			}
			if figs[i], err = burst(ctx, eth, d, m, network, payers, merchant, n); err != nil {
				return fmt.Errorf("%s burst of %d: %w", m.name, n, err)
			}
			after, err := balance(ctx, eth, d.Token.Address, merchant)
			if err != nil {
				return err
			}
			if got, want := new(big.Int).Sub(after, before), big.NewInt(int64(n)*price); got.Cmp(want) != 0 {
				return fmt.Errorf("%s burst of %d: the merchant got %s, want %s", m.name, n, got, want)
			}
			m.svc.Close()
		}
		p, b := figs[0], figs[1]
		gr, cr := b.perGas/p.perGas, b.perData/p.perData
		fmt.Printf("| %d | %.0f | %.0f | %.0f | %.0f | %d | %.3f | %.3f |\n", n, p.perGas, p.perData, b.perGas, b.perData, b.txs, gr, cr)
		if n == 50 && (gr > 0.70 || cr > 0.8) {
			failed = true
		}
	}
	if failed {
		return fmt.Errorf("a burst of 50 missed the goal (gas ≤ 0.70, calldata ≤ 0.8 of unbatched)")
	}
	return nil
}

// burst settles n payments at once through m and reads what their
// transactions cost.
func burst(ctx context.Context, eth *ethclient.Client, d *devnet.Devnet, m *mode, network string, payers []devnet.Account, merchant common.Address, n int) (figure, error) {
	reqs := make([]*x402.SettleRequest, n)
	for i := range reqs {
		var err error
		if reqs[i], err = payment(d, network, payers[i%len(payers)], merchant); err != nil {
			return figure{}, err
		}
	}
	res := make([]*x402.SettleResponse, n)
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			ctx := x402.WithIdempotencyKey(ctx, fmt.Sprintf("%s-%d", m.name, i))
			res[i], _ = m.svc.Settle(ctx, req)
		})
	}
	wg.Wait()
	txs := map[common.Hash]bool{}
	for i, r := range res {
		if r == nil || !r.Success {
			return figure{}, fmt.Errorf("payment %d: %+v", i, r)
		}
		txs[common.HexToHash(r.TransactionHash)] = true
	}
	var f figure
	for h := range txs {
		receipt, err := eth.TransactionReceipt(ctx, h)
		if err != nil {
			return f, err
		}
		tx, _, err := eth.TransactionByHash(ctx, h)
		if err != nil {
			return f, err
		}
		f.gas += receipt.GasUsed
		f.calldata += uint64(len(tx.Data()))
	}
	f.txs = len(txs)
	f.perGas, f.perData = float64(f.gas)/float64(n), float64(f.calldata)/float64(n)
	return f, nil
}

// payment is a settle request of a fresh authorization of price from payer
// to merchant.
func payment(d *devnet.Devnet, network string, payer devnet.Account, merchant common.Address) (*x402.SettleRequest, error) {
	var nonce [32]byte
	rand.Read(nonce[:])
	now := time.Now().Unix()
	a := contracts.TransferAuthorization{From: payer.Address, To: merchant, Value: big.NewInt(price),
		ValidAfter: big.NewInt(now - 600), ValidBefore: big.NewInt(now + 600), Nonce: nonce}
	sig, err := a.Sign(contracts.TokenDomain{Name: d.Token.Name, Version: d.Token.Version, ChainID: d.ChainID, Token: d.Token.Address}, payer.Key)
	if err != nil {
		return nil, err
	}
	payload, err := json.Marshal(x402.ExactPayload{
		Signature: hexutil.Encode(sig),
		Authorization: x402.ExactAuthorization{
			From: a.From.Hex(), To: a.To.Hex(), Value: a.Value.String(),
			ValidAfter: a.ValidAfter.String(), ValidBefore: a.ValidBefore.String(), Nonce: hexutil.Encode(nonce[:]),
		},
	})
	if err != nil {
		return nil, err
	}
	req := x402.PaymentRequirements{
		Scheme: x402.SchemeExact, Network: network, Amount: strconv.Itoa(price),
		Asset: d.Token.Address.Hex(), PayTo: merchant.Hex(), MaxTimeoutSeconds: 60,
		Extra: &x402.Extra{Name: d.Token.Name, Version: d.Token.Version},
	}
	return &x402.SettleRequest{X402Version: 2, PaymentPayload: x402.PaymentPayload{X402Version: 2, Accepted: req, Payload: payload}, PaymentRequirements: req}, nil
}

// balance reads who's balance of token.
func balance(ctx context.Context, eth *ethclient.Client, token, who common.Address) (*big.Int, error) {
	t := contracts.NewDevUSD()
	out, err := eth.CallContract(ctx, callMsg(token, t.PackBalanceOf(who)), nil)
	if err != nil {
		return nil, err
	}
	return t.UnpackBalanceOf(out)
}

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

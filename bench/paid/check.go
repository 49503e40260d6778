package main

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// balances are the token balances of the payers (in driver.payers order)
// and of the merchant.
type balances struct {
	payers []*big.Int
	payTo  *big.Int
}

// balances reads the payers' and the merchant's balances of the offer's
// token at the chain's head.
func (d *driver) balances(ctx context.Context) (*balances, error) {
	token := common.HexToAddress(d.offer.Asset)
	dusd := contracts.NewDevUSD()
	read := func(a common.Address) (*big.Int, error) {
		out, err := d.eth.CallContract(ctx, ethereum.CallMsg{To: &token, Data: dusd.PackBalanceOf(a)}, nil)
		if err != nil {
			return nil, fmt.Errorf("reading the balance of %s: %w", a, err)
		}
		return dusd.UnpackBalanceOf(out)
	}
	b := &balances{}
	for _, a := range d.addrs {
		v, err := read(a)
		if err != nil {
			return nil, err
		}
		b.payers = append(b.payers, v)
	}
	var err error
	b.payTo, err = read(common.HexToAddress(d.offer.PayTo))
	return b, err
}

// chainCheck is what the chain says of the run's payments.
type chainCheck struct {
	paid       int                    // paid answers that named a transaction
	duplicates int                    // transactions named by more than one answer
	failed     []string               // receipts missing or not successful
	blocks     map[common.Hash]uint64 // each transaction's block
	balanceErr []string               // balances that did not move by the price of each paid answer
}

// check reads the receipt of every transaction a paid answer named, and
// the balances, which must have moved by exactly the price of each paid
// answer: a payment the driver saw fail must not have been charged.
func (d *driver) check(ctx context.Context, before *balances) (*chainCheck, error) {
	c := &chainCheck{blocks: map[common.Hash]uint64{}}
	perPayer := make([]int64, len(d.payers))
	for _, s := range d.samples {
		if !s.paid || s.tx == (common.Hash{}) {
			continue
		}
		c.paid++
		if _, seen := c.blocks[s.tx]; seen {
			c.duplicates++
			continue
		}
		r, err := d.eth.TransactionReceipt(ctx, s.tx)
		switch {
		case err != nil:
			c.failed = append(c.failed, fmt.Sprintf("request %s: transaction %s: %v", s.id, s.tx, err))
			continue
		case r.Status != 1:
			c.failed = append(c.failed, fmt.Sprintf("request %s: transaction %s reverted", s.id, s.tx))
		}
		c.blocks[s.tx] = r.BlockNumber.Uint64()
		if s.err == nil {
			perPayer[s.payer]++
		}
	}
	after, err := d.balances(ctx)
	if err != nil {
		return nil, err
	}
	var total int64
	for i, n := range perPayer {
		total += n
		want := new(big.Int).Sub(before.payers[i], new(big.Int).Mul(d.amount, big.NewInt(n)))
		if after.payers[i].Cmp(want) != 0 {
			c.balanceErr = append(c.balanceErr, fmt.Sprintf("payer %s: %v, want %v (%d payments)", d.addrs[i], after.payers[i], want, n))
		}
	}
	want := new(big.Int).Add(before.payTo, new(big.Int).Mul(d.amount, big.NewInt(total)))
	if after.payTo.Cmp(want) != 0 {
		c.balanceErr = append(c.balanceErr, fmt.Sprintf("merchant %s: %v, want %v (%d payments)", d.offer.PayTo, after.payTo, want, total))
	}
	return c, nil
}

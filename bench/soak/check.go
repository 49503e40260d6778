package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Event topics the checks read.
var (
	topicTransfer          = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	topicAuthorizationUsed = crypto.Keccak256Hash([]byte("AuthorizationUsed(address,bytes32)"))
	topicSettled           = crypto.Keccak256Hash([]byte("Settled(bytes32,address,address,address,uint256)"))
	topicUserOperation     = crypto.Keccak256Hash([]byte("UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)"))
)

// chainCheck is what the chain says about the run, from the block after
// setup to the last one.
type chainCheck struct {
	fromBlock, toBlock uint64

	// Per scheme: settlement events (exact: the token's AuthorizationUsed;
	// aa-native: X402Settlement's Settled to the merchant), by payment id,
	// with their transactions.
	events map[string]map[common.Hash][]common.Hash
	// Per scheme: the token's Transfer events to the merchant, told apart
	// by their sender (an exact payer's EOA, or a smart account).
	transfers map[string]int
	// Transfers to the merchant from anyone else.
	strayTransfers int
	// Distinct settlement transactions per scheme (aa-native: bundles).
	txs map[string]int
	// UserOperationEvents with success false (sponsored gas for nothing).
	failedOps int

	merchantDelta *big.Int
	settlerSpent  *big.Int            // ETH the settler spent on gas
	payerDrops    map[*payer]*big.Int // what each payer's balance dropped by
}

// checkChain reads the settlement events, transfers and balances of the run.
func (d *driver) checkChain(ctx context.Context) (*chainCheck, error) {
	to, err := d.eth.BlockNumber(ctx)
	if err != nil {
		return nil, err
	}
	c := &chainCheck{
		fromBlock: d.startBlock + 1, toBlock: to,
		events:     map[string]map[common.Hash][]common.Hash{x402.SchemeExact: {}, x402.SchemeAANative: {}},
		transfers:  map[string]int{},
		txs:        map[string]int{},
		payerDrops: map[*payer]*big.Int{},
	}
	bySender := map[common.Address]string{}
	for _, p := range d.allPayers() {
		bySender[p.addr] = p.scheme
	}
	merchant := common.BytesToHash(d.cfg.PayTo.Bytes())
	seen := map[string]map[common.Hash]bool{x402.SchemeExact: {}, x402.SchemeAANative: {}}
	settled := contracts.NewX402Settlement()
	ep := contracts.NewEntryPoint()

	// The token: transfers to the merchant, and every authorization used
	// (nobody else uses EIP-3009 on this chain).
	logs, err := d.logs(ctx, c, []common.Address{d.token}, [][]common.Hash{{topicTransfer, topicAuthorizationUsed}})
	if err != nil {
		return nil, err
	}
	for _, l := range logs {
		switch l.Topics[0] {
		case topicTransfer:
			if len(l.Topics) < 3 || l.Topics[2] != merchant {
				continue
			}
			if scheme, ok := bySender[common.BytesToAddress(l.Topics[1].Bytes())]; ok {
				c.transfers[scheme]++
			} else {
				c.strayTransfers++
			}
		case topicAuthorizationUsed:
			if len(l.Topics) < 3 {
				continue
			}
			nonce := l.Topics[2]
			c.events[x402.SchemeExact][nonce] = append(c.events[x402.SchemeExact][nonce], l.TxHash)
			if !seen[x402.SchemeExact][l.TxHash] {
				seen[x402.SchemeExact][l.TxHash] = true
				c.txs[x402.SchemeExact]++
			}
		}
	}
	// The settlement contract's Settled events to the merchant.
	logs, err = d.logs(ctx, c, []common.Address{d.settlement}, [][]common.Hash{{topicSettled}, nil, nil, {merchant}})
	if err != nil {
		return nil, err
	}
	for _, l := range logs {
		ev, err := settled.UnpackSettledEvent(&l)
		if err != nil {
			return nil, fmt.Errorf("decoding a Settled event: %w", err)
		}
		c.events[x402.SchemeAANative][ev.RequestHash] = append(c.events[x402.SchemeAANative][ev.RequestHash], l.TxHash)
		if !seen[x402.SchemeAANative][l.TxHash] {
			seen[x402.SchemeAANative][l.TxHash] = true
			c.txs[x402.SchemeAANative]++
		}
	}
	// The EntryPoint's operations: any that failed cost the paymaster gas
	// for no payment.
	logs, err = d.logs(ctx, c, []common.Address{d.entryPoint}, [][]common.Hash{{topicUserOperation}})
	if err != nil {
		return nil, err
	}
	for _, l := range logs {
		ev, err := ep.UnpackUserOperationEventEvent(&l)
		if err != nil {
			return nil, fmt.Errorf("decoding a UserOperationEvent: %w", err)
		}
		if !ev.Success {
			c.failedOps++
		}
	}

	// Balances.
	payers := d.allPayers()
	balances, err := d.balances(ctx, append(d.payers(), d.cfg.PayTo))
	if err != nil {
		return nil, err
	}
	for i, p := range payers {
		c.payerDrops[p] = new(big.Int).Sub(p.start, balances[i])
	}
	c.merchantDelta = new(big.Int).Sub(balances[len(balances)-1], d.merchantStart)
	settlerNow, err := d.eth.BalanceAt(ctx, d.settler, nil)
	if err != nil {
		return nil, err
	}
	c.settlerSpent = new(big.Int).Sub(d.settlerStart, settlerNow)
	return c, nil
}

// logs reads the logs of the run's blocks in ranges of 1,000 blocks.
func (d *driver) logs(ctx context.Context, c *chainCheck, addrs []common.Address, topics [][]common.Hash) ([]types.Log, error) {
	var out []types.Log
	for from := c.fromBlock; from <= c.toBlock; from += 1000 {
		to := min(from+999, c.toBlock)
		logs, err := d.eth.FilterLogs(ctx, ethereum.FilterQuery{
			FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(to), Addresses: addrs, Topics: topics,
		})
		if err != nil {
			return nil, fmt.Errorf("eth_getLogs %d-%d: %w", from, to, err)
		}
		out = append(out, logs...)
	}
	return out, nil
}

// logged counts the "x402 settlement" lines of the payments log by scheme
// and outcome: success → scheme → lines.
func logged(path string) (map[bool]map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[bool]map[string]int{true: {}, false: {}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Msg     string `json:"msg"`
			Scheme  string `json:"scheme"`
			Success bool   `json:"success"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Msg != "x402 settlement" {
			continue
		}
		out[line.Success][line.Scheme]++
	}
	return out, sc.Err()
}

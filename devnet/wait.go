package devnet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
)

// WaitTimeout bounds [Devnet.Wait] when its context has no deadline. A
// devnet seals a transaction within milliseconds, and within about a
// second on a machine loaded to a standstill (see MaxClockLead for the one
// deliberate wait); a minute without a receipt is a fault to report, not
// to wait out.
const WaitTimeout = time.Minute

// Wait returns the receipt of a transaction once it is mined, polling the
// devnet every few milliseconds (bind.WaitMined polls once a second). It
// gives up when ctx ends, after WaitTimeout if ctx has no deadline, or when
// the devnet is closed, with an error that names the transaction, how long
// it waited, where the pool holds it and the chain's head; the error wraps
// ctx's.
func (d *Devnet) Wait(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	began := time.Now()
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, WaitTimeout)
		defer cancel()
	}
	client, err := ethclient.DialContext(ctx, d.URL)
	if err != nil {
		return nil, fmt.Errorf("devnet: waiting for transaction %s: %w", hash, err)
	}
	defer client.Close()
	pause := time.Millisecond
	for {
		r, err := client.TransactionReceipt(ctx, hash)
		if err == nil {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("devnet: transaction %s not mined after %v (%s): %w",
				hash, time.Since(began).Round(time.Millisecond), d.describe(hash), ctx.Err())
		case <-d.ctx.Done():
			return nil, fmt.Errorf("devnet: transaction %s not mined after %v: %w",
				hash, time.Since(began).Round(time.Millisecond), errClosed)
		case <-time.After(pause):
			pause = min(2*pause, 10*time.Millisecond)
		}
	}
}

// errClosed is Wait's error once the devnet is closed.
var errClosed = errors.New("the devnet is closed")

// describe says where the pool holds a transaction and what the chain and
// its sealer are doing, for an error that must explain why it is not mined.
func (d *Devnet) describe(hash common.Hash) string {
	pool, head := d.backend.TxPool(), d.backend.BlockChain().CurrentBlock()
	where := map[txpool.TxStatus]string{
		txpool.TxStatusUnknown:  "the pool does not hold it (never received, dropped or replaced)",
		txpool.TxStatusQueued:   "the pool holds it queued, not executable (a nonce gap, or funds)",
		txpool.TxStatusPending:  "the pool holds it pending",
		txpool.TxStatusIncluded: "the pool has seen it included",
	}[pool.Status(hash)]
	pending, queued := pool.Stats()
	s := fmt.Sprintf("%s; %d pending and %d queued transactions", where, pending, queued)
	if d.sealer != nil {
		s += fmt.Sprintf(" (%d the block builder would take), %d backstop seals", d.sealer.minable(head), d.sealer.rescues.Load())
		if began := d.sealer.committing.Load(); began != 0 {
			s += fmt.Sprintf(", a block being sealed for %v", time.Since(time.Unix(0, began)).Round(time.Millisecond))
		}
	}
	lead, side := time.Unix(int64(head.Time), 0).Sub(time.Now()).Round(time.Second), "ahead of"
	if lead < 0 {
		lead, side = -lead, "behind"
	}
	return s + fmt.Sprintf("; head block %d (%s), stamped %v %s the wall clock",
		head.Number.Uint64(), head.Hash().TerminalString(), lead, side)
}

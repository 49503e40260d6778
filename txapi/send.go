package txapi

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/facilitator/sender"
)

var (
	// errWouldFail is a transaction the node's gas estimate says reverts.
	errWouldFail = errors.New("the transaction would fail")
	// errRecord is a transaction whose record could not be stored; it was
	// not sent.
	errRecord = errors.New("storing the transaction's record")
)

// refused wraps a refusal decided while sending (a budget), to be answered
// as it is.
type refused struct{ e *apiError }

func (r refused) Error() string { return r.e.Message }

// unsent wraps a failure of send that certainly left the transaction off
// the chain: it failed before the broadcast, or the broadcast never
// reached the node or was refused by it. What was counted for the
// transaction can be given back.
type unsent struct{ err error }

func (u unsent) Error() string { return u.err.Error() }
func (u unsent) Unwrap() error { return u.err }

// maybeSent reports whether err, a failure of send, leaves open that the
// transaction reached the node.
func maybeSent(err error) bool { return !errors.As(err, new(unsent)) }

const (
	// maxSignings bounds how often send signs a transaction again whose
	// nonce another transaction took.
	maxSignings = 3
	// deliveryTimeout bounds the wait, in a fleet, for the replica that
	// delivers the wallet's transactions to broadcast one: past it, the
	// outcome is unknown.
	deliveryTimeout = 10 * time.Second
)

// send sends call from the wallet through the Sender, with its gas
// estimated here with a fifth of headroom. call.FeeCap, if nil, is twice
// the latest base fee plus 1 gwei.
//
// charge, if not nil, is asked to pay the transaction's most (value and
// gas at the fee cap) before it is signed; its refusal is returned wrapped
// in refused, and its refund is called if the transaction then certainly
// did not reach the node. record is called with the signed transaction
// (and again if it is signed anew) to store it before it is broadcast; if
// it fails, the transaction is given up and the error wraps errRecord.
//
// A failure that certainly sent nothing is wrapped in unsent; the caller
// then forgets what record stored. Any other failure leaves delivery
// unknown: the Sender keeps the transaction and may yet deliver it, so
// what was counted and recorded for it stays.
func (s *Service) send(ctx context.Context, call sender.Call, charge func(*big.Int) (refund func(), _ *apiError), record func(*types.Transaction) error) (*types.Transaction, error) {
	cfg := s.conf()
	gas, err := cfg.Chain.EstimateGas(ctx, ethereum.CallMsg{From: s.from, To: &call.To, Value: call.Value, Data: call.Data})
	if err != nil {
		return nil, unsent{fmt.Errorf("%w: %w", errWouldFail, err)}
	}
	call.Gas = gas + gas/5
	if call.FeeCap == nil {
		head, err := cfg.Chain.HeaderByNumber(ctx, nil)
		if err != nil {
			return nil, unsent{fmt.Errorf("reading the latest block: %w", err)}
		}
		call.FeeCap = new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), gwei)
	}
	refund := func() {}
	if charge != nil {
		value := call.Value
		if value == nil {
			value = new(big.Int)
		}
		r, e := charge(spend(value, call.Gas, call.FeeCap))
		if e != nil {
			return nil, refused{e}
		}
		refund = r
	}
	snd := cfg.Sender
	for signings := 1; ; signings++ {
		tx, err := snd.SignCall(ctx, call)
		if err != nil {
			err = fmt.Errorf("signing: %w", err)
			if errors.Is(err, sender.ErrUnreachable) || errors.Is(err, sender.ErrRejected) {
				refund()
				return nil, unsent{err}
			}
			// In a fleet the journal may have stored it after all.
			return nil, err
		}
		if err := record(tx); err != nil {
			snd.Release(tx.Nonce())
			refund()
			return nil, unsent{fmt.Errorf("%w: %w", errRecord, err)}
		}
		err = snd.Send(ctx, tx)
		if err == nil {
			dctx, cancel := context.WithTimeout(ctx, deliveryTimeout)
			err = snd.Delivered(dctx, tx.Hash())
			cancel()
		}
		switch {
		case err == nil:
			return tx, nil
		case errors.Is(err, sender.ErrNonceTooLow) && signings < maxSignings:
			continue // the nonce was taken: sign again with a fresh one
		case errors.Is(err, sender.ErrUnreachable), errors.Is(err, sender.ErrRejected), errors.Is(err, sender.ErrNonceTooLow):
			refund()
			return nil, unsent{fmt.Errorf("broadcasting: %w", err)}
		default:
			return nil, fmt.Errorf("broadcasting (outcome unknown): %w", err)
		}
	}
}

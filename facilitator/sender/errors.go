package sender

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

var (
	// ErrUnreachable means the node could not be reached: the transaction was
	// certainly not delivered, and its nonce was released.
	ErrUnreachable = errors.New("node unreachable")
	// ErrNonceTooLow means the transaction's nonce can no longer be used: it
	// must be signed again.
	ErrNonceTooLow = errors.New("nonce too low")
	// ErrRejected means the node refused the transaction (for example the
	// settler lacks ETH for gas); it was not delivered.
	ErrRejected = errors.New("transaction rejected by the node")
)

var (
	// errAlreadyKnown: the node has this very transaction.
	errAlreadyKnown = errors.New("already known")
	// errPrice marks a refusal for the transaction's price alone (the pool
	// is full, the tip is under the node's minimum, the fee cap is under the
	// base fee): the same call with higher fees would be taken. It is
	// wrapped together with ErrRejected.
	errPrice = errors.New("refused for its price")
	// errNonceHeld marks "replacement transaction underpriced": the node
	// holds another transaction with this nonce. For a transaction the
	// Sender keeps, that is a reason to raise its fees; for a new one, the
	// nonce is taken. It is wrapped together with ErrRejected.
	errNonceHeld = errors.New("nonce held by another transaction")
)

// classify maps a node or transport error onto the sentinels above.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "connection refused"), strings.Contains(msg, "no such host"):
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	case strings.Contains(msg, "already known"):
		return errAlreadyKnown
	case strings.Contains(msg, "nonce too low"):
		return fmt.Errorf("%w: %v", ErrNonceTooLow, err)
	case strings.Contains(msg, "replacement transaction underpriced"),
		strings.Contains(msg, "future transaction tries to replace pending"):
		return fmt.Errorf("%w: %w: %v", ErrRejected, errNonceHeld, err)
	case strings.Contains(msg, "txpool is full"), strings.Contains(msg, "transaction underpriced"),
		strings.Contains(msg, "gas price below minimum"), strings.Contains(msg, "less than block base fee"),
		strings.Contains(msg, "fee cap less than"), strings.Contains(msg, "feetoolow"):
		return fmt.Errorf("%w: %w: %v", ErrRejected, errPrice, err)
	case strings.Contains(msg, "insufficient funds"), strings.Contains(msg, "underpriced"),
		strings.Contains(msg, "intrinsic gas"), strings.Contains(msg, "exceeds block gas limit"),
		strings.Contains(msg, "gas limit too high"), strings.Contains(msg, "oversized data"),
		strings.Contains(msg, "fee cap"), strings.Contains(msg, "exceeds the configured cap"),
		strings.Contains(msg, "invalid sender"):
		return fmt.Errorf("%w: %v", ErrRejected, err)
	}
	return err
}

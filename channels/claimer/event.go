package claimer

import (
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// EventKind is what an Event reports.
type EventKind string

// The kinds of events.
const (
	// EventClaimed: a claim was mined; Channels are what it added to each
	// channel's claimed total, Amount their sum, Tx its transaction.
	EventClaimed EventKind = "claimed"
	// EventSwept: the claim's transaction swept Amount of Token to
	// Receiver (one event per receiver and token of the claim).
	EventSwept EventKind = "swept"
	// EventFailed: a claim or refund failed, or a channel cannot be
	// claimed; Channels are what it was to claim, Reason says why, and Tx
	// is set when a transaction reverted. A claim that failed without a
	// refusal is retried next round.
	EventFailed EventKind = "failed"
	// EventWithdrawal: the payer of Channels started a timed withdrawal
	// (Channels' amounts are what the server has charged and not
	// claimed); the channel is claimed at once.
	EventWithdrawal EventKind = "withdrawal"
	// EventRefunded: an operator's refund returned Amount of Channels[0]
	// to its payer in Tx.
	EventRefunded EventKind = "refunded"
)

// Event is something the merchant may want to know of its channels: for
// webhooks and metrics.
type Event struct {
	Kind EventKind
	// Channels are the channels concerned, each with its amount.
	Channels []ChannelAmount
	// Receiver and Token are whose money it is.
	Receiver, Token common.Address
	// Amount is the event's total.
	Amount *big.Int
	// Tx is the transaction, when there is one.
	Tx common.Hash
	// Reason is why a claim was sent (the strategy: "periodic",
	// "threshold", "withdrawal", "retry", "refund") or why it failed.
	Reason string
	// At is when it happened.
	At time.Time
}

// ChannelAmount is a channel, its payer and an amount of it.
type ChannelAmount struct {
	ID     common.Hash
	Payer  common.Address
	Amount *big.Int
}

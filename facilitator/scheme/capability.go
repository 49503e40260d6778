package scheme

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The facilitator asks a scheme what it can do, never what it is called: a
// capability is a small interface a Scheme implements, as [Finder] is, and
// the facilitator checks for it (if d, ok := sch.(scheme.Deferred); ok).
// A new scheme gets a capability's handling by implementing it; the
// facilitator's core names no scheme.

// Deferred is a Scheme whose payments are settled after their response is
// served, for what the response used, at most what the payer signed: upto
// (and payment channels). The facilitator settles a payment of it that
// owes nothing (an Amount of zero) without a transaction, and puts a payer
// whose payment, good when the response was served, is refused at settle
// (Withdrawn) in the penalty box, as if its settlement had reverted: the
// payer had its response unpaid.
type Deferred interface {
	// Withdrawn reports whether err, Verify's refusal of a payment at
	// settle, means the payer took back what verification had seen (spent
	// its balance, revoked an allowance, used its nonce), rather than a
	// mismatch of the merchant's requirements or a refusal of the
	// facilitator's own.
	Withdrawn(err error) bool
}

// Credentialed is a Scheme whose settlement only a caller with a
// credential (a facilitator API key) may ask for: what a payment owes is
// known only to the merchant (a Deferred scheme's), so a payer settling
// its own payment anonymously could settle it for less. The facilitator's
// handler refuses an anonymous settle of it, whatever its offers are.
type Credentialed interface {
	// CredentialReason says why, for the refusal's message: "only the
	// merchant knows what the response used", say.
	CredentialReason() string
}

// Batcher is a Scheme whose payments can join an X402Batch transaction
// (exact's EIP-3009 authorizations), which settles many payments in one
// transaction and lets each fail without the others. With batching on,
// the facilitator hands the batcher every payment whose BatchItem fits,
// and reads each payment's outcome from its own logs (BatchLogs).
type Batcher interface {
	// BatchItem is the X402Batch item of pay, whose lone settlement is s,
	// and whether it can join a batch at all.
	BatchItem(pay *Payment, s Settlement) (contracts.BatchItem, bool)
	// BatchLogs narrows a mined receipt to the logs of rec's payment, so
	// that a transaction that carries several payments never counts one
	// payment's transfer for another; batch is the X402Batch contract
	// (zero when batching is off). failed is true if the batch contract
	// logged the payment's transfer as failed. A receipt that carries no
	// payment of this scheme's mechanism in a batch is returned as it is.
	BatchLogs(rec *store.Record, receipt *types.Receipt, batch common.Address) (own *types.Receipt, failed bool)
}

// Expiring is a Scheme whose payments' signatures expire at a time their
// settlement transaction carries (exact's EIP-3009 validBefore). A
// settlement that reverted because it was mined after that time, although
// it was claimed with time to spare, is not the payer's doing: the
// facilitator does not put the payer in the penalty box for it.
type Expiring interface {
	// ValidBeforeIn is the time (unix seconds) before which rec's payment,
	// as tx carries it (alone, or as an item of the X402Batch contract
	// batch), had to be mined; false when tx does not carry it.
	ValidBeforeIn(rec *store.Record, tx *types.Transaction, batch common.Address) (uint64, bool)
}

// V1 is a Scheme that x402 v1 clients pay too (exact, v1's one scheme):
// the facilitator lists its v1 kinds in /supported, on the networks v1
// names.
type V1 interface {
	// KindV1 is the scheme's v1 kind on network, and whether v1 names
	// that network.
	KindV1(network string) (x402.SupportedKind, bool)
}

// OffChain is a Scheme some of whose payments no transaction settles: a
// batch-settlement voucher is charged off chain by the merchant and claimed
// later with others in one transaction, which is not a settle of it. The
// facilitator verifies such a payment, and refuses to settle it.
type OffChain interface {
	// OffChain reports whether no transaction settles pay.
	OffChain(pay *Payment) bool
}

// Reporter is a Scheme whose verified payments carry on-chain state that
// the merchant mirrors: batch-settlement's channel snapshot (balance,
// claimed total, withdrawal, refund nonce). The facilitator puts it in
// the extra of /verify's answer, and after a settlement in the extra of
// /settle's.
type Reporter interface {
	// Report is pay's state as Verify read it; nil when there is none.
	Report(pay *Payment) *x402.ChannelState
	// Reread reads pay's state from the chain again, after its
	// settlement was mined, for the settle answer's extra; nil when pay
	// has none to report.
	Reread(ctx context.Context, pay *Payment) (*x402.ChannelState, error)
}

// Idle is a Scheme some of whose verified payments have nothing to send:
// batch-settlement's sweep of a receiver with nothing claimed and
// unswept. The facilitator answers their settle with success, an amount
// of "0" and no transaction.
type Idle interface {
	// Idle reports whether pay, which Verify accepted, sends nothing.
	Idle(pay *Payment) bool
}

// Package scheme is the contract between the facilitator and its payment
// schemes, as database/sql/driver is between database/sql and its drivers.
//
// A scheme (exact, aa-native) decodes and verifies its payments, names the
// on-chain settlement of each, and reads what a mined settlement did. The
// facilitator holds its schemes in a table keyed by name and owns all the
// rest: the replay store and its state machine, idempotency, the sender
// and the bundlers, replacement, reorganisations and fleet delivery. A new
// scheme is a package that implements [Scheme] and an entry in that table;
// a new mechanism of a scheme (Permit2 under exact, say) is a file in the
// scheme's package. What a scheme can do beyond that (settle after
// serving, join a batch, need a credential to settle) it declares by
// implementing the capabilities of capability.go, which the facilitator
// asks for: the facilitator never branches on a scheme's name.
package scheme

import (
	"context"
	"encoding/binary"
	"math/big"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Scheme is one payment scheme the facilitator settles.
type Scheme interface {
	// Name is the scheme's name in requirements and payloads, such as
	// "exact".
	Name() string
	// Decode reads the payment of a request whose requirements name this
	// scheme. A refusal is an *x402.Error: malformed_request for a payload
	// that does not parse, scheme_mismatch for a payload of another
	// scheme's shape, and the specific reason for a field of the wrong
	// form. Decode reads no chain.
	Decode(req *x402.VerifyRequest) (*Payment, error)
	// Verify checks a decoded payment against req's requirements and the
	// chain. A refusal is an *x402.Error; any other error means the checks
	// could not be made (the chain did not answer) and says nothing of the
	// payment.
	Verify(ctx context.Context, pay *Payment, req *x402.VerifyRequest) error
	// Settlement is what settles a verified payment on chain.
	Settlement(pay *Payment) Settlement
	// Outcome reads what the mined transaction receipt did for the payment
	// rec records. It counts only the payment's own evidence in the
	// receipt: a transaction that carries several payments (a bundle)
	// must never count one payment's transfer for another.
	Outcome(rec *store.Record, receipt *types.Receipt) Outcome
}

// Finder is a Scheme whose payments a transaction other than the one the
// facilitator recorded can settle: an exact authorization used by the
// transaction of a claim that another replica took over, say. The
// facilitator asks it when the recorded transaction reverted or was given
// up.
type Finder interface {
	// SettledElsewhere returns the receipt of a successful transaction
	// other than rec.TxHash that settled pay, or nil if there is none.
	// An error means the chain could not be searched. pay is nil when the
	// facilitator holds only the record: it asks so only of a record that
	// carries a UserOpHash (aa-native), which identifies the payment.
	SettledElsewhere(ctx context.Context, chain Chain, pay *Payment, rec *store.Record) (*types.Receipt, error)
}

// Chain is the chain access of a Finder's search; *ethclient.Client has it.
type Chain interface {
	BlockNumber(ctx context.Context) (uint64, error)
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
}

// Payment is a decoded payment: what the facilitator records and reserves,
// and the scheme's own decoding of it.
type Payment struct {
	// Key is the payment's replay key: settle is idempotent on it, and no
	// other payment, of any scheme, can have it.
	Key common.Hash
	// Hash identifies the payment and the requirements it pays, to tell a
	// duplicate from another payment under the same key.
	Hash common.Hash
	// Payer, PayTo, Asset and Amount are who pays whom how much of what.
	Payer, PayTo, Asset common.Address
	Amount              *big.Int
	// Reserve, if not nil, is the most the settlement can take from the
	// payer's balance of Asset, above Amount: an aa-native operation's gas
	// paid in the same token. Nil is Amount.
	Reserve *big.Int
	// UserOpHash and RequestHash identify an aa-native payment's
	// operation and request, for the record and the response; zero for
	// other schemes.
	UserOpHash, RequestHash common.Hash
	// ValidBefore is when the payer's signature stops authorizing the
	// payment (exact's validBefore); zero when the scheme has no such
	// bound. A payment's response can be handed over after a crash only
	// before it.
	ValidBefore time.Time
	// Contract is set by Verify when code of the payer's checks its
	// signature on chain (an ERC-1271 or ERC-6492 wallet, or an EIP-7702
	// account's delegate). Such code can accept the signature when
	// simulated and refuse it when mined, so a settlement that reverts
	// costs its payer nothing; the facilitator holds these payments to a
	// budget of reverts (Config.WalletReverts).
	Contract bool
	// Class groups the contract wallets that behave alike, for that
	// budget: set by a mechanism that knows it (an ERC-6492 wallet not
	// deployed yet is its factory's); zero otherwise, and the facilitator
	// takes the hash of the payer's code (an EIP-7702 account's code names
	// its delegate).
	Class common.Hash
	// Funds is the most of Asset the payer's settlements may take, as
	// Verify read it (exact: the balance, and for Permit2 without a permit
	// its allowance of Permit2 too; aa-native: the account's balance less
	// the gas in tokens this operation may take beyond its amount), which
	// a fleet's store checks the payment and the payer's other settlements
	// in flight against when it claims the payment; nil when not known.
	Funds *big.Int
	// Mechanism is the scheme's own decoding of the payment, which only
	// the scheme that decoded it reads.
	Mechanism any
}

// Settlement is what settles a payment on chain: a call that the
// facilitator's settler key sends in a transaction, or a UserOperation that
// a bundler submits. Exactly one of Data and Op is set.
type Settlement struct {
	// To and Data are the call of a transaction from the settler key.
	To   common.Address
	Data []byte
	// MaxGas, if not zero, is the most gas the call may take: a payment
	// whose settlement the node estimates above it is refused before
	// anything is sent, and its transaction's gas limit is at most MaxGas.
	// It bounds what a payer's own code (a contract wallet's signature
	// check, a factory's deployment) can make the settler spend.
	MaxGas uint64
	// Op is an ERC-4337 UserOperation, for the bundler of EntryPoint.
	Op *entrypoint.UserOperation
	// EntryPoint is the EntryPoint Op is for, with Op.
	EntryPoint entrypoint.EntryPoint
}

// Verdict is what a mined settlement means for its payment.
type Verdict int

const (
	// Paid: the payment is settled; the response it bought may be served.
	Paid Verdict = iota
	// Failed: not settled, through no act of the payer's; final.
	Failed
	// Reverted: not settled because of the payer's own payment (its
	// execution reverted, or its account did not settle it); final, and
	// the payer is refused for a while.
	Reverted
	// NotIncluded: the transaction was mined without the payment (a
	// bundle the EntryPoint left it out of); nothing happened to it, and
	// it may be settled again.
	NotIncluded
)

// Outcome is a Scheme's reading of a mined settlement.
type Outcome struct {
	Verdict Verdict
	// Code and Message say why a payment is not Paid.
	Code    x402.ErrorCode
	Message string
}

// RequirementsHash identifies what a payment is settled for; a scheme
// mixes it into Payment.Hash, so that a duplicate settle returns the
// original receipt only for the same requirements: a payment made for one
// price or recipient is never reported as settled for another.
func RequirementsHash(r *x402.PaymentRequirements) common.Hash {
	k := requirementsKey{r.Scheme, r.Network, r.Asset, r.PayTo, r.Amount}
	if h, ok := requirementsHashes.Get(k); ok {
		return h
	}
	h := requirementsHash(r)
	requirementsHashes.put(k, h)
	return h
}

// requirementsHash computes RequirementsHash.
func requirementsHash(r *x402.PaymentRequirements) common.Hash {
	asset, _ := x402.ParseAddress(r.Asset)
	payTo, _ := x402.ParseAddress(r.PayTo)
	b := make([]byte, 0, len(r.Scheme)+len(r.Network)+2+2*common.AddressLength+32)
	b = append(append(b, r.Scheme...), 0)
	b = append(append(b, r.Network...), 0)
	b = append(append(b, asset[:]...), payTo[:]...)
	return crypto.Keccak256Hash(appendAmount(b, r.Amount))
}

// appendAmount appends the big-endian bytes of amount s, without leading
// zeros (big.Int's Bytes), making no number for one that fits a uint64.
func appendAmount(b []byte, s string) []byte {
	if len(s) <= 19 {
		if n, err := strconv.ParseUint(s, 10, 64); err == nil {
			var word [8]byte
			binary.BigEndian.PutUint64(word[:], n)
			i := 0
			for i < len(word) && word[i] == 0 {
				i++
			}
			return append(b, word[i:]...)
		}
	}
	amount, err := x402.ParseAmount(s)
	if err != nil {
		return b
	}
	return append(b, amount.Bytes()...)
}

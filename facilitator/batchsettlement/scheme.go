// Package batchsettlement is x402's batch-settlement scheme on EVM chains
// (scheme_batch_settlement_evm.md): unidirectional payment channels in
// x402's batch-settlement escrow. The payer deposits once, gaslessly (the
// facilitator sends the deposit), then signs a cumulative voucher per
// request; the receiver side claims many channels' vouchers in one
// transaction and sweeps them to the receiver in one transfer; a
// cooperative refund and a timed withdrawal return what was not claimed.
//
// It implements [scheme.Scheme]: Decode reads deposit, voucher and refund
// payloads (payload.go), and Verify enforces the binding's verification
// rules 1 to 11 (verify.go) and leaves the channel's on-chain snapshot in
// the decoded payment, for the answer's extra. chain.go holds its reads:
// one eth_call of the settlement contract's multicall per channel. The
// contracts and their EIP-712 hashes are package contracts/batchsettle.
//
// A refusal is a *Refusal: upstream's code (invalid_batch_settlement_evm_…)
// beside the spec's reason it unwraps to.
package batchsettlement

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Asset is a token channels may hold, with the EIP-712 domain its EIP-3009
// deposits are signed in.
type Asset struct {
	Address common.Address
	// Name and Version are the token's EIP-712 domain name and version
	// (USDC: "USD Coin" or "USDC", and "2").
	Name, Version string
}

// Config configures a Scheme.
type Config struct {
	// ChainID is the chain the facilitator settles on.
	ChainID *big.Int
	// Assets are the tokens channels may hold.
	Assets []Asset
	// Chain reads channels, balances and contract wallets' signatures.
	Chain Chain
	// Settlement, ERC3009Collector and Permit2Collector are the
	// batch-settlement contracts; defaults their canonical addresses
	// (contracts.BatchSettlementAddress and the collectors'), where
	// upstream's audited deployment is on a real chain and the devnet puts
	// ours.
	Settlement, ERC3009Collector, Permit2Collector common.Address
	// Permit2 is Permit2's address; default its canonical one.
	Permit2 common.Address
	// MinValidity is how long a deposit's authorization must stay valid
	// after verification, to leave time to send it; default 6 s.
	MinValidity time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Validate reports every missing or impossible setting.
func (c Config) Validate() error {
	var errs []error
	if c.ChainID == nil || c.ChainID.Sign() <= 0 {
		errs = append(errs, errors.New("batch-settlement: chain id must be positive"))
	}
	if c.Chain == nil {
		errs = append(errs, errors.New("batch-settlement: no chain to read channels from"))
	}
	if len(c.Assets) == 0 {
		errs = append(errs, errors.New("batch-settlement: no assets"))
	}
	for _, a := range c.Assets {
		if a.Address == (common.Address{}) {
			errs = append(errs, errors.New("batch-settlement: an asset has no address"))
		}
	}
	if c.MinValidity < 0 {
		errs = append(errs, errors.New("batch-settlement: min validity must not be negative"))
	}
	return errors.Join(errs...)
}

// Scheme verifies batch-settlement payments and builds their deposits.
type Scheme struct {
	cfg     Config
	network string
	dom     batchsettle.Domain
	assets  map[common.Address]Asset
	bs      *batchsettle.X402BatchSettlement
	erc20   *contracts.DevUSD // balanceOf, as every ERC-20 has it
}

// New returns a Scheme.
func New(cfg Config) (*Scheme, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Settlement == (common.Address{}) {
		cfg.Settlement = contracts.BatchSettlementAddress
	}
	if cfg.ERC3009Collector == (common.Address{}) {
		cfg.ERC3009Collector = contracts.ERC3009DepositCollectorAddress
	}
	if cfg.Permit2Collector == (common.Address{}) {
		cfg.Permit2Collector = contracts.Permit2DepositCollectorAddress
	}
	if cfg.Permit2 == (common.Address{}) {
		cfg.Permit2 = contracts.Permit2Address
	}
	if cfg.MinValidity == 0 {
		cfg.MinValidity = 6 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Scheme{
		cfg: cfg, network: x402.FormatNetwork(cfg.ChainID.Uint64()),
		dom:    batchsettle.NewDomain(cfg.ChainID, cfg.Settlement),
		assets: make(map[common.Address]Asset, len(cfg.Assets)),
		bs:     batchsettle.NewX402BatchSettlement(), erc20: contracts.NewDevUSD(),
	}
	for _, a := range cfg.Assets {
		s.assets[a.Address] = a
	}
	return s, nil
}

// Name is "batch-settlement".
func (s *Scheme) Name() string { return x402.SchemeBatchSettlement }

// Decode reads a deposit, voucher or refund payment, or a merchant's
// claim. Its Amount is the requirements' amount (a request's maximum
// charge), except a deposit's: what it moves from the payer into the
// escrow, which is its PayTo.
func (s *Scheme) Decode(req *x402.VerifyRequest) (*scheme.Payment, error) {
	p, err := DecodePayload(req.PaymentPayload.Payload)
	if err != nil {
		return nil, err
	}
	amount, err := x402.ParseAmount(req.PaymentRequirements.Amount)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "requirements amount: %v", err)
	}
	pay := &scheme.Payment{
		Key:   s.key(p),
		Hash:  crypto.Keccak256Hash(crypto.Keccak256(req.PaymentPayload.Payload), scheme.RequirementsHash(&req.PaymentRequirements).Bytes()),
		Payer: p.Config.Payer, PayTo: p.Config.Receiver, Asset: p.Config.Token, Amount: amount,
		Mechanism: p,
	}
	if p.Claim != nil {
		// A claim is the receiver side's: its records name the receiver
		// authorizer as the one who made it.
		pay.Payer = p.Config.ReceiverAuthorizer
	}
	if p.Sweep != nil {
		// A sweep moves what is due to the receiver, which Verify reads
		// into Amount (in place: the facilitator holds this pointer); until
		// then Amount is the most any sweep can move. It takes nothing from
		// anyone's balance. Each request is a settlement of its own: a
		// sweep moves what is due once, whoever sends it.
		pay.Payer, pay.Amount, pay.Reserve = p.Sweep.Receiver, new(big.Int).Set(maxUint128), new(big.Int)
		var nonce [32]byte
		if _, err := rand.Read(nonce[:]); err != nil {
			return nil, fmt.Errorf("drawing a sweep's key: %w", err)
		}
		pay.Key = crypto.Keccak256Hash([]byte(x402.SchemeBatchSettlement), []byte{0}, s.cfg.ChainID.Bytes(), []byte(TypeSettle), nonce[:])
	}
	if r := p.Refund; r != nil && r.Operator {
		// An operator's refund names no voucher: its channel is its
		// config's, and its key its authorizer's signature, which is of
		// this channel, nonce and amount only.
		p.ChannelID = s.dom.ChannelID(p.Config)
		pay.Key = s.key(p)
	}
	if r := p.Refund; r != nil && r.AuthorizerSig != nil {
		// A completed refund moves the amount refunded, from the escrow:
		// its answer names that amount, as upstream's does.
		pay.PayTo, pay.Amount = s.cfg.Settlement, r.Amount
	}
	if d := p.Deposit; d != nil {
		// A deposit pays the escrow, not the receiver: its records name
		// the settlement contract, and its answer the amount deposited,
		// as upstream's does.
		pay.PayTo, pay.Amount = s.cfg.Settlement, d.Amount
		switch {
		case d.ERC3009 != nil && d.ERC3009.ValidBefore.IsInt64():
			pay.ValidBefore = time.Unix(d.ERC3009.ValidBefore.Int64(), 0)
		case d.Permit2 != nil && d.Permit2.Deadline.IsInt64():
			pay.ValidBefore = time.Unix(d.Permit2.Deadline.Int64(), 0)
		}
	}
	return pay, nil
}

// key is a payment's replay key: the scheme, chain, channel, payload type,
// voucher ceiling and signature, which no other payment has; and a
// refund's nonce, since two refunds of a channel with no request between
// them carry the same zero-charge voucher (each nonce settles once on
// chain).
func (s *Scheme) key(p *Payment) common.Hash {
	var nonce []byte
	if r := p.Refund; r != nil && r.Nonce != nil {
		nonce = append([]byte{1}, r.Nonce.Bytes()...) // present, even when zero
	}
	return crypto.Keccak256Hash([]byte(x402.SchemeBatchSettlement), []byte{0}, s.cfg.ChainID.Bytes(), p.ChannelID[:],
		[]byte(p.Type), p.MaxClaimable.Bytes(), []byte{0}, p.Signature, []byte{0}, nonce)
}

// Settlement is what a verified payment sends: a deposit's
// deposit(config, amount, collector, collectorData), a claim's
// claimWithSignature and sweeps in one multicall, and a completed
// refund's refundWithSignature. A voucher sends nothing: it is claimed
// later, with others, in one claimWithSignature.
func (s *Scheme) Settlement(pay *scheme.Payment) scheme.Settlement {
	p, ok := pay.Mechanism.(*Payment)
	if !ok {
		return scheme.Settlement{To: s.cfg.Settlement}
	}
	switch {
	case p.Deposit != nil:
		collector, data := s.collectorData(p)
		return scheme.Settlement{To: s.cfg.Settlement, Data: s.bs.PackDeposit(p.Config, p.Deposit.Amount, collector, data), MaxGas: depositGas}
	case p.Claim != nil:
		return scheme.Settlement{To: s.cfg.Settlement, Data: s.claimCall(p.Claim), MaxGas: claimGas * uint64(len(p.Claim.Rows)+1)}
	case p.Sweep != nil:
		return scheme.Settlement{To: s.cfg.Settlement, Data: s.bs.PackSettle(p.Sweep.Receiver, p.Sweep.Token), MaxGas: sweepGas}
	case p.Refund != nil && p.Refund.AuthorizerSig != nil:
		refund := s.bs.PackRefundWithSignature(p.Config, p.Refund.Amount, p.Refund.Nonce, p.Refund.AuthorizerSig)
		if c := p.Refund.Claim; c != nil {
			// What was served is claimed (and swept) first, in the same
			// transaction, so the refund returns only the rest.
			return scheme.Settlement{To: s.cfg.Settlement, Data: s.bs.PackMulticall(append(s.claimCalls(c), refund)),
				MaxGas: claimGas * uint64(len(c.Rows)+2)}
		}
		return scheme.Settlement{To: s.cfg.Settlement, Data: refund}
	}
	return scheme.Settlement{}
}

// claimGas bounds a claim's gas per row (and once more for the call and
// its sweeps): about 20,000 a row, more with a contract wallet's check.
const claimGas = 100_000

// depositGas bounds a deposit: about 110,000 through either collector, and
// a contract wallet's signature check on top.
const depositGas = 300_000

// collectorData is the collector of p's deposit and its collectorData.
func (s *Scheme) collectorData(p *Payment) (common.Address, []byte) {
	if e := p.Deposit.ERC3009; e != nil {
		return s.cfg.ERC3009Collector, batchsettle.ERC3009CollectorData(e.ValidAfter, e.ValidBefore, e.Salt, e.Signature)
	}
	a := p.Deposit.Permit2
	return s.cfg.Permit2Collector, batchsettle.Permit2CollectorData(a.Nonce, a.Deadline, a.Signature, nil)
}

// Outcome reads a mined deposit, claim, refund or sweep: Paid when the
// settlement contract logged it.
func (s *Scheme) Outcome(rec *store.Record, receipt *types.Receipt) scheme.Outcome {
	if receipt.Status != types.ReceiptStatusSuccessful {
		return scheme.Outcome{Verdict: scheme.Failed, Code: x402.ErrorUserOpFailed, Message: "the batch-settlement transaction reverted"}
	}
	abi := s.bs.GetABI()
	for _, l := range receipt.Logs {
		if l.Address != s.cfg.Settlement || len(l.Topics) < 2 {
			continue
		}
		switch l.Topics[0] {
		case abi.Events["Deposited"].ID, abi.Events["Refunded"].ID, abi.Events["Claimed"].ID, abi.Events["Settled"].ID:
			return scheme.Outcome{Verdict: scheme.Paid}
		}
	}
	return scheme.Outcome{Verdict: scheme.Failed, Code: x402.ErrorUserOpFailed, Message: fmt.Sprintf("transaction %s logged no deposit, claim or refund", receipt.TxHash)}
}

// Withdrawn reports whether err, a refusal at settle of a payment that
// verified, means the payer took its funds back meanwhile (a timed
// withdrawal, a spent balance, a used authorization).
func (s *Scheme) Withdrawn(err error) bool {
	var r *Refusal
	if !errors.As(err, &r) {
		return false
	}
	switch r.Code {
	case CodeChannelNotFound, CodeCumulativeExceedsBalance, CodeInsufficientBalance:
		return true
	}
	return false
}

// CredentialReason: what a channel owes is the merchant's to say.
func (s *Scheme) CredentialReason() string {
	return "only the merchant knows what its channel's requests were charged"
}

// ChannelSnapshot returns the channel state Verify read for pay, for the
// answer's extra; false if pay was not verified by this scheme.
func ChannelSnapshot(pay *scheme.Payment) (x402.ChannelState, bool) {
	p, ok := pay.Mechanism.(*Payment)
	if !ok || p.Snapshot.Balance == nil {
		return x402.ChannelState{}, false
	}
	return p.Snapshot.State(p.ChannelID), true
}

// Report is the channel's snapshot, which every /verify answer of the
// scheme carries in its extra.
func (s *Scheme) Report(pay *scheme.Payment) *x402.ChannelState {
	st, ok := ChannelSnapshot(pay)
	if !ok {
		return nil
	}
	return &st
}

// Reread reads the channel of pay from the chain again, after its deposit
// or refund was mined.
func (s *Scheme) Reread(ctx context.Context, pay *scheme.Payment) (*x402.ChannelState, error) {
	p, ok := pay.Mechanism.(*Payment)
	if !ok {
		return nil, fmt.Errorf("the payment was not decoded by the batch-settlement scheme (%T)", pay.Mechanism)
	}
	if p.Claim != nil || p.Sweep != nil {
		return nil, nil // a claim is of many channels, a sweep of none
	}
	snap, err := s.snapshot(ctx, p.ChannelID)
	if err != nil {
		return nil, err
	}
	st := snap.State(p.ChannelID)
	return &st, nil
}

// OffChain: a voucher is charged off chain and claimed later, and a
// refund the server has not completed (no receiver authorizer's
// signature) has nothing to send; only deposits and completed refunds are
// settled by a transaction.
func (s *Scheme) OffChain(pay *scheme.Payment) bool {
	p, ok := pay.Mechanism.(*Payment)
	if !ok {
		return true
	}
	return p.Deposit == nil && p.Claim == nil && p.Sweep == nil && (p.Refund == nil || p.Refund.AuthorizerSig == nil)
}

// Idle reports whether pay, verified, has nothing to send: a sweep of a
// receiver with nothing claimed and unswept, which the facilitator answers
// with success and an amount of "0", as the spec's settle table says.
func (s *Scheme) Idle(pay *scheme.Payment) bool {
	p, ok := pay.Mechanism.(*Payment)
	return ok && p.Sweep != nil && p.Sweep.Due != nil && p.Sweep.Due.Sign() == 0
}

// Interface guards.
var (
	_ scheme.Scheme       = (*Scheme)(nil)
	_ scheme.Deferred     = (*Scheme)(nil)
	_ scheme.Credentialed = (*Scheme)(nil)
	_ scheme.OffChain     = (*Scheme)(nil)
	_ scheme.Reporter     = (*Scheme)(nil)
	_ scheme.Idle         = (*Scheme)(nil)
)

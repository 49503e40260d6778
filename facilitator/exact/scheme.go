// Package exact is x402's exact scheme on EVM chains: the payer's EOA
// signs a transfer of the price to the merchant, and the facilitator
// submits it. It implements [scheme.Scheme] for the facilitator.
//
// One file per mechanism, as upstream's Go SDK has them: eip3009.go
// (EIP-3009 transferWithAuthorization signed by an EOA), wallet.go (the
// same transfer signed by a contract wallet: ERC-1271, ERC-6492, EIP-7702)
// and permit2.go (Permit2 through x402's exact proxy), with its jobs beside
// it: permit2_digest.go (its EIP-712 digests), permit2_chain.go (its chain
// reads) and eip2612.go (EIP-2612 gas sponsoring). A new mechanism is a new
// file with a type that implements mechanism, and a case in Decode. This
// file routes; outcome.go reads mined settlements; chain.go holds the
// shared chain reads; config.go the configuration.
//
// EIP-3009 verification runs in a fixed order, cheapest first: the
// payment's fields against the requirements, the validity window, the
// EIP-712 digest and the signature, then the latest block's time, the
// payer's balance and the authorization's on-chain state, read by one
// eth_call that concurrent verifications share. The facilitator adds its
// own replay store on top.
package exact

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Scheme verifies exact payments and builds their settlement calls.
type Scheme struct {
	cfg     Config
	network string
	domains map[common.Address]common.Hash // asset -> EIP-712 domain separator
	permit2 map[common.Address]bool        // assets paid through Permit2
	token   *contracts.DevUSD              // ABI of EIP-3009 (any compliant token)
	reads   *reader
	// multicall is the ABI of Multicall3's aggregate3.
	multicall *contracts.Multicall3
	// recovered remembers the signers of the payments decoded lately.
	recovered recoveries
}

// New returns a Scheme.
func New(cfg Config) (*Scheme, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MinValidity == 0 {
		cfg.MinValidity = 6 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.GroupSize == 0 {
		cfg.GroupSize = 32
	}
	if cfg.Parallel == 0 {
		cfg.Parallel = 2
	}
	if cfg.WalletGas == 0 {
		cfg.WalletGas = DefaultWalletGas
	}
	if cfg.Multicall3 == (common.Address{}) {
		cfg.Multicall3 = contracts.Multicall3Address
	}
	s := &Scheme{
		cfg:     cfg,
		network: x402.FormatNetwork(cfg.ChainID.Uint64()),
		domains: make(map[common.Address]common.Hash, len(cfg.Assets)),
		permit2: make(map[common.Address]bool),
		token:   contracts.NewDevUSD(),

		multicall: contracts.NewMulticall3(),
	}
	for _, a := range cfg.Assets {
		s.domains[a.Address] = DomainSeparator(a.Name, a.Version, cfg.ChainID, a.Address)
		if a.Permit2 {
			s.permit2[a.Address] = true
		}
	}
	s.reads = &reader{read: s.readStates, size: cfg.GroupSize, parallel: cfg.Parallel}
	return s, nil
}

// DefaultWalletGas is Config.WalletGas's default: room for a wallet's
// deployment as a proxy or clone and its ERC-1271 transfer.
const DefaultWalletGas = 300_000

// Assets returns the allowlist.
func (s *Scheme) Assets() []Asset { return s.cfg.Assets }

// mechanism is one way an exact payment moves its tokens: the decoded
// payload of one mechanism, which knows how to check, submit and find it.
type mechanism interface {
	// verify checks the payment against the requirements and the chain.
	verify(ctx context.Context, s *Scheme, pay *scheme.Payment, req *x402.VerifyRequest) error
	// call is the settlement call.
	call(s *Scheme, pay *scheme.Payment) scheme.Settlement
	// PayloadHash identifies the signed payment, to tell a duplicate from
	// a different payment under the same key.
	PayloadHash() common.Hash
	// usedBy lists the transactions that consumed the payment's
	// signature on chain, from block from on.
	usedBy(ctx context.Context, chain scheme.Chain, pay *scheme.Payment, from uint64) ([]common.Hash, error)
}

// Name is "exact".
func (s *Scheme) Name() string { return x402.SchemeExact }

// Decode reads an exact payment: a permit2Authorization is Permit2's,
// anything else an EIP-3009 authorization signed by an EOA or by a
// contract wallet (see decodeSigned). A payload that does not decode but
// is an aa-native UserOperation is scheme_mismatch.
func (s *Scheme) Decode(req *x402.VerifyRequest) (*scheme.Payment, error) {
	if isPermit2(req.PaymentPayload.Payload) {
		return s.decodePermit2(req)
	}
	asset, _ := x402.ParseAddress(req.PaymentRequirements.Asset)
	m, a, err := s.decodeSigned(&req.PaymentPayload, common.Address(asset))
	if err != nil {
		if isUserOp(req.PaymentPayload.Payload) {
			return nil, x402.Invalid(x402.ReasonSchemeMismatch, "the payload is an aa-native UserOperation, the requirements are exact")
		}
		return nil, err
	}
	pay := &scheme.Payment{
		Key:   a.Key(s.cfg.ChainID, common.Address(asset)),
		Hash:  crypto.Keccak256Hash(m.PayloadHash().Bytes(), scheme.RequirementsHash(&req.PaymentRequirements).Bytes()),
		Payer: a.From, PayTo: a.To, Asset: common.Address(asset), Amount: a.Value,
		Mechanism: m,
	}
	if a.ValidBefore != nil && a.ValidBefore.IsInt64() {
		pay.ValidBefore = time.Unix(a.ValidBefore.Int64(), 0)
	}
	return pay, nil
}

// isUserOp reports whether payload has the shape of an aa-native payment:
// a userOp and no authorization.
func isUserOp(payload json.RawMessage) bool {
	var shape struct {
		Authorization json.RawMessage `json:"authorization"`
		UserOp        json.RawMessage `json:"userOp"`
	}
	return json.Unmarshal(payload, &shape) == nil && shape.UserOp != nil && shape.Authorization == nil
}

// mechanismOf is the mechanism that decoded pay.
func mechanismOf(pay *scheme.Payment) (mechanism, error) {
	m, ok := pay.Mechanism.(mechanism)
	if !ok {
		return nil, fmt.Errorf("the payment was not decoded by the exact scheme (%T)", pay.Mechanism)
	}
	return m, nil
}

// Verify checks a decoded payment with its mechanism's checks.
func (s *Scheme) Verify(ctx context.Context, pay *scheme.Payment, req *x402.VerifyRequest) error {
	m, err := mechanismOf(pay)
	if err != nil {
		return err
	}
	return m.verify(ctx, s, pay, req)
}

// Settlement is the mechanism's call, sent by the settler to the asset or
// to the mechanism's own target (Permit2's proxy, Multicall3).
func (s *Scheme) Settlement(pay *scheme.Payment) scheme.Settlement {
	m, err := mechanismOf(pay)
	if err != nil {
		return scheme.Settlement{To: pay.Asset}
	}
	return m.call(s, pay)
}

// KindV1 is exact's kind for x402 v1 clients, which pay exact (v1's one
// scheme) on the networks v1 names.
func (s *Scheme) KindV1(network string) (x402.SupportedKind, bool) {
	name, ok := x402.NetworkV1Name(network)
	if !ok {
		return x402.SupportedKind{}, false
	}
	return x402.SupportedKind{X402Version: 1, Scheme: s.Name(), Network: name}, true
}

var (
	_ scheme.Scheme = (*Scheme)(nil)
	_ scheme.V1     = (*Scheme)(nil)
	_ scheme.Finder = (*Scheme)(nil)
	_ mechanism     = (*Authorization)(nil)
	_ mechanism     = (*WalletAuthorization)(nil)
)

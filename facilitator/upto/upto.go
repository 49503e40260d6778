// Package upto is x402's upto scheme on EVM chains: the payer signs, with
// Permit2, a transfer of at most a maximum through x402's upto Permit2
// proxy, naming this facilitator as the one that may settle it; the server
// settles, after serving, the amount the response used (the settle
// request's requirements carry it, at most the maximum), and an amount of
// zero settles without a transaction. It implements [scheme.Scheme].
//
// The checks are those of exact's Permit2 mechanism, which it shares
// (facilitator/exact/upto.go).
package upto

import (
	"context"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Scheme is the upto scheme, over an exact scheme's assets and chain.
type Scheme struct{ ex *exact.Scheme }

// New returns the upto scheme of the facilitator whose exact scheme is ex
// (its assets, chain and settler).
func New(ex *exact.Scheme) *Scheme { return &Scheme{ex: ex} }

// Name is "upto".
func (s *Scheme) Name() string { return x402.SchemeUpto }

// Decode reads an upto payment (see exact.Scheme.DecodeUpto).
func (s *Scheme) Decode(req *x402.VerifyRequest) (*scheme.Payment, error) {
	return s.ex.DecodeUpto(req)
}

// Verify checks an upto payment (see exact.Scheme.VerifyUpto).
func (s *Scheme) Verify(ctx context.Context, pay *scheme.Payment, req *x402.VerifyRequest) error {
	return s.ex.VerifyUpto(ctx, pay, req)
}

// Settlement is the upto proxy's settle of the amount owed.
func (s *Scheme) Settlement(pay *scheme.Payment) scheme.Settlement { return s.ex.UptoSettlement(pay) }

// Outcome counts a settlement whose token logged the transfer of the
// amount owed from the payer to payTo, as exact's does.
func (s *Scheme) Outcome(rec *store.Record, receipt *types.Receipt) scheme.Outcome {
	return s.ex.Outcome(rec, receipt)
}

// SettledElsewhere finds a transaction other than rec's that settled an
// upto payment, as exact's Permit2 payments are found (see
// exact.Scheme.SettledElsewhere).
func (s *Scheme) SettledElsewhere(ctx context.Context, chain scheme.Chain, pay *scheme.Payment, rec *store.Record) (*types.Receipt, error) {
	return s.ex.SettledElsewhere(ctx, chain, pay, rec)
}

// Extra is what /supported advertises of upto, as upstream's upto
// facilitator does: the facilitator a payer must name (the settler).
func (s *Scheme) Extra(string) *x402.Extra {
	return &x402.Extra{FacilitatorAddress: s.ex.Settler().Hex()}
}

var (
	_ scheme.Scheme = (*Scheme)(nil)
	_ scheme.Finder = (*Scheme)(nil)
)

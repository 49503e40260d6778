package batchsettlement

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TypeSettle is the settle payload a merchant sends to sweep what was
// claimed for a receiver to it (scheme_batch_settlement_evm.md, "POST
// /settle"): the settlement contract's settle(receiver, token), which
// anyone may send.
const TypeSettle = "settle"

// CodeSweepPayload is the code of a malformed settle (sweep) payload; it
// is not one of upstream's.
const CodeSweepPayload Code = "invalid_batch_settlement_evm_settle_payload"

// sweepGas bounds a sweep: one storage write and a token transfer.
const sweepGas = 100_000

// Sweep is a merchant's sweep of what the settlement contract holds
// claimed and unswept for Receiver in Token. Verify reads that amount
// into Due; a sweep with nothing due sends nothing and answers "0".
type Sweep struct {
	Receiver, Token common.Address
	Due             *big.Int
}

// wireSweep is a sweep as upstream's server writes it.
type wireSweep struct {
	Type     string `json:"type"`
	Receiver string `json:"receiver"`
	Token    string `json:"token"`
}

// decodeSweep reads a settle payload.
func decodeSweep(data []byte) (*Payment, error) {
	var w wireSweep
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, refuse(CodeSweepPayload, "%v", err)
	}
	f := fields{code: CodeSweepPayload}
	sw := &Sweep{Receiver: f.address("receiver", w.Receiver), Token: f.address("token", w.Token), Due: new(big.Int)}
	if f.err != nil {
		return nil, f.err
	}
	if sw.Receiver == (common.Address{}) {
		return nil, refuse(CodeSweepPayload, "receiver is the zero address")
	}
	return &Payment{Type: TypeSettle, Config: configOf(sw), Sweep: sw, MaxClaimable: new(big.Int)}, nil
}

// configOf is the channel configuration a sweep's records name: its
// receiver and token.
func configOf(sw *Sweep) batchsettle.ChannelConfig {
	return batchsettle.ChannelConfig{Receiver: sw.Receiver, Token: sw.Token, WithdrawDelay: new(big.Int)}
}

// verifySweep checks a sweep: the requirements are this scheme's on this
// chain, its token is allowlisted, and it reads what is due to the
// receiver into the sweep (and the payment's amount, which the answer
// names).
func (s *Scheme) verifySweep(ctx context.Context, pay *Payment, req *x402.VerifyRequest) (*big.Int, error) {
	r, acc := &req.PaymentRequirements, &req.PaymentPayload.Accepted
	if r.Scheme != x402.SchemeBatchSettlement || acc.Scheme != r.Scheme {
		return nil, refuse(CodeScheme, "accepted scheme %q, required %q; this verifier settles %q", acc.Scheme, r.Scheme, x402.SchemeBatchSettlement)
	}
	if r.Network != s.network || acc.Network != r.Network {
		return nil, refuse(CodeNetworkMismatch, "required network %q, accepted %q; this facilitator settles on %q", r.Network, acc.Network, s.network)
	}
	sw := pay.Sweep
	if _, ok := s.assets[sw.Token]; !ok {
		return nil, refuse(CodeTokenMismatch, "token %s is not allowlisted", sw.Token)
	}
	out, err := s.call(ctx, s.cfg.Settlement, s.bs.PackReceivers(sw.Receiver, sw.Token))
	if err != nil {
		return nil, fmt.Errorf("reading what is due to %s: %w", sw.Receiver, err)
	}
	rs, err := s.bs.UnpackReceivers(out)
	if err != nil {
		return nil, fmt.Errorf("reading what is due to %s: %w", sw.Receiver, err)
	}
	due := new(big.Int).Sub(rs.TotalClaimed, rs.TotalSettled)
	if due.Sign() < 0 {
		due.SetInt64(0)
	}
	return due, nil
}

package batchsettlement

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Verify checks a decoded payment against req's requirements and the
// chain, in the binding's order (scheme_batch_settlement_evm.md,
// "Verification Rules"), cheapest first:
//
//  0. the requirements are this scheme's, on this chain, in an allowed
//     asset, and the payer accepted the offer's channel terms;
//  1. the channel config hashes to the channel id (in this chain's and
//     this contract's domain);
//  2. to 5. its token, receiver, receiver authorizer and withdraw delay are
//     the offer's (the delay within 15 minutes and 30 days);
//     -  a deposit's authorization is in its window and signed by the payer;
//  6. the voucher is signed by the payer authorizer (ECDSA), or when that
//     is zero by the payer (ECDSA, or ERC-1271 for a contract);
//  7. the channel holds something (a deposit excepted);
//  8. a depositing payer holds the deposit;
//  9. the voucher's ceiling is at most the balance (plus the deposit);
//  10. it is above what was claimed (a refund's or a deposit's may equal
//     it);
//  11. a refund has something to return, and a completed refund carries
//     the channel's refund nonce and the receiver authorizer's signature
//     of exactly its amount.
//
// An operator's refund (no payer voucher) skips rules 6, 9 and 10, which
// are the voucher's: the receiver authorizer's signature at the current
// nonce, which rule 11 requires of it, is its authorization. A merchant's
// sweep (type settle) is checked for this scheme, chain and an allowlisted
// token, and reads what is due to its receiver.
//
// Then it leaves the channel's snapshot in the payment (ChannelSnapshot).
// An error that is not a refusal means the chain could not be read.
func (s *Scheme) Verify(ctx context.Context, pay *scheme.Payment, req *x402.VerifyRequest) error {
	p, ok := pay.Mechanism.(*Payment)
	if !ok {
		return fmt.Errorf("the payment was not decoded by the batch-settlement scheme (%T)", pay.Mechanism)
	}
	if p.Sweep != nil {
		due, err := s.verifySweep(ctx, p, req)
		if err != nil {
			return err
		}
		p.Sweep.Due = due
		pay.Amount.Set(due) // the answer's amount: what the sweep moves
		return nil
	}
	asset, err := s.checkOffer(req)
	if err != nil {
		return err
	}
	if p.Claim != nil {
		return s.verifyClaim(ctx, p)
	}
	if err := s.checkConfig(p, &req.PaymentRequirements); err != nil {
		return err
	}
	if p.Deposit != nil {
		if err := s.checkDepositAuthorization(ctx, p, asset); err != nil {
			return err
		}
	}
	operator := p.Refund != nil && p.Refund.Operator
	if !operator {
		if err := s.checkVoucherSignature(ctx, p); err != nil {
			return err
		}
	}
	snap, err := s.snapshot(ctx, p.ChannelID)
	if err != nil {
		return err
	}
	ceiling := snap.Balance
	if d := p.Deposit; d != nil {
		held, err := s.balanceOf(ctx, p.Config.Token, p.Config.Payer)
		if err != nil {
			return err
		}
		pay.Funds = held
		if held.Cmp(d.Amount) < 0 { // rule 8
			return refuse(CodeInsufficientBalance, "the payer holds %s, the deposit is %s", held, d.Amount)
		}
		ceiling = new(big.Int).Add(snap.Balance, d.Amount)
	} else if snap.Balance.Sign() == 0 { // rule 7
		return refuse(CodeChannelNotFound, "channel %s holds nothing", p.ChannelID)
	}
	if !operator {
		if p.MaxClaimable.Cmp(ceiling) > 0 { // rule 9
			return refuse(CodeCumulativeExceedsBalance, "the voucher's ceiling %s is above what the channel holds, %s", p.MaxClaimable, ceiling)
		}
		switch c := p.MaxClaimable.Cmp(snap.TotalClaimed); { // rule 10
		case c < 0, c == 0 && p.Type == TypeVoucher:
			return refuse(CodeCumulativeBelowClaimed, "the voucher's ceiling %s is not above the %s already claimed", p.MaxClaimable, snap.TotalClaimed)
		}
	}
	if p.Refund != nil {
		if err := s.checkRefund(ctx, p, snap); err != nil { // rule 11
			return err
		}
	}
	p.Snapshot = snap
	return nil
}

// checkOffer checks the requirements and what the payer accepted of them,
// and returns the asset.
func (s *Scheme) checkOffer(req *x402.VerifyRequest) (Asset, error) {
	r, acc := &req.PaymentRequirements, &req.PaymentPayload.Accepted
	if r.Scheme != x402.SchemeBatchSettlement || acc.Scheme != r.Scheme {
		return Asset{}, refuse(CodeScheme, "accepted scheme %q, required %q; this verifier settles %q", acc.Scheme, r.Scheme, x402.SchemeBatchSettlement)
	}
	if r.Network != s.network || acc.Network != r.Network {
		return Asset{}, refuse(CodeNetworkMismatch, "required network %q, accepted %q; this facilitator settles on %q", r.Network, acc.Network, s.network)
	}
	a, _ := x402.ParseAddress(r.Asset)
	asset, ok := s.assets[common.Address(a)]
	if !ok {
		return Asset{}, refuse(CodeTokenMismatch, "asset %s is not allowlisted", r.Asset)
	}
	if b, _ := x402.ParseAddress(acc.Asset); b != a {
		return Asset{}, refuse(CodeTokenMismatch, "accepted asset %s differs from the required %s", acc.Asset, r.Asset)
	}
	if b, _ := x402.ParseAddress(acc.PayTo); b != mustAddress(r.PayTo) {
		return Asset{}, refuse(CodeReceiverMismatch, "accepted payTo %s differs from the required %s", acc.PayTo, r.PayTo)
	}
	if r.Extra == nil || r.Extra.ReceiverAuthorizer == "" {
		return Asset{}, refuse(CodeReceiverAuthorizer, "the requirements name no receiverAuthorizer")
	}
	ra, err := x402.ParseAddress(r.Extra.ReceiverAuthorizer)
	if err != nil || ra == ([20]byte{}) {
		return Asset{}, refuse(CodeReceiverAuthorizer, "the requirements' receiverAuthorizer %q is not an address other than zero", r.Extra.ReceiverAuthorizer)
	}
	if acc.Extra == nil || acc.Extra.ReceiverAuthorizer == "" || mustAddress(acc.Extra.ReceiverAuthorizer) != ra {
		return Asset{}, refuse(CodeReceiverAuthorizer, "the accepted offer's receiverAuthorizer differs from the required %s", r.Extra.ReceiverAuthorizer)
	}
	if acc.Extra.WithdrawDelay != r.Extra.WithdrawDelay {
		return Asset{}, refuse(CodeWithdrawDelayMismatch, "accepted withdrawDelay %d, required %d", acc.Extra.WithdrawDelay, r.Extra.WithdrawDelay)
	}
	return asset, nil
}

// mustAddress is s parsed, or zero; the requirements' addresses are
// validated before any scheme sees them.
func mustAddress(s string) [20]byte {
	a, _ := x402.ParseAddress(s)
	return a
}

// checkConfig enforces rules 1 to 5: the config is the channel's, and its
// terms are the offer's.
func (s *Scheme) checkConfig(p *Payment, r *x402.PaymentRequirements) error {
	c := p.Config
	if id := s.dom.ChannelID(c); id != p.ChannelID {
		return refuse(CodeChannelIDMismatch, "the channel config hashes to %s, the voucher names %s", id, p.ChannelID)
	}
	if c.Token != common.Address(mustAddress(r.Asset)) {
		return refuse(CodeTokenMismatch, "the channel's token %s is not the asset %s", c.Token, r.Asset)
	}
	if c.Receiver != common.Address(mustAddress(r.PayTo)) {
		return refuse(CodeReceiverMismatch, "the channel's receiver %s is not payTo %s", c.Receiver, r.PayTo)
	}
	if c.ReceiverAuthorizer != common.Address(mustAddress(r.Extra.ReceiverAuthorizer)) {
		return refuse(CodeReceiverAuthorizer, "the channel's receiver authorizer %s is not the offer's %s", c.ReceiverAuthorizer, r.Extra.ReceiverAuthorizer)
	}
	if !c.WithdrawDelay.IsInt64() || c.WithdrawDelay.Int64() != int64(r.Extra.WithdrawDelay) {
		return refuse(CodeWithdrawDelayMismatch, "the channel's withdraw delay %s is not the offer's %d", c.WithdrawDelay, r.Extra.WithdrawDelay)
	}
	if d := c.WithdrawDelay.Int64(); d < batchsettle.MinWithdrawDelay || d > batchsettle.MaxWithdrawDelay {
		return refuse(CodeWithdrawDelayOutOfRange, "withdraw delay %d s is outside %d to %d", d, batchsettle.MinWithdrawDelay, batchsettle.MaxWithdrawDelay)
	}
	return nil
}

// checkVoucherSignature enforces rule 6, as the contract's claim checks it.
func (s *Scheme) checkVoucherSignature(ctx context.Context, p *Payment) error {
	digest := s.dom.VoucherDigest(p.ChannelID, p.MaxClaimable)
	if a := p.Config.PayerAuthorizer; a != (common.Address{}) {
		if !recovers(digest, p.Signature, a) {
			return refuse(CodeVoucherSignature, "the voucher is not signed by the payer authorizer %s", a)
		}
		return nil
	}
	ok, err := s.signedBy(ctx, p.Config.Payer, digest, p.Signature)
	if err != nil {
		return err
	}
	if !ok {
		return refuse(CodeVoucherSignature, "the voucher is not signed by the payer %s", p.Config.Payer)
	}
	return nil
}

// checkDepositAuthorization checks a deposit's token authorization: its
// window, its terms and the payer's signature. The token and Permit2 check
// the nonce when the deposit is sent.
func (s *Scheme) checkDepositAuthorization(ctx context.Context, p *Payment, asset Asset) error {
	now := s.cfg.Now()
	if e := p.Deposit.ERC3009; e != nil {
		if asset.Name == "" || asset.Version == "" {
			return refuse(CodeMissingEIP712Domain, "asset %s has no EIP-712 domain for EIP-3009 deposits", asset.Address)
		}
		if e.ValidAfter.Cmp(big.NewInt(now.Unix())) > 0 {
			return refuse(CodeValidAfter, "the authorization is valid after %s, not yet", e.ValidAfter)
		}
		if e.ValidBefore.Cmp(big.NewInt(now.Add(s.cfg.MinValidity).Unix())) < 0 {
			return refuse(CodeValidBefore, "the authorization expires at %s, too soon", e.ValidBefore)
		}
		auth := batchsettle.ReceiveAuthorization{
			From: p.Config.Payer, To: s.cfg.ERC3009Collector, Value: p.Deposit.Amount,
			ValidAfter: e.ValidAfter, ValidBefore: e.ValidBefore, Nonce: batchsettle.DepositNonce(p.ChannelID, e.Salt),
		}
		digest, err := auth.Digest(contracts.TokenDomain{Name: asset.Name, Version: asset.Version, ChainID: s.cfg.ChainID, Token: asset.Address})
		if err != nil {
			return refuse(CodeDepositPayload, "%v", err)
		}
		ok, err := s.signedBy(ctx, p.Config.Payer, digest, e.Signature)
		if err != nil {
			return err
		}
		if !ok {
			return refuse(CodeReceiveAuthSignature, "the ReceiveWithAuthorization is not signed by the payer %s", p.Config.Payer)
		}
		return nil
	}
	a := p.Deposit.Permit2
	switch {
	case a == nil:
		return refuse(CodePermit2Required, "the deposit carries no authorization")
	case a.From != p.Config.Payer:
		return refuse(CodePermit2InvalidSignature, "the permit is from %s, the payer is %s", a.From, p.Config.Payer)
	case a.Spender != s.cfg.Permit2Collector:
		return refuse(CodePermit2InvalidSpender, "the permit's spender %s is not the Permit2 collector %s", a.Spender, s.cfg.Permit2Collector)
	case a.Token != asset.Address:
		return refuse(CodeTokenMismatch, "the permit's token %s is not the asset %s", a.Token, asset.Address)
	case a.Amount.Cmp(p.Deposit.Amount) != 0:
		return refuse(CodePermit2AmountMismatch, "the permit's amount %s is not the deposit's %s", a.Amount, p.Deposit.Amount)
	case a.Witness != p.ChannelID:
		return refuse(CodeChannelIDMismatch, "the permit's witness names channel %s, the voucher %s", a.Witness, p.ChannelID)
	case a.Deadline.Cmp(big.NewInt(now.Add(s.cfg.MinValidity).Unix())) < 0:
		return refuse(CodePermit2DeadlineExpired, "the permit's deadline %s is too soon", a.Deadline)
	}
	digest, err := s.permit2Digest(a)
	if err != nil {
		return refuse(CodeDepositPayload, "%v", err)
	}
	ok, err := s.signedBy(ctx, p.Config.Payer, digest, a.Signature)
	if err != nil {
		return err
	}
	if !ok {
		return refuse(CodePermit2InvalidSignature, "the permit is not signed by the payer %s", p.Config.Payer)
	}
	return nil
}

// permit2Digest is the EIP-712 digest of a's PermitWitnessTransferFrom in
// Permit2's domain, with the deposit's witness type.
func (s *Scheme) permit2Digest(a *Permit2Authorization) (common.Hash, error) {
	h, _, err := apitypes.TypedDataAndHash(apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
			"PermitWitnessTransferFrom": {
				{Name: "permitted", Type: "TokenPermissions"}, {Name: "spender", Type: "address"}, {Name: "nonce", Type: "uint256"},
				{Name: "deadline", Type: "uint256"}, {Name: "witness", Type: "DepositWitness"},
			},
			"TokenPermissions": {{Name: "token", Type: "address"}, {Name: "amount", Type: "uint256"}},
			"DepositWitness":   {{Name: "channelId", Type: "bytes32"}},
		},
		PrimaryType: "PermitWitnessTransferFrom",
		Domain:      apitypes.TypedDataDomain{Name: "Permit2", ChainId: (*math.HexOrDecimal256)(s.cfg.ChainID), VerifyingContract: s.cfg.Permit2.Hex()},
		Message: apitypes.TypedDataMessage{
			"permitted": map[string]any{"token": a.Token.Hex(), "amount": a.Amount.String()},
			"spender":   a.Spender.Hex(), "nonce": a.Nonce.String(), "deadline": a.Deadline.String(),
			"witness": map[string]any{"channelId": hexutil.Encode(a.Witness[:])},
		},
	})
	if err != nil {
		return common.Hash{}, fmt.Errorf("hashing the Permit2 deposit: %w", err)
	}
	return common.BytesToHash(h), nil
}

// checkRefund enforces rule 11 on a refund payload: there is something to
// return, and a completed refund is the channel's next and signed for its
// amount by the receiver authorizer.
func (s *Scheme) checkRefund(ctx context.Context, p *Payment, snap Snapshot) error {
	if new(big.Int).Sub(snap.Balance, snap.TotalClaimed).Sign() <= 0 {
		return refuse(CodeRefundNoBalance, "channel %s has nothing unclaimed to refund", p.ChannelID)
	}
	r := p.Refund
	if r.Claim != nil {
		for i, row := range r.Claim.Rows {
			if s.dom.ChannelID(row.Voucher.Channel) != p.ChannelID {
				return refuse(CodeRefundPayload, "the refund's claim %d is of another channel", i)
			}
		}
		if err := s.checkClaim(ctx, r.Claim, false); err != nil {
			return err
		}
	}
	if r.Nonce != nil && r.Nonce.Cmp(snap.RefundNonce) != 0 {
		return refuse(CodeRefundNonce, "the refund's nonce %s is not the channel's %s", r.Nonce, snap.RefundNonce)
	}
	if r.AuthorizerSig == nil {
		return nil
	}
	digest := s.dom.RefundDigest(p.ChannelID, r.Nonce, r.Amount)
	ok, err := s.signedBy(ctx, p.Config.ReceiverAuthorizer, digest, r.AuthorizerSig)
	if err != nil {
		return err
	}
	if !ok {
		return refuse(CodeRefundSignature, "the refund of %s at nonce %s is not signed by the receiver authorizer %s", r.Amount, r.Nonce, p.Config.ReceiverAuthorizer)
	}
	return nil
}

package batchsettlement

import (
	"context"
	"encoding/json"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// TypeClaim is the settle payload a merchant sends to claim its channels'
// latest vouchers (scheme_batch_settlement_evm.md, "POST /settle").
const TypeClaim = "claim"

// maxClaimRows bounds a claim's rows: about 20,000 gas each, so a block
// holds far more, and a claim of a few hundred channels is already one
// transaction for a day of a busy merchant's requests.
const maxClaimRows = 256

// Claim is a merchant's claim of many channels' vouchers, authorized by
// their common receiver authorizer's ClaimBatch signature. Its settlement
// claims them all and sweeps what was claimed to each receiver, in one
// transaction (the settlement contract's multicall).
type Claim struct {
	Rows          []batchsettle.VoucherClaim
	AuthorizerSig []byte
}

// wireClaim is a claim as upstream's server writes it.
type wireClaim struct {
	Claims        []wireClaimRow `json:"claims"`
	AuthorizerSig *string        `json:"claimAuthorizerSignature"`
}

// wireClaimRow is one row of a claim: a voucher of a channel, its
// signature and the total it claims.
type wireClaimRow struct {
	Voucher struct {
		Channel            *wireConfig `json:"channel"`
		MaxClaimableAmount string      `json:"maxClaimableAmount"`
	} `json:"voucher"`
	Signature    string `json:"signature"`
	TotalClaimed string `json:"totalClaimed"`
}

// decodeClaim reads a claim payload.
func decodeClaim(data []byte) (*Payment, error) {
	c, err := readClaim(data, CodeClaimPayload)
	if err != nil {
		return nil, err
	}
	first := c.Rows[0].Voucher.Channel
	return &Payment{Type: TypeClaim, Config: first, Claim: c, MaxClaimable: new(big.Int), Signature: c.AuthorizerSig}, nil
}

// readClaim reads the claims and claimAuthorizerSignature of a claim
// payload, or of a refund a server completed; a refusal has code.
func readClaim(data []byte, code Code) (*Claim, error) {
	var w wireClaim
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, refuse(code, "%v", err)
	}
	f := fields{code: code}
	switch {
	case len(w.Claims) == 0:
		return nil, refuse(code, "claims is empty")
	case len(w.Claims) > maxClaimRows:
		return nil, refuse(code, "%d claims, at most %d", len(w.Claims), maxClaimRows)
	case w.AuthorizerSig == nil:
		return nil, refuse(code, "claimAuthorizerSignature is missing: this facilitator holds no receiver authorizer's key")
	}
	c := &Claim{AuthorizerSig: f.bytes("claimAuthorizerSignature", *w.AuthorizerSig)}
	for _, row := range w.Claims {
		cfg := row.Voucher.Channel
		if cfg == nil {
			return nil, refuse(CodeClaimPayload, "a claim has no channel")
		}
		c.Rows = append(c.Rows, batchsettle.VoucherClaim{
			Voucher: batchsettle.X402BatchSettlementVoucher{
				Channel: batchsettle.ChannelConfig{
					Payer: f.address("channel.payer", cfg.Payer), PayerAuthorizer: f.address("channel.payerAuthorizer", cfg.PayerAuthorizer),
					Receiver: f.address("channel.receiver", cfg.Receiver), ReceiverAuthorizer: f.address("channel.receiverAuthorizer", cfg.ReceiverAuthorizer),
					Token: f.address("channel.token", cfg.Token), WithdrawDelay: f.delay(cfg.WithdrawDelay), Salt: f.hash("channel.salt", cfg.Salt),
				},
				MaxClaimableAmount: f.amount("voucher.maxClaimableAmount", row.Voucher.MaxClaimableAmount, maxUint128),
			},
			Signature:    f.bytes("signature", row.Signature),
			TotalClaimed: f.amount("totalClaimed", row.TotalClaimed, maxUint128),
		})
	}
	if f.err != nil {
		return nil, f.err
	}
	return c, nil
}

// verifyClaim checks a claim as the contract will: every row's channel has
// the first row's receiver authorizer, who signed the batch; each row's
// voucher is its payer's, its total at most the voucher's ceiling and the
// channel's balance; and some row claims more than the chain has claimed.
func (s *Scheme) verifyClaim(ctx context.Context, p *Payment) error {
	return s.checkClaim(ctx, p.Claim, true)
}

// checkClaim is verifyClaim's checks of c; a claim that claims nothing new
// is refused only with needMore (a refund's claims may all be done).
func (s *Scheme) checkClaim(ctx context.Context, c *Claim, needMore bool) error {
	authorizer := c.Rows[0].Voucher.Channel.ReceiverAuthorizer
	more := false
	for i, row := range c.Rows {
		cfg := row.Voucher.Channel
		if cfg.ReceiverAuthorizer != authorizer {
			return refuse(CodeReceiverAuthorizer, "claim %d's receiver authorizer %s is not the batch's %s", i, cfg.ReceiverAuthorizer, authorizer)
		}
		if _, ok := s.assets[cfg.Token]; !ok {
			return refuse(CodeTokenMismatch, "claim %d's token %s is not allowlisted", i, cfg.Token)
		}
		if row.TotalClaimed.Cmp(row.Voucher.MaxClaimableAmount) > 0 {
			return refuse(CodeCumulativeExceedsBalance, "claim %d claims %s, above its voucher's %s", i, row.TotalClaimed, row.Voucher.MaxClaimableAmount)
		}
		one := &Payment{Config: cfg, ChannelID: s.dom.ChannelID(cfg), MaxClaimable: row.Voucher.MaxClaimableAmount, Signature: row.Signature}
		if err := s.checkVoucherSignature(ctx, one); err != nil {
			return err
		}
		snap, err := s.snapshot(ctx, one.ChannelID)
		if err != nil {
			return err
		}
		if row.TotalClaimed.Cmp(snap.TotalClaimed) > 0 {
			more = true
			if row.TotalClaimed.Cmp(snap.Balance) > 0 {
				return refuse(CodeCumulativeExceedsBalance, "claim %d claims %s of channel %s, which holds %s", i, row.TotalClaimed, one.ChannelID, snap.Balance)
			}
		}
	}
	if !more && needMore {
		return refuse(CodeNothingToClaim, "every channel of the claim has claimed that much already")
	}
	digest := s.dom.ClaimBatchDigest(s.dom.Entries(c.Rows))
	ok, err := s.signedBy(ctx, authorizer, digest, c.AuthorizerSig)
	if err != nil {
		return err
	}
	if !ok {
		return refuse(CodeReceiverAuthorizer, "the claim batch is not signed by its receiver authorizer %s", authorizer)
	}
	return nil
}

// claimCall is a claim's transaction: claimWithSignature, then a sweep of
// each receiver and token it claims for, in one multicall.
func (s *Scheme) claimCall(c *Claim) []byte {
	return s.bs.PackMulticall(s.claimCalls(c))
}

// claimCalls are the calls of claimCall.
func (s *Scheme) claimCalls(c *Claim) [][]byte {
	calls := [][]byte{s.bs.PackClaimWithSignature(c.Rows, c.AuthorizerSig)}
	swept := make(map[[2]common.Address]bool)
	for _, row := range c.Rows {
		k := [2]common.Address{row.Voucher.Channel.Receiver, row.Voucher.Channel.Token}
		if !swept[k] {
			swept[k] = true
			calls = append(calls, s.bs.PackSettle(k[0], k[1]))
		}
	}
	return calls
}

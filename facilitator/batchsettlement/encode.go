package batchsettlement

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// The merchant's settle payloads, as DecodePayload reads them and
// upstream's server writes them: what a claimer sends the facilitator.

// ClaimPayload is the settle payload of a claim of rows (at most 256, of
// one receiver authorizer), sig the receiver authorizer's ClaimBatch
// signature of them.
func ClaimPayload(rows []batchsettle.VoucherClaim, sig []byte) (json.RawMessage, error) {
	if len(rows) == 0 || len(rows) > maxClaimRows {
		return nil, fmt.Errorf("a claim of %d rows: want 1 to %d", len(rows), maxClaimRows)
	}
	s := hexutil.Encode(sig)
	return json.Marshal(struct {
		Type string `json:"type"`
		wireClaim
	}{TypeClaim, wireClaim{Claims: wireRows(rows), AuthorizerSig: &s}})
}

// OperatorRefundPayload is the settle payload of an operator's refund of
// amount of channel cfg at refund nonce nonce, refundSig the receiver
// authorizer's Refund signature of them; rows, if any, claim what was
// served first, in the same transaction, claimSig signing them. It
// carries no payer voucher (Refund.Operator).
func OperatorRefundPayload(cfg batchsettle.ChannelConfig, amount, nonce *big.Int, refundSig []byte, rows []batchsettle.VoucherClaim, claimSig []byte) (json.RawMessage, error) {
	if len(rows) > maxClaimRows {
		return nil, fmt.Errorf("a refund's claim of %d rows: want at most %d", len(rows), maxClaimRows)
	}
	type refund struct {
		Type          string         `json:"type"`
		ChannelConfig *wireConfig    `json:"channelConfig"`
		Amount        string         `json:"amount"`
		RefundNonce   string         `json:"refundNonce"`
		RefundSig     string         `json:"refundAuthorizerSignature"`
		Claims        []wireClaimRow `json:"claims,omitempty"`
		ClaimSig      string         `json:"claimAuthorizerSignature,omitempty"`
	}
	r := refund{Type: TypeRefund, ChannelConfig: wireConfigOf(cfg), Amount: amount.String(), RefundNonce: nonce.String(), RefundSig: hexutil.Encode(refundSig)}
	if len(rows) > 0 {
		r.Claims, r.ClaimSig = wireRows(rows), hexutil.Encode(claimSig)
	}
	return json.Marshal(r)
}

// SweepPayload is the settle payload that sweeps what was claimed for
// receiver in token to it.
func SweepPayload(receiver, token common.Address) json.RawMessage {
	raw, _ := json.Marshal(wireSweep{Type: TypeSettle, Receiver: receiver.Hex(), Token: token.Hex()}) // cannot fail
	return raw
}

// wireRows is rows in the wire form.
func wireRows(rows []batchsettle.VoucherClaim) []wireClaimRow {
	out := make([]wireClaimRow, len(rows))
	for i, r := range rows {
		out[i].Voucher.Channel = wireConfigOf(r.Voucher.Channel)
		out[i].Voucher.MaxClaimableAmount = r.Voucher.MaxClaimableAmount.String()
		out[i].Signature, out[i].TotalClaimed = hexutil.Encode(r.Signature), r.TotalClaimed.String()
	}
	return out
}

// wireConfigOf is c in the wire form.
func wireConfigOf(c batchsettle.ChannelConfig) *wireConfig {
	return &wireConfig{
		Payer: c.Payer.Hex(), PayerAuthorizer: c.PayerAuthorizer.Hex(), Receiver: c.Receiver.Hex(),
		ReceiverAuthorizer: c.ReceiverAuthorizer.Hex(), Token: c.Token.Hex(),
		WithdrawDelay: json.Number(strconv.FormatUint(c.WithdrawDelay.Uint64(), 10)), Salt: hexutil.Encode(c.Salt[:]),
	}
}

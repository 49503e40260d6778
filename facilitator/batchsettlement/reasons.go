package batchsettlement

import (
	"fmt"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Code is one of upstream's batch-settlement refusal codes
// (scheme_batch_settlement_evm.md, "Error Codes"), which upstream's clients
// and servers branch on.
type Code string

// The codes this package refuses with.
const (
	CodeScheme                   Code = "invalid_batch_settlement_evm_scheme"
	CodeNetworkMismatch          Code = "invalid_batch_settlement_evm_network_mismatch"
	CodePayloadType              Code = "invalid_batch_settlement_evm_payload_type"
	CodeDepositPayload           Code = "invalid_batch_settlement_evm_deposit_payload"
	CodeVoucherPayload           Code = "invalid_batch_settlement_evm_voucher_payload"
	CodeRefundPayload            Code = "invalid_batch_settlement_evm_refund_payload"
	CodeChannelIDMismatch        Code = "invalid_batch_settlement_evm_channel_id_mismatch"
	CodeTokenMismatch            Code = "invalid_batch_settlement_evm_token_mismatch"
	CodeReceiverMismatch         Code = "invalid_batch_settlement_evm_receiver_mismatch"
	CodeReceiverAuthorizer       Code = "invalid_batch_settlement_evm_receiver_authorizer_mismatch"
	CodeWithdrawDelayMismatch    Code = "invalid_batch_settlement_evm_withdraw_delay_mismatch"
	CodeWithdrawDelayOutOfRange  Code = "invalid_batch_settlement_evm_withdraw_delay_out_of_range"
	CodeVoucherSignature         Code = "invalid_batch_settlement_evm_voucher_signature"
	CodeChannelNotFound          Code = "invalid_batch_settlement_evm_channel_not_found"
	CodeInsufficientBalance      Code = "invalid_batch_settlement_evm_insufficient_balance"
	CodeCumulativeExceedsBalance Code = "invalid_batch_settlement_evm_cumulative_exceeds_balance"
	CodeCumulativeBelowClaimed   Code = "invalid_batch_settlement_evm_cumulative_below_claimed"
	CodeRefundAmountInvalid      Code = "invalid_batch_settlement_evm_refund_amount_invalid"
	CodeRefundNoBalance          Code = "invalid_batch_settlement_evm_refund_no_balance"
	CodeMissingEIP712Domain      Code = "invalid_batch_settlement_evm_missing_eip712_domain"
	CodeValidAfter               Code = "invalid_batch_settlement_evm_payload_authorization_valid_after"
	CodeValidBefore              Code = "invalid_batch_settlement_evm_payload_authorization_valid_before"
	CodeReceiveAuthSignature     Code = "invalid_batch_settlement_evm_receive_authorization_signature"
	CodeERC3009Required          Code = "invalid_batch_settlement_evm_erc3009_authorization_required"
	CodePermit2Required          Code = "invalid_batch_settlement_evm_permit2_authorization_required"
	CodePermit2AmountMismatch    Code = "invalid_batch_settlement_evm_permit2_amount_mismatch"
	CodePermit2DeadlineExpired   Code = "invalid_batch_settlement_evm_permit2_deadline_expired"
	CodePermit2InvalidSignature  Code = "invalid_batch_settlement_evm_permit2_invalid_signature"
	CodePermit2InvalidSpender    Code = "invalid_batch_settlement_evm_permit2_invalid_spender"
	// CodeRefundNonce is not one of upstream's: a refund whose nonce is
	// not the channel's (upstream's facilitator finds it when the
	// transaction reverts).
	CodeRefundNonce Code = "invalid_batch_settlement_evm_refund_nonce"
	// CodeRefundSignature is not one of upstream's: a receiver
	// authorizer's refund signature that does not recover to it.
	CodeRefundSignature Code = "invalid_batch_settlement_evm_refund_signature"
	// CodeClaimPayload is upstream's code of a malformed claim payload.
	CodeClaimPayload Code = "invalid_batch_settlement_evm_claim_payload"
	// CodeNothingToClaim is not one of upstream's: a claim whose every
	// channel has claimed that much already.
	CodeNothingToClaim Code = "invalid_batch_settlement_evm_nothing_to_claim"
)

// reasons maps each code to the spec's reason, which the facilitator's
// edge answers with; upstream's code starts the message.
var reasons = map[Code]x402.InvalidReason{
	CodeScheme:                   x402.ReasonSchemeMismatch,
	CodeNetworkMismatch:          x402.ReasonNetworkMismatch,
	CodePayloadType:              x402.ReasonMalformedRequest,
	CodeDepositPayload:           x402.ReasonMalformedRequest,
	CodeVoucherPayload:           x402.ReasonMalformedRequest,
	CodeRefundPayload:            x402.ReasonMalformedRequest,
	CodeChannelIDMismatch:        x402.ReasonInvalidInnerPayload,
	CodeTokenMismatch:            x402.ReasonAssetNotAllowed,
	CodeReceiverMismatch:         x402.ReasonInvalidInnerPayload,
	CodeReceiverAuthorizer:       x402.ReasonInvalidInnerPayload,
	CodeWithdrawDelayMismatch:    x402.ReasonInvalidInnerPayload,
	CodeWithdrawDelayOutOfRange:  x402.ReasonInvalidInnerPayload,
	CodeVoucherSignature:         x402.ReasonSignatureInvalid,
	CodeChannelNotFound:          x402.ReasonInvalidInnerPayload,
	CodeInsufficientBalance:      x402.ReasonInvalidInnerPayload,
	CodeCumulativeExceedsBalance: x402.ReasonAmountMismatch,
	CodeCumulativeBelowClaimed:   x402.ReasonAmountMismatch,
	CodeRefundAmountInvalid:      x402.ReasonInvalidInnerPayload,
	CodeRefundNoBalance:          x402.ReasonInvalidInnerPayload,
	CodeMissingEIP712Domain:      x402.ReasonInvalidInnerPayload,
	CodeValidAfter:               x402.ReasonInvalidInnerPayload,
	CodeValidBefore:              x402.ReasonInvalidInnerPayload,
	CodeReceiveAuthSignature:     x402.ReasonSignatureInvalid,
	CodeERC3009Required:          x402.ReasonInvalidInnerPayload,
	CodePermit2Required:          x402.ReasonInvalidInnerPayload,
	CodePermit2AmountMismatch:    x402.ReasonAmountMismatch,
	CodePermit2DeadlineExpired:   x402.ReasonInvalidInnerPayload,
	CodePermit2InvalidSignature:  x402.ReasonSignatureInvalid,
	CodePermit2InvalidSpender:    x402.ReasonInvalidInnerPayload,
	CodeRefundNonce:              x402.ReasonInvalidInnerPayload,
	CodeRefundSignature:          x402.ReasonSignatureInvalid,
	CodeClaimPayload:             x402.ReasonMalformedRequest,
	CodeNothingToClaim:           x402.ReasonInvalidInnerPayload,
	CodeSweepPayload:             x402.ReasonMalformedRequest,
}

// Refusal is a refused batch-settlement payment: upstream's code beside the
// spec's refusal, which it unwraps to, so the facilitator's edge treats it
// as every scheme's *x402.Error.
type Refusal struct {
	Code Code
	Err  *x402.Error
}

// Error is the spec's refusal, its message starting with the code.
func (r *Refusal) Error() string { return r.Err.Error() }

// Unwrap returns the spec's refusal.
func (r *Refusal) Unwrap() error { return r.Err }

// refuse returns a Refusal of code, its message the code and then the
// formatted detail.
func refuse(code Code, format string, args ...any) *Refusal {
	reason, ok := reasons[code]
	if !ok {
		reason = x402.ReasonInvalidInnerPayload
	}
	return &Refusal{Code: code, Err: &x402.Error{Reason: reason, Message: string(code) + ": " + fmt.Sprintf(format, args...)}}
}

package x402

import (
	"encoding/json"
)

// PaymentRequirements is one way a resource can be paid for: one entry of a
// [PaymentRequired]'s accepts, and the accepted offer a payer echoes back.
type PaymentRequirements struct {
	// Scheme is SchemeExact or SchemeAANative.
	Scheme string `json:"scheme"`
	// Network is a CAIP-2 network id such as "eip155:8453".
	Network string `json:"network"`
	// Amount is the price in atomic units of Asset, in decimal.
	Amount string `json:"amount"`
	// Asset is the ERC-20 token address.
	Asset string `json:"asset"`
	// PayTo is the merchant's recipient address.
	PayTo string `json:"payTo"`
	// MaxTimeoutSeconds bounds how long the payment may take. The spec makes
	// it optional; upstream clients require it, so offers always carry it.
	MaxTimeoutSeconds int `json:"maxTimeoutSeconds,omitempty"`
	// Extra holds the scheme's parameters (see [Extra]).
	Extra *Extra `json:"extra,omitempty"`
}

// Extra is the scheme-specific part of [PaymentRequirements].
type Extra struct {
	// Name is the token's EIP-712 domain name (exact). Upstream clients
	// refuse to sign without it.
	Name string `json:"name,omitempty"`
	// Version is the token's EIP-712 domain version (exact).
	Version string `json:"version,omitempty"`
	// EntryPoint is the ERC-4337 EntryPoint address (aa-native).
	EntryPoint string `json:"entryPoint,omitempty"`
	// EntryPointVersion is the EntryPoint's ERC-4337 version, "0.6" or
	// "0.7" (aa-native); absent means "0.6". A v0.7 offer's userOp takes
	// ERC-7769's v0.7 fields (factory, factoryData, paymaster, …).
	EntryPointVersion string `json:"entryPointVersion,omitempty"`
	// Factory is the canonical smart-account factory (aa-native).
	Factory string `json:"factory,omitempty"`
	// Settlement is the settlement contract address (aa-native).
	Settlement string `json:"settlement,omitempty"`
	// SponsorURL is where a payer asks for gas sponsorship (aa-native).
	SponsorURL string `json:"sponsorUrl,omitempty"`
	// AssetTransferMethod is how an exact payment moves the tokens:
	// "eip3009" (the default when empty) or "permit2" (through Permit2 and
	// x402's exact Permit2 proxy, for tokens without EIP-3009).
	AssetTransferMethod string `json:"assetTransferMethod,omitempty"`
	// FacilitatorAddress is the one address that may settle an upto
	// payment, which the payer signs into its witness (upto).
	FacilitatorAddress string `json:"facilitatorAddress,omitempty"`
	// ReceiverAuthorizer is the address whose EIP-712 signatures authorize
	// the claims and refunds of the channels that pay this offer
	// (batch-settlement).
	ReceiverAuthorizer string `json:"receiverAuthorizer,omitempty"`
	// WithdrawDelay is how many seconds a payer's timed withdrawal takes,
	// 900 to 2,592,000 (batch-settlement); a JSON number.
	WithdrawDelay int `json:"withdrawDelay,omitempty"`
	// MinDeposit is the least a deposit into a channel may move, in
	// atomic units (batch-settlement): a deposit costs the facilitator a
	// transaction, so it must buy more than one request.
	MinDeposit string `json:"minDeposit,omitempty"`
	// ChannelState is the server's snapshot of the payer's channel, only
	// in a corrective 402 after a cumulative-amount mismatch
	// (batch-settlement).
	ChannelState *ChannelState `json:"channelState,omitempty"`
	// VoucherState is the last voucher the server holds of the payer's
	// channel, only in a corrective 402 (batch-settlement).
	VoucherState *VoucherState `json:"voucherState,omitempty"`
}

// ChannelState is a batch-settlement channel's snapshot: what it holds on
// chain and, from a server, what it has been charged.
type ChannelState struct {
	// ChannelID is the channel id, 0x and 64 hex digits.
	ChannelID string `json:"channelId"`
	// Balance and TotalClaimed are the channel's on-chain balance and
	// claimed total, in atomic units.
	Balance      string `json:"balance"`
	TotalClaimed string `json:"totalClaimed"`
	// WithdrawRequestedAt is when the payer started a timed withdrawal
	// (unix seconds), zero if it has not.
	WithdrawRequestedAt int64 `json:"withdrawRequestedAt"`
	// RefundNonce is the nonce the channel's next signed refund must carry.
	RefundNonce string `json:"refundNonce"`
	// ChargedCumulativeAmount is what the server has charged the channel
	// in all; only a server's snapshot has it.
	ChargedCumulativeAmount string `json:"chargedCumulativeAmount,omitempty"`
}

// VoucherState is the last voucher a server holds of a channel: its
// cumulative ceiling and the payer's signature, which a client checks
// before it believes the server's charged total.
type VoucherState struct {
	SignedMaxClaimable string `json:"signedMaxClaimable,omitempty"`
	Signature          string `json:"signature,omitempty"`
}

// AssetTransferPermit2 is [Extra.AssetTransferMethod] of a payment
// through Permit2.
const AssetTransferPermit2 = "permit2"

// Resource describes the paid resource.
type Resource struct {
	// URL is the resource's absolute URL.
	URL string `json:"url"`
	// Description says what the payment buys.
	Description string `json:"description,omitempty"`
	// MimeType is the media type of the resource.
	MimeType string `json:"mimeType,omitempty"`
}

// PaymentRequired is the challenge of a 402: the value of the
// PAYMENT-REQUIRED header and the 402's body.
type PaymentRequired struct {
	// X402Version is always [Version].
	X402Version int `json:"x402Version"`
	// Error says why an earlier payment was refused, if one was.
	Error string `json:"error,omitempty"`
	// Resource is what is being paid for.
	Resource *Resource `json:"resource,omitempty"`
	// Accepts lists the offers; a payer picks one.
	Accepts []PaymentRequirements `json:"accepts"`
	// Extensions is open-ended; null is accepted.
	Extensions json.RawMessage `json:"extensions,omitempty"`
}

// PaymentPayload is a signed payment: the value of the PAYMENT-SIGNATURE
// header, and the paymentPayload of a verify or settle request.
type PaymentPayload struct {
	// X402Version must be [Version].
	X402Version int `json:"x402Version"`
	// Resource is the resource the payer was shown, when it sends it.
	Resource *Resource `json:"resource,omitempty"`
	// Accepted is the offer the payer accepted.
	Accepted PaymentRequirements `json:"accepted"`
	// Payload is the scheme-specific signed object: an [ExactPayload] or an
	// [AANativePayload].
	Payload json.RawMessage `json:"payload"`
	// Extensions is open-ended; null is accepted.
	Extensions json.RawMessage `json:"extensions,omitempty"`
}

// ExactPayload is the payload of the exact scheme: an EIP-3009
// TransferWithAuthorization and its signature.
type ExactPayload struct {
	// Signature is the 65-byte ECDSA signature (r ‖ s ‖ v) in 0x hex.
	Signature string `json:"signature"`
	// Authorization is the signed message.
	Authorization ExactAuthorization `json:"authorization"`
}

// ExactAuthorization is an EIP-3009 TransferWithAuthorization message. All
// values are strings as upstream clients write them: addresses and the nonce
// in 0x hex, numbers in decimal.
type ExactAuthorization struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Value       string `json:"value"`
	ValidAfter  string `json:"validAfter"`
	ValidBefore string `json:"validBefore"`
	Nonce       string `json:"nonce"`
}

// AANativePayload is the payload of the aa-native scheme: a signed ERC-4337
// v0.6 UserOperation and the settlement call it must make.
type AANativePayload struct {
	// UserOp is the signed, sponsored UserOperation.
	UserOp UserOperation `json:"userOp"`
	// SettlementCallSpec is the settle call the UserOperation's callData
	// must carry.
	SettlementCallSpec SettlementCallSpec `json:"settlementCallSpec"`
}

// UserOperation is an ERC-4337 v0.6 UserOperation with every value as a 0x
// hex string, the shape of the paymaster interface.
type UserOperation struct {
	Sender               string `json:"sender"`
	Nonce                string `json:"nonce"`
	InitCode             string `json:"initCode"`
	CallData             string `json:"callData"`
	CallGasLimit         string `json:"callGasLimit"`
	VerificationGasLimit string `json:"verificationGasLimit"`
	PreVerificationGas   string `json:"preVerificationGas"`
	MaxFeePerGas         string `json:"maxFeePerGas"`
	MaxPriorityFeePerGas string `json:"maxPriorityFeePerGas"`
	PaymasterAndData     string `json:"paymasterAndData"`
	Signature            string `json:"signature"`
}

// SponsorContext is pm_sponsor_userop's third parameter: how the
// operation's gas is paid. Type 0 (SponsorFree) is free gas; 1
// (SponsorPrepay) and 2 (SponsorPostpay) are paid by the sender in Token,
// an ERC-20 of pm_supported_tokens, its maximum taken in validation and
// the rest refunded (1) or the actual cost taken after the call (2).
type SponsorContext struct {
	Type int `json:"type"`
	// Token is the gas token's address, for types 1 and 2.
	Token string `json:"token,omitempty"`
	// ValidUntil, if not zero, is when the sponsorship ends (Unix
	// seconds); zero takes the paymaster's default.
	ValidUntil uint64 `json:"validUntil,omitempty"`
}

// The sponsorship types of [SponsorContext].
const (
	SponsorFree    = 0
	SponsorPrepay  = 1
	SponsorPostpay = 2
)

// InToken reports whether c has the gas paid in a token (type 1 or 2).
func (c SponsorContext) InToken() bool { return c.Type == SponsorPrepay || c.Type == SponsorPostpay }

// SettlementCallSpec is the settlement contract call of an aa-native
// payment: settle(merchant, token, amount, requestHash).
type SettlementCallSpec struct {
	Merchant    string `json:"merchant"`
	Token       string `json:"token"`
	Amount      string `json:"amount"`
	RequestHash string `json:"requestHash"`
}

// VerifyRequest is the body of POST /verify.
type VerifyRequest struct {
	// X402Version is sent by upstream clients; optional here.
	X402Version         int                 `json:"x402Version,omitempty"`
	PaymentPayload      PaymentPayload      `json:"paymentPayload"`
	PaymentRequirements PaymentRequirements `json:"paymentRequirements"`
	// Resource is what the merchant sells for this payment, as the
	// merchant's own paywall described it in its 402 (URL, description,
	// media type); nil when the caller does not say. It is the merchant's
	// statement, not the payer's: a facilitator records it as the sale's
	// resource, and never records PaymentPayload.Resource, which the payer
	// writes, in its place. Upstream's requests lack it and upstream
	// facilitators ignore it. It is not part of what is verified or
	// settled.
	Resource *Resource `json:"resource,omitempty"`
}

// SettleRequest is the body of POST /settle; it has the shape of a
// [VerifyRequest].
type SettleRequest = VerifyRequest

// VerifyResponse is the answer of POST /verify.
type VerifyResponse struct {
	// IsValid says whether the payment verified.
	IsValid bool `json:"isValid"`
	// InvalidReason is set when IsValid is false.
	InvalidReason InvalidReason `json:"invalidReason,omitempty"`
	// InvalidMessage says which check failed, for people.
	InvalidMessage string `json:"invalidMessage,omitempty"`
	// Payer is the paying address when known.
	Payer string `json:"payer,omitempty"`
	// Extra is the on-chain state a valid payment's scheme reports beside
	// the verdict: a batch-settlement channel's snapshot.
	Extra *ChannelState `json:"extra,omitempty"`
}

// SettleResponse is the answer of POST /settle and the value of the
// PAYMENT-RESPONSE header.
//
// On the wire it also carries upstream x402's names for three of its fields
// (transaction, errorReason, errorMessage), so that both the spec's clients
// and upstream's validate it; they are derived when encoding and accepted
// when decoding.
type SettleResponse struct {
	// Success says whether the payment was settled on chain.
	Success bool `json:"success"`
	// X402Version is always [Version].
	X402Version int `json:"x402Version"`
	// Scheme is the payment's scheme.
	Scheme string `json:"scheme,omitempty"`
	// Network is the CAIP-2 id of the chain. Upstream clients require it, so
	// it is always written.
	Network string `json:"network"`
	// TransactionHash is the on-chain transaction hash.
	TransactionHash string `json:"transactionHash,omitempty"`
	// UserOpHash is the ERC-4337 UserOperation hash (aa-native).
	UserOpHash string `json:"userOpHash,omitempty"`
	// RequestHash is the settlement contract's request hash (aa-native).
	RequestHash string `json:"requestHash,omitempty"`
	// Payer is the paying address.
	Payer string `json:"payer,omitempty"`
	// Amount is the settled amount in atomic units.
	Amount string `json:"amount,omitempty"`
	// Asset is the settled token.
	Asset string `json:"asset,omitempty"`
	// ErrorCode is set when Success is false.
	ErrorCode ErrorCode `json:"errorCode,omitempty"`
	// Message is a human-readable detail of ErrorCode.
	Message string `json:"message,omitempty"`
	// InvalidReason is the verification reason of a verify_failed answer,
	// for the answer's HTTP status (malformed_request is 400). It is not on
	// the wire: Message starts with it.
	InvalidReason InvalidReason `json:"-"`
	// Extra is what a scheme reports beside a settlement: a
	// batch-settlement channel's state after it.
	Extra *SettleExtra `json:"extra,omitempty"`
}

// SettleExtra is the extra of a batch-settlement settle answer or
// PAYMENT-RESPONSE.
type SettleExtra struct {
	// ChargedAmount is what a voucher-paid request was charged (a
	// server's PAYMENT-RESPONSE only).
	ChargedAmount string `json:"chargedAmount,omitempty"`
	// ChannelState is the channel's state after the settlement.
	ChannelState *ChannelState `json:"channelState,omitempty"`
}

// settleFields has SettleResponse's fields without its methods.
type settleFields SettleResponse

// settleWire is SettleResponse as written: the spec's fields and upstream's.
type settleWire struct {
	settleFields
	Transaction  string    `json:"transaction"`
	ErrorReason  ErrorCode `json:"errorReason,omitempty"`
	ErrorMessage string    `json:"errorMessage,omitempty"`
}

// MarshalJSON writes the spec's fields and upstream's aliases of them.
func (r SettleResponse) MarshalJSON() ([]byte, error) {
	return json.Marshal(settleWire{
		settleFields: settleFields(r),
		Transaction:  r.TransactionHash,
		ErrorReason:  r.ErrorCode,
		ErrorMessage: r.Message,
	})
}

// UnmarshalJSON reads either naming; the spec's name wins where both are set.
func (r *SettleResponse) UnmarshalJSON(data []byte) error {
	var w settleWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = SettleResponse(w.settleFields)
	if r.TransactionHash == "" {
		r.TransactionHash = w.Transaction
	}
	if r.ErrorCode == "" {
		r.ErrorCode = w.ErrorReason
	}
	if r.Message == "" {
		r.Message = w.ErrorMessage
	}
	return nil
}

// Supported is the answer of GET /supported: the spec's schemes and
// upstream's kinds, extensions and signers.
type Supported struct {
	// X402Version is always [Version].
	X402Version int `json:"x402Version"`
	// Schemes lists, per scheme, its networks and allowlisted assets.
	Schemes []SupportedScheme `json:"schemes"`
	// Kinds is upstream's list of (scheme, network) pairs.
	Kinds []SupportedKind `json:"kinds"`
	// Extensions is upstream's list of supported extensions.
	Extensions []string `json:"extensions,omitempty"`
	// Signers maps a CAIP-2 family (such as "eip155:*") to the addresses
	// that submit settlements.
	Signers map[string][]string `json:"signers,omitempty"`
}

// SupportedScheme is one entry of [Supported]'s schemes.
type SupportedScheme struct {
	Scheme   string   `json:"scheme"`
	Networks []string `json:"networks"`
	Assets   []string `json:"assets"`
}

// SupportedKind is one entry of [Supported]'s kinds.
type SupportedKind struct {
	X402Version int    `json:"x402Version"`
	Scheme      string `json:"scheme"`
	Network     string `json:"network"`
	Extra       *Extra `json:"extra,omitempty"`
}

// Health is the answer of GET /health.
type Health struct {
	// Status is "ok" when healthy.
	Status string `json:"status"`
	// Network is the configured CAIP-2 network id.
	Network string `json:"network,omitempty"`
	// Service names the service answering.
	Service string `json:"service,omitempty"`
	// Version is the service's version.
	Version string `json:"version,omitempty"`
	// Dependencies is the state of what the service needs, by name
	// ("chain", "database"): "ok" or "unreachable". A service whose
	// dependency is unreachable answers with status "degraded".
	Dependencies map[string]string `json:"dependencies,omitempty"`
}

// Package x402 is the wire protocol of x402 version 2: the JSON resources that
// merchants, payers and facilitators exchange, the three HTTP headers that
// carry them, the header codec, the reason and error codes, and CAIP-2
// network ids.
//
// It sits at the bottom of caddy-x402: the facilitator, the paywall, the
// paymaster and the payer client all speak through these types. It does no
// I/O and imports only the standard library, so it can be used by any Go
// program that talks x402.
//
// Values stay in their wire form (strings) here; Parse helpers such as
// [ParseAddress], [ParseAmount] and [ParseNetwork] turn them into typed
// values, and packages above this one convert as soon as they decode.
package x402

// Version is the protocol version this package speaks; it is the value of
// every x402Version field written.
const Version = 2

// Header names of the x402 v2 HTTP exchange.
const (
	// HeaderPaymentRequired carries an encoded [PaymentRequired] on a 402.
	HeaderPaymentRequired = "PAYMENT-REQUIRED"
	// HeaderPaymentSignature carries an encoded [PaymentPayload] on the retry.
	HeaderPaymentSignature = "PAYMENT-SIGNATURE"
	// HeaderPaymentResponse carries an encoded [SettleResponse] on the answer.
	HeaderPaymentResponse = "PAYMENT-RESPONSE"
)

// Payment schemes.
const (
	// SchemeExact is an EIP-3009 authorization signed by an EOA.
	SchemeExact = "exact"
	// SchemeAANative is an ERC-4337 v0.6 UserOperation from a smart account
	// that calls the settlement contract, with paymaster-sponsored gas.
	SchemeAANative = "aa-native"
	// SchemeUpto is a Permit2 transfer of at most the offer's amount,
	// through x402's upto Permit2 proxy, settled for the amount used.
	SchemeUpto = "upto"
	// SchemeBatchSettlement is a payment channel: one deposit into x402's
	// batch-settlement escrow, then a signed cumulative voucher per
	// request, claimed and swept in batches.
	SchemeBatchSettlement = "batch-settlement"
)

package x402

// InvalidReason is the value of a [VerifyResponse]'s invalidReason: why a
// payment did not verify.
type InvalidReason string

// The invalidReason values of the spec, in its order.
const (
	// ReasonMalformedRequest: the payload did not parse (HTTP 400).
	ReasonMalformedRequest InvalidReason = "malformed_request"
	// ReasonReplay: this exact payment was already settled.
	ReasonReplay InvalidReason = "replay"
	// ReasonInvalidInnerPayload: the inner UserOperation or authorization did
	// not validate.
	ReasonInvalidInnerPayload InvalidReason = "invalid_inner_payload"
	// ReasonSchemeMismatch: the payment scheme differs from the requirements.
	ReasonSchemeMismatch InvalidReason = "scheme_mismatch"
	// ReasonNetworkMismatch: the network differs from the requirements.
	ReasonNetworkMismatch InvalidReason = "network_mismatch"
	// ReasonAssetNotAllowed: the asset differs from the requirements or is
	// not allowlisted.
	ReasonAssetNotAllowed InvalidReason = "asset_not_allowed"
	// ReasonAmountMismatch: the amount differs from the requirements.
	ReasonAmountMismatch InvalidReason = "amount_mismatch"
	// ReasonSignatureInvalid: the signature did not validate.
	ReasonSignatureInvalid InvalidReason = "signature_invalid"
)

// InvalidReasons lists every [InvalidReason] in the spec's order.
var InvalidReasons = []InvalidReason{
	ReasonMalformedRequest,
	ReasonReplay,
	ReasonInvalidInnerPayload,
	ReasonSchemeMismatch,
	ReasonNetworkMismatch,
	ReasonAssetNotAllowed,
	ReasonAmountMismatch,
	ReasonSignatureInvalid,
}

// ErrorCode is the value of a [SettleResponse]'s errorCode: why a settlement
// did not succeed.
type ErrorCode string

// The errorCode values of the spec, in its order.
const (
	// ErrorVerifyFailed: verification failed before submission.
	ErrorVerifyFailed ErrorCode = "verify_failed"
	// ErrorInFlight: settlement of this payment is in progress.
	ErrorInFlight ErrorCode = "in_flight"
	// ErrorUserOpFailed: the UserOperation reverted on chain.
	ErrorUserOpFailed ErrorCode = "user_op_failed"
	// ErrorBundlerUnreachable: the submitter (bundler or RPC node) could not be
	// reached; transient.
	ErrorBundlerUnreachable ErrorCode = "bundler_unreachable"
	// ErrorReceiptTimeout: the transaction was submitted but its receipt was
	// not seen in time; transient.
	ErrorReceiptTimeout ErrorCode = "receipt_timeout"
	// ErrorInternal: internal failure.
	ErrorInternal ErrorCode = "internal_error"
)

// ErrorCodes lists every [ErrorCode] in the spec's order.
var ErrorCodes = []ErrorCode{
	ErrorVerifyFailed,
	ErrorInFlight,
	ErrorUserOpFailed,
	ErrorBundlerUnreachable,
	ErrorReceiptTimeout,
	ErrorInternal,
}

// Transient reports whether a settlement that failed with c may succeed if
// retried after a pause; the HTTP edge answers those with 503 and
// Retry-After.
func (c ErrorCode) Transient() bool {
	return c == ErrorBundlerUnreachable || c == ErrorReceiptTimeout
}

// RPCErrorCode is a JSON-RPC error code of the paymaster interface.
type RPCErrorCode int

// The paymaster JSON-RPC error codes of the spec, in its order.
const (
	// RPCReverted: the transaction reverted during execution; fix callData.
	RPCReverted RPCErrorCode = -32521
	// RPCInvalidParams: invalid UserOperation structure or fields (also
	// JSON-RPC's standard invalid-params code).
	RPCInvalidParams RPCErrorCode = -32602
	// RPCSimulationRejected: rejected by EntryPoint simulateValidation.
	RPCSimulationRejected RPCErrorCode = -32500
	// RPCPaymasterRejected: rejected by the paymaster's validation; a
	// configuration problem such as scope or sponsorship balance.
	RPCPaymasterRejected RPCErrorCode = -32501
	// RPCOutOfTimeRange: out of the validity window; rebuild and resend, at
	// most 3 times.
	RPCOutOfTimeRange RPCErrorCode = -32503
	// RPCThrottled: throttled or banned, also returned when a rate limit is
	// exceeded; back off exponentially.
	RPCThrottled RPCErrorCode = -32504
)

// RPCErrorCodes lists the paymaster-specific [RPCErrorCode] values in the
// spec's order.
var RPCErrorCodes = []RPCErrorCode{
	RPCReverted,
	RPCInvalidParams,
	RPCSimulationRejected,
	RPCPaymasterRejected,
	RPCOutOfTimeRange,
	RPCThrottled,
}

// JSON-RPC 2.0's own protocol error codes, which the paymaster also answers.
const (
	// RPCParseError: the body is not JSON.
	RPCParseError RPCErrorCode = -32700
	// RPCInvalidRequest: the body is JSON but not a JSON-RPC request.
	RPCInvalidRequest RPCErrorCode = -32600
	// RPCMethodNotFound: no such method.
	RPCMethodNotFound RPCErrorCode = -32601
	// RPCInternalError: an internal failure.
	RPCInternalError RPCErrorCode = -32603
)

// Retryable reports whether the spec allows a caller to retry a request that
// failed with c: -32503 (rebuild and resend) and -32504 (back off).
func (c RPCErrorCode) Retryable() bool {
	return c == RPCOutOfTimeRange || c == RPCThrottled
}

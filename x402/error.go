package x402

import "fmt"

// Error is a refused payment: the spec's reason code and a message for
// people that says which check failed. It is the one error type that
// crosses from the schemes to the HTTP edge, where it becomes a
// [VerifyResponse] with isValid false.
type Error struct {
	// Reason is the spec's code for the refusal.
	Reason InvalidReason
	// Message says which check failed. It never holds secrets.
	Message string
}

// Invalid returns an *Error with a formatted message.
func Invalid(reason InvalidReason, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string {
	return string(e.Reason) + ": " + e.Message
}

// Response returns the error as a [VerifyResponse].
func (e *Error) Response(payer string) *VerifyResponse {
	return &VerifyResponse{IsValid: false, InvalidReason: e.Reason, InvalidMessage: e.Message, Payer: payer}
}

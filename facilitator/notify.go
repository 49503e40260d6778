package facilitator

import "context"

// notifyKey is the context key of WithNotify.
type notifyKey struct{}

// WithNotify returns ctx marking the settles made with it as the
// merchant's own, whose outcomes it is told of (its paywall's, in
// process, with a webhook configured): the settlement's record carries
// store.Record.Notify, so that the store writes its final outcome to its
// outbox in the commit that finishes it, whoever finishes it (this
// settle, a retry, another replica, or the reconciliation after a crash).
// It is a context value, which no caller over HTTP can set: a settle
// through the facilitator's endpoints is never told to the merchant's
// webhooks.
func WithNotify(ctx context.Context) context.Context {
	return context.WithValue(ctx, notifyKey{}, true)
}

// notify reports whether ctx is marked by WithNotify.
func notify(ctx context.Context) bool {
	v, _ := ctx.Value(notifyKey{}).(bool)
	return v
}

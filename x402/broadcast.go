package x402

import "context"

type broadcastCtx struct{}

// WithBroadcast returns ctx asking the facilitator that settles under it
// to call announce once the settlement is broadcast: its transaction (for
// aa-native, the bundle carrying the operation) was accepted by the node,
// and is not mined yet. announce gets a successful SettleResponse naming
// that transaction; it is provisional, and Settle still waits for the
// receipt and returns the final outcome. announce is called at most once,
// on the settle's goroutine, and must not block. A facilitator that cannot
// tell (a remote one) never calls it.
func WithBroadcast(ctx context.Context, announce func(*SettleResponse)) context.Context {
	return context.WithValue(ctx, broadcastCtx{}, announce)
}

// Broadcast returns the function WithBroadcast put in ctx, or nil.
func Broadcast(ctx context.Context) func(*SettleResponse) {
	f, _ := ctx.Value(broadcastCtx{}).(func(*SettleResponse))
	return f
}

package bundler

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// Close fails what is queued (nothing of it went out) and refuses what
// comes after; no bundle is sent, so no chain is needed.
func TestCloseFailsQueued(t *testing.T) {
	t.Parallel()
	b := &BuiltIn{EntryPoint: entrypoint.NewV06(common.Address{1}), MaxWait: time.Hour}
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := b.Submit(context.Background(), entrypoint.UserOperation{}, func(*types.Transaction) error { return nil })
			errs <- err
		}()
	}
	// Wait until both are queued.
	deadline := time.Now().Add(5 * time.Second)
	for {
		b.mu.Lock()
		n := len(b.queue)
		b.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d queued", n)
		}
		time.Sleep(time.Millisecond) // polling for the queue
	}
	b.Close()
	for range 2 {
		if err := <-errs; !errors.Is(err, ErrNotSent) {
			t.Fatalf("a queued operation after Close: %v", err)
		}
	}
	if _, err := b.Submit(context.Background(), entrypoint.UserOperation{}, nil); !errors.Is(err, ErrNotSent) {
		t.Fatalf("Submit after Close: %v", err)
	}
	b.Close() // twice is fine
}

func TestDecodeRevert(t *testing.T) {
	t.Parallel()
	errorString := func(s string) []byte {
		out := common.FromHex("08c379a0")
		out = append(out, common.LeftPadBytes([]byte{32}, 32)...)
		out = append(out, common.LeftPadBytes(big.NewInt(int64(len(s))).Bytes(), 32)...)
		return append(out, common.RightPadBytes([]byte(s), (len(s)+31)/32*32)...)
	}
	for _, tc := range []struct {
		name   string
		reason []byte
		want   string
	}{
		{"empty", nil, "reverted without a reason"},
		{"Error(string)", errorString("ERC20: transfer amount exceeds balance"), "ERC20: transfer amount exceeds balance"},
		{"unknown selector", common.FromHex("deadbeef"), "reverted with 0xdeadbeef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := DecodeRevert(tc.reason); got != tc.want {
				t.Fatalf("DecodeRevert = %q, want %q", got, tc.want)
			}
		})
	}
}

// An operation whose sender and nonce another operation has in a bundle
// sent and not mined yet is refused (it would revert its own bundle when
// mined after the other: the latest block's simulation cannot see it);
// the same operation sent again is not (a retry after another's fault),
// nor one of another nonce or sender, nor any once twice the inclusion
// margin has passed.
func TestInSentBundle(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	b := &BuiltIn{InclusionMargin: 10 * time.Second, Now: func() time.Time { return now }}
	op := func(sender byte, nonce int64, call string) *entry {
		return &entry{op: entrypoint.UserOperation{Sender: common.Address{sender}, Nonce: big.NewInt(nonce), CallData: []byte(call), Signature: []byte("sig " + call)}}
	}
	b.remember([]*entry{op(1, 0, "pay merchant"), op(2, 5, "pay merchant")})
	batch := []*entry{
		op(1, 0, "pay merchant"),       // the same operation again
		op(1, 0, "pay merchant again"), // another of the same nonce
		op(1, 1, "next"),               // the sender's next nonce
		op(3, 0, "someone else"),
		op(2, 5, "another of 2's"),
	}
	if got := b.inSentBundle(batch); len(got) != 2 || got[0] != 4 || got[1] != 1 {
		t.Fatalf("refused %v, want [4 1]", got)
	}
	now = now.Add(20 * time.Second)
	if got := b.inSentBundle(batch); len(got) != 0 || len(b.sent) != 0 {
		t.Fatalf("after twice the margin: refused %v, %d remembered", got, len(b.sent))
	}
}

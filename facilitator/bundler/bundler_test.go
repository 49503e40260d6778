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

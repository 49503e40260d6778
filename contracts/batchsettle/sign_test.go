package batchsettle_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// TestRecover accepts what the contract's ECDSA accepts (v 27 or 28, or 0
// or 1) and refuses the rest: a malleable high s, another v, a short
// signature.
func TestRecover(t *testing.T) {
	t.Parallel()
	key := newKey(t)
	digest := common.Hash{1, 2, 3}
	sig, err := batchsettle.Sign(digest, key)
	if err != nil {
		t.Fatal(err)
	}
	// The same signature with s' = n - s and v flipped recovers the same
	// key: ECDSA's malleability, which the contract refuses.
	n := crypto.S256().Params().N
	high := append([]byte(nil), sig...)
	copy(high[32:64], common.LeftPadBytes(new(big.Int).Sub(n, new(big.Int).SetBytes(sig[32:64])).Bytes(), 32))
	high[64] = 55 - sig[64]
	raw := append([]byte(nil), sig...)
	raw[64] -= 27
	badV := append([]byte(nil), sig...)
	badV[64] = 29
	for _, tc := range []struct {
		name string
		sig  []byte
		ok   bool
	}{
		{"v 27 or 28", sig, true},
		{"v 0 or 1", raw, true},
		{"a high s", high, false},
		{"v 29", badV, false},
		{"64 bytes", sig[:64], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := batchsettle.Recover(digest, tc.sig)
			if ok := err == nil && got == addr(key); ok != tc.ok {
				t.Fatalf("recovered %s (%v), want ok %v", got, err, tc.ok)
			}
		})
	}
}

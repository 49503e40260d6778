package exact

import (
	"crypto/ecdsa"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// signed65 signs digest with key, v 27 or 28.
func signed65(t *testing.T, key *ecdsa.PrivateKey, digest common.Hash) [65]byte {
	t.Helper()
	sig, err := crypto.Sign(digest[:], key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return [65]byte(sig)
}

// TestRecoveries: the memo answers what ecrecover does, for each signer
// of one digest apart; a recovery that fails is not kept; it stays within
// its two generations.
func TestRecoveries(t *testing.T) {
	t.Parallel()
	var r recoveries
	digest := crypto.Keccak256Hash([]byte("a payment"))
	k1, _ := crypto.GenerateKey()
	k2, _ := crypto.GenerateKey()
	s1, s2 := signed65(t, k1, digest), signed65(t, k2, digest)
	for round := range 2 { // the second round is answered from the memo
		for _, tt := range []struct {
			sig  [65]byte
			want common.Address
		}{
			{s1, crypto.PubkeyToAddress(k1.PublicKey)},
			{s2, crypto.PubkeyToAddress(k2.PublicKey)},
		} {
			got, err := r.signer(digest, tt.sig)
			if err != nil || got != tt.want {
				t.Fatalf("round %d: %s, %v; want %s", round, got, err, tt.want)
			}
		}
		if n := r.Len(); n != 2 {
			t.Fatalf("round %d: %d signers kept, want 2", round, n)
		}
	}
	// The same signature over another digest recovers another address (or
	// none), never the remembered one.
	other := crypto.Keccak256Hash([]byte("another payment"))
	if got, err := r.signer(other, s1); err == nil && got == crypto.PubkeyToAddress(k1.PublicKey) {
		t.Fatal("a signature over another digest recovered its signer")
	}
	var bad [65]byte
	bad[64] = 27 // r = s = 0: no point
	if _, err := r.signer(digest, bad); err == nil {
		t.Fatal("a zero signature recovered")
	}
	if _, kept := r.Get(recoveryKey(append(digest.Bytes(), bad[:]...))); kept {
		t.Fatal("a failed recovery was kept")
	}

	// Bounded: past a generation the newer is made the older.
	for i := range 2*recoveriesPerGeneration + 10 {
		d := crypto.Keccak256Hash([]byte{byte(i), byte(i >> 8), byte(i >> 16)})
		if _, err := r.signer(d, signed65(t, k1, d)); err != nil {
			t.Fatal(err)
		}
	}
	if n := r.Len(); n > 2*recoveriesPerGeneration {
		t.Fatalf("the memo holds %d signers; at most 2 × %d", n, recoveriesPerGeneration)
	}
}

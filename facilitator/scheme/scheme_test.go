package scheme

import (
	"math/big"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/memo"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestRequirementsHash: the hash joined in one buffer is the hash of the
// parts as they were hashed before (every stored payment's hash is
// compared with it), for amounts of each width up to 2^256-1.
func TestRequirementsHash(t *testing.T) {
	t.Parallel()
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, amount := range []string{"0", "1", "255", "256", "10000", "9999999999999999999", "18446744073709551615", "18446744073709551616", max.String()} {
		t.Run(amount, func(t *testing.T) {
			t.Parallel()
			r := &x402.PaymentRequirements{Scheme: x402.SchemeExact, Network: "eip155:31337", Amount: amount,
				Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9", PayTo: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"}
			asset, _ := x402.ParseAddress(r.Asset)
			payTo, _ := x402.ParseAddress(r.PayTo)
			v, err := x402.ParseAmount(r.Amount)
			if err != nil {
				t.Fatal(err)
			}
			want := crypto.Keccak256Hash([]byte(r.Scheme), []byte{0}, []byte(r.Network), []byte{0}, asset[:], payTo[:], v.Bytes())
			// The second time from the memo.
			for range 2 {
				if got := RequirementsHash(r); got != want {
					t.Fatalf("got %s, want %s", got, want)
				}
			}
		})
	}
}

// TestRequirementsMemo checks the memo of RequirementsHash: requirements
// that differ in any field it reads get their own hash, remembered or
// not, and the memo stays within its two generations.
func TestRequirementsMemo(t *testing.T) {
	t.Parallel()
	m := requirementsMemo{memo.Generations[requirementsKey, common.Hash]{Size: requirementsPerGeneration}}
	base := requirementsKey{x402.SchemeExact, "eip155:31337", "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9", "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", "10000"}
	variants := []requirementsKey{base}
	for i := range 5 {
		k := base
		f := []*string{&k.scheme, &k.network, &k.asset, &k.payTo, &k.amount}[i]
		*f += "0"
		variants = append(variants, k)
	}
	for i, k := range variants {
		m.put(k, common.Hash{byte(i + 1)})
	}
	for i, k := range variants {
		if h, ok := m.Get(k); !ok || h != (common.Hash{byte(i + 1)}) {
			t.Errorf("variant %d: %s, %v", i, h, ok)
		}
	}
	for i := range 3 * requirementsPerGeneration {
		k := base
		k.amount = strconv.Itoa(i)
		m.put(k, common.Hash{})
	}
	if n := m.Len(); n > 2*requirementsPerGeneration {
		t.Errorf("the memo holds %d requirements, over 2 × %d", n, requirementsPerGeneration)
	}
}

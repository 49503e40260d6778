package wellknown

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The addresses every Ethereum dev tool derives from TestMnemonic.
func TestDeriveKeyKnownAccounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		index uint32
		want  string
	}{
		{0, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"},
		{1, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"},
		{2, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"},
		{9, "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720"},
		{10, "0xBcd4042DE499D14e55001CcbB24a551F3b954096"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			key, err := DeriveKey(TestMnemonic, tc.index)
			if err != nil {
				t.Fatal(err)
			}
			if got := crypto.PubkeyToAddress(key.PublicKey); got != common.HexToAddress(tc.want) {
				t.Fatalf("account %d = %s, want %s", tc.index, got, tc.want)
			}
		})
	}
	t.Run("account 0 key", func(t *testing.T) {
		t.Parallel()
		key, _ := DeriveKey("  test test test test test test test test test test test   junk ", 0)
		const want = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
		if got := common.Bytes2Hex(crypto.FromECDSA(key)); got != want {
			t.Fatalf("key = %s, want %s", got, want)
		}
	})
}

func TestDeriveKeyErrors(t *testing.T) {
	t.Parallel()
	if _, err := DeriveKey("   ", 0); err == nil {
		t.Error("empty mnemonic accepted")
	}
	if _, err := DeriveKey(TestMnemonic, 1<<31); err == nil {
		t.Error("hardened index accepted")
	}
}

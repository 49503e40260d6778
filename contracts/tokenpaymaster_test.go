package contracts

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TokenPaymaster's paymasterAndData round-trips, and its decoder refuses
// anything but 150 bytes.
func TestTokenPaymasterAndData(t *testing.T) {
	t.Parallel()
	pm, tok := common.HexToAddress("0x1000000000000000000000000000000000000001"), common.HexToAddress("0x2000000000000000000000000000000000000002")
	sig := bytes.Repeat([]byte{7}, 65)
	tests := []TokenTerms{
		{Mode: TokenModePrepay, Token: tok, Rate: big.NewInt(3_150_000_000), ValidUntil: 1_800_000_000, ValidAfter: 0},
		{Mode: TokenModePostpay, Token: tok, Rate: new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)), ValidUntil: 1<<48 - 1, ValidAfter: 1<<48 - 1},
	}
	for _, want := range tests {
		b := TokenPaymasterAndData(pm, want, sig)
		if len(b) != TokenPaymasterDataLength {
			t.Fatalf("%d bytes", len(b))
		}
		gotPM, got, gotSig, err := DecodeTokenPaymasterAndData(b)
		if err != nil || gotPM != pm || got.Mode != want.Mode || got.Token != want.Token || got.Rate.Cmp(want.Rate) != 0 ||
			got.ValidUntil != want.ValidUntil || got.ValidAfter != want.ValidAfter || !bytes.Equal(gotSig, sig) {
			t.Fatalf("decoded %s %+v %x %v, want %+v", gotPM, got, gotSig, err, want)
		}
	}
	for _, n := range []int{0, 20, 149, 151} {
		if _, _, _, err := DecodeTokenPaymasterAndData(make([]byte, n)); err == nil {
			t.Errorf("%d bytes decoded", n)
		}
	}
}

// TokenCost rounds up: the payer never pays less than the gas at the rate.
func TestTokenCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		gas, rate, want int64
	}{
		{0, 3_000_000_000, 0},
		{1, 1, 1},
		{1e18, 3_000_000_000, 3_000_000_000},
		{1e18 + 1, 3_000_000_000, 3_000_000_001},
		{333_333_333_333, 3_000_000, 1},
	}
	for _, tc := range tests {
		if got := TokenCost(big.NewInt(tc.gas), big.NewInt(tc.rate)); got.Int64() != tc.want {
			t.Errorf("TokenCost(%d, %d) = %s, want %d", tc.gas, tc.rate, got, tc.want)
		}
	}
}

// FuzzDecodeTokenPaymasterAndData: any input decodes or is refused without
// a panic, and what decodes encodes back to the same bytes.
func FuzzDecodeTokenPaymasterAndData(f *testing.F) {
	f.Add(TokenPaymasterAndData(common.Address{1}, TokenTerms{Mode: 1, Token: common.Address{2}, Rate: big.NewInt(5), ValidUntil: 9}, make([]byte, 65)))
	f.Add([]byte{})
	f.Add(make([]byte, 149))
	f.Fuzz(func(t *testing.T, b []byte) {
		pm, terms, sig, err := DecodeTokenPaymasterAndData(b)
		if err != nil {
			return
		}
		if again := TokenPaymasterAndData(pm, terms, sig); !bytes.Equal(again, b) {
			t.Fatalf("%x re-encodes as %x", b, again)
		}
	})
}

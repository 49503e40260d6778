package ep07

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// TokenPaymasterV07's paymasterData round-trips, and its decoder refuses
// anything but 130 bytes.
func TestTokenPaymasterData(t *testing.T) {
	t.Parallel()
	tok := common.HexToAddress("0x2000000000000000000000000000000000000002")
	sig := bytes.Repeat([]byte{7}, 65)
	tests := []contracts.TokenTerms{
		{Mode: contracts.TokenModePrepay, Token: tok, Rate: big.NewInt(3_150_000_000), ValidUntil: 1_800_000_000},
		{Mode: contracts.TokenModePostpay, Token: tok, Rate: new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)), ValidUntil: 1<<48 - 1, ValidAfter: 1<<48 - 1},
	}
	for _, want := range tests {
		b := TokenPaymasterData(want, sig)
		if len(b) != TokenPaymasterDataLength {
			t.Fatalf("%d bytes", len(b))
		}
		got, gotSig, err := DecodeTokenPaymasterData(b)
		if err != nil || got.Mode != want.Mode || got.Token != want.Token || got.Rate.Cmp(want.Rate) != 0 ||
			got.ValidUntil != want.ValidUntil || got.ValidAfter != want.ValidAfter || !bytes.Equal(gotSig, sig) {
			t.Fatalf("decoded %+v %x %v, want %+v", got, gotSig, err, want)
		}
	}
	for _, n := range []int{0, 65, 129, 131, 182} {
		if _, _, err := DecodeTokenPaymasterData(make([]byte, n)); err == nil {
			t.Errorf("%d bytes decoded", n)
		}
	}
}

// TokenPaymasterHash covers every field the contract's getHash covers:
// changing any of them, the paymaster's gas limits included, changes it;
// the paymasterData and the signature do not.
func TestTokenPaymasterHashCovers(t *testing.T) {
	t.Parallel()
	base := UserOperation{
		Sender: common.HexToAddress("0x1111111111111111111111111111111111111111"), Nonce: big.NewInt(7),
		CallData: []byte{4, 5}, CallGasLimit: big.NewInt(200_000), VerificationGasLimit: big.NewInt(150_000),
		PreVerificationGas: big.NewInt(50_000), MaxFeePerGas: big.NewInt(3e9), MaxPriorityFeePerGas: big.NewInt(1e9),
		Paymaster: common.HexToAddress("0x3333333333333333333333333333333333333333"), PaymasterVerificationGasLimit: big.NewInt(60_000),
		PaymasterPostOpGasLimit: big.NewInt(50_000), Signature: []byte{7},
	}
	terms := contracts.TokenTerms{Mode: 2, Token: common.Address{9}, Rate: big.NewInt(5), ValidUntil: 100}
	pm := common.Address{8}
	want, err := TokenPaymasterHash(base, pm, big.NewInt(1), terms)
	if err != nil {
		t.Fatal(err)
	}
	same := base
	same.PaymasterData, same.Signature = []byte{1, 2, 3}, []byte{4}
	if got, _ := TokenPaymasterHash(same, pm, big.NewInt(1), terms); got != want {
		t.Error("the paymasterData or the signature changed the hash")
	}
	changes := map[string]func(op *UserOperation, t *contracts.TokenTerms){
		"nonce":           func(op *UserOperation, _ *contracts.TokenTerms) { op.Nonce = big.NewInt(8) },
		"callData":        func(op *UserOperation, _ *contracts.TokenTerms) { op.CallData = []byte{4} },
		"factory":         func(op *UserOperation, _ *contracts.TokenTerms) { op.Factory = common.Address{1} },
		"callGas":         func(op *UserOperation, _ *contracts.TokenTerms) { op.CallGasLimit = big.NewInt(200_001) },
		"verificationGas": func(op *UserOperation, _ *contracts.TokenTerms) { op.VerificationGasLimit = big.NewInt(1) },
		"pmVerification":  func(op *UserOperation, _ *contracts.TokenTerms) { op.PaymasterVerificationGasLimit = big.NewInt(1) },
		"postOpGas":       func(op *UserOperation, _ *contracts.TokenTerms) { op.PaymasterPostOpGasLimit = big.NewInt(1) },
		"preVerification": func(op *UserOperation, _ *contracts.TokenTerms) { op.PreVerificationGas = big.NewInt(1) },
		"maxFee":          func(op *UserOperation, _ *contracts.TokenTerms) { op.MaxFeePerGas = big.NewInt(1) },
		"priorityFee":     func(op *UserOperation, _ *contracts.TokenTerms) { op.MaxPriorityFeePerGas = big.NewInt(1) },
		"mode":            func(_ *UserOperation, t *contracts.TokenTerms) { t.Mode = 1 },
		"token":           func(_ *UserOperation, t *contracts.TokenTerms) { t.Token = common.Address{10} },
		"rate":            func(_ *UserOperation, t *contracts.TokenTerms) { t.Rate = big.NewInt(4) },
		"validUntil":      func(_ *UserOperation, t *contracts.TokenTerms) { t.ValidUntil = 101 },
		"validAfter":      func(_ *UserOperation, t *contracts.TokenTerms) { t.ValidAfter = 1 },
	}
	for name, change := range changes {
		op, tt := base, terms
		change(&op, &tt)
		if got, _ := TokenPaymasterHash(op, pm, big.NewInt(1), tt); got == want {
			t.Errorf("%s: the hash did not change", name)
		}
	}
	if got, _ := TokenPaymasterHash(base, common.Address{7}, big.NewInt(1), terms); got == want {
		t.Error("the paymaster's address: the hash did not change")
	}
	if got, _ := TokenPaymasterHash(base, pm, big.NewInt(2), terms); got == want {
		t.Error("the chain id: the hash did not change")
	}
	if _, err := TokenPaymasterHash(base, pm, big.NewInt(1), contracts.TokenTerms{Mode: 1, Rate: big.NewInt(1), ValidUntil: 1 << 48}); err == nil {
		t.Error("a 49-bit validUntil was hashed")
	}
}

// FuzzDecodeTokenPaymasterData: any input decodes or is refused without a
// panic, and what decodes encodes back to the same bytes.
func FuzzDecodeTokenPaymasterData(f *testing.F) {
	f.Add(TokenPaymasterData(contracts.TokenTerms{Mode: 1, Token: common.Address{2}, Rate: big.NewInt(5), ValidUntil: 9}, make([]byte, 65)))
	f.Add([]byte{})
	f.Add(make([]byte, 129))
	f.Fuzz(func(t *testing.T, b []byte) {
		terms, sig, err := DecodeTokenPaymasterData(b)
		if err != nil {
			return
		}
		if again := TokenPaymasterData(terms, sig); !bytes.Equal(again, b) {
			t.Fatalf("%x re-encodes as %x", b, again)
		}
	})
}

package exact

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

type noChain struct{}

func (noChain) BatchCallContext(context.Context, []rpc.BatchElem) error {
	return errors.New("no chain in this test")
}

var testAsset = Asset{Address: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"), Name: "Devnet USD", Version: "1"}

func newScheme(t testing.TB) *Scheme {
	t.Helper()
	s, err := New(Config{ChainID: big.NewInt(31337), Assets: []Asset{testAsset}, Chain: noChain{}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDigestMatchesGeth cross-checks the hand-coded digest, with each
// asset's cached domain separator, against geth's EIP-712 implementation
// over many values, for two tokens of one scheme: each token's digest is
// its own.
func TestDigestMatchesGeth(t *testing.T) {
	t.Parallel()
	usdc := Asset{Address: common.HexToAddress("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"), Name: "USD Coin", Version: "2"}
	s, err := New(Config{ChainID: big.NewInt(31337), Assets: []Asset{testAsset, usdc}, Chain: noChain{}})
	if err != nil {
		t.Fatal(err)
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, asset := range s.Assets() {
		t.Run(asset.Name, func(t *testing.T) {
			t.Parallel()
			for i, v := range []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(10_000), new(big.Int).Lsh(big.NewInt(1), 64), max} {
				a := &Authorization{
					From: common.BigToAddress(big.NewInt(int64(i + 1))), To: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
					Value: v, ValidAfter: big.NewInt(int64(i)), ValidBefore: v, Nonce: crypto.Keccak256Hash([]byte{byte(i)}),
				}
				td := contracts.TransferAuthorization{
					From: a.From, To: a.To, Value: a.Value, ValidAfter: a.ValidAfter, ValidBefore: a.ValidBefore, Nonce: a.Nonce,
				}.TypedData(contracts.TokenDomain{Name: asset.Name, Version: asset.Version, ChainID: big.NewInt(31337), Token: asset.Address})
				want, _, err := apitypes.TypedDataAndHash(td)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.Digest(asset.Address, a); !bytesEqual(got[:], want) {
					t.Fatalf("value %s: digest %x, geth %x", v, got, want)
				}
			}
		})
	}
	if s.domains[testAsset.Address] == s.domains[usdc.Address] {
		t.Fatal("two tokens share a domain separator")
	}
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

func payload(t testing.TB, sig string, auth x402.ExactAuthorization) *x402.PaymentPayload {
	raw, err := json.Marshal(x402.ExactPayload{Signature: sig, Authorization: auth})
	if err != nil {
		t.Fatal(err)
	}
	return &x402.PaymentPayload{X402Version: 2, Payload: raw}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	good := x402.ExactAuthorization{
		From: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", To: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
		Value: "10000", ValidAfter: "0", ValidBefore: "99999999999", Nonce: hexutil.Encode(make([]byte, 32)),
	}
	sig := hexutil.Encode(append(make([]byte, 64), 28))
	tests := []struct {
		name   string
		p      *x402.PaymentPayload
		reason x402.InvalidReason
	}{
		{"good", payload(t, sig, good), ""},
		{"v 1 normalized", payload(t, hexutil.Encode(append(make([]byte, 64), 1)), good), ""},
		{"not an object", &x402.PaymentPayload{Payload: json.RawMessage(`[]`)}, x402.ReasonMalformedRequest},
		{"bad from", payload(t, sig, func() x402.ExactAuthorization { a := good; a.From = "0x12"; return a }()), x402.ReasonInvalidInnerPayload},
		{"bad nonce", payload(t, sig, func() x402.ExactAuthorization { a := good; a.Nonce = "0x1234"; return a }()), x402.ReasonInvalidInnerPayload},
		{"hex value", payload(t, sig, func() x402.ExactAuthorization { a := good; a.Value = "0x10"; return a }()), x402.ReasonInvalidInnerPayload},
		{"missing signature", payload(t, "", good), x402.ReasonSignatureInvalid},
		{"v 30", payload(t, hexutil.Encode(append(make([]byte, 64), 30)), good), x402.ReasonSignatureInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := DecodeAuthorization(tc.p)
			if tc.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				if a.Signature[64] != 27 && a.Signature[64] != 28 {
					t.Fatalf("v = %d", a.Signature[64])
				}
				return
			}
			var xe *x402.Error
			if !errors.As(err, &xe) || xe.Reason != tc.reason {
				t.Fatalf("err = %v, want %s", err, tc.reason)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"signature":"0x` + string(make([]byte, 0)) + `","authorization":{}}`))
	f.Add([]byte(`{"signature":"0x00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001b","authorization":{"from":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","to":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","value":"1","validAfter":"0","validBefore":"1","nonce":"0x0000000000000000000000000000000000000000000000000000000000000000"}}`))
	s := newScheme(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := DecodeAuthorization(&x402.PaymentPayload{Payload: raw})
		if err != nil {
			var xe *x402.Error
			if !errors.As(err, &xe) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if v := a.Signature[64]; v != 27 && v != 28 {
			t.Fatalf("v = %d", v)
		}
		_ = s.Digest(testAsset.Address, a)
		_ = a.Key(big.NewInt(31337), testAsset.Address)
		_ = s.Call(a)
	})
}

func BenchmarkVerifyOffline(b *testing.B) {
	s := newScheme(b)
	key, _ := crypto.GenerateKey()
	a := &Authorization{
		From: crypto.PubkeyToAddress(key.PublicKey), To: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
		Value: big.NewInt(10_000), ValidAfter: big.NewInt(0), ValidBefore: big.NewInt(1 << 40), Nonce: crypto.Keccak256Hash([]byte("n")),
	}
	sig, _ := crypto.Sign(s.Digest(testAsset.Address, a).Bytes(), key)
	sig[64] += 27
	copy(a.Signature[:], sig)
	req := &x402.PaymentRequirements{Scheme: "exact", Network: "eip155:31337", Amount: "10000", Asset: testAsset.Address.Hex(), PayTo: a.To.Hex()}
	accepted := *req
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.matchRequirements(signed{a.To, a.Value, "authorization.to", "authorization.value"}, &accepted, req); err != nil {
			b.Fatal(err)
		}
		if err := s.checkWindow(a, 1_800_000_000); err != nil {
			b.Fatal(err)
		}
		s.recovered.Clear() // each loop recovers, as a new payment does
		if err := s.checkSignature(s.Digest(testAsset.Address, a), a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEcrecover(b *testing.B) {
	key, _ := crypto.GenerateKey()
	hash := crypto.Keccak256([]byte("x"))
	sig, _ := crypto.Sign(hash, key)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := crypto.Ecrecover(hash, sig); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHashesInOneBuffer: the replay key and the payload hash, hashed from
// one buffer, are the hashes of their parts as they were hashed before
// (stored payments are matched by them), for numbers of each width up to
// 2^256-1 and chain ids small and large.
func TestHashesInOneBuffer(t *testing.T) {
	t.Parallel()
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	numbers := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(255), new(big.Int).SetUint64(1 << 63), new(big.Int).Lsh(big.NewInt(1), 64), max}
	for i, v := range numbers {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			a := &Authorization{
				From: common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), To: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
				Value: v, ValidAfter: numbers[(i+1)%len(numbers)], ValidBefore: numbers[(i+2)%len(numbers)],
			}
			a.Nonce[0], a.Nonce[31], a.Signature[0], a.Signature[64] = 1, byte(i), 2, 27
			want := crypto.Keccak256Hash(
				a.To.Bytes(), common.LeftPadBytes(a.Value.Bytes(), 32),
				common.LeftPadBytes(a.ValidAfter.Bytes(), 32), common.LeftPadBytes(a.ValidBefore.Bytes(), 32),
				a.Signature[:],
			)
			if got := a.PayloadHash(); got != want {
				t.Errorf("PayloadHash %s, want %s", got, want)
			}
			for _, chainID := range []*big.Int{big.NewInt(31337), big.NewInt(8453), v} {
				want := crypto.Keccak256Hash(common.LeftPadBytes(chainID.Bytes(), 32), testAsset.Address.Bytes(), a.From.Bytes(), a.Nonce[:])
				if got := a.Key(chainID, testAsset.Address); got != want {
					t.Errorf("Key on chain %s: %s, want %s", chainID, got, want)
				}
			}
		})
	}
}

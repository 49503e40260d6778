package exact

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/x402"
)

// walletRequest is a verify request of an authorization from `from`
// carrying sig.
func walletRequest(from common.Address, sig []byte) *x402.VerifyRequest {
	req := x402.PaymentRequirements{Scheme: "exact", Network: "eip155:31337", Amount: "10000", Asset: testAsset.Address.Hex(),
		PayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", MaxTimeoutSeconds: 60}
	payload, _ := json.Marshal(x402.ExactPayload{Signature: hexutil.Encode(sig), Authorization: x402.ExactAuthorization{
		From: from.Hex(), To: req.PayTo, Value: "10000", ValidAfter: "0", ValidBefore: "99999999999",
		Nonce: hexutil.Encode(crypto.Keccak256([]byte("nonce"))),
	}})
	return &x402.VerifyRequest{X402Version: 2, PaymentPayload: x402.PaymentPayload{X402Version: 2, Accepted: req, Payload: payload}, PaymentRequirements: req}
}

// wrap is sig in an ERC-6492 wrapper.
func wrap(factory common.Address, data, sig []byte) []byte {
	out, _ := erc6492Wrapper.Pack(factory, data, sig)
	return append(out, erc6492Magic...)
}

// TestDecodeSignedPicksTheMechanism: a signature that recovers to `from`
// is an EOA's, even in an ERC-6492 wrapper (whose deployment is dropped);
// anything else is a contract wallet's, settled in bytes form, through
// Multicall3 when it deploys the wallet; malformed wrappers and oversized
// signatures are refused at decode.
func TestDecodeSignedPicksTheMechanism(t *testing.T) {
	t.Parallel()
	s := newScheme(t)
	key, _ := crypto.GenerateKey()
	eoa := crypto.PubkeyToAddress(key.PublicKey)
	wallet := common.HexToAddress("0x000000000000000000000000000000000000a11e")
	factory := common.HexToAddress("0x000000000000000000000000000000000000fac7")
	signFor := func(from common.Address) []byte {
		req := walletRequest(from, make([]byte, 65))
		_, a, err := decodeFields(&req.PaymentPayload)
		if err != nil {
			t.Fatal(err)
		}
		sig, _ := crypto.Sign(s.Digest(testAsset.Address, a).Bytes(), key)
		return sig
	}
	tests := []struct {
		name    string
		from    common.Address
		sig     []byte
		wallet  bool
		to      common.Address
		reason  x402.InvalidReason
		factory common.Address
	}{
		{name: "eoa", from: eoa, sig: signFor(eoa), to: testAsset.Address},
		{name: "eoa in a 6492 wrapper", from: eoa, sig: wrap(factory, []byte{1}, signFor(eoa)), to: testAsset.Address},
		{name: "owner's signature for a wallet", from: wallet, sig: signFor(wallet), wallet: true, to: testAsset.Address},
		{name: "6492 wallet", from: wallet, sig: wrap(factory, []byte{1, 2}, signFor(wallet)), wallet: true, to: s.cfg.Multicall3, factory: factory},
		{name: "long wallet signature", from: wallet, sig: make([]byte, 300), wallet: true, to: testAsset.Address},
		{name: "garbage before the magic", from: wallet, sig: append(make([]byte, 40), erc6492Magic...), reason: x402.ReasonSignatureInvalid},
		{name: "6492 without factory", from: wallet, sig: wrap(common.Address{}, []byte{1}, []byte{1}), reason: x402.ReasonSignatureInvalid},
		{name: "too long", from: wallet, sig: make([]byte, maxSignature+1), reason: x402.ReasonSignatureInvalid},
		{name: "empty", from: wallet, sig: nil, reason: x402.ReasonSignatureInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pay, err := s.Decode(walletRequest(tc.from, tc.sig))
			if tc.reason != "" {
				var xe *x402.Error
				if !errors.As(err, &xe) || xe.Reason != tc.reason {
					t.Fatalf("err = %v, want %s", err, tc.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w, isWallet := pay.Mechanism.(*WalletAuthorization)
			if isWallet != tc.wallet || pay.Payer != tc.from {
				t.Fatalf("mechanism %T, payer %s", pay.Mechanism, pay.Payer)
			}
			set := s.Settlement(pay)
			if set.To != tc.to || (tc.wallet && set.MaxGas == 0) || (!tc.wallet && set.MaxGas != 0) {
				t.Fatalf("settlement to %s, max gas %d", set.To, set.MaxGas)
			}
			if isWallet && w.Factory != tc.factory {
				t.Fatalf("factory %s", w.Factory)
			}
		})
	}
}

// TestWalletPayloadHashCoversTheWrapper: two payments that differ only in
// their ERC-6492 deployment are different payments under one key.
func TestWalletPayloadHashCoversTheWrapper(t *testing.T) {
	t.Parallel()
	s := newScheme(t)
	wallet := common.HexToAddress("0x000000000000000000000000000000000000a11e")
	one, err := s.Decode(walletRequest(wallet, wrap(common.HexToAddress("0x01"), []byte{1}, []byte{9})))
	if err != nil {
		t.Fatal(err)
	}
	two, err := s.Decode(walletRequest(wallet, wrap(common.HexToAddress("0x01"), []byte{2}, []byte{9})))
	if err != nil {
		t.Fatal(err)
	}
	if one.Key != two.Key || one.Hash == two.Hash {
		t.Fatalf("keys %s %s, hashes %s %s", one.Key, two.Key, one.Hash, two.Hash)
	}
}

// FuzzDecodeSigned decodes arbitrary signatures, wrapped or not: a
// refusal is always an *x402.Error, and a decoded payment always has a
// settlement.
func FuzzDecodeSigned(f *testing.F) {
	f.Add([]byte{1, 2, 3})
	f.Add(make([]byte, 65))
	f.Add(wrap(common.HexToAddress("0x01"), []byte{1}, make([]byte, 65)))
	f.Add(append(make([]byte, 96), erc6492Magic...))
	s := newScheme(f)
	from := common.HexToAddress("0x000000000000000000000000000000000000a11e")
	f.Fuzz(func(t *testing.T, sig []byte) {
		pay, err := s.Decode(walletRequest(from, sig))
		if err != nil {
			var xe *x402.Error
			if !errors.As(err, &xe) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		set := s.Settlement(pay)
		if len(set.Data) == 0 || (set.To != testAsset.Address && set.To != s.cfg.Multicall3) {
			t.Fatalf("settlement %+v", set)
		}
		if w, ok := pay.Mechanism.(*WalletAuthorization); ok && !bytes.Equal(w.sent, sig) {
			t.Fatal("the signature as sent was not kept")
		}
		_ = pay.Mechanism.(mechanism).PayloadHash()
	})
}

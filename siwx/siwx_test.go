package siwx

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// recoverEth is Recover with go-ethereum.
func recoverEth(hash [32]byte, sig [65]byte) ([20]byte, error) {
	pub, err := crypto.SigToPub(hash[:], sig[:])
	if err != nil {
		return [20]byte{}, err
	}
	return crypto.PubkeyToAddress(*pub), nil
}

// signed is a proof by key over p, encoded as the header.
func signed(t *testing.T, p Payload, seed byte) string {
	t.Helper()
	key, err := crypto.ToECDSA(common.LeftPadBytes([]byte{seed}, 32))
	if err != nil {
		t.Fatal(err)
	}
	if p.Address == "" {
		p.Address = crypto.PubkeyToAddress(key.PublicKey).Hex()
	}
	sig, err := crypto.Sign(accounts.TextHash([]byte(p.Message())), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	p.Signature = "0x" + common.Bytes2Hex(sig)
	raw, _ := json.Marshal(p)
	return base64.StdEncoding.EncodeToString(raw)
}

func base() Payload {
	stmt := "Sign in to use the access you paid for"
	return Payload{
		Domain: "api.example.com", Statement: &stmt, URI: "https://api.example.com/data", Version: "1",
		ChainID: "eip155:8453", Type: "eip191", Nonce: "0123456789abcdef0123456789abcdef",
		IssuedAt: "2026-11-26T17:00:00.000Z", ExpirationTime: "2026-11-26T17:05:00.000Z",
		Resources: []string{"https://api.example.com/data"},
	}
}

// TestMessage: the message is EIP-4361's, as the siwe library writes it
// (the example of @x402/extensions' formatSIWEMessage, with and without a
// statement), with the address in its EIP-55 form.
func TestMessage(t *testing.T) {
	t.Parallel()
	p := base()
	p.Address = "0x52908400098527886e0f7030069857d2e4169ee7"
	want := "api.example.com wants you to sign in with your Ethereum account:\n0x52908400098527886E0F7030069857D2E4169EE7\n\n" +
		"Sign in to use the access you paid for\n\nURI: https://api.example.com/data\nVersion: 1\nChain ID: 8453\n" +
		"Nonce: 0123456789abcdef0123456789abcdef\nIssued At: 2026-11-26T17:00:00.000Z\nExpiration Time: 2026-11-26T17:05:00.000Z\n" +
		"Resources:\n- https://api.example.com/data"
	if got := p.Message(); got != want {
		t.Fatalf("message\n%q\nwant\n%q", got, want)
	}
	p.Statement, p.Resources, p.ExpirationTime = nil, nil, ""
	want = "api.example.com wants you to sign in with your Ethereum account:\n0x52908400098527886E0F7030069857D2E4169EE7\n\n\n" +
		"URI: https://api.example.com/data\nVersion: 1\nChain ID: 8453\nNonce: 0123456789abcdef0123456789abcdef\nIssued At: 2026-11-26T17:00:00.000Z"
	if got := p.Message(); got != want {
		t.Fatalf("message without a statement\n%q\nwant\n%q", got, want)
	}
}

// TestVerify: a proof verifies as its signer's; a proof whose fields were
// changed after signing, or signed by another key for the address, or
// malformed, does not.
func TestVerify(t *testing.T) {
	t.Parallel()
	good := signed(t, base(), 1)
	p, err := Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	addr, err := p.Verify(recoverEth)
	if err != nil || !strings.EqualFold(addr, p.Address) || addr != strings.ToLower(addr) {
		t.Fatalf("verified %q, %v; want %s", addr, err, p.Address)
	}

	tamper := func(f func(p *Payload)) string {
		p, _ := Parse(good)
		f(p)
		raw, _ := json.Marshal(p)
		return base64.StdEncoding.EncodeToString(raw)
	}
	other := crypto.PubkeyToAddress(mustKey(t, 2).PublicKey).Hex()
	for _, c := range []struct {
		name   string
		header string
		parse  bool // Parse refuses it
	}{
		{"another domain", tamper(func(p *Payload) { p.Domain = "evil.example" }), false},
		{"another uri", tamper(func(p *Payload) { p.URI = "https://api.example.com/other" }), false},
		{"another nonce", tamper(func(p *Payload) { p.Nonce = "ffffffffffffffff" }), false},
		{"a later expiry", tamper(func(p *Payload) { p.ExpirationTime = "2027-01-01T00:00:00Z" }), false},
		{"another chain", tamper(func(p *Payload) { p.ChainID = "eip155:1" }), false},
		{"no statement", tamper(func(p *Payload) { p.Statement = nil }), false},
		{"another address", tamper(func(p *Payload) { p.Address = other }), false},
		{"another signer", func() string { q := base(); q.Address = other; return signed(t, q, 1) }(), false},
		{"a line break in a field", tamper(func(p *Payload) { p.Domain = "a.example\nURI: x" }), true},
		{"a solana proof", tamper(func(p *Payload) { p.Type = "ed25519" }), true},
		{"a short signature", tamper(func(p *Payload) { p.Signature = "0x1234" }), true},
		{"a smart-wallet scheme", tamper(func(p *Payload) { p.SignatureScheme = "eip1271" }), true},
		{"a bad time", tamper(func(p *Payload) { p.IssuedAt = "yesterday" }), true},
		{"not base64", "%%%", true},
		{"too large", strings.Repeat("A", MaxHeaderSize+1), true},
	} {
		p, err := Parse(c.header)
		if c.parse {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: parsed %v, %v; want ErrMalformed", c.name, p, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if addr, err := p.Verify(recoverEth); !errors.Is(err, ErrSignature) {
			t.Errorf("%s: verified %q, %v; want ErrSignature", c.name, addr, err)
		}
	}
}

func mustKey(t *testing.T, seed byte) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.ToECDSA(common.LeftPadBytes([]byte{seed}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestChecksum: EIP-55's examples.
func TestChecksum(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"} {
		if got := Checksum(strings.ToLower(a)); got != a || got != common.HexToAddress(a).Hex() {
			t.Errorf("Checksum(%s) = %s", strings.ToLower(a), got)
		}
	}
}

// FuzzParse: Parse never panics, refuses with ErrMalformed, and what it
// accepts has every required field and a message that Verify can check.
func FuzzParse(f *testing.F) {
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{}`)))
	p := base()
	p.Address, p.Signature = "0x52908400098527886e0f7030069857d2e4169ee7", "0x"+strings.Repeat("ab", 64)+"1b"
	raw, _ := json.Marshal(p)
	f.Add(base64.StdEncoding.EncodeToString(raw))
	f.Add("")
	f.Fuzz(func(t *testing.T, header string) {
		p, err := Parse(header)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		if p.Domain == "" || p.Nonce == "" || p.URI == "" {
			t.Fatalf("accepted without required fields: %+v", p)
		}
		if strings.Count(p.Message(), "\n") < 7 {
			t.Fatalf("short message %q", p.Message())
		}
		p.Verify(recoverEth)
	})
}

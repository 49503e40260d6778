// Package cgo compares go-ethereum's two secp256k1 implementations on the
// operations the facilitator runs per payment. Built with CGO_ENABLED=1,
// go-ethereum's crypto package recovers and signs with the bundled C
// libsecp256k1 (crypto/secp256k1); with CGO_ENABLED=0 it falls back to the
// pure-Go decred/dcrd secp256k1. bench/cgo.sh runs these benchmarks both ways
// and prints the ratios.
//
// The package holds only benchmarks, so `go test ./...` compiles it and runs
// nothing.
package cgo

import (
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

// fixture is a key, a 32-byte digest and the key's [R || S || V] signature
// of it, V being 0 or 1 as crypto.Ecrecover wants.
func fixture(b *testing.B) (hash, sig []byte) {
	b.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	hash = crypto.Keccak256([]byte("caddy-x402"))
	sig, err = crypto.Sign(hash, key)
	if err != nil {
		b.Fatal(err)
	}
	return hash, sig
}

// BenchmarkEcrecover is the recovery the exact scheme runs on every /verify
// and /settle (facilitator/exact's checkSignature).
func BenchmarkEcrecover(b *testing.B) {
	hash, sig := fixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := crypto.Ecrecover(hash, sig); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSigToPub is the recovery the aa-native scheme runs on a smart
// account owner's signature.
func BenchmarkSigToPub(b *testing.B) {
	hash, sig := fixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := crypto.SigToPub(hash, sig); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSign is the signature the settler puts on each transaction it
// sends, and the client on each payment.
func BenchmarkSign(b *testing.B) {
	key, err := crypto.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	hash := crypto.Keccak256([]byte("caddy-x402"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := crypto.Sign(hash, key); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeccak256 is the control: Keccak is Go (or assembly) either way,
// so its ratio between the two builds should be 1.
func BenchmarkKeccak256(b *testing.B) {
	data := make([]byte, 256)
	b.ReportAllocs()
	for b.Loop() {
		crypto.Keccak256(data)
	}
}

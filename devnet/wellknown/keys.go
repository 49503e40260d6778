package wellknown

import (
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"
	"golang.org/x/text/unicode/norm"
)

// TestMnemonic is the well-known development mnemonic used by Hardhat,
// Anvil and Foundry. Its accounts are public: never send real funds to them.
const TestMnemonic = "test test test test test test test test test test test junk"

const hardened = 1 << 31

// DeriveKey returns the private key at m/44'/60'/0'/0/index of a BIP-39
// mnemonic with an empty passphrase, the derivation every Ethereum wallet
// and dev tool uses. The phrase is not checked against the BIP-39 word list.
func DeriveKey(mnemonic string, index uint32) (*ecdsa.PrivateKey, error) {
	if index >= hardened {
		return nil, fmt.Errorf("account index %d out of range", index)
	}
	phrase := norm.NFKD.String(strings.Join(strings.Fields(mnemonic), " "))
	if phrase == "" {
		return nil, errors.New("mnemonic is empty")
	}
	seed, err := pbkdf2.Key(sha512.New, phrase, []byte("mnemonic"), 2048, 64)
	if err != nil {
		return nil, fmt.Errorf("deriving seed: %w", err)
	}
	mac := hmac.New(sha512.New, []byte("Bitcoin seed"))
	mac.Write(seed)
	sum := mac.Sum(nil)
	key, chain := sum[:32], sum[32:]
	for _, i := range []uint32{44 + hardened, 60 + hardened, 0 + hardened, 0, index} {
		if key, chain, err = childKey(key, chain, i); err != nil {
			return nil, err
		}
	}
	return crypto.ToECDSA(key)
}

// childKey is BIP-32's CKDpriv.
func childKey(key, chain []byte, i uint32) ([]byte, []byte, error) {
	var data []byte
	if i >= hardened {
		data = append([]byte{0}, key...)
	} else {
		priv, err := crypto.ToECDSA(key)
		if err != nil {
			return nil, nil, err
		}
		data = crypto.CompressPubkey(&priv.PublicKey)
	}
	data = binary.BigEndian.AppendUint32(data, i)
	mac := hmac.New(sha512.New, chain)
	mac.Write(data)
	sum := mac.Sum(nil)

	n := crypto.S256().Params().N
	il := new(big.Int).SetBytes(sum[:32])
	if il.Cmp(n) >= 0 {
		return nil, nil, fmt.Errorf("BIP-32 child %d is invalid; use another index", i)
	}
	child := il.Add(il, new(big.Int).SetBytes(key))
	child.Mod(child, n)
	if child.Sign() == 0 {
		return nil, nil, fmt.Errorf("BIP-32 child %d is invalid; use another index", i)
	}
	return child.FillBytes(make([]byte, 32)), sum[32:], nil
}

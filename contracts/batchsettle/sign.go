package batchsettle

import (
	"bytes"
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// Sign signs an EIP-712 digest with key, as a wallet does: r ‖ s ‖ v with v
// in {27, 28}.
func Sign(digest common.Hash, key *ecdsa.PrivateKey) ([]byte, error) {
	sig, err := crypto.Sign(digest[:], key)
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	sig[64] += 27
	return sig, nil
}

// Recover returns the EOA that signed digest with sig (65 bytes, v in
// {0, 1, 27, 28}, s in the lower half of the curve, as the contract's
// ECDSA accepts).
func Recover(digest common.Hash, sig []byte) (common.Address, error) {
	if len(sig) != crypto.SignatureLength {
		return common.Address{}, fmt.Errorf("signature of %d bytes, want %d", len(sig), crypto.SignatureLength)
	}
	if bytes.Compare(sig[32:64], secp256k1HalfN[:]) > 0 {
		return common.Address{}, fmt.Errorf("signature with a high s")
	}
	v := sig[64]
	if v >= 27 {
		v -= 27
	}
	if v > 1 {
		return common.Address{}, fmt.Errorf("signature with v %d", sig[64])
	}
	rs := make([]byte, crypto.SignatureLength)
	copy(rs, sig[:64])
	rs[64] = v
	pub, err := crypto.Ecrecover(digest[:], rs)
	if err != nil {
		return common.Address{}, fmt.Errorf("recovering the signer: %w", err)
	}
	return common.BytesToAddress(crypto.Keccak256(pub[1:])[12:]), nil
}

// secp256k1HalfN is half the curve's order, big-endian: a signature with a
// higher s is refused, as OpenZeppelin's ECDSA refuses it.
var secp256k1HalfN = [32]byte(common.LeftPadBytes(new(big.Int).Rsh(crypto.S256().Params().N, 1).Bytes(), 32))

// ReceiveAuthorization is an EIP-3009 ReceiveWithAuthorization, which a
// payer signs for a deposit through the ERC-3009 collector: To is the
// collector and Nonce is DepositNonce(channelId, salt).
type ReceiveAuthorization struct {
	From, To                       common.Address
	Value, ValidAfter, ValidBefore *big.Int
	Nonce                          common.Hash
}

// TypedData returns a as EIP-712 typed data in the token's domain.
func (a ReceiveAuthorization) TypedData(d contracts.TokenDomain) apitypes.TypedData {
	return contracts.TransferAuthorization{From: a.From, To: a.To, Value: a.Value, ValidAfter: a.ValidAfter, ValidBefore: a.ValidBefore, Nonce: a.Nonce}.
		TypedDataOf("ReceiveWithAuthorization", d)
}

// Digest is a's EIP-712 digest in the token's domain.
func (a ReceiveAuthorization) Digest(d contracts.TokenDomain) (common.Hash, error) {
	h, _, err := apitypes.TypedDataAndHash(a.TypedData(d))
	if err != nil {
		return common.Hash{}, fmt.Errorf("hashing ReceiveWithAuthorization: %w", err)
	}
	return common.BytesToHash(h), nil
}

// ClaimWithSignature is the calldata of claimWithSignature(claims, sig),
// sig the receiver authorizer's signature of their ClaimBatch in d: what a
// server or a facilitator sends, from any key, to claim the channels of
// claims (one receiver authorizer's) in one transaction.
func (d Domain) ClaimWithSignature(claims []VoucherClaim, authorizer *ecdsa.PrivateKey) ([]byte, error) {
	sig, err := Sign(d.ClaimBatchDigest(d.Entries(claims)), authorizer)
	if err != nil {
		return nil, fmt.Errorf("signing the claim batch: %w", err)
	}
	return NewX402BatchSettlement().PackClaimWithSignature(claims, sig), nil
}

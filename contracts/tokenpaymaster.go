package contracts

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The modes of TokenPaymaster: how an operation pays its gas in tokens.
const (
	// TokenModePrepay takes the operation's maximum cost in tokens in
	// validation and refunds the unused part in postOp (NERO's type 1).
	TokenModePrepay = 1
	// TokenModePostpay checks balance and allowance in validation and
	// takes the actual cost in postOp (NERO's type 2).
	TokenModePostpay = 2
)

// TokenPaymasterDataLength is the length of TokenPaymaster's
// paymasterAndData: paymaster (20), mode (1), token (20), validUntil (6),
// validAfter (6), rate (32), signature (65).
const TokenPaymasterDataLength = 150

// TokenMaxPostOpGas is TokenPaymaster.maxPostOpGas(mode): the most gas
// charged for its postOp on top of the EntryPoint's actualGasCost, which
// validation counts in an operation's maximum token cost.
func TokenMaxPostOpGas(mode uint8) int64 {
	if mode == TokenModePrepay {
		return 15_000
	}
	return 53_000
}

// TokenTerms are what TokenPaymaster's signer signs for one operation:
// how it pays, in which token, at which rate, and when.
type TokenTerms struct {
	// Mode is TokenModePrepay or TokenModePostpay.
	Mode uint8
	// Token is the ERC-20 the gas is paid in.
	Token common.Address
	// Rate is token units per 1e18 wei (one ETH), markup included.
	Rate *big.Int
	// ValidUntil and ValidAfter bound the signature in time (Unix seconds,
	// 48 bits; ValidUntil 0 is forever).
	ValidUntil, ValidAfter uint64
}

var (
	uint8T, _ = abi.NewType("uint8", "", nil)

	tokenOpArgs = abi.Arguments{
		{Type: addressT}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
		{Type: uint256T}, {Type: uint256T}, {Type: uint256T}, {Type: uint256T}, {Type: uint256T},
	}
	tokenArgs = abi.Arguments{
		{Type: bytes32T}, {Type: uint256T}, {Type: addressT}, {Type: uint8T},
		{Type: addressT}, {Type: uint256T}, {Type: uint48T}, {Type: uint48T},
	}
)

// Check reports whether t fits the contracts' types: a uint256 rate and
// 48-bit times.
func (t TokenTerms) Check() error {
	if t.Rate == nil || t.Rate.Sign() < 0 || t.Rate.BitLen() > 256 {
		return errors.New("rate: want a uint256")
	}
	if t.ValidUntil >= 1<<48 || t.ValidAfter >= 1<<48 {
		return errors.New("validity window: want 48-bit times")
	}
	return nil
}

// TokenTermsLength is the length of the packed terms (TokenTerms.Bytes):
// mode (1), token (20), validUntil (6), validAfter (6), rate (32). Both
// token paymasters carry them, then a 65-byte signature.
const TokenTermsLength = 65

// Bytes packs t as the token paymasters' paymaster data begins: mode,
// token, validUntil, validAfter (6 bytes each), rate (32 bytes).
func (t TokenTerms) Bytes() []byte {
	out := make([]byte, 0, TokenTermsLength)
	out = append(out, t.Mode)
	out = append(out, t.Token.Bytes()...)
	var w [8]byte
	binary.BigEndian.PutUint64(w[:], t.ValidUntil)
	out = append(out, w[2:]...)
	binary.BigEndian.PutUint64(w[:], t.ValidAfter)
	out = append(out, w[2:]...)
	var rate [32]byte
	if t.Rate != nil && t.Rate.Sign() >= 0 && t.Rate.BitLen() <= 256 {
		t.Rate.FillBytes(rate[:])
	}
	return append(out, rate[:]...)
}

// DecodeTokenTerms unpacks what Bytes packs; b must be TokenTermsLength
// bytes.
func DecodeTokenTerms(b []byte) (TokenTerms, error) {
	if len(b) != TokenTermsLength {
		return TokenTerms{}, fmt.Errorf("token terms are %d bytes, not %d", len(b), TokenTermsLength)
	}
	u48 := func(p []byte) uint64 {
		var w [8]byte
		copy(w[2:], p)
		return binary.BigEndian.Uint64(w[:])
	}
	return TokenTerms{
		Mode:       b[0],
		Token:      common.BytesToAddress(b[1:21]),
		ValidUntil: u48(b[21:27]),
		ValidAfter: u48(b[27:33]),
		Rate:       new(big.Int).SetBytes(b[33:65]),
	}, nil
}

// TokenPaymasterHash is TokenPaymaster.getHash computed off-chain: the hash
// its signer signs (as an Ethereum signed message, SignHash) so that op
// pays its gas on terms t.
func TokenPaymasterHash(op UserOperation, paymaster common.Address, chainID *big.Int, t TokenTerms) (common.Hash, error) {
	if err := t.Check(); err != nil {
		return common.Hash{}, err
	}
	inner, err := tokenOpArgs.Pack(op.Sender, op.Nonce, crypto.Keccak256Hash(op.InitCode), crypto.Keccak256Hash(op.CallData),
		op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas, op.MaxFeePerGas, op.MaxPriorityFeePerGas)
	if err != nil {
		return common.Hash{}, fmt.Errorf("encoding the UserOperation: %w", err)
	}
	outer, err := tokenArgs.Pack(crypto.Keccak256Hash(inner), chainID, paymaster, t.Mode, t.Token, t.Rate,
		new(big.Int).SetUint64(t.ValidUntil), new(big.Int).SetUint64(t.ValidAfter))
	if err != nil {
		return common.Hash{}, fmt.Errorf("encoding the terms: %w", err)
	}
	return crypto.Keccak256Hash(outer), nil
}

// TokenPaymasterAndData builds TokenPaymaster's paymasterAndData for terms
// t and a 65-byte signature.
func TokenPaymasterAndData(paymaster common.Address, t TokenTerms, signature []byte) []byte {
	out := make([]byte, 0, TokenPaymasterDataLength)
	out = append(out, paymaster.Bytes()...)
	out = append(out, t.Bytes()...)
	return append(out, signature...)
}

// DecodeTokenPaymasterAndData splits TokenPaymaster's paymasterAndData into
// the paymaster, the terms and the signature, as the contract's decodeTerms
// does; anything but 150 bytes is refused.
func DecodeTokenPaymasterAndData(b []byte) (common.Address, TokenTerms, []byte, error) {
	if len(b) != TokenPaymasterDataLength {
		return common.Address{}, TokenTerms{}, nil, fmt.Errorf("paymasterAndData is %d bytes; TokenPaymaster's is %d", len(b), TokenPaymasterDataLength)
	}
	t, err := DecodeTokenTerms(b[20 : 20+TokenTermsLength])
	if err != nil {
		return common.Address{}, TokenTerms{}, nil, err
	}
	return common.BytesToAddress(b[:20]), t, append([]byte(nil), b[20+TokenTermsLength:]...), nil
}

// TokenCost is TokenPaymaster.tokenCost: the tokens gasCost wei costs at
// rate (token units per 1e18 wei), rounded up.
func TokenCost(gasCost, rate *big.Int) *big.Int {
	n := new(big.Int).Mul(gasCost, rate)
	q, r := new(big.Int).QuoRem(n, big.NewInt(1e18), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

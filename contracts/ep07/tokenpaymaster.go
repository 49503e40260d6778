package ep07

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// TokenPaymasterDataLength is the length of TokenPaymasterV07's
// paymasterData (what follows the paymaster and its two gas limits): mode
// (1), token (20), validUntil (6), validAfter (6), rate (32), signature
// (65).
const TokenPaymasterDataLength = 130

// TokenPostOpGasLimit is the paymasterPostOpGasLimit the paymaster service
// signs for an operation paying in mode: the postOp's measured gas (about
// 17,000 in mode 1 and 36,000 in mode 2 on the devnet, the event included)
// with room. The EntryPoint charges a tenth of what it leaves unused.
func TokenPostOpGasLimit(mode uint8) int64 {
	if mode == contracts.TokenModePrepay {
		return 30_000
	}
	return 50_000
}

var (
	uint8T, _ = abi.NewType("uint8", "", nil)

	tokenOpArgs = abi.Arguments{
		{Type: addressT}, {Type: uint256T}, {Type: bytes32T}, {Type: bytes32T},
		{Type: bytes32T}, {Type: uint256T}, {Type: uint256T}, {Type: bytes32T},
	}
	tokenTermsArgs = abi.Arguments{
		{Type: bytes32T}, {Type: uint256T}, {Type: addressT}, {Type: uint8T},
		{Type: addressT}, {Type: uint256T}, {Type: uint48T}, {Type: uint48T},
	}
)

// TokenPaymasterHash is TokenPaymasterV07.getHash computed off-chain: the
// hash its signer signs (as an Ethereum signed message) so that op pays
// its gas on terms t. It covers the operation's fields but the
// paymasterData and the signature, the paymaster's two gas limits (op's),
// the chain, the paymaster and the terms. op must pass Check.
func TokenPaymasterHash(op UserOperation, paymaster common.Address, chainID *big.Int, t contracts.TokenTerms) (common.Hash, error) {
	if err := t.Check(); err != nil {
		return common.Hash{}, err
	}
	p := op.Pack()
	limits := two128(op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit)
	inner, err := tokenOpArgs.Pack(p.Sender, p.Nonce,
		crypto.Keccak256Hash(p.InitCode), crypto.Keccak256Hash(p.CallData),
		p.AccountGasLimits, new(big.Int).SetBytes(limits[:]), p.PreVerificationGas, p.GasFees)
	if err != nil {
		return common.Hash{}, fmt.Errorf("encoding the UserOperation: %w", err)
	}
	outer, err := tokenTermsArgs.Pack(crypto.Keccak256Hash(inner), chainID, paymaster, t.Mode, t.Token, t.Rate,
		new(big.Int).SetUint64(t.ValidUntil), new(big.Int).SetUint64(t.ValidAfter))
	if err != nil {
		return common.Hash{}, fmt.Errorf("encoding the terms: %w", err)
	}
	return crypto.Keccak256Hash(outer), nil
}

// TokenPaymasterData is TokenPaymasterV07's paymasterData for terms t and a
// 65-byte signature.
func TokenPaymasterData(t contracts.TokenTerms, signature []byte) []byte {
	return append(t.Bytes(), signature...)
}

// DecodeTokenPaymasterData splits TokenPaymasterV07's paymasterData into
// the terms and the signature, as the contract's decodeTerms does; anything
// but 130 bytes is refused.
func DecodeTokenPaymasterData(b []byte) (contracts.TokenTerms, []byte, error) {
	if len(b) != TokenPaymasterDataLength {
		return contracts.TokenTerms{}, nil, fmt.Errorf("paymasterData is %d bytes; TokenPaymasterV07's is %d", len(b), TokenPaymasterDataLength)
	}
	t, err := contracts.DecodeTokenTerms(b[:contracts.TokenTermsLength])
	return t, append([]byte(nil), b[contracts.TokenTermsLength:]...), err
}

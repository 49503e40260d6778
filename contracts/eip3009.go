package contracts

import (
	"crypto/ecdsa"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// TransferAuthorization is an EIP-3009 TransferWithAuthorization message, as
// payers of x402's exact scheme sign it.
type TransferAuthorization struct {
	From, To    common.Address
	Value       *big.Int
	ValidAfter  *big.Int
	ValidBefore *big.Int
	Nonce       [32]byte
}

// TokenDomain is the EIP-712 domain of an EIP-3009 token.
type TokenDomain struct {
	Name, Version string
	ChainID       *big.Int
	Token         common.Address
}

// TypedData returns a as EIP-712 typed data in the token's domain.
func (a TransferAuthorization) TypedData(d TokenDomain) apitypes.TypedData {
	return a.TypedDataOf("TransferWithAuthorization", d)
}

// TypedDataOf returns a as the EIP-3009 message primary
// (TransferWithAuthorization, or ReceiveWithAuthorization, whose fields
// are the same) in the token's domain.
func (a TransferAuthorization) TypedDataOf(primary string, d TokenDomain) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			primary: {
				{Name: "from", Type: "address"}, {Name: "to", Type: "address"}, {Name: "value", Type: "uint256"},
				{Name: "validAfter", Type: "uint256"}, {Name: "validBefore", Type: "uint256"}, {Name: "nonce", Type: "bytes32"},
			},
		},
		PrimaryType: primary,
		Domain: apitypes.TypedDataDomain{
			Name: d.Name, Version: d.Version,
			ChainId: (*math.HexOrDecimal256)(d.ChainID), VerifyingContract: d.Token.Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"from": a.From.Hex(), "to": a.To.Hex(), "value": a.Value.String(),
			"validAfter": a.ValidAfter.String(), "validBefore": a.ValidBefore.String(),
			"nonce": hexutil.Encode(a.Nonce[:]),
		},
	}
}

// Sign signs a in the token's domain with geth's EIP-712 implementation, as
// a wallet does. The result is r ‖ s ‖ v with v in {27, 28}.
func (a TransferAuthorization) Sign(d TokenDomain, key *ecdsa.PrivateKey) ([]byte, error) {
	return signTyped(a.TypedData(d), key)
}

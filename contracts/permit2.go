package contracts

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// Permit2Transfer is a Permit2 PermitWitnessTransferFrom with x402's
// witness, as payers of x402's exact (Permit2) and upto schemes sign it.
// Facilitator is set for upto's witness (to, facilitator, validAfter) and
// zero for exact's (to, validAfter).
type Permit2Transfer struct {
	Token           common.Address
	Amount          *big.Int
	Spender         common.Address
	Nonce, Deadline *big.Int
	To, Facilitator common.Address
	ValidAfter      *big.Int
	ChainID         *big.Int
	// Upto selects upto's witness type.
	Upto bool
}

// TypedData returns t as EIP-712 typed data in Permit2's domain at permit2.
func (t Permit2Transfer) TypedData(permit2 common.Address) apitypes.TypedData {
	witness := []apitypes.Type{{Name: "to", Type: "address"}, {Name: "validAfter", Type: "uint256"}}
	msgWitness := apitypes.TypedDataMessage{"to": t.To.Hex(), "validAfter": t.ValidAfter.String()}
	if t.Upto {
		witness = []apitypes.Type{{Name: "to", Type: "address"}, {Name: "facilitator", Type: "address"}, {Name: "validAfter", Type: "uint256"}}
		msgWitness["facilitator"] = t.Facilitator.Hex()
	}
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
			"PermitWitnessTransferFrom": {
				{Name: "permitted", Type: "TokenPermissions"}, {Name: "spender", Type: "address"},
				{Name: "nonce", Type: "uint256"}, {Name: "deadline", Type: "uint256"}, {Name: "witness", Type: "Witness"},
			},
			"TokenPermissions": {{Name: "token", Type: "address"}, {Name: "amount", Type: "uint256"}},
			"Witness":          witness,
		},
		PrimaryType: "PermitWitnessTransferFrom",
		Domain:      apitypes.TypedDataDomain{Name: "Permit2", ChainId: (*math.HexOrDecimal256)(t.ChainID), VerifyingContract: permit2.Hex()},
		Message: apitypes.TypedDataMessage{
			"permitted": apitypes.TypedDataMessage{"token": t.Token.Hex(), "amount": t.Amount.String()},
			"spender":   t.Spender.Hex(), "nonce": t.Nonce.String(), "deadline": t.Deadline.String(),
			"witness": msgWitness,
		},
	}
}

// Sign signs t for the Permit2 at permit2 with geth's EIP-712
// implementation, as a wallet does: r ‖ s ‖ v with v in {27, 28}.
func (t Permit2Transfer) Sign(permit2 common.Address, key *ecdsa.PrivateKey) ([]byte, error) {
	return signTyped(t.TypedData(permit2), key)
}

// ERC2612Permit is an EIP-2612 Permit message.
type ERC2612Permit struct {
	Owner, Spender         common.Address
	Value, Nonce, Deadline *big.Int
}

// Sign signs p in the token's domain d, as a wallet does.
func (p ERC2612Permit) Sign(d TokenDomain, key *ecdsa.PrivateKey) ([]byte, error) {
	return signTyped(apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			"Permit": {
				{Name: "owner", Type: "address"}, {Name: "spender", Type: "address"}, {Name: "value", Type: "uint256"},
				{Name: "nonce", Type: "uint256"}, {Name: "deadline", Type: "uint256"},
			},
		},
		PrimaryType: "Permit",
		Domain:      apitypes.TypedDataDomain{Name: d.Name, Version: d.Version, ChainId: (*math.HexOrDecimal256)(d.ChainID), VerifyingContract: d.Token.Hex()},
		Message: apitypes.TypedDataMessage{
			"owner": p.Owner.Hex(), "spender": p.Spender.Hex(), "value": p.Value.String(),
			"nonce": p.Nonce.String(), "deadline": p.Deadline.String(),
		},
	}, key)
}

// signTyped signs EIP-712 typed data: r ‖ s ‖ v with v in {27, 28}.
func signTyped(td apitypes.TypedData, key *ecdsa.PrivateKey) ([]byte, error) {
	hash, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		return nil, fmt.Errorf("hashing %s: %w", td.PrimaryType, err)
	}
	sig, err := crypto.Sign(hash, key)
	if err != nil {
		return nil, err
	}
	sig[64] += 27
	return sig, nil
}

package exact

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The EIP-712 digests a Permit2 payment's signatures are checked against:
// the payer's PermitWitnessTransferFrom in Permit2's domain (exact's and
// upto's witnesses), and an EIP-2612 permit of Permit2 in the token's.

var (
	permit2DomainTypeHash = crypto.Keccak256Hash([]byte("EIP712Domain(string name,uint256 chainId,address verifyingContract)"))
	tokenPermissionsHash  = crypto.Keccak256Hash([]byte("TokenPermissions(address token,uint256 amount)"))
	exactWitnessTypeHash  = crypto.Keccak256Hash([]byte("Witness(address to,uint256 validAfter)"))
	exactPermitTypeHash   = crypto.Keccak256Hash([]byte("PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,uint256 validAfter)"))
	uptoWitnessTypeHash   = crypto.Keccak256Hash([]byte("Witness(address to,address facilitator,uint256 validAfter)"))
	uptoPermitTypeHash    = crypto.Keccak256Hash([]byte("PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)"))
	eip2612PermitTypeHash = crypto.Keccak256Hash([]byte("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"))
)

// Permit2Domain is Permit2's EIP-712 domain separator on a chain.
func Permit2Domain(chainID *big.Int) common.Hash {
	return crypto.Keccak256Hash(permit2DomainTypeHash[:], crypto.Keccak256([]byte("Permit2")), word(chainID), word(new(big.Int).SetBytes(Permit2[:])))
}

// Permit2Digest is the EIP-712 hash the payer of an exact (or upto)
// Permit2 payment signs.
func Permit2Digest(chainID *big.Int, p *Permit2Payment) common.Hash {
	permitted := crypto.Keccak256(tokenPermissionsHash[:], common.LeftPadBytes(p.Token[:], 32), word(p.Amount))
	witness := crypto.Keccak256(exactWitnessTypeHash[:], common.LeftPadBytes(p.To[:], 32), word(p.ValidAfter))
	typeHash := exactPermitTypeHash
	if p.Upto {
		witness = crypto.Keccak256(uptoWitnessTypeHash[:], common.LeftPadBytes(p.To[:], 32), common.LeftPadBytes(p.Facilitator[:], 32), word(p.ValidAfter))
		typeHash = uptoPermitTypeHash
	}
	structHash := crypto.Keccak256(typeHash[:], permitted, common.LeftPadBytes(p.Spender[:], 32), word(p.Nonce), word(p.Deadline), witness)
	domain := Permit2Domain(chainID)
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, domain[:], structHash)
}

// EIP2612Digest is the EIP-712 hash of an EIP-2612 permit in a token's
// domain.
func EIP2612Digest(domain common.Hash, p *EIP2612Permit) common.Hash {
	structHash := crypto.Keccak256(eip2612PermitTypeHash[:], common.LeftPadBytes(p.From[:], 32), common.LeftPadBytes(p.Spender[:], 32), word(p.Amount), word(p.Nonce), word(p.Deadline))
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, domain[:], structHash)
}

// signedBy checks that sig, with low s, recovers to signer over digest.
func (s *Scheme) signedBy(digest common.Hash, sig [65]byte, signer common.Address, what string) error {
	if new(big.Int).SetBytes(sig[32:64]).Cmp(halfN) > 0 {
		return x402.Invalid(x402.ReasonSignatureInvalid, "%s: s is in the upper half of the curve order (malleable)", what)
	}
	got, err := s.recovered.signer(digest, sig)
	if err != nil {
		return x402.Invalid(x402.ReasonSignatureInvalid, "%s does not recover: %v", what, err)
	}
	if got != signer {
		return x402.Invalid(x402.ReasonSignatureInvalid, "%s is by %s, not %s (wrong key, chain id or domain)", what, got, signer)
	}
	return nil
}

func word(v *big.Int) []byte { return common.LeftPadBytes(v.Bytes(), 32) }

package exact

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/memo"
)

// A paid request decodes its payment three times: the paywall's verify,
// its settle, and Served once the response is written (a merchant calling
// /verify and then /settle does the same over HTTP). Signature recovery
// is a third of a verification's CPU (about 47 µs of 150 on a small
// machine), and the digest and signature are the same each time, so the
// signer is recovered once and remembered for the calls that follow.

// recoveriesPerGeneration bounds the memo: two generations of at most
// this many signers each (memo's default), about a megabyte in all. At
// 8,000 verifications a second a signer is remembered for half a second
// at least, far longer than a settle takes to follow its verify.
const recoveriesPerGeneration = memo.DefaultSize

// recoveries is a bounded memo of ecrecover: a digest and a 65-byte
// signature (v 27 or 28) to the address that signed it. Only recoveries
// that succeeded are kept; the answer is a function of the key, so a
// caller cannot plant a wrong one (see memo). The zero value is ready.
type recoveries struct {
	memo.Generations[recoveryKey, common.Address]
}

// recoveryKey is a digest followed by a signature.
type recoveryKey [32 + 65]byte

// signer returns the address whose key made sig over digest, as the
// chain's ecrecover would. The caller checks s and v first.
func (r *recoveries) signer(digest common.Hash, sig [65]byte) (common.Address, error) {
	var k recoveryKey
	copy(k[:32], digest[:])
	copy(k[32:], sig[:])
	if a, ok := r.Get(k); ok {
		return a, nil
	}
	sig[64] -= 27
	pub, err := crypto.Ecrecover(digest[:], sig[:])
	if err != nil {
		return common.Address{}, err
	}
	a := common.BytesToAddress(crypto.Keccak256(pub[1:])[12:])
	r.Put(k, a)
	return a, nil
}

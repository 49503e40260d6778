package exact

import (
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// A paid request decodes its payment three times: the paywall's verify,
// its settle, and Served once the response is written (a merchant calling
// /verify and then /settle does the same over HTTP). Signature recovery
// is a third of a verification's CPU (about 47 µs of 150 on a small
// machine), and the digest and signature are the same each time, so the
// signer is recovered once and remembered for the calls that follow.

// recoveriesPerGeneration bounds the memo: two generations of at most
// this many signers each, about a megabyte in all. At 8,000 verifications a
// second a signer is remembered for half a second at least, far longer
// than a settle takes to follow its verify.
const recoveriesPerGeneration = 4096

// recoveries is a bounded memo of ecrecover: a digest and a 65-byte
// signature (v 27 or 28) to the address that signed it. Only recoveries
// that succeeded are kept; the answer is a function of the key, so a
// caller cannot plant a wrong one. It is two maps, the newer filled until
// it is full and then made the older, rather than a ristretto cache, whose
// writes are applied later and may be refused by its admission policy:
// the settle that follows a verify within milliseconds must find it.
type recoveries struct {
	mu       sync.Mutex
	cur, old map[recoveryKey]common.Address
}

// recoveryKey is a digest followed by a signature.
type recoveryKey [32 + 65]byte

// signer returns the address whose key made sig over digest, as the
// chain's ecrecover would. The caller checks s and v first.
func (r *recoveries) signer(digest common.Hash, sig [65]byte) (common.Address, error) {
	var k recoveryKey
	copy(k[:32], digest[:])
	copy(k[32:], sig[:])
	r.mu.Lock()
	a, ok := r.cur[k]
	if !ok {
		a, ok = r.old[k]
	}
	r.mu.Unlock()
	if ok {
		return a, nil
	}
	sig[64] -= 27
	pub, err := crypto.Ecrecover(digest[:], sig[:])
	if err != nil {
		return common.Address{}, err
	}
	a = common.BytesToAddress(crypto.Keccak256(pub[1:])[12:])
	r.mu.Lock()
	if r.cur == nil || len(r.cur) >= recoveriesPerGeneration {
		r.old, r.cur = r.cur, make(map[recoveryKey]common.Address, recoveriesPerGeneration)
	}
	r.cur[k] = a
	r.mu.Unlock()
	return a, nil
}

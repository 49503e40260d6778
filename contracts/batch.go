package contracts

import (
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// BatchItem is one EIP-3009 payment of an X402Batch call: the arguments of
// the token's transferWithAuthorization.
type BatchItem struct {
	Token, To, From         common.Address
	Value                   *big.Int
	ValidAfter, ValidBefore uint64
	Nonce                   [32]byte
	// V is 27 or 28.
	V    uint8
	R, S [32]byte
}

// The sizes of X402Batch's packed items (see its source).
const (
	// BatchItemSize is an item's bytes after its flags and shared
	// addresses.
	BatchItemSize = 148
	// BatchItemMax is an item's bytes at most: with its flags, a token
	// and a recipient.
	BatchItemMax = 1 + 40 + BatchItemSize
)

// The flags of a packed item.
const (
	batchToken = 1 << iota
	batchTo
	batchV28
)

var maxBatchValue = new(big.Int).Lsh(big.NewInt(1), 128)

// BatchFits reports whether a payment's value and validity window fit an
// X402Batch item (a value below 2^128, times below 2^64); one that does not
// is settled on its own.
func BatchFits(value, validAfter, validBefore *big.Int) bool {
	return value != nil && value.Sign() >= 0 && value.Cmp(maxBatchValue) < 0 &&
		validAfter != nil && validAfter.Sign() >= 0 && validAfter.IsUint64() &&
		validBefore != nil && validBefore.Sign() >= 0 && validBefore.IsUint64()
}

// PackBatch returns X402Batch's calldata for items, in their order: an
// item names its token and recipient only when they differ from the
// previous item's. Every item must fit (BatchFits) and V be 27 or 28.
func PackBatch(items []BatchItem) []byte {
	out := make([]byte, 0, len(items)*(1+BatchItemSize)+40)
	var token, to common.Address
	for i, it := range items {
		var flags byte
		if i == 0 || it.Token != token {
			flags |= batchToken
		}
		if i == 0 || it.To != to {
			flags |= batchTo
		}
		if it.V == 28 {
			flags |= batchV28
		}
		out = append(out, flags)
		if flags&batchToken != 0 {
			out = append(out, it.Token[:]...)
		}
		if flags&batchTo != 0 {
			out = append(out, it.To[:]...)
		}
		token, to = it.Token, it.To
		out = append(out, it.From[:]...)
		var value [16]byte
		it.Value.FillBytes(value[:])
		out = append(out, value[:]...)
		out = appendUint64(out, it.ValidAfter)
		out = appendUint64(out, it.ValidBefore)
		out = append(out, it.Nonce[:]...)
		out = append(out, it.R[:]...)
		out = append(out, it.S[:]...)
	}
	return out
}

func appendUint64(b []byte, v uint64) []byte {
	return append(b, byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

// ErrMalformedBatch is UnpackBatch's error for calldata X402Batch refuses.
var ErrMalformedBatch = errors.New("malformed X402Batch calldata")

// UnpackBatch reads X402Batch calldata back into its items, as the
// contract reads it; calldata the contract refuses is ErrMalformedBatch.
func UnpackBatch(data []byte) ([]BatchItem, error) {
	var (
		items     []BatchItem
		token, to common.Address
	)
	for len(data) > 0 {
		flags := data[0]
		data = data[1:]
		if flags&batchToken != 0 {
			if len(data) < 20 {
				return nil, ErrMalformedBatch
			}
			token, data = common.BytesToAddress(data[:20]), data[20:]
		}
		if flags&batchTo != 0 {
			if len(data) < 20 {
				return nil, ErrMalformedBatch
			}
			to, data = common.BytesToAddress(data[:20]), data[20:]
		}
		if token == (common.Address{}) || to == (common.Address{}) || len(data) < BatchItemSize {
			return nil, ErrMalformedBatch
		}
		it := BatchItem{Token: token, To: to, From: common.BytesToAddress(data[:20]), Value: new(big.Int).SetBytes(data[20:36]), V: 27}
		it.ValidAfter, it.ValidBefore = be64(data[36:44]), be64(data[44:52])
		copy(it.Nonce[:], data[52:84])
		copy(it.R[:], data[84:116])
		copy(it.S[:], data[116:148])
		if flags&batchV28 != 0 {
			it.V = 28
		}
		items = append(items, it)
		data = data[BatchItemSize:]
	}
	return items, nil
}

func be64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// BatchFailed reads X402Batch's answer, a bitmap of the items whose
// transfer failed, for a batch of n items: failed[i] is true where item i
// failed. An answer of the wrong size is an error.
func BatchFailed(answer []byte, n int) ([]bool, error) {
	if n < 0 || len(answer) < (n+7)/8 {
		return nil, errors.New("X402Batch answered a bitmap too short for its batch")
	}
	failed := make([]bool, n)
	for i := range failed {
		failed[i] = answer[i>>3]&(1<<(i&7)) != 0
	}
	return failed, nil
}

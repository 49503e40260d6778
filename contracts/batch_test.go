package contracts

import (
	"bytes"
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// FuzzUnpackBatch: any calldata either is refused or reads as items that
// pack back to calldata reading as the same items; no input panics.
func FuzzUnpackBatch(f *testing.F) {
	f.Add(PackBatch([]BatchItem{
		{Token: common.Address{1}, To: common.Address{2}, From: common.Address{3}, Value: big.NewInt(5), ValidBefore: 9, V: 28},
		{Token: common.Address{1}, To: common.Address{4}, From: common.Address{3}, Value: big.NewInt(6), V: 27},
	}))
	f.Add([]byte{3})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := UnpackBatch(data)
		if err != nil {
			return
		}
		again, err := UnpackBatch(PackBatch(items))
		if err != nil || !reflect.DeepEqual(items, again) {
			t.Fatalf("%x reads as %+v, packs back as %+v (%v)", data, items, again, err)
		}
		if failed, err := BatchFailed(bytes.Repeat([]byte{0xff}, (len(items)+7)/8), len(items)); err != nil || len(failed) != len(items) {
			t.Fatalf("bitmap of %d items: %v, %v", len(items), failed, err)
		}
	})
}

// BatchFits refuses what the packed item cannot carry.
func TestBatchFits(t *testing.T) {
	t.Parallel()
	max128 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	over64 := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, tc := range []struct {
		value, after, before *big.Int
		fits                 bool
	}{
		{big.NewInt(1), big.NewInt(0), big.NewInt(1), true},
		{max128, big.NewInt(0), big.NewInt(1), true},
		{new(big.Int).Add(max128, big.NewInt(1)), big.NewInt(0), big.NewInt(1), false},
		{big.NewInt(1), big.NewInt(0), over64, false},
		{big.NewInt(-1), big.NewInt(0), big.NewInt(1), false},
		{nil, big.NewInt(0), big.NewInt(1), false},
	} {
		if got := BatchFits(tc.value, tc.after, tc.before); got != tc.fits {
			t.Errorf("BatchFits(%v, %v, %v) = %v", tc.value, tc.after, tc.before, got)
		}
	}
	if _, err := BatchFailed(nil, 1); err == nil {
		t.Error("an empty bitmap reads for one item")
	}
}

package store

import (
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// BenchmarkLoneSettlementWrites is the store's part of one settlement with
// nothing else under way: claim, submitted, final — three commits. Each
// commits at once; before, each waited MaxBatchDelay for company.
func BenchmarkLoneSettlementWrites(b *testing.B) {
	st, err := Open(Config{Path: filepath.Join(b.TempDir(), "x402.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	b.ResetTimer()
	for i := range b.N {
		var key common.Hash
		big.NewInt(int64(i + 1)).FillBytes(key[:])
		rec := Record{Key: key, State: StateClaimed, Scheme: "exact", Amount: big.NewInt(1), Created: now, Updated: now}
		if _, ok, err := st.Claim(rec); err != nil || !ok {
			b.Fatal(ok, err)
		}
		rec.State, rec.TxHash, rec.RawTx = StateSubmitted, key, []byte{1}
		if err := st.Submit(&rec); err != nil {
			b.Fatal(err)
		}
		rec.State, rec.Response = StateSettled, &x402.SettleResponse{Success: true}
		if err := st.Finish(&rec); err != nil {
			b.Fatal(err)
		}
	}
}

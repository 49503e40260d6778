package store

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	bolt "go.etcd.io/bbolt"

	"github.com/caddy-x402/caddy-x402/x402"
)

// bigStore writes n settled records, each with a 200-byte signed
// transaction and a settle response, straight through bbolt, and returns
// the file's path.
func bigStore(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "x402.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for start := 0; start < n; start += 10_000 {
		err := db.Update(func(tx *bolt.Tx) error {
			bk, err := tx.CreateBucketIfNotExists(settlementsBucket)
			if err != nil {
				return err
			}
			for i := start; i < min(start+10_000, n); i++ {
				rec := record(0)
				binary.BigEndian.PutUint64(rec.Key[:], uint64(i)*0x9e3779b97f4a7c15) // spread like hashes
				rec.State = StateSettled
				rec.RawTx = bytes.Repeat([]byte{byte(i)}, 200)
				rec.TxHash = common.Hash{byte(i)}
				rec.Response = &x402.SettleResponse{Success: true, X402Version: 2, Network: rec.Network, TransactionHash: rec.TxHash.Hex()}
				raw, err := encode(&rec)
				if err != nil {
					return err
				}
				if err := bk.Put(rec.Key[:], raw); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// BenchmarkOpenPlain100k is bbolt's open alone, to compare the checks with.
func BenchmarkOpenPlain100k(b *testing.B) {
	path := bigStore(b, 100_000)
	for b.Loop() {
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}

// BenchmarkOpenChecked100k is what Open adds at start-up: inspect and
// bbolt's tx.Check.
func BenchmarkOpenChecked100k(b *testing.B) {
	path := bigStore(b, 100_000)
	for b.Loop() {
		db, err := openBolt(path, false)
		if err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}

// BenchmarkCheck100k is `caddy x402 store check`: Open's checks and a
// decode of every record.
func BenchmarkCheck100k(b *testing.B) {
	path := bigStore(b, 100_000)
	for b.Loop() {
		if _, err := Check(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBackup100k is what Close adds at shutdown: a copy, checked.
func BenchmarkBackup100k(b *testing.B) {
	path := bigStore(b, 100_000)
	db, err := openBolt(path, false)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	dst := path + backupSuffix
	for b.Loop() {
		if err := writeCopy(db, dst); err != nil {
			b.Fatal(err)
		}
	}
}

package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// FuzzOpen feeds damaged store files to the checks Open and Check make. An
// input may be refused, but nothing may panic or fault, including bbolt's
// consistency check and the reads that follow an accepted file.
func FuzzOpen(f *testing.F) {
	for _, records := range []int{1, 24} {
		path := filepath.Join(f.TempDir(), "x402.db")
		s, err := Open(Config{Path: path})
		if err != nil {
			f.Fatal(err)
		}
		for i := range records {
			rec := record(byte(i))
			rec.RawTx = bytes.Repeat([]byte{byte(i)}, 600)
			if _, _, err := s.Claim(rec); err != nil {
				f.Fatal(err)
			}
		}
		b, err := s.Bucket("paymaster_keys")
		if err != nil {
			f.Fatal(err)
		}
		if err := b.Put(common.Hash{1}.Bytes(), []byte("{}")); err != nil {
			f.Fatal(err)
		}
		s.Close()
		raw, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		if inspect(bytes.NewReader(file), int64(len(file))) != nil {
			return // refused before bbolt would read it
		}
		path := filepath.Join(t.TempDir(), "x402.db")
		if err := os.WriteFile(path, file, 0o600); err != nil {
			t.Fatal(err)
		}
		Check(path) // opens, runs tx.Check, reads every record
	})
}

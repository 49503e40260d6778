package store

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// FuzzDecodeCursor feeds arbitrary text to the decoder of Query.After,
// which comes from the operator's URL: it may refuse it, but never panic,
// and a cursor it accepts is the one text of that position.
func FuzzDecodeCursor(f *testing.F) {
	for _, c := range []Cursor{
		{},
		{Created: time.Unix(1_800_000_000, 123_456_789), Key: common.Hash{1, 2, 3}},
		{Created: time.Unix(-1, 999_999_999), Key: common.MaxHash},
		{Created: time.Unix(math.MaxInt64, 999_999_999)},
		{Created: time.Unix(math.MinInt64, 0)},
	} {
		f.Add(c.String())
	}
	for _, s := range []string{"", "=", "not a cursor", "AAAA", strings.Repeat("_", 59), strings.Repeat("A", 60),
		strings.Repeat("0", 39) + "\n" + strings.Repeat("0", 20), // line breaks are skipped by base64
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeCursor(s)
		if err != nil {
			return
		}
		if again := c.String(); again != s {
			t.Fatalf("%q decodes to a cursor that encodes as %q", s, again)
		}
		if back, err := DecodeCursor(c.String()); err != nil || back != c {
			t.Fatalf("%v encodes to a cursor that decodes to %v, %v", c, back, err)
		}
	})
}

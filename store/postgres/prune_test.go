package postgres

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
)

// A record written before final records were trimmed keeps its signed
// transaction, and reads as it did; it is trimmed when it is next
// written. It is pruned like any other.
func TestOldRecordsReadWithTheirTransaction(t *testing.T) {
	t.Parallel()
	s := openStore(t, freshConfig(t))
	raw, err := os.ReadFile("../storetest/testdata/settled-exact.json")
	if err != nil {
		t.Fatal(err)
	}
	var old store.Record
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	old.Served = false
	raw, err = json.Marshal(&old) // as the store wrote it then
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(t.Context(), `INSERT INTO settlements (key, `+recordColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, append([]any{old.Key[:]}, columns(&old, raw)...)...); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(old.Key)
	if err != nil || got == nil || len(got.RawTx) != len(old.RawTx) || got.State != store.StateSettled {
		t.Fatalf("the old record reads as %+v, %v", got, err)
	}
	if err := s.Serve(old.Key, old.Consumer); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(old.Key); err != nil || len(got.RawTx) != 0 || !got.Served || got.TxHash != old.TxHash {
		t.Fatalf("the old record rewritten: %+v, %v", got, err)
	}
	if n, err := s.PruneFinal(t.Context(), old.Updated.Add(time.Second), 10); err != nil || n != 1 {
		t.Fatalf("pruned %d, %v; want 1", n, err)
	}
}

package storetest

import (
	"embed"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/store"
)

// fixtures are two settlements as the facilitator stored them on the
// devnet, an exact payment and an aa-native one, settled, handed to their
// consumer and served, in the format written before final records were
// trimmed (they still hold their signed transaction).
//
//go:embed testdata/settled-exact.json testdata/settled-aa-native.json
var fixtures embed.FS

// settledFixtures are the fixtures decoded: exact, then aa-native.
var settledFixtures = func() [2]store.Record {
	var out [2]store.Record
	for i, name := range []string{"testdata/settled-exact.json", "testdata/settled-aa-native.json"} {
		raw, err := fixtures.ReadFile(name)
		if err == nil {
			err = json.Unmarshal(raw, &out[i])
		}
		if err != nil {
			panic(fmt.Sprintf("storetest: fixture %s: %v", name, err))
		}
	}
	return out
}()

// Payment returns the i-th of a stream of realistic payments, for
// measuring what a store keeps per payment: a copy of one of the two
// settlements the facilitator stored on the devnet (exact for even i,
// aa-native for odd i), under a key and payload hash of its own, submitted
// with its signed transaction and created at created.
func Payment(i int, created time.Time) store.Record {
	r := settledFixtures[i%2]
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(i))
	r.Key = crypto.Keccak256Hash([]byte("storetest payment"), n[:])
	r.PayloadHash = crypto.Keccak256Hash(r.Key[:])
	r.State, r.Response = store.StateSubmitted, nil
	r.Consumer, r.ConsumerInstance, r.Served = "", "", false
	r.RawTx = append([]byte(nil), r.RawTx...)
	r.Created, r.Updated = created, created
	return r
}

// Settle takes rec, a Payment, through the rest of a paid request's life
// on a store one process uses: claimed with its transaction, settled with
// the fixture's response and handed to its consumer, then served. That is
// three writes, as the facilitator makes them.
func Settle(t testing.TB, s store.Settlements, rec store.Record) {
	t.Helper()
	if _, ok, err := s.Claim(rec); err != nil || !ok {
		t.Fatalf("claiming %s: %v %v", rec.Key, ok, err)
	}
	fixture := settledFixtures[0]
	if rec.Scheme == settledFixtures[1].Scheme {
		fixture = settledFixtures[1]
	}
	resp := *fixture.Response
	rec.State, rec.Response, rec.Consumer = store.StateSettled, &resp, fixture.Consumer
	rec.Updated = rec.Created.Add(200 * time.Millisecond)
	if err := s.Finish(&rec); err != nil {
		t.Fatalf("finishing %s: %v", rec.Key, err)
	}
	if err := s.Serve(rec.Key, rec.Consumer); err != nil {
		t.Fatalf("serving %s: %v", rec.Key, err)
	}
}

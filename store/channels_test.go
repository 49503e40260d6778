package store

import (
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// FuzzDecodeChannel: any stored bytes decode to a channel with its amounts
// or are refused, never a panic; a decoded channel encodes and decodes
// back to itself, and what it has unclaimed is never negative.
func FuzzDecodeChannel(f *testing.F) {
	c := Channel{
		ID: common.Hash{1}, Charged: big.NewInt(160), Voucher: &Voucher{Max: big.NewInt(200), Signature: []byte{1, 2}},
		Balance: big.NewInt(1000), TotalClaimed: big.NewInt(100), RefundNonce: big.NewInt(1), SyncedAt: time.Unix(1_800_000_000, 0).UTC(),
		Hold: &ChannelHold{Owner: "a", Voucher: Voucher{Max: big.NewInt(260)}, Price: big.NewInt(100), Until: time.Unix(1_800_000_060, 0).UTC()},
	}
	seed, _ := json.Marshal(c)
	f.Add(seed)
	f.Add([]byte(`{"charged":1,"balance":1,"totalClaimed":2,"refundNonce":0}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeChannel(data)
		if err != nil {
			return
		}
		// Every method runs on what decodes, without a panic.
		kv := memKV{}
		kv[string(c.ID[:])] = data
		cs := NewChannels(kv)
		cs.Begin(c.ID, Voucher{Max: big.NewInt(100)}, big.NewInt(100), "f", c.SyncedAt.Add(time.Hour), time.Minute)
		cs.Commit(c.ID, "f", big.NewInt(1), c.SyncedAt)
		cs.Abort(c.ID, "f")
		if c.Unclaimed().Sign() < 0 {
			t.Fatalf("unclaimed %s", c.Unclaimed())
		}
		again, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeChannel(again)
		if err != nil {
			t.Fatalf("%s does not decode again: %v", again, err)
		}
		if back.Charged.Cmp(c.Charged) != 0 || back.Balance.Cmp(c.Balance) != 0 || back.Held(c.SyncedAt) != c.Held(c.SyncedAt) {
			t.Fatalf("%+v came back as %+v", c, back)
		}
	})
}

// memKV is a KV in a map, for the fuzz test's one goroutine.
type memKV map[string][]byte

func (m memKV) Get(key []byte) ([]byte, error) { return m[string(key)], nil }
func (m memKV) Put(key, value []byte) error    { m[string(key)] = value; return nil }
func (m memKV) Delete(key []byte) error        { delete(m, string(key)); return nil }
func (m memKV) ForEach(fn func(k, v []byte) error) error {
	for k, v := range m {
		if err := fn([]byte(k), v); err != nil {
			return err
		}
	}
	return nil
}
func (m memKV) Update(key []byte, fn func(old []byte) ([]byte, error)) error {
	v, err := fn(m[string(key)])
	if err != nil || v == nil {
		return err
	}
	m[string(key)] = v
	return nil
}

// TestChannelState: a channel reports itself as the corrective 402 and
// the PAYMENT-RESPONSE carry it, with the voucher that proves its charged
// total, and no voucher before the first request.
func TestChannelState(t *testing.T) {
	t.Parallel()
	c := Channel{ID: common.Hash{0xab}, Charged: big.NewInt(3200), Balance: big.NewInt(100000), TotalClaimed: big.NewInt(500),
		WithdrawRequestedAt: 1_800_000_000, RefundNonce: big.NewInt(1)}
	if v := c.VoucherState(); v != nil {
		t.Errorf("a channel with no request reports the voucher %+v", v)
	}
	c.Voucher = &Voucher{Max: big.NewInt(3300), Signature: []byte{0xde, 0xad}}
	want := `{"channelId":"0xab00000000000000000000000000000000000000000000000000000000000000","balance":"100000","totalClaimed":"500",` +
		`"withdrawRequestedAt":1800000000,"refundNonce":"1","chargedCumulativeAmount":"3200"}`
	if got, _ := json.Marshal(c.State()); string(got) != want {
		t.Errorf("state %s, want %s", got, want)
	}
	if got, _ := json.Marshal(c.VoucherState()); string(got) != `{"signedMaxClaimable":"3300","signature":"0xdead"}` {
		t.Errorf("voucher state %s", got)
	}
}

package store

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// fill sets every nil pointer, empty slice and zero time reachable from v
// to a value, so that a field added to Channel later is covered by
// TestChannelCloneSharesNothing without touching it.
func fill(t *testing.T, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if v.Type() == reflect.TypeFor[*big.Int]() {
			v.Interface().(*big.Int).SetInt64(7)
			return
		}
		fill(t, v.Elem())
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fill(t, v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Now()))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i))
			}
		}
	case reflect.Map, reflect.Chan, reflect.Func, reflect.Interface:
		t.Fatalf("%s: a kind clone does not copy; teach Channel.clone and this test", v.Type())
	}
}

// addresses collects the address of everything a pointer or a slice
// reaches from v.
func addresses(v reflect.Value, into map[uintptr]string, path string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			into[v.Pointer()] = path
			addresses(v.Elem(), into, path)
		}
	case reflect.Slice:
		if v.Len() > 0 {
			into[v.Pointer()] = path
		}
		for i := range v.Len() {
			addresses(v.Index(i), into, path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				addresses(v.Field(i), into, path+"."+v.Type().Field(i).Name)
			}
		}
	}
}

func TestChannelCloneSharesNothing(t *testing.T) {
	t.Parallel()
	var c Channel
	fill(t, reflect.ValueOf(&c).Elem())
	d := c.clone()
	if !reflect.DeepEqual(c, d) {
		t.Fatalf("the clone differs:\n%+v\n%+v", c, d)
	}
	orig, cloned := map[uintptr]string{}, map[uintptr]string{}
	addresses(reflect.ValueOf(c), orig, "Channel")
	addresses(reflect.ValueOf(d), cloned, "Channel")
	if len(orig) == 0 {
		t.Fatal("nothing was filled")
	}
	for p, path := range cloned {
		if _, shared := orig[p]; shared {
			t.Errorf("%s is shared between a channel and its clone", path)
		}
	}
}

// memoRecord is a channel as a server writes it: times with a monotonic
// reading, in the local zone, and every optional part present.
func memoRecord() Channel {
	now := time.Now()
	id := common.Hash{1}
	return Channel{
		ID:          id,
		Config:      &ChannelConfig{Payer: common.Address{2}, WithdrawDelay: 900},
		Charged:     big.NewInt(3000),
		Voucher:     &Voucher{Max: big.NewInt(3000), Signature: bytes.Repeat([]byte{9}, 65)},
		Uncommitted: &Voucher{Max: big.NewInt(2000), Signature: []byte{}},
		Balance:     big.NewInt(10_000), TotalClaimed: big.NewInt(1000), RefundNonce: new(big.Int),
		SyncedAt: now, LastRequest: now.Add(time.Millisecond),
		Hold: &ChannelHold{Owner: "o", Voucher: Voucher{Max: big.NewInt(4000), Signature: []byte{1}}, Price: big.NewInt(1000),
			Until: now.Add(30 * time.Second), Began: now},
	}
}

// TestChannelMemo: a record handed out from the memo is the one its bytes
// decode to, and is the caller's own; bytes another writer changed are
// decoded anew.
func TestChannelMemo(t *testing.T) {
	t.Parallel()
	var m channelMemo
	c := memoRecord()
	b, err := m.encode(c.ID, c)
	if err != nil {
		t.Fatal(err)
	}
	want, err := decodeChannel(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.decode(c.ID, b)
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(got)
	if !bytes.Equal(gb, b) {
		t.Fatalf("the memo's record encodes as\n%s\nnot\n%s", gb, b)
	}
	for _, tt := range []struct {
		name      string
		got, want time.Time
	}{
		{"syncedAt", got.SyncedAt, want.SyncedAt},
		{"lastRequest", got.LastRequest, want.LastRequest},
		{"hold.until", got.Hold.Until, want.Hold.Until},
		{"hold.began", got.Hold.Began, want.Hold.Began},
	} {
		if !tt.got.Equal(tt.want) || tt.got.Round(0) != tt.got {
			t.Errorf("%s: %v, want %v without a monotonic reading", tt.name, tt.got, tt.want)
		}
	}

	// The caller's changes stay its own.
	got.Charged.SetInt64(1)
	got.Hold.Voucher.Signature[0] = 0
	got.Config.WithdrawDelay = 1
	again, _ := m.decode(c.ID, b)
	if again.Charged.Int64() != 3000 || again.Hold.Voucher.Signature[0] != 1 || again.Config.WithdrawDelay != 900 {
		t.Fatalf("a caller's change reached the memo: %+v", again)
	}
	c.Charged.SetInt64(2)
	if again, _ = m.decode(c.ID, b); again.Charged.Int64() != 3000 {
		t.Fatal("the encoded channel is shared with the memo")
	}

	// Another writer's bytes.
	other := memoRecord()
	other.Charged = big.NewInt(5000)
	ob, _ := json.Marshal(other)
	if got, _ = m.decode(c.ID, ob); got.Charged.Int64() != 5000 {
		t.Fatalf("bytes another writer changed: charged %s, want 5000", got.Charged)
	}
	if _, err := m.decode(c.ID, []byte(`{"id":"0x01"}`)); err == nil {
		t.Fatal("a record without its amounts decoded")
	}
}

func TestChannelMemoBounded(t *testing.T) {
	t.Parallel()
	var m channelMemo
	c := memoRecord()
	for i := range memoChannels + 50 {
		id := common.BigToHash(big.NewInt(int64(i)))
		if _, err := m.encode(id, c); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(m.m); n != memoChannels {
		t.Fatalf("the memo keeps %d channels, want %d", n, memoChannels)
	}
	m.forget(common.BigToHash(big.NewInt(int64(memoChannels + 49))))
	if n := len(m.m); n != memoChannels-1 {
		t.Fatalf("after forget: %d channels", n)
	}
}

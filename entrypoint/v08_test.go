package entrypoint

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/contracts/ep08"
	"github.com/caddy-x402/caddy-x402/devnet"
)

// op7702 is sampleOp from an EIP-7702 sender with its authorization.
func op7702(t *testing.T, key []byte) UserOperation {
	t.Helper()
	k, err := crypto.ToECDSA(key)
	if err != nil {
		t.Fatal(err)
	}
	op := sampleOp()
	op.Sender = crypto.PubkeyToAddress(k.PublicKey)
	op.Factory, op.FactoryData = ep08.EIP7702Marker, nil
	auth, err := types.SignSetCode(k, types.SetCodeAuthorization{ChainID: *uint256.NewInt(31337), Address: common.HexToAddress("0x7777"), Nonce: 3})
	if err != nil {
		t.Fatal(err)
	}
	op.EIP7702Auth = &auth
	return op
}

// TestV08Wire checks v0.8's wire form: the 0x7702 marker (short or padded)
// with eip7702Auth round-trips, an authorization without the marker is
// refused, and the hash covers the authorization's delegate.
func TestV08Wire(t *testing.T) {
	t.Parallel()
	ep := NewV08(ep08.Address)
	op := op7702(t, bytes.Repeat([]byte{7}, 32))
	raw, err := json.Marshal(ep.EncodeOp(&op))
	if err != nil {
		t.Fatal(err)
	}
	back, err := ep.DecodeOp(raw, false)
	if err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if back.EIP7702Auth == nil || *back.EIP7702Auth != *op.EIP7702Auth || !IsEIP7702(&back) || ep.UserOpHash(&back, chainID) != ep.UserOpHash(&op, chainID) {
		t.Fatalf("round trip changed the operation: %s", raw)
	}
	other := op
	a := *op.EIP7702Auth
	a.Address = common.HexToAddress("0x8888")
	other.EIP7702Auth = &a
	if ep.UserOpHash(&other, chainID) == ep.UserOpHash(&op, chainID) {
		t.Error("the userOpHash does not cover the delegate")
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		factory any
		auth    bool
		ok      bool
	}{
		{"short marker", "0x7702", true, true},
		{"padded marker", ep08.EIP7702Marker.Hex(), true, true},
		{"auth without marker", "0x2222222222222222222222222222222222222222", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := map[string]any{}
			for k, v := range fields {
				f[k] = v
			}
			f["factory"], f["factoryData"] = tc.factory, "0x"
			if !tc.ok {
				f["factoryData"] = "0xdead"
			}
			raw, _ := json.Marshal(f)
			_, err := ep.DecodeOp(raw, false)
			if (err == nil) != tc.ok {
				t.Fatalf("DecodeOp: %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// TestV08AccountCall round-trips SimpleAccount 0.8.0's execute and
// executeBatch(Call[]), values included.
func TestV08AccountCall(t *testing.T) {
	t.Parallel()
	ep := NewV08(ep08.Address)
	for _, calls := range [][]Call{
		{{Target: common.HexToAddress("0x01"), Value: big.NewInt(5), Data: []byte{1}}},
		{{Target: common.HexToAddress("0x01"), Value: new(big.Int), Data: []byte{1}}, {Target: common.HexToAddress("0x02"), Value: big.NewInt(9), Data: []byte{2, 3}}},
	} {
		data, err := ep.EncodeAccountCall(calls)
		if err != nil {
			t.Fatal(err)
		}
		method, back, err := ep.DecodeAccountCall(data)
		if err != nil || len(back) != len(calls) || (len(calls) == 1) != (method == "execute") {
			t.Fatalf("DecodeAccountCall = %s, %v, %v", method, back, err)
		}
		for i := range calls {
			if back[i].Target != calls[i].Target || back[i].Value.Cmp(calls[i].Value) != 0 || !bytes.Equal(back[i].Data, calls[i].Data) {
				t.Errorf("call %d = %+v, want %+v", i, back[i], calls[i])
			}
		}
	}
}

// TestV08HashOnChain checks the interface's UserOpHash against EntryPoint
// v0.8's own getUserOpHash on the devnet, for an operation of a
// SimpleAccount and one of an EIP-7702 sender (its delegation given as a
// state override, as the bundle's authorization would set it), and runs
// the simulation SimulationCall describes.
func TestV08HashOnChain(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	client, err := rpc.DialContext(ctx, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	ep := NewV08(d.Contracts.EntryPointV08)
	plain := sampleOp()
	seven := op7702(t, crypto.FromECDSA(d.Accounts[5].Key))
	seven.EIP7702Auth.Address = d.Contracts.Simple7702Account
	binding := ep08.NewEntryPoint()
	for _, tc := range []struct {
		name string
		op   UserOperation
	}{{"SimpleAccount", plain}, {"EIP-7702", seven}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := ToV07(&tc.op)
			_, override := ep.SimulationCall(&tc.op)
			delete(override, ep.Address())
			var out hexutil.Bytes
			if err := client.CallContext(ctx, &out, "eth_call", map[string]any{"to": ep.Address(), "data": hexutil.Bytes(binding.PackGetUserOpHash(ep08.PackedUserOperation(p.Pack())))}, "latest", override); err != nil {
				t.Fatal(err)
			}
			onchain, err := binding.UnpackGetUserOpHash(out)
			if err != nil || onchain != ep.UserOpHash(&tc.op, d.ChainID) {
				t.Fatalf("getUserOpHash %x, UserOpHash %x (%v)", onchain, ep.UserOpHash(&tc.op, d.ChainID), err)
			}
		})
	}
}

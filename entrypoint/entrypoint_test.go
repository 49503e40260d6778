package entrypoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/contracts/ep08"
)

var (
	ep06Addr = common.HexToAddress("0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789")
	chainID  = big.NewInt(31337)
)

// sampleOp is a filled operation with a factory and a paymaster.
func sampleOp() UserOperation {
	return UserOperation{
		Sender: common.HexToAddress("0x1111111111111111111111111111111111111111"), Nonce: big.NewInt(7),
		Factory: common.HexToAddress("0x2222222222222222222222222222222222222222"), FactoryData: []byte{0xde, 0xad},
		CallData: []byte{1, 2, 3, 4}, CallGasLimit: big.NewInt(100_000), VerificationGasLimit: big.NewInt(150_000),
		PreVerificationGas: big.NewInt(50_000), MaxFeePerGas: big.NewInt(3e9), MaxPriorityFeePerGas: big.NewInt(1e9),
		Paymaster:                     common.HexToAddress("0x3333333333333333333333333333333333333333"),
		PaymasterVerificationGasLimit: big.NewInt(60_000), PaymasterPostOpGasLimit: big.NewInt(0),
		PaymasterData: bytes.Repeat([]byte{9}, 129), Signature: bytes.Repeat([]byte{5}, 65),
	}
}

// TestHashesMatchContracts checks that each version's hashes are the
// contracts package's over the version's own form of the operation.
func TestHashesMatchContracts(t *testing.T) {
	t.Parallel()
	op := sampleOp()
	v6, v7 := NewV06(ep06Addr), NewV07(ep07.Address)
	p6 := contracts.UserOperation{
		Sender: op.Sender, Nonce: op.Nonce, InitCode: op.InitCode(), CallData: op.CallData,
		CallGasLimit: op.CallGasLimit, VerificationGasLimit: op.VerificationGasLimit, PreVerificationGas: op.PreVerificationGas,
		MaxFeePerGas: op.MaxFeePerGas, MaxPriorityFeePerGas: op.MaxPriorityFeePerGas,
		PaymasterAndData: append(op.Paymaster.Bytes(), op.PaymasterData...), Signature: op.Signature,
	}
	terms := contracts.TokenTerms{Mode: contracts.TokenModePrepay, Token: common.HexToAddress("0x44"), Rate: big.NewInt(1e6), ValidUntil: 1 << 40}
	tok6, err6 := contracts.TokenPaymasterHash(p6, op.Paymaster, chainID, terms)
	tok7, err7 := ep07.TokenPaymasterHash(ToV07(&op), op.Paymaster, chainID, terms)
	if err6 != nil || err7 != nil {
		t.Fatal(err6, err7)
	}
	got6, _ := v6.TokenPaymasterHash(&op, chainID, terms)
	got7, _ := v7.TokenPaymasterHash(&op, chainID, terms)
	vph7, _ := v7.VerifyingPaymasterHash(t.Context(), nil, &op, chainID, 100, 0)
	for _, tc := range []struct {
		name      string
		got, want common.Hash
	}{
		{"v0.6 userOpHash", v6.UserOpHash(&op, chainID), contracts.UserOpHash(p6, ep06Addr, chainID)},
		{"v0.7 userOpHash", v7.UserOpHash(&op, chainID), ep07.UserOpHash(ToV07(&op), ep07.Address, chainID)},
		{"v0.6 token paymaster", got6, tok6},
		{"v0.7 token paymaster", got7, tok7},
		{"v0.7 verifying paymaster", vph7, ep07.VerifyingPaymasterHash(ToV07(&op), op.Paymaster, chainID, 100, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.got != tc.want {
				t.Errorf("got %s, want %s", tc.got, tc.want)
			}
		})
	}
}

// TestWireRoundTrip decodes each version's encoding of an operation back
// to the same operation, and names the other version's fields.
func TestWireRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ep      EntryPoint
		foreign string
	}{
		{NewV06(ep06Addr), "paymaster"},
		{NewV07(ep07.Address), "initCode"},
		{NewV08(ep08.Address), "paymasterAndData"},
	} {
		t.Run(tc.ep.Version(), func(t *testing.T) {
			t.Parallel()
			op := sampleOp()
			if tc.ep.Version() == "0.6" {
				op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit = nil, nil // v0.6 has none
			}
			raw, err := json.Marshal(tc.ep.EncodeOp(&op))
			if err != nil {
				t.Fatal(err)
			}
			back, err := tc.ep.DecodeOp(raw, false)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ep.UserOpHash(&back, chainID) != tc.ep.UserOpHash(&op, chainID) || !bytes.Equal(tc.ep.PaymasterAndData(&back), tc.ep.PaymasterAndData(&op)) {
				t.Errorf("round trip changed the operation: %s", raw)
			}
			if got := tc.ep.ForeignFields(json.RawMessage(`{"` + tc.foreign + `":"0x01"}`)); len(got) != 1 || got[0] != tc.foreign {
				t.Errorf("ForeignFields = %v, want [%s]", got, tc.foreign)
			}
		})
	}
}

// TestMaxCost checks each version's prefund formula.
func TestMaxCost(t *testing.T) {
	t.Parallel()
	op := sampleOp()
	for _, tc := range []struct {
		ep   EntryPoint
		want int64
	}{
		{NewV06(ep06Addr), (3*150_000 + 100_000 + 50_000) * 3e9},
		{NewV07(ep07.Address), (150_000 + 100_000 + 60_000 + 0 + 50_000) * 3e9},
	} {
		t.Run(tc.ep.Version(), func(t *testing.T) {
			t.Parallel()
			if got := tc.ep.MaxCost(&op); got.Cmp(big.NewInt(tc.want)) != 0 {
				t.Errorf("MaxCost = %s, want %d", got, tc.want)
			}
		})
	}
}

// TestParseSimulationRefusals checks that a garbage revert is neither a
// success nor a FailedOp in either version.
func TestParseSimulationRefusals(t *testing.T) {
	t.Parallel()
	for _, ep := range []EntryPoint{NewV06(ep06Addr), NewV07(ep07.Address)} {
		t.Run(ep.Version(), func(t *testing.T) {
			t.Parallel()
			_, err := ep.ParseSimulation(nil, []byte{0xde, 0xad, 0xbe, 0xef})
			var fo *FailedOp
			if err == nil || errors.As(err, &fo) {
				t.Errorf("ParseSimulation(garbage) = %v", err)
			}
		})
	}
}

// TestFromV06 refuses an initCode or a paymasterAndData shorter than an
// address.
func TestFromV06(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		initPnd [2][]byte
		ok      bool
	}{
		{"empty", [2][]byte{nil, nil}, true},
		{"short initCode", [2][]byte{{1, 2}, nil}, false},
		{"short paymasterAndData", [2][]byte{nil, {1, 2}}, false},
		{"both", [2][]byte{bytes.Repeat([]byte{1}, 24), bytes.Repeat([]byte{2}, 40)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := FromV06(contracts.UserOperation{InitCode: tc.initPnd[0], PaymasterAndData: tc.initPnd[1]})
			if (err == nil) != tc.ok {
				t.Errorf("FromV06: %v", err)
			}
		})
	}
}

// TestNew builds each version by name, and refuses an unknown one.
func TestNew(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version, want string
		ok            bool
	}{
		{"", "0.6", true}, {"0.6", "0.6", true}, {"0.7", "0.7", true}, {"0.8", "0.8", true}, {"0.9", "", false},
	} {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			ep, err := New(tc.version, ep06Addr)
			if (err == nil) != tc.ok || (tc.ok && (ep.Version() != tc.want || ep.Address() != ep06Addr)) {
				t.Fatalf("New(%q) = %v, %v", tc.version, ep, err)
			}
		})
	}
	if got := Versions(); len(got) != 3 || got[0] != "0.6" || got[1] != "0.7" || got[2] != "0.8" {
		t.Errorf("Versions() = %v", got)
	}
}

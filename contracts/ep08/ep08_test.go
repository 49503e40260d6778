package ep08

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// sample is a filled operation with a factory and a paymaster.
func sample() ep07.UserOperation {
	return ep07.UserOperation{
		Sender: common.HexToAddress("0x1111111111111111111111111111111111111111"), Nonce: big.NewInt(7),
		Factory: common.HexToAddress("0x2222222222222222222222222222222222222222"), FactoryData: []byte{1, 2, 3},
		CallData: []byte{4, 5}, CallGasLimit: big.NewInt(200_000), VerificationGasLimit: big.NewInt(150_000),
		PreVerificationGas: big.NewInt(50_000), MaxFeePerGas: big.NewInt(3e9), MaxPriorityFeePerGas: big.NewInt(1e9),
		Paymaster: common.HexToAddress("0x3333333333333333333333333333333333333333"), PaymasterVerificationGasLimit: big.NewInt(60_000),
		PaymasterPostOpGasLimit: big.NewInt(1), PaymasterData: []byte{6}, Signature: []byte{7},
	}
}

// TestUserOpHashIsTypedData checks the hand-written EIP-712 hash against
// go-ethereum's apitypes over the same PackedUserOperation, for a
// factory's operation and an EIP-7702 sender's (initCode replaced by its
// delegate in the hash).
func TestUserOpHashIsTypedData(t *testing.T) {
	t.Parallel()
	delegate := common.HexToAddress("0x7777777777777777777777777777777777777777")
	seven := sample()
	seven.Factory, seven.FactoryData = EIP7702Marker, nil
	for _, tc := range []struct {
		name     string
		op       ep07.UserOperation
		initCode []byte // what the typed data hashes as initCode
	}{
		{"factory", sample(), append(sample().Factory.Bytes(), 1, 2, 3)},
		{"EIP-7702", seven, delegate.Bytes()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := tc.op.Pack()
			td := apitypes.TypedData{
				Types: apitypes.Types{
					"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "version", Type: "string"}, {Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
					"PackedUserOperation": {
						{Name: "sender", Type: "address"}, {Name: "nonce", Type: "uint256"}, {Name: "initCode", Type: "bytes"}, {Name: "callData", Type: "bytes"},
						{Name: "accountGasLimits", Type: "bytes32"}, {Name: "preVerificationGas", Type: "uint256"}, {Name: "gasFees", Type: "bytes32"}, {Name: "paymasterAndData", Type: "bytes"},
					},
				},
				PrimaryType: "PackedUserOperation",
				Domain:      apitypes.TypedDataDomain{Name: "ERC4337", Version: "1", ChainId: math.NewHexOrDecimal256(31337), VerifyingContract: Address.Hex()},
				Message: apitypes.TypedDataMessage{
					"sender": p.Sender.Hex(), "nonce": p.Nonce.String(), "initCode": hexutil.Encode(tc.initCode), "callData": hexutil.Encode(p.CallData),
					"accountGasLimits": hexutil.Encode(p.AccountGasLimits[:]), "preVerificationGas": p.PreVerificationGas.String(),
					"gasFees": hexutil.Encode(p.GasFees[:]), "paymasterAndData": hexutil.Encode(p.PaymasterAndData),
				},
			}
			want, _, err := apitypes.TypedDataAndHash(td)
			if err != nil {
				t.Fatal(err)
			}
			if got := UserOpHash(tc.op, delegate, Address, big.NewInt(31337)); got != common.BytesToHash(want) {
				t.Fatalf("UserOpHash %x, apitypes %x", got, want)
			}
		})
	}
}

// TestIsEIP7702InitCode reads the marker as the EntryPoint does: its
// first twenty bytes, zero padded.
func TestIsEIP7702InitCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		initCode string
		want     bool
	}{
		{"0x", false}, {"0x77", false}, {"0x7702", true}, {"0x770200", true},
		{"0x7702000000000000000000000000000000000000", true}, {"0x7702000000000000000000000000000000000000abcd", true},
		{"0x7702000000000000000000000000000000000001", false}, {"0x2222222222222222222222222222222222222222ab", false},
	} {
		if got := IsEIP7702InitCode(common.FromHex(tc.initCode)); got != tc.want {
			t.Errorf("IsEIP7702InitCode(%s) = %v", tc.initCode, got)
		}
	}
}

// FuzzUserOperationHexDecode: any v0.8 wire operation decodes or is
// refused; a decoded one hashes without a panic and its wire form decodes
// to the same hash and authorization.
func FuzzUserOperationHexDecode(f *testing.F) {
	f.Add([]byte(`{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x0","factory":"0x7702","callData":"0x12","eip7702Auth":{"chainId":"0x7a69","address":"0x7777777777777777777777777777777777777777","nonce":"0x1","yParity":"0x0","r":"0x1","s":"0x2"}}`), true)
	f.Add([]byte(`{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x1","factory":"0x2222222222222222222222222222222222222222","factoryData":"0xab","callData":"0x12"}`), true)
	f.Add([]byte(`{}`), false)
	f.Fuzz(func(t *testing.T, raw []byte, unfilled bool) {
		var h UserOperationHex
		if json.Unmarshal(raw, &h) != nil {
			return
		}
		op, auth, err := h.Decode(unfilled)
		if err != nil {
			return
		}
		var delegate common.Address
		if auth != nil {
			delegate = auth.Address
		}
		hash := UserOpHash(op, delegate, Address, big.NewInt(31337))
		again, auth2, err := Hex(&op, auth).Decode(unfilled)
		if err != nil || UserOpHash(again, delegate, Address, big.NewInt(31337)) != hash || (auth == nil) != (auth2 == nil) {
			t.Fatalf("the wire form of %+v does not decode to the same operation: %v", op, err)
		}
	})
}

// TestAuthorizationHex: eip7702Auth's r and s decode as 32-byte words
// (viem writes them so, leading zeros included) and as quantities, and a
// malformed field is named.
func TestAuthorizationHex(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, r, yParity string
		ok               bool
	}{
		{"word with leading zeros", "0x00000000000000000000000000000000000000000000000000000000000000ab", "0x1", true},
		{"quantity", "0xab", "0x0", true},
		{"odd quantity", "0xabc", "0x1", true},
		{"empty", "0x", "0x1", false},
		{"not hex", "0xzz", "0x1", false},
		{"yParity over 8 bits", "0xab", "0x100", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := AuthorizationHex{ChainID: "0x7a69", Address: "0x7777777777777777777777777777777777777777", Nonce: "0x0", YParity: tc.yParity, R: tc.r, S: "0x01"}
			a, err := h.Decode()
			if (err == nil) != tc.ok {
				t.Fatalf("Decode: %+v %v, want ok %v", a, err, tc.ok)
			}
			if tc.ok && (a.R.Uint64() == 0 || a.ChainID.Uint64() != 31337) {
				t.Fatalf("decoded %+v", a)
			}
		})
	}
}

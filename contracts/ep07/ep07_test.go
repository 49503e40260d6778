package ep07

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestPackRoundTrip: Unpack undoes Pack, and the wire form round-trips,
// with and without a factory and a paymaster.
func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	full := UserOperation{
		Sender: common.HexToAddress("0x1111111111111111111111111111111111111111"), Nonce: big.NewInt(7),
		Factory: common.HexToAddress("0x2222222222222222222222222222222222222222"), FactoryData: []byte{1, 2, 3},
		CallData: []byte{4, 5}, CallGasLimit: big.NewInt(200_000), VerificationGasLimit: big.NewInt(150_000),
		PreVerificationGas: big.NewInt(50_000), MaxFeePerGas: big.NewInt(3e9), MaxPriorityFeePerGas: big.NewInt(1e9),
		Paymaster: common.HexToAddress("0x3333333333333333333333333333333333333333"), PaymasterVerificationGasLimit: big.NewInt(60_000),
		PaymasterPostOpGasLimit: big.NewInt(1), PaymasterData: []byte{6}, Signature: []byte{7},
	}
	bare := full
	bare.Factory, bare.FactoryData, bare.Paymaster, bare.PaymasterData = common.Address{}, nil, common.Address{}, nil
	bare.PaymasterVerificationGasLimit, bare.PaymasterPostOpGasLimit = new(big.Int), new(big.Int)
	for name, op := range map[string]UserOperation{"full": full, "bare": bare} {
		t.Run(name, func(t *testing.T) {
			p := op.Pack()
			if new(big.Int).SetBytes(p.AccountGasLimits[16:]).Cmp(op.CallGasLimit) != 0 || new(big.Int).SetBytes(p.AccountGasLimits[:16]).Cmp(op.VerificationGasLimit) != 0 ||
				new(big.Int).SetBytes(p.GasFees[16:]).Cmp(op.MaxFeePerGas) != 0 {
				t.Fatalf("packed gas %x %x", p.AccountGasLimits, p.GasFees)
			}
			back, err := Unpack(p)
			if err != nil || UserOpHash(back, Address, big.NewInt(1)) != UserOpHash(op, Address, big.NewInt(1)) {
				t.Fatalf("unpack: %+v %v", back, err)
			}
			raw, _ := json.Marshal(op.Hex())
			var h UserOperationHex
			json.Unmarshal(raw, &h)
			dec, err := h.Decode(false)
			if err != nil || UserOpHash(dec, Address, big.NewInt(1)) != UserOpHash(op, Address, big.NewInt(1)) {
				t.Fatalf("wire %s: %+v %v", raw, dec, err)
			}
		})
	}
}

// FuzzUserOperationHexDecode: any wire operation decodes or is refused;
// a decoded one packs and hashes without a panic, and its wire form
// decodes to the same hash.
func FuzzUserOperationHexDecode(f *testing.F) {
	f.Add([]byte(`{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x0","callData":"0x12","callGasLimit":"0x1","verificationGasLimit":"0x1","preVerificationGas":"0x1","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1","paymaster":"0x02","paymasterVerificationGasLimit":"0x1","signature":"0x"}`), true)
	f.Add([]byte(`{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x1","factory":"0x2222222222222222222222222222222222222222","factoryData":"0xab","callData":"0x12","callGasLimit":"0x100000000000000000000000000000000"}`), false)
	f.Add([]byte(`{}`), true)
	f.Fuzz(func(t *testing.T, raw []byte, unfilled bool) {
		var h UserOperationHex
		if json.Unmarshal(raw, &h) != nil {
			return
		}
		op, err := h.Decode(unfilled)
		if err != nil {
			return
		}
		hash := UserOpHash(op, Address, big.NewInt(31337))
		_ = VerifyingPaymasterHash(op, common.Address{1}, big.NewInt(31337), 1, 0)
		if _, err := Unpack(op.Pack()); err != nil {
			t.Fatalf("a decoded operation does not unpack: %v", err)
		}
		again, err := op.Hex().Decode(unfilled)
		if err != nil || UserOpHash(again, Address, big.NewInt(31337)) != hash {
			t.Fatalf("the wire form of %+v does not decode to the same operation: %v", op, err)
		}
	})
}

// FuzzParseSimulation: simulateValidation's answer or revert data, however
// malformed, parses or is an error, never a panic.
func FuzzParseSimulation(f *testing.F) {
	sim := Simulations()
	failed, _ := sim.ABI.Errors["FailedOp"].Inputs.Pack(big.NewInt(0), "AA20 account not deployed")
	id := sim.ABI.Errors["FailedOp"].ID
	f.Add([]byte{}, append(id[:4:4], failed...))
	f.Add(make([]byte, 64), []byte(nil))
	f.Fuzz(func(t *testing.T, out, revert []byte) {
		if len(revert) == 0 {
			revert = nil
		}
		_, _ = ParseSimulation(out, revert)
	})
}

package paymaster

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math/big"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// fakeVersion is an EntryPoint version of its own, known to this test
// only: its own wire form, hash, paymaster data, costs and simulation
// (answered by fakeChain). The paymaster sponsors on it without knowing
// it.
type fakeVersion struct {
	address common.Address
	hashed  atomic.Int32 // VerifyingPaymasterHash calls
}

var fakeSimulationID = []byte{0xfa, 0x4e, 0x00, 0x01}

// fakeWire is the fake version's wire form.
type fakeWire struct {
	Sender        common.Address `json:"sender"`
	Nonce         *hexutil.Big   `json:"nonce"`
	CallData      hexutil.Bytes  `json:"callData"`
	CallGas       *hexutil.Big   `json:"callGas,omitempty"`
	VerifyGas     *hexutil.Big   `json:"verifyGas,omitempty"`
	PreVerifyGas  *hexutil.Big   `json:"preVerifyGas,omitempty"`
	MaxFee        *hexutil.Big   `json:"maxFee,omitempty"`
	MaxPriority   *hexutil.Big   `json:"maxPriority,omitempty"`
	Paymaster     common.Address `json:"paymaster"`
	PaymasterGas  *hexutil.Big   `json:"paymasterGas,omitempty"`
	PaymasterData hexutil.Bytes  `json:"paymasterData"`
	Signature     hexutil.Bytes  `json:"signature"`
}

func big0(h *hexutil.Big) *big.Int {
	if h == nil {
		return new(big.Int)
	}
	return h.ToInt()
}

func (f *fakeVersion) Version() string         { return "9.9-test" }
func (f *fakeVersion) Address() common.Address { return f.address }

func (f *fakeVersion) DecodeOp(raw json.RawMessage, _ bool) (entrypoint.UserOperation, error) {
	var w fakeWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return entrypoint.UserOperation{}, err
	}
	return entrypoint.UserOperation{
		Sender: w.Sender, Nonce: big0(w.Nonce), CallData: w.CallData,
		CallGasLimit: big0(w.CallGas), VerificationGasLimit: big0(w.VerifyGas), PreVerificationGas: big0(w.PreVerifyGas),
		MaxFeePerGas: big0(w.MaxFee), MaxPriorityFeePerGas: big0(w.MaxPriority),
		Paymaster: w.Paymaster, PaymasterVerificationGasLimit: big0(w.PaymasterGas), PaymasterPostOpGasLimit: new(big.Int),
		PaymasterData: w.PaymasterData, Signature: w.Signature,
	}, nil
}

func (f *fakeVersion) EncodeOp(op *entrypoint.UserOperation) any {
	return fakeWire{
		Sender: op.Sender, Nonce: (*hexutil.Big)(op.Nonce), CallData: op.CallData,
		CallGas: (*hexutil.Big)(op.CallGasLimit), VerifyGas: (*hexutil.Big)(op.VerificationGasLimit), PreVerifyGas: (*hexutil.Big)(op.PreVerificationGas),
		MaxFee: (*hexutil.Big)(op.MaxFeePerGas), MaxPriority: (*hexutil.Big)(op.MaxPriorityFeePerGas),
		Paymaster: op.Paymaster, PaymasterGas: (*hexutil.Big)(op.PaymasterVerificationGasLimit), PaymasterData: op.PaymasterData, Signature: op.Signature,
	}
}

func (f *fakeVersion) ForeignFields(raw json.RawMessage) []string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	if _, ok := m["initCode"]; ok {
		return []string{"initCode"}
	}
	return nil
}

func (f *fakeVersion) PaymasterFields(op *entrypoint.UserOperation) any {
	return map[string]any{"fakePaymaster": op.Paymaster, "fakePaymasterData": hexutil.Bytes(op.PaymasterData)}
}

// body is what the fake hashes cover: every field but the signature and
// the paymaster's data.
func (f *fakeVersion) body(op *entrypoint.UserOperation, chainID *big.Int) []byte {
	var b bytes.Buffer
	b.WriteString("fake entry point")
	b.Write(op.Sender.Bytes())
	for _, n := range []*big.Int{op.Nonce, op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas, op.MaxFeePerGas, op.PaymasterVerificationGasLimit, chainID} {
		b.Write(common.BigToHash(n).Bytes())
	}
	b.Write(op.CallData)
	b.Write(op.Paymaster.Bytes())
	return b.Bytes()
}

func (f *fakeVersion) UserOpHash(op *entrypoint.UserOperation, chainID *big.Int) common.Hash {
	return crypto.Keccak256Hash(f.body(op, chainID), op.PaymasterData)
}

func (f *fakeVersion) PaymasterAndData(op *entrypoint.UserOperation) []byte {
	return append(op.Paymaster.Bytes(), op.PaymasterData...)
}

func (f *fakeVersion) VerifyingPaymasterHash(_ context.Context, _ entrypoint.Caller, op *entrypoint.UserOperation, chainID *big.Int, validUntil, validAfter uint64) (common.Hash, error) {
	f.hashed.Add(1)
	return crypto.Keccak256Hash([]byte("fake paymaster"), f.body(op, chainID), binary.BigEndian.AppendUint64(nil, validUntil), binary.BigEndian.AppendUint64(nil, validAfter)), nil
}

func (f *fakeVersion) TokenPaymasterHash(*entrypoint.UserOperation, *big.Int, contracts.TokenTerms) (common.Hash, error) {
	return common.Hash{}, nil
}

// VerifyingPaymasterData is validUntil (8 bytes) ‖ signature.
func (f *fakeVersion) VerifyingPaymasterData(validUntil, _ uint64, signature []byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, validUntil), signature...)
}

func (f *fakeVersion) TokenPaymasterData(t contracts.TokenTerms, signature []byte) []byte {
	return append(t.Bytes(), signature...)
}

func (f *fakeVersion) PaymasterGas(bool, uint8) (*big.Int, *big.Int) {
	return big.NewInt(1234), new(big.Int)
}

func (f *fakeVersion) MaxCost(op *entrypoint.UserOperation) *big.Int {
	gas := new(big.Int).Add(op.VerificationGasLimit, op.CallGasLimit)
	gas.Add(gas, op.PreVerificationGas).Add(gas, op.PaymasterVerificationGasLimit)
	return gas.Mul(gas, op.MaxFeePerGas)
}

func (f *fakeVersion) MaxTokenCost(op *entrypoint.UserOperation, t contracts.TokenTerms) *big.Int {
	return contracts.TokenCost(f.MaxCost(op), t.Rate)
}

func (f *fakeVersion) HeldUntilLanded() bool { return false }

func (f *fakeVersion) PreVerificationGas(entrypoint.UserOperation) *big.Int {
	return big.NewInt(30_000)
}

func (f *fakeVersion) VerificationGas(op *entrypoint.UserOperation) *big.Int {
	return new(big.Int).Add(op.VerificationGasLimit, op.PaymasterVerificationGasLimit)
}

func (f *fakeVersion) DefaultVerificationGas(bool) *big.Int { return big.NewInt(100_000) }

func (f *fakeVersion) SimulationCall(op *entrypoint.UserOperation) (map[string]any, map[common.Address]map[string]any) {
	return map[string]any{"to": f.address, "data": hexutil.Bytes(append(bytes.Clone(fakeSimulationID), op.CallData...))}, nil
}

// ParseSimulation refuses a revert as AA33 and passes any answer.
func (f *fakeVersion) ParseSimulation(_, revert []byte) (entrypoint.Validation, error) {
	if revert != nil {
		return entrypoint.Validation{}, &entrypoint.FailedOp{Reason: "AA33 fake paymaster refused"}
	}
	return entrypoint.Validation{}, nil
}

// fakeChain answers the fake version's simulation: it reverts when the
// operation's callData starts with 0xbad0, and passes otherwise.
type fakeChain struct {
	Chain
	ep common.Address
}

func (c fakeChain) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if method == "eth_call" && len(args) > 0 {
		if msg, ok := args[0].(map[string]any); ok && msg["to"] == c.ep {
			data, _ := msg["data"].(hexutil.Bytes)
			if bytes.HasPrefix(data, append(bytes.Clone(fakeSimulationID), 0xba, 0xd0)) {
				return revertError{[]byte{0xfa, 0x11, 0, 0}}
			}
			*result.(*hexutil.Bytes) = hexutil.Bytes{1}
			return nil
		}
	}
	return c.Chain.CallContext(ctx, result, method, args...)
}

// TestFakeVersion sponsors on an EntryPoint version registered only in
// this test: the paymaster fills, bounds, signs, simulates, reserves and
// answers it through the EntryPoint interface alone, and refuses its
// FailedOp as it does any version's.
func TestFakeVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fake := &fakeVersion{address: common.HexToAddress("0x00000000000000000000000000000000000e7e57")}
	fakePM := common.HexToAddress("0x00000000000000000000000000000000000fa4e0")
	e.restart(func(c *Config) {
		c.EntryPoints = []EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(e.chain.Contracts.EntryPoint), Paymaster: e.chain.Contracts.Paymaster},
			{EntryPoint: fake, Paymaster: fakePM},
		}
		c.Chain = fakeChain{Chain: c.Chain, ep: fake.address}
	})
	sender := common.HexToAddress("0x0000000000000000000000000000000000005e4d")
	unsignedOp := func(callData string) map[string]any {
		return map[string]any{"sender": sender, "nonce": "0x0", "callData": callData, "paymaster": common.Address{}, "paymasterData": "0x", "signature": "0x"}
	}

	t.Run("entrypoints", func(t *testing.T) {
		res, _ := e.call(e.sponsor, "pm_entrypoints")
		var eps []common.Address
		if err := json.Unmarshal(res.Result, &eps); err != nil || len(eps) != 2 || eps[1] != fake.address {
			t.Fatalf("pm_entrypoints = %s (%v), want the fake one second", res.Result, err)
		}
	})

	t.Run("sponsored", func(t *testing.T) {
		before := e.usage("demo")
		res, resp := e.call(e.sponsor, "pm_sponsor_userop", unsignedOp("0x1234"), fake.address.Hex(), map[string]any{"type": 0})
		if res.Error != nil || resp.StatusCode != 200 {
			t.Fatalf("sponsoring on the fake version: %d %+v", resp.StatusCode, res.Error)
		}
		op, err := fake.DecodeOp(res.Result, false)
		if err != nil {
			t.Fatal(err)
		}
		if op.Paymaster != fakePM || op.PaymasterVerificationGasLimit.Int64() != 1234 || op.VerificationGasLimit.Int64() != 100_000 ||
			op.PreVerificationGas.Int64() != 30_000 || op.CallGasLimit.Sign() == 0 || op.MaxFeePerGas.Sign() == 0 {
			t.Fatalf("the fake's fields were not filled as it says: %s", res.Result)
		}
		if len(op.PaymasterData) != 8+65 || fake.hashed.Load() == 0 {
			t.Fatalf("paymasterData %x is not the fake's form", op.PaymasterData)
		}
		validUntil := binary.BigEndian.Uint64(op.PaymasterData[:8])
		hash, _ := fake.VerifyingPaymasterHash(t.Context(), nil, &op, e.chain.ChainID, validUntil, 0)
		sig := bytes.Clone(op.PaymasterData[8:])
		sig[64] -= 27
		pub, err := crypto.SigToPub(accounts.TextHash(hash[:]), sig)
		if err != nil || crypto.PubkeyToAddress(*pub) != crypto.PubkeyToAddress(e.cfg.Signer.PublicKey) {
			t.Fatalf("the paymaster did not sign the fake's hash: %v", err)
		}
		after := e.usage("demo")
		if after.InFlight != before.InFlight+1 || new(big.Int).Sub(after.SpentToday, before.SpentToday).Cmp(fake.MaxCost(&op)) != 0 {
			t.Fatalf("reserved %+v after %+v; want one more in flight, charged the fake's MaxCost %s", after, before, fake.MaxCost(&op))
		}
	})

	t.Run("refused", func(t *testing.T) {
		res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsignedOp("0xbad0"), fake.address.Hex(), map[string]any{"type": 0})
		if res.Error == nil || res.Error.Code != codePaymasterRejected {
			t.Fatalf("a FailedOp AA33 of the fake: %+v, want %d", res.Error, codePaymasterRejected)
		}
	})

	t.Run("stub", func(t *testing.T) {
		res, _ := e.call(e.sponsor, "pm_getPaymasterStubData", unsignedOp("0x1234"), fake.address.Hex(), hexutil.EncodeBig(e.chain.ChainID), nil)
		var got struct {
			Paymaster common.Address `json:"fakePaymaster"`
			IsFinal   *bool          `json:"isFinal"`
			Sponsor   *Sponsor       `json:"sponsor"`
		}
		if res.Error != nil || json.Unmarshal(res.Result, &got) != nil || got.Paymaster != fakePM || got.IsFinal == nil || *got.IsFinal || got.Sponsor == nil {
			t.Fatalf("stub data on the fake version: %s %+v", res.Result, res.Error)
		}
	})
}

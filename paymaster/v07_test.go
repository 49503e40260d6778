package paymaster

import (
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/x402"
)

// newEnvV07 is newEnv with the devnet's v0.7 EntryPoint and paymaster
// configured beside v0.6's.
func newEnvV07(t *testing.T, projects ...Project) *env {
	t.Helper()
	e := newEnv(t, projects...)
	e.restart(func(c *Config) {
		c.EntryPoints = []EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(c.EntryPoint), Paymaster: c.Paymaster, TokenPaymaster: c.TokenPaymaster},
			{EntryPoint: entrypoint.NewV07(e.chain.Contracts.EntryPointV07), Paymaster: e.chain.Contracts.PaymasterV07},
		}
		c.EntryPoint, c.Paymaster, c.TokenPaymaster = common.Address{}, common.Address{}, common.Address{}
	})
	return e
}

// accountV07 is a counterfactual v0.7 SimpleAccount of a fresh owner.
type accountV07 struct {
	owner       *ecdsa.PrivateKey
	sender      common.Address
	factoryData []byte
}

func (e *env) newAccountV07() accountV07 {
	e.t.Helper()
	owner, _ := crypto.GenerateKey()
	f := ep07.NewSimpleAccountFactory()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	var out hexutil.Bytes
	e.ethCall(e.chain.Contracts.AccountFactoryV07, f.PackGetAddress(ownerAddr, big.NewInt(0)), &out)
	sender, err := f.UnpackGetAddress(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return accountV07{owner: owner, sender: sender, factoryData: f.PackCreateAccount(ownerAddr, big.NewInt(0))}
}

// settleCallV07 is the aa-native payment callData of a v0.7 account.
func (e *env) settleCallV07(amount int64) []byte {
	var rh [32]byte
	copy(rh[:], crypto.Keccak256([]byte(e.t.Name()), big.NewInt(amount).Bytes()))
	a, tok, st := ep07.NewSimpleAccount(), contracts.NewDevUSD(), contracts.NewX402Settlement()
	token := e.chain.Token.Address
	return a.PackExecuteBatch(
		[]common.Address{token, e.chain.Contracts.Settlement}, nil,
		[][]byte{tok.PackApprove(e.chain.Contracts.Settlement, big.NewInt(amount)), st.PackSettle(e.chain.Accounts[2].Address, token, big.NewInt(amount), rh)},
	)
}

// bundleV07 sends op in a v0.7 handleOps and returns its successful
// UserOperationEvent.
func (e *env) bundleV07(op ep07.UserOperation) *ep07.EntryPointUserOperationEvent {
	e.t.Helper()
	ep := ep07.NewEntryPoint()
	r := e.send(e.chain.Accounts[0].Key, e.chain.Contracts.EntryPointV07, ep.PackHandleOps([]ep07.PackedUserOperation{op.Pack()}, e.chain.Accounts[0].Address), 3_000_000)
	for _, l := range r.Logs {
		if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == e.chain.Contracts.EntryPointV07 && r.Status == types.ReceiptStatusSuccessful && ev.Success {
			return ev
		}
	}
	e.t.Fatalf("v0.7 handleOps: status %d, no successful UserOperationEvent", r.Status)
	return nil
}

// TestSponsorV07 sponsors v0.7 operations through pm_sponsor_userop and
// through ERC-7677 (stub, then data), signed by the v0.7 VerifyingPaymaster
// with the v0.6 signer; each lands on the v0.7 EntryPoint and its
// reservation is released by its UserOperationEvent.
func TestSponsorV07(t *testing.T) {
	t.Parallel()
	e := newEnvV07(t)
	ep07Hex, chainID := e.chain.Contracts.EntryPointV07.Hex(), hexutil.EncodeBig(e.chain.ChainID)

	res, _ := e.call(e.readOnly, "pm_entrypoints")
	if !strings.Contains(string(res.Result), ep07Hex) || !strings.Contains(string(res.Result), e.chain.Contracts.EntryPoint.Hex()) {
		t.Fatalf("pm_entrypoints = %s", res.Result)
	}

	// pm_sponsor_userop: the paymaster fills gas, fees and its own fields;
	// what the caller put in the paymaster's fields is replaced.
	a := e.newAccountV07()
	owner := a.owner
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, contracts.NewDevUSD().PackTransfer(a.sender, big.NewInt(10_000)), 100_000)
	wire := ep07.UserOperationHex{
		Sender: a.sender.Hex(), Nonce: "0x0", Factory: e.chain.Contracts.AccountFactoryV07.Hex(), FactoryData: hexutil.Encode(a.factoryData),
		CallData: hexutil.Encode(e.settleCallV07(5_000)), Paymaster: e.chain.Accounts[5].Address.Hex(), PaymasterVerificationGasLimit: "0xffffff",
	}
	res, _ = e.call(e.sponsor, "pm_sponsor_userop", wire, ep07Hex, map[string]any{"type": 0})
	if res.Error != nil {
		t.Fatalf("pm_sponsor_userop v0.7: %+v", res.Error)
	}
	var got ep07.UserOperationHex
	if err := json.Unmarshal(res.Result, &got); err != nil {
		t.Fatal(err)
	}
	op, err := got.Decode(false)
	if err != nil {
		t.Fatalf("answer %s: %v", res.Result, err)
	}
	if op.Paymaster != e.chain.Contracts.PaymasterV07 || op.PaymasterVerificationGasLimit.Int64() != v07PaymasterVerificationGas || op.PaymasterPostOpGasLimit.Sign() != 0 {
		t.Fatalf("paymaster fields %s %s %s", op.Paymaster, op.PaymasterVerificationGasLimit, op.PaymasterPostOpGasLimit)
	}
	if u := e.usage("demo"); u.InFlight != 1 || u.SpentToday.Cmp(maxCostOf7(&op)) != 0 {
		t.Fatalf("after sponsoring: %+v, want 1 in flight charged %s", u, maxCostOf7(&op))
	}
	op.Signature, _ = contracts.SignHash(ep07.UserOpHash(op, e.chain.Contracts.EntryPointV07, e.chain.ChainID), owner)
	ev := e.bundleV07(op)
	if ev.Paymaster != e.chain.Contracts.PaymasterV07 || ev.Sender != a.sender {
		t.Fatalf("event %+v", ev)
	}
	if u := e.usage("demo"); u.InFlight != 0 || u.SpentToday.Cmp(ev.ActualGasCost) != 0 {
		t.Fatalf("after landing: %+v, want nothing in flight and %s spent", u, ev.ActualGasCost)
	}

	// ERC-7677: the stub has the v0.7 fields and is not final; the data
	// signs the operation as given, which then lands.
	next := ep07.UserOperationHex{
		Sender: a.sender.Hex(), Nonce: "0x1", CallData: hexutil.Encode(e.settleCallV07(4_000)),
		CallGasLimit: "0x30d40", VerificationGasLimit: "0x30d40", PreVerificationGas: "0xc350",
		MaxFeePerGas: "0x77359400", MaxPriorityFeePerGas: "0x3b9aca00",
	}
	res, _ = e.call(e.sponsor, "pm_getPaymasterStubData", next, ep07Hex, chainID, nil)
	var stub PaymasterDataV07
	if res.Error != nil || json.Unmarshal(res.Result, &stub) != nil || stub.IsFinal == nil || *stub.IsFinal ||
		stub.Paymaster != e.chain.Contracts.PaymasterV07 || stub.PaymasterVerificationGasLimit == nil || stub.PaymasterPostOpGasLimit == nil {
		t.Fatalf("stub: %s %+v", res.Result, res.Error)
	}
	if u := e.usage("demo"); u.InFlight != 0 {
		t.Fatalf("a stub reserved: %+v", u)
	}
	next.Paymaster, next.PaymasterData = stub.Paymaster.Hex(), stub.PaymasterData.String()
	next.PaymasterVerificationGasLimit, next.PaymasterPostOpGasLimit = stub.PaymasterVerificationGasLimit.String(), stub.PaymasterPostOpGasLimit.String()
	res, _ = e.call(e.sponsor, "pm_getPaymasterData", next, ep07Hex, chainID, nil)
	var data PaymasterDataV07
	if res.Error != nil || json.Unmarshal(res.Result, &data) != nil || data.IsFinal != nil {
		t.Fatalf("data: %s %+v", res.Result, res.Error)
	}
	op2, err := next.Decode(true)
	if err != nil {
		t.Fatal(err)
	}
	op2.Paymaster, op2.PaymasterData = data.Paymaster, data.PaymasterData
	op2.PaymasterVerificationGasLimit, op2.PaymasterPostOpGasLimit = data.PaymasterVerificationGasLimit.ToInt(), data.PaymasterPostOpGasLimit.ToInt()
	op2.Signature, _ = contracts.SignHash(ep07.UserOpHash(op2, e.chain.Contracts.EntryPointV07, e.chain.ChainID), owner)
	e.bundleV07(op2)
	if b := e.tokenBalance(a.sender); b.Int64() != 1_000 {
		t.Fatalf("account holds %s, want 1000 after paying 5000 and 4000", b)
	}
}

// TestSponsorV07Refusals: the v0.7 methods refuse what v0.6's refuse.
func TestSponsorV07Refusals(t *testing.T) {
	t.Parallel()
	e := newEnvV07(t)
	a := e.newAccountV07()
	ep07Hex, chainID := e.chain.Contracts.EntryPointV07.Hex(), hexutil.EncodeBig(e.chain.ChainID)
	base := func() ep07.UserOperationHex {
		return ep07.UserOperationHex{
			Sender: a.sender.Hex(), Nonce: "0x0", Factory: e.chain.Contracts.AccountFactoryV07.Hex(), FactoryData: hexutil.Encode(a.factoryData),
			CallData: hexutil.Encode(e.settleCallV07(5_000)),
		}
	}
	for _, tc := range []struct {
		name   string
		method string
		op     func() any
		chain  string
		code   x402.RPCErrorCode
		want   string
	}{
		{"factory without data", "pm_sponsor_userop", func() any { o := base(); o.FactoryData = ""; return o }, "", codeInvalidParams, "factory and factoryData"},
		{"gas over 128 bits", "pm_sponsor_userop", func() any { o := base(); o.CallGasLimit = "0x1" + strings.Repeat("0", 32); return o }, "", codeInvalidParams, "128 bits"},
		{"inflated preVerificationGas", "pm_sponsor_userop", func() any { o := base(); o.PreVerificationGas = "0x989680"; return o }, "", codeInvalidParams, "preVerificationGas"},
		{"v0.6 operation (initCode, no factory)", "pm_sponsor_userop", func() any {
			o := base()
			return x402.UserOperation{Sender: o.Sender, Nonce: o.Nonce, InitCode: hexutil.Encode(append(e.chain.Contracts.AccountFactoryV07.Bytes(), a.factoryData...)), CallData: o.CallData}
		}, "", codeSimulation, "AA20"},
		{"other chain", "pm_getPaymasterStubData", func() any { return base() }, "0x1", codeInvalidParams, "chainId"},
		{"final without gas", "pm_getPaymasterData", func() any { return base() }, chainID, codeInvalidParams, "is zero"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := []any{tc.op(), ep07Hex}
			if tc.method == "pm_sponsor_userop" {
				params = append(params, nil)
			} else {
				params = append(params, tc.chain, nil)
			}
			res, _ := e.call(e.sponsor, tc.method, params...)
			if res.Error == nil || res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.want) {
				t.Fatalf("%s: %s %+v, want code %d with %q", tc.method, res.Result, res.Error, tc.code, tc.want)
			}
		})
	}
	// Without tokens (TestTokenGasV07Refusals: without a v0.7 token
	// paymaster), a v0.7 request for gas in an ERC-20 is refused, never
	// sponsored as free gas.
	tokenContext := map[string]any{"type": 1, "token": e.chain.Token.Address.Hex()}
	for _, params := range [][]any{
		{base(), ep07Hex, tokenContext},
		{base(), ep07Hex, chainID, tokenContext},
	} {
		method := "pm_sponsor_userop"
		if len(params) == 4 {
			method = "pm_getPaymasterStubData"
		}
		res, _ := e.call(e.sponsor, method, params...)
		if res.Error == nil || res.Error.Code != codeInvalidParams || !strings.Contains(res.Error.Message, "use type 0") {
			t.Fatalf("%s with a token context: %s %+v, want a refusal", method, res.Result, res.Error)
		}
	}
	if u := e.usage("demo"); u.InFlight != 0 {
		t.Fatalf("refusals reserved: %+v", u)
	}
}

// FuzzERC7677ParamsV07 feeds parseERC7677V07 arbitrary params: it answers
// a JSON-RPC error or a request, never panics.
func FuzzERC7677ParamsV07(f *testing.F) {
	s := serviceOn(Config{EntryPoints: []EntryPointConfig{{EntryPoint: entrypoint.NewV07(ep07.Address), Paymaster: common.HexToAddress("0x02")}}, ChainID: big.NewInt(1337)})
	f.Add([]byte(`[{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x0","callData":"0x12","callGasLimit":"0x1","verificationGasLimit":"0x1","preVerificationGas":"0x1","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1","paymaster":"0x02","paymasterVerificationGasLimit":"0x1"},"0x0000000071727De22E5E9d8BAf0edAc6f37da032","0x539",{"type":0}]`), true)
	f.Add([]byte(`[{"sender":"0x1111111111111111111111111111111111111111","factory":"0x01","factoryData":"0x"},"0x0000000071727De22E5E9d8BAf0edAc6f37da032",1337,null]`), false)
	f.Add([]byte(`[{},"",{},[]]`), false)
	f.Fuzz(func(t *testing.T, raw []byte, final bool) {
		var params []json.RawMessage
		if json.Unmarshal(raw, &params) != nil {
			return
		}
		req, rerr := s.parseERC7677(&call{params: params}, final)
		if rerr != nil {
			if rerr.Code != codeInvalidParams && rerr.Code != codeOutOfTimeRange {
				t.Fatalf("code %d: %s", rerr.Code, rerr.Message)
			}
			return
		}
		if final && (req.op.CallGasLimit.Sign() == 0 || req.op.MaxFeePerGas.Sign() == 0) {
			t.Fatalf("a final request with zero gas or fee: %+v", req.op)
		}
		// A decoded operation always packs and hashes.
		_ = req.ep.EntryPoint.UserOpHash(&req.op, big.NewInt(1337))
		_ = req.ep.EntryPoint.PreVerificationGas(req.op)
	})
}

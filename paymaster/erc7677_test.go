package paymaster

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// estimated is the wire form of an operation whose gas and fee fields the
// wallet has filled (as a wallet does after estimating with the stub).
func (e *env) estimated(a account, nonce int64, withInit bool, callData []byte) x402.UserOperation {
	op := unsigned(a, nonce, withInit, callData)
	op.CallGasLimit, op.VerificationGasLimit, op.PreVerificationGas = "0x30d40", "0x30d40", "0xc350" // 200,000, 200,000, 50,000
	if withInit {
		op.VerificationGasLimit = "0x7a120" // 500,000
	}
	op.MaxFeePerGas, op.MaxPriorityFeePerGas = "0x77359400", "0x3b9aca00" // 2 gwei, 1 gwei
	return op
}

// erc7677 calls method with [op, entryPoint, chainId, context].
func (e *env) erc7677(key, method string, op any, ctx any) (PaymasterData, *Error) {
	e.t.Helper()
	res, _ := e.call(key, method, op, e.chain.Contracts.EntryPoint.Hex(), hexutil.EncodeBig(e.chain.ChainID), ctx)
	var out PaymasterData
	if res.Error == nil {
		if err := json.Unmarshal(res.Result, &out); err != nil {
			e.t.Fatalf("%s answered %s: %v", method, res.Result, err)
		}
	}
	return out, res.Error
}

// validation runs EntryPoint.simulateValidation of op and returns its
// ValidationResult, failing the test on a FailedOp.
func (e *env) validation(op contracts.UserOperation) *contracts.EntryPointValidationResult {
	e.t.Helper()
	ep := contracts.NewEntryPoint()
	var out hexutil.Bytes
	err := e.rpc.Call(&out, "eth_call", map[string]any{"to": e.chain.Contracts.EntryPoint, "data": hexutil.Bytes(ep.PackSimulateValidation(op))}, "latest")
	data := revertData(err)
	res, uerr := ep.UnpackError(data)
	vr, ok := res.(*contracts.EntryPointValidationResult)
	if !ok {
		e.t.Fatalf("simulateValidation: %#v %v (%v)", res, uerr, err)
	}
	return vr
}

// The ERC-7677 methods refuse bad params, other chains and entry points,
// v0.7 operations, keys without the sponsor scope and, for
// pm_getPaymasterData, operations whose gas is not estimated yet, each
// with a JSON-RPC error.
func TestERC7677Refusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Project{Name: "demo", Balance: ether(10), MaxFeePerGas: big.NewInt(10_000_000_000)})
	a := e.newAccount()
	call := e.settleCall(e.chain.Token.Address, 1)
	good := e.estimated(a, 0, true, call)
	ep, chain := e.chain.Contracts.EntryPoint.Hex(), hexutil.EncodeBig(e.chain.ChainID)
	withField := func(field string, v any) map[string]any {
		var m map[string]any
		raw, _ := json.Marshal(good)
		json.Unmarshal(raw, &m)
		m[field] = v
		return m
	}
	both := []string{"pm_getPaymasterStubData", "pm_getPaymasterData"}
	cases := []struct {
		name    string
		methods []string
		key     string
		params  []any
		code    x402.RPCErrorCode
		msg     string
	}{
		{"no params", both, e.sponsor, nil, codeInvalidParams, "want [userOp, entryPoint, chainId, context]"},
		{"no chainId", both, e.sponsor, []any{good, ep}, codeInvalidParams, "want [userOp, entryPoint, chainId, context]"},
		{"too many params", both, e.sponsor, []any{good, ep, chain, nil, 1}, codeInvalidParams, "want [userOp, entryPoint, chainId, context]"},
		{"userOp not an object", both, e.sponsor, []any{"0x1234", ep, chain, nil}, codeInvalidParams, "userOp: want an object"},
		{"bad sender", both, e.sponsor, []any{withField("sender", "0x12"), ep, chain, nil}, codeInvalidParams, "sender"},
		{"bad gas field", both, e.sponsor, []any{withField("callGasLimit", "lots"), ep, chain, nil}, codeInvalidParams, "callGasLimit"},
		{"another entry point", both, e.sponsor, []any{good, "0x0000000071727De22E5E9d8BAf0edAc6f37da032", chain, nil}, codeInvalidParams, "is not supported"},
		{"another chain", both, e.sponsor, []any{good, ep, "0x1", nil}, codeInvalidParams, "is not this paymaster's chain"},
		{"chainId not hex", both, e.sponsor, []any{good, ep, "mainnet", nil}, codeInvalidParams, "want a 0x hex quantity"},
		{"chainId an object", both, e.sponsor, []any{good, ep, map[string]any{}, nil}, codeInvalidParams, "want a 0x hex quantity"},
		{"v0.7 factory", both, e.sponsor, []any{withField("factory", a.initCode[:20]), ep, chain, nil}, codeInvalidParams, "serves EntryPoint v0.6"},
		{"v0.7 paymaster gas", both, e.sponsor, []any{withField("paymasterPostOpGasLimit", "0x1"), ep, chain, nil}, codeInvalidParams, "paymasterPostOpGasLimit"},
		{"context not an object", both, e.sponsor, []any{good, ep, chain, "policy-1"}, codeInvalidParams, "context: want an object"},
		{"token sponsorship", both, e.sponsor, []any{good, ep, chain, map[string]any{"type": 1, "token": e.chain.Token.Address}}, codeInvalidParams, "type 1"},
		{"context type malformed", both, e.sponsor, []any{good, ep, chain, map[string]any{"type": "free"}}, codeInvalidParams, "context"},
		{"validUntil passed", both, e.sponsor, []any{good, ep, chain, map[string]any{"validUntil": 1}}, codeOutOfTimeRange, "validUntil"},
		{"fee over the ceiling", both, e.sponsor, []any{withField("maxFeePerGas", "0xe8d4a51000"), ep, chain, nil}, codeThrottled, "over the ceiling"},
		{"verification gas over the bound", both, e.sponsor, []any{withField("verificationGasLimit", "0x989680"), ep, chain, nil}, codeInvalidParams, "verificationGasLimit 10000000 is over"},
		{"read-only key", both, e.readOnly, []any{good, ep, chain, nil}, codePaymasterRejected, "paymaster:sponsor"},
		{"no key", both, "", []any{good, ep, chain, nil}, codePaymasterRejected, "missing API key"},
		{"gas not estimated", []string{"pm_getPaymasterData"}, e.sponsor, []any{unsigned(a, 0, true, call), ep, chain, nil}, codeInvalidParams, "estimate them first"},
		{"priority fee zero", []string{"pm_getPaymasterData"}, e.sponsor, []any{withField("maxPriorityFeePerGas", "0x0"), ep, chain, nil}, codeInvalidParams, "maxPriorityFeePerGas is zero"},
	}
	for _, tc := range cases {
		for _, m := range tc.methods {
			res, _ := e.call(tc.key, m, tc.params...)
			if res.Error == nil || res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.msg) {
				t.Errorf("%s, %s: %s %+v; want %d (%s)", tc.name, m, res.Result, res.Error, tc.code, tc.msg)
			}
		}
	}
	// None of them reserved anything.
	if u := e.usage("demo"); u.InFlight != 0 || u.SpentToday.Sign() != 0 {
		t.Fatalf("refusals reserved: %+v", u)
	}
	// A context with unknown fields (an app's policy id) is accepted.
	if _, rerr := e.erc7677(e.sponsor, "pm_getPaymasterStubData", unsigned(a, 0, true, call), map[string]any{"policyId": "p-1", "type": 0}); rerr != nil {
		t.Fatalf("stub with an app's context: %+v", rerr)
	}
}

// pm_getPaymasterStubData answers paymasterAndData of the real one's
// length, with no more zero bytes, that lets validation run its real path
// (the paymaster returns SIG_VALIDATION_FAILED instead of reverting) but
// is refused by the EntryPoint: the stub is of no use to send. It
// reserves, signs and spends nothing.
func TestERC7677StubReservesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.newAccount()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, contracts.NewDevUSD().PackTransfer(a.sender, big.NewInt(5_000)), 100_000)
	call := e.settleCall(e.chain.Token.Address, 5_000)

	// As viem sends it: gas fields 0x0, fees filled, a stub signature.
	wire := unsigned(a, 0, true, call)
	wire.CallGasLimit, wire.VerificationGasLimit, wire.PreVerificationGas = "0x0", "0x0", "0x0"
	wire.MaxFeePerGas, wire.MaxPriorityFeePerGas = "0x77359400", "0x3b9aca00"
	stub, rerr := e.erc7677(e.sponsor, "pm_getPaymasterStubData", wire, nil)
	if rerr != nil {
		t.Fatalf("stub: %+v", rerr)
	}
	if stub.IsFinal == nil || *stub.IsFinal || stub.Sponsor == nil || stub.Sponsor.Name != "demo" {
		t.Fatalf("stub = %+v", stub)
	}
	if u := e.usage("demo"); u.InFlight != 0 || u.SpentToday.Sign() != 0 {
		t.Fatalf("the stub reserved: %+v", u)
	}

	real, rerr := e.erc7677(e.sponsor, "pm_getPaymasterData", e.estimated(a, 0, true, call), map[string]any{})
	if rerr != nil {
		t.Fatalf("data: %+v", rerr)
	}
	zeros := func(b []byte) int { return bytes.Count(b, []byte{0}) }
	if len(stub.PaymasterAndData) != len(real.PaymasterAndData) || len(stub.PaymasterAndData) != 20+64+65 ||
		!bytes.Equal(stub.PaymasterAndData[:20], e.chain.Contracts.Paymaster.Bytes()) ||
		zeros(stub.PaymasterAndData) > zeros(real.PaymasterAndData) {
		t.Fatalf("stub %x (%d zero bytes), real %x (%d)", stub.PaymasterAndData, zeros(stub.PaymasterAndData), real.PaymasterAndData, zeros(real.PaymasterAndData))
	}

	// The stub, in an operation the owner signs, validates without a
	// revert but with a failed signature, which the EntryPoint refuses.
	op, err := contracts.UserOperationHex(e.estimated(a, 0, true, call)).Decode(true)
	if err != nil {
		t.Fatal(err)
	}
	op.PaymasterAndData = stub.PaymasterAndData
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)
	if vr := e.validation(op); !vr.ReturnInfo.SigFailed {
		t.Fatalf("the stub passed the paymaster's signature check: %+v", vr.ReturnInfo)
	}
	ep := contracts.NewEntryPoint()
	if r := e.send(e.chain.Accounts[3].Key, e.chain.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, e.chain.Accounts[3].Address), 3_000_000); r.Status != 0 {
		t.Fatalf("handleOps of a stub-sponsored operation succeeded")
	}
	// The real one, signed the same way, passes.
	op.PaymasterAndData = real.PaymasterAndData
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)
	if vr := e.validation(op); vr.ReturnInfo.SigFailed {
		t.Fatalf("the real paymasterAndData failed validation: %+v", vr.ReturnInfo)
	}
}

// pm_getPaymasterData signs the operation's gas as given and reserves it
// once, against the same per-sender rate and in-flight cap as
// pm_sponsor_userop; the stub is refused by the same limits but never
// counts toward them. The signed operation lands.
func TestERC7677DataReservesOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Project{Name: "demo", Balance: ether(10), TxPerMinute: 1, MaxInFlight: 2})
	a, b, c := e.newAccount(), e.newAccount(), e.newAccount()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, contracts.NewDevUSD().PackTransfer(a.sender, big.NewInt(5_000)), 100_000)
	call := e.settleCall(e.chain.Token.Address, 5_000)

	// Stubs count toward nothing: many for a's operation leave its one
	// sponsorship a minute free.
	for range 3 {
		if _, rerr := e.erc7677(e.sponsor, "pm_getPaymasterStubData", unsigned(a, 0, true, call), nil); rerr != nil {
			t.Fatalf("stub: %+v", rerr)
		}
	}
	wire := e.estimated(a, 0, true, call)
	data, rerr := e.erc7677(e.sponsor, "pm_getPaymasterData", wire, nil)
	if rerr != nil {
		t.Fatalf("data: %+v", rerr)
	}
	if data.IsFinal != nil || data.Sponsor == nil || data.Sponsor.Name != "demo" {
		t.Fatalf("data = %+v", data)
	}
	op, _ := contracts.UserOperationHex(wire).Decode(true)
	op.PaymasterAndData = data.PaymasterAndData
	u := e.usage("demo")
	if u.InFlight != 1 || u.SpentToday.Cmp(maxCost(&op)) != 0 {
		t.Fatalf("after one sponsorship: %+v, want 1 in flight charged %s", u, maxCost(&op))
	}

	// a is at its rate: both methods refuse it, and nothing more is
	// reserved.
	for _, m := range []string{"pm_getPaymasterStubData", "pm_getPaymasterData"} {
		if _, rerr := e.erc7677(e.sponsor, m, e.estimated(a, 1, false, call), nil); rerr == nil || rerr.Code != codeThrottled || !strings.Contains(rerr.Message, "per minute per sender") {
			t.Fatalf("%s over the sender's rate: %+v", m, rerr)
		}
	}
	// b takes the second and last slot in flight (shared with
	// pm_sponsor_userop); c is refused by both methods.
	if _, rerr := e.erc7677(e.sponsor, "pm_getPaymasterData", e.estimated(b, 0, true, call), nil); rerr != nil {
		t.Fatalf("b: %+v", rerr)
	}
	for _, m := range []string{"pm_getPaymasterStubData", "pm_getPaymasterData"} {
		if _, rerr := e.erc7677(e.sponsor, m, e.estimated(c, 0, true, call), nil); rerr == nil || rerr.Code != codeThrottled || !strings.Contains(rerr.Message, "in flight") {
			t.Fatalf("%s over the in-flight cap: %+v", m, rerr)
		}
	}
	if rerr := e.sponsorWith(e.sponsor, unsigned(c, 0, true, call)); rerr == nil || rerr.Code != codeThrottled {
		t.Fatalf("pm_sponsor_userop over the in-flight cap: %+v", rerr)
	}
	if u := e.usage("demo"); u.InFlight != 2 {
		t.Fatalf("in flight = %d, want 2", u.InFlight)
	}

	// The owner signs the operation as sent to the paymaster; it lands,
	// and the landing releases its one reservation.
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)
	ev := e.bundle(op)
	if ev.Paymaster != e.chain.Contracts.Paymaster || ev.Sender != a.sender {
		t.Fatalf("event %+v", ev)
	}
	if u := e.usage("demo"); u.InFlight != 1 {
		t.Fatalf("after landing: in flight = %d, want 1", u.InFlight)
	}
}

// FuzzERC7677Params feeds parseERC7677 arbitrary params: it answers a
// JSON-RPC error or a request, never panics.
func FuzzERC7677Params(f *testing.F) {
	s := serviceOn(Config{EntryPoint: common.HexToAddress("0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789"), ChainID: big.NewInt(1337), Paymaster: common.HexToAddress("0x01")})
	f.Add([]byte(`[{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x0","initCode":"0x","callData":"0x12","callGasLimit":"0x1","verificationGasLimit":"0x1","preVerificationGas":"0x1","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1"},"0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789","0x539",{"type":0}]`), true)
	f.Add([]byte(`[{"sender":"0x1111111111111111111111111111111111111111","factory":"0x01"},"0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789",1337,null]`), false)
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
	})
}

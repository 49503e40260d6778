package paymaster

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/contracts/ep08"
	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// newEnvV08 is newEnv serving the devnet's EntryPoints v0.6, v0.7 and v0.8
// through Config.EntryPoints, each with its VerifyingPaymaster and token
// paymaster, dUSD accepted for gas: v0.8 is registered, not coded.
func newEnvV08(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	c := e.chain.Contracts
	e.restart(func(cfg *Config) {
		cfg.EntryPoints = []EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(c.EntryPoint), Paymaster: c.Paymaster, TokenPaymaster: c.TokenPaymaster},
			{EntryPoint: entrypoint.NewV07(c.EntryPointV07), Paymaster: c.PaymasterV07, TokenPaymaster: c.TokenPaymasterV07},
			{EntryPoint: entrypoint.NewV08(c.EntryPointV08), Paymaster: c.PaymasterV08, TokenPaymaster: c.TokenPaymasterV08},
		}
		cfg.EntryPoint, cfg.Paymaster, cfg.TokenPaymaster = common.Address{}, common.Address{}, common.Address{}
		cfg.Tokens = []Token{{Address: e.chain.Token.Address, Price: dUSDPerETH}}
	})
	return e
}

// eoa7702 is one of the devnet's funded EOAs paying as an EIP-7702 account
// of Simple7702Account.
type eoa7702 struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

// authorize signs the EOA's authorization of Simple7702Account at its
// current nonce.
func (e *env) authorize(a eoa7702) *types.SetCodeAuthorization {
	e.t.Helper()
	nonce, err := e.eth.PendingNonceAt(context.Background(), a.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	auth, err := types.SignSetCode(a.key, types.SetCodeAuthorization{ChainID: *uint256.MustFromBig(e.chain.ChainID), Address: e.chain.Contracts.Simple7702Account, Nonce: nonce})
	if err != nil {
		e.t.Fatal(err)
	}
	return &auth
}

// unsignedV08 is the wire form of a's v0.8 operation with its
// authorization, left for the paymaster to complete.
func (e *env) unsignedV08(a eoa7702, nonce int64, callData []byte) ep08.UserOperationHex {
	op := ep07.UserOperation{Sender: a.addr, Nonce: big.NewInt(nonce), Factory: ep08.EIP7702Marker, CallData: callData}
	return ep08.Hex(&op, e.authorize(a))
}

// settleCallV08 is the aa-native payment callData of a v0.8 account:
// executeBatch(Call[]) of approve and settle.
func (e *env) settleCallV08(amount int64) []byte {
	var rh [32]byte
	copy(rh[:], crypto.Keccak256([]byte(e.t.Name()), big.NewInt(amount).Bytes(), []byte(time.Now().String())))
	tok, st := contracts.NewDevUSD(), contracts.NewX402Settlement()
	token := e.chain.Token.Address
	return ep08.NewSimple7702Account().PackExecuteBatch([]ep08.BaseAccountCall{
		{Target: token, Value: new(big.Int), Data: tok.PackApprove(e.chain.Contracts.Settlement, big.NewInt(amount))},
		{Target: e.chain.Contracts.Settlement, Value: new(big.Int), Data: st.PackSettle(e.chain.Accounts[2].Address, token, big.NewInt(amount), rh)},
	})
}

// landedV08 is what one bundled v0.8 operation did.
type landedV08 struct {
	receipt *types.Receipt
	event   *ep08.EntryPointUserOperationEvent
	paid    *ep08.TokenPaymasterV08GasPaidInToken // nil if none
}

// bundleV08 signs op as a (the EIP-712 hash itself) and sends it in a v0.8
// handleOps, in a set-code transaction carrying its authorization, from
// account 0; the transaction must succeed, the operation need not.
func (e *env) bundleV08(a eoa7702, op entrypoint.UserOperation) landedV08 {
	e.t.Helper()
	v8 := entrypoint.NewV08(e.chain.Contracts.EntryPointV08)
	digest := v8.AccountDigest(v8.UserOpHash(&op, e.chain.ChainID))
	sig, err := crypto.Sign(digest[:], a.key)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	op.Signature = sig
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	from := e.chain.Accounts[0]
	nonce, _ := e.eth.PendingNonceAt(ctx, from.Address)
	tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.SetCodeTx{
		ChainID: uint256.MustFromBig(e.chain.ChainID), Nonce: nonce, To: e.chain.Contracts.EntryPointV08, Gas: 3_000_000,
		Data: v8.PackHandleOps([]entrypoint.UserOperation{op}, from.Address), GasTipCap: uint256.NewInt(1e9), GasFeeCap: uint256.NewInt(1e11),
		AuthList: []types.SetCodeAuthorization{*op.EIP7702Auth},
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	r, err := e.chain.Wait(ctx, tx.Hash())
	if err != nil {
		e.t.Fatal(err)
	}
	out := landedV08{receipt: r}
	ep, tpm := ep08.NewEntryPoint(), ep08.NewTokenPaymasterV08()
	for _, l := range r.Logs {
		if x, err := ep.UnpackUserOperationEventEvent(l); err == nil && l.Address == e.chain.Contracts.EntryPointV08 {
			out.event = x
		}
		if x, err := tpm.UnpackGasPaidInTokenEvent(l); err == nil && l.Address == e.chain.Contracts.TokenPaymasterV08 {
			out.paid = x
		}
	}
	if r.Status != types.ReceiptStatusSuccessful || out.event == nil {
		e.t.Fatalf("v0.8 handleOps: status %d, event %+v", r.Status, out.event)
	}
	return out
}

// sponsorV08 asks for sponsorship of a v0.8 operation under context sc.
func (e *env) sponsorV08(op ep08.UserOperationHex, sc map[string]any) entrypoint.UserOperation {
	e.t.Helper()
	res, _ := e.call(e.sponsor, "pm_sponsor_userop", op, e.chain.Contracts.EntryPointV08.Hex(), sc)
	if res.Error != nil {
		e.t.Fatalf("sponsor v0.8 %v: %+v", sc, res.Error)
	}
	got, err := entrypoint.NewV08(e.chain.Contracts.EntryPointV08).DecodeOp(res.Result, false)
	if err != nil {
		e.t.Fatalf("answer %s: %v", res.Result, err)
	}
	return got
}

// TestSponsorV08 sponsors EIP-7702 accounts' v0.8 operations with the
// paymaster code v0.6 and v0.7 run, v0.8 only registered: pm_entrypoints
// lists it; pm_sponsor_userop fills and signs an operation that carries
// its authorization, which lands on EntryPoint v0.8 in a set-code
// transaction and releases its reservation; ERC-7677's stub and data sign
// the next; and gas paid in dUSD under type 1 moves the payer's tokens by
// the price plus what GasPaidInToken says.
func TestSponsorV08(t *testing.T) {
	t.Parallel()
	e := newEnvV08(t)
	c := e.chain.Contracts
	ep08Hex, chainID := c.EntryPointV08.Hex(), hexutil.EncodeBig(e.chain.ChainID)
	res, _ := e.call(e.readOnly, "pm_entrypoints")
	if !strings.Contains(string(res.Result), ep08Hex) || !strings.Contains(string(res.Result), c.EntryPointV07.Hex()) {
		t.Fatalf("pm_entrypoints = %s", res.Result)
	}
	a := eoa7702{key: e.chain.Accounts[6].Key, addr: e.chain.Accounts[6].Address}
	// The approval for type 1, sent by the EOA itself before any bundle
	// moves its nonce (the pool's pending nonce lags a mined authorization).
	e.send(a.key, e.chain.Token.Address, contracts.NewDevUSD().PackApprove(c.TokenPaymasterV08, new(big.Int).Lsh(big.NewInt(1), 255)), 100_000)

	// pm_sponsor_userop, type 0.
	op := e.sponsorV08(e.unsignedV08(a, 0, e.settleCallV08(5_000)), map[string]any{"type": 0})
	if op.Paymaster != c.PaymasterV08 || op.EIP7702Auth == nil || op.Factory != ep08.EIP7702Marker {
		t.Fatalf("sponsored %+v", op)
	}
	if u := e.usage("demo"); u.InFlight != 1 {
		t.Fatalf("after sponsoring: %+v", u)
	}
	l := e.bundleV08(a, op)
	if !l.event.Success || l.event.Paymaster != c.PaymasterV08 || l.event.Sender != a.addr {
		t.Fatalf("event %+v", l.event)
	}
	waitUsage(t, e, func(u Usage) bool { return u.InFlight == 0 && u.SpentToday.Cmp(l.event.ActualGasCost) == 0 })
	t.Logf("v0.8 EIP-7702 type 0: handleOps gas %d, actualGasCost %s", l.receipt.GasUsed, l.event.ActualGasCost)

	// ERC-7677: the stub is not final and reserves nothing; the data signs.
	next := e.unsignedV08(a, 1, e.settleCallV08(4_000))
	next.CallGasLimit, next.VerificationGasLimit, next.PreVerificationGas = "0x30d40", "0x30d40", "0x15f90"
	next.MaxFeePerGas, next.MaxPriorityFeePerGas = "0x77359400", "0x3b9aca00"
	res, _ = e.call(e.sponsor, "pm_getPaymasterStubData", next, ep08Hex, chainID, nil)
	var stub PaymasterDataV07
	if res.Error != nil || json.Unmarshal(res.Result, &stub) != nil || stub.IsFinal == nil || *stub.IsFinal || stub.Paymaster != c.PaymasterV08 {
		t.Fatalf("stub: %s %+v", res.Result, res.Error)
	}
	next.Paymaster, next.PaymasterData = stub.Paymaster.Hex(), stub.PaymasterData.String()
	next.PaymasterVerificationGasLimit, next.PaymasterPostOpGasLimit = stub.PaymasterVerificationGasLimit.String(), stub.PaymasterPostOpGasLimit.String()
	res, _ = e.call(e.sponsor, "pm_getPaymasterData", next, ep08Hex, chainID, nil)
	var data PaymasterDataV07
	if res.Error != nil || json.Unmarshal(res.Result, &data) != nil || data.IsFinal != nil {
		t.Fatalf("data: %s %+v", res.Result, res.Error)
	}
	op2, auth, err := next.Decode(true)
	if err != nil {
		t.Fatal(err)
	}
	op2.PaymasterData = data.PaymasterData
	full := entrypoint.FromV07(op2)
	full.EIP7702Auth = auth
	if l := e.bundleV08(a, full); !l.event.Success {
		t.Fatal("the ERC-7677 operation failed")
	}

	// Type 1: gas in dUSD (the EOA approved TokenPaymasterV08 first).
	const price = 1_000_000
	before := e.tokenBalance(a.addr)
	op3 := e.sponsorV08(e.unsignedV08(a, 2, e.settleCallV08(price)), map[string]any{"type": 1, "token": e.chain.Token.Address.Hex()})
	if op3.Paymaster != c.TokenPaymasterV08 {
		t.Fatalf("type 1 paymaster %s, want TokenPaymasterV08", op3.Paymaster)
	}
	l3 := e.bundleV08(a, op3)
	if !l3.event.Success || l3.paid == nil || l3.paid.Sender != a.addr {
		t.Fatalf("type 1: success %v, GasPaidInToken %+v", l3.event.Success, l3.paid)
	}
	if paid := new(big.Int).Sub(before, e.tokenBalance(a.addr)); paid.Cmp(new(big.Int).Add(big.NewInt(price), l3.paid.TokenCost)) != 0 {
		t.Fatalf("the payer paid %s, want %d plus %s for gas", paid, price, l3.paid.TokenCost)
	}
	t.Logf("v0.8 EIP-7702 type 1: handleOps gas %d, %s dUSD units for gas", l3.receipt.GasUsed, l3.paid.TokenCost)
}

// waitUsage waits, at most 10 s, for the project's usage to satisfy ok.
func waitUsage(t *testing.T, e *env, ok func(Usage) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		u := e.usage("demo")
		if ok(u) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("usage %+v", u)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPaymasterSignatureReplayV08: a VerifyingPaymaster signature is good
// only on the paymaster, and so the EntryPoint version, it was signed
// for. Each paymaster's validatePaymasterUserOp is run (an eth_call from
// its EntryPoint) on an operation sponsored for v0.8, for v0.7 and by
// ERC-7677's stub: the v0.8 signature passes on VerifyingPaymasterV08 and
// fails on v0.7's VerifyingPaymaster, the v0.7 signature the other way
// round, and the stub's fails on both.
func TestPaymasterSignatureReplayV08(t *testing.T) {
	t.Parallel()
	e := newEnvV08(t)
	c := e.chain.Contracts
	a := eoa7702{key: e.chain.Accounts[6].Key, addr: e.chain.Accounts[6].Address}
	op8 := e.sponsorV08(e.unsignedV08(a, 0, e.settleCallV08(5_000)), map[string]any{"type": 0})
	a7 := e.newAccountV07()
	w7 := e.sponsorAsV07(unsignedV07(e, a7, 0, true, e.settleCallV07(5_000)), map[string]any{"type": 0})
	op7 := entrypoint.FromV07(w7)
	stubWire := e.unsignedV08(a, 0, e.settleCallV08(4_000))
	stubWire.CallGasLimit, stubWire.VerificationGasLimit, stubWire.PreVerificationGas = "0x30d40", "0x30d40", "0x15f90"
	stubWire.MaxFeePerGas, stubWire.MaxPriorityFeePerGas = "0x77359400", "0x3b9aca00"
	res, _ := e.call(e.sponsor, "pm_getPaymasterStubData", stubWire, c.EntryPointV08.Hex(), hexutil.EncodeBig(e.chain.ChainID), nil)
	var stub PaymasterDataV07
	if res.Error != nil || json.Unmarshal(res.Result, &stub) != nil {
		t.Fatalf("stub: %s %+v", res.Result, res.Error)
	}
	stubOp, _, err := stubWire.Decode(true)
	if err != nil {
		t.Fatal(err)
	}
	stubbed := entrypoint.FromV07(stubOp)
	stubbed.Paymaster, stubbed.PaymasterData = stub.Paymaster, stub.PaymasterData
	stubbed.PaymasterVerificationGasLimit, stubbed.PaymasterPostOpGasLimit = stub.PaymasterVerificationGasLimit.ToInt(), stub.PaymasterPostOpGasLimit.ToInt()

	// sigFailed runs validatePaymasterUserOp of op as the paymaster of
	// version v sees it (op moved onto that version's paymaster).
	sigFailed := func(t *testing.T, v string, op entrypoint.UserOperation) bool {
		t.Helper()
		var pm, ep common.Address
		var data []byte
		switch v {
		case "0.8":
			pm, ep = c.PaymasterV08, c.EntryPointV08
			op.Paymaster = pm
			p := entrypoint.ToV07(&op)
			data = ep08.NewVerifyingPaymasterV08().PackValidatePaymasterUserOp(ep08.PackedUserOperation(p.Pack()), [32]byte{}, big.NewInt(1))
		default:
			pm, ep = c.PaymasterV07, c.EntryPointV07
			op.Paymaster = pm
			p := entrypoint.ToV07(&op)
			data = ep07.NewVerifyingPaymaster().PackValidatePaymasterUserOp(p.Pack(), [32]byte{}, big.NewInt(1))
		}
		var out hexutil.Bytes
		if err := e.rpc.Call(&out, "eth_call", map[string]any{"from": ep, "to": pm, "data": hexutil.Bytes(data)}, "latest"); err != nil {
			t.Fatalf("validatePaymasterUserOp on v%s: %v", v, err)
		}
		got, err := ep08.NewVerifyingPaymasterV08().UnpackValidatePaymasterUserOp(out)
		if err != nil {
			t.Fatal(err)
		}
		return got.ValidationData.Bit(0) == 1
	}
	for _, tc := range []struct {
		name, on string
		op       entrypoint.UserOperation
		failed   bool
	}{
		{"v0.8 signature on v0.8", "0.8", op8, false},
		{"v0.8 signature replayed on v0.7", "0.7", op8, true},
		{"v0.7 signature on v0.7", "0.7", op7, false},
		{"v0.7 signature replayed on v0.8", "0.8", op7, true},
		{"stub signature on v0.8", "0.8", stubbed, true},
		{"stub signature on v0.7", "0.7", stubbed, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := sigFailed(t, tc.on, tc.op); got != tc.failed {
				t.Fatalf("signature failed %v, want %v", got, tc.failed)
			}
		})
	}
}

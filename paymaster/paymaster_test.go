package paymaster

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// decodeOp turns a sponsored wire operation into the binding's form.
func decodeOp(t testing.TB, raw json.RawMessage) contracts.UserOperation {
	t.Helper()
	var w x402.UserOperation
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	op, err := decodeWire6(&w)
	if err != nil {
		t.Fatal(err)
	}
	op.PaymasterAndData = hexutil.MustDecode(w.PaymasterAndData)
	return op
}

// A UserOperation sponsored by pm_sponsor_userop is accepted by the real
// EntryPoint, deploys the account, settles, and its gas comes out of the
// paymaster's deposit.
func TestSponsoredOperationLands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.newAccount()
	tok := contracts.NewDevUSD()
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(a.sender, big.NewInt(5_000)), 100_000)

	res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 5_000)), e.chain.Contracts.EntryPoint.Hex(), map[string]any{"type": 0})
	if res.Error != nil {
		t.Fatalf("sponsor: %+v", res.Error)
	}
	op := decodeOp(t, res.Result)
	if len(op.PaymasterAndData) != 20+64+65 || op.CallGasLimit.Sign() == 0 || op.VerificationGasLimit.Sign() == 0 || op.PreVerificationGas.Sign() == 0 {
		t.Fatalf("sponsored op = %+v", op)
	}
	if u, _ := e.svc.Usage(context.Background(), "demo"); u.InFlight != 1 {
		t.Fatalf("in flight = %d, want 1", u.InFlight)
	}
	// The payer signs last.
	hash := contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID)
	op.Signature, _ = contracts.SignHash(hash, a.owner)

	ep := contracts.NewEntryPoint()
	var out hexutil.Bytes
	e.ethCall(e.chain.Contracts.EntryPoint, ep.PackBalanceOf(e.chain.Contracts.Paymaster), &out)
	before, _ := ep.UnpackBalanceOf(out)
	r := e.send(e.chain.Accounts[0].Key, e.chain.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, e.chain.Accounts[0].Address), 3_000_000)
	var ev *contracts.EntryPointUserOperationEvent
	for _, l := range r.Logs {
		if x, err := ep.UnpackUserOperationEventEvent(l); err == nil {
			ev = x
		}
	}
	if r.Status != types.ReceiptStatusSuccessful || ev == nil || !ev.Success || ev.Paymaster != e.chain.Contracts.Paymaster || ev.UserOpHash != hash {
		t.Fatalf("handleOps: status %d, event %+v", r.Status, ev)
	}
	e.ethCall(e.chain.Contracts.EntryPoint, ep.PackBalanceOf(e.chain.Contracts.Paymaster), &out)
	after, _ := ep.UnpackBalanceOf(out)
	if paid := new(big.Int).Sub(before, after); paid.Cmp(ev.ActualGasCost) != 0 || paid.Sign() == 0 {
		t.Fatalf("paymaster deposit went down by %s, the op cost %s", paid, ev.ActualGasCost)
	}
	// Once it landed it is no longer in flight, and the project was charged
	// its actual cost only.
	u, _ := e.svc.Usage(context.Background(), "demo")
	if u.InFlight != 0 || new(big.Int).Sub(ether(10), u.Balance).Cmp(ev.ActualGasCost) != 0 {
		t.Fatalf("usage after landing: %+v (cost %s)", u, ev.ActualGasCost)
	}
}

func TestErrorCodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Project{Name: "demo", Balance: ether(10)}, Project{Name: "poor", Balance: big.NewInt(1000), MaxOpCost: ether(1)}, Project{Name: "cheap", Balance: ether(1), MaxFeePerGas: big.NewInt(1)})
	poorKey, _, _ := e.svc.Keys().Create("poor", "testnet", []string{ScopeSponsor})
	cheapKey, _, _ := e.svc.Keys().Create("cheap", "testnet", []string{ScopeSponsor})
	ep := e.chain.Contracts.EntryPoint.Hex()
	a := e.newAccount()
	good := func() x402.UserOperation { return unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1)) }

	// A deployed account whose call reverts: settle an unallowed token.
	deployed := e.newAccount()
	e.send(e.chain.Accounts[0].Key, e.chain.Contracts.AccountFactory, contracts.NewSimpleAccountFactory().PackCreateAccount(crypto.PubkeyToAddress(deployed.owner.PublicKey), big.NewInt(0)), 500_000)

	tests := []struct {
		name   string
		key    string
		params []any
		code   x402.RPCErrorCode
		msg    string
	}{
		{"-32521 call reverts", e.sponsor, []any{unsigned(deployed, 0, false, e.settleCall(e.chain.Contracts.Settlement, 1)), ep}, -32521, "reverts"},
		{"-32602 bad field", e.sponsor, []any{func() x402.UserOperation { o := good(); o.CallGasLimit = "0xzz"; return o }(), ep}, -32602, "callGasLimit"},
		{"-32602 bad sender", e.sponsor, []any{func() x402.UserOperation { o := good(); o.Sender = "me"; return o }(), ep}, -32602, "sender"},
		{"-32602 wrong entry point", e.sponsor, []any{good(), e.chain.Contracts.Paymaster.Hex()}, -32602, "not supported"},
		{"-32602 ERC-20 gas", e.sponsor, []any{good(), ep, map[string]any{"type": 1, "token": e.chain.Token.Address.Hex()}}, -32602, "type 1"},
		{"-32500 account not deployed", e.sponsor, []any{unsigned(a, 0, false, e.settleCall(e.chain.Token.Address, 1)), ep}, -32500, "AA20"},
		{"-32501 read-only key", e.readOnly, []any{good(), ep}, -32501, "lacks the paymaster:sponsor scope"},
		{"-32501 balance", poorKey, []any{good(), ep}, -32501, "sponsorship balance"},
		{"-32501 missing key", "", []any{good(), ep}, -32501, "missing API key"},
		{"-32501 wrong key", "pmk_nope", []any{good(), ep}, -32501, "invalid API key"},
		{"-32503 expired window", e.sponsor, []any{good(), ep, map[string]any{"type": 0, "validUntil": time.Now().Unix() - 10}}, -32503, "validUntil"},
		{"-32504 fee ceiling", cheapKey, []any{good(), ep}, -32504, "ceiling"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := e.call(tc.key, "pm_sponsor_userop", tc.params...)
			if res.Error == nil || res.Error.Code != tc.code || !strings.Contains(res.Error.Message, tc.msg) {
				t.Fatalf("got %+v, want %d containing %q", res.Error, tc.code, tc.msg)
			}
		})
	}
	seen := map[x402.RPCErrorCode]bool{}
	for _, tc := range tests {
		seen[tc.code] = true
	}
	for _, c := range x402.RPCErrorCodes {
		if !seen[c] {
			t.Errorf("no case reaches %d", c)
		}
	}
}

func TestRateLimitPerSender(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.newAccount()
	op := unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1))
	for i := 1; i <= 30; i++ {
		if res, _ := e.call(e.sponsor, "pm_sponsor_userop", op, e.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
			t.Fatalf("operation %d refused: %+v", i, res.Error)
		}
	}
	res, resp := e.call(e.sponsor, "pm_sponsor_userop", op, e.chain.Contracts.EntryPoint.Hex())
	if res.Error == nil || res.Error.Code != -32504 || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("31st: %d %+v", resp.StatusCode, res.Error)
	}
	// Another sender is not affected.
	if res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
		t.Fatalf("another sender: %+v", res.Error)
	}
}

func TestInFlightLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := 1; i <= 50; i++ {
		if res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex()); res.Error != nil {
			t.Fatalf("operation %d refused: %+v", i, res.Error)
		}
	}
	res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex())
	if res.Error == nil || res.Error.Code != -32504 || !strings.Contains(res.Error.Message, "in flight") {
		t.Fatalf("51st: %+v", res.Error)
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ep := e.chain.Contracts.EntryPoint.Hex()
	if res, _ := e.call(e.readOnly, "pm_entrypoints"); res.Error != nil || !strings.Contains(string(res.Result), e.chain.Contracts.EntryPoint.Hex()) {
		t.Fatalf("read key, pm_entrypoints: %s %+v", res.Result, res.Error)
	}
	// The legacy form: the key as params[1], no header.
	a := e.newAccount()
	if res, _ := e.call("", "pm_sponsor_userop", unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1)), e.sponsor, ep, map[string]any{"type": 0}); res.Error != nil {
		t.Fatalf("legacy key: %+v", res.Error)
	}
	if res, _ := e.call("", "pm_supported_tokens", unsigned(a, 0, true, []byte{1}), e.readOnly, ep); res.Error != nil || !strings.Contains(string(res.Result), `"freeGas":true`) {
		t.Fatalf("legacy supported tokens: %s %+v", res.Result, res.Error)
	}
	// Rotation: the old key fails at once, the new one works.
	_, rec, err := e.svc.Keys().Create("demo", "testnet", []string{ScopeRead})
	if err != nil {
		t.Fatal(err)
	}
	list, _ := e.svc.Keys().List()
	old := ""
	for _, k := range list {
		if k.ID == rec.ID {
			old = k.ID
		}
	}
	fresh, _, err := e.svc.Keys().Rotate(old)
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := e.call(fresh, "pm_entrypoints"); res.Error != nil {
		t.Fatalf("rotated-in key: %+v", res.Error)
	}
	rotatedOut := e.readOnly
	id := idOf(rotatedOut)
	if _, _, err := e.svc.Keys().Rotate(id); err != nil {
		t.Fatal(err)
	}
	if res, _ := e.call(rotatedOut, "pm_entrypoints"); res.Error == nil || res.Error.Code != -32501 {
		t.Fatalf("a rotated key still works: %+v", res.Error)
	}
	if err := e.svc.Keys().Revoke(idOf(e.sponsor)); err != nil {
		t.Fatal(err)
	}
	if res, _ := e.call(e.sponsor, "pm_entrypoints"); res.Error == nil || res.Error.Code != -32501 {
		t.Fatalf("a revoked key still works: %+v", res.Error)
	}
	for _, k := range list {
		if strings.Contains(k.ID, "pmk_") && len(k.ID) > len(keyPrefix)+8 {
			t.Fatalf("a listed id carries the whole key: %s", k.ID)
		}
	}
}

// 100 parallel sponsorships for one sender with a limit of 30 per minute:
// exactly 30 pass and the counters match them exactly.
func TestCountersUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Project{Name: "demo", Balance: ether(10), MaxInFlight: 1000})
	a := e.newAccount()
	op := unsigned(a, 0, true, e.settleCall(e.chain.Token.Address, 1))
	var (
		wg         sync.WaitGroup
		mu         sync.Mutex
		ok, denied int
		cost       *big.Int
	)
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, _ := e.call(e.sponsor, "pm_sponsor_userop", op, e.chain.Contracts.EntryPoint.Hex())
			mu.Lock()
			defer mu.Unlock()
			switch {
			case res.Error == nil:
				ok++
				sponsored := decodeOp(t, res.Result)
				cost = maxCost(&sponsored)
			case res.Error.Code == -32504:
				denied++
			default:
				t.Errorf("unexpected %+v", res.Error)
			}
		}()
	}
	wg.Wait()
	if ok != 30 || denied != 70 {
		t.Fatalf("%d sponsored, %d denied; want 30 and 70", ok, denied)
	}
	u, _ := e.svc.Usage(context.Background(), "demo")
	want := new(big.Int).Sub(ether(10), new(big.Int).Mul(cost, big.NewInt(30)))
	if u.InFlight != 30 || u.Balance.Cmp(want) != 0 || u.SpentToday.Cmp(new(big.Int).Mul(cost, big.NewInt(30))) != 0 {
		t.Fatalf("usage %+v, want 30 in flight and balance %s", u, want)
	}
}

func TestJSONRPCProtocol(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tests := []struct {
		name, body string
		code       x402.RPCErrorCode
	}{
		{"parse error", `{"jsonrpc":"2.0",`, -32700},
		{"not an object", `"hello"`, -32600},
		{"no version", `{"id":1,"method":"pm_entrypoints"}`, -32600},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"eth_sendUserOperation"}`, -32601},
		{"object params", `{"jsonrpc":"2.0","id":1,"method":"pm_entrypoints","params":{"a":1}}`, -32602},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, resp := e.post(e.sponsor, []byte(tc.body))
			if res.Error == nil || res.Error.Code != tc.code || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%+v", res.Error)
			}
		})
	}
	t.Run("batch with a notification", func(t *testing.T) {
		body := `[{"jsonrpc":"2.0","id":1,"method":"pm_entrypoints"},{"jsonrpc":"2.0","method":"pm_entrypoints"},{"jsonrpc":"2.0","id":"x","method":"nope"}]`
		req, _ := http.NewRequest("POST", e.srv.URL, strings.NewReader(body))
		req.Header.Set("X-API-Key", e.sponsor)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out []rpcResponse
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out) != 2 || out[0].Error != nil || out[1].Error.Code != -32601 || string(out[1].ID) != `"x"` {
			t.Fatalf("batch: %+v %v", out, err)
		}
	})
	t.Run("only a notification", func(t *testing.T) {
		_, resp := e.post(e.sponsor, []byte(`{"jsonrpc":"2.0","method":"pm_entrypoints"}`))
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("status %d", resp.StatusCode)
		}
	})
	t.Run("health", func(t *testing.T) {
		resp, err := http.Get(e.srv.URL + "/health")
		if err != nil {
			t.Fatal(err)
		}
		var h map[string]string
		json.NewDecoder(resp.Body).Decode(&h)
		resp.Body.Close()
		if h["status"] != "ok" || h["service"] != ServiceName || h["version"] == "" {
			t.Fatalf("health %v", h)
		}
	})
	t.Run("wrong content type", func(t *testing.T) {
		resp, _ := http.Post(e.srv.URL, "text/plain", strings.NewReader("{}"))
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("status %d", resp.StatusCode)
		}
	})
}

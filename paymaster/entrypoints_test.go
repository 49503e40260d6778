package paymaster

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/entrypoint/entrypointtest"
)

// fakeChain answers the fake EntryPoint's simulation, and passes every
// other call to the chain.
type fakeChain struct {
	Chain
	fake *entrypointtest.Fake
}

func (c fakeChain) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if method == "eth_call" && len(args) > 0 {
		if msg, ok := args[0].(map[string]any); ok && msg["to"] == c.fake.At {
			data, _ := msg["data"].(hexutil.Bytes)
			if out, revert, ok := c.fake.Answer(data); ok {
				if revert != nil {
					return revertError{revert}
				}
				*result.(*hexutil.Bytes) = out
				return nil
			}
		}
	}
	return c.Chain.CallContext(ctx, result, method, args...)
}

// TestFakeVersion sponsors on an EntryPoint version registered only in
// this test (entrypointtest.Fake): the paymaster fills, bounds, signs,
// simulates, reserves and answers it through the EntryPoint interface
// alone, and refuses its FailedOp as it does any version's.
func TestFakeVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fake := &entrypointtest.Fake{
		At:     common.HexToAddress("0x00000000000000000000000000000000000e7e57"),
		Refuse: func(op *entrypoint.UserOperation) bool { return bytes.HasPrefix(op.CallData, []byte{0xba, 0xd0}) },
	}
	fakePM := common.HexToAddress("0x00000000000000000000000000000000000fa4e0")
	e.restart(func(c *Config) {
		c.EntryPoints = []EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(e.chain.Contracts.EntryPoint), Paymaster: e.chain.Contracts.Paymaster},
			{EntryPoint: fake, Paymaster: fakePM},
		}
		c.EntryPoint, c.Paymaster, c.TokenPaymaster = common.Address{}, common.Address{}, common.Address{}
		c.Chain = fakeChain{Chain: c.Chain, fake: fake}
	})
	sender := common.HexToAddress("0x0000000000000000000000000000000000005e4d")
	unsignedOp := func(callData string) map[string]any {
		return map[string]any{"sender": sender, "nonce": "0x0", "callData": callData, "paymaster": common.Address{}, "paymasterData": "0x", "signature": "0x"}
	}

	t.Run("entrypoints", func(t *testing.T) {
		res, _ := e.call(e.sponsor, "pm_entrypoints")
		var eps []common.Address
		if err := json.Unmarshal(res.Result, &eps); err != nil || len(eps) != 2 || eps[1] != fake.At {
			t.Fatalf("pm_entrypoints = %s (%v), want the fake one second", res.Result, err)
		}
	})

	t.Run("sponsored", func(t *testing.T) {
		before := e.usage("demo")
		res, resp := e.call(e.sponsor, "pm_sponsor_userop", unsignedOp("0x1234"), fake.At.Hex(), map[string]any{"type": 0})
		if res.Error != nil || resp.StatusCode != 200 {
			t.Fatalf("sponsoring on the fake version: %d %+v", resp.StatusCode, res.Error)
		}
		op, err := fake.DecodeOp(res.Result, false)
		if err != nil {
			t.Fatal(err)
		}
		if op.Paymaster != fakePM || op.PaymasterVerificationGasLimit.Int64() != entrypointtest.PaymasterGas || op.VerificationGasLimit.Int64() != entrypointtest.VerificationGas ||
			op.PreVerificationGas.Int64() != entrypointtest.PreVerificationGas || op.CallGasLimit.Sign() == 0 || op.MaxFeePerGas.Sign() == 0 {
			t.Fatalf("the fake's fields were not filled as it says: %s", res.Result)
		}
		if len(op.PaymasterData) != 8+65 || fake.Hashed() == 0 {
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
		res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsignedOp("0xbad0"), fake.At.Hex(), map[string]any{"type": 0})
		if res.Error == nil || res.Error.Code != codePaymasterRejected {
			t.Fatalf("a FailedOp AA33 of the fake: %+v, want %d", res.Error, codePaymasterRejected)
		}
	})

	t.Run("stub", func(t *testing.T) {
		res, _ := e.call(e.sponsor, "pm_getPaymasterStubData", unsignedOp("0x1234"), fake.At.Hex(), hexutil.EncodeBig(e.chain.ChainID), nil)
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

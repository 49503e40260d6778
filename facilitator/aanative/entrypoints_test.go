package aanative

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/entrypoint/entrypointtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// fakeVersionChain is a chain where the account is deployed with owner,
// the request is not settled, the account holds plenty of token, and the
// fake EntryPoint answers its simulation.
type fakeVersionChain struct {
	fake  *entrypointtest.Fake
	owner common.Address
}

func (c fakeVersionChain) CallContext(_ context.Context, result any, method string, _ ...any) error {
	switch method {
	case "eth_getCode":
		*result.(*hexutil.Bytes) = hexutil.Bytes{1}
	case "eth_call": // the account's owner()
		*result.(*hexutil.Bytes) = common.LeftPadBytes(c.owner.Bytes(), 32)
	default:
		return fmt.Errorf("unexpected %s", method)
	}
	return nil
}

func (c fakeVersionChain) BatchCallContext(_ context.Context, b []rpc.BatchElem) error {
	for i := range b {
		if b[i].Method == "eth_getBlockByNumber" {
			b[i].Error = json.Unmarshal(fmt.Appendf(nil, `{"timestamp":"0x%x"}`, time.Now().Unix()), b[i].Result)
			continue
		}
		msg := b[i].Args[0].(map[string]any)
		out := b[i].Result.(*hexutil.Bytes)
		switch msg["to"] {
		case c.fake.At:
			answer, revert, _ := c.fake.Answer(msg["data"].(hexutil.Bytes))
			if revert != nil {
				b[i].Error = revertError{revert}
			}
			*out = answer
		case settlement: // isSettled: no
			*out = make([]byte, 32)
		case token: // balanceOf: plenty
			*out = common.LeftPadBytes(big.NewInt(1e12).Bytes(), 32)
		}
	}
	return nil
}

// TestFakeVersion verifies aa-native payments on an EntryPoint version
// registered only in this test (entrypointtest.Fake): its wire form, its
// account's calls, its hash, its paymaster and its simulation are the
// fake's, and the scheme checks them through the EntryPoint interface
// alone.
func TestFakeVersion(t *testing.T) {
	t.Parallel()
	fake := &entrypointtest.Fake{
		At:     common.HexToAddress("0x00000000000000000000000000000000000e7e57"),
		Refuse: func(op *entrypoint.UserOperation) bool { return op.Nonce.Int64() == 7 },
	}
	key, _ := crypto.GenerateKey()
	stranger, _ := crypto.GenerateKey()
	owner := crypto.PubkeyToAddress(key.PublicKey)
	pm := common.HexToAddress("0x00000000000000000000000000000000000fa4e0")
	s, err := New(Config{
		ChainID: big.NewInt(31337), Settlement: settlement, Assets: []common.Address{token},
		Chain: fakeVersionChain{fake: fake, owner: owner},
		EntryPoints: []EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")), Factory: common.Address{1}, Paymaster: common.Address{2}},
			{EntryPoint: fake, Factory: common.Address{3}, Paymaster: pm},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	extra := s.Extras("")[1]
	if extra.EntryPoint != fake.At.Hex() || extra.EntryPointVersion != "9.9-test" {
		t.Fatalf("the fake's offer: %+v", extra)
	}
	rh := common.Hash{9}
	callData, _ := fake.EncodeAccountCall([]entrypoint.Call{
		{Target: token, Data: contracts.NewDevUSD().PackApprove(settlement, big.NewInt(10))},
		{Target: settlement, Data: contracts.NewX402Settlement().PackSettle(merchant, token, big.NewInt(10), rh)},
	})
	req := x402.PaymentRequirements{Scheme: x402.SchemeAANative, Network: x402.FormatNetwork(31337), Asset: token.Hex(), Amount: "10", PayTo: merchant.Hex(), Extra: extra}
	payment := func(nonce int64, signer func(common.Hash) []byte, extraField string) *x402.VerifyRequest {
		op := entrypoint.UserOperation{
			Sender: common.Address{0x5e}, Nonce: big.NewInt(nonce), CallData: callData,
			CallGasLimit: big.NewInt(1), VerificationGasLimit: big.NewInt(1), PreVerificationGas: big.NewInt(1), MaxFeePerGas: big.NewInt(1), MaxPriorityFeePerGas: big.NewInt(1),
			Paymaster: pm, PaymasterVerificationGasLimit: big.NewInt(entrypointtest.PaymasterGas), PaymasterData: []byte{1, 2, 3},
		}
		op.Signature = signer(fake.UserOpHash(&op, big.NewInt(31337)))
		userOp, _ := json.Marshal(fake.EncodeOp(&op))
		if extraField != "" {
			userOp = append(userOp[:len(userOp)-1], []byte(`,"`+extraField+`":"0x"}`)...)
		}
		raw := fmt.Appendf(nil, `{"userOp":%s,"settlementCallSpec":{"merchant":%q,"token":%q,"amount":"10","requestHash":%q}}`, userOp, merchant.Hex(), token.Hex(), rh.Hex())
		return &x402.VerifyRequest{PaymentPayload: x402.PaymentPayload{X402Version: 2, Accepted: req, Payload: raw}, PaymentRequirements: req}
	}
	sign := func(h common.Hash) []byte { sig, _ := contracts.SignHash(h, key); return sig }
	signStranger := func(h common.Hash) []byte { sig, _ := contracts.SignHash(h, stranger); return sig }
	for _, tc := range []struct {
		name   string
		vr     *x402.VerifyRequest
		reason x402.InvalidReason
		detail string
	}{
		{"paid", payment(0, sign, ""), "", ""},
		{"refused in simulation", payment(7, sign, ""), x402.ReasonInvalidInnerPayload, "AA33 fake refusal"},
		{"signed by another key", payment(0, signStranger, ""), x402.ReasonSignatureInvalid, "not signed by the account's owner"},
		{"another version's field", payment(0, sign, "initCode"), x402.ReasonInvalidInnerPayload, "initCode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pay, err := s.Decode(tc.vr)
			if err == nil {
				err = s.Verify(context.Background(), pay, tc.vr)
			}
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("verifying on the fake version: %v", err)
				}
				st := s.Settlement(pay)
				if st.EntryPoint != fake || st.Op == nil || st.Op.Sender != (common.Address{0x5e}) {
					t.Fatalf("settlement %+v, want the fake's operation", st)
				}
				return
			}
			var xe *x402.Error
			if !errors.As(err, &xe) || xe.Reason != tc.reason || !strings.Contains(xe.Error(), tc.detail) {
				t.Fatalf("got %v, want %s (%s)", err, tc.reason, tc.detail)
			}
		})
	}
}

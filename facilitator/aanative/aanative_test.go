package aanative

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/x402"
)

type noChain struct{}

func (noChain) CallContext(context.Context, any, string, ...any) error { return errors.New("no chain") }
func (noChain) BatchCallContext(context.Context, []rpc.BatchElem) error {
	return errors.New("no chain")
}

var (
	token      = common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9")
	settlement = common.HexToAddress("0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9")
	merchant   = common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
)

func newScheme(t testing.TB) *Scheme {
	s, err := New(Config{
		ChainID: big.NewInt(31337), Settlement: settlement, Assets: []common.Address{token}, Chain: noChain{},
		EntryPoints: []EntryPointConfig{
			{EntryPoint: entrypoint.NewV06(common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")),
				Factory: common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"), Paymaster: common.HexToAddress("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0")},
			{EntryPoint: entrypoint.NewV07(ep07.Address), Factory: common.HexToAddress("0xa110be89BD580695FDdD3cE39888AeBBa400AE70"),
				Paymaster: common.HexToAddress("0x13AeC97F4652F65bb820E579C8251e798D533fD6")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func batch(approveTo common.Address, approveAmount, amount int64, to common.Address) []byte {
	rh := [32]byte{9}
	return contracts.NewSimpleAccount().PackExecuteBatch(
		[]common.Address{token, to},
		[][]byte{contracts.NewDevUSD().PackApprove(approveTo, big.NewInt(approveAmount)), contracts.NewX402Settlement().PackSettle(merchant, token, big.NewInt(amount), rh)},
	)
}

func TestParseCallData(t *testing.T) {
	t.Parallel()
	s := newScheme(t)
	settle := contracts.NewX402Settlement().PackSettle(merchant, token, big.NewInt(10), [32]byte{9})
	tests := []struct {
		name string
		data []byte
		ok   bool
	}{
		{"executeBatch(approve, settle)", batch(settlement, 10, 10, settlement), true},
		{"execute(settle)", contracts.NewSimpleAccount().PackExecute(settlement, new(big.Int), settle), true},
		{"approve less than settled", batch(settlement, 9, 10, settlement), false},
		{"approve another spender", batch(merchant, 10, 10, settlement), false},
		{"settle on another contract", batch(settlement, 10, 10, merchant), false},
		{"execute with value", contracts.NewSimpleAccount().PackExecute(settlement, big.NewInt(1), settle), false},
		{"execute elsewhere", contracts.NewSimpleAccount().PackExecute(merchant, new(big.Int), settle), false},
		{"a transfer", contracts.NewSimpleAccount().PackExecute(token, new(big.Int), contracts.NewDevUSD().PackTransfer(merchant, big.NewInt(1))), false},
		{"empty", nil, false},
		{"garbage", []byte{1, 2, 3, 4, 5}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := s.ParseCallData(tc.data)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && (got.Merchant != merchant || got.Token != token || got.Amount.Int64() != 10 || got.RequestHash != (common.Hash{9})) {
				t.Fatalf("parsed %+v", got)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	s := newScheme(f)
	op := contracts.UserOperation{
		Sender: merchant, Nonce: big.NewInt(0), InitCode: []byte{}, CallData: batch(settlement, 10, 10, settlement),
		CallGasLimit: big.NewInt(1), VerificationGasLimit: big.NewInt(1), PreVerificationGas: big.NewInt(1),
		MaxFeePerGas: big.NewInt(1), MaxPriorityFeePerGas: big.NewInt(1), PaymasterAndData: []byte{}, Signature: []byte{},
	}
	good, _ := json.Marshal(x402.AANativePayload{
		UserOp:             x402.UserOperation(op.Hex()),
		SettlementCallSpec: x402.SettlementCallSpec{Merchant: merchant.Hex(), Token: token.Hex(), Amount: "10", RequestHash: hexutil.Encode(common.Hash{9}.Bytes())},
	})
	f.Add(good, false)
	f.Add([]byte(`{"userOp":{},"settlementCallSpec":{}}`), true)
	f.Add([]byte(`[]`), false)
	f.Add([]byte(`{"userOp":{"sender":"0x1111111111111111111111111111111111111111","nonce":"0x0","factory":"0x01","factoryData":"0x02","callData":"0x12","callGasLimit":"0x1","verificationGasLimit":"0x1","preVerificationGas":"0x1","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x1","paymaster":"0x03","paymasterVerificationGasLimit":"0x1","paymasterPostOpGasLimit":"0x0","paymasterData":"0x","signature":"0x"},"settlementCallSpec":{"merchant":"0x1111111111111111111111111111111111111111","token":"0x1111111111111111111111111111111111111111","amount":"1","requestHash":"0x0900000000000000000000000000000000000000000000000000000000000000"}}`), true)
	v07 := &x402.PaymentRequirements{Extra: &x402.Extra{EntryPoint: ep07.Address.Hex(), EntryPointVersion: "0.7"}}
	f.Fuzz(func(t *testing.T, raw []byte, asV07 bool) {
		req := &x402.PaymentRequirements{}
		if asV07 {
			req = v07
		}
		pay, err := s.decodePayload(&x402.PaymentPayload{Payload: raw}, req)
		if err != nil {
			var xe *x402.Error
			if !errors.As(err, &xe) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if pay.RequestHash == (common.Hash{}) || pay.Amount == nil {
			t.Fatalf("decoded %+v", pay)
		}
		_, _ = s.parseCallData(pay.EntryPoint, pay.Op.CallData) // must not panic
		if asV07 && (pay.EntryPoint.Address() != ep07.Address || pay.UserOpHash != ep07.UserOpHash(entrypoint.ToV07(&pay.Op), ep07.Address, big.NewInt(31337))) {
			t.Fatalf("a v0.7 payment decoded as %+v", pay)
		}
	})
}

// cutShort is a node whose simulateValidation reverts with revert, and
// whose latest block is at time 1.
type cutShort struct{ revert []byte }

type revertError struct{ data []byte }

func (e revertError) Error() string  { return "execution reverted" }
func (e revertError) ErrorCode() int { return 3 }
func (e revertError) ErrorData() any { return hexutil.Encode(e.data) }

func (cutShort) CallContext(context.Context, any, string, ...any) error {
	return errors.New("no chain")
}
func (c cutShort) BatchCallContext(_ context.Context, b []rpc.BatchElem) error {
	b[0].Error = revertError{c.revert}
	return json.Unmarshal([]byte(`{"timestamp":"0x1"}`), b[1].Result)
}

// A node whose simulateValidation answers ValidationResult or FailedOp
// with the data cut short gets the payment refused, never a panic.
func TestSimulationCutShort(t *testing.T) {
	t.Parallel()
	a, _ := contracts.EntryPointMetaData.ParseABI()
	for _, name := range []string{"ValidationResult", "FailedOp"} {
		s := newScheme(t)
		s.cfg.Chain = cutShort{append(a.Errors[name].ID.Bytes()[:4:4], make([]byte, 40)...)}
		pay := &Payment{Op: entrypoint.UserOperation{Sender: common.Address{1}, Nonce: new(big.Int), CallGasLimit: new(big.Int),
			VerificationGasLimit: new(big.Int), PreVerificationGas: new(big.Int), MaxFeePerGas: new(big.Int), MaxPriorityFeePerGas: new(big.Int)},
			EntryPoint: s.eps[0].EntryPoint, at: &s.eps[0]}
		var inv *x402.Error
		if err := s.simulate(context.Background(), pay); !errors.As(err, &inv) {
			t.Errorf("%s cut short: %v, want a refusal", name, err)
		}
	}
}
